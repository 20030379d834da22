// The figure's primitives, axes and the SVG back end (scene.hpp).
#include "plot/scene.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <spmv/error.hpp>
#include <spmv/viz/scaling_svg.hpp>
#include <spmv/viz/timeline_svg.hpp>
#include <spmv/viz/units.hpp>

namespace spmvlab::plot {

std::size_t Scene::count(const std::string& role) const
{
    return static_cast<std::size_t>(std::count_if(items.begin(), items.end(), [&](const Item& i) {
        return std::visit([&](const auto& x) { return x.role == role; }, i);
    }));
}

std::vector<std::string> Scene::texts(const std::string& role) const
{
    std::vector<std::string> out;
    for (const auto& i : items) {
        if (const auto* t = std::get_if<Text>(&i); t && t->role == role) out.push_back(t->text);
    }
    return out;
}

Axis Axis::linear(double lo, double hi, double px_lo, double px_hi, int max_ticks)
{
    SPMV_EXPECTS(std::isfinite(lo) && std::isfinite(hi) && hi >= lo, "axis: bad range");
    if (hi == lo) hi = lo + 1;
    const double step = spmv::viz::nice_step(hi - lo, max_ticks);
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
    a.ticks = spmv::viz::log_ticks_125(lo, hi);
    if (static_cast<int>(a.ticks.size()) > max_ticks) {
        const auto d = spmv::viz::decades(lo, hi);
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

namespace {

std::string n(double v) { return spmv::viz::compact_number(v); }
std::string colour(Rgb c) { return spmv::viz::hex(c); }

std::string title_of(const std::string& tip)
{
    return tip.empty() ? std::string() : "<title>" + spmv::viz::xml_escape(tip) + "</title>";
}

std::string open(const char* tag, const std::string& role, const std::string& attrs,
                 const std::string& tip)
{
    std::string s = std::string("<") + tag + (role.empty() ? "" : " class=\"" + role + "\"") + " " +
                    attrs;
    return tip.empty() ? s + "/>\n" : s + ">" + title_of(tip) + "</" + tag + ">\n";
}

struct SvgWriter {
    std::string out;

    void operator()(const Text& t)
    {
        const char* anchor = t.anchor == Anchor::start    ? "start"
                             : t.anchor == Anchor::middle ? "middle"
                                                          : "end";
        out += "<text" + (t.role.empty() ? std::string() : " class=\"" + t.role + "\"") +
               " x=\"" + n(t.x) + "\" y=\"" + n(t.y) + "\" font-size=\"" + n(t.size) +
               "\" text-anchor=\"" + anchor + "\" fill=\"" + colour(t.colour) + "\"" +
               (t.bold ? " font-weight=\"bold\"" : "") +
               (t.vertical ? " transform=\"rotate(-90 " + n(t.x) + " " + n(t.y) + ")\"" : "") +
               ">" + spmv::viz::xml_escape(t.text) + "</text>\n";
    }
    void operator()(const Rect& r)
    {
        std::string a = "x=\"" + n(r.x) + "\" y=\"" + n(r.y) + "\" width=\"" + n(r.w) +
                        "\" height=\"" + n(r.h) + "\" fill=\"" + colour(r.fill) + "\"";
        if (r.opacity < 1) a += " fill-opacity=\"" + n(r.opacity) + "\"";
        if (r.stroke) a += " stroke=\"" + colour(r.stroke_colour) + "\" stroke-width=\"1\"";
        out += open("rect", r.role, a, r.tip);
    }
    void operator()(const Line& l)
    {
        std::string a = "x1=\"" + n(l.x1) + "\" y1=\"" + n(l.y1) + "\" x2=\"" + n(l.x2) +
                        "\" y2=\"" + n(l.y2) + "\" stroke=\"" + colour(l.colour) +
                        "\" stroke-width=\"" + n(l.width) + "\"";
        if (l.dashed) a += " stroke-dasharray=\"6 4\"";
        out += open("line", l.role, a, l.tip);
    }
    void operator()(const Marker& m)
    {
        std::string paint = m.hollow ? "fill=\"none\" stroke=\"" + colour(m.colour) +
                                           "\" stroke-width=\"1.5\""
                                     : "fill=\"" + colour(m.colour) + "\"";
        if (m.opacity < 1) {
            paint += std::string(m.hollow ? " stroke-opacity" : " fill-opacity") + "=\"" +
                     n(m.opacity) + "\"";
        }
        const double r = m.radius;
        switch (m.shape) {
        case Shape::circle:
            out += open("circle", m.role,
                        "cx=\"" + n(m.x) + "\" cy=\"" + n(m.y) + "\" r=\"" + n(r) + "\" " + paint,
                        m.tip);
            break;
        case Shape::square:
            out += open("rect", m.role,
                        "x=\"" + n(m.x - r) + "\" y=\"" + n(m.y - r) + "\" width=\"" + n(2 * r) +
                            "\" height=\"" + n(2 * r) + "\" " + paint,
                        m.tip);
            break;
        case Shape::diamond: {
            const double d = r * 1.3;
            out += open("polygon", m.role,
                        "points=\"" + n(m.x) + "," + n(m.y - d) + " " + n(m.x + d) + "," + n(m.y) +
                            " " + n(m.x) + "," + n(m.y + d) + " " + n(m.x - d) + "," + n(m.y) +
                            "\" " + paint,
                        m.tip);
            break;
        }
        case Shape::triangle: {
            const double d = r * 1.3;
            out += open("polygon", m.role,
                        "points=\"" + n(m.x) + "," + n(m.y - d) + " " + n(m.x + d) + "," +
                            n(m.y + 0.75 * d) + " " + n(m.x - d) + "," + n(m.y + 0.75 * d) +
                            "\" " + paint,
                        m.tip);
            break;
        }
        }
    }
};

}  // namespace

std::string svg(const Scene& scene)
{
    SvgWriter w;
    w.out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + n(scene.width) +
            "\" height=\"" + n(scene.height) + "\" viewBox=\"0 0 " + n(scene.width) + " " +
            n(scene.height) + "\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n";
    for (const auto& i : scene.items) std::visit(w, i);
    w.out += "</svg>\n";
    return w.out;
}

}  // namespace spmvlab::plot
