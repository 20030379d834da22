// The claim engine of `spmvlab replicate` (engine.hpp): records, size classes, samples, the
// evaluation of a claim through the one verdict rule (verdict.hpp) and the Markdown report.
// Each measurement is split by matrix size, because that is where most verdicts change:
//   latency-bound: min bytes < (fastest time of the smallest matrices) x (copy bandwidth), i.e.
//                  streaming the matrix takes less than the launch-and-latency floor;
//   large:         min bytes >= 2 x L2 (as `spmvlab report`), the matrices the papers target;
//   medium:        in between.
// Nothing here is specific to one GPU: run it on another GPU's records to regenerate the report.
#include "replicate/engine.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iterator>

#include <spmv/error.hpp>
#include <spmv/formats/pjds.hpp>

#include "common.hpp"
#include "meta.hpp"

namespace spmvlab::replicate {

double num(const nlohmann::json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<double>() : NAN;
}

std::string str(const nlohmann::json& j, const char* key, const std::string& otherwise)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : otherwise;
}

const char* class_name(int c)
{
    static const char* names[] = {"latency-bound", "medium", "large"};
    return c >= 0 && c < n_classes ? names[c] : "size unknown";
}

const Result* Case::get(const std::string& f) const
{
    const auto it = r.find(f);
    return it != r.end() && it->second.ok() ? &it->second : nullptr;
}

double Case::bytes(const std::string& f) const
{
    const auto it = r.find(f);
    return it != r.end() ? it->second.format_bytes : NAN;
}

double Case::fastest_own_ms() const
{
    double t = NAN;
    for (const auto& [f, x] : r) {
        if (!x.ok() || f.rfind("cusparse_", 0) == 0 || f.find('@') != std::string::npos) continue;
        if (!(x.median_ms >= t)) t = x.median_ms;
    }
    return t;
}

int Context::class_of(double bytes, const std::string& device) const
{
    if (devices.empty() || !std::isfinite(bytes)) return -1;
    const auto it = devices.find(device);
    const auto& d = it != devices.end() ? it->second : devices.begin()->second;
    return !(bytes >= d.latency_bytes) ? latency_bound : bytes >= 2 * d.l2_bytes ? large : medium;
}

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
namespace {

/// Whether a record says its inner CG's reductions (dot products) ran in float: a key naming
/// inner reductions or dot products with the value "float" (or true for a key that names
/// float). The code before the float inner CG wrote no such key.
bool float_reductions(const nlohmann::json& j)
{
    for (const auto& [k, v] : j.items()) {
        const bool names =
            k.find("reduction") != std::string::npos || k.find("dot") != std::string::npos;
        if (!names) continue;
        if (v.is_string() && v.get<std::string>() == "float") return true;
        if (v.is_boolean() && v.get<bool>() && k.find("float") != std::string::npos) return true;
    }
    return false;
}

}  // namespace

void read_solver(Context& ctx, const std::string& path, bool in_dir)
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
        s.pcg = true;
    }
    s.residual = num(j, "final_relative_residual");
    s.rows = num(j, "rows");
    s.nnz = num(j, "nnz");
    s.exchange = str(j, "exchange_path", "");
    s.double_inner_sums = j.contains("inner_double_sums") && j["inner_double_sums"].is_boolean() &&
                          j["inner_double_sums"].get<bool>();
    s.float_inner = j.contains("inner_double_sums") && !s.double_inner_sums && float_reductions(j);
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

