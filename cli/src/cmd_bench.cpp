// spmvlab bench FILE|DIR [--gpu]: timings of every format, CPU reference or GPU kernels.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <new>
#include <sstream>
#include <random>

#include <spmv/analysis/warp_timeline.hpp>
#include <spmv/error.hpp>
#include <spmv/host_device.hpp>
#include <spmv/registry.hpp>

#include "auto_format.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "gpu_bridge.hpp"
#include "meta.hpp"

namespace spmvlab {

nlohmann::json BenchRecord::to_json() const
{
    auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); };
    nlohmann::json j = {{"matrix", matrix},
            {"rows", rows},
            {"cols", cols},
            {"nnz", nnz},
            {"format", format},
            {"precision", precision_name(precision)},
            {"device", device},
            {"repetitions", repetitions},
            {"median_ms", num(median_ms)},
            {"min_ms", num(min_ms)},
            {"max_ms", num(max_ms)},
            {"gflops", num(gflops)},
            {"min_bytes", num(min_bytes)},
            {"effective_gbs", num(effective_gbs)},
            {"fraction_of_copy_bandwidth", num(fraction_of_copy)},
            {"format_bytes", num(format_bytes)},
            {"xgpu_ms", num(xgpu_ms)},
            {"permutation_ms", num(permutation_ms)},
            {"cache_policy", cache_policy},
            {"error", error}};
    if (!basis.empty()) {
        j["basis"] = basis;
    }
    if (!timing.empty()) {
        j["timing"] = timing;
    }
    if (!auto_choice.is_null()) {
        j["auto_choice"] = auto_choice;
    }
    if (!matrix_loads.is_null()) {
        j["matrix_loads"] = matrix_loads;
    }
    if (!block_order.is_null()) {
        j["block_order"] = block_order;
    }
    return j;
}

