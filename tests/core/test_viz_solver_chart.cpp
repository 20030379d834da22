// The residual-history chart of the solver view (spmv::viz::residual_series and friends):
// hand-checked histories, thinning, the log-axis range, and real host solves.
#include <cmath>
#include <limits>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/generators.hpp>
#include <spmv/solvers/solve.hpp>
#include <spmv/viz/solver_chart.hpp>

using namespace spmv;
using namespace spmv::viz;

namespace {

std::vector<ChartPoint> points(std::initializer_list<ChartPoint> p)
{
    return p;
}

}  // namespace

TEST_CASE("A CG history is plotted at x = iteration, without markers", "[viz][solver_chart]")
{
    solvers::SolveResult r;
    r.residual_history = {1.0, 0.5, 0.05, 1e-11};

    const auto s = residual_series(r, false);

    CHECK(s.line == points({{0, 1.0}, {1, 0.5}, {2, 0.05}, {3, 1e-11}}));
    CHECK(s.markers.empty());
    CHECK(s.dropped == 0);
    CHECK(s.last_iteration == 3.0);
}

TEST_CASE("MPIR-CG: cumulative inner iterations on x, outer steps as markers",
          "[viz][solver_chart]")
{
    // the header's example: two inner solves of 2 and 3 iterations
    solvers::SolveResult r;
    r.residual_history = {1.0, 0.1, 0.01, 1e-3, 1e-4, 1e-5};
    r.inner_iteration_counts = {2, 3};
    r.outer_residual_history = {1.0, 0.02, 2e-5};

    const auto s = residual_series(r, true);

    CHECK(s.line == points({{0, 1.0}, {1, 0.1}, {2, 0.01}, {3, 1e-3}, {4, 1e-4}, {5, 1e-5}}));
    CHECK(s.markers == points({{0, 1.0}, {2, 0.02}, {5, 2e-5}}));
    CHECK(s.last_iteration == 5.0);
    // read as CG, the same result has no markers
    CHECK(residual_series(r, false).markers.empty());
}

TEST_CASE("A failed last inner solve gets no outer marker", "[viz][solver_chart]")
{
    // step 1: 3 inner iterations -> outer residual 0.01; step 2's inner solve broke down after
    // 1 iteration and produced no correction (3 counts listed, 2 outer residuals)
    solvers::SolveResult r;
    r.residual_history = {1.0, 0.3, 0.1, 0.02, 0.005};
    r.inner_iteration_counts = {3, 1};
    r.outer_residual_history = {1.0, 0.01};

    const auto s = residual_series(r, true);

    CHECK(s.markers == points({{0, 1.0}, {3, 0.01}}));
    CHECK(iteration_axis_max(std::vector<ResidualSeries>{s}) == 4.0);
}

TEST_CASE("Zero, NaN and Inf residuals are left out of a log chart", "[viz][solver_chart]")
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    solvers::SolveResult r;
    r.residual_history = {1.0, 0.25, nan, inf, 0.0};
    r.inner_iteration_counts = {4};
    r.outer_residual_history = {1.0, nan};

    const auto s = residual_series(r, true);

    CHECK(s.line == points({{0, 1.0}, {1, 0.25}}));
    CHECK(s.dropped == 3);
    CHECK(s.last_iteration == 4.0);
    CHECK(s.markers == points({{0, 1.0}}));
}

TEST_CASE("Thinning keeps the first, the last and each bucket's lowest and highest point",
          "[viz][solver_chart]")
{
    const std::vector<double> y = {5, 1, 4, 2, 3, 0, 6, 7};
    std::vector<ChartPoint> p;
    for (std::size_t i = 0; i < y.size(); ++i) p.push_back({static_cast<double>(i), y[i]});

    // n = 8, max 6: 2 buckets of b = ceil(6 / 2) = 3 interior points
    const auto six = decimate(p, 6);
    CHECK(six == points({{0, 5}, {1, 1}, {2, 4}, {5, 0}, {6, 6}, {7, 7}}));
    // max 4: one bucket of all 6 interior points: lowest x = 5 (0), highest x = 6 (6)
    CHECK(decimate(p, 4) == points({{0, 5}, {5, 0}, {6, 6}, {7, 7}}));
    // enough room, or too little to thin: unchanged
    CHECK(decimate(p, 8) == p);
    CHECK(decimate(p, 3) == p);
    CHECK(decimate(p, 0) == p);
}

TEST_CASE("Thinning a long history stays within the budget", "[viz][solver_chart]")
{
    std::vector<ChartPoint> p;
    for (int i = 0; i <= 100000; ++i) p.push_back({double(i), std::pow(0.9995, i)});
    const auto d = decimate(p, 1000);
    CHECK(d.size() <= 1000);
    CHECK(d.size() >= 990);
    CHECK(d.front() == p.front());
    CHECK(d.back() == p.back());
    for (std::size_t i = 1; i < d.size(); ++i) CHECK(d[i].x > d[i - 1].x);
}

