#include <catch2/catch.hpp>

#include <utility>
#include <vector>

#include <spmv/error.hpp>
#include <spmv/formats/biell.hpp>
#include <spmv/formats/ell.hpp>

#include "format_checks.hpp"
#include "test_matrices.hpp"

using namespace spmv;
using namespace spmv::test;  // Ints, Doubles, Counts, multiply, rows_of_lengths, check_matches_csr

TEST_CASE("BiELL of the canonical 4x4 with W = 4 matches the header comment", "[formats][biell]")
{
    const auto a = test::canonical4();

    const auto f = to_biell(a, BiEllOptions{4});

    CHECK(f.warp_size == 4);
    CHECK(f.row_perm == Ints{0, 2, 3, 1});
    CHECK(f.group_ptrs == Ints{0, 8, 12, 12});
    CHECK(group_widths(f) == Ints{2, 1, 0});
    CHECK(f.col_idxs == Ints{0, 0, 1, 1, 2, 2, 3, -1, 3, 3, -1, -1});
    CHECK(f.values == Doubles{1, 5, 8, 4, 2, 6, 9, 0, 3, 7, 0, 0});
    const auto fp = footprint(f);
    CHECK(fp.stored_entries == 12);
    CHECK(fp.padding_entries == 3);
    CHECK(fp.value_bytes == 9 * 8);
    CHECK(fp.index_bytes == 9 * 4);
    CHECK(fp.aux_bytes == (4 + 4) * 4);
    CHECK(fp.padding_bytes == 3 * 12);
    CHECK(multiply(f, {1, 2, 3, 4}, RowOrder::original) == Doubles{19, 8, 51, 52});
    CHECK(multiply(f, {1, 2, 3, 4}, RowOrder::permuted) == Doubles{19, 51, 52, 8});
    const auto w = thread_work(f);
    CHECK(w.iterations == Counts{3, 3, 3, 3});
    CHECK(w.useful == Counts{3, 3, 2, 1});
    CHECK(w.stored == Counts{3, 3, 3, 3});
    CHECK(to_csr(f) == a);
    CHECK_NOTHROW(validate(f));
}

TEST_CASE("BiELL of the canonical 4x4 with W = 2 matches the header comment", "[formats][biell]")
{
    const auto f = to_biell(test::canonical4(), BiEllOptions{2});

    CHECK(f.row_perm == Ints{0, 1, 2, 3});
    CHECK(f.group_ptrs == Ints{0, 2, 4, 8, 10});
    CHECK(group_widths(f) == Ints{1, 1, 2, 1});
    CHECK(f.col_idxs == Ints{0, 1, 2, 3, 0, 1, 2, 3, 3, -1});
    CHECK(f.values == Doubles{1, 4, 2, 3, 5, 8, 6, 9, 7, 0});
    CHECK(footprint(f).stored_entries == 10);
    CHECK(footprint(f).padding_entries == 1);
    CHECK(footprint(f).aux_bytes == (4 + 5) * 4);
    CHECK(multiply(f, {1, 2, 3, 4}, RowOrder::original) == Doubles{19, 8, 51, 52});
    // warp 0: in g1 lane 1 helps row 0, so both lanes do 2 useful iterations
    const auto w = thread_work(f);
    CHECK(w.iterations == Counts{2, 2, 3, 3});
    CHECK(w.useful == Counts{2, 2, 3, 2});
}

