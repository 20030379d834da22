// MPIR-CG as Cevahir et al. 2009 §2.2 write it (SolveOptions::mpir_outer = MpirOuter::pcg): a
// flexible preconditioned CG in double whose preconditioner is a float CG of a fixed number of
// iterations. Hand-checked first iterations on a 2x2, convergence to 1e-10 on gen pde and a
// sample matrix, the near-exact limit of many inner iterations, breakdowns on matrices that are
// not SPD, the limits.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/analysis/spd.hpp>
#include <spmv/generators.hpp>
#include <spmv/io/matrix_market.hpp>
#include <spmv/solvers/cg.hpp>
#include <spmv/solvers/host_backend.hpp>
#include <spmv/solvers/solve.hpp>

#include "skip.hpp"
#include "solver_matrices.hpp"

using namespace spmv;
using namespace spmv::solvers;
using spmv::test::CsrD;

namespace {

SolveOptions pcg_options(int inner_iterations)
{
    SolveOptions opt;
    opt.mpir_outer = MpirOuter::pcg;
    opt.inner.max_iterations = inner_iterations;
    opt.max_outer_iterations = 1000;  // k = 1 needs as many outer iterations as CG
    return opt;
}

/// The host's double backend, recording what the outer loop asks of it: every dot product it
/// calls itself (r.z and r.z_old: the norms go through HostBackend's own dot), every xpay
/// coefficient (beta of p = z + beta p) and every iteration's CgScalars (p.Ap, alpha, r.r).
class RecordingBackend : public HostBackend<double> {
public:
    using HostBackend<double>::HostBackend;
    double dot(const Vector& x, const Vector& y)
    {
        dots.push_back(HostBackend<double>::dot(x, y));
        return dots.back();
    }
    void xpay(const Vector& x, double alpha, Vector& y)
    {
        betas.push_back(alpha);
        HostBackend<double>::xpay(x, alpha, y);
    }
    CgScalars cg_read(int iteration)
    {
        steps.push_back(HostBackend<double>::cg_read(iteration));
        return steps.back();
    }
    std::vector<double> dots, betas;
    std::vector<CgScalars> steps;
};

/// One MPIR-CG (outer PCG) solve with the generic template on host backends.
template <typename Inner>
SolveResult run_pcg(RecordingBackend& outer, Inner& inner, const std::vector<double>& b,
                    std::vector<double>& x, const SolveOptions& opt)
{
    std::fill(x.begin(), x.end(), 0.0);
    return mpir_cg(outer, inner, b, x, opt);
}

}  // namespace

