#include "coalescing_geometry.hpp"

#include <algorithm>
#include <cmath>

#include <spmv/error.hpp>

namespace {

/// QRectF::contains: the edges belong to the rectangle.
bool containsClosed(const LayoutRect& r, double x, double y)
{
    return x >= r.x && x <= r.right() && y >= r.y && y <= r.bottom();
}

}  // namespace

double CoalescingMetrics::pad() const
{
    return std::round(8 * scale);
}

double CoalescingMetrics::available() const
{
    return std::max(200.0, width - 2 * pad());
}

std::optional<LayoutRect> CoalescingGeometry::Load::byteRect(std::int64_t offset) const
{
    for (const auto& s : sectors) {
        if (s.sector == offset / spmv::viz::sector_bytes) {
            const double cw = s.rect.w / cellsPerSector;
            const auto cell = (offset % spmv::viz::sector_bytes) / elementBytes;
            return LayoutRect{s.rect.x + static_cast<double>(cell) * cw, s.rect.y, cw, s.rect.h};
        }
    }
    return std::nullopt;
}

std::optional<std::pair<std::size_t, std::int64_t>> CoalescingGeometry::Load::byteAt(double x,
                                                                                     double y) const
{
    for (std::size_t k = 0; k < sectors.size(); ++k) {
        const auto& s = sectors[k];
        if (!containsClosed(s.rect, x, y)) continue;
        const auto cell = static_cast<std::int64_t>((x - s.rect.x) / (s.rect.w / cellsPerSector));
        return std::pair{k, s.sector * spmv::viz::sector_bytes + cell * elementBytes};
    }
    return std::nullopt;
}

std::optional<int> CoalescingGeometry::laneAt(double x, double y) const
{
    for (std::size_t k = 0; k < lanes.size(); ++k) {
        if (containsClosed(lanes[k], x, y)) return static_cast<int>(k);
    }
    return std::nullopt;
}

std::optional<LayoutRect> CoalescingGeometry::byteRect(int load, std::int64_t offset) const
{
    if (load < 0 || static_cast<std::size_t>(load) >= loads.size()) return std::nullopt;
    return loads[static_cast<std::size_t>(load)].byteRect(offset);
}

double coalescingMessageHeight(const CoalescingMetrics& m, double messageHeight)
{
    return m.pad() * 2 + messageHeight + m.lineHeight;
}

