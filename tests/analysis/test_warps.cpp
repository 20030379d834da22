#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include <spmv/analysis/warps.hpp>
#include <spmv/error.hpp>
#include <spmv/registry.hpp>

#include "test_matrices.hpp"

using namespace spmv;
using namespace spmv::analysis;

namespace {

// A matrix whose row i has lengths[i] entries in columns 0 .. lengths[i]-1.
Csr<double, std::int32_t> with_lengths(const std::vector<std::int32_t>& lengths, std::int32_t cols)
{
    Csr<double, std::int32_t> a;
    a.num_rows = static_cast<std::int32_t>(lengths.size());
    a.num_cols = cols;
    for (const auto len : lengths) {
        for (std::int32_t j = 0; j < len; ++j) {
            a.col_idxs.push_back(j);
            a.values.push_back(1.0 + j);
        }
        a.row_ptrs.push_back(static_cast<std::int32_t>(a.values.size()));
    }
    return a;
}

// ThreadWork of one thread per row that stops at its row length (CSR scalar, ELLR, PELLR).
ThreadWork per_row(const std::vector<std::int64_t>& lengths)
{
    return ThreadWork{lengths, lengths, lengths};
}

bool registered(std::string_view name)
{
    const auto all = formats();
    return std::any_of(all.begin(), all.end(), [&](const auto& f) { return f.name == name; });
}

std::vector<std::int64_t> warp_max(const WarpAnalysis& w)
{
    std::vector<std::int64_t> r;
    for (const auto& x : w.warps) {
        r.push_back(x.max_iterations);
    }
    return r;
}

// PELLR Fig. 5: ELLR row lengths of the 26-row example, in matrix order (4 warps of 8).
const std::vector<std::int32_t> fig5 = {2, 3, 3, 4, 4, 4, 2, 4,  //
                                        2, 3, 2, 3, 2, 3, 2, 2,  //
                                        2, 2, 7, 3, 3, 3, 3, 3,  //
                                        4, 3};

}  // namespace

TEST_CASE("analyze_warps of the canonical 4x4 matches the header comment", "[analysis]")
{
    const auto a = test::canonical4();
    const AnyMatrix<double> csr = a;
    const AnyMatrix<double> ell = to_ell(a);

    const auto w = analyze_warps(csr, 2);
    const auto e = analyze_warps(ell, 2);
    const auto w32 = analyze_warps(csr, 32);

    REQUIRE(w.warps.size() == 2);
    CHECK(w.warps[0].first_thread == 0);
    CHECK(w.warps[0].threads == 2);
    CHECK(w.warps[0].max_iterations == 3);
    CHECK(w.warps[0].useful == 4);
    CHECK(w.warps[0].idle_slots == 2);  // (3-3) + (3-1)
    CHECK(w.warps[0].useful_fraction == Approx(4.0 / 6.0));
    CHECK(w.warps[1].first_thread == 2);
    CHECK(w.warps[1].useful == 5);
    CHECK(w.warps[1].idle_slots == 1);  // (3-3) + (3-2)
    CHECK(w.warps[1].useful_fraction == Approx(5.0 / 6.0));
    CHECK(w.n_iter == 6);
    CHECK(w.n_p == 14);  // 5 + 1 + 5 + 3 = 2*9 - 4
    CHECK(w.stored_padding == 0);
    CHECK(w.useful_fraction == Approx(9.0 / 12.0));
    // ELL: same loop trips, but 3 slots stored per thread
    CHECK(e.n_iter == 6);
    CHECK(e.warps[0].stored == 6);
    CHECK(e.warps[0].stored_padding == 2);
    CHECK(e.warps[1].stored_padding == 1);
    CHECK(e.stored_padding == 3);
    // warp 32: 4 threads and 28 phantom lanes, 9 useful of 32*3 = 96 lane slots
    REQUIRE(w32.warps.size() == 1);
    CHECK(w32.warps[0].threads == 4);
    CHECK(w32.idle_slots == 3);
    CHECK(w32.phantom_slots == 84);
    CHECK(w32.useful_fraction == Approx(0.09375));
}

