#pragma once
// Shared by the stand-alone tuning tools of kernels/bench (not part of the CMake build): a
// checked CUDA call that exits, the clean L2 flush (a read pass, so nothing dirty is left) and
// the timer built on it.
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <random>
#include <vector>

#include <spmv/gpu/device.hpp>
#include <spmv/gpu/memory.hpp>

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

// Median of event-timed repetitions of `launch` (3 untimed warm-ups), each after a read pass over
// 2 x L2 when cold (a clean cold L2), back to back otherwise.
struct Timer {
    std::size_t flush_n;
    spmv::gpu::DeviceBuffer<double> flush;
    spmv::gpu::DeviceBuffer<double> sink;
    cudaEvent_t e0{}, e1{};

    Timer()
        : flush_n(2 * std::size_t{spmv::gpu::device_info().l2_cache_bytes} / sizeof(double)),
          flush(flush_n, "flush"),
          sink(1, "sink")
    {
        flush.fill(1.0);
        CHECK_CUDA(cudaEventCreate(&e0));
        CHECK_CUDA(cudaEventCreate(&e1));
    }

    template <typename F>
    double median_us(F&& launch, bool cold = true, int reps = 60)
    {
        std::vector<double> t;
        for (int r = -3; r < reps; ++r) {
            if (cold) {
                read_flush_kernel<<<1024, 256>>>(flush.data(), flush_n, sink.data());
            }
            CHECK_CUDA(cudaEventRecord(e0));
            launch();
            CHECK_CUDA(cudaEventRecord(e1));
            CHECK_CUDA(cudaEventSynchronize(e1));
            CHECK_CUDA(cudaGetLastError());
            float ms = 0.0f;
            CHECK_CUDA(cudaEventElapsedTime(&ms, e0, e1));
            if (r >= 0) {
                t.push_back(1e3 * ms);
            }
        }
        std::sort(t.begin(), t.end());
        return t[t.size() / 2];
    }
};

// n values uniform in [-1, 1] (never a special pattern such as all zeros), on the device.
inline spmv::gpu::DeviceBuffer<double> random_device_vector(std::size_t n, unsigned seed = 3)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> dist(-1, 1);
    std::vector<double> h(n);
    for (auto& e : h) {
        e = dist(rng);
    }
    return spmv::gpu::DeviceBuffer<double>::from_host(h, "x");
}
