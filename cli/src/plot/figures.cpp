// Bench records -> the charts of `spmvlab plot` (figures.hpp).
#include "plot/figures.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include <spmv/error.hpp>
#include <spmv/model/format_model.hpp>
#include <spmv/model/gpu_profile.hpp>
#include <spmv/viz/colour.hpp>

#include "plot/rules.hpp"

namespace spmvlab::plot {
namespace {

namespace oi = spmv::viz::okabe_ito;
const Rgb own_colour = spmv::viz::palette().measured;     // blue
const Rgb base_colour = spmv::viz::palette().baseline;    // reddish purple
const Rgb second_colour = oi::vermillion;

std::string precision_word(const std::string& p)
{
    return p == "dp" ? "double precision" : "single precision";
}

std::string matrices(std::size_t n)
{
    return counted(static_cast<std::int64_t>(n), "matrix", "matrices");
}

/// What the records' rows are called in the GF/s figures: a GPU record times kernel variants
/// (and cuSPARSE baselines), a CPU record the host reference SpMV of each storage format (one
/// implementation per format: no kernels, no variants).
struct Words {
    std::string one;          ///< "kernel variant" / "format"
    std::string own;          ///< "own variant" / "format"
    std::string legend;       ///< the legend's entry of the own rows
    std::string row_title;    ///< above the row labels
    std::string fastest_per;  ///< "Fastest kernel" / "Fastest format"
};
Words words(const BenchData& d)
{
    if (d.host()) {
        return {"format", "format", "format (host reference SpMV, 1 thread)", "format",
                "Fastest format"};
    }
    return {"kernel variant", "own variant", "own kernel variant", "variant", "Fastest kernel"};
}

/// The rows of one precision, grouped by matrix in first-seen order.
struct ByMatrix {
    std::vector<std::string> order;
    std::map<std::string, std::vector<const Measurement*>> rows;
};
ByMatrix by_matrix(const BenchData& d, const std::string& precision,
                   const std::vector<std::string>& variants)
{
    ByMatrix b;
    for (const auto& m : d.rows) {
        if (m.precision != precision || !selected(m, variants)) continue;
        auto& v = b.rows[m.matrix];
        if (v.empty()) b.order.push_back(m.matrix);
        v.push_back(&m);
    }
    return b;
}

const Measurement* fastest(const std::vector<const Measurement*>& rows, bool baseline)
{
    const Measurement* best = nullptr;
    for (const auto* m : rows) {
        if (m->baseline() == baseline &&
            (!best || faster(m->median_s, m->variant, best->median_s, best->variant))) {
            best = m;
        }
    }
    return best;
}

double geomean(const std::vector<double>& v)
{
    double s = 0;
    for (const double x : v) s += std::log(x);
    return v.empty() ? NAN : std::exp(s / static_cast<double>(v.size()));
}

std::string ratio_stats(const std::vector<double>& r, const std::string& what)
{
    const auto q = quartiles(r);
    const auto wins = std::count_if(r.begin(), r.end(), [](double x) { return x >= 1.0; });
    return what + ": geometric mean " + num3(geomean(r)) + "x, median " + num3(q.median) +
           "x, own kernel as fast or faster on " + std::to_string(wins) + " of " +
           matrices(r.size());
}

}  // namespace

bool selected(const Measurement& m, const std::vector<std::string>& variants)
{
    return variants.empty() || m.baseline() ||
           std::find(variants.begin(), variants.end(), m.variant) != variants.end();
}

std::vector<std::string> provenance(const BenchData& d, const std::string& precision)
{
    SPMV_EXPECTS(!d.runs.empty(), "plot: no records");
    const auto& r0 = d.runs.front();
    std::string line1 = r0.device + "  |  " + precision_word(precision);
    if (!r0.cache_policy.empty()) line1 += "  |  cache: " + r0.cache_policy;
    std::set<std::string> commits, dates, files;
    std::string params;
    for (const auto& r : d.runs) {
        commits.insert(r.commit);
        dates.insert(r.date);
        const auto p = std::filesystem::path(r.file);
        files.insert((p.parent_path().filename() / p.filename()).string());
        const std::string this_params =
            "C=" + std::to_string(r.params.slice_height) + ", b_r=" +
            std::to_string(r.params.block_rows) + ", sigma " +
            (r.params.sort_window > 0 ? std::to_string(r.params.sort_window) : "auto");
        if (params.find(this_params) == std::string::npos) {
            params += (params.empty() ? "" : " / ") + this_params;
        }
    }
    line1 += "  |  " + params;
    auto join = [](const std::set<std::string>& s) {
        std::string out;
        for (const auto& x : s) out += (out.empty() ? "" : ", ") + x;
        return out;
    };
    std::string when = *dates.begin();
    if (dates.size() > 1) when += " .. " + *dates.rbegin();
    std::string line2 = "commit " + join(commits) + "  |  " + when + "  |  " +
                        std::to_string(d.runs.size()) + (d.runs.size() == 1 ? " record: " : " records: ") +
                        join(files);
    return {line1, line2};  // draw() cuts them to the figure's width
}

RowsChart gflops_variants_chart(const BenchData& d, const std::string& precision,
                                const std::vector<std::string>& variants)
{
    const auto b = by_matrix(d, precision, variants);
    const auto w = words(d);
    std::map<std::string, std::vector<double>> gf;
    std::map<std::string, std::vector<std::string>> tips;  // one per dot: what it is
    std::map<std::string, int> wins;
    std::map<std::string, bool> base;
    for (const auto& name : b.order) {
        const Measurement* best = nullptr;
        for (const auto* m : b.rows.at(name)) {
            gf[m->variant].push_back(m->gflops());
            tips[m->variant].push_back(name + ": " + m->variant + " " + num3(m->gflops()) +
                                       " GF/s (median " + num3(m->median_s * 1e3) + " ms)");
            base[m->variant] = m->baseline();
            if (!best || faster(m->median_s, m->variant, best->median_s, best->variant)) best = m;
        }
        ++wins[best->variant];
    }
    SPMV_EXPECTS(!gf.empty(), "plot: no measurement of " + precision);
    struct V {
        std::string name;
        Quartiles q;
    };
    std::vector<V> order;
    for (const auto& [name, v] : gf) order.push_back({name, quartiles(v)});
    std::stable_sort(order.begin(), order.end(),
                     [](const V& a, const V& c) { return a.q.median > c.q.median; });
    RowsChart c;
    const auto total = b.order.size();
    c.header.title = "GF/s of every " + w.one + " over " + matrices(total) + " (" +
                     precision_word(precision) + ")";
    c.header.provenance = provenance(d, precision);
    c.header.series = {{w.legend, own_colour, Shape::square, false}};
    if (std::any_of(base.begin(), base.end(), [](const auto& x) { return x.second; })) {
        c.header.series.push_back({"cuSPARSE baseline", base_colour, Shape::square, false});
    }
    c.header.footer = {
        "Box: quartiles and median over the matrices the " + w.one + " ran on (n = their number "
        "when not all); dots: one per matrix.",
        (total == 1 ? "Right: the " + w.one + " that was the fastest of those shown on the matrix."
                    : "Right: on how many of the " + matrices(total) + " the " + w.one +
                          " was the fastest of those shown.") +
            " Sorted by median GF/s."};
    c.value_label = "GF/s = 2 nnz / median SpMV time (log scale)";
    c.row_label_title = w.row_title;
    c.column_width = 1150;
    c.row_height = 16;
    for (const auto& v : order) {
        Row r;
        const auto& vals = gf.at(v.name);
        r.label = v.name + (vals.size() < total ? " (n=" + std::to_string(vals.size()) + ")" : "");
        r.q1 = v.q.q1;
        r.median = v.q.median;
        r.q3 = v.q.q3;
        r.strip = vals;
        r.strip_tips = tips.at(v.name);
        r.box_tip = v.name + ": median " + num3(v.q.median) + " GF/s, quartiles " +
                    num3(v.q.q1) + " .. " + num3(v.q.q3) + " GF/s over " + matrices(vals.size());
        r.box_colour = base.at(v.name) ? base_colour : own_colour;
        if (wins.count(v.name)) r.note = "fastest on " + std::to_string(wins.at(v.name));
        c.rows.push_back(std::move(r));
    }
    return c;
}

RowsChart gflops_matrices_chart(const BenchData& d, const std::string& precision,
                                const std::vector<std::string>& variants)
{
    const auto b = by_matrix(d, precision, variants);
    const auto w = words(d);
    struct M {
        std::string name;
        const Measurement *best, *worst, *base;
    };
    std::vector<M> ms;
    bool any_base = false;
    for (const auto& name : b.order) {
        const auto& rows = b.rows.at(name);
        const auto* best = fastest(rows, false);
        if (!best) continue;
        const Measurement* worst = best;
        for (const auto* m : rows) {  // the slowest: the last by the same rule
            if (!m->baseline() &&
                faster(worst->median_s, worst->variant, m->median_s, m->variant)) {
                worst = m;
            }
        }
        ms.push_back({name, best, worst, fastest(rows, true)});
        any_base = any_base || ms.back().base;
    }
    SPMV_EXPECTS(!ms.empty(), "plot: no " + w.one + " measured in " + precision);
    std::stable_sort(ms.begin(), ms.end(), [](const M& a, const M& c) {
        return a.best->gflops() > c.best->gflops();
    });
    RowsChart c;
    c.header.title = w.fastest_per + " per matrix, " + matrices(ms.size()) + " (" +
                     precision_word(precision) + ")";
    c.header.provenance = provenance(d, precision);
    c.header.series = {{"fastest " + w.own + " (named right)", own_colour, Shape::circle, false}};
    if (any_base) {
        c.header.series.push_back({"fastest cuSPARSE variant", base_colour, Shape::diamond, false});
    }
    c.header.footer = {"Grey line: slowest to fastest " + w.own + " on that matrix (how much the "
                       "choice of format matters). Sorted by the fastest " + w.own + "'s GF/s."};
    c.value_label = "GF/s = 2 nnz / median SpMV time (log scale)";
    c.row_label_title = "matrix";
    c.max_rows_per_column = 52;
    c.column_width = ms.size() > 52 ? 820 : 1100;
    for (const auto& m : ms) {
        Row r;
        r.label = m.name;
        r.note = m.best->variant;
        r.range_lo = m.worst->gflops();
        r.range_hi = m.best->gflops();
        r.marks.push_back({m.best->gflops(), 0,
                           m.name + ": fastest " + w.own + " " + m.best->variant + " " +
                               num3(m.best->gflops()) + " GF/s, slowest " + w.own + " " +
                               m.worst->variant + " " + num3(m.worst->gflops()) + " GF/s"});
        if (m.base) {
            r.marks.push_back({m.base->gflops(), 1,
                               m.name + ": " + m.base->variant + " " + num3(m.base->gflops()) +
                                   " GF/s"});
        }
        c.rows.push_back(std::move(r));
    }
    return c;
}

std::optional<ScatterChart> bandwidth_chart(const BenchData& d, const std::string& precision,
                                            const std::vector<std::string>& variants,
                                            std::string* why_not)
{
    if (!d.gpu()) {
        *why_not = "the records hold no measured copy bandwidth (CPU records: bench without "
                   "--gpu)";
        return std::nullopt;
    }
    const auto b = by_matrix(d, precision, variants);
    ScatterChart c;
    c.header.title = "Fraction of the measured copy bandwidth (" + precision_word(precision) + ")";
    c.header.provenance = provenance(d, precision);
    c.header.series = {{"fastest own variant", own_colour, Shape::circle, false},
                       {"fastest cuSPARSE variant", base_colour, Shape::diamond, false}};
    std::vector<double> own_large, base_large;
    double copy = 0;
    for (const auto& r : d.runs) copy += r.copy_bandwidth_gbs / static_cast<double>(d.runs.size());
    bool any_base = false;
    for (const auto& name : b.order) {
        const auto& rows = b.rows.at(name);
        for (const bool base : {false, true}) {
            const auto* m = fastest(rows, base);
            if (!m || !(m->min_bytes > 0) || !std::isfinite(m->fraction_of_copy())) continue;
            any_base = any_base || base;
            const double pct = 100 * m->fraction_of_copy();
            c.points.push_back({m->min_bytes / 1e6, pct, base ? 1 : 0,
                                name + ": " + m->variant + " " + num3(pct) + " % of " +
                                    num3(m->copy_bandwidth_gbs) + " GB/s, " +
                                    num3(m->min_bytes / 1e6) + " MB", {}});
            if (m->min_bytes >= 100e6) (base ? base_large : own_large).push_back(pct);
        }
    }
    if (c.points.empty()) {
        *why_not = "the records hold no minimum byte counts";
        return std::nullopt;
    }
    if (!any_base) c.header.series.pop_back();
    c.x_label = "minimum bytes an SpMV moves (values, indices, row pointers, x, y), MB";
    c.y_label = "% of measured copy bandwidth";
    c.x_log = true;
    c.y_log = false;
    c.y_min = 0;
    c.lines.push_back({RefLine::horizontal, 100,
                       "copy bandwidth " + num3(copy) + " GB/s, measured in the run = 100 %",
                       {60, 60, 60}, true});
    c.header.footer = {"% of copy bandwidth = minimum bytes / median SpMV time / measured "
                       "device-to-device copy bandwidth (padding and repeated x loads not counted)."};
    if (!own_large.empty()) {
        std::string f = "Matrices moving >= 100 MB: median " + num3(quartiles(own_large).median) +
                        " % (fastest own, " + matrices(own_large.size()) + ")";
        if (!base_large.empty()) f += ", " + num3(quartiles(base_large).median) + " % (cuSPARSE)";
        c.header.footer.push_back(f);
    }
    return c;
}

std::vector<Speedup> speedups(const BenchData& d, const std::string& precision,
                              const std::vector<std::string>& variants)
{
    const auto b = by_matrix(d, precision, variants);
    std::vector<Speedup> out;
    for (const auto& name : b.order) {
        const auto& rows = b.rows.at(name);
        const auto* own = fastest(rows, false);
        const auto* base = fastest(rows, true);
        if (!own || !base) continue;
        Speedup s{name, own->nnz, own->variant, own->gflops(), NAN, base->variant,
                  base->gflops()};
        for (const auto* m : rows) {
            if (m->variant == "cusparse_csr_alg1") s.alg1_gflops = m->gflops();
        }
        out.push_back(std::move(s));
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Speedup& a, const Speedup& c) { return a.nnz < c.nnz; });
    return out;
}

