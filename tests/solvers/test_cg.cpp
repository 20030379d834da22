// Conjugate gradients on the host reference: hand-checked iterations, exact small systems, the
// iteration limit, breakdowns on matrices that are not SPD, Jacobi on a badly scaled matrix.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/solvers/cg.hpp>
#include <spmv/solvers/host_backend.hpp>
#include <spmv/solvers/solve.hpp>

#include "solver_matrices.hpp"

using namespace spmv;
using namespace spmv::solvers;
using spmv::test::CsrD;

namespace {

SolveResult run_cg(const CsrD& a, const std::vector<double>& b, std::vector<double>& x,
                   SolveOptions opt = {}, std::string_view format = "csr")
{
    return solve_host(a, b, x, Method::cg, format, {}, opt);
}

}  // namespace

TEST_CASE("CG takes the two hand-computed steps on A = (4 1, 1 3), b = (1, 2)", "[solvers]")
{
    // r0 = b = (1,2), A r0 = (6,7), alpha0 = 5/20 = 1/4, x1 = (1/4, 1/2),
    // r1 = (1,2) - (6,7)/4 = (-1/2, 1/4), ||r1||/||b|| = sqrt(5/16)/sqrt(5) = 1/4.
    // Second step lands on the exact solution x = (1/11, 7/11).
    const CsrD a = test::from_triplets(2, {0, 0, 1, 1}, {0, 1, 0, 1}, {4.0, 1.0, 1.0, 3.0});
    const std::vector<double> b{1.0, 2.0};
    std::vector<double> x(2, 0.0);

    SolveOptions opt;
    opt.max_iterations = 1;
    const auto one = run_cg(a, b, x, opt);

    CHECK(one.status == Status::max_iterations);
    CHECK(one.iterations == 1);
    CHECK(x[0] == Approx(0.25).margin(1e-15));
    CHECK(x[1] == Approx(0.5).margin(1e-15));
    REQUIRE(one.residual_history.size() == 2);
    CHECK(one.residual_history[0] == Approx(1.0));
    CHECK(one.residual_history[1] == Approx(0.25));

    std::vector<double> x2(2, 0.0);
    const auto two = run_cg(a, b, x2);

    CHECK(two.status == Status::converged);
    CHECK(two.iterations == 2);
    CHECK(x2[0] == Approx(1.0 / 11.0).margin(1e-14));
    CHECK(x2[1] == Approx(7.0 / 11.0).margin(1e-14));
    CHECK(two.final_relative_residual < 1e-14);
    CHECK(two.where == "host reference");
}

TEST_CASE("CG start_from_zero ignores x's contents, rhs_norm replaces the norm of b",
          "[solvers]")
{
    // The same two hand-computed steps as above, from an x full of garbage: with
    // start_from_zero CG sets x = 0 and r = b itself (MPIR-CG's inner solves).
    const CsrD a = test::from_triplets(2, {0, 0, 1, 1}, {0, 1, 0, 1}, {4.0, 1.0, 1.0, 3.0});
    const std::vector<double> b{1.0, 2.0};
    SolveOptions opt;
    opt.start_from_zero = true;
    std::vector<double> x{1e30, std::numeric_limits<double>::quiet_NaN()};
    const auto r = run_cg(a, b, x, opt);
    CHECK(r.status == Status::converged);
    CHECK(r.iterations == 2);
    CHECK(r.residual_history[0] == 1.0);
    CHECK(x[0] == Approx(1.0 / 11.0).margin(1e-14));
    CHECK(x[1] == Approx(7.0 / 11.0).margin(1e-14));

    // rhs_norm is taken as ||b|| without a reduction: given 10 ||b||, every relative residual
    // reads 10x smaller (0.1 at the start, 0.025 after the first step, whose true value is 1/4),
    // so CG stops after one step on a tolerance of 0.05. solve_host then recomputes b - A x in
    // double against the real ||b||, finds 1/4 and refuses to call that converged.
    SolveOptions scaled;
    scaled.rhs_norm = 10.0 * std::sqrt(5.0);
    scaled.tol = 0.05;
    std::vector<double> x1(2, 0.0);
    const auto s = run_cg(a, b, x1, scaled);
    CHECK(s.iterations == 1);
    CHECK(s.status == Status::stagnated);
    CHECK(s.final_relative_residual == Approx(0.25));
    REQUIRE(s.residual_history.size() == 2);
    CHECK(s.residual_history[0] == Approx(0.1));
    CHECK(s.residual_history[1] == Approx(0.025));
}

