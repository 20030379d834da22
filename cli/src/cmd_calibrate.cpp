// spmvlab calibrate: fits the format model's constants (spmv/model/calibration.hpp) on measured
// `spmvlab bench --gpu` records and validates them on records it was not fitted on.
#include <cmath>
#include <cctype>
#include <cstdio>
#include <map>
#include <sstream>

#include <spmv/error.hpp>
#include <spmv/model/calibration.hpp>

#include "commands.hpp"
#include "common.hpp"
#include "meta.hpp"

namespace spmvlab {
namespace {

struct CalibrateOptions {
    std::vector<std::string> fit_records;
    std::vector<std::string> validate_records;
    std::vector<std::string> matrix_dirs;
    std::string gpu = "H100";
    std::string table_out;
    std::string constants_out;
    std::string cxx_out;
};

struct Record {
    std::string file;
    nlohmann::json header;
    std::vector<nlohmann::json> rows;
};

Record read_record(const std::string& path)
{
    Record r;
    r.file = path;
    r.header = read_bench_json(path);
    for (const auto& row : r.header["results"]) r.rows.push_back(row);
    r.header.erase("results");
    return r;
}

spmv::FormatParams params_of(const nlohmann::json& h)
{
    spmv::FormatParams p;
    p.block_rows = h.value("block_rows", 32);
    p.slice_height = h.value("slice_height", 32);
    const auto sigma = h.contains("sigma") ? h["sigma"] : nlohmann::json(1);
    p.sort_window = sigma.is_string() ? 0 : sigma.get<int>();
    return p;
}

// Samples of the modelled own variants in `records`; matrices are read once each.
std::vector<spmv::model::Sample> samples_of(const std::vector<std::string>& files,
                                            const CalibrateOptions& o, std::string* describe)
{
    using namespace spmv::model;
    std::vector<Sample> out;
    for (const auto& f : files) {
        const auto r = read_record(f);
        const auto params = params_of(r.header);
        const auto& meta = r.header["meta"];  // upgraded: commit and date are in meta
        auto text = [](const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : "?"; };
        *describe += "  " + f + ": " + r.header.value("device", "?") + ", commit " +
                     text(meta.value("commit", nlohmann::json())) + ", " +
                     text(meta.value("date", nlohmann::json())) + "\n";
        std::map<std::string, std::vector<const nlohmann::json*>> by_matrix;
        for (const auto& row : r.rows) {
            if (!row.value("error", std::string()).empty()) continue;
            if (find_modelled_variant(row.value("format", std::string())) == nullptr) continue;
            by_matrix[row.value("matrix", std::string())].push_back(&row);
        }
        for (const auto& [matrix, rows] : by_matrix) {
            const auto path = locate_matrix(matrix, o.matrix_dirs);
            if (path.empty()) {
                SPMV_THROW(spmv::InvalidArgument, f + ": matrix '" + matrix +
                                                      "' not found in --matrices directories");
            }
            const auto a = load_matrix(path);
            const auto shapes = kernel_shapes(a, params);
            for (const auto* row : rows) {
                Sample s;
                s.matrix = matrix;
                s.precision = (*row)["precision"] == "single" ? Precision::single_precision
                                                          : Precision::double_precision;
                for (const auto& sh : shapes) {
                    if (sh.variant == (*row)["format"].get<std::string>()) s.shape = sh;
                }
                s.measured_s = (*row)["median_ms"].get<double>() * 1e-3;
                out.push_back(std::move(s));
            }
            std::fprintf(stderr, "  %s: %zu samples\n", matrix.c_str(), rows.size());
        }
    }
    return out;
}

std::string summary_text(const spmv::model::Validation& v, const std::string& what);

// The summary, then the same per precision.
std::string summary_by_precision(const spmv::model::Validation& v, const std::string& what)
{
    std::string out = summary_text(v, what);
    for (const auto p : {spmv::model::Precision::double_precision, spmv::model::Precision::single_precision}) {
        spmv::model::Validation part;
        part.checks.clear();
        for (const auto& c : v.checks) {
            if (c.precision != p) continue;
            part.checks.push_back(c);
            part.within_10 += c.within_10 ? 1 : 0;
            part.predicted_within_25 += c.predicted_within_25 ? 1 : 0;
        }
        char buf[300];
        const int n = static_cast<int>(part.checks.size());
        std::snprintf(buf, sizeof buf, "  %s only: within 10 %% %d of %d (%.1f %%), predicted within 25 %% %d of %d (%.1f %%)\n",
                      std::string(spmv::model::to_string(p)).c_str(), part.within_10, n,
                      n ? 100.0 * part.within_10 / n : 0.0, part.predicted_within_25, n,
                      n ? 100.0 * part.predicted_within_25 / n : 0.0);
        out += buf;
    }
    return out;
}

std::string summary_text(const spmv::model::Validation& v, const std::string& what)
{
    const int n = static_cast<int>(v.checks.size());
    char buf[800];
    std::snprintf(buf, sizeof buf,
                  "%s: %d matrix x precision cases\n"
                  "  first choice within 10 %% of the fastest measured own variant: %d of %d (%.1f %%)\n"
                  "  first choice's predicted time within 25 %% of its measured time: %d of %d (%.1f %%)\n"
                  "  every variant: median predicted/measured %.3f, median |ln ratio| %.3f, worst ratio %.3f\n"
                  "  median rank correlation (Spearman, per case): %.3f\n",
                  what.c_str(), n, v.within_10, n, n ? 100.0 * v.within_10 / n : 0.0,
                  v.predicted_within_25, n, n ? 100.0 * v.predicted_within_25 / n : 0.0,
                  v.median_ratio, v.median_abs_log_error, v.worst_ratio,
                  v.median_rank_correlation);
    return buf;
}

std::string case_table(const spmv::model::Validation& v)
{
    std::string t = "| matrix | prec | first choice | measured us | predicted us | fastest | measured us | slowdown | pred/meas | rank corr |\n"
                    "|---|---|---|---:|---:|---|---:|---:|---:|---:|\n";
    for (const auto& c : v.checks) {
        char buf[512];
        std::snprintf(buf, sizeof buf, "| %s | %s | %s | %.2f | %.2f | %s | %.2f | %.3f%s | %.3f%s | %.2f |\n",
                      c.matrix.c_str(), std::string(spmv::model::to_string(c.precision)).c_str(),
                      c.chosen.c_str(), c.chosen_measured_s * 1e6, c.chosen_predicted_s * 1e6,
                      c.fastest.c_str(), c.fastest_measured_s * 1e6, c.slowdown,
                      c.within_10 ? "" : " **", c.prediction_ratio,
                      c.predicted_within_25 ? "" : " **", c.rank_correlation);
        t += buf;
    }
    return t;
}

void run(const CalibrateOptions& o)
{
    using namespace spmv::model;
    const auto& gpu = find_profile(o.gpu);
    std::string fit_desc, val_desc;
    std::fprintf(stderr, "reading the fitting records\n");
    const auto fit_samples = samples_of(o.fit_records, o, &fit_desc);
    std::fprintf(stderr, "reading the validation records\n");
    const auto val_samples = samples_of(o.validate_records, o, &val_desc);
    FormatModelConstants start;
    start.profile = gpu.name;
    start.bandwidth_gbs = gpu.memory_bandwidth_gbs;
    start.l2_gbs = 2.5 * gpu.memory_bandwidth_gbs;
    const auto fitted = fit(fit_samples, start);
    std::ostringstream md;
    md << "# Format model: fitted constants and validation\n\n"
       << "Written by `" << version_string() << " calibrate` on " << utc_now() << ".\n\n"
       << "Profile " << gpu.name << ": B_GPU = " << gpu.memory_bandwidth_gbs
       << " GB/s (the profile's, not fitted); fitted B_L2 = " << fitted.l2_gbs
       << " GB/s, tau = " << fitted.issue_ps << " ps per warp trip.\n\n"
       << "Fitted on (" << fit_samples.size() << " samples):\n" << fit_desc
       << "\nValidated on (" << val_samples.size() << " samples, none of them used to fit):\n"
       << val_desc << "\n## Constants\n\n| variant | F_v us | c_v ns per trip |\n|---|---:|---:|\n";
    for (const auto& k : fitted.kernels) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "| %s | %.3f | %.3f |\n", k.variant.c_str(), k.floor_us, k.trip_ns);
        md << buf;
    }
    const auto vf = validate(fit_samples, fitted);
    const auto vv = validate(val_samples, fitted);
    md << "\n## Summary\n\n```\n" << summary_by_precision(vf, "fitting set (in-sample)")
       << summary_by_precision(vv, "validation set (held out)") << "```\n\n## Held-out cases\n\n"
       << "`**`: outside the bar (slowdown > 1.10, or predicted/measured off by more than 25 %).\n\n"
       << case_table(vv) << "\n## Fitting-set cases\n\n" << case_table(vf);
    std::printf("%s%s", summary_by_precision(vf, "fitting set (in-sample)").c_str(),
                summary_by_precision(vv, "validation set (held out)").c_str());
    if (!o.table_out.empty()) write_file(o.table_out, md.str());
    if (!o.constants_out.empty() || !o.cxx_out.empty()) {
        std::vector<std::string> inputs = o.fit_records;
        inputs.insert(inputs.end(), o.validate_records.begin(), o.validate_records.end());
        nlohmann::json j = {{"meta", make_meta("calibrate", inputs)},
                            {"profile", fitted.profile},
                            {"bandwidth_gbs", fitted.bandwidth_gbs},
                            {"l2_gbs", fitted.l2_gbs},
                            {"issue_ps", fitted.issue_ps},
                            {"source", version_string() + " calibrate, " + utc_now()}};
        // one card's block of lib/src/model/format_constants.cpp (its Fitted table)
        std::string id;
        for (char ch : gpu.name) {
            id += std::isalnum(static_cast<unsigned char>(ch))
                      ? static_cast<char>(std::tolower(static_cast<unsigned char>(ch)))
                      : '_';
        }
        std::string records;
        for (const auto& f : o.fit_records) records += (records.empty() ? "" : ", ") + f;
        std::string held_out;
        for (const auto& f : o.validate_records) held_out += (held_out.empty() ? "" : ", ") + f;
        std::string cxx = "// [fitted constants for " + gpu.name + "]\nconstexpr Row " + id +
                          "_kernels[] = {\n";
        for (const auto& k : fitted.kernels) {
            j["kernels"].push_back({{"variant", k.variant}, {"floor_us", k.floor_us}, {"trip_ns", k.trip_ns}});
            char buf[160];
            std::snprintf(buf, sizeof buf, "    {\"%s\", %.4f, %.4f},\n", k.variant.c_str(), k.floor_us, k.trip_ns);
            cxx += buf;
        }
        char head[320];
        std::snprintf(head, sizeof head, "};\nconstexpr Fitted %s_fitted = {\"%s\", %.1f, %.6f, %.6f, %s_kernels,\n",
                      id.c_str(), gpu.name.c_str(), gpu.memory_bandwidth_gbs, fitted.l2_gbs,
                      fitted.issue_ps, id.c_str());
        cxx += head;
        // the source as string literals of at most 88 characters (the style's 100 columns)
        const std::string source = "fitted by " + version_string() + " calibrate on " +
                                   utc_now().substr(0, 10) + " from " + records +
                                   "; validated on " + held_out;
        for (std::size_t at = 0; at < source.size(); at += 88) {
            cxx += "    \"" + source.substr(at, 88) + "\"" + (at + 88 < source.size() ? "\n" : "");
        }
        cxx += "};\n// [end of fitted constants for " + gpu.name + "]\n";
        if (!o.constants_out.empty()) write_file(o.constants_out, j.dump(2) + "\n");
        if (!o.cxx_out.empty()) write_file(o.cxx_out, cxx);
    }
}

}  // namespace

void add_calibrate_command(CLI::App& app)
{
    static CalibrateOptions o;
    auto* cmd = app.add_subcommand(
        "calibrate",
        "fit the per-format model's constants (F_v, c_v per kernel, B_L2) on `bench --gpu` JSON "
        "records and report how well it predicts and chooses on records it was not fitted on");
    cmd->add_option("--fit", o.fit_records, "bench --gpu JSON records to fit on")->required();
    cmd->add_option("--validate", o.validate_records, "bench --gpu JSON records to validate on")->required();
    cmd->add_option("--matrices", o.matrix_dirs, "directories holding the records' .mtx files")->required();
    cmd->add_option("--gpu", o.gpu, "GPU profile giving B_GPU (default H100)");
    output_option(cmd->add_option("--table-out", o.table_out, "write constants, summary and every case as Markdown"));
    output_option(cmd->add_option("--constants-out", o.constants_out, "write the fitted constants as JSON (recommend --constants)"));
    output_option(cmd->add_option("--cxx-out", o.cxx_out, "write the constants as the C++ table of lib/src/model/format_constants.cpp"));
    cmd->callback([] { run(o); });
}

}  // namespace spmvlab
