#pragma once
/// The one verdict rule of `spmvlab replicate` (docs/replication.md states it at the top, from
/// rule_text()). Every claim row hands judge() its measured values, split into cells (precision
/// x size class, or exchange path, or GPU count), the paper's number as a Target, and which
/// cells are the paper's kind of matrix; judge() alone decides the verdict. No row computes a
/// verdict of its own.
///
/// The rule:
///   band      the paper's number widened by one tolerance: a value or range [lo, hi] becomes
///             [lo (1 - 10 %), hi (1 + 10 %)]; a share of matrices [lo - 10, hi + 10] points
///             (20 matrices move a share in steps of 5 points); a qualitative claim ("faster",
///             "fewer bytes") has no number to widen: its 1.0 is exact; a sameness claim ("the
///             same or better", "no advantage") widens its 1.0 like a number.
///             Both bounds of a range are tested; "at least" / "at most" claims test one.
///   a cell    meets the claim when its statistic lies in the band: the median, the mean (the
///             papers' averages), the largest or smallest value ("up to", "at most"), one value
///             a row aggregates as the paper does, or, for a per-matrix claim, each matrix
///             (at most 10 % of the cell's matrices outside the band, rounded down).
///   verdict   only cells of the paper's kind of matrix decide: holds where all of them meet
///             it; holds partly where some do (those are named in the verdict); does not hold
///             where none does; not measured where no cell of the paper's kind has a value
///             (said, with what is missing). A row measured against one of the project's own
///             reconstructions of a competitor names it in the verdict.
#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace spmvlab::replicate {

inline constexpr double tolerance = 0.10;        ///< relative widening of a paper's number
inline constexpr double share_tolerance = 0.10;  ///< absolute widening of a share (0..1)
inline constexpr double outlier_share = 0.10;    ///< each_matrix: share allowed outside

enum class Bound { at_least, at_most, range };
enum class Scale {
    relative,  ///< a number the paper measured: widened by `tolerance`
    share,     ///< a share of matrices (0..1): widened by `share_tolerance`
    exact      ///< a qualitative claim's 1.0 (or a closed form): not widened
};
enum class Statistic { each_matrix, median, mean, max, min };

struct Target {
    Bound bound = Bound::at_least;
    double lo = NAN;  ///< at_least and range
    double hi = NAN;  ///< at_most and range
    Scale scale = Scale::relative;
    Statistic statistic = Statistic::median;
};

Target at_least(double v, Scale s, Statistic st);
Target at_most(double v, Scale s, Statistic st);
Target within(double lo, double hi, Scale s, Statistic st);

enum class Verdict { holds, partly, fails, not_measured };

/// One cell of a claim's measurements: its label ("DP large", "host-staged", "2 GPUs"),
/// whether it is the paper's kind of matrix (or setting), and its values (one per matrix; a
/// row that aggregates as the paper does hands one value).
struct Cell {
    std::string label;
    bool paper_kind = true;
    std::vector<double> values;
};

struct CellResult {
    std::string label;
    bool paper_kind = true;
    std::size_t n = 0;
    double statistic = NAN;   ///< the statistic tested (each_matrix: share inside the band)
    std::size_t outside = 0;  ///< values outside the band
    bool met = false;
};

struct Judgement {
    Verdict verdict = Verdict::not_measured;
    std::string text;  ///< "holds partly: on DP large; not on SP large (against our HYB ...)"
    std::vector<CellResult> cells;
};

/// The band [lo, hi] a statistic must lie in (infinite on an open side).
std::pair<double, double> band(const Target& t);
/// "≥ 1.44 (1.6 − 10 %), median of the matrices".
std::string band_text(const Target& t);
/// Whether `values` meet `t` (false for no values); `out`, when given, gets the details.
bool meets(const Target& t, const std::vector<double>& values, CellResult* out = nullptr);
/// The verdict of a claim. `against`: the project's reconstruction the row measures against
/// ("our HYB reconstruction"), named in the verdict. `absent`: what is missing where nothing
/// of the paper's kind was measured ("awaiting re-measurement with float inner CG").
Judgement judge(const Target& t, const std::vector<Cell>& cells, const std::string& against = "",
                const std::string& absent = "");
const char* verdict_word(Verdict v);
/// The rule as Markdown, for the top of docs/replication.md.
std::string rule_text();

}  // namespace spmvlab::replicate
