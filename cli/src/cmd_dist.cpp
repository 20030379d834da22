// spmvlab dist plan|verify|bench|solve: distributed SpMV and CG over MPI ranks (Kreutzer §III,
// Cevahir §3.3). `plan` runs in one process without MPI; the others run under
// `mpiexec -n N spmvlab dist ...` (or as one rank without mpiexec).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <spmv/dist/comm.hpp>
#include <spmv/dist/dist_matrix.hpp>
#include <spmv/dist/dist_solve.hpp>
#include <spmv/dist/model.hpp>
#include <spmv/dist/partition_stats.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/gpu/device_matrix.hpp>
#include <spmv/gpu/memory.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/model/gpu_profile.hpp>
#include <spmv/viz/scaling_svg.hpp>
#include <spmv/viz/timeline_svg.hpp>

#include "auto_format.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "meta.hpp"

namespace spmvlab {
namespace {

using namespace spmv::dist;
using Clock = std::chrono::steady_clock;

struct DistCli {
    std::string input;
    std::string mode = "all";
    std::string partition = "nnz";
    std::string format = "csr";
    bool format_given = false;  ///< --format on the command line (not its default)
    std::string variant;
    nlohmann::json auto_choice;  ///< --format / --variant auto: what the advisor picked (resolve_auto)
    std::string precision = "double";
    bool gpu = false;
    bool split_blocks = false;
    int task_poll_us = -1;
    std::string exchange = "auto";
    std::string json_out;
    std::string timeline;
    int repeat = 200;
    int ranks = 2;
    std::string link = "ib-hdr";
    std::string bench_link = "auto";  ///< dist bench: the model's link (link_for_path)
    std::string device = "H100";
    /// dist bench / dist chart: the model's GPU profile; auto: the one the (recorded) device
    /// name denotes (spmv::model::profile_for_device), H100 where none does
    std::string bench_device = "auto";
    std::string chart_device = "auto";
    std::string scaling = "1,2,4,8,16,32,64,128,256,512,1024";
    std::string bench_scaling = "1,2,4,8";  ///< dist bench: the model's curve in the record
    std::string alpha = "1";                ///< the model's x reuse: (0, 1] or "min"
    // chart
    std::vector<std::string> records;
    std::string svg_out;
    std::string chart_link = "auto";
    std::string chart_scaling = "1,2,4,8";
    int weak_k = 0;  ///< dist plan --weak K: weak scaling of pde with K^3 rows per rank
    // solve
    std::string method = "cg";
    bool jacobi = false;
    std::string inner_sums = "double";
    std::string outer = "richardson";  ///< mpir-cg's outer loop (MpirOuter)
    int inner_maxit = 0;               ///< 0: 1000 for richardson, 100 for pcg (as `solve`)
    double tol = 1e-10;
    int maxit = 10000;
    ParamOptions params;
};

std::vector<Mode> modes_of(const std::string& s)
{
    if (s == "all") {
        return {all_modes.begin(), all_modes.end()};
    }
    return {parse_mode(s)};
}

std::vector<int> int_list(const std::string& s)
{
    std::vector<int> v;
    std::size_t pos = 0;
    while (pos <= s.size()) {
        const auto comma = s.find(',', pos);
        const auto item = s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        try {
            v.push_back(std::stoi(item));
        } catch (const std::exception&) {
            SPMV_THROW(spmv::InvalidArgument, "'" + item + "' is not a whole number");
        }
        if (comma == std::string::npos) {
            break;
        }
        pos = comma + 1;
    }
    return v;
}

/// Result records carry where, what and when (SPEC: every number states device, precision,
/// matrix, date and commit).
nlohmann::json record_head(const DistCli& o, const Comm& comm, const char* command)
{
    nlohmann::json j = {{"meta", make_meta(command, {o.input})},
                        {"matrix", input_name(o.input)}, {"ranks", comm.size()},
                        {"partition", o.partition},      {"format", o.format},
                        {"variant", o.variant},          {"precision", precision_name(o.precision)},
                        {"mpi", library_version()}};
    if (o.gpu) add_gpu_meta(j["meta"]);  // this rank's device (rank 0 writes the record)
    if (!o.auto_choice.is_null()) {
        j["auto_choice"] = o.auto_choice;
    }
    return j;
}


void write_json(const std::string& path, const nlohmann::json& j)
{
    write_file(path, j.dump(2) + "\n");
}

/// Every rank's events of `t` in one timeline, on every rank (rank after rank). Collective.
Timeline merged_timeline(const Comm& comm, const Timeline& t)
{
    const auto all = comm.allgather(to_json({t}));
    Timeline merged = t;
    merged.events.clear();
    for (const auto& s : all) {
        // keep the parsed timelines alive: a range-for over a member of a temporary would
        // read freed memory (the temporary dies before the loop body runs, until C++23)
        const auto parsed = timelines_from_json(s);
        for (const auto& e : parsed.front().events) {
            merged.events.push_back(e);
        }
    }
    return merged;
}

/// The root writes merged timelines (merged_timeline) as PREFIX.json and PREFIX.svg.
/// Collective.
void write_timelines(const Comm& comm, const std::vector<Timeline>& tls, const std::string& prefix,
                     int svg_iteration = spmv::viz::timeline_last_iteration)
{
    // the root writes; a failure there (a directory that does not exist) ends every rank
    collective(comm, [&] {
        if (comm.rank() == 0) {
            write_file(prefix + ".json", to_json(tls));
            spmv::viz::TimelineSvgOptions svg;
            svg.iteration = svg_iteration;
            write_file(prefix + ".svg", spmv::viz::timeline_svg(tls, svg));
            std::printf("timelines: %s.json, %s.svg\n", prefix.c_str(), prefix.c_str());
        }
    });
}

std::string rank_devices(const Comm& comm, const std::string& mine)
{
    auto all = comm.allgather(mine);
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    std::string s;
    for (const auto& d : all) {
        s += (s.empty() ? "" : ", ") + d;
    }
    return s;
}

/// --alpha: a number in (0, 1], or "min": the best case, 1/N_nzr of each block (the model
/// clamps alpha to [1/N_nzr, 1] per block, so a tiny value means perfect reuse of x).
double parse_alpha(const std::string& s)
{
    if (s == "min") {
        return 1e-12;
    }
    double a = 0.0;
    try {
        std::size_t used = 0;
        a = std::stod(s, &used);
        if (used != s.size()) {
            throw std::invalid_argument(s);
        }
    } catch (const std::exception&) {
        SPMV_THROW(spmv::InvalidArgument, "--alpha " + s + ": not a number in (0, 1] or 'min'");
    }
    if (!(a > 0.0 && a <= 1.0)) {
        SPMV_THROW(spmv::InvalidArgument, "--alpha " + s + ": outside (0, 1]");
    }
    return a;
}

/// The model predicts every mode by what it really overlaps (spmv/dist/model.hpp): naive
/// overlap hides nothing (Open MPI 4.1 has no asynchronous progress: ModelOptions::
/// async_progress stays false), explicit overlap on GPU ranks hides the halo path behind the
/// local kernel as task mode does.

/// The model's link for an exchange path ("auto"): GPU ranks that copy GPU to GPU (CUDA IPC,
/// CUDA-aware MPI) over NVLink 4 without host staging; host-staged ones through the host's
/// shared memory with the two PCIe copies; host ranks through shared memory.
std::pair<LinkProfile, bool> link_for_path(const std::string& link, const std::string& path)
{
    const bool direct = path == "cuda-ipc" || path == "cuda-aware";
    if (link != "auto") {
        return {find_link(link), !direct};
    }
    return {find_link(direct ? "nvlink4" : "host-shm"), !direct};
}

// ---- plan (no MPI) ----------------------------------------------------------------------------

/// The model's strong scaling as JSON records (dist plan's "scaling", dist bench's
/// "predicted_scaling"): one object per rank count.
nlohmann::json scaling_json(const ScalingResult& sc)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& p : sc.points) {
        out.push_back({{"ranks", p.num_ranks},
                       {"total_halo", p.total_halo},
                       {"nnz_imbalance", p.nnz_imbalance},
                       {"vector_us", p.prediction.time_s.vector * 1e6},
                       {"naive_us", p.prediction.time_s.naive * 1e6},
                       {"overlap_us", p.prediction.time_s.overlap * 1e6},
                       {"task_us", p.prediction.time_s.task * 1e6},
                       {"efficiency_task", p.efficiency.task}});
    }
    return out;
}