TEST_CASE("CG solves the 1-D Laplacian n = 10 to its known solution in at most n steps",
          "[solvers]")
{
    const CsrD a = test::laplace1d(10);
    std::vector<double> xs(10);
    for (int i = 0; i < 10; ++i) xs[static_cast<std::size_t>(i)] = i + 1.0 - 0.3 * (i % 3);
    const auto b = test::multiply(a, xs);
    std::vector<double> x(10, 0.0);

    const auto res = run_cg(a, b, x);

    CHECK(res.status == Status::converged);
    CHECK(res.iterations <= 10);
    CHECK(res.final_relative_residual <= 1e-10);
    CHECK(res.final_relative_residual == Approx(relative_residual(a, b, x)));
    CHECK(test::rel_diff(x, xs) < 1e-12);
    CHECK(res.residual_history.size() == static_cast<std::size_t>(res.iterations) + 1);
    CHECK(res.residual_history.front() == 1.0);  // x0 = 0: r0 = b
    CHECK(res.message.empty());
    CHECK(res.restarts == 0);
    CHECK(res.times.spmv_ms >= 0.0);
    CHECK(res.times.transfer_ms == 0.0);
    CHECK(res.total_ms >= res.times.spmv_ms);
}

TEST_CASE("Jacobi CG with a constant diagonal follows plain CG step for step", "[solvers]")
{
    // D = 2I: M^-1 = I/2 only rescales z, so the Krylov iterates are identical.
    const CsrD a = test::laplace1d(30);
    const auto xs = test::smooth_solution(30);
    const auto b = test::multiply(a, xs);
    std::vector<double> x1(30, 0.0), x2(30, 0.0);
    SolveOptions jac;
    jac.jacobi = true;

    const auto plain = run_cg(a, b, x1);
    const auto pre = run_cg(a, b, x2, jac);

    REQUIRE(plain.status == Status::converged);
    REQUIRE(pre.status == Status::converged);
    CHECK(pre.iterations == plain.iterations);
    for (std::size_t k = 0; k < plain.residual_history.size(); ++k) {
        CHECK(pre.residual_history[k] ==
              Approx(plain.residual_history[k]).epsilon(1e-6).margin(1e-13));
    }
}

TEST_CASE("CG starting from the solution, or with b = 0, takes no iteration", "[solvers]")
{
    const CsrD a = test::laplace1d(10);
    const auto xs = test::smooth_solution(10);
    const auto b = test::multiply(a, xs);
    std::vector<double> x = xs;

    const auto res = run_cg(a, b, x);

    CHECK(res.status == Status::converged);
    CHECK(res.iterations == 0);

    std::vector<double> zero(10, 0.0), x0(10, 3.0);
    const auto z = run_cg(a, zero, x0);
    CHECK(z.status == Status::converged);
    CHECK(z.iterations == 0);
    CHECK(x0 == std::vector<double>(10, 0.0));
}

TEST_CASE("CG stops at the iteration limit with status max_iterations", "[solvers]")
{
    const CsrD a = test::laplace2d(12, 12);
    const auto b = test::multiply(a, test::smooth_solution(144));
    std::vector<double> x(144, 0.0);
    SolveOptions opt;
    opt.max_iterations = 3;

    const auto res = run_cg(a, b, x, opt);

    CHECK(res.status == Status::max_iterations);
    CHECK(res.iterations == 3);
    CHECK(res.residual_history.size() == 4);
    CHECK(res.final_relative_residual > 1e-3);
    CHECK(res.final_relative_residual == Approx(relative_residual(a, b, x)));
    CHECK(res.message.find("3 iterations") != std::string::npos);
}

