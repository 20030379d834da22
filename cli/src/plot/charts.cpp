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

Symbol series_symbol(const Series& s, double x, double y, double r, std::string tip)
{
    SPMV_EXPECTS(!tip.empty(), "plot: a marker without a tooltip (" + s.label + ")");
    return Symbol{.x = x, .y = y, .radius = r, .shape = s.shape, .colour = s.colour,
                  .hollow = s.hollow, .tip = std::move(tip), .role = "point"};
}

Dash dash_of(bool dashed) { return dashed ? Dash::dashed : Dash::solid; }

/// Title, provenance and legend; returns the y where the plot may start.
double draw_header(Scene& s, const Header& h, const std::vector<ValueLine>& lines, double width)
{
    double y = 30;
    // every line stays inside the figure (fit_text cuts with "..."; a bold title is a little
    // wider: text_width counts it 10 % wider, so it is cut as a 10 % larger regular font)
    s.add(Text{.x = 20, .y = y, .text = fit_text(h.title, title_size * 1.1, width - 40),
               .size = title_size, .bold = true, .colour = ink, .role = "title"});
    y += 8;
    for (const auto& p : h.provenance) {
        y += 17;
        s.add(Text{.x = 20, .y = y, .text = fit_text(p, small, width - 40), .size = small,
                   .colour = grey_text, .role = "provenance"});
    }
    // legend: series markers, then the reference lines, wrapped to the width
    std::vector<spmv::viz::LegendEntry> keys;
    for (const auto& se : h.series) {
        keys.push_back({.label = se.label,
                        .key = spmv::viz::LegendEntry::Key::symbol,
                        .colour = se.colour,
                        .shape = se.shape,
                        .hollow = se.hollow});
    }
    for (const auto& l : lines) {
        if (l.label.empty()) continue;
        keys.push_back({.label = l.label,
                        .key = spmv::viz::LegendEntry::Key::line,
                        .colour = l.colour,
                        .dash = dash_of(l.dashed)});
    }
    spmv::viz::LegendStyle st;
    st.left = 20;
    st.right = width - 20;
    st.size = label_size - 1;
    st.key = 10;   // a symbol of radius 5, a line sample 22 px long
    st.rise = 5;
    st.gap = 8;
    st.spacing = 22;
    st.colour = ink;
    return spmv::viz::draw_legend(s, keys, st, y + 26) + 14;
}

