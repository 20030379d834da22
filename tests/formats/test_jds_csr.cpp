#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>

#include <spmv/error.hpp>
#include <spmv/formats/jds.hpp>
#include <spmv/formats/jds_csr.hpp>

#include "format_checks.hpp"
#include "test_matrices.hpp"

using namespace spmv;

namespace {

using CsrD = Csr<double, std::int32_t>;

using test::apply;  // y = alpha A x + beta y, y returned

std::int64_t sum(const std::vector<std::int64_t>& v)
{
    return std::accumulate(v.begin(), v.end(), std::int64_t{0});
}

constexpr int pad = padding_index<int>;

}  // namespace

TEST_CASE("JDS CSR-like of the canonical 4x4 matches the header comment", "[formats][jds_csr]")
{
    const auto a = test::canonical4();

    const auto j4 = to_jds_csr(a, JdsCsrOptions{4});
    const auto j16 = to_jds_csr(a);

    REQUIRE_NOTHROW(validate(j4));
    CHECK(j4.diag_pad == 4);
    CHECK(j4.row_perm == std::vector<int>{0, 2, 3, 1});
    CHECK(j4.nz_count == std::vector<int>{3, 3, 2, 1});
    CHECK(j4.jd_ptrs == std::vector<int>{0, 4, 8, 12});
    CHECK(j4.col_idxs == std::vector<int>{0, 0, 1, 1, 2, 2, 3, pad, 3, 3, pad, pad});
    CHECK(j4.values == std::vector<double>{1, 5, 8, 4, 2, 6, 9, 0, 3, 7, 0, 0});
    auto f = footprint(j4);
    CHECK(f.stored_entries == 12);
    CHECK(f.padding_entries == 3);
    CHECK(f.value_bytes == 9 * 8);
    CHECK(f.index_bytes == 9 * 4);
    CHECK(f.aux_bytes == (4 + 4 + 4) * 4);  // row_perm, jd_ptrs, nz_count
    CHECK(f.padding_bytes == 3 * 12);
    auto w = thread_work(j4);
    CHECK(w.iterations == std::vector<std::int64_t>{3, 3, 2, 1});
    CHECK(w.useful == std::vector<std::int64_t>{3, 3, 2, 1});
    // thread 2 owns slot 2 of diagonal 2; thread 3 owns slot 3 of diagonals 1 and 2
    CHECK(w.stored == std::vector<std::int64_t>{3, 3, 3, 3});

    REQUIRE_NOTHROW(validate(j16));
    CHECK(j16.diag_pad == 16);
    CHECK(j16.jd_ptrs == std::vector<int>{0, 16, 32, 48});
    CHECK(std::vector<int>(j16.col_idxs.begin() + 16, j16.col_idxs.begin() + 20) ==
          std::vector<int>{2, 2, 3, pad});
    f = footprint(j16);
    CHECK(f.stored_entries == 48);
    CHECK(f.padding_entries == 39);
    CHECK(f.padding_bytes == 39 * 12);
    w = thread_work(j16);
    // 16 threads: the padded first diagonal reaches thread 15; threads 4..15 only own padding
    CHECK(w.iterations.size() == 16);
    CHECK(w.iterations[3] == 1);
    CHECK(w.iterations[4] == 0);
    CHECK(w.stored == std::vector<std::int64_t>(16, 3));
    CHECK(sum(w.stored) == f.stored_entries);

    const std::vector<double> x{1, 2, 3, 4};
    for (const auto* j : {&j4, &j16}) {
        CHECK(apply(*j, x, {7, 7, 7, 7}, 1.0, 0.0, RowOrder::original) ==
              std::vector<double>{19, 8, 51, 52});
        CHECK(apply(*j, x, {1, 1, 1, 1}, 2.0, 3.0, RowOrder::original) ==
              std::vector<double>{41, 19, 105, 107});
        CHECK(apply(*j, x, {1, 2, 3, 4}, 1.0, 10.0, RowOrder::permuted) ==
              std::vector<double>{29, 71, 82, 48});
        CHECK(to_csr(*j) == a);
    }
}

TEST_CASE("JDS CSR-like with diag_pad 1 is plain JDS storage", "[formats][jds_csr]")
{
    for (const auto& m : test::zoo()) {
        INFO(m.name);
        const auto j = to_jds_csr(m.a, JdsCsrOptions{1});
        const auto plain = to_jds(m.a);
        CHECK(j.row_perm == plain.row_perm);
        CHECK(j.jd_ptrs == plain.jd_ptrs);
        CHECK(j.col_idxs == plain.col_idxs);
        CHECK(j.values == plain.values);
        CHECK(footprint(j).padding_entries == 0);
    }
}

TEST_CASE("JDS CSR-like pads every diagonal to a multiple of diag_pad", "[formats][jds_csr]")
{
    for (const int p : {1, 3, 16, 32}) {
        for (const auto& m : test::zoo()) {
            INFO(m.name << ", diag_pad " << p);
            const auto j = to_jds_csr(m.a, JdsCsrOptions{p});
            REQUIRE_NOTHROW(validate(j));
            CHECK(to_csr(j) == m.a);
            // closed form: sum over diagonals d of round_up(L_d, p), L_d = #rows longer than d
            const auto len = row_lengths(m.a);
            std::int64_t expected = 0;
            for (int d = 0; !len.empty() && d < *std::max_element(len.begin(), len.end()); ++d) {
                const auto l = std::count_if(len.begin(), len.end(), [d](int x) { return x > d; });
                expected += (l + p - 1) / p * p;
                CHECK(j.jd_ptrs[static_cast<std::size_t>(d)] % p == 0);
            }
            const auto f = footprint(j);
            CHECK(f.stored_entries == expected);
            CHECK(f.padding_entries == expected - nnz(m.a));
            const auto w = thread_work(j);
            CHECK(sum(w.stored) == f.stored_entries);
            CHECK(sum(w.useful) == nnz(m.a));
            CHECK(w.iterations.size() >= static_cast<std::size_t>(m.a.num_rows));
        }
    }
}

