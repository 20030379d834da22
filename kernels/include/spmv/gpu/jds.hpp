#pragma once
/// Plain JDS on the device (Cevahir §2.1, Fig. 2, with the y_temp of §4): rows sorted by length
/// (row_perm), jagged diagonal d stored contiguously from jd_ptrs[d]. jds_spmv_kernel runs one
/// thread per nonzero of one jagged diagonal, one launch per diagonal (the launches order the
/// diagonals, so no atomics are needed): thread r adds values[jd_ptrs[d] + r] *
/// x[col_idxs[jd_ptrs[d] + r]] into y_temp[r], a coalesced read-modify-write of a scratch
/// vector in the sorted order. jds_spmv_scatter_kernel then writes y[row_perm[r]] (or y[r] for
/// RowOrder::permuted) = alpha y_temp[r] + beta y. So y_temp is read and written once per
/// diagonal: this is the baseline that JDS CSR-like (jds_csr.hpp) improves on.
/// Costs num_diags + 1 launches per product. The scratch vector belongs to the matrix: two
/// products of the same DeviceJds must not run concurrently on different streams.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <spmv/formats/jds.hpp>
#include <spmv/gpu/declare.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

template <typename ValueType>
struct DeviceJds {
    std::int32_t num_rows = 0;
    std::int32_t num_cols = 0;
    bool identity_perm = true;               ///< row_perm[k] == k for all k: the kernel skips it
    std::vector<std::int32_t> jd_ptrs_host;  ///< num_diags + 1: the launch sizes
    DeviceBuffer<std::int32_t> row_perm;     ///< num_rows
    DeviceBuffer<std::int32_t> col_idxs;     ///< nnz, diagonal after diagonal
    DeviceBuffer<ValueType> values;
    /// Scratch y_temp (num_rows): written by the kernels during a const spmv(), hence mutable.
    mutable DeviceBuffer<ValueType> y_temp;

    std::size_t device_bytes() const noexcept
    {
        return row_perm.bytes() + col_idxs.bytes() + values.bytes() + y_temp.bytes();
    }
};

/// Throws OutOfDeviceMemory ("jds needs ...") when the arrays do not fit.
#define SPMV_GPU_DECLARE_JDS_UPLOAD(V, D) DeviceJds<V> upload(const Jds<V, std::int32_t>& a)
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_JDS_UPLOAD, "jds");

/// y = alpha A x + beta y (beta == 0 does not read y); `order` picks y[row_perm[r]] (original)
/// or y[r] (permuted) for sorted row r. x, y are device pointers.
#define SPMV_GPU_DECLARE_JDS_SPMV(V, D)                                 \
    void spmv(const DeviceJds<V>& a, V alpha, const V* x, V beta, V* y, \
              RowOrder order D(= RowOrder::original), StreamRef stream D(= {}))
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_JDS_SPMV, "jds");

}  // namespace spmv::gpu
