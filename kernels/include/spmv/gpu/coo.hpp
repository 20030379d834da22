#pragma once
/// COO on the device (Barbieri §2, PELLR §2.1): row_idxs, col_idxs, values, sorted by row.
///
/// coo_spmv_kernel uses a segmented reduction, not atomics: each warp takes a chunk of
/// coo_chunk consecutive nonzeros, 32 at a time (coalesced), multiplies them with x and adds
/// equal-row neighbours with a segmented shuffle scan. A row that starts and ends inside the
/// chunk is written at once (y = alpha*sum + beta*y, y read once). A row cut by a chunk boundary
/// leaves a carry: the chunk holding the row's first entry keeps its partial sum as the row's
/// "tail", every later chunk of the row its partial sum as a "head"; a second, tiny kernel
/// (coo_spmv_carry_kernel, one thread per chunk) adds the heads to the tail and writes y, and
/// writes beta*y for the rows without entries. The result is deterministic (no atomics, no
/// pre-pass scaling y by beta); the carry kernel is skipped when no row is cut and no row is
/// empty (known at upload).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include <spmv/formats/coo.hpp>
#include <spmv/gpu/declare.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

/// Nonzeros per warp chunk of the COO kernel (8 steps of 32).
inline constexpr int coo_chunk = 256;

template <typename ValueType>
struct DeviceCoo {
    std::int32_t num_rows = 0;
    std::int32_t num_cols = 0;
    std::int64_t nnz = 0;
    std::int64_t num_chunks = 0;  ///< ceil(nnz / coo_chunk)
    bool has_cut_rows = false;    ///< some row crosses a chunk boundary
    DeviceBuffer<std::int32_t> row_idxs;
    DeviceBuffer<std::int32_t> col_idxs;
    DeviceBuffer<ValueType> values;
    /// Rows without entries (written by the carry kernel); empty for the COO part of HYB,
    /// whose rows the ELL pass has already written.
    DeviceBuffer<std::int32_t> empty_rows;
    /// Scratch of the carry pass, one slot per chunk (written by every SpMV: one SpMV at a time
    /// per DeviceCoo).
    mutable DeviceBuffer<std::int32_t> head_rows;
    mutable DeviceBuffer<std::int32_t> tail_rows;
    mutable DeviceBuffer<ValueType> head_vals;
    mutable DeviceBuffer<ValueType> tail_vals;

    std::size_t device_bytes() const noexcept
    {
        return row_idxs.bytes() + col_idxs.bytes() + values.bytes() + empty_rows.bytes() +
               head_rows.bytes() + tail_rows.bytes() + head_vals.bytes() + tail_vals.bytes();
    }
};

/// Throws OutOfDeviceMemory ("coo needs ...") when the arrays do not fit.
#define SPMV_GPU_DECLARE_COO_UPLOAD(V, D) DeviceCoo<V> upload(const Coo<V, std::int32_t>& a)
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_COO_UPLOAD, "coo");

/// Uploads triplets sorted by row (throws InvalidArgument otherwise). `list_empty_rows` false
/// leaves rows without entries untouched by spmv() (HYB: the ELL pass wrote them already).
/// `what` names the format in an out-of-memory error.
#define SPMV_GPU_DECLARE_UPLOAD_COO(V, D)                                                      \
    DeviceCoo<V> upload_coo(std::int32_t num_rows, std::int32_t num_cols,                      \
                            std::span<const std::int32_t> row_idxs,                            \
                            std::span<const std::int32_t> col_idxs, std::span<const V> values, \
                            bool list_empty_rows, std::string_view what)
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_UPLOAD_COO, "upload_coo");

/// y = alpha A x + beta y (beta == 0 does not read y). x, y are device pointers.
#define SPMV_GPU_DECLARE_COO_SPMV(V, D) \
    void spmv(const DeviceCoo<V>& a, V alpha, const V* x, V beta, V* y, StreamRef stream D(= {}))
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_COO_SPMV, "coo");

}  // namespace spmv::gpu
