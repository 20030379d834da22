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
                        std::span<const std::int32_t> row_order, PatternColouring colouring)
{
    SPMV_EXPECTS(row_order.empty() || row_order.size() == static_cast<std::size_t>(a.num_rows),
                 "row_order must list every row once");
    DensityRaster r;
    r.width = std::max(view.width, 0);
    r.height = std::max(view.height, 0);
    r.counts.assign(static_cast<std::size_t>(r.width) * static_cast<std::size_t>(r.height), 0);
    const std::size_t pixels = r.counts.size();
    const bool by_sign = colouring == PatternColouring::sign;
    const bool by_magnitude = colouring == PatternColouring::magnitude;
    if (by_sign) r.negatives.assign(pixels, 0);
    if (by_magnitude) r.max_abs.assign(pixels, 0.0F);
    if (r.width == 0 || r.height == 0 || a.num_rows == 0 || a.num_cols == 0) {
        return r;
    }
    ViewTransform v = view;
    v.num_rows = a.num_rows;
    v.num_cols = a.num_cols;
    const VisibleRange vis = v.visible();
    const auto* row_ptrs = a.row_ptrs.data();
    const auto* cols = a.col_idxs.data();
    const auto* vals = a.values.data();
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
            if (by_sign || by_magnitude) {
                const double value = static_cast<double>(vals[p - cols]);
                const float mag = static_cast<float>(std::abs(value));
                for (std::int64_t y = ys.begin; y < ys.end; ++y) {
                    const std::size_t line = static_cast<std::size_t>(y * r.width);
                    for (std::int64_t x = xs.begin; x < xs.end; ++x) {
                        const std::size_t i = line + static_cast<std::size_t>(x);
                        if (by_sign && value < 0.0) ++r.negatives[i];
                        if (by_magnitude) r.max_abs[i] = std::max(r.max_abs[i], mag);
                    }
                }
            }
        }
    }
    r.max_count = max_count;
    r.nonzeros_visited = visited;
    return r;
}

std::vector<std::uint32_t> to_argb(const DensityRaster& raster, const ViewTransform& view,
                                   std::uint32_t outside, PatternColouring colouring,
                                   double abs_min, double abs_max)
{
    SPMV_EXPECTS(colouring != PatternColouring::sign ||
                     raster.negatives.size() == raster.counts.size(),
                 "sign colouring needs a raster made with PatternColouring::sign");
    SPMV_EXPECTS(colouring != PatternColouring::magnitude ||
                     raster.max_abs.size() == raster.counts.size(),
                 "magnitude colouring needs a raster made with PatternColouring::magnitude");
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
            const std::size_t i = line + static_cast<std::size_t>(x);
            const std::int32_t c = raster.counts[i];
            if (c == 0 || colouring == PatternColouring::density) {
                px[i] = lut[static_cast<std::size_t>(c)];
            } else if (colouring == PatternColouring::sign) {
                px[i] = sign_colour(c, raster.negatives[i], raster.max_count).argb();
            } else {
                px[i] = magnitude_colour(raster.max_abs[i], abs_min, abs_max).argb();
            }
        }
    }
    return px;
}

MarginProfile margin_profile(std::span<const std::int32_t> counts, double origin, double scale,
                             int pixels, std::span<const std::int32_t> order)
{
    SPMV_EXPECTS(scale > 0.0, "margin_profile needs a positive scale");
    SPMV_EXPECTS(order.empty() || order.size() == counts.size(),
                 "margin_profile: order must list every index once");
    MarginProfile m;
    const auto n = static_cast<std::int64_t>(counts.size());
    pixels = std::max(pixels, 0);
    m.mean.assign(static_cast<std::size_t>(pixels), 0.0);
    m.max.assign(static_cast<std::size_t>(pixels), 0);
    std::vector<std::int64_t> shown(static_cast<std::size_t>(pixels), 0);
    // only the indices that reach a pixel: the visible ones
    const auto first = std::clamp<std::int64_t>(
        static_cast<std::int64_t>(std::floor((-origin) / scale)) - 1, 0, n);
    const auto last = std::clamp<std::int64_t>(
        static_cast<std::int64_t>(std::ceil((pixels - origin) / scale)) + 1, 0, n);
    for (std::int64_t i = first; i < last; ++i) {
        const PixelSpan ps = pixel_span(origin + static_cast<double>(i) * scale,
                                        origin + static_cast<double>(i + 1) * scale, pixels);
        const std::int32_t c =
            counts[static_cast<std::size_t>(order.empty() ? i : order[static_cast<std::size_t>(i)])];
        for (std::int64_t p = ps.begin; p < ps.end; ++p) {
            const auto k = static_cast<std::size_t>(p);
            m.mean[k] += c;
            ++shown[k];
            m.max[k] = std::max(m.max[k], c);
        }
    }
    for (std::size_t k = 0; k < m.mean.size(); ++k) {
        if (shown[k] > 0) m.mean[k] /= static_cast<double>(shown[k]);
        m.peak = std::max(m.peak, m.max[k]);
    }
    return m;
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
                                         std::span<const std::int32_t>, PatternColouring);
template DensityRaster rasterize<float>(const Csr<float, std::int32_t>&, const ViewTransform&,
                                        std::span<const std::int32_t>, PatternColouring);

}  // namespace spmv::viz
