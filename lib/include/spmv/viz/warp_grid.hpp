#pragma once
/// Per-warp pictures of Kreutzer Fig. 2: for each warp a lanes x slots grid showing what every
/// lane does in every loop trip, derived from a format's ThreadWork (spmv::thread_work) and
/// summed with spmv::analysis::analyze_warps, so the picture and the printed totals agree.
///
/// Lane t of a warp whose busiest thread runs M trips, slot j (0-based):
///   j <  useful_t                      useful        (real nonzero multiplied)
///   useful_t <= j < M,  j <  stored_t  idle_padding  (Fig. 2 light box: stored padding while the
///                                                     lane is reserved: ELLPACK multiplies it,
///                                                     ELLPACK-R / pJDS lanes wait)
///   useful_t <= j < M,  j >= stored_t  idle          (lane reserved, nothing stored)
///   j >= M,             j <  stored_t  padding       (Fig. 2 white box: stored, never touched)
///   lane without a thread, j < M       phantom       (short last warp)
///   otherwise                          none
/// so per warp: #useful = stats.useful, #idle + #idle_padding = stats.idle_slots,
/// #phantom = stats.phantom_slots, #padding + #idle_padding = stats.stored_padding whenever
/// every thread stores at least its useful slots (all row-based formats).
///
/// Canonical 4x4, row lengths (3,1,3,2), ELLPACK (iterations = stored = 3), warp size 2:
///   warp 0: lane 0 = [U U U], lane 1 = [U I+P I+P]; warp 1: lane 0 = [U U U], lane 1 = [U U I+P]
/// ELLPACK-R (iterations = length, stored = 3): the same picture (lanes wait on stored padding).
/// pJDS b_r = 2 (sorted 3,3 | 2,1; stored = block max): warp 0 = [U U U],[U U U];
///   warp 1 = [U U],[U I+P]: the padding shrinks to one slot.
#include <cstdint>
#include <vector>

#include <spmv/analysis/warps.hpp>
#include <spmv/any_matrix.hpp>
#include <spmv/types.hpp>

namespace spmv::viz {

enum class SlotKind : std::uint8_t { none, useful, idle, idle_padding, padding, phantom };

/// One warp as a grid: `lanes` rows (warp size) x `columns` loop slots.
struct WarpPicture {
    std::int64_t warp = 0;  ///< warp index in the launch
    int lanes = 0;
    int columns = 0;              ///< max(M, longest stored), capped at max_columns
    bool truncated = false;       ///< columns were capped
    std::vector<SlotKind> kinds;  ///< lanes x columns, kinds[lane * columns + j]
    analysis::WarpStats stats;

    SlotKind at(int lane, int column) const noexcept
    {
        return kinds[static_cast<std::size_t>(lane) * static_cast<std::size_t>(columns) +
                     static_cast<std::size_t>(column)];
    }
};

/// Totals and the pictures of a window of warps.
struct WarpWaste {
    int warp_size = 32;
    analysis::WarpAnalysis analysis;    ///< totals (n_iter, n_p, idle_slots, ...) and every warp
    std::vector<WarpPicture> pictures;  ///< warps [first_warp, first_warp + pictures.size())
    std::int64_t first_warp = 0;
    std::size_t padding_bytes = 0;  ///< Footprint::padding_bytes of the format (0 if unknown)
    /// 100 (1 - useful_fraction): lane slots of the reserved warps that do no useful work.
    double idle_percent() const noexcept { return 100.0 * (1.0 - analysis.useful_fraction); }
    /// Lane slots the warps hold while they run: warp_size * N_iter.
    std::int64_t reserved_slots() const noexcept { return analysis.n_iter * warp_size; }
};

/// Grid of one warp (see the table above); columns capped at max_columns.
WarpPicture warp_picture(const ThreadWork& work, const analysis::WarpStats& stats, int warp_size,
                         std::int64_t warp, int max_columns);

/// Analyses all warps of `work` and draws warps [first_warp, first_warp + max_warps).
/// Throws InvalidArgument as analysis::analyze_warps does.
WarpWaste warp_waste(const ThreadWork& work, int warp_size, std::int64_t first_warp = 0,
                     std::int64_t max_warps = 64, int max_columns = 256);

/// Same for a built format: its thread_work(), and its footprint's padding bytes.
WarpWaste warp_waste(const AnyMatrix<double>& m, int warp_size, std::int64_t first_warp = 0,
                     std::int64_t max_warps = 64, int max_columns = 256);

/// One column of the whole-matrix waste strip: the consecutive warps [first_warp, last_warp]
/// and the shares of the lane slots they reserve (warp_size x their longest row, summed)
/// that do useful work and that stay idle (lanes whose row ended early, padding trips and
/// phantom lanes): useful + idle = 1 for a column whose warps reserve any slot, 0 + 0 otherwise.
struct WasteStripColumn {
    std::int64_t first_warp = 0;
    std::int64_t last_warp = 0;
    std::int64_t reserved = 0;  ///< lane slots the column's warps reserve
    double useful = 0.0;
    double idle = 0.0;
};

/// Every warp of `a` in at most `columns` columns of consecutive warps (ceil(warps / columns)
/// each): the whole matrix's waste in one picture, where the warp grids show 48 warps.
/// Example: 4 warps (useful 4, 2, 4, 1 of 4 reserved each) in 2 columns: useful 6/8 and 5/8.
/// Throws InvalidArgument for columns < 1.
std::vector<WasteStripColumn> waste_strip(const analysis::WarpAnalysis& a, int warp_size,
                                          int columns);

}  // namespace spmv::viz
