#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include <spmv/analysis/summary.hpp>
#include <spmv/error.hpp>
#include <spmv/registry.hpp>

#include "test_matrices.hpp"

using namespace spmv;
using namespace spmv::analysis;

namespace {

bool registered(std::string_view name)
{
    const auto all = formats();
    return std::any_of(all.begin(), all.end(), [&](const auto& f) { return f.name == name; });
}

Footprint stored(std::int64_t entries)
{
    Footprint f;
    f.stored_entries = entries;
    return f;
}

}  // namespace

TEST_CASE("data reduction of CSR vs ELLPACK on the canonical 4x4", "[analysis]")
{
    const auto a = test::canonical4();
    const auto csr = footprint(a);
    const auto ell = footprint(to_ell(a));

    const double entries = data_reduction_percent(csr, ell);
    const double bytes = data_reduction_bytes_percent(csr, ell);

    // ELLPACK 12 slots (3 padding), 9*12 + 3*12 = 144 bytes; CSR 9 entries, 72+36+20 = 128 bytes
    CHECK(ell.stored_entries == 12);
    CHECK(ell.total_bytes() == 144);
    CHECK(csr.total_bytes() == 128);
    CHECK(entries == Approx(25.0));                         // 100 (1 - 9/12)
    CHECK(bytes == Approx(100.0 * (1.0 - 128.0 / 144.0)));  // 11.11
    CHECK(data_reduction_percent(ell, ell) == 0.0);
    CHECK(data_reduction_percent(stored(24), ell) == Approx(-100.0));
}

TEST_CASE("pJDS worst case: (b_r + 1) N - b_r entries against ELLPACK's N^2", "[analysis]")
{
    for (const std::int32_t n : {128, 1000}) {
        for (const int br : {4, 32}) {
            INFO("N " << n << ", b_r " << br);
            const auto a = test::one_full_row(n);
            const auto ell = footprint(to_ell(a));
            // block 0 holds row 0 (length N) and b_r - 1 rows of length 1, all padded to N:
            // b_r N slots; the other N - b_r rows store 1 each: (b_r + 1) N - b_r in total
            const std::int64_t pjds = std::int64_t{br + 1} * n - br;

            const double r = data_reduction_percent(stored(pjds), ell);

            CHECK(ell.stored_entries == std::int64_t{n} * n);
            CHECK(r == Approx(100.0 * (1.0 - static_cast<double>(pjds) / (double(n) * n))));
            if (n == 1000 && br == 32) {
                CHECK(r == Approx(96.7032));  // 100 (1 - 32968 / 10^6)
            }
            if (registered("pjds")) {
                FormatParams p;
                p.block_rows = br;
                const auto s = summarize(find_format("pjds"), a, p);
                REQUIRE(s.ok());
                CHECK(s.stored_entries == pjds);
                REQUIRE(s.data_reduction_vs_ell_percent.has_value());
                CHECK(*s.data_reduction_vs_ell_percent == Approx(r));
            }
        }
    }
    if (!registered("pjds")) {
        WARN("format 'pjds' is not registered yet: built-format check skipped");
    }
}

TEST_CASE("ell_footprint equals the footprint of the built ELLPACK", "[analysis]")
{
    for (const auto& m : test::zoo()) {
        INFO(m.name);
        const auto built = footprint(to_ell(m.a));

        const auto closed = ell_footprint(m.a);

        CHECK(closed.stored_entries == built.stored_entries);
        CHECK(closed.padding_entries == built.padding_entries);
        CHECK(closed.value_bytes == built.value_bytes);
        CHECK(closed.index_bytes == built.index_bytes);
        CHECK(closed.aux_bytes == built.aux_bytes);
        CHECK(closed.padding_bytes == built.padding_bytes);
    }
}

TEST_CASE("data reduction is undefined when ELLPACK stores nothing", "[analysis]")
{
    CHECK_THROWS_AS(data_reduction_percent(stored(3), Footprint{}), InvalidArgument);
    CHECK_THROWS_AS(data_reduction_bytes_percent(stored(3), Footprint{}), InvalidArgument);
}

TEST_CASE("summarize_all lists every format with footprint and warp work", "[analysis]")
{
    const auto a = test::canonical4();
    FormatParams p;
    p.warp_size = 2;

    const auto all = summarize_all(a, p);

    REQUIRE(all.size() == formats().size());
    for (std::size_t k = 0; k < all.size(); ++k) {
        INFO(all[k].name);
        CHECK(all[k].name == formats()[k].name);
        CHECK(all[k].ok());
        CHECK(all[k].bytes == all[k].footprint.total_bytes());
        CHECK(all[k].warp_size == 2);
        CHECK(all[k].n_iter > 0);
        REQUIRE(all[k].data_reduction_vs_ell_percent.has_value());
    }
    const auto& csr = *std::find_if(all.begin(), all.end(), [](auto& s) { return s.name == "csr"; });
    REQUIRE(csr.name == "csr");
    CHECK(csr.stored_entries == 9);
    CHECK(csr.padding_entries == 0);
    CHECK(csr.bytes == 128);
    CHECK(*csr.data_reduction_vs_ell_percent == Approx(25.0));
    CHECK(*csr.bytes_reduction_vs_ell_percent == Approx(100.0 / 9.0));  // 1 - 128/144 = 1/9
    CHECK(csr.n_iter == 6);                                             // warps {3,1} and {3,2}
    CHECK(csr.n_p == 14);                                               // 2*9 - 4
    CHECK(csr.idle_slots == 3);
    CHECK(csr.useful_fraction == Approx(0.75));
    const auto ell = std::find_if(all.begin(), all.end(), [](auto& s) { return s.name == "ell"; });
    REQUIRE(ell != all.end());
    CHECK(ell->stored_entries == 12);
    CHECK(*ell->data_reduction_vs_ell_percent == 0.0);
}

TEST_CASE("summarize_all reports a format too large to build instead of throwing", "[analysis]")
{
    // 70000 rows with one full row: ELLPACK would need 70000^2 = 4.9e9 slots (> 2^31 - 1)
    const auto a = test::one_full_row(70000);

    const auto all = summarize_all(a, FormatParams{});

    const auto ell = std::find_if(all.begin(), all.end(), [](auto& s) { return s.name == "ell"; });
    REQUIRE(ell != all.end());
    CHECK_FALSE(ell->ok());
    CHECK_THAT(ell->error, Catch::Contains("would store 4900000000 slots"));
    CHECK(ell->stored_entries == 0);
    CHECK_FALSE(ell->data_reduction_vs_ell_percent.has_value());
    const auto& csr = all[0];
    REQUIRE(csr.ok());
    // the reduction is still known: ELLPACK's footprint has a closed form
    CHECK(*csr.data_reduction_vs_ell_percent ==
          Approx(100.0 * (1.0 - 139999.0 / 4.9e9)));  // nnz = 70000 + 69999
}

TEST_CASE("summarize on a matrix without entries leaves the reduction empty", "[analysis]")
{
    Csr<double, std::int32_t> a;
    a.num_rows = 5;
    a.num_cols = 3;
    a.row_ptrs.assign(6, 0);

    const auto s = summarize(find_format("csr"), a, FormatParams{});

    CHECK(s.ok());
    CHECK_FALSE(s.data_reduction_vs_ell_percent.has_value());
    // CSR still stores row_ptrs (6 * 4 bytes) where ELLPACK stores nothing
    CHECK_FALSE(s.bytes_reduction_vs_ell_percent.has_value());
    CHECK(s.bytes == 24);
    CHECK(s.n_iter == 0);
}