namespace {

/// The lane boxes from y on; returns the y below them.
double placeLanes(const spmv::viz::WarpTrip& t, const CoalescingMetrics& m,
                  const CoalescingTexts& texts, double y, CoalescingGeometry& g)
{
    const double pad = m.pad();
    const double left = pad;
    const double avail = m.available();
    const double lw = std::clamp(avail / t.warp_size, 4.0, 34.0 * m.scale);
    const double lh = std::round(m.smallLineHeight * 1.4);
    // each lane's row number under its box, when every one of them fits there
    g.showRows = true;
    for (const auto row : t.lane_rows) {
        if (row >= 0 && texts.rowNumberWidth(row) + 2 > lw) g.showRows = false;
    }
    g.lanesCaption = {left, y, avail,
                      g.showRows ? texts.lanesCaptionWithRowsHeight : texts.lanesCaptionHeight};
    y = g.lanesCaption.bottom() + 2;
    const double line = lh + (g.showRows ? m.smallLineHeight : 0.0);
    double x = left;
    for (int lane = 0; lane < t.warp_size; ++lane) {
        if (x + lw > left + avail + 0.5) {  // the warp wraps onto another line
            x = left;
            y += line + 2;
        }
        g.lanes.push_back({x, y, lw, lh});
        x += lw;
    }
    return y + line + pad;
}

/// One load's caption, count and strip from y on; returns the y below them.
double placeLoad(const spmv::viz::ArrayReads& a, const CoalescingTexts::Load& text,
                 const CoalescingMetrics& m, const CoalescingTexts& texts, double y,
                 CoalescingGeometry::Load& l)
{
    const double pad = m.pad();
    const double left = pad;
    const double avail = m.available();
    const double lineH = m.lineHeight;
    if (text.captionWidth + pad * 2 + text.countWidth <= avail) {
        l.caption = {left, y, text.captionWidth + 1, lineH};
        l.count = {left + avail - text.countWidth - 1, y, text.countWidth + 1, lineH};
        y += lineH + 3;
    } else {  // narrow (or presentation mode): the count goes under the caption, wrapped
        l.caption = {left, y, avail, text.captionHeight};
        y = l.caption.bottom() + 1;
        l.count = {left, y, avail, lineH};
        y += lineH + 3;
    }
    l.elementBytes = a.element_bytes;
    l.cellsPerSector = spmv::viz::sector_bytes / a.element_bytes;

    const double sh = std::round(lineH * 1.5);  // strip height
    // a break between runs of sectors: narrow, so that a scattered warp's 32 sectors fit a line
    const double gap = std::round(lineH * 1.2);
    const auto runs = spmv::viz::strip_runs(a.sectors, 2);
    std::int64_t shown = 0;
    for (const auto& r : runs) shown += r.sectors;
    // sector width: fill the line, within legible bounds; wrap to more lines beyond
    const double gaps = static_cast<double>(runs.empty() ? 0 : runs.size() - 1) * gap;
    const double minCell = 5.0 * m.scale;
    const double sw = shown == 0 ? 0.0
                                 : std::clamp((avail - gaps) / static_cast<double>(shown),
                                              minCell * l.cellsPerSector,
                                              std::max(minCell * l.cellsPerSector, 90.0 * m.scale));
    double x = left;
    double lineTop = y;
    const double labelH = m.smallLineHeight;
    double lastLabelEnd = -1e9;
    for (std::size_t k = 0; k < runs.size(); ++k) {
        if (k > 0) {
            const std::int64_t skipped =
                runs[k].first_sector - (runs[k - 1].first_sector + runs[k - 1].sectors);
            if (x + gap + sw > left + avail + 0.5) {  // the break starts the next line
                x = left;
                lineTop += sh + labelH + 6;
                lastLabelEnd = -1e9;
            }
            l.breaks.push_back({{x, lineTop, gap, sh}, skipped});
            x += gap;
        }
        for (std::int64_t s = 0; s < runs[k].sectors; ++s) {
            if (x + sw > left + avail + 0.5) {
                x = left;
                lineTop += sh + labelH + 6;
                lastLabelEnd = -1e9;
            }
            CoalescingGeometry::Sector sec;
            sec.sector = runs[k].first_sector + s;
            sec.rect = {x, lineTop, sw, sh};
            sec.touched = std::binary_search(a.sectors.begin(), a.sectors.end(), sec.sector);
            // a sector's number under it where it does not run into the previous one
            const double tw = texts.sectorLabelWidth(sec.sector);
            if ((s == 0 || sec.touched) && x >= lastLabelEnd + 4 && x + tw <= left + avail + pad) {
                sec.labelled = true;
                lastLabelEnd = x + tw;
            }
            l.sectors.push_back(sec);
            x += sw;
        }
    }
    return (runs.empty() ? y + lineH : lineTop + sh + labelH) + pad;
}

}  // namespace

CoalescingGeometry coalescingGeometry(const spmv::viz::WarpTrip& trip, const CoalescingMetrics& m,
                                      const CoalescingTexts& texts)
{
    SPMV_EXPECTS(texts.loads.size() == trip.arrays.size(),
                 "coalescingGeometry needs one measured caption per load");
    SPMV_EXPECTS(texts.rowNumberWidth && texts.sectorLabelWidth,
                 "coalescingGeometry needs the widths of row numbers and sector labels");
    SPMV_EXPECTS(trip.warp_size >= 1, "coalescingGeometry needs a warp of at least one lane");
    CoalescingGeometry g;
    const double pad = m.pad();
    const double left = pad;
    const double avail = m.available();
    double y = pad;
    g.title = {left, y, avail, texts.titleHeight};
    y = g.title.bottom() + pad / 2;
    g.header = {left, y, avail, texts.headerHeight};
    y = g.header.bottom() + pad;
    y = placeLanes(trip, m, texts, y, g);
    for (std::size_t i = 0; i < trip.arrays.size(); ++i) {
        SPMV_EXPECTS(trip.arrays[i].element_bytes >= 1 &&
                         trip.arrays[i].element_bytes <= spmv::viz::sector_bytes,
                     "coalescingGeometry needs elements of 1 to 32 bytes");
        CoalescingGeometry::Load l;
        y = placeLoad(trip.arrays[i], texts.loads[i], m, texts, y, l);
        g.loads.push_back(std::move(l));
    }
    g.legend = {left, y, avail, texts.legendHeight};
    g.height = g.legend.bottom() + pad;
    return g;
}
