#include "distribution_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include <spmv/error.hpp>

namespace {

/// The fixed legend geometry of spmv::viz::timeline_svg (lib/src/dist/timeline_svg.cpp), which
/// timeline_layout reserves room for: the legend is drawn where the SVG draws it.
constexpr double legendMargin = 12.0;
constexpr double legendSwatch = 12.0;
constexpr double legendLineHeight = 20.0;
constexpr double legendCharWidth = 6.4;
/// Narrowest layout drawn unscaled: the row labels (130 px), the right margin and some plot.
constexpr double minTimelineWidth = 300.0;

int ceilDiv(int a, int b)
{
    return (a + b - 1) / b;
}

}  // namespace

// ---- communication matrix ----------------------------------------------------------------

int CommHeatmap::lastRank(int cell) const
{
    return std::min(ranks - 1, (cell + 1) * ranksPerCell - 1);
}

CommHeatmap commHeatmap(const spmv::dist::PartitionStats& stats, int maxCells)
{
    CommHeatmap h;
    h.ranks = stats.num_ranks;
    const int limit = std::max(1, maxCells);
    h.ranksPerCell = std::max(1, ceilDiv(h.ranks, limit));
    h.cells = ceilDiv(h.ranks, h.ranksPerCell);
    h.counts.assign(static_cast<std::size_t>(h.cells) * static_cast<std::size_t>(h.cells), 0);
    const auto P = static_cast<std::size_t>(h.ranks);
    if (stats.comm.size() != P * P) {
        return h;  // statistics without a communication matrix: all zero
    }
    for (std::size_t s = 0; s < P; ++s) {
        for (std::size_t d = 0; d < P; ++d) {
            const auto cs = s / static_cast<std::size_t>(h.ranksPerCell);
            const auto cd = d / static_cast<std::size_t>(h.ranksPerCell);
            auto& c = h.counts[cs * static_cast<std::size_t>(h.cells) + cd];
            c += stats.comm[s * P + d];
            h.maxCount = std::max(h.maxCount, c);
        }
    }
    return h;
}

spmv::viz::Rgb commColour(std::int64_t count, std::int64_t maxCount) noexcept
{
    return spmv::viz::density_colour(count, maxCount);
}

std::pair<int, int> HeatmapGeometry::cellAt(double x, double y) const
{
    if (cell <= 0 || !grid.contains(x, y)) return {-1, -1};
    const int r = std::min(cells - 1, static_cast<int>((x - grid.x) / cell));
    const int s = std::min(cells - 1, static_cast<int>((y - grid.y) / cell));
    return {s, r};
}

std::string abbreviatedCount(std::int64_t n)
{
    const double v = static_cast<double>(n < 0 ? -n : n);
    const char* sign = n < 0 ? "-" : "";
    if (v < 1000.0) return std::to_string(n);
    static const char suffix[] = {'k', 'M', 'G', 'T', 'P'};
    double scaled = v / 1000.0;
    int i = 0;
    // 999,500 rounds to 1000k: carry to the next suffix
    while (i < 4 && std::round(scaled * (scaled < 10.0 ? 10.0 : 1.0)) /
                            (scaled < 10.0 ? 10.0 : 1.0) >= 1000.0) {
        scaled /= 1000.0;
        ++i;
    }
    char buf[16];
    if (scaled < 9.95) {
        std::snprintf(buf, sizeof buf, "%s%.1f%c", sign, scaled, suffix[i]);
    } else {
        std::snprintf(buf, sizeof buf, "%s%.0f%c", sign, scaled, suffix[i]);
    }
    return buf;
}

HeatmapGeometry heatmapGeometry(int cells, double width, double height, double labelWidth,
                                double lineHeight, double numberWidth, double margin)
{
    HeatmapGeometry g;
    g.cells = std::max(cells, 0);
    const double left = margin + labelWidth;
    const double top = margin + 2.0 * lineHeight;
    const double availW = std::max(0.0, width - left - margin);
    const double availH = std::max(0.0, height - top - margin);
    if (g.cells == 0) {
        g.grid = {left, top, 0, 0};
        return g;
    }
    double cell = std::min(availW, availH) / g.cells;
    if (cell >= 2.0) cell = std::floor(cell);
    g.cell = cell;
    const double side = cell * g.cells;
    g.grid = {left + std::floor((availW - side) / 2.0), top, side, side};
    g.numbers = cell >= numberWidth + 4.0 && cell >= lineHeight + 2.0;
    return g;
}

