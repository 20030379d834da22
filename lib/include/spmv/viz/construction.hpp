#pragma once
/// The construction of a padded format step by step, as in Kreutzer Fig. 1:
///   matrix (cells of A) -> compress left (ELLPACK) -> sort by length -> pad per block of b_r
///   (pJDS) or per slice of C rows after sorting inside windows of sigma rows (SELL-C-sigma).
/// Every step is a grid of cells plus the storage arrays of that step. Nothing is
/// re-implemented here: the ELLPACK, pJDS, SELL-C-sigma, ELLPACK-R and PELLR layouts are built
/// by the registry (spmv::build) and the cells are READ from their arrays at the address the
/// kernels use (ELL: j*stride + i, pJDS: col_start[j] + i, SELL: slice_ptrs[s] + j*C + r).
/// A real slot's nonzero is looked up in the CSR (row, column) -> k, and its value checked.
///
/// Canonical 4x4 A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9] as pJDS with b_r = 2:
///   matrix   4 x 4 cells, 9 nonzero; arrays row_ptrs, col_idxs, values
///   compress 4 x 3 (ELLPACK width 3): row 1 = [4 P P], row 3 = [8 9 P]   (P = padding)
///   sort     4 x 3, grid rows show rows 0 2 3 1 (row_perm), jagged: row 1 = [4 . .]
///   pad      4 x 3, blocks {0,2} | {3,1}: grid row 3 (matrix row 1) = [4 P .], 1 padding cell;
///            arrays values, col_idxs (10 slots), col_start [0 4 8 10], row_lengths, row_perm
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/registry.hpp>

namespace spmv::viz {

enum class CellKind : std::uint8_t { empty, nonzero, padding };

/// One cell of a step's grid.
struct Cell {
    CellKind kind = CellKind::empty;
    std::int32_t row = -1;   ///< matrix row the cell belongs to (-1: a padding row)
    std::int32_t col = -1;   ///< matrix column (nonzero cells only)
    std::int64_t nz = -1;    ///< index of the nonzero in the CSR arrays (nonzero cells only)
    std::int64_t slot = -1;  ///< index into this step's values / col_idxs (-1: not stored)
};

enum class ArrayRole : std::uint8_t { values, indices, aux };

/// What an array entry is indexed by, so that a selected cell can find its entries.
enum class ArrayKey : std::uint8_t {
    slot,         ///< entry s is storage slot s (values, col_idxs)
    grid_row,     ///< entry k belongs to grid row k (row_perm, row_lengths)
    matrix_row,   ///< entries r and r + 1 delimit matrix row r (CSR row_ptrs)
    grid_column,  ///< entry j belongs to grid column j (col_start)
    block,        ///< entry b belongs to grid rows [b * key_divisor, (b + 1) * key_divisor)
};

/// One array of a step's storage, as the format stores it (indices printed as numbers).
struct StorageArray {
    std::string name;         ///< the struct member, e.g. "col_start"
    std::string description;  ///< one line, e.g. "offset of every column (Listing 2)"
    ArrayRole role = ArrayRole::aux;
    ArrayKey key = ArrayKey::slot;
    int key_divisor = 1;
    std::vector<double> entries;
    std::vector<std::uint8_t> padding;       ///< 1 for a padding slot (slot arrays only)
    std::vector<std::int64_t> group_starts;  ///< entry indices > 0 where a new group begins
};

/// One picture of the sequence.
struct ConstructionStep {
    std::string name;     ///< "matrix", "compress", "sort", "pad"
    std::string title;    ///< e.g. "3. Sort rows by length"
    std::string caption;  ///< what happened in this step, with the numbers
    int rows = 0;
    int cols = 0;
    std::vector<Cell> cells;               ///< rows x cols, row-major
    std::vector<std::int32_t> row_source;  ///< matrix row shown in each grid row (-1: padding row)
    int block_rows = 0;  ///< > 0: a block / slice / window boundary every block_rows
    std::vector<StorageArray> arrays;
    std::int64_t stored = -1;   ///< value slots stored (-1: the step stores nothing)
    std::int64_t padding = -1;  ///< of which padding

    const Cell& at(int r, int c) const
    {
        return cells[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) +
                     static_cast<std::size_t>(c)];
    }
    /// Grid position (row, column) of nonzero `nz`, if the step shows it.
    std::optional<std::pair<int, int>> find_nonzero(std::int64_t nz) const;
    /// Entries of `array` related to grid cell (r, c) (to highlight the selection).
    std::vector<std::size_t> related_entries(const StorageArray& array, int r, int c) const;
};

struct Construction {
    std::string format;            ///< registry name
    std::string title;             ///< e.g. "pJDS (b_r = 4)"
    std::int32_t matrix_rows = 0;  ///< of the matrix given
    std::int32_t matrix_cols = 0;
    bool clipped = false;  ///< built on the leading max_rows x max_cols submatrix
    std::vector<ConstructionStep> steps;
};

/// Formats whose construction can be shown: ell, ellr, pellr, pjds, sell (registered ones only).
std::vector<std::string_view> construction_formats();

/// The leading rows x cols submatrix of `a` (entries with row < rows and column < cols).
Csr<double, std::int32_t> leading_submatrix(const Csr<double, std::int32_t>& a, std::int32_t rows,
                                            std::int32_t cols);

/// All steps for `format` with `params` (b_r = params.block_rows, C = params.slice_height,
/// sigma = params.sort_window). Matrices larger than max_rows x max_cols are clipped to their
/// leading submatrix first (Construction::clipped). Throws InvalidArgument for a format not in
/// construction_formats(), InvalidLayout if a built layout contradicts the CSR.
Construction construction(const Csr<double, std::int32_t>& a, std::string_view format,
                          const FormatParams& params, int max_rows = 64, int max_cols = 64);

}  // namespace spmv::viz
