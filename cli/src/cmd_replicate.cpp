// spmvlab replicate RECORD.json... [--matrices DIR...] [--solver-records F.json...] [--out FILE]:
// the replication report docs/replication.md. Every quantitative claim of the five papers in
// shared/seeds/ about formats and kernels (and MPIR-CG) becomes one row: the claim, where the
// paper makes it, the paper's number, the number measured in `spmvlab bench --gpu --json-out`
// records (and solver records), and a verdict whose reason comes from the data. Each measurement
// is split by matrix size, because that is where most verdicts change:
//   latency-bound: min bytes < (fastest time of the smallest matrices) x (copy bandwidth), i.e.
//                  streaming the matrix takes less than the launch-and-latency floor;
//   large:         min bytes >= 2 x L2 (as `spmvlab report`), the matrices the papers target;
//   medium:        in between.
// Nothing here is specific to one GPU: run it on another GPU's records to regenerate the report.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <set>

#include <spmv/analysis/row_stats.hpp>
#include <spmv/error.hpp>
#include <spmv/model/performance.hpp>

#include "commands.hpp"
#include "common.hpp"
#include "meta.hpp"

namespace spmvlab {
namespace {

using spmv::analysis::RowLengthStats;

struct ReplicateOptions {
    std::vector<std::string> files;
    std::vector<std::string> solver_files;
    std::vector<std::string> matrix_dirs;
    std::string out;
    double l2_mb = 0.0;       // 0: from the device name
    double latency_mb = 0.0;  // 0: derived from the records
};

// ---------------------------------------------------------------- reading the records

double num(const nlohmann::json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<double>() : NAN;
}

std::string str(const nlohmann::json& j, const char* key, const std::string& otherwise = "?")
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : otherwise;
}

enum SizeClass { latency_bound = 0, medium = 1, large = 2 };
constexpr int n_classes = 3;
const char* class_name(int c)
{
    static const char* names[] = {"latency-bound", "medium", "large"};
    return names[c];
}

struct BenchFile {
    std::string path, device, commit, date;
    double copy_gbs = NAN;
    std::set<std::string> precisions, matrices;
};

struct Result {
    double median_ms = NAN, gflops = NAN, format_bytes = NAN, xgpu_ms = NAN, fraction = NAN;
    std::string error;
    bool ok() const { return error.empty() && std::isfinite(gflops) && gflops > 0.0; }
};

/// One matrix in one precision of one record file: every format timed on it.
struct Case {
    std::string matrix, precision;  // "dp" or "sp"
    const BenchFile* file = nullptr;
    double rows = 0, cols = 0, nnz = 0, min_bytes = NAN;
    std::map<std::string, Result> r;  // format, "@permuted" appended for basis = permuted
    int size = medium;
    const RowLengthStats* stats = nullptr;  // with --matrices

    const Result* get(const std::string& f) const
    {
        const auto it = r.find(f);
        return it != r.end() && it->second.ok() ? &it->second : nullptr;
    }
    double gf(const std::string& f) const { return get(f) ? get(f)->gflops : NAN; }
    double bytes(const std::string& f) const
    {
        const auto it = r.find(f);
        return it != r.end() ? it->second.format_bytes : NAN;
    }
    int value_bytes() const { return precision == "sp" ? 4 : 8; }
    /// Kreutzer times pJDS in its permuted basis when the record has it (bench --basis).
    std::string pjds_key() const { return r.count("pjds@permuted") ? "pjds@permuted" : "pjds"; }
    double fastest_own_ms() const
    {
        double t = NAN;
        for (const auto& [f, x] : r) {
            if (!x.ok() || f.rfind("cusparse_", 0) == 0 || f.find('@') != std::string::npos)
                continue;
            if (!(x.median_ms >= t)) t = x.median_ms;
        }
        return t;
    }
    /// ELLPACK slots per nonzero (longest row / mean row length), from ell's bytes.
    double ell_padding() const { return bytes("ell") / (nnz * (value_bytes() + 4)); }
};

struct DeviceClasses {
    double copy_gbs = NAN;
    double floor_ms = NAN;  // fastest own kernel, median over the smallest matrices
    int floor_matrices = 0;
    double latency_bytes = NAN;  // below: latency-bound
    double l2_bytes = NAN;
    bool l2_assumed = false;
    double pcie_gbs = NAN;  // measured from xgpu_ms - median_ms (see pcie_bandwidth)
};

/// A solve record (`spmvlab solve --json`) or a distributed one (`spmvlab dist solve`).
struct SolveRecord {
    std::string path, device, commit, date, method, matrix, variant;
    double total_ms = NAN;
    double iterations = NAN;
    int ranks = 0;  // 0: single-GPU solve record
    bool converged = false;
};

struct Context {
    std::deque<BenchFile> files;
    std::vector<Case> cases;
    std::map<std::string, RowLengthStats> stats;
    int stats_missing = 0;
    bool have_stats = false;
    std::map<std::string, DeviceClasses> devices;
    std::vector<std::string> precisions;  // present, "dp" first
    std::vector<SolveRecord> solves;
    bool solver_given = false;
    const DeviceClasses& dev(const Case& c) const { return devices.at(c.file->device); }
};

std::string upper(const std::string& p)
{
    return p == "sp" ? "SP" : p == "dp" ? "DP" : p;
}

void read_bench(Context& ctx, const std::string& path)
{
    const auto j = read_bench_json(path);
    auto& f = ctx.files.emplace_back();
    f.path = path;
    f.device = str(j, "device");
    f.commit = str(j["meta"], "commit");  // upgraded record (read_bench_json): see meta.hpp
    f.date = str(j["meta"], "date");
    f.copy_gbs = num(j, "copy_bandwidth_gbs");
    std::map<std::pair<std::string, std::string>, std::size_t> index;
    for (const auto& row : j["results"]) {
        const auto matrix = str(row, "matrix", "");
        // the schema's "double"/"single" as this file's short codes "dp"/"sp"
        const auto prec_name = str(row, "precision", "");
        const std::string prec = prec_name == "double" ? "dp" : prec_name == "single" ? "sp" : "";
        const auto format = str(row, "format", "");
        if (matrix.empty() || (prec != "sp" && prec != "dp") || format.empty()) continue;
        const auto key = std::make_pair(matrix, prec);
        if (!index.count(key)) {
            index[key] = ctx.cases.size();
            auto& c = ctx.cases.emplace_back();
            c.matrix = matrix;
            c.precision = prec;
            c.file = &f;
        }
        auto& c = ctx.cases[index[key]];
        if (std::isfinite(num(row, "rows"))) c.rows = num(row, "rows");
        if (std::isfinite(num(row, "cols"))) c.cols = num(row, "cols");
        if (std::isfinite(num(row, "nnz"))) c.nnz = num(row, "nnz");
        if (std::isfinite(num(row, "min_bytes"))) c.min_bytes = num(row, "min_bytes");
        Result r;
        r.median_ms = num(row, "median_ms");
        r.gflops = num(row, "gflops");
        r.format_bytes = num(row, "format_bytes");
        r.xgpu_ms = num(row, "xgpu_ms");
        r.fraction = num(row, "fraction_of_copy_bandwidth");
        r.error = str(row, "error", "");
        const bool permuted = str(row, "basis", "") == "permuted";
        c.r[format + (permuted ? "@permuted" : "")] = r;
        f.precisions.insert(prec);
        f.matrices.insert(matrix);
    }
    if (std::isnan(f.copy_gbs)) {
        for (const auto& row : j["results"]) {
            const double e = num(row, "effective_gbs"), fr = num(row, "fraction_of_copy_bandwidth");
            if (e > 0 && fr > 0) {
                f.copy_gbs = e / fr;
                break;
            }
        }
    }
}

/// A solver record file; in a directory (`in_dir`), files that are no solver record are skipped.
void read_solver(Context& ctx, const std::string& path, bool in_dir = false)
{
    if (!in_dir && std::filesystem::is_directory(path)) {
        std::vector<std::string> files;
        for (const auto& e : std::filesystem::directory_iterator(path)) {
            if (e.path().extension() == ".json") files.push_back(e.path().string());
        }
        std::sort(files.begin(), files.end());
        const auto before = ctx.solves.size();
        for (const auto& f : files) read_solver(ctx, f, true);
        if (ctx.solves.size() == before)
            SPMV_THROW(spmv::InvalidArgument, path + ": no solver records (*.json) in it");
        return;
    }
    auto j = read_json_file(path, "a solver record");
    if (in_dir && (!j.is_object() || !j.contains("method"))) return;
    if (!j.is_object() || !j.contains("method")) {
        SPMV_THROW(spmv::InvalidArgument,
                   path +
                       ": not a solver record (no \"method\"; write it "
                       "with spmvlab solve --json or dist solve --json-out)");
    }
    j = upgrade_record(std::move(j), j.contains("ranks") ? "dist solve" : "solve");
    SolveRecord s;
    s.path = path;
    s.device = str(j, "device", str(j, "devices"));
    s.commit = str(j["meta"], "commit");
    s.date = str(j["meta"], "date");
    s.method = str(j, "method");
    if (s.method == "mpir-cg" && str(j, "mpir_outer", "") == "pcg") {
        s.method = "mpir-cg (pcg)";  // Cevahir 2.2 as written, kept apart from the refinement
    }
    s.matrix = str(j, "matrix");
    s.variant = str(j, "variant", "");
    if (s.variant.empty()) s.variant = str(j, "format");
    s.iterations = num(j, "iterations");
    s.converged =
        (j.contains("converged") && j["converged"].is_boolean() && j["converged"].get<bool>()) ||
        str(j, "status", "") == "converged";
    if (j.contains("ranks")) {
        s.ranks = static_cast<int>(num(j, "ranks"));
        s.total_ms = num(j, "total_ms");
    } else {
        s.total_ms = num(j, "median_total_ms");
    }
    if (!std::isfinite(s.total_ms)) {
        SPMV_THROW(spmv::InvalidArgument,
                   path + ": solver record without a time (median_total_ms or ranks + total_ms)");
    }
    ctx.solves.push_back(s);
}

double median_of(std::vector<double> v)
{
    v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !std::isfinite(x); }),
            v.end());
    if (v.empty()) return NAN;
    std::sort(v.begin(), v.end());
    const auto n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// Measured PCIe bandwidth: (x in + y out) / (xgpu_ms - median_ms) of ellr, median over the