TEST_CASE("MPIR-CG outer PCG takes the hand-computed steps on A = (4 1, 1 3), b = (1, 2)",
          "[solvers]")
{
    // One inner float CG iteration from z' = 0 on A z' = r / ||r||: z = (r.r / r.A r) r.
    // r0 = (1, 2), A r0 = (6, 7), r0.A r0 = 20: z0 = r0 / 4 = (1/4, 1/2), rho0 = r0.z0 = 5/4.
    // p0 = z0, A p0 = (3/2, 7/4), p0.A p0 = 5/4, alpha0 = 1: x1 = (1/4, 1/2),
    // r1 = (-1/2, 1/4), r1.r1 = 5/16, ||r1|| / ||b|| = 1/4.
    // A r1 = (-7/4, 1/4), r1.A r1 = 15/16: z1 = r1 / 3, rho1 = r1.z1 = 5/48, z1.r0 = 0, so
    // beta0 = (5/48 - 0) / (5/4) = 1/12 and p1 = z1 + p0 / 12 = (-7/48, 1/8); the second step
    // lands on x = (1/11, 7/11). (The float inner solve rounds r / ||r||: 1e-7 relative.)
    // With k = 1 every z is a multiple of its r, M_k = c_k I: flexible and plain beta agree
    // (a scaled preconditioner does not change CG's directions); the test cases below with a
    // preconditioner that really changes are where they part.
    const CsrD a = test::from_triplets(2, {0, 0, 1, 1}, {0, 1, 0, 1}, {4.0, 1.0, 1.0, 3.0});
    const AnyMatrix<double> ad{a};
    const AnyMatrix<float> af = convert_values<float>(a);
    const std::vector<double> b{1.0, 2.0};
    std::vector<double> x(2, 0.0);
    constexpr double eps = 1e-6;
    SolveOptions opt = pcg_options(1);

    SECTION("first outer iteration")
    {
        RecordingBackend outer(ad);
        HostBackend<float> inner(af);
        opt.max_outer_iterations = 1;

        const auto res = run_pcg(outer, inner, b, x, opt);

        CHECK(res.status == Status::max_iterations);
        CHECK(res.message.find("1 outer iterations") != std::string::npos);
        CHECK(res.outer_iterations == 1);
        CHECK(res.inner_iteration_counts == std::vector<int>{1});
        REQUIRE(outer.dots.size() == 1);
        CHECK(outer.dots[0] == Approx(1.25).epsilon(eps));  // rho0 = r0.z0
        REQUIRE(outer.steps.size() == 1);
        CHECK(outer.steps[0].pq == Approx(1.25).epsilon(eps));
        CHECK(outer.steps[0].alpha == Approx(1.0).epsilon(eps));
        CHECK(outer.steps[0].rr == Approx(0.3125).epsilon(eps));
        CHECK(x[0] == Approx(0.25).epsilon(eps));
        CHECK(x[1] == Approx(0.5).epsilon(eps));
        REQUIRE(res.outer_residual_history.size() == 2);
        CHECK(res.outer_residual_history[0] == Approx(1.0));
        CHECK(res.outer_residual_history[1] == Approx(0.25).epsilon(eps));
    }
    SECTION("second outer iteration: the flexible beta, then the exact solution")
    {
        RecordingBackend outer(ad);
        HostBackend<float> inner(af);
        opt.max_outer_iterations = 2;

        run_pcg(outer, inner, b, x, opt);

        REQUIRE(outer.dots.size() == 3);  // rho0, then r1.z1 and the flexible term z1.r0
        CHECK(outer.dots[1] == Approx(5.0 / 48.0).epsilon(eps));
        CHECK(std::abs(outer.dots[2]) < 1e-7);  // z1 = r1 / 3 and r1 . r0 = 0
        REQUIRE(outer.betas.size() == 1);
        CHECK(outer.betas[0] == Approx(1.0 / 12.0).epsilon(eps));
        CHECK(x[0] == Approx(1.0 / 11.0).epsilon(eps));
        CHECK(x[1] == Approx(7.0 / 11.0).epsilon(eps));
    }
    SECTION("to 1e-10 through solve_host")
    {
        const auto res = solve_host(a, b, x, Method::mpir_cg, "csr", {}, opt);

        CHECK(res.status == Status::converged);
        CHECK(res.final_relative_residual <= 1e-10);
        CHECK(res.outer_iterations <= 4);
        CHECK(res.inner_iterations == res.outer_iterations);  // one inner iteration each
        CHECK(x[0] == Approx(1.0 / 11.0).epsilon(1e-9));
    }
    SECTION("two inner iterations solve the 2x2: z0 = A^-1 r0, one outer step to float accuracy")
    {
        RecordingBackend outer(ad);
        HostBackend<float> inner(af);
        opt = pcg_options(2);
        opt.max_outer_iterations = 1;

        const auto res = run_pcg(outer, inner, b, x, opt);

        CHECK(res.inner_iteration_counts == std::vector<int>{2});
        CHECK(outer.dots[0] == Approx(15.0 / 11.0).epsilon(eps));  // r0.A^-1 r0 = b.x*
        CHECK(outer.steps[0].alpha == Approx(1.0).epsilon(eps));
        CHECK(res.outer_residual_history[1] < 1e-6);
        CHECK(x[0] == Approx(1.0 / 11.0).epsilon(eps));
        CHECK(x[1] == Approx(7.0 / 11.0).epsilon(eps));
    }
}

TEST_CASE("MPIR-CG outer PCG reaches 1e-10 on gen pde with a fixed inner iteration count",
          "[solvers]")
{
    const CsrD a = gen::pde(16);  // N = 4096, cond ~ 100
    const std::vector<double> b(static_cast<std::size_t>(a.num_rows), 1.0);
    std::vector<double> xd(b.size(), 0.0);
    const auto dp = solve_host(a, b, xd, Method::cg);
    REQUIRE(dp.status == Status::converged);

    for (const int k : {1, 4, 16, 64}) {
        INFO("inner iterations " << k);
        std::vector<double> x(b.size(), 0.0);

        const auto res = solve_host(a, b, x, Method::mpir_cg, "csr", {}, pcg_options(k));

        INFO(to_string(res.status) << " " << res.message << ": " << res.outer_iterations
                                   << " outer, " << res.inner_iterations << " inner");
        REQUIRE(res.status == Status::converged);
        CHECK(res.final_relative_residual <= 1e-10);
        CHECK(test::rel_diff(x, xd) < 1e-8);
        // exactly k float iterations per preconditioner application, one per outer iteration
        CHECK(res.restarts == 0);
        CHECK(res.inner_iterations == k * res.outer_iterations);
        CHECK(res.iterations == res.inner_iterations);
        CHECK(res.inner_breakdowns == 0);
        REQUIRE(res.outer_residual_history.size() ==
                static_cast<std::size_t>(res.outer_iterations) + 1);
        CHECK(res.outer_residual_history.back() == res.final_relative_residual);
        // the residual history is a staircase whose steps are the outer residuals
        REQUIRE(res.residual_history.size() == static_cast<std::size_t>(res.inner_iterations) + 1);
        for (int j = 0; j <= res.outer_iterations; ++j) {
            CHECK(res.residual_history[static_cast<std::size_t>(j * k)] ==
                  res.outer_residual_history[static_cast<std::size_t>(j)]);
        }
        // one inner iteration makes z a multiple of r: the outer loop is CG itself, up to the
        // float rounding of z, which CG's tail feels (measured: 50 outer against CG's 44)
        if (k == 1) {
            CHECK(res.outer_iterations >= dp.iterations - 2);
            CHECK(res.outer_iterations * 4 <= dp.iterations * 5);
        }
    }
}

