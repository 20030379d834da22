#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <numeric>

#include <spmv/error.hpp>
#include <spmv/formats/ell.hpp>
#include <spmv/formats/sell.hpp>

#include "test_matrices.hpp"

using namespace spmv;

namespace {

using Ints = std::vector<int>;
using Doubles = std::vector<double>;
using Counts = std::vector<std::int64_t>;

Doubles multiply(const SellCSigma<double, int>& s, const Doubles& x, RowOrder order)
{
    Doubles y(static_cast<std::size_t>(s.num_rows), 0.0);
    spmv_reference(s, 1.0, std::span<const double>(x), 0.0, std::span<double>(y), order);
    return y;
}

// pJDS count computed from the row lengths alone: sort descending, then every block of b_r
// rows stores b_r x (its longest row); the last block is padded to b_r rows as well.
std::int64_t padded_block_count(const Csr<double, int>& a, std::int64_t br)
{
    auto len = row_lengths(a);
    std::sort(len.begin(), len.end(), std::greater<>());
    std::int64_t total = 0;
    for (std::size_t first = 0; first < len.size(); first += static_cast<std::size_t>(br)) {
        total += br * len[first];  // sorted: the first row of a block is its longest
    }
    return total;
}

}  // namespace

TEST_CASE("SELL-2-1 of the canonical 4x4 matches STYLE.md", "[formats][sell]")
{
    const auto a = test::canonical4();

    const auto s = to_sell_c_sigma(a, SellCSigmaOptions{2, 1});

    CHECK(s.row_perm == Ints{0, 1, 2, 3});
    CHECK(s.slice_ptrs == Ints{0, 6, 12});
    CHECK(s.slice_widths == Ints{3, 3});
    CHECK(s.col_idxs == Ints{0, 1, 2, -1, 3, -1, 0, 1, 2, 3, 3, -1});
    CHECK(s.values == Doubles{1, 4, 2, 0, 3, 0, 5, 8, 6, 9, 7, 0});
    const auto f = footprint(s);
    CHECK(f.stored_entries == 12);
    CHECK(f.padding_entries == 3);
    CHECK(f.value_bytes == 9 * 8);
    CHECK(f.index_bytes == 9 * 4);
    CHECK(f.aux_bytes == (3 + 2 + 4) * 4);
    CHECK(f.padding_bytes == 3 * 12);
    CHECK(multiply(s, {1, 2, 3, 4}, RowOrder::original) == Doubles{19, 8, 51, 52});
    CHECK(thread_work(s).iterations == Counts{3, 3, 3, 3});
    CHECK(to_csr(s) == a);
    CHECK_NOTHROW(validate(s));
}

TEST_CASE("SELL-2-4 of the canonical 4x4 matches STYLE.md", "[formats][sell]")
{
    const auto a = test::canonical4();

    const auto s = to_sell_c_sigma(a, SellCSigmaOptions{2, 4});

    CHECK(s.row_perm == Ints{0, 2, 3, 1});
    CHECK(s.col_idxs == Ints{0, 0, 2, 2, 3, 3, 1, 1, 3, -1});
    CHECK(s.values == Doubles{1, 5, 2, 6, 3, 7, 8, 4, 9, 0});
    CHECK(s.slice_ptrs == Ints{0, 6, 10});
    CHECK(s.slice_widths == Ints{3, 2});
    CHECK(footprint(s).stored_entries == 10);
    CHECK(footprint(s).padding_entries == 1);
    CHECK(multiply(s, {1, 2, 3, 4}, RowOrder::original) == Doubles{19, 8, 51, 52});
    CHECK(multiply(s, {1, 2, 3, 4}, RowOrder::permuted) == Doubles{19, 51, 52, 8});
    const auto w = thread_work(s);
    CHECK(w.iterations == Counts{3, 3, 2, 2});
    CHECK(w.useful == Counts{3, 3, 2, 1});
    CHECK(w.stored == Counts{3, 3, 2, 2});
    CHECK(to_csr(s) == a);
    CHECK_NOTHROW(validate(s));
}

