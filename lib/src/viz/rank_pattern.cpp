#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include <spmv/error.hpp>
#include <spmv/viz/density.hpp>
#include <spmv/viz/rank_pattern.hpp>

namespace spmv::viz {
namespace {



/// Display order of one partition: identity with its offsets for contiguous ones; grouped by
/// rank (a counting sort of the owners) or left alone (no bounds) for scattered ones.
void order_of(const dist::Partition& p, bool group, std::vector<std::int32_t>& order,
              std::vector<std::int64_t>& bounds)
{
    order.clear();
    bounds.clear();
    if (p.contiguous()) {
        bounds.assign(p.offsets.begin(), p.offsets.end());
        return;
    }
    if (!group) {
        return;
    }
    const auto P = static_cast<std::size_t>(p.num_ranks);
    bounds.assign(P + 1, 0);
    for (auto o : p.owner) {
        ++bounds[static_cast<std::size_t>(o) + 1];
    }
    for (std::size_t r = 0; r < P; ++r) {
        bounds[r + 1] += bounds[r];
    }
    order.resize(p.owner.size());
    std::vector<std::int64_t> next(bounds.begin(), bounds.end() - 1);
    for (std::size_t g = 0; g < p.owner.size(); ++g) {
        order[static_cast<std::size_t>(next[static_cast<std::size_t>(p.owner[g])]++)] =
            static_cast<std::int32_t>(g);
    }
}

/// Owner of the display index under the centre of every pixel of [0, limit) along one axis.
template <typename IndexOf>
std::vector<std::int32_t> pixel_owners(int limit, std::int64_t count, IndexOf index_at,
                                       const std::vector<std::int32_t>& order,
                                       const std::vector<std::int32_t>& owner)
{
    std::vector<std::int32_t> o(static_cast<std::size_t>(std::max(limit, 0)), -1);
    for (int p = 0; p < limit; ++p) {
        const double at = std::floor(index_at(p + 0.5));
        if (at < 0.0 || at >= static_cast<double>(count)) {
            continue;
        }
        const auto k = static_cast<std::size_t>(at);
        o[static_cast<std::size_t>(p)] =
            owner[order.empty() ? k : static_cast<std::size_t>(order[k])];
    }
    return o;
}

}  // namespace

Rgb rank_colour(int rank) noexcept
{
    static constexpr std::array<Rgb, 7> cycle{okabe_ito::blue,         okabe_ito::orange,
                                              okabe_ito::bluish_green, okabe_ito::reddish_purple,
                                              okabe_ito::sky_blue,     okabe_ito::vermillion,
                                              okabe_ito::yellow};
    if (rank < 0) {
        return palette().background;
    }
    return cycle[static_cast<std::size_t>(rank) % cycle.size()];
}

Rgb rank_band_colour(int rank) noexcept
{
    return rank < 0 ? palette().background : mix(rank_colour(rank), Rgb{255, 255, 255}, 0.82);
}

Rgb rank_nonlocal_colour(int rank) noexcept
{
    return rank < 0 ? palette().text : mix(rank_colour(rank), okabe_ito::black, 0.55);
}

RankOrder rank_order(const dist::Partition& rows, const dist::Partition& cols,
                     const RankPatternOptions& options)
{
    dist::validate(rows);
    dist::validate(cols);
    SPMV_EXPECTS(rows.num_ranks == cols.num_ranks,
                 "row and column partitions over different rank counts (" +
                     std::to_string(rows.num_ranks) + " and " + std::to_string(cols.num_ranks) +
                     ")");
    RankOrder o;
    o.num_ranks = rows.num_ranks;
    order_of(rows, options.group_by_rank, o.rows, o.row_bounds);
    order_of(cols, options.group_by_rank, o.cols, o.col_bounds);
    return o;
}

template <typename ValueType>
RankRaster rasterize_ranks(const Csr<ValueType, std::int32_t>& a, const dist::Partition& rows,
                           const ViewTransform& view, const RankPatternOptions& options)
{
    dist::validate(rows);
    SPMV_EXPECTS(rows.size == a.num_rows, "the partition covers " + std::to_string(rows.size) +
                                              " rows, the matrix has " +
                                              std::to_string(a.num_rows));
    const dist::Partition cols = dist::column_partition(rows, a.num_cols);
    const RankOrder order = rank_order(rows, cols, options);
    const std::vector<std::int32_t> row_owner = rows.owners();
    const std::vector<std::int32_t> col_owner = cols.owners();
    // display position of every column (the inverse of order.cols)
    std::vector<std::int32_t> col_pos;
    if (!order.cols.empty()) {
        col_pos.resize(order.cols.size());
        for (std::size_t k = 0; k < order.cols.size(); ++k) {
            col_pos[static_cast<std::size_t>(order.cols[k])] = static_cast<std::int32_t>(k);
        }
    }

    RankRaster r;
    r.width = std::max(view.width, 0);
    r.height = std::max(view.height, 0);
    r.num_ranks = rows.num_ranks;
    r.row_bounds = order.row_bounds;
    r.col_bounds = order.col_bounds;
    const std::size_t pixels =
        static_cast<std::size_t>(r.width) * static_cast<std::size_t>(r.height);
    r.local.assign(pixels, 0);
    r.nonlocal.assign(pixels, 0);
    ViewTransform v = view;
    v.num_rows = a.num_rows;
    v.num_cols = a.num_cols;
    r.row_owner = pixel_owners(
        r.height, a.num_rows, [&](double y) { return v.row_at(y); }, order.rows, row_owner);
    r.col_owner = pixel_owners(
        r.width, a.num_cols, [&](double x) { return v.col_at(x); }, order.cols, col_owner);
    if (pixels == 0 || a.num_rows == 0 || a.num_cols == 0) {
        return r;
    }

    const VisibleRange vis = v.visible();
    std::int32_t max_count = 0;
    for (std::int64_t k = vis.row_begin; k < vis.row_end; ++k) {
        const PixelSpan ys = pixel_span(v.y_of_row(static_cast<double>(k)),
                                   v.y_of_row(static_cast<double>(k + 1)), r.height);
        if (ys.begin >= ys.end) {
            continue;
        }
        const auto row = static_cast<std::size_t>(
            order.rows.empty() ? k : order.rows[static_cast<std::size_t>(k)]);
        const std::int32_t owner = row_owner[row];
        for (auto e = a.row_ptrs[row]; e < a.row_ptrs[row + 1]; ++e) {
            const std::int32_t c = a.col_idxs[static_cast<std::size_t>(e)];
            SPMV_EXPECTS(c >= 0 && c < a.num_cols, "column " + std::to_string(c) + " of row " +
                                                       std::to_string(row) + " outside [0, " +
                                                       std::to_string(a.num_cols) + ")");
            const std::int64_t d = col_pos.empty() ? c : col_pos[static_cast<std::size_t>(c)];
            if (d < vis.col_begin || d >= vis.col_end) {
                continue;
            }
            const PixelSpan xs = pixel_span(v.x_of_col(static_cast<double>(d)),
                                       v.x_of_col(static_cast<double>(d) + 1.0), r.width);
            if (xs.begin >= xs.end) {
                continue;
            }
            const bool is_local = col_owner[static_cast<std::size_t>(c)] == owner;
            ++(is_local ? r.local_visited : r.nonlocal_visited);
            auto& counts = is_local ? r.local : r.nonlocal;
            for (std::int64_t y = ys.begin; y < ys.end; ++y) {
                for (std::int64_t x = xs.begin; x < xs.end; ++x) {
                    const std::size_t i = r.index(static_cast<int>(x), static_cast<int>(y));
                    ++counts[i];
                    max_count = std::max(max_count, r.local[i] + r.nonlocal[i]);
                }
            }
        }
    }
    r.max_count = max_count;
    return r;
}

std::vector<std::uint32_t> rank_argb(const RankRaster& raster, const ViewTransform& view,
                                     std::uint32_t outside, int highlight)
{
    std::vector<std::uint32_t> px(raster.local.size(), outside);
    if (raster.width == 0 || raster.height == 0) {
        return px;
    }
    const PixelSpan xs = pixel_span(view.x_of_col(0), view.x_of_col(static_cast<double>(view.num_cols)),
                               raster.width);
    const PixelSpan ys = pixel_span(view.y_of_row(0), view.y_of_row(static_cast<double>(view.num_rows)),
                               raster.height);
    const bool outlined = view.scale >= rank_outline_min_scale;
    // one pixel of a cell's edge: the pixel centre lies within 1 px of the cell's boundary
    auto on_edge = [](double centre, double cell_lo, double cell_hi) {
        return centre - cell_lo < 1.0 || cell_hi - centre < 1.0;
    };
    for (std::int64_t y = ys.begin; y < ys.end; ++y) {
        const std::int32_t owner = raster.row_owner[static_cast<std::size_t>(y)];
        const std::uint32_t band = rank_band_colour(owner).argb();
        const std::uint32_t solid = rank_colour(owner).argb();
        const std::uint32_t dark = rank_nonlocal_colour(owner).argb();
        bool row_edge = false;
        if (outlined) {
            const double cy = static_cast<double>(y) + 0.5;
            const double row = std::floor(view.row_at(cy));
            row_edge = on_edge(cy, view.y_of_row(row), view.y_of_row(row + 1.0));
        }
        for (std::int64_t x = xs.begin; x < xs.end; ++x) {
            const std::size_t i = raster.index(static_cast<int>(x), static_cast<int>(y));
            const bool nonlocal = raster.nonlocal[i] > 0;
            const bool local = raster.local[i] > 0;
            std::uint32_t c = nonlocal ? dark : local ? solid : band;
            if (outlined && (nonlocal || local)) {
                const double cx = static_cast<double>(x) + 0.5;
                const double col = std::floor(view.col_at(cx));
                if (row_edge || on_edge(cx, view.x_of_col(col), view.x_of_col(col + 1.0))) {
                    c = nonlocal ? rank_outline_colour.argb() : band;
                }
            }
            px[i] = c;
        }
    }
    if (view.scale < 1.0 && highlight > 0) {
        // widen every non-local pixel onto its neighbours that hold no non-local entry
        const std::vector<std::uint32_t> base = px;
        for (std::int64_t y = ys.begin; y < ys.end; ++y) {
            for (std::int64_t x = xs.begin; x < xs.end; ++x) {
                const std::size_t i = raster.index(static_cast<int>(x), static_cast<int>(y));
                if (raster.nonlocal[i] == 0) continue;
                const std::int64_t y0 = std::max(ys.begin, y - highlight);
                const std::int64_t y1 = std::min(ys.end, y + highlight + 1);
                const std::int64_t x0 = std::max(xs.begin, x - highlight);
                const std::int64_t x1 = std::min(xs.end, x + highlight + 1);
                for (std::int64_t v = y0; v < y1; ++v) {
                    for (std::int64_t u = x0; u < x1; ++u) {
                        const std::size_t j =
                            raster.index(static_cast<int>(u), static_cast<int>(v));
                        if (raster.nonlocal[j] == 0) px[j] = base[i];
                    }
                }
            }
        }
    }
    return px;
}

template RankRaster rasterize_ranks<double>(const Csr<double, std::int32_t>&,
                                            const dist::Partition&, const ViewTransform&,
                                            const RankPatternOptions&);
template RankRaster rasterize_ranks<float>(const Csr<float, std::int32_t>&, const dist::Partition&,
                                           const ViewTransform&, const RankPatternOptions&);

}  // namespace spmv::viz
