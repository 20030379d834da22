// pJDS's story (story.hpp): its registry entry, footprint, construction (Kreutzer Fig. 1:
// compress, sort globally, pad each block of b_r rows) and the model of its two GPU kernels.
#include "story.hpp"

namespace spmv::story {
namespace {

Footprint estimate(const RowLengthProfile& rows, const FormatParams& p)
{
    SPMV_EXPECTS(p.block_rows >= 1, "pJDS: b_r must be >= 1");
    const std::int64_t n = rows.num_rows;
    const auto s = sorted_in_windows(rows.lengths, std::max<std::int64_t>(n, 1));
    // pjds_pad (footnote 2): the layout has round_up(N, b_r) rows, the extra ones empty,
    // so the last block is full too
    const std::int64_t padded_rows = p.pjds_pad != 0 ? round_up(n, p.block_rows) : n;
    std::int64_t stored = 0;
    for (std::int64_t b = 0; b < n; b += p.block_rows) {
        stored += s[static_cast<std::size_t>(b)] *
                  std::min<std::int64_t>(p.block_rows, padded_rows - b);
    }
    // row_perm, row_lengths, col_start
    return padded(stored, rows.nnz, n + padded_rows + longest(rows.lengths) + 1);
}

ConstructionStep pjds_step(const CsrD& a, const Pjds<double, I>& p, const ConstructionWindow& w)
{
    auto g = grid_spec("pad", "4. Pad each block of b_r = " + num(p.block_rows) +
                          " rows to its longest row");
    g.total_rows = p.padded_rows;
    g.total_cols = static_cast<std::int64_t>(p.col_start.size()) - 1;
    g.row_source = [&p](std::int64_t k) -> I {
        return k < p.num_rows ? p.row_perm[static_cast<std::size_t>(k)] : -1;
    };
    g.row_cells = [&a, &p](std::int64_t k, std::int64_t j0, std::int64_t j1, I src, Cell* out) {
        for (auto j = j0; j < j1; ++j) {
            const std::int64_t slot = std::int64_t{p.col_start[static_cast<std::size_t>(j)]} + k;
            if (slot < p.col_start[static_cast<std::size_t>(j) + 1]) {
                out[j - j0] = slot_cell(a, src, slot, p.col_idxs, p.values);
            }
        }
    };
    g.block_rows = p.block_rows;
    const auto f = footprint(p);
    g.stored = f.stored_entries;
    g.padding = f.padding_entries;
    g.caption = "Every block of " + num(p.block_rows) +
                " consecutive sorted rows is padded only to its own longest row; column j is "
                "stored from col_start[j]. " +
                slots_text(g.stored, g.padding);
    auto s = materialize(g, w);
    add_slot_arrays(s, p.col_idxs, p.values, as_groups(p.col_start),
                    "column j from col_start[j]: slot (i, j) = col_start[j] + i");
    add_aux(s, "col_start", "start of every column (Listing 2)", ArrayKey::grid_column,
            p.col_start, 1, true);
    add_aux(s, "row_lengths", "rowmax[]: entries of every sorted row", ArrayKey::grid_row,
            p.row_lengths);
    add_aux(s, "row_perm", "original row stored k-th", ArrayKey::grid_row, p.row_perm);
    return s;
}

void steps(const ConstructionSource& src, const ConstructionWindow& w, Construction& c)
{
    const auto& p = built_as<Pjds<double, I>>(src);
    c.title += " (b_r = " + num(p.block_rows) + ")";
    c.steps.push_back(compress_or_jagged(src, w));
    c.steps.push_back(sort_step(*src.a, src.max_len, p.row_perm, "globally", 0, w));
    c.steps.push_back(pjds_step(*src.a, p, w));
}

const VariantRule rules[] = {
    {{"pjds", "pjds", true,
      "pJDS (Kreutzer); GHOST's SELL-C-sigma with sigma = N is the same idea"},
     sorted_groups_shape},
    {{"pjds_split", "pjds", true,
      "pJDS, wide blocks split over warps; nearest: MAGMA SELL-P with T > 1 on sorted rows"},
     sorted_groups_split_shape},
};


// pJDS's thread_work for the sweep: one thread per sorted row, running its own length; stored =
// the longest row of its block of b_r rows (the first, as the rows are sorted). With pjds_pad
// (Kreutzer footnote 2) the layout's rows are rounded up to a multiple of b_r: the extra threads
// run 0 trips in the last block.
SweepWarps sweep_warps(SweepRows& rows, const FormatParams& p)
{
    const auto& sorted = rows.sorted(std::max<std::int64_t>(rows.num_rows(), 1));
    WarpStream stream(p.warp_size);
    const auto n = sorted.size();
    const auto b = static_cast<std::size_t>(p.block_rows);
    const std::size_t padded_rows = p.pjds_pad != 0 ? (n + b - 1) / b * b : n;
    for (std::size_t k = 0; k < padded_rows; ++k) {
        const auto block_first = k / b * b;
        const std::int64_t len = k < n ? sorted[k] : 0;
        stream.add(len, len, sorted[block_first]);
    }
    SweepWarps r;
    r.slots_read = stream.slots_read();
    r.warps = stream.finish();
    return r;
}

}  // namespace
}  // namespace spmv::story

namespace spmv::detail {

FormatInfo pjds_entry()
{
    return {.name = "pjds",
            .title = "pJDS",
            .description = "rows sorted by length, each block of b_r rows padded to its longest",
            .source = "Kreutzer §II.A, Fig. 1, Listing 2",
            .params = {Param::block_rows, Param::pjds_pad},
            .permuted = true,
            SPMV_BUILDERS(to_pjds(a, PjdsOptions{p.block_rows, p.pjds_pad != 0})),
            .estimate = story::estimate,
            .construction_prepare = viz::detail::prepare_ellpack_compress,
            .construction_steps = story::steps,
            .model_variants = [] { return std::span<const model::VariantRule>(story::rules); },
            .sweep_params = {Param::block_rows},
            .sweep_warps = story::sweep_warps};
}

}  // namespace spmv::detail
