#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>

#include <spmv/error.hpp>
#include <spmv/formats/ell.hpp>
#include <spmv/formats/pjds.hpp>
#include <spmv/registry.hpp>

#include "format_checks.hpp"
#include "test_matrices.hpp"

using namespace spmv;

namespace {

using CsrD = Csr<double, std::int32_t>;

constexpr int pad = padding_index<int>;

using test::apply;  // y = alpha A x + beta y, y returned

/// Builds a CSR matrix from explicit rows of column indices; value of (i, c) = 10 (i + 1) + c.
CsrD from_rows(int num_cols, const std::vector<std::vector<int>>& rows)
{
    CsrD a;
    a.num_rows = static_cast<int>(rows.size());
    a.num_cols = num_cols;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        for (int c : rows[i]) {
            a.col_idxs.push_back(c);
            a.values.push_back(10.0 * static_cast<double>(i + 1) + c);
        }
        a.row_ptrs.push_back(static_cast<int>(a.col_idxs.size()));
    }
    return a;
}

/// One full row (row n / 2) and the diagonal elsewhere: Kreutzer's pJDS worst case.
CsrD one_full_row(int n)
{
    std::vector<std::vector<int>> rows(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        if (i == n / 2) {
            rows[static_cast<std::size_t>(i)].resize(static_cast<std::size_t>(n));
            std::iota(rows[static_cast<std::size_t>(i)].begin(),
                      rows[static_cast<std::size_t>(i)].end(), 0);
        } else {
            rows[static_cast<std::size_t>(i)] = {i};
        }
    }
    return from_rows(n, rows);
}

/// n rows of `len` entries each (a band that wraps around).
CsrD constant_length(int n, int len)
{
    std::vector<std::vector<int>> rows(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        for (int k = 0; k < len; ++k) {
            rows[static_cast<std::size_t>(i)].push_back((i + k) % n);
        }
        auto& row = rows[static_cast<std::size_t>(i)];
        std::sort(row.begin(), row.end());
    }
    return from_rows(n, rows);
}

/// 8x8 with row lengths 2 5 1 3 4 1 6 2, in the spirit of Kreutzer Fig. 1.
CsrD fig1_like()
{
    return from_rows(8, {{0, 4},
                         {0, 1, 2, 5, 7},
                         {2},
                         {1, 3, 6},
                         {0, 2, 4, 6},
                         {5},
                         {1, 2, 3, 4, 6, 7},
                         {3, 7}});
}

}  // namespace

TEST_CASE("pJDS of the canonical 4x4 matches the header comment", "[formats][pjds]")
{
    const auto a = test::canonical4();

    const auto p2 = to_pjds(a, PjdsOptions{2, false});
    const auto p32 = to_pjds(a);

    REQUIRE_NOTHROW(validate(p2));
    CHECK(p2.block_rows == 2);
    CHECK(p2.padded_rows == 4);
    CHECK(p2.row_perm == std::vector<int>{0, 2, 3, 1});
    CHECK(p2.row_lengths == std::vector<int>{3, 3, 2, 1});
    CHECK(p2.col_start == std::vector<int>{0, 4, 8, 10});
    CHECK(p2.col_idxs == std::vector<int>{0, 0, 1, 1, 2, 2, 3, pad, 3, 3});
    CHECK(p2.values == std::vector<double>{1, 5, 8, 4, 2, 6, 9, 0, 3, 7});
    auto f = footprint(p2);
    CHECK(f.stored_entries == 10);
    CHECK(f.padding_entries == 1);
    CHECK(f.value_bytes == 9 * 8);
    CHECK(f.index_bytes == 9 * 4);
    CHECK(f.aux_bytes == (4 + 4 + 4) * 4);  // row_perm, row_lengths, col_start
    CHECK(f.padding_bytes == 12);
    auto w = thread_work(p2);
    CHECK(w.iterations == std::vector<std::int64_t>{3, 3, 2, 1});
    CHECK(w.useful == std::vector<std::int64_t>{3, 3, 2, 1});
    CHECK(w.stored == std::vector<std::int64_t>{3, 3, 2, 2});

    REQUIRE_NOTHROW(validate(p32));
    CHECK(p32.block_rows == 32);
    CHECK(p32.col_start == std::vector<int>{0, 4, 8, 12});
    CHECK(p32.col_idxs == std::vector<int>{0, 0, 1, 1, 2, 2, 3, pad, 3, 3, pad, pad});
    f = footprint(p32);
    CHECK(f.stored_entries == 12);
    CHECK(f.padding_entries == 3);
    w = thread_work(p32);
    CHECK(w.stored == std::vector<std::int64_t>{3, 3, 3, 3});

    const std::vector<double> x{1, 2, 3, 4};
    for (const auto* p : {&p2, &p32}) {
        CHECK(apply(*p, x, {7, 7, 7, 7}, 1.0, 0.0, RowOrder::original) ==
              std::vector<double>{19, 8, 51, 52});
        CHECK(apply(*p, x, {1, 1, 1, 1}, 2.0, 3.0, RowOrder::original) ==
              std::vector<double>{41, 19, 105, 107});
        CHECK(apply(*p, x, {0, 0, 0, 0}, 1.0, 0.0, RowOrder::permuted) ==
              std::vector<double>{19, 51, 52, 8});
        CHECK(apply(*p, x, {1, 2, 3, 4}, 1.0, 10.0, RowOrder::permuted) ==
              std::vector<double>{29, 71, 82, 48});
        CHECK(to_csr(*p) == a);
    }
}

