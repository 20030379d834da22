// ELLPACK's story (story.hpp): its registry entry, footprint, construction (rows compressed
// left into a rectangle, column-major) and the model of its two GPU kernels.
#include "story.hpp"

namespace spmv::story {
namespace {

Footprint estimate(const RowLengthProfile& rows, const FormatParams&)
{
    return padded(rows.num_rows * longest(rows.lengths), rows.nnz, 0);
}

void steps(const ConstructionSource& src, const ConstructionWindow& w, Construction& c)
{
    c.steps.push_back(compress_step(*src.a, built_as<Ell<double, I>>(src), "ELLPACK", w));
}

void shape(ShapeContext& c, KernelShape& s)  // one thread per row, every slot
{
    set_x(s, c.identity_pass());  // and the heaviest warp
    s.loaded_slots = s.stored_slots = static_cast<double>(c.n * c.max_len);
    s.row_info_bytes = 0;
    s.critical_trips = c.max_len;
    s.warp_trips = ceil_div(c.n, warp) * c.max_len;
}

void shape_xs(ShapeContext& c, KernelShape& s)  // the same, x staged in shared memory per block
{
    shape(c, s);
    s.x_staged = static_cast<double>(ceil_div(c.n, xs_block)) * static_cast<double>(c.a.num_cols);
    // its dependent reads, not its slots (shape_kit.hpp): the row's rounds (one up to 16 slots; the
    // serial steps of copying x follow from cols: extra_stage_steps)
    s.staged_trips = ell_xs_row_rounds(c.max_len);
    s.plain_variant = "ell";
}

const VariantRule rules[] = {
    {{"ell", "ell", false, "ELLPACK; Ginkgo Ell, MAGMA ELL, CUSP ell"}, shape},
    {{"ell_xs", "ell", false, "ELLPACK with x in shared memory; no library equivalent"}, shape_xs},
};

}  // namespace
}  // namespace spmv::story

namespace spmv::detail {

FormatInfo ell_entry()
{
    return {.name = "ell",
            .title = "ELLPACK",
            .description = "rows shifted left, padded to the longest row, column-major",
            .source = "Kreutzer §II.A, Listing 1",
            .params = {},
            .permuted = false,
            SPMV_BUILDERS(to_ell(a, EllOptions{})),
            .estimate = story::estimate,
            .construction_steps = story::steps,
            .model_variants = [] { return std::span<const model::VariantRule>(story::rules); }};
}

}  // namespace spmv::detail
