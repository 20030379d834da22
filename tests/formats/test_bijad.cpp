#include <catch2/catch.hpp>

#include <spmv/error.hpp>
#include <spmv/formats/biell.hpp>
#include <spmv/formats/bijad.hpp>

#include "format_checks.hpp"
#include "test_matrices.hpp"

using namespace spmv;
using namespace spmv::test;  // Ints, Doubles, Counts, multiply, rows_of_lengths, check_matches_csr

TEST_CASE("BiJAD of the canonical 4x4 with W = 2 matches the header comment", "[formats][bijad]")
{
    const auto a = test::canonical4();

    const auto f = to_bijad(a, BiJadOptions{2});

    CHECK(f.row_perm == Ints{0, 2, 3, 1});
    CHECK(f.group_ptrs == Ints{0, 6, 6, 8, 10});
    CHECK(group_widths(f) == Ints{3, 0, 1, 1});
    CHECK(f.col_idxs == Ints{0, 0, 2, 2, 3, 3, 1, 1, 3, -1});
    CHECK(f.values == Doubles{1, 5, 2, 6, 3, 7, 8, 4, 9, 0});
    const auto fp = footprint(f);
    CHECK(fp.stored_entries == 10);
    CHECK(fp.padding_entries == 1);
    CHECK(fp.value_bytes == 9 * 8);
    CHECK(fp.index_bytes == 9 * 4);
    CHECK(fp.aux_bytes == (4 + 5) * 4);
    CHECK(fp.padding_bytes == 1 * 12);
    CHECK(multiply(f, {1, 2, 3, 4}, RowOrder::original) == Doubles{19, 8, 51, 52});
    CHECK(multiply(f, {1, 2, 3, 4}, RowOrder::permuted) == Doubles{19, 51, 52, 8});
    // warp 1: row 3 uses both lanes in g1, row 1 has one entry
    const auto w = thread_work(f);
    CHECK(w.iterations == Counts{3, 3, 2, 2});
    CHECK(w.useful == Counts{3, 3, 2, 1});
    CHECK(to_csr(f) == a);
    CHECK_NOTHROW(validate(f));
}

TEST_CASE("BiJAD with a single warp equals BiELL", "[formats][bijad]")
{
    const auto a = test::canonical4();

    const auto j = to_bijad(a, BiJadOptions{4});
    const auto e = to_biell(a, BiEllOptions{4});

    CHECK(j.row_perm == e.row_perm);
    CHECK(j.group_ptrs == e.group_ptrs);
    CHECK(j.col_idxs == e.col_idxs);
    CHECK(j.values == e.values);
    CHECK(footprint(j).stored_entries == 12);
    CHECK(footprint(j).padding_entries == 3);
}

TEST_CASE("BiJAD sorts globally and groups warps of sorted rows", "[formats][bijad]")
{
    // Lengths [1 7 2 2 3 1 5 4], W = 4 (G = 3). Global stable sort: rows 1 6 7 4 | 2 3 0 5,
    // l = [7 5 4 3 | 2 2 1 1].
    // warp 0: g0 b0 = 2: width l[2] = 4 (cap 4); g1 b1 = 1: ceil((5 - 4)/2) = 1 (cap 6);
    //         g2: ceil((7 - 6)/4) = 1                          -> 4 * 6 = 24 slots, 5 padding
    // warp 1: g0 width l[2] = 1 (cap 1); g1: ceil((2 - 1)/2) = 1 (cap 3); g2: (2 - 3) -> 0
    //                                                          -> 4 * 2 = 8 slots, 2 padding
    // warp 0 g0 (j*4 + p): [0 0 0 0 | 1 1 1 1 | 2 2 2 2 | 3 3 3 -]   (row 4 has 3 entries)
    //        g1 (16 + p + e*2): [4 4 5 -]   row 1 (l 7): entries 4, 5; row 6 (l 5): entry 4
    //        g2 (20 + e):       [6 - - -]   row 1: entry 6
    // warp 1 g0: [0 0 0 0]; g1 (28 + p + e*2): [1 1 - -]
    // BiELL with W = 4 needs 8 iterations too (4 + 4), but BiJAD puts the long rows together.
    const auto a = rows_of_lengths({1, 7, 2, 2, 3, 1, 5, 4}, 8);

    const auto f = to_bijad(a, BiJadOptions{4});

    CHECK(f.row_perm == Ints{1, 6, 7, 4, 2, 3, 0, 5});
    CHECK(group_widths(f) == Ints{4, 1, 1, 1, 1, 0});
    CHECK(f.group_ptrs == Ints{0, 16, 20, 24, 28, 32, 32});
    CHECK(f.col_idxs == Ints{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, -1,  //
                             4, 4, 5, -1, 6, -1, -1, -1,                       //
                             0, 0, 0, 0, 1, 1, -1, -1});
    CHECK(f.values == Doubles{20, 70, 80, 50, 21, 71, 81, 51, 22, 72, 82, 52, 23, 73, 83, 0,  //
                              24, 74, 25, 0, 26, 0, 0, 0,                                  //
                              30, 40, 10, 60, 31, 41, 0, 0});
    CHECK(footprint(f).padding_entries == 7);
    const auto w = thread_work(f);
    CHECK(w.iterations == Counts{6, 6, 6, 6, 2, 2, 2, 2});
    CHECK(w.useful == Counts{6, 5, 5, 3, 2, 2, 1, 1});
    CHECK(to_csr(f) == a);
    Doubles x(8, 1.0);  // row r: l*10*(r+1) + l*(l-1)/2
    CHECK(multiply(f, x, RowOrder::original) == Doubles{10, 161, 61, 81, 153, 60, 360, 326});
    CHECK_NOTHROW(validate(f));
}

