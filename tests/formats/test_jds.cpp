#include <catch2/catch.hpp>

#include <spmv/error.hpp>
#include <spmv/formats/jds.hpp>

#include "format_checks.hpp"
#include "test_matrices.hpp"

using namespace spmv;

namespace {

using CsrD = Csr<double, std::int32_t>;

using test::apply;  // y = alpha A x + beta y, y returned

}  // namespace

TEST_CASE("JDS of the canonical 4x4 matches the header comment", "[formats][jds]")
{
    const auto a = test::canonical4();

    const auto j = to_jds(a);

    REQUIRE_NOTHROW(validate(j));
    CHECK(j.row_perm == std::vector<int>{0, 2, 3, 1});
    CHECK(j.jd_ptrs == std::vector<int>{0, 4, 7, 9});
    CHECK(j.col_idxs == std::vector<int>{0, 0, 1, 1, 2, 2, 3, 3, 3});
    CHECK(j.values == std::vector<double>{1, 5, 8, 4, 2, 6, 9, 3, 7});
    CHECK(nnz(j) == 9);
    const auto f = footprint(j);
    CHECK(f.stored_entries == 9);
    CHECK(f.padding_entries == 0);
    CHECK(f.value_bytes == 9 * 8);
    CHECK(f.index_bytes == 9 * 4);
    CHECK(f.aux_bytes == (4 + 4) * 4);
    CHECK(f.padding_bytes == 0);
    CHECK(f.total_bytes() == 72 + 36 + 32);
    const std::vector<double> x{1, 2, 3, 4};
    CHECK(apply(j, x, {7, 7, 7, 7}, 1.0, 0.0, RowOrder::original) ==
          std::vector<double>{19, 8, 51, 52});
    CHECK(apply(j, x, {1, 1, 1, 1}, 2.0, 3.0, RowOrder::original) ==
          std::vector<double>{41, 19, 105, 107});
    // permuted basis: y[k] is row row_perm[k]; beta scales the permuted y
    CHECK(apply(j, x, {0, 0, 0, 0}, 1.0, 0.0, RowOrder::permuted) ==
          std::vector<double>{19, 51, 52, 8});
    CHECK(apply(j, x, {1, 2, 3, 4}, 1.0, 10.0, RowOrder::permuted) ==
          std::vector<double>{29, 71, 82, 48});
    const auto w = thread_work(j);
    CHECK(w.iterations == std::vector<std::int64_t>(9, 1));
    CHECK(w.useful == std::vector<std::int64_t>(9, 1));
    CHECK(w.stored == std::vector<std::int64_t>(9, 1));
    CHECK(to_csr(j) == a);
}

TEST_CASE("JDS handles 0x0, 1x1, empty rows and rectangular matrices", "[formats][jds]")
{
    SECTION("0x0")
    {
        const auto j = to_jds(CsrD{});
        REQUIRE_NOTHROW(validate(j));
        CHECK(j.row_perm.empty());
        CHECK(j.jd_ptrs == std::vector<int>{0});
        CHECK(footprint(j).total_bytes() == 4);
        CHECK(thread_work(j).iterations.empty());
        CHECK(apply(j, {}, {}, 1.0, 0.0, RowOrder::original).empty());
        CHECK(to_csr(j) == CsrD{});
    }
    SECTION("1x1")
    {
        const auto one = test::zoo()[1].a;
        const auto j = to_jds(one);
        CHECK(j.row_perm == std::vector<int>{0});
        CHECK(j.jd_ptrs == std::vector<int>{0, 1});
        CHECK(apply(j, {2}, {1}, 1.0, 1.0, RowOrder::original) == std::vector<double>{8});
        CHECK(to_csr(j) == one);
    }
    SECTION("empty rows go last, in their original order, and are in no diagonal")
    {
        const auto a = test::empty_rows5x3();
        const auto j = to_jds(a);
        REQUIRE_NOTHROW(validate(j));
        CHECK(j.row_perm == std::vector<int>{1, 3, 0, 2, 4});
        CHECK(j.jd_ptrs == std::vector<int>{0, 2, 3});
        CHECK(j.col_idxs == std::vector<int>{0, 1, 2});
        CHECK(j.values == std::vector<double>{1, 3, 2});
        // beta == 0 overwrites even the rows without entries
        CHECK(apply(j, {1, 1, 1}, {9, 9, 9, 9, 9}, 1.0, 0.0, RowOrder::original) ==
              std::vector<double>{0, 3, 0, 3, 0});
        CHECK(to_csr(j) == a);
    }
    SECTION("rectangular 2x5")
    {
        const auto a = test::wide2x5();
        const auto j = to_jds(a);
        REQUIRE_NOTHROW(validate(j));
        CHECK(j.row_perm == std::vector<int>{1, 0});
        CHECK(j.jd_ptrs == std::vector<int>{0, 2, 4, 5});
        CHECK(j.col_idxs == std::vector<int>{0, 1, 2, 4, 3});
        CHECK(j.values == std::vector<double>{3, 1, 4, 2, 5});
        test::check_wide2x5_sorted(j);
        std::vector<double> short_x{1, 2};
        std::vector<double> y(2);
        CHECK_THROWS_AS(spmv_reference(j, 1.0, std::span<const double>(short_x), 0.0,
                                       std::span<double>(y)),
                        DimensionMismatch);
    }
}