/// A `dist bench --json-out` record (it has "modes"); in a directory, other files are skipped.
void read_dist(Context& ctx, const std::string& path, bool in_dir)
{
    if (!in_dir && std::filesystem::is_directory(path)) {
        std::vector<std::string> files;
        for (const auto& e : std::filesystem::directory_iterator(path)) {
            if (e.path().extension() == ".json") files.push_back(e.path().string());
        }
        std::sort(files.begin(), files.end());
        const auto before = ctx.dist.size();
        for (const auto& f : files) read_dist(ctx, f, true);
        if (ctx.dist.size() == before)
            SPMV_THROW(spmv::InvalidArgument, path + ": no dist bench records (*.json) in it");
        return;
    }
    const auto j = read_json_file(path, "a dist bench record");
    const bool is_dist = j.is_object() && j.contains("modes") && j["modes"].is_array();
    if (!is_dist) {
        if (in_dir) return;
        SPMV_THROW(spmv::InvalidArgument,
                   path +
                       ": not a dist bench record (no \"modes\"; write it with spmvlab dist "
                       "bench --json-out)");
    }
    DistBench d;
    d.path = path;
    d.device = str(j, "devices", str(j, "device"));
    d.commit = str(j, "commit", j.contains("meta") ? str(j["meta"], "commit") : "?");
    d.date = str(j, "date", j.contains("meta") ? str(j["meta"], "date") : "?");
    d.matrix = str(j, "matrix");
    d.exchange = str(j, "exchange_path", "?");
    d.precision = str(j, "precision", "double");
    d.partition = str(j, "partition", "?");
    d.format = str(j, "format", "?");
    d.ranks = static_cast<int>(num(j, "ranks"));
    for (const auto& m : j["modes"]) {
        const auto mode = str(m, "mode", "");
        const double t = num(m, "median_us");
        if (mode.empty() || !(t > 0)) continue;
        d.us[mode] = t;
        if (std::isfinite(num(m, "single_process_us"))) d.single_us = num(m, "single_process_us");
        if (num(m, "gflops") > 0) d.nnz = num(m, "gflops") * 1e9 * t * 1e-6 / 2.0;
    }
    if (d.us.empty() || d.ranks < 1)
        SPMV_THROW(spmv::InvalidArgument,
                   path + ": dist bench record without timed modes or ranks");
    ctx.dist.push_back(d);
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
static double pcie_bandwidth(const Context& ctx, const std::string& device)
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

void classify(Context& ctx, const Options& o)
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

double min_bytes(double rows, double nnz, int value_bytes)
{
    return nnz * (value_bytes + 4) + (rows + 1) * 4 + rows * 2.0 * value_bytes;
}

int pde_size(const std::string& m)
{
    const std::string head = "gen:pde:size=";
    if (m.rfind(head, 0) != 0) return 0;
    const auto rest = m.substr(head.size());
    return !rest.empty() && rest.find_first_not_of("0123456789") == std::string::npos
               ? std::stoi(rest)
               : 0;
}

std::pair<double, double> pde_shape(const std::string& matrix)
{
    const double k = pde_size(matrix);
    if (k <= 0) return {NAN, NAN};
    return {k * k * k, 7 * k * k * k - 6 * k * k};  // 7-point stencil, boundary rows shorter
}

void load_matrices(Context& ctx, const Options& o)
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
        const auto a = load_matrix(path);
        auto& f = ctx.facts[m];
        f.stats = spmv::analysis::row_stats(a);
        ctx.stats[m] = f.stats;
        f.rows = a.num_rows;
        f.cols = a.num_cols;
        f.nnz = static_cast<double>(a.values.size());
        std::int64_t lo = a.num_rows > 0 ? INT64_MAX : 0, hi = 0;
        for (std::int32_t r = 0; r < a.num_rows; ++r) {
            const std::int64_t len = a.row_ptrs[r + 1] - a.row_ptrs[r];
            lo = std::min(lo, len);
            hi = std::max(hi, len);
        }
        f.max_len = static_cast<double>(hi);
        f.min_len = static_cast<double>(lo);
        f.ell_slots = f.rows * f.max_len;
        try {  // Kreutzer's pJDS with b_r = 32, the rows not padded to a multiple of b_r
            const auto p = spmv::to_pjds(a, spmv::PjdsOptions{});
            const auto fp = spmv::footprint(p);
            f.pjds_slots = static_cast<double>(fp.stored_entries);
            f.pjds_bytes = static_cast<double>(fp.total_bytes());
        } catch (const spmv::Error&) {
        }
    }
    progress_done();
    for (auto& c : ctx.cases) {
        const auto it = ctx.facts.find(c.matrix);
        c.facts = it != ctx.facts.end() ? &it->second : nullptr;
        c.stats = c.facts ? &c.facts->stats : nullptr;
    }
}

Sample sample(double v)
{
    Sample s;
    s.v = v;
    return s;
}
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
std::string pct(double v, int digits)
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

