// sell_tune: tuning experiments for the SELL-32-sigma kernel on pde100 (double), against the
// library's own sell kernel and cuSPARSE SELL timed in the same process the same way (clean cold
// L2: a read pass over 2 x L2 before every repetition, median of event-timed repetitions).
// Knobs: threads per block, slots per step (unroll), streaming loads (__ldcs: evict-first) for
// the matrix arrays, and the slice width read from the slice pointers instead of its own array.
// Every experiment's y is compared with the library kernel's.
//
// Built with the library wherever CUDA is (CMake target sell_tune, build/kernels/bench/; not run
// by ctest). By hand on the GPU machine, after building
// spmv_kernels (build-device):
//   nvcc -O3 -std=c++20 -arch=sm_90 -Ilib/include -Ikernels/include -Ibuild-device/lib/generated \
//     kernels/bench/sell_tune.cu build-device/kernels/libspmv_kernels.a \
//     build-device/lib/libspmv_core.a -lcusparse -o build-device/sell_tune
// Run: build-device/sell_tune [k] (pde k, default 100).
//
// Results, H100 80GB HBM3, 2026-11-22, double, clean cold (us; % of the bandwidth-limit bytes):
//   pde100  library sell 36.35 (94.5 %), cuSPARSE SELL 38.62 (88.9 %); block 256 unroll 8:
//           __ldg 36.16, __ldcs 34.24, __ldcs + width from pointers 34.05 (100.9 %);
//           block 128 34.79->33.79, 512 34.40, 1024 35.04; unroll 4 34.82, 16 34.18
//   pde150  library sell 114.30, cuSPARSE SELL 125.60; __ldcs + ptrdiff 110.69 (104.9 %)
// => the library's strided kernels use streaming loads (detail::ldcs) for the matrix arrays;
//    block size and unroll are within ~1 % and stay as they were.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <random>
#include <vector>

#include <spmv/formats/sell.hpp>
#include <spmv/generators.hpp>
#include <spmv/gpu/bench.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/gpu/device_matrix.hpp>
#include <spmv/gpu/memory.hpp>
#include <spmv/gpu/sell.hpp>
#include <spmv/gpu/variants.hpp>

#include "bench_common.cuh"

using namespace spmv;
using namespace spmv::gpu;

namespace {

template <bool stream, typename T>
__device__ __forceinline__ T load(const T* p)
{
    if constexpr (stream) {
        return __ldcs(p);
    } else {
        return __ldg(p);
    }
}

// SELL-32 with sigma = 1 (no permutation): thread k = row k.
template <int block, int unroll, bool stream, bool ptrdiff>
__global__ void __launch_bounds__(block)
    sell_exp(std::int32_t n, const std::int32_t* __restrict__ ptrs,
             const std::int32_t* __restrict__ widths, const std::int32_t* __restrict__ idx,
             const double* __restrict__ val, const double* __restrict__ x, double* __restrict__ y)
{
    const std::uint32_t k = blockIdx.x * block + threadIdx.x;
    if (k >= static_cast<std::uint32_t>(n)) {
        return;
    }
    const std::uint32_t s = k / 32;
    const std::int32_t p0 = __ldg(ptrs + s);
    const std::int32_t width = ptrdiff ? (__ldg(ptrs + s + 1) - p0) / 32 : __ldg(widths + s);
    const std::int32_t* ip = idx + p0 + (k & 31);
    const double* vp = val + p0 + (k & 31);
    double s0 = 0.0;
    double s1 = 0.0;
    for (std::int32_t j = 0; j < width; j += unroll) {
        std::int32_t c[unroll];
        double v[unroll];
#pragma unroll
        for (int u = 0; u < unroll; ++u) {
            const bool in = j + u < width;
            c[u] = in ? load<stream>(ip + u * 32) : -1;
            v[u] = in ? load<stream>(vp + u * 32) : 0.0;
        }
#pragma unroll
        for (int u = 0; u < unroll; ++u) {
            const double xv = c[u] >= 0 ? __ldg(x + c[u]) : 0.0;
            if (u % 2 == 0) {
                s0 += v[u] * xv;
            } else {
                s1 += v[u] * xv;
            }
        }
        ip += unroll * 32;
        vp += unroll * 32;
    }
    y[k] = s0 + s1;
}

}  // namespace

