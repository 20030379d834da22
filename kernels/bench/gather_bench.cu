// gather_bench: how fast can any SpMV be on a matrix with uniformly random columns (the power-law
// matrices of issue 3)? Times, on the same matrix and the same clean cold L2 as spmvlab bench:
//  - floors that do strictly less work than an SpMV: the matrix stream alone (columns + values,
//    no x), the x gathers alone (columns + x[col], no values, no rows, no y), and columns +
//    values + gathers summed per thread (an SpMV without row structure and without y);
//  - the same floors with other load kinds for x (L1-allocating read-only __ldg, L2-only __ldcg,
//    L1::no_allocate, an L2 evict_last policy) and for the matrix (__ldg or streaming __ldcs);
//  - random gathers from an L2-resident x with computed indices (no matrix stream at all): the
//    gather rate of the memory system;
//  - every kernel of the GPU variant registry (ours and the cuSPARSE baselines).
// Every floor is a lower bound on any kernel that reads the matrix and gathers x once per
// nonzero; if the floor is above the bandwidth-limit time / 0.9, 90 % of the bandwidth limit is out
// of reach for every format.
//
// Built with the library wherever CUDA is (CMake target gather_bench, build/kernels/bench/; not
// run by ctest). By hand on the GPU machine, after building
// spmv_kernels (build-device):
//   nvcc -O3 -std=c++20 -arch=sm_90 -Ilib/include -Ikernels/include -Ibuild-device/lib/generated \
//     kernels/bench/gather_bench.cu build-device/kernels/libspmv_kernels.a \
//     build-device/lib/libspmv_core.a -lcusparse -o build-device/gather_bench
// Run: build-device/gather_bench [min-len max-len] (power law of 1M rows, exponent 2; default 1 500).
// kernels/bench/run_gather.sh builds and runs it on the device machine.
//
// Results, H100 80GB HBM3, 2026-11-25, double, cold L2 (us; records in
// docs/benchmarks/h100_2026-11-25/gather_floor/):
//   default power law (nnz 4.1M; bandwidth-limit time 23.1 us, 90 %: 25.6 us):
//     random gathers alone (hashed indices, no matrix): 35.5 cold, 36.9-37.7 warm
//     cols + vals (no x) 19.6; cols + x 32.5; cols + vals + x 39.3 (x __ldg), 37.7 (evict_last),
//     39.6 (__ldcg), 49.7 (L1::no_allocate); cuSPARSE COO_ALG1 46.8-47.3, CSR_ALG1 47.5-47.8
//   min-len 4, max-len 1000 (nnz 19.9M; limit 86.0 us, 90 %: 95.6 us):
//     random gathers alone 150.6 cold, 152.99 warm; cols + vals + x 176.2 (__ldg), 174.6
//     (evict_last); cuSPARSE CSR_ALG1 185.7-190.1
// => 90 % of the bandwidth limit is out of reach on both: the gathers alone take longer. The
//    evict_last hint on x (detail::ld_x) went into the strided row sum of the slice kernels.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <string>
#include <vector>

#include <spmv/generators.hpp>
#include <spmv/gpu/bench.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/gpu/device_matrix.hpp>
#include <spmv/gpu/memory.hpp>
#include <spmv/gpu/variants.hpp>

#include "../src/launch.cuh"
#include "bench_common.cuh"

using namespace spmv;
using namespace spmv::gpu;

