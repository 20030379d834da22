// The fused CG steps with an iteration queued ahead (cg.hpp, cg_step.hpp). The GPU backend
// queues iteration it+1 before it reads iteration it; once an iteration stops, the steps queued
// after it must do nothing. Here a host backend with lookahead = 1 runs exactly that schedule
// (including the extra SpMV of the queued iteration) and must give bit for bit the same
// iterations, residual history, status and solution as the plain host backend: convergence,
// the iteration limit, breakdowns, residual replacement and MPIR's continued inner solves.
#include <cmath>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/solvers/cg.hpp>
#include <spmv/solvers/cg_step.hpp>
#include <spmv/solvers/host_backend.hpp>
#include <spmv/solvers/solve.hpp>

#include "solver_matrices.hpp"

using namespace spmv;
using namespace spmv::solvers;
using spmv::test::CsrD;

namespace {

/// The host backend on the GPU's schedule: one iteration queued ahead of the one read.
template <typename V>
struct LookaheadBackend : HostBackend<V> {
    static constexpr int lookahead = 1;
    using HostBackend<V>::HostBackend;
};

template <typename V>
struct Run {
    SolveResult res;
    std::vector<V> x;
};

template <typename Backend, typename V>
Run<V> run(const AnyMatrix<V>& a, const std::vector<V>& b, const SolveOptions& opt,
           const std::vector<V>* inv_diag = nullptr)
{
    Backend be(a);
    if (inv_diag != nullptr) {
        be.set_jacobi(*inv_diag);
    }
    Run<V> out{{}, std::vector<V>(b.size(), V{0})};
    out.res = cg(be, b, out.x, opt);
    return out;
}

template <typename V>
void check_same(const Run<V>& plain, const Run<V>& ahead)
{
    CHECK(ahead.res.status == plain.res.status);
    CHECK(ahead.res.iterations == plain.res.iterations);
    CHECK(ahead.res.restarts == plain.res.restarts);
    CHECK(ahead.res.message == plain.res.message);
    CHECK(ahead.res.residual_history == plain.res.residual_history);
    CHECK(ahead.x == plain.x);
}

}  // namespace

TEST_CASE("CG scalar steps: alpha, the stopping test and beta by hand", "[solvers][pipeline]")
{
    CgScalars s;
    s.rho = 8.0;
    cg_after_pq(s, 2.0, s.rho);
    CHECK(s.alpha == 4.0);
    CHECK(s.stop == cg_running);

    const CgLimits lim{1e-6, 1e6, 0};
    cg_after_update(s, 2.0, 2.0, lim);
    CHECK(s.stop == cg_running);
    CHECK(s.beta == 0.25);  // rz / rho = 2 / 8
    CHECK(s.rho == 2.0);

    CgScalars t = s;
    cg_after_update(t, 1e-7, 1e-7, lim);  // below rr_tol
    CHECK(t.stop == cg_stop_residual);
    t = s;
    cg_after_update(t, 2e6, 2e6, lim);  // above rr_diverge
    CHECK(t.stop == cg_stop_residual);
    t = s;
    cg_after_update(t, std::nan(""), 1.0, lim);
    CHECK(t.stop == cg_stop_residual);

    const CgLimits jac{1e-6, 1e6, 1};
    t = s;
    cg_after_update(t, 1.0, -1.0, jac);  // r.z < 0: M is not SPD
    CHECK(t.stop == cg_stop_rz);
    t = s;
    cg_after_update(t, 1.0, -1.0, lim);  // without Jacobi r.z is not looked at
    CHECK(t.stop == cg_running);

    for (const double bad : {0.0, -1.0, std::nan(""), HUGE_VAL}) {
        CgScalars u;
        u.rho = 1.0;
        cg_after_pq(u, bad, 1.0);
        CHECK(u.stop == cg_stop_pq);
        CHECK(u.alpha == 0.0);
    }
}

