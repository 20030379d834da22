// spmvlab report BENCH.json: turns `spmvlab bench [--gpu] --json-out` results into the Markdown
// tables of docs/benchmarks/. GPU records get the comparisons the project promises (issue 3's
// bars): fastest own kernel vs fastest cuSPARSE baseline, speedup over cuSPARSE CSR_ALG1,
// fraction of the copy bandwidth on matrices larger than 2x L2, and pJDS against ELLPACK-R.
// CPU records (no copy bandwidth, no cuSPARSE) get the fastest format per matrix against CSR.
// Records of every schema version are read (read_bench_json upgrades them); a field a record
// lacks is left out or shown as "-", never read as 0; an incomplete record says what is missing.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include <spmv/error.hpp>
#include <spmv/host_device.hpp>

#include "commands.hpp"
#include "common.hpp"
#include "meta.hpp"
#include "plot/rules.hpp"

namespace spmvlab {
namespace {

struct ReportOptions {
    std::vector<std::string> files;
    double large_bytes = 100e6;  // 2 x the H100's 50 MB L2
};

double median(std::vector<double> v)
{
    if (v.empty()) return NAN;
    std::sort(v.begin(), v.end());
    const auto n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// A number of the record, NaN when it is missing, null or not a number.
double num(const nlohmann::json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<double>() : NAN;
}

/// A string of the record, `otherwise` when it is missing or not a string.
std::string str(const nlohmann::json& j, const char* key, const std::string& otherwise = "")
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : otherwise;
}

std::string num_or_dash(double v, int digits)
{
    return std::isfinite(v) ? fmt(v, digits) : std::string("-");
}

std::string join(const std::vector<std::string>& v, const std::string& none = "none")
{
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s.empty() ? none : s;
}

/// A timed row: no error and a finite GF/s.
bool timed(const nlohmann::json& r)
{
    return str(r, "error").empty() && std::isfinite(num(r, "gflops"));
}

/// Whether row a is faster than row b by the rule `spmvlab plot` uses too (plot/rules.hpp:
/// the shorter median time; equal times, the format name that sorts first). A row without
/// median_ms has its time from its GF/s (2 nnz / GF/s).
bool faster_row(const nlohmann::json& a, const nlohmann::json& b)
{
    auto ms = [](const nlohmann::json& r) {
        const double t = num(r, "median_ms");
        return std::isfinite(t) ? t : 2 * num(r, "nnz") / (num(r, "gflops") * 1e6);
    };
    return plot::faster(ms(a), str(a, "format"), ms(b), str(b, "format"));
}

std::string matrices(std::int64_t n) { return plot::counted(n, "matrix", "matrices"); }

/// GPU record: measured copy bandwidth > 0, or GPU rows (cuSPARSE baselines, a GPU device).
bool is_gpu_record(const nlohmann::json& j)
{
    if (num(j, "copy_bandwidth_gbs") > 0) return true;
    for (const auto& r : j["results"]) {
        if (str(r, "format").rfind("cusparse_", 0) == 0) return true;
    }
    return false;
}

using ByMatrix =
    std::map<std::string, std::map<std::string, std::map<std::string, nlohmann::json>>>;

/// "complete": false (a run stopped after some matrices), with the matrices and variants missing
/// where the record lets us tell; nothing for a complete record.
void print_completeness(const nlohmann::json& j, const std::vector<std::string>& order,
                        const ByMatrix& by)
{
    const auto c = j.find("complete");
    if (c == j.end() || !c->is_boolean()) {
        std::printf("- completeness not recorded (a record written before bench recorded it)\n");
        return;
    }
    std::vector<std::string> missing_variants;  // "matrix (precision): a, b"
    std::set<std::string> all_variants;
    std::set<std::string> precisions;
    for (const auto& [m, per] : by) {
        for (const auto& [p, vs] : per) {
            precisions.insert(p);
            for (const auto& [v, r] : vs) all_variants.insert(v);
        }
    }
    for (const auto& m : order) {
        for (const auto& p : precisions) {
            std::vector<std::string> miss;
            const auto pm = by.at(m).find(p);
            for (const auto& v : all_variants) {
                if (pm == by.at(m).end() || !pm->second.count(v)) miss.push_back(v);
            }
            if (!miss.empty()) missing_variants.push_back(m + " (" + p + "): " + join(miss));
        }
    }
    if (c->get<bool>()) {
        if (!missing_variants.empty()) {
            std::printf("- complete run, but not every variant has a row: %s\n",
                        join(missing_variants).c_str());
        }
        return;
    }
    const double done = num(j, "matrices_done");
    const double total = num(j, "matrices_total");
    std::printf("- **INCOMPLETE record** (`complete: false`: the run stopped before its end)");
    if (std::isfinite(done) && std::isfinite(total)) {
        std::printf(": %.0f of %s done", done, matrices(std::llround(total)).c_str());
    }
    std::printf("\n");
    if (j.contains("matrices") && j["matrices"].is_array()) {
        std::vector<std::string> missing;
        for (const auto& m : j["matrices"]) {
            if (m.is_string() && !by.count(m.get<std::string>())) missing.push_back(m);
        }
        std::printf("  - matrices missing: %s\n", join(missing).c_str());
    } else {
        std::printf(
            "  - which matrices are missing is not recorded (a record written before "
            "schema spmvlab/1 lists only how many)\n");
    }
    if (!missing_variants.empty()) {
        std::printf("  - variants missing on the matrices present: %s\n",
                    join(missing_variants).c_str());
    }
}

void print_errors(const nlohmann::json& j)
{
    std::vector<std::string> errors;
    for (const auto& r : j["results"]) {
        const auto e = str(r, "error");
        if (!e.empty()) {
            errors.push_back(str(r, "format", "?") + " on " + str(r, "matrix", "?") + " (" +
                             str(r, "precision", "?") + "): " + e);
        }
    }
    if (errors.empty()) return;
    std::printf("- %zu row(s) not timed:\n", errors.size());
    const std::size_t shown = std::min<std::size_t>(errors.size(), 10);
    for (std::size_t k = 0; k < shown; ++k) std::printf("  - %s\n", errors[k].c_str());
    if (shown < errors.size()) std::printf("  - ... and %zu more\n", errors.size() - shown);
}

void gpu_tables(const std::vector<std::string>& order, ByMatrix& by, const ReportOptions& o)
{
    for (const char* prec : {"double", "single"}) {
        bool any = false;
        for (const auto& m : order) any = any || by[m].count(prec);
        if (!any) continue;
        std::printf("### %s precision\n\n", std::string(prec) == "double" ? "Double" : "Single");
        std::printf(
            "| matrix | N | nnz | best own | GF/s | %% BW | best cuSPARSE | GF/s | own / "
            "cuSPARSE | own / CSR_ALG1 | pJDS / ELLR |\n");
        std::printf("|---|---:|---:|---|---:|---:|---|---:|---:|---:|---:|\n");
        std::vector<double> speedups_alg1;
        int wins = 0, compared = 0, large = 0, large_ok = 0, pj = 0, pj_ok = 0;
        std::vector<std::string> losses, large_misses, pj_misses;
        for (const auto& m : order) {
            if (!by[m].count(prec)) continue;
            const auto& vs = by[m][prec];
            const nlohmann::json* own = nullptr;
            const nlohmann::json* base = nullptr;
            for (const auto& [name, r] : vs) {
                if (!timed(r) || name.find("@permuted") != std::string::npos) continue;
                const bool is_base = name.rfind("cusparse_", 0) == 0;
                auto& best = is_base ? base : own;
                if (!best || faster_row(r, *best)) best = &r;
            }
            auto g = [](const nlohmann::json* r) { return r ? num(*r, "gflops") : NAN; };
            auto gf_of = [&](const std::string& key) {
                const auto it = vs.find(key);
                return it != vs.end() && timed(it->second) ? num(it->second, "gflops") : NAN;
            };
            const double alg1 = gf_of("cusparse_csr_alg1");
            // Kreutzer compares pJDS in its permuted basis (no scatter) when that was timed
            const double pj_gf =
                std::isfinite(gf_of("pjds@permuted")) ? gf_of("pjds@permuted") : gf_of("pjds");
            const double pj_ratio = pj_gf / gf_of("ellr");
            if (std::isfinite(pj_ratio)) {
                ++pj;
                if (pj_ratio >= 0.95)
                    ++pj_ok;
                else
                    pj_misses.push_back(m);
            }
            const double bw = own ? num(*own, "fraction_of_copy_bandwidth") : NAN;
            if (own && base) {
                ++compared;
                if (g(own) >= g(base))
                    ++wins;
                else
                    losses.push_back(m);
            }
            if (own && std::isfinite(alg1)) speedups_alg1.push_back(g(own) / alg1);
            if (own && num(*own, "min_bytes") >= o.large_bytes) {
                ++large;
                if (bw >= 0.9)
                    ++large_ok;
                else
                    large_misses.push_back(m);
            }
            const auto& first = vs.begin()->second;
            std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", m.c_str(),
                        num_or_dash(num(first, "rows"), 0).c_str(),
                        num_or_dash(num(first, "nnz"), 0).c_str(),
                        own ? str(*own, "format", "?").c_str() : "-",
                        num_or_dash(g(own), 1).c_str(), num_or_dash(100 * bw, 0).c_str(),
                        base ? str(*base, "format", "?").c_str() : "-",
                        num_or_dash(g(base), 1).c_str(), num_or_dash(g(own) / g(base), 2).c_str(),
                        num_or_dash(g(own) / alg1, 2).c_str(), num_or_dash(pj_ratio, 2).c_str());
        }
        std::printf(
            "\n- fastest own kernel >= fastest cuSPARSE baseline on %d of %s (not on: %s)\n",
            wins, matrices(compared).c_str(), join(losses).c_str());
        if (speedups_alg1.empty()) {
            std::printf("- speedup over cuSPARSE CSR_ALG1: no matrix has a CSR_ALG1 time\n");
        } else {
            std::printf(
                "- median speedup of the fastest own kernel over cuSPARSE CSR_ALG1: %.2fx "
                "over %s\n",
                median(speedups_alg1),
                matrices(static_cast<std::int64_t>(speedups_alg1.size())).c_str());
        }
        std::printf(
            "- matrices with minimum bytes >= %.0f MB: fastest own kernel at >= 90 %% of "
            "the copy bandwidth on %d of %d (not on: %s)\n",
            o.large_bytes / 1e6, large_ok, large, join(large_misses).c_str());
        bool any_permuted = false;
        for (const auto& m : order) {
            any_permuted =
                any_permuted || (by[m].count(prec) && by[m][prec].count("pjds@permuted"));
        }
        std::printf(
            "- pJDS >= 95 %% of ELLPACK-R on %d of %s (not on: %s); pJDS timed %s\n\n",
            pj_ok, matrices(pj).c_str(), join(pj_misses).c_str(),
            any_permuted ? "in its permuted basis (bench --basis), y left sorted as in Kreutzer"
                         : "with y scattered back to the original row order");
    }
}

void cpu_tables(const std::vector<std::string>& order, ByMatrix& by)
{
    for (const char* prec : {"double", "single"}) {
        bool any = false;
        for (const auto& m : order) any = any || by[m].count(prec);
        if (!any) continue;
        std::printf("### %s precision\n\n", std::string(prec) == "double" ? "Double" : "Single");
        std::printf(
            "| matrix | N | nnz | fastest format | GF/s | median us | CSR GF/s | fastest / "
            "CSR | formats timed |\n");
        std::printf("|---|---:|---:|---|---:|---:|---:|---:|---:|\n");
        std::vector<double> over_csr;
        std::map<std::string, int> fastest_count;
        for (const auto& m : order) {
            if (!by[m].count(prec)) continue;
            const auto& vs = by[m][prec];
            const nlohmann::json* best = nullptr;
            int n_timed = 0;
            for (const auto& [name, r] : vs) {
                if (!timed(r)) continue;
                ++n_timed;
                if (!best || faster_row(r, *best)) best = &r;
            }
            const auto csr = vs.find("csr");
            const double csr_gf =
                csr != vs.end() && timed(csr->second) ? num(csr->second, "gflops") : NAN;
            const double best_gf = best ? num(*best, "gflops") : NAN;
            if (std::isfinite(best_gf / csr_gf)) over_csr.push_back(best_gf / csr_gf);
            if (best) ++fastest_count[str(*best, "format", "?")];
            const auto& first = vs.begin()->second;
            std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %d of %zu |\n", m.c_str(),
                        num_or_dash(num(first, "rows"), 0).c_str(),
                        num_or_dash(num(first, "nnz"), 0).c_str(),
                        best ? str(*best, "format", "?").c_str() : "-",
                        num_or_dash(best_gf, 2).c_str(),
                        num_or_dash(best ? 1e3 * num(*best, "median_ms") : NAN, 3).c_str(),
                        num_or_dash(csr_gf, 2).c_str(), num_or_dash(best_gf / csr_gf, 2).c_str(),
                        n_timed, vs.size());
        }
        std::vector<std::string> counts;
        for (const auto& [f, n] : fastest_count) counts.push_back(f + " " + std::to_string(n));
        std::printf("\n- fastest format per matrix: %s\n", join(counts).c_str());
        if (over_csr.empty()) {
            std::printf("- fastest / CSR: no matrix has a CSR time\n\n");
        } else {
            std::printf("- median fastest / CSR: %.2fx over %s\n\n", median(over_csr),
                        matrices(static_cast<std::int64_t>(over_csr.size())).c_str());
        }
    }
}