TEST_CASE("pJDS with rows rounded up to b_r counts the extra rows as padding", "[formats][pjds]")
{
    const auto a = test::canonical4();

    const auto p = to_pjds(a, PjdsOptions{3, true});

    REQUIRE_NOTHROW(validate(p));
    CHECK(p.padded_rows == 6);
    CHECK(p.row_lengths == std::vector<int>{3, 3, 2, 1, 0, 0});
    // blocks {0,2,3} (longest 3) and {1, -, -} (longest 1): column 0 has 6 slots
    CHECK(p.col_start == std::vector<int>{0, 6, 9, 12});
    CHECK(p.col_idxs == std::vector<int>{0, 0, 1, 1, pad, pad, 2, 2, 3, 3, 3, pad});
    const auto f = footprint(p);
    CHECK(f.stored_entries == 12);
    CHECK(f.padding_entries == 3);
    CHECK(f.aux_bytes == (4 + 6 + 4) * 4);
    const auto w = thread_work(p);
    CHECK(w.iterations == std::vector<std::int64_t>{3, 3, 2, 1, 0, 0});
    CHECK(w.stored == std::vector<std::int64_t>{3, 3, 3, 1, 1, 1});
    CHECK(apply(p, {1, 2, 3, 4}, {0, 0, 0, 0}, 1.0, 0.0, RowOrder::original) ==
          std::vector<double>{19, 8, 51, 52});
    CHECK(to_csr(p) == a);

    // the same b_r without rounding: 10 slots
    const auto q = to_pjds(a, PjdsOptions{3, false});
    CHECK(q.col_start == std::vector<int>{0, 4, 7, 10});
    CHECK(footprint(q).stored_entries == 10);
}

