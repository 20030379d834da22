#pragma once
/// pJDS on the device (Kreutzer §II.A, Listing 2): rows sorted by length (row_perm), every block
/// of b_r sorted rows padded to its longest row, column j stored contiguously from col_start[j].
/// pjds_spmv_kernel runs one thread per sorted row i and loops to its own length rowmax[i]
/// (row_lengths): slot (i, j) = col_start[j] + i, so consecutive threads read consecutive
/// addresses, and padding is never read. The whole warp reads the same col_start[j] in a step:
/// col_start sits in constant memory (the kernel-parameter bank) for up to 4096 columns, in
/// global memory beyond (kernels/src/jagged.cuh). The result is computed in the permuted basis;
/// RowOrder::original writes y[row_perm[i]] in the same store (no separate un-permute pass).
/// The variant "pjds_split" (b_r = 32; kernels/src/split.cuh) gives blocks of rows wider than 16
/// columns T = 2..8 warps that split the columns.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <spmv/formats/pjds.hpp>
#include <spmv/gpu/declare.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

template <typename ValueType>
struct DevicePjds {
    std::int32_t num_rows = 0;
    std::int32_t num_cols = 0;
    std::int32_t block_rows = 32;  ///< b_r
    std::int32_t width = 0;        ///< longest row = number of columns of the jagged layout
    bool identity_perm = true;     ///< row_perm[k] == k for all k: the kernel skips it
    std::vector<std::int32_t> col_start_host;  ///< width + 1, for the constant-memory table
    DeviceBuffer<std::int32_t> row_perm;       ///< num_rows
    DeviceBuffer<std::int32_t> row_lengths;    ///< rowmax[], padded_rows
    DeviceBuffer<std::int32_t> col_start;      ///< width + 1 (the fallback path reads it)
    DeviceBuffer<std::int32_t> col_idxs;
    DeviceBuffer<ValueType> values;

    std::size_t device_bytes() const noexcept
    {
        return row_perm.bytes() + row_lengths.bytes() + col_start.bytes() + col_idxs.bytes() +
               values.bytes();
    }
};

/// Throws OutOfDeviceMemory ("pjds needs ...") when the arrays do not fit.
#define SPMV_GPU_DECLARE_PJDS_UPLOAD(V, D) DevicePjds<V> upload(const Pjds<V, std::int32_t>& a)
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_PJDS_UPLOAD, "pjds");

/// y = alpha A x + beta y (beta == 0 does not read y); `order` picks y[row_perm[i]] (original)
/// or y[i] (permuted) for sorted row i. x, y are device pointers.
#define SPMV_GPU_DECLARE_PJDS_SPMV(V, D)                                 \
    void spmv(const DevicePjds<V>& a, V alpha, const V* x, V beta, V* y, \
              RowOrder order D(= RowOrder::original), StreamRef stream D(= {}))
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_PJDS_SPMV, "pjds");

}  // namespace spmv::gpu
