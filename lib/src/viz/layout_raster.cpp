#include <algorithm>
#include <cmath>

#include <spmv/error.hpp>
#include <spmv/viz/colour.hpp>
#include <spmv/viz/layout_raster.hpp>

namespace spmv::viz {

namespace {

/// Bins of `count` items over `pixels` pixels: min(count, pixels) bins, bin b holds items
/// [b * count / bins, (b + 1) * count / bins), pixel p shows bin p * bins / pixels.
struct Bins {
    std::int64_t count = 0;
    std::int64_t bins = 0;
    std::int64_t first(std::int64_t b) const noexcept { return b * count / bins; }
    std::int64_t of_pixel(std::int64_t p, std::int64_t pixels) const noexcept
    {
        return p * bins / pixels;
    }
};

}  // namespace

std::pair<std::int64_t, std::int64_t> LayoutRaster::threads_of_row(int y) const noexcept
{
    if (threads == 0 || height == 0) return {0, 0};
    const Bins b{threads, std::min<std::int64_t>(threads, height)};
    const auto bin = b.of_pixel(y, height);
    return {b.first(bin), b.first(bin + 1)};
}

LayoutRaster layout_raster(const ThreadWork& work, int width, int height)
{
    SPMV_EXPECTS(width >= 1 && height >= 1, "layout_raster needs at least 1 x 1 pixels, got " +
                                                std::to_string(width) + " x " +
                                                std::to_string(height));
    SPMV_EXPECTS(work.useful.size() == work.stored.size(),
                 "layout_raster: useful and stored must have one entry per thread");
    LayoutRaster r;
    r.width = width;
    r.height = height;
    r.threads = static_cast<std::int64_t>(work.stored.size());
    for (std::size_t t = 0; t < work.stored.size(); ++t) {
        SPMV_EXPECTS(work.useful[t] >= 0 && work.useful[t] <= work.stored[t],
                     "layout_raster: thread " + std::to_string(t) + " has " +
                         std::to_string(work.useful[t]) + " useful of " +
                         std::to_string(work.stored[t]) + " stored slots");
        r.slot_columns = std::max(r.slot_columns, work.stored[t]);
        r.useful_total += work.useful[t];
        r.stored_total += work.stored[t];
    }
    const auto pixels = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
    r.useful.assign(pixels, 0.0F);
    r.padding.assign(pixels, 0.0F);
    if (r.threads == 0 || r.slot_columns == 0) return r;

    const Bins rows{r.threads, std::min<std::int64_t>(r.threads, height)};
    const Bins cols{r.slot_columns, std::min<std::int64_t>(r.slot_columns, width)};
    const auto nc = static_cast<std::size_t>(cols.bins);
    // per bin row: cells covered by [0, length) summed over its threads, per column bin, via a
    // difference array (whole bins) plus the partial bin where the length ends
    std::vector<double> useful_cells(static_cast<std::size_t>(rows.bins) * nc, 0.0);
    std::vector<double> stored_cells(useful_cells.size(), 0.0);
    std::vector<double> diff_u(nc + 1), diff_s(nc + 1), part_u(nc), part_s(nc);
    // column bin c covers slots [first(c), first(c + 1)): the bin that contains slot position s
    auto bin_of_slot = [&](std::int64_t s) {
        // largest c with first(c) <= s
        std::int64_t c = s * cols.bins / cols.count;
        while (c + 1 < cols.bins && cols.first(c + 1) <= s) ++c;
        while (c > 0 && cols.first(c) > s) --c;
        return c;
    };
    auto add = [&](std::vector<double>& diff, std::vector<double>& part, std::int64_t length) {
        if (length <= 0) return;
        if (length >= cols.count) {
            diff[0] += 1.0;
            diff[nc] -= 1.0;
            return;
        }
        const auto c = bin_of_slot(length);
        diff[0] += 1.0;
        diff[static_cast<std::size_t>(c)] -= 1.0;
        part[static_cast<std::size_t>(c)] += static_cast<double>(length - cols.first(c));
    };
    for (std::int64_t b = 0; b < rows.bins; ++b) {
        std::fill(diff_u.begin(), diff_u.end(), 0.0);
        std::fill(diff_s.begin(), diff_s.end(), 0.0);
        std::fill(part_u.begin(), part_u.end(), 0.0);
        std::fill(part_s.begin(), part_s.end(), 0.0);
        for (auto t = rows.first(b); t < rows.first(b + 1); ++t) {
            add(diff_u, part_u, work.useful[static_cast<std::size_t>(t)]);
            add(diff_s, part_s, work.stored[static_cast<std::size_t>(t)]);
        }
        double full_u = 0.0, full_s = 0.0;
        for (std::size_t c = 0; c < nc; ++c) {
            full_u += diff_u[c];
            full_s += diff_s[c];
            const auto widthc = static_cast<double>(cols.first(static_cast<std::int64_t>(c) + 1) -
                                                    cols.first(static_cast<std::int64_t>(c)));
            const std::size_t i = static_cast<std::size_t>(b) * nc + c;
            useful_cells[i] = full_u * widthc + part_u[c];
            stored_cells[i] = full_s * widthc + part_s[c];
        }
    }
    for (int y = 0; y < height; ++y) {
        const auto b = rows.of_pixel(y, height);
        const double lines = static_cast<double>(rows.first(b + 1) - rows.first(b));
        for (int x = 0; x < width; ++x) {
            const auto c = cols.of_pixel(x, width);
            const double cells =
                lines * static_cast<double>(cols.first(c + 1) - cols.first(c));
            const std::size_t i = static_cast<std::size_t>(b) * nc + static_cast<std::size_t>(c);
            const std::size_t p = static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                                  static_cast<std::size_t>(x);
            r.useful[p] = static_cast<float>(useful_cells[i] / cells);
            r.padding[p] = static_cast<float>((stored_cells[i] - useful_cells[i]) / cells);
        }
    }
    return r;
}

std::vector<std::uint32_t> to_argb(const LayoutRaster& raster)
{
    const Rgb u = palette().useful;
    const Rgb p = palette().padding;
    const Rgb e = palette().empty;
    std::vector<std::uint32_t> px(raster.useful.size());
    auto mix = [](double a, std::uint8_t ca, double b, std::uint8_t cb, std::uint8_t ce) {
        return static_cast<std::uint8_t>(
            std::lround(a * ca + b * cb + std::max(0.0, 1.0 - a - b) * ce));
    };
    for (std::size_t i = 0; i < px.size(); ++i) {
        const double a = raster.useful[i];
        const double b = raster.padding[i];
        px[i] = Rgb{mix(a, u.r, b, p.r, e.r), mix(a, u.g, b, p.g, e.g), mix(a, u.b, b, p.b, e.b)}
                    .argb();
    }
    return px;
}

}  // namespace spmv::viz
