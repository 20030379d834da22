#pragma once
/// The drawing of one figure of `spmvlab plot` as a list of primitives in pixel coordinates
/// (origin top left, y down), plus the axes that map data to pixels. Plain C++, no cairo: the
/// charts (charts.hpp) build a Scene, tests inspect it, and two back ends draw it: svg() here
/// (text stays text, every element carries a class naming its role and a <title> with its
/// data) and render.hpp (cairo: PNG).
///
/// Example: Axis::linear(0, 92, 200, 600, 8) spans 0..100 with ticks 0, 20, ..., 100 (step
/// nice_step(92, 8) = 20, spmv/viz/units.hpp) and maps 50 to pixel 400; Axis::log(3, 270, ...)
/// spans 2..500 with 1-2-5 ticks 2, 5, 10, ..., 500 (log_ticks_125, spmv/viz/scaling_svg.hpp).
#include <string>
#include <variant>
#include <vector>

#include <spmv/viz/colour.hpp>

namespace spmvlab::plot {

using spmv::viz::Rgb;

enum class Anchor { start, middle, end };
enum class Shape { circle, square, diamond, triangle };

struct Text {
    double x = 0, y = 0;  ///< anchor point on the baseline
    std::string text;
    double size = 12;     ///< font size in pixels
    Anchor anchor = Anchor::start;
    bool vertical = false;  ///< rotated 90 degrees counter-clockwise (a y-axis title)
    bool bold = false;
    Rgb colour{20, 20, 20};
    std::string role;     ///< "title", "provenance", "tick-label", "axis-label", "row-label", ...
};

struct Rect {
    double x = 0, y = 0, w = 0, h = 0;
    Rgb fill{255, 255, 255};
    double opacity = 1;
    bool stroke = false;
    Rgb stroke_colour{0, 0, 0};
    std::string role;     ///< "bar", "box", "background", "legend-key", ...
    std::string tip;      ///< the data it shows ("pde100 sell: 512.3 GF/s")
};

struct Line {
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
    Rgb colour{0, 0, 0};
    double width = 1;
    bool dashed = false;
    std::string role;     ///< "grid", "axis", "reference", "range", "whisker", ...
    std::string tip;
};

struct Marker {
    double x = 0, y = 0;
    double radius = 4;
    Shape shape = Shape::circle;
    Rgb colour{0, 0, 0};
    bool hollow = false;
    double opacity = 1;
    std::string role;     ///< "point" for data, "legend-key" in the legend
    std::string tip;
};

using Item = std::variant<Text, Rect, Line, Marker>;

struct Scene {
    double width = 0, height = 0;
    std::vector<Item> items;  ///< in drawing order

    template <typename T>
    void add(T x)
    {
        items.emplace_back(std::in_place_type<T>, std::move(x));
    }
    /// Items whose role is `role` (tests count points, bars and labels with it).
    std::size_t count(const std::string& role) const;
    /// The texts whose role is `role`, in drawing order.
    std::vector<std::string> texts(const std::string& role) const;
};

/// A value axis from data to pixels; `px_lo` is the pixel of `lo` (a y axis has px_lo at the
/// bottom, so px_lo > px_hi there).
struct Axis {
    double lo = 0, hi = 1;
    bool log = false;
    double px_lo = 0, px_hi = 1;
    std::vector<double> ticks;

    /// [lo, hi] widened to whole multiples of nice_step(hi - lo, max_ticks).
    static Axis linear(double lo, double hi, double px_lo, double px_hi, int max_ticks);
    /// [lo, hi] (> 0) widened to the 1-2-5 ticks around it; with more than max_ticks ticks
    /// only the decades (1, 10, 100, ...) are kept.
    static Axis logarithmic(double lo, double hi, double px_lo, double px_hi, int max_ticks);
    double px(double v) const;
};

/// A tick label: "0.5", "20", "300", "2k", "15k", "1M" (at most 4 characters for ticks).
std::string tick_label(double v);
/// A number for a label or tip with about three significant digits ("0.0123", "4.56", "789",
/// "12345").
std::string num3(double v);

/// Width in pixels of `text` in DejaVu Sans (the font both back ends ask for) at `size`, from
/// per-character advance widths (DejaVu Sans's metrics rounded up a little, so that a label
/// laid out with it never overlaps its neighbour in either back end).
double text_width(const std::string& text, double size, bool bold = false);

/// The scene as a standalone SVG document.
std::string svg(const Scene& scene);

}  // namespace spmvlab::plot
