// Lesson 07: the performance model (Kreutzer et al. §II.B) next to measured GPU timings.
// SpMV moves far more bytes than it does flops, so its speed is memory bandwidth divided by
// the code balance B (bytes per flop). The model predicts T_MVM from N, N_nzr and B_GPU alone.
// With a CUDA device the lesson times the csr and sell kernels and prints measured vs predicted;
// without one it prints the prediction, labelled "model only", and checks the model's algebra.
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <spmv/analysis/row_stats.hpp>
#include <spmv/generators.hpp>
#include <spmv/gpu/bench.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/gpu/verify.hpp>
#include <spmv/model/gpu_profile.hpp>
#include <spmv/model/performance.hpp>

#include "lesson.hpp"

namespace {

bool close(double a, double b) { return std::abs(a - b) <= 1e-12 * std::abs(b); }

}  // namespace

int main()
{
    tutorial::SelfCheck check;
    using spmv::model::Precision;

    // [section: device]
    const bool on_gpu = spmv::gpu::is_available();  // CUDA build AND a device present
    std::string profile_name = "H100";
    if (on_gpu) {
        const auto info = spmv::gpu::device_info();
        std::printf("CUDA device: %s, %d SMs\n", info.name.c_str(), info.multiprocessors);
        if (info.name.find("H200") != std::string::npos) profile_name = "H200";
    } else {
        std::printf("model only (no CUDA device): %s\n", spmv::gpu::is_compiled()
                                                             ? "CUDA build, but no device found"
                                                             : "this build has no CUDA kernels");
    }
    const auto& gpu = spmv::model::find_profile(profile_name);
    // [section: end]
    std::printf("profile %s: B_GPU = %.0f GB/s, B_PCI = %.0f GB/s (double precision below)\n",
                gpu.name.c_str(), gpu.memory_bandwidth_gbs, gpu.pcie_bandwidth_gbs);

    std::vector<std::pair<std::string, spmv::Csr<double, std::int32_t>>> matrices;
    matrices.emplace_back("pde100", spmv::gen::pde(100));  // N = 10^6, 7-point stencil
    matrices.emplace_back("powerlaw_1m", spmv::gen::power_law(1'000'000, 1, 2.0, 1000, 1));

    for (const auto& [name, a] : matrices) {
        // [section: predict]
        const auto stats = spmv::analysis::row_stats(a);  // N = rows, N_nzr = ave
        const double n = double(stats.rows), nnzr = stats.ave, bw = gpu.memory_bandwidth_gbs * 1e9;
        // alpha = fraction of x loads that go to memory: 1/N_nzr (x read once) .. 1 (no reuse)
        const auto best = spmv::model::predict(stats, gpu, Precision::double_precision,
                                               spmv::model::min_alpha(nnzr));
        const auto worst = spmv::model::predict(stats, gpu, Precision::double_precision, 1.0);
        // [section: end]
        std::printf("\n%s: N = %lld, nnz = %lld, N_nzr = %.3f\n", name.c_str(),
                    static_cast<long long>(stats.rows), static_cast<long long>(stats.nnz), nnzr);
        std::printf("  code balance  %.3f .. %.3f bytes/flop  (alpha = 1/N_nzr .. 1)\n",
                    best.code_balance, worst.code_balance);
        std::printf("  T_MVM         %.1f .. %.1f us\n", best.t_mvm_s * 1e6, worst.t_mvm_s * 1e6);
        std::printf("  predicted     %.1f .. %.1f GF/s (kernel), %.1f GF/s with PCIe "
                    "(T_PCI = %.0f us, %.0f %% of the total)\n", best.gflops, worst.gflops,
                    best.gflops_with_pcie, best.t_pci_s * 1e6, 100.0 * best.pcie_share);

        // [section: identities]
        // The model by hand: Kreutzer eq. 1 (code balance) and eq. 2 (T_MVM, T_PCI), alpha = 1.
        const double balance = (8 + 4 + 8 * 1.0 + 16 / nnzr) / 2;
        const double t_mvm = 8 * n / bw * (nnzr * (1.0 + 1.5) + 2);
        const double t_pci = 16 * n / (gpu.pcie_bandwidth_gbs * 1e9);
        // [section: end]
        check.expect(close(worst.code_balance, balance),
                     name + ": B = (8 + 4 + 8 alpha + 16/N_nzr)/2");
        check.expect(close(worst.t_mvm_s, t_mvm) && close(worst.t_pci_s, t_pci),
                     name + ": T_MVM = 8N/B_GPU [N_nzr (alpha + 3/2) + 2], T_PCI = 16N/B_PCI");
        check.expect(close(best.gflops, 2.0 * double(stats.nnz) / best.t_mvm_s / 1e9) &&
                         close(best.gflops, gpu.memory_bandwidth_gbs / best.code_balance),
                     name + ": predicted GF/s = 2 nnz / T_MVM = B_GPU / code balance");
        if (!on_gpu) continue;

        // [section: measure]
        spmv::FormatParams params;
        params.slice_height = 32;  // SELL-32-256: one warp per slice
        params.sort_window = 256;
        spmv::gpu::BenchOptions options;
        options.min_reps = 20;
        options.min_time_ms = 50.0;
        options.xgpu = false;  // kernel only, as T_MVM
        for (const char* variant : {"csr", "sell"}) {
            const auto m = spmv::gpu::prepare<double>(variant, a, params);
            const auto verified = spmv::gpu::verify(m, a);
            const auto r = spmv::gpu::bench(m, options);  // median of cold-L2 repetitions
            // [section: end]
            std::printf("  measured %-4s %6.1f GF/s = %.2f x predicted (alpha = 1/N_nzr), %.1f us\n"
                        "       %.0f GB/s if only the minimum %.0f MB moved;"
                        " the format holds %.0f MB\n",
                        variant, r.gflops, r.gflops / best.gflops, r.kernel.median_ms * 1e3,
                        r.effective_gbs, double(r.min_bytes) / 1e6, double(r.format_bytes) / 1e6);
            check.expect(verified.passed && r.gflops > 0.0,
                         name + " " + variant + ": kernel verified against the CPU reference");
        }
    }
    return check.finish();
}
