#include <catch2/catch.hpp>

#include <cmath>

#include <spmv/error.hpp>
#include <spmv/formats/coo.hpp>

#include "format_checks.hpp"
#include "test_matrices.hpp"

using namespace spmv;

TEST_CASE("COO of the canonical 4x4 matches the header comment", "[formats][coo]")
{
    const auto c = to_coo(test::canonical4());

    CHECK(c.row_idxs == std::vector<int>{0, 0, 0, 1, 2, 2, 2, 3, 3});
    CHECK(c.col_idxs == std::vector<int>{0, 2, 3, 1, 0, 2, 3, 1, 3});
    CHECK(c.values == std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9});
    const auto f = footprint(c);
    CHECK(f.stored_entries == 9);
    CHECK(f.padding_entries == 0);
    CHECK(f.value_bytes == 72);
    CHECK(f.index_bytes == 72);
    CHECK(f.aux_bytes == 0);
    CHECK(f.padding_bytes == 0);
    CHECK(f.total_bytes() == 144);
    std::vector<double> x{1, 2, 3, 4}, y(4, 0.0);
    spmv_reference(c, 1.0, std::span<const double>(x), 0.0, std::span<double>(y));
    CHECK(y == std::vector<double>{19, 8, 51, 52});
    const auto w = thread_work(c);
    CHECK(w.iterations == std::vector<std::int64_t>(9, 1));
    CHECK(w.useful == std::vector<std::int64_t>(9, 1));
    CHECK(w.stored == std::vector<std::int64_t>(9, 1));
    CHECK(to_csr(c) == test::canonical4());
}

TEST_CASE("COO single precision footprint counts 4-byte values", "[formats][coo]")
{
    const auto c = to_coo(convert_values<float>(test::canonical4()));

    const auto f = footprint(c);

    CHECK(f.value_bytes == 36);
    CHECK(f.index_bytes == 72);
    CHECK(f.total_bytes() == 108);
}

TEST_CASE("COO applies alpha and beta, and beta == 0 overwrites NaN", "[formats][coo]")
{
    const auto c = to_coo(test::canonical4());

    test::check_canonical4_alpha_beta(c);
    const std::vector<double> x{1, 2, 3, 4};
    std::vector<double> short_y(3);
    CHECK_THROWS_AS(
        spmv_reference(c, 1.0, std::span<const double>(x), 0.0, std::span<double>(short_y)),
        DimensionMismatch);
}

TEST_CASE("COO handles 0x0, 1x1, empty rows and rectangular shapes", "[formats][coo]")
{
    SECTION("0x0")
    {
        const auto c = to_coo(Csr<double, std::int32_t>{});
        CHECK(c.values.empty());
        CHECK(thread_work(c).iterations.empty());
        CHECK(footprint(c).total_bytes() == 0);
        CHECK(to_csr(c) == Csr<double, std::int32_t>{});
    }
    SECTION("1x1")
    {
        const auto one = test::zoo()[1].a;
        const auto c = to_coo(one);
        CHECK(c.row_idxs == std::vector<int>{0});
        CHECK(c.col_idxs == std::vector<int>{0});
        std::vector<double> x{2}, y{0};
        spmv_reference(c, 1.0, std::span<const double>(x), 0.0, std::span<double>(y));
        CHECK(y[0] == 7.0);
    }
    SECTION("rectangular 3x5 with an empty row")
    {
        const auto c = to_coo(test::rect3x5());
        CHECK(c.row_idxs == std::vector<int>{0, 0, 2, 2});
        CHECK(c.col_idxs == std::vector<int>{1, 4, 0, 3});
        CHECK(c.values == std::vector<double>{7, 1, 2, 3});
        test::check_rect3x5(c);
    }
}

TEST_CASE("COO validate rejects broken layouts", "[formats][coo]")
{
    auto c = to_coo(test::canonical4());
    test::check_rejects_negative_dimensions(c);

    SECTION("arrays of different length")
    {
        c.row_idxs.pop_back();
        CHECK_THROWS_AS(validate(c), InvalidLayout);
    }
    SECTION("row index out of range")
    {
        c.row_idxs[8] = 4;
        CHECK_THROWS_WITH(validate(c), Catch::Contains("row index out of range"));
    }
    SECTION("column index out of range")
    {
        c.col_idxs[0] = -1;
        CHECK_THROWS_WITH(validate(c), Catch::Contains("column index out of range"));
    }
    SECTION("rows not sorted")
    {
        std::swap(c.row_idxs[3], c.row_idxs[4]);  // (1,1) and (2,0) -> (2,1), (1,0)
        CHECK_THROWS_WITH(validate(c), Catch::Contains("not strictly increasing"));
    }
    SECTION("columns not sorted within a row")
    {
        std::swap(c.col_idxs[0], c.col_idxs[1]);
        CHECK_THROWS_WITH(validate(c), Catch::Contains("not strictly increasing"));
    }
    SECTION("duplicate entry")
    {
        c.col_idxs[1] = 0;  // (0,0) twice
        CHECK_THROWS_WITH(validate(c), Catch::Contains("not strictly increasing"));
    }
}
