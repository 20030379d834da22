#include <catch2/catch.hpp>

#include <cmath>
#include <variant>

#include <spmv/error.hpp>
#include <spmv/formats/hyb.hpp>
#include <spmv/registry.hpp>

#include "format_checks.hpp"
#include "test_matrices.hpp"

using namespace spmv;

namespace {

// Rows of the given lengths over 8 columns, row i holding columns 0..len-1 with values
// 10*i + j + 1.
Csr<double, std::int32_t> rows_of_lengths(const std::vector<int>& lengths)
{
    Csr<double, std::int32_t> a;
    a.num_rows = static_cast<std::int32_t>(lengths.size());
    a.num_cols = 8;
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        for (int j = 0; j < lengths[i]; ++j) {
            a.col_idxs.push_back(j);
            a.values.push_back(10.0 * static_cast<double>(i) + j + 1);
        }
        a.row_ptrs.push_back(static_cast<std::int32_t>(a.col_idxs.size()));
    }
    return a;
}

std::int32_t auto_k(const std::vector<std::int32_t>& lengths)
{
    return hyb_auto_width(std::span<const std::int32_t>(lengths));
}

}  // namespace

TEST_CASE("HYB of the canonical 4x4 with K = 2 matches the header comment", "[formats][hyb]")
{
    const auto h = to_hyb(test::canonical4(), HybOptions{2});

    CHECK(h.ell_width == 2);
    CHECK(h.stride == 4);
    CHECK(h.ell_col_idxs == std::vector<int>{0, 1, 0, 1, 2, -1, 2, 3});
    CHECK(h.ell_values == std::vector<double>{1, 4, 5, 8, 2, 0, 6, 9});
    CHECK(h.coo_row_idxs == std::vector<int>{0, 2});
    CHECK(h.coo_col_idxs == std::vector<int>{3, 3});
    CHECK(h.coo_values == std::vector<double>{3, 7});
    const auto f = footprint(h);
    CHECK(f.stored_entries == 10);
    CHECK(f.padding_entries == 1);
    CHECK(f.value_bytes == 72);
    CHECK(f.index_bytes == 7 * 4 + 2 * 8);
    CHECK(f.aux_bytes == 0);
    CHECK(f.padding_bytes == 12);
    CHECK(f.total_bytes() == 128);
    std::vector<double> x{1, 2, 3, 4}, y(4, 0.0);
    spmv_reference(h, 1.0, std::span<const double>(x), 0.0, std::span<double>(y));
    CHECK(y == std::vector<double>{19, 8, 51, 52});
    const auto w = thread_work(h);
    CHECK(w.iterations == std::vector<std::int64_t>{2, 2, 2, 2, 1, 1});
    CHECK(w.useful == std::vector<std::int64_t>{2, 1, 2, 2, 1, 1});
    CHECK(w.stored == std::vector<std::int64_t>{2, 2, 2, 2, 1, 1});
    CHECK(nnz(h) == 9);
    CHECK(to_csr(h) == test::canonical4());
}

TEST_CASE("HYB of the canonical 4x4 picks K = 3 automatically (pure ELL)", "[formats][hyb]")
{
    const auto h = to_hyb(test::canonical4());

    CHECK(h.ell_width == 3);
    CHECK(h.ell_col_idxs == std::vector<int>{0, 1, 0, 1, 2, -1, 2, 3, 3, -1, 3, -1});
    CHECK(h.coo_values.empty());
    const auto f = footprint(h);
    CHECK(f.stored_entries == 12);
    CHECK(f.padding_entries == 3);
    CHECK(f.total_bytes() == 72 + 36 + 36);
}

TEST_CASE("HYB single precision footprint", "[formats][hyb]")
{
    const auto f = footprint(to_hyb(convert_values<float>(test::canonical4()), HybOptions{2}));

    CHECK(f.value_bytes == 36);
    CHECK(f.index_bytes == 44);
    CHECK(f.padding_bytes == 8);
}

TEST_CASE("HYB one-third rule on hand-counted row lengths", "[formats][hyb]")
{
    CHECK(auto_k({}) == 0);
    CHECK(auto_k({0, 0, 0}) == 0);
    CHECK(auto_k({10, 0, 0, 0}) == 0);  // 1 of 4 rows is less than a third: "if 0, use 0"
    CHECK(auto_k({10, 0, 0}) == 10);    // 1 of 3 rows is exactly a third
    CHECK(auto_k({3, 1, 3, 2}) == 3);   // 2 of 4 have >= 3, none has 4
    CHECK(auto_k({2, 2, 2, 2, 2, 2}) == 2);
    CHECK(auto_k({5}) == 5);
    // lengths 6 0 4 1 3 2 1 5 1: #(>=6) = 1, #(>=5) = 2, #(>=4) = 3 = 9/3 -> K = 4
    CHECK(auto_k({6, 0, 4, 1, 3, 2, 1, 5, 1}) == 4);
    // one full row of 70, all others 1: #(>=2) = 1 < 70/3, #(>=1) = 70 -> K = 1
    const auto full_row = test::zoo()[9];
    REQUIRE(full_row.name == "one full row 70x70");
    CHECK(to_hyb(full_row.a).ell_width == 1);
    CHECK(to_hyb(full_row.a).coo_values.size() == 69u);
}