TEST_CASE(
    "MPIR-CG outer PCG with many inner iterations needs the outer steps of a near-exact "
    "preconditioner",
    "[solvers]")
{
    // The near-exact preconditioned solve: the same outer loop with a DOUBLE inner CG that runs
    // to its floor (recursive residual 1e-30), z = A^-1 r to double accuracy: one outer step.
    // With the float inner CG run long, z = A^-1 r to float accuracy (~ cond * 6e-8): each outer
    // step gains that much, a few steps to 1e-10. Few inner iterations need many outer ones.
    const CsrD a = gen::pde(12);
    const AnyMatrix<double> ad{a};
    const AnyMatrix<float> af = convert_values<float>(a);
    const AnyMatrix<double> wide = convert_values<double>(convert_values<float>(a));
    const std::vector<double> b(static_cast<std::size_t>(a.num_rows), 1.0);
    std::vector<double> x(b.size(), 0.0);
    RecordingBackend outer(ad);
    HostBackend<double> inner_d(ad);
    HostBackend<float> inner_f(af);
    inner_f.set_double_sums(wide);

    const auto exact = run_pcg(outer, inner_d, b, x, pcg_options(2000));
    const double exact_rel = relative_residual(a, b, x);
    const auto many = run_pcg(outer, inner_f, b, x, pcg_options(2000));
    const double many_rel = relative_residual(a, b, x);
    const auto few = run_pcg(outer, inner_f, b, x, pcg_options(3));

    INFO("outer iterations: double inner " << exact.outer_iterations << ", float inner 2000 "
                                           << many.outer_iterations << ", float inner 3 "
                                           << few.outer_iterations);
    REQUIRE(exact.status == Status::converged);
    REQUIRE(many.status == Status::converged);
    REQUIRE(few.status == Status::converged);
    CHECK(exact_rel <= 1e-10);
    CHECK(many_rel <= 1e-10);
    CHECK(exact.outer_iterations == 1);
    CHECK(many.outer_iterations >= exact.outer_iterations);
    CHECK(many.outer_iterations <= exact.outer_iterations + 2);
    CHECK(few.outer_iterations > 4 * many.outer_iterations);
    // the float inner solve stopped early only at its floor, never on a breakdown
    CHECK(many.inner_breakdowns == 0);
}

TEST_CASE("MPIR-CG outer PCG solves the SPD sample matrix pde05 and real SPD matrices", "[solvers]")
{
    const CsrD a =
        io::read_matrix_market(std::string(SPMV_SOURCE_DIR) + "/sample_matrices/pde05.mtx");
    REQUIRE(analysis::screen_spd(a).passes());
    const auto xs = test::smooth_solution(a.num_rows);
    const auto b = test::multiply(a, xs);
    for (const char* format : {"csr", "sell"}) {  // sell: in its permuted basis
        INFO(format);
        std::vector<double> x(b.size(), 0.0);
        FormatParams params;
        params.sort_window = 32;

        const auto res = solve_host(a, b, x, Method::mpir_cg, format, params, pcg_options(8));

        CHECK(res.status == Status::converged);
        CHECK(res.final_relative_residual <= 1e-10);
        CHECK(test::rel_diff(x, xs) < 1e-9);
    }

    // real SPD matrices (../shared/matrices), the inner CG Jacobi-preconditioned as Cevahir 2.2
    // allows; measured: gr_30_30 3 outer iterations, bcsstk14 18
    for (const char* name : {"gr_30_30", "bcsstk14"}) {
        const auto path =
            std::filesystem::path(SPMV_SHARED_MATRICES) / (std::string(name) + ".mtx");
        if (!std::filesystem::exists(path)) {
            SPMV_SKIP(path.string() << " not found (no shared matrices beside the clone)");
        }
        const CsrD m = io::read_matrix_market(path);
        const auto ms = test::smooth_solution(m.num_rows);
        const auto bm = test::multiply(m, ms);
        std::vector<double> x(bm.size(), 0.0);
        SolveOptions opt = pcg_options(30);
        opt.jacobi = true;

        const auto res = solve_host(m, bm, x, Method::mpir_cg, "csr", {}, opt);

        INFO(name << ": " << to_string(res.status) << " " << res.message << ", "
                  << res.outer_iterations << " outer");
        CHECK(res.status == Status::converged);
        CHECK(res.final_relative_residual <= 1e-10);
    }
}