TEST_CASE("BiJAD handles 0x0, 1x1, empty rows and rectangular matrices", "[formats][bijad]")
{
    SECTION("0x0")
    {
        const auto f = to_bijad(Csr<double, int>{});
        CHECK(f.group_ptrs == Ints{0});
        CHECK(thread_work(f).iterations.empty());
        CHECK_NOTHROW(validate(f));
    }
    SECTION("1x1")
    {
        const auto f = to_bijad(rows_of_lengths({1}, 1), BiJadOptions{2});
        CHECK(group_widths(f) == Ints{0, 1});
        CHECK(f.col_idxs == Ints{0, -1});
        CHECK(multiply(f, {3}, RowOrder::original) == Doubles{30});
    }
    SECTION("empty rows go to the end")
    {
        // lengths [0 3 0 1 2], W = 2: sorted rows 1 4 | 3 0 | 2, l = [3 2 | 1 0 | 0]
        // warp 0: g0 width l[1] = 2, g1 ceil((3 - 2)/2) = 1; warp 1: g0 width 0, g1 1;
        // warp 2 (row 2 and a virtual row): nothing
        const auto a = rows_of_lengths({0, 3, 0, 1, 2}, 3);
        const auto f = to_bijad(a, BiJadOptions{2});
        CHECK(f.row_perm == Ints{1, 4, 3, 0, 2});
        CHECK(group_widths(f) == Ints{2, 1, 0, 1, 0, 0});
        CHECK(f.col_idxs == Ints{0, 0, 1, 1, 2, -1, 0, -1});
        CHECK(to_csr(f) == a);
        CHECK(multiply(f, {1, 1, 1}, RowOrder::permuted) == Doubles{63, 101, 40, 0, 0});
    }
    SECTION("rectangular")
    {
        for (const auto& a :
             {test::random_csr(5, 33, 0, 30, 9), test::random_csr(70, 3, 0, 3, 8)}) {
            check_matches_csr(to_bijad(a, BiJadOptions{4}), a);
        }
    }
}

TEST_CASE("BiJAD validate rejects broken layouts", "[formats][bijad]")
{
    CHECK_THROWS_AS(to_bijad(test::canonical4(), BiJadOptions{0}), InvalidArgument);
    // W = 2: col_idxs [0 0 2 2 3 3 | 1 1 | 3 -]
    auto f = to_bijad(test::canonical4(), BiJadOptions{2});
    SECTION("a per-warp sort is not enough")
    {
        // BiELL's layout of lengths [1 7 2 2 | 3 1 5 4] is sorted per warp, not globally
        const auto e = to_biell(rows_of_lengths({1, 7, 2, 2, 3, 1, 5, 4}, 8), BiEllOptions{4});
        REQUIRE_NOTHROW(validate(e));
        BiJad<double, int> g{e.num_rows, e.num_cols, e.warp_size, e.row_perm,
                             e.group_ptrs, e.col_idxs, e.values};
        CHECK_THROWS_WITH(validate(g), Catch::Contains("not sorted by length"));
    }
    SECTION("row_perm may cross warps, but must be a permutation")
    {
        REQUIRE_NOTHROW(validate(f));  // row_perm [0 2 3 1] moves rows 2 and 1 across warps
        f.row_perm[3] = 0;
        CHECK_THROWS_WITH(validate(f), Catch::Contains("not a permutation"));
    }
    SECTION("real entry after padding")
    {
        f.col_idxs[8] = -1;  // stored row 2 (slots 6 | 8 9): 1, padding, 3
        f.values[8] = 0;
        f.col_idxs[9] = 3;
        f.values[9] = 9;
        CHECK_THROWS_WITH(validate(f), Catch::Contains("real entry after padding"));
    }
    SECTION("column out of range")
    {
        f.col_idxs[8] = 7;
        CHECK_THROWS_WITH(validate(f), Catch::Contains("column out of range"));
    }
    SECTION("columns not increasing across groups")
    {
        f.col_idxs[8] = 0;  // stored row 2: column 1 in g0, then 0 in g1
        CHECK_THROWS_WITH(validate(f), Catch::Contains("columns not increasing"));
    }
    SECTION("padding with a value")
    {
        f.values[9] = 2;
        CHECK_THROWS_WITH(validate(f), Catch::Contains("nonzero value"));
    }
    SECTION("a group width off the bisection rule")
    {
        f.group_ptrs = {0, 6, 8, 10, 12};  // warp 0 g1 width 1 instead of 0
        f.col_idxs.insert(f.col_idxs.begin() + 6, {-1, -1});
        f.values.insert(f.values.begin() + 6, {0.0, 0.0});
        CHECK_THROWS_WITH(validate(f), Catch::Contains("bisection rule"));
    }
    SECTION("arrays of the wrong size")
    {
        f.col_idxs.pop_back();
        CHECK_THROWS_AS(validate(f), InvalidLayout);
    }
}
