// spmvlab tour: the built-in default job of the README's first command. It generates two
// matrices that behave very differently (a regular 3-D Laplacian and a power-law matrix),
// and shows for each what the tool measures: statistics, formats, model, verification, timing.
#include <cstdio>
#include <filesystem>

#include <spmv/analysis/row_stats.hpp>
#include <spmv/analysis/summary.hpp>
#include <spmv/generators.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/model/performance.hpp>

#include "commands.hpp"
#include "common.hpp"

namespace spmvlab {
namespace {

void section(const char* title)
{
    std::printf("\n== %s ==\n", title);
}

void run()
{
    namespace fs = std::filesystem;
    std::printf("SpMV Lab tour (%s)\n", version_string().c_str());
    std::printf("GPU: %s\n", spmv::gpu::is_available()
                                 ? spmv::gpu::device_info().name.c_str()
                                 : (spmv::gpu::is_compiled()
                                        ? "CUDA kernels built, but no CUDA device: CPU reference "
                                          "paths and model predictions only"
                                        : "built without CUDA: CPU reference paths and model "
                                          "predictions only"));
    struct Item {
        const char* label;
        const char* generator;
        spmv::gen::GeneratorParams params;
    };
    const Item items[] = {
        {"pde 30: 7-point Laplacian on a 30^3 grid (regular rows)", "pde", {{"size", 30}}},
        {"power law: 20000 rows with heavy-tailed row lengths", "powerlaw", {{"rows", 20000}}},
    };
    const auto cli = fs::canonical("/proc/self/exe").string();
    for (const auto& it : items) {
        section(it.label);
        const auto a = spmv::gen::generate(it.generator, it.params, 1);
        const auto s = spmv::analysis::row_stats(a);
        std::printf("N %lld, nnz %lld, row length ave %.2f sigma %.2f min %lld max %lld\n",
                    static_cast<long long>(s.rows), static_cast<long long>(s.nnz), s.ave, s.sigma,
                    static_cast<long long>(s.min), static_cast<long long>(s.max));
        spmv::FormatParams params;
        params.sort_window = 1024;
        Table t({"format", "stored", "padding", "bytes", "vs ELL %", "N_iter", "useful %"});
        for (const auto& f : spmv::analysis::summarize_all(a, params)) {
            if (!f.ok()) {
                t.add({f.name, "error: " + f.error});
                continue;
            }
            t.add({f.name, std::to_string(f.stored_entries), std::to_string(f.padding_entries),
                   fmt_bytes(static_cast<double>(f.bytes)),
                   f.data_reduction_vs_ell_percent ? fmt(*f.data_reduction_vs_ell_percent, 1) : "-",
                   std::to_string(f.n_iter), fmt(100 * f.useful_fraction, 1)});
        }
        std::printf("Formats (warp 32, b_r 32, SELL-32-1024):\n%s", t.str().c_str());
        const auto p = spmv::model::predict(s, spmv::model::find_profile("H100"),
                                            spmv::model::Precision::double_precision, 1.0);
        std::printf("Model, H100 profile, DP, alpha = 1: %.3f bytes/flop -> %.0f GF/s predicted; "
                    "PCIe share %.0f %% if x and y cross the bus every time\n",
                    p.code_balance, p.gflops, 100 * p.pcie_share);
    }
    section("what next");
    std::printf("  %s generate pde --size 100 -o pde100.mtx\n", cli.c_str());
    std::printf("  %s info pde100.mtx; %s formats pde100.mtx --br 32\n", cli.c_str(), cli.c_str());
    std::printf("  %s verify DIR [--gpu]; %s bench DIR [--gpu --precision both]\n", cli.c_str(),
                cli.c_str());
    std::printf("  the explorer: spmvlab-gui (on a display)\n");
}

}  // namespace

void add_tour_command(CLI::App& app)
{
    auto* cmd = app.add_subcommand("tour", "a guided run on built-in generated matrices (what the "
                                           "README's first command runs without a display)");
    cmd->callback([] { run(); });
}

}  // namespace spmvlab
