#include <algorithm>
#include <cstdio>

#include <spmv/any_matrix.hpp>
#include <spmv/error.hpp>
#include <spmv/viz/construction.hpp>

namespace spmv::viz {
namespace {

using CsrD = Csr<double, std::int32_t>;

std::string num(std::int64_t v)
{
    return std::to_string(v);
}

/// CSR index of entry (row, col); throws InvalidLayout if the built layout names an entry the
/// matrix does not have (that would be a format bug, and the picture would lie).
std::int64_t lookup(const CsrD& a, std::int32_t row, std::int32_t col)
{
    SPMV_ENSURE_LAYOUT(row >= 0 && row < a.num_rows, "layout names row " + num(row));
    const auto first = a.col_idxs.begin() + a.row_ptrs[static_cast<std::size_t>(row)];
    const auto last = a.col_idxs.begin() + a.row_ptrs[static_cast<std::size_t>(row) + 1];
    const auto it = std::lower_bound(first, last, col);
    SPMV_ENSURE_LAYOUT(it != last && *it == col, "layout stores (" + num(row) + ", " + num(col) +
                                                     ") which is not an entry of the matrix");
    return it - a.col_idxs.begin();
}

template <typename T>
StorageArray make_array(std::string name, std::string description, ArrayRole role, ArrayKey key,
                        const std::vector<T>& v, int key_divisor = 1)
{
    StorageArray s;
    s.name = std::move(name);
    s.description = std::move(description);
    s.role = role;
    s.key = key;
    s.key_divisor = key_divisor;
    s.entries.assign(v.begin(), v.end());
    return s;
}

/// values + col_idxs of a padded layout, padding slots flagged, groups separated.
void add_slot_arrays(ConstructionStep& step, const std::vector<std::int32_t>& col_idxs,
                     const std::vector<double>& values, std::vector<std::int64_t> group_starts,
                     const std::string& layout)
{
    auto idx = make_array("col_idxs", "column of every slot (-1: padding), " + layout,
                          ArrayRole::indices, ArrayKey::slot, col_idxs);
    auto val = make_array("values", "value of every slot (0: padding), " + layout,
                          ArrayRole::values, ArrayKey::slot, values);
    idx.padding.resize(col_idxs.size());
    for (std::size_t s = 0; s < col_idxs.size(); ++s) {
        idx.padding[s] = col_idxs[s] == padding_index<std::int32_t> ? 1 : 0;
    }
    val.padding = idx.padding;
    std::erase_if(group_starts, [&](std::int64_t g) {
        return g <= 0 || g >= static_cast<std::int64_t>(values.size());
    });
    std::sort(group_starts.begin(), group_starts.end());
    group_starts.erase(std::unique(group_starts.begin(), group_starts.end()), group_starts.end());
    idx.group_starts = group_starts;
    val.group_starts = std::move(group_starts);
    step.arrays.push_back(std::move(val));
    step.arrays.push_back(std::move(idx));
}

ConstructionStep empty_grid(std::string name, std::string title, int rows, int cols)
{
    ConstructionStep s;
    s.name = std::move(name);
    s.title = std::move(title);
    s.rows = rows;
    s.cols = cols;
    s.cells.resize(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols));
    s.row_source.assign(static_cast<std::size_t>(rows), -1);
    return s;
}

Cell& cell(ConstructionStep& s, int r, int c)
{
    return s.cells[static_cast<std::size_t>(r) * static_cast<std::size_t>(s.cols) +
                   static_cast<std::size_t>(c)];
}

/// Fills grid cell (k, j) from storage slot `slot` of a layout whose grid row k holds matrix
/// row `row` (-1 for a padding row).
void fill_from_slot(ConstructionStep& step, const CsrD& a, int k, int j, std::int32_t row,
                    std::int64_t slot, const std::vector<std::int32_t>& col_idxs,
                    const std::vector<double>& values)
{
    Cell& c = cell(step, k, j);
    c.row = row;
    c.slot = slot;
    const auto col = col_idxs[static_cast<std::size_t>(slot)];
    if (col == padding_index<std::int32_t>) {
        c.kind = CellKind::padding;
        return;
    }
    SPMV_ENSURE_LAYOUT(row >= 0, "a padding row stores a real entry");
    c.kind = CellKind::nonzero;
    c.col = col;
    c.nz = lookup(a, row, col);
    SPMV_ENSURE_LAYOUT(
        values[static_cast<std::size_t>(slot)] == a.values[static_cast<std::size_t>(c.nz)],
        "slot " + num(slot) + " holds a value that differs from the matrix");
}

ConstructionStep matrix_step(const CsrD& a)
{
    auto s = empty_grid("matrix", "1. The sparse matrix", a.num_rows, a.num_cols);
    for (std::int32_t r = 0; r < a.num_rows; ++r) {
        s.row_source[static_cast<std::size_t>(r)] = r;
        for (auto k = a.row_ptrs[r]; k < a.row_ptrs[r + 1]; ++k) {
            Cell& c = cell(s, r, a.col_idxs[static_cast<std::size_t>(k)]);
            c = {CellKind::nonzero, r, a.col_idxs[static_cast<std::size_t>(k)], k, k};
        }
    }
    s.arrays.push_back(make_array("row_ptrs", "where every row starts in col_idxs / values",
                                  ArrayRole::aux, ArrayKey::matrix_row, a.row_ptrs));
    std::vector<std::int64_t> groups(a.row_ptrs.begin(), a.row_ptrs.end());
    add_slot_arrays(s, a.col_idxs, a.values, groups, "row by row (CSR)");
    s.stored = nnz(a);
    s.padding = 0;
    s.caption = num(a.num_rows) + " x " + num(a.num_cols) + " matrix with " + num(nnz(a)) +
                " nonzeros, stored as CSR (no padding).";
    return s;
}

/// ELLPACK-shaped layout (ELL, ELLPACK-R, PELLR): slot (grid row k, column j) = j*stride + k.
template <typename F>
void fill_column_major(ConstructionStep& s, const CsrD& a, const F& f,
                       std::span<const std::int32_t> perm)
{
    for (int k = 0; k < s.rows; ++k) {
        const std::int32_t row = perm.empty() ? k : perm[static_cast<std::size_t>(k)];
        s.row_source[static_cast<std::size_t>(k)] = row;
        for (int j = 0; j < s.cols; ++j) {
            fill_from_slot(s, a, k, j, row, std::int64_t{j} * f.stride + k, f.col_idxs, f.values);
        }
    }
}

std::vector<std::int64_t> multiples(std::int64_t step, std::int64_t end)
{
    std::vector<std::int64_t> v;
    for (std::int64_t g = step; step > 0 && g < end; g += step) v.push_back(g);
    return v;
}

template <typename F>
ConstructionStep compress_step(const CsrD& a, const F& e, const std::string& name_of_format)
{
    auto s = empty_grid("compress", "2. Compress every row to the left (" + name_of_format + ")",
                        a.num_rows, e.width);
    fill_column_major(s, a, e, {});
    add_slot_arrays(s, e.col_idxs, e.values, multiples(e.stride, std::ssize(e.values)),
                    "column-major: slot (i, j) = j*stride + i");
    if constexpr (requires { e.row_lengths; }) {
        s.arrays.push_back(make_array("row_lengths", "rowmax[]: entries of every row",
                                      ArrayRole::aux, ArrayKey::grid_row, e.row_lengths));
    }
    const auto f = footprint(e);
    s.stored = f.stored_entries;
    s.padding = f.padding_entries;
    s.caption = "Nonzeros shifted left into a " + num(a.num_rows) + " x " + num(e.width) +
                " rectangle (width = longest row), stored column by column: " + num(s.stored) +
                " slots, " + num(s.padding) + " of them padding.";
    return s;
}

ConstructionStep sort_step(const CsrD& a, int width, std::span<const std::int32_t> perm,
                           const std::string& how, int window)
{
    auto s = empty_grid("sort", "3. Sort rows by length (" + how + ")", a.num_rows, width);
    std::vector<std::int32_t> lengths(perm.size());
    for (int k = 0; k < s.rows; ++k) {
        const std::int32_t row = perm[static_cast<std::size_t>(k)];
        s.row_source[static_cast<std::size_t>(k)] = row;
        const auto begin = a.row_ptrs[static_cast<std::size_t>(row)];
        const auto len = a.row_ptrs[static_cast<std::size_t>(row) + 1] - begin;
        lengths[static_cast<std::size_t>(k)] = len;
        for (int j = 0; j < len && j < width; ++j) {
            const auto nz = begin + j;
            cell(s, k, j) = {CellKind::nonzero, row, a.col_idxs[static_cast<std::size_t>(nz)], nz,
                             -1};
        }
    }
    s.block_rows = window > 0 && window < a.num_rows ? window : 0;
    s.arrays.push_back(make_array("row_perm", "original row stored k-th", ArrayRole::aux,
                                  ArrayKey::grid_row,
                                  std::vector<std::int32_t>(perm.begin(), perm.end())));
    s.arrays.push_back(make_array("row_lengths", "length of every sorted row", ArrayRole::aux,
                                  ArrayKey::grid_row, lengths));
    s.caption = "Rows reordered longest first (" + how +
                "); row_perm[k] is the original row now in place k. Nothing is stored yet: "
                "the padding of step 2 is gone, the rows are jagged.";
    return s;
}

ConstructionStep pjds_step(const CsrD& a, const Pjds<double, std::int32_t>& p)
{
    const int width = static_cast<int>(p.col_start.size()) - 1;
    auto s = empty_grid(
        "pad", "4. Pad each block of b_r = " + num(p.block_rows) + " rows to its longest row",
        p.padded_rows, width);
    for (int k = 0; k < s.rows; ++k) {
        const std::int32_t row = k < p.num_rows ? p.row_perm[static_cast<std::size_t>(k)] : -1;
        s.row_source[static_cast<std::size_t>(k)] = row;
        for (int j = 0; j < width; ++j) {
            const std::int64_t slot = std::int64_t{p.col_start[static_cast<std::size_t>(j)]} + k;
            if (slot < p.col_start[static_cast<std::size_t>(j) + 1]) {
                fill_from_slot(s, a, k, j, row, slot, p.col_idxs, p.values);
            } else {
                cell(s, k, j).row = row;
            }
        }
    }
    s.block_rows = p.block_rows;
    add_slot_arrays(s, p.col_idxs, p.values,
                    std::vector<std::int64_t>(p.col_start.begin(), p.col_start.end()),
                    "column j from col_start[j]: slot (i, j) = col_start[j] + i");
    s.arrays.push_back(make_array("col_start", "start of every column (Listing 2)", ArrayRole::aux,
                                  ArrayKey::grid_column, p.col_start));
    s.arrays.push_back(make_array("row_lengths", "rowmax[]: entries of every sorted row",
                                  ArrayRole::aux, ArrayKey::grid_row, p.row_lengths));
    s.arrays.push_back(make_array("row_perm", "original row stored k-th", ArrayRole::aux,
                                  ArrayKey::grid_row, p.row_perm));
    const auto f = footprint(p);
    s.stored = f.stored_entries;
    s.padding = f.padding_entries;
    s.caption = "Every block of " + num(p.block_rows) +
                " consecutive sorted rows is padded only to its own longest row; column j is "
                "stored from col_start[j]. " +
                num(s.stored) + " slots, " + num(s.padding) + " of them padding.";
    return s;
}

ConstructionStep sell_step(const CsrD& a, const SellCSigma<double, std::int32_t>& p)
{
    const int c = p.slice_height;
    const int slices = static_cast<int>(p.slice_widths.size());
    const int width = p.slice_widths.empty()
                          ? 0
                          : *std::max_element(p.slice_widths.begin(), p.slice_widths.end());
    auto s = empty_grid("pad",
                        "4. Cut into slices of C = " + num(c) + " rows, pad each slice (SELL-" +
                            num(c) + "-" + num(p.sort_window) + ")",
                        slices * c, width);
    std::vector<std::int64_t> groups;
    for (int k = 0; k < s.rows; ++k) {
        const std::int32_t row = k < p.num_rows ? p.row_perm[static_cast<std::size_t>(k)] : -1;
        s.row_source[static_cast<std::size_t>(k)] = row;
        const int sl = k / c;
        for (int j = 0; j < width; ++j) {
            if (j < p.slice_widths[static_cast<std::size_t>(sl)]) {
                const std::int64_t slot = std::int64_t{p.slice_ptrs[static_cast<std::size_t>(sl)]} +
                                          std::int64_t{j} * c + k % c;
                fill_from_slot(s, a, k, j, row, slot, p.col_idxs, p.values);
            } else {
                cell(s, k, j).row = row;
            }
        }
    }
    for (int sl = 0; sl < slices; ++sl) {
        for (int j = 0; j < p.slice_widths[static_cast<std::size_t>(sl)]; ++j) {
            groups.push_back(std::int64_t{p.slice_ptrs[static_cast<std::size_t>(sl)]} +
                             std::int64_t{j} * c);
        }
    }
    s.block_rows = c;
    add_slot_arrays(s, p.col_idxs, p.values, groups,
                    "slice s, column j: slot = slice_ptrs[s] + j*C + r");
    s.arrays.push_back(make_array("slice_ptrs", "start of every slice", ArrayRole::aux,
                                  ArrayKey::block, p.slice_ptrs, c));
    s.arrays.push_back(make_array("slice_widths", "longest row of every slice", ArrayRole::aux,
                                  ArrayKey::block, p.slice_widths, c));
    s.arrays.push_back(make_array("row_perm", "original row stored k-th", ArrayRole::aux,
                                  ArrayKey::grid_row, p.row_perm));
    const auto f = footprint(p);
    s.stored = f.stored_entries;
    s.padding = f.padding_entries;
    s.caption = "The sorted rows are cut into " + num(slices) + " slices of C = " + num(c) +
                " rows; each slice is an ELLPACK block padded to its own longest row. " +
                num(s.stored) + " slots, " + num(s.padding) + " of them padding.";
    return s;
}

ConstructionStep pellr_step(const CsrD& a, const Pellr<double, std::int32_t>& p)
{
    auto s =
        empty_grid("pad", "4. Store the sorted rows as ELLPACK-R (PELLR)", p.num_rows, p.width);
    fill_column_major(s, a, p, p.row_perm);
    add_slot_arrays(s, p.col_idxs, p.values, multiples(p.stride, std::ssize(p.values)),
                    "column-major: slot (k, j) = j*stride + k");
    s.arrays.push_back(make_array("row_lengths", "rl[]: entries of every sorted row",
                                  ArrayRole::aux, ArrayKey::grid_row, p.row_lengths));
    s.arrays.push_back(make_array("row_perm", "perm[]: original row stored k-th", ArrayRole::aux,
                                  ArrayKey::grid_row, p.row_perm));
    const auto f = footprint(p);
    s.stored = f.stored_entries;
    s.padding = f.padding_entries;
    s.caption =
        "The sorted rows padded to the global width (as ELLPACK) plus rl[]: same "
        "storage as ELLPACK-R, but similar rows now share a warp. " +
        num(s.stored) + " slots, " + num(s.padding) + " of them padding.";
    return s;
}

bool registered(std::string_view name)
{
    for (const auto& f : formats()) {
        if (f.name == name) return true;
    }
    return false;
}

}  // namespace