TEST_CASE("pJDS reproduces a Kreutzer Fig. 1 style example with b_r = 4", "[formats][pjds]")
{
    const auto a = fig1_like();

    const auto p = to_pjds(a, PjdsOptions{4, false});

    REQUIRE_NOTHROW(validate(p));
    // sort: lengths 6 5 4 3 | 2 2 1 1 (ties keep the original order: rows 0, 7 and 2, 5)
    CHECK(p.row_perm == std::vector<int>{6, 1, 4, 3, 0, 7, 2, 5});
    CHECK(p.row_lengths == std::vector<int>{6, 5, 4, 3, 2, 2, 1, 1});
    // pad: block 0 to 6, block 1 to 2; columns 0-1 span both blocks, 2-5 the first only
    CHECK(p.col_start == std::vector<int>{0, 8, 16, 20, 24, 28, 32});
    CHECK(p.col_idxs == std::vector<int>{1, 0, 0, 1, 0, 3, 2, 5,           // column 0
                                         2, 1, 2, 3, 4, 7, pad, pad,       // column 1
                                         3, 2, 4, 6,                       // column 2
                                         4, 5, 6, pad,                     // column 3
                                         6, 7, pad, pad,                   // column 4
                                         7, pad, pad, pad});               // column 5
    CHECK(std::vector<double>(p.values.begin(), p.values.begin() + 8) ==
          std::vector<double>{71, 20, 50, 41, 10, 83, 32, 65});
    for (std::size_t s = 0; s < p.values.size(); ++s) {
        CHECK((p.col_idxs[s] == pad) == (p.values[s] == 0.0));
    }
    const auto f = footprint(p);
    CHECK(f.stored_entries == 32);  // ELLPACK: 8 x 6 = 48
    CHECK(f.padding_entries == 8);  // block 0: 0+1+2+3, block 1: 0+0+1+1
    CHECK(footprint(to_ell(a)).stored_entries == 48);
    const auto w = thread_work(p);
    CHECK(w.iterations == std::vector<std::int64_t>{6, 5, 4, 3, 2, 2, 1, 1});
    CHECK(w.stored == std::vector<std::int64_t>{6, 6, 6, 6, 2, 2, 2, 2});
    const std::vector<double> x{1, -1, 2, -2, 3, -3, 4, -4};
    std::vector<double> expected(8);
    spmv_reference(a, 1.0, std::span<const double>(x), 0.0, std::span<double>(expected));
    CHECK(apply(p, x, std::vector<double>(8, 0.0), 1.0, 0.0, RowOrder::original) == expected);
    CHECK(to_csr(p) == a);
}

TEST_CASE("pJDS closed forms of Kreutzer §II.A", "[formats][pjds]")
{
    SECTION("one full row, one entry elsewhere: (b_r + 1) N - b_r")
    {
        for (const int n : {100, 1000}) {
            INFO("N = " << n);
            const auto a = one_full_row(n);
            const auto p = to_pjds(a, PjdsOptions{32, false});
            REQUIRE_NOTHROW(validate(p));
            const auto f = footprint(p);
            CHECK(f.stored_entries == std::int64_t{33} * n - 32);
            CHECK(f.padding_entries == std::int64_t{33} * n - 32 - (2 * n - 1));
            CHECK(footprint(to_ell(a)).stored_entries == std::int64_t{n} * n);
            CHECK(to_csr(p) == a);
            // rows rounded up to a multiple of 32: the extra rows pad column 0 only
            const auto r = to_pjds(a, PjdsOptions{32, true});
            REQUIRE_NOTHROW(validate(r));
            const auto extra = (n + 31) / 32 * 32 - n;
            CHECK(r.padded_rows == n + extra);
            CHECK(footprint(r).stored_entries == std::int64_t{33} * n - 32 + extra);
            CHECK(footprint(r).padding_entries == footprint(p).padding_entries + extra);
        }
    }
    SECTION("constant row length and N a multiple of b_r: no padding")
    {
        for (const int n : {96, 1024}) {
            INFO("N = " << n);
            const auto a = constant_length(n, 7);
            for (const bool round : {false, true}) {
                const auto p = to_pjds(a, PjdsOptions{32, round});
                REQUIRE_NOTHROW(validate(p));
                CHECK(footprint(p).stored_entries == std::int64_t{n} * 7);
                CHECK(footprint(p).padding_entries == 0);
            }
        }
        // not a multiple of b_r: still no padding unless the rows are rounded up
        const auto a = constant_length(100, 7);
        CHECK(footprint(to_pjds(a, PjdsOptions{32, false})).padding_entries == 0);
        CHECK(footprint(to_pjds(a, PjdsOptions{32, true})).padding_entries == 28 * 7);
    }
}

