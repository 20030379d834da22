#pragma once
// Shared by the stand-alone tuning tools of kernels/bench (not part of the CMake build): a
// checked CUDA call that exits, and the clean L2 flush (a read pass, so nothing dirty is left).
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK_CUDA(e)                                                                        \
    do {                                                                                     \
        const cudaError_t s_ = (e);                                                          \
        if (s_ != cudaSuccess) {                                                             \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #e,                   \
                         cudaGetErrorString(s_));                                            \
            std::exit(1);                                                                    \
        }                                                                                    \
    } while (false)

// Reads n doubles (a grid-stride sum); the result is written only if it is NaN, which the data
// never is, so the loads cannot be dropped and nothing dirty is left in L2.
inline __global__ void read_flush_kernel(const double* __restrict__ p, std::size_t n, double* sink)
{
    double s = 0.0;
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
         i += std::size_t{gridDim.x} * blockDim.x) {
        s += p[i];
    }
    if (s != s) {
        *sink = s;
    }
}