/// largest class that has any (transfers of small vectors are latency-bound).
double pcie_bandwidth(const Context& ctx, const std::string& device)
{
    for (int k = large; k >= latency_bound; --k) {
        std::vector<double> v;
        for (const auto& c : ctx.cases) {
            const auto* e = c.get("ellr");
            if (c.file->device != device || c.size != k || !e || !(e->xgpu_ms > e->median_ms))
                continue;
            v.push_back((c.cols + c.rows) * c.value_bytes() / ((e->xgpu_ms - e->median_ms) * 1e-3) /
                        1e9);
        }
        if (!v.empty()) return median_of(v);
    }
    return NAN;
}

void classify(Context& ctx, const ReplicateOptions& o)
{
    std::map<std::string, std::vector<const Case*>> by_device;
    for (const auto& c : ctx.cases) by_device[c.file->device].push_back(&c);
    for (auto& [device, cs] : by_device) {
        auto& d = ctx.devices[device];
        std::vector<double> copy;
        for (const auto& f : ctx.files) {
            if (f.device == device) copy.push_back(f.copy_gbs);
        }
        d.copy_gbs = median_of(copy);
        std::sort(cs.begin(), cs.end(),
                  [](const Case* a, const Case* b) { return a->min_bytes < b->min_bytes; });
        std::vector<double> fastest;
        for (const auto* c : cs) {
            if (fastest.size() == 10) break;
            if (std::isfinite(c->fastest_own_ms())) fastest.push_back(c->fastest_own_ms());
        }
        d.floor_ms = median_of(fastest);
        d.floor_matrices = static_cast<int>(fastest.size());
        d.latency_bytes =
            o.latency_mb > 0 ? o.latency_mb * 1e6 : d.floor_ms * 1e-3 * d.copy_gbs * 1e9;
        if (o.l2_mb > 0) {
            d.l2_bytes = o.l2_mb * 1e6;
        } else if (device.find("A100") != std::string::npos) {
            d.l2_bytes = 40e6;
        } else {
            d.l2_bytes = 50e6;  // H100 and H200 (GH100: 50 MB)
            d.l2_assumed = device.find("H100") == std::string::npos &&
                           device.find("H200") == std::string::npos;
        }
    }
    for (auto& c : ctx.cases) {
        const auto& d = ctx.devices[c.file->device];
        c.size = !(c.min_bytes >= d.latency_bytes) ? latency_bound
                 : c.min_bytes >= 2 * d.l2_bytes   ? large
                                                   : medium;
    }
    for (auto& [device, d] : ctx.devices) d.pcie_gbs = pcie_bandwidth(ctx, device);
}

// ---------------------------------------------------------------- samples and summaries

struct Sample {
    double v = NAN;
    const Case* c = nullptr;
    double aux = NAN;  // a second number some claims need (a prediction, a size)
    std::string tag;   // e.g. the fastest format's name
};
using Samples = std::vector<Sample>;

Sample sample(double v)
{
    Sample s;
    s.v = v;
    return s;
}
using Split = std::map<std::string, Samples>;  // precision -> samples

Split collect(const Context& ctx, const std::function<std::optional<Sample>(const Case&)>& f)
{
    Split s;
    for (const auto& c : ctx.cases) {
        auto x = f(c);
        if (x && std::isfinite(x->v)) {
            x->c = &c;
            s[c.precision].push_back(*x);
        }
    }
    return s;
}

Split ratio_of(const Context& ctx, const std::function<double(const Case&)>& f)
{
    return collect(ctx, [&](const Case& c) { return std::optional<Sample>(sample(f(c))); });
}

Samples in_class(const Samples& s, int k)
{
    Samples out;
    for (const auto& x : s) {
        if (x.c->size == k) out.push_back(x);
    }
    return out;
}

std::size_t count(const Samples& s, const std::function<bool(const Sample&)>& p)
{
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), p));
}

/// Share of the samples for which `p` holds (0 for none).
double fraction(const Samples& s, const std::function<bool(const Sample&)>& p)
{
    return s.empty() ? 0.0 : static_cast<double>(count(s, p)) / static_cast<double>(s.size());
}

struct Summary {
    std::size_t n = 0;
    double median = NAN, min = NAN, max = NAN;
    const Case* at_min = nullptr;
    const Case* at_max = nullptr;
};

Summary summarize(const Samples& s)
{
    Summary m;
    std::vector<double> v;
    for (const auto& x : s) {
        v.push_back(x.v);
        if (!m.at_min || x.v < m.min) m.min = x.v, m.at_min = x.c;
        if (!m.at_max || x.v > m.max) m.max = x.v, m.at_max = x.c;
    }
    m.n = s.size();
    m.median = median_of(v);
    return m;
}

std::string x2(double v)
{
    return fmt(v, 2);
}
std::string pct(double v, int digits = 0)
{
    return fmt(100.0 * v, std::abs(v) < 0.1 && v != 0.0 ? std::max(digits, 1) : digits) + " %";
}
std::string of(std::size_t a, std::size_t b)
{
    return std::to_string(a) + " of " + std::to_string(b) +
           (b ? " (" + pct(static_cast<double>(a) / static_cast<double>(b)) + ")" : "");
}
std::string us(double ms)
{
    return fmt(ms * 1e3, 1) + " µs";
}
std::string mb(double bytes)
{
    return fmt(bytes / 1e6, bytes < 10e6 ? 1 : 0) + " MB";
}

std::string range_text(const Summary& m)
{
    if (m.n == 0) return "-";
    if (m.n == 1) return x2(m.median) + " (" + m.at_min->matrix + ")";
    if (m.min == m.max) return x2(m.min) + " on every matrix";
    return "median " + x2(m.median) + ", " + x2(m.min) + " (" + m.at_min->matrix + ") – " +
           x2(m.max) + " (" + m.at_max->matrix + ")";
}

// ---------------------------------------------------------------- claims and verdicts

enum class Verdict { holds, partly, fails, untested };
const char* verdict_text(Verdict v)
{
    switch (v) {
        case Verdict::holds:
            return "holds";
        case Verdict::partly:
            return "holds partly";
        case Verdict::fails:
            return "does not hold";
        default:
            return "not in the given records";
    }
}

struct Claim {
    std::string id, text, where, paper, measured, why, details;
    Verdict verdict = Verdict::untested;
};

/// A criterion on a set of samples (nullopt: the set cannot test it) and how to describe a set.
struct Check {
    std::function<std::optional<bool>(const Samples&)> holds;
    std::function<std::string(const Samples&)> describe;
};

struct Outcome {
    Verdict verdict = Verdict::untested;
    std::string measured, table;
    std::vector<std::string> yes, no;  // "DP large (5)"
    bool overall = false;
};

/// Evaluates `c` per precision on every size class. With `overall`, the verdict comes from all
/// matrices of each precision (for "up to" claims, reached by some matrices); otherwise from each
/// class: holds where it holds in every class, holds partly where in some.
Outcome evaluate(const Split& split, const Check& c, bool overall = false)
{
    Outcome o;
    o.overall = overall;
    o.table = "| precision | matrices | n | measured | criterion met |\n|---|---|---:|---|---|\n";
    int yes = 0, no = 0;
    auto mark = [](std::optional<bool> h) { return !h ? "untestable" : *h ? "yes" : "no"; };
    for (const char* p : {"dp", "sp"}) {
        if (!split.count(p) || split.at(p).empty()) continue;
        const auto& all = split.at(p);
        o.measured += (o.measured.empty() ? "" : "; ") + upper(p) + ", " +
                      std::to_string(all.size()) + " matrices: " + c.describe(all);
        for (int k = 0; k < n_classes; ++k) {
            const auto s = in_class(all, k);
            if (s.empty()) continue;
            const auto h = c.holds(s);
            const auto label =
                upper(p) + " " + class_name(k) + " (" + std::to_string(s.size()) + ")";
            if (h) (*h ? o.yes : o.no).push_back(label);
            if (h && !overall) ++(*h ? yes : no);
            o.table += "| " + upper(p) + " | " + class_name(k) + " | " + std::to_string(s.size()) +
                       " | " + c.describe(s) + " | " + mark(h) + " |\n";
        }
        const auto h = c.holds(all);
        if (h && overall) ++(*h ? yes : no);
        o.table += "| " + upper(p) + " | **all** | " + std::to_string(all.size()) + " | " +
                   c.describe(all) + " | " + mark(h) + " |\n";
    }
    o.verdict = yes + no == 0 ? Verdict::untested
                : no == 0     ? Verdict::holds
                : yes == 0    ? Verdict::fails
                              : Verdict::partly;
    return o;
}

std::string join(const std::vector<std::string>& v, const std::string& sep = ", ")
{
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
    return s;
}

/// "holds on DP large (5); not on DP latency-bound (91)".
std::string where_text(const Outcome& o)
{
    if (o.yes.empty() || o.no.empty()) return "";
    if (o.overall) return "Reached on " + join(o.yes) + "; not within " + join(o.no) + ". ";
    return "Holds on " + join(o.yes) + "; not on " + join(o.no) + ". ";
}

/// What the latency-bound matrices have in common, from the data.
std::string latency_note(const Context& ctx)
{
    std::vector<double> t;
    double bound = 0;
    std::size_t n = 0;
    for (const auto& c : ctx.cases) {
        if (c.size != latency_bound) continue;
        ++n;
        t.push_back(c.fastest_own_ms());
        bound = std::max(bound, ctx.dev(c).latency_bytes);
    }
    if (n == 0) return "";
    const auto [lo, hi] = std::minmax_element(t.begin(), t.end());
    return "On the " + std::to_string(n) + " latency-bound cases (below " + mb(bound) +
           ") the fastest kernel takes " + us(*lo) + "–" + us(*hi) + " (median " +
           us(median_of(t)) +
           "): launch and memory latency and the longest "
           "row a thread walks set their times, not the bytes a format saves. ";
}

