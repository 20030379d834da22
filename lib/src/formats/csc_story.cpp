// CSC's story (story.hpp): its registry entry, footprint and construction (columns compressed
// upward). No GPU kernel: CSC's SpMV is a scatter (Barbieri §2), shown on the host only.
#include "story.hpp"

namespace spmv::story {
namespace {

Footprint estimate(const RowLengthProfile& rows, const FormatParams&)
{
    return padded(rows.nnz, rows.nnz, rows.num_cols + 1);  // col_ptrs
}

ConstructionStep csc_step(const CsrD& a, const Csc<double, I>& o, const ConstructionWindow& w)
{
    std::int64_t longest = 0;
    for (std::size_t j = 0; j + 1 < o.col_ptrs.size(); ++j) {
        longest = std::max<std::int64_t>(longest, o.col_ptrs[j + 1] - o.col_ptrs[j]);
    }
    auto g = grid_spec("compress", "2. Compress every column upward (CSC)");
    g.row_axis = "entry";
    g.total_rows = longest;
    g.total_cols = a.num_cols;
    g.row_source = [](std::int64_t) { return -1; };
    g.row_cells = [&a, &o](std::int64_t e, std::int64_t j0, std::int64_t j1, I, Cell* out) {
        for (auto j = j0; j < j1; ++j) {
            const std::int64_t slot = std::int64_t{o.col_ptrs[static_cast<std::size_t>(j)]} + e;
            if (slot < o.col_ptrs[static_cast<std::size_t>(j) + 1]) {
                const auto row = o.row_idxs[static_cast<std::size_t>(slot)];
                Cell c;
                c.kind = CellKind::nonzero;
                c.row = row;
                c.col = static_cast<I>(j);
                c.nz = lookup(a, row, c.col);
                c.value = a.values[static_cast<std::size_t>(c.nz)];
                c.slot = slot;
                SPMV_ENSURE_LAYOUT(o.values[static_cast<std::size_t>(slot)] == c.value,
                                   "CSC slot " + num(slot) + " differs from the matrix");
                out[j - j0] = c;
            } else {
                out[j - j0] = Cell{};
            }
        }
    };
    g.stored = nnz(o);
    g.padding = 0;
    g.caption = "Column j's nonzeros moved to the top and stored one column after another: "
                "column j is values[col_ptrs[j] .. col_ptrs[j+1]), row_idxs names each entry's "
                "row. Grid row e is the e-th entry of every column. " +
                num(g.stored) + " slots, no padding.";
    auto s = materialize(g, w);
    add_aux(s, "col_ptrs", "column j occupies [col_ptrs[j], col_ptrs[j+1])",
            ArrayKey::matrix_column, o.col_ptrs, 1, true);
    std::vector<std::int64_t> groups = as_groups(o.col_ptrs);
    auto rows = array_spec("row_idxs", "row of every entry", ArrayRole::indices);
    rows.group_starts = groups;
    add_array(s, std::move(rows), o.row_idxs);
    auto vals = array_spec("values", "value of every entry, column by column", ArrayRole::values);
    vals.group_starts = groups;
    add_array(s, std::move(vals), o.values);
    return s;
}

void steps(const ConstructionSource& src, const ConstructionWindow& w, Construction& c)
{
    c.steps.push_back(csc_step(*src.a, built_as<Csc<double, I>>(src), w));
}

}  // namespace
}  // namespace spmv::story

namespace spmv::detail {

FormatInfo csc_entry()
{
    return {.name = "csc",
            .title = "CSC",
            .description = "compressed sparse columns: col_ptrs, row_idxs, values (scatter SpMV)",
            .source = "Barbieri §2",
            .params = {},
            .permuted = false,
            SPMV_BUILDERS(to_csc(a, CscOptions{})),
            .estimate = story::estimate,
            .construction_steps = story::steps};
}

}  // namespace spmv::detail
