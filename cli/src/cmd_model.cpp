// spmvlab model FILE | --thresholds: Kreutzer's code-balance / PCIe model (SPEC §2), and with
// --format the per-format fitted model (spmv/model/format_model.hpp: predict_variants, the
// one call `recommend`, the GUI and the Python module share) next to its traffic bound and
// Kreutzer's eq. 1 line.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <spmv/analysis/row_stats.hpp>
#include <spmv/error.hpp>
#include <spmv/model/format_model.hpp>
#include <spmv/model/performance.hpp>

#include "commands.hpp"
#include "common.hpp"
#include "meta.hpp"

namespace spmvlab {
namespace {

struct ModelOptions {
    std::string file;
    std::string gpu;
    std::string alpha = "1";  ///< a number in [1/N_nzr, 1] or "min" (1/N_nzr)
    std::string precision = "dp";
    double bandwidth = 0;
    double pcie = 0;
    bool json = false;
    bool thresholds = false;
    std::vector<double> ratios;
    std::vector<std::string> formats;  ///< --format: variants or formats, "all": every variant
    ParamOptions params;
};

/// --alpha: "min" (nullopt: 1/N_nzr, the lower bound of alpha) or a number; the range
/// [1/N_nzr, 1] is checked by the model, which knows N_nzr.
std::optional<double> parse_alpha(const std::string& s)
{
    if (s == "min") {
        return std::nullopt;
    }
    try {
        std::size_t used = 0;
        const double a = std::stod(s, &used);
        if (used == s.size()) {
            return a;
        }
    } catch (const std::exception&) {
    }
    SPMV_THROW(spmv::InvalidArgument,
               "--alpha " + s + ": not a number in [1/N_nzr, 1] or 'min' (1/N_nzr)");
}

std::vector<spmv::model::Precision> precisions(const std::string& s)
{
    using spmv::model::Precision;
    std::vector<Precision> precs;
    if (s == "dp" || s == "both") precs.push_back(Precision::double_precision);
    if (s == "sp" || s == "both") precs.push_back(Precision::single_precision);
    if (precs.empty()) {
        SPMV_THROW(spmv::InvalidArgument, "--precision must be sp, dp or both");
    }
    return precs;
}

/// "10", "20", "54.55": a bandwidth ratio as the paper writes it.
std::string fmt_ratio(double r)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", r);
    return buf;
}

std::vector<spmv::model::GpuProfile> selected_gpus(const ModelOptions& o)
{
    using namespace spmv::model;
    std::vector<GpuProfile> gpus;
    if (o.bandwidth > 0 || o.pcie > 0) {
        gpus.push_back(custom(o.gpu.empty() ? "custom" : o.gpu, o.bandwidth, o.pcie));
    } else if (!o.gpu.empty()) {
        gpus.push_back(find_profile(o.gpu));
    } else {
        gpus.assign(profiles().begin(), profiles().end());
    }
    return gpus;
}

/// The model for the matrix of o.file: one row per GPU and precision.
nlohmann::json run_matrix(const ModelOptions& o, std::string& text)
{
    using namespace spmv::model;
    const auto a = load_matrix(o.file);
    const auto stats = spmv::analysis::row_stats(a);
    const auto gpus = selected_gpus(o);
    const auto precs = precisions(o.precision);
    const auto given = parse_alpha(o.alpha);
    // --alpha min: 1/N_nzr of this matrix for its own traffic, and for the thresholds the
    // paper's reading, alpha = 1/N_nzr of the threshold's own N_nzr (perfect reuse)
    const bool alpha_min = !given.has_value();
    const double alpha = given ? *given : stats.ave > 0 ? min_alpha(stats.ave) : 1.0;
    nlohmann::json j = nlohmann::json::array();
    Table t({"GPU", "prec", "alpha", "bytes/flop", "T_MVM us", "T_PCI us", "GF/s", "GF/s +PCIe",
             "PCIe %", "r", "eq.3 N_nzr<=", "eq.4 N_nzr>="});
    for (const auto& g : gpus) {
        for (auto p : precs) {
            const auto r = predict(stats, g, p, alpha);
            const double ratio = g.memory_bandwidth_gbs / g.pcie_bandwidth_gbs;
            double eq3 = r.n_nzr_pcie_over_half;
            double eq4 = r.n_nzr_paper_eq4;
            double tenth = r.n_nzr_pcie_under_tenth;
            if (alpha_min) {
                eq3 = n_nzr_at_time_ratio_perfect_reuse(1.0, ratio, p);
                eq4 = n_nzr_at_time_ratio_perfect_reuse(10.0, ratio, p);
                tenth = n_nzr_at_time_ratio_perfect_reuse(9.0, ratio, p);
            }
            t.add({g.name, std::string(to_string(p)), fmt(r.alpha, 3), fmt(r.code_balance, 3),
                   fmt(r.t_mvm_s * 1e6, 2), fmt(r.t_pci_s * 1e6, 2), fmt(r.gflops, 1),
                   fmt(r.gflops_with_pcie, 1), fmt(100 * r.pcie_share, 1), fmt_ratio(ratio),
                   fmt(eq3, 1), fmt(eq4, 1)});
            j.push_back({{"gpu", g.name},
                         {"gpu_note", g.note},
                         {"memory_bandwidth_gbs", g.memory_bandwidth_gbs},
                         {"pcie_bandwidth_gbs", g.pcie_bandwidth_gbs},
                         {"bandwidth_ratio", ratio},
                         {"precision", precision_name(to_string(p))},
                         {"alpha", r.alpha},
                         {"alpha_min", alpha_min},
                         {"n_nzr", r.n_nzr},
                         {"code_balance_bytes_per_flop", r.code_balance},
                         {"t_mvm_s", r.t_mvm_s},
                         {"t_pci_s", r.t_pci_s},
                         {"predicted_gflops", r.gflops},
                         {"predicted_gflops_with_pcie", r.gflops_with_pcie},
                         {"pcie_share", r.pcie_share},
                         {"n_nzr_eq3", eq3},
                         {"n_nzr_eq4", eq4},
                         {"n_nzr_pcie_over_half", eq3},
                         {"n_nzr_pcie_under_tenth", tenth}});
        }
    }
    char line[512];
    std::snprintf(line, sizeof line,
                  "%s: N = %lld, nnz = %lld, N_nzr = %.3f (alpha range [%.4f, 1]%s)\n",
                  o.file.c_str(), static_cast<long long>(stats.rows),
                  static_cast<long long>(stats.nnz), stats.ave,
                  stats.ave > 0 ? min_alpha(stats.ave) : 1.0,
                  alpha_min ? "; --alpha min: its lower bound 1/N_nzr" : "");
    text += line;
    text += "Model (Kreutzer et al. §II.B; a prediction, not a measurement):\n" + t.str();
    text += std::string(
                "  r = B_GPU/B_PCI. eq. 3: T_MVM <= T_PCI (PCIe takes >= 50 % of the time) for\n"
                "  N_nzr <= this; eq. 4: T_MVM >= 10 T_PCI (PCIe adds <= 10 % to the kernel) for\n"
                "  N_nzr >= this; ") +
            (alpha_min ? "both with alpha = 1/N_nzr of that N_nzr (perfect reuse of x)"
                       : "both with this alpha") +
            ". The paper's worked cases:\n  spmvlab model --thresholds\n";
    for (const auto& g : gpus) {
        text += "  " + g.name + ": " + g.note + "\n";
    }
    return j;
}

/// Kreutzer eq. 3 and eq. 4 for bandwidth ratios r and every alpha case, with the paper's
/// rounded numbers next to the cases it works out.
nlohmann::json run_thresholds(const ModelOptions& o, std::string& text)
{
    using namespace spmv::model;
    std::vector<double> ratios = o.ratios;
    if (ratios.empty() && (!o.gpu.empty() || o.bandwidth > 0 || o.pcie > 0)) {
        for (const auto& g : selected_gpus(o)) {
            const double r = g.memory_bandwidth_gbs / g.pcie_bandwidth_gbs;
            if (std::find(ratios.begin(), ratios.end(), r) == ratios.end()) ratios.push_back(r);
        }
    }
    if (ratios.empty()) {
        ratios = {10.0, 20.0};  // the paper's B_GPU ~ 10 B_PCI and B_GPU ~ 20 B_PCI
    }
    const auto precs = precisions(o.precision);
    nlohmann::json j = nlohmann::json::array();
    Table t({"prec", "r", "alpha", "eq.3: N_nzr <=", "(paper)", "eq.4: N_nzr >=", "(paper)"});
    for (auto p : precs) {
        for (const double r : ratios) {
            for (const auto c : {AlphaCase::no_reuse, AlphaCase::perfect_reuse,
                                 AlphaCase::perfect_reuse_dropped}) {
                const auto th = kreutzer_thresholds(r, c, p);
                auto paper = [](double v) { return v > 0 ? fmt(v, 0) : std::string(); };
                t.add({std::string(to_string(p)), fmt_ratio(r), std::string(to_string(c)),
                       fmt(th.eq3_n_nzr, 1), paper(th.paper_eq3), fmt(th.eq4_n_nzr, 1),
                       paper(th.paper_eq4)});
                nlohmann::json row = {{"precision", precision_name(to_string(p))},
                                      {"bandwidth_ratio", r},
                                      {"alpha", std::string(to_string(c))},
                                      {"eq3_n_nzr", th.eq3_n_nzr},
                                      {"eq4_n_nzr", th.eq4_n_nzr}};
                if (th.paper_eq3 > 0) row["paper_eq3"] = th.paper_eq3;
                if (th.paper_eq4 > 0) row["paper_eq4"] = th.paper_eq4;
                j.push_back(row);
            }
        }
    }
    text += "Kreutzer eq. 3 and eq. 4 (§II.B; square matrix, r = B_GPU/B_PCI; a model, not a "
            "measurement):\n"
            "  eq. 3: T_MVM <= T_PCI (PCIe >= 50 % of the time) for "
            "N_nzr <= 2 (r - 1) / (alpha + 3/2)\n"
            "  eq. 4: T_MVM >= 10 T_PCI (PCIe adds <= 10 %) for "
            "N_nzr >= (20 r - 2) / (alpha + 3/2)\n";
    if (std::find(precs.begin(), precs.end(), Precision::single_precision) != precs.end()) {
        text += "  SP: the same conditions with SP traffic, alpha + 2 in place of alpha + 3/2\n";
    }
    text += "  alpha 1/N_nzr: 1/N_nzr of the threshold's own N_nzr (exact); 1/N_nzr -> 0: that\n"
            "  term dropped, as in the paper's worked numbers; (paper): the numbers it gives\n" +
            t.str();
    return j;
}

/// --format: modelled variant names; a host format name stands for its default kernel
/// (format_variant), "all" for every modelled variant.
std::vector<std::string_view> selected_variants(const std::vector<std::string>& names)
{
    using namespace spmv::model;
    std::vector<std::string_view> out;
    auto add = [&out](std::string_view v) {
        if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
    };
    for (const auto& n : names) {
        if (n == "all") {
            for (const auto& v : modelled_variants()) add(v.name);
        } else if (const auto* v = find_modelled_variant(n)) {
            add(v->name);
        } else {
            std::string known;
            for (const auto& m : modelled_variants()) {
                known += (known.empty() ? "" : ", ") + std::string(m.name);
            }
            SPMV_THROW(spmv::InvalidArgument, "--format " + n +
                                                  ": the per-format model has no GPU kernel of "
                                                  "that name; modelled: " + known + ", or all");
        }
    }
    return out;
}

/// The per-format fitted model for the matrix: per GPU, precision and variant the predicted
/// time (the number `recommend` ranks by), its terms, its traffic bound, and the two reference
/// lines (traffic bound, Kreutzer eq. 1 at this alpha).
nlohmann::json run_formats(const ModelOptions& o, std::string& text)
{
    using namespace spmv::model;
    const auto a = load_matrix(o.file);
    const auto stats = spmv::analysis::row_stats(a);
    const auto variants = selected_variants(o.formats);
    const auto params = advisor_params(o.params);
    const auto given = parse_alpha(o.alpha);
    const double alpha = given ? *given : stats.ave > 0 ? min_alpha(stats.ave) : 1.0;
    nlohmann::json j = nlohmann::json::array();
    for (const auto& g : selected_gpus(o)) {
        for (auto p : precisions(o.precision)) {
            const auto all = predict_variants(a, params, g, p, variants);
            std::vector<FormatPrediction> preds;
            for (const auto& vp : all) preds.push_back(vp.prediction);
            const auto lines = model_bounds(preds, stats.rows, stats.nnz, g, p, alpha);
            const double flops = 2.0 * static_cast<double>(stats.nnz);
            Table t({"variant", "layout", "predicted us", "GF/s", "bound", "traffic bound us",
                     "traffic GF/s"});
            nlohmann::json rows = nlohmann::json::array();
            for (const auto& [shape, pr] : all) {
                std::string layout = shape.format;
                if (shape.format == "sell") {
                    layout += "-" + std::to_string(shape.params.slice_height) + "-" +
                              std::to_string(shape.params.sort_window);
                }
                t.add({shape.variant, layout, pr.feasible ? fmt(pr.time_s * 1e6, 3) : "-",
                       pr.feasible ? fmt(pr.gflops, 1) : "-",
                       pr.feasible ? pr.bound : "infeasible: " + pr.why_not,
                       fmt(pr.dram_s * 1e6, 3), fmt(flops / pr.dram_s / 1e9, 1)});
                rows.push_back({{"variant", shape.variant},
                                {"format", shape.format},
                                {"params", params_json(shape.params)},
                                {"feasible", pr.feasible},
                                {"why_not", pr.why_not},
                                {"predicted_us", pr.time_s * 1e6},
                                {"gflops", pr.gflops},
                                {"bound", pr.bound},
                                {"floor_us", pr.floor_s * 1e6},
                                {"latency_us", pr.latency_s * 1e6},
                                {"dram_us", pr.dram_s * 1e6},
                                {"l2_us", pr.l2_s * 1e6},
                                {"issue_us", pr.issue_s * 1e6},
                                {"dram_bytes", pr.dram_bytes},
                                {"traffic_bound_us", pr.dram_s * 1e6}});
            }
            j.push_back({{"gpu", g.name},
                         {"precision", precision_name(to_string(p))},
                         {"variants", rows},
                         {"traffic_bound_us", lines.traffic_bound_s * 1e6},
                         {"traffic_bound_variant", lines.traffic_bound_variant},
                         {"kreutzer_eq1_us", lines.kreutzer_eq1_s * 1e6},
                         {"kreutzer_eq1_gflops", flops / lines.kreutzer_eq1_s / 1e9},
                         {"kreutzer_alpha", lines.alpha},
                         {"kreutzer_is_bound", lines.kreutzer_is_bound}});
            text += "Per-format fitted model (format_model.hpp; the number recommend ranks by; "
                    "a prediction, not a measurement), " +
                    g.name + ", " + std::string(to_string(p)) + ":\n" + t.str();
            char line[640];
            std::snprintf(
                line, sizeof line,
                "  traffic bound: %.3f us (%.1f GF/s): the fewest DRAM bytes of these variants "
                "(%s) / B_GPU %.0f GB/s; no prediction is faster\n"
                "  Kreutzer eq. 1 %s: %.3f us (%.1f GF/s) at alpha = %.4f (x read alpha N_nzr "
                "times per row, y read and written)%s\n",
                lines.traffic_bound_s * 1e6, flops / lines.traffic_bound_s / 1e9,
                lines.traffic_bound_variant.c_str(), g.memory_bandwidth_gbs,
                lines.kreutzer_is_bound ? "bound" : "line", lines.kreutzer_eq1_s * 1e6,
                flops / lines.kreutzer_eq1_s / 1e9, lines.alpha,
                lines.kreutzer_is_bound
                    ? ""
                    : ";\n  NOT a bound for the fitted model here: it charges every x load to "
                      "DRAM and reads y, the fitted model reads x once and writes y");
            text += line;
        }
    }
    return j;
}

void run(const ModelOptions& o)
{
    if (o.file.empty() && !o.thresholds) {
        SPMV_THROW(spmv::InvalidArgument,
                   "model needs a FILE (a Matrix Market file or gen: spec) or --thresholds");
    }
    parse_alpha(o.alpha);  // a bad --alpha fails before the matrix is read
    std::string text;
    nlohmann::json predictions;
    nlohmann::json thresholds;
    nlohmann::json formats;
    if (!o.formats.empty() && o.file.empty()) {
        SPMV_THROW(spmv::InvalidArgument, "--format needs a FILE (a Matrix Market file or gen: spec)");
    }
    if (!o.file.empty()) {
        predictions = run_matrix(o, text);
        if (!o.formats.empty()) {
            text += "\n";
            formats = run_formats(o, text);
        }
    }
    if (o.thresholds) {
        if (!text.empty()) text += "\n";
        thresholds = run_thresholds(o, text);
    }
    if (o.json) {
        // one object: "predictions" with a FILE, "thresholds" with --thresholds
        nlohmann::json j = {{"meta", make_meta("model", o.file.empty()
                                                            ? std::vector<std::string>{}
                                                            : std::vector<std::string>{o.file})}};
        if (!o.file.empty()) {
            j["matrix"] = input_name(o.file);
            j["predictions"] = predictions;
            if (!o.formats.empty()) j["format_model"] = formats;
        }
        if (o.thresholds) j["thresholds"] = thresholds;
        std::printf("%s\n", j.dump(2).c_str());
        return;
    }
    std::printf("%s", text.c_str());
}

}  // namespace