TEST_CASE("MPIR-CG outer PCG reports matrices that are not SPD as breakdowns", "[solvers]")
{
    SECTION("diag(1, -1, ...): the first inner step already meets p^T A p = 0")
    {
        std::vector<double> d(10);
        for (int i = 0; i < 10; ++i) d[static_cast<std::size_t>(i)] = i % 2 == 0 ? 1.0 : -1.0;
        const std::vector<double> ones(10, 1.0);
        std::vector<double> x(10, 0.0);

        const auto res =
            solve_host(test::diagonal(d), ones, x, Method::mpir_cg, "csr", {}, pcg_options(5));

        CHECK(res.status == Status::breakdown_indefinite);
        CHECK(res.message.find("inner") != std::string::npos);
        CHECK(res.message.find("p^T A p") != std::string::npos);
        CHECK(res.outer_iterations == 0);
    }
    SECTION("(1 2, 2 1) passes the SPD screen but is indefinite: the outer p^T A p < 0")
    {
        // b = (1, 0): the inner CG takes z0 = b, then meets p^T A p < 0 and keeps z0; the
        // outer step 1 gives x1 = (1, 0), r1 = (0, -2); z1 = r1, beta = 4, p1 = (4, -2),
        // p1^T A p1 = 16 - 32 + 4 = -12.
        const CsrD a = test::from_triplets(2, {0, 0, 1, 1}, {0, 1, 0, 1}, {1.0, 2.0, 2.0, 1.0});
        REQUIRE(analysis::screen_spd(a).passes());
        const std::vector<double> b{1.0, 0.0};
        std::vector<double> x(2, 0.0);

        const auto res = solve_host(a, b, x, Method::mpir_cg, "csr", {}, pcg_options(5));

        CHECK(res.status == Status::breakdown_indefinite);
        CHECK(res.message.find("outer iteration 2") != std::string::npos);
        CHECK(res.message.find("-1.200e+01") != std::string::npos);
        CHECK(res.message.find("not positive definite") != std::string::npos);
        CHECK(res.outer_iterations == 1);
    }
    SECTION("Jacobi refuses a non-positive diagonal before iterating")
    {
        std::vector<double> d(10, 1.0);
        d[3] = -1.0;
        std::vector<double> x(10, 0.0);
        SolveOptions opt = pcg_options(5);
        opt.jacobi = true;

        const auto res = solve_host(test::diagonal(d), std::vector<double>(10, 1.0), x,
                                    Method::mpir_cg, "csr", {}, opt);

        CHECK(res.status == Status::breakdown_indefinite);
        CHECK(res.iterations == 0);
        CHECK(res.message.find("row 3") != std::string::npos);
    }
    SECTION("NaN in the matrix")
    {
        CsrD a = test::laplace2d(8, 8);
        a.values[5] = std::nan("");
        std::vector<double> x(64, 0.0);

        const auto res = solve_host(a, std::vector<double>(64, 1.0), x, Method::mpir_cg, "csr", {},
                                    pcg_options(5));

        CHECK(res.status == Status::breakdown_nan);
    }
}

TEST_CASE("MPIR-CG outer PCG stops at the outer or inner iteration limit", "[solvers]")
{
    const CsrD a = test::laplace2d(20, 20);
    const auto b = test::multiply(a, test::smooth_solution(a.num_rows));

    SECTION("outer iterations")
    {
        std::vector<double> x(b.size(), 0.0);
        SolveOptions opt = pcg_options(2);
        opt.max_outer_iterations = 3;
        const auto res = solve_host(a, b, x, Method::mpir_cg, "csr", {}, opt);
        CHECK(res.status == Status::max_iterations);
        CHECK(res.outer_iterations == 3);
        CHECK(res.inner_iterations == 6);
        CHECK(res.final_relative_residual > 1e-10);
    }
    SECTION("total inner iterations: the last application is cut to the budget")
    {
        std::vector<double> x(b.size(), 0.0);
        SolveOptions opt = pcg_options(4);
        opt.max_iterations = 10;
        const auto res = solve_host(a, b, x, Method::mpir_cg, "csr", {}, opt);
        CHECK(res.status == Status::max_iterations);
        CHECK(res.inner_iterations == 10);
        CHECK(res.inner_iteration_counts == std::vector<int>{4, 4, 2});
        CHECK(res.message.find("10 inner iterations") != std::string::npos);
    }
    SECTION("a start at the solution takes no step, b = 0 gives x = 0")
    {
        std::vector<double> x = test::smooth_solution(a.num_rows);
        const auto at = solve_host(a, b, x, Method::mpir_cg, "csr", {}, pcg_options(4));
        CHECK(at.status == Status::converged);
        CHECK(at.outer_iterations == 0);
        std::vector<double> z(b.size(), 1.0);
        const auto zero = solve_host(a, std::vector<double>(b.size(), 0.0), z, Method::mpir_cg,
                                     "csr", {}, pcg_options(4));
        CHECK(zero.status == Status::converged);
        CHECK(z == std::vector<double>(b.size(), 0.0));
    }
}