TEST_CASE("The log axis spans whole decades around residuals and tolerance", "[viz][solver_chart]")
{
    ResidualSeries a;
    a.line = {{0, 1.0}, {10, 3e-11}};
    ResidualSeries b;
    b.line = {{0, 1.0}, {5, 1e-6}};
    b.markers = {{0, 1.0}, {5, 2e-6}};
    const std::vector<ResidualSeries> both{a, b};

    // lo = 3e-11 / 2 = 1.5e-11 -> 1e-11; hi = 1 * 2 -> 10
    auto d = residual_axis_range(both, 1e-10);
    CHECK(d.lo == Approx(1e-11));
    CHECK(d.hi == Approx(10.0));
    // the tolerance below every residual sets the bottom: 1e-12 / 2 -> 1e-13
    d = residual_axis_range(both, 1e-12);
    CHECK(d.lo == Approx(1e-13));
    // a residual above 1 (CG is not monotone): 40 * 2 = 80 -> 100
    ResidualSeries c;
    c.line = {{0, 1.0}, {1, 40.0}, {2, 1e-3}};
    d = residual_axis_range(std::vector<ResidualSeries>{c}, 1e-4);
    CHECK(d.lo == Approx(1e-5));
    CHECK(d.hi == Approx(100.0));
    // nothing plotted yet: around [tol / 2, 2]
    d = residual_axis_range({}, 1e-10);
    CHECK(d.lo == Approx(1e-11));
    CHECK(d.hi == Approx(10.0));
    CHECK(iteration_axis_max({}) == 1.0);
    CHECK(iteration_axis_max(both) == 10.0);
}

TEST_CASE("A tall log range gets a log base of several decades", "[viz][solver_chart]")
{
    CHECK(log_axis_base({1e-12, 10.0}, 13) == Approx(10.0));   // 13 decades, 13 labels
    CHECK(log_axis_base({1e-12, 10.0}, 6) == Approx(1000.0));  // ceil(13 / 6) = 3
    CHECK(log_axis_base({1e-11, 1e9}, 6) == Approx(1e4));      // ceil(20 / 6) = 4
    CHECK(log_axis_base({1e-11, 1e9}, 20) == Approx(10.0));    // 20 / 20 = 1
    CHECK(log_axis_base({1e-11, 1e9}, 0) == Approx(1e20));     // one label at most
    CHECK(log_axis_base({1.0, 1.0}, 5) == Approx(10.0));       // degenerate: plain decades
}

TEST_CASE("The iteration axis ends on a whole tick", "[viz][solver_chart]")
{
    auto a = iteration_axis(31, 10);  // 31 / 5 = 6.2 intervals <= 10; 31 / 2 = 15.5 > 10
    CHECK(a.step == 5.0);
    CHECK(a.max == 35.0);
    a = iteration_axis(4, 10);
    CHECK(a.step == 1.0);
    CHECK(a.max == 4.0);
    a = iteration_axis(1234, 8);  // 1234 / 200 = 6.17 <= 8; 1234 / 100 > 8
    CHECK(a.step == 200.0);
    CHECK(a.max == 1400.0);
    a = iteration_axis(0.5, 10);  // never a step below one iteration
    CHECK(a.step == 1.0);
    CHECK(a.max == 1.0);
    a = iteration_axis(0, 10);
    CHECK(a.max == 1.0);
}

TEST_CASE("Method labels and colour-blind-safe colours", "[viz][solver_chart]")
{
    CHECK(solver_method_label(SolverMethod::cg) == "CG");
    CHECK(solver_method_label(SolverMethod::jacobi_cg) == "Jacobi-CG");
    CHECK(solver_method_label(SolverMethod::mpir_cg) == "MPIR-CG");
    CHECK(solver_method_colour(SolverMethod::cg) == Rgb{0, 114, 178});
    CHECK(solver_method_colour(SolverMethod::jacobi_cg) == Rgb{0, 158, 115});
    CHECK(solver_method_colour(SolverMethod::mpir_cg) == Rgb{213, 94, 0});
}

TEST_CASE("Real solves on a 10x10 Laplacian give a CG line below tol and MPIR markers",
          "[viz][solver_chart]")
{
    const auto a = gen::laplace2d(10, 10);
    const std::vector<double> b(100, 1.0);
    solvers::SolveOptions opt;
    opt.tol = 1e-10;

    std::vector<double> x(100, 0.0);
    const auto cg = solvers::solve_host(a, b, x, solvers::Method::cg, "csr", {}, opt);
    REQUIRE(cg.status == solvers::Status::converged);
    const auto sc = residual_series(cg, false);
    CHECK(sc.line.size() == static_cast<std::size_t>(cg.iterations) + 1);
    CHECK(sc.line.front().y == Approx(1.0));  // x0 = 0: r0 = b
    CHECK(sc.line.back().y <= 1e-10);
    CHECK(sc.line.back().x == cg.iterations);

    std::fill(x.begin(), x.end(), 0.0);
    const auto mp = solvers::solve_host(a, b, x, solvers::Method::mpir_cg, "csr", {}, opt);
    REQUIRE(mp.status == solvers::Status::converged);
    const auto sm = residual_series(mp, true);
    REQUIRE(sm.markers.size() == static_cast<std::size_t>(mp.outer_iterations) + 1);
    CHECK(mp.outer_iterations >= 2);  // float alone cannot reach 1e-10
    CHECK(sm.markers.back().x == mp.inner_iterations);
    CHECK(sm.markers.back().y <= 1e-10);
    CHECK(sm.line.back().x == mp.inner_iterations);
    for (std::size_t k = 1; k < sm.markers.size(); ++k) {
        CHECK(sm.markers[k].x > sm.markers[k - 1].x);
        CHECK(sm.markers[k].y < sm.markers[k - 1].y);
    }
}