void add_model_command(CLI::App& app)
{
    auto o = std::make_shared<ModelOptions>();
    auto* cmd = app.add_subcommand(
        "model", "the performance model: code balance (bytes/flop), predicted GF/s from memory "
                 "bandwidth, PCIe share of x/y transfers and the N_nzr thresholds");
    cmd->add_option("file", o->file, "a Matrix Market (.mtx) file (optional with --thresholds)");
    cmd->add_option("--gpu", o->gpu, "a GPU profile (C2050, C2070, H100, H200; default: all) or "
                                     "the name of a custom one");
    cmd->add_option("--alpha", o->alpha,
                    "right-hand-side reuse: 1/N_nzr (perfect) .. 1 (none), or min (= 1/N_nzr)")
        ->default_val("1");
    cmd->add_option("--precision", o->precision, "sp, dp or both")->default_val("dp");
    cmd->add_option("--bandwidth", o->bandwidth, "custom profile: memory bandwidth in GB/s")
        ->check(positive_number());
    cmd->add_option("--pcie", o->pcie, "custom profile: PCIe bandwidth in GB/s")
        ->check(positive_number());
    cmd->add_flag("--thresholds", o->thresholds,
                  "Kreutzer eq. 3 and eq. 4 with the paper's worked cases (r = 10 and 20; alpha "
                  "1, 1/N_nzr, 1/N_nzr -> 0)");
    cmd->add_option("--ratio", o->ratios,
                    "with --thresholds: B_GPU/B_PCI ratios (default: 10,20, or those of --gpu)")
        ->delimiter(',')
        ->check(positive_number());
    cmd->add_option("--format", o->formats,
                    "also the per-format fitted model (the time recommend ranks by) for these "
                    "GPU kernel variants or formats (sell, sell_i16, csr_vector, ...; all: every "
                    "one), with its traffic bound and Kreutzer's eq. 1 line; layouts as given "
                    "by --slice, --sigma (default auto, as recommend), ...")
        ->delimiter(',');
    add_format_param_options(cmd, o->params);
    const auto params = spmv::parameters();
    for (std::size_t k = 0; k < params.size(); ++k) {
        if (params[k].id == spmv::Param::sort_window) {
            cmd->get_option("--sigma")->default_str("auto");
        }
    }
    cmd->add_flag("--json", o->json, "machine-readable output");
    cmd->callback([o] { run(*o); });
}

}  // namespace spmvlab