TEST_CASE("PELLR Fig. 5: ELLR order needs 18 iterations, sorted order 15", "[analysis]")
{
    const auto a = with_lengths(fig5, 8);
    const auto lengths = row_lengths(a);
    const auto perm = sort_by_length_desc(std::span<const std::int32_t>(lengths));
    const auto sorted = permute_rows(a, std::span<const std::int32_t>(perm));

    const auto ellr = analyze_warps(thread_work(a), 8);
    const auto pellr = analyze_warps(thread_work(sorted), 8);

    // per-warp maxima: [2,3,3,4,4,4,2,4] -> 4, [2,3,2,3,2,3,2,2] -> 3, [2,2,7,3,3,3,3,3] -> 7,
    // [4,3] -> 4: N_iter = 4 + 3 + 7 + 4 = 18 (PELLR §3)
    CHECK(warp_max(ellr) == std::vector<std::int64_t>{4, 3, 7, 4});
    CHECK(ellr.n_iter == 18);
    // sorted: [7,4,4,4,4,4,3,3], [3,3,3,3,3,3,3,3], [3,2,2,2,2,2,2,2], [2,2]:
    // N_iter = 7 + 3 + 3 + 2 = 15 (the paper prints 14, see the next test)
    CHECK(row_lengths(sorted) == std::vector<std::int32_t>{7, 4, 4, 4, 4, 4, 3, 3,  //
                                                           3, 3, 3, 3, 3, 3, 3, 3,  //
                                                           3, 2, 2, 2, 2, 2, 2, 2,  //
                                                           2, 2});
    CHECK(warp_max(pellr) == std::vector<std::int64_t>{7, 3, 3, 2});
    CHECK(pellr.n_iter == 15);
    // N_p: warp sums 26, 19, 26, 7 (nnz 78) over 8, 8, 8, 2 rows:
    // (52-8) + (38-8) + (52-8) + (14-2) = 44 + 30 + 44 + 12 = 130 = 2*78 - 26, in both orders
    CHECK(ellr.warps[0].n_p == 44);
    CHECK(ellr.warps[3].n_p == 12);
    CHECK(ellr.n_p == 130);
    CHECK(pellr.n_p == 130);
    // idle thread-iterations: 8*4-26 + 8*3-19 + 8*7-26 + 2*4-7 = 6 + 5 + 30 + 1 = 42;
    // sorted: 8*7-33 + 0 + 8*3-17 + 0 = 23 + 7 = 30. Phantom lanes of warp 4: 6*4 and 6*2.
    CHECK(ellr.idle_slots == 42);
    CHECK(pellr.idle_slots == 30);
    CHECK(ellr.phantom_slots == 24);
    CHECK(pellr.phantom_slots == 12);
    CHECK(ellr.useful_fraction == Approx(78.0 / 144.0));   // 78 / (8 * 18)
    CHECK(pellr.useful_fraction == Approx(78.0 / 120.0));  // 78 / (8 * 15)
}

TEST_CASE("PELLR Fig. 5: the paper's 14 comes from sorted warps with one 3 too few", "[analysis]")
{
    // The sorted warps as printed in PELLR §3 (b_{i,pellr}), phantom lanes left out.
    const std::vector<std::int64_t> printed = {7, 4, 4, 4, 4, 4, 3, 3,  //
                                               3, 3, 3, 3, 3, 3, 3, 3,  //
                                               2, 2, 2, 2, 2, 2, 2, 2,  //
                                               2, 2};
    std::vector<std::int64_t> lengths(fig5.begin(), fig5.end());

    const auto w = analyze_warps(per_row(printed), 8);

    CHECK(w.n_iter == 14);  // 7 + 3 + 2 + 2: reproduces the paper's number ...
    CHECK(w.useful == 77);  // ... but holds 77 nonzeros, not the example's 78
    CHECK(analyze_warps(per_row(lengths), 8).useful == 78);
    CHECK(std::count(printed.begin(), printed.end(), 3) == 10);
    CHECK(std::count(lengths.begin(), lengths.end(), 3) == 11);
}

TEST_CASE("PELLR eq. 2 over all lanes would count -1 per phantom lane", "[analysis]")
{
    // The literal eq. 2 sums 2 b - 1 over 32 lanes per warp with b = 0 past the last row:
    // one warp of 32 lanes, 26 rows, 78 nonzeros: 2*78 - 32 = 124. Ours counts the 26 rows:
    // 2*78 - 26 = 130, for any warp size.
    std::vector<std::int64_t> lengths(fig5.begin(), fig5.end());
    std::int64_t literal = 0;
    for (std::size_t lane = 0; lane < 32; ++lane) {
        const auto b = lane < lengths.size() ? lengths[lane] : 0;
        literal += 2 * b - 1;
    }

    const auto w32 = analyze_warps(per_row(lengths), 32);
    const auto w5 = analyze_warps(per_row(lengths), 5);

    CHECK(literal == 124);
    CHECK(w32.n_p == 130);
    CHECK(w5.n_p == 130);
}