std::optional<ScatterChart> speedup_chart(const BenchData& d, const std::string& precision,
                                          const std::vector<std::string>& variants,
                                          std::string* why_not)
{
    const auto sp = speedups(d, precision, variants);
    if (sp.empty()) {
        *why_not = "the records hold no cuSPARSE baseline (cusparse_* variants: bench --gpu)";
        return std::nullopt;
    }
    std::set<std::string> baselines;
    for (const auto& m : d.rows) {
        if (m.baseline() && m.precision == precision) baselines.insert(m.variant);
    }
    const bool alg1 = baselines.count("cusparse_csr_alg1") > 0;
    const bool several = baselines.size() > 1 || !alg1;
    ScatterChart c;
    c.header.title = "Speedup of the fastest own kernel over cuSPARSE (" +
                     precision_word(precision) + ")";
    c.header.provenance = provenance(d, precision);
    c.header.series = {{"over cuSPARSE CSR ALG1", own_colour, Shape::circle, false},
                       {"over the fastest cuSPARSE variant", second_colour, Shape::triangle, true}};
    std::vector<double> r1, r2;
    for (const auto& s : sp) {
        const std::string own = s.matrix + ": fastest own " + s.best_own + " " +
                                num3(s.best_own_gflops) + " GF/s";
        if (alg1 && std::isfinite(s.alg1_gflops)) {
            r1.push_back(s.best_own_gflops / s.alg1_gflops);
            c.points.push_back({static_cast<double>(s.nnz), r1.back(), 0,
                                own + " / cusparse_csr_alg1 " + num3(s.alg1_gflops) +
                                    " GF/s = " + num3(r1.back()) + "x", {}});
        }
        if (several) {
            r2.push_back(s.best_own_gflops / s.best_baseline_gflops);
            c.points.push_back({static_cast<double>(s.nnz), r2.back(), 1,
                                own + " / " + s.best_baseline + " " +
                                    num3(s.best_baseline_gflops) + " GF/s = " + num3(r2.back()) +
                                    "x", {}});
        }
    }
    // name the three matrices at each end of the first series shown
    std::vector<std::size_t> idx(c.points.size());
    for (std::size_t k = 0; k < idx.size(); ++k) idx[k] = k;
    const int first = c.points.front().series;
    idx.erase(std::remove_if(idx.begin(), idx.end(),
                             [&](std::size_t k) { return c.points[k].series != first; }),
              idx.end());
    std::sort(idx.begin(), idx.end(),
              [&](std::size_t a, std::size_t b) { return c.points[a].y < c.points[b].y; });
    for (std::size_t k = 0; k < idx.size(); ++k) {
        if (k < 3 || k + 3 >= idx.size()) {
            const auto& tip = c.points[idx[k]].tip;
            c.points[idx[k]].label = tip.substr(0, tip.find(": "));  // the matrix
        }
    }
    if (!alg1) c.header.series[0].label += " (not timed)";
    if (!several) {
        c.header.series.pop_back();
        c.header.footer.push_back("The records time one cuSPARSE variant (cusparse_csr_alg1): it "
                                  "is also the fastest cuSPARSE variant.");
    } else {
        std::string list;
        for (const auto& b : baselines) list += (list.empty() ? "" : ", ") + b;
        c.header.footer.push_back("cuSPARSE variants timed: " + list + ".");
    }
    if (!r1.empty()) c.header.footer.push_back(ratio_stats(r1, "Over CSR ALG1"));
    if (!r2.empty()) c.header.footer.push_back(ratio_stats(r2, "Over the fastest cuSPARSE variant"));
    c.x_label = "nonzeros of the matrix";
    c.y_label = "speedup (own GF/s / cuSPARSE GF/s)";
    double lo = 1, hi = 1;
    for (const auto& p : c.points) {
        lo = std::min(lo, p.y);
        hi = std::max(hi, p.y);
    }
    c.y_min = std::min(lo, 0.5);
    c.y_max = std::max(hi, 2.0);
    c.lines.push_back({RefLine::horizontal, 1, "as fast as cuSPARSE", {60, 60, 60}, true});
    return c;
}

