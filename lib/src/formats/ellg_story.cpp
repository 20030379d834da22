// ELLG's story (story.hpp): its registry entry, footprint, construction (ELLPACK-R, then the
// leading dimension padded to the pitch) and the model of its GPU kernel.
#include "story.hpp"

namespace spmv::story {
namespace {

Footprint estimate(const RowLengthProfile& rows, const FormatParams& p)
{
    return padded(ellg_stride(rows.num_rows, p.pitch_bytes, value_size, sizeof(I)) *
                      longest(rows.lengths),
                  rows.nnz, rows.num_rows);
}

ConstructionStep ellg_step(const CsrD& a, const EllG<double, I>& e, const ConstructionWindow& w)
{
    auto g = column_major_spec(a, e, e.stride, {});
    g.name = "pitch";
    g.title = "3. Pad the leading dimension to the pitch (" + num(e.pitch_bytes) + " bytes)";
    g.caption = "Every column of the 2-D arrays starts on a " + num(e.pitch_bytes) +
                "-byte boundary: stride = " + num(a.num_rows) + " rows rounded up to " +
                num(e.stride) + "; rows " + num(a.num_rows) + ".." + num(e.stride - 1) +
                " are the alignment gap, padding only. " + slots_text(g.stored, g.padding);
    if (e.stride > a.num_rows && a.num_rows > 0) g.row_boundaries.push_back(a.num_rows);
    auto s = materialize(g, w);
    add_slot_arrays(s, e.col_idxs, e.values, multiples(e.stride, std::ssize(e.values)),
                    "column-major with the pitch: slot (i, j) = j*stride + i");
    add_aux(s, "row_lengths", "rS[]: entries of every row", ArrayKey::grid_row, e.row_lengths);
    return s;
}

void steps(const ConstructionSource& src, const ConstructionWindow& w, Construction& c)
{
    const auto& e = built_as<EllG<double, I>>(src);
    c.title += " (pitch " + num(e.pitch_bytes) + " B)";
    c.steps.push_back(compress_or_jagged(src, w));  // ELLPACK-R (prepare_ellr_compress)
    c.steps.push_back(ellg_step(*src.a, e, w));
}

void shape(ShapeContext& c, KernelShape& s)  // one thread per row, to its length
{
    from_pass(s, c.identity_pass());
    s.row_info_bytes = 4.0 * static_cast<double>(c.n);
    // pitched columns: stride = ellg_stride (32 rows at 128 B). The kernel model prices the
    // default pitch of 128 bytes, whatever --pitch says.
    s.stored_slots = static_cast<double>(
        ellg_stride(c.n, 128, sizeof(double), sizeof(std::int32_t)) * c.max_len);
}

const VariantRule rules[] = {
    {{"ellg", "ellg", false, "ELLG (Barbieri); nearest: Ginkgo Ell with a padded stride"}, shape},
};

}  // namespace
}  // namespace spmv::story

namespace spmv::detail {

FormatInfo ellg_entry()
{
    return {.name = "ellg",
            .title = "ELLG",
            .description = "ELLPACK-R with the leading dimension padded to a pitch, unrolled by 2",
            .source = "Barbieri §2",
            .params = {Param::pitch_bytes},
            .permuted = false,
            SPMV_BUILDERS(to_ellg(a, EllGOptions{p.pitch_bytes})),
            .estimate = story::estimate,
            .construction_prepare = viz::detail::prepare_ellr_compress,
            .construction_steps = story::steps,
            .model_variants = [] { return std::span<const model::VariantRule>(story::rules); }};
}

}  // namespace spmv::detail
