// JDS CSR-like's story (story.hpp): its registry entry, footprint, construction (JDS with every
// diagonal padded to a multiple of diag_pad) and the model of its GPU kernel (Cevahir §3.1: one
// thread per sorted row walking the diagonals).
#include "story.hpp"

namespace spmv::story {
namespace {

Footprint estimate(const RowLengthProfile& rows, const FormatParams& p)
{
    SPMV_EXPECTS(p.diag_pad >= 1, "JDS CSR-like: diag_pad must be at least 1");
    const auto width = longest(rows.lengths);
    // diagonal d holds the rows longer than d: count lengths, then accumulate from the top
    std::vector<std::int64_t> longer(static_cast<std::size_t>(width) + 1, 0);
    for (auto l : rows.lengths) ++longer[static_cast<std::size_t>(l)];
    std::int64_t rows_longer = 0;
    std::int64_t stored = 0;
    for (std::int64_t d = width - 1; d >= 0; --d) {
        rows_longer += longer[static_cast<std::size_t>(d) + 1];
        stored += round_up(rows_longer, p.diag_pad);
    }
    // row_perm, jd_ptrs, nz_count
    return padded(stored, rows.nnz, rows.num_rows + (width + 1) + rows.num_rows);
}

ConstructionStep jds_csr_step(const CsrD& a, const JdsCsr<double, I>& f,
                              const ConstructionWindow& w)
{
    auto s = diagonal_step(
        a, f, "4. Pad every diagonal to a multiple of " + num(f.diag_pad) + " (JDS CSR-like)",
        w);
    s.caption = "The jagged diagonals, each padded to a multiple of diag_pad = " +
                num(f.diag_pad) +
                " slots so that every diagonal starts aligned; thread k walks its row across "
                "the diagonals, jd_ptrs[d] + k for d < nz_count[k] (Cevahir Fig. 3). " +
                slots_text(s.stored, s.padding);
    add_slot_arrays(s, f.col_idxs, f.values, as_groups(f.jd_ptrs),
                    "diagonal d from jd_ptrs[d]: slot (k, d) = jd_ptrs[d] + k");
    add_aux(s, "jd_ptrs", "start of every padded diagonal (constant memory)",
            ArrayKey::grid_column, f.jd_ptrs, 1, true);
    add_aux(s, "nz_count", "entries of every sorted row", ArrayKey::grid_row, f.nz_count);
    add_aux(s, "row_perm", "original row stored k-th", ArrayKey::grid_row, f.row_perm);
    return s;
}

void steps(const ConstructionSource& src, const ConstructionWindow& w, Construction& c)
{
    const auto& f = built_as<JdsCsr<double, I>>(src);
    c.title += " (diag_pad = " + num(f.diag_pad) + ")";
    c.steps.push_back(jagged_step(*src.a, src.max_len, w, nullptr, ""));
    c.steps.push_back(sort_step(*src.a, src.max_len, f.row_perm, "globally", 0, w));
    c.steps.push_back(jds_csr_step(*src.a, f, w));
}

const VariantRule rules[] = {
    {{"jds_csr", "jds_csr", true, "JDS CSR-like (Cevahir 3.1); no library equivalent"},
     sorted_groups_shape},
};

}  // namespace
}  // namespace spmv::story

namespace spmv::detail {

FormatInfo jds_csr_entry()
{
    return {.name = "jds_csr",
            .title = "JDS CSR-like",
            .description = "JDS with diagonals padded to a multiple of diag_pad, one thread per sorted row",
            .source = "Cevahir §3.1, Fig. 3",
            .params = {Param::diag_pad},
            .permuted = true,
            SPMV_BUILDERS(to_jds_csr(a, JdsCsrOptions{p.diag_pad})),
            .estimate = story::estimate,
            .construction_steps = story::steps,
            .model_variants = [] { return std::span<const model::VariantRule>(story::rules); }};
}

}  // namespace spmv::detail
