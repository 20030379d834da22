// permuted_bench: times the kernels of every permuted format in the GPU registry (sell, pellr,
// pjds, jds_csr, ...: entries_for) against our CSR kernels and the cuSPARSE baselines on large
// generated matrices, in double precision,
// and prints GF/s and the fraction of the measured device copy bandwidth that the project's
// bandwidth-limit bytes reach (bench.hpp: values + column indices + (N+1) row pointers + x + y).
//
// Two timings per variant (medians of per-repetition CUDA event pairs around one SpMV):
//   harness cold  spmv::gpu::bench, CachePolicy::flush_l2 (2 x L2 cudaMemsetAsync before each rep)
//   clean cold    here: before each rep a kernel READS a 2 x L2 buffer, so the L2 holds clean
//                 lines; the memset flush leaves up to a full L2 of dirty lines, whose write-back
//                 then lands inside the timed SpMV and is charged to it.
// Then tuning experiments of the split kernel (split.cuh) on SELL-32-sigma: unroll U and target
// columns per warp K, checked against the first variant's result.
// Every variant is verified first (spmv::gpu::verify against the double CSR reference).
//
// Built with the library wherever CUDA is (CMake target permuted_bench, build/kernels/bench/;
// not run by ctest). By hand, after building spmv_kernels:
//   nvcc -O3 -std=c++20 -arch=sm_90 -Ilib/include -Ikernels/include kernels/bench/permuted_bench.cu
//   \
//     build-gpu2/kernels/libspmv_kernels.a build-gpu2/lib/libspmv_core.a -lcusparse \
//     -o build-gpu2/devbin/permuted_bench
// Run: permuted_bench [pde|powerlaw|blocks5|all] [sp|dp]  (default: all dp); on the device
// machine through kernels/bench/run_device.sh.
//
// Results, H100 SXM 80 GB (copy 3009 GB/s), double, 2026-11-22; clean-cold us (% of the copy
// limit) / harness-cold us:
//   pde100    sell C32 s1 36.3 (94.7 %) / 45.2   pjds 38.7 (88.6 %)   pellr 39.6 (86.7 %)
//             best cuSPARSE: cusparse_sell 38.9 (88.3 %) / 47.3
//   powerlaw  biell W32 48.7 (47.3 %) / 56.7   sell_split C32 sN 57.6 (40.0 %) / 60.6
//             pjds_split 62.7, pellr_split 62.4 (pjds 162, pellr 261: long rows serialised)
//             best cuSPARSE: csr_alg1 48.3 (47.7 %) / 51.4
//   blocks5   sell C32 sN 113.8 (84.7 %) / 124.5   pjds 115.7 (83.2 %)   pellr 116.5 (82.7 %)
//             best cuSPARSE: csr_alg1 126.7 (76.1 %) / 133.5
// Split-kernel experiments: unroll 8 beats 4 by 1-5 %; columns per warp 8/16/32 within noise.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/formats/sell.hpp>
#include <spmv/generators.hpp>
#include <spmv/gpu/bench.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/gpu/sell.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/gpu/verify.hpp>
#include <spmv/registry.hpp>

#include "../src/split.cuh"
#include "bench_common.cuh"

using namespace spmv;
using namespace spmv::gpu;

