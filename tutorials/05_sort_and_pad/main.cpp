// Lesson 05: sort and pad, pJDS and SELL-C-sigma.
// ELLPACK pads every row to the longest row of the whole matrix. pJDS sorts the rows by length
// first, then pads each block of b_r rows only to the longest row of that block. SELL-C-sigma
// sorts only inside windows of sigma rows and pads slices of C rows: it contains ELLPACK and pJDS.
// The exercise is the two counting functions this program checks, pjds_stored_entries and
// sell_stored_entries (exercise.hpp): solution.cpp holds them, exercise.cpp has them as TODOs.
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include <spmv/analysis/summary.hpp>
#include <spmv/formats/ell.hpp>
#include <spmv/formats/pjds.hpp>
#include <spmv/formats/sell.hpp>

#include "exercise.hpp"
#include "lesson.hpp"

namespace {

long long stored(const auto& format) { return spmv::footprint(format).stored_entries; }

}  // namespace

int main()
{
    tutorial::SelfCheck check;

    // [section: pjds-steps]
    const auto a = tutorial::read_sample("pjds_fig1.mtx");  // 8 rows, lengths [2 5 1 3 4 1 6 2]
    const auto ell = spmv::to_ell(a);
    const auto pjds = spmv::to_pjds(a, {.block_rows = 4});
    // [section: end]
    std::printf("pjds_fig1, b_r = 4: sort rows longest first, pad each block of 4\n");
    std::printf("  sorted  orig  pJDS     ELLPACK   (# = entry, . = padding)\n");
    for (std::size_t k = 0; k < pjds.row_perm.size(); ++k) {
        const int len = pjds.row_lengths[k];
        const int block_width = pjds.row_lengths[k / 4 * 4];  // longest row of k's block
        std::printf("  %6zu  %4d  %-8s %s\n", k, pjds.row_perm[k],
                    (std::string(len, '#') + std::string(block_width - len, '.')).c_str(),
                    (std::string(len, '#') + std::string(ell.width - len, '.')).c_str());
    }
    std::printf("  stored: pJDS %lld, ELLPACK %lld, nonzeros %lld\n\n", stored(pjds), stored(ell),
                static_cast<long long>(spmv::nnz(a)));
    check.expect(pjds.row_perm == Lengths{6, 1, 4, 3, 0, 7, 2, 5} && stored(pjds) == 32 &&
                     stored(ell) == 48,
                 "pjds_fig1: row_perm [6 1 4 3 0 7 2 5], pJDS 32 slots, ELLPACK 48");

    // [section: sell-grid]
    // SELL-C-sigma on the same rows: stored slots for slice height C and sort window sigma.
    const auto lengths = spmv::row_lengths(a);
    bool all_match = true;
    std::printf("SELL-C-sigma on pjds_fig1, stored slots:\n      sigma=1 sigma=4 sigma=8\n");
    for (int c : {8, 4, 2, 1}) {
        std::printf("  C=%d", c);
        for (int sigma : {1, 4, 8}) {
            const auto s = spmv::to_sell_c_sigma(a, {.slice_height = c, .sort_window = sigma});
            all_match = all_match && stored(s) == sell_stored_entries(lengths, c, sigma);
            std::printf(" %7lld", stored(s));
        }
        std::printf("\n");
    }
    // [section: end]
    std::printf("  (C = 8 = N, sigma = 1 is ELLPACK; C = 4 = b_r, sigma = 8 = N is pJDS;"
                " C = 1 is CSR)\n\n");
    check.expect(all_match, "sell_stored_entries (by hand) == library for all 12 (C, sigma)");
    check.expect(pjds_stored_entries(lengths, 4) == stored(pjds),
                 "pjds_stored_entries (by hand) == library for pjds_fig1");

    // [section: special-cases]
    // The special cases, checked on every array: C = N, sigma = 1 stores exactly ELLPACK's
    // column-major rectangle; C = b_r, sigma = N sorts and pads exactly like pJDS.
    for (const char* name : {"pjds_fig1.mtx", "powerlaw_2k.mtx"}) {
        const auto m = tutorial::read_sample(name);
        const auto e = spmv::to_ell(m);
        const auto as_ell = spmv::to_sell_c_sigma(m, {.slice_height = m.num_rows});  // sigma 1
        const auto p = spmv::to_pjds(m, {.block_rows = 4, .pad_rows_to_block = true});
        const auto as_pjds =
            spmv::to_sell_c_sigma(m, {.slice_height = 4, .sort_window = m.num_rows});
        // [section: end]
        const std::string n = name;
        check.expect(as_ell.col_idxs == e.col_idxs && as_ell.values == e.values,
                     n + ": SELL-N-1 arrays == ELLPACK arrays");
        check.expect(as_pjds.row_perm == p.row_perm && stored(as_pjds) == stored(p) &&
                         spmv::to_csr(as_pjds) == spmv::to_csr(p),
                     n + ": SELL-4-N == pJDS b_r = 4 (row_perm, " + std::to_string(stored(p)) +
                         " slots, same matrix)");
    }

    // [section: powerlaw]
    const auto pl = tutorial::read_sample("powerlaw_2k.mtx");
    const auto pl_ell = spmv::footprint(spmv::to_ell(pl));
    const auto pl_pjds = spmv::footprint(spmv::to_pjds(pl, {.block_rows = 32}));
    // [section: end]
    std::printf("\npowerlaw_2k (nnz %lld): ELLPACK %lld slots, pJDS (b_r = 32) %lld slots,"
                " data reduction %.1f %%\n", static_cast<long long>(spmv::nnz(pl)),
                static_cast<long long>(pl_ell.stored_entries),
                static_cast<long long>(pl_pjds.stored_entries),
                spmv::analysis::data_reduction_percent(pl_pjds, pl_ell));
    long long sell_sorted = 0;
    for (int sigma : {1, 32, 256, 2000}) {
        sell_sorted = stored(spmv::to_sell_c_sigma(pl, {.slice_height = 32, .sort_window = sigma}));
        std::printf("  SELL-32-%-4d %7lld slots\n", sigma, sell_sorted);
    }
    // 2000 = 62 x 32 + 16: SELL completes the last slice (rows of length 1) with 16 empty rows.
    std::printf("  SELL-32-2000 - pJDS = %lld: the 16 padding rows of SELL's last slice\n",
                sell_sorted - pl_pjds.stored_entries);
    check.expect(pjds_stored_entries(spmv::row_lengths(pl), 32) == pl_pjds.stored_entries &&
                     sell_sorted == sell_stored_entries(spmv::row_lengths(pl), 32, 2000),
                 "pJDS and SELL-32-2000 by hand == library for powerlaw_2k");

    // [section: worst-case]
    // One full row, one entry in every other row: ELLPACK N x N, pJDS (b_r + 1) N - b_r.
    const auto w = tutorial::read_sample("onefull_256.mtx");
    std::printf("\nonefull_256: ELLPACK %lld slots\n", stored(spmv::to_ell(w)));
    for (int br : {4, 32}) {
        const auto s = stored(spmv::to_pjds(w, {.block_rows = br}));
        std::printf("  pJDS b_r = %2d: %lld slots, (b_r + 1) N - b_r = %d\n", br, s,
                    (br + 1) * 256 - br);
        // [section: end]
        check.expect(s == (br + 1) * 256 - br && s == pjds_stored_entries(spmv::row_lengths(w), br),
                     "onefull_256, b_r = " + std::to_string(br) + ": (b_r + 1) N - b_r slots");
    }
    return check.finish();
}