TEST_CASE("MPIR-CG outer PCG with a Jacobi inner CG handles a badly scaled matrix", "[solvers]")
{
    const CsrD a = test::badly_scaled(test::laplace2d(16, 16), 2.0, 11);
    const auto xs = test::smooth_solution(a.num_rows);
    const auto b = test::multiply(a, xs);
    std::vector<double> xj(b.size(), 0.0), xp(b.size(), 0.0);
    SolveOptions opt = pcg_options(10);
    opt.jacobi = true;

    const auto jac = solve_host(a, b, xj, Method::mpir_cg, "csr", {}, opt);
    opt.jacobi = false;
    opt.max_outer_iterations = 1000;
    const auto plain = solve_host(a, b, xp, Method::mpir_cg, "csr", {}, opt);

    INFO("outer iterations: Jacobi inner " << jac.outer_iterations << ", plain inner "
                                           << plain.outer_iterations << " ("
                                           << to_string(plain.status) << ")");
    REQUIRE(jac.status == Status::converged);
    CHECK(jac.final_relative_residual <= 1e-10);
    CHECK(test::rel_diff(xj, xs) < 1e-6);
    CHECK(jac.outer_iterations * 3 < plain.outer_iterations);
}

TEST_CASE("MPIR outer loop names are the CLI's --outer values", "[solvers]")
{
    CHECK(to_string(MpirOuter::richardson) == "richardson");
    CHECK(to_string(MpirOuter::pcg) == "pcg");
    CHECK(SolveOptions{}.mpir_outer == MpirOuter::richardson);
}

namespace {

/// A preconditioner that changes from one application to the next, chosen by the test:
/// application j applies z = diag(d_j) r (the last diagonal repeats). flexible_pcg's hook.
struct ChangingDiagonal {
    std::vector<std::vector<double>> diagonals;
    int applied = 0;
    bool operator()(const std::vector<double>& r, double /*rnorm*/, double /*rel*/,
                    std::vector<double>& z, SolveResult& /*res*/)
    {
        const auto j = std::min<std::size_t>(static_cast<std::size_t>(applied),
                                             diagonals.size() - 1);
        for (std::size_t i = 0; i < r.size(); ++i) {
            z[i] = diagonals[j][i] * r[i];
        }
        ++applied;
        return true;
    }
};

SolveOptions two_outer(PcgBeta beta)
{
    SolveOptions opt;
    opt.mpir_outer = MpirOuter::pcg;
    opt.pcg_beta = beta;
    opt.max_outer_iterations = 2;
    return opt;
}

}  // namespace

TEST_CASE("Flexible outer PCG: the Golub-Ye / Notay beta by hand on a 2x2 with M_0 = I, "
          "M_1 = diag(1, 2)",
          "[solvers]")
{
    // A = (4 1, 1 3), b = (1, 2), x0 = 0. M_0 = I: z0 = r0 = (1, 2), rho0 = 5, p0 = z0,
    // A p0 = (6, 7), p0.A p0 = 20, alpha0 = 1/4: x1 = (1/4, 1/2), r1 = (-1/2, 1/4).
    // M_1 = diag(1, 2): z1 = (-1/2, 1/2), rho1 = r1.z1 = 3/8, z1.r0 = -1/2 + 1 = 1/2.
    //   flexible: beta0 = (rho1 - z1.r0) / rho0 = (3/8 - 1/2) / 5 = -1/40
    //   plain:    beta0 = rho1 / rho0 = 3/40
    //   (the pre-2026-12 form (rho1 - r1.z0) / rho0 also gives 3/40: r1.z0 = r1.p0 = 0)
    // flexible: p1 = z1 - p0 / 40 = (-21/40, 18/40), p1.A p0 = -3.15 + 3.15 = 0 (conjugate),
    //   A p1 = (-33/20, 33/40), p1.A p1 = 99/80, alpha1 = (3/8) / (99/80) = 10/33:
    //   x2 = (1/4 - 21/132, 1/2 + 18/132) = (1/11, 7/11), the solution, in two steps.
    // plain: p1 = z1 + 3 p0 / 40 = (-17/40, 26/40), p1.A p0 = 2 (not conjugate),
    //   p1.A p1 = 23/16, alpha1 = 6/23: x2 = (16/115, 77/115), not the solution.
    const CsrD a = test::from_triplets(2, {0, 0, 1, 1}, {0, 1, 0, 1}, {4.0, 1.0, 1.0, 3.0});
    const AnyMatrix<double> ad{a};
    const std::vector<double> b{1.0, 2.0};
    std::vector<double> x(2, 0.0);
    ChangingDiagonal m{{{1.0, 1.0}, {1.0, 2.0}}};
    RecordingBackend outer(ad);
    constexpr double eps = 1e-14;

    SECTION("flexible (the default): beta = -1/40, exact in two steps")
    {
        REQUIRE(SolveOptions{}.pcg_beta == PcgBeta::flexible);
        const auto res = flexible_pcg(outer, b, x, two_outer(PcgBeta::flexible), m);

        REQUIRE(outer.betas.size() == 1);
        CHECK(outer.betas[0] == Approx(-1.0 / 40.0).epsilon(eps));
        // dots: rho0 = 5, rho1 = 3/8, z1.r0 = 1/2 (then the true residual's norms)
        REQUIRE(outer.dots.size() >= 3);
        CHECK(outer.dots[0] == Approx(5.0).epsilon(eps));
        CHECK(outer.dots[1] == Approx(3.0 / 8.0).epsilon(eps));
        CHECK(outer.dots[2] == Approx(1.0 / 2.0).epsilon(eps));
        REQUIRE(outer.steps.size() == 2);
        CHECK(outer.steps[1].pq == Approx(99.0 / 80.0).epsilon(eps));
        CHECK(outer.steps[1].alpha == Approx(10.0 / 33.0).epsilon(eps));
        CHECK(x[0] == Approx(1.0 / 11.0).epsilon(eps));
        CHECK(x[1] == Approx(7.0 / 11.0).epsilon(eps));
        CHECK(res.status == Status::converged);
        CHECK(res.outer_iterations == 2);
        CHECK(m.applied == 2);
    }
    SECTION("plain (for comparison): beta = 3/40, not conjugate, not solved in two steps")
    {
        const auto res = flexible_pcg(outer, b, x, two_outer(PcgBeta::plain), m);

        REQUIRE(outer.betas.size() == 1);
        CHECK(outer.betas[0] == Approx(3.0 / 40.0).epsilon(eps));
        REQUIRE(outer.steps.size() == 2);
        CHECK(outer.steps[1].pq == Approx(23.0 / 16.0).epsilon(eps));
        CHECK(outer.steps[1].alpha == Approx(6.0 / 23.0).epsilon(eps));
        CHECK(x[0] == Approx(16.0 / 115.0).epsilon(eps));
        CHECK(x[1] == Approx(77.0 / 115.0).epsilon(eps));
        CHECK(res.status == Status::max_iterations);
    }
}

