// spmvlab dist chart: the model's strong scaling against the measured points of dist bench
// records, as an SVG chart and a table (Kreutzer et al. 2012 Fig. 5, Cevahir et al. 2009
// Fig. 5). One process, no MPI; the records' matrices are loaded to compute the model, found by
// name in the --matrices directories or the working directory (common.hpp's locate_matrix,
// which spmvlab plot --matrices uses too). The grouping into panels and curves is
// spmv/dist/scaling_series.hpp's.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <spmv/dist/model.hpp>
#include <spmv/dist/scaling_series.hpp>
#include <spmv/model/gpu_profile.hpp>
#include <spmv/viz/scaling_svg.hpp>

#include "common.hpp"
#include "dist_cli.hpp"
#include "exit_codes.hpp"
#include "meta.hpp"

namespace spmvlab::dist_cli {

using namespace spmv::dist;

namespace {

/// A dist bench record (any schema version, brought to the current one). Throws InvalidArgument
/// with the reason (without the file's name: the caller names it) when the file cannot be
/// read, is not JSON, is the record of another command or lacks a key the chart needs;
/// `matrix` is set to the record's matrix as soon as the record names one.
nlohmann::json read_bench_record(const std::string& file, std::string& matrix)
{
    std::ifstream in(file);
    if (!in) {
        SPMV_THROW(spmv::InvalidArgument, "cannot open");
    }
    nlohmann::json j;
    try {
        in >> j;
    } catch (const std::exception& e) {
        SPMV_THROW(spmv::InvalidArgument, std::string("not JSON: ") + e.what());
    }
    if (!j.is_object()) {
        SPMV_THROW(spmv::InvalidArgument,
                   "not a record of spmvlab dist bench --json-out (not a JSON object)");
    }
    if (j.contains("matrix") && j["matrix"].is_string()) matrix = j["matrix"].get<std::string>();
    j = upgrade_record(std::move(j), "dist bench");  // any schema version
    const auto command = j["meta"].value("command", std::string("dist bench"));
    if (command != "dist bench") {
        SPMV_THROW(spmv::InvalidArgument, "not a record of spmvlab dist bench --json-out (a "
                                          "record of spmvlab " + command + ")");
    }
    for (const char* key : {"matrix", "ranks", "precision", "partition", "modes"}) {
        if (!j.contains(key)) {
            SPMV_THROW(spmv::InvalidArgument, std::string("no \"") + key +
                                                  "\": not a record of spmvlab dist bench "
                                                  "--json-out");
        }
    }
    return j;
}

/// What grouping and comparing need of a record (read_bench_record); a mode or partition name
/// that is not one of the known ones, or fewer than 1 rank, throws InvalidArgument (a key of
/// the wrong type: nlohmann::json's type_error).
BenchRun bench_run(const nlohmann::json& j)
{
    BenchRun r;
    r.matrix = j["matrix"].get<std::string>();
    r.precision = j["precision"].get<std::string>();
    r.partition = j["partition"].get<std::string>();
    r.format = j.value("format", std::string("csr"));
    r.exchange_path = j.value("exchange_path", std::string("none"));
    r.num_ranks = j["ranks"].get<int>();
    if (r.num_ranks < 1) {
        SPMV_THROW(spmv::InvalidArgument,
                   "\"ranks\" is " + std::to_string(r.num_ranks) + ": at least 1 expected");
    }
    (void)parse_partition_kind(r.partition);  // a name that is not a partition throws here
    for (const auto& md : j["modes"]) {
        MeasuredMode m;
        m.mode = parse_mode(md["mode"].get<std::string>());
        m.median_us = md["median_us"].get<double>();
        if (md.contains("single_process_us")) {
            m.single_process_us = md["single_process_us"].get<double>();
        }
        r.modes.push_back(m);
    }
    return r;
}

/// A record that cannot be charted: "spmvlab: skipped FILE: REASON" on stderr and an entry of
/// "failed" (meta.hpp's failed_input; its "matrix" is the record's matrix where the record
/// names one, else the file's name).
void skip_record(const std::string& file, const std::string& matrix, const std::string& reason,
                 nlohmann::json& failed)
{
    std::fprintf(stderr, "spmvlab: skipped %s: %s\n", file.c_str(), reason.c_str());
    auto entry = failed_input(file, reason);
    if (!matrix.empty()) entry["matrix"] = matrix;
    failed.push_back(std::move(entry));
}

std::string join_dirs(const std::vector<std::string>& dirs)
{
    std::string s;
    for (const auto& d : dirs) s += (s.empty() ? "" : ", ") + d;
    return s;
}

/// The GPU kernel variant of the record's ranks, as dist plan / bench take it for the
/// per-format model (model_variant: the record's variant, else its format's default kernel;
/// empty, i.e. Kreutzer's eq. 2, for host ranks and a format without a GPU kernel).
std::string record_variant(const nlohmann::json& rec, bool gpu)
{
    DistCli o;
    o.gpu = gpu;
    o.format = rec.value("format", std::string("csr"));  // a string: bench_run read it
    if (rec.contains("variant") && rec["variant"].is_string()) {
        o.variant = rec["variant"].get<std::string>();
    }
    return model_variant(o);
}

/// The format parameters the record's ranks ran with, as far as the record says: the
/// advisor's for --format auto (auto_choice), else the defaults (a record does not keep
/// --slice and the like).
spmv::FormatParams record_params(const nlohmann::json& rec)
{
    if (rec.contains("auto_choice") && rec["auto_choice"].is_object() &&
        rec["auto_choice"].contains("params")) {
        return params_from_json(rec["auto_choice"]["params"]);
    }
    return {};
}

spmv::viz::Rgb path_colour(const std::string& path)
{
    namespace ok = spmv::viz::okabe_ito;
    if (path == "cuda-ipc") return ok::blue;
    if (path == "host-staged") return ok::vermillion;
    if (path == "cuda-aware") return ok::bluish_green;
    if (path == "host") return ok::sky_blue;
    return ok::black;
}

}  // namespace

/// Groups the records by (matrix, precision, partition, format); per group the model's strong
/// scaling for each exchange path present, the measured points, and a table of measured against
/// predicted for every (record, mode). The model is dist plan's call for the same settings
/// (predict_scaling with plan's ModelOptions): GPU ranks' kernels by the per-format model of
/// the record's variant (record_variant) with the fixed costs of --fixed-costs (auto: the
/// record's exchange path's), so "model a=1" is dist plan's prediction for that matrix, ranks,
/// mode and path; the band to alpha = min is Kreutzer's eq. 2 only (the per-format model
/// counts the gather of x itself: there both curves are one). A record that cannot be
/// read (not JSON, another command's record, a key missing, its matrix not found) is skipped
/// with a line on stderr and listed in the JSON's "failed"; the others are charted and the exit
/// status is then 1 (exit_codes.hpp). When no record can be charted, nothing is written.
int run_chart(const DistCli& o)
{
    (void)fixed_costs_for(o.fixed_costs, "auto", true);  // a bad --fixed-costs, before any work
    std::vector<nlohmann::json> recs;
    std::vector<BenchRun> runs;
    std::vector<std::string> paths;  // recs[i]'s file as given
    nlohmann::json failed = nlohmann::json::array();
    for (const auto& f : o.records) {
        std::string matrix;  // the record's, once known
        try {
            auto j = read_bench_record(f, matrix);
            auto run = bench_run(j);
            j["file"] = std::filesystem::path(f).filename().string();
            runs.push_back(std::move(run));
            recs.push_back(std::move(j));
            paths.push_back(f);
        } catch (const spmv::Error& e) {
            skip_record(f, matrix, user_message(e.what()), failed);
        } catch (const nlohmann::json::exception& e) {  // a key of the wrong type
            skip_record(f, matrix,
                        std::string("not a record of spmvlab dist bench --json-out: ") + e.what(),
                        failed);
        }
    }
    const auto ranks = int_list(o.chart_scaling);
    Table t({"record", "mode", "ranks", "exchange", "measured us", "model a=1", "model a=min",
             "measured / a=1", "measured / a=min"});
    nlohmann::json out = nlohmann::json::array();
    std::vector<spmv::viz::ScalingPanel> panels;
    std::set<std::string> model_names;  // the GPU profiles the records resolved to
    for (const auto& group : group_runs(runs)) {
        const auto& first = recs[group.front()];
        const std::string matrix = first["matrix"];
        const std::string precision = first["precision"];
        const bool sp = precision == "single";
        // the record names its matrix as dist bench was given it (the file name): found in
        // --matrices DIR, or here (locate_matrix, the lookup spmvlab plot uses); a matrix that
        // is nowhere or cannot be read fails each record of the group
        std::optional<spmv::Csr<double, std::int32_t>> loaded;
        std::string why;
        try {
            const auto where = locate_matrix(matrix, o.matrix_dirs);
            if (where.empty()) {
                why = "matrix '" + matrix + "' not found " +
                      (o.matrix_dirs.empty() ? std::string("in the working directory")
                                             : "in --matrices " + join_dirs(o.matrix_dirs) +
                                                   " or the working directory") +
                      "; give the directory that holds it with --matrices DIR";
            } else {
                loaded = load_matrix(where);
            }
        } catch (const spmv::Error& e) {
            why = user_message(e.what());
        }
        if (!loaded) {
            for (const auto i : group) skip_record(paths[i], matrix, why, failed);
            continue;
        }
        const auto& a = *loaded;
        const auto kind = parse_partition_kind(first["partition"].get<std::string>());
        const std::string recorded = first.value("devices", std::string("host"));
        const bool gpu = recorded != "host";
        bool assumed = false;
        const auto& profile = spmv::model::resolve_profile(o.chart_device, recorded, &assumed);
        const RankDevice dev = gpu ? RankDevice{profile} : RankDevice{find_host("cpu-core")};
        const std::string model_name =
            gpu ? profile.name + (assumed ? " (assumed: no profile for " + recorded + ")" : "")
                : std::string("cpu-core");
        model_names.insert(model_name);
        const auto all_ranks = rank_axis(ranks, runs, group);
        spmv::viz::ScalingPanel panel;
        panel.title = matrix + " \u00b7 " + precision + " \u00b7 " +
                      first["partition"].get<std::string>() + " partition \u00b7 " +
                      first.value("format", std::string("csr"));
        panel.subtitle = "measured on " + first.value("devices", std::string("?")) + ", " +
                         first["meta"].value("date", std::string("?")).substr(0, 10) + ", commit " +
                         first["meta"].value("commit", std::string("?")) + "; model " + model_name +
                         " (MODEL: assumed profiles)";
        panel.ranks = all_ranks;
        // one model series per exchange path (model_paths: the 1-rank records have none and
        // are held against the first path's by name; when every record is of one rank, "none",
        // whose link is the host's), each dist plan's ModelOptions for that path
        std::vector<PathModel> models;
        for (const auto& path : model_paths(runs, group)) {
            const auto [link, staged] = link_for_path(o.chart_link, path);
            ModelOptions mo;
            mo.precision = sp ? spmv::model::Precision::single_precision
                              : spmv::model::Precision::double_precision;
            mo.stage_through_host = staged;
            mo.variant = record_variant(first, gpu);
            mo.params = record_params(first);
            mo.fixed_costs = fixed_costs_for(o.fixed_costs, path, gpu);
            mo.alpha = 1.0;
            PathModel m{path, predict_scaling(a, kind, all_ranks, dev, link, mo), {}};
            if (uses_format_model(dev, mo)) {
                m.best = m.worst;  // alpha does not enter the per-format model
            } else {
                mo.alpha = parse_alpha("min");
                m.best = predict_scaling(a, kind, all_ranks, dev, link, mo);
            }
            const auto s = model_series(m);
            const bool fixed = m.worst.baseline.fixed_costs != "none";
            panel.model.push_back({"model, " + path + " over " + link.name +
                                       (fixed ? " + fixed costs" : ""),
                                   path_colour(path), s.task_best_us, s.task_worst_us,
                                   s.vector_worst_us});
            std::printf("model of %s, %s: kernels by the %s; fixed costs %s\n", matrix.c_str(),
                        path.c_str(), m.worst.baseline.kernel_model.c_str(),
                        m.worst.baseline.fixed_costs.c_str());
            panel.legend.push_back({path, path_colour(path)});
            models.push_back(std::move(m));
        }
        for (const auto& c : compare_with_model(runs, group, models)) {
            const auto& file = recs[c.run]["file"];
            const auto* held = model_for(models, c.exchange_path);  // never null: a path each
            // the single-process baseline: "single" in the chart and the JSON, "1 GPU" here
            const std::string mode = c.mode ? std::string(to_string(*c.mode)) : "single";
            const double us = c.measured_us;
            const double w = c.model_alpha1_us;
            const double b = c.model_alpha_min_us;
            panel.measured.push_back({c.num_ranks, mode, us,
                                      c.mode ? path_colour(c.exchange_path)
                                             : spmv::viz::okabe_ito::black});
            t.add({file.get<std::string>(), c.mode ? mode : "1 GPU", std::to_string(c.num_ranks),
                   c.exchange_path, fmt(us, 2), fmt(w, 2), fmt(b, 2),
                   w > 0 ? fmt(us / w, 2) : "-", b > 0 ? fmt(us / b, 2) : "-"});
            out.push_back({{"record", file}, {"matrix", matrix}, {"precision", precision},
                           {"mode", mode}, {"ranks", c.num_ranks},
                           {"exchange_path", c.exchange_path}, {"measured_us", us},
                           {"model_alpha1_us", w}, {"model_alpha_min_us", b},
                           {"kernel_model", held ? held->worst.baseline.kernel_model : ""},
                           {"fixed_costs", held ? held->worst.baseline.fixed_costs : "none"}});
        }
        panels.push_back(std::move(panel));
    }
    // "failed" in the order the records were given (a matrix not found is found out per group)
    auto given_at = [&](const nlohmann::json& e) {
        return std::find(o.records.begin(), o.records.end(), e["input"].get<std::string>()) -
               o.records.begin();
    };
    std::stable_sort(failed.begin(), failed.end(),
                     [&](const auto& x, const auto& y) { return given_at(x) < given_at(y); });
    if (panels.empty()) {
        SPMV_THROW(spmv::InvalidArgument,
                   "dist chart: none of the " + std::to_string(o.records.size()) +
                       " record(s) could be charted (the reasons are above); nothing written");
    }
    std::printf("%s", t.str().c_str());
    std::string models_used;
    for (const auto& n : model_names) models_used += (models_used.empty() ? "" : ", ") + n;
    std::printf("model: %s GPU profile (--device %s), links from each record's exchange path "
                "(--link %s), fixed costs --fixed-costs %s (dist plan's model); MODEL numbers "
                "are predictions from assumed profiles\n",
                models_used.c_str(), o.chart_device.c_str(), o.chart_link.c_str(),
                o.fixed_costs.c_str());
    if (!o.svg_out.empty()) {
        write_file(o.svg_out, spmv::viz::scaling_svg(panels));
        std::printf("chart: %s\n", o.svg_out.c_str());
    }
    if (!o.json_out.empty()) {
        write_json(o.json_out, {{"meta", make_meta("dist chart", o.records)},
                                {"model_device", models_used}, {"link", o.chart_link},
                                {"fixed_costs_option", o.fixed_costs},
                                {"points", out}, {"failed", failed}});
    }
    if (!failed.empty()) {
        std::fprintf(stderr, "spmvlab dist chart: %zu record(s) could not be charted (see above)\n",
                     failed.size());
        throw ExitCode{exit_status::error};
    }
    return 0;
}

}  // namespace spmvlab::dist_cli
