// HYB's story (story.hpp): its registry entry, footprint, construction (ELLPACK, then the first K
// entries of every row kept in ELL and the rest in COO) and the model of its GPU kernels (the
// ELL kernel, then COO's).
#include "story.hpp"

namespace spmv::story {
namespace {

/// K as the builder takes it (to_hyb: -1 = the one-third rule), clamped to the longest row as
/// the sweep does (a wider ELL part stores nothing more).
std::int64_t ell_width(std::span<const std::int32_t> len, const FormatParams& p)
{
    SPMV_EXPECTS(p.hyb_width >= -1, "HYB width must be -1 (automatic) or >= 0");
    return p.hyb_width < 0 ? hyb_auto_width(len)
                           : std::min<std::int64_t>(p.hyb_width, longest(len));
}

Footprint estimate(const RowLengthProfile& rows, const FormatParams& p)
{
    const std::int64_t n = rows.num_rows;
    const auto k = ell_width(rows.lengths, p);
    std::int64_t ell_real = 0;
    for (auto l : rows.lengths) ell_real += std::min<std::int64_t>(l, k);
    const auto coo = rows.nnz - ell_real;
    Footprint f;
    f.stored_entries = n * k + coo;
    f.padding_entries = n * k - ell_real;
    f.value_bytes = static_cast<std::size_t>(rows.nnz) * value_size;
    f.index_bytes = static_cast<std::size_t>(ell_real + 2 * coo) * index_size;
    f.padding_bytes = static_cast<std::size_t>(f.padding_entries) * (value_size + index_size);
    return f;
}

ConstructionStep hyb_step(const CsrD& a, const Hyb<double, I>& h, I max_len,
                          const ConstructionWindow& w)
{
    auto g = grid_spec("split", "3. Keep K = " + num(h.ell_width) +
                            " entries per row in ELL, the rest in COO (HYB)");
    g.total_rows = a.num_rows;
    g.total_cols = max_len;
    g.row_source = [](std::int64_t k) { return static_cast<I>(k); };
    g.row_cells = [&a, &h](std::int64_t k, std::int64_t j0, std::int64_t j1, I src, Cell* out) {
        for (auto j = j0; j < std::min<std::int64_t>(j1, h.ell_width); ++j) {
            out[j - j0] = slot_cell(a, src, j * h.stride + k, h.ell_col_idxs, h.ell_values, 0);
        }
        if (j1 <= h.ell_width) return;
        const auto lo =
            std::lower_bound(h.coo_row_idxs.begin(), h.coo_row_idxs.end(), static_cast<I>(k));
        const auto hi = std::upper_bound(lo, h.coo_row_idxs.end(), static_cast<I>(k));
        for (auto t = lo - h.coo_row_idxs.begin(); t < hi - h.coo_row_idxs.begin(); ++t) {
            const auto j = h.ell_width + (t - (lo - h.coo_row_idxs.begin()));
            if (j >= j0 && j < j1) {
                out[j - j0] = slot_cell(a, src, t, h.coo_col_idxs, h.coo_values, 1);
            }
        }
    };
    g.big_marks.push_back({0, a.num_rows, h.ell_width});
    const auto fp = footprint(h);
    g.stored = fp.stored_entries;
    g.padding = fp.padding_entries;
    g.caption = "The first K = " + num(h.ell_width) +
                " entries of every row go to an ELLPACK part (column-major, short rows "
                "padded); the " +
                num(std::ssize(h.coo_values)) +
                " entries beyond K of the long rows go to a COO part (right of the line). " +
                slots_text(g.stored, g.padding);
    auto s = materialize(g, w);
    add_slot_arrays(s, h.ell_col_idxs, h.ell_values, multiples(h.stride, std::ssize(h.ell_values)),
                    "ELL part, column-major: slot (i, j) = j*stride + i", 0, "ell_");
    std::vector<std::int64_t> groups;
    for (std::size_t t = 1; t < h.coo_row_idxs.size(); ++t) {
        if (h.coo_row_idxs[t] != h.coo_row_idxs[t - 1]) groups.push_back(std::int64_t(t));
    }
    auto rows = array_spec("coo_row_idxs", "row of every COO entry", ArrayRole::indices);
    rows.part = 1;
    rows.group_starts = groups;
    add_array(s, std::move(rows), h.coo_row_idxs);
    add_slot_arrays(s, h.coo_col_idxs, h.coo_values, groups, "COO part, entry t", 1, "coo_");
    return s;
}

void steps(const ConstructionSource& src, const ConstructionWindow& w, Construction& c)
{
    const auto& h = built_as<Hyb<double, I>>(src);
    c.title += " (K = " + num(h.ell_width) + ")";
    c.steps.push_back(compress_or_jagged(src, w));
    c.steps.push_back(hyb_step(*src.a, h, src.max_len, w));
}

void shape(ShapeContext& c, KernelShape& s)  // ELL part of width K (all slots), COO for the rest
{
    const std::int64_t k = ell_width(c.lens, c.params);
    const auto& p = c.identity_pass();
    set_x(s, p.x_dp, p.x_sp);
    std::int64_t beyond = 0, longest_beyond = 0;
    for (const auto l : c.lens) {
        beyond += std::max<std::int64_t>(0, l - k);
        longest_beyond = std::max<std::int64_t>(longest_beyond, l - k);
    }
    s.loaded_slots = s.stored_slots = static_cast<double>(c.n * k + beyond);
    s.extra_index_slots = static_cast<double>(beyond);
    s.row_info_bytes = 0;
    s.launches = beyond > 0 ? 3 : 1;
    s.critical_trips = k + (beyond > 0 ? 13 + ceil_div(longest_beyond, 256) : 0);  // COO's carry
    s.warp_trips = ceil_div(c.n, warp) * k + ceil_div(beyond, 256) * 8;
}

const VariantRule rules[] = {
    {{"hyb", "hyb", false,
      "HYB; Ginkgo Hybrid, CUSP hyb (cuSPARSE removed its HYB in CUDA 11)"},
     shape},
};


// HYB's thread_work for the sweep: the ELL kernel (one thread per row, K trips, only when
// K > 0), then the COO kernel (one thread per entry beyond K).
SweepWarps sweep_warps(SweepRows& rows, const FormatParams& p)
{
    const auto k = ell_width(rows.lengths(), p);
    WarpStream stream(p.warp_size);
    SweepWarps r;
    for (const auto l : rows.lengths()) {
        if (k > 0) stream.add(k, std::min<std::int64_t>(l, k), k);
        r.coo_entries += std::max<std::int64_t>(0, l - k);
    }
    stream.add_unit_threads(r.coo_entries);
    r.slots_read = stream.slots_read();
    r.warps = stream.finish();
    return r;
}

// The K the layout really has: -1 is the one-third rule, a K past the longest row stores nothing
// more.
int sweep_effective(Param param, std::span<const std::int32_t> lengths, const FormatParams& p)
{
    return param == Param::hyb_width ? static_cast<int>(ell_width(lengths, p)) : get(p, param);
}

}  // namespace
}  // namespace spmv::story

namespace spmv::detail {

FormatInfo hyb_entry()
{
    return {.name = "hyb",
            .title = "HYB",
            .description = "ELL part of width K plus COO for the rest (K: one-third rule)",
            .source = "PELLR §2.3.4",
            .params = {Param::hyb_width},
            .permuted = false,
            SPMV_BUILDERS(to_hyb(a, HybOptions{p.hyb_width})),
            .estimate = story::estimate,
            .construction_prepare = viz::detail::prepare_ellpack_compress,
            .construction_steps = story::steps,
            .model_variants = [] { return std::span<const model::VariantRule>(story::rules); },
            .sweep_params = {Param::hyb_width},
            .sweep_warps = story::sweep_warps,
            .sweep_effective = story::sweep_effective};
}

}  // namespace spmv::detail
