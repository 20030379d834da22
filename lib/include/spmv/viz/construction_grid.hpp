#pragma once
/// The vocabulary of the explorer's construction steps: a step is a grid of cells (a nonzero, a
/// padding slot or nothing) seen through a window, plus the storage arrays of that step cut to
/// the entries in view. Plain data with no format in it: the formats' own story files
/// (lib/src/formats/<name>_story.cpp) build steps in this vocabulary, the construction engine
/// (construction.hpp) collects them, the GUI and the CLI draw them.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace spmv::viz {

enum class CellKind : std::uint8_t { empty, nonzero, padding };

/// One cell of a step's grid.
struct Cell {
    CellKind kind = CellKind::empty;
    std::int32_t row = -1;   ///< matrix row the cell belongs to (-1: a padding row)
    std::int32_t col = -1;   ///< matrix column (nonzero cells only)
    std::int64_t nz = -1;    ///< index of the nonzero in the CSR arrays (nonzero cells only)
    std::int64_t slot = -1;  ///< index into this step's slot arrays of `part` (-1: not stored)
    double value = 0.0;      ///< the nonzero's value (nonzero cells only)
    std::int64_t group = -1;  ///< entry of the step's ArrayKey::cell_group arrays (-1: none)
    std::uint8_t part = 0;    ///< which slot arrays hold `slot` (HYB: 0 ELL part, 1 COO part)
};

enum class ArrayRole : std::uint8_t { values, indices, aux };

/// What an array entry is indexed by, so that a selected cell can find its entries.
enum class ArrayKey : std::uint8_t {
    slot,           ///< entry s is storage slot s of the array's part (values, col_idxs)
    grid_row,       ///< entry k belongs to grid row k (row_perm, row_lengths, nz_count)
    matrix_row,     ///< entries r and r + 1 delimit matrix row r (CSR row_ptrs)
    grid_column,    ///< entry j belongs to grid column j (col_start, jd_ptrs)
    block,          ///< entry b belongs to grid rows [b * key_divisor, (b + 1) * key_divisor)
    matrix_column,  ///< entries c and c + 1 delimit matrix column c (CSC col_ptrs)
    cell_group,     ///< entry Cell::group (BiELL / BiJAD group_ptrs)
};

/// One array of a step's storage as the format stores it (indices printed as numbers), cut to
/// the entries that belong to the window shown.
struct StorageArray {
    std::string name;         ///< the struct member, e.g. "col_start"
    std::string description;  ///< one line, e.g. "offset of every column (Listing 2)"
    ArrayRole role = ArrayRole::aux;
    ArrayKey key = ArrayKey::slot;
    int key_divisor = 1;
    std::uint8_t part = 0;  ///< slot arrays: the Cell::part they belong to
    std::vector<double> entries;             ///< the entries shown
    std::vector<std::int64_t> index;         ///< position of each shown entry in the full array
    std::int64_t total = 0;                  ///< entries of the full array
    std::vector<std::uint8_t> padding;       ///< 1 for a padding slot (slot arrays only)
    std::vector<std::int64_t> group_starts;  ///< shown positions > 0 where a new group begins

    /// Shown position of full-array entry `i`, if it is shown.
    std::optional<std::size_t> position(std::int64_t i) const;
    bool complete() const { return static_cast<std::int64_t>(entries.size()) == total; }
};

/// A vertical line left of grid column `col` over grid rows [first_row, last_row): group
/// boundaries that differ from block to block (BiELL groups, HYB's K). Window coordinates.
struct ColumnMark {
    int first_row = 0;
    int last_row = 0;
    int col = 0;
};

/// One picture of the sequence, seen through a window of its grid.
struct ConstructionStep {
    std::string name;     ///< "matrix", "compress", "sort", "pad", "triplets", "diagonals", ...
    std::string title;    ///< e.g. "3. Sort rows by length"
    std::string caption;  ///< what happened in this step, with the numbers
    int rows = 0;         ///< grid rows shown (the window)
    int cols = 0;         ///< grid columns shown
    std::int64_t total_rows = 0;  ///< rows of the whole grid
    std::int64_t total_cols = 0;  ///< columns of the whole grid
    std::int64_t row_offset = 0;  ///< whole-grid row of window row 0
    std::int64_t col_offset = 0;  ///< whole-grid column of window column 0
    /// "" : grid row k shows matrix row row_source[k]; otherwise what a grid row is (e.g.
    /// "entry" for CSC, whose grid rows are positions inside the columns).
    std::string row_axis;
    std::vector<Cell> cells;               ///< rows x cols, row-major (window only)
    std::vector<std::int32_t> row_source;  ///< matrix row in each window row (-1: padding row)
    int block_rows = 0;  ///< > 0: a block / slice / window boundary every block_rows grid rows
    std::vector<std::int64_t> row_boundaries;  ///< further whole-grid rows with a line above
    std::vector<ColumnMark> column_marks;
    std::vector<StorageArray> arrays;
    std::int64_t stored = -1;   ///< value slots the format stores (-1: the step stores nothing)
    std::int64_t padding = -1;  ///< of which padding