TEST_CASE("SELL sorting windows need not align with slices", "[formats][sell]")
{
    // C = 2, sigma = 3: window {0,1,2} (lengths 3 1 3) sorts to 0 2 1; window {3} stays.
    // Slices {0,2} width 3 and {1,3} width 2: [0 0 | 2 2 | 3 3 || 1 1 | - 3]
    const auto s = to_sell_c_sigma(test::canonical4(), SellCSigmaOptions{2, 3});

    CHECK(s.row_perm == Ints{0, 2, 1, 3});
    CHECK(s.slice_widths == Ints{3, 2});
    CHECK(s.col_idxs == Ints{0, 0, 2, 2, 3, 3, 1, 1, -1, 3});
    CHECK(s.values == Doubles{1, 5, 2, 6, 3, 7, 4, 8, 0, 9});
    CHECK(multiply(s, {1, 2, 3, 4}, RowOrder::permuted) == Doubles{19, 51, 8, 52});
    CHECK_NOTHROW(validate(s));
}

TEST_CASE("SELL with C = N and sigma = 1 is ELLPACK", "[formats][sell]")
{
    for (const auto& m : test::zoo()) {
        INFO(m.name);
        const auto c = std::max(m.a.num_rows, 1);

        const auto s = to_sell_c_sigma(m.a, SellCSigmaOptions{c, 1});
        const auto e = to_ell(m.a);

        std::vector<int> identity(static_cast<std::size_t>(m.a.num_rows));
        std::iota(identity.begin(), identity.end(), 0);
        CHECK(s.row_perm == identity);
        CHECK(footprint(s).stored_entries == footprint(e).stored_entries);
        if (m.a.num_rows > 0) {
            CHECK(s.col_idxs == e.col_idxs);  // one slice of N rows: slot j*N + r, as ELL
            CHECK(s.values == e.values);
        }
    }
}

TEST_CASE("SELL with C = b_r and sigma = N stores what pJDS stores", "[formats][sell]")
{
    for (const auto& m : test::zoo()) {
        for (const int br : {4, 32}) {
            INFO(m.name << ", b_r = " << br);

            const auto s = to_sell_c_sigma(m.a, SellCSigmaOptions{br, std::max(m.a.num_rows, 1)});

            CHECK(footprint(s).stored_entries == padded_block_count(m.a, br));
            CHECK_NOTHROW(validate(s));
        }
    }
    // Kreutzer's worst case, one full row and one entry elsewhere: (b_r + 1) N - b_r stored
    // when the last block keeps its 70 - 64 = 6 rows; SELL pads it to 32 rows of width 1.
    const auto z = test::zoo();
    const auto full = std::find_if(z.begin(), z.end(),
                                   [](const auto& m) { return m.name == "one full row 70x70"; });
    REQUIRE(full != z.end());
    const auto s = to_sell_c_sigma(full->a, SellCSigmaOptions{32, 70});
    CHECK(footprint(s).stored_entries == (32 + 1) * 70 - 32 + (96 - 70));
}