TEST_CASE("Flexible outer PCG: both betas by hand on a 3x3 whose preconditioner changes twice",
          "[solvers]")
{
    // A = (4 1 0, 1 3 1, 0 1 2), b = (1, 2, 3), x0 = 0; M_0 = I, M_1 = diag(1, 2, 1),
    // M_2 = diag(2, 1, 1). Exact fractions (checked with Python's fractions module):
    // step 0: z0 = r0 = b, rho0 = 14, A p0 = (6, 10, 8), p0.A p0 = 50, alpha0 = 7/25,
    //   x1 = (7, 14, 21) / 25, r1 = (-17, -20, 19) / 25, z1 = (-17, -40, 19) / 25,
    //   rho1 = r1.z1 = 58/25, z1.r0 = (-17 - 80 + 57) / 25 = -8/5:
    //   flexible beta0 = (58/25 + 8/5) / 14 = 7/25;  plain beta0 = (58/25) / 14 = 29/175.
    // step 1 (flexible): p1.A p1 = 4068/625, alpha1 = 725/2034,
    //   x2 = (3494, 4813, 35857) / 25425; beta1 = 2310/12769 (plain would be
    //   597408/9257525), and each new direction is A-conjugate to the last.
    // plain trajectory: alpha1 = 35525/109666, x2 = (155456, 204337, 1709743) / 1370825.
    const CsrD a = test::from_triplets(3, {0, 0, 1, 1, 1, 2, 2}, {0, 1, 0, 1, 2, 1, 2},
                                       {4.0, 1.0, 1.0, 3.0, 1.0, 1.0, 2.0});
    const AnyMatrix<double> ad{a};
    const std::vector<double> b{1.0, 2.0, 3.0};
    std::vector<double> x(3, 0.0);
    ChangingDiagonal m{{{1.0, 1.0, 1.0}, {1.0, 2.0, 1.0}, {2.0, 1.0, 1.0}}};
    RecordingBackend outer(ad);
    constexpr double eps = 1e-13;

    SECTION("flexible")
    {
        flexible_pcg(outer, b, x, two_outer(PcgBeta::flexible), m);

        REQUIRE(outer.steps.size() == 2);
        CHECK(outer.steps[0].pq == Approx(50.0).epsilon(eps));
        CHECK(outer.steps[0].alpha == Approx(7.0 / 25.0).epsilon(eps));
        CHECK(outer.steps[1].pq == Approx(4068.0 / 625.0).epsilon(eps));
        CHECK(outer.steps[1].alpha == Approx(725.0 / 2034.0).epsilon(eps));
        REQUIRE(outer.betas.size() == 1);  // the third application meets the outer limit first
        CHECK(outer.betas[0] == Approx(7.0 / 25.0).epsilon(eps));
        CHECK(outer.betas[0] != Approx(29.0 / 175.0).epsilon(1e-3));
        CHECK(x[0] == Approx(3494.0 / 25425.0).epsilon(eps));
        CHECK(x[1] == Approx(4813.0 / 25425.0).epsilon(eps));
        CHECK(x[2] == Approx(35857.0 / 25425.0).epsilon(eps));
    }
    SECTION("flexible, one step further: beta1 = 2310/12769")
    {
        SolveOptions opt = two_outer(PcgBeta::flexible);
        opt.max_outer_iterations = 3;
        flexible_pcg(outer, b, x, opt, m);

        REQUIRE(outer.betas.size() == 2);
        CHECK(outer.betas[1] == Approx(2310.0 / 12769.0).epsilon(eps));
        // the third direction is A-conjugate to the second: its p.Ap is p2^T A p2 only
        REQUIRE(outer.steps.size() == 3);
        CHECK(outer.steps[2].alpha == Approx(774954.0 / 4134881.0).epsilon(1e-12));
    }
    SECTION("plain")
    {
        flexible_pcg(outer, b, x, two_outer(PcgBeta::plain), m);

        REQUIRE(outer.betas.size() == 1);
        CHECK(outer.betas[0] == Approx(29.0 / 175.0).epsilon(eps));
        REQUIRE(outer.steps.size() == 2);
        CHECK(outer.steps[1].alpha == Approx(35525.0 / 109666.0).epsilon(eps));
        CHECK(x[0] == Approx(155456.0 / 1370825.0).epsilon(eps));
        CHECK(x[1] == Approx(204337.0 / 1370825.0).epsilon(eps));
        CHECK(x[2] == Approx(1709743.0 / 1370825.0).epsilon(eps));
    }
}