Claim make(const char* id, const char* text, const char* where, const std::string& paper)
{
    Claim c;
    c.id = id;
    c.text = text;
    c.where = where;
    c.paper = paper;
    return c;
}

void fill(Claim& c, const Outcome& o, const std::string& why)
{
    c.verdict = o.verdict;
    c.measured = o.measured.empty() ? "not in the given records" : o.measured;
    c.why = where_text(o) + why;
    c.details = o.table;
}

// ---------------------------------------------------------------- Kreutzer et al.

Claim kreutzer_performance(const Context& ctx)
{
    auto c =
        make("K1", "pJDS reaches 91 % to 130 % of ELLPACK-R's performance",
             "Kreutzer et al., abstract, §II.A, Table I (the arXiv version says 95 % to 130 %)",
             "0.91–1.30 (Table I: 0.92–1.34 over SP/DP, ECC on/off; DP with ECC 0.95–1.09; "
             "4 matrices, C2070)");
    const auto split =
        ratio_of(ctx, [](const Case& x) { return x.gf(x.pjds_key()) / x.gf("ellr"); });
    const Check chk{[](const Samples& s) { return std::optional<bool>(summarize(s).min >= 0.91); },
                    [](const Samples& s) {
                        return range_text(summarize(s)) + "; ≥ 0.91 on " +
                               of(count(s, [](auto& x) { return x.v >= 0.91; }), s.size()) +
                               ", > 1.30 on " +
                               std::to_string(count(s, [](auto& x) { return x.v > 1.30; }));
                    }};
    const auto o = evaluate(split, chk);
    std::string why;
    bool permuted = false;
    for (const auto& x : ctx.cases) permuted = permuted || x.r.count("pjds@permuted");
    // where pJDS gains: the matrices on which ELLPACK pads most
    for (const auto& [p, s] : split) {
        Samples wide, narrow;
        for (const auto& x : s) (x.c->ell_padding() > 2 ? wide : narrow).push_back(x);
        if (!wide.empty() && !narrow.empty()) {
            why += upper(p) + ": median " + x2(summarize(wide).median) +
                   " where ELLPACK stores > 2 slots per "
                   "nonzero (" +
                   std::to_string(wide.size()) + " matrices), " + x2(summarize(narrow).median) +
                   " where ≤ 2 (" + std::to_string(narrow.size()) + "). ";
        }
    }
    if (o.verdict == Verdict::holds) {
        why =
            "pJDS is never below 0.91× ELLPACK-R. It exceeds the upper end (1.30) where rows of "
            "very "
            "different length share a warp in ELLPACK-R and the sort puts them apart: " +
            why;
    }
    why += permuted
               ? "pJDS timed in its permuted basis (y left sorted), as Kreutzer times it."
               : "pJDS timed with y written back in the original order by the kernel's store (no "
                 "basis = permuted records): Kreutzer's timing leaves y sorted.";
    fill(c, o, why);
    return c;
}

Claim kreutzer_penalty(const Context& ctx)
{
    auto c =
        make("K2",
             "pJDS loses at most 5 % against ELLPACK-R (\"the largest penalty is limited to 5 %\")",
             "Kreutzer et al., §II.A (text under Table I)",
             "≥ 0.95 (arXiv Table 1 minimum: 0.95, HMEp DP; the IEEE Table I has 0.92, DLR2 SP "
             "with ECC)");
    const auto split =
        ratio_of(ctx, [](const Case& x) { return x.gf(x.pjds_key()) / x.gf("ellr"); });
    const Check chk{[](const Samples& s) { return std::optional<bool>(summarize(s).min >= 0.95); },
                    [](const Samples& s) {
                        const auto m = summarize(s);
                        return "minimum " + x2(m.min) + " (" + m.at_min->matrix + "); < 0.95 on " +
                               std::to_string(count(s, [](auto& x) { return x.v < 0.95; }));
                    }};
    const auto o = evaluate(split, chk);
    std::vector<std::string> below;
    bool all_latency = true;
    for (const auto& [p, s] : split) {
        for (const auto& x : s) {
            if (x.v >= 0.95) continue;
            const double dt = x.c->get(x.c->pjds_key())->median_ms - x.c->get("ellr")->median_ms;
            below.push_back(x.c->matrix + " " + upper(p) + " " + x2(x.v) + " (" +
                            fmt(x.c->rows, 0) + " rows, +" + us(dt) + ")");
            all_latency = all_latency && x.c->size == latency_bound;
        }
    }
    std::string why = below.empty() ? "pJDS is within 5 % of ELLPACK-R or faster on every matrix. "
                                    : "Below 0.95: " + join(below) + ". ";
    if (!below.empty() && all_latency) {
        why += "All are latency-bound: the loss is a fraction of a µs on a ~" +
               us(ctx.devices.begin()->second.floor_ms) +
               " kernel (pJDS reads its permutation and "
               "column starts on top of ELLPACK-R's loads).";
    }
    fill(c, o, why);
    return c;
}

Claim kreutzer_memory(const Context& ctx)
{
    auto c = make("K3", "pJDS cuts the memory footprint by up to 70 % against ELLPACK",
                  "Kreutzer et al., abstract, §II.A, Table I (data reduction)",
                  "up to 68.4 % (Table I: 17.5, 48.0, 36.0, 68.4 %)");
    const auto split =
        ratio_of(ctx, [](const Case& x) { return 1.0 - x.bytes("pjds") / x.bytes("ell"); });
    const Check chk{[](const Samples& s) { return std::optional<bool>(summarize(s).max >= 0.684); },
                    [](const Samples& s) {
                        const auto m = summarize(s);
                        return "up to " + pct(m.max, 1) + " (" + m.at_max->matrix + "), median " +
                               pct(m.median, 1) + "; pJDS larger than ELLPACK on " +
                               std::to_string(count(s, [](auto& x) { return x.v < 0; }));
                    }};
    const auto o = evaluate(split, chk, true);
    std::string why;
    for (const auto& [p, s] : split) {
        std::size_t regular = 0, small = 0;
        double small_rows = 0;
        for (const auto& x : s) {
            if (x.v >= 0) continue;
            if (x.c->ell_padding() <= 1.1) {
                ++regular;
            } else {
                ++small;
                small_rows = std::max(small_rows, x.c->rows);
            }
        }
        const auto m = summarize(s);
        why += upper(p) + ": the largest cut is on " + m.at_max->matrix +
               ", where ELLPACK stores " + fmt(m.at_max->ell_padding(), 1) +
               " slots per nonzero. pJDS needs more bytes than ELLPACK on " +
               std::to_string(regular + small) + " matrices: " + std::to_string(regular) +
               " where ELLPACK pads ≤ 10 % (its row permutation and row lengths cost more than the "
               "padding they "
               "remove) and " +
               std::to_string(small) + " small ones (≤ " + fmt(small_rows, 0) +
               " rows, a few blocks of b_r = 32 rows padded to their longest row, almost as "
               "ELLPACK pads). ";
    }
    std::set<std::string> not_built;
    for (const auto& x : ctx.cases) {
        const auto it = x.r.find("ell");
        if (it != x.r.end() && it->second.error.find("not built") != std::string::npos &&
            x.get("pjds")) {
            not_built.insert(x.matrix);
        }
    }
    if (!not_built.empty()) {
        why += "ELLPACK was not even built for " + join({not_built.begin(), not_built.end()}) +
               " (over the memory limit), pJDS was. ";
    }
    why += "Bytes: each format's device arrays (format_bytes), not x and y.";
    fill(c, o, why);
    return c;
}