TEST_CASE("BiELL of one warp of 8 rows matches a hand computation", "[formats][biell]")
{
    // Original lengths [1 7 2 2 3 1 5 4]; W = 8, G = 4 groups.
    // Sorted (stable): rows 1 6 7 4 2 3 0 5, lengths l = [7 5 4 3 2 2 1 1].
    // g0: 8 rows x 1 lane, b0 = 4: width = l[4] = 2,                      cap = 2
    // g1: 4 rows x 2 lanes, b1 = 2: width = ceil((l[2] - 2) / 2) = 1,     cap = 2 + 2 = 4
    // g2: 2 rows x 4 lanes, b2 = 1: width = ceil((l[1] - 4) / 4) = 1,     cap = 4 + 4 = 8
    // g3: 1 row x 8 lanes,  b3 = 0: (l[0] - 8) = -1 <= 0 -> width 0
    // slots 8 * (2 + 1 + 1 + 0) = 32 for 25 entries (ELLPACK: 8 * 7 = 56); every lane runs
    // 4 iterations instead of ELLPACK-R's 7.
    // g0 (slot j*8 + p):   [0 0 0 0 0 0 0 0 | 1 1 1 1 1 1 - -]       rows 6, 7 have 1 entry
    // g1 (16 + p + e*4):   [2 2 2 2 | 3 3 3 -]                       entries 2, 3 of rows 0..3
    // g2 (24 + p + e*2):   [4 4 5 - 6 - - -]                         row 0: entries 4 5 6 on
    //                                                               lanes 0 2 4; row 1: 4 on 1
    // useful per lane: g0 [2 2 2 2 2 2 1 1] + g1 [1 1 1 1 1 1 1 0] + g2 [1 1 1 0 1 0 0 0]
    const auto a = rows_of_lengths({1, 7, 2, 2, 3, 1, 5, 4}, 8);

    const auto f = to_biell(a, BiEllOptions{8});

    CHECK(f.row_perm == Ints{1, 6, 7, 4, 2, 3, 0, 5});
    CHECK(group_widths(f) == Ints{2, 1, 1, 0});
    CHECK(f.group_ptrs == Ints{0, 16, 24, 32, 32});
    CHECK(f.col_idxs == Ints{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, -1, -1,  //
                             2, 2, 2, 2, 3, 3, 3, -1,                          //
                             4, 4, 5, -1, 6, -1, -1, -1});
    // value 10*(original row + 1) + column: stored rows are originals 1 6 7 4 2 3 0 5
    CHECK(f.values == Doubles{20, 70, 80, 50, 30, 40, 10, 60, 21, 71, 81, 51, 31, 41, 0, 0,  //
                              22, 72, 82, 52, 23, 73, 83, 0,                              //
                              24, 74, 25, 0, 26, 0, 0, 0});
    CHECK(footprint(f).stored_entries == 32);
    CHECK(footprint(f).padding_entries == 7);
    CHECK(footprint(to_ell(a)).stored_entries == 56);
    const auto w = thread_work(f);
    CHECK(w.iterations == Counts{4, 4, 4, 4, 4, 4, 4, 4});
    CHECK(w.useful == Counts{4, 4, 4, 3, 4, 3, 2, 1});
    CHECK(to_csr(f) == a);
    CHECK_NOTHROW(validate(f));
}

TEST_CASE("BiELL sorts inside each warp only", "[formats][biell]")
{
    // Same lengths, W = 4 (G = 3): warp 0 = rows 0..3 [1 7 2 2] -> sorted 1 2 3 0, l = [7 2 2 1]
    //   g0: b0 = 2: width 2 (cap 2); g1: b1 = 1: ceil((2 - 2)/2) = 0; g2: ceil((7 - 2)/4) = 2
    // warp 1 = rows 4..7 [3 1 5 4] -> sorted 6 7 4 5, l = [5 4 3 1]
    //   g0: width 3 (cap 3); g1: ceil((4 - 3)/2) = 1 (cap 5); g2: (5 - 5) -> 0
    // slots 4 * (4 + 4) = 32, padding 32 - 25 = 7
    const auto a = rows_of_lengths({1, 7, 2, 2, 3, 1, 5, 4}, 8);

    const auto f = to_biell(a, BiEllOptions{4});

    CHECK(f.row_perm == Ints{1, 2, 3, 0, 6, 7, 4, 5});
    CHECK(group_widths(f) == Ints{2, 0, 2, 3, 1, 0});
    CHECK(f.group_ptrs == Ints{0, 8, 8, 16, 28, 32, 32});
    CHECK(footprint(f).padding_entries == 7);
    CHECK(thread_work(f).iterations == Counts{4, 4, 4, 4, 4, 4, 4, 4});
    CHECK(to_csr(f) == a);
}

