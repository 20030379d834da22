#pragma once
// The story BiELL and BiJAD share (private to their story files): the bisection layout's
// footprint estimate and construction step. They differ only in how the rows are sorted
// (inside each warp, or globally): biell_story.cpp and bijad_story.cpp.
#include <numeric>

#include "bisection_layout.hpp"
#include "story.hpp"

namespace spmv::story::bisection {

/// W x width_g slots per group and warp (bisection rule of biell.hpp), rows sorted inside
/// windows of W rows (BiELL) or globally (BiJAD).
inline Footprint estimate(const RowLengthProfile& rows, int warp_size, bool global_sort)
{
    SPMV_EXPECTS(warp_size >= 1, "BiELL/BiJAD: warp size must be >= 1");
    const std::int64_t w = warp_size;
    const auto n = rows.num_rows;
    const auto sorted = sorted_in_windows(rows.lengths, global_sort ? std::max<std::int64_t>(n, 1) : w);
    const auto heights = spmv::detail::bisection::group_heights(w);
    const auto warps = spmv::detail::bisection::num_warps(n, w);
    std::int64_t stored = 0;
    for (std::int64_t k = 0; k < warps; ++k) {
        const auto first = static_cast<std::size_t>(k * w);
        const auto count = static_cast<std::size_t>(std::min(w, n - k * w));
        const auto widths = spmv::detail::bisection::widths_of_warp(
            std::span<const std::int64_t>(sorted).subspan(first, count), heights);
        stored += w * std::accumulate(widths.begin(), widths.end(), std::int64_t{0});
    }
    return padded(stored, rows.nnz, n + warps * static_cast<std::int64_t>(heights.size()) + 1);
}

/// BiELL / BiJAD: grid row k = stored row k (virtual rows of the last warp included), column e =
/// the row's e-th slot in entry order: group g, slot group_ptrs[w*G + g] + p + e'*h_g.
template <typename F>
ConstructionStep step(const CsrD& a, const F& f, const std::string& title,
                                const ConstructionWindow& w)
{
    const std::int64_t ws = f.warp_size;
    const auto heights = spmv::detail::bisection::group_heights(ws);
    const auto groups = static_cast<std::int64_t>(heights.size());
    const auto warps = spmv::detail::bisection::num_warps(f.num_rows, ws);
    // slots of a row active in groups 0..g: cap[w][g] (per warp)
    std::vector<std::int64_t> caps(static_cast<std::size_t>(warps * groups));
    std::int64_t widest = 0;
    auto g = grid_spec("groups", title);
    for (std::int64_t wp = 0; wp < warps; ++wp) {
        std::int64_t cap = 0;
        for (std::int64_t gr = 0; gr < groups; ++gr) {
            const auto i = static_cast<std::size_t>(wp * groups + gr);
            cap += (f.group_ptrs[i + 1] - f.group_ptrs[i]) / heights[static_cast<std::size_t>(gr)];
            caps[i] = cap;
            // rows p < h_{g+1} continue into group g+1: a line after their group-g slots
            if (gr + 1 < groups && cap > 0) {
                g.big_marks.push_back(
                    {wp * ws, wp * ws + heights[static_cast<std::size_t>(gr) + 1], cap});
            }
        }
        widest = std::max(widest, cap);  // row p = 0 is active in every group
    }
    g.total_rows = warps * ws;
    g.total_cols = widest;
    g.block_rows = static_cast<int>(ws);
    g.row_source = [&f](std::int64_t k) -> I {
        return k < f.num_rows ? f.row_perm[static_cast<std::size_t>(k)] : -1;
    };
    g.row_cells = [&a, &f, heights, groups, ws](std::int64_t k, std::int64_t j0, std::int64_t j1,
                                                I src, Cell* out) {
        const auto wp = k / ws;
        const auto p = k % ws;
        std::int64_t e = 0;  // slot number along the row
        for (std::int64_t gr = 0; gr < groups && p < heights[static_cast<std::size_t>(gr)];
             ++gr) {
            const auto h = heights[static_cast<std::size_t>(gr)];
            const auto i = static_cast<std::size_t>(wp * groups + gr);
            for (std::int64_t slot = f.group_ptrs[i] + p; slot < f.group_ptrs[i + 1];
                 slot += h, ++e) {
                if (e < j0) continue;
                if (e >= j1) return;
                Cell c = slot_cell(a, src, slot, f.col_idxs, f.values);
                c.group = static_cast<std::int64_t>(i);
                out[e - j0] = c;
            }
        }
    };
    const auto fp = footprint(f);
    g.stored = fp.stored_entries;
    g.padding = fp.padding_entries;
    g.caption = "Each warp of W = " + num(ws) + " sorted rows is split by bisection into " +
                num(groups) +
                " groups: group g keeps the warp's h_g = W/2^g longest rows and gives each "
                "W/h_g lanes, all lanes running width_g iterations; a row's slots in group g "
                "are group_ptrs[w*G+g] + p + e*h_g (lines mark the group boundaries). " +
                slots_text(g.stored, g.padding);
    auto s = materialize(g, w);
    add_slot_arrays(s, f.col_idxs, f.values, as_groups(f.group_ptrs),
                    "group by group, lanes column-major: slot = group_ptrs[w*G+g] + j*W + t");
    auto ptrs = array_spec("group_ptrs", "I[]: start of every group of every warp",
                           ArrayRole::aux, ArrayKey::cell_group, static_cast<int>(ws), true);
    ptrs.block_entries = groups;
    add_array(s, std::move(ptrs), f.group_ptrs);
    add_aux(s, "row_perm", "perm[]: original row stored k-th", ArrayKey::grid_row, f.row_perm);
    return s;
}

}  // namespace spmv::story::bisection