TEST_CASE("HostBackend<float> with float reductions adds in float: hand-known sums",
          "[solvers]")
{
    // 2^24 + 1 is not a float: adding 1 to 2^24 in float rounds back to 2^24 (ties to even), so
    // the sequential float sum of (2^24, 1, 1, 1, 1) is 2^24 = 16777216, the double one 16777220.
    // Dot products, and the fused steps' p.q and r.r (with r = (2^12, 1, 1, 1, 1)).
    const CsrD eye = test::diagonal(std::vector<double>(5, 1.0));
    const AnyMatrix<float> af = convert_values<float>(eye);
    const std::vector<float> big{16777216.0f, 1.0f, 1.0f, 1.0f, 1.0f};
    const std::vector<float> ones(5, 1.0f);
    const std::vector<float> root{4096.0f, 1.0f, 1.0f, 1.0f, 1.0f};
    for (const bool float_sums : {false, true}) {
        INFO("float reductions " << float_sums);
        HostBackend<float> be(af);
        be.set_float_reductions(float_sums);
        const double expect = float_sums ? 16777216.0 : 16777220.0;

        CHECK(be.dot(big, ones) == expect);
        CHECK(be.norm2(root) == std::sqrt(expect));
        // fused steps: p = q = root gives p.q = 2^24 + 4; r = root, q = 0 leaves r alone
        std::vector<float> x(5, 0.0f), r = root, zero(5, 0.0f);
        be.cg_begin(1.0, CgLimits{0.0, 1e300, 0});
        be.cg_iteration(1);
        be.cg_alpha(root, root, nullptr);
        be.cg_update(root, zero, x, r, nullptr);
        const CgScalars s = be.cg_read(1);
        CHECK(s.pq == expect);
        CHECK(s.rr == expect);
    }
}

