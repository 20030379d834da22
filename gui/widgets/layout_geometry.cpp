#include "layout_geometry.hpp"

#include <algorithm>
#include <cmath>

std::optional<std::pair<int, int>> LayoutGeometry::cellAt(double x, double y) const
{
    if (!grid.contains(x, y) || cell <= 0) {
        return std::nullopt;
    }
    const int c = std::min(cols - 1, static_cast<int>(std::floor((x - grid.x) / cell)));
    const int r = std::min(rows - 1, static_cast<int>(std::floor((y - grid.y) / cell)));
    return std::pair<int, int>{r, c};
}

std::optional<std::pair<std::size_t, std::size_t>> LayoutGeometry::entryAt(double x, double y) const
{
    for (std::size_t a = 0; a < arrays.size(); ++a) {
        const auto& e = arrays[a].entries;
        for (std::size_t i = 0; i < e.size(); ++i) {
            if (e[i].contains(x, y)) {
                return std::pair<std::size_t, std::size_t>{a, i};
            }
        }
    }
    return std::nullopt;
}

LayoutGeometry layoutGeometry(int rows, int cols, const std::vector<ArrayShape>& arrays, double top,
                              double availableWidth, const LayoutMetrics& m, std::size_t maxEntries)
{
    LayoutGeometry g;
    g.rows = std::max(rows, 0);
    g.cols = std::max(cols, 0);
    const double gridLeft = m.margin + m.rowLabelWidth;
    const double room = std::max(0.0, availableWidth - gridLeft - m.margin);
    g.cell = g.cols > 0 ? std::clamp(room / g.cols, m.minCell, m.preferredCell) : m.preferredCell;
    g.cell = std::floor(g.cell);
    // column numbers above the grid take one line
    g.grid = {gridLeft, top + m.lineHeight, g.cell * g.cols, g.cell * g.rows};
    double y = g.grid.bottom() + m.lineHeight;
    double widest = g.grid.right() + m.margin;

    const double entryLeft = m.margin + m.arrayLabelWidth;
    const double lineRight = std::max(entryLeft + 8 * m.charWidth, availableWidth - m.margin);
    for (const auto& shape : arrays) {
        LayoutGeometry::ArrayRow row;
        const double w = m.charWidth * (std::max(shape.digits, 1) + 1.2);
        const double h = m.lineHeight + 4;
        row.label = {m.margin, y, m.arrayLabelWidth - 4, h};
        double x = entryLeft;
        std::size_t group = 0;
        const std::size_t shown = std::min(shape.entries, maxEntries);
        for (std::size_t i = 0; i < shown; ++i) {
            while (group < shape.groupStarts.size() &&
                   shape.groupStarts[group] < static_cast<std::int64_t>(i)) {
                ++group;
            }
            const bool newGroup = group < shape.groupStarts.size() &&
                                  shape.groupStarts[group] == static_cast<std::int64_t>(i);
            if (newGroup) {
                x += m.groupGap;
            }
            if (x + w > lineRight && x > entryLeft) {
                x = entryLeft;
                y += h + 2;
            }
            row.entries.push_back({x, y, w, h});
            x += w;
            widest = std::max(widest, x + m.margin);
        }
        row.truncated = shown < shape.entries;
        y += h + m.lineHeight * 0.6;
        g.arrays.push_back(std::move(row));
    }
    g.width = std::max(widest, availableWidth);
    g.height = y + m.margin;
    return g;
}

std::optional<std::tuple<std::size_t, int, int>> WarpLayout::cellAt(double x, double y) const
{
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        if (blocks[b].contains(x, y) && cell > 0) {
            return std::tuple<std::size_t, int, int>{
                b, static_cast<int>(std::floor((y - blocks[b].y) / cell)),
                static_cast<int>(std::floor((x - blocks[b].x) / cell))};
        }
    }
    return std::nullopt;
}

WarpLayout warpLayout(const std::vector<std::pair<int, int>>& sizes, double top,
                      double availableWidth, double preferredCell, double minCell,
                      double captionHeight, double gap, double captionWidth)
{
    WarpLayout w;
    if (captionWidth <= 0) captionWidth = 4 * captionHeight;
    int widest = 1;
    for (const auto& s : sizes) widest = std::max(widest, s.second);
    const double room = std::max(1.0, availableWidth - 2 * gap);
    w.cell = std::floor(std::clamp(room / widest, minCell, preferredCell));
    double x = gap;
    double y = top;
    double rowHeight = 0;
    for (const auto& [lanes, columns] : sizes) {
        const double bw = std::max(columns, 1) * w.cell;
        const double bh = lanes * w.cell;
        if (x > gap && x + std::max(bw, captionWidth) > availableWidth - gap) {
            x = gap;
            y += rowHeight + gap;
            rowHeight = 0;
        }
        w.captions.push_back({x, y, std::max(bw, captionWidth), captionHeight});
        w.blocks.push_back({x, y + captionHeight, columns * w.cell, bh});
        x += std::max(bw, captionWidth) + gap;
        rowHeight = std::max(rowHeight, captionHeight + bh);
    }
    w.height = y + rowHeight + gap;
    return w;
}
