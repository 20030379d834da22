#pragma once
// A reduction over a whole grid inside one kernel, without atomics on the value: every block
// writes its partial sum, takes a ticket, and the last block to take one adds the partials in
// block order. A fixed grid and a fixed order make the result bitwise reproducible. Used by the
// fused CG steps (solver_backend.cu) and by the SpMV kernels that add x.y in their epilogue
// (DeviceOp::apply_dot, for CG's p.Ap).
#include <cub/block/block_reduce.cuh>
#include <cuda_runtime.h>

namespace spmv::gpu::detail {

struct GridSumAdd {
    __device__ double operator()(double a, double b) const { return a + b; }
    __device__ double2 operator()(const double2& a, const double2& b) const
    {
        return make_double2(a.x + b.x, a.y + b.y);
    }
    // float and float2: the float-throughout reductions of MPIR-CG's inner CG as Cevahir
    // writes it (solver_backend.cu, GpuBackend::use_float_reductions)
    __device__ float operator()(float a, float b) const { return a + b; }
    __device__ float2 operator()(const float2& a, const float2& b) const
    {
        return make_float2(a.x + b.x, a.y + b.y);
    }
};

/// Sums `mine` (T = double, double2, float or float2) over a grid of `block`-thread blocks;
/// every thread of every block must call it. `partials` holds at least gridDim.x entries;
/// `*ticket` is 0 before the launch and is reset to 0 by the last block. Returns true in the
/// threads of the last block, where thread 0 holds the total.
template <int block, typename T>
__device__ bool grid_sum(T mine, T* partials, unsigned* ticket, T& total)
{
    using BlockReduce = cub::BlockReduce<T, block>;
    __shared__ typename BlockReduce::TempStorage tmp;
    __shared__ bool last;
    const T block_sum = BlockReduce(tmp).Reduce(mine, GridSumAdd{});
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = block_sum;
        __threadfence();  // the partial is visible before the ticket says so
        last = atomicAdd(ticket, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) {
        return false;
    }
    T acc{};
#pragma unroll 4
    for (unsigned b = threadIdx.x; b < gridDim.x; b += block) {
        acc = GridSumAdd{}(acc, __ldcg(partials + b));  // L2, not a stale L1 line
    }
    // tmp is free again: every thread passed the __syncthreads above after the first Reduce
    total = BlockReduce(tmp).Reduce(acc, GridSumAdd{});
    if (threadIdx.x == 0) {
        *ticket = 0;  // ready for the next reduction (kernels on one stream run in order)
    }
    return true;
}

}  // namespace spmv::gpu::detail
