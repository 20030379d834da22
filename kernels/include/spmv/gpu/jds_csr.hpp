#pragma once
/// JDS "CSR-like" on the device (Cevahir §3.1, Fig. 3): JDS storage (rows sorted by length,
/// jagged diagonals one after another, each padded to a multiple of diag_pad) read by one thread
/// per sorted row t: for i < nz_count[t], slot jd_ptrs[i] + t. Consecutive threads read
/// consecutive slots and y is written once, at y[row_perm[t]] (RowOrder::original, the scatter
/// folded into the store) or y[t] (RowOrder::permuted).
///
/// jd_ptrs in constant memory, as in the paper: the kernel needs jd_ptrs[0..num_diags), and
/// every thread of a warp reads the same entry in the same step. For num_diags <=
/// jds_csr_constant_diagonals (4096, i.e. 16 KiB) they travel in the kernel-parameter constant
/// bank (why not a `__constant__` symbol: kernels/src/jagged.cuh); for more diagonals the
/// kernel reads them from global memory (the fallback path). uses_constant_jd_ptrs() says which.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <spmv/formats/jds_csr.hpp>
#include <spmv/gpu/declare.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

/// Most jagged diagonals whose jd_ptrs the kernel reads from constant memory.
inline constexpr std::int32_t jds_csr_constant_diagonals = 4096;

template <typename ValueType>
struct DeviceJdsCsr {
    std::int32_t num_rows = 0;
    std::int32_t num_cols = 0;
    std::int32_t num_diags = 0;
    std::int32_t diag_pad = 16;
    bool identity_perm = true;               ///< row_perm[k] == k for all k: the kernel skips it
    std::vector<std::int32_t> jd_ptrs_host;  ///< num_diags + 1, for the constant-memory table
    DeviceBuffer<std::int32_t> row_perm;     ///< num_rows
    DeviceBuffer<std::int32_t> nz_count;     ///< num_rows
    DeviceBuffer<std::int32_t> jd_ptrs;      ///< num_diags + 1 (the fallback path reads it)
    DeviceBuffer<std::int32_t> col_idxs;
    DeviceBuffer<ValueType> values;

    std::size_t device_bytes() const noexcept
    {
        return row_perm.bytes() + nz_count.bytes() + jd_ptrs.bytes() + col_idxs.bytes() +
               values.bytes();
    }
};

/// True when spmv() passes jd_ptrs in constant memory, false when it reads them from global.
template <typename ValueType>
bool uses_constant_jd_ptrs(const DeviceJdsCsr<ValueType>& a) noexcept
{
    return a.num_diags <= jds_csr_constant_diagonals;
}

/// Throws OutOfDeviceMemory ("jds_csr needs ...") when the arrays do not fit.
#define SPMV_GPU_DECLARE_JDS_CSR_UPLOAD(V, D) \
    DeviceJdsCsr<V> upload(const JdsCsr<V, std::int32_t>& a)
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_JDS_CSR_UPLOAD, "jds_csr");

/// y = alpha A x + beta y (beta == 0 does not read y); `order` picks y[row_perm[t]] (original)
/// or y[t] (permuted) for sorted row t. x, y are device pointers.
#define SPMV_GPU_DECLARE_JDS_CSR_SPMV(V, D)                                \
    void spmv(const DeviceJdsCsr<V>& a, V alpha, const V* x, V beta, V* y, \
              RowOrder order D(= RowOrder::original), StreamRef stream D(= {}))
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_JDS_CSR_SPMV, "jds_csr");

}  // namespace spmv::gpu
