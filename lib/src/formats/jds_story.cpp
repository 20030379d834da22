// JDS's story (story.hpp): its registry entry, footprint, construction (rows sorted by length,
// jagged diagonals stored one after another) and the model of its GPU kernel (Cevahir §2.1: a
// launch per jagged diagonal into y_temp, then y[perm]).
#include "story.hpp"

namespace spmv::story {
namespace {

Footprint estimate(const RowLengthProfile& rows, const FormatParams&)
{
    // row_perm, jd_ptrs (one per diagonal + 1)
    return padded(rows.nnz, rows.nnz, rows.num_rows + longest(rows.lengths) + 1);
}

ConstructionStep jds_step(const CsrD& a, const Jds<double, I>& f, const ConstructionWindow& w)
{
    auto s = diagonal_step(a, f, "4. Store the jagged diagonals one after another (JDS)", w);
    s.caption = "Column d of the sorted rows is jagged diagonal d; the " +
                num(std::ssize(f.jd_ptrs) - 1) +
                " diagonals are stored one after another, diagonal d from jd_ptrs[d], so "
                "slot (k, d) = jd_ptrs[d] + k. " +
                num(s.stored) + " slots, no padding.";
    add_slot_arrays(s, f.col_idxs, f.values, as_groups(f.jd_ptrs),
                    "diagonal d from jd_ptrs[d]: slot (k, d) = jd_ptrs[d] + k");
    add_aux(s, "jd_ptrs", "start of every jagged diagonal", ArrayKey::grid_column, f.jd_ptrs, 1,
            true);
    add_aux(s, "row_perm", "perm[]: original row stored k-th", ArrayKey::grid_row, f.row_perm);
    return s;
}

void steps(const ConstructionSource& src, const ConstructionWindow& w, Construction& c)
{
    const auto& f = built_as<Jds<double, I>>(src);
    c.steps.push_back(jagged_step(*src.a, src.max_len, w, nullptr, ""));
    c.steps.push_back(sort_step(*src.a, src.max_len, f.row_perm, "globally", 0, w));
    c.steps.push_back(jds_step(*src.a, f, w));
}

void shape(ShapeContext& c, KernelShape& s)  // a launch per jagged diagonal into y_temp, then y[perm]
{
    const auto& p = c.global_pass();
    set_x(s, p.trip_x_dp, p.trip_x_sp);  // a launch per diagonal: a warp lives one trip
    s.launches = static_cast<int>(std::min<std::int64_t>(c.max_len + 1, 1 << 30));
    s.critical_trips = c.max_len;
    std::int64_t trips = 0;  // each diagonal d: ceil(rows with len > d / 32) warps
    std::vector<std::int64_t> count(static_cast<std::size_t>(c.max_len) + 1, 0);
    for (const auto l : c.lens) ++count[static_cast<std::size_t>(l)];
    std::int64_t rows_longer = c.n;
    for (std::int64_t d = 0; d < c.max_len; ++d) {
        rows_longer -= count[static_cast<std::size_t>(d)];
        trips += ceil_div(rows_longer, warp);
    }
    s.warp_trips = trips;
    s.row_info_bytes = 4.0 * static_cast<double>(c.n + c.max_len + 1);
    s.temp_value_traffic = 2.0 * static_cast<double>(c.nnz) + static_cast<double>(c.n);
}

const VariantRule rules[] = {
    {{"jds", "jds", true, "JDS (Cevahir); no library equivalent on GPUs"}, shape},
};

}  // namespace
}  // namespace spmv::story

namespace spmv::detail {

FormatInfo jds_entry()
{
    return {.name = "jds",
            .title = "JDS",
            .description = "rows sorted by length, jagged diagonals stored one after another",
            .source = "Cevahir §2.1, Fig. 2; PELLR §2.3.5 (JAD)",
            .params = {},
            .permuted = true,
            SPMV_BUILDERS(to_jds(a, JdsOptions{})),
            .estimate = story::estimate,
            .construction_steps = story::steps,
            .model_variants = [] { return std::span<const model::VariantRule>(story::rules); }};
}

}  // namespace spmv::detail
