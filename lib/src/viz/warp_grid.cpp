#include <algorithm>

#include <spmv/error.hpp>
#include <spmv/viz/warp_grid.hpp>

namespace spmv::viz {

WarpPicture warp_picture(const ThreadWork& work, const analysis::WarpStats& stats, int warp_size,
                         std::int64_t warp, int max_columns)
{
    WarpPicture p;
    p.warp = warp;
    p.lanes = warp_size;
    p.stats = stats;
    const std::int64_t m = stats.max_iterations;
    std::int64_t longest = m;
    for (std::int64_t t = 0; t < stats.threads; ++t) {
        longest = std::max(longest, work.stored[static_cast<std::size_t>(stats.first_thread + t)]);
    }
    p.truncated = longest > max_columns;
    p.columns = static_cast<int>(std::min<std::int64_t>(longest, max_columns));
    p.kinds.assign(static_cast<std::size_t>(p.lanes) * static_cast<std::size_t>(p.columns),
                   SlotKind::none);
    for (int lane = 0; lane < p.lanes; ++lane) {
        SlotKind* row = p.kinds.data() + static_cast<std::size_t>(lane) * p.columns;
        if (lane >= stats.threads) {
            for (int j = 0; j < p.columns && j < m; ++j) row[j] = SlotKind::phantom;
            continue;
        }
        const auto t = static_cast<std::size_t>(stats.first_thread + lane);
        const std::int64_t useful = work.useful[t];
        const std::int64_t stored = work.stored[t];
        for (int j = 0; j < p.columns; ++j) {
            if (j < useful) {
                row[j] = SlotKind::useful;
            } else if (j < m) {
                row[j] = j < stored ? SlotKind::idle_padding : SlotKind::idle;
            } else if (j < stored) {
                row[j] = SlotKind::padding;
            }
        }
    }
    return p;
}

WarpWaste warp_waste(const ThreadWork& work, int warp_size, std::int64_t first_warp,
                     std::int64_t max_warps, int max_columns)
{
    SPMV_EXPECTS(max_columns >= 1, "max_columns must be positive");
    WarpWaste w;
    w.warp_size = warp_size;
    w.analysis = analysis::analyze_warps(work, warp_size);
    const auto n = static_cast<std::int64_t>(w.analysis.warps.size());
    w.first_warp = std::clamp<std::int64_t>(first_warp, 0, n);
    const std::int64_t last = std::min(n, w.first_warp + std::max<std::int64_t>(max_warps, 0));
    for (std::int64_t k = w.first_warp; k < last; ++k) {
        w.pictures.push_back(warp_picture(work, w.analysis.warps[static_cast<std::size_t>(k)],
                                          warp_size, k, max_columns));
    }
    return w;
}

WarpWaste warp_waste(const AnyMatrix<double>& m, int warp_size, std::int64_t first_warp,
                     std::int64_t max_warps, int max_columns)
{
    WarpWaste w = warp_waste(thread_work(m), warp_size, first_warp, max_warps, max_columns);
    w.padding_bytes = footprint(m).padding_bytes;
    return w;
}

std::vector<WasteStripColumn> waste_strip(const analysis::WarpAnalysis& a, int warp_size,
                                          int columns)
{
    SPMV_EXPECTS(columns >= 1, "a waste strip needs at least one column");
    const auto warps = static_cast<std::int64_t>(a.warps.size());
    std::vector<WasteStripColumn> out;
    if (warps == 0) {
        return out;
    }
    const std::int64_t per = (warps + columns - 1) / columns;
    for (std::int64_t first = 0; first < warps; first += per) {
        WasteStripColumn c;
        c.first_warp = first;
        c.last_warp = std::min(warps, first + per) - 1;
        std::int64_t useful = 0;
        for (std::int64_t w = c.first_warp; w <= c.last_warp; ++w) {
            const auto& s = a.warps[static_cast<std::size_t>(w)];
            c.reserved += static_cast<std::int64_t>(warp_size) * s.max_iterations;
            useful += s.useful;
        }
        if (c.reserved > 0) {
            c.useful = static_cast<double>(useful) / static_cast<double>(c.reserved);
            c.idle = 1.0 - c.useful;
        }
        out.push_back(c);
    }
    return out;
}

}  // namespace spmv::viz