/// Kreutzer eq. 3 (q = 1) and eq. 4 (q = 10) against the measured PCIe share of ellr.
Claim kreutzer_pcie(const Context& ctx, bool eq4)
{
    using namespace spmv::model;
    auto c =
        eq4 ? make(
                  "K5",
                  "PCIe adds at most 10 % (T_MVM ≥ 10 T_PCI) only for N_nzr ≥ (20 r − 2)/(α + 3/2)",
                  "Kreutzer et al., §II.B, eq. 4",
                  "N_nzr ≳ 80 (r ≈ 10, α = 1) to ≳ 266 (r ≈ 20, α = 1/N_nzr)")
            : make("K4",
                   "PCIe transfers of x and y take ≥ 50 % of the time for N_nzr ≤ 2(r − 1)/(α + "
                   "3/2)",
                   "Kreutzer et al., §II.B, eq. 3",
                   "N_nzr ≤ 7 (r ≈ 10, α = 1) to ≤ 25 (r ≈ 20, α = 1/N_nzr)");
    const double share = eq4 ? 1.0 / 11.0 : 0.5;
    // per case: v = measured share, aux = N_nzr; tag: "above" (model: share >= `share` for any
    // alpha), "below", or "either" (depends on alpha)
    std::map<std::string, std::pair<double, double>>
        thresholds;  // "device|prec" -> (alpha 1, alpha 1/N)
    const auto split = collect(ctx, [&](const Case& x) -> std::optional<Sample> {
        const auto* e = x.get("ellr");
        const auto& d = ctx.dev(x);
        if (!e || !(e->xgpu_ms > e->median_ms) || !(d.pcie_gbs > 0) || !(x.rows > 0) ||
            !(x.nnz > 0))
            return std::nullopt;
        const auto p =
            x.precision == "sp" ? Precision::single_precision : Precision::double_precision;
        const double r = d.copy_gbs / d.pcie_gbs;
        const double t1 = n_nzr_at_pcie_share(share, r, 1.0, p);
        const double tmin = n_nzr_at_pcie_share_perfect_reuse(share, r, p);
        thresholds[x.file->device + "|" + x.precision] = {t1, tmin};
        const double lo = std::min(t1, tmin), hi = std::max(t1, tmin);
        auto s = sample((e->xgpu_ms - e->median_ms) / e->xgpu_ms);
        s.aux = x.nnz / x.rows;
        s.tag = s.aux <= lo ? "above" : s.aux > hi ? "below" : "either";
        return s;
    });
    auto agree = [share](const Sample& x) {
        return x.tag == "either" || (x.tag == "above" ? x.v >= share : x.v < share);
    };
    const auto side = [share](const Samples& s, const char* tag, bool want_above) {
        std::size_t n = 0, ok = 0;
        for (const auto& x : s) {
            if (x.tag != tag) continue;
            ++n;
            ok += (x.v >= share) == want_above;
        }
        return std::make_pair(ok, n);
    };
    const std::string pct_s = pct(share, share < 0.2 ? 1 : 0);
    const Check chk{[&](const Samples& s) -> std::optional<bool> {
                        std::size_t n = 0, ok = 0;
                        for (const auto& x : s) {
                            if (x.tag == "either") continue;
                            ++n;
                            ok += agree(x);
                        }
                        if (n == 0) return std::nullopt;
                        return static_cast<double>(ok) >= 0.9 * static_cast<double>(n);
                    },
                    [&](const Samples& s) {
                        const auto [a_ok, a_n] = side(s, "above", true);
                        const auto [b_ok, b_n] = side(s, "below", false);
                        return "share ≥ " + pct_s + " on " + of(a_ok, a_n) +
                               " with N_nzr below the threshold, < " + pct_s + " on " +
                               of(b_ok, b_n) + " above it; median share " +
                               pct(summarize(s).median);
                    }};
    auto o = evaluate(split, chk);
    std::string why;
    for (const auto& [key, t] : thresholds) {
        const auto bar = key.find('|');
        const auto& d = ctx.devices.at(key.substr(0, bar));
        why += upper(key.substr(bar + 1)) + ": r = B_GPU/B_PCI = " + fmt(d.copy_gbs, 0) + "/" +
               fmt(d.pcie_gbs, 1) + " = " + fmt(d.copy_gbs / d.pcie_gbs, 1) + " gives N_nzr " +
               fmt(std::min(t.first, t.second), 1) +
               " (α = " + (t.first < t.second ? "1" : "1/N_nzr") + ") to " +
               fmt(std::max(t.first, t.second), 1) + ". ";
    }
    why +=
        "B_GPU is the measured copy bandwidth, B_PCI = (x + y bytes)/(xgpu − kernel time) of ellr "
        "on the "
        "largest matrices (spmv::model::n_nzr_at_pcie_share). ";
    double max_nnzr = 0;
    std::size_t above = 0, below = 0;
    for (const auto& [p, s] : split) {
        for (const auto& x : s) {
            max_nnzr = std::max(max_nnzr, x.aux);
            above += x.tag == "above";
            below += x.tag == "below";
        }
    }
    if (eq4 && below == 0) {
        why += "No matrix reaches the threshold (largest N_nzr " + fmt(max_nnzr, 1) +
               "), so the ≤ 10 % side "
               "is untested; only the prediction that all others pay more than 9.1 % is. ";
        if (o.verdict == Verdict::holds) o.verdict = Verdict::partly;
    }
    // why the prediction misses, from the data: the kernel's time and its longest row, the copies'
    // time
    std::vector<double> k_ok, k_bad, row_ok, row_bad, copy_ms, copy_model;
    std::vector<std::string> above_floor;
    for (const auto& [p, s] : split) {
        for (const auto& x : s) {
            if (x.tag == "either") continue;
            const auto* e = x.c->get("ellr");
            const double longest = x.c->ell_padding() * x.aux;
            (agree(x) ? k_ok : k_bad).push_back(e->median_ms);
            (agree(x) ? row_ok : row_bad).push_back(longest);
            copy_ms.push_back(e->xgpu_ms - e->median_ms);
            copy_model.push_back((x.c->rows + x.c->cols) * x.c->value_bytes() /
                                 (ctx.dev(*x.c).pcie_gbs * 1e6));
            if (!agree(x) && x.c->size != latency_bound) {
                const auto prec = x.c->precision == "sp" ? Precision::single_precision
                                                         : Precision::double_precision;
                const double model =
                    t_mvm_seconds(x.c->rows, x.aux, 1.0, ctx.dev(*x.c).copy_gbs, prec) * 1e3;
                above_floor.push_back(x.c->matrix + " " + upper(p) + ": kernel " +
                                      fmt(e->median_ms / model, 0) + "× the model's T_MVM");
            }
        }
    }
    if (!k_bad.empty()) {
        why += "Where the prediction misses (" + std::to_string(k_bad.size()) +
               " cases) ellr's kernel takes a median " + us(median_of(k_bad)) +
               " and the longest row has " + fmt(median_of(row_bad), 0) +
               " entries; where it holds " + us(median_of(k_ok)) + " and " +
               fmt(median_of(row_ok), 0) +
               ": one thread walks a long row alone, so the kernel takes far longer than its bytes "
               "say and the "
               "transfers no longer dominate" +
               (above_floor.empty() ? std::string("") : " (" + join(above_floor) + ")") +
               ". Small copies cost their latency: median " + us(median_of(copy_ms)) +
               " against the model's " + us(median_of(copy_model)) + ". ";
    }
    c.verdict = o.verdict;
    c.measured = o.measured.empty() ? "not in the given records" : o.measured;
    c.why = where_text(o) + why;
    c.details = o.table;
    return c;
}

// ---------------------------------------------------------------- Wang & Gu (PELLR)

std::string size_medians(const Split& split)
{
    std::string s;
    for (const auto& [p, all] : split) {
        for (int k = 0; k < n_classes; ++k) {
            const auto m = summarize(in_class(all, k));
            if (m.n)
                s += (s.empty() ? "" : ", ") + upper(p) + " " + class_name(k) + " " + x2(m.median);
        }
    }
    return s.empty() ? "" : "Median by size: " + s + ". ";
}

Claim wang_faster_than_ellr(const Context& ctx)
{
    auto c = make("W1", "PELLR is faster than ELLPACK-R on (almost) every matrix",
                  "Wang & Gu, §4, Fig. 6", "faster on 20 of 20 (ratio > 1 for all matrices)");
    const auto split = ratio_of(ctx, [](const Case& x) { return x.gf("pellr") / x.gf("ellr"); });
    const Check chk{
        [](const Samples& s) {
            return std::optional<bool>(fraction(s, [](auto& x) { return x.v > 1.0; }) >= 0.9);
        },
        [](const Samples& s) {
            return "faster on " + of(count(s, [](auto& x) { return x.v > 1.0; }), s.size()) +
                   ", within 2 % on " +
                   std::to_string(count(s, [](auto& x) { return std::abs(x.v - 1) <= 0.02; })) +
                   "; " + range_text(summarize(s));
        }};
    const auto o = evaluate(split, chk);
    std::string regular;
    if (ctx.have_stats) {
        for (const auto& [p, s] : split) {
            Samples r;
            for (const auto& x : s) {
                if (x.c->stats && x.c->stats->sigma < 3 && x.c->size != latency_bound)
                    r.push_back(x);
            }
            if (!r.empty()) {
                regular += upper(p) + " median " + x2(summarize(r).median) + " on the " +
                           std::to_string(r.size()) +
                           " regular ones (σ < 3) above the latency floor; ";
            }
        }
    }
    fill(c, o,
         latency_note(ctx) + size_medians(split) +
             "Sorting the rows saves warp iterations only where rows of very different length "
             "share a warp "
             "and the kernel is limited by them; elsewhere PELLR pays for the scattered store of y "
             "and the "
             "row order that no longer matches the column order (" +
             (regular.empty() ? std::string("see W2") : regular.substr(0, regular.size() - 2)) +
             ").");
    return c;
}

bool wang_condition(const RowLengthStats& s)
{
    return s.sigma > 10 && s.ave > 20 && s.spread > 10;
}

Claim wang_speedup(const Context& ctx)
{
    auto c =
        make("W2", "PELLR is about 1.5× faster than ELLPACK-R for σ > 10, ave > 20, max − min > 10",
             "Wang & Gu, abstract, §4 (Fig. 6), §5", "≈ 1.5 (bcsstk24, cavity25, e40r5000)");
    if (!ctx.have_stats) {
        c.measured =
            "not in the given records: σ is not in the bench records (give --matrices DIR)";
        c.why = "Needs the row-length statistics of each matrix.";
        return c;
    }
    const auto split = collect(ctx, [](const Case& x) -> std::optional<Sample> {
        if (!x.stats || !wang_condition(*x.stats)) return std::nullopt;
        return sample(x.gf("pellr") / x.gf("ellr"));
    });
    const Check chk{
        [](const Samples& s) { return std::optional<bool>(summarize(s).median >= 0.8 * 1.5); },
        [](const Samples& s) { return range_text(summarize(s)); }};
    const auto o = evaluate(split, chk);
    // the paper's other side: sigma < 3, no advantage; and sigma > 10 alone
    std::string why;
    const std::vector<std::pair<std::string, std::function<bool(const RowLengthStats&)>>> splits = {
        {"σ > 10", [](const RowLengthStats& s) { return s.sigma > 10; }},
        {"σ < 3", [](const RowLengthStats& s) { return s.sigma < 3; }}};
    for (const auto& item : splits) {
        const auto& label = item.first;
        const auto& pred = item.second;
        const auto sub = collect(ctx, [&](const Case& x) -> std::optional<Sample> {
            if (!x.stats || !pred(*x.stats)) return std::nullopt;
            return sample(x.gf("pellr") / x.gf("ellr"));
        });
        for (const auto& [p, s] : sub) {
            const auto big = [&] {
                Samples b;
                for (const auto& x : s)
                    if (x.c->size != latency_bound) b.push_back(x);
                return b;
            }();
            why +=
                upper(p) + " " + label + ": median " + x2(summarize(s).median) + " on " +
                std::to_string(s.size()) + " matrices, " +
                (big.empty() ? std::string("none above the latency floor")
                             : x2(summarize(big).median) + " on the " + std::to_string(big.size()) +
                                   " above the latency floor (" + summarize(big).at_max->matrix +
                                   " " + x2(summarize(big).max) + ")") +
                ". ";
        }
    }
    fill(c, o,
         why + latency_note(ctx) +
             "The collection's matrices that meet the condition are small (their time is set by "
             "the longest "
             "row's serial loop, which sorting does not shorten); the 1.5× appears on large "
             "matrices with a wide "
             "row-length spread.");
    return c;
}