    const Cell& at(int r, int c) const
    {
        return cells[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) +
                     static_cast<std::size_t>(c)];
    }
    /// Window position (row, column) of nonzero `nz`, if the window shows it.
    std::optional<std::pair<int, int>> find_nonzero(std::int64_t nz) const;
    /// Shown positions in `array` related to window cell (r, c) (to highlight the selection).
    std::vector<std::size_t> related_entries(const StorageArray& array, int r, int c) const;
    /// Window rows r (0 < r < rows) with a block boundary (block_rows, row_boundaries) above.
    std::vector<int> boundary_rows() const;
    /// True when the window does not show the whole grid.
    bool windowed() const { return rows < total_rows || cols < total_cols; }
    /// "rows 64–127 of 1000, columns 0–2 of 3" (0-based, inclusive; "entry rows" for
    /// row_axis "entry"; "sorted positions 64–127 of 1000" when the grid rows are sorted, i.e.
    /// some row_source[k] is not row_offset + k).
    std::string window_label() const;
};

/// The part of every step's grid to show: grid rows [first_row, first_row + rows), grid
/// columns [first_col, first_col + cols). A step whose grid is shorter than first_row shows its
/// last `rows` rows (the same for columns).
///
/// A real matrix rarely has its story in its top-left corner (bayer10's rows 0-63 hold only
/// columns >= 13,317), so each step can also place its window itself, following its entries:
///  - follow_rows: the window starts at the step's first grid row that holds a nonzero
///    (first_row is ignored);
///  - follow_cols: the window starts at the first column holding a nonzero in the rows shown,
///    moved left where needed to show `cols` columns (first_col is ignored);
///  - focus >= 0: the nonzero (CSR index) the stepper follows: a step whose window (as placed
///    above) does not show it centres its window on it, so that every step shows it.
/// The matrix step's columns are the matrix's, the other steps' are slots of a row: with
/// follow_cols each step finds its own (bayer10's first step shows columns 13,317 on, its
/// later steps columns 0 on).
struct ConstructionWindow {
    std::int64_t first_row = 0;
    int rows = 64;
    std::int64_t first_col = 0;
    int cols = 64;
    bool follow_rows = false;
    bool follow_cols = false;
    std::int64_t focus = -1;
    /// The focused nonzero's matrix row and column and its place in its row: filled in by
    /// construction() from the matrix (values given here are replaced).
    std::int32_t focus_row = -1;
    std::int32_t focus_col = -1;
    std::int64_t focus_pos = -1;

    /// The window the explorer opens a matrix on: rows and columns follow the entries.
    static ConstructionWindow following(int rows = 64, int cols = 64)
    {
        ConstructionWindow w;
        w.rows = rows;
        w.cols = cols;
        w.follow_rows = true;
        w.follow_cols = true;
        return w;
    }
};

/// How a value is written in a cell `max_chars` characters wide: one rule for every cell and
/// array entry of the construction view, so that no value is left blank beside printed ones.
///  - In full when it fits: its shortest decimal form that reads back as the same double
///    ("0", "117", "-1.4", "0.01", "1.5e-7"; exponents without "+" or leading zeros).
///  - Otherwise cut (never rounded) to the significant digits that fit, the cut marked by "…"
///    where digits were dropped: -564.2036607119013 in 7 characters is "-564.2…", in 5
///    "-564…" (in fixed notation the integer part is always complete); scientific notation
///    where it keeps more digits: 123456 in 5 characters is "1…e5", 1.2345e-7 in 6 "1…e-7".
///    Ties go to fixed notation.
///  - "…" alone when not even one digit fits; "" for max_chars < 1.
/// Characters are counted as read ("…" is one character, three bytes of UTF-8).
std::string cell_value_text(double value, int max_chars);

/// The value in full, for a tooltip: the shortest decimal form that reads back exactly.
std::string full_value_text(double value);

/// Characters of a UTF-8 string as read ("…" counts one).
int text_chars(const std::string& utf8);

struct Construction {
    std::string format;            ///< registry name
    std::string title;             ///< e.g. "pJDS (b_r = 4)"
    std::int32_t matrix_rows = 0;  ///< of the matrix given
    std::int32_t matrix_cols = 0;
    ConstructionWindow window;  ///< the window asked for
    bool windowed = false;      ///< some step does not show its whole grid
    std::int64_t max_total_rows = 0;  ///< largest grid of all steps (for the window controls)
    std::int64_t max_total_cols = 0;
    std::vector<ConstructionStep> steps;
};

}  // namespace spmv::viz