TEST_CASE("JDS validate rejects broken layouts", "[formats][jds]")
{
    auto j = to_jds(test::canonical4());
    SECTION("row_perm not a permutation or of the wrong length")
    {
        test::check_rejects_bad_row_perm(j);
    }
    SECTION("jd_ptrs does not start at 0")
    {
        j.jd_ptrs = {1, 4, 7, 9};
        CHECK_THROWS_AS(validate(j), InvalidLayout);
    }
    SECTION("a diagonal longer than the one before (lengths not sorted)")
    {
        j.jd_ptrs = {0, 3, 7, 9};
        CHECK_THROWS_AS(validate(j), InvalidLayout);
    }
    SECTION("an empty diagonal")
    {
        j.jd_ptrs = {0, 4, 7, 9, 9};
        CHECK_THROWS_AS(validate(j), InvalidLayout);
    }
    SECTION("a diagonal longer than num_rows")
    {
        j.jd_ptrs = {0, 5, 9};
        CHECK_THROWS_AS(validate(j), InvalidLayout);
    }
    SECTION("jd_ptrs end does not match the entries")
    {
        j.values.pop_back();
        j.col_idxs.pop_back();
        CHECK_THROWS_AS(validate(j), InvalidLayout);
    }
    SECTION("col_idxs and values differ in length")
    {
        j.values.push_back(1.0);
        CHECK_THROWS_AS(validate(j), InvalidLayout);
    }
    SECTION("column out of range")
    {
        j.col_idxs[2] = 4;
        CHECK_THROWS_AS(validate(j), InvalidLayout);
    }
    SECTION("padding_index is not a valid JDS entry")
    {
        j.col_idxs[8] = padding_index<int>;
        CHECK_THROWS_AS(validate(j), InvalidLayout);
    }
    SECTION("columns not increasing along a row")
    {
        j.col_idxs[5] = 0;  // sorted row 1 (original row 2): 0, 0, 3
        CHECK_THROWS_AS(validate(j), InvalidLayout);
    }
}

TEST_CASE("JDS round-trips the test zoo and stores no padding", "[formats][jds]")
{
    for (const auto& m : test::zoo()) {
        INFO(m.name);
        const auto j = to_jds(m.a);
        REQUIRE_NOTHROW(validate(j));
        CHECK(to_csr(j) == m.a);
        CHECK(footprint(j).stored_entries == nnz(m.a));
        CHECK(footprint(j).padding_entries == 0);
        CHECK(thread_work(j).iterations.size() == static_cast<std::size_t>(nnz(m.a)));
        const auto len = row_lengths(m.a);
        CHECK(j.row_perm == sort_by_length_desc(std::span<const int>(len)));
    }
}
