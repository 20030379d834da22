#include <catch2/catch.hpp>

#include <cmath>
#include <variant>

#include <spmv/error.hpp>
#include <spmv/formats/ellg.hpp>
#include <spmv/registry.hpp>

#include "test_matrices.hpp"

using namespace spmv;

namespace {

// 100 x 100 diagonal matrix.
Csr<double, std::int32_t> diagonal(std::int32_t n)
{
    Csr<double, std::int32_t> a;
    a.num_rows = a.num_cols = n;
    for (std::int32_t i = 0; i < n; ++i) {
        a.col_idxs.push_back(i);
        a.values.push_back(1.0 + i);
        a.row_ptrs.push_back(i + 1);
    }
    return a;
}

}  // namespace

TEST_CASE("ELLG of the canonical 4x4 matches the header comment", "[formats][ellg]")
{
    const auto e = to_ellg(test::canonical4());  // 128-byte pitch, double + int32: 32 rows

    CHECK(e.width == 3);
    CHECK(e.stride == 32);
    CHECK(e.pitch_bytes == 128);
    CHECK(e.row_lengths == std::vector<int>{3, 1, 3, 2});
    std::vector<int> cols(96, -1);
    std::vector<double> vals(96, 0.0);
    const int c[3][4] = {{0, 1, 0, 1}, {2, -1, 2, 3}, {3, -1, 3, -1}};
    const double v[3][4] = {{1, 4, 5, 8}, {2, 0, 6, 9}, {3, 0, 7, 0}};
    for (int j = 0; j < 3; ++j) {
        for (int i = 0; i < 4; ++i) {
            cols[static_cast<std::size_t>(32 * j + i)] = c[j][i];
            vals[static_cast<std::size_t>(32 * j + i)] = v[j][i];
        }
    }
    CHECK(e.col_idxs == cols);
    CHECK(e.values == vals);
    const auto f = footprint(e);
    CHECK(f.stored_entries == 96);
    CHECK(f.padding_entries == 87);
    CHECK(f.value_bytes == 72);
    CHECK(f.index_bytes == 36);
    CHECK(f.aux_bytes == 16);
    CHECK(f.padding_bytes == 1044);
    CHECK(f.total_bytes() == 1168);
    // every column of both arrays starts on the 128-byte pitch (Barbieri §2)
    CHECK(e.stride * sizeof(double) % 128 == 0);
    CHECK(e.stride * sizeof(std::int32_t) % 128 == 0);
    std::vector<double> x{1, 2, 3, 4}, y(4, 0.0);
    spmv_reference(e, 1.0, std::span<const double>(x), 0.0, std::span<double>(y));
    CHECK(y == std::vector<double>{19, 8, 51, 52});
    const auto w = thread_work(e);
    CHECK(w.iterations == std::vector<std::int64_t>{3, 1, 3, 2});
    CHECK(w.useful == std::vector<std::int64_t>{3, 1, 3, 2});
    CHECK(w.stored == std::vector<std::int64_t>{3, 3, 3, 3});
    CHECK(to_csr(e) == test::canonical4());
}

TEST_CASE("ELLG of the canonical 4x4 in single precision pads to 32 rows", "[formats][ellg]")
{
    const auto e = to_ellg(convert_values<float>(test::canonical4()));

    CHECK(e.stride == 32);
    const auto f = footprint(e);
    CHECK(f.stored_entries == 96);
    CHECK(f.padding_entries == 87);
    CHECK(f.value_bytes == 36);
    CHECK(f.index_bytes == 36);
    CHECK(f.aux_bytes == 16);
    CHECK(f.padding_bytes == 87 * 8);
    CHECK(f.total_bytes() == 784);
}