int run_plan(const DistCli& o)
{
    apply_format_params(o.params);  // the model needs no format, but bad values are refused
    const auto a = load_matrix(o.input);
    const auto kind = parse_partition_kind(o.partition);
    const auto part = make_partition(a, kind, o.ranks);
    const int vb = o.precision == "float" ? 4 : 8;
    const auto stats = partition_stats(a, part, vb);
    const RankDevice dev = o.gpu ? RankDevice{spmv::model::find_profile(o.device)}
                                 : RankDevice{find_host(o.device == "H100" ? "cpu-core" : o.device)};
    const auto& link = find_link(o.link);
    ModelOptions mo;
    mo.precision = vb == 4 ? spmv::model::Precision::single_precision
                           : spmv::model::Precision::double_precision;
    mo.alpha = parse_alpha(o.alpha);
    const auto pred = predict_distributed(stats, dev, link, mo);

    std::printf("%s: %d x %d, %lld nonzeros; %s partition over %d ranks (MODEL, no run)\n",
                input_name(o.input).c_str(), a.num_rows, a.num_cols,
                static_cast<long long>(stats.nnz), o.partition.c_str(), o.ranks);
    Table t({"rank", "rows", "nnz", "local", "non-local", "halo", "sent", "neighbours",
             "recv bytes", "vector us", "naive us", "overlap us", "task us"});
    for (std::size_t r = 0; r < stats.ranks.size(); ++r) {
        const auto& s = stats.ranks[r];
        const auto& p = pred.ranks[r];
        t.add({std::to_string(r), std::to_string(s.rows), std::to_string(s.nnz),
               std::to_string(s.local_nnz), std::to_string(s.nonlocal_nnz), std::to_string(s.halo),
               std::to_string(s.sent), std::to_string(std::max(s.recv_neighbours, s.send_neighbours)),
               fmt_bytes(s.bytes_received), fmt(p.time_s.vector * 1e6, 2),
               fmt(p.time_s.naive * 1e6, 2), fmt(p.time_s.overlap * 1e6, 2),
               fmt(p.time_s.task * 1e6, 2)});
    }
    std::printf("%s", t.str().c_str());
    std::printf("imbalance: rows %.3f, nnz %.3f; halo total %lld entries; max neighbours %d\n",
                stats.row_imbalance, stats.nnz_imbalance,
                static_cast<long long>(stats.total_halo), stats.max_neighbours);
    std::printf("predicted SpMV on %s ranks over %s: vector %.2f us, naive %.2f us, overlap %.2f "
                "us, task %.2f us\n",
                pred.device.c_str(), pred.link.c_str(), pred.time_s.vector * 1e6,
                pred.time_s.naive * 1e6, pred.time_s.overlap * 1e6, pred.time_s.task * 1e6);

    nlohmann::json j = {{"meta", make_meta("dist plan", {o.input})},
                        {"matrix", input_name(o.input)}, {"ranks", o.ranks},
                        {"partition", o.partition},      {"precision", precision_name(o.precision)},
                        {"model", true},                 {"device_profile", pred.device},
                        {"link", pred.link}};
    j["imbalance"] = {{"rows", stats.row_imbalance}, {"nnz", stats.nnz_imbalance}};
    j["comm"] = stats.comm;
    for (std::size_t r = 0; r < stats.ranks.size(); ++r) {
        const auto& s = stats.ranks[r];
        const auto& p = pred.ranks[r];
        j["per_rank"].push_back({{"rank", r},
                                 {"rows", s.rows},
                                 {"nnz", s.nnz},
                                 {"local_nnz", s.local_nnz},
                                 {"nonlocal_nnz", s.nonlocal_nnz},
                                 {"halo", s.halo},
                                 {"sent", s.sent},
                                 {"bytes_received", s.bytes_received},
                                 {"bytes_sent", s.bytes_sent},
                                 {"predicted_us",
                                  {{"vector", p.time_s.vector * 1e6},
                                   {"naive", p.time_s.naive * 1e6},
                                   {"overlap", p.time_s.overlap * 1e6},
                                   {"task", p.time_s.task * 1e6}}}});
    }
    if (!o.scaling.empty() && o.scaling != "none") {
        const auto sc = predict_scaling(a, kind, int_list(o.scaling), dev, link, mo);
        Table st({"ranks", "halo", "nnz imbalance", "vector us", "task us", "task speedup",
                  "task efficiency"});
        for (const auto& p : sc.points) {
            st.add({std::to_string(p.num_ranks), std::to_string(p.total_halo),
                    fmt(p.nnz_imbalance, 3), fmt(p.prediction.time_s.vector * 1e6, 2),
                    fmt(p.prediction.time_s.task * 1e6, 2), fmt(p.speedup.task, 2),
                    fmt(p.efficiency.task, 3)});
        }
        j["scaling"] = scaling_json(sc);
        std::printf("predicted strong scaling (MODEL):\n%s", st.str().c_str());
    }
    if (o.weak_k > 0) {
        const auto ws = predict_weak_scaling(o.weak_k, kind, int_list(o.scaling), dev, link, mo);
        Table wt({"ranks", "rows", "halo", "vector us", "task us", "task efficiency"});
        for (const auto& p : ws.points) {
            wt.add({std::to_string(p.num_ranks), std::to_string(p.num_rows),
                    std::to_string(p.total_halo), fmt(p.prediction.time_s.vector * 1e6, 2),
                    fmt(p.prediction.time_s.task * 1e6, 2), fmt(p.efficiency.task, 3)});
            j["weak_scaling"].push_back({{"ranks", p.num_ranks},
                                         {"rows", p.num_rows},
                                         {"vector_us", p.prediction.time_s.vector * 1e6},
                                         {"naive_us", p.prediction.time_s.naive * 1e6},
                                         {"overlap_us", p.prediction.time_s.overlap * 1e6},
                                         {"task_us", p.prediction.time_s.task * 1e6},
                                         {"efficiency_task", p.efficiency.task}});
        }
        std::printf("predicted weak scaling, pde with about %d^3 rows per rank (MODEL):\n%s",
                    o.weak_k, wt.str().c_str());
    }
    if (!o.timeline.empty()) {
        std::vector<Timeline> tls;
        for (auto m : all_modes) {
            auto tl = predicted_timeline(pred, m);
            tl.matrix = input_name(o.input);
            tl.partition = o.partition;
            tl.precision = o.precision;
            tl.date = utc_now();
            tl.commit = git_commit();
            tls.push_back(std::move(tl));
        }
        write_file(o.timeline + ".json", to_json(tls));
        write_file(o.timeline + ".svg", spmv::viz::timeline_svg(tls));
        std::printf("predicted timelines: %s.json, %s.svg\n", o.timeline.c_str(), o.timeline.c_str());
    }
    if (!o.json_out.empty()) {
        write_json(o.json_out, j);
    }
    return 0;
}