double draw_footer(Scene& s, const std::vector<std::string>& footer, double y, double width)
{
    for (const auto& f : footer) {
        y += 17;
        s.add(Text{.x = 20, .y = y, .text = fit_text(f, small, width - 40), .size = small,
                   .colour = grey_text, .role = "footer"});
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
    // the labels' title ("variant", "format") and the top tick labels share the line above the
    // plot: the column is wide enough that the title ends 10 px before the first tick label,
    // centred on the axis' left end (the ticks do not depend on the pixels)
    if (!c.row_label_title.empty()) {
        const Axis probe = make_axis(r, c.log, 0, 1, c.log ? 14 : 10);
        const double first_half =
            probe.ticks.empty() ? 0 : text_width(tick_label(probe.ticks.front()), tick_size) / 2;
        label_w = std::max(label_w, text_width(c.row_label_title, tick_size, true) + first_half);
    }

    Scene s;
    s.width = static_cast<double>(columns) * c.column_width;
    const double top = draw_header(s, c.header, c.lines, s.width) + 30;  // + top tick labels
    const double bottom = top + static_cast<double>(per_column) * rh;
    s.height = std::ceil(draw_footer(s, c.header.footer, bottom + 62, s.width) + 14);  // whole px
    s.items.insert(s.items.begin(), Rect{.w = s.width, .h = s.height, .role = "background"});

    for (std::size_t col = 0; col < columns; ++col) {
        const double x0 = static_cast<double>(col) * c.column_width;
        const double label_right = x0 + 16 + label_w;
        const double pl = label_right + 10;
        const double pr = x0 + c.column_width - note_w - 18;
        const Axis ax = make_axis(r, c.log, pl, pr, c.log ? 14 : 10);
        const auto first = col * per_column;
        const auto last = std::min(n, first + per_column);
        for (auto k = first; k < last; k += 2) {  // every other row shaded, for the eye
            s.add(Rect{.x = x0 + 10, .y = top + static_cast<double>(k - first) * rh,
                       .w = pr - x0 - 10, .h = rh, .fill = shade, .role = "shade"});
        }
        const spmv::viz::TickStyle ticks{tick_size, ink, tick_label};
        spmv::viz::x_grid(s, ax, top, bottom, grid);
        spmv::viz::x_tick_labels(s, ax, bottom + 16, ticks);
        spmv::viz::x_tick_labels(s, ax, top - 7, ticks);
        s.add(Rect{.x = pl, .y = top, .w = pr - pl, .h = bottom - top, .opacity = 0,
                   .stroke = true, .stroke_colour = frame, .role = "frame"});
        s.add(Text{.x = (pl + pr) / 2, .y = bottom + 38, .text = c.value_label,
                   .size = label_size, .anchor = Anchor::middle, .colour = ink,
                   .role = "axis-label"});
        if (!c.row_label_title.empty()) {
            s.add(Text{.x = x0 + 16, .y = top - 7, .text = c.row_label_title, .size = tick_size,
                       .bold = true, .colour = ink, .role = "axis-label"});
        }
        for (const auto& l : c.lines) {
            const double x = ax.px(l.value);
            s.add(Line{.x1 = x, .y1 = top, .x2 = x, .y2 = bottom, .colour = l.colour,
                       .width = 1.5, .dash = dash_of(l.dashed), .role = "reference"});
        }
        for (auto k = first; k < last; ++k) {
            const auto& row = c.rows[k];
            const double yc = top + (static_cast<double>(k - first) + 0.5) * rh;
            s.add(Text{.x = label_right, .y = yc + 4, .text = fit_text(row.label, tick_size, 300),
                       .size = tick_size, .anchor = Anchor::end, .colour = ink,
                       .role = "row-label"});
            if (!row.note.empty()) {
                s.add(Text{.x = pr + 8, .y = yc + 4, .text = fit_text(row.note, tick_size - 1, 200),
                           .size = tick_size - 1, .colour = grey_text, .role = "row-note"});
            }
            if (std::isfinite(row.range_lo) && std::isfinite(row.range_hi)) {
                s.add(Line{.x1 = ax.px(row.range_lo), .y1 = yc, .x2 = ax.px(row.range_hi),
                           .y2 = yc, .colour = {150, 150, 150}, .width = 2, .role = "range"});
            }
            SPMV_EXPECTS(row.strip_tips.size() == row.strip.size(),
                         "plot: row '" + row.label + "': one tooltip per dot");
            for (std::size_t d = 0; d < row.strip.size(); ++d) {
                SPMV_EXPECTS(!row.strip_tips[d].empty(), "plot: a dot without a tooltip");
                s.add(Symbol{.x = ax.px(row.strip[d]), .y = yc + jitter(d + 7 * k) * rh * 0.28,
                             .radius = 2.2, .colour = row.box_colour, .opacity = 0.35,
                             .tip = row.strip_tips[d], .role = "strip"});
            }
            if (std::isfinite(row.median)) {
                SPMV_EXPECTS(!row.box_tip.empty(), "plot: a box without a tooltip");
                const double h = rh * 0.62;
                s.add(Rect{.x = ax.px(row.q1), .y = yc - h / 2, .w = ax.px(row.q3) - ax.px(row.q1),
                           .h = h, .fill = row.box_colour, .opacity = 0.22, .stroke = true,
                           .stroke_colour = row.box_colour, .tip = row.box_tip, .role = "box"});
                s.add(Line{.x1 = ax.px(row.median), .y1 = yc - h / 2, .x2 = ax.px(row.median),
                           .y2 = yc + h / 2, .colour = row.box_colour, .width = 3,
                           .tip = row.box_tip, .role = "median"});
            }
            for (const auto& m : row.marks) {
                SPMV_EXPECTS(m.series >= 0 &&
                                 static_cast<std::size_t>(m.series) < c.header.series.size(),
                             "plot: a mark of an unknown series");
                if (!std::isfinite(m.value)) continue;
                s.add(series_symbol(c.header.series[static_cast<std::size_t>(m.series)],
                                    ax.px(m.value), yc, 4.5, m.tip));
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
    s.add(Rect{.w = s.width, .h = s.height, .role = "background"});
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
    const spmv::viz::TickStyle ticks{tick_size, ink, tick_label};
    spmv::viz::x_grid(s, ax, top, bottom, grid);
    spmv::viz::x_tick_labels(s, ax, bottom + 17, ticks);
    spmv::viz::y_grid(s, ay, left, right, grid);
    spmv::viz::y_tick_labels(s, ay, left - 6, ticks);
    s.add(Rect{.x = left, .y = top, .w = right - left, .h = bottom - top, .opacity = 0,
               .stroke = true, .stroke_colour = frame, .role = "frame"});
    s.add(Text{.x = (left + right) / 2, .y = bottom + 42, .text = c.x_label, .size = label_size,
               .anchor = Anchor::middle, .colour = ink, .role = "axis-label"});
    s.add(Text{.x = 26, .y = (top + bottom) / 2, .text = c.y_label, .size = label_size,
               .anchor = Anchor::middle, .vertical = true, .colour = ink, .role = "axis-label"});
    for (const auto& l : c.lines) {
        Line line{.colour = l.colour, .width = 1.5, .dash = dash_of(l.dashed), .tip = l.label,
                  .role = "reference"};
        if (l.kind == RefLine::horizontal) {
            line.x1 = left;
            line.x2 = right;
            line.y1 = line.y2 = ay.px(l.value);
        } else if (l.kind == RefLine::vertical) {
            line.x1 = line.x2 = ax.px(l.value);
            line.y1 = top;
            line.y2 = bottom;
        } else {  // y = k x, clipped to the plot
            const double x1 = std::max(ax.lo, ay.lo / l.value);
            const double x2 = std::min(ax.hi, ay.hi / l.value);
            if (x2 <= x1) continue;
            line.x1 = ax.px(x1);
            line.y1 = ay.px(l.value * x1);
            line.x2 = ax.px(x2);
            line.y2 = ay.px(l.value * x2);
        }
        s.add(std::move(line));
    }
    for (const auto& p : c.points) {
        SPMV_EXPECTS(p.series >= 0 && static_cast<std::size_t>(p.series) < c.header.series.size(),
                     "plot: a point of an unknown series");
        if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
        auto m = series_symbol(c.header.series[static_cast<std::size_t>(p.series)], ax.px(p.x),
                               ay.px(p.y), 4, p.tip);
        m.opacity = 0.8;
        s.add(std::move(m));
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
            s.add(Text{.x = dx > 0 ? b.x0 : b.x1, .y = y + dy, .text = p.label,
                       .size = tick_size - 1, .anchor = dx > 0 ? Anchor::start : Anchor::end,
                       .colour = grey_text, .role = "point-label"});
            break;
        }
    }
    draw_footer(s, c.header.footer, bottom + 50, s.width);
    return s;
}

}  // namespace spmvlab::plot
