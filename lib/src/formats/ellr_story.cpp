// ELLPACK-R's story (story.hpp): its registry entry, footprint, construction (ELLPACK plus the
// row lengths) and the model of its GPU kernel (one thread per row, stops at its length).
#include "story.hpp"

namespace spmv::story {
namespace {

Footprint estimate(const RowLengthProfile& rows, const FormatParams&)
{
    return padded(rows.num_rows * longest(rows.lengths), rows.nnz, rows.num_rows);
}

void steps(const ConstructionSource& src, const ConstructionWindow& w, Construction& c)
{
    c.steps.push_back(compress_step(*src.a, built_as<EllR<double, I>>(src), "ELLPACK-R", w));
}

void shape(ShapeContext& c, KernelShape& s)  // one thread per row, to its length
{
    from_pass(s, c.identity_pass());
    s.row_info_bytes = 4.0 * static_cast<double>(c.n);
    s.stored_slots = static_cast<double>(c.n * c.max_len);
}

const VariantRule rules[] = {
    {{"ellr", "ellr", false, "ELLPACK-R; MAGMA ELLRT (with T = 1)"}, shape},
};

}  // namespace
}  // namespace spmv::story

namespace spmv::detail {

FormatInfo ellr_entry()
{
    return {.name = "ellr",
            .title = "ELLPACK-R",
            .description = "ELLPACK plus row_lengths: each thread stops at its row length",
            .source = "Kreutzer Listing 1, PELLR §2.3.2",
            .params = {},
            .permuted = false,
            SPMV_BUILDERS(to_ellr(a, EllROptions{})),
            .estimate = story::estimate,
            .construction_steps = story::steps,
            .model_variants = [] { return std::span<const model::VariantRule>(story::rules); }};
}

}  // namespace spmv::detail
