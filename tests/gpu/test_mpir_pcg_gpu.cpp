// MPIR-CG with Cevahir's outer PCG on the GPU (SolveOptions::mpir_outer = MpirOuter::pcg):
// the same template as on the host (spmv/solvers/cg.hpp), the outer CG in double and the
// fixed-count inner CG in float, both on the device. Mirrors tests/solvers/test_mpir_pcg.cpp:
// the hand-checked first step, 1e-10 on gen pde next to the host, the inner CG in float
// throughout (float SpMV sums and float reductions, as Cevahir writes it) next to the host's
// float path, the flexible beta, the permuted basis, the near-exact limit of many inner
// iterations, breakdowns.
#include <cmath>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/generators.hpp>
#include <spmv/gpu/memory.hpp>
#include <spmv/gpu/solver.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/registry.hpp>
#include <spmv/solvers/solve.hpp>

#include "../solvers/solver_matrices.hpp"

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

bool has_variant(std::string_view name)
{
    for (const auto& v : gpu::kernel_variants()) {
        if (v.name == name) {
            return true;
        }
    }
    return false;
}

}  // namespace

TEST_CASE("GPU MPIR-CG outer PCG takes the hand-computed first step on A = (4 1, 1 3)",
          "[gpu][solvers]")
{
    // As on the host: one inner iteration gives z0 = r0 / 4, alpha0 = 1, x1 = (1/4, 1/2),
    // ||r1|| / ||b|| = 1/4; the second step lands on (1/11, 7/11).
    const CsrD a = test::from_triplets(2, {0, 0, 1, 1}, {0, 1, 0, 1}, {4.0, 1.0, 1.0, 3.0});
    const std::vector<double> b{1.0, 2.0};
    for (const char* format : {"csr", "sell"}) {  // sell: p.Ap fused into the SpMV
        INFO(format);
        std::vector<double> x(2, 0.0);
        SolveOptions opt = pcg_options(1);
        opt.max_outer_iterations = 1;

        const auto one = gpu::solve_gpu(a, b, x, Method::mpir_cg, format, {}, opt);

        CHECK(one.status == Status::max_iterations);
        CHECK(one.outer_iterations == 1);
        CHECK(one.inner_iteration_counts == std::vector<int>{1});
        CHECK(x[0] == Approx(0.25).epsilon(1e-6));
        CHECK(x[1] == Approx(0.5).epsilon(1e-6));
        REQUIRE(one.outer_residual_history.size() == 2);
        CHECK(one.outer_residual_history[1] == Approx(0.25).epsilon(1e-6));

        std::vector<double> x2(2, 0.0);
        opt.max_outer_iterations = 2;
        gpu::solve_gpu(a, b, x2, Method::mpir_cg, format, {}, opt);
        CHECK(x2[0] == Approx(1.0 / 11.0).epsilon(1e-6));
        CHECK(x2[1] == Approx(7.0 / 11.0).epsilon(1e-6));
    }
    gpu::synchronize();
}

TEST_CASE("GPU MPIR-CG outer PCG reaches 1e-10 on gen pde and follows the host", "[gpu][solvers]")
{
    const CsrD a = gen::pde(40);  // N = 64,000
    const std::vector<double> b(static_cast<std::size_t>(a.num_rows), 1.0);
    std::vector<double> xd(b.size(), 0.0);
    const auto dp = gpu::solve_gpu(a, b, xd, Method::cg);
    REQUIRE(dp.status == Status::converged);

    for (const int k : {1, 8, 32}) {
        for (const char* format : {"csr", "sell"}) {
            INFO("inner iterations " << k << ", " << format);
            FormatParams params;
            params.sort_window = 32;
            std::vector<double> xg(b.size(), 0.0), xh(b.size(), 0.0);

            const auto g =
                gpu::solve_gpu(a, b, xg, Method::mpir_cg, format, params, pcg_options(k));
            const auto h = solve_host(a, b, xh, Method::mpir_cg, format, params, pcg_options(k));

            INFO("GPU " << g.outer_iterations << " outer (" << to_string(g.status) << "), host "
                        << h.outer_iterations << " outer");
            REQUIRE(g.status == Status::converged);
            CHECK(g.final_relative_residual <= 1e-10);
            CHECK(test::rel_diff(xg, xd) < 1e-8);
            CHECK(g.inner_iterations == k * g.outer_iterations);
            CHECK(g.outer_residual_history.size() ==
                  static_cast<std::size_t>(g.outer_iterations) + 1);
            CHECK(g.residual_history.size() == static_cast<std::size_t>(g.inner_iterations) + 1);
            // other summation orders (GPU reductions, double-sum SpMV), which CG's tail feels:
            // a few steps apart at most (host: 126 / 35 / 8 outer iterations for k = 1 / 8 / 32)
            CHECK(std::abs(g.outer_iterations - h.outer_iterations) <= 2 + h.outer_iterations / 20);
            CHECK(g.bytes_to_device == 2 * b.size() * sizeof(double));
            CHECK(g.bytes_to_host == b.size() * sizeof(double));
            // Cevahir as written: the inner CG in float throughout on both
            CHECK(g.inner_float_reductions);
            CHECK_FALSE(g.inner_double_sums);
            CHECK(h.inner_float_reductions);
            CHECK_FALSE(h.inner_double_sums);
        }
    }
    gpu::synchronize();
}