// ---- per-rank balance ----------------------------------------------------------------------

BalanceChart balanceChart(const spmv::dist::PartitionStats& stats, int maxBars)
{
    BalanceChart c;
    const int P = static_cast<int>(stats.ranks.size());
    c.rowImbalance = stats.row_imbalance;
    c.nnzImbalance = stats.nnz_imbalance;
    if (P == 0) return c;
    c.ranksPerBar = std::max(1, ceilDiv(P, std::max(1, maxBars)));
    double sumRows = 0, sumNnz = 0, sumHalo = 0;
    for (int first = 0; first < P; first += c.ranksPerBar) {
        BalanceBar b;
        b.firstRank = first;
        b.lastRank = std::min(P, first + c.ranksPerBar) - 1;
        std::int64_t mostNnz = -1;
        for (int r = b.firstRank; r <= b.lastRank; ++r) {
            const auto& s = stats.ranks[static_cast<std::size_t>(r)];
            b.rows = std::max(b.rows, static_cast<double>(s.rows));
            b.halo = std::max(b.halo, static_cast<double>(s.halo));
            if (s.nnz > mostNnz) {
                mostNnz = s.nnz;
                b.local = static_cast<double>(s.local_nnz);
                b.nonlocal = static_cast<double>(s.nonlocal_nnz);
            }
            sumRows += static_cast<double>(s.rows);
            sumNnz += static_cast<double>(s.nnz);
            sumHalo += static_cast<double>(s.halo);
        }
        c.maxRows = std::max(c.maxRows, b.rows);
        c.maxNnz = std::max(c.maxNnz, b.local + b.nonlocal);
        c.maxHalo = std::max(c.maxHalo, b.halo);
        c.bars.push_back(b);
    }
    c.meanRows = sumRows / P;
    c.meanNnz = sumNnz / P;
    c.meanHalo = sumHalo / P;
    return c;
}

BalanceGeometry balanceGeometry(const BalanceChart& chart, double width, double height,
                                double lineHeight, double labelWidth, double margin,
                                double titleHeight)
{
    BalanceGeometry g;
    const double gap = 4.0;
    const double left = margin;
    const double plotW = std::max(0.0, width - 2.0 * margin);
    const double title = titleHeight < 0 ? lineHeight : titleHeight;
    // three titles, the rank labels under the last strip, two gaps between strips
    const double plotsH =
        std::max(0.0, height - 2.0 * margin - 3.0 * title - lineHeight - 2.0 * gap);
    const double share[3] = {0.45, 0.25, 0.30};
    double y = margin;
    for (int s = 0; s < 3; ++s) {
        g.titleY[s] = y;
        y += title;
        g.strips[s] = {left, y, plotW, std::floor(plotsH * share[s])};
        y += g.strips[s].h + gap;
    }
    const double maxOf[3] = {chart.maxNnz, chart.maxRows, chart.maxHalo};
    const double meanOf[3] = {chart.meanNnz, chart.meanRows, chart.meanHalo};
    auto heightOf = [&](int s, double v) {
        return maxOf[s] > 0 ? v / maxOf[s] * g.strips[s].h : 0.0;
    };
    for (int s = 0; s < 3; ++s) {
        g.meanY[s] = g.strips[s].bottom() - heightOf(s, meanOf[s]);
    }
    const auto n = chart.bars.size();
    if (n == 0) return g;
    const double slot = plotW / static_cast<double>(n);
    const double barW = slot >= 3.0 ? slot * 0.8 : slot;
    for (std::size_t i = 0; i < n; ++i) {
        const auto& b = chart.bars[i];
        const double x = left + static_cast<double>(i) * slot + (slot - barW) / 2.0;
        BalanceGeometry::Bar r;
        const double hl = heightOf(BalanceGeometry::nnz, b.local);
        const double hn = heightOf(BalanceGeometry::nnz, b.nonlocal);
        const double base = g.strips[BalanceGeometry::nnz].bottom();
        r.local = {x, base - hl, barW, hl};
        r.nonlocal = {x, base - hl - hn, barW, hn};
        const double hr = heightOf(BalanceGeometry::rows, b.rows);
        r.rows = {x, g.strips[BalanceGeometry::rows].bottom() - hr, barW, hr};
        const double hh = heightOf(BalanceGeometry::halo, b.halo);
        r.halo = {x, g.strips[BalanceGeometry::halo].bottom() - hh, barW, hh};
        g.bars.push_back(r);
    }
    const std::size_t step =
        slot >= labelWidth ? 1 : static_cast<std::size_t>(std::ceil(labelWidth / slot));
    for (std::size_t i = 0; i < n; i += step) g.labelledBars.push_back(i);
    if (g.labelledBars.back() != n - 1) {
        if (g.labelledBars.size() > 1 && n - 1 - g.labelledBars.back() < step) {
            g.labelledBars.back() = n - 1;  // keep the last rank's label, drop its neighbour
        } else {
            g.labelledBars.push_back(n - 1);
        }
    }
    return g;
}