TEST_CASE("pJDS handles 0x0, 1x1, empty rows and rectangular matrices", "[formats][pjds]")
{
    SECTION("0x0")
    {
        for (const bool round : {false, true}) {
            const auto p = to_pjds(CsrD{}, PjdsOptions{4, round});
            REQUIRE_NOTHROW(validate(p));
            CHECK(p.padded_rows == 0);
            CHECK(p.col_start == std::vector<int>{0});
            CHECK(thread_work(p).iterations.empty());
            CHECK(to_csr(p) == CsrD{});
        }
    }
    SECTION("1x1")
    {
        const auto one = test::zoo()[1].a;
        const auto p = to_pjds(one, PjdsOptions{4, true});
        REQUIRE_NOTHROW(validate(p));
        CHECK(p.padded_rows == 4);
        CHECK(p.col_idxs == std::vector<int>{0, pad, pad, pad});
        CHECK(apply(p, {2}, {1}, 1.0, 1.0, RowOrder::original) == std::vector<double>{8});
        CHECK(to_csr(p) == one);
    }
    SECTION("empty rows")
    {
        const auto a = from_rows(3, {{}, {0, 2}, {}, {1}, {}});
        const auto p = to_pjds(a, PjdsOptions{2, false});
        REQUIRE_NOTHROW(validate(p));
        CHECK(p.row_perm == std::vector<int>{1, 3, 0, 2, 4});
        CHECK(p.row_lengths == std::vector<int>{2, 1, 0, 0, 0});
        CHECK(p.col_start == std::vector<int>{0, 2, 4});
        CHECK(p.col_idxs == std::vector<int>{0, 1, 2, pad});
        CHECK(thread_work(p).stored == std::vector<std::int64_t>{2, 2, 0, 0, 0});
        CHECK(apply(p, {1, 1, 1}, {9, 9, 9, 9, 9}, 1.0, 0.0, RowOrder::original) ==
              std::vector<double>{0, 42, 0, 41, 0});
        CHECK(apply(p, {1, 1, 1}, {9, 9, 9, 9, 9}, 1.0, 0.0, RowOrder::permuted) ==
              std::vector<double>{42, 41, 0, 0, 0});
        CHECK(to_csr(p) == a);
    }
    SECTION("rectangular 2x5")
    {
        const auto a = from_rows(5, {{1, 4}, {0, 2, 3}});
        const auto p = to_pjds(a, PjdsOptions{1, false});
        REQUIRE_NOTHROW(validate(p));
        CHECK(p.row_perm == std::vector<int>{1, 0});
        CHECK(p.col_start == std::vector<int>{0, 2, 4, 5});
        CHECK(p.col_idxs == std::vector<int>{0, 1, 2, 4, 3});
        CHECK(footprint(p).padding_entries == 0);  // b_r = 1: plain JDS storage
        CHECK(to_csr(p) == a);
    }
    SECTION("b_r 0 is refused")
    {
        CHECK_THROWS_AS(to_pjds(test::canonical4(), PjdsOptions{0, false}), InvalidArgument);
    }
}

TEST_CASE("pJDS validate rejects broken layouts", "[formats][pjds]")
{
    auto p = to_pjds(test::canonical4(), PjdsOptions{2, false});
    REQUIRE_NOTHROW(validate(p));
    SECTION("row_perm and row_lengths")
    {
        test::check_rejects_bad_row_perm(p);
        test::check_rejects_bad_row_lengths(p);
    }
    SECTION("padded_rows neither N nor N rounded up to b_r")
    {
        p.padded_rows = 5;
        p.row_lengths.push_back(0);
        CHECK_THROWS_AS(validate(p), InvalidLayout);
    }
    SECTION("col_start not matching the blocks")
    {
        p.col_start = {0, 4, 8, 12};
        CHECK_THROWS_AS(validate(p), InvalidLayout);
    }
    SECTION("col_start not starting at 0")
    {
        p.col_start = {1, 5, 9, 11};
        CHECK_THROWS_AS(validate(p), InvalidLayout);
    }
    SECTION("col_start of the wrong length")
    {
        p.col_start.pop_back();
        CHECK_THROWS_AS(validate(p), InvalidLayout);
    }
    SECTION("padding slot with a value")
    {
        p.values[7] = 1.0;
        CHECK_THROWS_AS(validate(p), InvalidLayout);
    }
    SECTION("real entry after a row's length")
    {
        p.col_idxs[7] = 0;
        p.values[7] = 1.0;
        CHECK_THROWS_AS(validate(p), InvalidLayout);
    }
    SECTION("column out of range")
    {
        p.col_idxs[0] = -2;
        CHECK_THROWS_AS(validate(p), InvalidLayout);
    }
    SECTION("columns not increasing along a row")
    {
        p.col_idxs[9] = 2;  // sorted row 1: 0, 2, 2
        CHECK_THROWS_AS(validate(p), InvalidLayout);
    }
    SECTION("array sizes")
    {
        p.col_idxs.pop_back();
        CHECK_THROWS_AS(validate(p), InvalidLayout);
    }
    SECTION("a padding row with a length")
    {
        auto r = to_pjds(test::canonical4(), PjdsOptions{3, true});
        r.row_lengths[4] = 1;
        r.row_lengths[3] = 1;
        CHECK_THROWS_AS(validate(r), InvalidLayout);
    }
}