namespace {

enum XLoad { x_ldg, x_ldcg, x_noalloc, x_evict_last };

template <int kind>
__device__ __forceinline__ double load_x(const double* p, std::uint64_t policy)
{
    double v;
    if constexpr (kind == x_ldg) {
        v = __ldg(p);
    } else if constexpr (kind == x_ldcg) {
        v = __ldcg(p);
    } else if constexpr (kind == x_noalloc) {
        asm volatile("ld.global.nc.L1::no_allocate.f64 %0, [%1];" : "=d"(v) : "l"(p));
    } else {
        v = spmv::gpu::detail::ld_x<true>(p, policy);  // the library's hinted x load
    }
    return v;
}

template <int kind>
__device__ __forceinline__ std::uint64_t make_policy()
{
    return spmv::gpu::detail::x_policy<kind == x_evict_last>();
}

constexpr int steps = 8;  // loads in flight per thread
constexpr int block = 256;

// One warp per 256 nonzeros, 8 coalesced steps of 32, every load issued before the first use.
// what: 0 = columns + values (no x), 1 = columns + x (no values), 2 = columns + values + x.
template <int what, int xkind, bool stream>
__global__ void __launch_bounds__(block)
    floor_kernel(std::int64_t nnz, const std::int32_t* __restrict__ cols,
                 const double* __restrict__ vals, const double* __restrict__ x, double* sink)
{
    const std::uint64_t policy = make_policy<xkind>();
    const std::int64_t warp = (std::int64_t{blockIdx.x} * block + threadIdx.x) / 32;
    const int lane = static_cast<int>(threadIdx.x % 32);
    const std::int64_t base = warp * 32 * steps;
    std::int32_t c[steps];
    double v[steps];
#pragma unroll
    for (int s = 0; s < steps; ++s) {
        const std::int64_t k = base + s * 32 + lane;
        const bool in = k < nnz;
        c[s] = in ? spmv::gpu::detail::ld_matrix<stream>(cols + k) : -1;
        v[s] = (what != 1 && in) ? spmv::gpu::detail::ld_matrix<stream>(vals + k) : 1.0;
    }
    double sum = 0.0;
#pragma unroll
    for (int s = 0; s < steps; ++s) {
        if constexpr (what == 0) {
            sum += v[s] + static_cast<double>(c[s]);
        } else {
            if (c[s] >= 0) {
                sum += v[s] * load_x<xkind>(x + c[s], policy);
            }
        }
    }
    if (sum == 1234.5678) {  // never true for this data: keeps every load, writes nothing
        *sink = sum;
    }
}

// Random gathers from x with computed indices (no matrix stream): the memory system's gather rate.
template <int xkind>
__global__ void __launch_bounds__(block)
    random_gather_kernel(std::int64_t count, std::uint32_t n, const double* __restrict__ x,
                         double* sink)
{
    const std::uint64_t policy = make_policy<xkind>();
    const std::int64_t t = std::int64_t{blockIdx.x} * block + threadIdx.x;
    double sum = 0.0;
#pragma unroll
    for (int s = 0; s < steps; ++s) {
        const std::int64_t k = t * steps + s;
        if (k < count) {
            std::uint32_t h = static_cast<std::uint32_t>(k) * 2654435761u;
            h ^= h >> 15;
            h *= 2246822519u;
            h ^= h >> 13;
            sum += load_x<xkind>(x + (h % n), policy);
        }
    }
    if (sum == 1234.5678) {
        *sink = sum;
    }
}

}  // namespace

