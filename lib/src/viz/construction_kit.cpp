// The construction kit's shared steps and helpers (construction_kit.hpp).
#include "construction_kit.hpp"

#include <algorithm>
#include <initializer_list>
#include <optional>

#include <spmv/analysis/estimate.hpp>
#include <spmv/analysis/summary.hpp>

namespace spmv::viz::detail {

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
               const std::vector<double>& values, std::uint8_t part)
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

GridSpec grid_spec(std::string name, std::string title)
{
    GridSpec g;
    g.name = std::move(name);
    g.title = std::move(title);
    return g;
}

namespace {
std::int64_t window_start(std::int64_t first, int size, std::int64_t total)
{
    if (first < 0) first = 0;
    if (first >= total) first = std::max<std::int64_t>(0, total - size);
    return first;
}

/// A window of `size` starting at `first`, moved back where needed to show `size` entries.
std::int64_t full_window_start(std::int64_t first, int size, std::int64_t total)
{
    return std::clamp<std::int64_t>(first, 0, std::max<std::int64_t>(0, total - size));
}

/// Reads cells of the whole grid (outside the window) to place a window: at most `budget`
/// cells for one step, so that a pathological grid (a wide COO step under thousands of empty
/// rows) costs a bounded time; past it the window stays where it is.
class GridReader {
public:
    explicit GridReader(const GridSpec& g) : g_(g) {}

    /// Cells (k, j0..j1) as materialize reads them.
    const std::vector<Cell>& cells(std::int64_t k, std::int64_t j0, std::int64_t j1)
    {
        const I src = g_.row_source ? g_.row_source(k) : -1;
        buf_.assign(static_cast<std::size_t>(j1 - j0), Cell{});
        for (auto& c : buf_) c.row = src;
        budget_ -= std::max<std::int64_t>(j1 - j0, 1);
        g_.row_cells(k, j0, j1, src, buf_.data());
        return buf_;
    }
    bool exhausted() const { return budget_ <= 0; }

    /// First column below `limit` of grid row k holding a nonzero; -1 if none.
    std::int64_t first_nonzero(std::int64_t k, std::int64_t limit)
    {
        if (g_.first_col) {
            --budget_;
            const auto c = g_.first_col(k);
            return c >= 0 && c < limit ? c : -1;
        }
        for (std::int64_t j0 = 0; j0 < limit && !exhausted(); j0 += chunk) {
            const auto& row = cells(k, j0, std::min(limit, j0 + chunk));
            for (std::size_t i = 0; i < row.size(); ++i) {
                if (row[i].kind == CellKind::nonzero) return j0 + static_cast<std::int64_t>(i);
            }
        }
        return -1;
    }

    /// Column of nonzero `nz` in grid row k (tried first at the guesses), -1 if not there.
    std::int64_t column_of(std::int64_t k, std::int64_t nz, std::initializer_list<std::int64_t> guesses)
    {
        for (auto j : guesses) {
            if (j >= 0 && j < g_.total_cols && cells(k, j, j + 1).front().nz == nz) return j;
        }
        for (std::int64_t j0 = 0; j0 < g_.total_cols && !exhausted(); j0 += chunk) {
            const auto& row = cells(k, j0, std::min(g_.total_cols, j0 + chunk));
            for (std::size_t i = 0; i < row.size(); ++i) {
                if (row[i].nz == nz) return j0 + static_cast<std::int64_t>(i);
            }
        }
        return -1;
    }

private:
    static constexpr std::int64_t chunk = 1024;
    const GridSpec& g_;
    std::vector<Cell> buf_;
    std::int64_t budget_ = std::int64_t{1} << 22;
};

/// Whole-grid (row, column) of the focused nonzero of `w` in `g`, if the step shows it.
std::optional<std::pair<std::int64_t, std::int64_t>> locate_focus(const GridSpec& g,
                                                                  const ConstructionWindow& w)
{
    if (w.focus < 0 || g.total_rows <= 0 || g.total_cols <= 0) return std::nullopt;
    GridReader reader(g);
    const std::int64_t fr = w.focus_row;
    if (fr >= 0 && g.row_source) {
        // the grid rows that show the focus's matrix row: itself first (unsorted steps)
        if (fr < g.total_rows && g.row_source(fr) == fr) {
            const auto j = reader.column_of(fr, w.focus, {w.focus_col, w.focus_pos});
            if (j >= 0) return std::pair{fr, j};
        }
        for (std::int64_t k = 0; k < g.total_rows && !reader.exhausted(); ++k) {
            if (k != fr && g.row_source(k) == fr) {
                const auto j = reader.column_of(k, w.focus, {w.focus_col, w.focus_pos});
                if (j >= 0) return std::pair{k, j};
            }
        }
    }
    // grids whose rows are not matrix rows (CSC: the e-th entry of every column): the
    // focus's column, read down
    if (w.focus_col >= 0 && w.focus_col < g.total_cols) {
        for (std::int64_t k = 0; k < g.total_rows && !reader.exhausted(); ++k) {
            if (reader.cells(k, w.focus_col, w.focus_col + 1).front().nz == w.focus) {
                return std::pair{k, std::int64_t{w.focus_col}};
            }
        }
    }
    return std::nullopt;
}

/// First grid row holding a nonzero (0 if none is found).
std::int64_t first_entry_row(const GridSpec& g)
{
    GridReader reader(g);
    for (std::int64_t k = 0; k < g.total_rows && !reader.exhausted(); ++k) {
        if (reader.first_nonzero(k, g.total_cols) >= 0) return k;
    }
    return 0;
}

/// First column holding a nonzero in grid rows [first, last) (0 if none is found).
std::int64_t first_entry_col(const GridSpec& g, std::int64_t first, std::int64_t last)
{
    GridReader reader(g);
    std::int64_t best = g.total_cols;  // only columns left of the best so far are read
    for (auto k = first; k < last && best > 0 && !reader.exhausted(); ++k) {
        const auto c = reader.first_nonzero(k, best);
        if (c >= 0) best = c;
    }
    return best < g.total_cols ? best : 0;
}

}  // namespace

