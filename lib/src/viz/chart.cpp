// Axes, ticks, legends and text metrics shared by the charts (spmv/viz/chart.hpp).
#include <cmath>
#include <cstdio>

#include <spmv/error.hpp>
#include <spmv/viz/chart.hpp>
#include <spmv/viz/units.hpp>

namespace spmv::viz {

std::vector<double> log_ticks_125(double lo, double hi)
{
    SPMV_EXPECTS(lo > 0.0 && hi >= lo && std::isfinite(hi), "log ticks need 0 < lo <= hi");
    std::vector<double> t;
    double decade = std::pow(10.0, std::floor(std::log10(lo)));
    const double steps[] = {1.0, 2.0, 5.0};
    // the largest tick <= lo
    double start = decade;
    for (double s : steps) {
        if (s * decade <= lo * (1 + 1e-12)) {
            start = s * decade;
        }
    }
    for (;; decade *= 10.0) {
        for (double s : steps) {
            const double v = s * decade;
            if (v < start * (1 - 1e-12)) {
                continue;
            }
            t.push_back(v);
            if (v >= hi * (1 - 1e-12)) {
                return t;
            }
        }
    }
}

Axis Axis::linear(double lo, double hi, double px_lo, double px_hi, int max_ticks)
{
    SPMV_EXPECTS(std::isfinite(lo) && std::isfinite(hi) && hi >= lo, "axis: bad range");
    if (hi == lo) hi = lo + 1;
    const double step = nice_step(hi - lo, max_ticks);
    Axis a;
    a.lo = std::floor(lo / step + 1e-9) * step;
    a.hi = std::ceil(hi / step - 1e-9) * step;
    a.px_lo = px_lo;
    a.px_hi = px_hi;
    for (double t = a.lo; t <= a.hi + step * 1e-6; t += step) {
        a.ticks.push_back(std::abs(t) < step * 1e-9 ? 0.0 : t);
    }
    return a;
}

Axis Axis::logarithmic(double lo, double hi, double px_lo, double px_hi, int max_ticks)
{
    SPMV_EXPECTS(lo > 0 && std::isfinite(hi) && hi >= lo, "log axis: needs 0 < lo <= hi");
    Axis a;
    a.log = true;
    a.ticks = log_ticks_125(lo, hi);
    if (static_cast<int>(a.ticks.size()) > max_ticks) {
        const auto d = decades(lo, hi);
        a.ticks.clear();
        for (double t = d.lo; t <= d.hi * (1 + 1e-9); t *= 10) a.ticks.push_back(t);
    }
    a.lo = a.ticks.front();
    a.hi = a.ticks.back();
    if (a.hi <= a.lo) a.hi = a.lo * 10;
    a.px_lo = px_lo;
    a.px_hi = px_hi;
    return a;
}

double Axis::px(double v) const
{
    const double t = log ? (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo))
                         : (v - lo) / (hi - lo);
    return px_lo + t * (px_hi - px_lo);
}

std::string tick_label(double v)
{
    char buf[32];
    const double a = std::abs(v);
    if (a >= 1e6 && std::fmod(a, 1e6) == 0) {
        std::snprintf(buf, sizeof buf, "%gM", v / 1e6);
    } else if (a >= 1e4 && std::fmod(a, 1e3) == 0) {
        std::snprintf(buf, sizeof buf, "%gk", v / 1e3);
    } else {
        std::snprintf(buf, sizeof buf, "%g", v);
    }
    return buf;
}

std::string num3(double v)
{
    char buf[32];
    const double a = std::abs(v);
    if (!std::isfinite(v)) return "-";
    if (a >= 1000 || a == 0) {
        std::snprintf(buf, sizeof buf, "%.0f", v);
    } else if (a >= 100) {
        std::snprintf(buf, sizeof buf, "%.1f", v);
    } else if (a >= 1) {
        std::snprintf(buf, sizeof buf, "%.2f", v);
    } else {
        std::snprintf(buf, sizeof buf, "%.3g", v);
    }
    return buf;
}

