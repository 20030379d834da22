#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>

#include <spmv/error.hpp>
#include <spmv/formats/jds_csr.hpp>
#include <spmv/formats/pellr.hpp>
#include <spmv/formats/pjds.hpp>

#include "format_checks.hpp"
#include "test_matrices.hpp"

using namespace spmv;

namespace {

using CsrD = Csr<double, std::int32_t>;

constexpr int pad = padding_index<int>;

using test::apply;  // y = alpha A x + beta y, y returned

/// Square matrix whose row i has columns 0 .. lengths[i]-1, value of (i, c) = 1 + i + c / 8.
CsrD from_lengths(const std::vector<int>& lengths)
{
    CsrD a;
    a.num_rows = a.num_cols = static_cast<int>(lengths.size());
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        for (int c = 0; c < lengths[i]; ++c) {
            a.col_idxs.push_back(c);
            a.values.push_back(1.0 + static_cast<double>(i) + c / 8.0);
        }
        a.row_ptrs.push_back(static_cast<int>(a.col_idxs.size()));
    }
    return a;
}

/// PELLR eq. (1): N_iter = sum over warps of the most iterations of a thread in the warp
/// (computed here, independently of spmv::analysis).
std::int64_t warp_iterations(const ThreadWork& w, std::size_t warp)
{
    std::int64_t total = 0;
    for (std::size_t t = 0; t < w.iterations.size(); t += warp) {
        const auto end = std::min(w.iterations.size(), t + warp);
        total += *std::max_element(w.iterations.begin() + static_cast<std::ptrdiff_t>(t),
                                   w.iterations.begin() + static_cast<std::ptrdiff_t>(end));
    }
    return total;
}

/// PELLR eq. (2) over the existing rows: N_p = sum (2 len - 1).
std::int64_t work_np(const ThreadWork& w)
{
    std::int64_t total = 0;
    for (auto u : w.useful) {
        total += 2 * u - 1;
    }
    return total;
}

}  // namespace

TEST_CASE("PELLR of the canonical 4x4 matches the header comment", "[formats][pellr]")
{
    const auto a = test::canonical4();

    const auto p = to_pellr(a);

    REQUIRE_NOTHROW(validate(p));
    CHECK(p.width == 3);
    CHECK(p.stride == 4);
    CHECK(p.row_perm == std::vector<int>{0, 2, 3, 1});
    CHECK(p.row_lengths == std::vector<int>{3, 3, 2, 1});
    CHECK(p.col_idxs == std::vector<int>{0, 0, 1, 1, 2, 2, 3, pad, 3, 3, pad, pad});
    CHECK(p.values == std::vector<double>{1, 5, 8, 4, 2, 6, 9, 0, 3, 7, 0, 0});
    const auto f = footprint(p);
    CHECK(f.stored_entries == 12);
    CHECK(f.padding_entries == 3);
    CHECK(f.value_bytes == 9 * 8);
    CHECK(f.index_bytes == 9 * 4);
    CHECK(f.aux_bytes == (4 + 4) * 4);  // perm[] and rl[]
    CHECK(f.padding_bytes == 3 * 12);
    const auto w = thread_work(p);
    CHECK(w.iterations == std::vector<std::int64_t>{3, 3, 2, 1});
    CHECK(w.useful == std::vector<std::int64_t>{3, 3, 2, 1});
    CHECK(w.stored == std::vector<std::int64_t>{3, 3, 3, 3});
    const std::vector<double> x{1, 2, 3, 4};
    CHECK(apply(p, x, {7, 7, 7, 7}, 1.0, 0.0, RowOrder::original) ==
          std::vector<double>{19, 8, 51, 52});
    CHECK(apply(p, x, {1, 1, 1, 1}, 2.0, 3.0, RowOrder::original) ==
          std::vector<double>{41, 19, 105, 107});
    CHECK(apply(p, x, {0, 0, 0, 0}, 1.0, 0.0, RowOrder::permuted) ==
          std::vector<double>{19, 51, 52, 8});
    CHECK(apply(p, x, {1, 2, 3, 4}, 1.0, 10.0, RowOrder::permuted) ==
          std::vector<double>{29, 71, 82, 48});
    CHECK(to_csr(p) == a);
}

