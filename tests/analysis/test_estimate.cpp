#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include <spmv/analysis/estimate.hpp>
#include <spmv/analysis/summary.hpp>
#include <spmv/any_matrix.hpp>
#include <spmv/error.hpp>
#include <spmv/formats/sell.hpp>
#include <spmv/generators.hpp>
#include <spmv/registry.hpp>

#include "test_matrices.hpp"

using namespace spmv;
using namespace spmv::analysis;

namespace {

void check_equal(const Footprint& est, const Footprint& real)
{
    CHECK(est.stored_entries == real.stored_entries);
    CHECK(est.padding_entries == real.padding_entries);
    CHECK(est.value_bytes == real.value_bytes);
    CHECK(est.index_bytes == real.index_bytes);
    CHECK(est.aux_bytes == real.aux_bytes);
    CHECK(est.padding_bytes == real.padding_bytes);
}

}  // namespace

TEST_CASE("Footprint estimates of the canonical 4x4 match the headers' numbers", "[estimate]")
{
    const auto a = test::canonical4();
    FormatParams p;
    p.block_rows = 2;
    p.hyb_width = 2;

    const auto ell = estimate_footprint(a, "ell", p);
    const auto ellg = estimate_footprint(a, "ellg", p);
    const auto pjds = estimate_footprint(a, "pjds", p);
    const auto hyb = estimate_footprint(a, "hyb", p);
    const auto csr = estimate_footprint(a, "csr", p);

    CHECK(ell.stored_entries == 12);
    CHECK(ell.padding_entries == 3);
    CHECK(ell.total_bytes() == 144);
    CHECK(ellg.stored_entries == 96);
    CHECK(ellg.padding_entries == 87);
    CHECK(ellg.total_bytes() == 1168);
    CHECK(pjds.stored_entries == 10);
    CHECK(pjds.padding_entries == 1);
    CHECK(pjds.aux_bytes == 48);
    CHECK(pjds.total_bytes() == 168);
    CHECK(hyb.stored_entries == 10);
    CHECK(hyb.padding_entries == 1);
    CHECK(hyb.index_bytes == 44);
    CHECK(hyb.total_bytes() == 128);
    CHECK(csr.total_bytes() == 128);
}

TEST_CASE("Footprint estimates equal the built formats' footprints on the whole zoo",
          "[estimate]")
{
    std::vector<FormatParams> sets(4);
    sets[1].block_rows = 4;
    sets[1].slice_height = 4;
    sets[1].sort_window = 8;
    sets[1].warp_size = 4;
    sets[1].diag_pad = 4;
    sets[1].pitch_bytes = 64;
    sets[2].block_rows = 3;
    sets[2].slice_height = 5;
    sets[2].sort_window = 1000;
    sets[2].warp_size = 12;
    sets[2].diag_pad = 1;
    sets[2].hyb_width = 2;
    sets[2].pitch_bytes = 4;
    sets[3].block_rows = 1;
    sets[3].slice_height = 1;
    sets[3].warp_size = 3;
    sets[3].hyb_width = 1000;
    sets[3].pitch_bytes = 24;
    sets[1].pjds_pad = 1;  // pJDS rows rounded up to b_r = 4 (Kreutzer footnote 2)
    sets[3].pjds_pad = 1;  // b_r = 1: nothing to round
    sets.push_back(sets[2]);
    sets[4].pjds_pad = 1;  // b_r = 3
    for (const auto& m : test::zoo()) {
        for (const auto& info : formats()) {
            for (std::size_t i = 0; i < sets.size(); ++i) {
                INFO(m.name << " " << info.name << " parameter set " << i);
                REQUIRE(has_footprint_estimate(info.name));

                const auto est = estimate_footprint(m.a, info.name, sets[i]);

                check_equal(est, footprint(info.build_double(m.a, sets[i])));
            }
        }
    }
}

TEST_CASE("A footprint estimate needs no memory for the layout it describes", "[estimate]")
{
    // one row of 200000 entries and 200000 rows of one entry: ELLPACK would store 4e10 slots
    // (480 GB); the estimate only looks at the row lengths.
    const std::int32_t n = 200000;
    const auto a = test::one_full_row(n);
    FormatParams p;
    p.block_rows = 32;

    const auto ell = estimate_footprint(a, "ell", p);
    const auto pjds = estimate_footprint(a, "pjds", p);

    CHECK(ell.stored_entries == std::int64_t{n} * n);
    CHECK(ell.total_bytes() == std::size_t(n) * n * 12);
    // Kreutzer's worst case: pJDS stores (b_r + 1) N - b_r entries
    CHECK(pjds.stored_entries == 33 * std::int64_t{n} - 32);
    CHECK_THROWS_AS(estimate_footprint(a, "nope", p), InvalidArgument);
}

TEST_CASE("summarize_all builds only the formats under the memory limit", "[estimate]")
{
    const auto a = test::canonical4();
    FormatParams p;  // ELLG pitch 128 B: 1168 bytes; ELLPACK 144; ELLPACK-R 160

    const auto all = summarize_all(a, p, 150);

    for (const auto& s : all) {
        INFO(s.name);
        const auto est = estimate_footprint(a, s.name, p);
        CHECK(s.estimated == (est.total_bytes() > 150));
        CHECK(s.bytes == est.total_bytes());
        if (s.estimated) {
            CHECK_FALSE(s.ok());
            CHECK(s.error.find("not built: would need") == 0);
            CHECK(s.n_iter == 0);
        } else {
            CHECK(s.ok());
            CHECK(s.n_iter > 0);
        }
    }
    const auto& ellg = *std::find_if(all.begin(), all.end(),
                                     [](const FormatSummary& s) { return s.name == "ellg"; });
    CHECK(ellg.error == "not built: would need 1.14 KiB (limit 150 B)");
    CHECK(ellg.padding_entries == 87);
    const auto& ell = *std::find_if(all.begin(), all.end(),
                                    [](const FormatSummary& s) { return s.name == "ell"; });
    CHECK_FALSE(ell.estimated);
    CHECK(analysis::format_bytes(1.5 * 1024 * 1024 * 1024) == "1.50 GiB");
    CHECK(analysis::format_bytes(320.0 * 1024 * 1024) == "320 MiB");
}

TEST_CASE("sigma = auto is resolved once, before the estimate, as the builder resolves it",
          "[analysis][estimate]")
{
    // Power-law rows: sigma = auto sorts (SELL-32-1 would pad every slice to its longest row),
    // and the estimate must count the layout that build() makes with the sigma it picks.
    const auto a = spmv::gen::power_law(3000, 1, 2.0, 300, 1);
    FormatParams automatic;
    automatic.slice_height = 32;
    automatic.sort_window = 0;

    const FormatParams resolved = resolve_params("sell", a, automatic);
    const auto est = estimate_footprint(a, "sell", automatic);

    CHECK(resolved.sort_window == choose_sort_window(a, 32));
    CHECK(resolved.sort_window > 1);
    CHECK(resolve_params("csr", a, automatic).sort_window == 0);  // nothing to resolve there
    check_equal(est, footprint(build<double>("sell", a, automatic)));
    FormatParams same = automatic;
    same.sort_window = resolved.sort_window;
    check_equal(est, estimate_footprint(a, "sell", same));
}