/// PELLR's rank among `set`: v = PELLR time / fastest time in the set, tag = the fastest.
Split pellr_rank(const Context& ctx, const std::vector<std::string>& set)
{
    return collect(ctx, [&](const Case& x) -> std::optional<Sample> {
        if (!x.get("pellr")) return std::nullopt;
        Sample s;
        double best = INFINITY;
        for (const auto& f : set) {
            if (x.get(f) && x.get(f)->median_ms < best) best = x.get(f)->median_ms, s.tag = f;
        }
        s.v = x.get("pellr")->median_ms / best;
        return s;
    });
}

std::string most_often(const Samples& s)
{
    std::map<std::string, int> n;
    for (const auto& x : s) ++n[x.tag];
    std::vector<std::pair<int, std::string>> v;
    for (const auto& [f, k] : n) v.push_back({k, f});
    std::sort(v.rbegin(), v.rend());
    std::string out;
    for (std::size_t i = 0; i < v.size() && i < 3; ++i) {
        out += (i ? ", " : "") + v[i].second + " " + std::to_string(v[i].first);
    }
    return out;
}

Claim wang_best(const Context& ctx)
{
    auto c = make(
        "W3", "PELLR is the fastest format on over 70 % of the matrices",
        "Wang & Gu, abstract, §4 (Fig. 12: CSR vector, JAD, ELL, ELLR, PELLR, HYB, cuSPARSE CSR)",
        "> 70 % of 20 matrices");
    const std::vector<std::string> fig12 = {
        "csr_vector", "jds_csr", "ell", "ellr", "pellr", "hyb", "cusparse_csr_alg1"};
    const auto split = pellr_rank(ctx, fig12);
    const Check chk{
        [](const Samples& s) {
            return std::optional<bool>(fraction(s, [](auto& x) { return x.v <= 1.0; }) >= 0.7);
        },
        [](const Samples& s) {
            return "fastest on " + of(count(s, [](auto& x) { return x.v <= 1.0; }), s.size()) +
                   ", within 5 % of the fastest on " +
                   std::to_string(count(s, [](auto& x) { return x.v <= 1.05; })) +
                   "; fastest most often: " + most_often(s);
        }};
    const auto o = evaluate(split, chk);
    auto with_bi = fig12;
    with_bi.push_back("biell");
    with_bi.push_back("bijad");
    const auto split2 = pellr_rank(ctx, with_bi);
    std::string why =
        "Formats as in Fig. 12 (JAD = jds_csr, Li & Saad's one thread per row; HYB = our "
        "one-third-rule HYB, cuSPARSE no longer has one). With BiELL and BiJAD added: ";
    std::vector<std::string> bi;
    for (const auto& [p, s] : split2) {
        bi.push_back(upper(p) + " fastest on " +
                     of(count(s, [](auto& x) { return x.v <= 1.0; }), s.size()));
    }
    fill(c, o,
         why + join(bi, "; ") + ". " + latency_note(ctx) +
             "Where the matrix is large, the row-per-thread ELLPACK family loses to kernels that "
             "share long "
             "rows among threads (CSR vector, BiELL) or need no padding.");
    return c;
}

Claim wang_hyb(const Context& ctx, bool small_sigma)
{
    auto c = small_sigma
                 ? make("W4", "PELLR is about 4× faster than HYB for σ < 10",
                        "Wang & Gu, §4, Fig. 8 (HYB of cuSPARSE)", "≈ 4 (average, σ < 10)")
                 : make("W5", "PELLR is about 1.6× faster than HYB for σ > 10",
                        "Wang & Gu, §4, Fig. 8 (HYB of cuSPARSE)", "≈ 1.6 (σ > 10; memplus 0.7)");
    if (!ctx.have_stats) {
        c.measured =
            "not in the given records: σ is not in the bench records (give --matrices DIR)";
        c.why = "Needs the row-length statistics of each matrix.";
        return c;
    }
    const double paper = small_sigma ? 4.0 : 1.6;
    const auto split = collect(ctx, [&](const Case& x) -> std::optional<Sample> {
        if (!x.stats || (small_sigma ? !(x.stats->sigma < 10) : !(x.stats->sigma > 10)))
            return std::nullopt;
        return sample(x.gf("pellr") / x.gf("hyb"));
    });
    const Check chk{[paper](const Samples& s) {
                        return std::optional<bool>(summarize(s).median >= 0.8 * paper);
                    },
                    [](const Samples& s) {
                        return range_text(summarize(s)) + "; PELLR faster on " +
                               of(count(s, [](auto& x) { return x.v > 1; }), s.size());
                    }};
    const auto o = evaluate(split, chk);
    std::string why =
        "HYB here is our own ELL + COO with the one-third rule that cuSPARSE's HYB used by default "
        "(cuSPARSE dropped HYB in CUDA 11). ";
    bool faster = true;
    for (const auto& [p, s] : split) faster = faster && summarize(s).median > 1;
    if (o.verdict == Verdict::fails && faster) {
        why +=
            "Wang & Gu put the 4× down to the COO part of cuSPARSE's HYB; against this HYB PELLR "
            "is ahead in the "
            "median by far less than " +
            fmt(paper, 1) + "×, and the lead shrinks with size. ";
    }
    if (!small_sigma) {
        std::vector<double> longest;
        for (const auto& [p, s] : split) {
            for (const auto& x : s) {
                if (x.c->size == latency_bound)
                    longest.push_back(x.c->ell_padding() * x.c->nnz / x.c->rows);
            }
        }
        if (!longest.empty()) {
            why +=
                "On the small skewed matrices HYB's COO part spreads the long rows over threads "
                "while PELLR's one "
                "thread walks the longest row alone (median longest row " +
                fmt(median_of(longest), 0) + " entries there). ";
        }
    }
    fill(c, o, why + size_medians(split));
    return c;
}

Claim wang_versus(const Context& ctx, const char* id, const std::string& other,
                  double paper_fraction, const std::string& paper, const char* where)
{
    auto c = make(id, "", where, paper);
    c.text = "PELLR is faster than " + std::string(other == "biell" ? "BiELL" : "BiJAD") + " on " +
             pct(paper_fraction) + " of the matrices";
    const auto split = ratio_of(ctx, [&](const Case& x) { return x.gf("pellr") / x.gf(other); });
    const Check chk{[paper_fraction](const Samples& s) {
                        return std::optional<bool>(fraction(s, [](auto& x) { return x.v > 1; }) >=
                                                   paper_fraction - 0.1);
                    },
                    [](const Samples& s) {
                        return "faster on " +
                               of(count(s, [](auto& x) { return x.v > 1; }), s.size()) + "; " +
                               range_text(summarize(s));
                    }};
    const auto o = evaluate(split, chk);
    fill(c, o,
         "Criterion: faster on at least the paper's share minus 10 points. " + latency_note(ctx) +
             size_medians(split) +
             (other == "biell"
                  ? "BiELL's lanes share a long row, where PELLR's one thread per row waits for it."
                  : "BiJAD sorts the rows as PELLR does and shares long rows among lanes."));
    return c;
}

Claim wang_hyb_best(const Context& ctx)
{
    auto c = make("W8", "HYB is the fastest of PELLR, HYB, BiELL and BiJAD only rarely",
                  "Wang & Gu, §4, Fig. 11", "1 of 20 (5 %: memplus)");
    const auto split = collect(ctx, [](const Case& x) -> std::optional<Sample> {
        double best = INFINITY;
        std::string tag;
        for (const char* f : {"pellr", "hyb", "biell", "bijad"}) {
            if (!x.get(f)) return std::nullopt;
            if (x.get(f)->median_ms < best) best = x.get(f)->median_ms, tag = f;
        }
        auto s = sample(tag == "hyb" ? 1.0 : 0.0);
        s.tag = tag;
        return s;
    });
    const Check chk{
        [](const Samples& s) {
            return std::optional<bool>(fraction(s, [](auto& x) { return x.v > 0; }) <= 0.15);
        },
        [](const Samples& s) {
            return "HYB fastest on " + of(count(s, [](auto& x) { return x.v > 0; }), s.size()) +
                   "; fastest most often: " + most_often(s);
        }};
    const auto o = evaluate(split, chk);
    std::string skew;
    if (ctx.have_stats) {
        for (const auto& [p, s] : split) {
            Samples hi, lo;
            for (const auto& x : s) {
                if (x.c->stats) (x.c->stats->sigma > 10 ? hi : lo).push_back(x);
            }
            skew += upper(p) + ": HYB fastest on " +
                    of(count(hi, [](auto& x) { return x.v > 0; }), hi.size()) +
                    " matrices with σ > 10 and " +
                    of(count(lo, [](auto& x) { return x.v > 0; }), lo.size()) + " others. ";
        }
    }
    fill(c, o, "Criterion: HYB fastest on at most 15 %. " + skew + latency_note(ctx));
    return c;
}

Claim wang_qualitative(const Context& ctx, int which)
{
    static const char* ids[] = {"W9", "W10", "W11"};
    static const char* texts[] = {"JAD performs better than ELL", "BiELL pads fewer zeros than ELL",
                                  "BiJAD may pad fewer zeros than BiELL"};
    static const char* where[] = {"Wang & Gu, §2.3.5 (qualitative)",
                                  "Wang & Gu, §2.3.3 (qualitative)",
                                  "Wang & Gu, §2.3.5 (qualitative)"};
    auto c = make(ids[which], texts[which], where[which], "— (no number)");
    const auto split = ratio_of(ctx, [which](const Case& x) {
        return which == 0   ? x.gf("jds_csr") / x.gf("ell")
               : which == 1 ? x.bytes("ell") / x.bytes("biell")
                            : x.bytes("biell") / x.bytes("bijad");
    });
    const std::string what = which == 0 ? "faster" : "fewer bytes";
    const Check chk{[](const Samples& s) { return std::optional<bool>(summarize(s).median > 1.0); },
                    [what](const Samples& s) {
                        return what + " on " +
                               of(count(s, [](auto& x) { return x.v > 1; }), s.size()) + "; " +
                               range_text(summarize(s));
                    }};
    const auto o = evaluate(split, chk);
    std::string bytes_why;
    if (which != 0) {
        for (const auto& [p, s] : split) {
            std::vector<double> yes, no;
            for (const auto& x : s) (x.v > 1 ? yes : no).push_back(x.c->ell_padding());
            bytes_why += upper(p) + ": ELLPACK slots per nonzero median " + x2(median_of(yes)) +
                         " where smaller, " + x2(median_of(no)) + " where not. ";
        }
        bytes_why +=
            which == 1
                ? "Where rows are alike there is no padding to remove and BiELL's group pointers "
                  "and permutation add bytes."
                : "Sorting all rows (BiJAD) rather than each warp's (BiELL) groups alike rows and "
                  "pads less; where rows are alike both pad nothing.";
    }
    fill(c, o,
         std::string("Criterion: true for the median matrix. ") +
             (which == 0 ? "JAD = jds_csr (Li & Saad's kernel, one thread per sorted row). " +
                               latency_note(ctx) + size_medians(split)
                         : "Ratio of the formats' device bytes. " + bytes_why));
    return c;
}