TEST_CASE("CG reports p^T A p <= 0 on an indefinite matrix as a breakdown", "[solvers]")
{
    const std::vector<double> ones(10, 1.0);

    SECTION("diag(1,-1,...): p^T A p = 0 at the first step")
    {
        std::vector<double> d(10);
        for (int i = 0; i < 10; ++i) d[static_cast<std::size_t>(i)] = i % 2 == 0 ? 1.0 : -1.0;
        std::vector<double> x(10, 0.0);

        const auto res = run_cg(test::diagonal(d), ones, x);

        CHECK(res.status == Status::breakdown_indefinite);
        CHECK(res.iterations == 1);
        CHECK(res.message.find("p^T A p") != std::string::npos);
        CHECK(res.final_relative_residual == Approx(1.0));
    }
    SECTION("diag(1,-2,3,-4,...): p^T A p = -5 < 0")
    {
        std::vector<double> d(10);
        for (int i = 0; i < 10; ++i)
            d[static_cast<std::size_t>(i)] = (i % 2 == 0 ? 1 : -1) * (i + 1.0);
        std::vector<double> x(10, 0.0);

        const auto res = run_cg(test::diagonal(d), ones, x);

        CHECK(res.status == Status::breakdown_indefinite);
        CHECK(res.message.find("-5.000e+00") != std::string::npos);
    }
    SECTION("Jacobi refuses a non-positive diagonal before iterating")
    {
        std::vector<double> d(10, 1.0);
        d[3] = -1.0;
        std::vector<double> x(10, 0.0);
        SolveOptions opt;
        opt.jacobi = true;

        const auto res = run_cg(test::diagonal(d), ones, x, opt);

        CHECK(res.status == Status::breakdown_indefinite);
        CHECK(res.iterations == 0);
        CHECK(res.message.find("row 3") != std::string::npos);
    }
    SECTION("the MPIR-CG inner solve breaks down the same way")
    {
        std::vector<double> d(10);
        for (int i = 0; i < 10; ++i) d[static_cast<std::size_t>(i)] = i % 2 == 0 ? 1.0 : -1.0;
        std::vector<double> x(10, 0.0);

        const auto res = solve_host(test::diagonal(d), ones, x, Method::mpir_cg);

        CHECK(res.status == Status::breakdown_indefinite);
        CHECK(res.message.find("inner") != std::string::npos);
    }
}

TEST_CASE("CG reports a residual that explodes on an indefinite matrix as diverged", "[solvers]")
{
    // A = diag(1, -1), b = (1, 1 - 1e-10): p^T A p = 1 - (1 - 1e-10)^2 ~ 2e-10 > 0 slips past
    // the breakdown test, alpha ~ 1e10 and ||r1|| / ||b|| ~ 1e10 > divergence_limit = 1e8.
    const std::vector<double> b{1.0, 1.0 - 1e-10};
    std::vector<double> x(2, 0.0);

    const auto res = run_cg(test::diagonal({1.0, -1.0}), b, x);

    CHECK(res.status == Status::diverged);
    CHECK(res.iterations == 1);
    CHECK(res.final_relative_residual > 1e8);
}

TEST_CASE("CG reports NaN in the matrix or the right-hand side as breakdown_nan", "[solvers]")
{
    CsrD a = test::laplace1d(10);
    const auto xs = test::smooth_solution(10);
    auto b = test::multiply(a, xs);
    std::vector<double> x(10, 0.0);

    SECTION("NaN in b")
    {
        b[4] = std::numeric_limits<double>::quiet_NaN();
        const auto res = run_cg(a, b, x);
        CHECK(res.status == Status::breakdown_nan);
        CHECK(res.iterations == 0);
    }
    SECTION("NaN in A")
    {
        a.values[7] = std::numeric_limits<double>::quiet_NaN();
        const auto res = run_cg(a, b, x);
        CHECK(res.status == Status::breakdown_nan);
        CHECK(res.status != Status::converged);
    }
}

