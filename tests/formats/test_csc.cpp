#include <catch2/catch.hpp>

#include <cmath>

#include <spmv/error.hpp>
#include <spmv/formats/csc.hpp>

#include "format_checks.hpp"
#include "test_matrices.hpp"

using namespace spmv;

TEST_CASE("CSC of the canonical 4x4 matches the header comment", "[formats][csc]")
{
    const auto c = to_csc(test::canonical4());

    CHECK(c.col_ptrs == std::vector<int>{0, 2, 4, 6, 9});
    CHECK(c.row_idxs == std::vector<int>{0, 2, 1, 3, 0, 2, 0, 2, 3});
    CHECK(c.values == std::vector<double>{1, 5, 4, 8, 2, 6, 3, 7, 9});
    const auto f = footprint(c);
    CHECK(f.stored_entries == 9);
    CHECK(f.padding_entries == 0);
    CHECK(f.value_bytes == 72);
    CHECK(f.index_bytes == 36);
    CHECK(f.aux_bytes == 20);
    CHECK(f.padding_bytes == 0);
    CHECK(f.total_bytes() == 128);
    std::vector<double> x{1, 2, 3, 4}, y(4, 0.0);
    spmv_reference(c, 1.0, std::span<const double>(x), 0.0, std::span<double>(y));
    CHECK(y == std::vector<double>{19, 8, 51, 52});
    const auto w = thread_work(c);
    CHECK(w.iterations == std::vector<std::int64_t>{2, 2, 2, 3});
    CHECK(w.useful == std::vector<std::int64_t>{2, 2, 2, 3});
    CHECK(w.stored == std::vector<std::int64_t>{2, 2, 2, 3});
    CHECK(to_csr(c) == test::canonical4());
}

TEST_CASE("CSC single precision footprint counts 4-byte values", "[formats][csc]")
{
    const auto c = to_csc(convert_values<float>(test::canonical4()));

    const auto f = footprint(c);

    CHECK(f.value_bytes == 36);
    CHECK(f.total_bytes() == 36 + 36 + 20);
}

TEST_CASE("CSC applies alpha and beta, and beta == 0 overwrites NaN", "[formats][csc]")
{
    const auto c = to_csc(test::canonical4());

    test::check_canonical4_alpha_beta(c);
}

TEST_CASE("CSC handles 0x0, 1x1, empty rows and rectangular shapes", "[formats][csc]")
{
    SECTION("0x0")
    {
        const auto c = to_csc(Csr<double, std::int32_t>{});
        CHECK(c.col_ptrs == std::vector<int>{0});
        CHECK(thread_work(c).iterations.empty());
        CHECK(footprint(c).total_bytes() == 4);  // col_ptrs[0]
        CHECK(to_csr(c) == Csr<double, std::int32_t>{});
        REQUIRE_NOTHROW(validate(c));
    }
    SECTION("1x1")
    {
        const auto c = to_csc(test::zoo()[1].a);
        CHECK(c.col_ptrs == std::vector<int>{0, 1});
        CHECK(c.row_idxs == std::vector<int>{0});
        std::vector<double> x{2}, y{0};
        spmv_reference(c, 1.0, std::span<const double>(x), 0.0, std::span<double>(y));
        CHECK(y[0] == 7.0);
    }
    SECTION("rectangular 3x5 with an empty row and an empty column")
    {
        const auto c = to_csc(test::rect3x5());
        CHECK(c.col_ptrs == std::vector<int>{0, 1, 2, 2, 3, 4});
        CHECK(c.row_idxs == std::vector<int>{2, 0, 2, 0});
        CHECK(c.values == std::vector<double>{2, 7, 3, 1});
        CHECK(thread_work(c).iterations == std::vector<std::int64_t>{1, 1, 0, 1, 1});
        CHECK(footprint(c).aux_bytes == 6 * 4);
        test::check_rect3x5(c);
    }
}

TEST_CASE("CSC validate rejects broken layouts", "[formats][csc]")
{
    auto c = to_csc(test::canonical4());
    test::check_rejects_negative_dimensions(c);

    SECTION("col_ptrs of the wrong length")
    {
        c.col_ptrs.pop_back();
        CHECK_THROWS_WITH(validate(c), Catch::Contains("num_cols + 1"));
    }
    SECTION("col_ptrs not starting at 0")
    {
        c.col_ptrs[0] = 1;
        CHECK_THROWS_WITH(validate(c), Catch::Contains("col_ptrs[0]"));
    }
    SECTION("col_ptrs decreasing")
    {
        c.col_ptrs[2] = 1;  // [0 2 1 6 9]
        CHECK_THROWS_WITH(validate(c), Catch::Contains("decreases"));
    }
    SECTION("col_ptrs beyond nnz in the middle")
    {
        c.col_ptrs[1] = 12;  // [0 12 4 6 9]: caught before reading past the arrays
        CHECK_THROWS_AS(validate(c), InvalidLayout);
    }
    SECTION("last col_ptr differs from nnz")
    {
        c.row_idxs.push_back(3);
        c.values.push_back(1.0);
        CHECK_THROWS_WITH(validate(c), Catch::Contains("number of entries"));
    }
    SECTION("row_idxs and values of different length")
    {
        c.values.pop_back();
        CHECK_THROWS_AS(validate(c), InvalidLayout);
    }
    SECTION("row index out of range")
    {
        c.row_idxs[3] = 4;
        CHECK_THROWS_WITH(validate(c), Catch::Contains("row index out of range"));
    }
    SECTION("rows not increasing in a column")
    {
        std::swap(c.row_idxs[6], c.row_idxs[7]);  // column 3: [2 0 3]
        CHECK_THROWS_WITH(validate(c), Catch::Contains("not strictly increasing"));
    }
    SECTION("duplicate row in a column")
    {
        c.row_idxs[1] = 0;  // column 0: [0 0]
        CHECK_THROWS_WITH(validate(c), Catch::Contains("not strictly increasing"));
    }
}
