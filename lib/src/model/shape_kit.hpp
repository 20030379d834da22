#pragma once
// The format model's kit (lib-internal): the passes over a matrix that several kernel rules
// share, computed once per matrix and on first use (ShapeContext), and the small counting rules
// several kernels share. The rules themselves are in the formats' story files
// (lib/src/formats/<name>_story.cpp); the engine is lib/src/model/format_model.cpp.
#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/model/kernel_shape.hpp>

namespace spmv::model {

inline constexpr int warp = 32;

/// The x gather's L2 sectors, the rule every kernel variant shares: the distinct 32-byte sectors
/// of x (4 doubles or 8 floats) that one unit of the kernel reads over its whole life, summed
/// over the units. A sector that a unit reads again is served by L1 (the first read brought it
/// there), so it costs L2 once per unit, not once per loop trip: a 7-point stencil's SELL-32
/// slice reads x[i-1 .. i+30], x[i .. i+31] and x[i+1 .. i+32] in three trips, about ten
/// sectors, not 27 (the matrix's own sectors of CSR scalar are counted so already).
///
/// The unit is a warp of a one-thread-per-row kernel (its 32 rows, all trips; the split
/// kernels' T warps of one group of 32 rows run in one block, so the group), and for the
/// kernels whose lanes read consecutive nonzeros the range of nonzeros one warp walks (COO: its
/// chunk of 256; CSR vector: its 32 / tpr rows) or, where the warps of a block take turns over
/// one range, the block's (merge path: a tile of block x items-per-thread merge items;
/// CSR-adaptive: the 256 nonzeros of one block step). JDS launches a kernel per jagged
/// diagonal, so its warps live one trip: per warp and trip (RowPass::trip_x_dp).
///
/// Left out, said so: reuse between units (warps of a block, blocks on one SM), which depends
/// on timing the model does not know, so the count is an upper bound on the sectors L2 serves;
/// and L1's capacity: a unit's share of it (an SM's 256 KiB over 64 resident warps, 128 sectors
/// a warp) held as LRU gave the same held-out validation on both cards at 32, 64 and 128
/// sectors as unbounded (2026-11-28), so the simpler rule stands (repeats are rare where a
/// warp's sectors outgrow its share). Before 2026-11-28 every kernel was counted per warp and
/// loop trip, 1.35x the sectors on a 7-point stencil; docs/benchmarks/model_refit_2026-11-28
/// has the refit and what it changed.
///
/// One pass over warps of 32 rows in a row order, each lane looping to its row length: x
/// sectors per warp (the rule above) in DP and SP, warp trips, the longest trip count; for the
/// identity order also the distinct sectors of CSR scalar's values + col_idxs that each warp
/// touches over its whole loop (a lane's next slot is usually in the sector L1 already holds).
struct RowPass {
    double x_dp = 0, x_sp = 0;            // distinct per warp over all its trips
    double trip_x_dp = 0, trip_x_sp = 0;  // per warp and trip (the global pass only: JDS)
    std::int64_t warp_trips = 0, critical = 0;
    double matrix_sectors = 0;  // CSR scalar: values (8 B) + col_idxs (4 B) sectors
    /// Per warp of 32 rows, in the pass's order: its x sectors (DP, SP: the rule above), its
    /// nonzeros and its width (longest row): what heaviest_warp takes the largest of.
    struct Warp {
        float x_dp = 0, x_sp = 0;
        std::int32_t nnz = 0, width = 0;
    };
    std::vector<Warp> warps;
};

/// What every rule may ask of the matrix; each pass is computed when first asked for. One
/// context serves a whole parameter sweep (predict_sweep): set_params moves it to the next
/// point and keeps every pass that does not depend on the parameters.
class ShapeContext {
public:
    /// `params` with every "auto" resolved (resolve_all_params).
    ShapeContext(const Csr<double, std::int32_t>& a, const FormatParams& params);

    /// Moves the context to other (resolved) parameters. The row lengths and the identity,
    /// global and nonzero passes do not depend on them and are kept; the window order and pass
    /// depend on sigma only and are kept while sigma is unchanged. Every result is the one a
    /// fresh ShapeContext(a, params) gives (tests/analysis/test_sweep.cpp).
    void set_params(const FormatParams& params);