// ---------------------------------------------------------------- Barbieri et al. (ELLG)

/// Barbieri Tables 2-5, MFLOPS (DP): pde size, GTX 285 ELLG GPU / xGPU, CSR GPU; C2050 the same.
struct BarbieriRow {
    int size;
    double gtx_ellg, gtx_ellg_x, gtx_csr, c2050_ellg, c2050_ellg_x, c2050_csr;
};
constexpr BarbieriRow barbieri[] = {
    {5, 55, 21, 40, 28, 6, 30},
    {10, 481, 154, 434, 187, 61, 178},
    {20, 3610, 624, 1807, 2147, 370, 1588},
    {30, 7784, 881, 2562, 4319, 791, 2923},
    {40, 10380, 791, 2898, 6394, 907, 3833},
    {50, 12452, 848, 3035, 8237, 1098, 4094},
    {60, 13842, 981, 3135, 9442, 1404, 4431},
    {80, 15250, 1162, 3220, 10396, 1746, 4628},
    {90, 15354, 1223, 3232, 10812, 1821, 4618},
    {100, 15664, 1273, 3175, 10859, 1924, 4640},
};

/// The K of "gen:pde:size=K" (nothing else in the spec), else 0.
int pde_size(const std::string& m)
{
    const std::string head = "gen:pde:size=";
    if (m.rfind(head, 0) != 0) return 0;
    const auto rest = m.substr(head.size());
    return !rest.empty() && rest.find_first_not_of("0123456789") == std::string::npos
               ? std::stoi(rest)
               : 0;
}

const BarbieriRow& barbieri_row(int k)
{
    for (const auto& r : barbieri) {
        if (r.size == k) return r;
    }
    return barbieri[std::size(barbieri) - 1];  // larger than the tables: their largest, pde100
}

Claim barbieri_ellg(const Context& ctx)
{
    auto c =
        make("B1", "ELLG is faster than CUSPARSE's CSR on the pde matrices (DP)",
             "Barbieri et al., §4, Tables 2–5 (GPU columns)",
             "ELLG/CSR: C2050 1.35–2.34 from pde20 (pde80 2.25, pde100 2.34), GTX 285 2.00–4.93; "
             "pde05/pde10 0.93–1.38");
    std::vector<std::string> parts;
    int held = 0, ahead = 0, n = 0;
    std::vector<double> base_fraction, ellg_fraction;
    for (const auto& x : ctx.cases) {
        const int k = pde_size(x.matrix);
        if (!k || x.precision != "dp" || !x.get("ellg") || !x.get("cusparse_csr_alg1")) continue;
        const double ratio = x.gf("ellg") / x.gf("cusparse_csr_alg1");
        const auto& b = barbieri_row(k);
        const double c2050 = b.c2050_ellg / b.c2050_csr, gtx = b.gtx_ellg / b.gtx_csr;
        ++n;
        held += ratio >= 0.8 * c2050;
        ahead += ratio > 1.0;
        parts.push_back("pde" + std::to_string(k) + " " + x2(ratio) + " (paper" +
                        (b.size == k ? "" : " at pde" + std::to_string(b.size)) + ": C2050 " +
                        x2(c2050) + ", GTX 285 " + x2(gtx) + ")");
        base_fraction.push_back(x.get("cusparse_csr_alg1")->fraction);
        ellg_fraction.push_back(x.get("ellg")->fraction);
    }
    const auto all =
        ratio_of(ctx, [](const Case& x) { return x.gf("ellg") / x.gf("cusparse_csr_alg1"); });
    const Check chk{[](const Samples& s) { return std::optional<bool>(summarize(s).median > 1.0); },
                    [](const Samples& s) {
                        return "ELLG ahead on " +
                               of(count(s, [](auto& x) { return x.v > 1; }), s.size()) + "; " +
                               range_text(summarize(s));
                    }};
    const auto o = evaluate(all, chk);
    c.details = "Every matrix (criterion: ELLG ahead in the median):\n\n" + o.table;
    if (n == 0) {
        c.measured = "no gen:pde:size=K matrix in DP in the records; all matrices: " + o.measured;
        c.verdict = o.verdict == Verdict::holds ? Verdict::partly : o.verdict;
        c.why = "The tables are on pde matrices only.";
        return c;
    }
    c.measured = "DP, " + std::to_string(n) + " pde matrices: " + join(parts) +
                 ". All matrices: " + o.measured;
    c.verdict = held == n ? Verdict::holds : ahead > 0 ? Verdict::partly : Verdict::fails;
    const double bf = median_of(base_fraction), ef = median_of(ellg_fraction);
    c.why =
        "Criterion: ELLG/CSR ≥ 0.8× the C2050 ratio at the same size (the newer of the two cards). "
        "ELLG is ahead on " +
        std::to_string(ahead) + " of " + std::to_string(n) +
        " pde matrices. cuSPARSE CSR_ALG1 reaches " + pct(bf) +
        " of the copy bandwidth on them, ELLG " + pct(ef) +
        ": a bandwidth-bound ELLG can be at most " + x2(1.0 / bf) +
        "× faster, where CUSPARSE 4.0's CSR "
        "left a 2–5× gap. Over the whole collection ELLG is ahead in the median on " +
        (o.yes.empty() ? std::string("no class") : join(o.yes)) +
        (o.no.empty() ? std::string(".") : "; behind on " + join(o.no) + ".");
    return c;
}

Claim barbieri_transfer(const Context& ctx)
{
    auto c = make(
        "B2",
        "With x and y moved over PCIe every product (xGPU), the GPU keeps a small part of its rate",
        "Barbieri et al., §3 (\"capable of overcoming any performance advantage\"), Tables 2–3 "
        "(xGPU vs GPU)",
        "xGPU/GPU of ELLG at pde100: 0.18 (C2050), 0.08 (GTX 285)");
    std::vector<std::string> parts;
    int n = 0, held = 0;
    for (const auto& x : ctx.cases) {
        const int k = pde_size(x.matrix);
        const auto* e = x.get("ellg");
        if (!k || x.precision != "dp" || !e || !(e->xgpu_ms > 0)) continue;
        const double ratio = e->median_ms / e->xgpu_ms;
        const auto& b = barbieri_row(k);
        const double paper = b.c2050_ellg_x / b.c2050_ellg;
        ++n;
        held += ratio <= 1.25 * paper;
        parts.push_back("pde" + std::to_string(k) + " " + x2(ratio) + " (C2050" +
                        (b.size == k ? "" : " at pde" + std::to_string(b.size)) + ": " + x2(paper) +
                        ")");
    }
    if (n == 0) {
        c.measured = "not in the given records (no gen:pde:size=K with ellg's xgpu_ms in DP)";
        return c;
    }
    c.measured = "DP ELLG, kernel time / time with transfers: " + join(parts);
    c.verdict = held == n ? Verdict::holds : held > 0 ? Verdict::partly : Verdict::fails;
    const auto& d = ctx.devices.begin()->second;
    c.why =
        "Criterion: the transfer-inclusive rate is at most 1.25× the C2050's share. The ratio "
        "follows "
        "B_GPU/B_PCI: " +
        fmt(d.copy_gbs, 0) + "/" + fmt(d.pcie_gbs, 1) + " = " + fmt(d.copy_gbs / d.pcie_gbs, 0) +
        " here (measured, see K4) against 144/~6 ≈ 24 on the C2050, so the transfers weigh even "
        "more.";
    return c;
}

// ---------------------------------------------------------------- Cevahir et al.