std::optional<std::pair<int, int>> ConstructionStep::find_nonzero(std::int64_t nz) const
{
    if (nz < 0) return std::nullopt;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        if (cells[i].nz == nz) {
            return std::pair<int, int>{static_cast<int>(i / static_cast<std::size_t>(cols)),
                                       static_cast<int>(i % static_cast<std::size_t>(cols))};
        }
    }
    return std::nullopt;
}

std::vector<std::size_t> ConstructionStep::related_entries(const StorageArray& array, int r,
                                                           int c) const
{
    std::vector<std::size_t> out;
    if (r < 0 || c < 0 || r >= rows || c >= cols) return out;
    const Cell& x = at(r, c);
    const auto n = static_cast<std::int64_t>(array.entries.size());
    auto add = [&](std::int64_t i) {
        if (i >= 0 && i < n) out.push_back(static_cast<std::size_t>(i));
    };
    switch (array.key) {
        case ArrayKey::slot:
            add(x.slot);
            break;
        case ArrayKey::grid_row:
            add(r);
            break;
        case ArrayKey::matrix_row:
            if (x.row >= 0) {
                add(x.row);
                add(x.row + 1);
            }
            break;
        case ArrayKey::grid_column:
            if (x.slot >= 0) add(c);
            break;
        case ArrayKey::block:
            add(r / std::max(array.key_divisor, 1));
            break;
    }
    return out;
}