TEST_CASE("HYB with automatic K on a hand-made 9-row matrix", "[formats][hyb]")
{
    const auto a = rows_of_lengths({6, 0, 4, 1, 3, 2, 1, 5, 1});

    const auto h = to_hyb(a);

    CHECK(h.ell_width == 4);
    CHECK(h.coo_row_idxs == std::vector<int>{0, 0, 7});
    CHECK(h.coo_col_idxs == std::vector<int>{4, 5, 4});
    CHECK(h.coo_values == std::vector<double>{5, 6, 75});
    const auto f = footprint(h);
    CHECK(f.stored_entries == 36 + 3);
    CHECK(f.padding_entries == 16);
    CHECK(f.value_bytes == 23 * 8);
    CHECK(f.index_bytes == 20 * 4 + 3 * 8);
    CHECK(f.padding_bytes == 16 * 12);
    CHECK(f.total_bytes() == 480);
    const auto w = thread_work(h);
    CHECK(w.iterations == std::vector<std::int64_t>{4, 4, 4, 4, 4, 4, 4, 4, 4, 1, 1, 1});
    CHECK(w.useful == std::vector<std::int64_t>{4, 0, 4, 1, 3, 2, 1, 4, 1, 1, 1, 1});
    CHECK(to_csr(h) == a);
    REQUIRE_NOTHROW(validate(h));
}

TEST_CASE("HYB explicit widths: clamped above, pure COO at 0, rejected below -1",
          "[formats][hyb]")
{
    const auto a = test::canonical4();

    CHECK(to_hyb(a, HybOptions{1000}).ell_width == 3);
    const auto coo_only = to_hyb(a, HybOptions{0});
    CHECK(coo_only.ell_width == 0);
    CHECK(coo_only.ell_values.empty());
    CHECK(coo_only.coo_row_idxs == std::vector<int>{0, 0, 0, 1, 2, 2, 2, 3, 3});
    CHECK(thread_work(coo_only).iterations == std::vector<std::int64_t>(9, 1));
    CHECK(footprint(coo_only).total_bytes() == 72 + 72);
    std::vector<double> x{1, 2, 3, 4}, y(4, std::nan(""));
    spmv_reference(coo_only, 1.0, std::span<const double>(x), 0.0, std::span<double>(y));
    CHECK(y == std::vector<double>{19, 8, 51, 52});
    CHECK_THROWS_AS(to_hyb(a, HybOptions{-2}), InvalidArgument);
}

TEST_CASE("HYB applies alpha and beta across both parts", "[formats][hyb]")
{
    const auto h = to_hyb(test::canonical4(), HybOptions{2});

    test::check_canonical4_alpha_beta(h);
}

TEST_CASE("HYB registry entry reads the width parameter", "[formats][hyb]")
{
    FormatParams p;
    p.hyb_width = 2;

    const auto two = build("hyb", test::canonical4(), p);
    const auto automatic = build("hyb", test::canonical4());

    CHECK(find_format("hyb").params == std::vector<Param>{Param::hyb_width});
    CHECK(std::get<Hyb<double, std::int32_t>>(two).ell_width == 2);
    CHECK(std::get<Hyb<double, std::int32_t>>(automatic).ell_width == 3);
}