std::optional<ModelPoints> model_points(const BenchData& d, const std::vector<std::string>& variants,
                                        const MatrixLoader& load, std::string* why_not)
{
    using namespace spmv::model;
    SPMV_EXPECTS(!d.runs.empty(), "plot: no records");
    const auto* profile = profile_for_device(d.runs.front().device);
    if (!profile) {
        *why_not = "the per-format model predicts GPU kernel times, and no GPU profile (H100, "
                   "H200, A100, C2050, ...: spmv/model/gpu_profile.hpp) matches the records' "
                   "device '" + d.runs.front().device + "'";
        return std::nullopt;
    }
    ModelPoints mp;
    const auto constants = builtin_constants(*profile);
    mp.constants = constants.source;
    std::map<std::string, spmv::FormatParams> params_of;
    for (const auto& r : d.runs) params_of[r.file] = r.params;
    std::vector<std::string> order;
    std::map<std::string, std::vector<const Measurement*>> rows;
    for (const auto& m : d.rows) {
        if (!selected(m, variants) || !find_modelled_variant(m.variant)) continue;
        auto& v = rows[m.matrix];
        if (v.empty()) order.push_back(m.matrix);
        v.push_back(&m);
    }
    for (const auto& name : order) {
        const auto a = load(name);
        if (!a) {
            mp.missing.push_back(name);
            continue;
        }
        std::map<std::tuple<int, int, int>, std::vector<KernelShape>> shapes;
        for (const auto* m : rows.at(name)) {
            const auto& p = params_of.at(m->source);
            auto& sh = shapes[{p.slice_height, p.block_rows, p.sort_window}];
            if (sh.empty()) sh = kernel_shapes(*a, p);
            for (const auto& s : sh) {
                if (s.variant != m->variant || !s.feasible) continue;
                const auto pred = predict(s, constants,
                                          m->precision == "sp" ? Precision::single_precision
                                                               : Precision::double_precision);
                mp.points.push_back({*m, pred.time_s, pred.bound});
            }
        }
    }
    if (mp.points.empty()) {
        *why_not = order.empty() ? "no modelled own kernel variant in the records"
                                 : "none of the records' " + matrices(order.size()) +
                                       " was found (give --matrices DIR)";
        return std::nullopt;
    }
    return mp;
}