    const Csr<double, std::int32_t>& a;
    FormatParams params;
    std::int64_t n = 0;    ///< rows
    std::int64_t nnz = 0;
    std::vector<std::int32_t> lens;  ///< row lengths
    std::int64_t max_len = 0;
    double mean = 0;  ///< nnz / n
    std::int64_t touched_cols = 0;  ///< columns that hold a nonzero (KernelShape::x_cols)

    /// Rows in their own order (one thread per row).
    const RowPass& identity_pass();
    /// Rows sorted longest first, stably, globally (JDS, pJDS, PELLR, BiJAD).
    const RowPass& global_pass();
    const std::vector<std::int32_t>& global_order();
    /// Rows sorted inside windows of sigma rows (SELL-C-sigma); sigma <= 1: identity. A
    /// window inside one warp's 32 rows (sigma divides 32) reorders lanes, not warps: the
    /// identity pass's counts; sigma >= N: the global pass's.
    const RowPass& window_pass();
    /// The window order, empty when sigma <= 1 (sigma >= N: global_order()).
    const std::vector<std::int32_t>& window_order();
    /// x sectors (DP, SP) of kernels whose lanes read consecutive nonzeros (the rule above):
    /// distinct sectors per chunk of `chunk` consecutive nonzeros in CSR order (COO, CSR-adaptive).
    const std::pair<double, double>& chunk_pass(std::int64_t chunk);
    /// The same per group of `rows` consecutive rows (CSR vector: the rows of one warp).
    const std::pair<double, double>& row_group_pass(std::int64_t rows);
    /// The same per merge-path tile (csr_merge): the merge items (rows + nonzeros, each row's
    /// nonzeros then its end) cut into tiles of `tile_dp` items for the DP count and `tile_sp`
    /// for the SP count (block x items per thread of each precision).
    const std::pair<double, double>& merge_pass(std::int64_t tile_dp, std::int64_t tile_sp);

private:
    std::optional<RowPass> identity_, global_, windowed_;
    // the nonzero passes by (kind, parameters); they depend on the matrix only
    std::map<std::array<std::int64_t, 3>, std::pair<double, double>> nonzero_;
    /// nonzero_[key], counted by `count()` on first use.
    template <typename F>
    const std::pair<double, double>& nonzero_memo(const std::array<std::int64_t, 3>& key,
                                                  F&& count)
    {
        auto it = nonzero_.find(key);
        if (it == nonzero_.end()) {
            it = nonzero_.emplace(key, count()).first;
        }
        return it->second;
    }
    std::vector<std::int32_t> global_order_, window_order_;
    bool have_global_order_ = false, have_window_order_ = false;
};

inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

/// The "_xs" kernels' blocks (kernels/src/ell.cu, sell.cu: xs_block_size), the slots per round
/// of a row (detail::row_unroll, kernels/src/permuted.cuh), the slots a row requests before the
/// first barrier when the launch's longest row is longer than 8 (detail::xs_row_prefetch), and
/// the x entries each thread stages per step (detail::xs_stage_batch).
inline constexpr std::int64_t xs_block = 128, xs_unroll = 8, xs_prefetch = 16, xs_batch = 4;

/// The rounds of dependent matrix reads of an "_xs" kernel's longest row when x is staged
/// (KernelShape::staged_trips), their x read from shared memory, not from L2:
///  - ell_xs requests the first 16 slots of every row before the block stages x (8 when no row
///    is longer), then 8 per round: 1 + ceil(max(0, len - 16) / 8);
///  - sell_xs requests all slots when no row is longer than 16, else the first 8 and 8 per
///    round: 1, or 1 + ceil((len - 8) / 8) (kernels/src/sell.cu says why it differs).
inline std::int64_t ell_xs_row_rounds(std::int64_t longest_row)
{
    return 1 + ceil_div(std::max<std::int64_t>(0, longest_row - xs_prefetch), xs_unroll);
}
inline std::int64_t sell_xs_row_rounds(std::int64_t longest_row)
{
    if (longest_row <= xs_prefetch) {
        return 1;
    }
    return 1 + ceil_div(longest_row - xs_unroll, xs_unroll);
}

/// The steps of detail::stage_x (extra_stage_steps), counted in units of 2 KiB of x per block:
/// each thread requests 4 entries of x, then stores them (512 entries per step), and a step
/// costs about its bytes: measured on one H200 (docs/benchmarks/h200_xs_prefetch_2026-11-30),
/// 0.22 us per step in single precision (2 KiB) and 0.39 us in double (4 KiB). So
/// ceil(cols * value_bytes / 2048), the first one beside the row's first slots.
inline constexpr std::int64_t xs_stage_unit_bytes = xs_block * xs_batch * 4;
inline std::int64_t xs_stage_steps(std::int64_t cols, std::int64_t value_bytes)
{
    return std::max<std::int64_t>(1, ceil_div(cols * value_bytes, xs_stage_unit_bytes));
}

/// The split kernels' warps per group of 32 rows (kernels/src/split.cuh: the smallest T of
/// 1, 2, 4, 8 with ceil(width / T) <= 16).
int split_t(std::int64_t width);

/// Groups of 32 consecutive rows of `order`: their widths (longest row).
std::vector<std::int64_t> group_widths(const std::vector<std::int32_t>& lens,
                                       const std::vector<std::int32_t>& order);

/// Rows sorted by length, longest first, stably, inside windows of `sigma` rows (sigma >= N:
/// one global sort), as the SELL / pJDS / JDS builders do.
std::vector<std::int32_t> window_sorted(const std::vector<std::int32_t>& lens, std::int64_t sigma);

/// BiELL's iterations per warp of 32 sorted lengths (formats/biell.hpp's rule, W = 32):
/// width_g = max(0, ceil((len(b_g) - cap_{g-1}) / (W / h_g))), h_g = W >> g, b_g = h_{g+1}.
std::int64_t biell_trips(std::span<const std::int32_t> sorted_desc);

void set_x(KernelShape& s, double dp, double sp);
/// set_x with the pass's counts, and its heaviest warp (heaviest_warp): a kernel of one warp
/// per 32 rows of the pass's order (one thread per row, or BiELL's lanes over its warp's rows).
void set_x(KernelShape& s, const RowPass& p);
/// set_x(s, p), warp trips and the longest trip count of the pass.
void from_pass(KernelShape& s, const RowPass& p);

/// Resident warps of a full GPU: 64 per SM (2048 threads) on 132 SMs, the H100 SXM's and the
/// H200's (the cards the model is fitted on; the SM count is not in the GPU profile).
inline constexpr double resident_warps = 64.0 * 132.0;

/// The heaviest warp (KernelShape::warp_sectors_dp / _sp). A warp's lanes run one row each
/// (or share its rows: BiELL), so the warp lasts as long as the sectors its 32 lanes gather
/// and stream through the memory pipeline of its SM, which it shares with the other resident
/// warps: with rows sorted longest first, the 32 longest rows of a power law (about 1000
/// entries each) are one warp of about 31,000 gathers of x, every lane's its own, while the
/// rest of the GPU has long finished (docs/benchmarks/model_longrows_2026-11-29: pJDS, JDS
/// CSR-like, BiJAD, SELL at sigma = 65536 measured 2x their predicted time there). Its count:
/// the warp's x sectors (the rule above) plus its nonzeros' value and 4-byte index, times the
/// share of a full GPU the launch keeps resident, min(warps, resident_warps) / resident_warps
/// (a launch of few warps gives each a larger share of its SM; at full occupancy each has
/// 1 / 64). Padding, which a sorted order keeps small, is left out.
void heaviest_warp(KernelShape& s, const RowPass& p);
/// heaviest_warp for the split kernels (kernels/src/split.cuh): the group of 32 rows (the
/// pass's warp) runs on T = split_t(width) warps, each with 1 / T of its columns.
void heaviest_split_warp(KernelShape& s, const RowPass& p);

/// One thread per globally sorted row, in groups of 32 rows that each stop at their longest
/// row (JDS CSR-like, pJDS, PELLR, BiJAD and the split kernels start from it): x and trips of
/// the global pass, 8 N bytes of permutation + lengths, stored slots = the groups' padding.
void sorted_groups_shape(ShapeContext& c, KernelShape& s);
/// sorted_groups_shape for the split kernels (kernels/src/split.cuh): each group of 32 sorted
/// rows runs on split_t(width) warps that share its columns (+3 trips of shared-memory sum).
void sorted_groups_split_shape(ShapeContext& c, KernelShape& s);

}  // namespace spmv::model