void report(const std::string& path, const ReportOptions& o)
{
    const auto j = read_bench_json(path);  // any schema version, upgraded
    const auto& meta = j["meta"];
    const bool gpu = is_gpu_record(j);
    // matrix -> precision -> variant -> record; rows without matrix, precision or format are
    // counted and skipped
    ByMatrix by;
    std::vector<std::string> order;
    int unusable = 0;
    for (const auto& r : j["results"]) {
        const auto m = str(r, "matrix");
        const auto p = str(r, "precision");
        const auto f = str(r, "format");
        if (m.empty() || p.empty() || f.empty()) {
            ++unusable;
            continue;
        }
        if (!by.count(m)) order.push_back(m);
        // bench --basis permuted|both: the sorted formats timed with y left sorted are kept
        // apart ("pjds@permuted"); "best own" compares original-basis times only
        const bool permuted = str(r, "basis") == "permuted";
        by[m][p][f + (permuted ? "@permuted" : "")] = r;
    }
    // the CPU has one name (spmv/host_device.hpp), whichever an older record wrote
    std::string device = str(j, "device", gpu ? "GPU (device not recorded)" : "");
    if ((!gpu && device.empty()) || spmv::is_host_device_name(device)) {
        device = spmv::host_device_name();
    }
    std::printf("## %s, %s\n\n", device.c_str(),
                str(j, "precision", "precision not recorded").c_str());
    std::printf("- record %s: date %s, commit `%s`, %s%s\n", path.c_str(),
                str(meta, "date", "not recorded").c_str(), str(meta, "commit", "?").c_str(),
                str(meta, "tool_version").empty()
                    ? "spmvlab"
                    : ("spmvlab " + str(meta, "tool_version")).c_str(),
                str(meta, "upgraded_from").empty() ? "" : " (read from an unversioned record)");
    if (gpu) {
        const double bw = num(j, "copy_bandwidth_gbs");
        if (bw > 0) {
            std::printf("- measured device copy bandwidth %.0f GB/s; cache policy: %s\n", bw,
                        str(j, "cache_policy", "not recorded").c_str());
        } else {
            std::printf("- no copy bandwidth in the record: %% BW left out; cache policy: %s\n",
                        str(j, "cache_policy", "not recorded").c_str());
        }
        std::printf(
            "- GF/s = 2 nnz / median kernel time; %% BW = (values + column indices + "
            "(N+1) row pointers + x + y) / time / copy bandwidth\n");
    } else {
        std::printf(
            "- CPU record (host reference SpMV, one thread; no --gpu): no copy bandwidth "
            "and no cuSPARSE baselines, so the GPU comparisons do not apply; per matrix "
            "the fastest format against CSR\n");
        std::printf("- GF/s = 2 nnz / median time\n");
    }
    std::printf("- fastest = the shortest median time; between equal times the name that sorts "
                "first (the rule of spmvlab plot, docs/plot.md)\n");
    print_completeness(j, order, by);
    print_errors(j);
    if (unusable > 0) {
        std::printf("- %d row(s) without matrix, precision or format: skipped\n", unusable);
    }
    std::printf("\n");
    if (order.empty()) {
        std::printf("No results in this record.\n\n");
        return;
    }
    if (gpu) {
        gpu_tables(order, by, o);
    } else {
        cpu_tables(order, by);
    }
}

}  // namespace

void add_report_command(CLI::App& app)
{
    auto o = std::make_shared<ReportOptions>();
    auto* cmd = app.add_subcommand(
        "report",
        "Markdown tables from `spmvlab bench [--gpu] --json-out` files: GPU: best own "
        "kernel vs cuSPARSE, speedup over CSR_ALG1, % of copy bandwidth, pJDS vs "
        "ELLPACK-R; CPU: fastest format vs CSR; says what an incomplete record lacks");
    cmd->add_option("files", o->files, "JSON files written by spmvlab bench --json-out")
        ->required();
    cmd->add_option("--large-bytes", o->large_bytes,
                    "minimum bytes from which a matrix counts as large (default 2 x 50 MB L2)");
    cmd->callback([o] {
        for (const auto& f : o->files) report(f, *o);
    });
}

}  // namespace spmvlab