TEST_CASE("pJDS never stores more than ELLPACK and matches b_r = 1 JDS", "[formats][pjds]")
{
    for (const auto& m : test::zoo()) {
        for (const int br : {1, 4, 32}) {
            INFO(m.name << ", b_r " << br);
            const auto p = to_pjds(m.a, PjdsOptions{br, false});
            REQUIRE_NOTHROW(validate(p));
            CHECK(to_csr(p) == m.a);
            CHECK(footprint(p).stored_entries <= footprint(to_ell(m.a)).stored_entries);
            if (br == 1) {
                CHECK(footprint(p).padding_entries == 0);
            }
            const auto w = thread_work(p);
            CHECK(std::accumulate(w.stored.begin(), w.stored.end(), std::int64_t{0}) ==
                  footprint(p).stored_entries);
        }
    }
}

TEST_CASE("The registry's pjds-pad rounds the rows up to b_r and keeps the product",
          "[formats][pjds][registry]")
{
    // Kreutzer footnote 2: N padded to a multiple of the warp size (b_r). The format parameter
    // pjds_pad (CLI --pjds-pad, GUI "pJDS pad N") switches it on.
    const auto& info = find_format("pjds");
    CHECK(std::find(info.params.begin(), info.params.end(), Param::pjds_pad) != info.params.end());
    FormatParams off;
    CHECK(off.pjds_pad == 0);  // the default keeps N rows, as Listing 2
    FormatParams bad;
    CHECK_THROWS_AS(set(bad, Param::pjds_pad, 2), InvalidArgument);

    std::vector<test::NamedMatrix> matrices = test::zoo();
    matrices.push_back({"random 77x50, rows of 0..9", test::random_csr(77, 50, 0, 9, 31)});
    matrices.push_back({"one full row of 70", test::one_full_row(70)});
    for (const auto& m : matrices) {
        for (const int br : {1, 3, 8, 32}) {
            INFO(m.name << ", b_r = " << br);
            FormatParams p;
            p.block_rows = br;
            p.pjds_pad = 0;
            const auto plain = std::get<Pjds<double, std::int32_t>>(build<double>("pjds", m.a, p));
            p.pjds_pad = 1;
            const auto padded =
                std::get<Pjds<double, std::int32_t>>(build<double>("pjds", m.a, p));
            REQUIRE_NOTHROW(validate(padded));
            const auto n = m.a.num_rows;
            CHECK(plain.padded_rows == n);
            CHECK(padded.padded_rows == (n + br - 1) / br * br);
            CHECK(padded.padded_rows % br == 0);
            CHECK(padded.row_perm == plain.row_perm);
            // only padding is added: the extra rows' slots
            const auto fp = footprint(plain);
            const auto fq = footprint(padded);
            CHECK(fq.stored_entries - fq.padding_entries == fp.stored_entries - fp.padding_entries);
            CHECK(fq.stored_entries >= fp.stored_entries);
            // the same product in both bases, alpha and beta included
            const auto x = test::random_vector(static_cast<std::size_t>(m.a.num_cols), 5);
            const auto y0 = test::random_vector(static_cast<std::size_t>(n), 6);
            for (const auto order : {RowOrder::original, RowOrder::permuted}) {
                CHECK(apply(padded, x, y0, -0.5, 2.0, order) ==
                      apply(plain, x, y0, -0.5, 2.0, order));
            }
            std::vector<double> expected(static_cast<std::size_t>(n), 0.0);
            spmv_reference(m.a, 1.0, std::span<const double>(x), 0.0, std::span<double>(expected));
            const auto y = test::multiply(padded, x, RowOrder::original);
            CHECK(test::relative_error(y, expected) < 1e-14);
            CHECK(to_csr(padded) == m.a);
        }
    }
}