TEST_CASE("HYB handles 0x0, 1x1, empty rows and rectangular shapes", "[formats][hyb]")
{
    SECTION("0x0")
    {
        const auto h = to_hyb(Csr<double, std::int32_t>{});
        CHECK(h.ell_width == 0);
        CHECK(thread_work(h).iterations.empty());
        CHECK(footprint(h).total_bytes() == 0);
        CHECK(to_csr(h) == Csr<double, std::int32_t>{});
        REQUIRE_NOTHROW(validate(h));
    }
    SECTION("1x1")
    {
        const auto h = to_hyb(test::zoo()[1].a);
        CHECK(h.ell_width == 1);
        std::vector<double> x{2}, y{0};
        spmv_reference(h, 1.0, std::span<const double>(x), 0.0, std::span<double>(y));
        CHECK(y[0] == 7.0);
    }
    SECTION("rectangular 3x5 with an empty row, K = 1")
    {
        const std::vector<std::int32_t> r{0, 0, 2, 2}, c{1, 4, 0, 3};
        const std::vector<double> v{7, 1, 2, 3};
        const auto a = csr_from_triplets<double, std::int32_t>(3, 5, r, c, v);
        CHECK(to_hyb(a).ell_width == 2);  // lengths (2, 0, 2): 2 of 3 rows have 2
        const auto h = to_hyb(a, HybOptions{1});
        CHECK(h.ell_col_idxs == std::vector<int>{1, -1, 0});
        CHECK(h.ell_values == std::vector<double>{7, 0, 2});
        CHECK(h.coo_row_idxs == std::vector<int>{0, 2});
        CHECK(h.coo_col_idxs == std::vector<int>{4, 3});
        CHECK(h.coo_values == std::vector<double>{1, 3});
        std::vector<double> x{1, 2, 3, 4, 5}, y(3, -1.0);
        spmv_reference(h, 1.0, std::span<const double>(x), 0.0, std::span<double>(y));
        CHECK(y == std::vector<double>{19, 0, 14});
        CHECK(to_csr(h) == a);
        REQUIRE_NOTHROW(validate(h));
    }
}

TEST_CASE("HYB validate rejects broken layouts", "[formats][hyb]")
{
    auto h = to_hyb(test::canonical4(), HybOptions{2});
    REQUIRE_NOTHROW(validate(h));

    SECTION("negative dimension")
    {
        h.num_rows = -4;
        CHECK_THROWS_AS(validate(h), InvalidLayout);
    }
    SECTION("stride different from num_rows")
    {
        h.stride = 5;
        CHECK_THROWS_WITH(validate(h), Catch::Contains("stride"));
    }
    SECTION("ELL arrays of the wrong size")
    {
        h.ell_values.pop_back();
        CHECK_THROWS_WITH(validate(h), Catch::Contains("stride * ell_width"));
    }
    SECTION("ELL padding with a value")
    {
        h.ell_values[5] = 1.0;
        CHECK_THROWS_WITH(validate(h), Catch::Contains("nonzero value"));
    }
    SECTION("ELL real entry after padding")
    {
        h.ell_col_idxs[1] = -1;  // row 1: padding, then its entry
        h.ell_values[1] = 0.0;
        h.ell_col_idxs[5] = 1;
        h.ell_values[5] = 4.0;
        CHECK_THROWS_WITH(validate(h), Catch::Contains("after padding"));
    }
    SECTION("ELL column out of range")
    {
        h.ell_col_idxs[0] = 9;
        CHECK_THROWS_WITH(validate(h), Catch::Contains("ELL column index out of range"));
    }
    SECTION("ELL columns not increasing")
    {
        h.ell_col_idxs[4] = 0;  // row 0: columns 0, 0
        CHECK_THROWS_WITH(validate(h), Catch::Contains("ELL columns not increasing"));
    }
    SECTION("COO arrays of different length")
    {
        h.coo_values.pop_back();
        CHECK_THROWS_WITH(validate(h), Catch::Contains("COO arrays differ"));
    }
    SECTION("COO row out of range")
    {
        h.coo_row_idxs[1] = 4;
        CHECK_THROWS_WITH(validate(h), Catch::Contains("COO row index out of range"));
    }
    SECTION("COO column out of range")
    {
        h.coo_col_idxs[1] = 4;
        CHECK_THROWS_WITH(validate(h), Catch::Contains("COO column index out of range"));
    }
    SECTION("COO entries not sorted")
    {
        h.coo_row_idxs = {2, 0};
        h.coo_values = {7, 3};
        CHECK_THROWS_WITH(validate(h), Catch::Contains("not strictly increasing"));
    }
    SECTION("COO entry in a row whose ELL part is not full")
    {
        h.coo_row_idxs[1] = 1;  // row 1 has one ELL entry, K = 2
        CHECK_THROWS_WITH(validate(h), Catch::Contains("not full"));
    }
    SECTION("COO entry before its row's ELL entries")
    {
        h.coo_col_idxs[0] = 1;  // row 0 has ELL columns 0, 2
        CHECK_THROWS_WITH(validate(h), Catch::Contains("does not come after"));
    }
    SECTION("ell_width beyond the longest row")
    {
        Hyb<double, std::int32_t> e;
        e.num_rows = e.stride = 5;
        e.num_cols = 3;
        e.ell_width = 1;
        e.ell_col_idxs.assign(5, -1);
        e.ell_values.assign(5, 0.0);
        CHECK_THROWS_WITH(validate(e), Catch::Contains("exceeds the longest row"));
    }
}