std::optional<ScatterChart> model_chart(const BenchData& d, const std::string& precision,
                                        const ModelPoints& mp, std::string* why_not)
{
    static const std::vector<std::pair<std::string, Rgb>> bounds = {
        {"DRAM bandwidth", oi::blue},
        {"L2 gather", oi::bluish_green},
        {"latency", oi::orange},
        {"warp issue", oi::vermillion},
        {"heaviest warp", oi::reddish_purple}};
    ScatterChart c;
    c.header.title = "Per-format model: predicted against measured SpMV time (" +
                     precision_word(precision) + ")";
    c.header.provenance = provenance(d, precision);
    for (const auto& [b, col] : bounds) {
        c.header.series.push_back({"bound by " + b, col, Shape::circle, false});
    }
    std::vector<double> ratios;
    std::set<std::string> names;  // the matrices
    for (const auto& p : mp.points) {
        if (p.measured.precision != precision) continue;
        int s = 0;
        for (std::size_t k = 0; k < bounds.size(); ++k) {
            if (bounds[k].first == p.bound) s = static_cast<int>(k);
        }
        const double meas = p.measured.median_s * 1e6;
        const double pred = p.predicted_s * 1e6;
        ratios.push_back(pred / meas);
        names.insert(p.measured.matrix);
        c.points.push_back({meas, pred, s,
                            p.measured.matrix + " " + p.measured.variant + ": measured " +
                                num3(meas) + " us, predicted " + num3(pred) + " us (" + p.bound +
                                ")", {}});
    }
    if (c.points.empty()) {
        *why_not = "no modelled variant measured in " + precision;
        return std::nullopt;
    }
    std::vector<int> used(bounds.size(), -1);  // the legend lists the bounds that occur
    for (const auto& p : c.points) used[static_cast<std::size_t>(p.series)] = 0;
    std::vector<Series> series;
    for (std::size_t k = 0; k < bounds.size(); ++k) {
        if (used[k] < 0) continue;
        used[k] = static_cast<int>(series.size());
        series.push_back(c.header.series[k]);
    }
    for (auto& p : c.points) p.series = used[static_cast<std::size_t>(p.series)];
    c.header.series = series;
    const auto within = std::count_if(ratios.begin(), ratios.end(),
                                      [](double r) { return std::abs(r - 1) <= 0.25; });
    std::vector<double> abs_log;
    for (const double r : ratios) abs_log.push_back(std::abs(std::log(r)));
    c.header.footer = {
        std::to_string(c.points.size()) + " measurements (" + matrices(names.size()) +
            " x variants): median predicted/measured " + num3(quartiles(ratios).median) +
            ", median |ln ratio| " + num3(quartiles(abs_log).median) + ", within 25 %: " +
            std::to_string(within) + " (" +
            num3(100.0 * static_cast<double>(within) / static_cast<double>(ratios.size())) + " %)",
        fit_text("Constants: " + mp.constants, 12.5, 950)};
    if (!mp.missing.empty()) {
        c.header.footer.push_back(matrices(mp.missing.size()) +
                                  " not found (give --matrices DIR), left out: " +
                                  mp.missing.front() + (mp.missing.size() > 1 ? ", ..." : ""));
    }
    c.x_label = "measured median time per SpMV, us";
    c.y_label = "predicted time per SpMV, us";
    c.square = true;
    c.width = 1000;
    c.height = 1000;
    c.lines = {{RefLine::proportional, 1, "predicted = measured", {0, 0, 0}, false},
               {RefLine::proportional, 1.25, "\u00b125 %", {120, 120, 120}, true},
               {RefLine::proportional, 0.75, "", {120, 120, 120}, true}};
    return c;
}

}  // namespace spmvlab::plot
