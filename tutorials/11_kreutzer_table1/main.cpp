// Lesson 11: Kreutzer et al. Table I, the data reduction of pJDS against ELLPACK, on generated
// stand-ins for the paper's matrices (§I.C: HMEp, sAMG, DLR1, DLR2, UHBR). The real matrices
// are not public; each stand-in comes from spmv/generators.hpp with parameters chosen so that
// N_nzr and the longest row come close to the paper's, at a smaller N so that the lesson runs
// in about a second. The footprints come from analysis/estimate.hpp (no layout is allocated)
// and are checked against the built pJDS and the closed form of ELLPACK.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <spmv/analysis/estimate.hpp>
#include <spmv/analysis/row_stats.hpp>
#include <spmv/analysis/summary.hpp>
#include <spmv/formats/pjds.hpp>
#include <spmv/generators.hpp>

#include "lesson.hpp"

namespace {

using Matrix = spmv::Csr<double, std::int32_t>;

struct StandIn {
    const char* name;
    double paper_n;          // §I.C: matrix dimension
    double paper_nzr;        // §I.C: N_nzr, non-zeros per row on average
    double paper_reduction;  // Table I, % (negative: not in the table)
    int n;                   // rows of the stand-in
    const char* recipe;      // the generator call, for the output
    std::function<Matrix(int)> make;
};

// [section: stand-ins]
// HMEp: a band of 7 plus 16 far diagonals at +k n/17, each present where it fits in the matrix:
// row i holds 7 + #{k : i + k n/17 < n} entries, so the lengths run evenly from 7 to 23 (the
// first and last 3 rows lose part of the band).
Matrix hmep(int n)
{
    std::vector<std::int64_t> offsets;
    for (int k = 1; k <= 16; ++k) offsets.push_back(std::int64_t{k} * n / 17);
    return spmv::gen::banded_offdiag(n, 3, offsets, 1);
}
const std::vector<StandIn> stand_ins = {
    {"HMEp", 6.2e6, 15, 36.0, 100'000, "banded_offdiag(n, 3, {k n/17, k = 1..16})", hmep},
    {"sAMG", 3.4e6, 7, 68.4, 200'000, "power_law(n, 4, 2.4, 22)",  // mostly short rows
     [](int n) { return spmv::gen::power_law(n, 4, 2.4, 22, 1); }},
    {"DLR1", 2.8e5, 144, 17.5, 10'000, "power_law(n, 114, 0, 174)",  // lengths 114..174, even
     [](int n) { return spmv::gen::power_law(n, 114, 0.0, 174, 1); }},
    {"DLR2", 5.4e5, 315, 48.0, 6'000, "blocks5(n / 5, 125)",  // 5x5 blocks, 1..125 per row
     [](int n) { return spmv::gen::blocks5(n / 5, 125, 1); }},
    {"UHBR", 4.5e6, 123, -1, 12'000, "blocks5(n / 5, 48)",  // a guess: not in Table I
     [](int n) { return spmv::gen::blocks5(n / 5, 48, 1); }},
};
// [section: end]

struct Reduction {
    spmv::Footprint ell, pjds;
    double slots = 0, bytes = 0;  // % saved by pJDS against ELLPACK
};

Reduction reduction(const Matrix& a)
{
    // [section: footprints]
    spmv::FormatParams params;  // b_r = 32 (Kreutzer: the warp size)
    const auto ell = spmv::analysis::estimate_footprint(a, "ell", params);
    const auto pjds = spmv::analysis::estimate_footprint(a, "pjds", params);
    const double saved = spmv::analysis::data_reduction_percent(pjds, ell);  // on stored slots
    // [section: end]
    return {ell, pjds, saved, spmv::analysis::data_reduction_bytes_percent(pjds, ell)};
}

}  // namespace

int main()
{
    tutorial::SelfCheck check;
    std::printf(
        "Kreutzer Table I stand-ins, b_r = 32; N scaled down (paper's N / stand-in's)\n"
        "  matrix  recipe                                        N   scale  N_nzr (paper)"
        "  lengths  (Table I's max)\n");
    std::vector<Matrix> matrices;
    std::vector<spmv::analysis::RowLengthStats> stats;
    for (const auto& s : stand_ins) {
        matrices.push_back(s.make(s.n));
        stats.push_back(spmv::analysis::row_stats(matrices.back()));
        const auto& st = stats.back();
        // pJDS stores little more than nnz, so Table I's reduction says max = N_nzr / (1 - red)
        char max[16] = "-";
        if (s.paper_reduction >= 0) {
            std::snprintf(max, sizeof max, "%.1f", s.paper_nzr / (1 - s.paper_reduction / 100));
        }
        std::printf("  %-6s  %-42s %6lld  1:%-4.0f %6.1f (%3.0f)  %4lld..%-4lld (%s)\n", s.name,
                    s.recipe, static_cast<long long>(st.rows),
                    s.paper_n / static_cast<double>(st.rows), st.ave, s.paper_nzr,
                    static_cast<long long>(st.min), static_cast<long long>(st.max), max);
    }

    std::printf(
        "\npJDS against ELLPACK (double values, 32-bit indices)\n"
        "  matrix  ELLPACK slots  pJDS slots  reduction (Table I)  in bytes  at N/2"
        "  padding (of nnz; at paper's N)\n");
    std::vector<Reduction> full, half;
    for (std::size_t k = 0; k < stand_ins.size(); ++k) {
        const auto& s = stand_ins[k];
        full.push_back(reduction(matrices[k]));
        half.push_back(reduction(s.make(s.n / 2)));
        const auto& r = full.back();
        char paper[16] = "  -   ";  // UHBR is not in Table I
        if (s.paper_reduction >= 0)
            std::snprintf(paper, sizeof paper, "%4.1f %%", s.paper_reduction);
        const auto padding = static_cast<double>(r.pjds.stored_entries - stats[k].nnz);
        std::printf(
            "  %-6s %14lld %11lld    %5.1f %% (%s)  %6.1f %%  %5.1f %%  %7.0f (%.3f %%; %.4f %%)\n",
            s.name, static_cast<long long>(r.ell.stored_entries),
            static_cast<long long>(r.pjds.stored_entries), r.slots, paper, r.bytes,
            half.back().slots, padding, 100 * padding / static_cast<double>(stats[k].nnz),
            100 * padding / (s.paper_n * s.paper_nzr));
    }

    for (std::size_t k = 0; k < stand_ins.size(); ++k) {
        const auto& s = stand_ins[k];
        const auto& a = matrices[k];
        const auto& r = full[k];
        // [section: by-hand]
        // pJDS by hand: sort the lengths longest first, pad each block of 32 to its first row.
        auto len = spmv::row_lengths(a);
        std::sort(len.begin(), len.end(), std::greater<>());
        std::int64_t slots = 0;
        for (std::size_t b = 0; b < len.size(); b += 32) {
            slots += std::int64_t{len[b]} *
                     static_cast<std::int64_t>(std::min<std::size_t>(32, len.size() - b));
        }
        const std::int64_t ell_slots = std::int64_t{a.num_rows} * len.front();  // N x max
        // [section: end]
        const auto built = spmv::footprint(spmv::to_pjds(a));
        const std::string n = s.name;
        check.expect(slots == r.pjds.stored_entries && ell_slots == r.ell.stored_entries &&
                         built.stored_entries == slots &&
                         built.total_bytes() == r.pjds.total_bytes() &&
                         r.ell.total_bytes() == spmv::analysis::ell_footprint(a).total_bytes(),
                     n + ": estimate == by hand == built pJDS; ELLPACK N x max == ell_footprint");
        check.expect(std::abs(half[k].slots - r.slots) < 1.0,
                     n + ": at N/2 the reduction moves less than 1 point");
        // [section: padding]
        // pJDS pads a row only up to the longest row of its block, and the sorted lengths step
        // down from max to min once: a block's padding is at most 31 rows x the steps inside it.
        const std::int64_t padding = slots - stats[k].nnz;
        const bool bounded = padding <= 31 * (len.front() - len.back());  // independent of N
        // [section: end]
        check.expect(
            bounded && 100.0 * static_cast<double>(padding) / (s.paper_n * s.paper_nzr) < 0.01,
            n + ": padding <= 31 (max - min) slots, whatever N; at the paper's N it is "
                "< 0.01 % of nnz (§II.A)");
        if (s.paper_reduction >= 0) {
            check.expect(std::abs(r.slots - s.paper_reduction) <= 2.0 &&
                             std::abs(stats[k].ave - s.paper_nzr) <= 0.02 * s.paper_nzr,
                         n + ": reduction within 2 points of Table I, N_nzr within 2 % of §I.C");
        }
    }
    check.expect(full[1].slots > full[3].slots && full[3].slots > full[0].slots &&
                     full[0].slots > full[2].slots,
                 "the order of Table I: sAMG > DLR2 > HMEp > DLR1");

    // [section: dlr2]
    // DLR2 at the paper's N = 5.4e5: the stand-in's bytes per row times 5.4e5 rows.
    const double rows = matrices[3].num_rows;
    const double ell_gb = static_cast<double>(full[3].ell.total_bytes()) / rows * 5.4e5 / 1e9;
    const double pjds_gb = static_cast<double>(full[3].pjds.total_bytes()) / rows * 5.4e5 / 1e9;
    // [section: end]
    std::printf("\nDLR2 at N = 5.4e5 (double): ELLPACK %.2f GB, pJDS %.2f GB; a C2050 has 3 GB\n",
                ell_gb, pjds_gb);
    check.expect(ell_gb > 3 && pjds_gb < 3,
                 "DLR2 fits on a C2050 only as pJDS (Kreutzer §II.A), scaled from the stand-in");
    return check.finish();
}
