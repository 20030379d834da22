// COO's story (story.hpp): its registry entry, footprint, construction (triplets) and the model
// of its GPU kernel (a warp per 256 nonzeros, carry pass).
#include "story.hpp"

namespace spmv::story {
namespace {

Footprint estimate(const RowLengthProfile& rows, const FormatParams&)
{
    Footprint f;
    f.stored_entries = rows.nnz;
    f.value_bytes = static_cast<std::size_t>(rows.nnz) * value_size;
    f.index_bytes = static_cast<std::size_t>(2 * rows.nnz) * index_size;
    return f;
}

ConstructionStep coo_step(const CsrD& a, const Coo<double, I>& o, const ConstructionWindow& w)
{
    auto g = grid_spec("triplets", "2. One (row, column, value) triplet per nonzero, in row order");
    g.total_rows = a.num_rows;
    g.total_cols = a.num_cols;
    g.row_source = [](std::int64_t k) { return static_cast<I>(k); };
    g.row_cells = [&a, &o](std::int64_t k, std::int64_t j0, std::int64_t j1, I src, Cell* out) {
        // the triplets of row k: a range of the row-sorted row_idxs
        const auto lo = std::lower_bound(o.row_idxs.begin(), o.row_idxs.end(), static_cast<I>(k));
        const auto hi = std::upper_bound(lo, o.row_idxs.end(), static_cast<I>(k));
        for (auto t = lo - o.row_idxs.begin(); t < hi - o.row_idxs.begin(); ++t) {
            const auto col = o.col_idxs[static_cast<std::size_t>(t)];
            if (col >= j0 && col < j1) out[col - j0] = slot_cell(a, src, t, o.col_idxs, o.values);
        }
    };
    g.stored = nnz(o);
    g.padding = 0;
    g.caption = "COO keeps the nonzeros where they are and stores three arrays of " +
                num(nnz(o)) +
                " entries, sorted by row, then column; the kernel runs one thread per triplet "
                "and adds into y[row]. No padding, no row pointers.";
    auto s = materialize(g, w);
    std::vector<std::int64_t> groups;
    for (std::size_t t = 1; t < o.row_idxs.size(); ++t) {
        if (o.row_idxs[t] != o.row_idxs[t - 1]) groups.push_back(static_cast<std::int64_t>(t));
    }
    auto rows = array_spec("row_idxs", "row of every triplet (I[])", ArrayRole::indices);
    rows.group_starts = groups;
    add_array(s, std::move(rows), o.row_idxs);
    add_slot_arrays(s, o.col_idxs, o.values, groups, "triplet t");
    return s;
}

void steps(const ConstructionSource& src, const ConstructionWindow& w, Construction& c)
{
    c.steps.push_back(coo_step(*src.a, built_as<Coo<double, I>>(src), w));
}

void shape(ShapeContext& c, KernelShape& s)  // coo_spmv_kernel: a warp per 256 nonzeros + carry
{
    const auto [dp, sp] = c.chunk_pass(256);  // x: the warp's chunk (coo_chunk)
    set_x(s, dp, sp);
    s.extra_index_slots = static_cast<double>(c.nnz);
    s.row_info_bytes = 0;
    s.launches = 2;
    s.warp_trips = ceil_div(c.nnz, 256) * 8;
    // 8 steps of 32 and the segmented reduction; then the carry pass: the thread owning
    // a row's tail adds the heads of every following chunk of that row, one by one
    s.critical_trips = 8 + 5 + ceil_div(c.max_len, 256);
}

const VariantRule rules[] = {
    {{"coo", "coo", false, "COO; cuSPARSE COO_ALG1/ALG2, Ginkgo Coo, PETSc MATAIJCUSPARSE has none"},
     shape},
};

}  // namespace
}  // namespace spmv::story

namespace spmv::detail {

FormatInfo coo_entry()
{
    return {.name = "coo",
            .title = "COO",
            .description = "coordinate triplets row_idxs, col_idxs, values, sorted by (row, column)",
            .source = "Barbieri §2, PELLR §2.1",
            .params = {},
            .permuted = false,
            SPMV_BUILDERS(to_coo(a, CooOptions{})),
            .estimate = story::estimate,
            .construction_steps = story::steps,
            .model_variants = [] { return std::span<const model::VariantRule>(story::rules); }};
}

}  // namespace spmv::detail
