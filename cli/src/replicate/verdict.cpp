// The one verdict rule of `spmvlab replicate` (see verdict.hpp).
#include "replicate/verdict.hpp"

#include <algorithm>
#include <limits>

#include "common.hpp"

namespace spmvlab::replicate {

Target at_least(double v, Scale s, Statistic st)
{
    return Target{Bound::at_least, v, NAN, s, st};
}

Target at_most(double v, Scale s, Statistic st)
{
    return Target{Bound::at_most, NAN, v, s, st};
}

Target within(double lo, double hi, Scale s, Statistic st)
{
    return Target{Bound::range, lo, hi, s, st};
}

std::pair<double, double> band(const Target& t)
{
    constexpr double inf = std::numeric_limits<double>::infinity();
    double lo = t.bound == Bound::at_most ? -inf : t.lo;
    double hi = t.bound == Bound::at_least ? inf : t.hi;
    switch (t.scale) {
        case Scale::relative:
            lo = std::isfinite(lo) ? lo * (lo >= 0 ? 1.0 - tolerance : 1.0 + tolerance) : lo;
            hi = std::isfinite(hi) ? hi * (hi >= 0 ? 1.0 + tolerance : 1.0 - tolerance) : hi;
            break;
        case Scale::share:
            lo = std::isfinite(lo) ? std::max(0.0, lo - share_tolerance) : lo;
            hi = std::isfinite(hi) ? std::min(1.0, hi + share_tolerance) : hi;
            break;
        case Scale::exact:
            break;
    }
    return {lo, hi};
}

namespace {

std::string number(double v, Scale s)
{
    if (s == Scale::share) return fmt(100.0 * v, 0) + " %";
    const double a = std::abs(v);
    return fmt(v, a != 0 && a < 0.01 ? 6 : a < 10 ? 3 : 1);
}

const char* statistic_text(Statistic s)
{
    switch (s) {
        case Statistic::each_matrix:
            return "each matrix (at most 10 % outside)";
        case Statistic::median:
            return "median of the matrices";
        case Statistic::mean:
            return "mean (the paper's averages)";
        case Statistic::max:
            return "largest value";
        default:
            return "smallest value";
    }
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const auto n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

std::string band_text(const Target& t)
{
    const auto [lo, hi] = band(t);
    const char* widen = t.scale == Scale::relative ? " 10 %"
                        : t.scale == Scale::share  ? " 10 points"
                                                   : "";
    std::string s;
    if (t.bound == Bound::at_least) {
        s = "≥ " + number(lo, t.scale);
        if (t.scale != Scale::exact) s += " (" + number(t.lo, t.scale) + " −" + widen + ")";
    } else if (t.bound == Bound::at_most) {
        s = "≤ " + number(hi, t.scale);
        if (t.scale != Scale::exact) s += " (" + number(t.hi, t.scale) + " +" + widen + ")";
    } else {
        s = "in [" + number(lo, t.scale) + ", " + number(hi, t.scale) + "]";
        if (t.scale != Scale::exact) {
            s += " (" + number(t.lo, t.scale) + " −" + widen + " to " + number(t.hi, t.scale) +
                 " +" + widen + ")";
        }
    }
    return s + ", " + statistic_text(t.statistic);
}

bool meets(const Target& t, const std::vector<double>& values, CellResult* out)
{
    std::vector<double> v;
    for (const double x : values) {
        if (std::isfinite(x)) v.push_back(x);
    }
    CellResult r;
    if (out) r = *out;
    r.n = v.size();
    r.met = false;
    r.outside = 0;
    r.statistic = NAN;
    if (v.empty()) {
        if (out) *out = r;
        return false;
    }
    const auto [lo, hi] = band(t);
    auto inside = [lo = lo, hi = hi](double x) { return x >= lo && x <= hi; };
    for (const double x : v) r.outside += !inside(x);
    switch (t.statistic) {
        case Statistic::each_matrix: {
            const auto allowed =
                static_cast<std::size_t>(std::floor(outlier_share * static_cast<double>(v.size())));
            r.statistic = static_cast<double>(v.size() - r.outside) / static_cast<double>(v.size());
            r.met = r.outside <= allowed;
            break;
        }
        case Statistic::median:
            r.statistic = median(v);
            r.met = inside(r.statistic);
            break;
        case Statistic::mean: {
            double s = 0;
            for (const double x : v) s += x;
            r.statistic = s / static_cast<double>(v.size());
            r.met = inside(r.statistic);
            break;
        }
        case Statistic::max:
            r.statistic = *std::max_element(v.begin(), v.end());
            r.met = inside(r.statistic);
            break;
        case Statistic::min:
            r.statistic = *std::min_element(v.begin(), v.end());
            r.met = inside(r.statistic);
            break;
    }
    if (out) *out = r;
    return r.met;
}

Judgement judge(const Target& t, const std::vector<Cell>& cells, const std::string& against,
                const std::string& absent)
{
    Judgement j;
    std::vector<std::string> met, missed;
    bool any_value = false;
    for (const auto& c : cells) {
        CellResult r;
        r.label = c.label;
        r.paper_kind = c.paper_kind;
        meets(t, c.values, &r);
        any_value = any_value || r.n > 0;
        if (r.n > 0 && c.paper_kind) (r.met ? met : missed).push_back(c.label);
        j.cells.push_back(r);
    }
    auto list = [](const std::vector<std::string>& v) {
        std::string s;
        for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
        return s;
    };
    if (met.empty() && missed.empty()) {
        j.verdict = Verdict::not_measured;
        j.text = "not measured";
        if (!absent.empty()) {
            j.text += " (" + absent + ")";
        } else if (any_value) {
            j.text += " on the paper's kind of matrix";
        }
    } else if (missed.empty()) {
        j.verdict = Verdict::holds;
        j.text = "holds";
    } else if (met.empty()) {
        j.verdict = Verdict::fails;
        j.text = "does not hold";
    } else {
        j.verdict = Verdict::partly;
        j.text = "holds partly: on " + list(met) + "; not on " + list(missed);
    }
    if (!against.empty()) j.text += " (against " + against + ")";
    return j;
}

const char* verdict_word(Verdict v)
{
    switch (v) {
        case Verdict::holds:
            return "holds";
        case Verdict::partly:
            return "holds partly";
        case Verdict::fails:
            return "does not hold";
        default:
            return "not measured";
    }
}

std::string rule_text()
{
    return "## The verdict rule\n\n"
           "One rule, applied by one function (`judge` in `cli/src/replicate/verdict.cpp`) to "
           "every row:\n\n"
           "1. **The band.** The paper's number is widened by one tolerance: a value or a range "
           "[lo, hi] becomes [lo × (1 − 10 %), hi × (1 + 10 %)]; a share of matrices "
           "[lo − 10, hi + 10] percentage points (a share of 20 matrices moves in steps of "
           "5 points). A qualitative claim (\"faster\", \"fewer bytes\") has no number to "
           "widen: its 1.0 is exact, and so is a closed form (the worst case (b_r + 1) N − b_r); "
           "a claim of sameness (\"the same or better\", \"no advantage\") takes its 1.0 as a "
           "number and widens it. Both bounds of a range are tested; \"at least\" and \"at "
           "most\" claims test their one bound (a speedup larger than the paper's does not "
           "contradict it).\n"
           "2. **A cell** (a precision × size class, an exchange path, a GPU count) meets the "
           "claim when its statistic lies in the band. The statistic is the paper's: the median "
           "of the matrices, the mean (where the paper gives averages), the largest or smallest "
           "value (\"up to\", \"at most\"), or, for a claim about every matrix, each matrix, "
           "with at most 10 % of the cell's matrices (rounded down) outside the band.\n"
           "3. **The paper's kind.** Only cells of the paper's kind of matrix (the size classes "
           "that the paper's own matrices fall in on this GPU, computed from their sizes) or "
           "setting decide. The other cells are shown in the details, never counted.\n"
           "4. **The verdict.** **holds** where every cell of the paper's kind meets the claim; "
           "**holds partly** where some do, and the verdict names those and the others; **does "
           "not hold** where none does; **not measured** where no cell of the paper's kind has "
           "a value (the verdict says what is missing: never a silent pass). A row measured "
           "against one of the project's own reconstructions of a competitor (HYB, BiELL, "
           "BiJAD) names it in the verdict, and a claim that is the project's own, not a "
           "paper's, says \"ours\".\n\n"
           "The tolerance is the same for every row; no row has a criterion of its own. Each "
           "row's band is given in its \"why\" column.\n\n";
}

}  // namespace spmvlab::replicate
