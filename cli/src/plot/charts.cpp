// Layout of the rows chart and the scatter chart (charts.hpp).
#include "plot/charts.hpp"

#include <algorithm>
#include <cmath>

#include <spmv/error.hpp>

namespace spmvlab::plot {
namespace {

constexpr Rgb ink{20, 20, 20};
constexpr Rgb grey_text{85, 85, 85};
constexpr Rgb grid{215, 215, 215};
constexpr Rgb frame{120, 120, 120};
constexpr Rgb shade{244, 245, 247};
constexpr double title_size = 20;
constexpr double small = 12.5;
constexpr double tick_size = 12;
constexpr double label_size = 14;

Marker key_marker(const Series& s, double x, double y, double r, std::string role,
                  std::string tip = {})
{
    return Marker{x, y, r, s.shape, s.colour, s.hollow, 1.0, std::move(role), std::move(tip)};
}

/// Title, provenance and legend; returns the y where the plot may start.
double draw_header(Scene& s, const Header& h, const std::vector<ValueLine>& lines, double width)
{
    double y = 30;
    s.add(Text{20, y, h.title, title_size, Anchor::start, false, true, ink, "title"});
    y += 8;
    for (const auto& p : h.provenance) {
        y += 17;
        s.add(Text{20, y, p, small, Anchor::start, false, false, grey_text, "provenance"});
    }
    // legend: series markers, then the reference lines, wrapped to the width
    double x = 20;
    y += 26;
    auto room = [&](double w) {
        if (x + w > width - 20 && x > 20) {
            x = 20;
            y += 20;
        }
    };
    for (const auto& se : h.series) {
        const double w = 18 + text_width(se.label, label_size - 1) + 22;
        room(w);
        s.add(key_marker(se, x + 6, y - 5, 5, "legend-key"));
        s.add(Text{x + 18, y, se.label, label_size - 1, Anchor::start, false, false, ink, "legend"});
        x += w;
    }
    for (const auto& l : lines) {
        if (l.label.empty()) continue;
        const double w = 30 + text_width(l.label, label_size - 1) + 22;
        room(w);
        s.add(Line{x, y - 5, x + 24, y - 5, l.colour, 1.5, l.dashed, "legend-key", {}});
        s.add(Text{x + 30, y, l.label, label_size - 1, Anchor::start, false, false, ink, "legend"});
        x += w;
    }
    return y + 14;
}

double draw_footer(Scene& s, const std::vector<std::string>& footer, double y)
{
    for (const auto& f : footer) {
        y += 17;
        s.add(Text{20, y, f, small, Anchor::start, false, false, grey_text, "footer"});
    }
    return y;
}

struct Range {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    void add(double v, bool log)
    {
        if (!std::isfinite(v)) return;
        SPMV_EXPECTS(!log || v > 0, "plot: a value <= 0 on a logarithmic axis");
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    bool empty() const { return lo > hi; }
};

Axis make_axis(Range r, bool log, double px_lo, double px_hi, int max_ticks)
{
    if (log) {
        return Axis::logarithmic(r.lo, r.hi, px_lo, px_hi, max_ticks);
    }
    return Axis::linear(std::min(0.0, r.lo), r.hi, px_lo, px_hi, max_ticks);
}

// a deterministic jitter in [-1, 1] for the k-th dot of a strip
double jitter(std::size_t k)
{
    const auto h = (k * 2654435761u) % 1000u;
    return static_cast<double>(h) / 500.0 - 1.0;
}

}  // namespace

std::string fit_text(const std::string& text, double size, double max_px)
{
    if (text_width(text, size) <= max_px) return text;
    std::string t = text;
    while (!t.empty() && text_width(t + "...", size) > max_px) {
        t.pop_back();
        while (!t.empty() && (static_cast<unsigned char>(t.back()) & 0xc0) == 0x80) t.pop_back();
        if (!t.empty() && static_cast<unsigned char>(t.back()) >= 0xc0) t.pop_back();
    }
    return t + "...";
}

Quartiles quartiles(std::vector<double> v)
{
    if (v.empty()) return {};
    std::sort(v.begin(), v.end());
    auto at = [&](double q) {
        const double pos = q * static_cast<double>(v.size() - 1);
        const auto k = static_cast<std::size_t>(std::floor(pos));
        const double f = pos - static_cast<double>(k);
        return k + 1 < v.size() ? v[k] + f * (v[k + 1] - v[k]) : v[k];
    };
    return {at(0.25), at(0.5), at(0.75)};
}

Scene draw(const RowsChart& c)
{
    SPMV_EXPECTS(!c.rows.empty(), "plot: a rows chart without rows");
    SPMV_EXPECTS(c.max_rows_per_column >= 1, "plot: max_rows_per_column must be >= 1");
    Range r;
    bool boxes = false;
    for (const auto& row : c.rows) {
        for (const auto& m : row.marks) r.add(m.value, c.log);
        for (const double v : row.strip) r.add(v, c.log);
        r.add(row.range_lo, c.log);
        r.add(row.range_hi, c.log);
        boxes = boxes || std::isfinite(row.median);
    }
    for (const auto& l : c.lines) r.add(l.value, c.log);
    if (std::isfinite(c.min_value)) r.lo = c.min_value;
    if (std::isfinite(c.max_value)) r.hi = c.max_value;
    SPMV_EXPECTS(!r.empty(), "plot: a rows chart without values");

    const auto n = c.rows.size();
    const auto columns = (n + static_cast<std::size_t>(c.max_rows_per_column) - 1) /
                         static_cast<std::size_t>(c.max_rows_per_column);
    const auto per_column = (n + columns - 1) / columns;
    const double rh = boxes ? c.row_height * 1.8 : c.row_height;
    double label_w = 0, note_w = 0;
    for (const auto& row : c.rows) {
        label_w = std::max(label_w, text_width(row.label, tick_size));
        note_w = std::max(note_w, text_width(row.note, tick_size - 1));
    }
    label_w = std::min(label_w, 300.0) + 6;
    note_w = note_w > 0 ? std::min(note_w, 200.0) + 10 : 0;

    Scene s;
    s.width = static_cast<double>(columns) * c.column_width;
    const double top = draw_header(s, c.header, c.lines, s.width) + 30;  // + top tick labels
    const double bottom = top + static_cast<double>(per_column) * rh;
    s.height = std::ceil(draw_footer(s, c.header.footer, bottom + 62) + 14);  // whole pixels
    s.items.insert(s.items.begin(), Rect{0, 0, s.width, s.height, {255, 255, 255}, 1, false,
                                         {}, "background", {}});

    for (std::size_t col = 0; col < columns; ++col) {
        const double x0 = static_cast<double>(col) * c.column_width;
        const double label_right = x0 + 16 + label_w;
        const double pl = label_right + 10;
        const double pr = x0 + c.column_width - note_w - 18;
        const Axis ax = make_axis(r, c.log, pl, pr, c.log ? 14 : 10);
        const auto first = col * per_column;
        const auto last = std::min(n, first + per_column);
        for (auto k = first; k < last; k += 2) {  // every other row shaded, for the eye
            s.add(Rect{x0 + 10, top + static_cast<double>(k - first) * rh, pr - x0 - 10, rh, shade,
                       1, false, {}, "shade", {}});
        }
        for (const double t : ax.ticks) {
            const double x = ax.px(t);
            s.add(Line{x, top, x, bottom, grid, 1, false, "grid", {}});
            s.add(Text{x, bottom + 16, tick_label(t), tick_size, Anchor::middle, false, false, ink,
                       "tick-label"});
            s.add(Text{x, top - 7, tick_label(t), tick_size, Anchor::middle, false, false, ink,
                       "tick-label"});
        }
        s.add(Rect{pl, top, pr - pl, bottom - top, {255, 255, 255}, 0, true, frame, "frame", {}});
        s.add(Text{(pl + pr) / 2, bottom + 38, c.value_label, label_size, Anchor::middle, false,
                   false, ink, "axis-label"});
        if (!c.row_label_title.empty()) {
            s.add(Text{x0 + 16, top - 7, c.row_label_title, tick_size, Anchor::start, false, true,
                       ink, "axis-label"});
        }
        for (const auto& l : c.lines) {
            const double x = ax.px(l.value);
            s.add(Line{x, top, x, bottom, l.colour, 1.5, l.dashed, "reference", {}});
        }
        for (auto k = first; k < last; ++k) {
            const auto& row = c.rows[k];
            const double yc = top + (static_cast<double>(k - first) + 0.5) * rh;
            s.add(Text{label_right, yc + 4, fit_text(row.label, tick_size, 300), tick_size,
                       Anchor::end, false, false, ink, "row-label"});
            if (!row.note.empty()) {
                s.add(Text{pr + 8, yc + 4, fit_text(row.note, tick_size - 1, 200), tick_size - 1,
                           Anchor::start, false, false, grey_text, "row-note"});
            }
            if (std::isfinite(row.range_lo) && std::isfinite(row.range_hi)) {
                s.add(Line{ax.px(row.range_lo), yc, ax.px(row.range_hi), yc, {150, 150, 150}, 2,
                           false, "range", {}});
            }
            for (std::size_t d = 0; d < row.strip.size(); ++d) {
                s.add(Marker{ax.px(row.strip[d]), yc + jitter(d + 7 * k) * rh * 0.28, 2.2,
                             Shape::circle, row.box_colour, false, 0.35, "strip", {}});
            }
            if (std::isfinite(row.median)) {
                const double h = rh * 0.62;
                s.add(Rect{ax.px(row.q1), yc - h / 2, ax.px(row.q3) - ax.px(row.q1), h,
                           row.box_colour, 0.22, true, row.box_colour, "box", {}});
                s.add(Line{ax.px(row.median), yc - h / 2, ax.px(row.median), yc + h / 2,
                           row.box_colour, 3, false, "median", {}});
            }
            for (const auto& m : row.marks) {
                SPMV_EXPECTS(m.series >= 0 &&
                                 static_cast<std::size_t>(m.series) < c.header.series.size(),
                             "plot: a mark of an unknown series");
                if (!std::isfinite(m.value)) continue;
                s.add(key_marker(c.header.series[static_cast<std::size_t>(m.series)],
                                 ax.px(m.value), yc, 4.5, "point", m.tip));
            }
        }
    }
    return s;
}

Scene draw(const ScatterChart& c)
{
    SPMV_EXPECTS(!c.points.empty(), "plot: a scatter chart without points");
    Range rx, ry;
    for (const auto& p : c.points) {
        rx.add(p.x, c.x_log);
        ry.add(p.y, c.y_log);
    }
    for (const auto& l : c.lines) {
        if (l.kind == RefLine::horizontal) ry.add(l.value, c.y_log);
        if (l.kind == RefLine::vertical) rx.add(l.value, c.x_log);
    }
    if (std::isfinite(c.y_min)) ry.lo = c.y_min;
    if (std::isfinite(c.y_max)) ry.hi = c.y_max;
    if (c.square) {
        rx.lo = ry.lo = std::min(rx.lo, ry.lo);
        rx.hi = ry.hi = std::max(rx.hi, ry.hi);
    }
    Scene s;
    s.width = c.width;
    s.height = c.height;
    s.add(Rect{0, 0, s.width, s.height, {255, 255, 255}, 1, false, {}, "background", {}});
    std::vector<ValueLine> keys;
    for (const auto& l : c.lines) keys.push_back({l.value, l.label, l.colour, l.dashed});
    const double top = draw_header(s, c.header, keys, s.width) + 12;
    const double bottom = c.height - 64 - 17.0 * static_cast<double>(c.header.footer.size());
    double left = 92, right = c.width - 30;
    if (c.square) {  // equal pixels per decade on both axes
        const double side = std::min(right - left, bottom - top);
        right = left + side;
    }
    SPMV_EXPECTS(bottom - top > 100, "plot: scatter chart too small for its header");
    const Axis ax = make_axis(rx, c.x_log, left, right, 14);
    Axis ay = make_axis(ry, c.y_log, bottom, top, 12);
    if (c.square) ay = Axis::logarithmic(ax.lo, ax.hi, bottom, top, 14);
    for (const double t : ax.ticks) {
        s.add(Line{ax.px(t), top, ax.px(t), bottom, grid, 1, false, "grid", {}});
        s.add(Text{ax.px(t), bottom + 17, tick_label(t), tick_size, Anchor::middle, false, false,
                   ink, "tick-label"});
    }
    for (const double t : ay.ticks) {
        s.add(Line{left, ay.px(t), right, ay.px(t), grid, 1, false, "grid", {}});
        s.add(Text{left - 6, ay.px(t) + 4, tick_label(t), tick_size, Anchor::end, false, false, ink,
                   "tick-label"});
    }
    s.add(Rect{left, top, right - left, bottom - top, {255, 255, 255}, 0, true, frame, "frame", {}});
    s.add(Text{(left + right) / 2, bottom + 42, c.x_label, label_size, Anchor::middle, false,
               false, ink, "axis-label"});
    s.add(Text{26, (top + bottom) / 2, c.y_label, label_size, Anchor::middle, true, false, ink,
               "axis-label"});
    for (const auto& l : c.lines) {
        if (l.kind == RefLine::horizontal) {
            s.add(Line{left, ay.px(l.value), right, ay.px(l.value), l.colour, 1.5, l.dashed,
                       "reference", l.label});
        } else if (l.kind == RefLine::vertical) {
            s.add(Line{ax.px(l.value), top, ax.px(l.value), bottom, l.colour, 1.5, l.dashed,
                       "reference", l.label});
        } else {  // y = k x, clipped to the plot
            const double x1 = std::max(ax.lo, ay.lo / l.value);
            const double x2 = std::min(ax.hi, ay.hi / l.value);
            if (x2 > x1) {
                s.add(Line{ax.px(x1), ay.px(l.value * x1), ax.px(x2), ay.px(l.value * x2),
                           l.colour, 1.5, l.dashed, "reference", l.label});
            }
        }
    }
    for (const auto& p : c.points) {
        SPMV_EXPECTS(p.series >= 0 && static_cast<std::size_t>(p.series) < c.header.series.size(),
                     "plot: a point of an unknown series");
        if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
        auto m = key_marker(c.header.series[static_cast<std::size_t>(p.series)], ax.px(p.x),
                            ay.px(p.y), 4, "point", p.tip);
        m.opacity = 0.8;
        s.add(m);
    }
    // names over every marker: right of it, else left, else a line lower or higher; a name
    // that would overlap one already placed (or leave the plot) is not drawn
    struct Box {
        double x0, y0, x1, y1;
    };
    std::vector<Box> placed;
    for (const auto& p : c.points) {
        if (p.label.empty() || !std::isfinite(p.x) || !std::isfinite(p.y)) continue;
        const double x = ax.px(p.x), y = ay.px(p.y) + 4;
        const double w = text_width(p.label, tick_size - 1), h = tick_size;
        for (const auto& [dx, dy] : {std::pair{8.0, 0.0}, {-8.0, 0.0}, {8.0, 13.0}, {8.0, -13.0},
                                     {-8.0, 13.0}, {-8.0, -13.0}}) {
            const Box b{dx > 0 ? x + dx : x + dx - w, y + dy - h, dx > 0 ? x + dx + w : x + dx,
                        y + dy + 2};
            const bool inside = b.x0 > left && b.x1 < right && b.y0 > top && b.y1 < bottom;
            const bool clear = std::none_of(placed.begin(), placed.end(), [&](const Box& o) {
                return b.x0 < o.x1 && o.x0 < b.x1 && b.y0 < o.y1 && o.y0 < b.y1;
            });
            if (!inside || !clear) continue;
            placed.push_back(b);
            s.add(Text{dx > 0 ? b.x0 : b.x1, y + dy, p.label, tick_size - 1,
                       dx > 0 ? Anchor::start : Anchor::end, false, false, grey_text,
                       "point-label"});
            break;
        }
    }
    draw_footer(s, c.header.footer, bottom + 50);
    return s;
}

}  // namespace spmvlab::plot
