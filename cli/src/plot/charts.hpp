#pragma once
/// The two chart kinds of `spmvlab plot`, as data in and a Scene (scene.hpp) out. Plain C++:
/// the layout (margins, rows, columns, ticks, legend, where each marker goes) is decided here
/// and tested without cairo.
///
/// RowsChart: one labelled row per category (a matrix, a kernel variant) and a value axis across,
/// so that 100 matrices stay readable: the labels are horizontal text, and beyond
/// `max_rows_per_column` rows the chart wraps into side-by-side columns sharing one axis.
/// Per row: markers (one per series), optionally a range line (lo..hi), a box (quartiles and
/// median) over faint dots of a distribution, and a note printed right of the axis.
///
/// ScatterChart: x against y (each linear or logarithmic), markers per series, reference lines
/// (horizontal, vertical, or y = k x on log-log axes: the model's y = x and its +-25 % band).
///
/// Both put the title, the provenance lines (device, precision, commit, date) and the legend
/// above the plot, the axis titles with their units beside the axes, and footer lines (notes,
/// summary numbers) below. The primitives, the SVG text, the axes, tick labels, legend and
/// text metrics are the ones every SpMV Lab chart uses (spmv/viz/scene.hpp, spmv/viz/chart.hpp);
/// PNG goes through render.hpp (cairo, which spmv::core does not depend on).
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <spmv/viz/chart.hpp>
#include <spmv/viz/scene.hpp>

namespace spmvlab::plot {

using spmv::viz::Anchor;
using spmv::viz::Axis;
using spmv::viz::Dash;
using spmv::viz::fit_text;
using spmv::viz::Line;
using spmv::viz::num3;
using spmv::viz::Rect;
using spmv::viz::Rgb;
using spmv::viz::Scene;
using spmv::viz::Shape;
using spmv::viz::svg;
using spmv::viz::Symbol;
using spmv::viz::Text;
using spmv::viz::text_width;
using spmv::viz::tick_label;

struct Series {
    std::string label;  ///< legend text
    Rgb colour;
    Shape shape = Shape::circle;
    bool hollow = false;
};

struct Header {
    std::string title;
    std::vector<std::string> provenance;  ///< grey lines under the title
    std::vector<Series> series;           ///< the legend
    std::vector<std::string> footer;      ///< lines under the plot
};

struct RowMark {
    double value = 0;
    int series = 0;   ///< index into Header::series
    std::string tip;  ///< the SVG <title>: what the marker shows, in words
};

inline constexpr double none = std::numeric_limits<double>::quiet_NaN();

struct Row {
    std::string label;
    std::string note;  ///< right of the axis (e.g. the variant that won)
    std::vector<RowMark> marks;
    double range_lo = none, range_hi = none;         ///< thin line lo..hi
    double q1 = none, median = none, q3 = none;      ///< a box (all three or none)
    std::vector<double> strip;                       ///< faint dots of a distribution
    std::vector<std::string> strip_tips;             ///< one <title> per dot (same length)
    std::string box_tip;                             ///< the box's <title> (its numbers)
    Rgb box_colour{0, 114, 178};
};

struct ValueLine {
    double value = 0;
    std::string label;
    Rgb colour{0, 0, 0};
    bool dashed = true;
};

struct RowsChart {
    Header header;
    std::string value_label;  ///< axis title with its unit, "GF/s (2 nnz / median kernel time)"
    bool log = true;
    double min_value = none;  ///< forced axis range (none: from the data)
    double max_value = none;
    std::vector<Row> rows;
    std::vector<ValueLine> lines;  ///< vertical reference lines (1x, 100 %)
    std::string row_label_title;   ///< above the labels ("matrix (nnz)")
    int max_rows_per_column = 55;
    double column_width = 900;
    double row_height = 15;        ///< rows with a box get 1.8 x this
};

struct Point {
    double x = 0, y = 0;
    int series = 0;
    std::string tip;
    std::string label;  ///< printed beside the marker (the few points worth naming)
};

struct RefLine {
    enum Kind { horizontal, vertical, proportional } kind = horizontal;
    double value = 1;  ///< y, x, or k of y = k x
    std::string label;
    Rgb colour{0, 0, 0};
    bool dashed = true;
};

struct ScatterChart {
    Header header;
    std::string x_label, y_label;
    bool x_log = true, y_log = true;
    double y_min = none, y_max = none;  ///< forced y range (none: from the data)
    bool square = false;                ///< the same range on both axes (predicted vs measured)
    std::vector<Point> points;
    std::vector<RefLine> lines;
    double width = 1100, height = 760;
};

/// Every data marker drawn (RowMark, strip dot, box, Point) carries its `tip` as the SVG
/// <title> that a browser shows on hover (what it shows: matrix, variant, value, unit).
/// Throws InvalidArgument when there is nothing to draw (no rows / no points), a log axis gets
/// a value <= 0, or a marker has no tip (strip_tips not one per dot, an empty tip).
///
/// The header never overlaps itself: the title, provenance and footer lines are cut to the
/// figure's width ("..." at the end), and the column of row labels is at least as wide as its
/// title (row_label_title) plus half the first tick label, which share the line above the plot.
Scene draw(const RowsChart& chart);
Scene draw(const ScatterChart& chart);

/// Quartiles by linear interpolation (numpy's default): {q1, median, q3}; sorts `v`.
struct Quartiles {
    double q1 = none, median = none, q3 = none;
};
Quartiles quartiles(std::vector<double> v);

}  // namespace spmvlab::plot
