#pragma once
/// Residual-history chart of the solver view (Qt-free): the relative residual of every
/// iteration on a log axis, CG next to mixed-precision CG (MPIR-CG), with MPIR's outer
/// refinement steps as markers and the tolerance as a horizontal line.
///
/// x = iteration. CG: entry i of SolveResult::residual_history is plotted at x = i (entry 0 =
/// the initial residual). MPIR-CG: residual_history holds the initial residual followed by
/// every inner (float) iteration, so entry i sits at x = i cumulative inner iterations; the
/// outer markers are outer_residual_history[k] (the true double residual) at
/// x = inner_iteration_counts[0] + ... + inner_iteration_counts[k - 1] (k = 0: x = 0).
///
/// Example: an MPIR-CG run with residual_history (1, 0.1, 0.01, 1e-3, 1e-4, 1e-5),
/// inner_iteration_counts (2, 3) and outer_residual_history (1, 0.02, 2e-5) gives the line
/// (0, 1) (1, 0.1) (2, 0.01) (3, 1e-3) (4, 1e-4) (5, 1e-5) and the markers
/// (0, 1) (2, 0.02) (5, 2e-5).
///
/// A log axis cannot show 0, NaN or Inf: such entries are left out of the line (counted in
/// `dropped`), so a breakdown to NaN shows as a line that stops.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include <spmv/solvers/solve.hpp>
#include <spmv/viz/colour.hpp>
#include <spmv/viz/histogram.hpp>
#include <spmv/viz/units.hpp>

namespace spmv::viz {

/// The methods of the solver view, as the user picks them.
enum class SolverMethod {
    cg,         ///< CG in double
    jacobi_cg,  ///< Jacobi-preconditioned CG in double
    mpir_cg,    ///< mixed-precision iterative refinement CG (float inner CG)
};

/// "CG", "Jacobi-CG", "MPIR-CG".
std::string solver_method_label(SolverMethod m);

/// Colour of a method's line and markers, from the Okabe-Ito palette: CG blue (0, 114, 178),
/// Jacobi-CG bluish green (0, 158, 115), MPIR-CG vermillion (213, 94, 0). The tolerance line
/// is black.
Rgb solver_method_colour(SolverMethod m) noexcept;
inline constexpr Rgb tolerance_colour = okabe_ito::black;

struct ResidualSeries {
    std::vector<ChartPoint> line;     ///< (iteration, relative residual), x increasing
    std::vector<ChartPoint> markers;  ///< MPIR-CG outer steps (empty for CG)
    std::size_t dropped = 0;          ///< history entries not plottable on a log axis
    double last_iteration = 0.0;      ///< x of the last history entry (plotted or not)
};

/// The plotted points of one solve (see the header comment). `mpir` selects the MPIR-CG
/// reading (markers from outer_residual_history); otherwise markers stay empty. The line is
/// thinned to at most max_points points with decimate() (max_points 0: no thinning).
ResidualSeries residual_series(const solvers::SolveResult& result, bool mpir,
                               std::size_t max_points = 4000);

/// At most max_points of `points` (sorted by x) that keep the curve's envelope: nothing
/// changes when points.size() <= max_points or max_points < 4. Otherwise the first and the
/// last point are kept, and the n - 2 points between them are cut into buckets of
/// b = ceil((n - 2) / ((max_points - 2) / 2)) consecutive points, each keeping its lowest and
/// its highest point (in x order; one point when they are the same point).
/// Example: y = (5, 1, 4, 2, 3, 0, 6, 7) at x = 0..7 with max_points 6: b = 3, buckets
/// x = 1..3 (1 4 2) and x = 4..6 (3 0 6) keep x = 1, 2 and x = 5, 6: x = 0 1 2 5 6 7.
std::vector<ChartPoint> decimate(std::span<const ChartPoint> points, std::size_t max_points);

/// Whole decades for the y axis that hold every line and marker point and the tolerance,
/// with room so that no point sits on the frame: decades(lo / 2, hi * 2) of the smallest and
/// largest of them. Example: residuals from 1 down to 3e-11, tol 1e-10 -> [1e-12, 10].
/// Without any point: the decades around [tol / 2, 2].
Decades residual_axis_range(std::span<const ResidualSeries> series, double tol) noexcept;

/// Base of the log axis, 10^k, so that the decade labels of `range` fit: k = the smallest
/// whole number >= 1 with decades / k <= max_labels, decades = log10(hi / lo) (max_labels
/// below 1 counts as 1). Labels then sit at the powers of 10^k.
/// Example: [1e-12, 10] (13 decades) with 13 labels -> 10, with 6 labels -> 1000;
/// [1e-11, 1e9] (20 decades) with 6 labels -> 1e4.
double log_axis_base(const Decades& range, int max_labels) noexcept;

/// The largest iteration of all series (last_iteration, line and marker points; at least 1,
/// so that an empty chart has an x range).
double iteration_axis_max(std::span<const ResidualSeries> series) noexcept;

/// The x axis [0, max] with ticks every `step` iterations: step = nice_step(x_max, max_ticks)
/// but at least 1 (iterations are whole numbers), max = the first multiple of step >= x_max.
/// Example: x_max 31, 10 ticks -> step 5, max 35; x_max 4 -> step 1, max 4.
struct IterationAxis {
    double max = 1.0;
    double step = 1.0;
};
IterationAxis iteration_axis(double x_max, int max_ticks) noexcept;

}  // namespace spmv::viz
