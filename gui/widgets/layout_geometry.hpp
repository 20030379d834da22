#pragma once
// Qt-free geometry of the construction view (LayoutView): where the cells of a step's grid and
// the entries of its storage arrays go, and which cell or entry lies under a point. Tested with
// Catch2 in tests/gui/test_gui_geometry.cpp.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

struct LayoutRect {
    double x = 0;
    double y = 0;
    double w = 0;
    double h = 0;
    bool contains(double px, double py) const
    {
        return px >= x && px < x + w && py >= y && py < y + h;
    }
    double right() const { return x + w; }
    double bottom() const { return y + h; }
};

/// Text sizes and preferences that the widget measures from its font.
struct LayoutMetrics {
    double lineHeight = 16;       ///< one text line
    double charWidth = 7;         ///< width of a digit
    double rowLabelWidth = 40;    ///< the "r12" labels left of the grid
    double arrayLabelWidth = 96;  ///< the array names left of the entries
    double margin = 8;
    double preferredCell = 32;  ///< cell size when there is room
    double minCell = 3;
    double groupGap = 6;  ///< extra space before an array group
};

/// What the geometry needs to know about one array.
struct ArrayShape {
    std::size_t entries = 0;
    std::vector<std::int64_t> groupStarts;  ///< entry indices where a new group begins
    int digits = 1;                         ///< widest entry in characters
};

struct LayoutGeometry {
    double width = 0;  ///< total size needed
    double height = 0;
    double cell = 0;  ///< cell edge in pixels
    LayoutRect grid;  ///< the rows x cols cells
    int rows = 0;
    int cols = 0;
    struct ArrayRow {
        LayoutRect label;
        std::vector<LayoutRect> entries;  ///< the entries shown (maybe fewer than the array has)
        bool truncated = false;
    };
    std::vector<ArrayRow> arrays;

    LayoutRect cellRect(int r, int c) const
    {
        return {grid.x + c * cell, grid.y + r * cell, cell, cell};
    }
    /// Grid cell under (x, y).
    std::optional<std::pair<int, int>> cellAt(double x, double y) const;
    /// (array, entry) under (x, y).
    std::optional<std::pair<std::size_t, std::size_t>> entryAt(double x, double y) const;
};

/// Lays out a rows x cols grid starting at y = top, then the arrays below it, in a view
/// `availableWidth` pixels wide. The cell size is preferredCell if the grid fits, otherwise the
/// width divided by cols (at least minCell). Array entries wrap to further lines; at most
/// maxEntries per array are placed (ArrayRow::truncated).
LayoutGeometry layoutGeometry(int rows, int cols, const std::vector<ArrayShape>& arrays, double top,
                              double availableWidth, const LayoutMetrics& m,
                              std::size_t maxEntries = 512);

/// Blocks of lanes x columns cells (one per warp) placed left to right and wrapped into rows,
/// each with a caption line above it: the geometry of WarpWasteView.
struct WarpLayout {
    double cell = 0;
    std::vector<LayoutRect> blocks;    ///< cell area of every warp
    std::vector<LayoutRect> captions;  ///< caption line above each block
    double height = 0;
    LayoutRect cellRect(std::size_t block, int lane, int column) const
    {
        const auto& b = blocks[block];
        return {b.x + column * cell, b.y + lane * cell, cell, cell};
    }
    /// (block, lane, column) under (x, y).
    std::optional<std::tuple<std::size_t, int, int>> cellAt(double x, double y) const;
};

/// `sizes` are (lanes, columns) per warp. The cell edge is `preferredCell`, shrunk (down to
/// minCell) until the widest block fits in `availableWidth`. Each caption gets at least
/// `captionWidth` (default: 4 caption heights), however narrow its block.
WarpLayout warpLayout(const std::vector<std::pair<int, int>>& sizes, double top,
                      double availableWidth, double preferredCell, double minCell,
                      double captionHeight, double gap, double captionWidth = 0);
