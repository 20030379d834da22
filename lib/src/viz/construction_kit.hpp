#pragma once
// The construction kit (lib-internal): what every format's construction steps are built from.
// A format's story file (lib/src/formats/<name>_story.cpp) describes each of its steps over its
// whole grid (GridSpec: how many rows and columns, which matrix row each grid row shows, how to
// fill the cells of one grid row from the layout's arrays), then materialize() reads only the
// cells in the window and add_array() cuts the storage arrays to the entries in view. The steps
// several formats share (the matrix, rows compressed left, ELLPACK-shaped layouts, the sort,
// jagged diagonals) live here; the engine is lib/src/viz/construction.cpp.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <spmv/any_matrix.hpp>
#include <spmv/error.hpp>
#include <spmv/registry.hpp>
#include <spmv/viz/construction_grid.hpp>

namespace spmv::viz {

/// The format built once for the whole matrix, plus what its steps need (see construction.hpp).
class ConstructionSource {
public:
    std::shared_ptr<const Csr<double, std::int32_t>> a;
    std::string format;
    FormatParams params;
    AnyMatrix<double> built;
    /// the layout a compress step shows (ELLPACK, ELLPACK-R), built by the format's
    /// construction_prepare under the memory limit; empty: not built (compress_note says why)
    std::optional<AnyMatrix<double>> compress;
    std::string compress_note;
    std::int32_t max_len = 0;  ///< longest row of `a`
};

namespace detail {

using CsrD = Csr<double, std::int32_t>;
using I = std::int32_t;

std::string num(std::int64_t v);
/// CSR index of entry (row, col); throws InvalidLayout if the built layout names an entry the
/// matrix does not have (that would be a format bug, and the picture would lie).
std::int64_t lookup(const CsrD& a, std::int32_t row, std::int32_t col);
std::int64_t row_length(const CsrD& a, std::int64_t row);
/// The cell of storage slot `slot` of a layout (col_idxs, values), in matrix row `row`
/// (-1 for a padding row).
Cell slot_cell(const CsrD& a, std::int32_t row, std::int64_t slot, const std::vector<I>& col_idxs,
               const std::vector<double>& values, std::uint8_t part = 0);
/// A nonzero cell read from the CSR itself (steps that store nothing, or CSR storage).
Cell csr_cell(const CsrD& a, std::int32_t row, std::int64_t k, bool stored);

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
    /// Optional: the first column of grid row k holding a nonzero (-1: none), where reading
    /// the row's cells to find it would be slow (the matrix step: bayer10's first entries sit
    /// in column 13,317). Without it a window that follows the entries reads the cells.
    std::function<std::int64_t(std::int64_t k)> first_col;
    std::vector<std::array<std::int64_t, 3>> big_marks;  ///< {first_row, last_row, col}
    std::vector<std::int64_t> row_boundaries;            ///< whole-grid rows with a line above
    std::int64_t stored = -1;
    std::int64_t padding = -1;
};

GridSpec grid_spec(std::string name, std::string title);
/// The step `g` seen through window `w`: only the window's cells are read (and, for a window
/// that follows the entries or a focused nonzero, the cells that place it: see
/// ConstructionWindow).
ConstructionStep materialize(const GridSpec& g, const ConstructionWindow& w);
/// Cells (k, j0..j1) of a row whose entries are a's row `src` compressed left (slot -1 unless
/// `stored`).
void compressed_row(const CsrD& a, std::int32_t src, std::int64_t j0, std::int64_t j1,
                    bool stored, Cell* out);

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
                     ArrayKey key = ArrayKey::slot, int divisor = 1, bool has_end = false);

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
                     const std::string& prefix = "");

template <typename T>
void add_aux(ConstructionStep& s, std::string name, std::string description, ArrayKey key,
             const std::vector<T>& v, int divisor = 1, bool has_end = false)
{
    auto spec = array_spec(std::move(name), std::move(description), ArrayRole::aux, key, divisor,
                   has_end);
    add_array(s, std::move(spec), v);
}

std::vector<std::int64_t> multiples(std::int64_t step, std::int64_t end);

template <typename T>
std::vector<std::int64_t> as_groups(const std::vector<T>& ptrs)
{
    return {ptrs.begin(), ptrs.end()};
}

std::string slots_text(std::int64_t stored, std::int64_t padding);

// ---------------------------------------------------------------- steps several formats share

/// "1. The sparse matrix": the CSR every construction starts from.
ConstructionStep matrix_step(const CsrD& a, const ConstructionWindow& w);
/// Rows compressed left without padding; stores nothing (or CSR's arrays for the CSR format).
ConstructionStep jagged_step(const CsrD& a, I max_len, const ConstructionWindow& w,
                             const Csr<double, I>* csr, const std::string& note);
/// "Sort rows by length": grid row k shows matrix row perm[k], jagged.
ConstructionStep sort_step(const CsrD& a, I width, std::span<const I> perm,
                           const std::string& how, int window, const ConstructionWindow& w,
                           const std::string& number = "3");

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

/// construction_prepare of the formats whose compress step shows ELLPACK (pJDS, SELL, PELLR,
/// HYB): ELLPACK is built when its footprint fits `max_bytes`, otherwise the note says why not.
void prepare_ellpack_compress(ConstructionSource& src, std::size_t max_bytes);
/// The same with ELLPACK-R (ELLG's compress step); always built (never larger than ELLG).
void prepare_ellr_compress(ConstructionSource& src, std::size_t max_bytes);
/// The compress step: the prepared layout when it was built, otherwise the jagged rows and why.
ConstructionStep compress_or_jagged(const ConstructionSource& src, const ConstructionWindow& w);

/// The built layout of `src` as format F (the registry guarantees it for the format's entry).
template <typename F>
const F& built_as(const ConstructionSource& src)
{
    const auto* f = std::get_if<F>(&src.built);
    SPMV_ENSURE_LAYOUT(f != nullptr, "construction of '" + src.format +
                                         "' was given a layout of another format");
    return *f;
}

}  // namespace detail
}  // namespace spmv::viz
