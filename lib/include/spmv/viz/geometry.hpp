#pragma once
/// Matrix coordinates <-> pixels for the sparsity view, with zoom and pan (Qt-free, tested).
///
/// Matrix entry (row r, column c) covers the square [c, c+1) x [r, r+1) in matrix coordinates.
/// A ViewTransform maps it to pixels with one isotropic scale (pixels per matrix cell):
///   x = origin_x + c * scale,   y = origin_y + r * scale.
/// So `scale >= 1` means every pixel shows at most one cell (the exact picture), and
/// `scale < 1` means a pixel bins 1/scale x 1/scale cells (the density picture).
///
/// Example: a 4 x 4 matrix fitted into 100 x 80 pixels gets scale 20 (80 / 4) and is centred
/// horizontally: origin (10, 0); pixel (35, 45) lies in cell (row 2, column 1).
#include <cstdint>
#include <optional>

namespace spmv::viz {

/// Integer matrix position.
struct CellIndex {
    std::int64_t row = 0;
    std::int64_t col = 0;
    friend bool operator==(const CellIndex&, const CellIndex&) = default;
};

/// Half-open ranges of the rows and columns that are (at least partly) visible.
struct VisibleRange {
    std::int64_t row_begin = 0;
    std::int64_t row_end = 0;
    std::int64_t col_begin = 0;
    std::int64_t col_end = 0;
};

struct ViewTransform {
    std::int64_t num_rows = 0;
    std::int64_t num_cols = 0;
    int width = 0;          ///< viewport width in pixels
    int height = 0;         ///< viewport height in pixels
    double scale = 1.0;     ///< pixels per matrix cell
    double origin_x = 0.0;  ///< pixel x of column 0's left edge
    double origin_y = 0.0;  ///< pixel y of row 0's top edge

    /// Whole matrix visible, centred, aspect ratio kept, `margin` pixels left free on each side.
    /// An empty matrix or viewport gives scale 1 and origin (margin, margin).
    static ViewTransform fit(std::int64_t num_rows, std::int64_t num_cols, int width, int height,
                             int margin = 0);

    double x_of_col(double col) const noexcept { return origin_x + col * scale; }
    double y_of_row(double row) const noexcept { return origin_y + row * scale; }
    double col_at(double x) const noexcept { return (x - origin_x) / scale; }
    double row_at(double y) const noexcept { return (y - origin_y) / scale; }

    /// The matrix cell under pixel position (x, y), or nothing outside the matrix.
    std::optional<CellIndex> cell_at(double x, double y) const noexcept;

    /// Rows and columns intersecting the viewport, clamped to the matrix.
    VisibleRange visible() const noexcept;

    /// True when every pixel shows at most one cell (scale >= 1).
    bool exact() const noexcept { return scale >= 1.0; }

    /// Zoom by `factor` around pixel (x, y): the matrix point under (x, y) stays under it.
    /// The scale is clamped to [min_scale(), max_scale].
    ViewTransform zoomed(double factor, double x, double y,
                         double max_scale = 128.0) const noexcept;

    /// Moved by (dx, dy) pixels, keeping at least part of the matrix in view.
    ViewTransform panned(double dx, double dy) const noexcept;

    /// Same matrix point at the viewport centre, new viewport size (widget resized).
    ViewTransform resized(int new_width, int new_height) const noexcept;

    /// Smallest scale zooming out may reach: half the fitted scale.
    double min_scale() const noexcept;
};

}  // namespace spmv::viz
