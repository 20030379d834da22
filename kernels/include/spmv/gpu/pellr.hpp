#pragma once
/// PELLR on the device (Wang & Gu §3, Fig. 5): ELLPACK-R of the rows sorted by length (row_perm),
/// column-major with leading dimension `stride`, plus rl[] (row_lengths, per sorted row).
/// pellr_spmv_kernel runs one thread per sorted row and stops at rl[k], so padding is neither
/// read nor computed, and since neighbouring threads hold rows of nearly equal length a warp
/// rarely waits for one long row. The inner loop issues eight index loads at a time (then the
/// value loads and gathers of x). RowOrder::original writes y[row_perm[k]] in the same
/// store; an identity row_perm (rows already sorted) is not read. The variant "pellr_split"
/// (kernels/src/split.cuh) takes groups of 32 sorted rows and gives groups whose first row is
/// longer than 16 entries T = 2..8 warps that split the columns.
#include <cstddef>
#include <cstdint>

#include <spmv/formats/pellr.hpp>
#include <spmv/gpu/declare.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

template <typename ValueType>
struct DevicePellr {
    std::int32_t num_rows = 0;
    std::int32_t num_cols = 0;
    std::int32_t width = 0;
    std::int32_t stride = 0;
    bool identity_perm = true;               ///< row_perm[k] == k for all k: the kernel skips it
    DeviceBuffer<std::int32_t> row_perm;     ///< num_rows
    DeviceBuffer<std::int32_t> row_lengths;  ///< rl[], num_rows
    DeviceBuffer<std::int32_t> col_idxs;     ///< stride * width, column-major
    DeviceBuffer<ValueType> values;

    std::size_t device_bytes() const noexcept
    {
        return row_perm.bytes() + row_lengths.bytes() + col_idxs.bytes() + values.bytes();
    }
};

/// Throws OutOfDeviceMemory ("pellr needs ...") when the arrays do not fit.
#define SPMV_GPU_DECLARE_PELLR_UPLOAD(V, D) DevicePellr<V> upload(const Pellr<V, std::int32_t>& a)
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_PELLR_UPLOAD, "pellr");

/// y = alpha A x + beta y (beta == 0 does not read y); `order` picks y[row_perm[k]] (original)
/// or y[k] (permuted) for sorted row k. x, y are device pointers.
#define SPMV_GPU_DECLARE_PELLR_SPMV(V, D)                                 \
    void spmv(const DevicePellr<V>& a, V alpha, const V* x, V beta, V* y, \
              RowOrder order D(= RowOrder::original), StreamRef stream D(= {}))
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_PELLR_SPMV, "pellr");

}  // namespace spmv::gpu
