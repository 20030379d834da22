#pragma once
/// SELL-C-σ on the device: the arrays of spmv::SellCSigma (slices of C = slice_height sorted
/// rows, each an ELLPACK block padded to its own width, column-major inside the slice).
/// sell_spmv_kernel runs one thread per stored row; with C = 32 one warp is one slice, so each
/// column of a slice is one fully coalesced 128-byte index load and one 256-byte (double) value
/// load. Every thread walks its slice's width (the layout stores no row lengths); a padding slot
/// (index -1) skips the loads of its value and of x, so it costs only its 4-byte index. Any C in
/// 1..1024 works (C = 32 gets a compile-time fast path). RowOrder::original writes
/// y[row_perm[k]] in the same store (no separate un-permute pass); with σ = 1 row_perm is the
/// identity and is not read at all. The variant "sell_split" (kernels/src/split.cuh) runs the
/// same arrays with T = 2..8 warps on slices wider than 16 columns (C = 32 only).
#include <cstddef>
#include <cstdint>

#include <spmv/formats/sell.hpp>
#include <spmv/gpu/declare.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

/// Threads (= stored rows) per block of sell and sell_i16's plain SpMV launch, at most: halved
/// on small matrices until the grid has 2 blocks per multiprocessor (kernels/src/sell.cu says
/// why 128). The block order (block_order.hpp) is built for blocks of this width.
inline constexpr int sell_spmv_block_threads = 128;

template <typename ValueType>
struct DeviceSell {
    std::int32_t num_rows = 0;
    std::int32_t num_cols = 0;
    std::int32_t slice_height = 32;           ///< C
    std::int32_t sort_window = 1;             ///< σ
    std::int32_t max_width = 0;               ///< the widest slice's width
    bool identity_perm = true;                ///< row_perm[k] == k for all k: the kernel skips it
    DeviceBuffer<std::int32_t> slice_ptrs;    ///< num_slices + 1
    DeviceBuffer<std::int32_t> slice_widths;  ///< num_slices
    DeviceBuffer<std::int32_t> row_perm;      ///< num_rows
    DeviceBuffer<std::int32_t> col_idxs;      ///< slice_ptrs[num_slices]
    DeviceBuffer<ValueType> values;
    /// The plain SpMV launch's blocks, widest first (spmv/gpu/block_order.hpp), for blocks of
    /// order_block_rows rows; empty (and 0) when the blockIdx order is already that order.
    std::int32_t order_block_rows = 0;
    DeviceBuffer<std::int32_t> block_order;

    std::size_t device_bytes() const noexcept
    {
        return slice_ptrs.bytes() + slice_widths.bytes() + row_perm.bytes() + col_idxs.bytes() +
               values.bytes() + block_order.bytes();
    }
};

/// Throws OutOfDeviceMemory ("sell needs ...") when the arrays do not fit.
#define SPMV_GPU_DECLARE_SELL_UPLOAD(V, D) \
    DeviceSell<V> upload(const SellCSigma<V, std::int32_t>& a)
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_SELL_UPLOAD, "sell");

/// y = alpha A x + beta y (beta == 0 does not read y); `order` picks y[row_perm[k]] (original)
/// or y[k] (permuted) for stored row k. x, y are device pointers.
#define SPMV_GPU_DECLARE_SELL_SPMV(V, D)                                 \
    void spmv(const DeviceSell<V>& a, V alpha, const V* x, V beta, V* y, \
              RowOrder order D(= RowOrder::original), StreamRef stream D(= {}))
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_SELL_SPMV, "sell");

}  // namespace spmv::gpu
