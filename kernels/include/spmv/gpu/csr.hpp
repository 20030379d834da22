#pragma once
/// CSR on the device: the arrays of spmv::Csr in DeviceBuffers, and two kernels.
///  - CSR scalar (csr_spmv_scalar_kernel): one thread per row, as the host reference.
///    Consecutive threads read rows that lie far apart: uncoalesced for long rows.
///  - CSR vector (csr_spmv_vector_kernel): a sub-warp of 2..32 threads per row reads the row
///    coalesced, then a shuffle reduction adds the partial sums (PELLR §2.2: "a (half-)warp per
///    row"). The sub-warp size is the smallest power of two >= half the mean row length, in
///    [2, 32], so that each lane handles about two entries of a typical row. Measured on an H100
///    (double, warm, scripts/device_check.sh sweep), GF/s for 2/4/8/16/32 threads per row:
///    pde100 (mean 6.9): 314/302/237/138/74 (scalar 309); random 1M rows of mean 16:
///    154/177/187/195/166 (scalar 122); random 100k rows of mean 128: 151/165/183/198/211.
///    "power of two >= mean" (the textbook rule) picked 8, 32, 32; ">= mean/2" picks 4, 16, 32:
///    cold pde100 went from 210 to 261 GF/s (double) and 236 to 313 (float); on the cold
///    mean-16 matrix 16 threads ran 5 % slower than 32 in double and the same in float.
#include <cstddef>
#include <cstdint>

#include <spmv/formats/csr.hpp>
#include <spmv/gpu/declare.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

template <typename ValueType>
struct DeviceCsr {
    std::int32_t num_rows = 0;
    std::int32_t num_cols = 0;
    double mean_row_length = 0.0;  ///< nnz / num_rows, picks the CSR vector sub-warp
    DeviceBuffer<std::int32_t> row_ptrs;
    DeviceBuffer<std::int32_t> col_idxs;
    DeviceBuffer<ValueType> values;

    std::size_t device_bytes() const noexcept
    {
        return row_ptrs.bytes() + col_idxs.bytes() + values.bytes();
    }
};

/// Throws OutOfDeviceMemory ("csr needs ...") when the arrays do not fit.
#define SPMV_GPU_DECLARE_CSR_UPLOAD(V, D) DeviceCsr<V> upload(const Csr<V, std::int32_t>& a)
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_CSR_UPLOAD, "csr");

enum class CsrKernel { scalar, vector };

struct CsrLaunch {
    CsrKernel kernel = CsrKernel::scalar;
    int threads_per_row = 0;  ///< vector kernel: 2, 4, 8, 16 or 32; 0 = from the mean row length
};

/// The CSR vector heuristic (formats/csr.hpp): smallest power of two >= mean row length / 2,
/// clamped to [2, 32].
using spmv::csr_vector_threads_per_row;

/// y = alpha A x + beta y (beta == 0 does not read y). x, y are device pointers.
#define SPMV_GPU_DECLARE_CSR_SPMV(V, D)                                 \
    void spmv(const DeviceCsr<V>& a, V alpha, const V* x, V beta, V* y, \
              const CsrLaunch& launch D(= {}), StreamRef stream D(= {}))
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_CSR_SPMV, "csr");

}  // namespace spmv::gpu
