#pragma once
/// SELL-C-σ with 16-bit column offsets (GPU variant "sell_i16" of the host format "sell").
/// Each column index is stored as an offset from its slice's base column (the smallest real
/// column of the slice): 2 instead of 4 index bytes per slot, one 4-byte base per slice. On a
/// banded matrix the columns of a slice lie close together (pde150: a 32-row slice spans
/// < 45,100 columns), so SpMV moves 6 B per slot in float and 10 B in double instead of 8 and
/// 12. The kernel is sell's (one thread per stored row, C = 32 fast path) with x shifted by the
/// slice's base. Padding slots hold padding_index<std::uint16_t> (0xFFFF), so a real offset is at
/// most 0xFFFE: a slice fits when its columns span at most 65,535 (max - min + 1); upload throws
/// NotApplicable (an InvalidArgument) naming the first slice that does not.
///
/// A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], SELL-2-4 (sorted, row_perm = [0 2 3 1]):
///   col_idxs = [0 0 | 2 2 | 3 3 || 1 1 | 3 -]      slice_ptrs = [0 6 10]
///   bases    = [0 1]
///   offsets  = [0 0 | 2 2 | 3 3 || 0 0 | 2 -]      (- = 0xFFFF)
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/formats/sell.hpp>
#include <spmv/gpu/declare.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

/// Widest column span (max - min + 1) a slice may have: offsets 0..0xFFFE, 0xFFFF is padding.
inline constexpr std::int64_t sell_i16_max_span = 65535;

/// The 16-bit column encoding of a SELL-C-σ matrix: one base per slice, one offset per slot.
struct SellI16Columns {
    std::vector<std::int32_t> bases;     ///< num_slices: smallest real column (0: no real slot)
    std::vector<std::uint16_t> offsets;  ///< slice_ptrs[num_slices]: col - base, or 0xFFFF
};

/// Encodes the columns of SELL slices (col_idxs with padding_index, slot ranges slice_ptrs).
/// Plain host code, built with and without CUDA. Throws NotApplicable ("sell_i16: slice s
/// (stored rows ...) spans columns a..b (...); use sell") when a slice spans more than
/// sell_i16_max_span columns.
SellI16Columns encode_sell_i16_columns(std::int32_t slice_height,
                                       std::span<const std::int32_t> slice_ptrs,
                                       std::span<const std::int32_t> col_idxs);

/// @copydoc encode_sell_i16_columns
template <typename ValueType>
SellI16Columns encode_sell_i16_columns(const SellCSigma<ValueType, std::int32_t>& a)
{
    return encode_sell_i16_columns(a.slice_height, a.slice_ptrs, a.col_idxs);
}

template <typename ValueType>
struct DeviceSellI16 {
    std::int32_t num_rows = 0;
    std::int32_t num_cols = 0;
    std::int32_t slice_height = 32;           ///< C
    std::int32_t sort_window = 1;             ///< σ
    std::int32_t max_width = 0;               ///< the widest slice's width
    bool identity_perm = true;                ///< row_perm[k] == k for all k: not read
    DeviceBuffer<std::int32_t> slice_ptrs;    ///< num_slices + 1
    DeviceBuffer<std::int32_t> slice_widths;  ///< num_slices
    DeviceBuffer<std::int32_t> slice_bases;   ///< num_slices
    DeviceBuffer<std::int32_t> row_perm;      ///< num_rows
    DeviceBuffer<std::uint16_t> col_offsets;  ///< slice_ptrs[num_slices]
    DeviceBuffer<ValueType> values;
    std::int32_t order_block_rows = 0;       ///< as DeviceSell's (block_order.hpp)
    DeviceBuffer<std::int32_t> block_order;  ///< as DeviceSell's: blocks widest first, or empty

    std::size_t device_bytes() const noexcept
    {
        return slice_ptrs.bytes() + slice_widths.bytes() + slice_bases.bytes() + row_perm.bytes() +
               col_offsets.bytes() + values.bytes() + block_order.bytes();
    }
};

/// Named upload_sell_i16, not upload: upload(const SellCSigma&) already returns a DeviceSell
/// (spmv/gpu/sell.hpp), and two overloads differing only in their return type would make every
/// call ambiguous. Throws NotApplicable (a slice too wide, see encode_sell_i16_columns) or
/// OutOfDeviceMemory ("sell_i16 needs ...").
#define SPMV_GPU_DECLARE_UPLOAD_SELL_I16(V, D) \
    DeviceSellI16<V> upload_sell_i16(const SellCSigma<V, std::int32_t>& a)
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_UPLOAD_SELL_I16, "upload_sell_i16");

/// y = alpha A x + beta y (beta == 0 does not read y); `order` picks y[row_perm[k]] (original)
/// or y[k] (permuted) for stored row k. x, y are device pointers.
#define SPMV_GPU_DECLARE_SELL_I16_SPMV(V, D)                                \
    void spmv(const DeviceSellI16<V>& a, V alpha, const V* x, V beta, V* y, \
              RowOrder order D(= RowOrder::original), StreamRef stream D(= {}))
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_SELL_I16_SPMV, "sell_i16");

}  // namespace spmv::gpu
