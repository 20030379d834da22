#include <spmv/viz/construction.hpp>

#include <algorithm>
#include <array>
#include <functional>

#include <spmv/analysis/estimate.hpp>
#include <spmv/analysis/summary.hpp>
#include <spmv/any_matrix.hpp>
#include <spmv/error.hpp>

#include "../formats/bisection_layout.hpp"

namespace spmv::viz {

using CsrD = Csr<double, std::int32_t>;
using I = std::int32_t;

class ConstructionSource {
public:
    std::shared_ptr<const CsrD> a;
    std::string format;
    FormatParams params;
    AnyMatrix<double> built;
    std::optional<Ell<double, I>> ell;    ///< compress step of pjds / sell / pellr / hyb
    std::optional<EllR<double, I>> ellr;  ///< compress step of ellg
    std::string ell_note;                 ///< why `ell` was not built
    I max_len = 0;
};

namespace {

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

std::int64_t row_length(const CsrD& a, std::int64_t row)
{
    return a.row_ptrs[static_cast<std::size_t>(row) + 1] - a.row_ptrs[static_cast<std::size_t>(row)];
}

/// The cell of storage slot `slot` of a layout (col_idxs, values), in matrix row `row`
/// (-1 for a padding row).
Cell slot_cell(const CsrD& a, std::int32_t row, std::int64_t slot, const std::vector<I>& col_idxs,
               const std::vector<double>& values, std::uint8_t part = 0)
{
    Cell c;
    c.row = row;
    c.slot = slot;
    c.part = part;
    const auto col = col_idxs[static_cast<std::size_t>(slot)];
    if (col == padding_index<I>) {
        c.kind = CellKind::padding;
        return c;
    }
    SPMV_ENSURE_LAYOUT(row >= 0, "a padding row stores a real entry");
    c.kind = CellKind::nonzero;
    c.col = col;
    c.nz = lookup(a, row, col);
    c.value = a.values[static_cast<std::size_t>(c.nz)];
    SPMV_ENSURE_LAYOUT(values[static_cast<std::size_t>(slot)] == c.value,
                       "slot " + num(slot) + " holds a value that differs from the matrix");
    return c;
}

/// A nonzero cell read from the CSR itself (steps that store nothing, or CSR storage).
Cell csr_cell(const CsrD& a, std::int32_t row, std::int64_t k, bool stored)
{
    Cell c;
    c.kind = CellKind::nonzero;
    c.row = row;
    c.col = a.col_idxs[static_cast<std::size_t>(k)];
    c.nz = k;
    c.value = a.values[static_cast<std::size_t>(k)];
    c.slot = stored ? k : -1;
    return c;
}

/// A step described over its whole grid; materialize() reads only the window's cells.
struct GridSpec {
    std::string name;
    std::string title;
    std::string caption;
    std::string row_axis;
    std::int64_t total_rows = 0;
    std::int64_t total_cols = 0;
    int block_rows = 0;
    std::function<std::int32_t(std::int64_t)> row_source;  ///< matrix row of grid row k
    /// fills window cells out[0 .. j1-j0) with the cells (k, j0..j1) of the whole grid
    /// (pre-filled as empty cells of row `src`)
    std::function<void(std::int64_t k, std::int64_t j0, std::int64_t j1, I src, Cell* out)>
        row_cells;
    std::vector<std::array<std::int64_t, 3>> big_marks;  ///< {first_row, last_row, col}
    std::vector<std::int64_t> row_boundaries;            ///< whole-grid rows with a line above
    std::int64_t stored = -1;
    std::int64_t padding = -1;
};

GridSpec grid_spec(std::string name, std::string title)
{
    GridSpec g;
    g.name = std::move(name);
    g.title = std::move(title);
    return g;
}

std::int64_t window_start(std::int64_t first, int size, std::int64_t total)
{
    if (first < 0) first = 0;
    if (first >= total) first = std::max<std::int64_t>(0, total - size);
    return first;
}

ConstructionStep materialize(const GridSpec& g, const ConstructionWindow& w)
{
    ConstructionStep s;
    s.name = g.name;
    s.title = g.title;
    s.caption = g.caption;
    s.row_axis = g.row_axis;
    s.total_rows = g.total_rows;
    s.total_cols = g.total_cols;
    s.row_offset = window_start(w.first_row, std::max(w.rows, 1), g.total_rows);
    s.col_offset = window_start(w.first_col, std::max(w.cols, 1), g.total_cols);
    s.rows = static_cast<int>(std::min<std::int64_t>(std::max(w.rows, 1), g.total_rows - s.row_offset));
    s.cols = static_cast<int>(std::min<std::int64_t>(std::max(w.cols, 1), g.total_cols - s.col_offset));
    s.rows = std::max(s.rows, 0);
    s.cols = std::max(s.cols, 0);
    s.block_rows = g.block_rows;
    s.row_boundaries = g.row_boundaries;
    s.stored = g.stored;
    s.padding = g.padding;
    s.cells.resize(static_cast<std::size_t>(s.rows) * static_cast<std::size_t>(s.cols));
    s.row_source.assign(static_cast<std::size_t>(s.rows), -1);
    for (int r = 0; r < s.rows; ++r) {
        const auto k = s.row_offset + r;
        const auto src = g.row_source ? g.row_source(k) : -1;
        s.row_source[static_cast<std::size_t>(r)] = src;
        Cell* out = s.cells.data() + static_cast<std::size_t>(r) * static_cast<std::size_t>(s.cols);
        for (int c = 0; c < s.cols; ++c) out[c].row = src;
        g.row_cells(k, s.col_offset, s.col_offset + s.cols, src, out);
    }
    for (const auto& m : g.big_marks) {
        const auto first = std::max(m[0], s.row_offset) - s.row_offset;
        const auto last = std::min(m[1], s.row_offset + s.rows) - s.row_offset;
        const auto col = m[2] - s.col_offset;
        if (first < last && col > 0 && col < s.cols) {
            s.column_marks.push_back(
                {static_cast<int>(first), static_cast<int>(last), static_cast<int>(col)});
        }
    }
    return s;
}

/// Cells (k, j0..j1) of a row whose entries are a's row `src` compressed left (slot -1 unless
/// `stored`), padding for entries in [len, pad_to).
void compressed_row(const CsrD& a, std::int32_t src, std::int64_t j0, std::int64_t j1,
                    bool stored, Cell* out)
{
    if (src < 0) return;
    const auto begin = a.row_ptrs[static_cast<std::size_t>(src)];
    const auto len = row_length(a, src);
    for (auto j = j0; j < std::min(j1, len); ++j) {
        out[j - j0] = csr_cell(a, src, begin + j, stored);
    }
}

struct ArraySpec {
    std::string name;
    std::string description;
    ArrayRole role = ArrayRole::aux;
    ArrayKey key = ArrayKey::slot;
    int key_divisor = 1;
    bool has_end = false;  ///< pointer array with one entry more than the things it delimits
    std::uint8_t part = 0;
    std::int64_t block_entries = 0;  ///< cell_group: entries per block of key_divisor rows
    const std::vector<I>* padding_ref = nullptr;  ///< slot arrays: padding where this is -1
    std::vector<std::int64_t> group_starts;       ///< full-array group starts
};

ArraySpec array_spec(std::string name, std::string description, ArrayRole role,
                     ArrayKey key = ArrayKey::slot, int divisor = 1, bool has_end = false)
{
    ArraySpec a;
    a.name = std::move(name);
    a.description = std::move(description);
    a.role = role;
    a.key = key;
    a.key_divisor = divisor;
    a.has_end = has_end;
    return a;
}

/// Adds `full` cut to the entries that belong to the window of `s`.
template <typename T>
void add_array(ConstructionStep& s, ArraySpec spec, const std::vector<T>& full)
{
    const auto n = static_cast<std::int64_t>(full.size());
    std::vector<std::int64_t> idx;
    auto range = [&](std::int64_t first, std::int64_t last) {  // [first, last]
        for (auto i = std::max<std::int64_t>(first, 0); i <= std::min(last, n - 1); ++i) {
            idx.push_back(i);
        }
    };
    switch (spec.key) {
        case ArrayKey::slot:
            for (const auto& c : s.cells) {
                if (c.slot >= 0 && c.part == spec.part && c.slot < n) idx.push_back(c.slot);
            }
            break;
        case ArrayKey::grid_row:
            range(s.row_offset, s.row_offset + s.rows - 1);
            break;
        case ArrayKey::matrix_row:
            for (auto r : s.row_source) {
                if (r >= 0) {
                    idx.push_back(r);
                    if (r + 1 < n) idx.push_back(r + 1);
                }
            }
            break;
        case ArrayKey::grid_column:
        case ArrayKey::matrix_column:
            range(s.col_offset, s.col_offset + s.cols - (spec.has_end ? 0 : 1));
            break;
        case ArrayKey::block: {
            const auto d = std::max(spec.key_divisor, 1);
            range(s.row_offset / d, (s.row_offset + std::max(s.rows, 1) - 1) / d +
                                        (spec.has_end ? 1 : 0));
            break;
        }
        case ArrayKey::cell_group: {
            if (spec.block_entries > 0) {  // every group of the blocks (warps) in view
                const auto d = std::max(spec.key_divisor, 1);
                const auto first = s.row_offset / d;
                const auto last = (s.row_offset + std::max(s.rows, 1) - 1) / d;
                range(first * spec.block_entries,
                      (last + 1) * spec.block_entries - (spec.has_end ? 0 : 1));
                break;
            }
            std::int64_t lo = -1, hi = -1;
            for (const auto& c : s.cells) {
                if (c.group < 0) continue;
                lo = lo < 0 ? c.group : std::min(lo, c.group);
                hi = std::max(hi, c.group);
            }
            if (lo >= 0) range(lo, hi + (spec.has_end ? 1 : 0));
            break;
        }
    }
    std::sort(idx.begin(), idx.end());
    idx.erase(std::unique(idx.begin(), idx.end()), idx.end());

    StorageArray a;
    a.name = std::move(spec.name);
    a.description = std::move(spec.description);
    a.role = spec.role;
    a.key = spec.key;
    a.key_divisor = spec.key_divisor;
    a.part = spec.part;
    a.total = n;
    a.entries.reserve(idx.size());
    for (auto i : idx) a.entries.push_back(static_cast<double>(full[static_cast<std::size_t>(i)]));
    if (spec.padding_ref) {
        for (auto i : idx) {
            a.padding.push_back((*spec.padding_ref)[static_cast<std::size_t>(i)] == padding_index<I>);
        }
    }
    std::sort(spec.group_starts.begin(), spec.group_starts.end());
    for (std::size_t p = 1; p < idx.size(); ++p) {
        const bool gap = idx[p] != idx[p - 1] + 1;
        const bool group = std::binary_search(spec.group_starts.begin(), spec.group_starts.end(),
                                              idx[p]);
        if (gap || group) a.group_starts.push_back(static_cast<std::int64_t>(p));
    }
    a.index = std::move(idx);
    s.arrays.push_back(std::move(a));
}

/// values + col_idxs of a layout (padding flagged where col_idxs holds padding_index).
void add_slot_arrays(ConstructionStep& s, const std::vector<I>& col_idxs,
                     const std::vector<double>& values, std::vector<std::int64_t> groups,
                     const std::string& layout, std::uint8_t part = 0,
                     const std::string& prefix = "")
{
    auto v = array_spec(prefix + "values", "value of every slot (0: padding), " + layout,
                ArrayRole::values);
    v.part = part;
    v.padding_ref = &col_idxs;
    v.group_starts = groups;
    auto c = array_spec(prefix + "col_idxs", "column of every slot (-1: padding), " + layout,
                ArrayRole::indices);
    c.part = part;
    c.padding_ref = &col_idxs;
    c.group_starts = std::move(groups);
    add_array(s, std::move(v), values);
    add_array(s, std::move(c), col_idxs);
}

template <typename T>
void add_aux(ConstructionStep& s, std::string name, std::string description, ArrayKey key,
             const std::vector<T>& v, int divisor = 1, bool has_end = false)
{
    auto spec = array_spec(std::move(name), std::move(description), ArrayRole::aux, key, divisor,
                   has_end);
    add_array(s, std::move(spec), v);
}

std::vector<std::int64_t> multiples(std::int64_t step, std::int64_t end)
{
    std::vector<std::int64_t> v;
    for (std::int64_t g = step; step > 0 && g < end; g += step) v.push_back(g);
    return v;
}

template <typename T>
std::vector<std::int64_t> as_groups(const std::vector<T>& ptrs)
{
    return {ptrs.begin(), ptrs.end()};
}

std::string slots_text(std::int64_t stored, std::int64_t padding)
{
    return num(stored) + " slots, " + num(padding) + " of them padding.";
}

// ---------------------------------------------------------------- the steps

ConstructionStep matrix_step(const CsrD& a, const ConstructionWindow& w)
{
    auto g = grid_spec("matrix", "1. The sparse matrix");
    g.total_rows = a.num_rows;
    g.total_cols = a.num_cols;
    g.row_source = [](std::int64_t k) { return static_cast<I>(k); };
    g.row_cells = [&a](std::int64_t k, std::int64_t j0, std::int64_t j1, I, Cell* out) {
        const auto first = a.col_idxs.begin() + a.row_ptrs[static_cast<std::size_t>(k)];
        const auto last = a.col_idxs.begin() + a.row_ptrs[static_cast<std::size_t>(k) + 1];
        for (auto it = std::lower_bound(first, last, static_cast<I>(j0)); it != last && *it < j1;
             ++it) {
            out[*it - j0] = csr_cell(a, static_cast<I>(k), it - a.col_idxs.begin(), true);
        }
    };
    g.stored = nnz(a);
    g.padding = 0;
    g.caption = num(a.num_rows) + " x " + num(a.num_cols) + " matrix with " + num(nnz(a)) +
                " nonzeros, stored as CSR (no padding).";
    auto s = materialize(g, w);
    add_aux(s, "row_ptrs", "where every row starts in col_idxs / values", ArrayKey::matrix_row,
            a.row_ptrs, 1, true);
    add_slot_arrays(s, a.col_idxs, a.values, as_groups(a.row_ptrs), "row by row (CSR)");
    return s;
}

/// Rows compressed left without padding; stores nothing (or CSR's arrays for the CSR format).
ConstructionStep jagged_step(const CsrD& a, I max_len, const ConstructionWindow& w,
                             const Csr<double, I>* csr, const std::string& note)
{
    auto g = grid_spec("compress", csr ? "2. Compress every row to the left (CSR)"
                               : "2. Compress every row to the left");
    g.total_rows = a.num_rows;
    g.total_cols = max_len;
    g.row_source = [](std::int64_t k) { return static_cast<I>(k); };
    const bool stored = csr != nullptr;
    g.row_cells = [&a, stored](std::int64_t, std::int64_t j0, std::int64_t j1, I src, Cell* out) {
        compressed_row(a, src, j0, j1, stored, out);
    };
    if (csr) {
        g.stored = nnz(*csr);
        g.padding = 0;
        g.caption = "Every row shifted left and stored one after another: row i is "
                    "values[row_ptrs[i] .. row_ptrs[i+1]). " +
                    num(g.stored) + " slots, no padding; row_ptrs has N + 1 = " +
                    num(a.num_rows + 1) + " entries.";
    } else {
        g.caption = "Nonzeros shifted left (longest row: " + num(max_len) +
                    "). Nothing is stored yet and nothing is padded." +
                    (note.empty() ? "" : " " + note);
    }
    auto s = materialize(g, w);
    if (csr) {
        add_aux(s, "row_ptrs", "row i occupies [row_ptrs[i], row_ptrs[i+1])", ArrayKey::matrix_row,
                csr->row_ptrs, 1, true);
        add_slot_arrays(s, csr->col_idxs, csr->values, as_groups(csr->row_ptrs),
                        "row by row: slot = row_ptrs[i] + j");
    }
    return s;
}

/// ELLPACK-shaped layout (ELL, ELLPACK-R, ELLG, PELLR): slot (grid row k, column j) =
/// j*stride + k; grid rows past num_rows (ELLG's pitch gap) are padding rows.
template <typename F>
GridSpec column_major_spec(const CsrD& a, const F& f, std::int64_t rows,
                           std::span<const I> perm)
{
    GridSpec g;
    g.total_rows = rows;
    g.total_cols = f.width;
    g.row_source = [&a, perm](std::int64_t k) -> I {
        if (k >= a.num_rows) return -1;
        return perm.empty() ? static_cast<I>(k) : perm[static_cast<std::size_t>(k)];
    };
    g.row_cells = [&a, &f](std::int64_t k, std::int64_t j0, std::int64_t j1, I src, Cell* out) {
        for (auto j = j0; j < j1; ++j) {
            out[j - j0] = slot_cell(a, src, j * f.stride + k, f.col_idxs, f.values);
        }
    };
    const auto fp = footprint(f);
    g.stored = fp.stored_entries;
    g.padding = fp.padding_entries;
    return g;
}

template <typename F>
ConstructionStep compress_step(const CsrD& a, const F& e, const std::string& name_of_format,
                               const ConstructionWindow& w)
{
    auto g = column_major_spec(a, e, a.num_rows, {});
    g.name = "compress";
    g.title = "2. Compress every row to the left (" + name_of_format + ")";
    g.caption = "Nonzeros shifted left into a " + num(a.num_rows) + " x " + num(e.width) +
                " rectangle (width = longest row), stored column by column: " +
                slots_text(g.stored, g.padding);
    auto s = materialize(g, w);
    add_slot_arrays(s, e.col_idxs, e.values, multiples(e.stride, std::ssize(e.values)),
                    "column-major: slot (i, j) = j*stride + i");
    if constexpr (requires { e.row_lengths; }) {
        add_aux(s, "row_lengths", "rowmax[]: entries of every row", ArrayKey::grid_row,
                e.row_lengths);
    }
    return s;
}

ConstructionStep sort_step(const CsrD& a, I width, std::span<const I> perm,
                           const std::string& how, int window, const ConstructionWindow& w,
                           const std::string& number = "3")
{
    auto g = grid_spec("sort", number + ". Sort rows by length (" + how + ")");
    g.total_rows = a.num_rows;
    g.total_cols = width;
    g.row_source = [perm](std::int64_t k) { return perm[static_cast<std::size_t>(k)]; };
    g.row_cells = [&a](std::int64_t, std::int64_t j0, std::int64_t j1, I src, Cell* out) {
        compressed_row(a, src, j0, j1, false, out);
    };
    g.block_rows = window > 0 && window < a.num_rows ? window : 0;
    g.caption = "Rows reordered longest first (" + how +
                "); row_perm[k] is the original row now in place k. Nothing is stored yet: "
                "the rows are jagged.";
    auto s = materialize(g, w);
    add_aux(s, "row_perm", "original row stored k-th", ArrayKey::grid_row,
            std::vector<I>(perm.begin(), perm.end()));
    return s;
}

ConstructionStep pjds_step(const CsrD& a, const Pjds<double, I>& p, const ConstructionWindow& w)
{
    auto g = grid_spec("pad", "4. Pad each block of b_r = " + num(p.block_rows) +
                          " rows to its longest row");
    g.total_rows = p.padded_rows;
    g.total_cols = static_cast<std::int64_t>(p.col_start.size()) - 1;
    g.row_source = [&p](std::int64_t k) -> I {
        return k < p.num_rows ? p.row_perm[static_cast<std::size_t>(k)] : -1;
    };
    g.row_cells = [&a, &p](std::int64_t k, std::int64_t j0, std::int64_t j1, I src, Cell* out) {
        for (auto j = j0; j < j1; ++j) {
            const std::int64_t slot = std::int64_t{p.col_start[static_cast<std::size_t>(j)]} + k;
            if (slot < p.col_start[static_cast<std::size_t>(j) + 1]) {
                out[j - j0] = slot_cell(a, src, slot, p.col_idxs, p.values);
            }
        }
    };
    g.block_rows = p.block_rows;
    const auto f = footprint(p);
    g.stored = f.stored_entries;
    g.padding = f.padding_entries;
    g.caption = "Every block of " + num(p.block_rows) +
                " consecutive sorted rows is padded only to its own longest row; column j is "
                "stored from col_start[j]. " +
                slots_text(g.stored, g.padding);
    auto s = materialize(g, w);
    add_slot_arrays(s, p.col_idxs, p.values, as_groups(p.col_start),
                    "column j from col_start[j]: slot (i, j) = col_start[j] + i");
    add_aux(s, "col_start", "start of every column (Listing 2)", ArrayKey::grid_column,
            p.col_start, 1, true);
    add_aux(s, "row_lengths", "rowmax[]: entries of every sorted row", ArrayKey::grid_row,
            p.row_lengths);
    add_aux(s, "row_perm", "original row stored k-th", ArrayKey::grid_row, p.row_perm);
    return s;
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

ConstructionStep pellr_step(const CsrD& a, const Pellr<double, I>& p, const ConstructionWindow& w)
{
    auto g = column_major_spec(a, p, p.num_rows, p.row_perm);
    g.name = "pad";
    g.title = "4. Store the sorted rows as ELLPACK-R (PELLR)";
    g.caption =
        "The sorted rows padded to the global width (as ELLPACK) plus rl[]: same "
        "storage as ELLPACK-R, but similar rows now share a warp. " +
        slots_text(g.stored, g.padding);
    auto s = materialize(g, w);
    add_slot_arrays(s, p.col_idxs, p.values, multiples(p.stride, std::ssize(p.values)),
                    "column-major: slot (k, j) = j*stride + k");
    add_aux(s, "row_lengths", "rl[]: entries of every sorted row", ArrayKey::grid_row,
            p.row_lengths);
    add_aux(s, "row_perm", "perm[]: original row stored k-th", ArrayKey::grid_row, p.row_perm);
    return s;
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

/// JDS and JDS CSR-like: grid row k = sorted row k, column d = diagonal d at jd_ptrs[d] + k.
template <typename F>
ConstructionStep diagonal_step(const CsrD& a, const F& f, const std::string& title,
                               const ConstructionWindow& w)
{
    const auto diags = static_cast<std::int64_t>(f.jd_ptrs.size()) - 1;
    const std::int64_t first_height = diags > 0 ? f.jd_ptrs[1] - f.jd_ptrs[0] : 0;
    auto g = grid_spec("diagonals", title);
    g.total_rows = std::max<std::int64_t>(a.num_rows, first_height);
    g.total_cols = diags;
    g.row_source = [&f](std::int64_t k) -> I {
        return k < f.num_rows ? f.row_perm[static_cast<std::size_t>(k)] : -1;
    };
    g.row_cells = [&a, &f](std::int64_t k, std::int64_t j0, std::int64_t j1, I src, Cell* out) {
        for (auto d = j0; d < j1; ++d) {
            const std::int64_t slot = std::int64_t{f.jd_ptrs[static_cast<std::size_t>(d)]} + k;
            if (slot < f.jd_ptrs[static_cast<std::size_t>(d) + 1]) {
                out[d - j0] = slot_cell(a, src, slot, f.col_idxs, f.values);
            }
        }
    };
    const auto fp = footprint(f);
    g.stored = fp.stored_entries;
    g.padding = fp.padding_entries;
    return materialize(g, w);
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

/// BiELL / BiJAD: grid row k = stored row k (virtual rows of the last warp included), column e =
/// the row's e-th slot in entry order: group g, slot group_ptrs[w*G + g] + p + e'*h_g.
template <typename F>
ConstructionStep bisection_step(const CsrD& a, const F& f, const std::string& title,
                                const ConstructionWindow& w)
{
    const std::int64_t ws = f.warp_size;
    const auto heights = detail::bisection::group_heights(ws);
    const auto groups = static_cast<std::int64_t>(heights.size());
    const auto warps = detail::bisection::num_warps(f.num_rows, ws);
    // slots of a row active in groups 0..g: cap[w][g] (per warp)
    std::vector<std::int64_t> caps(static_cast<std::size_t>(warps * groups));
    std::int64_t widest = 0;
    auto g = grid_spec("groups", title);
    for (std::int64_t wp = 0; wp < warps; ++wp) {
        std::int64_t cap = 0;
        for (std::int64_t gr = 0; gr < groups; ++gr) {
            const auto i = static_cast<std::size_t>(wp * groups + gr);
            cap += (f.group_ptrs[i + 1] - f.group_ptrs[i]) / heights[static_cast<std::size_t>(gr)];
            caps[i] = cap;
            // rows p < h_{g+1} continue into group g+1: a line after their group-g slots
            if (gr + 1 < groups && cap > 0) {
                g.big_marks.push_back(
                    {wp * ws, wp * ws + heights[static_cast<std::size_t>(gr) + 1], cap});
            }
        }
        widest = std::max(widest, cap);  // row p = 0 is active in every group
    }
    g.total_rows = warps * ws;
    g.total_cols = widest;
    g.block_rows = static_cast<int>(ws);
    g.row_source = [&f](std::int64_t k) -> I {
        return k < f.num_rows ? f.row_perm[static_cast<std::size_t>(k)] : -1;
    };
    g.row_cells = [&a, &f, heights, groups, ws](std::int64_t k, std::int64_t j0, std::int64_t j1,
                                                I src, Cell* out) {
        const auto wp = k / ws;
        const auto p = k % ws;
        std::int64_t e = 0;  // slot number along the row
        for (std::int64_t gr = 0; gr < groups && p < heights[static_cast<std::size_t>(gr)];
             ++gr) {
            const auto h = heights[static_cast<std::size_t>(gr)];
            const auto i = static_cast<std::size_t>(wp * groups + gr);
            for (std::int64_t slot = f.group_ptrs[i] + p; slot < f.group_ptrs[i + 1];
                 slot += h, ++e) {
                if (e < j0) continue;
                if (e >= j1) return;
                Cell c = slot_cell(a, src, slot, f.col_idxs, f.values);
                c.group = static_cast<std::int64_t>(i);
                out[e - j0] = c;
            }
        }
    };
    const auto fp = footprint(f);
    g.stored = fp.stored_entries;
    g.padding = fp.padding_entries;
    g.caption = "Each warp of W = " + num(ws) + " sorted rows is split by bisection into " +
                num(groups) +
                " groups: group g keeps the warp's h_g = W/2^g longest rows and gives each "
                "W/h_g lanes, all lanes running width_g iterations; a row's slots in group g "
                "are group_ptrs[w*G+g] + p + e*h_g (lines mark the group boundaries). " +
                slots_text(g.stored, g.padding);
    auto s = materialize(g, w);
    add_slot_arrays(s, f.col_idxs, f.values, as_groups(f.group_ptrs),
                    "group by group, lanes column-major: slot = group_ptrs[w*G+g] + j*W + t");
    auto ptrs = array_spec("group_ptrs", "I[]: start of every group of every warp",
                           ArrayRole::aux, ArrayKey::cell_group, static_cast<int>(ws), true);
    ptrs.block_entries = groups;
    add_array(s, std::move(ptrs), f.group_ptrs);
    add_aux(s, "row_perm", "perm[]: original row stored k-th", ArrayKey::grid_row, f.row_perm);
    return s;
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

bool registered(std::string_view name)
{
    for (const auto& f : formats()) {
        if (f.name == name) return true;
    }
    return false;
}

constexpr std::string_view known_formats[] = {"coo",  "csr",   "csc",   "ell",  "ellr",
                                              "ellg", "jds",   "jds_csr", "pjds", "pellr",
                                              "biell", "bijad", "hyb",  "sell"};

/// The compress step: ELLPACK when it was built, otherwise the jagged rows and why.
ConstructionStep ell_or_jagged(const ConstructionSource& src, const ConstructionWindow& w)
{
    if (src.ell) return compress_step(*src.a, *src.ell, "ELLPACK", w);
    return jagged_step(*src.a, src.max_len, w, nullptr, src.ell_note);
}

}  // namespace

std::optional<std::size_t> StorageArray::position(std::int64_t i) const
{
    const auto it = std::lower_bound(index.begin(), index.end(), i);
    if (it == index.end() || *it != i) return std::nullopt;
    return static_cast<std::size_t>(it - index.begin());
}

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
    auto add = [&](std::int64_t i) {
        if (i < 0) return;
        if (const auto p = array.position(i)) out.push_back(*p);
    };
    switch (array.key) {
        case ArrayKey::slot:
            if (x.part == array.part) add(x.slot);
            break;
        case ArrayKey::grid_row:
            add(row_offset + r);
            break;
        case ArrayKey::matrix_row:
            if (x.row >= 0) {
                add(x.row);
                add(x.row + 1);
            }
            break;
        case ArrayKey::grid_column:
            if (x.slot >= 0) add(col_offset + c);
            break;
        case ArrayKey::block:
            add((row_offset + r) / std::max(array.key_divisor, 1));
            break;
        case ArrayKey::matrix_column:
            if (x.col >= 0) {
                add(x.col);
                add(x.col + 1);
            }
            break;
        case ArrayKey::cell_group:
            add(x.group);
            break;
    }
    return out;
}

std::vector<int> ConstructionStep::boundary_rows() const
{
    std::vector<int> v;
    for (int r = 1; r < rows; ++r) {
        const auto k = row_offset + r;
        if ((block_rows > 0 && k % block_rows == 0) ||
            std::find(row_boundaries.begin(), row_boundaries.end(), k) != row_boundaries.end()) {
            v.push_back(r);
        }
    }
    return v;
}

std::string ConstructionStep::window_label() const
{
    auto span = [](std::int64_t first, int n, std::int64_t total, const std::string& what) {
        if (n <= 0) return "no " + what;
        return what + " " + num(first) + "\u2013" + num(first + n - 1) + " of " + num(total);
    };
    // sorted steps show grid positions whose labels are the original rows: say so, so that
    // "positions 1000-1063" next to labels "row 999833" is not read as a contradiction
    bool sorted = false;
    for (std::size_t k = 0; k < row_source.size() && !sorted; ++k) {
        sorted = row_source[k] >= 0 && row_source[k] != row_offset + static_cast<std::int64_t>(k);
    }
    const std::string what = !row_axis.empty() ? row_axis + " rows"
                             : sorted          ? "sorted positions"
                                               : "rows";
    return span(row_offset, rows, total_rows, what) + ", " +
           span(col_offset, cols, total_cols, "columns");
}

std::vector<std::string_view> construction_formats()
{
    std::vector<std::string_view> v;
    for (std::string_view n : known_formats) {
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

std::shared_ptr<const ConstructionSource> prepare_construction(
    std::shared_ptr<const Csr<double, std::int32_t>> a, std::string_view format,
    const FormatParams& params, std::size_t max_bytes)
{
    SPMV_EXPECTS(a != nullptr, "prepare_construction: no matrix");
    const auto known = construction_formats();
    if (std::find(known.begin(), known.end(), format) == known.end()) {
        std::string names;
        for (auto n : known) names += (names.empty() ? "" : " ") + std::string(n);
        SPMV_THROW(InvalidArgument, "no construction steps for format '" + std::string(format) +
                                        "'; available: " + names);
    }
    const auto& info = find_format(format);
    const auto need = analysis::estimate_footprint(*a, format, params).total_bytes();
    if (need > max_bytes) {
        SPMV_THROW(InvalidArgument,
                   std::string(info.title) + " of this matrix would need " +
                       analysis::format_bytes(static_cast<double>(need)) + " (limit " +
                       analysis::format_bytes(static_cast<double>(max_bytes)) +
                       "): not built. Pick a format with less padding.");
    }
    auto src = std::make_shared<ConstructionSource>();
    src->a = std::move(a);
    src->format = std::string(format);
    src->params = params;
    const auto len = row_lengths(*src->a);
    src->max_len = len.empty() ? 0 : *std::max_element(len.begin(), len.end());
    src->built = build<double>(format, *src->a, params);
    if (format == "pjds" || format == "sell" || format == "pellr" || format == "hyb") {
        const auto ell = analysis::estimate_footprint(*src->a, "ell", params).total_bytes();
        if (ell <= max_bytes) {
            src->ell = to_ell(*src->a);
        } else {
            src->ell_note = "(ELLPACK of this matrix would need " +
                            analysis::format_bytes(static_cast<double>(ell)) +
                            ": it is not built, the padding is not shown.)";
        }
    }
    if (format == "ellg") src->ellr = to_ellr(*src->a);
    return src;
}

ThreadWork construction_thread_work(const ConstructionSource& source)
{
    return thread_work(source.built);
}

Construction construction(const ConstructionSource& src, const ConstructionWindow& w)
{
    const CsrD& a = *src.a;
    Construction c;
    c.format = src.format;
    c.matrix_rows = a.num_rows;
    c.matrix_cols = a.num_cols;
    c.window = w;
    c.title = std::string(find_format(src.format).title);
    c.steps.push_back(matrix_step(a, w));
    const auto& m = src.built;
    if (const auto* e = std::get_if<Ell<double, I>>(&m)) {
        c.steps.push_back(compress_step(a, *e, "ELLPACK", w));
    } else if (const auto* r = std::get_if<EllR<double, I>>(&m)) {
        c.steps.push_back(compress_step(a, *r, "ELLPACK-R", w));
    } else if (const auto* gl = std::get_if<EllG<double, I>>(&m)) {
        c.title += " (pitch " + num(gl->pitch_bytes) + " B)";
        c.steps.push_back(compress_step(a, *src.ellr, "ELLPACK-R", w));
        c.steps.push_back(ellg_step(a, *gl, w));
    } else if (const auto* pj = std::get_if<Pjds<double, I>>(&m)) {
        c.title += " (b_r = " + num(pj->block_rows) + ")";
        c.steps.push_back(ell_or_jagged(src, w));
        c.steps.push_back(sort_step(a, src.max_len, pj->row_perm, "globally", 0, w));
        c.steps.push_back(pjds_step(a, *pj, w));
    } else if (const auto* sl = std::get_if<SellCSigma<double, I>>(&m)) {
        c.title = "SELL-" + num(sl->slice_height) + "-" + num(sl->sort_window);
        const std::string how = sl->sort_window <= 1
                                    ? "sigma = 1: no sorting"
                                    : "inside windows of sigma = " + num(sl->sort_window) + " rows";
        c.steps.push_back(ell_or_jagged(src, w));
        c.steps.push_back(sort_step(a, src.max_len, sl->row_perm, how, sl->sort_window, w));
        c.steps.push_back(sell_step(a, *sl, w));
    } else if (const auto* pe = std::get_if<Pellr<double, I>>(&m)) {
        c.steps.push_back(ell_or_jagged(src, w));
        c.steps.push_back(sort_step(a, src.max_len, pe->row_perm, "globally", 0, w));
        c.steps.push_back(pellr_step(a, *pe, w));
    } else if (const auto* co = std::get_if<Coo<double, I>>(&m)) {
        c.steps.push_back(coo_step(a, *co, w));
    } else if (const auto* cr = std::get_if<Csr<double, I>>(&m)) {
        c.steps.push_back(jagged_step(a, src.max_len, w, cr, ""));
    } else if (const auto* cc = std::get_if<Csc<double, I>>(&m)) {
        c.steps.push_back(csc_step(a, *cc, w));
    } else if (const auto* jd = std::get_if<Jds<double, I>>(&m)) {
        c.steps.push_back(jagged_step(a, src.max_len, w, nullptr, ""));
        c.steps.push_back(sort_step(a, src.max_len, jd->row_perm, "globally", 0, w));
        c.steps.push_back(jds_step(a, *jd, w));
    } else if (const auto* jc = std::get_if<JdsCsr<double, I>>(&m)) {
        c.title += " (diag_pad = " + num(jc->diag_pad) + ")";
        c.steps.push_back(jagged_step(a, src.max_len, w, nullptr, ""));
        c.steps.push_back(sort_step(a, src.max_len, jc->row_perm, "globally", 0, w));
        c.steps.push_back(jds_csr_step(a, *jc, w));
    } else if (const auto* be = std::get_if<BiEll<double, I>>(&m)) {
        c.title += " (W = " + num(be->warp_size) + ")";
        c.steps.push_back(jagged_step(a, src.max_len, w, nullptr, ""));
        c.steps.push_back(sort_step(a, src.max_len, be->row_perm,
                                    "inside each warp of W = " + num(be->warp_size) + " rows",
                                    be->warp_size, w));
        c.steps.push_back(bisection_step(a, *be, "4. Bisect every warp into groups (BiELL)", w));
    } else if (const auto* bj = std::get_if<BiJad<double, I>>(&m)) {
        c.title += " (W = " + num(bj->warp_size) + ")";
        c.steps.push_back(jagged_step(a, src.max_len, w, nullptr, ""));
        c.steps.push_back(sort_step(a, src.max_len, bj->row_perm, "globally", 0, w));
        auto s = bisection_step(a, *bj, "4. Cut into warps, bisect every warp (BiJAD)", w);
        c.steps.push_back(std::move(s));
    } else if (const auto* hy = std::get_if<Hyb<double, I>>(&m)) {
        c.title += " (K = " + num(hy->ell_width) + ")";
        c.steps.push_back(ell_or_jagged(src, w));
        c.steps.push_back(hyb_step(a, *hy, src.max_len, w));
    }
    for (const auto& s : c.steps) {
        c.windowed = c.windowed || s.windowed();
        c.max_total_rows = std::max(c.max_total_rows, s.total_rows);
        c.max_total_cols = std::max(c.max_total_cols, s.total_cols);
    }
    return c;
}

Construction construction(const Csr<double, std::int32_t>& a, std::string_view format,
                          const FormatParams& params, const ConstructionWindow& window,
                          std::size_t max_bytes)
{
    // a non-owning pointer: `a` outlives this call
    const auto src = prepare_construction(std::shared_ptr<const CsrD>(std::shared_ptr<const CsrD>{}, &a),
                                          format, params, max_bytes);
    return construction(*src, window);
}

}  // namespace spmv::viz