TEST_CASE("registered ELLR and PELLR give N_iter 18 and 15 on PELLR Fig. 5", "[analysis]")
{
    const auto a = with_lengths(fig5, 8);
    FormatParams params;
    params.warp_size = 8;

    if (registered("ellr")) {
        const auto w = analyze_warps(build<double>("ellr", a, params), 8);
        CHECK(w.n_iter == 18);
        CHECK(w.n_p == 130);
    } else {
        WARN("format 'ellr' is not registered yet: check skipped");
    }
    if (registered("pellr")) {
        const auto w = analyze_warps(build<double>("pellr", a, params), 8);
        CHECK(w.n_iter == 15);
        CHECK(w.n_p == 130);
    } else {
        WARN("format 'pellr' is not registered yet: check skipped");
    }
}

TEST_CASE("analyze_warps totals add up for every format on the zoo", "[analysis]")
{
    for (const auto& info : formats()) {
        for (const auto& m : test::zoo()) {
            for (const int ws : {1, 4, 8, 32}) {  // BiELL/BiJAD need powers of two
                INFO("format " << info.name << ", matrix " << m.name << ", warp " << ws);
                FormatParams params;
                params.warp_size = ws;
                const auto any = build<double>(info.name, m.a, params);

                const auto w = analyze_warps(any, ws);

                std::int64_t n_iter = 0;
                for (const auto& x : w.warps) {
                    CHECK(x.useful + x.idle_slots + x.phantom_slots == ws * x.max_iterations);
                    CHECK(x.threads >= 1);
                    CHECK(x.threads <= ws);
                    n_iter += x.max_iterations;
                }
                CHECK(w.n_iter == n_iter);
                CHECK(w.useful == nnz(m.a));
                CHECK(static_cast<std::int64_t>(w.warps.size()) == (w.threads + ws - 1) / ws);
                CHECK(w.n_p <= 2 * nnz(m.a));
            }
        }
    }
}

TEST_CASE("analyze_warps on one thread per row gives n_p = 2 nnz - non-empty rows", "[analysis]")
{
    for (const auto& m : test::zoo()) {
        INFO(m.name);
        const auto len = row_lengths(m.a);
        const auto nonempty = std::count_if(len.begin(), len.end(), [](auto l) { return l > 0; });

        const auto w = analyze_warps(thread_work(m.a), 32);

        CHECK(w.n_p == 2 * nnz(m.a) - nonempty);
    }
}

TEST_CASE("analyze_warps of no threads or idle threads wastes nothing", "[analysis]")
{
    const auto none = analyze_warps(ThreadWork{}, 32);
    const auto empty_rows = analyze_warps(per_row({0, 0, 0}), 2);

    CHECK(none.warps.empty());
    CHECK(none.n_iter == 0);
    CHECK(none.useful_fraction == 1.0);
    REQUIRE(empty_rows.warps.size() == 2);
    CHECK(empty_rows.n_iter == 0);
    CHECK(empty_rows.n_p == 0);
    CHECK(empty_rows.warps[1].threads == 1);
    CHECK(empty_rows.useful_fraction == 1.0);
}

TEST_CASE("analyze_warps rejects inconsistent thread work", "[analysis]")
{
    ThreadWork sizes{{1, 2}, {1}, {1, 2}};
    ThreadWork too_useful{{1, 2}, {1, 3}, {1, 3}};
    ThreadWork negative{{1, -2}, {1, -2}, {1, 0}};

    CHECK_THROWS_AS(analyze_warps(per_row({1}), 0), InvalidArgument);
    CHECK_THROWS_AS(analyze_warps(sizes, 4), InvalidArgument);
    CHECK_THROWS_WITH(analyze_warps(too_useful, 4), Catch::Contains("thread 1"));
    CHECK_THROWS_AS(analyze_warps(negative, 4), InvalidArgument);
}