namespace {

/// An independent Cevahir MPIR-CG written out in the test: flexible PCG in double, whose
/// preconditioner is k CG iterations entirely in float (float CSR SpMV with float row sums,
/// float dot products, all sums sequential in index order) from z = 0 on A z = r / ||r||.
/// The inner CG takes rho = 1 for its start (the right-hand side has norm 1, as the library's
/// inner options state) and divides in float. Returns the outer residual history.
std::vector<double> reference_mpir_pcg(const CsrD& a, const std::vector<double>& b, int k,
                                       double tol, std::vector<double>& x)
{
    const auto n = static_cast<std::size_t>(a.num_rows);
    auto spmv_d = [&](const std::vector<double>& v) {
        std::vector<double> y(n, 0.0);
        for (std::size_t i = 0; i < n; ++i) {
            for (auto e = a.row_ptrs[i]; e < a.row_ptrs[i + 1]; ++e) {
                y[i] += a.values[static_cast<std::size_t>(e)] *
                        v[static_cast<std::size_t>(a.col_idxs[static_cast<std::size_t>(e)])];
            }
        }
        return y;
    };
    auto spmv_f = [&](const std::vector<float>& v) {
        std::vector<float> y(n, 0.0f);
        for (std::size_t i = 0; i < n; ++i) {
            float s = 0.0f;
            for (auto e = a.row_ptrs[i]; e < a.row_ptrs[i + 1]; ++e) {
                s += static_cast<float>(a.values[static_cast<std::size_t>(e)]) *
                     v[static_cast<std::size_t>(a.col_idxs[static_cast<std::size_t>(e)])];
            }
            y[i] = s;
        }
        return y;
    };
    auto dot_f = [&](const std::vector<float>& u, const std::vector<float>& v) {
        float s = 0.0f;
        for (std::size_t i = 0; i < n; ++i) s += u[i] * v[i];
        return s;
    };
    auto dot_d = [&](const std::vector<double>& u, const std::vector<double>& v) {
        double s = 0.0;
        for (std::size_t i = 0; i < n; ++i) s += u[i] * v[i];
        return s;
    };
    auto precondition = [&](const std::vector<double>& r) {
        const double rnorm = std::sqrt(dot_d(r, r));
        std::vector<float> rf(n), zf(n, 0.0f), p(n);
        const double scale = 1.0 / rnorm;
        for (std::size_t i = 0; i < n; ++i) rf[i] = static_cast<float>(scale * r[i]);
        p = rf;
        float rho = 1.0f;
        for (int j = 0; j < k; ++j) {
            const auto q = spmv_f(p);
            const float alpha = rho / dot_f(p, q);
            for (std::size_t i = 0; i < n; ++i) {
                zf[i] += alpha * p[i];
                rf[i] -= alpha * q[i];
            }
            const float rho_new = dot_f(rf, rf);
            const float beta = rho_new / rho;
            rho = rho_new;
            for (std::size_t i = 0; i < n; ++i) p[i] = rf[i] + beta * p[i];
        }
        std::vector<double> z(n);
        for (std::size_t i = 0; i < n; ++i) z[i] = rnorm * static_cast<double>(zf[i]);
        return z;
    };
    const double bnorm = std::sqrt(dot_d(b, b));
    x.assign(n, 0.0);
    std::vector<double> r = b;
    std::vector<double> history{1.0};
    auto z = precondition(r);
    double rho = dot_d(r, z);
    auto p = z;
    for (int it = 0; it < 500; ++it) {
        const auto q = spmv_d(p);
        const double alpha = rho / dot_d(p, q);
        const auto r_old = r;
        for (std::size_t i = 0; i < n; ++i) {
            x[i] += alpha * p[i];
            r[i] -= alpha * q[i];
        }
        history.push_back(std::sqrt(dot_d(r, r)) / bnorm);
        if (history.back() <= tol) break;
        z = precondition(r);
        const double rho_new = dot_d(r, z);
        const double beta = (rho_new - dot_d(z, r_old)) / rho;
        rho = rho_new;
        for (std::size_t i = 0; i < n; ++i) p[i] = z[i] + beta * p[i];
    }
    return history;
}

}  // namespace

TEST_CASE("MPIR-CG outer PCG as written: float throughout, as an independent float-only "
          "reference",
          "[solvers]")
{
    const CsrD a = gen::pde(8);  // N = 512
    const std::vector<double> b(static_cast<std::size_t>(a.num_rows), 1.0);
    for (const int k : {3, 8}) {
        INFO("k = " << k);
        std::vector<double> x_ref;
        const auto ref = reference_mpir_pcg(a, b, k, 1e-10, x_ref);
        std::vector<double> x(b.size(), 0.0);

        const auto res = solve_host(a, b, x, Method::mpir_cg, "csr", {}, pcg_options(k));

        REQUIRE(res.status == Status::converged);
        CHECK_FALSE(res.inner_double_sums);
        CHECK(res.inner_float_reductions);
        // the same algorithm, the same float arithmetic: the same outer steps
        REQUIRE(res.outer_residual_history.size() == ref.size());
        for (std::size_t j = 0; j + 1 < ref.size(); ++j) {  // the last is b - A x recomputed
            INFO("outer step " << j);
            CHECK(res.outer_residual_history[j] == Approx(ref[j]).epsilon(1e-6));
        }
        CHECK(test::rel_diff(x, x_ref) < 1e-7);
    }
}

TEST_CASE("MPIR-CG records which inner arithmetic ran: float throughout for pcg, double sums "
          "for the project's refinement",
          "[solvers]")
{
    const CsrD a = test::laplace2d(10, 10);
    const std::vector<double> b(static_cast<std::size_t>(a.num_rows), 1.0);
    std::vector<double> x(b.size(), 0.0);
    SolveOptions opt = pcg_options(10);
    opt.inner.double_sums = true;  // ignored by pcg: Cevahir's inner CG is float throughout
    const auto pcg = solve_host(a, b, x, Method::mpir_cg, "csr", {}, opt);
    CHECK(pcg.status == Status::converged);
    CHECK_FALSE(pcg.inner_double_sums);
    CHECK(pcg.inner_float_reductions);

    const auto refine = solve_host(a, b, x, Method::mpir_cg, "csr", {}, SolveOptions{});
    CHECK(refine.status == Status::converged);
    CHECK(refine.inner_double_sums);
    CHECK_FALSE(refine.inner_float_reductions);

    const auto plain_cg = solve_host(a, b, x, Method::cg, "csr", {}, SolveOptions{});
    CHECK_FALSE(plain_cg.inner_double_sums);
    CHECK_FALSE(plain_cg.inner_float_reductions);
}