ConstructionStep materialize(const GridSpec& g, const ConstructionWindow& w)
{
    ConstructionStep s;
    s.name = g.name;
    s.title = g.title;
    s.caption = g.caption;
    s.row_axis = g.row_axis;
    s.total_rows = g.total_rows;
    s.total_cols = g.total_cols;
    {
        // where the window goes: as asked, or following the entries, then onto the focus
        const int nrows = std::max(w.rows, 1);
        const int ncols = std::max(w.cols, 1);
        const bool any = g.total_rows > 0 && g.total_cols > 0;
        const auto focus = locate_focus(g, w);
        s.row_offset = w.follow_rows && any
                           ? full_window_start(first_entry_row(g), nrows, g.total_rows)
                           : window_start(w.first_row, nrows, g.total_rows);
        if (focus && (focus->first < s.row_offset || focus->first >= s.row_offset + nrows)) {
            s.row_offset = full_window_start(focus->first - nrows / 2, nrows, g.total_rows);
        }
        const auto shown_rows = std::min<std::int64_t>(nrows, g.total_rows - s.row_offset);
        s.col_offset =
            w.follow_cols && any
                ? full_window_start(first_entry_col(g, s.row_offset, s.row_offset + shown_rows),
                                    ncols, g.total_cols)
                : window_start(w.first_col, ncols, g.total_cols);
        if (focus && (focus->second < s.col_offset || focus->second >= s.col_offset + ncols)) {
            s.col_offset = full_window_start(focus->second - ncols / 2, ncols, g.total_cols);
        }
    }
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

ArraySpec array_spec(std::string name, std::string description, ArrayRole role,
                     ArrayKey key, int divisor, bool has_end)
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

/// values + col_idxs of a layout (padding flagged where col_idxs holds padding_index).
void add_slot_arrays(ConstructionStep& s, const std::vector<I>& col_idxs,
                     const std::vector<double>& values, std::vector<std::int64_t> groups,
                     const std::string& layout, std::uint8_t part,
                     const std::string& prefix)
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

std::vector<std::int64_t> multiples(std::int64_t step, std::int64_t end)
{
    std::vector<std::int64_t> v;
    for (std::int64_t g = step; step > 0 && g < end; g += step) v.push_back(g);
    return v;
}

std::string slots_text(std::int64_t stored, std::int64_t padding)
{
    return num(stored) + " slots, " + num(padding) + " of them padding.";
}

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
    g.first_col = [&a](std::int64_t k) -> std::int64_t {
        const auto b = a.row_ptrs[static_cast<std::size_t>(k)];
        return b < a.row_ptrs[static_cast<std::size_t>(k) + 1] ? a.col_idxs[static_cast<std::size_t>(b)]
                                                                : -1;
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

ConstructionStep sort_step(const CsrD& a, I width, std::span<const I> perm,
                           const std::string& how, int window, const ConstructionWindow& w,
                           const std::string& number)
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

void prepare_ellpack_compress(ConstructionSource& src, std::size_t max_bytes)
{
    const auto ell = analysis::estimate_footprint(*src.a, "ell", src.params).total_bytes();
    if (ell <= max_bytes) {
        src.compress = to_ell(*src.a);
    } else {
        src.compress_note = "(ELLPACK of this matrix would need " +
                            analysis::format_bytes(static_cast<double>(ell)) +
                            ": it is not built, the padding is not shown.)";
    }
}

void prepare_ellr_compress(ConstructionSource& src, std::size_t)
{
    src.compress = to_ellr(*src.a);
}

ConstructionStep compress_or_jagged(const ConstructionSource& src, const ConstructionWindow& w)
{
    if (src.compress) {
        if (const auto* e = std::get_if<Ell<double, I>>(&*src.compress)) {
            return compress_step(*src.a, *e, "ELLPACK", w);
        }
        if (const auto* r = std::get_if<EllR<double, I>>(&*src.compress)) {
            return compress_step(*src.a, *r, "ELLPACK-R", w);
        }
    }
    return jagged_step(*src.a, src.max_len, w, nullptr, src.compress_note);
}

}  // namespace spmv::viz::detail