TEST_CASE("GPU MPIR-CG as written runs its inner CG in float throughout, like the host's "
          "float path",
          "[gpu][solvers]")
{
    // The host's float path sums sequentially, the GPU in per-thread chunks and trees: the same
    // float arithmetic in another order. The outer residuals agree to float rounding at first
    // and the counts within a few steps; the project's refinement keeps its double sums.
    const CsrD a = gen::pde(30);  // N = 27,000
    const std::vector<double> b(static_cast<std::size_t>(a.num_rows), 1.0);
    for (const int k : {4, 16}) {
        for (const char* format : {"csr", "sell"}) {  // sell: has a double-sum kernel, unused
            INFO("k = " << k << ", " << format);
            std::vector<double> xg(b.size(), 0.0), xh(b.size(), 0.0);

            const auto g = gpu::solve_gpu(a, b, xg, Method::mpir_cg, format, {}, pcg_options(k));
            const auto h = solve_host(a, b, xh, Method::mpir_cg, format, {}, pcg_options(k));

            INFO("GPU " << g.outer_iterations << " outer, host " << h.outer_iterations);
            REQUIRE(g.status == Status::converged);
            REQUIRE(h.status == Status::converged);
            CHECK(g.inner_float_reductions);
            CHECK_FALSE(g.inner_double_sums);
            CHECK(std::abs(g.outer_iterations - h.outer_iterations) <= 1 + h.outer_iterations / 10);
            REQUIRE(g.outer_residual_history.size() > 3);
            REQUIRE(h.outer_residual_history.size() > 3);
            for (std::size_t j = 1; j <= 3; ++j) {
                CHECK(g.outer_residual_history[j] ==
                      Approx(h.outer_residual_history[j]).epsilon(1e-3));
            }
            CHECK(test::rel_diff(xg, xh) < 1e-8);
        }
    }
    SECTION("the refinement (default) keeps double sums and double reductions")
    {
        std::vector<double> x(b.size(), 0.0);
        const auto r = gpu::solve_gpu(a, b, x, Method::mpir_cg, "csr");
        CHECK(r.status == Status::converged);
        CHECK(r.inner_double_sums);
        CHECK_FALSE(r.inner_float_reductions);
    }
    gpu::synchronize();
}

TEST_CASE("GPU MPIR-CG outer PCG matches the host's float path on a 3x3 with k = 2",
          "[gpu][solvers]")
{
    // Two inner CG iterations on a 3x3 with three distinct eigenvalues are not A^-1: M changes
    // with r (the flexible beta's hand-checked cases are host tests of flexible_pcg). On 3
    // entries the GPU's float sums run in the host's order (one thread's chunk), so the outer
    // iterates agree to float rounding.
    const CsrD a = test::from_triplets(3, {0, 0, 1, 1, 1, 2, 2}, {0, 1, 0, 1, 2, 1, 2},
                                       {4.0, 1.0, 1.0, 3.0, 1.0, 1.0, 2.0});
    const std::vector<double> b{1.0, 2.0, 3.0};
    SolveOptions opt = pcg_options(2);
    opt.max_outer_iterations = 1;
    std::vector<double> xg(3, 0.0), xh(3, 0.0);

    const auto g = gpu::solve_gpu(a, b, xg, Method::mpir_cg, "csr", {}, opt);
    const auto h = solve_host(a, b, xh, Method::mpir_cg, "csr", {}, opt);

    CHECK(g.inner_float_reductions);
    CHECK(h.inner_float_reductions);
    CHECK(test::rel_diff(xg, xh) < 1e-6);
    REQUIRE(g.outer_residual_history.size() == 2);
    REQUIRE(h.outer_residual_history.size() == 2);
    CHECK(g.outer_residual_history[1] == Approx(h.outer_residual_history[1]).epsilon(1e-5));
    gpu::synchronize();
}

