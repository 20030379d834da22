#include <catch2/catch.hpp>

#include <cmath>

#include <spmv/error.hpp>
#include <spmv/formats/ellr.hpp>

#include "format_checks.hpp"
#include "test_matrices.hpp"

using namespace spmv;

TEST_CASE("ELLR of the canonical 4x4 matches the header comment", "[formats][ellr]")
{
    const auto e = to_ellr(test::canonical4());

    CHECK(e.width == 3);
    CHECK(e.stride == 4);
    CHECK(e.row_lengths == std::vector<int>{3, 1, 3, 2});
    CHECK(e.col_idxs == std::vector<int>{0, 1, 0, 1, 2, -1, 2, 3, 3, -1, 3, -1});
    CHECK(e.values == std::vector<double>{1, 4, 5, 8, 2, 0, 6, 9, 3, 0, 7, 0});
    const auto f = footprint(e);
    CHECK(f.stored_entries == 12);
    CHECK(f.padding_entries == 3);
    CHECK(f.value_bytes == 72);
    CHECK(f.index_bytes == 36);
    CHECK(f.aux_bytes == 16);
    CHECK(f.padding_bytes == 36);
    CHECK(f.total_bytes() == 160);
    std::vector<double> x{1, 2, 3, 4}, y(4, 0.0);
    spmv_reference(e, 1.0, std::span<const double>(x), 0.0, std::span<double>(y));
    CHECK(y == std::vector<double>{19, 8, 51, 52});
    const auto w = thread_work(e);
    CHECK(w.iterations == std::vector<std::int64_t>{3, 1, 3, 2});
    CHECK(w.useful == std::vector<std::int64_t>{3, 1, 3, 2});
    CHECK(w.stored == std::vector<std::int64_t>{3, 3, 3, 3});
    CHECK(nnz(e) == 9);
    CHECK(to_csr(e) == test::canonical4());
}

TEST_CASE("ELLR single precision footprint", "[formats][ellr]")
{
    const auto f = footprint(to_ellr(convert_values<float>(test::canonical4())));

    CHECK(f.value_bytes == 36);
    CHECK(f.index_bytes == 36);
    CHECK(f.aux_bytes == 16);
    CHECK(f.padding_bytes == 3 * 8);
}

TEST_CASE("ELLR stops at the row length: padding is never read", "[formats][ellr]")
{
    auto e = to_ellr(test::canonical4());
    // Poison the padding slots' values: Listing 1 never reaches them (a layout like this fails
    // validate, but it shows the loop bound is row_lengths, not width).
    e.values[5] = e.values[9] = e.values[11] = std::nan("");

    test::check_canonical4_alpha_beta(e);
}

TEST_CASE("ELLR handles 0x0, 1x1, empty rows and rectangular shapes", "[formats][ellr]")
{
    SECTION("0x0")
    {
        const auto e = to_ellr(Csr<double, std::int32_t>{});
        CHECK(e.width == 0);
        CHECK(e.stride == 0);
        CHECK(footprint(e).total_bytes() == 0);
        CHECK(thread_work(e).iterations.empty());
        CHECK(to_csr(e) == Csr<double, std::int32_t>{});
        REQUIRE_NOTHROW(validate(e));
    }
    SECTION("1x1")
    {
        const auto e = to_ellr(test::zoo()[1].a);
        CHECK(e.width == 1);
        CHECK(e.row_lengths == std::vector<int>{1});
        std::vector<double> x{2}, y{0};
        spmv_reference(e, 1.0, std::span<const double>(x), 0.0, std::span<double>(y));
        CHECK(y[0] == 7.0);
    }
    SECTION("rectangular 3x5 with an empty row")
    {
        const auto e = to_ellr(test::rect3x5());
        CHECK(e.width == 2);
        CHECK(e.stride == 3);
        CHECK(e.row_lengths == std::vector<int>{2, 0, 2});
        CHECK(e.col_idxs == std::vector<int>{1, -1, 0, 4, -1, 3});
        CHECK(e.values == std::vector<double>{7, 0, 2, 1, 0, 3});
        const auto f = footprint(e);
        CHECK(f.stored_entries == 6);
        CHECK(f.padding_entries == 2);
        CHECK(f.total_bytes() == 4 * 8 + 4 * 4 + 3 * 4 + 2 * 12);
        CHECK(thread_work(e).iterations == std::vector<std::int64_t>{2, 0, 2});
        test::check_rect3x5(e);
    }
}

TEST_CASE("ELLR validate rejects broken layouts", "[formats][ellr]")
{
    auto e = to_ellr(test::canonical4());
    test::check_rejects_negative_dimensions(e);

    SECTION("stride different from num_rows")
    {
        e.stride = 6;
        e.col_idxs.resize(18, -1);
        e.values.resize(18, 0.0);
        CHECK_THROWS_WITH(validate(e), Catch::Contains("stride"));
    }
    SECTION("wrong array size")
    {
        e.values.pop_back();
        CHECK_THROWS_WITH(validate(e), Catch::Contains("stride * width"));
    }
    SECTION("row_lengths of the wrong size")
    {
        e.row_lengths.push_back(0);
        CHECK_THROWS_WITH(validate(e), Catch::Contains("num_rows entries"));
    }
    SECTION("row length larger than width")
    {
        e.row_lengths[1] = 4;
        CHECK_THROWS_WITH(validate(e), Catch::Contains("outside [0, width]"));
    }
    SECTION("negative row length")
    {
        e.row_lengths[1] = -1;
        CHECK_THROWS_WITH(validate(e), Catch::Contains("outside [0, width]"));
    }
    SECTION("width larger than the longest row")
    {
        e.width = 4;
        e.col_idxs.resize(16, -1);
        e.values.resize(16, 0.0);
        CHECK_THROWS_WITH(validate(e), Catch::Contains("longest row"));
    }
    SECTION("real entry beyond the row length")
    {
        e.row_lengths[0] = 2;  // slot 8 (row 0, column 2) still holds column 3
        CHECK_THROWS_WITH(validate(e), Catch::Contains("beyond row_lengths"));
    }
    SECTION("padding inside the row length")
    {
        e.row_lengths[1] = 2;  // slot 5 is padding
        CHECK_THROWS_WITH(validate(e), Catch::Contains("padding inside row_lengths"));
    }
    SECTION("padding with a value")
    {
        e.values[5] = 1.0;
        CHECK_THROWS_WITH(validate(e), Catch::Contains("nonzero value"));
    }
    SECTION("column out of range")
    {
        e.col_idxs[0] = 4;
        CHECK_THROWS_WITH(validate(e), Catch::Contains("out of range"));
    }
    SECTION("columns not increasing")
    {
        std::swap(e.col_idxs[0], e.col_idxs[4]);  // row 0: columns 2, 0, 3
        CHECK_THROWS_WITH(validate(e), Catch::Contains("not increasing"));
    }
}
