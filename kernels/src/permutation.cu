// Row (un-)permutation kernels: one thread per entry.
#include <cstdint>

#include <spmv/gpu/permutation.hpp>

#include "launch.cuh"

namespace spmv::gpu {
namespace {

constexpr int block_size = 256;

// One thread per entry k: a coalesced read of perm and src, a scattered write of dst.
template <typename V>
__global__ void __launch_bounds__(block_size)
    unpermute_rows_kernel(const std::int32_t* __restrict__ perm, const V* __restrict__ src,
                          V* __restrict__ dst, std::int32_t n)
{
    SPMV_WARP_TRACE(trace);
    const std::int64_t k = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if (k < n) {
        trace.row(k);
        dst[detail::ldg(perm + k)] = detail::ldg(src + k);
    }
}

// One thread per entry k: a coalesced read of perm, a gathered read of src.
template <typename V>
__global__ void __launch_bounds__(block_size)
    permute_rows_kernel(const std::int32_t* __restrict__ perm, const V* __restrict__ src,
                        V* __restrict__ dst, std::int32_t n)
{
    SPMV_WARP_TRACE(trace);
    const std::int64_t k = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if (k < n) {
        trace.row(k);
        dst[k] = detail::ldg(src + detail::ldg(perm + k));
    }
}

}  // namespace

template <typename V>
void unpermute_rows(const std::int32_t* perm, const V* src, V* dst, std::int32_t n,
                    StreamRef stream)
{
    if (n <= 0) {
        return;
    }
    const int b = detail::block_size_for(n, block_size);
    unpermute_rows_kernel<<<detail::ceil_div(n, b), b, 0, detail::native(stream)>>>(perm, src, dst,
                                                                                    n);
    SPMV_CUDA_CHECK(cudaGetLastError());
}

template <typename V>
void permute_rows(const std::int32_t* perm, const V* src, V* dst, std::int32_t n, StreamRef stream)
{
    if (n <= 0) {
        return;
    }
    const int b = detail::block_size_for(n, block_size);
    permute_rows_kernel<<<detail::ceil_div(n, b), b, 0, detail::native(stream)>>>(perm, src, dst,
                                                                                  n);
    SPMV_CUDA_CHECK(cudaGetLastError());
}

SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_UNPERMUTE_ROWS);
SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_PERMUTE_ROWS);

}  // namespace spmv::gpu
