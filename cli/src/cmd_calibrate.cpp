// spmvlab calibrate: fits the format model's constants (spmv/model/calibration.hpp) on measured
// `spmvlab bench --gpu` records and validates them on records it was not fitted on.
#include <cmath>
#include <cctype>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>
#include <utility>

#include <spmv/error.hpp>
#include <spmv/model/calibration.hpp>

#include "commands.hpp"
#include "common.hpp"
#include "exit_codes.hpp"
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
    std::string constants;  ///< validate these ("builtin" or a --constants-out file), fit none
};

struct Record {
    std::string file;
    nlohmann::json header;
    std::vector<nlohmann::json> rows;
};

/// A bench record's reason without the file name the readers put in front (the caller names
/// the file).
std::string without_file(const std::string& file, std::string reason)
{
    if (reason.rfind(file + ": ", 0) == 0) reason.erase(0, file.size() + 2);
    return reason;
}

/// A `spmvlab bench --json-out` record (any schema version). Throws InvalidArgument when the
/// file cannot be read, is not JSON or is the record of another command.
Record read_record(const std::string& path)
{
    Record r;
    r.file = path;
    r.header = read_bench_json(path);
    const auto command = r.header["meta"].value("command", std::string("bench"));
    if (command != "bench") {
        SPMV_THROW(spmv::InvalidArgument, "not a record of spmvlab bench --gpu --json-out (a "
                                          "record of spmvlab " + command + ")");
    }
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

/// The rows of `r` that calibrate uses (no error, a modelled own variant), by matrix. Throws
/// InvalidArgument naming the row when one lacks a field the fit needs.
std::map<std::string, std::vector<const nlohmann::json*>> usable_rows(const Record& r)
{
    std::map<std::string, std::vector<const nlohmann::json*>> by_matrix;
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
        const auto& row = r.rows[i];
        if (!row.is_object()) {
            SPMV_THROW(spmv::InvalidArgument,
                       "results[" + std::to_string(i) + "] is not an object");
        }
        if (!row.value("error", std::string()).empty()) continue;
        if (spmv::model::find_modelled_variant(row.value("format", std::string())) == nullptr) {
            continue;
        }
        for (const auto& [key, number] : {std::pair{"matrix", false},
                                          std::pair{"precision", false},
                                          std::pair{"median_ms", true}}) {
            if (!row.contains(key) || (number ? !row[key].is_number() : !row[key].is_string())) {
                SPMV_THROW(spmv::InvalidArgument,
                           "results[" + std::to_string(i) + "] (" +
                               row["format"].get<std::string>() + "): no " +
                               (number ? "number" : "string") + " \"" + key +
                               "\": not a record of spmvlab bench --gpu --json-out");
            }
        }
        by_matrix[row["matrix"].get<std::string>()].push_back(&row);
    }
    return by_matrix;
}

/// One input calibrate cannot use: "spmvlab: skipped FILE: REASON" on stderr and an entry of
/// "failed" (meta.hpp's failed_input; "matrix" the matrix concerned where there is one).
void skip_input(const std::string& file, const std::string& matrix, const std::string& reason,
                nlohmann::json& failed)
{
    const std::string what = matrix.empty() ? file : file + " (matrix " + matrix + ")";
    std::fprintf(stderr, "spmvlab: skipped %s: %s\n", what.c_str(), reason.c_str());
    auto entry = failed_input(file, reason);
    if (!matrix.empty()) entry["matrix"] = matrix;
    failed.push_back(std::move(entry));
}

/// The samples of one set of records (--fit or --validate).
struct SampleSet {
    std::vector<spmv::model::Sample> samples;
    std::string describe;            ///< a line per record read: device, commit, date
    std::vector<std::string> files;  ///< the records read (the skipped ones are in "failed")
};