namespace {

struct Entry {
    std::string variant;
    FormatParams params;
    std::string label;
};

/// Median microseconds of launch(x, y) (y = A x, beta = 0), each repetition preceded by a
/// read-only pass over 2 x L2 (clean cold caches).
template <typename V, typename Launch>
double time_clean_cold(std::size_t rows, std::size_t cols, Launch&& launch, int reps)
{
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    std::vector<V> xh(cols);
    for (auto& e : xh) e = static_cast<V>(d(rng));
    auto x = DeviceBuffer<V>::from_host(xh, "x");
    DeviceBuffer<V> y(rows, "y");
    const std::size_t flush_n = 2 * std::size_t{device_info().l2_cache_bytes} / sizeof(double);
    DeviceBuffer<double> flush(flush_n, "flush");
    DeviceBuffer<double> sink(1, "sink");
    flush.fill(1.0);
    cudaEvent_t e0, e1;
    CHECK_CUDA(cudaEventCreate(&e0));
    CHECK_CUDA(cudaEventCreate(&e1));
    std::vector<double> t;
    for (int r = -3; r < reps; ++r) {
        read_flush_kernel<<<1024, 256>>>(flush.data(), flush_n, sink.data());
        CHECK_CUDA(cudaEventRecord(e0));
        launch(x.data(), y.data());
        CHECK_CUDA(cudaEventRecord(e1));
        CHECK_CUDA(cudaEventSynchronize(e1));
        float ms = 0.0f;
        CHECK_CUDA(cudaEventElapsedTime(&ms, e0, e1));
        if (r >= 0) t.push_back(1e3 * ms);
    }
    CHECK_CUDA(cudaEventDestroy(e0));
    CHECK_CUDA(cudaEventDestroy(e1));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

/// y = A x with the split kernel on SELL-32-sigma at another unroll / columns-per-warp than the
/// library's (tuning experiments; the library's own choice is timed through prepare()).
template <int unroll, typename V>
void experiment_split(const Csr<V, std::int32_t>& a, int sigma, int columns_per_warp,
                      const std::vector<V>& y_ref, double limit_gb, double copy_gbs)
{
    const auto host = to_sell_c_sigma(a, SellCSigmaOptions{32, sigma});
    const auto d = upload(host);
    const auto sched = gpu::detail::split_schedule(host.slice_widths, columns_per_warp);
    auto dsched = DeviceBuffer<std::int32_t>::from_host(sched, "schedule");
    const gpu::detail::SellSplitLayout<V> layout{d.slice_ptrs.data(), d.slice_widths.data(),
                                            d.col_idxs.data(), d.values.data()};
    const auto* map = gpu::detail::output_map(d.row_perm.data(), d.identity_perm, RowOrder::original);
    const auto launch = [&](const V* x, V* y) {
        gpu::detail::launch_split<unroll>(layout, sched.empty() ? nullptr : dsched.data(), sched.size(),
                                     static_cast<std::int32_t>(host.slice_widths.size()),
                                     a.num_rows, map, V(1), x, V(0), y, StreamRef{},
                                     /*streaming=*/true);
    };
    // correctness against the registered variant's result on the same x
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    std::vector<V> xh(static_cast<std::size_t>(a.num_cols));
    for (auto& e : xh) e = static_cast<V>(dist(rng));
    auto x = DeviceBuffer<V>::from_host(xh, "x");
    DeviceBuffer<V> y(static_cast<std::size_t>(a.num_rows), "y");
    launch(x.data(), y.data());
    const auto yh = y.to_host();
    double worst = 0.0;
    for (std::size_t i = 0; i < yh.size(); ++i) {
        worst = std::max(worst, std::abs(double(yh[i]) - double(y_ref[i])) /
                                    std::max(1.0, std::abs(double(y_ref[i]))));
    }
    const double us = time_clean_cold<V>(static_cast<std::size_t>(a.num_rows),
                                         static_cast<std::size_t>(a.num_cols), launch, 40);
    std::printf("  experiment split U%d K%-3d s%-8d %s | clean %8.1f us %7.1f GF/s %5.1f%%\n",
                unroll, columns_per_warp, sigma, worst < 1e-6 ? "ok  " : "FAIL", us,
                2.0 * nnz(a) / (us * 1e-6) / 1e9, 100.0 * limit_gb / (us * 1e-6) / copy_gbs);
}

template <typename V>
void run_matrix(const std::string& name, const Csr<double, std::int32_t>& a_double,
                const std::vector<Entry>& entries, double copy_gbs, int best_sigma)
{
    const auto a = convert_values<V>(a_double);
    const auto min_bytes =
        spmv_min_bytes(a.num_rows, a.num_cols, nnz(a), sizeof(V), /*beta_nonzero=*/false);
    const double limit_gb = static_cast<double>(min_bytes) / 1e9;
    const double floor_us = limit_gb / copy_gbs * 1e6;
    std::printf(
        "\n== %s (%s): %d x %d, nnz %lld, limit bytes %.2f MB, floor %.1f us at %.0f GB/s\n",
        name.c_str(), sizeof(V) == 8 ? "double" : "float", a.num_rows, a.num_cols,
        static_cast<long long>(nnz(a)), min_bytes / 1e6, floor_us, copy_gbs);
    std::printf("%-26s %6s | %8s %7s %6s | %8s %7s %6s | %8s\n", "variant", "verify", "cold us",
                "GF/s", "%copy", "clean us", "GF/s", "%copy", "dev MB");
    std::vector<V> y_ref;
    for (const auto& e : entries) {
        try {
            const auto dev = prepare<V>(e.variant, a, e.params);
            const auto v = verify(dev, a);
            BenchOptions o;
            o.xgpu = false;
            o.copy_bandwidth_gbs = copy_gbs;
            o.min_reps = 40;
            o.min_time_ms = 5.0;
            o.max_wall_ms = 2000.0;
            const auto cold = bench(dev, o);
            const double clean = time_clean_cold<V>(
                static_cast<std::size_t>(a.num_rows), static_cast<std::size_t>(a.num_cols),
                [&](const V* x, V* y) { dev.spmv(V(1), x, V(0), y); }, 40);
            if (y_ref.empty()) {  // y = A x on the experiments' x, for their check
                std::mt19937 rng(11);
                std::uniform_real_distribution<double> dist(-1.0, 1.0);
                std::vector<V> xh(static_cast<std::size_t>(a.num_cols));
                for (auto& q : xh) q = static_cast<V>(dist(rng));
                auto x = DeviceBuffer<V>::from_host(xh, "x");
                DeviceBuffer<V> y(static_cast<std::size_t>(a.num_rows), "y");
                dev.spmv(V(1), x.data(), V(0), y.data());
                y_ref = y.to_host();
            }
            std::printf("%-26s %6s | %8.1f %7.1f %5.1f%% | %8.1f %7.1f %5.1f%% | %8.1f\n",
                        e.label.c_str(), v.passed ? "ok" : "FAIL", 1e3 * cold.kernel.median_ms,
                        cold.gflops, 100.0 * cold.fraction_of_copy, clean,
                        2.0 * nnz(a) / (clean * 1e-6) / 1e9,
                        100.0 * limit_gb / (clean * 1e-6) / copy_gbs, dev.device_bytes() / 1e6);
            if (!v.passed) {
                std::printf("   %s\n", v.message.c_str());
            }
        } catch (const std::exception& ex) {
            std::printf("%-26s error: %s\n", e.label.c_str(), ex.what());
        }
        std::fflush(stdout);
    }
    for (const int sigma : {1, best_sigma}) {
        for (const int k : {8, 16, 32}) {
            experiment_split<8>(a, sigma, k, y_ref, limit_gb, copy_gbs);
        }
        experiment_split<4>(a, sigma, 16, y_ref, limit_gb, copy_gbs);
        std::fflush(stdout);
    }
}

/// The variants to time, from the GPU registry: every cuSPARSE baseline (the first entry's result
/// is the experiments' reference, so a baseline comes first), our kernels of the CSR layout, and
/// every variant of a permuted host format (FormatInfo::permuted), at the registry's default
/// parameters with C = 32; a format that reads sigma runs at sigma = 1, 256 and n (all rows).
std::vector<Entry> entries_for(std::int32_t n)
{
    std::vector<Entry> v;
    const auto add = [&](const KernelVariant& k, const std::string& suffix, int sigma) {
        FormatParams p;
        p.slice_height = 32;
        p.sort_window = sigma;
        v.push_back({std::string(k.name), p, std::string(k.name) + suffix});
    };
    for (const auto& k : kernel_variants()) {
        if (k.baseline) {
            add(k, "", 1);
        }
    }
    for (const auto& k : kernel_variants()) {
        if (!k.baseline && k.format == "csr") {
            add(k, "", 1);
        }
    }
    for (const auto& k : kernel_variants()) {
        const auto& f = find_format(k.format);
        if (k.baseline || !f.permuted) {
            continue;
        }
        if (std::find(f.params.begin(), f.params.end(), Param::sort_window) == f.params.end()) {
            add(k, "", 1);
            continue;
        }
        for (const int sigma : {1, 256, n}) {
            add(k, " s" + (sigma == n ? std::string("N") : std::to_string(sigma)), sigma);
        }
    }
    return v;
}

}  // namespace

int main(int argc, char** argv)
{
    const std::string which = argc > 1 ? argv[1] : "all";
    const bool sp = argc > 2 && std::strcmp(argv[2], "sp") == 0;
    if (!is_available()) {
        std::printf("SKIPPED: no CUDA device\n");
        return 77;
    }
    const auto info = device_info();
    const auto copy = measure_copy_bandwidth();
    std::printf("device %s, %d SMs, L2 %.0f MB; copy bandwidth %.0f GB/s (read + write, %zu MB)\n",
                info.name.c_str(), info.multiprocessors, info.l2_cache_bytes / 1e6, copy.gbs,
                copy.bytes / (1024 * 1024));
    const auto go = [&](const std::string& name, const Csr<double, std::int32_t>& a,
                        int best_sigma) {
        if (sp) {
            run_matrix<float>(name, a, entries_for(a.num_rows), copy.gbs, best_sigma);
        } else {
            run_matrix<double>(name, a, entries_for(a.num_rows), copy.gbs, best_sigma);
        }
    };
    if (which == "all" || which == "pde") {
        go("pde100 (7-point Laplacian, k = 100)", gen::pde(100), 1000000);
    }
    if (which == "all" || which == "powerlaw") {
        go("powerlaw 1M (min 1, max 500, exponent 2)", gen::power_law(1000000, 1, 2.0, 500, 42),
           1000000);
    }
    if (which == "all" || which == "blocks5") {
        go("blocks5 200k block rows (N = 1M, <= 8 blocks)", gen::blocks5(200000, 8, 42), 256);
    }
    return 0;
}