TEST_CASE("ELLG stride is num_rows rounded up to the pitch", "[formats][ellg]")
{
    const auto a = diagonal(100);

    CHECK(to_ellg(convert_values<float>(a)).stride == 128);  // multiple of 128/4 = 32
    CHECK(to_ellg(a).stride == 128);  // values 128/8 = 16, indices 128/4 = 32: lcm 32
    CHECK(to_ellg(convert_values<float>(a), EllGOptions{64}).stride == 112);  // 16 rows
    CHECK(to_ellg(a, EllGOptions{64}).stride == 112);  // values 8, indices 16: 16 rows
    CHECK(to_ellg(a, EllGOptions{4}).stride == 100);   // a pitch of one index: no gap
    CHECK(ellg_alignment(128, 4, 4) == 32);
    CHECK(ellg_alignment(128, 8, 4) == 32);
    CHECK(ellg_alignment(128, 8, 8) == 16);  // 64-bit indices: 16 rows suffice for both
    CHECK(ellg_alignment(4, 8, 4) == 1);
    CHECK(ellg_alignment(12, 8, 4) == 3);  // 3 doubles = 24 B and 3 ints = 12 B: both * 12
    CHECK(ellg_alignment(16, 8, 4) == 4);  // lcm(2, 4)
    CHECK(ellg_stride(0, 128, 8, 4) == 0);
    CHECK(ellg_stride(32, 128, 8, 4) == 32);
    CHECK(ellg_stride(33, 128, 8, 4) == 64);
    // 100 rows, width 1, double: 28 gap rows of padding
    const auto f = footprint(to_ellg(a));
    CHECK(f.stored_entries == 128);
    CHECK(f.padding_entries == 28);
    CHECK(f.padding_bytes == 28 * 12);
    CHECK_THROWS_AS(to_ellg(a, EllGOptions{0}), InvalidArgument);
}

TEST_CASE("ELLG registry entry reads the pitch parameter", "[formats][ellg]")
{
    const auto& info = find_format("ellg");
    FormatParams p;
    p.pitch_bytes = 64;

    const auto any = build("ellg", test::canonical4(), p);

    CHECK(info.params == std::vector<Param>{Param::pitch_bytes});
    CHECK(std::get<EllG<double, std::int32_t>>(any).stride == 16);  // 64 B: 16 int32 indices
}

TEST_CASE("ELLG unrolled kernel handles odd and even rows with alpha and beta", "[formats][ellg]")
{
    // rows of length 0, 1, 2, 3, 4, 5: every remainder case of the unroll by 2
    Csr<double, std::int32_t> a;
    a.num_rows = 6;
    a.num_cols = 5;
    for (int i = 0; i < 6; ++i) {
        for (int j = 0; j < i; ++j) {
            a.col_idxs.push_back(j);
            a.values.push_back(j + 1.0);
        }
        a.row_ptrs.push_back(static_cast<int>(a.col_idxs.size()));
    }
    const auto e = to_ellg(a, EllGOptions{32});  // 4 doubles: stride 8
    std::vector<double> x{1, 1, 1, 1, 1}, y{1, 1, 1, 1, 1, 1};

    spmv_reference(e, 2.0, std::span<const double>(x), 3.0, std::span<double>(y));

    // row sums 0, 1, 3, 6, 10, 15 -> 2*sum + 3
    CHECK(e.stride == 8);
    CHECK(y == std::vector<double>{3, 5, 9, 15, 23, 33});
    std::vector<double> y_nan(6, std::nan(""));
    spmv_reference(e, 1.0, std::span<const double>(x), 0.0, std::span<double>(y_nan));
    CHECK(y_nan == std::vector<double>{0, 1, 3, 6, 10, 15});
    REQUIRE_NOTHROW(validate(e));
}