double text_width(const std::string& text, double size, bool bold)
{
    // DejaVu Sans advance widths in em (its 2048-unit metrics / 2048, rounded up)
    auto em = [](unsigned char c) {
        if (c >= '0' && c <= '9') return 0.64;
        switch (c) {
        case ' ': case ',': case '.': return 0.32;
        case 'i': case 'j': case 'l': case 'I': case 'J': case '\'': return 0.28;
        case ':': case ';': case '|': case '/': case '!': return 0.34;
        case 'f': case 't': case '(': case ')': case '[': case ']': case '-': return 0.40;
        case 'r': return 0.42;
        case 'm': return 0.98;
        case 'w': return 0.82;
        case 'M': return 0.87;
        case 'W': return 0.99;
        case '%': return 0.96;
        case '@': return 1.0;
        case '+': case '=': case '<': case '>': case '#': return 0.84;
        case '_': case '*': return 0.5;
        default: break;
        }
        if (c >= 'A' && c <= 'Z') return 0.74;
        return 0.62;
    };
    double w = 0;
    for (std::size_t k = 0; k < text.size(); ++k) {
        const auto c = static_cast<unsigned char>(text[k]);
        if (c >= 0x80) {  // one UTF-8 sequence (x, mu, en dash, ...): count it once, wide
            if ((c & 0xc0) == 0xc0) w += 0.84;
            continue;
        }
        w += em(c);
    }
    return w * size * (bold ? 1.1 : 1.0);
}

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

void x_grid(Scene& s, const Axis& ax, double y0, double y1, Rgb colour)
{
    for (const double t : ax.ticks) {
        s.add(Line{.x1 = ax.px(t), .y1 = y0, .x2 = ax.px(t), .y2 = y1, .colour = colour,
                   .role = "grid"});
    }
}

void y_grid(Scene& s, const Axis& ax, double x0, double x1, Rgb colour)
{
    for (const double t : ax.ticks) {
        s.add(Line{.x1 = x0, .y1 = ax.px(t), .x2 = x1, .y2 = ax.px(t), .colour = colour,
                   .role = "grid"});
    }
}

void x_tick_labels(Scene& s, const Axis& ax, double baseline, const TickStyle& style)
{
    for (const double t : ax.ticks) {
        s.add(Text{.x = ax.px(t), .y = baseline, .text = style.label(t), .size = style.size,
                   .anchor = Anchor::middle, .colour = style.colour, .role = "tick-label"});
    }
}

void y_tick_labels(Scene& s, const Axis& ax, double x, const TickStyle& style)
{
    const double drop = std::round(style.size / 3);
    for (const double t : ax.ticks) {
        s.add(Text{.x = x, .y = ax.px(t) + drop, .text = style.label(t), .size = style.size,
                   .anchor = Anchor::end, .colour = style.colour, .role = "tick-label"});
    }
}

namespace {

double key_width(const LegendEntry& e, const LegendStyle& st)
{
    return e.key == LegendEntry::Key::line ? 2.2 * st.key : st.key;
}

double label_width(const LegendEntry& e, const LegendStyle& st)
{
    return st.char_width > 0 ? st.char_width * static_cast<double>(e.label.size())
                             : text_width(e.label, st.size);
}

}  // namespace

std::vector<LegendSpot> legend_layout(const std::vector<LegendEntry>& entries,
                                      const LegendStyle& style, double baseline)
{
    std::vector<LegendSpot> spots;
    double x = style.left;
    double y = baseline;
    for (const auto& e : entries) {
        const double w = key_width(e, style) + style.gap + label_width(e, style) + style.spacing;
        if (x > style.left && x + w > style.right) {
            x = style.left;
            y += style.line_height;
        }
        spots.push_back({x, y});
        x += w;
    }
    return spots;
}

double draw_legend(Scene& s, const std::vector<LegendEntry>& entries, const LegendStyle& style,
                   double baseline)
{
    const auto spots = legend_layout(entries, style, baseline);
    for (std::size_t k = 0; k < entries.size(); ++k) {
        const auto& e = entries[k];
        const double x = spots[k].x;
        const double cy = spots[k].baseline - style.rise;  // the key's centre
        const double kw = key_width(e, style);
        switch (e.key) {
            case LegendEntry::Key::swatch:
                s.add(Rect{.x = x, .y = cy - style.key / 2, .w = style.key, .h = style.key,
                           .fill = e.colour, .role = "legend-key"});
                break;
            case LegendEntry::Key::symbol:
                s.add(Symbol{.x = x + style.key / 2, .y = cy, .radius = style.key / 2,
                             .shape = e.shape, .colour = e.colour, .hollow = e.hollow,
                             .role = "legend-key"});
                break;
            case LegendEntry::Key::line:
                s.add(Line{.x1 = x, .y1 = cy, .x2 = x + kw, .y2 = cy, .colour = e.colour,
                           .width = 1.5, .dash = e.dash, .role = "legend-key"});
                break;
        }
        s.add(Text{.x = x + kw + style.gap, .y = spots[k].baseline, .text = e.label,
                   .size = style.size, .colour = style.colour, .role = "legend"});
    }
    return spots.empty() ? baseline : spots.back().baseline;
}

}  // namespace spmv::viz