TEST_CASE("PELLR reproduces the iteration counts of Wang & Gu Fig. 5", "[formats][pellr]")
{
    // row lengths of Fig. 5 in the original order, four warps of 8 threads
    const std::vector<int> lengths{2, 3, 3, 4, 4, 4, 2, 4, 2, 3, 2, 3, 2, 3, 2, 2,
                                   2, 2, 7, 3, 3, 3, 3, 3, 4, 3};
    const auto a = from_lengths(lengths);
    REQUIRE(a.num_rows == 26);

    const auto p = to_pellr(a);
    const auto ellr = thread_work(a);  // CSR scalar = ELLR: one thread per original row
    const auto pellr = thread_work(p);

    REQUIRE_NOTHROW(validate(p));
    // ELLR warps [2,3,3,4,4,4,2,4] [2,3,2,3,2,3,2,2] [2,2,7,3,3,3,3,3] [4,3]: 4 + 3 + 7 + 4
    CHECK(warp_iterations(ellr, 8) == 18);
    // sorted warps [7,4,4,4,4,4,3,3] [3,3,3,3,3,3,3,3] [3,2,2,2,2,2,2,2] [2,2]: 7 + 3 + 3 + 2.
    // The paper prints 14: its sorted third warp lists eight 2s, one "3" fewer than the 26
    // lengths above contain (SPEC §2). Sorting exactly these lengths gives 15.
    CHECK(p.row_lengths == std::vector<int>{7, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
                                            3, 2, 2, 2, 2, 2, 2, 2, 2, 2});
    CHECK(warp_iterations(pellr, 8) == 15);
    // eq. (2): the work does not change with the permutation
    CHECK(work_np(ellr) == work_np(pellr));
    CHECK(work_np(pellr) == 2 * 78 - 26);
    // pJDS with b_r = 8 and the JDS CSR-like kernel walk the same sorted rows
    CHECK(warp_iterations(thread_work(to_pjds(a, PjdsOptions{8, false})), 8) == 15);
    CHECK(warp_iterations(thread_work(to_jds_csr(a, JdsCsrOptions{8})), 8) == 15);
    // storage: PELLR keeps the N x 7 rectangle, pJDS pads per warp
    CHECK(footprint(p).stored_entries == 26 * 7);
    CHECK(footprint(to_pjds(a, PjdsOptions{8, false})).stored_entries ==
          8 * 7 + 8 * 3 + 8 * 3 + 2 * 2);

    const auto x = test::random_vector(26, 3);
    std::vector<double> expected(26);
    spmv_reference(a, 1.0, std::span<const double>(x), 0.0, std::span<double>(expected));
    CHECK(apply(p, x, std::vector<double>(26, 0.0), 1.0, 0.0, RowOrder::original) == expected);
    CHECK(to_csr(p) == a);
}