TEST_CASE("ELLG handles 0x0, 1x1, empty rows and rectangular shapes", "[formats][ellg]")
{
    SECTION("0x0")
    {
        const auto e = to_ellg(Csr<double, std::int32_t>{});
        CHECK(e.stride == 0);
        CHECK(footprint(e).total_bytes() == 0);
        CHECK(to_csr(e) == Csr<double, std::int32_t>{});
        REQUIRE_NOTHROW(validate(e));
    }
    SECTION("1x1")
    {
        const auto e = to_ellg(test::zoo()[1].a);
        CHECK(e.stride == 32);
        CHECK(footprint(e).padding_entries == 31);
        std::vector<double> x{2}, y{0};
        spmv_reference(e, 1.0, std::span<const double>(x), 0.0, std::span<double>(y));
        CHECK(y[0] == 7.0);
    }
    SECTION("rectangular 3x5 with an empty row")
    {
        const std::vector<std::int32_t> r{0, 0, 2, 2}, c{1, 4, 0, 3};
        const std::vector<double> v{7, 1, 2, 3};
        const auto a = csr_from_triplets<double, std::int32_t>(3, 5, r, c, v);
        const auto e = to_ellg(a);
        CHECK(e.stride == 32);
        CHECK(e.row_lengths == std::vector<int>{2, 0, 2});
        const auto f = footprint(e);
        CHECK(f.stored_entries == 64);
        CHECK(f.padding_entries == 60);
        CHECK(f.total_bytes() == 4 * 8 + 4 * 4 + 3 * 4 + 60 * 12);
        std::vector<double> x{1, 2, 3, 4, 5}, y(3, -1.0);
        spmv_reference(e, 1.0, std::span<const double>(x), 0.0, std::span<double>(y));
        CHECK(y == std::vector<double>{19, 0, 14});
        CHECK(to_csr(e) == a);
        REQUIRE_NOTHROW(validate(e));
    }
}

TEST_CASE("ELLG validate rejects broken layouts", "[formats][ellg]")
{
    auto e = to_ellg(test::canonical4());
    REQUIRE_NOTHROW(validate(e));

    SECTION("non-positive pitch")
    {
        e.pitch_bytes = 0;
        CHECK_THROWS_WITH(validate(e), Catch::Contains("pitch_bytes"));
    }
    SECTION("negative dimension")
    {
        e.num_rows = -1;
        CHECK_THROWS_AS(validate(e), InvalidLayout);
    }
    SECTION("stride not the pitched leading dimension")
    {
        e.pitch_bytes = 64;  // expects stride 16
        CHECK_THROWS_WITH(validate(e), Catch::Contains("stride is 32, expected 16"));
    }
    SECTION("wrong array size")
    {
        e.col_idxs.pop_back();
        CHECK_THROWS_WITH(validate(e), Catch::Contains("stride * width"));
    }
    SECTION("row_lengths of the wrong size")
    {
        e.row_lengths.pop_back();
        CHECK_THROWS_WITH(validate(e), Catch::Contains("num_rows entries"));
    }
    SECTION("row length larger than width")
    {
        e.row_lengths[3] = 5;
        CHECK_THROWS_WITH(validate(e), Catch::Contains("outside [0, width]"));
    }
    SECTION("width larger than the longest row")
    {
        e.width = 4;
        e.col_idxs.resize(128, -1);
        e.values.resize(128, 0.0);
        CHECK_THROWS_WITH(validate(e), Catch::Contains("longest row"));
    }
    SECTION("entry in the alignment gap")
    {
        e.col_idxs[4] = 0;  // row 4 of column 0: a gap row
        e.values[4] = 1.0;
        CHECK_THROWS_WITH(validate(e), Catch::Contains("alignment gap"));
    }
    SECTION("gap padding with a value")
    {
        e.values[36] = 1.0;  // row 4 of column 1
        CHECK_THROWS_WITH(validate(e), Catch::Contains("nonzero value"));
    }
    SECTION("real entry beyond the row length")
    {
        e.row_lengths[2] = 2;  // slot 66 (row 2, column 2) still holds column 3
        CHECK_THROWS_WITH(validate(e), Catch::Contains("beyond row_lengths"));
    }
    SECTION("padding inside the row length")
    {
        e.row_lengths[3] = 3;  // slot 67 is padding
        CHECK_THROWS_WITH(validate(e), Catch::Contains("padding inside row_lengths"));
    }
    SECTION("padding with a value in a short row")
    {
        e.values[33] = 1.0;  // row 1, column 1
        CHECK_THROWS_WITH(validate(e), Catch::Contains("nonzero value"));
    }
    SECTION("column out of range")
    {
        e.col_idxs[32] = 7;
        CHECK_THROWS_WITH(validate(e), Catch::Contains("out of range"));
    }
    SECTION("columns not increasing")
    {
        e.col_idxs[64] = 2;  // row 0: columns 0, 2, 2
        CHECK_THROWS_WITH(validate(e), Catch::Contains("not increasing"));
    }
}