namespace {

struct BenchOptions {
    std::vector<std::string> inputs;
    bool gpu = false;
    std::string precision = "dp";
    std::string formats;
    std::string json_out;
    std::string csv_out;
    bool json = false;
    bool warm = false;
    std::string basis = "original";  ///< GPU: original, permuted or both (see --basis)
    bool min_time_given = false;
    int gpu_min_reps = 0;
    double max_format_mib = 0;
    double min_time_ms = 200;
    int min_reps = 5;
    std::string warp_timeline;  ///< GPU: trace one product's warps into this file, no timing
    ParamOptions params;
};

template <typename V>
BenchRecord bench_host(const spmv::FormatInfo& info, const std::string& matrix,
                       const spmv::Csr<double, std::int32_t>& a, const spmv::FormatParams& params,
                       const BenchOptions& o)
{
    BenchRecord r;
    r.matrix = matrix;
    r.rows = a.num_rows;
    r.cols = a.num_cols;
    r.nnz = spmv::nnz(a);
    r.format = info.name;
    r.precision = sizeof(V) == 8 ? "dp" : "sp";
    r.device = spmv::host_device_name();
    r.min_bytes = r.effective_gbs = r.fraction_of_copy = r.xgpu_ms = r.permutation_ms = NAN;
    // the format, a converted copy of the CSR (single precision) and the vectors x and y
    const auto extra = static_cast<std::uint64_t>(sizeof(V) == 8 ? 0 : spmv::nnz(a) * 8 + 4 * (a.num_rows + 1)) +
                       sizeof(V) * static_cast<std::uint64_t>(a.num_rows + a.num_cols);
    if (auto why = over_budget(info.name, a, params, memory_budget(), extra); !why.empty()) {
        r.error = std::move(why);
        r.median_ms = r.min_ms = r.max_ms = r.gflops = NAN;
        return r;
    }
    try {
        const auto m = spmv::build(info.name, spmv::convert_values<V>(a), params);
        r.format_bytes = static_cast<double>(spmv::footprint(m).total_bytes());
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> d(-1, 1);
        std::vector<V> x(static_cast<std::size_t>(a.num_cols));
        std::vector<V> y(static_cast<std::size_t>(a.num_rows));
        for (auto& e : x) e = static_cast<V>(d(rng));
        for (auto& e : y) e = static_cast<V>(d(rng));
        std::vector<double> times;
        double total = 0;
        using clock = std::chrono::steady_clock;
        spmv::spmv_reference(m, V(1), std::span<const V>(x), V(0.5), std::span<V>(y));  // warm-up
        while (static_cast<int>(times.size()) < o.min_reps || total < o.min_time_ms) {
            const auto t0 = clock::now();
            spmv::spmv_reference(m, V(1), std::span<const V>(x), V(0.5), std::span<V>(y));
            const double ms = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
            times.push_back(ms);
            total += ms;
            if (times.size() >= 10000) break;
        }
        std::sort(times.begin(), times.end());
        r.repetitions = static_cast<int>(times.size());
        r.median_ms = times[times.size() / 2];
        r.min_ms = times.front();
        r.max_ms = times.back();
        r.gflops = r.median_ms > 0 ? 2.0 * static_cast<double>(r.nnz) / (r.median_ms * 1e6) : NAN;
    } catch (const spmv::Error& e) {
        r.error = user_message(e.what());
        r.median_ms = r.min_ms = r.max_ms = r.gflops = NAN;
    } catch (const std::bad_alloc&) {
        // one format too large for this machine must not lose the other formats' results
        r.error = "out of host memory building or running " + std::string(info.name) + " for " +
                  matrix;
        r.median_ms = r.min_ms = r.max_ms = r.gflops = NAN;
    }
    return r;
}

/// --formats auto, one matrix: per precision the advisor's first choice for a GPU
/// (auto_format.hpp) with the user's parameters as given, timed with the parameters it resolved: with --gpu its
/// kernel variant, on the CPU that variant's host format. `notes` receives what was picked
/// and why; every record carries the choice ("auto_choice").
std::vector<BenchRecord> bench_auto(const GpuContext& ctx, const std::string& name,
                                    const spmv::Csr<double, std::int32_t>& a,
                                    const spmv::FormatParams& params, const BenchOptions& o,
                                    bool sp, bool dp, std::vector<std::string>& notes)
{
    // the advisor leaves out layouts above --max-format-mib, else above the memory limit
    const double limit = o.max_format_mib > 0 ? o.max_format_mib * (1 << 20)
                                              : static_cast<double>(memory_budget().bytes);
    std::vector<BenchRecord> out;
    for (const std::string prec : {"dp", "sp"}) {
        if ((prec == "dp" && !dp) || (prec == "sp" && !sp)) {
            continue;
        }
        AutoChoice c;
        try {
            c = choose_format(a, prec, params, "auto", 0, limit, false);
        } catch (const spmv::Error& e) {  // e.g. no layout fits: this matrix's row says so
            BenchRecord r;
            r.matrix = name;
            r.rows = a.num_rows;
            r.cols = a.num_cols;
            r.nnz = spmv::nnz(a);
            r.format = "auto";
            r.precision = prec;
            r.device = o.gpu ? ctx.device : spmv::host_device_name();
            r.median_ms = r.min_ms = r.max_ms = r.gflops = r.min_bytes = r.effective_gbs =
                r.fraction_of_copy = r.format_bytes = r.xgpu_ms = r.permutation_ms = NAN;
            r.error = "format auto: no choice: " + user_message(e.what());
            notes.push_back(r.error + " (" + prec + ")");
            out.push_back(std::move(r));
            continue;
        }
        auto choice = auto_choice_json(c, prec);
        if (!o.gpu) {
            choice["note"] = c.note + ". Timed on the CPU (no --gpu): its host format " +
                             c.format + "; the choice is made for a GPU, not for this CPU";
        }
        choice["timed"] = o.gpu ? c.variant : c.format;
        notes.push_back(choice["note"].get<std::string>());
        std::vector<BenchRecord> recs;
        if (o.gpu) {
            GpuBenchOptions g;
            g.formats = c.variant;
            g.single = prec == "sp";
            g.dp = prec == "dp";
            g.warm = o.warm;
            if (o.min_time_given) g.min_time_ms = o.min_time_ms;
            g.min_reps = o.gpu_min_reps;
            g.max_format_bytes = o.max_format_mib * (1 << 20);
            recs = bench_on_gpu(ctx, name, a, c.params, g);
        } else {
            const auto& info = spmv::find_format(c.format);
            recs.push_back(prec == "dp" ? bench_host<double>(info, name, a, c.params, o)
                                        : bench_host<float>(info, name, a, c.params, o));
        }
        for (auto& r : recs) {
            r.auto_choice = choice;
            out.push_back(std::move(r));
        }
    }
    return out;
}

/// The records so far. `final`: the run is over, the outputs go to the names given and the
/// progress files are removed; otherwise (after every matrix) they go to FILE.partial, so a run
/// that is stopped or killed half-way never replaces an earlier complete FILE with less.
void write_outputs(const BenchOptions& o, const std::vector<BenchRecord>& all,
                   const nlohmann::json& meta, bool final)
{
    const auto target = [final](const std::string& name) {
        return final ? name : name + ".partial";
    };
    const auto drop_partial = [final](const std::string& name) {
        if (final) {
            std::error_code ec;
            std::filesystem::remove(name + ".partial", ec);
        }
    };
    // "-" is the standard output: written once, at the end, never as progress
    if (!o.json_out.empty() && (final || o.json_out != "-")) {
        nlohmann::json j = meta;
        j["results"] = nlohmann::json::array();
        for (const auto& r : all) j["results"].push_back(r.to_json());
        write_file(target(o.json_out), j.dump(2) + "\n");  // atomic: never a half file
        drop_partial(o.json_out);
    }
    if (!o.csv_out.empty() && (final || o.csv_out != "-")) {
        // RFC 4180: the header row first; the meta block and the run's settings go to the
        // sidecar FILE.meta.json (docs/output-schema.md), not into the CSV; the CSV is written
        // first, so an unwritable path leaves no sidecar behind
        std::ostringstream f;
        // RFC 4180: a field holding a comma, quote or line break is quoted, quotes doubled
        // (generator specs such as gen:blocks5:block-rows=100000,blocks=8 hold commas)
        auto field = [](const std::string& v) {
            if (v.find_first_of(",\"\n\r") == std::string::npos) return v;
            std::string q = "\"";
            for (const char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
            return q + "\"";
        };
        f << "matrix,rows,cols,nnz,format,precision,device,repetitions,median_ms,min_ms,max_ms,"
             "gflops,min_bytes,effective_gbs,fraction_of_copy_bandwidth,format_bytes,xgpu_ms,"
             "permutation_ms,error,basis\r\n";
        for (const auto& r : all) {
            // the shortest text that reads back as the same number, as the JSON has it: whole
            // numbers (format_bytes 95824) as integers, short times with all their digits
            auto n = [](double v) {
                if (!std::isfinite(v)) return std::string();
                char buf[32];
                return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
            };
            f << field(r.matrix) << ',' << r.rows << ',' << r.cols << ',' << r.nnz << ','
              << field(r.format) << ',' << precision_name(r.precision) << ',' << field(r.device) << ','
              << r.repetitions << ',' << n(r.median_ms) << ',' << n(r.min_ms) << ','
              << n(r.max_ms) << ',' << n(r.gflops) << ',' << n(r.min_bytes) << ','
              << n(r.effective_gbs) << ',' << n(r.fraction_of_copy) << ',' << n(r.format_bytes)
              << ',' << n(r.xgpu_ms) << ',' << n(r.permutation_ms) << ',' << field(r.error) << ','
              << r.basis << "\r\n";
        }
        write_file(target(o.csv_out), f.str());
        if (o.csv_out != "-") {  // the standard output has no place beside it for a sidecar
            write_file(target(o.csv_out) + ".meta.json", meta.dump(2) + "\n");
        }
        drop_partial(o.csv_out);
        if (final) {
            std::error_code ec;
            std::filesystem::remove(o.csv_out + ".partial.meta.json", ec);
        }
    }
}

/// --warp-timeline FILE: one traced product per variant (after warm-up) on one matrix, written
/// as a warp timeline (schemas/warp-timeline.schema.json); a summary per variant on stdout.
void run_warp_timeline(const BenchOptions& o)
{
    if (!o.gpu) {
        SPMV_THROW(spmv::InvalidArgument,
                   "--warp-timeline records the GPU's own warps: add --gpu");
    }
    if (o.precision == "both") {
        SPMV_THROW(spmv::InvalidArgument,
                   "--warp-timeline traces one precision: --precision sp or dp");
    }
    if (o.formats == "auto") {
        SPMV_THROW(spmv::InvalidArgument,
                   "--warp-timeline: name the variants (e.g. --formats ellr,pjds), not auto");
    }
    const auto files = collect_inputs(o.inputs);
    if (files.size() != 1) {
        SPMV_THROW(spmv::InvalidArgument,
                   "--warp-timeline traces one matrix; got " + std::to_string(files.size()) +
                       " inputs");
    }
    const std::filesystem::path out(o.warp_timeline);
    std::error_code ec;
    const auto parent = out.has_parent_path() ? out.parent_path() : std::filesystem::path(".");
    if (std::filesystem::is_directory(out, ec) || !std::filesystem::is_directory(parent, ec)) {
        SPMV_THROW(spmv::InvalidArgument, "cannot write " + o.warp_timeline +
                                              ": it is a directory or its directory is missing");
    }
    const auto ctx = gpu_context();  // the clear error without CUDA or a GPU comes from here
    const auto params = apply_format_params(o.params);
    const auto name = input_name(files[0]);
    const auto a = load_matrix(files[0]);
    std::vector<std::string> notes;
    auto t = trace_warp_timeline(ctx, name, a, params, o.formats, o.precision != "sp", 5, notes);
    auto meta = make_meta("bench", input_strings(files));
    add_gpu_meta(meta);
    t.date = meta["date"].get<std::string>();
    t.commit = meta["commit"].is_string() ? meta["commit"].get<std::string>() : git_commit();
    const nlohmann::json run_params = {{"block_rows", params.block_rows},
                                       {"slice_height", params.slice_height},
                                       {"sort_window", params.sort_window},
                                       {"warp_size", params.warp_size}};
    // the file: meta, the parameters and the notes, then the timeline as to_json writes it
    // (one warp a line)
    const std::string body = spmv::analysis::to_json(t);
    const std::string text = "{\n  \"meta\": " + meta.dump() + ",\n  \"params\": " +
                             run_params.dump() + ",\n  \"notes\": " +
                             nlohmann::json(notes).dump() + "," + body.substr(1);
    // what is written must read back (the explorer's reader is the validator)
    spmv::analysis::read_warp_timeline(text, o.warp_timeline);
    write_file(o.warp_timeline, text);
    std::printf("# %s, %s\n# device: %s\n# %s: %d x %d, %lld entries, %s\n",
                version_string().c_str(), t.date.c_str(), t.device.c_str(),
                name.c_str(), a.num_rows, a.num_cols, static_cast<long long>(spmv::nnz(a)),
                t.precision.c_str());
    for (const auto& n : notes) std::printf("# %s\n", n.c_str());
    for (const auto& v : t.variants) {
        const auto pairing = spmv::analysis::best_pairing(v);
        for (const auto& l : v.launches) {
            if (l.warps.empty()) continue;
            const auto s = spmv::analysis::summarize(l);
            const auto& w = l.warps[s.longest];
            std::printf("%s launch %d %s: %zu of %lld warps on %d SMs, span %.1f us; longest warp "
                        "%.1f us (block %d warp %d, SM %d%s) = %.1f x the median %.2f us\n",
                        v.variant.c_str(), l.index, l.kernel.c_str(), s.warps,
                        static_cast<long long>(l.expected_warps), s.sms_used, s.span_ns / 1e3,
                        s.max_duration_ns / 1e3, w.block, w.warp, w.sm,
                        w.has_rows() ? (", rows " + std::to_string(w.row_begin) + ".." +
                                        std::to_string(w.row_end - 1))
                                           .c_str()
                                     : "",
                        s.longest_over_median, s.median_duration_ns / 1e3);
        }
        if (pairing) {
            std::printf("%s: model paired with %zu warps of launch %zu (%zu with the same rows); "
                        "duration vs N_iter of the warp: r = %.3f\n",
                        v.variant.c_str(), pairing->paired, pairing->launch, pairing->exact,
                        pairing->correlation);
        }
        if (v.launches.empty()) {
            std::printf("%s: no instrumented launch was recorded\n", v.variant.c_str());
        }
    }
    std::printf("wrote %s\n", o.warp_timeline.c_str());
}

void run(BenchOptions& o)
{
    if (!o.warp_timeline.empty()) {
        run_warp_timeline(o);
        return;
    }
    if (o.precision != "sp" && o.precision != "dp" && o.precision != "both") {
        SPMV_THROW(spmv::InvalidArgument, "--precision must be sp, dp or both");
    }
    const bool auto_formats = o.formats == "auto";
    if (!auto_formats) {
        std::stringstream names(o.formats);
        for (std::string n; std::getline(names, n, ',');) {
            if (n == "auto") {
                SPMV_THROW(spmv::InvalidArgument,
                           "--formats " + o.formats + ": auto picks one format per matrix and "
                           "precision by itself; give it alone (--formats auto) or name formats");
            }
        }
    }
    if (!o.gpu && o.basis != "original") {
        SPMV_THROW(spmv::InvalidArgument,
                   "--basis " + o.basis + " times GPU kernels in the permuted basis: add --gpu");
    }
    const auto params = apply_format_params(o.params);
    const auto files = collect_inputs(o.inputs);
    const bool sp = o.precision != "dp";
    const bool dp = o.precision != "sp";
    GpuContext ctx;
    std::vector<std::string> names;
    for (const auto& f : files) names.push_back(input_name(f));
    // the record's head: meta (schema, tool, host, inputs...) and the run's settings
    nlohmann::json meta = {{"meta", make_meta("bench", input_strings(files))},
                           {"complete", false},
                           {"matrices", names},
                           {"matrices_done", 0},
                           {"matrices_total", files.size()},
                           {"precision", precision_name(o.precision)},
                           {"sigma", params.sort_window > 0 ? std::to_string(params.sort_window)
                                                             : std::string("auto")},
                           {"slice_height", params.slice_height},
                           {"block_rows", params.block_rows}};
    if (auto_formats) {
        meta["formats"] = "auto";  // each record's auto_choice says what was picked and why
    }
    if (o.gpu) {
        ctx = gpu_context();
        add_gpu_meta(meta["meta"]);
        meta["device"] = ctx.device;
        meta["copy_bandwidth_gbs"] = ctx.copy_bandwidth_gbs;
        meta["launch_rules"] = launch_rules_json(ctx);
        meta["cache_policy"] = o.warm ? "warm" : "flush_l2";
        meta["basis"] = o.basis;
    } else {
        meta["device"] = spmv::host_device_name();
    }
    if (!o.json) {
        // version_string() names the commit: "spmvlab 0.1.0 (commit 1a2b3c4d5e6f), DATE"
        std::printf("# %s, %s\n# device: %s\n", version_string().c_str(),
                    meta["meta"]["date"].get<std::string>().c_str(),
                    meta["device"].get<std::string>().c_str());
        if (o.gpu) {
            std::printf("# measured copy bandwidth %.0f GB/s; %s\n", ctx.copy_bandwidth_gbs,
                        o.warm ? "L2 warm (back-to-back repetitions)"
                               : "L2 flushed before every timed repetition (cold)");
            std::printf("%s", launch_rules_text(ctx).c_str());
        }
    }
    for (const auto& out : {o.json_out, o.csv_out}) {
        // an output that can never be written is refused before minutes of timing, and
        // before anything (a progress file, a sidecar) is written beside it
        if (out.empty()) continue;
        const std::filesystem::path p(out);
        std::error_code ec;
        if (std::filesystem::is_directory(p, ec)) {
            SPMV_THROW(spmv::InvalidArgument, "cannot write " + out + ": it is a directory");
        }
        const auto parent = p.has_parent_path() ? p.parent_path() : std::filesystem::path(".");
        if (!std::filesystem::is_directory(parent, ec)) {
            SPMV_THROW(spmv::InvalidArgument,
                       "cannot write " + out + ": no directory " + parent.string());
        }
    }
    for (const auto& out : {o.json_out, o.csv_out}) {  // an earlier run's progress files
        if (!out.empty()) {
            std::error_code ec;
            std::filesystem::remove(out + ".partial", ec);
            if (&out == &o.csv_out) std::filesystem::remove(out + ".partial.meta.json", ec);
        }
    }
    std::vector<BenchRecord> all;
    int unreadable = 0;
    std::size_t done = 0;  // matrices whose records are in `all`
    meta["matrices_unreadable"] = nlohmann::json::array();
    meta["failed"] = nlohmann::json::array();  // the unreadable inputs with their reasons
    for (std::size_t f = 0; f < files.size(); ++f) {
        const auto name = input_name(files[f]);
        progress(f, files.size(), name);
        const auto loaded =
            files.size() > 1 ? load_or_record(files[f], meta["failed"]) : load_matrix(files[f]);
        if (!loaded) {
            ++unreadable;
            meta["matrices_unreadable"].push_back(name);
            continue;
        }
        const auto& a = *loaded;
        std::vector<BenchRecord> recs;
        std::vector<std::string> notes;
        if (auto_formats) {
            recs = bench_auto(ctx, name, a, advisor_params(o.params), o, sp, dp, notes);
        } else if (o.gpu) {
            GpuBenchOptions g;
            g.formats = o.formats;
            g.single = sp;
            g.dp = dp;
            g.warm = o.warm;
            if (o.min_time_given) g.min_time_ms = o.min_time_ms;
            g.min_reps = o.gpu_min_reps;
            g.max_format_bytes = o.max_format_mib * (1 << 20);
            if (o.basis != "permuted") {
                recs = bench_on_gpu(ctx, name, a, params, g);
            }
            if (o.basis != "original") {  // the permuted formats again, y left sorted
                g.permuted_basis = true;
                auto more = bench_on_gpu(ctx, name, a, params, g);
                recs.insert(recs.end(), more.begin(), more.end());
            }
        } else {
            for (const auto* info : select_formats(o.formats)) {
                if (dp) recs.push_back(bench_host<double>(*info, name, a, params, o));
                if (sp) recs.push_back(bench_host<float>(*info, name, a, params, o));
            }
        }
        progress_done();
        if (o.json) {  // standard output is the JSON; what was picked goes to stderr
            for (const auto& n : notes) {
                std::fprintf(stderr, "%s: %s\n", name.c_str(), n.c_str());
            }
        } else {
            Table t(o.gpu ? std::vector<std::string>{"format", "prec", "median ms", "min..max ms",
                                                     "GFLOP/s", "GB/s", "% copy BW", "format bytes",
                                                     "xGPU ms", "perm ms", "loads", "order"}
                          : std::vector<std::string>{"format", "prec", "median ms", "min..max ms",
                                                     "GFLOP/s", "format bytes"});
            for (const auto& r : recs) {
                if (!r.error.empty()) {
                    t.add({r.format, r.precision, "error: " + r.error});
                    continue;
                }
                std::vector<std::string> row{r.basis == "permuted" ? r.format + " (permuted basis)" : r.format,
                                             r.precision, fmt(r.median_ms, 4),
                                             fmt(r.min_ms, 4) + ".." + fmt(r.max_ms, 4),
                                             fmt(r.gflops, 2)};
                if (o.gpu) {
                    row.push_back(fmt(r.effective_gbs, 0));
                    row.push_back(fmt(100 * r.fraction_of_copy, 1));
                }
                row.push_back(fmt_bytes(r.format_bytes));
                if (o.gpu) {
                    row.push_back(fmt(r.xgpu_ms, 4));
                    row.push_back(fmt(r.permutation_ms, 4));
                    row.push_back(matrix_loads_cell(r.matrix_loads));
                    row.push_back(block_order_cell(r.block_order));
                }
                t.add(row);
            }
            std::printf("\n%s: %d x %d, %lld entries\n", name.c_str(), a.num_rows, a.num_cols,
                        static_cast<long long>(spmv::nnz(a)));
            for (const auto& n : notes) {
                std::printf("# %s\n", n.c_str());
            }
            std::printf("%s", t.str().c_str());
        }
        all.insert(all.end(), recs.begin(), recs.end());
        // after every matrix: a run stopped half-way (time limit) still leaves its results,
        // in FILE.partial
        ++done;
        meta["complete"] = false;
        meta["matrices_done"] = done;
        meta["matrices_total"] = files.size();
        write_outputs(o, all, meta, false);
    }
    // complete: every input was read and timed (an unreadable one is named, not counted)
    meta["complete"] = done == files.size();
    meta["matrices_done"] = done;
    write_outputs(o, all, meta, true);
    if (o.json) {
        nlohmann::json j = meta;
        j["results"] = nlohmann::json::array();
        for (const auto& r : all) j["results"].push_back(r.to_json());
        std::printf("%s\n", j.dump(2).c_str());
    }
    if (unreadable > 0) {
        std::fprintf(stderr, "spmvlab bench: %d file(s) could not be read (see above)\n", unreadable);
        throw ExitCode{exit_status::error};
    }
}

}  // namespace

void add_bench_command(CLI::App& app)
{
    auto o = std::make_shared<BenchOptions>();
    auto* cmd = app.add_subcommand(
        "bench", "time every format: CPU reference SpMV by default, GPU kernels and cuSPARSE "
                 "with --gpu (median of repeated runs, GFLOP/s = 2 nnz / t)");
    cmd->add_option("inputs", o->inputs,
                    ".mtx files (also .mtx.gz/.bz2/.xz, SuiteSparse .tar.gz, - for the standard "
                    "input), directories (searched recursively), or generator specs such as "
                    "gen:pde:size=100 (see spmvlab generate --help)")
        ->required();
    cmd->add_flag("--gpu", o->gpu, "time the CUDA kernels and cuSPARSE baselines");
    cmd->add_option("--precision", o->precision, "sp, dp or both")->default_val("dp");
    cmd->add_option("--formats", o->formats,
                    "comma-separated names (default: all), or auto: per matrix and precision "
                    "only the format advisor's first choice, with the "
                    "parameters it resolved -- with --gpu that kernel variant, on the CPU its "
                    "host format (the choice is made for a GPU); what was picked and why is "
                    "printed before the table and recorded as auto_choice");
    output_option(cmd->add_option("--json-out", o->json_out,
                                  "write all results as JSON to this file (- : the standard output)"));
    output_option(cmd->add_option("--csv-out", o->csv_out,
                                  "write all results as CSV to this file (- : the standard output)"));
    cmd->add_flag("--json", o->json, "print JSON instead of tables");
    cmd->add_flag("--warm", o->warm, "GPU: keep L2 warm between repetitions (default: flush L2)");
    cmd->add_option("--basis", o->basis,
                    "GPU: original (default: permuted formats scatter y back to the matrix's row "
                    "order inside the timed product), permuted (the formats that sort rows leave "
                    "y sorted, as a solver in the permuted basis would: Kreutzer's timing), or both")
        ->check(CLI::IsMember({"original", "permuted", "both"}));
    cmd->add_option("--min-time", o->min_time_ms,
                    "minimum timed milliseconds per format (default: 200 on the CPU, the GPU "
                    "harness's 100)")
        ->default_val(o->min_time_ms)
        ->each([o](const std::string&) { o->min_time_given = true; });
    cmd->add_option("--min-reps", o->gpu_min_reps, "GPU: minimum timed repetitions (default 50)");
    cmd->add_option("--max-format-mib", o->max_format_mib,
                    "GPU: do not build a format whose footprint (estimated from the row lengths, "
                    "in double) exceeds this many MiB; its row says so (default: the memory "
                    "limit, --max-memory)")
        ->check(non_negative_number());
    output_option(cmd->add_option("--warp-timeline", o->warp_timeline,
                    "GPU: instead of timing, run each variant of --formats (default: all of SpMV "
                    "Lab's; the cuSPARSE baselines cannot be instrumented) 5 times, then once "
                    "traced, recording every warp of every launch (SM, block, warp, start and "
                    "end in ns, SM cycles, the stored rows it computed), and write them with the "
                    "model's per-warp work (N_iter, idle lanes, padding) for the same format as "
                    "one JSON file (schemas/warp-timeline.schema.json) that spmvlab-gui "
                    "--warp-timeline FILE draws; one matrix, one precision")
        ->type_name("FILE"));
    add_format_param_options(cmd, o->params);
    cmd->callback([o] { run(*o); });
}

}  // namespace spmvlab