int main(int argc, char** argv)
{
    const int min_len = argc > 2 ? std::atoi(argv[1]) : 1;
    const int max_len = argc > 2 ? std::atoi(argv[2]) : 500;
    const auto a = gen::generate("powerlaw", {{"rows", 1000000}, {"min-len", min_len},
                                              {"max-len", max_len}});
    const std::int32_t n = a.num_rows;
    const auto nnz = static_cast<std::int64_t>(a.row_ptrs.back());
    const double min_bytes = static_cast<double>(nnz) * 12.0 + 4.0 * (n + 1) + 16.0 * n;
    const double copy_gbs = measure_copy_bandwidth().gbs;
    auto cols = DeviceBuffer<std::int32_t>::from_host(a.col_idxs, "cols");
    auto vals = DeviceBuffer<double>::from_host(a.values, "vals");
    auto x = random_device_vector(static_cast<std::size_t>(n));
    DeviceBuffer<double> y(static_cast<std::size_t>(n), "y");
    Timer timer;
    const auto& dev = device_info();
    std::printf("device %s, power law rows %d min-len %d max-len %d: nnz %lld, copy bandwidth "
                "%.0f GB/s, bandwidth-limit time %.2f us (90 %%: %.2f us)\n",
                dev.name.c_str(), n, min_len, max_len, static_cast<long long>(nnz), copy_gbs,
                min_bytes / copy_gbs * 1e-3, min_bytes / copy_gbs * 1e-3 / 0.9);
    auto report = [&](const std::string& name, double us, bool cold = true) {
        std::printf("%-52s %8.2f us  %6.1f GF/s  %5.1f %% of limit  %6.1f G gathers/s%s\n",
                    name.c_str(), us, 2.0 * static_cast<double>(nnz) / us * 1e-3,
                    100.0 * min_bytes / (us * 1e-6) / (copy_gbs * 1e9),
                    static_cast<double>(nnz) / us * 1e-3, cold ? "" : "  (warm L2)");
    };
    const auto grid = static_cast<unsigned>((nnz + 32 * steps - 1) / (32 * steps) * 32 / block + 1);
#define FLOOR(W, X, S, NAME, COLD)                                                          \
    report(NAME, timer.median_us([&] {                                                      \
        floor_kernel<W, X, S><<<grid, block>>>(nnz, cols.data(), vals.data(), x.data(),     \
                                               timer.sink.data());                          \
    }, COLD), COLD);
    FLOOR(0, x_ldg, false, "floor: cols + vals, __ldg (no x)", true)
    FLOOR(0, x_ldg, true, "floor: cols + vals, __ldcs (no x)", true)
    FLOOR(1, x_ldg, false, "floor: cols + x, x __ldg", true)
    FLOOR(1, x_ldg, true, "floor: cols __ldcs + x __ldg", true)
    FLOOR(2, x_ldg, false, "floor: cols + vals + x, all __ldg", true)
    FLOOR(2, x_ldg, true, "floor: cols + vals __ldcs, x __ldg", true)
    FLOOR(2, x_ldcg, true, "floor: cols + vals __ldcs, x __ldcg", true)
    FLOOR(2, x_noalloc, true, "floor: cols + vals __ldcs, x L1::no_allocate", true)
    FLOOR(2, x_evict_last, true, "floor: cols + vals __ldcs, x L2 evict_last", true)
    FLOOR(2, x_evict_last, false, "floor: cols + vals __ldg, x L2 evict_last", true)
    FLOOR(2, x_ldg, false, "floor: cols + vals + x, all __ldg", false)
    {
        const auto g = static_cast<unsigned>((nnz + block * steps - 1) / (block * steps));
#define RANDOM(X, NAME, COLD)                                                               \
    report(NAME, timer.median_us([&] {                                                      \
        random_gather_kernel<X><<<g, block>>>(nnz, static_cast<std::uint32_t>(n), x.data(),  \
                                              timer.sink.data());                           \
    }, COLD), COLD);
        RANDOM(x_ldg, "random gathers (hashed index), nnz of them, x __ldg", true)
        RANDOM(x_ldg, "random gathers (hashed index), nnz of them, x __ldg", false)
        RANDOM(x_ldcg, "random gathers (hashed index), nnz of them, x __ldcg", false)
        RANDOM(x_noalloc, "random gathers (hashed index), x L1::no_allocate", false)
    }
    // Every kernel of the GPU registry, ours and cuSPARSE's (sigma auto for SELL); a variant whose
    // format does not fit the device prints its error and the next one runs.
    FormatParams params;
    params.sort_window = 0;
    for (const auto& variant : kernel_variants()) {
        const std::string name(variant.name);
        try {
            const auto op = prepare(variant, a, params);
            const RowOrder order = op.permuted() ? RowOrder::permuted : RowOrder::original;
            report(std::string("spmv ") + name, timer.median_us([&] {
                op.spmv(1.0, x.data(), 0.0, y.data(), order);
            }));
        } catch (const std::exception& e) {
            std::printf("spmv %s: %s\n", name.c_str(), e.what());
        }
    }
    return 0;
}
