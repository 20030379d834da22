// Lesson 06: per-warp waste, ELLPACK-R vs PELLR (Wang & Gu, Fig. 5, warps of 8 threads).
// ELLPACK-R lets each thread stop at its own row length, but a warp still runs until its
// longest row is done: the other lanes idle. PELLR sorts the rows first, so rows of similar
// length share a warp: N_iter (eq. 1) drops, the useful work N_p (eq. 2) stays the same.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <spmv/analysis/warps.hpp>
#include <spmv/formats/ellr.hpp>
#include <spmv/formats/pellr.hpp>

#include "lesson.hpp"

namespace {

constexpr int warp_size = 8;

// [section: draw]
// One text line per lane of warp w: '#' a useful trip, '.' an idle trip while the warp waits for
// its longest row, '-' a lane without a row (the last warp is short). Counts the '.' in `idle`.
std::vector<std::string> draw_warp(const spmv::ThreadWork& work,
                                   const spmv::analysis::WarpStats& w, std::int64_t& idle)
{
    std::vector<std::string> lanes;
    for (std::int64_t lane = 0; lane < warp_size; ++lane) {
        const auto t = static_cast<std::size_t>(w.first_thread + lane);
        const auto trips = static_cast<std::size_t>(w.max_iterations);
        if (lane >= w.threads) {
            lanes.push_back(std::string(trips, '-'));
            continue;
        }
        const auto useful = static_cast<std::size_t>(work.useful[t]);
        lanes.push_back(std::string(useful, '#') + std::string(trips - useful, '.'));
        idle += static_cast<std::int64_t>(trips - useful);
    }
    return lanes;
}
// [section: end]

// N_iter of a list of row lengths (PELLR eq. 1): sum over warps of the longest row.
std::int64_t n_iter(const std::vector<std::int32_t>& lengths)
{
    std::int64_t sum = 0;
    for (std::size_t first = 0; first < lengths.size(); first += warp_size) {
        const auto last = lengths.begin() + std::min(lengths.size(), first + warp_size);
        sum += *std::max_element(lengths.begin() + first, last);
    }
    return sum;
}

}  // namespace

int main()
{
    tutorial::SelfCheck check;

    // [section: build]
    const auto a = tutorial::read_sample("pellr_fig5.mtx");  // 26 rows, 78 nonzeros
    const auto ellr_work = spmv::thread_work(spmv::to_ellr(a));
    const auto pellr = spmv::to_pellr(a);  // rows sorted longest first (row_perm)
    const auto pellr_work = spmv::thread_work(pellr);
    const auto ellr = spmv::analysis::analyze_warps(ellr_work, warp_size);
    const auto sorted = spmv::analysis::analyze_warps(pellr_work, warp_size);
    // [section: end]

    std::printf("pellr_fig5, warps of %d lanes ('#' useful trip, '.' idle, '-' no row)\n",
                warp_size);
    std::int64_t ellr_dots = 0, pellr_dots = 0;
    for (std::size_t w = 0; w < ellr.warps.size(); ++w) {
        const auto left = draw_warp(ellr_work, ellr.warps[w], ellr_dots);
        const auto right = draw_warp(pellr_work, sorted.warps[w], pellr_dots);
        std::printf("\nwarp %zu    ELLR          PELLR\n", w);
        for (int lane = 0; lane < warp_size; ++lane) {
            std::printf("  lane %d  %-13s %s\n", lane, left[lane].c_str(), right[lane].c_str());
        }
        std::printf("  trips   %-13lld %lld\n  idle    %-13lld %lld\n",
                    static_cast<long long>(ellr.warps[w].max_iterations),
                    static_cast<long long>(sorted.warps[w].max_iterations),
                    static_cast<long long>(ellr.warps[w].idle_slots),
                    static_cast<long long>(sorted.warps[w].idle_slots));
    }

    std::printf("\n          N_iter  N_p  idle trips  useful lane slots\n");
    for (const auto* w : {&ellr, &sorted}) {
        std::printf("  %-6s %7lld %4lld %11lld %14.1f %%\n", w == &ellr ? "ELLR" : "PELLR",
                    static_cast<long long>(w->n_iter), static_cast<long long>(w->n_p),
                    static_cast<long long>(w->idle_slots), 100.0 * w->useful_fraction);
    }

    // [section: n-p]
    // N_p (eq. 2): a row of length l costs l multiplications and l - 1 additions.
    std::int64_t n_p = 0;
    for (auto len : spmv::row_lengths(a)) n_p += len > 0 ? 2 * len - 1 : 0;
    // [section: end]
    check.expect(ellr.n_iter == 18 && n_iter(spmv::row_lengths(a)) == 18,
                 "ELLR: N_iter = 4 + 3 + 7 + 4 = 18");
    check.expect(sorted.n_iter == 15 && n_iter(pellr.row_lengths) == 15,
                 "PELLR: N_iter = 7 + 3 + 3 + 2 = 15");
    check.expect(ellr.n_p == n_p && sorted.n_p == n_p && n_p == 2 * 78 - 26,
                 "N_p = 2 nnz - N = 130 for both: sorting moves work, it does not remove it");
    check.expect(ellr_dots == ellr.idle_slots && pellr_dots == sorted.idle_slots,
                 "the '.' drawn per format == analyze_warps(...).idle_slots");

    // [section: paper-14]
    // Why does the paper print N_iter = 14? Its sorted warps show one row of length 3 too few.
    auto paper = pellr.row_lengths;  // sorted: [7 4 4 4 4 4 3 3 | 3 3 3 3 3 3 3 3 | 3 2 ...]
    paper.erase(std::find(paper.begin(), paper.end(), 3));
    // [section: end]
    std::printf("\nsorted lengths without one 3 (the paper's figure, %zu rows): N_iter = %lld\n",
                paper.size(), static_cast<long long>(n_iter(paper)));
    check.expect(n_iter(paper) == 14,
                 "dropping one row of length 3 gives the paper's 14: [...|3 x 8|2 x 8|2]");
    return check.finish();
}
