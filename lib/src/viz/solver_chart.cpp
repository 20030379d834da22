#include <algorithm>
#include <cmath>
#include <limits>

#include <spmv/viz/solver_chart.hpp>

namespace spmv::viz {

namespace {

bool plottable(double y) noexcept
{
    return std::isfinite(y) && y > 0.0;
}

}  // namespace

std::string solver_method_label(SolverMethod m)
{
    switch (m) {
        case SolverMethod::cg:
            return "CG";
        case SolverMethod::jacobi_cg:
            return "Jacobi-CG";
        case SolverMethod::mpir_cg:
            return "MPIR-CG";
    }
    return "unknown";
}

Rgb solver_method_colour(SolverMethod m) noexcept
{
    switch (m) {
        case SolverMethod::cg:
            return okabe_ito::blue;
        case SolverMethod::jacobi_cg:
            return okabe_ito::bluish_green;
        case SolverMethod::mpir_cg:
            return okabe_ito::vermillion;
    }
    return okabe_ito::black;
}

ResidualSeries residual_series(const solvers::SolveResult& result, bool mpir,
                               std::size_t max_points)
{
    ResidualSeries s;
    const auto& h = result.residual_history;
    std::vector<ChartPoint> line;
    line.reserve(h.size());
    for (std::size_t i = 0; i < h.size(); ++i) {
        if (plottable(h[i])) {
            line.push_back({static_cast<double>(i), h[i]});
        } else {
            ++s.dropped;
        }
    }
    s.last_iteration = h.empty() ? 0.0 : static_cast<double>(h.size() - 1);
    s.line = max_points > 0 ? decimate(line, max_points) : std::move(line);
    if (mpir) {
        // outer step k follows the k-th inner solve; a final failed inner solve (one more
        // count than refinement steps) has no outer residual and gets no marker
        double x = 0.0;
        for (std::size_t k = 0; k < result.outer_residual_history.size(); ++k) {
            if (k > 0 && k - 1 < result.inner_iteration_counts.size()) {
                x += result.inner_iteration_counts[k - 1];
            }
            const double y = result.outer_residual_history[k];
            if (plottable(y)) s.markers.push_back({x, y});
        }
    }
    return s;
}

std::vector<ChartPoint> decimate(std::span<const ChartPoint> points, std::size_t max_points)
{
    const std::size_t n = points.size();
    if (n <= max_points || max_points < 4) return {points.begin(), points.end()};
    const std::size_t buckets = (max_points - 2) / 2;
    const std::size_t interior = n - 2;
    const std::size_t b = (interior + buckets - 1) / buckets;
    std::vector<ChartPoint> out;
    out.reserve(max_points);
    out.push_back(points.front());
    for (std::size_t first = 1; first < n - 1; first += b) {
        const std::size_t last = std::min(first + b, n - 1);  // exclusive
        std::size_t lo = first;
        std::size_t hi = first;
        for (std::size_t i = first; i < last; ++i) {
            if (points[i].y < points[lo].y) lo = i;
            if (points[i].y > points[hi].y) hi = i;
        }
        out.push_back(points[std::min(lo, hi)]);
        if (lo != hi) out.push_back(points[std::max(lo, hi)]);
    }
    out.push_back(points.back());
    return out;
}

Decades residual_axis_range(std::span<const ResidualSeries> series, double tol) noexcept
{
    double lo = std::numeric_limits<double>::infinity();
    double hi = 0.0;
    auto take = [&](double y) {
        if (!plottable(y)) return;
        lo = std::min(lo, y);
        hi = std::max(hi, y);
    };
    for (const auto& s : series) {
        for (const auto& p : s.line) take(p.y);
        for (const auto& p : s.markers) take(p.y);
    }
    if (hi == 0.0) {  // nothing plotted: the tolerance and the initial residual 1
        take(1.0);
    }
    take(tol);
    return decades(lo / 2.0, hi * 2.0);
}

double iteration_axis_max(std::span<const ResidualSeries> series) noexcept
{
    double x = 1.0;
    for (const auto& s : series) {
        x = std::max(x, s.last_iteration);
        for (const auto& p : s.line) x = std::max(x, p.x);
        for (const auto& p : s.markers) x = std::max(x, p.x);
    }
    return x;
}

double log_axis_base(const Decades& range, int max_labels) noexcept
{
    if (!(range.lo > 0) || !(range.hi > range.lo)) return 10.0;
    const double count = std::round(std::log10(range.hi / range.lo));  // whole decades
    const double k = std::max(1.0, std::ceil(count / std::max(1, max_labels)));
    return std::pow(10.0, k);
}

IterationAxis iteration_axis(double x_max, int max_ticks) noexcept
{
    IterationAxis a;
    if (!(x_max > 0)) return a;
    a.step = std::max(1.0, nice_step(x_max, max_ticks));
    a.max = std::ceil(x_max / a.step) * a.step;
    return a;
}

}  // namespace spmv::viz