std::string join(const std::vector<std::string>& v, const std::string& sep)
{
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
    return s;
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

// ---------------------------------------------------------------- claims and the rule

Claim make(const char* id, const std::string& text, const std::string& where,
           const std::string& paper)
{
    Claim c;
    c.id = id;
    c.text = text;
    c.where = where;
    c.paper = paper;
    return c;
}

PaperKind every_class(const std::string& why)
{
    PaperKind k;
    k.text = "every size class (" + why + ")";
    return k;
}

PaperKind paper_kind(const Context& ctx, const std::vector<std::pair<double, double>>& shapes,
                     const std::string& which)
{
    PaperKind k;
    if (ctx.devices.empty()) return every_class(which);
    for (auto& c : k.cls) c = false;
    double lo = INFINITY, hi = 0;
    for (const auto& [device, d] : ctx.devices) {
        for (const int vb : {4, 8}) {
            for (const auto& [rows, nnz] : shapes) {
                const double b = min_bytes(rows, nnz, vb);
                k.cls[ctx.class_of(b, device)] = true;
                lo = std::min(lo, nnz);
                hi = std::max(hi, nnz);
            }
        }
    }
    std::string names;
    for (int c = 0; c < n_classes; ++c) {
        if (k.cls[c]) names += (names.empty() ? "" : ", ") + std::string(class_name(c));
    }
    auto e = [](double v) {
        char b[32];
        std::snprintf(b, sizeof b, "%.1e", v);
        return std::string(b);
    };
    k.text = names + " (" + which + ": " + e(lo) + " to " + e(hi) + " nonzeros)";
    return k;
}

namespace {

std::string statistic_cell(const Target& t, const CellResult& r)
{
    if (r.n == 0) return "-";
    if (t.statistic == Statistic::each_matrix) {
        return std::to_string(r.n - r.outside) + " of " + std::to_string(r.n) + " in the band";
    }
    return t.scale == Scale::share ? pct(r.statistic) : fmt(r.statistic, 3);
}

}  // namespace

Outcome evaluate(const Split& split, const Target& t, const PaperKind& kind, const Check& c,
                 const std::string& against, const std::string& absent)
{
    Outcome o;
    o.table =
        "| precision | matrices | n | measured | statistic | paper's kind | meets |\n"
        "|---|---|---:|---|---:|---|---|\n";
    std::vector<Cell> cells;
    std::vector<std::string> descriptions;
    std::vector<std::size_t> sizes;
    for (const char* p : {"dp", "sp"}) {
        if (!split.count(p) || split.at(p).empty()) continue;
        const auto& all = split.at(p);
        o.measured += (o.measured.empty() ? "" : "; ") + upper(p) + ", " +
                      std::to_string(all.size()) + " matrices: " + c.describe(all);
        for (int k = 0; k < n_classes; ++k) {
            const auto s = in_class(all, k);
            if (s.empty()) continue;
            Cell cell;
            cell.label = upper(p) + " " + class_name(k);
            cell.paper_kind = kind.cls[k];
            if (c.aggregate) {
                cell.values.push_back(c.aggregate(s));
            } else {
                for (const auto& x : s) cell.values.push_back(x.v);
            }
            cells.push_back(cell);
            sizes.push_back(s.size());
            descriptions.push_back(c.describe(s));
        }
    }
    o.j = judge(t, cells, against, absent);
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const auto& r = o.j.cells[i];
        const auto bar = cells[i].label.find(' ');
        o.table += "| " + cells[i].label.substr(0, bar) + " | " + cells[i].label.substr(bar + 1) +
                   " | " + std::to_string(sizes[i]) + " | " + descriptions[i] + " | " +
                   statistic_cell(t, r) + " | " + (r.paper_kind ? "yes" : "no") + " | " +
                   (r.met ? "yes" : "no") + " |\n";
    }
    return o;
}

void fill(Claim& c, const Outcome& o, const Target& t, const PaperKind& kind,
          const std::string& why)
{
    c.j = o.j;
    c.measured = o.measured.empty() ? "no matching records" : o.measured;
    c.why = "Band: " + band_text(t) + "; paper's kind: " + kind.text + ". " + why;
    c.details = o.table;
}

void fill_cells(Claim& c, const Target& t, const std::vector<Cell>& cells,
                const std::string& kind_text, const std::string& why, const std::string& against,
                const std::string& absent)
{
    c.j = judge(t, cells, against, absent);
    c.why = "Band: " + band_text(t) + "; paper's kind: " + kind_text + ". " + why;
    std::string table =
        "| cell | n | statistic | paper's kind | meets |\n|---|---:|---:|---|---|\n";
    for (const auto& r : c.j.cells) {
        table += "| " + r.label + " | " + std::to_string(r.n) + " | " + statistic_cell(t, r) +
                 " | " + (r.paper_kind ? "yes" : "no") + " | " + (r.met ? "yes" : "no") + " |\n";
    }
    c.details = table + (c.details.empty() ? "" : "\n" + c.details);
}

static std::string quote(const std::string& a)
{
    return a.find_first_of(" \t'\"$") == std::string::npos ? a : "'" + a + "'";
}

static std::string command_line(const Options& o)
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
    if (!o.dist_files.empty()) {
        s += " --dist-records";
        for (const auto& f : o.dist_files) s += " " + quote(f);
    }
    if (o.l2_mb > 0) s += " --l2-mb " + fmt(o.l2_mb, 0);
    if (o.latency_mb > 0) s += " --latency-mb " + fmt(o.latency_mb, 3);
    if (!o.out.empty()) s += " --out " + quote(o.out);
    return s;
}