// ---- timelines -----------------------------------------------------------------------------

int slowestRank(const spmv::dist::Timeline& t)
{
    const auto its = spmv::dist::iterations(t);
    if (its.empty()) return -1;
    const int last = its.back();
    int rank = -1;
    double end = -std::numeric_limits<double>::infinity();
    for (const auto& e : t.events) {
        if (e.iteration != last) continue;
        if (e.end_us > end || (e.end_us == end && e.rank < rank)) {
            end = e.end_us;
            rank = e.rank;
        }
    }
    return rank;
}

std::vector<spmv::dist::Timeline> selectTimelineRanks(
    const std::vector<spmv::dist::Timeline>& timelines, TimelineRanks which)
{
    if (which == TimelineRanks::all) return timelines;
    std::vector<spmv::dist::Timeline> out;
    for (const auto& t : timelines) {
        spmv::dist::Timeline kept = t;
        kept.events.clear();
        const int rank = slowestRank(t);
        for (const auto& e : t.events) {
            if (e.rank == rank) kept.events.push_back(e);
        }
        out.push_back(std::move(kept));
    }
    return out;
}

TimelineFit fitTimelinesLegibly(const std::vector<spmv::dist::Timeline>& timelines,
                                double width, double height, double minTextPixels,
                                double reserve)
{
    // the layout writes its text 11 px high (timeline_svg); rows of 10 px (plus the layout's
    // gap between rows) keep their 11 px labels apart
    const double legible = minTextPixels / 11.0;
    TimelineFit fit;
    for (std::size_t k = timelines.size(); k >= 1; --k) {
        const std::vector<spmv::dist::Timeline> first(timelines.begin(),
                                                      timelines.begin() + static_cast<long>(k));
        const double room = k < timelines.size() ? height - reserve : height;
        fit = fitTimelines(first, width, room, legible, 10.0, 18.0);
        fit.shown = k;
        if (fit.scale >= legible * 0.999) return fit;
    }
    return fit;  // one timeline, scaled down as it must (a view too small for any)
}

TimelineFit fitTimelines(const std::vector<spmv::dist::Timeline>& timelines, double width,
                         double height, double zoom, double minRow, double maxRow)
{
    TimelineFit fit;
    fit.shown = timelines.size();
    fit.scale = zoom > 0 ? zoom : 1.0;
    double w = width / fit.scale;
    double h = height / fit.scale;
    if (w < minTimelineWidth) {
        const double f = w / minTimelineWidth;
        fit.scale *= f;
        w = minTimelineWidth;
        h /= f;
    }
    auto layoutAt = [&](double row, double w_) {
        fit.options.width_px = w_;
        fit.options.row_height_px = row;
        return spmv::viz::timeline_layout(timelines, fit.options);
    };
    fit.layout = layoutAt(maxRow, w);
    if (fit.layout.height <= h) return fit;
    const double hMax = fit.layout.height;
    auto smallest = layoutAt(minRow, w);
    if (smallest.height <= h) {
        // the height grows linearly with the row height: interpolate, then make sure
        double row = std::floor(minRow + (h - smallest.height) / (hMax - smallest.height) *
                                             (maxRow - minRow));
        row = std::clamp(row, minRow, maxRow);
        fit.layout = layoutAt(row, w);
        while (fit.layout.height > h && row > minRow) {
            row = std::max(minRow, row - 1.0);
            fit.layout = layoutAt(row, w);
        }
        return fit;
    }
    // too tall even with the smallest rows: a larger virtual canvas, drawn scaled down
    const double f = h / smallest.height;
    fit.scale *= f;
    fit.layout = layoutAt(minRow, w / f);
    return fit;
}

