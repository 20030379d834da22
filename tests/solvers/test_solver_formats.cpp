// CG with every registered storage format, permuted ones in their permuted basis: the operator
// is P A P^T, b is permuted once, x un-permuted once, and the solution is the same.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/registry.hpp>
#include <spmv/solvers/host_backend.hpp>
#include <spmv/solvers/solve.hpp>
#include <spmv/solvers/system.hpp>

#include "solver_matrices.hpp"

using namespace spmv;
using namespace spmv::solvers;
using spmv::test::CsrD;

namespace {

std::vector<FormatParams> param_sets()
{
    FormatParams small;  // blackboard sizes: many blocks/slices/windows on a 100-row matrix
    small.warp_size = 8;
    small.block_rows = 4;
    small.slice_height = 4;
    small.sort_window = 16;
    return {FormatParams{}, small};
}

}  // namespace

TEST_CASE("permute_columns renumbers columns and keeps rows: canonical 4x4", "[solvers]")
{
    // A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], perm = [0 2 3 1]: (A P^T)(i,l) = A(i, perm[l])
    // row 0: A(0,0)=1 A(0,2)=2 A(0,3)=3 A(0,1)=0 -> [1 2 3 0]
    // row 1: [0 0 0 4], row 2: [5 6 7 0], row 3: [0 0 9 8]
    Csr<double, std::int32_t> a;
    a.num_rows = a.num_cols = 4;
    a.row_ptrs = {0, 3, 4, 7, 9};
    a.col_idxs = {0, 2, 3, 1, 0, 2, 3, 1, 3};
    a.values = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const std::vector<std::int32_t> perm{0, 2, 3, 1};

    const auto b = permute_columns(a, perm);

    CHECK(b.row_ptrs == a.row_ptrs);
    CHECK(b.col_idxs == std::vector<std::int32_t>{0, 1, 2, 3, 0, 1, 2, 2, 3});
    CHECK(b.values == std::vector<double>{1, 2, 3, 4, 5, 6, 7, 9, 8});
}

TEST_CASE("to_basis and from_basis are inverse permutations", "[solvers]")
{
    const std::vector<std::int32_t> perm{2, 0, 3, 1};
    const std::vector<double> v{10, 11, 12, 13};

    const auto vp = to_basis(v, perm);
    std::vector<double> back(4);
    from_basis(vp, perm, back);

    CHECK(vp == std::vector<double>{12, 10, 13, 11});
    CHECK(back == v);
    CHECK(to_basis(v, {}) == v);
}

TEST_CASE("jacobi_inverse_diagonal follows the basis and rejects a_ii <= 0", "[solvers]")
{
    const CsrD a = test::diagonal({2.0, 4.0, 8.0});
    std::string problem;

    const auto inv = jacobi_inverse_diagonal(a, std::vector<std::int32_t>{2, 0, 1}, problem);

    CHECK(problem.empty());
    CHECK(inv == std::vector<double>{0.125, 0.5, 0.25});
    CHECK(jacobi_inverse_diagonal(test::diagonal({1.0, 0.0}), {}, problem).empty());
    CHECK(problem.find("row 1") != std::string::npos);
}

TEST_CASE("A permuted format's solver operator is P A P^T in RowOrder::permuted", "[solvers]")
{
    // The brief's formats must be registered (the test fails if one disappears).
    REQUIRE(find_format("pjds").permuted);
    REQUIRE(find_format("pellr").permuted);
    REQUIRE(find_format("sell").permuted);
    const CsrD a = test::irregular_spd(100, 3);
    const auto xp = test::smooth_solution(100);
    for (const auto& params : param_sets()) {
        for (const auto& info : formats()) {
            if (!info.permuted) {
                continue;
            }
            const auto plan = plan_operator(a, info.name, params);
            if (plan.perm.empty()) {  // e.g. SELL with sigma = 1 keeps the order
                CHECK(info.name == "sell");
                CHECK(params.sort_window == 1);
                continue;
            }
            INFO(info.name << " sigma=" << params.sort_window);
            CHECK(plan.order == RowOrder::permuted);
            CHECK_FALSE(plan.symmetric_fallback);
            HostBackend<double> be(plan.matrix, plan.order);
            std::vector<double> y(100);

            be.spmv(xp, y);

            const auto papt = permute_symmetric(a, std::span<const std::int32_t>(plan.perm));
            CHECK(test::rel_diff(y, test::multiply(papt, xp)) < 1e-15);
        }
    }
}

TEST_CASE("CG and Jacobi CG give the same solution with every registered format", "[solvers]")
{
    const CsrD a = test::irregular_spd(100, 5);
    const auto xs = test::smooth_solution(100);
    const auto b = test::multiply(a, xs);
    int permuted_runs = 0;
    for (const auto& params : param_sets()) {
        for (const auto& info : formats()) {
            for (const bool jacobi : {false, true}) {
                INFO(info.name << " jacobi=" << jacobi << " br=" << params.block_rows);
                std::vector<double> x(100, 0.0);
                SolveOptions opt;
                opt.jacobi = jacobi;

                const auto res = solve_host(a, b, x, Method::cg, info.name, params, opt);

                CHECK(res.status == Status::converged);
                CHECK(res.final_relative_residual <= 1e-10);
                CHECK(test::rel_diff(x, xs) < 1e-9);
                CHECK(res.format == info.name);
                CHECK(res.permuted_basis ==
                      (info.permuted && (info.name != "sell" || params.sort_window > 1)));
                permuted_runs += res.permuted_basis ? 1 : 0;
            }
        }
    }
    CHECK(permuted_runs >= 6);  // pjds, pellr, sell (sigma > 1) at least, with and without Jacobi
}

TEST_CASE("MPIR-CG gives the same solution in the permuted basis of pJDS, PELLR and SELL",
          "[solvers]")
{
    const CsrD a = test::irregular_spd(300, 9);
    const auto xs = test::smooth_solution(300);
    const auto b = test::multiply(a, xs);
    FormatParams params;
    params.sort_window = 64;
    std::vector<double> ref(300, 0.0);
    REQUIRE(solve_host(a, b, ref, Method::cg).status == Status::converged);
    for (const char* name : {"pjds", "pellr", "sell"}) {
        INFO(name);
        std::vector<double> x(300, 0.0);

        const auto res = solve_host(a, b, x, Method::mpir_cg, name, params);

        CHECK(res.status == Status::converged);
        CHECK(res.permuted_basis);
        CHECK(res.final_relative_residual <= 1e-10);
        CHECK(test::rel_diff(x, ref) < 1e-9);
    }
}