static std::string cell(std::string s)
{
    for (auto& ch : s) {
        if (ch == '|') ch = '/';
        if (ch == '\n') ch = ' ';
    }
    return s;
}

std::string report(const Context& ctx, const Options& o, const std::vector<Claim>& claims)
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
        "(C). Rows marked **ours** are the project's own claims, not a paper's.\n\n";
    md += rule_text();
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
            "\nSolver records (inner CG: for Cevahir's outer PCG, \"old code (double inner "
            "sums)\" marks records whose inner CG added its SpMV products and dot products in "
            "double, `inner_double_sums: true`; \"float inner CG\" the records that say their "
            "inner reductions ran in float):\n\n"
            "| record | device | commit | date | method | matrix | variant | GPUs | time | "
            "final residual | inner CG |\n"
            "|---|---|---|---|---|---|---|---:|---:|---:|---|\n";
        for (const auto& s : ctx.solves) {
            const std::string inner = s.method == "cg" ? "-"
                                      : s.float_inner  ? "float inner CG"
                                      : s.double_inner_sums
                                          ? "old code (double inner sums)"
                                          : "float SpMV sums (reductions not recorded)";
            md += "| `" + s.path + "` | " + s.device + " | `" + s.commit + "` | " + s.date + " | " +
                  s.method + " | " + s.matrix + " | " + s.variant + " | " +
                  std::to_string(std::max(s.ranks, 1)) + " | " + fmt(s.total_ms, 2) + " ms | " +
                  sci(s.residual) + " | " + inner + " |\n";
        }
    }
    if (!ctx.dist.empty()) {
        md +=
            "\nDistributed SpMV records (`spmvlab dist bench`; µs per product, median of the "
            "slowest rank; T1 the same run's single-process SpMV):\n\n"
            "| record | device | commit | matrix | GPUs | exchange | precision | partition | "
            "T1 | modes |\n|---|---|---|---|---:|---|---|---|---:|---|\n";
        for (const auto& d : ctx.dist) {
            std::string modes;
            for (const auto& [m, t] : d.us)
                modes += (modes.empty() ? "" : ", ") + m + " " + fmt(t, 1);
            md += "| `" + d.path + "` | " + d.device + " | `" + d.commit + "` | " + d.matrix +
                  " | " + std::to_string(d.ranks) + " | " + d.exchange + " | " + d.precision +
                  " | " + d.partition + " | " + fmt(d.single_us, 1) + " | " + modes + " |\n";
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
    if (!ctx.solves.empty()) {
        md +=
            "- Solver records: a matrix's size class is that of one CSR SpMV in double on the "
            "record's GPU (the first bench device's thresholds where the bench records have none "
            "of that GPU); multi-GPU records pair with single-GPU ones of the same code.\n";
    }
    md += "- Verdicts: by the rule above; each row's band and paper's kind are in its why.\n\n";
    md +=
        "## Verdicts\n\n| # | claim | paper, section | paper's number | measured | verdict | why "
        "|\n"
        "|---|---|---|---|---|---|---|\n";
    for (const auto& c : claims) {
        md += "| " + c.id + " | " + (c.ours ? "**ours:** " : "") + cell(c.text) + " | " +
              cell(c.where) + " | " + cell(c.paper) + " | " + cell(c.measured) + " | **" +
              cell(c.j.text) + "** | " + cell(c.why) + " |\n";
    }
    md +=
        "\n## Not assessed here\n\n"
        "- Absolute rates of the papers' GPUs (Cevahir's 11.6 GF/s SpMV and 24.6 GF/s CG, "
        "Barbieri's MFLOPS, "
        "Kreutzer's GF/s): other hardware; the rows above compare ratios.\n"
        "- Comparisons with CPUs (Kreutzer's Westmere CRS, Barbieri's CPU column, Cevahir's OSKI): "
        "no CPU records.\n"
        "- Kreutzer §III on 32 nodes over InfiniBand: the records are of 2 and 4 GPUs of one "
        "host; the §III rows judge what those show.\n"
        "- Wang & Gu's single matrices (memplus, lnsp3937, ...): not in the collection.\n\n";
    md += "## Details\n";
    for (const auto& c : claims) {
        if (c.details.empty()) continue;
        md += "\n### " + c.id + ": " + (c.ours ? "(ours) " : "") + c.text + "\n\n" + "Verdict: **" +
              c.j.text + "**.\n\n" + c.details;
    }
    return md;
}

}  // namespace spmvlab::replicate
