// SELL-C-sigma's story (story.hpp): its registry entry with the sigma = auto rule, footprint,
// construction (sort inside windows of sigma rows, cut into slices of C rows, pad each slice)
// and the model of its four GPU kernels.
#include "story.hpp"

namespace spmv::story {
namespace {

FormatParams resolve(std::span<const std::int32_t> row_ptrs, FormatParams p)
{
    if (p.sort_window == 0) {  // auto: the smallest sigma within 2 % of sigma = N
        p.sort_window = choose_sort_window(row_ptrs, p.slice_height);
    }
    return p;
}

Footprint estimate(const RowLengthProfile& rows, const FormatParams& p)
{
    SPMV_EXPECTS(p.slice_height >= 1 && p.sort_window >= 1,
                 "SELL-C-sigma needs C >= 1 and sigma >= 1");
    const std::int64_t n = rows.num_rows;
    const std::int64_t c = p.slice_height;
    const auto s = sorted_in_windows(rows.lengths, p.sort_window);
    std::int64_t stored = 0;
    std::int64_t slices = 0;
    for (std::int64_t first = 0; first < n; first += c, ++slices) {
        const auto last = std::min(n, first + c);
        stored += c * *std::max_element(s.begin() + first, s.begin() + last);
    }
    return padded(stored, rows.nnz, (slices + 1) + slices + n);
}

ConstructionStep sell_step(const CsrD& a, const SellCSigma<double, I>& p,
                           const ConstructionWindow& w)
{
    const std::int64_t c = p.slice_height;
    const auto slices = static_cast<std::int64_t>(p.slice_widths.size());
    auto g = grid_spec("pad", "4. Cut into slices of C = " + num(c) + " rows, pad each slice (SELL-" +
                          num(c) + "-" + num(p.sort_window) + ")");
    g.total_rows = slices * c;
    g.total_cols = p.slice_widths.empty()
                       ? 0
                       : *std::max_element(p.slice_widths.begin(), p.slice_widths.end());
    g.row_source = [&p](std::int64_t k) -> I {
        return k < p.num_rows ? p.row_perm[static_cast<std::size_t>(k)] : -1;
    };
    g.row_cells = [&a, &p, c](std::int64_t k, std::int64_t j0, std::int64_t j1, I src, Cell* out) {
        const auto sl = static_cast<std::size_t>(k / c);
        for (auto j = j0; j < std::min<std::int64_t>(j1, p.slice_widths[sl]); ++j) {
            const std::int64_t slot = std::int64_t{p.slice_ptrs[sl]} + j * c + k % c;
            out[j - j0] = slot_cell(a, src, slot, p.col_idxs, p.values);
        }
    };
    g.block_rows = static_cast<int>(c);
    const auto f = footprint(p);
    g.stored = f.stored_entries;
    g.padding = f.padding_entries;
    g.caption = "The sorted rows are cut into " + num(slices) + " slices of C = " + num(c) +
                " rows; each slice is an ELLPACK block padded to its own longest row. " +
                slots_text(g.stored, g.padding);
    std::vector<std::int64_t> groups;
    for (std::int64_t sl = 0; sl < slices; ++sl) {
        for (std::int64_t j = 0; j < p.slice_widths[static_cast<std::size_t>(sl)]; ++j) {
            groups.push_back(std::int64_t{p.slice_ptrs[static_cast<std::size_t>(sl)]} + j * c);
        }
    }
    auto s = materialize(g, w);
    add_slot_arrays(s, p.col_idxs, p.values, groups,
                    "slice s, column j: slot = slice_ptrs[s] + j*C + r");
    add_aux(s, "slice_ptrs", "start of every slice", ArrayKey::block, p.slice_ptrs,
            static_cast<int>(c), true);
    add_aux(s, "slice_widths", "longest row of every slice", ArrayKey::block, p.slice_widths,
            static_cast<int>(c));
    add_aux(s, "row_perm", "original row stored k-th", ArrayKey::grid_row, p.row_perm);
    return s;
}

void steps(const ConstructionSource& src, const ConstructionWindow& w, Construction& c)
{
    const auto& sl = built_as<SellCSigma<double, I>>(src);
    c.title = "SELL-" + num(sl.slice_height) + "-" + num(sl.sort_window);
    const std::string how = sl.sort_window <= 1
                                ? "sigma = 1: no sorting"
                                : "inside windows of sigma = " + num(sl.sort_window) + " rows";
    c.steps.push_back(compress_or_jagged(src, w));
    c.steps.push_back(sort_step(*src.a, src.max_len, sl.row_perm, how, sl.sort_window, w));
    c.steps.push_back(sell_step(*src.a, sl, w));
}

enum class Kernel { sell, split, xs, i16 };

// One thread per row, slices of C rows, every slot loaded; the split kernel gives a wide slice
// of C = 32 up to 8 warps, xs stages x in shared memory, i16 reads 16-bit column offsets.
template <Kernel K>
void shape(ShapeContext& ctx, KernelShape& s)
{
    const auto& p = ctx.window_pass();
    set_x(s, p);  // and the heaviest warp
    const std::int64_t n = ctx.n;
    const std::int64_t c = ctx.params.slice_height;
    const std::int64_t sigma = ctx.params.sort_window;
    const auto& order = ctx.window_order();  // empty when sigma <= 1
    const auto& a = ctx.a;
    std::int64_t slots = 0, trips = 0, crit = 0, split_trips = 0, split_crit = 0;
    std::int64_t slices = 0;
    bool span_ok = true;
    std::int64_t worst_span = 0, worst_slice = 0;
    for (std::int64_t first = 0; first < n; first += c, ++slices) {
        std::int64_t w = 0, lo = a.num_cols, hi = -1;
        for (std::int64_t k = first; k < std::min(n, first + c); ++k) {
            const auto row = order.empty() ? k : order[static_cast<std::size_t>(k)];
            w = std::max<std::int64_t>(w, ctx.lens[static_cast<std::size_t>(row)]);
            if constexpr (K == Kernel::i16) {
                for (auto j = a.row_ptrs[row]; j < a.row_ptrs[row + 1]; ++j) {
                    lo = std::min<std::int64_t>(lo, a.col_idxs[static_cast<std::size_t>(j)]);
                    hi = std::max<std::int64_t>(hi, a.col_idxs[static_cast<std::size_t>(j)]);
                }
            }
        }
        // the kernel's rule (kernels/src/sell_i16_columns.cpp): columns lo..hi, hi - lo + 1 wide
        if (hi >= lo && hi - lo + 1 > 65535 && hi - lo + 1 > worst_span) {
            span_ok = false;
            worst_span = hi - lo + 1;
            worst_slice = slices;
        }
        slots += c * w;
        trips += ceil_div(c, warp) * w;
        crit = std::max(crit, w);
        const int t = c == 32 ? split_t(w) : 1;
        split_trips += t * ceil_div(w, t);
        split_crit = std::max(split_crit, ceil_div(w, t) + (t > 1 ? 3 : 0));
    }
    s.loaded_slots = s.stored_slots = static_cast<double>(slots);
    s.row_info_bytes = 8.0 * static_cast<double>(slices + 1) +
                       (sigma > 1 ? 4.0 * static_cast<double>(n) : 0.0);
    s.warp_trips = trips;
    s.critical_trips = crit;
    if (K == Kernel::split && c == 32) {
        s.warp_trips = split_trips;
        s.critical_trips = split_crit;
        heaviest_split_warp(s, p);  // slices of 32 rows are the pass's warps
    } else if (K == Kernel::xs) {
        s.x_staged = static_cast<double>(ceil_div(n, xs_block)) * static_cast<double>(a.num_cols);
        // the slice's pointer and width first: the row's slots are addressed by them
        s.staged_trips = 1 + sell_xs_row_rounds(crit);
        s.plain_variant = "sell";
    } else if (K == Kernel::i16) {
        s.index_bytes = 2;
        s.row_info_bytes += 4.0 * static_cast<double>(slices);
        if (!span_ok) {
            s.feasible = false;
            s.why_not = "slice " + std::to_string(worst_slice) + " spans " +
                        std::to_string(worst_span) +
                        " columns, more than 16-bit offsets reach (65,535 wide)";
        }
    }
}

const VariantRule rules[] = {
    {{"sell", "sell", false,
      "SELL-C-sigma; cuSPARSE SELL (CUSPARSE_SPMV_SELL_ALG1, sigma = 1), Ginkgo Sellp, MAGMA "
      "SELL-P, PETSc MATSELLCUDA"},
     shape<Kernel::sell>},
    {{"sell_split", "sell", false,
      "SELL-C-sigma, wide slices split over warps; nearest: MAGMA SELL-P with T > 1"},
     shape<Kernel::split>},
    {{"sell_xs", "sell", false, "SELL-C-sigma with x in shared memory; no library equivalent"},
     shape<Kernel::xs>},
    {{"sell_i16", "sell", false,
      "SELL-C-sigma with 16-bit column offsets; no library equivalent"},
     shape<Kernel::i16>},
};


// SELL-C-sigma's thread_work for the sweep: one thread per stored row, padding rows of the last
// slice included, each running its slice's width.
SweepWarps sweep_warps(SweepRows& rows, const FormatParams& p)
{
    const auto& sorted = rows.sorted(p.sort_window);
    const std::int64_t c = p.slice_height;
    WarpStream stream(p.warp_size);
    const auto n = static_cast<std::int64_t>(sorted.size());
    for (std::int64_t first = 0; first < n; first += c) {
        const auto last = std::min(n, first + c);
        const std::int64_t width = *std::max_element(sorted.begin() + first, sorted.begin() + last);
        for (std::int64_t k = first; k < first + c; ++k) {
            stream.add(width, k < n ? sorted[static_cast<std::size_t>(k)] : 0, width);
        }
    }
    SweepWarps r;
    r.slots_read = stream.slots_read();
    r.warps = stream.finish();
    return r;
}

}  // namespace
}  // namespace spmv::story

namespace spmv::detail {

FormatInfo sell_entry()
{
    return {.name = "sell",
            .title = "SELL-C-σ",
            .description = "slices of C rows padded to their longest row, rows sorted inside windows of sigma rows",
            .source = "Kreutzer et al. 2014 (beyond the seeds)",
            .params = {Param::slice_height, Param::sort_window},
            .permuted = true,
            SPMV_BUILDERS(to_sell_c_sigma(a, SellCSigmaOptions{p.slice_height, p.sort_window})),
            .resolve = story::resolve,
            .estimate = story::estimate,
            .construction_prepare = viz::detail::prepare_ellpack_compress,
            .construction_steps = story::steps,
            .model_variants = [] { return std::span<const model::VariantRule>(story::rules); },
            .sweep_params = {Param::sort_window, Param::slice_height},
            .sweep_warps = story::sweep_warps};
}

}  // namespace spmv::detail