Claim cevahir_speedup(const Context& ctx, bool versus_csr)
{
    auto c = versus_csr
                 ? make("C2",
                        "The JDS CSR-like kernel is several times faster than a CSR kernel (one "
                        "thread per row)",
                        "Cevahir et al., §4.1, Fig. 4 (SP, 8800 GTS)",
                        "6.09 / 1.32 GF/s = 4.61× (averages, 42 matrices)")
                 : make("C1", "The JDS CSR-like kernel is several times faster than basic JDS",
                        "Cevahir et al., §3.1, §4.1, Fig. 4 (SP, 8800 GTS)",
                        "6.09 / 2.38 GF/s = 2.56× (averages, 42 matrices)");
    const double paper = versus_csr ? 6.09 / 1.32 : 6.09 / 2.38;
    const std::string other = versus_csr ? "csr" : "jds";
    const auto split = ratio_of(ctx, [&](const Case& x) {
        const double r = x.gf("jds_csr") / x.gf(other);
        return std::isfinite(r) ? x.gf("jds_csr") : NAN;  // v: jds_csr GF/s, aux: the other's
    });
    Split with_aux = split;
    for (auto& [p, s] : with_aux) {
        for (auto& x : s) x.aux = x.c->gf(other);
    }
    auto mean_ratio = [](const Samples& s) {
        double a = 0, b = 0;
        for (const auto& x : s) a += x.v, b += x.aux;
        return a / b;
    };
    const Check chk{
        [&](const Samples& s) { return std::optional<bool>(mean_ratio(s) >= 0.8 * paper); },
        [&](const Samples& s) {
            Samples r = s;
            for (auto& x : r) x.v = x.v / x.aux;
            return "ratio of the mean GF/s " + x2(mean_ratio(s)) + "; per matrix " +
                   range_text(summarize(r));
        }};
    const auto o = evaluate(with_aux, chk);
    std::string why =
        "Criterion: ratio of the mean GF/s (the paper's averages) ≥ 0.8× the paper's. ";
    if (versus_csr) {
        std::vector<double> fc, fj;
        for (const auto& x : ctx.cases) {
            if (x.size == large && x.get("csr") && x.get("jds_csr")) {
                fc.push_back(x.get("csr")->fraction);
                fj.push_back(x.get("jds_csr")->fraction);
            }
        }
        why +=
            "The 8800 GTS had no cache for global loads, so CSR's uncoalesced row-per-thread reads "
            "cost a "
            "memory transaction each; here L1/L2 serve them";
        why += fc.empty() ? ". "
                          : ": on the large matrices CSR reaches a median " + pct(median_of(fc)) +
                                " of the copy bandwidth, jds_csr " + pct(median_of(fj)) + ". ";
    } else {
        why +=
            "Basic JDS launches one kernel per jagged diagonal and writes y_temp once per "
            "diagonal; the longer "
            "the longest row, the more launches: ";
        for (const auto& [p, s] : split) {
            Samples hi, lo;
            for (const auto& x : with_aux.at(p)) {
                Sample r = x;
                r.v = x.v / x.aux;
                if (!std::isfinite(x.c->ell_padding())) continue;
                (x.c->ell_padding() * x.c->nnz / x.c->rows > 30 ? hi : lo).push_back(r);
            }
            if (!hi.empty() && !lo.empty()) {
                why += upper(p) + " median " + x2(summarize(hi).median) +
                       " with more than 30 diagonals (" + std::to_string(hi.size()) +
                       " matrices), " + x2(summarize(lo).median) + " with fewer (" +
                       std::to_string(lo.size()) + "). ";
            }
        }
    }
    fill(c, o, why + size_medians([&] {
                   Split r = with_aux;
                   for (auto& [p, s] : r)
                       for (auto& x : s) x.v = x.v / x.aux;
                   return r;
               }()));
    return c;
}

Claim cevahir_bandwidth(const Context& ctx)
{
    auto c = make("C3", "The JDS CSR-like kernel uses 57 % of the memory bandwidth",
                  "Cevahir et al., §4.1", "36.3 of 64 GB/s = 57 % (average, nominal peak)");
    const auto split = collect(ctx, [](const Case& x) -> std::optional<Sample> {
        if (!x.get("jds_csr")) return std::nullopt;
        return sample(x.get("jds_csr")->fraction);
    });
    const Check chk{
        [](const Samples& s) { return std::optional<bool>(summarize(s).median >= 0.8 * 0.57); },
        [](const Samples& s) {
            const auto m = summarize(s);
            return "median " + pct(m.median) + ", " + pct(m.min) + "–" + pct(m.max);
        }};
    const auto o = evaluate(split, chk);
    fill(c, o,
         "Fraction of the measured copy bandwidth (min bytes / time), not of the nominal peak. "
         "Criterion: median ≥ 0.8 × 57 %. " +
             latency_note(ctx) +
             "Cevahir's 42 matrices have 46 thousand to 55 million nonzeros; on the large ones "
             "here the kernel streams at close to the copy bandwidth unless long "
             "rows leave most threads idle (power laws).");
    return c;
}

Claim cevahir_mpir(const Context& ctx, const std::string& id, const std::string& mpir_key,
                   const std::string& title)
{
    auto c = make(id.c_str(), title.c_str(), "Cevahir et al., §2.2, §4.2 (citing Buttari et al. [6]; on CPUs)",
                  "faster (no number of its own)");
    std::map<std::string, std::map<std::string, const SolveRecord*>>
        best;  // device|commit|matrix -> method
    for (const auto& s : ctx.solves) {
        if (s.ranks != 0 || !s.converged) continue;
        auto& b = best[s.device + ", " + s.commit + ", " + s.matrix][s.method];
        if (!b || s.total_ms < b->total_ms) b = &s;
    }
    std::vector<std::string> parts, reasons;
    int faster = 0, n = 0;
    c.details =
        "| device, commit, matrix | CG | MPIR-CG | MPIR / CG time | iterations MPIR / CG | "
        "per-iteration "
        "cost MPIR / CG |\n|---|---|---|---:|---:|---:|\n";
    for (const auto& [key, m] : best) {
        if (!m.count("cg") || !m.count(mpir_key)) continue;
        const auto* cg = m.at("cg");
        const auto* mp = m.at(mpir_key);
        const double ratio = mp->total_ms / cg->total_ms;
        const double iters = mp->iterations / cg->iterations;
        ++n;
        faster += ratio < 1.0;
        parts.push_back(cg->matrix + " " + x2(ratio) + " (CG " + fmt(cg->total_ms, 2) +
                        " ms, MPIR-CG " + fmt(mp->total_ms, 2) + " ms)");
        reasons.push_back(cg->matrix + ": " + x2(iters) + "× the iterations at " +
                          x2(ratio / iters) + "× the cost each");
        c.details += "| " + key + " | " + fmt(cg->total_ms, 2) + " ms, " + fmt(cg->iterations, 0) +
                     " it, " + cg->variant + " | " + fmt(mp->total_ms, 2) + " ms, " +
                     fmt(mp->iterations, 0) + " it, " + mp->variant + " | " + fmt(ratio, 3) +
                     " | " + x2(iters) + " | " + x2(ratio / iters) + " |\n";
    }
    if (n == 0) {
        c.measured = ctx.solver_given
                         ? "not in the given records (no matrix with a converged cg and " + mpir_key +
                               " solve record of one device and commit)"
                         : "not in the given records (pass --solver-records)";
        c.details.clear();
        return c;
    }
    c.measured = "fastest converged solve of each method, same device and commit: " + join(parts);
    c.verdict = faster == n ? Verdict::holds : faster ? Verdict::partly : Verdict::fails;
    c.why =
        "Criterion: MPIR-CG takes less time on every matrix. " + join(reasons, "; ") +
        ". The float iterations save on bytes, but the float inner CG needs more iterations and "
        "each "
        "iteration keeps fixed launch and reduction costs, which weigh more in the smaller matrix.";
    return c;
}

Claim cevahir_multi_gpu(const Context& ctx)
{
    auto c = make(
        "C5",
        "CG on 2 and 4 GPUs is 1.73× and 2.83× faster than on one (matrices with ≥ 5 M nonzeros)",
        "Cevahir et al., §4.2, Fig. 5 (inner float CG, 8800 GTS over PCIe)",
        "2 GPUs 1.73×, 4 GPUs 2.83× (averages)");
    std::map<std::string, std::map<int, const SolveRecord*>>
        best;  // device|commit|matrix|method -> ranks
    for (const auto& s : ctx.solves) {
        if (s.ranks < 1 || !s.converged) continue;
        auto& b = best[s.device + ", " + s.commit + ", " + s.matrix + ", " + s.method][s.ranks];
        if (!b || s.total_ms < b->total_ms) b = &s;
    }
    std::vector<std::string> parts;
    int n = 0, held = 0;
    std::vector<std::pair<double, bool>> per_iteration;  // ms per iteration on one GPU, held
    for (const auto& [key, m] : best) {
        if (!m.count(1)) continue;
        for (const auto& [ranks, s] : m) {
            if (ranks == 1) continue;
            const double paper = ranks == 2 ? 1.73 : ranks == 4 ? 2.83 : NAN;
            const double speedup = m.at(1)->total_ms / s->total_ms;
            ++n;
            const bool ok = std::isfinite(paper) && speedup >= 0.8 * paper;
            held += ok;
            per_iteration.push_back({m.at(1)->total_ms / m.at(1)->iterations, ok});
            parts.push_back(key + ", " + std::to_string(ranks) + " GPUs: " + x2(speedup) + "×");
        }
    }
    if (n == 0) {
        c.measured = "not in the given records (no dist solve records with 1 and more ranks)";
        return c;
    }
    c.measured = join(parts, "; ");
    c.verdict = held == n ? Verdict::holds : held ? Verdict::partly : Verdict::fails;
    double ok_min = INFINITY, bad_max = 0;
    for (const auto& [t, ok] : per_iteration) {
        if (ok)
            ok_min = std::min(ok_min, t);
        else
            bad_max = std::max(bad_max, t);
    }
    c.why = "Criterion: at least 0.8× the paper's speedup. ";
    if (held && held < n) {
        c.why += "It holds where one GPU needs ≥ " + fmt(ok_min, 2) +
                 " ms per iteration and not where it needs ≤ " + fmt(bad_max, 2) +
                 " ms: the exchange of x and the reductions have a fixed cost per iteration "
                 "that a short iteration cannot hide. ";
    }
    c.why +=
        "The records are of distributed CG as given (method in the key), not of a float inner "
        "solver alone.";
    return c;
}

// ---------------------------------------------------------------- the report

std::string quote(const std::string& a)
{
    return a.find_first_of(" \t'\"$") == std::string::npos ? a : "'" + a + "'";
}

std::string command_line(const ReplicateOptions& o)
{
    std::string s = "spmvlab replicate";
    for (const auto& f : o.files) s += " " + quote(f);
    if (!o.matrix_dirs.empty()) {
        s += " --matrices";
        for (const auto& d : o.matrix_dirs) s += " " + quote(d);
    }
    if (!o.solver_files.empty()) {
        s += " --solver-records";
        for (const auto& f : o.solver_files) s += " " + quote(f);
    }
    if (o.l2_mb > 0) s += " --l2-mb " + fmt(o.l2_mb, 0);
    if (o.latency_mb > 0) s += " --latency-mb " + fmt(o.latency_mb, 3);
    if (!o.out.empty()) s += " --out " + quote(o.out);
    return s;
}

void load_stats(Context& ctx, const ReplicateOptions& o)
{
    if (o.matrix_dirs.empty()) return;
    ctx.have_stats = true;
    std::set<std::string> names;
    for (const auto& c : ctx.cases) names.insert(c.matrix);
    std::size_t i = 0;
    for (const auto& m : names) {
        progress(i++, names.size(), m);
        const auto path = locate_matrix(m, o.matrix_dirs);
        if (path.empty()) {
            ++ctx.stats_missing;
            continue;
        }
        ctx.stats[m] = spmv::analysis::row_stats(load_matrix(path));
    }
    progress_done();
    for (auto& c : ctx.cases) {
        const auto it = ctx.stats.find(c.matrix);
        c.stats = it != ctx.stats.end() ? &it->second : nullptr;
    }
}