TEST_CASE("Jacobi CG needs far fewer iterations than CG on a badly scaled SPD matrix", "[solvers]")
{
    // D A D with D spanning 4 decades: cond grows by ~1e8, Jacobi undoes the scaling.
    const CsrD a = test::badly_scaled(test::laplace2d(16, 16), 2.0, 7);
    const auto xs = test::smooth_solution(a.num_rows);
    const auto b = test::multiply(a, xs);
    std::vector<double> x1(xs.size(), 0.0), x2(xs.size(), 0.0);
    SolveOptions plain_opt;
    plain_opt.max_iterations = 20000;
    SolveOptions jac = plain_opt;
    jac.jacobi = true;

    const auto plain = run_cg(a, b, x1, plain_opt);
    const auto pre = run_cg(a, b, x2, jac);

    REQUIRE(pre.status == Status::converged);
    CHECK(pre.final_relative_residual <= 1e-10);
    CHECK(test::rel_diff(x2, xs) < 1e-6);
    CHECK(pre.iterations < 100);
    CHECK(pre.iterations * 5 < plain.iterations);
    INFO("plain CG: " << to_string(plain.status) << " after " << plain.iterations);
}

TEST_CASE("CG's generic template runs in float on the host backend and stalls above 1e-10",
          "[solvers]")
{
    // The residual the float recurrence computes keeps falling, the true one cannot: the
    // residual check catches it (restart, then stagnated) instead of reporting convergence.
    const CsrD a = test::laplace2d(40, 40);
    const auto xs = test::smooth_solution(a.num_rows);
    const auto b = test::multiply(a, xs);
    const AnyMatrix<float> af = convert_values<float>(a);
    HostBackend<float> be(af);
    std::vector<float> bf(b.begin(), b.end()), xf(b.size(), 0.0f);
    SolveOptions opt;
    opt.tol = 1e-10;
    opt.max_iterations = 5000;

    const auto res = cg(be, bf, xf, opt);

    CHECK(res.status != Status::converged);
    CHECK(res.status == Status::stagnated);
    CHECK(res.restarts >= 1);
    const std::vector<double> xd(xf.begin(), xf.end());
    const double true_rel = relative_residual(a, b, xd);
    CHECK(true_rel > 1e-9);
    CHECK(true_rel < 1e-5);
}

TEST_CASE("Solver status names are the ones the CLI and JSON print", "[solvers]")
{
    CHECK(to_string(Status::converged) == "converged");
    CHECK(to_string(Status::max_iterations) == "max_iterations");
    CHECK(to_string(Status::stagnated) == "stagnated");
    CHECK(to_string(Status::breakdown_indefinite) == "breakdown_indefinite");
    CHECK(to_string(Status::breakdown_nan) == "breakdown_nan");
    CHECK(to_string(Status::diverged) == "diverged");
    CHECK(to_string(Method::cg) == "cg");
    CHECK(to_string(Method::mpir_cg) == "mpir-cg");
}

TEST_CASE("solve_host rejects wrong sizes and non-square matrices", "[solvers]")
{
    const CsrD a = test::laplace1d(5);
    std::vector<double> b(5, 1.0), x(4, 0.0);
    CHECK_THROWS_AS(solve_host(a, b, x, Method::cg), DimensionMismatch);
    CsrD rect = a;
    rect.num_cols = 6;
    std::vector<double> x6(6, 0.0);
    CHECK_THROWS_AS(solve_host(rect, b, x6, Method::cg), InvalidArgument);
    std::vector<double> x5(5, 0.0);
    CHECK_THROWS_AS(solve_host(a, b, x5, Method::cg, "no-such-format"), InvalidArgument);
}