TEST_CASE("SELL handles 0x0, 1x1, empty rows and rectangular matrices", "[formats][sell]")
{
    SECTION("0x0")
    {
        const auto s = to_sell_c_sigma(Csr<double, int>{});
        CHECK(s.slice_ptrs == Ints{0});
        CHECK(s.slice_widths.empty());
        CHECK(thread_work(s).iterations.empty());
        CHECK_NOTHROW(validate(s));
        CHECK(to_csr(s) == Csr<double, int>{});
    }
    SECTION("1x1 in a slice of 32: 31 padding rows")
    {
        Csr<double, int> a;
        a.num_rows = a.num_cols = 1;
        a.row_ptrs = {0, 1};
        a.col_idxs = {0};
        a.values = {2.5};
        const auto s = to_sell_c_sigma(a);
        CHECK(footprint(s).stored_entries == 32);
        CHECK(footprint(s).padding_entries == 31);
        const auto w = thread_work(s);
        CHECK(w.iterations == Counts(32, 1));
        CHECK(w.useful[0] == 1);
        CHECK(std::accumulate(w.useful.begin(), w.useful.end(), std::int64_t{0}) == 1);
        CHECK(multiply(s, {2}, RowOrder::original) == Doubles{5});
    }
    SECTION("empty rows: lengths (0 2 0 1), C = 2, sigma = 4")
    {
        // sorted rows 1 3 0 2: slice {1,3} width 2, slice {0,2} width 0
        const Ints rows{1, 1, 3};
        const Ints cols{0, 2, 1};
        const Doubles vals{1.5, 2.5, 3.5};
        const auto a = csr_from_triplets<double, int>(4, 3, rows, cols, vals);
        const auto s = to_sell_c_sigma(a, SellCSigmaOptions{2, 4});
        CHECK(s.row_perm == Ints{1, 3, 0, 2});
        CHECK(s.slice_widths == Ints{2, 0});
        CHECK(s.slice_ptrs == Ints{0, 4, 4});
        CHECK(s.col_idxs == Ints{0, 1, 2, -1});
        CHECK(thread_work(s).iterations == Counts{2, 2, 0, 0});
        CHECK(multiply(s, {1, 1, 1}, RowOrder::original) == Doubles{0, 4, 0, 3.5});
        CHECK(to_csr(s) == a);
    }
    SECTION("rectangular")
    {
        for (const auto& a :
             {test::random_csr(3, 40, 0, 30, 9), test::random_csr(45, 2, 0, 2, 8)}) {
            const auto s = to_sell_c_sigma(a, SellCSigmaOptions{4, 8});
            CHECK_NOTHROW(validate(s));
            CHECK(to_csr(s) == a);
            const auto w = thread_work(s);
            CHECK(std::accumulate(w.stored.begin(), w.stored.end(), std::int64_t{0}) ==
                  footprint(s).stored_entries);
        }
    }
}

TEST_CASE("SELL rejects C or sigma below 1", "[formats][sell]")
{
    CHECK_THROWS_AS(to_sell_c_sigma(test::canonical4(), SellCSigmaOptions{0, 1}), InvalidArgument);
    CHECK_THROWS_AS(to_sell_c_sigma(test::canonical4(), SellCSigmaOptions{2, 0}), InvalidArgument);
}

TEST_CASE("SELL validate rejects broken layouts", "[formats][sell]")
{
    // SELL-2-4: col_idxs [0 0 | 2 2 | 3 3 || 1 1 | 3 -]; stored row 3 owns slots 7 and 9
    auto s = to_sell_c_sigma(test::canonical4(), SellCSigmaOptions{2, 4});
    SECTION("real entry after padding")
    {
        s.col_idxs[7] = -1;
        s.values[7] = 0;
        s.col_idxs[9] = 1;
        s.values[9] = 4;
        CHECK_THROWS_WITH(validate(s), Catch::Contains("real entry after padding"));
    }
    SECTION("column out of range")
    {
        s.col_idxs[0] = 4;
        CHECK_THROWS_WITH(validate(s), Catch::Contains("column out of range"));
    }
    SECTION("columns not increasing")
    {
        s.col_idxs[4] = 0;  // stored row 0: 0 2 0
        CHECK_THROWS_WITH(validate(s), Catch::Contains("columns not increasing"));
    }
    SECTION("padding with a value")
    {
        s.values[9] = 1;
        CHECK_THROWS_WITH(validate(s), Catch::Contains("nonzero value"));
    }
    SECTION("arrays of the wrong size")
    {
        s.values.pop_back();
        CHECK_THROWS_AS(validate(s), InvalidLayout);
    }
    SECTION("slice_ptrs that disagree with slice_height * slice_widths")
    {
        s.slice_widths[1] = 3;
        CHECK_THROWS_WITH(validate(s), Catch::Contains("slice_height * slice_widths"));
    }
    SECTION("a slice wider than its longest row")
    {
        s.slice_widths[1] = 3;
        s.slice_ptrs[2] = 12;
        s.col_idxs.resize(12, -1);
        s.values.resize(12, 0.0);
        CHECK_THROWS_WITH(validate(s), Catch::Contains("wider than its longest row"));
    }
    SECTION("rows not sorted inside their window")
    {
        s.col_idxs[4] = -1;  // stored row 0 loses its third entry: lengths 2 3 2 1
        s.values[4] = 0;
        CHECK_THROWS_WITH(validate(s), Catch::Contains("not sorted by length"));
    }
    SECTION("row_perm not a permutation")
    {
        s.row_perm[1] = 0;
        CHECK_THROWS_WITH(validate(s), Catch::Contains("not a permutation"));
    }
    SECTION("row_perm leaving the sorting window")
    {
        auto t = to_sell_c_sigma(test::canonical4(), SellCSigmaOptions{2, 1});
        t.row_perm = {1, 0, 2, 3};  // sigma = 1 allows only the identity
        CHECK_THROWS_WITH(validate(t), Catch::Contains("sorting window"));
    }
    SECTION("a real entry in a padding row of the last slice")
    {
        Csr<double, int> a;
        a.num_rows = a.num_cols = 1;
        a.row_ptrs = {0, 1};
        a.col_idxs = {0};
        a.values = {1.0};
        auto t = to_sell_c_sigma(a, SellCSigmaOptions{2, 1});
        REQUIRE(t.col_idxs == Ints{0, -1});
        t.col_idxs[1] = 0;
        t.values[1] = 1.0;
        CHECK_THROWS_WITH(validate(t), Catch::Contains("padding row"));
    }
    SECTION("C below 1")
    {
        s.slice_height = 0;
        CHECK_THROWS_AS(validate(s), InvalidLayout);
    }
}