// ---- chart (no MPI) ---------------------------------------------------------------------------

nlohmann::json read_bench_record(const std::string& file)
{
    std::ifstream in(file);
    if (!in) {
        SPMV_THROW(spmv::InvalidArgument, file + ": cannot open");
    }
    nlohmann::json j;
    try {
        in >> j;
    } catch (const std::exception& e) {
        SPMV_THROW(spmv::InvalidArgument, file + ": not JSON: " + e.what());
    }
    if (j.is_object()) j = upgrade_record(std::move(j), "dist bench");  // any schema version
    for (const char* key : {"matrix", "ranks", "precision", "partition", "modes"}) {
        if (!j.contains(key)) {
            SPMV_THROW(spmv::InvalidArgument, file + ": no \"" + key +
                                                  "\": not a record of spmvlab dist bench --json-out");
        }
    }
    return j;
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

/// Groups the records by (matrix, precision, partition, format); per group the model's strong
/// scaling for each exchange path present (alpha = 1 and alpha = min), the measured points,
/// and a table of measured against predicted for every (record, mode).
int run_chart(const DistCli& o)
{
    struct Group {
        std::vector<nlohmann::json> recs;
    };
    std::map<std::string, Group> groups;
    std::vector<std::string> order;
    for (const auto& f : o.records) {
        auto j = read_bench_record(f);
        j["file"] = std::filesystem::path(f).filename().string();
        const std::string key = j["matrix"].get<std::string>() + "|" + j["precision"].get<std::string>() +
                                "|" + j["partition"].get<std::string>() + "|" +
                                j.value("format", std::string("csr"));
        if (!groups.count(key)) {
            order.push_back(key);
        }
        groups[key].recs.push_back(std::move(j));
    }
    auto ranks = int_list(o.chart_scaling);
    Table t({"record", "mode", "ranks", "exchange", "measured us", "model a=1", "model a=min",
             "measured / a=1", "measured / a=min"});
    nlohmann::json out = nlohmann::json::array();
    std::vector<spmv::viz::ScalingPanel> panels;
    std::set<std::string> model_names;  // the GPU profiles the records resolved to
    for (const auto& key : order) {
        const auto& g = groups[key];
        const auto& first = g.recs.front();
        const std::string matrix = first["matrix"];
        const std::string precision = first["precision"];
        const bool sp = precision == "single";
        const auto kind = parse_partition_kind(first["partition"].get<std::string>());
        const auto a = load_matrix(matrix);
        const std::string recorded = first.value("devices", std::string("host"));
        const bool gpu = recorded != "host";
        bool assumed = false;
        const auto& profile = spmv::model::resolve_profile(o.chart_device, recorded, &assumed);
        const RankDevice dev = gpu ? RankDevice{profile} : RankDevice{find_host("cpu-core")};
        const std::string model_name =
            gpu ? profile.name + (assumed ? " (assumed: no profile for " + recorded + ")" : "")
                : std::string("cpu-core");
        model_names.insert(model_name);
        auto all_ranks = ranks;
        for (const auto& r : g.recs) {
            all_ranks.push_back(r["ranks"].get<int>());
        }
        std::sort(all_ranks.begin(), all_ranks.end());
        all_ranks.erase(std::unique(all_ranks.begin(), all_ranks.end()), all_ranks.end());
        spmv::viz::ScalingPanel panel;
        panel.title = matrix + " \u00b7 " + precision + " \u00b7 " +
                      first["partition"].get<std::string>() + " partition \u00b7 " +
                      first.value("format", std::string("csr"));
        panel.subtitle = "measured on " + first.value("devices", std::string("?")) + ", " +
                         first["meta"].value("date", std::string("?")).substr(0, 10) + ", commit " +
                         first["meta"].value("commit", std::string("?")) + "; model " + model_name +
                         " (MODEL: assumed profiles)";
        panel.ranks = all_ranks;
        // one model series per exchange path (the 1-rank records have none: they take any
        // path's model, or, when every record is of one rank, the host path's)
        std::map<std::string, std::pair<ScalingResult, ScalingResult>> models;
        const bool only_single = std::all_of(g.recs.begin(), g.recs.end(), [](const auto& r) {
            return r.value("exchange_path", std::string("none")) == "none";
        });
        for (const auto& r : g.recs) {
            const std::string path = r.value("exchange_path", std::string("none"));
            if ((path == "none" && !only_single) || models.count(path)) {
                continue;
            }
            const auto [link, staged] = link_for_path(o.chart_link, path);
            ModelOptions mo;
            mo.precision = sp ? spmv::model::Precision::single_precision
                              : spmv::model::Precision::double_precision;
            mo.stage_through_host = staged;
            mo.alpha = 1.0;
            auto worst = predict_scaling(a, kind, all_ranks, dev, link, mo);
            mo.alpha = parse_alpha("min");
            auto best = predict_scaling(a, kind, all_ranks, dev, link, mo);
            spmv::viz::ScalingModelSeries ser;
            ser.label = "model, " + path + " over " + link.name;
            ser.colour = path_colour(path);
            for (std::size_t i = 0; i < all_ranks.size(); ++i) {
                ser.task_best_us.push_back(best.points[i].prediction.time_s.task * 1e6);
                ser.task_worst_us.push_back(worst.points[i].prediction.time_s.task * 1e6);
                ser.vector_worst_us.push_back(worst.points[i].prediction.time_s.vector * 1e6);
            }
            panel.model.push_back(std::move(ser));
            panel.legend.push_back({path, path_colour(path)});
            models.emplace(path, std::make_pair(std::move(worst), std::move(best)));
        }
        auto at = [&](const ScalingResult& sc, int n, Mode m) {
            for (const auto& p : sc.points) {
                if (p.num_ranks == n) {
                    return p.prediction.time_s[m] * 1e6;
                }
            }
            return 0.0;
        };
        bool have_single = false;
        for (const auto& r : g.recs) {
            const std::string path = r.value("exchange_path", std::string("none"));
            const int n = r["ranks"].get<int>();
            for (const auto& md : r["modes"]) {
                const std::string mode = md["mode"];
                const double us = md["median_us"];
                panel.measured.push_back({n, mode, us, path_colour(path)});
                double w = 0.0;
                double b = 0.0;
                if (auto it = models.find(path); it != models.end()) {
                    w = at(it->second.first, n, parse_mode(mode));
                    b = at(it->second.second, n, parse_mode(mode));
                } else if (!models.empty()) {  // one rank: no exchange, any path's model
                    w = at(models.begin()->second.first, n, parse_mode(mode));
                    b = at(models.begin()->second.second, n, parse_mode(mode));
                }
                t.add({r["file"].get<std::string>(), mode, std::to_string(n), path, fmt(us, 2),
                       fmt(w, 2), fmt(b, 2), w > 0 ? fmt(us / w, 2) : "-",
                       b > 0 ? fmt(us / b, 2) : "-"});
                out.push_back({{"record", r["file"]}, {"matrix", matrix}, {"precision", precision},
                               {"mode", mode}, {"ranks", n}, {"exchange_path", path},
                               {"measured_us", us}, {"model_alpha1_us", w},
                               {"model_alpha_min_us", b}});
                if (!have_single && md.contains("single_process_us")) {
                    have_single = true;
                    const double t1 = md["single_process_us"];
                    panel.measured.push_back({1, "single", t1, spmv::viz::okabe_ito::black});
                    double w1 = models.empty() ? 0.0 : at(models.begin()->second.first, 1, Mode::vector);
                    double b1 = models.empty() ? 0.0 : at(models.begin()->second.second, 1, Mode::vector);
                    t.add({r["file"].get<std::string>(), "1 GPU", "1", "none", fmt(t1, 2),
                           fmt(w1, 2), fmt(b1, 2), w1 > 0 ? fmt(t1 / w1, 2) : "-",
                           b1 > 0 ? fmt(t1 / b1, 2) : "-"});
                    out.push_back({{"record", r["file"]}, {"matrix", matrix},
                                   {"precision", precision}, {"mode", "single"}, {"ranks", 1},
                                   {"exchange_path", "none"}, {"measured_us", t1},
                                   {"model_alpha1_us", w1}, {"model_alpha_min_us", b1}});
                }
            }
        }
        panels.push_back(std::move(panel));
    }
    std::printf("%s", t.str().c_str());
    std::string models_used;
    for (const auto& n : model_names) models_used += (models_used.empty() ? "" : ", ") + n;
    std::printf("model: %s GPU profile (--device %s), links from each record's exchange path "
                "(--link %s); MODEL numbers are predictions from assumed profiles\n",
                models_used.c_str(), o.chart_device.c_str(), o.chart_link.c_str());
    if (!o.svg_out.empty()) {
        write_file(o.svg_out, spmv::viz::scaling_svg(panels));
        std::printf("chart: %s\n", o.svg_out.c_str());
    }
    if (!o.json_out.empty()) {
        write_json(o.json_out, {{"meta", make_meta("dist chart", o.records)},
                                {"model_device", models_used}, {"link", o.chart_link},
                                {"points", out}});
    }
    return 0;
}

// ---- MPI commands -----------------------------------------------------------------------------

template <typename V>
DistMatrix<V> distribute_input(const Comm& comm, const DistCli& o,
                               const spmv::Csr<double, std::int32_t>& a)
{
    DistOptions opt;
    opt.partition = parse_partition_kind(o.partition);
    opt.format = o.format;
    opt.variant = o.variant;
    opt.params = apply_format_params(o.params);
    opt.gpu = o.gpu;
    opt.merged_block = !o.split_blocks;
    opt.task_poll_us = o.task_poll_us;
    opt.exchange = o.exchange;
    opt.budget = memory_budget();  // every rank's blocks, estimated before they are built
    if constexpr (std::is_same_v<V, double>) {
        return DistMatrix<double>::create(comm, a, opt);
    } else {
        return DistMatrix<V>::create(comm, spmv::convert_values<V>(a), opt);
    }
}

/// The root loads the input; a failure there ends every rank with its message.
spmv::Csr<double, std::int32_t> load_on_root(const Comm& comm, const std::string& input)
{
    spmv::Csr<double, std::int32_t> a;
    collective(comm, [&] {
        if (comm.rank() == 0) {
            a = load_matrix(input);
        }
    });
    return a;
}

/// Refuses --variant auto without --gpu and auto mixed with a named format or variant (the same
/// options on every rank: every rank throws the same message, before the matrix is loaded).
void check_auto(const DistCli& o)
{
    const bool auto_variant = o.variant == "auto";
    if (o.format != "auto" && !auto_variant) {
        return;
    }
    if (auto_variant && !o.gpu) {
        SPMV_THROW(spmv::InvalidArgument,
                   "--variant auto picks a GPU kernel variant: add --gpu (for host ranks, "
                   "--format auto picks the format)");
    }
    if (auto_variant && o.format_given && o.format != "auto") {
        SPMV_THROW(spmv::InvalidArgument,
                   "--variant auto picks the format as well: give --format auto or leave "
                   "--format out, not --format " + o.format);
    }
    if (!auto_variant && !o.variant.empty()) {
        SPMV_THROW(spmv::InvalidArgument,
                   "--format auto with --variant " + o.variant + ": the variant belongs to one "
                   "format; name that format, or give --variant auto to let the advisor pick both");
    }
}

/// --format auto / --variant auto: the format advisor's first choice (auto_format.hpp) for the
/// global matrix `a`, which only the root holds (load_on_root): made once on the root for
/// `precision` ("sp"/"dp") and `iterations` SpMVs, broadcast, so every rank builds the same
/// layout with the same parameters; the root prints what was picked and why. Returns `o` with
/// format, variant and parameters resolved and auto_choice set; `o` itself without auto.
/// Collective.
DistCli resolve_auto(const Comm& comm, const DistCli& o, const spmv::Csr<double, std::int32_t>& a,
                     const std::string& precision, std::int64_t iterations)
{
    const bool auto_variant = o.variant == "auto";
    if (o.format != "auto" && !auto_variant) {
        return o;
    }
    check_auto(o);
    std::string choice;
    collective(comm, [&] {
        if (comm.rank() == 0) {
            // host formats only unless --variant auto (the variant runs on the GPU ranks)
            const auto c = choose_format(a, precision, advisor_params(o.params), "auto",
                                         iterations, 0, !auto_variant);
            auto j = auto_choice_json(c, precision);
            j["note"] = c.note + " -- for the global matrix, on every rank" +
                        (o.gpu ? std::string()
                               : "; the choice is made for a GPU, the host ranks run its format " +
                                     c.format);
            choice = j.dump();
        }
    });
    comm.broadcast(choice);
    const auto j = nlohmann::json::parse(choice);
    DistCli r = o;
    r.format = j["format"].get<std::string>();
    if (auto_variant) {
        r.variant = j["variant"].get<std::string>();
    }
    r.params = param_options(params_from_json(j["params"]));
    r.auto_choice = j;
    if (comm.rank() == 0) {
        std::printf("%s\n", j["note"].get<std::string>().c_str());
        std::fflush(stdout);
    }
    return r;
}

/// "sp" / "dp" for the advisor from --precision float / double.
std::string advisor_precision(const DistCli& o)
{
    return o.precision == "float" ? "sp" : "dp";
}

template <typename V>
int run_verify(const Comm& comm, const DistCli& options)
{
    const auto a = load_on_root(comm, options.input);
    const auto o = resolve_auto(comm, options, a, advisor_precision(options), 0);
    auto m = distribute_input<V>(comm, o, a);
    std::vector<double> xg;
    std::vector<double> ref;
    if (comm.rank() == 0) {
        xg.resize(static_cast<std::size_t>(a.num_cols));
        for (std::size_t i = 0; i < xg.size(); ++i) {
            xg[i] = std::sin(0.37 * static_cast<double>(i) + 1.0);
        }
        ref.resize(static_cast<std::size_t>(a.num_rows));
        spmv::spmv_reference(a, 1.0, std::span<const double>(xg), 0.0, std::span<double>(ref));
    }
    std::vector<V> xv(xg.begin(), xg.end());
    const auto xo = scatter_from_root<V>(comm, m.col_partition(), xv);
    const double tol = std::is_same_v<V, double> ? 1e-12 : 2e-5;
    int bad = 0;
    nlohmann::json j = record_head(o, comm, "dist verify");
    j["devices"] = rank_devices(comm, m.info().device);
    j["exchange_path"] = m.exchange_path();
    for (auto mode : modes_of(o.mode)) {
        std::vector<V> y(static_cast<std::size_t>(m.own_rows()));
        m.apply(mode, xo, y);
        const auto yg = gather_to_root<V>(comm, m.row_partition(), y);
        if (comm.rank() == 0) {
            double num = 0.0;
            double den = 0.0;
            for (std::size_t i = 0; i < ref.size(); ++i) {
                num += (static_cast<double>(yg[i]) - ref[i]) * (static_cast<double>(yg[i]) - ref[i]);
                den += ref[i] * ref[i];
            }
            const double err = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
            const bool ok = err <= tol;
            bad += ok ? 0 : 1;
            std::printf("%-8s %s: relative error %.2e (tolerance %.0e) %s\n",
                        std::string(to_string(mode)).c_str(), input_name(o.input).c_str(), err,
                        tol, ok ? "OK" : "MISMATCH");
            j["modes"].push_back({{"mode", to_string(mode)}, {"relative_error", err}, {"ok", ok}});
        }
    }
    collective(comm, [&] {
        if (comm.rank() == 0) {
            std::printf("%d rank(s) on %s, %s partition, format %s, exchange %s\n", comm.size(),
                        j["devices"].get<std::string>().c_str(), o.partition.c_str(),
                        o.format.c_str(), m.exchange_path().c_str());
            if (!o.json_out.empty()) {
                write_json(o.json_out, j);
            }
        }
    });
    bad = static_cast<int>(comm.allreduce_max(static_cast<double>(bad)));
    if (bad > 0) {
        throw ExitCode{3};
    }
    return 0;
}

double median(std::vector<double> v)
{
    if (v.empty()) {
        return 0.0;
    }
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

template <typename V>
int run_bench(const Comm& comm, const DistCli& options)
{
    const auto a = load_on_root(comm, options.input);
    // ranked per SpMV: the timed products come after the setup, which is not timed
    const auto o = resolve_auto(comm, options, a, advisor_precision(options), 0);
    // Single-process baseline on the root's device (the same format, kernel and timing: warm,
    // back to back, each product synchronised), before the distributed run.
    double base_us = 0.0;
    std::string base_device;
    if (o.gpu) {
        collective(comm, [&] {
            if (comm.rank() == 0 && spmv::gpu::is_available()) {
                spmv::gpu::set_device(comm.node_rank() % spmv::gpu::device_count());
                const auto av = spmv::convert_values<V>(a);
                auto host = spmv::build<V>(o.format, av, apply_format_params(o.params));
                auto dm = o.variant.empty() ? spmv::gpu::assemble(host)
                                            : spmv::gpu::assemble(spmv::gpu::find_variant(o.variant), host);
                spmv::gpu::DeviceBuffer<V> x(static_cast<std::size_t>(a.num_cols));
                spmv::gpu::DeviceBuffer<V> y(static_cast<std::size_t>(a.num_rows));
                x.fill(V{1});
                spmv::gpu::Stream s;
                std::vector<double> ts;
                for (int i = 0; i < o.repeat + 10; ++i) {
                    const auto t0 = Clock::now();
                    dm.spmv(V{1}, x.data(), V{0}, y.data(), spmv::RowOrder::original, s);
                    s.synchronize();
                    if (i >= 10) {
                        ts.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
                    }
                }
                base_us = median(ts);
                base_device = spmv::gpu::device_info().name;
            }
        });
    }
    auto m = distribute_input<V>(comm, o, a);
    const auto devices = rank_devices(comm, m.info().device);
    nlohmann::json j = record_head(o, comm, "dist bench");
    j["devices"] = devices;
    j["exchange_path"] = m.exchange_path();
    if (!m.exchange_note().empty()) {
        j["exchange_note"] = m.exchange_note();
    }
    j["task_poll_us"] = m.task_poll_interval_us();
    j["repeat"] = o.repeat;
    j["timing"] = "wall clock per SpMV (after a barrier), back to back, each product complete "
                  "on every rank before the next; median over repeats of the slowest rank";
    std::vector<Timeline> tls;
    // ghosted x on the device (GPU ranks) or the host
    spmv::gpu::DeviceBuffer<V> dx, dy;
    std::vector<V> hx, hy;
    if (o.gpu) {
        dx = spmv::gpu::DeviceBuffer<V>(static_cast<std::size_t>(m.ghosted_size()));
        dy = spmv::gpu::DeviceBuffer<V>(static_cast<std::size_t>(m.own_rows()));
        dx.fill(V{1});
    } else {
        hx.assign(static_cast<std::size_t>(m.ghosted_size()), V{1});
        hy.assign(static_cast<std::size_t>(m.own_rows()), V{0});
    }
    auto apply = [&](Mode mode, Timeline* tl, int it) {
        if (o.gpu) {
            m.apply_device_ghosted(mode, dx.data(), dy.data(), tl, it);
        } else {
            m.apply_ghosted(mode, hx, hy, tl, it);
        }
    };
    const auto total_nnz = comm.allreduce_sum(static_cast<std::int64_t>(m.info().nnz));
    // The model's prediction for this very partition, printed next to each measured mode (the
    // root holds the matrix; labelled MODEL with the profiles it assumed).
    std::optional<DistPrediction> pred;
    collective(comm, [&] {
        if (comm.rank() == 0 && o.bench_link != "none") {
            bool assumed = false;
            const auto& profile =
                spmv::model::resolve_profile(o.bench_device, m.info().device, &assumed);
            if (o.gpu && assumed) {
                std::printf("model: no GPU profile for '%s': H100's assumed (--device NAME "
                            "picks one)\n",
                            m.info().device.c_str());
            }
            const RankDevice dev = o.gpu ? RankDevice{profile} : RankDevice{find_host("cpu-core")};
            ModelOptions mo;
            mo.precision = std::is_same_v<V, float> ? spmv::model::Precision::single_precision
                                                    : spmv::model::Precision::double_precision;
            mo.alpha = parse_alpha(o.alpha);
            const auto [link, staged] = link_for_path(o.bench_link, m.exchange_path());
            mo.stage_through_host = staged;
            const auto stats = partition_stats(a, m.row_partition(), static_cast<int>(sizeof(V)));
            pred = predict_distributed(stats, dev, link, mo);
            j["model"] = {{"device_profile", pred->device}, {"link", pred->link},
                          {"alpha", o.alpha},           {"stage_through_host", staged}};
            j["partition_stats"] = {{"total_halo", stats.total_halo},
                                    {"max_neighbours", stats.max_neighbours},
                                    {"row_imbalance", stats.row_imbalance},
                                    {"nnz_imbalance", stats.nnz_imbalance}};
            if (!o.bench_scaling.empty() && o.bench_scaling != "none") {
                // the model's curve for this matrix, partition kind and precision, which
                // `spmvlab dist chart` draws through the measured points
                j["predicted_scaling"] =
                    scaling_json(predict_scaling(a, parse_partition_kind(o.partition),
                                                 int_list(o.bench_scaling), dev, link, mo));
            }
        }
    });
    if (comm.rank() == 0) {
        std::printf("%s: %lld rows, %lld nonzeros on %d rank(s) (%s), %s partition, format %s, "
                    "%s, exchange %s, task mode %s\n",
                    input_name(o.input).c_str(), static_cast<long long>(m.part().global_rows),
                    static_cast<long long>(total_nnz), comm.size(), devices.c_str(),
                    o.partition.c_str(), o.format.c_str(), o.precision.c_str(),
                    m.exchange_path().c_str(),
                    m.task_poll_interval_us() > 0
                        ? ("polls every " + std::to_string(m.task_poll_interval_us()) + " us").c_str()
                        : "waits in MPI_Waitall");
        if (!m.exchange_note().empty()) {
            std::printf("  (%s)\n", m.exchange_note().c_str());
        }
    }
    for (auto mode : modes_of(o.mode)) {
        for (int i = 0; i < 10; ++i) {  // warm-up
            apply(mode, nullptr, i);
        }
        std::vector<double> ts;
        for (int i = 0; i < o.repeat; ++i) {
            comm.barrier();
            const auto t0 = Clock::now();
            apply(mode, nullptr, i);
            ts.push_back(comm.allreduce_max(
                std::chrono::duration<double, std::micro>(Clock::now() - t0).count()));
        }
        const double med = median(ts);
        // three more products recorded into a timeline: the share of the exchange hidden
        // behind computation in the last of them
        double hidden = 0.0;
        {
            Timeline t;
            t.mode = mode;
            t.num_ranks = comm.size();
            t.matrix = input_name(o.input);
            t.format = o.format;
            t.partition = o.partition;
            t.device = devices;
            t.precision = o.precision;
            t.date = utc_now();
            t.commit = git_commit();
            m.start_clock();
            for (int it = 0; it < 3; ++it) {
                comm.barrier();
                apply(mode, &t, it);
            }
            // overlapped fraction over every rank's events of the last recorded product
            tls.push_back(merged_timeline(comm, t));
            hidden = overlapped_fraction(tls.back(), -1, 2);
        }
        if (comm.rank() == 0) {
            const double gflops = 2.0 * static_cast<double>(total_nnz) / (med * 1e3);
            std::printf("%-8s median %9.2f us  min %9.2f us  %7.2f GF/s  exchange hidden %5.1f %%",
                        std::string(to_string(mode)).c_str(), med,
                        *std::min_element(ts.begin(), ts.end()), gflops, 100.0 * hidden);
            if (base_us > 0.0) {
                std::printf("  vs single process %.2f us (%+.1f %%)", base_us,
                            100.0 * (med / base_us - 1.0));
            }
            if (pred) {
                std::printf("  model %.2f us", pred->time_s[mode] * 1e6);
            }
            std::printf("\n");
            nlohmann::json r = {{"mode", to_string(mode)},
                                {"median_us", med},
                                {"min_us", *std::min_element(ts.begin(), ts.end())},
                                {"gflops", gflops},
                                {"overlapped_fraction", hidden}};
            if (pred) {
                r["predicted_us"] = pred->time_s[mode] * 1e6;
            }
            if (base_us > 0.0) {
                r["single_process_us"] = base_us;
                r["single_process_device"] = base_device;
                r["overhead"] = med / base_us - 1.0;
            }
            j["modes"].push_back(r);
        }
    }
    if (comm.rank() == 0 && pred) {
        std::printf("model: %s ranks over %s (MODEL, profiles assumed: spmvlab dist plan shows "
                    "them; --link none drops it)\n",
                    pred->device.c_str(), pred->link.c_str());
    }
    if (!o.timeline.empty()) {
        write_timelines(comm, tls, o.timeline);
    }
    collective(comm, [&] {
        if (comm.rank() == 0 && !o.json_out.empty()) {
            write_json(o.json_out, j);
        }
    });
    return 0;
}

int run_solve(const Comm& comm, const DistCli& options)
{
    const auto a = load_on_root(comm, options.input);
    // MPIR-CG's SpMVs are mostly the inner float ones; setup amortised over --maxit SpMVs
    const bool mpir = options.method == "mpir" || options.method == "mpir-cg";
    const auto o = resolve_auto(comm, options, a, mpir ? "sp" : "dp", std::max(0, options.maxit));
    auto m = distribute_input<double>(comm, o, a);
    std::vector<double> bg;
    if (comm.rank() == 0) {
        bg.assign(static_cast<std::size_t>(a.num_rows), 1.0);
    }
    const auto b = scatter_from_root<double>(comm, m.row_partition(), bg);
    std::vector<double> x(b.size(), 0.0);
    spmv::solvers::SolveOptions so;
    so.tol = o.tol;
    so.max_iterations = o.maxit;
    so.jacobi = o.jacobi || o.method == "jacobi-cg";
    // GPU ranks with CSR, SELL or PELLR add the inner float SpMV's products in double (as the
    // single-process solver); host ranks and other kernels add in float
    so.inner.double_sums = o.inner_sums == "double";
    if (o.method != "cg" && o.method != "jacobi-cg" && o.method != "mpir-cg" && o.method != "mpir") {
        SPMV_THROW(spmv::InvalidArgument,
                   "--method " + o.method + ": not cg, jacobi-cg or mpir-cg");
    }
    const auto method = o.method == "mpir" || o.method == "mpir-cg" ? spmv::solvers::Method::mpir_cg
                                                                     : spmv::solvers::Method::cg;
    const bool outer_pcg = o.outer == "pcg";
    if (outer_pcg && method != spmv::solvers::Method::mpir_cg) {
        SPMV_THROW(spmv::InvalidArgument,
                   "--outer pcg is an outer loop of --method mpir-cg, not of " + o.method);
    }
    // pcg: Cevahir 2.2 as written, float throughout (float SpMV sums; float reductions on host
    // ranks, see spmv/dist/dist_solve.hpp); richardson: the project's refinement
    so.mpir_outer =
        outer_pcg ? spmv::solvers::MpirOuter::pcg : spmv::solvers::MpirOuter::richardson;
    so.inner.max_iterations = o.inner_maxit > 0 ? o.inner_maxit : (outer_pcg ? 100 : 1000);
    DistSolveOptions dso;
    dso.mode = o.mode == "all" ? Mode::task : parse_mode(o.mode);
    Timeline t;
    if (!o.timeline.empty()) {
        t.mode = dso.mode;
        t.num_ranks = comm.size();
        t.matrix = input_name(o.input);
        t.format = o.format;
        t.partition = o.partition;
        t.precision = "double";
        t.date = utc_now();
        t.commit = git_commit();
        dso.timeline = &t;
        m.start_clock();
    }
    comm.barrier();
    const auto res = solve(m, b, x, method, so, dso);
    const auto devices = rank_devices(comm, m.info().device);
    collective(comm, [&] {
    if (comm.rank() == 0) {
        std::printf("%s: %s on %d rank(s) (%s), %s mode, %s partition, format %s, exchange %s\n",
                    input_name(o.input).c_str(), std::string(spmv::solvers::to_string(method)).c_str(),
                    comm.size(), devices.c_str(), std::string(to_string(dso.mode)).c_str(),
                    o.partition.c_str(), o.format.c_str(), m.exchange_path().c_str());
        std::printf("status %s after %d iterations (inner %d, outer %d); true relative residual "
                    "%.3e; %.2f ms (setup %.2f ms)%s\n",
                    std::string(spmv::solvers::to_string(res.status)).c_str(), res.iterations,
                    res.inner_iterations, res.outer_iterations, res.final_relative_residual,
                    res.total_ms, res.setup_ms,
                    method == spmv::solvers::Method::mpir_cg
                        ? (res.inner_double_sums ? "; inner sums in double"
                           : res.inner_float_reductions
                               ? "; inner CG in float throughout (sums, dot products)"
                               : "; inner sums in float, inner dot products in double")
                        : "");
        if (!o.json_out.empty()) {
            auto j = record_head(o, comm, "dist solve");
            j["devices"] = devices;
            j["method"] = spmv::solvers::to_string(method);
            j["exchange_path"] = m.exchange_path();
            j["mode"] = to_string(dso.mode);
            j["status"] = spmv::solvers::to_string(res.status);
            j["iterations"] = res.iterations;
            j["inner_iterations"] = res.inner_iterations;
            j["outer_iterations"] = res.outer_iterations;
            j["final_relative_residual"] = res.final_relative_residual;
            j["total_ms"] = res.total_ms;
            j["inner_double_sums"] = res.inner_double_sums;
            j["inner_float_reductions"] = res.inner_float_reductions;
            if (method == spmv::solvers::Method::mpir_cg) {
                j["mpir_outer"] = spmv::solvers::to_string(so.mpir_outer);
                j["inner_max_iterations"] = so.inner.max_iterations;
            }
            j["setup_ms"] = res.setup_ms;
            j["times_ms"] = {{"spmv", res.times.spmv_ms},
                             {"vector", res.times.vector_ms},
                             {"reduction", res.times.reduction_ms}};
            write_json(o.json_out, j);
        }
    }
    });
    if (!o.timeline.empty()) {
        const std::vector<Timeline> tls{merged_timeline(comm, t)};
        // the picture shows one iteration from the middle of the solve (the JSON has them all)
        write_timelines(comm, tls, o.timeline, std::max(0, res.iterations / 2));
    }
    if (res.status != spmv::solvers::Status::converged) {
        throw ExitCode{2};
    }
    return 0;
}

/// The four modes, for `spmvlab dist --help` and the subcommands that take --mode.
constexpr const char* modes_help =
    "Modes (--mode; all = vector, naive, overlap, task), Kreutzer et al. 2012 \u00a7III.A:\n"
    "  vector   the paper's vector mode without overlap: exchange the halo, then the whole "
    "SpMV.\n"
    "  naive    the paper's vector mode with naive overlap, run as the paper ran it: post the "
    "non-blocking\n"
    "           receives and sends (GPU ranks: after the gather and the copy of the send "
    "buffer to the\n"
    "           host have finished), compute the local part (GPU ranks: launch the kernel and "
    "wait for it),\n"
    "           then MPI_Waitall, then the non-local part. Without asynchronous progress in "
    "the MPI library\n"
    "           (Open MPI 4.1: none) the messages move only in the wait: nothing is hidden.\n"
    "  overlap  explicit overlap, the GPU-era schedule (the project's, not the paper's): GPU "
    "ranks queue\n"
    "           the gather and copy first, launch the local kernel asynchronously and sit in "
    "MPI_Waitall\n"
    "           while the GPU computes. Host ranks: the same schedule as naive (one thread "
    "cannot compute\n"
    "           and sit in MPI at once).\n"
    "  task     the paper's task mode: a dedicated communication thread exchanges while the "
    "local part is\n"
    "           computed; then the non-local part.\n"
    "The paper expects naive overlap to be no better than vector mode and measured (Fig. 5b, "
    "UHBR, 32 nodes)\n"
    "task mode at 84 % parallel efficiency against about 70 % for naive overlap. GPU ranks "
    "with --exchange\n"
    "host-staged (two PCIe copies and MPI per product) should show task >= overlap > naive ~ "
    "vector; with\n"
    "cuda-ipc (one device copy over NVLink, MPI carries tokens only) the exchange is short and "
    "the four\n"
    "modes lie close together (docs/distributed.md).";

/// The options that decide the collective schedule (which collectives run, how often, on what
/// sizes): every rank must pass the same ones, or the ranks would wait in different
/// collectives for ever (a rank given --mode naive beside one given --mode vector hung).
std::vector<std::pair<std::string, std::string>> schedule_options(const DistCli& o)
{
    return {{"INPUT", o.input},
            {"--mode", o.mode},
            {"--partition", o.partition},
            {"--format", o.format},
            {"--variant", o.variant},
            {"--precision", o.precision},
            {"--gpu", o.gpu ? "on" : "off"},
            {"--split-blocks", o.split_blocks ? "on" : "off"},
            {"--exchange", o.exchange},
            {"--repeat", std::to_string(o.repeat)},
            {"--method", o.method},
            {"--jacobi", o.jacobi ? "on" : "off"},
            {"--inner-sums", o.inner_sums},
            {"--outer", o.outer},
            {"--inner-maxit", std::to_string(o.inner_maxit)},
            {"--tol", std::to_string(o.tol)},
            {"--maxit", std::to_string(o.maxit)},
            {"format parameters", params_json(apply_format_params(o.params)).dump()}};
}

/// Rank 0's schedule options against this rank's: "" when they agree, else the first that
/// differs, named with both values.
std::string schedule_mismatch(const Comm& comm, const DistCli& o)
{
    const auto mine = schedule_options(o);
    std::string all;
    for (const auto& [k, v] : mine) {
        all += k + '\x1f' + v + '\x1e';
    }
    std::string root = all;
    comm.broadcast(root);
    if (root == all) {
        return {};
    }
    std::size_t at = 0;
    for (const auto& [k, v] : mine) {
        const auto end = root.find('\x1e', at);
        const auto sep = root.find('\x1f', at);
        const std::string theirs =
            sep != std::string::npos && end != std::string::npos ? root.substr(sep + 1, end - sep - 1)
                                                                  : std::string("?");
        if (theirs != v) {
            return "the ranks were started with different options: " + k + " is '" + v +
                   "' here and '" + theirs + "' on rank 0 (every rank must run the same "
                   "command: mode, format, partition, exchange and precision decide the "
                   "collective schedule)";
        }
        at = end == std::string::npos ? root.size() : end + 1;
    }
    return "the ranks were started with different options";
}

/// MPI_Init for the commands that need it; the ranks first agree on every option that decides
/// the collective schedule (schedule_mismatch), then every rank runs the command; RemoteError
/// and any other error end every rank with a non-zero status. An error every rank agreed on is
/// printed once, by rank 0.
int with_mpi(const DistCli& o, int (*run)(const Comm&, const DistCli&))
{
    int argc = 0;
    char** argv = nullptr;
    Environment env(&argc, &argv);
    const auto comm = Comm::world();
    try {
        agree(comm, schedule_mismatch(comm, o));
        check_auto(o);
        return run(comm, o);
    } catch (const RemoteError&) {
        if (comm.rank() != 0) {
            throw ExitCode{1};  // rank 0 prints the message all ranks agreed on
        }
        throw;
    }
}

void add_common(CLI::App* c, DistCli& o, bool with_mode)
{
    c->add_option("INPUT", o.input, "Matrix Market file or generator spec (gen:pde:size=150)")
        ->required();
    if (with_mode) {
        c->add_option("--mode", o.mode,
                      "vector, naive (Kreutzer's naive overlap), overlap (explicit overlap, the "
                      "GPU-era schedule), task or all (see Modes below)")
            ->capture_default_str();
        c->footer(modes_help);
    }
    c->add_option("--partition", o.partition, "rows, nnz or metis")->capture_default_str();
    c->add_option("--format", o.format,
                  "storage format of both blocks (spmvlab formats), or auto: the format "
                  "advisor's first choice for the global matrix (made once, the same on every "
                  "rank; printed with the reason and recorded in --json-out as auto_choice)")
        ->capture_default_str()
        ->each([&o](const std::string&) { o.format_given = true; });
    c->add_option("--variant", o.variant,
                  "GPU kernel variant (default: the format's); auto (with --gpu): the advisor "
                  "picks the variant and its format");
    c->add_flag("--gpu", o.gpu, "blocks on the GPUs: one rank per GPU (node-local rank)");
    c->add_option("--json-out", o.json_out, "write the result record as JSON");
    c->add_option("--timeline", o.timeline, "write PREFIX.json and PREFIX.svg timelines");
    c->add_flag("--split-blocks", o.split_blocks,
                "vector mode runs the local and non-local blocks one after the other "
                "(default: one merged block, a single pass over y)");
    c->add_option("--task-poll-us", o.task_poll_us,
                  "task mode: the communication thread tests its messages every N us and sleeps "
                  "in between; 0: MPI_Waitall, which keeps a core busy; -1: 20 when the ranks "
                  "of a host have fewer than 2 hardware threads each, else 0")
        ->capture_default_str()->check(CLI::Range(-1, 100000));
    c->add_option("--exchange", o.exchange,
                  "GPU ranks: how the halo moves: auto (cuda-aware MPI, else CUDA IPC on one "
                  "host, else host-staged), host-staged, cuda-ipc or cuda-aware")
        ->check(CLI::IsMember({"auto", "host-staged", "cuda-ipc", "cuda-aware"}))
        ->capture_default_str();
    add_format_param_options(c, o.params);
}

}  // namespace

void add_dist_command(CLI::App& app)
{
    auto o = std::make_shared<DistCli>();
    auto* dist = app.add_subcommand("dist", "distributed SpMV and CG over MPI ranks "
                                            "(mpiexec -n N spmvlab dist ...)");
    dist->require_subcommand(1);
    dist->footer(modes_help);

    auto* plan = dist->add_subcommand("plan", "partition statistics and the model's prediction "
                                              "(one process, no MPI)");
    add_common(plan, *o, false);
    plan->add_option("--ranks", o->ranks, "number of ranks")->capture_default_str()
        ->check(CLI::Range(1, 1 << 20));
    plan->add_option("--link", o->link, "link profile: pcie4, pcie5, nvlink4, ib-hdr, ib-ndr, "
                                        "host-shm")->capture_default_str();
    plan->add_option("--device", o->device, "GPU profile with --gpu (H100, ...), else host "
                                            "profile (cpu-core)")->capture_default_str();
    plan->add_option("--precision", o->precision, "double or float")->capture_default_str();
    plan->add_option("--alpha", o->alpha,
                     "x reuse: (0, 1] (1: none, Kreutzer's default) or min (1/N_nzr of each "
                     "block: perfect reuse)")
        ->capture_default_str();
    plan->add_option("--weak", o->weak_k,
                     "also the predicted weak scaling of pde with about K^3 rows per rank "
                     "(K x K x K grids, over the --scaling rank counts)")
        ->check(CLI::Range(1, 512));
    plan->add_option("--scaling", o->scaling, "rank counts of the predicted scaling, or none")
        ->capture_default_str();
    plan->callback([o] { run_plan(*o); });

    auto* verify = dist->add_subcommand("verify", "every mode against the single-process "
                                                  "product (exit 3 on a mismatch)");
    add_common(verify, *o, true);
    verify->add_option("--precision", o->precision, "double or float")->capture_default_str();
    verify->callback([o] {
        with_mpi(*o, o->precision == "float" ? &run_verify<float> : &run_verify<double>);
    });

    auto* bench = dist->add_subcommand("bench", "time the distributed SpMV in each mode");
    add_common(bench, *o, true);
    bench->add_option("--precision", o->precision, "double or float")->capture_default_str();
    bench->add_option("--link", o->bench_link,
                      "link profile of the model's prediction printed next to each mode: auto "
                      "(from the exchange path that ran: nvlink4 for cuda-ipc / cuda-aware, "
                      "host-shm for host-staged and host ranks), a profile name, or none")
        ->capture_default_str();
    bench->add_option("--alpha", o->alpha,
                      "the model's x reuse: (0, 1] (1: none, Kreutzer's default) or min "
                      "(1/N_nzr of each block: perfect reuse)")
        ->capture_default_str();
    bench->add_option("--device", o->bench_device,
                      "GPU profile of that prediction with --gpu: a name (H100, H200, ...) or "
                      "auto (the one the device's name denotes, else H100)")
        ->capture_default_str();
    bench->add_option("--repeat", o->repeat, "timed products per mode")->capture_default_str()
        ->check(CLI::Range(1, 1000000));
    bench->add_option("--scaling", o->bench_scaling,
                      "rank counts of the model's strong scaling stored in --json-out "
                      "(predicted_scaling), or none")
        ->capture_default_str();
    bench->callback([o] {
        with_mpi(*o, o->precision == "float" ? &run_bench<float> : &run_bench<double>);
    });

    auto* chart = dist->add_subcommand(
        "chart", "strong-scaling chart (SVG) and table: the model against the measured points "
                 "of dist bench records (one process, no MPI; the records' matrices are loaded)");
    chart->add_option("RECORDS", o->records, "JSON files written by dist bench --json-out")
        ->required();
    chart->add_option("--svg", o->svg_out, "write the chart here");
    chart->add_option("--json-out", o->json_out, "write the table as JSON");
    chart->add_option("--link", o->chart_link,
                      "the model's link: auto (from each record's exchange path) or a profile")
        ->capture_default_str();
    chart->add_option("--device", o->chart_device,
                      "GPU profile of the model: a name (H100, H200, ...) or auto (the one each "
                      "record's device name denotes, else H100)")
        ->capture_default_str();
    chart->add_option("--scaling", o->chart_scaling, "rank counts of the model's curves")
        ->capture_default_str();
    chart->callback([o] { run_chart(*o); });

    auto* solve = dist->add_subcommand("solve", "distributed CG / Jacobi-CG / MPIR-CG "
                                                "(b = ones, x0 = 0)");
    add_common(solve, *o, true);
    solve->add_option("--method", o->method, "cg | jacobi-cg | mpir-cg (double outer, float inner)")->capture_default_str();
    solve->add_flag("--jacobi", o->jacobi, "Jacobi preconditioner");
    solve->add_option("--inner-sums", o->inner_sums,
                      "mpir-cg --outer richardson on GPU ranks: the inner float SpMV adds in "
                      "double or float (--outer pcg: always float)")
        ->check(CLI::IsMember({"double", "float"}))->capture_default_str();
    solve->add_option("--outer", o->outer,
                      "mpir-cg's outer loop: richardson = the project's refinement (default); "
                      "pcg = Cevahir 2.2 as written, flexible PCG around --inner-maxit float CG "
                      "iterations (float dot products on host ranks; GPU ranks keep double ones)")
        ->check(CLI::IsMember({"richardson", "pcg"}))->capture_default_str();
    solve->add_option("--inner-maxit", o->inner_maxit,
                      "mpir-cg: inner iterations per step (richardson: at most, default 1000; "
                      "pcg: exactly, default 100)")
        ->check(CLI::NonNegativeNumber);
    solve->add_option("--tol", o->tol, "relative residual to reach")->capture_default_str();
    solve->add_option("--maxit", o->maxit, "iteration limit")->capture_default_str();
    solve->callback([o] { with_mpi(*o, &run_solve); });
}

}  // namespace spmvlab