TEST_CASE("PELLR handles 0x0, 1x1, empty rows and rectangular matrices", "[formats][pellr]")
{
    SECTION("0x0")
    {
        const auto p = to_pellr(CsrD{});
        REQUIRE_NOTHROW(validate(p));
        CHECK(p.width == 0);
        CHECK(p.values.empty());
        CHECK(footprint(p).total_bytes() == 0);
        CHECK(thread_work(p).iterations.empty());
        CHECK(to_csr(p) == CsrD{});
    }
    SECTION("1x1")
    {
        const auto one = test::zoo()[1].a;
        const auto p = to_pellr(one);
        CHECK(p.width == 1);
        CHECK(p.col_idxs == std::vector<int>{0});
        CHECK(apply(p, {2}, {1}, 1.0, 1.0, RowOrder::original) == std::vector<double>{8});
        CHECK(to_csr(p) == one);
    }
    SECTION("empty rows")
    {
        const auto a = test::empty_rows5x3();
        const auto p = to_pellr(a);
        REQUIRE_NOTHROW(validate(p));
        CHECK(p.row_perm == std::vector<int>{1, 3, 0, 2, 4});
        CHECK(p.row_lengths == std::vector<int>{2, 1, 0, 0, 0});
        CHECK(p.col_idxs == std::vector<int>{0, 1, pad, pad, pad, 2, pad, pad, pad, pad});
        CHECK(footprint(p).stored_entries == 10);
        CHECK(footprint(p).padding_entries == 7);
        CHECK(thread_work(p).iterations == std::vector<std::int64_t>{2, 1, 0, 0, 0});
        CHECK(apply(p, {1, 1, 1}, {9, 9, 9, 9, 9}, 1.0, 0.0, RowOrder::original) ==
              std::vector<double>{0, 3, 0, 3, 0});
        CHECK(apply(p, {1, 1, 1}, {9, 9, 9, 9, 9}, 1.0, 0.0, RowOrder::permuted) ==
              std::vector<double>{3, 3, 0, 0, 0});
        CHECK(to_csr(p) == a);
    }
    SECTION("rectangular 2x5")
    {
        const auto p = to_pellr(test::wide2x5());
        REQUIRE_NOTHROW(validate(p));
        CHECK(p.row_perm == std::vector<int>{1, 0});
        CHECK(p.col_idxs == std::vector<int>{0, 1, 2, 4, 3, pad});
        test::check_wide2x5_sorted(p);
    }
}

TEST_CASE("PELLR validate rejects broken layouts", "[formats][pellr]")
{
    auto p = to_pellr(test::canonical4());
    SECTION("row_perm and row_lengths")
    {
        test::check_rejects_bad_row_perm(p);
        test::check_rejects_bad_row_lengths(p);
    }
    SECTION("width is not the longest row")
    {
        p.width = 4;
        p.col_idxs.resize(16, pad);
        p.values.resize(16, 0.0);
        CHECK_THROWS_AS(validate(p), InvalidLayout);
    }
    SECTION("stride smaller than num_rows")
    {
        p.stride = 3;
        CHECK_THROWS_AS(validate(p), InvalidLayout);
    }
    SECTION("padding slot with a value")
    {
        p.values[7] = 1.0;
        CHECK_THROWS_AS(validate(p), InvalidLayout);
    }
    SECTION("real entry after a row's length")
    {
        p.col_idxs[10] = 0;
        p.values[10] = 1.0;
        CHECK_THROWS_AS(validate(p), InvalidLayout);
    }
    SECTION("column out of range")
    {
        p.col_idxs[3] = 4;
        CHECK_THROWS_AS(validate(p), InvalidLayout);
    }
    SECTION("columns not increasing along a row")
    {
        p.col_idxs[9] = 0;  // sorted row 1: 0, 2, 0
        CHECK_THROWS_AS(validate(p), InvalidLayout);
    }
    SECTION("array sizes")
    {
        p.values.pop_back();
        CHECK_THROWS_AS(validate(p), InvalidLayout);
    }
}

TEST_CASE("PELLR never needs more warp iterations than ELLR on the zoo", "[formats][pellr]")
{
    for (const auto& m : test::zoo()) {
        INFO(m.name);
        const auto p = to_pellr(m.a);
        REQUIRE_NOTHROW(validate(p));
        CHECK(to_csr(p) == m.a);
        for (const std::size_t warp : {4u, 8u, 32u}) {
            CHECK(warp_iterations(thread_work(p), warp) <= warp_iterations(thread_work(m.a), warp));
        }
        CHECK(work_np(thread_work(p)) == work_np(thread_work(m.a)));
    }
}
