#pragma once
/// What every chart of SpMV Lab draws the same way, on a Scene (scene.hpp): value axes from
/// data to pixels (linear, or logarithmic with 1-2-5 ticks), grid lines and tick labels at
/// the ticks, the legend, and the width of a label in the font the pictures use. The charts
/// themselves (cli/src/plot/charts.hpp, timeline_svg.hpp, scaling_svg.hpp) only decide where
/// their plot areas are and what data goes in them.
///
/// Example: Axis::linear(0, 92, 200, 600, 8) spans 0..100 with ticks 0, 20, ..., 100 (step
/// nice_step(92, 8) = 20, units.hpp) and maps 50 to pixel 400; x_tick_labels then puts the
/// label "40" centred at x = 360. Axis::logarithmic(3, 270, 0, 100, 20) spans 2..500 with the
/// 1-2-5 ticks 2, 5, 10, ..., 500 and maps sqrt(1000) (the geometric middle) to pixel 50.
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <spmv/viz/scene.hpp>

namespace spmv::viz {

/// A value axis from data to pixels; `px_lo` is the pixel of `lo` (a y axis has px_lo at the
/// bottom, so px_lo > px_hi there). A log axis maps log(v) linearly (any base: the same
/// pixels).
struct Axis {
    double lo = 0, hi = 1;
    bool log = false;
    double px_lo = 0, px_hi = 1;
    std::vector<double> ticks;

    /// [lo, hi] widened to whole multiples of nice_step(hi - lo, max_ticks) (hi == lo: lo + 1).
    /// Throws InvalidArgument for a non-finite range or hi < lo.
    static Axis linear(double lo, double hi, double px_lo, double px_hi, int max_ticks);
    /// [lo, hi] (> 0) widened to the 1-2-5 ticks around it (log_ticks_125); with more than
    /// max_ticks ticks only the decades (1, 10, 100, ...) are kept. A single tick spans one
    /// decade from it. Throws InvalidArgument unless 0 < lo <= hi.
    static Axis logarithmic(double lo, double hi, double px_lo, double px_hi, int max_ticks);
    /// The pixel of `v` (outside [lo, hi]: extrapolated).
    double px(double v) const;
};

/// 1-2-5 ticks covering [lo, hi] (lo > 0), from the largest tick <= lo to the smallest >= hi.
/// Example: (120, 5500) -> 100, 200, 500, 1000, 2000, 5000, 10000.
std::vector<double> log_ticks_125(double lo, double hi);

/// A tick label: "0.5", "20", "300", "2500", "20k", "1M" (thousands as k from 10 000 on, when
/// whole; millions as M when whole).
std::string tick_label(double v);
/// A number for a label or tooltip with about three significant digits ("0.0123", "4.56",
/// "789", "12345"; "-" when not finite).
std::string num3(double v);

/// Width in pixels of `text` in DejaVu Sans (the font svg() names and the PNG back end asks
/// for) at `size`, from per-character advance widths (DejaVu Sans's metrics rounded up a
/// little, so that a label laid out with it never overlaps its neighbour). A UTF-8 sequence
/// counts as one wide character.
double text_width(const std::string& text, double size, bool bold = false);
/// The label cut to `max_px` pixels at `size`, with "..." at the end when cut (never inside a
/// UTF-8 sequence).
std::string fit_text(const std::string& text, double size, double max_px);

/// How tick labels look: role "tick-label", this size and colour, and the text of a tick.
struct TickStyle {
    double size = 12;
    Rgb colour{20, 20, 20};
    std::function<std::string(double)> label = tick_label;
};

/// Grid lines (role "grid", 1 px) at the ticks of `ax`: for an axis across (x) vertical lines
/// from y0 to y1, for an axis up (y) horizontal lines from x0 to x1.
void x_grid(Scene& s, const Axis& ax, double y0, double y1, Rgb colour);
void y_grid(Scene& s, const Axis& ax, double x0, double x1, Rgb colour);
/// A label centred on every tick of an x axis, on the baseline y.
void x_tick_labels(Scene& s, const Axis& ax, double baseline, const TickStyle& style = {});
/// A label right-aligned at x on every tick of a y axis, its baseline a third of the font size
/// (rounded to whole pixels) below the tick, which centres digits on it.
void y_tick_labels(Scene& s, const Axis& ax, double x, const TickStyle& style = {});

/// One legend entry: its key (a colour swatch, a data symbol or a line sample) and its text.
struct LegendEntry {
    enum class Key { swatch, symbol, line };
    std::string label;
    Key key = Key::swatch;
    Rgb colour{0, 0, 0};
    Shape shape = Shape::circle;  ///< Key::symbol
    bool hollow = false;          ///< Key::symbol
    Dash dash = Dash::solid;      ///< Key::line
};

/// How a legend is laid out. Entries run left to right, each `key` wide (a line sample 2.2
/// key), then `gap`, the label and `spacing`; an entry that would pass `right` starts a new
/// line `line_height` lower at `left` (unless it is the first of its line).
struct LegendStyle {
    double left = 0;
    double right = std::numeric_limits<double>::infinity();  ///< infinity: one line
    double size = 11;          ///< font size of the labels
    double key = 12;           ///< side of a swatch, diameter of a symbol
    double rise = 4;           ///< the key's centre above the label's baseline
    double gap = 5;
    double spacing = 16;
    double line_height = 20;
    /// > 0: a label is label.size() x char_width wide (a fixed estimate; the timeline's
    /// legend uses 6.4 px at 11 px, and the explorer paints its legend with the same rule);
    /// 0: text_width(label, size).
    double char_width = 0;
    Rgb colour{20, 20, 20};    ///< of the labels
};

/// Where each entry's key starts (x) and its label's baseline, first line at `baseline`.
struct LegendSpot {
    double x = 0, baseline = 0;
};
std::vector<LegendSpot> legend_layout(const std::vector<LegendEntry>& entries,
                                      const LegendStyle& style, double baseline);

/// Draws the legend (keys role "legend-key", labels role "legend") as legend_layout places
/// it; returns the baseline of its last line (`baseline` when there are no entries).
double draw_legend(Scene& s, const std::vector<LegendEntry>& entries, const LegendStyle& style,
                   double baseline);

}  // namespace spmv::viz
