// spmvlab model FILE: Kreutzer's code-balance / PCIe model (SPEC §2) for the matrix.
#include <cstdio>

#include <spmv/analysis/row_stats.hpp>
#include <spmv/error.hpp>
#include <spmv/model/performance.hpp>

#include "commands.hpp"
#include "common.hpp"

namespace spmvlab {
namespace {

struct ModelOptions {
    std::string file;
    std::string gpu;
    double alpha = 1.0;
    std::string precision = "dp";
    double bandwidth = 0;
    double pcie = 0;
    bool json = false;
};

void run(const ModelOptions& o)
{
    using namespace spmv::model;
    const auto a = load_matrix(o.file);
    const auto stats = spmv::analysis::row_stats(a);
    std::vector<GpuProfile> gpus;
    if (o.bandwidth > 0 || o.pcie > 0) {
        gpus.push_back(custom(o.gpu.empty() ? "custom" : o.gpu, o.bandwidth, o.pcie));
    } else if (!o.gpu.empty()) {
        gpus.push_back(find_profile(o.gpu));
    } else {
        gpus.assign(profiles().begin(), profiles().end());
    }
    std::vector<Precision> precs;
    if (o.precision == "dp" || o.precision == "both") precs.push_back(Precision::double_precision);
    if (o.precision == "sp" || o.precision == "both") precs.push_back(Precision::single_precision);
    if (precs.empty()) {
        SPMV_THROW(spmv::InvalidArgument, "--precision must be sp, dp or both");
    }
    nlohmann::json j = nlohmann::json::array();
    Table t({"GPU", "prec", "alpha", "bytes/flop", "T_MVM us", "T_PCI us", "GF/s", "GF/s +PCIe",
             "PCIe %", "N_nzr>50%", "N_nzr<10%"});
    for (const auto& g : gpus) {
        for (auto p : precs) {
            const auto r = predict(stats, g, p, o.alpha);
            t.add({g.name, std::string(to_string(p)), fmt(r.alpha, 3), fmt(r.code_balance, 3),
                   fmt(r.t_mvm_s * 1e6, 2), fmt(r.t_pci_s * 1e6, 2), fmt(r.gflops, 1),
                   fmt(r.gflops_with_pcie, 1), fmt(100 * r.pcie_share, 1),
                   fmt(r.n_nzr_pcie_over_half, 1), fmt(r.n_nzr_pcie_under_tenth, 1)});
            j.push_back({{"gpu", g.name},
                         {"gpu_note", g.note},
                         {"memory_bandwidth_gbs", g.memory_bandwidth_gbs},
                         {"pcie_bandwidth_gbs", g.pcie_bandwidth_gbs},
                         {"precision", std::string(to_string(p))},
                         {"alpha", r.alpha},
                         {"n_nzr", r.n_nzr},
                         {"code_balance_bytes_per_flop", r.code_balance},
                         {"t_mvm_s", r.t_mvm_s},
                         {"t_pci_s", r.t_pci_s},
                         {"predicted_gflops", r.gflops},
                         {"predicted_gflops_with_pcie", r.gflops_with_pcie},
                         {"pcie_share", r.pcie_share},
                         {"n_nzr_pcie_over_half", r.n_nzr_pcie_over_half},
                         {"n_nzr_pcie_under_tenth", r.n_nzr_pcie_under_tenth}});
        }
    }
    if (o.json) {
        std::printf("%s\n", j.dump(2).c_str());
        return;
    }
    std::printf("%s: N = %lld, nnz = %lld, N_nzr = %.3f (alpha range [%.4f, 1])\n", o.file.c_str(),
                static_cast<long long>(stats.rows), static_cast<long long>(stats.nnz), stats.ave,
                min_alpha(stats.ave));
    std::printf("Model (Kreutzer et al. §II.B; a prediction, not a measurement):\n%s",
                t.str().c_str());
    for (const auto& g : gpus) {
        std::printf("  %s: %s\n", g.name.c_str(), g.note.c_str());
    }
}

}  // namespace

void add_model_command(CLI::App& app)
{
    auto o = std::make_shared<ModelOptions>();
    auto* cmd = app.add_subcommand(
        "model", "the performance model: code balance (bytes/flop), predicted GF/s from memory "
                 "bandwidth, PCIe share of x/y transfers and the N_nzr thresholds");
    cmd->add_option("file", o->file, "a Matrix Market (.mtx) file")->required();
    cmd->add_option("--gpu", o->gpu, "a GPU profile (C2050, C2070, H100, H200; default: all) or "
                                     "the name of a custom one");
    cmd->add_option("--alpha", o->alpha, "right-hand-side reuse: 1/N_nzr (perfect) .. 1 (none)")
        ->default_val(1.0);
    cmd->add_option("--precision", o->precision, "sp, dp or both")->default_val("dp");
    cmd->add_option("--bandwidth", o->bandwidth, "custom profile: memory bandwidth in GB/s")
        ->check(positive_number());
    cmd->add_option("--pcie", o->pcie, "custom profile: PCIe bandwidth in GB/s")
        ->check(positive_number());
    cmd->add_flag("--json", o->json, "machine-readable output");
    cmd->callback([o] { run(*o); });
}

}  // namespace spmvlab
