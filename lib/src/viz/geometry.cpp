#include <algorithm>
#include <cmath>

#include <spmv/viz/geometry.hpp>

namespace spmv::viz {

ViewTransform ViewTransform::fit(std::int64_t num_rows, std::int64_t num_cols, int width,
                                 int height, int margin)
{
    ViewTransform t;
    t.num_rows = std::max<std::int64_t>(num_rows, 0);
    t.num_cols = std::max<std::int64_t>(num_cols, 0);
    t.width = std::max(width, 0);
    t.height = std::max(height, 0);
    const double w = std::max(0, t.width - 2 * margin);
    const double h = std::max(0, t.height - 2 * margin);
    if (t.num_rows == 0 || t.num_cols == 0 || w <= 0 || h <= 0) {
        t.scale = 1.0;
        t.origin_x = margin;
        t.origin_y = margin;
        return t;
    }
    t.scale = std::min(w / static_cast<double>(t.num_cols), h / static_cast<double>(t.num_rows));
    t.origin_x = margin + (w - t.scale * static_cast<double>(t.num_cols)) / 2.0;
    t.origin_y = margin + (h - t.scale * static_cast<double>(t.num_rows)) / 2.0;
    return t;
}

std::optional<CellIndex> ViewTransform::cell_at(double x, double y) const noexcept
{
    const double c = std::floor(col_at(x));
    const double r = std::floor(row_at(y));
    if (c < 0 || r < 0 || c >= static_cast<double>(num_cols) ||
        r >= static_cast<double>(num_rows)) {
        return std::nullopt;
    }
    return CellIndex{static_cast<std::int64_t>(r), static_cast<std::int64_t>(c)};
}

VisibleRange ViewTransform::visible() const noexcept
{
    auto clamp_floor = [](double v, std::int64_t n) {
        return static_cast<std::int64_t>(std::clamp(std::floor(v), 0.0, static_cast<double>(n)));
    };
    auto clamp_ceil = [](double v, std::int64_t n) {
        return static_cast<std::int64_t>(std::clamp(std::ceil(v), 0.0, static_cast<double>(n)));
    };
    VisibleRange v;
    v.row_begin = clamp_floor(row_at(0.0), num_rows);
    v.row_end = clamp_ceil(row_at(height), num_rows);
    v.col_begin = clamp_floor(col_at(0.0), num_cols);
    v.col_end = clamp_ceil(col_at(width), num_cols);
    return v;
}

double ViewTransform::min_scale() const noexcept
{
    return fit(num_rows, num_cols, width, height).scale / 2.0;
}

ViewTransform ViewTransform::zoomed(double factor, double x, double y,
                                    double max_scale) const noexcept
{
    ViewTransform t = *this;
    if (!(factor > 0.0)) {
        return t;
    }
    const double new_scale = std::clamp(scale * factor, std::min(min_scale(), scale), max_scale);
    const double c = col_at(x);
    const double r = row_at(y);
    t.scale = new_scale;
    t.origin_x = x - c * new_scale;
    t.origin_y = y - r * new_scale;
    return t;
}

ViewTransform ViewTransform::panned(double dx, double dy) const noexcept
{
    ViewTransform t = *this;
    t.origin_x += dx;
    t.origin_y += dy;
    // keep at least a quarter of the viewport (or the whole matrix, if smaller) covered
    const double mw = static_cast<double>(num_cols) * scale;
    const double mh = static_cast<double>(num_rows) * scale;
    const double keep_x = std::min(mw, width / 4.0);
    const double keep_y = std::min(mh, height / 4.0);
    t.origin_x = std::clamp(t.origin_x, keep_x - mw, width - keep_x);
    t.origin_y = std::clamp(t.origin_y, keep_y - mh, height - keep_y);
    return t;
}

ViewTransform ViewTransform::resized(int new_width, int new_height) const noexcept
{
    ViewTransform t = *this;
    const double c = col_at(width / 2.0);
    const double r = row_at(height / 2.0);
    t.width = std::max(new_width, 0);
    t.height = std::max(new_height, 0);
    t.origin_x = t.width / 2.0 - c * scale;
    t.origin_y = t.height / 2.0 - r * scale;
    return t;
}

}  // namespace spmv::viz