TEST_CASE("BiELL handles 0x0, 1x1, empty rows and rectangular matrices", "[formats][biell]")
{
    SECTION("0x0")
    {
        const auto f = to_biell(Csr<double, int>{});
        CHECK(f.group_ptrs == Ints{0});
        CHECK(f.values.empty());
        CHECK(thread_work(f).iterations.empty());
        CHECK_NOTHROW(validate(f));
        CHECK(to_csr(f) == Csr<double, int>{});
    }
    SECTION("1x1 with W = 32: the single row gets all 32 lanes in the last group")
    {
        const auto a = rows_of_lengths({1}, 1);
        const auto f = to_biell(a);
        CHECK(group_widths(f) == Ints{0, 0, 0, 0, 0, 1});
        CHECK(footprint(f).stored_entries == 32);
        CHECK(footprint(f).padding_entries == 31);
        CHECK(f.col_idxs[0] == 0);
        const auto w = thread_work(f);
        CHECK(w.iterations == Counts(32, 1));
        CHECK(w.useful[0] == 1);
        CHECK(multiply(f, {2}, RowOrder::original) == Doubles{20});
    }
    SECTION("empty rows cost nothing: lengths [0 2 0 1], W = 4")
    {
        // sorted rows 1 3 0 2, l = [2 1 0 0]: g0 width l[2] = 0; g1 width ceil(l[1]/2) = 1
        // (cap 2); g2 (2 - 2) -> 0. g1 slots p + e*2: row 1 on lanes 0, 2; row 3 on lane 1
        const auto a = rows_of_lengths({0, 2, 0, 1}, 3);
        const auto f = to_biell(a, BiEllOptions{4});
        CHECK(f.row_perm == Ints{1, 3, 0, 2});
        CHECK(group_widths(f) == Ints{0, 1, 0});
        CHECK(f.col_idxs == Ints{0, 0, 1, -1});
        CHECK(f.values == Doubles{20, 40, 21, 0});
        CHECK(thread_work(f).useful == Counts{1, 1, 1, 0});
        CHECK(multiply(f, {1, 1, 1}, RowOrder::original) == Doubles{0, 41, 0, 40});
        CHECK(to_csr(f) == a);
    }
    SECTION("no entries at all")
    {
        const auto a = rows_of_lengths({0, 0, 0, 0, 0}, 3);
        const auto f = to_biell(a, BiEllOptions{4});
        CHECK(f.group_ptrs == Ints{0, 0, 0, 0, 0, 0, 0});
        CHECK(multiply(f, {1, 1, 1}, RowOrder::original) == Doubles(5, 0.0));
        CHECK_NOTHROW(validate(f));
    }
    SECTION("rectangular, wide and tall")
    {
        for (const auto& a :
             {test::random_csr(3, 40, 0, 30, 9), test::random_csr(45, 2, 0, 2, 8)}) {
            check_matches_csr(to_biell(a, BiEllOptions{8}), a);
        }
    }
}

TEST_CASE("BiELL with a warp size that is not a power of two halves to divisors of W",
          "[formats][biell]")
{
    // W = 3: group heights 3, 1 (the largest divisor of 3 that is <= 3/2 is 1), G = 2.
    // warp 0 = rows 0 1 2 (lengths 3 1 3) -> sorted 0 2 1, l = [3 3 1]:
    //   g0: b0 = h1 = 1: width l[1] = 3 (cap 3); g1 (3 lanes for row 0): (3 - 3) -> 0
    // warp 1 = row 3 (length 2) and two virtual rows, l = [2]:
    //   g0: l[1] = 0 -> width 0; g1: ceil(2 / 3) = 1: row 3 on lanes 0 1 2 -> [1 3 -]
    const auto a = test::canonical4();

    const auto f = to_biell(a, BiEllOptions{3});

    CHECK(f.row_perm == Ints{0, 2, 1, 3});
    CHECK(f.group_ptrs == Ints{0, 9, 9, 9, 12});
    CHECK(f.col_idxs == Ints{0, 0, 1, 2, 2, -1, 3, 3, -1, 1, 3, -1});
    CHECK(f.values == Doubles{1, 5, 4, 2, 6, 0, 3, 7, 0, 8, 9, 0});
    const auto w = thread_work(f);
    CHECK(w.iterations == Counts{3, 3, 3, 1, 1, 1});
    CHECK(w.useful == Counts{3, 3, 1, 1, 1, 0});
    CHECK(multiply(f, {1, 2, 3, 4}, RowOrder::original) == Doubles{19, 8, 51, 52});
    CHECK_NOTHROW(validate(f));
}

