#pragma once
// Launch-configuration helpers shared by the kernels (STYLE.md 5.5).
#include <cstdint>
#include <cuda_runtime.h>

#include <spmv/gpu/memory.hpp>

#include "cuda_check.cuh"

namespace spmv::gpu::detail {

inline cudaStream_t native(StreamRef s) noexcept
{
    return static_cast<cudaStream_t>(s.handle);
}

template <typename T>
constexpr T ceil_div(T n, T d)
{
    return (n + d - 1) / d;
}

/// Multiprocessors of the current device (read once; 132 on an H100 SXM).
int multiprocessor_count();

/// Threads per block for a one-thread-per-item kernel over `items` items: 256 while that
/// still gives at least two blocks per multiprocessor, otherwise 128 or 64, so that small
/// matrices still spread over all SMs instead of sitting on a few.
inline int block_size_for(std::int64_t items, int max_block = 256)
{
    const std::int64_t want_blocks = 2 * std::int64_t{multiprocessor_count()};
    int b = max_block;
    while (b > 64 && ceil_div<std::int64_t>(items, b) < want_blocks) {
        b /= 2;
    }
    return b;
}

/// Read-only load through the non-coherent (texture) path: the modern form of Barbieri's
/// tex1Dfetch on x. Only for data that no thread of the same launch writes.
template <typename T>
__device__ __forceinline__ T ldg(const T* p)
{
    return __ldg(p);
}

/// Streaming load for the matrix arrays (values, column indices), which one SpMV reads exactly
/// once: ld.global.cs marks the lines evict-first in L1 and L2, so that x (gathered, reused) keeps
/// the caches. Measured on an H100, SELL-32-1 on pde100 in double: 36.2 -> 34.1 us
/// (kernels/bench/sell_tune.cu). x itself keeps ldg (read-only path, normal priority).
/// Used by the slice/column-major kernels (ELLPACK family, SELL, pJDS, PELLR, BiELL/BiJAD, split
/// kernels), whose large-matrix bandwidth it serves. The CSR, COO, JDS, merge-path and "_xs"
/// kernels keep ldg: on the small, latency-bound matrices where those win, streaming loads were
/// measured ~4 % slower (494_bus ... bcspwr09: csr_vector 5.54 -> 5.76 us).
template <typename T>
__device__ __forceinline__ T ldcs(const T* p)
{
    return __ldcs(p);
}

/// y = alpha * sum + beta * y, never reading y when beta == 0 (BLAS semantics: NaN in y
/// must not propagate).
template <typename V>
__device__ __forceinline__ void axpby_store(V* y, V alpha, V sum, V beta)
{
    if (beta == V{0}) {
        *y = alpha * sum;
    } else {
        *y = alpha * sum + beta * *y;
    }
}

}  // namespace spmv::gpu::detail