TEST_CASE("GPU MPIR-CG outer PCG with many inner iterations needs few outer ones", "[gpu][solvers]")
{
    const CsrD a = gen::pde(24);
    const std::vector<double> b(static_cast<std::size_t>(a.num_rows), 1.0);
    std::vector<double> x_many(b.size(), 0.0), x_few(b.size(), 0.0);

    const auto many = gpu::solve_gpu(a, b, x_many, Method::mpir_cg, "csr", {}, pcg_options(2000));
    const auto few = gpu::solve_gpu(a, b, x_few, Method::mpir_cg, "csr", {}, pcg_options(3));

    INFO("outer iterations: " << many.outer_iterations << " with 2000 inner, "
                              << few.outer_iterations << " with 3");
    REQUIRE(many.status == Status::converged);
    REQUIRE(few.status == Status::converged);
    CHECK(many.final_relative_residual <= 1e-10);
    CHECK(many.outer_iterations <= 3);
    CHECK(many.inner_breakdowns == 0);
    CHECK(few.outer_iterations > 4 * many.outer_iterations);
    gpu::synchronize();
}

TEST_CASE("GPU MPIR-CG outer PCG works in the permuted basis of the sorted formats",
          "[gpu][solvers]")
{
    const CsrD a = test::irregular_spd(3000, 5);
    const auto xs = test::smooth_solution(a.num_rows);
    const auto b = test::multiply(a, xs);
    FormatParams params;
    params.sort_window = 128;
    for (const auto& format : formats()) {  // every permuted (sorted) host format
        if (!format.permuted) {
            continue;
        }
        const std::string name(format.name);
        if (!has_variant(name)) {
            WARN("no GPU kernel for " << name << " in this build: not tested");
            continue;
        }
        INFO(name);
        std::vector<double> x(b.size(), 0.0);
        SolveOptions opt = pcg_options(10);
        opt.jacobi = true;

        const auto r = gpu::solve_gpu(a, b, x, Method::mpir_cg, name, params, opt);

        CHECK(r.status == Status::converged);
        CHECK(r.permuted_basis);
        CHECK(r.final_relative_residual <= 1e-10);
        CHECK(test::rel_diff(x, xs) < 1e-9);
    }
    gpu::synchronize();
}

TEST_CASE("GPU MPIR-CG outer PCG reports matrices that are not SPD as breakdowns", "[gpu][solvers]")
{
    std::vector<double> d(100);
    for (int i = 0; i < 100; ++i) d[static_cast<std::size_t>(i)] = i % 2 == 0 ? 1.0 : -1.0;
    const CsrD indefinite = test::diagonal(d);
    // (1 2, 2 1) with b = (1, 0): the outer step 2 meets p^T A p = -12 (see the host test)
    const CsrD two = test::from_triplets(2, {0, 0, 1, 1}, {0, 1, 0, 1}, {1.0, 2.0, 2.0, 1.0});
    for (const char* format : {"csr", "sell"}) {
        INFO(format);
        std::vector<double> x(100, 0.0);
        const auto r = gpu::solve_gpu(indefinite, std::vector<double>(100, 1.0), x, Method::mpir_cg,
                                      format, {}, pcg_options(5));
        CHECK(r.status == Status::breakdown_indefinite);
        CHECK(r.message.find("inner") != std::string::npos);

        std::vector<double> x2(2, 0.0);
        const auto o = gpu::solve_gpu(two, std::vector<double>{1.0, 0.0}, x2, Method::mpir_cg,
                                      format, {}, pcg_options(5));
        CHECK(o.status == Status::breakdown_indefinite);
        CHECK(o.message.find("outer iteration 2") != std::string::npos);
    }
    gpu::synchronize();
}