// Samples of the modelled own variants in `files`; matrices are read once per record. A record
// that cannot be read (not JSON, another command's, a field missing) gives no samples and a
// matrix that cannot be found or read none of its rows: each is skipped, with a line on stderr
// and an entry in `failed`.
SampleSet samples_of(const std::vector<std::string>& files, const CalibrateOptions& o,
                     nlohmann::json& failed)
{
    using namespace spmv::model;
    SampleSet set;
    auto& out = set.samples;
    for (const auto& f : files) {
        Record r;
        std::map<std::string, std::vector<const nlohmann::json*>> by_matrix;  // into r.rows
        spmv::FormatParams params;
        try {
            r = read_record(f);
            by_matrix = usable_rows(r);
            params = params_of(r.header);
        } catch (const spmv::Error& e) {
            skip_input(f, "", without_file(f, user_message(e.what())), failed);
            continue;
        } catch (const nlohmann::json::exception& e) {  // a field of the wrong type
            skip_input(f, "", std::string("not a record of spmvlab bench --gpu --json-out: ") +
                                  e.what(), failed);
            continue;
        }
        const auto& meta = r.header["meta"];  // upgraded: commit and date are in meta
        auto text = [](const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : "?"; };
        set.files.push_back(f);
        set.describe += "  " + f + ": " + text(r.header.value("device", nlohmann::json())) +
                        ", commit " + text(meta.value("commit", nlohmann::json())) + ", " +
                        text(meta.value("date", nlohmann::json())) + "\n";
        for (const auto& [matrix, rows] : by_matrix) {
            std::optional<spmv::Csr<double, std::int32_t>> a;
            try {
                const auto path = locate_matrix(matrix, o.matrix_dirs);
                if (path.empty()) {
                    SPMV_THROW(spmv::InvalidArgument,
                               "matrix '" + matrix + "' not found in --matrices directories");
                }
                a = load_matrix(path);
            } catch (const spmv::Error& e) {
                skip_input(f, matrix, user_message(e.what()), failed);
                continue;
            }
            const auto shapes = kernel_shapes(*a, params);
            for (const auto* row : rows) {
                Sample s;
                s.matrix = matrix;
                s.precision = precision_name((*row)["precision"].get<std::string>()) == "single"
                                  ? Precision::single_precision
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
    return set;
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
    nlohmann::json failed = nlohmann::json::array();  // the inputs skipped, with the reasons
    const bool fitting = o.constants.empty();  // the options exclude each other (CLI11)
    std::fprintf(stderr, "reading the fitting records\n");
    const auto fit_set = samples_of(o.fit_records, o, failed);
    std::fprintf(stderr, "reading the validation records\n");
    const auto val_set = samples_of(o.validate_records, o, failed);
    const auto& fit_samples = fit_set.samples;
    const auto& val_samples = val_set.samples;
    // a fit needs samples, and so does the held-out check: without either nothing is written
    for (const auto& [samples, option, files] :
         {std::tuple{&fit_samples, "--fit", &o.fit_records},
          std::tuple{&val_samples, "--validate", &o.validate_records}}) {
        if (samples->empty() && (fitting || files != &o.fit_records)) {  // --constants: no --fit
            SPMV_THROW(spmv::InvalidArgument,
                       std::string("calibrate: no sample of a modelled variant in the ") +
                           std::to_string(files->size()) + " " + option + " record(s)" +
                           (failed.empty() ? std::string()
                                           : " (" + std::to_string(failed.size()) +
                                                 " input(s) skipped: the reasons are above)") +
                           "; nothing written");
        }
    }
    FormatModelConstants start;
    start.profile = gpu.name;
    start.bandwidth_gbs = gpu.memory_bandwidth_gbs;
    start.l2_gbs = 2.5 * gpu.memory_bandwidth_gbs;
    const auto fitted = fitting                     ? fit(fit_samples, start)
                        : o.constants == "builtin" ? builtin_constants(gpu)
                                                   : read_constants(o.constants, gpu);
    std::ostringstream md;
    md << (fitting ? "# Format model: fitted constants and validation\n\n"
                   : "# Format model: given constants, validated\n\n")
       << "Written by `" << version_string() << " calibrate` on " << utc_now() << ".\n\n";
    if (!fitting) {
        md << "Constants: "
           << (o.constants == "builtin" ? "the built-in ones of " + gpu.name + ", " : std::string())
           << fitted.source << " (not fitted here).\n\n";
    }
    md << "Profile " << gpu.name << ": B_GPU = " << gpu.memory_bandwidth_gbs
       << " GB/s (the profile's, not fitted); " << (fitting ? "fitted " : "") << "B_L2 = " << fitted.l2_gbs
       << " GB/s, tau = " << fitted.issue_ps << " ps per warp trip, B_w = " << fitted.warp_gbs
       << " GB/s (one warp's sector rate at full occupancy: the heaviest warp's term), lambda = "
       << fitted.stage_ns << " ns per step of an _xs kernel's x staging, 2 KiB of x per block (c_v of the _xs kernels: "
       << "per round of the longest row's slots while x is staged: ell_xs its first 16, then 8 "
       << "per round; sell_xs all up to 16, else 8 per round), q = " << fitted.overlap_q
       << " (latency L and memory M combined as (L^q + M^q)^(1/q); 0: their max).\n\n"
       << "Fitted on (" << fit_samples.size() << " samples):\n"
       << (fitting ? fit_set.describe : std::string("  nothing: --constants\n"))
       << "\nValidated on (" << val_samples.size() << " samples, none of them used to fit):\n"
       << val_set.describe
       << "\n## Constants\n\n| variant | F_v us | c_v ns per trip | e_v (L2 share) |\n"
       << "|---|---:|---:|---:|\n";
    for (const auto& k : fitted.kernels) {
        char buf[200];
        std::snprintf(buf, sizeof buf, "| %s | %.3f | %.3f | %.3f |\n", k.variant.c_str(),
                      k.floor_us, k.trip_ns, k.l2_efficiency);
        md << buf;
    }
    const auto vf = validate(fit_samples, fitted);
    const auto vv = validate(val_samples, fitted);
    const std::string in_sample = fitting ? summary_by_precision(vf, "fitting set (in-sample)") : "";
    md << "\n## Summary\n\n```\n" << in_sample
       << summary_by_precision(vv, "validation set (held out)") << "```\n\n## Held-out cases\n\n"
       << "`**`: outside the bar (slowdown > 1.10, or predicted/measured off by more than 25 %).\n\n"
       << case_table(vv);
    if (fitting) md << "\n## Fitting-set cases\n\n" << case_table(vf);
    if (!failed.empty()) {
        md << "\n## Skipped inputs\n\n| record | matrix | reason |\n|---|---|---|\n";
        auto cell = [](const nlohmann::json& v) {  // a "|" would end the cell
            std::string c;
            for (const char ch : v.get<std::string>()) {
                c += ch == '|' ? std::string("\\|") : std::string(1, ch);
            }
            return c;
        };
        for (const auto& f : failed) {
            md << "| " << cell(f["input"]) << " | " << cell(f["matrix"]) << " | "
               << cell(f["reason"]) << " |\n";
        }
    }
    std::printf("%s%s", in_sample.c_str(), summary_by_precision(vv, "validation set (held out)").c_str());
    if (!o.table_out.empty()) write_file(o.table_out, md.str());
    if (!o.constants_out.empty() || !o.cxx_out.empty()) {
        std::vector<std::string> inputs = o.fit_records;
        inputs.insert(inputs.end(), o.validate_records.begin(), o.validate_records.end());
        nlohmann::json j = {{"meta", make_meta("calibrate", inputs)},
                            {"profile", fitted.profile},
                            {"bandwidth_gbs", fitted.bandwidth_gbs},
                            {"l2_gbs", fitted.l2_gbs},
                            {"issue_ps", fitted.issue_ps},
                            {"warp_gbs", fitted.warp_gbs},
                            {"stage_ns", fitted.stage_ns},
                            {"overlap_q", fitted.overlap_q},
                            {"source", version_string() + " calibrate, " + utc_now()},
                            {"failed", failed}};
        // one card's block of lib/src/model/format_constants.cpp (its Fitted table)
        std::string id;
        for (char ch : gpu.name) {
            id += std::isalnum(static_cast<unsigned char>(ch))
                      ? static_cast<char>(std::tolower(static_cast<unsigned char>(ch)))
                      : '_';
        }
        std::string records;
        for (const auto& f : fit_set.files) records += (records.empty() ? "" : ", ") + f;
        std::string held_out;
        for (const auto& f : val_set.files) held_out += (held_out.empty() ? "" : ", ") + f;
        std::string cxx = "// [fitted constants for " + gpu.name + "]\nconstexpr Row " + id +
                          "_kernels[] = {\n";
        for (const auto& k : fitted.kernels) {
            j["kernels"].push_back({{"variant", k.variant},
                                    {"floor_us", k.floor_us},
                                    {"trip_ns", k.trip_ns},
                                    {"l2_efficiency", k.l2_efficiency}});
            char buf[200];
            std::snprintf(buf, sizeof buf, "    {\"%s\", %.4f, %.4f, %.4f},\n", k.variant.c_str(),
                          k.floor_us, k.trip_ns, k.l2_efficiency);
            cxx += buf;
        }
        char head[320];
        std::snprintf(head, sizeof head,
                      "};\nconstexpr Fitted %s_fitted = {\"%s\", %.1f, %.6f, %.6f, %.6f, %.3f, "
                      "%.4f, %s_kernels,\n",
                      id.c_str(), gpu.name.c_str(), gpu.memory_bandwidth_gbs, fitted.l2_gbs,
                      fitted.issue_ps, fitted.warp_gbs, fitted.stage_ns, fitted.overlap_q,
                      id.c_str());
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
    if (!failed.empty()) {
        std::fprintf(stderr, "spmvlab calibrate: %zu input(s) skipped (see above)\n",
                     failed.size());
        throw ExitCode{exit_status::error};
    }
}

}  // namespace

void add_calibrate_command(CLI::App& app)
{
    static CalibrateOptions o;
    auto* cmd = app.add_subcommand(
        "calibrate",
        "fit the per-format model's constants (F_v, c_v, e_v per kernel, B_L2, tau, B_w) on "
        "`bench --gpu` JSON records and report how well it predicts and chooses on records it "
        "was not fitted on (or, with --constants, only that report for given constants). A record that cannot be used (not JSON, another command's, a field "
        "missing) or a matrix not found is skipped: a line on stderr, \"failed\" in "
        "--constants-out, exit status 1");
    auto* fit_opt = cmd->add_option("--fit", o.fit_records, "bench --gpu JSON records to fit on");
    auto* constants_opt = cmd->add_option("--constants", o.constants,
                    "validate these constants instead of fitting: builtin (the built-in ones of "
                    "--gpu) or a --constants-out file; excludes --fit")
        ->excludes(fit_opt);
    cmd->add_option("--validate", o.validate_records, "bench --gpu JSON records to validate on")->required();
    cmd->add_option("--matrices", o.matrix_dirs, "directories holding the records' .mtx files")->required();
    cmd->add_option("--gpu", o.gpu, "GPU profile giving B_GPU (default H100)");
    output_option(cmd->add_option("--table-out", o.table_out, "write constants, summary and every case as Markdown"));
    output_option(cmd->add_option("--constants-out", o.constants_out, "write the fitted constants as JSON (recommend --constants)"))
        ->excludes(constants_opt);
    output_option(cmd->add_option("--cxx-out", o.cxx_out, "write the constants as the C++ table of lib/src/model/format_constants.cpp"))
        ->excludes(constants_opt);
    cmd->callback([fit_opt, constants_opt] {
        if (fit_opt->count() == 0 && constants_opt->count() == 0) {  // a usage error: exit 2
            throw CLI::RequiredError("--fit RECORDS (fit and validate) or --constants builtin|FILE (validate those)");
        }
        run(o);
    });
}

}  // namespace spmvlab
