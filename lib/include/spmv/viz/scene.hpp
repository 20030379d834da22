#pragma once
/// A picture as a list of drawing primitives in pixel coordinates (origin top left, y down),
/// and its SVG text. Every chart of SpMV Lab that leaves the program as a file is built as a
/// Scene: `spmvlab plot`'s figures (cli/src/plot), the timeline pictures (timeline_svg.hpp)
/// and the strong-scaling charts (scaling_svg.hpp). Tests inspect the Scene; svg() here and
/// the CLI's cairo renderer (cli/src/plot/render.hpp: PNG) draw it. The axes, tick labels,
/// legends and text metrics that charts share are in chart.hpp.
///
/// The vocabulary is small on purpose: Text, Rect, Line, Symbol (a data marker), Path (a
/// polyline or polygon) and groups. Every primitive carries a `role`, written as the SVG
/// element's class, so that tests and style sheets find "tick-label", "point" or "legend-key"
/// without knowing the layout; Rect, Line, Symbol and Path carry a `tip`, written as an SVG
/// <title> child (the tooltip a browser shows: the data the element stands for). Each is an
/// aggregate whose last member is its role, so that designated initializers read as the
/// element does: `Line{.x1 = 0, .y1 = 5, .x2 = 100, .y2 = 5, .dash = Dash::dashed,
/// .role = "reference"}`.
///
/// Roles in use: background, title, provenance (the grey lines under a title), axis-label,
/// tick-label, tick, axis, grid, frame, legend-key, legend (its text), footer, point, reference
/// (a line of a model or a rule), plus chart-specific ones (event, band, row-label, ...).
///
/// Example: a Scene 100 x 50 with Text{.x = 10, .y = 20, .text = "a<b", .role = "title"}
/// gives, after the XML declaration and the <svg> element,
///   <text class="title" x="10" y="20" font-size="12" text-anchor="start"
///         fill="#141414">a&lt;b</text>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <spmv/viz/colour.hpp>

namespace spmv::viz {

enum class Anchor { start, middle, end };
/// Data markers. A diamond and a triangle reach 1.3 radius from the centre (so that they look
/// as large as a circle of that radius); a triangle's base sits 0.75 of that below the centre.
enum class Shape { circle, square, diamond, triangle };
/// Stroke patterns: dashed is "6 4" (6 px on, 4 off), dotted "1 3".
enum class Dash { solid, dashed, dotted };

struct Text {
    double x = 0, y = 0;  ///< anchor point on the baseline
    std::string text{};
    double size = 12;     ///< font size in pixels
    Anchor anchor = Anchor::start;
    bool vertical = false;  ///< rotated 90 degrees counter-clockwise (a y-axis title)
    bool bold = false;
    bool italic = false;
    Rgb colour{20, 20, 20};
    std::string role{};
};

struct Rect {
    double x = 0, y = 0, w = 0, h = 0;
    Rgb fill{255, 255, 255};
    double opacity = 1;  ///< of the fill; 0 draws the outline only
    bool stroke = false;
    Rgb stroke_colour{0, 0, 0};
    std::string tip{};  ///< the data it shows ("pde100 sell: 512.3 GF/s")
    std::string role{};
};

struct Line {
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
    Rgb colour{0, 0, 0};
    double width = 1;
    Dash dash = Dash::solid;
    std::string tip{};
    std::string role{};
};

/// A data marker centred at (x, y).
struct Symbol {
    double x = 0, y = 0;
    double radius = 4;
    Shape shape = Shape::circle;
    Rgb colour{0, 0, 0};
    bool hollow = false;  ///< outline only, 1.5 px wide
    double opacity = 1;
    std::string tip{};
    std::string role{};     ///< "point" for data, "legend-key" in a legend
};

/// A polyline through `points`, or with `closed` a polygon (a band between two curves).
struct Path {
    std::vector<std::pair<double, double>> points{};
    bool closed = false;
    Rgb colour{0, 0, 0};       ///< the stroke
    double stroke_opacity = 1;
    double width = 1;
    Dash dash = Dash::solid;
    Rgb fill{255, 255, 255};
    double fill_opacity = 0;   ///< 0: not filled
    std::string tip{};
    std::string role{};
};

/// Everything between a GroupBegin and its GroupEnd is one SVG <g class="role"> (a panel of a
/// multi-panel picture, a legend); back ends without groups ignore both.
struct GroupBegin {
    std::string role{};
};
struct GroupEnd {};

using Item = std::variant<Text, Rect, Line, Symbol, Path, GroupBegin, GroupEnd>;

struct Scene {
    double width = 0, height = 0;
    std::vector<Item> items;  ///< in drawing order

    template <typename T>
    void add(T x)
    {
        items.emplace_back(std::in_place_type<T>, std::move(x));
    }
    void begin_group(std::string role) { add(GroupBegin{std::move(role)}); }
    void end_group() { add(GroupEnd{}); }

    /// Items whose role is `role` (tests count points, bars and labels with it).
    std::size_t count(const std::string& role) const;
    /// The texts whose role is `role`, in drawing order.
    std::vector<std::string> texts(const std::string& role) const;
    /// The items of type T whose role is `role`, in drawing order.
    template <typename T>
    std::vector<T> all(const std::string& role) const
    {
        std::vector<T> out;
        for (const auto& i : items) {
            if (const auto* x = std::get_if<T>(&i); x && x->role == role) out.push_back(*x);
        }
        return out;
    }
};

/// The scene as a standalone SVG 1.1 document: the XML declaration, then one <svg> element
/// `width` x `height` with a matching viewBox and the DejaVu Sans font family (the font whose
/// metrics chart.hpp's text_width uses), then one element per item: <text>, <rect>, <line>,
/// <circle>/<rect>/<polygon> for symbols, <polyline>/<polygon> for paths, <g> for groups.
/// Coordinates are written with compact_number; all text is XML-escaped.
/// Throws InvalidArgument when the groups do not nest (an end without a begin, or a begin
/// left open).
std::string svg(const Scene& scene);

/// "12.5", "3", "0.125": at most three decimals, no trailing zeros (SVG coordinates, axis
/// ticks of the timeline pictures; the explorer's timeline labels use it too).
std::string compact_number(double v);

/// `text` with &, <, >, " and ' replaced by XML entities.
std::string xml_escape(std::string_view text);

}  // namespace spmv::viz
