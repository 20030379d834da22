// spmvlab recommend INPUT...: the format advisor (spmv/model/advisor.hpp) -- every GPU kernel
// variant ranked by the per-format model's predicted time, with the reasons in words.
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>

#include <spmv/error.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/model/advisor.hpp>

#include "commands.hpp"
#include "common.hpp"
#include "meta.hpp"

namespace spmvlab {
namespace {

struct RecommendOptions {
    std::vector<std::string> inputs;
    std::string gpu = "auto";
    std::string precision = "dp";
    std::int64_t iterations = 0;
    std::vector<std::string> bench_files;
    std::string constants_file;
    double max_format_mib = 0;
    int top = 8;
    int reasons = 3;
    bool json = false;
    ParamOptions params;
};

// Measured times of `bench --gpu --json-out` records: matrix -> precision -> variant -> s.
using Measured = std::map<std::string, std::map<std::string, std::map<std::string, double>>>;

Measured read_measured(const std::vector<std::string>& files)
{
    Measured m;
    for (const auto& f : files) {
        const auto j = read_bench_json(f);
        for (const auto& r : j["results"]) {
            if (!r.value("error", std::string()).empty() || !r.contains("median_ms") ||
                !r["median_ms"].is_number()) {
                continue;
            }
            m[r.value("matrix", std::string())][r.value("precision", std::string())]
             [r.value("format", std::string())] = r["median_ms"].get<double>() * 1e-3;
        }
    }
    return m;
}

std::string us(double s) { return s > 0 ? fmt(s * 1e6, s * 1e6 < 100 ? 2 : 1) : "-"; }

nlohmann::json to_json(const spmv::model::Recommendation& r)
{
    const auto& p = r.prediction;
    return {{"rank", r.rank},
            {"variant", r.variant},
            {"format", r.format},
            {"candidate", r.candidate},
            {"why_not", r.why_not},
            {"sigma", r.params.sort_window},
            {"slice_height", r.params.slice_height},
            {"block_rows", r.params.block_rows},
            {"predicted_us", p.time_s * 1e6},
            {"measured_us", r.measured_s > 0 ? nlohmann::json(r.measured_s * 1e6) : nlohmann::json()},
            {"spmv_us", r.spmv_s * 1e6},
            {"gflops", p.gflops * p.time_s / r.spmv_s},
            {"bound", p.bound},
            {"floor_us", p.floor_s * 1e6},
            {"latency_us", p.latency_s * 1e6},
            {"dram_us", p.dram_s * 1e6},
            {"l2_us", p.l2_s * 1e6},
            {"issue_us", p.issue_s * 1e6},
            {"warp_us", p.warp_s * 1e6},
            {"dram_bytes", p.dram_bytes},
            {"setup_us", r.setup_s * 1e6},
            {"total_us", r.total_s * 1e6},
            {"footprint_bytes", r.footprint_bytes},
            {"padding_share", r.padding_share},
            {"idle_lanes", r.idle_lanes},
            {"breakeven_iterations", r.breakeven_iterations},
            {"reasons", r.reasons},
            {"equivalent", r.equivalent}};
}

void run(const RecommendOptions& o)
{
    using namespace spmv::model;
    std::string device;
    if (spmv::gpu::is_available()) {
        device = spmv::gpu::device_info().name;
    }
    bool assumed = false;
    const auto& gpu = resolve_profile(o.gpu, device, &assumed);
    std::vector<Precision> precs;
    if (o.precision == "dp" || o.precision == "both") precs.push_back(Precision::double_precision);
    if (o.precision == "sp" || o.precision == "both") precs.push_back(Precision::single_precision);
    if (precs.empty()) {
        SPMV_THROW(spmv::InvalidArgument, "--precision must be sp, dp or both");
    }
    if (o.iterations < 0) {
        SPMV_THROW(spmv::InvalidArgument, "--iterations cannot be negative");
    }
    std::optional<FormatModelConstants> constants;
    if (!o.constants_file.empty()) {
        constants = read_constants(o.constants_file, gpu);
    }
    const auto measured = read_measured(o.bench_files);
    AdvisorOptions base;
    base.params = apply_format_params(o.params);  // --sigma defaults to auto here (below)
    base.iterations = o.iterations;
    base.max_format_bytes = o.max_format_mib > 0 ? o.max_format_mib * 1024.0 * 1024.0 : 0.0;

    nlohmann::json out = nlohmann::json::array();
    int failures = 0;
    nlohmann::json failed = nlohmann::json::array();  // --json: the unreadable inputs, why
    for (const auto& input : collect_inputs(o.inputs)) {
        const auto a = load_or_record(input, failed);
        if (!a) {
            ++failures;
            continue;
        }
        const auto name = input_name(input);
        for (const auto prec : precs) {
            AdvisorOptions opt = base;
            opt.precision = prec;
            std::map<std::string, double> times;
            if (const auto mi = measured.find(name); mi != measured.end()) {
                if (const auto pi = mi->second.find(prec == Precision::single_precision ? "single" : "double");
                    pi != mi->second.end()) {
                    times = pi->second;
                }
            }
            auto advice = advise(*a, gpu, opt, constants ? &*constants : nullptr, times);
            advice.matrix = name;
            if (o.json) {
                nlohmann::json j = {{"matrix", name},
                                    {"rows", a->num_rows},
                                    {"cols", a->num_cols},
                                    {"nnz", a->col_idxs.size()},
                                    {"gpu_profile", gpu.name},
                                    {"gpu_profile_assumed", assumed},
                                    {"precision", precision_name(to_string(prec))},
                                    {"iterations", o.iterations},
                                    {"cache_policy", "L2 flushed before every SpMV (the records the model is fitted on)"},
                                    {"constants", advice.constants_source}};
                for (const auto& r : advice.ranked) j["ranking"].push_back(to_json(r));
                out.push_back(std::move(j));
                continue;
            }
            std::printf("%s: %d x %d, %zu nonzeros; %s, %s%s\n", name.c_str(), a->num_rows,
                        a->num_cols, a->col_idxs.size(), gpu.name.c_str(),
                        std::string(to_string(prec)).c_str(),
                        assumed ? (device.empty()
                                       ? std::string(" (profile assumed: no GPU here)")
                                       : " (profile assumed: no built-in profile matches '" + device + "')")
                                      .c_str()
                                : "");
            std::printf("  predicted by the per-format model for L2 flushed before every SpMV; %s\n",
                        advice.constants_source.c_str());
            std::vector<std::string> head{"#", "variant", "layout", "predicted us", "measured us",
                                          "GF/s", "bound", "setup us"};
            if (o.iterations > 0) head.push_back("total us (" + std::to_string(o.iterations) + " SpMVs)");
            Table t(head);
            int shown = 0;
            for (const auto& r : advice.ranked) {
                if (!r.candidate || shown >= o.top) continue;
                ++shown;
                std::string layout = r.format;
                if (r.format == "sell") layout += "-" + std::to_string(r.params.slice_height) + "-" + std::to_string(r.params.sort_window);
                std::vector<std::string> row{std::to_string(r.rank), r.variant, layout,
                                             us(r.prediction.time_s), us(r.measured_s),
                                             fmt(2.0 * static_cast<double>(a->col_idxs.size()) / r.spmv_s / 1e9, 1),
                                             r.prediction.bound, us(r.setup_s)};
                if (o.iterations > 0) row.push_back(us(r.total_s));
                t.add(row);
            }
            std::printf("%s", t.str().c_str());
            shown = 0;
            for (const auto& r : advice.ranked) {
                if (!r.candidate || shown >= std::min(o.top, 3)) continue;
                ++shown;
                std::printf("  %d. %s", r.rank, r.variant.c_str());
                if (!r.equivalent.empty()) std::printf("  [%s]", r.equivalent.c_str());
                std::printf("\n");
                for (int k = 0; k < std::min<int>(o.reasons, static_cast<int>(r.reasons.size())); ++k) {
                    std::printf("       - %s\n", r.reasons[static_cast<std::size_t>(k)].c_str());
                }
            }
            int excluded = 0;
            for (const auto& r : advice.ranked) {
                if (r.candidate) continue;
                if (excluded++ == 0) std::printf("  not candidates:\n");
                std::printf("     %s: %s\n", r.variant.c_str(), r.why_not.c_str());
            }
            std::printf("  first choice: %s\n\n", advice.summary().c_str());
        }
    }
    if (o.json) {
        std::vector<std::string> inputs = input_strings(collect_inputs(o.inputs));
        for (const auto& f : o.bench_files) inputs.push_back(f);
        if (!o.constants_file.empty()) inputs.push_back(o.constants_file);
        nlohmann::json j = {
            {"meta", make_meta("recommend", inputs)}, {"results", out}, {"failed", failed}};
        if (!device.empty()) add_gpu_meta(j["meta"]);
        std::printf("%s\n", j.dump(2).c_str());
    }
    if (failures > 0) {
        std::fprintf(stderr, "spmvlab recommend: %d input(s) could not be read (see above)\n", failures);
        throw ExitCode{exit_status::error};
    }
}

}  // namespace

void add_recommend_command(CLI::App& app)
{
    static RecommendOptions o;
    auto* cmd = app.add_subcommand(
        "recommend",
        "rank every GPU kernel variant for a matrix by the per-format model's predicted time, "
        "with the reasons (padding, idle lanes, index width, gather, latency) and the nearest "
        "kernel of cuSPARSE / Ginkgo / PETSc / MAGMA");
    cmd->add_option("inputs", o.inputs, ".mtx files (also .mtx.gz/.bz2/.xz, SuiteSparse .tar.gz, -), directories "
                                        "(searched recursively), or generator specs")
        ->required();
    cmd->add_option("--gpu", o.gpu,
                    "GPU profile (H100, H200, C2050, ...) or auto: the device's, else H100 (said so)");
    cmd->add_option("--precision", o.precision, "sp, dp or both")
        ->check(CLI::IsMember({"sp", "dp", "both"}));
    cmd->add_option("--iterations", o.iterations,
                    "rank by setup + N SpMVs (the sort and upload amortised over N); 0: per SpMV")
        ->check(non_negative_integer());
    cmd->add_option("--bench", o.bench_files,
                    "bench --gpu --json-out records: measured times replace predictions where the "
                    "matrix, precision and variant match");
    cmd->add_option("--constants", o.constants_file,
                    "model constants from spmvlab calibrate --constants-out (default: built in)");
    cmd->add_option("--max-format-mib", o.max_format_mib,
                    "layouts larger than this (in double) are not candidates (default: no limit)")
        ->check(non_negative_number());
    cmd->add_option("--top", o.top, "how many variants to list (default 8)")->check(positive_number());
    cmd->add_option("--reasons", o.reasons, "reasons shown per variant (default 3)")
        ->check(non_negative_integer());
    cmd->add_flag("--json", o.json, "print the whole ranking as JSON");
    add_format_param_options(cmd, o.params);
    // the advisor evaluates SELL at sigma auto unless told otherwise (bench --sigma auto)
    const auto params = spmv::parameters();
    for (std::size_t k = 0; k < params.size(); ++k) {
        if (params[k].id == spmv::Param::sort_window) {
            o.params.values[k] = 0;
            cmd->get_option("--sigma")->default_str("auto");
        }
    }
    cmd->callback([] { run(o); });
}

}  // namespace spmvlab
