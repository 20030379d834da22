// Strong-scaling charts as a Scene and its SVG text (spmv/viz/scaling_svg.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <spmv/error.hpp>
#include <spmv/viz/scaling_svg.hpp>

namespace spmv::viz {

namespace {

constexpr double left = 58.0;    // room for the y tick labels and title
constexpr double right = 14.0;
constexpr double top = 58.0;     // title and two subtitle lines
constexpr double bottom = 40.0;  // x ticks and title
constexpr double legend_height = 22.0;
constexpr double inset = 12.0;   // the first and last rank count sit this far inside the frame

constexpr Rgb ink{20, 20, 20};
constexpr Rgb grid{225, 225, 225};
constexpr Rgb note{68, 68, 68};

Text text(double x, double y, std::string body, double size, std::string role)
{
    return Text{.x = x, .y = y, .text = std::move(body), .size = size, .colour = ink,
                .role = std::move(role)};
}

/// The measured marker of a mode: a filled diamond for the single-process T1, a hollow square
/// for vector mode, a hollow triangle for overlap, a filled circle for task mode.
Symbol mode_symbol(const std::string& mode)
{
    if (mode == "single") return Symbol{.radius = 6.0 / 1.3, .shape = Shape::diamond};
    if (mode == "vector") return Symbol{.radius = 4.0, .shape = Shape::square, .hollow = true};
    if (mode == "overlap") {
        return Symbol{.radius = 5.0 / 1.3, .shape = Shape::triangle, .hollow = true};
    }
    return Symbol{.radius = 4.5, .shape = Shape::circle};
}

}  // namespace

Scene scaling_scene(const std::vector<ScalingPanel>& panels, const ScalingSvgOptions& o)
{
    SPMV_EXPECTS(o.columns >= 1 && o.panel_width_px > left + right + 50 &&
                     o.panel_height_px > top + bottom + legend_height + 50,
                 "scaling chart: panel too small");
    const int cols = std::max(1, std::min<int>(o.columns, static_cast<int>(panels.size())));
    const int rows = static_cast<int>((panels.size() + static_cast<std::size_t>(cols) - 1) /
                                      static_cast<std::size_t>(cols));
    Scene s;
    s.width = cols * o.panel_width_px;
    s.height = std::max(1, rows) * o.panel_height_px + 40.0;
    s.add(Rect{.w = s.width, .h = s.height, .role = "background"});
    for (const auto& [y, line] :
         {std::pair{s.height - 24,
                    "Time per SpMV (log) against ranks (log). Bands: the model's task mode between "
                    "alpha = 1/N_nzr (x reused perfectly) and alpha = 1 (Kreutzer's default);"},
          std::pair{s.height - 10,
                    "dashed: the model's vector mode at alpha = 1; dotted: ideal scaling T1/P of "
                    "the measured one-GPU time. Markers: measured medians."}}) {
        auto t = text(10, y, line, 11, "footer");
        t.colour = note;
        s.add(std::move(t));
    }
    for (std::size_t p = 0; p < panels.size(); ++p) {
        const auto& pn = panels[p];
        SPMV_EXPECTS(!pn.ranks.empty(), "scaling chart: panel '" + pn.title + "' has no ranks");
        const std::size_t n = pn.ranks.size();
        double lo = 1e300;
        double hi = 0.0;
        auto see = [&](double v) {
            SPMV_EXPECTS(v > 0.0 && std::isfinite(v),
                         "scaling chart: non-positive time in panel '" + pn.title + "'");
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        };
        for (const auto& m : pn.model) {
            SPMV_EXPECTS(m.task_best_us.size() == n && m.task_worst_us.size() == n &&
                             m.vector_worst_us.size() == n,
                         "scaling chart: a model series of '" + pn.title + "' does not match its ranks");
            for (std::size_t i = 0; i < n; ++i) {
                see(m.task_best_us[i]);
                see(m.task_worst_us[i]);
                see(m.vector_worst_us[i]);
            }
        }
        double t1 = 0.0;
        for (const auto& m : pn.measured) {
            see(m.us);
            if (m.mode == "single") {
                t1 = m.us;
            }
        }
        if (t1 > 0.0) {
            see(t1 / pn.ranks.back());
        }
        if (hi == 0.0) {
            lo = 1.0;
            hi = 10.0;
        }
        const double x0 = static_cast<double>(p % static_cast<std::size_t>(cols)) * o.panel_width_px;
        const double y0 = static_cast<double>(p / static_cast<std::size_t>(cols)) * o.panel_height_px;
        const double pl = x0 + left;
        const double pr = x0 + o.panel_width_px - right;
        const double pt = y0 + top;
        const double pb = y0 + o.panel_height_px - bottom - legend_height;
        // y: every 1-2-5 tick from the one at or below the smallest time to the one at or above
        // the largest; x: the rank counts, spanning at least one doubling
        const Axis ay = Axis::logarithmic(lo, hi, pb, pt, std::numeric_limits<int>::max());
        Axis ax;
        ax.log = true;
        ax.lo = pn.ranks.front();
        ax.hi = std::max<double>(pn.ranks.back(), 2.0 * pn.ranks.front());
        ax.px_lo = pl + inset;
        ax.px_hi = pr - inset;
        ax.ticks.assign(pn.ranks.begin(), pn.ranks.end());

        s.begin_group("panel");
        auto title = text(x0 + 10, y0 + 16, pn.title, 12, "title");
        title.bold = true;
        s.add(std::move(title));
        // the subtitle in two lines, split at its first "; "
        const auto cut = pn.subtitle.find("; ");
        std::vector<std::string> sub{pn.subtitle.substr(0, cut)};
        if (cut != std::string::npos) sub.push_back(pn.subtitle.substr(cut + 2));
        for (std::size_t k = 0; k < sub.size(); ++k) {
            auto t = text(x0 + 10, y0 + 31 + 13.0 * static_cast<double>(k), sub[k], 10,
                          "provenance");
            t.colour = Rgb{85, 85, 85};
            s.add(std::move(t));
        }
        y_grid(s, ay, pl, pr, grid);
        y_tick_labels(s, ay, pl - 4, {11, ink, tick_label});
        x_grid(s, ax, pt, pb, grid);
        x_tick_labels(s, ax, pb + 14, {11, ink, tick_label});
        s.add(Rect{.x = pl, .y = pt, .w = pr - pl, .h = pb - pt, .opacity = 0, .stroke = true,
                   .stroke_colour = Rgb{136, 136, 136}, .role = "frame"});
        auto xlabel = text((pl + pr) / 2, pb + 28, "GPUs (ranks)", 11, "axis-label");
        xlabel.anchor = Anchor::middle;
        s.add(std::move(xlabel));
        auto ylabel = text(x0 + 14, (pt + pb) / 2, "us per SpMV", 11, "axis-label");
        ylabel.anchor = Anchor::middle;
        ylabel.vertical = true;
        s.add(std::move(ylabel));
        // model bands and lines
        for (const auto& m : pn.model) {
            Path band{.closed = true, .colour = m.colour, .stroke_opacity = 0.6, .fill = m.colour,
                      .fill_opacity = 0.18, .tip = m.label + ", task mode", .role = "band"};
            for (std::size_t i = 0; i < n; ++i) {
                band.points.emplace_back(ax.px(pn.ranks[i]), ay.px(m.task_best_us[i]));
            }
            for (std::size_t i = n; i-- > 0;) {
                band.points.emplace_back(ax.px(pn.ranks[i]), ay.px(m.task_worst_us[i]));
            }
            s.add(std::move(band));
            Path vector{.colour = m.colour, .dash = Dash::dashed,
                        .tip = m.label + ", vector mode, alpha = 1", .role = "reference"};
            for (std::size_t i = 0; i < n; ++i) {
                vector.points.emplace_back(ax.px(pn.ranks[i]), ay.px(m.vector_worst_us[i]));
            }
            s.add(std::move(vector));
        }
        if (t1 > 0.0) {
            s.add(Line{.x1 = ax.px(pn.ranks.front()), .y1 = ay.px(t1 / pn.ranks.front()),
                       .x2 = ax.px(pn.ranks.back()), .y2 = ay.px(t1 / pn.ranks.back()),
                       .colour = Rgb{51, 51, 51}, .dash = Dash::dotted, .tip = "ideal T1/P",
                       .role = "reference"});
        }
        // measured markers (small horizontal offsets keep the modes apart)
        for (const auto& m : pn.measured) {
            const double off = m.mode == "vector" ? -5.0 : m.mode == "overlap" ? 5.0 : 0.0;
            Symbol mark = mode_symbol(m.mode);
            mark.x = ax.px(m.ranks) + off;
            mark.y = ay.px(m.us);
            mark.colour = m.colour;
            mark.tip = m.mode + ", " + std::to_string(m.ranks) + " rank(s): " +
                       compact_number(m.us) + " us";
            mark.role = "point";
            s.add(std::move(mark));
        }
        // legend: measured series, then the marker shapes, in one line under the plot
        std::vector<LegendEntry> keys;
        for (const auto& [label, colour] : pn.legend) {
            keys.push_back({.label = label, .colour = colour});
        }
        for (const auto* mode : {"task", "vector", "overlap", "single"}) {
            const Symbol sym = mode_symbol(mode);
            keys.push_back({.label = std::string(mode) == "single" ? "1 GPU" : mode,
                            .key = LegendEntry::Key::symbol,
                            .colour = note,
                            .shape = sym.shape,
                            .hollow = sym.hollow});
        }
        LegendStyle st;
        st.left = x0 + 10;
        st.size = 11;
        st.key = 10;
        st.rise = 4;  // a swatch's top 9 px above the baseline
        st.gap = 4;
        st.spacing = 10;
        st.char_width = 6.2;
        st.colour = ink;
        s.begin_group("legend");
        draw_legend(s, keys, st, y0 + o.panel_height_px - 12);
        s.end_group();
        s.end_group();
    }
    return s;
}

std::string scaling_svg(const std::vector<ScalingPanel>& panels, const ScalingSvgOptions& o)
{
    return svg(scaling_scene(panels, o));
}

}  // namespace spmv::viz
