// PELLR's story (story.hpp): its registry entry, footprint, construction (ELLPACK-R on rows
// sorted globally, Wang & Gu Fig. 5) and the model of its two GPU kernels.
#include "story.hpp"

namespace spmv::story {
namespace {

Footprint estimate(const RowLengthProfile& rows, const FormatParams&)
{
    return padded(rows.num_rows * longest(rows.lengths), rows.nnz, 2 * rows.num_rows);
}

ConstructionStep pellr_step(const CsrD& a, const Pellr<double, I>& p, const ConstructionWindow& w)
{
    auto g = column_major_spec(a, p, p.num_rows, p.row_perm);
    g.name = "pad";
    g.title = "4. Store the sorted rows as ELLPACK-R (PELLR)";
    g.caption =
        "The sorted rows padded to the global width (as ELLPACK) plus rl[]: same "
        "storage as ELLPACK-R, but similar rows now share a warp. " +
        slots_text(g.stored, g.padding);
    auto s = materialize(g, w);
    add_slot_arrays(s, p.col_idxs, p.values, multiples(p.stride, std::ssize(p.values)),
                    "column-major: slot (k, j) = j*stride + k");
    add_aux(s, "row_lengths", "rl[]: entries of every sorted row", ArrayKey::grid_row,
            p.row_lengths);
    add_aux(s, "row_perm", "perm[]: original row stored k-th", ArrayKey::grid_row, p.row_perm);
    return s;
}

void steps(const ConstructionSource& src, const ConstructionWindow& w, Construction& c)
{
    const auto& p = built_as<Pellr<double, I>>(src);
    c.steps.push_back(compress_or_jagged(src, w));
    c.steps.push_back(sort_step(*src.a, src.max_len, p.row_perm, "globally", 0, w));
    c.steps.push_back(pellr_step(*src.a, p, w));
}

const VariantRule rules[] = {
    {{"pellr", "pellr", true, "PELLR (Wang & Gu); nearest: cuSPARSE SELL on sorted rows"},
     sorted_groups_shape},
    {{"pellr_split", "pellr", true, "PELLR, wide groups split over warps; no library equivalent"},
     sorted_groups_split_shape},
};

}  // namespace
}  // namespace spmv::story

namespace spmv::detail {

FormatInfo pellr_entry()
{
    return {.name = "pellr",
            .title = "PELLR",
            .description = "ELLPACK-R (rl[]) on rows sorted globally by length",
            .source = "Wang & Gu §3, Fig. 5",
            .params = {},
            .permuted = true,
            SPMV_BUILDERS(to_pellr(a, PellrOptions{})),
            .estimate = story::estimate,
            .construction_prepare = viz::detail::prepare_ellpack_compress,
            .construction_steps = story::steps,
            .model_variants = [] { return std::span<const model::VariantRule>(story::rules); }};
}

}  // namespace spmv::detail