std::vector<std::string_view> construction_formats()
{
    std::vector<std::string_view> v;
    for (std::string_view n : {"pjds", "sell", "pellr", "ell", "ellr"}) {
        if (registered(n)) v.push_back(n);
    }
    return v;
}

Csr<double, std::int32_t> leading_submatrix(const Csr<double, std::int32_t>& a, std::int32_t rows,
                                            std::int32_t cols)
{
    CsrD b;
    b.num_rows = std::clamp(rows, 0, a.num_rows);
    b.num_cols = std::clamp(cols, 0, a.num_cols);
    b.row_ptrs.assign(1, 0);
    for (std::int32_t r = 0; r < b.num_rows; ++r) {
        for (auto k = a.row_ptrs[r]; k < a.row_ptrs[r + 1]; ++k) {
            if (a.col_idxs[static_cast<std::size_t>(k)] < b.num_cols) {
                b.col_idxs.push_back(a.col_idxs[static_cast<std::size_t>(k)]);
                b.values.push_back(a.values[static_cast<std::size_t>(k)]);
            }
        }
        b.row_ptrs.push_back(static_cast<std::int32_t>(b.col_idxs.size()));
    }
    return b;
}

Construction construction(const Csr<double, std::int32_t>& full, std::string_view format,
                          const FormatParams& params, int max_rows, int max_cols)
{
    const auto known = construction_formats();
    if (std::find(known.begin(), known.end(), format) == known.end()) {
        std::string names;
        for (auto n : known) names += (names.empty() ? "" : " ") + std::string(n);
        SPMV_THROW(InvalidArgument, "no construction steps for format '" + std::string(format) +
                                        "'; available: " + names);
    }
    Construction c;
    c.format = std::string(format);
    c.matrix_rows = full.num_rows;
    c.matrix_cols = full.num_cols;
    c.clipped = full.num_rows > max_rows || full.num_cols > max_cols;
    const CsrD a = c.clipped ? leading_submatrix(full, max_rows, max_cols) : full;
    const auto& info = find_format(format);
    c.title = std::string(info.title);

    c.steps.push_back(matrix_step(a));
    const auto built = build<double>(format, a, params);
    const auto ell = to_ell(a);
    if (const auto* e = std::get_if<EllR<double, std::int32_t>>(&built)) {
        c.steps.push_back(compress_step(a, *e, "ELLPACK-R"));
    } else {
        c.steps.push_back(compress_step(a, ell, "ELLPACK"));
    }
    if (const auto* pj = std::get_if<Pjds<double, std::int32_t>>(&built)) {
        c.title += " (b_r = " + num(pj->block_rows) + ")";
        c.steps.push_back(sort_step(a, ell.width, pj->row_perm, "globally", 0));
        c.steps.push_back(pjds_step(a, *pj));
    } else if (const auto* sl = std::get_if<SellCSigma<double, std::int32_t>>(&built)) {
        c.title = "SELL-" + num(sl->slice_height) + "-" + num(sl->sort_window);
        const std::string how = sl->sort_window <= 1
                                    ? "sigma = 1: no sorting"
                                    : "inside windows of sigma = " + num(sl->sort_window) + " rows";
        c.steps.push_back(sort_step(a, ell.width, sl->row_perm, how, sl->sort_window));
        c.steps.push_back(sell_step(a, *sl));
    } else if (const auto* pe = std::get_if<Pellr<double, std::int32_t>>(&built)) {
        c.steps.push_back(sort_step(a, ell.width, pe->row_perm, "globally", 0));
        c.steps.push_back(pellr_step(a, *pe));
    }
    if (c.clipped) {
        for (auto& s : c.steps) {
            s.caption += " (Leading " + num(a.num_rows) + " x " + num(a.num_cols) +
                         " block of the " + num(full.num_rows) + " x " + num(full.num_cols) +
                         " matrix.)";
        }
    }
    return c;
}

}  // namespace spmv::viz