TEST_CASE("sell_stored_slots equals the slots the builder stores, for any C and sigma",
          "[formats][sell]")
{
    for (const auto& [name, a] : test::zoo()) {
        const auto lengths = row_lengths(a);
        const std::vector<std::int32_t> len(lengths.begin(), lengths.end());
        for (const int c : {1, 2, 4, 32}) {
            for (const int sigma : {1, 2, 3, 8, 64, 1 << 20}) {
                INFO(name << " C " << c << " sigma " << sigma);
                const auto s = to_sell_c_sigma(a, SellCSigmaOptions{c, sigma});
                CHECK(sell_stored_slots(len, c, sigma) ==
                      static_cast<std::int64_t>(s.values.size()));
            }
        }
    }
}

TEST_CASE("choose_sort_window: sigma = 1 when rows are even, larger when sorting pays",
          "[formats][sell]")
{
    // 64 rows of length 3: no padding at sigma = 1.
    Csr<double, int> even;
    even.num_rows = even.num_cols = 64;
    even.row_ptrs.push_back(0);
    for (int r = 0; r < 64; ++r) {
        for (int j = 0; j < 3; ++j) {
            even.col_idxs.push_back((r + j) % 64);
            even.values.push_back(1.0);
        }
        even.row_ptrs.push_back(static_cast<int>(even.values.size()));
    }
    CHECK(choose_sort_window(even, 4) == 1);

    // Rows alternate long (16) / short (1), 256 rows, C = 4: sigma = 1 pads every slice to 16
    // (256 * 16 = 4096 slots for nnz 2176); sigma = C = 4 sorts each slice but still pairs two
    // long with two short rows (same 4096); sigma = 8 puts the 4 long rows of a window in one
    // slice and the 4 short in the next: 64 * 16 + 64 * 1... = 32 * (4*16 + 4*1) = 2176 slots =
    // nnz, the least possible.
    Csr<double, int> alt;
    alt.num_rows = alt.num_cols = 256;
    alt.row_ptrs.push_back(0);
    for (int r = 0; r < 256; ++r) {
        const int len = r % 2 == 0 ? 16 : 1;
        for (int j = 0; j < len; ++j) {
            alt.col_idxs.push_back((r + j) % 256);
            alt.values.push_back(1.0);
        }
        alt.row_ptrs.push_back(static_cast<int>(alt.values.size()));
    }
    const auto lengths = row_lengths(alt);
    const std::vector<std::int32_t> len(lengths.begin(), lengths.end());
    CHECK(sell_stored_slots(len, 4, 1) == 4096);
    CHECK(sell_stored_slots(len, 4, 4) == 4096);
    CHECK(sell_stored_slots(len, 4, 8) == 2176);
    CHECK(sell_stored_slots(len, 4, 256) == 2176);
    CHECK(choose_sort_window(alt, 4) == 8);
}
