// The picture's primitives and their SVG text (spmv/viz/scene.hpp).
#include <algorithm>
#include <cstdio>
#include <type_traits>

#include <spmv/error.hpp>
#include <spmv/viz/scene.hpp>

namespace spmv::viz {

namespace {

template <typename T>
const std::string* role_of(const T& x)
{
    if constexpr (std::is_same_v<T, GroupEnd>) {
        return nullptr;
    } else {
        return &x.role;
    }
}

}  // namespace

std::size_t Scene::count(const std::string& role) const
{
    return static_cast<std::size_t>(std::count_if(items.begin(), items.end(), [&](const Item& i) {
        return std::visit(
            [&](const auto& x) {
                const auto* r = role_of(x);
                return r && *r == role;
            },
            i);
    }));
}

std::vector<std::string> Scene::texts(const std::string& role) const
{
    std::vector<std::string> out;
    for (const auto& t : all<Text>(role)) out.push_back(t.text);
    return out;
}

std::string compact_number(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    std::string s = buf;
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0') s.pop_back();
        if (s.back() == '.') s.pop_back();
    }
    return s == "-0" ? "0" : s;
}

std::string xml_escape(std::string_view text)
{
    std::string s;
    s.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&':
                s += "&amp;";
                break;
            case '<':
                s += "&lt;";
                break;
            case '>':
                s += "&gt;";
                break;
            case '"':
                s += "&quot;";
                break;
            case '\'':
                s += "&apos;";
                break;
            default:
                s += c;
        }
    }
    return s;
}

namespace {

std::string n(double v) { return compact_number(v); }

std::string attr(const char* name, const std::string& value)
{
    return std::string(" ") + name + "=\"" + value + "\"";
}

std::string class_attr(const std::string& role)
{
    return role.empty() ? std::string() : attr("class", xml_escape(role));
}

std::string dash_attr(Dash d)
{
    switch (d) {
        case Dash::solid:
            return {};
        case Dash::dashed:
            return attr("stroke-dasharray", "6 4");
        case Dash::dotted:
            return attr("stroke-dasharray", "1 3");
    }
    return {};
}

/// <tag class="role" attrs/> or, with a tip, <tag class="role" attrs><title>tip</title></tag>.
std::string element(const char* tag, const std::string& role, const std::string& attrs,
                    const std::string& tip)
{
    const std::string open = std::string("<") + tag + class_attr(role) + attrs;
    if (tip.empty()) return open + "/>\n";
    return open + "><title>" + xml_escape(tip) + "</title></" + tag + ">\n";
}

std::string points_attr(const std::vector<std::pair<double, double>>& points)
{
    std::string p;
    for (const auto& [x, y] : points) p += (p.empty() ? "" : " ") + n(x) + "," + n(y);
    return attr("points", p);
}

struct SvgWriter {
    std::string out;
    int depth = 0;

    void operator()(const Text& t)
    {
        const char* anchor = t.anchor == Anchor::start    ? "start"
                             : t.anchor == Anchor::middle ? "middle"
                                                          : "end";
        out += "<text" + class_attr(t.role) + attr("x", n(t.x)) + attr("y", n(t.y)) +
               attr("font-size", n(t.size)) + attr("text-anchor", anchor) +
               attr("fill", hex(t.colour)) + (t.bold ? attr("font-weight", "bold") : "") +
               (t.italic ? attr("font-style", "italic") : "") +
               (t.vertical ? attr("transform", "rotate(-90 " + n(t.x) + " " + n(t.y) + ")") : "") +
               ">" + xml_escape(t.text) + "</text>\n";
    }
    void operator()(const Rect& r)
    {
        std::string a = attr("x", n(r.x)) + attr("y", n(r.y)) + attr("width", n(r.w)) +
                        attr("height", n(r.h));
        a += r.opacity > 0 ? attr("fill", hex(r.fill)) : attr("fill", "none");
        if (r.opacity > 0 && r.opacity < 1) a += attr("fill-opacity", n(r.opacity));
        if (r.stroke) a += attr("stroke", hex(r.stroke_colour)) + attr("stroke-width", "1");
        out += element("rect", r.role, a, r.tip);
    }
    void operator()(const Line& l)
    {
        const std::string a = attr("x1", n(l.x1)) + attr("y1", n(l.y1)) + attr("x2", n(l.x2)) +
                              attr("y2", n(l.y2)) + attr("stroke", hex(l.colour)) +
                              attr("stroke-width", n(l.width)) + dash_attr(l.dash);
        out += element("line", l.role, a, l.tip);
    }
    void operator()(const Symbol& m)
    {
        std::string paint = m.hollow ? attr("fill", "none") + attr("stroke", hex(m.colour)) +
                                           attr("stroke-width", "1.5")
                                     : attr("fill", hex(m.colour));
        if (m.opacity < 1) {
            paint += attr(m.hollow ? "stroke-opacity" : "fill-opacity", n(m.opacity));
        }
        const double r = m.radius, d = r * 1.3;
        switch (m.shape) {
            case Shape::circle:
                out += element("circle", m.role,
                               attr("cx", n(m.x)) + attr("cy", n(m.y)) + attr("r", n(r)) + paint,
                               m.tip);
                break;
            case Shape::square:
                out += element("rect", m.role,
                               attr("x", n(m.x - r)) + attr("y", n(m.y - r)) +
                                   attr("width", n(2 * r)) + attr("height", n(2 * r)) + paint,
                               m.tip);
                break;
            case Shape::diamond:
                out += element("polygon", m.role,
                               points_attr({{m.x, m.y - d}, {m.x + d, m.y}, {m.x, m.y + d},
                                            {m.x - d, m.y}}) +
                                   paint,
                               m.tip);
                break;
            case Shape::triangle:
                out += element("polygon", m.role,
                               points_attr({{m.x, m.y - d},
                                            {m.x + d, m.y + 0.75 * d},
                                            {m.x - d, m.y + 0.75 * d}}) +
                                   paint,
                               m.tip);
                break;
        }
    }
    void operator()(const Path& p)
    {
        std::string a = points_attr(p.points);
        a += p.fill_opacity > 0 ? attr("fill", hex(p.fill)) : attr("fill", "none");
        if (p.fill_opacity > 0 && p.fill_opacity < 1) a += attr("fill-opacity", n(p.fill_opacity));
        a += attr("stroke", hex(p.colour)) + attr("stroke-width", n(p.width));
        if (p.stroke_opacity < 1) a += attr("stroke-opacity", n(p.stroke_opacity));
        a += dash_attr(p.dash);
        out += element(p.closed ? "polygon" : "polyline", p.role, a, p.tip);
    }
    void operator()(const GroupBegin& g)
    {
        ++depth;
        out += "<g" + class_attr(g.role) + ">\n";
    }
    void operator()(const GroupEnd&)
    {
        SPMV_EXPECTS(depth > 0, "svg: a group ends that did not begin");
        --depth;
        out += "</g>\n";
    }
};

}  // namespace

std::string svg(const Scene& scene)
{
    SvgWriter w;
    w.out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"" +
            attr("width", n(scene.width)) + attr("height", n(scene.height)) +
            attr("viewBox", "0 0 " + n(scene.width) + " " + n(scene.height)) +
            attr("font-family", "DejaVu Sans, Verdana, sans-serif") + ">\n";
    for (const auto& i : scene.items) std::visit(w, i);
    SPMV_EXPECTS(w.depth == 0, "svg: a group was left open");
    w.out += "</svg>\n";
    return w.out;
}

}  // namespace spmv::viz