TEST_CASE("BiELL has the expected number of groups for any warp size", "[formats][biell]")
{
    // heights: 1 | 3 1 | 5 1 | 6 3 1 | 12 6 3 1 | 24 12 6 3 1 | 32 16 8 4 2 1
    const auto a = test::random_csr(50, 40, 0, 25, 3);
    for (const auto& [warp, groups] : std::vector<std::pair<int, int>>{
             {1, 1}, {3, 2}, {5, 2}, {6, 3}, {12, 4}, {24, 5}, {32, 6}}) {
        INFO("W = " << warp);

        const auto f = to_biell(a, BiEllOptions{warp});

        const auto warps = (50 + warp - 1) / warp;
        CHECK(f.group_ptrs.size() == static_cast<std::size_t>(warps * groups + 1));
        check_matches_csr(f, a, 2);
        CHECK(thread_work(f).iterations.size() == static_cast<std::size_t>(warps * warp));
    }
    CHECK_THROWS_AS(to_biell(test::canonical4(), BiEllOptions{0}), InvalidArgument);
}

TEST_CASE("BiELL validate rejects broken layouts", "[formats][biell]")
{
    // W = 4: col_idxs [0 0 1 1 | 2 2 3 - || 3 3 - -]; row p's slots: g0 p, 4+p; g1 8+p, 10+p
    auto f = to_biell(test::canonical4(), BiEllOptions{4});
    SECTION("real entry after padding")
    {
        f.col_idxs[3] = -1;  // stored row 3: padding, then a real entry
        f.values[3] = 0;
        f.col_idxs[7] = 1;
        f.values[7] = 4;
        CHECK_THROWS_WITH(validate(f), Catch::Contains("real entry after padding"));
    }
    SECTION("column out of range")
    {
        f.col_idxs[0] = 4;
        CHECK_THROWS_WITH(validate(f), Catch::Contains("column out of range"));
    }
    SECTION("columns not increasing along a row across groups")
    {
        f.col_idxs[8] = 1;  // stored row 0: 0, 2 (g0), then 1 (g1)
        CHECK_THROWS_WITH(validate(f), Catch::Contains("columns not increasing"));
    }
    SECTION("padding with a value")
    {
        f.values[7] = 1;
        CHECK_THROWS_WITH(validate(f), Catch::Contains("padding slot with a nonzero value"));
    }
    SECTION("arrays of the wrong size")
    {
        f.values.pop_back();
        CHECK_THROWS_AS(validate(f), InvalidLayout);
    }
    SECTION("group_ptrs of the wrong length")
    {
        f.group_ptrs.push_back(12);
        CHECK_THROWS_WITH(validate(f), Catch::Contains("group_ptrs must have"));
    }
    SECTION("a group that is not W x width slots")
    {
        f.group_ptrs = {0, 8, 11, 12};
        CHECK_THROWS_WITH(validate(f), Catch::Contains("is not W x width slots"));
    }
    SECTION("a group wider than the bisection rule")
    {
        f.group_ptrs[3] = 16;  // g2 gets width 1 of padding, the rule says 0
        f.col_idxs.resize(16, -1);
        f.values.resize(16, 0.0);
        CHECK_THROWS_WITH(validate(f), Catch::Contains("bisection rule"));
    }
    SECTION("rows not sorted inside the warp")
    {
        f.col_idxs[8] = -1;  // stored row 0 loses its third entry: lengths 2 3 2 1
        f.values[8] = 0;
        CHECK_THROWS_WITH(validate(f), Catch::Contains("not sorted by length"));
    }
    SECTION("row_perm not a permutation")
    {
        f.row_perm[0] = 1;
        CHECK_THROWS_WITH(validate(f), Catch::Contains("not a permutation"));
    }
    SECTION("warp size below 1")
    {
        f.warp_size = 0;
        CHECK_THROWS_WITH(validate(f), Catch::Contains("warp_size must be at least 1"));
    }
    SECTION("a warp size that does not match the groups")
    {
        f.warp_size = 3;  // 2 warps x 2 groups need 5 group_ptrs, there are 4
        CHECK_THROWS_WITH(validate(f), Catch::Contains("group_ptrs must have"));
    }
    SECTION("row_perm moving a row to another warp")
    {
        auto g = to_biell(test::canonical4(), BiEllOptions{2});
        g.row_perm = {2, 1, 0, 3};
        CHECK_THROWS_WITH(validate(g), Catch::Contains("out of its warp"));
    }
    SECTION("a real entry in a virtual row of the last warp")
    {
        auto g = to_biell(rows_of_lengths({1, 1, 1}, 2), BiEllOptions{4});
        REQUIRE(g.col_idxs == Ints{0, 0, 0, -1});
        g.col_idxs[3] = 1;
        g.values[3] = 5;
        CHECK_THROWS_WITH(validate(g), Catch::Contains("virtual row"));
    }
}