int main(int argc, char** argv)
{
    const int k = argc > 1 ? std::atoi(argv[1]) : 100;
    const auto a = gen::generate("pde", {{"size", k}});
    const auto host = to_sell_c_sigma(a, SellCSigmaOptions{32, 1});
    const auto d = upload(host);
    const std::int32_t n = a.num_rows;
    const double nnz = static_cast<double>(a.row_ptrs.back());
    // the project's bandwidth-limit bytes (bench.hpp): values + indices + (N+1) row pointers + x + y
    const double min_bytes = nnz * 12.0 + 4.0 * (n + 1) + 16.0 * n;
    const double copy_gbs = measure_copy_bandwidth().gbs;
    auto x = random_device_vector(static_cast<std::size_t>(n));
    DeviceBuffer<double> y(static_cast<std::size_t>(n), "y");
    DeviceBuffer<double> y_ref(static_cast<std::size_t>(n), "y_ref");
    Timer timer;
    std::printf("pde%d: N %d, nnz %.0f, copy bandwidth %.0f GB/s, limit %.1f us\n", k, n, nnz,
                copy_gbs, min_bytes / copy_gbs * 1e-3);
    auto report = [&](const char* name, double us) {
        std::printf("%-36s %8.2f us  %6.1f GF/s  %5.1f %% of limit\n", name, us, 2 * nnz / us * 1e-3,
                    100.0 * min_bytes / (us * 1e-6) / (copy_gbs * 1e9));
    };
    report("library sell", timer.median_us([&] {
        spmv::gpu::spmv(d, 1.0, x.data(), 0.0, y_ref.data(), RowOrder::original);
    }));
    {
        const auto op = prepare(find_variant("cusparse_sell"), a, FormatParams{});
        report("cusparse_sell", timer.median_us([&] {
            op.spmv(1.0, x.data(), 0.0, y.data(), RowOrder::original);
        }));
    }
    const auto ref = y_ref.to_host();
    auto check = [&](const char* name) {
        const auto got = y.to_host();
        double err = 0.0;
        for (std::size_t i = 0; i < got.size(); ++i) {
            err = std::max(err, std::abs(got[i] - ref[i]) / (std::abs(ref[i]) + 1e-300));
        }
        if (err > 1e-12) {
            std::printf("  !! %s differs from the library kernel: max rel %.3e\n", name, err);
        }
    };
#define EXP(B, U, S, P)                                                                       \
    {                                                                                         \
        const char* name = "exp block " #B " unroll " #U " stream " #S " ptrdiff " #P;        \
        const auto launch = [&] {                                                             \
            sell_exp<B, U, S, P><<<(n + B - 1) / B, B>>>(n, d.slice_ptrs.data(),              \
                                                         d.slice_widths.data(),               \
                                                         d.col_idxs.data(), d.values.data(),  \
                                                         x.data(), y.data());                 \
        };                                                                                    \
        report(name, timer.median_us(launch));                                                \
        check(name);                                                                          \
    }
    EXP(256, 8, false, false)
    EXP(256, 8, true, false)
    EXP(256, 8, false, true)
    EXP(256, 8, true, true)
    EXP(128, 8, false, false)
    EXP(128, 8, true, true)
    EXP(512, 8, false, false)
    EXP(512, 8, true, true)
    EXP(1024, 8, true, true)
    EXP(256, 4, false, false)
    EXP(256, 4, true, true)
    EXP(256, 16, true, true)
    report("library sell (again)", timer.median_us([&] {
        spmv::gpu::spmv(d, 1.0, x.data(), 0.0, y_ref.data(), RowOrder::original);
    }));
    return 0;
}