TEST_CASE("CG queued one iteration ahead gives bit for bit the plain host result",
          "[solvers][pipeline]")
{
    SECTION("convergence on a 2-D Laplacian")
    {
        const CsrD a = test::laplace2d(30, 30);
        const auto b = test::multiply(a, test::smooth_solution(a.num_rows));
        const AnyMatrix<double> m{a};
        const SolveOptions opt;
        const auto plain = run<HostBackend<double>>(m, b, opt);
        const auto ahead = run<LookaheadBackend<double>>(m, b, opt);
        REQUIRE(plain.res.status == Status::converged);
        CHECK(plain.res.iterations > 20);
        check_same(plain, ahead);
    }
    SECTION("Jacobi on a badly scaled matrix")
    {
        const CsrD a = test::badly_scaled(test::laplace2d(16, 16), 2.0, 7);
        const auto b = test::multiply(a, test::smooth_solution(a.num_rows));
        std::vector<double> inv(static_cast<std::size_t>(a.num_rows));
        for (std::int32_t i = 0; i < a.num_rows; ++i) {
            for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
                if (a.col_idxs[static_cast<std::size_t>(k)] == i) {
                    inv[static_cast<std::size_t>(i)] = 1.0 / a.values[static_cast<std::size_t>(k)];
                }
            }
        }
        const AnyMatrix<double> m{a};
        SolveOptions opt;
        opt.jacobi = true;
        const auto plain = run<HostBackend<double>>(m, b, opt, &inv);
        const auto ahead = run<LookaheadBackend<double>>(m, b, opt, &inv);
        REQUIRE(plain.res.status == Status::converged);
        check_same(plain, ahead);
    }
    SECTION("the iteration limit: the last iteration queues no direction update")
    {
        const CsrD a = test::laplace2d(30, 30);
        const auto b = test::multiply(a, test::smooth_solution(a.num_rows));
        const AnyMatrix<double> m{a};
        SolveOptions opt;
        opt.max_iterations = 7;
        const auto plain = run<HostBackend<double>>(m, b, opt);
        const auto ahead = run<LookaheadBackend<double>>(m, b, opt);
        REQUIRE(plain.res.status == Status::max_iterations);
        CHECK(plain.res.iterations == 7);
        check_same(plain, ahead);
    }
    SECTION("breakdown on an indefinite matrix stops before x changes")
    {
        std::vector<double> d(10);
        for (int i = 0; i < 10; ++i) {
            d[static_cast<std::size_t>(i)] = (i % 2 == 0 ? 1 : -1) * (i + 1.0);
        }
        const AnyMatrix<double> m{test::diagonal(d)};
        const std::vector<double> ones(10, 1.0);
        const auto plain = run<HostBackend<double>>(m, ones, SolveOptions{});
        const auto ahead = run<LookaheadBackend<double>>(m, ones, SolveOptions{});
        REQUIRE(plain.res.status == Status::breakdown_indefinite);
        check_same(plain, ahead);
        CHECK(ahead.x == std::vector<double>(10, 0.0));
    }
    SECTION("float CG: residual replacements restart the pipeline, then stagnation")
    {
        const CsrD a = test::laplace2d(40, 40);
        const auto b = test::multiply(a, test::smooth_solution(a.num_rows));
        const AnyMatrix<float> m = convert_values<float>(a);
        const std::vector<float> bf(b.begin(), b.end());
        SolveOptions opt;
        opt.max_iterations = 5000;
        const auto plain = run<HostBackend<float>>(m, bf, opt);
        const auto ahead = run<LookaheadBackend<float>>(m, bf, opt);
        REQUIRE(plain.res.status == Status::stagnated);
        REQUIRE(plain.res.restarts >= 1);
        check_same(plain, ahead);
    }
}

TEST_CASE("MPIR-CG with a queued-ahead inner backend keeps its continued inner solves",
          "[solvers][pipeline]")
{
    const CsrD a = test::laplace2d(40, 40);
    const auto b = test::multiply(a, test::smooth_solution(a.num_rows));
    const AnyMatrix<double> md{a};
    const AnyMatrix<float> mf = convert_values<float>(a);
    SolveOptions opt;
    opt.inner.reduction = 1e-2;

    auto solve = [&]<typename Inner>(Inner& inner) {
        HostBackend<double> outer(md);
        std::vector<double> x(b.size(), 0.0);
        auto res = mpir_cg(outer, inner, b, x, opt);
        return Run<double>{res, x};
    };
    HostBackend<float> plain_inner(mf);
    LookaheadBackend<float> ahead_inner(mf);
    const auto plain = solve(plain_inner);
    const auto ahead = solve(ahead_inner);

    REQUIRE(plain.res.status == Status::converged);
    CHECK(plain.res.outer_iterations >= 4);
    CHECK(ahead.res.inner_iteration_counts == plain.res.inner_iteration_counts);
    CHECK(ahead.res.outer_residual_history == plain.res.outer_residual_history);
    CHECK(ahead.x == plain.x);
}