TEST_CASE("JDS CSR-like handles 0x0, 1x1 and empty rows", "[formats][jds_csr]")
{
    SECTION("0x0")
    {
        const auto j = to_jds_csr(CsrD{});
        REQUIRE_NOTHROW(validate(j));
        CHECK(j.jd_ptrs == std::vector<int>{0});
        CHECK(j.nz_count.empty());
        CHECK(thread_work(j).iterations.empty());
        CHECK(footprint(j).stored_entries == 0);
        CHECK(to_csr(j) == CsrD{});
    }
    SECTION("1x1")
    {
        const auto one = test::zoo()[1].a;
        const auto j = to_jds_csr(one, JdsCsrOptions{2});
        CHECK(j.jd_ptrs == std::vector<int>{0, 2});
        CHECK(j.col_idxs == std::vector<int>{0, pad});
        CHECK(thread_work(j).stored == std::vector<std::int64_t>{1, 1});
        CHECK(apply(j, {2}, {1}, 1.0, 1.0, RowOrder::original) == std::vector<double>{8});
    }
    SECTION("empty rows")
    {
        const auto a = test::empty_rows5x3();
        const auto j = to_jds_csr(a, JdsCsrOptions{2});
        REQUIRE_NOTHROW(validate(j));
        CHECK(j.row_perm == std::vector<int>{1, 3, 0, 2, 4});
        CHECK(j.nz_count == std::vector<int>{2, 1, 0, 0, 0});
        CHECK(j.jd_ptrs == std::vector<int>{0, 2, 4});
        CHECK(j.col_idxs == std::vector<int>{0, 1, 2, pad});
        CHECK(j.values == std::vector<double>{1, 3, 2, 0});
        const auto w = thread_work(j);
        CHECK(w.iterations == std::vector<std::int64_t>{2, 1, 0, 0, 0});
        CHECK(w.stored == std::vector<std::int64_t>{2, 2, 0, 0, 0});
        CHECK(apply(j, {1, 1, 1}, {9, 9, 9, 9, 9}, 1.0, 0.0, RowOrder::original) ==
              std::vector<double>{0, 3, 0, 3, 0});
        CHECK(apply(j, {1, 1, 1}, {9, 9, 9, 9, 9}, 1.0, 0.0, RowOrder::permuted) ==
              std::vector<double>{3, 3, 0, 0, 0});
        CHECK(to_csr(j) == a);
    }
    SECTION("diag_pad 0 is refused")
    {
        CHECK_THROWS_AS(to_jds_csr(test::canonical4(), JdsCsrOptions{0}), InvalidArgument);
    }
}

TEST_CASE("JDS CSR-like validate rejects broken layouts", "[formats][jds_csr]")
{
    auto j = to_jds_csr(test::canonical4(), JdsCsrOptions{4});
    REQUIRE_NOTHROW(validate(j));
    SECTION("row_perm is not a permutation")
    {
        j.row_perm = {0, 0, 3, 1};
        CHECK_THROWS_AS(validate(j), InvalidLayout);
    }
    SECTION("nz_count not sorted")
    {
        j.nz_count = {3, 2, 3, 1};
        CHECK_THROWS_AS(validate(j), InvalidLayout);
    }
    SECTION("nz_count of the wrong length")
    {
        j.nz_count.pop_back();
        CHECK_THROWS_AS(validate(j), InvalidLayout);
    }
    SECTION("jd_ptrs inconsistent with nz_count")
    {
        j.jd_ptrs = {0, 4, 8};
        CHECK_THROWS_AS(validate(j), InvalidLayout);
    }
    SECTION("a diagonal not padded to a multiple of diag_pad")
    {
        j.jd_ptrs = {0, 4, 7, 9};
        j.col_idxs = {0, 0, 1, 1, 2, 2, 3, 3, 3};
        j.values = {1, 5, 8, 4, 2, 6, 9, 3, 7};
        CHECK_THROWS_AS(validate(j), InvalidLayout);
    }
    SECTION("padding that is not the smallest multiple of diag_pad")
    {
        j.diag_pad = 2;  // diagonal 2 has 2 entries: it must take 2 slots, not 4
        CHECK_THROWS_AS(validate(j), InvalidLayout);
        j.diag_pad = 0;
        CHECK_THROWS_AS(validate(j), InvalidLayout);
    }
    SECTION("padding slot with a value")
    {
        j.values[7] = 1.0;
        CHECK_THROWS_AS(validate(j), InvalidLayout);
    }
    SECTION("real entry in a padding slot")
    {
        j.col_idxs[7] = 0;
        CHECK_THROWS_AS(validate(j), InvalidLayout);
    }
    SECTION("column out of range")
    {
        j.col_idxs[0] = 4;
        CHECK_THROWS_AS(validate(j), InvalidLayout);
    }
    SECTION("columns not increasing along a row")
    {
        j.col_idxs[9] = 2;  // sorted row 1: 0, 2, 2
        CHECK_THROWS_AS(validate(j), InvalidLayout);
    }
    SECTION("array sizes")
    {
        j.values.pop_back();
        CHECK_THROWS_AS(validate(j), InvalidLayout);
    }
}
