#pragma once
// DotEngine's reductions (vector_ops.cu, spmv/gpu/vector_ops.hpp), shared with distributed CG's
// device steps (dist_cg.cu, spmv/gpu/dist_cg.hpp), whose sums must have DotEngine's bits: the
// same per-thread arithmetic (dot2_pass here, cg_update_pass in vector_kernels.cuh), added over
// the same grid (dot_engine_max_blocks, dot_engine_blocks) in the same order (grid_sum.cuh).
#include <algorithm>
#include <cstdint>
#include <cuda_runtime.h>

#include "launch.cuh"
#include "vector_kernels.cuh"

namespace spmv::gpu::detail {

/// Threads per block of DotEngine's reductions: one thread per 16-byte chunk, grid-stride.
constexpr int dot_block = 256;

/// m.x += x y and (second) m.y += u v: one function for the chunk and the tail paths, so that
/// both do the same arithmetic.
template <bool second, typename V>
__device__ __forceinline__ void add_products(V xi, V yi, V ui, V vi, double2& m)
{
    m.x += static_cast<double>(xi) * static_cast<double>(yi);
    if constexpr (second) {
        m.y += static_cast<double>(ui) * static_cast<double>(vi);
    }
}

/// One thread's part of dot2 over its grid-stride chunks: returns its {x.y, u.v} (.y stays 0
/// without `second`, and u, v are not read), to be added over the grid with grid_sum.
/// DotEngine::dot2 and DistCgSteps::alpha_sums both run it.
template <typename V, int block, bool aligned, bool second>
__device__ __forceinline__ double2 dot2_pass(std::int64_t n, const V* __restrict__ x,
                                             const V* __restrict__ y, const V* __restrict__ u,
                                             const V* __restrict__ v)
{
    double2 m = make_double2(0.0, 0.0);
    grid_stride_chunks<V, block>(
        n,
        [&](std::int64_t i) {
            const Pack<V> xx = load_chunk<aligned>(x + i);
            const Pack<V> yy = load_chunk<aligned>(y + i);
            Pack<V> uu{};
            Pack<V> vv{};
            if constexpr (second) {
                uu = load_chunk<aligned>(u + i);
                vv = load_chunk<aligned>(v + i);
            }
#pragma unroll
            for (int k = 0; k < pack_width<V>; ++k) {
                add_products<second>(xx.v[k], yy.v[k], uu.v[k], vv.v[k], m);
            }
        },
        [&](std::int64_t k) {
            add_products<second>(x[k], y[k], second ? u[k] : V{}, second ? v[k] : V{}, m);
        });
    return m;
}

/// The most blocks DotEngine<V> launches on the current device: one resident wave of the fewest
/// blocks any of its reduction kernels (vector_ops.cu) keeps resident per multiprocessor, times
/// the multiprocessors. Defined in vector_ops.cu for float and double. DistCgSteps takes its
/// grid from here, not from its own kernels (whose early exit may cost a register), so that its
/// sums run on DotEngine's grid whatever the compiler allots.
template <typename V>
unsigned dot_engine_max_blocks();

/// DotEngine's grid for n entries: one thread per chunk, at least one block and at most
/// max_blocks (dot_engine_max_blocks). Within one wave, the grid alone fixes the order of the
/// sums.
template <typename V>
unsigned dot_engine_blocks(std::int64_t n, unsigned max_blocks)
{
    const std::int64_t chunks = ceil_div<std::int64_t>(n, pack_width<V>);
    return static_cast<unsigned>(std::clamp<std::int64_t>(ceil_div<std::int64_t>(chunks, dot_block),
                                                          1, std::int64_t{max_blocks}));
}

}  // namespace spmv::gpu::detail
