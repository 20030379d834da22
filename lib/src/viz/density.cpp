#include <algorithm>
#include <cmath>

#include <spmv/error.hpp>
#include <spmv/viz/colour.hpp>
#include <spmv/viz/density.hpp>

namespace spmv::viz {

PixelSpan pixel_span(double lo, double hi, std::int64_t limit) noexcept
{
    auto b = static_cast<std::int64_t>(std::floor(lo + 0.5));
    auto e = static_cast<std::int64_t>(std::floor(hi + 0.5));
    if (e <= b) {
        b = static_cast<std::int64_t>(std::floor((lo + hi) / 2.0));
        e = b + 1;
    }
    return {std::max<std::int64_t>(b, 0), std::min(e, limit)};
}

template <typename ValueType>
DensityRaster rasterize(const Csr<ValueType, std::int32_t>& a, const ViewTransform& view,
                        std::span<const std::int32_t> row_order)
{
    SPMV_EXPECTS(row_order.empty() || row_order.size() == static_cast<std::size_t>(a.num_rows),
                 "row_order must list every row once");
    DensityRaster r;
    r.width = std::max(view.width, 0);
    r.height = std::max(view.height, 0);
    r.counts.assign(static_cast<std::size_t>(r.width) * static_cast<std::size_t>(r.height), 0);
    if (r.width == 0 || r.height == 0 || a.num_rows == 0 || a.num_cols == 0) {
        return r;
    }
    ViewTransform v = view;
    v.num_rows = a.num_rows;
    v.num_cols = a.num_cols;
    const VisibleRange vis = v.visible();
    const auto* row_ptrs = a.row_ptrs.data();
    const auto* cols = a.col_idxs.data();
    std::int32_t max_count = 0;
    std::int64_t visited = 0;
    for (std::int64_t k = vis.row_begin; k < vis.row_end; ++k) {
        const PixelSpan ys = pixel_span(v.y_of_row(static_cast<double>(k)),
                                   v.y_of_row(static_cast<double>(k + 1)), r.height);
        if (ys.begin >= ys.end) {
            continue;
        }
        const std::int64_t row = row_order.empty() ? k : row_order[static_cast<std::size_t>(k)];
        const std::int32_t* first = cols + row_ptrs[row];
        const std::int32_t* last = cols + row_ptrs[row + 1];
        if (vis.col_begin > 0) {
            first = std::lower_bound(first, last, static_cast<std::int32_t>(vis.col_begin));
        }
        for (const std::int32_t* p = first; p != last && *p < vis.col_end; ++p) {
            const PixelSpan xs = pixel_span(v.x_of_col(*p), v.x_of_col(*p + 1.0), r.width);
            if (xs.begin >= xs.end) {
                continue;
            }
            ++visited;
            for (std::int64_t y = ys.begin; y < ys.end; ++y) {
                std::int32_t* line = r.counts.data() + y * r.width;
                for (std::int64_t x = xs.begin; x < xs.end; ++x) {
                    max_count = std::max(max_count, ++line[x]);
                }
            }
        }
    }
    r.max_count = max_count;
    r.nonzeros_visited = visited;
    return r;
}

std::vector<std::uint32_t> to_argb(const DensityRaster& raster, const ViewTransform& view,
                                   std::uint32_t outside)
{
    std::vector<std::uint32_t> px(raster.counts.size(), outside);
    if (raster.width == 0 || raster.height == 0) {
        return px;
    }
    // colour lookup table: max_count is at most the number of nonzeros per pixel
    std::vector<std::uint32_t> lut(static_cast<std::size_t>(raster.max_count) + 1);
    for (std::size_t c = 0; c < lut.size(); ++c) {
        lut[c] = density_colour(static_cast<std::int64_t>(c), raster.max_count).argb();
    }
    const PixelSpan xs = pixel_span(view.x_of_col(0), view.x_of_col(static_cast<double>(view.num_cols)),
                               raster.width);
    const PixelSpan ys = pixel_span(view.y_of_row(0), view.y_of_row(static_cast<double>(view.num_rows)),
                               raster.height);
    for (std::int64_t y = ys.begin; y < ys.end; ++y) {
        const std::size_t line =
            static_cast<std::size_t>(y) * static_cast<std::size_t>(raster.width);
        for (std::int64_t x = xs.begin; x < xs.end; ++x) {
            px[line + static_cast<std::size_t>(x)] =
                lut[static_cast<std::size_t>(raster.counts[line + static_cast<std::size_t>(x)])];
        }
    }
    return px;
}

template <typename ValueType>
std::optional<std::int64_t> find_entry(const Csr<ValueType, std::int32_t>& a, std::int64_t row,
                                       std::int64_t col)
{
    if (row < 0 || col < 0 || row >= a.num_rows || col >= a.num_cols) {
        return std::nullopt;
    }
    const auto first = a.col_idxs.begin() + a.row_ptrs[static_cast<std::size_t>(row)];
    const auto last = a.col_idxs.begin() + a.row_ptrs[static_cast<std::size_t>(row) + 1];
    const auto it = std::lower_bound(first, last, col);
    if (it == last || *it != col) {
        return std::nullopt;
    }
    return it - a.col_idxs.begin();
}

template std::optional<std::int64_t> find_entry<double>(const Csr<double, std::int32_t>&,
                                                        std::int64_t, std::int64_t);
template std::optional<std::int64_t> find_entry<float>(const Csr<float, std::int32_t>&,
                                                       std::int64_t, std::int64_t);

template DensityRaster rasterize<double>(const Csr<double, std::int32_t>&, const ViewTransform&,
                                         std::span<const std::int32_t>);
template DensityRaster rasterize<float>(const Csr<float, std::int32_t>&, const ViewTransform&,
                                        std::span<const std::int32_t>);

}  // namespace spmv::viz