std::string cell(std::string s)
{
    for (auto& ch : s) {
        if (ch == '|') ch = '/';
        if (ch == '\n') ch = ' ';
    }
    return s;
}

std::string report(const Context& ctx, const ReplicateOptions& o, const std::vector<Claim>& claims)
{
    std::string md;
    md += "# Replication of the papers' quantitative claims\n\n";
    md +=
        "Generated from the records below by one command, run from the repository root; do not "
        "edit by hand, "
        "rerun it (for example on another GPU's records):\n\n```sh\n" +
        command_line(o) + "\n```\n\n";
    md +=
        "Papers (texts in `shared/seeds/`): Kreutzer et al. 2012, pJDS (K); Wang & Gu 2020, PELLR "
        "(W); "
        "Barbieri et al. 2012, ELLG (B); Cevahir et al. 2009, JDS CSR-like kernel and MPIR-CG "
        "(C).\n\n";
    md +=
        "## Records\n\n| record | device | commit | date | precision | matrices | copy bandwidth "
        "|\n"
        "|---|---|---|---|---|---:|---:|\n";
    for (const auto& f : ctx.files) {
        std::string precs;
        for (const char* p : {"dp", "sp"}) {
            if (f.precisions.count(p)) precs += (precs.empty() ? "" : ", ") + upper(p);
        }
        md += "| `" + f.path + "` | " + f.device + " | `" + f.commit + "` | " + f.date + " | " +
              precs + " | " + std::to_string(f.matrices.size()) + " | " + fmt(f.copy_gbs, 0) +
              " GB/s |\n";
    }
    if (!ctx.solves.empty()) {
        md +=
            "\nSolver records:\n\n| record | device | commit | date | method | matrix | variant | "
            "GPUs | time |\n"
            "|---|---|---|---|---|---|---|---:|---:|\n";
        for (const auto& s : ctx.solves) {
            md += "| `" + s.path + "` | " + s.device + " | `" + s.commit + "` | " + s.date + " | " +
                  s.method + " | " + s.matrix + " | " + s.variant + " | " +
                  std::to_string(std::max(s.ranks, 1)) + " | " + fmt(s.total_ms, 2) + " ms |\n";
        }
    }
    md += "\n## How the records are read\n\n";
    md +=
        "- A ratio `a / b` is GF/s of kernel a over GF/s of kernel b on the same matrix, precision "
        "and record "
        "(GF/s = 2 nnz / median kernel time, L2 as the record says). A matrix counts once per "
        "precision.\n";
    md +=
        "- Kernels for the papers' formats: ELLPACK `ell`, ELLPACK-R `ellr`, pJDS `pjds`, PELLR "
        "`pellr`, BiELL "
        "`biell`, BiJAD `bijad`, HYB `hyb`, ELLG `ellg`, JDS `jds` (Cevahir's basic JDS), JDS "
        "CSR-like `jds_csr`, "
        "CSR `csr` (one thread per row), CSR vector `csr_vector`, cuSPARSE CSR "
        "`cusparse_csr_alg1`.\n";
    for (const auto& [device, d] : ctx.devices) {
        std::size_t n[n_classes] = {};
        for (const auto& c : ctx.cases) {
            if (c.file->device == device) ++n[c.size];
        }
        md += "- Size classes on " + device +
              " (by the minimum bytes of one SpMV, `min_bytes`): **latency-bound** "
              "below " +
              mb(d.latency_bytes) +
              (o.latency_mb > 0
                   ? std::string(" (--latency-mb)")
                   : " = " + us(d.floor_ms) + " (median time of the fastest kernel on the " +
                         std::to_string(d.floor_matrices) + " smallest cases) × " +
                         fmt(d.copy_gbs, 0) +
                         " GB/s: streaming the matrix takes less than the launch "
                         "and latency floor") +
              " (" + std::to_string(n[0]) +
              " matrix-precision cases); **large** from 2 × L2 = " + mb(2 * d.l2_bytes) +
              (d.l2_assumed ? " (L2 assumed 50 MB; --l2-mb)" : "") + " (" + std::to_string(n[2]) +
              "); **medium** in between (" + std::to_string(n[1]) + ").\n";
    }
    if (ctx.have_stats) {
        md +=
            "- Row-length statistics (σ, ave, max − min as in PELLR Table 1) from the matrices "
            "themselves "
            "(--matrices" +
            (ctx.stats_missing ? ", " + std::to_string(ctx.stats_missing) + " not found"
                               : std::string()) +
            ").\n";
    }
    md +=
        "- Verdicts: **holds** where the criterion (given in each row) is met in every size class "
        "and precision, "
        "**holds partly** where in some, **does not hold** where in none.\n\n";
    md +=
        "## Verdicts\n\n| # | claim | paper, section | paper's number | measured | verdict | why "
        "|\n"
        "|---|---|---|---|---|---|---|\n";
    for (const auto& c : claims) {
        md += "| " + c.id + " | " + cell(c.text) + " | " + cell(c.where) + " | " + cell(c.paper) +
              " | " + cell(c.measured) + " | **" + verdict_text(c.verdict) + "** | " + cell(c.why) +
              " |\n";
    }
    md +=
        "\n## Not assessed here\n\n"
        "- Absolute rates of the papers' GPUs (Cevahir's 11.6 GF/s SpMV and 24.6 GF/s CG, "
        "Barbieri's MFLOPS, "
        "Kreutzer's GF/s): other hardware; the rows above compare ratios.\n"
        "- Comparisons with CPUs (Kreutzer's Westmere CRS, Barbieri's CPU column, Cevahir's OSKI): "
        "no CPU records.\n"
        "- Kreutzer §III–IV, multi-node scaling (84 % parallel efficiency on 32 nodes): one node "
        "only.\n"
        "- Wang & Gu's single matrices (memplus, lnsp3937, ...): not in the collection.\n\n";
    md += "## Details\n";
    for (const auto& c : claims) {
        if (c.details.empty()) continue;
        md += "\n### " + c.id + ": " + c.text + "\n\n" + c.details;
    }
    return md;
}

void run(const ReplicateOptions& o)
{
    Context ctx;
    for (const auto& f : o.files) read_bench(ctx, f);
    for (const auto& f : o.solver_files) read_solver(ctx, f);
    ctx.solver_given = !o.solver_files.empty();
    if (ctx.cases.empty()) SPMV_THROW(spmv::InvalidArgument, "no results in " + join(o.files));
    classify(ctx, o);
    load_stats(ctx, o);
    std::vector<Claim> claims = {
        kreutzer_performance(ctx),
        kreutzer_penalty(ctx),
        kreutzer_memory(ctx),
        kreutzer_pcie(ctx, false),
        kreutzer_pcie(ctx, true),
        wang_faster_than_ellr(ctx),
        wang_speedup(ctx),
        wang_best(ctx),
        wang_hyb(ctx, true),
        wang_hyb(ctx, false),
        wang_versus(ctx, "W6", "biell", 0.85, "17 of 20 (85 %)", "Wang & Gu, §4, Fig. 9"),
        wang_versus(ctx, "W7", "bijad", 0.75, "15 of 20 (75 %); highest ratio 1.3",
                    "Wang & Gu, §4, Fig. 10"),
        wang_hyb_best(ctx),
        wang_qualitative(ctx, 0),
        wang_qualitative(ctx, 1),
        wang_qualitative(ctx, 2),
        barbieri_ellg(ctx),
        barbieri_transfer(ctx),
        cevahir_speedup(ctx, false),
        cevahir_speedup(ctx, true),
        cevahir_bandwidth(ctx),
        cevahir_mpir(ctx, "C4", "mpir-cg",
                     "Mixed-precision CG (the project's refinement: x += a float inner CG's "
                     "solution) is faster than double-precision CG"),
        cevahir_mpir(ctx, "C4b", "mpir-cg (pcg)",
                     "Mixed-precision CG as Cevahir writes it (double flexible PCG, float inner "
                     "CG of a fixed number of iterations as preconditioner) is faster than double "
                     "CG"),
        cevahir_multi_gpu(ctx),
    };
    const auto md = report(ctx, o, claims);
    if (o.out.empty()) {
        std::fputs(md.c_str(), stdout);
        return;
    }
    write_file(o.out, md);
    int n[4] = {};
    for (const auto& c : claims) ++n[static_cast<int>(c.verdict)];
    std::printf(
        "%s: %zu claims: %d hold, %d hold partly, %d do not hold, %d not in the given records\n",
        o.out.c_str(), claims.size(), n[0], n[1], n[2], n[3]);
}

}  // namespace

void add_replicate_command(CLI::App& app)
{
    auto o = std::make_shared<ReplicateOptions>();
    auto* cmd = app.add_subcommand(
        "replicate",
        "The papers' quantitative claims against `spmvlab bench --gpu --json-out` records "
        "(and solver records): Markdown, one row per claim with the paper's number, the measured "
        "one "
        "and a verdict, split by matrix size");
    cmd->add_option("records", o->files, "JSON files written by spmvlab bench --gpu --json-out")
        ->required();
    cmd->add_option(
        "--matrices", o->matrix_dirs,
        "directories holding the records' .mtx files (row-length σ for PELLR's claims)");
    cmd->add_option(
        "--solver-records", o->solver_files,
        "JSON records of spmvlab solve --json (CG vs MPIR-CG) and dist solve (GPUs); a directory: "
        "its *.json files that are solver records");
    cmd->add_option("--out", o->out, "write the Markdown to FILE (default: standard output)");
    cmd->add_option("--l2-mb", o->l2_mb,
                    "L2 size in MB (default: from the device name, 50 for H100/H200)")
        ->check(positive_number());
    cmd->add_option(
           "--latency-mb", o->latency_mb,
           "latency-bound below this many MB of min_bytes (default: derived from the records)")
        ->check(positive_number());
    cmd->callback([o] { run(*o); });
}

}  // namespace spmvlab