std::vector<TimelineLegendItem> timelineLegend(const spmv::viz::TimelineLayout& layout)
{
    std::vector<TimelineLegendItem> items;
    double x = legendMargin;
    double y = layout.legend_y;
    for (auto ph : layout.legend) {
        TimelineLegendItem it;
        it.phase = ph;
        it.label = spmv::viz::phase_label(ph);
        const double w =
            legendSwatch + 5.0 + legendCharWidth * static_cast<double>(it.label.size()) + 16.0;
        if (x > legendMargin && x + w > layout.width - legendMargin) {
            x = legendMargin;
            y += legendLineHeight;
        }
        it.swatch = {x, y, legendSwatch, legendSwatch};
        it.textX = x + legendSwatch + 5.0;
        it.baselineY = y + 10.0;
        items.push_back(std::move(it));
        x += w;
    }
    return items;
}

std::vector<double> timelineTicks(const spmv::viz::TimelineAxis& axis)
{
    std::vector<double> ticks;
    if (!(axis.step_us > 0)) return ticks;
    const auto n = static_cast<int>(std::lround(axis.max_us / axis.step_us));
    for (int i = 0; i <= n; ++i) ticks.push_back(i * axis.step_us);
    return ticks;
}


// ---- scaling curve -------------------------------------------------------------------------

spmv::viz::Rgb modeColour(spmv::dist::Mode m) noexcept
{
    switch (m) {
        case spmv::dist::Mode::vector:
            return spmv::viz::okabe_ito::blue;
        case spmv::dist::Mode::naive:
            return spmv::viz::okabe_ito::orange;
        case spmv::dist::Mode::overlap:
            return spmv::viz::okabe_ito::reddish_purple;
        case spmv::dist::Mode::task:
            return spmv::viz::okabe_ito::bluish_green;
    }
    return spmv::viz::okabe_ito::black;
}

ScalingChart scalingChart(const spmv::dist::ScalingResult& result)
{
    using spmv::dist::Mode;
    ScalingChart c;
    double lo = std::numeric_limits<double>::infinity();
    double hi = 0;
    double effMax = 1.0;
    c.minRanks = std::numeric_limits<int>::max();
    c.maxRanks = 0;
    for (auto m : spmv::dist::all_modes) {
        ScalingSeries s;
        s.mode = m;
        for (const auto& p : result.points) {
            const double t = p.prediction.time_s[m] * 1e6;
            const double x = static_cast<double>(p.num_ranks);
            if (t > 0 && std::isfinite(t)) {
                s.timeUs.push_back({x, t});
                lo = std::min(lo, t);
                hi = std::max(hi, t);
            }
            s.efficiency.push_back({x, p.efficiency[m]});
            effMax = std::max(effMax, p.efficiency[m]);
            c.minRanks = std::min(c.minRanks, p.num_ranks);
            c.maxRanks = std::max(c.maxRanks, p.num_ranks);
        }
        c.series.push_back(std::move(s));
    }
    if (c.maxRanks == 0) c.minRanks = c.maxRanks = 1;
    c.timeRange = hi > 0 ? spmv::viz::decades(lo, hi) : spmv::viz::Decades{};
    c.maxEfficiency = std::ceil(effMax * 10.0 - 1e-9) / 10.0;
    return c;
}

std::vector<int> scalingRanks(std::int64_t rows, int limit)
{
    std::vector<int> r;
    const std::int64_t top =
        std::min<std::int64_t>(std::max(limit, 1), std::max<std::int64_t>(rows, 1));
    for (std::int64_t p = 1; p <= top; p *= 2) r.push_back(static_cast<int>(p));
    return r;
}
