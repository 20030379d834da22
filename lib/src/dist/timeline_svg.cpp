// Kreutzer Fig. 4-style timeline pictures: layout (plain numbers) first, then a Scene
// (spmv/viz/scene.hpp) that only turns the layout into primitives, and its SVG text.
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

#include <spmv/error.hpp>
#include <spmv/viz/chart.hpp>
#include <spmv/viz/timeline_svg.hpp>
#include <spmv/viz/units.hpp>

namespace spmv::viz {

namespace {

using dist::Lane;
using dist::Phase;
using dist::Timeline;

// Fixed geometry, in pixels. Font sizes are chosen with them: 14 px titles, 11 px text.
constexpr double margin = 12.0;
constexpr double right_margin = 28.0;  ///< room for the last tick label
constexpr double title_height = 20.0;
constexpr double info_height = 15.0;
constexpr double row_gap = 3.0;
constexpr double rank_gap = 6.0;  ///< extra space between the rows of two ranks
constexpr double axis_height = 34.0;  ///< tick marks, tick labels and the axis title
constexpr double panel_gap = 14.0;

/// The legend: 12 px swatches, 11 px labels measured at a fixed 6.4 px per character (the
/// explorer's distribution view paints its legend by the same rule, where timeline_layout
/// reserved room for it), wrapped at the right margin.
LegendStyle legend_style(double width)
{
    LegendStyle st;
    st.left = margin;
    st.right = width - margin;
    st.size = 11.0;
    st.key = 12.0;
    st.rise = 4.0;  // swatch top 10 px above the baseline
    st.gap = 5.0;
    st.spacing = 16.0;
    st.line_height = 20.0;
    st.char_width = 6.4;
    st.colour = palette().text;
    return st;
}

std::vector<LegendEntry> legend_entries(const std::vector<Phase>& phases)
{
    std::vector<LegendEntry> entries;
    for (Phase ph : phases) {
        LegendEntry e;
        e.label = phase_label(ph);
        e.colour = phase_colour(ph);
        entries.push_back(std::move(e));
    }
    return entries;
}

constexpr double legend_baseline = 10.0;  ///< below TimelineLayout::legend_y

/// Short name for the many coordinates below.
std::string number(double v) { return compact_number(v); }

/// "a · b · c" of the non-empty parts.
std::string joined(const std::vector<std::string>& parts)
{
    std::string s;
    for (const auto& p : parts) {
        if (p.empty()) continue;
        if (!s.empty()) s += " \u00b7 ";
        s += p;
    }
    return s;
}

std::string labelled(const char* key, const std::string& value)
{
    return value.empty() ? std::string() : std::string(key) + ": " + value;
}

/// The events of `t` that its panel draws, as indices, and the iteration that panel shows.
std::pair<std::vector<std::size_t>, int> drawn_events(const Timeline& t, int option)
{
    int iteration = option;
    if (option == timeline_last_iteration) {
        const auto its = dist::iterations(t);
        if (its.empty()) return {{}, timeline_last_iteration};
        iteration = its.back();
    }
    std::vector<std::size_t> picked;
    for (std::size_t k = 0; k < t.events.size(); ++k) {
        if (iteration == timeline_all_iterations || t.events[k].iteration == iteration) {
            picked.push_back(k);
        }
    }
    return {picked, iteration};
}

std::string panel_title(const Timeline& t, int iteration)
{
    std::string title = mode_title(t.mode);
    if (iteration >= 0) {
        title += ", iteration " + std::to_string(iteration);
    } else if (iteration == timeline_all_iterations) {
        title += ", all iterations";
    }
    if (iteration >= 0 || iteration == timeline_all_iterations) {
        const auto o = dist::overlap_times(t, -1, iteration >= 0 ? iteration : -1);
        if (o.exchange_us > 0.0) {
            title += ": " + std::to_string(static_cast<int>(std::lround(
                                100.0 * o.hidden_us / o.exchange_us))) +
                     " % of the exchange hidden";
        }
    }
    return title;
}

std::vector<std::string> panel_info(const Timeline& t)
{
    std::vector<std::string> info;
    info.push_back(joined({labelled("matrix", t.matrix), labelled("format", t.format),
                           labelled("partition", t.partition),
                           std::to_string(t.num_ranks) + (t.num_ranks == 1 ? " rank" : " ranks")}));
    const std::string second =
        joined({labelled("device", t.device), labelled("precision", t.precision),
                labelled("date", t.date), labelled("commit", t.commit)});
    if (!second.empty()) info.push_back(second);
    if (t.predicted) info.push_back("PREDICTED by the model");
    return info;
}

}  // namespace

std::string mode_title(dist::Mode m)
{
    switch (m) {
        case dist::Mode::vector:
            return "Vector mode (no overlap)";
        case dist::Mode::naive:
            return "Vector mode, naive overlap";
        case dist::Mode::overlap:
            return "Explicit overlap (GPU era, not the paper's)";
        case dist::Mode::task:
            return "Task mode (comm thread)";
    }
    return "unknown mode";
}

Rgb phase_colour(Phase p) noexcept
{
    switch (p) {
        case Phase::local:
            return okabe_ito::blue;
        case Phase::nonlocal:
            return okabe_ito::sky_blue;
        case Phase::pack:
            return okabe_ito::bluish_green;
        case Phase::copy_d2h:
            return okabe_ito::reddish_purple;
        case Phase::copy_h2d:
            return mix(okabe_ito::reddish_purple, Rgb{255, 255, 255}, 0.5);
        case Phase::copy_peer:
            return mix(okabe_ito::reddish_purple, okabe_ito::black, 0.35);
        case Phase::post:
            return okabe_ito::orange;
        case Phase::wait:
            return okabe_ito::vermillion;
        case Phase::exchange:
            return mix(okabe_ito::vermillion, okabe_ito::black, 0.4);
        case Phase::reduce:
            return Rgb{90, 90, 90};
        case Phase::idle:
            return palette().idle;
    }
    return okabe_ito::black;
}

std::string phase_label(Phase p)
{
    switch (p) {
        case Phase::local:
            return "local SpMV";
        case Phase::nonlocal:
            return "non-local SpMV";
        case Phase::pack:
            return "local gather (pack)";
        case Phase::copy_d2h:
            return "copy device to host";
        case Phase::copy_h2d:
            return "copy host to device";
        case Phase::copy_peer:
            return "copy from peer GPU (IPC)";
        case Phase::post:
            return "post Isend/Irecv";
        case Phase::wait:
            return "wait (Waitall)";
        case Phase::exchange:
            return "exchange (comm thread)";
        case Phase::reduce:
            return "reduce (Allreduce)";
        case Phase::idle:
            return "idle";
    }
    return "unknown";
}

std::string lane_label(Lane l)
{
    switch (l) {
        case Lane::compute:
            return "compute";
        case Lane::comm:
            return "comm";
        case Lane::gpu:
            return "GPU";
    }
    return "unknown";
}

TimelineLayout timeline_layout(const std::vector<Timeline>& timelines,
                               const TimelineSvgOptions& options)
{
    SPMV_EXPECTS(options.iteration >= 0 || options.iteration == timeline_last_iteration ||
                     options.iteration == timeline_all_iterations,
                 "timeline iteration must be >= 0, timeline_last_iteration or "
                 "timeline_all_iterations");
    SPMV_EXPECTS(options.row_height_px >= 2.0, "timeline row height below 2 px");
    TimelineLayout lay;
    lay.width = options.width_px;
    lay.plot_left = options.label_width_px;
    lay.plot_width = options.width_px - options.label_width_px - right_margin;
    SPMV_EXPECTS(options.label_width_px >= 0.0 && lay.plot_width > 0.0,
                 "timeline picture " + number(options.width_px) +
                     " px wide leaves no room for the plot after " +
                     number(options.label_width_px) + " px of labels");

    // Pass 1: what each panel draws, its origin, and the longest span (the shared scale).
    std::vector<std::vector<std::size_t>> drawn(timelines.size());
    double longest = 0.0;
    std::set<Phase> phases;
    for (std::size_t p = 0; p < timelines.size(); ++p) {
        const Timeline& t = timelines[p];
        for (std::size_t k = 0; k < t.events.size(); ++k) {
            const auto& e = t.events[k];
            SPMV_EXPECTS(std::isfinite(e.begin_us) && std::isfinite(e.end_us) &&
                             e.end_us >= e.begin_us,
                         "timeline " + std::to_string(p) + ", event " + std::to_string(k) +
                             ": no valid time interval");
        }
        auto [picked, iteration] = drawn_events(t, options.iteration);
        TimelinePanel panel;
        panel.timeline = p;
        panel.iteration = iteration;
        double first = std::numeric_limits<double>::infinity();
        double last = -std::numeric_limits<double>::infinity();
        for (std::size_t k : picked) {
            first = std::min(first, t.events[k].begin_us);
            last = std::max(last, t.events[k].end_us);
            phases.insert(t.events[k].phase);
        }
        if (!picked.empty()) {
            panel.origin_us = first;
            longest = std::max(longest, last - first);
        }
        panel.title = panel_title(t, iteration);
        panel.info = panel_info(t);
        lay.panels.push_back(std::move(panel));
        drawn[p] = std::move(picked);
    }
    lay.axis.step_us = nice_step(longest, options.max_ticks);
    lay.axis.max_us = std::max(lay.axis.step_us, std::ceil(longest / lay.axis.step_us) *
                                                     lay.axis.step_us);

    // Pass 2: stack the panels; rows, then bars on them.
    double y = margin;
    for (std::size_t p = 0; p < timelines.size(); ++p) {
        const Timeline& t = timelines[p];
        TimelinePanel& panel = lay.panels[p];
        panel.y = y;
        panel.rows_y =
            y + title_height + info_height * static_cast<double>(panel.info.size()) + 4.0;

        // Rows of every (rank, lane) with events in ANY iteration, so that the rows of one
        // timeline do not move when another iteration is drawn.
        std::set<std::pair<int, int>> keys;
        for (const auto& e : t.events) keys.insert({e.rank, static_cast<int>(e.lane)});
        const std::size_t first_row = lay.rows.size();
        double row_y = panel.rows_y;
        for (const auto& [rank, lane] : keys) {
            if (lay.rows.size() > first_row && lay.rows.back().rank != rank) row_y += rank_gap;
            TimelineRow row;
            row.panel = p;
            row.rank = rank;
            row.lane = static_cast<Lane>(lane);
            row.label = "rank " + std::to_string(rank) + " " + lane_label(row.lane);
            row.y = row_y;
            row.height = options.row_height_px;
            lay.rows.push_back(std::move(row));
            row_y += options.row_height_px + row_gap;
        }
        if (keys.empty()) row_y += options.row_height_px + row_gap;  // room for "no events"
        panel.axis_y = row_y;

        for (std::size_t k : drawn[p]) {
            const auto& e = t.events[k];
            std::size_t r = first_row;
            while (lay.rows[r].rank != e.rank || lay.rows[r].lane != e.lane) ++r;
            TimelineBar bar;
            bar.panel = p;
            bar.event = k;
            bar.row = r;
            bar.phase = e.phase;
            bar.x = lay.x_of(e.begin_us - panel.origin_us);
            bar.width = lay.x_of(e.end_us - panel.origin_us) - bar.x;
            bar.y = lay.rows[r].y + 1.0;
            bar.height = options.row_height_px - 2.0;
            lay.bars.push_back(bar);
        }
        panel.height = panel.axis_y + axis_height - panel.y;
        y += panel.height + panel_gap;
    }

    lay.legend.assign(phases.begin(), phases.end());  // std::set of an enum: enumeration order
    lay.legend_y = y;
    const LegendStyle st = legend_style(lay.width);
    const auto spots = legend_layout(legend_entries(lay.legend), st, 0.0);
    const double legend_lines =
        spots.empty() ? 0.0 : 1.0 + std::round(spots.back().baseline / st.line_height);
    lay.height = y + st.line_height * legend_lines + margin;
    return lay;
}

Scene timeline_scene(const std::vector<Timeline>& timelines, const TimelineSvgOptions& options)
{
    const TimelineLayout lay = timeline_layout(timelines, options);
    const Palette& pal = palette();
    Scene s;
    s.width = lay.width;
    s.height = lay.height;
    s.add(Rect{.w = lay.width, .h = lay.height, .fill = pal.background, .role = "background"});

    Axis axis;  // the shared time scale, as chart.hpp's axis
    axis.lo = 0.0;
    axis.hi = lay.axis.max_us;
    axis.px_lo = lay.plot_left;
    axis.px_hi = lay.plot_left + lay.plot_width;
    const int num_ticks = static_cast<int>(std::lround(lay.axis.max_us / lay.axis.step_us));
    for (int i = 0; i <= num_ticks; ++i) axis.ticks.push_back(i * lay.axis.step_us);
    const TickStyle ticks{11.0, pal.text, compact_number};
    const auto text = [&](double x, double y, std::string body, std::string role) {
        return Text{.x = x, .y = y, .text = std::move(body), .size = 11.0, .colour = pal.text,
                    .role = std::move(role)};
    };

    for (const TimelinePanel& panel : lay.panels) {
        const Timeline& t = timelines[panel.timeline];
        s.begin_group("panel");
        auto title = text(margin, panel.y + 14.0, panel.title, "title");
        title.size = 14.0;
        title.bold = true;
        s.add(std::move(title));
        double info_y = panel.y + title_height + 10.0;
        for (std::size_t i = 0; i < panel.info.size(); ++i) {
            // panel_info puts the PREDICTED line last; it is drawn bold in the model's colour.
            auto line = text(margin, info_y, panel.info[i], "provenance");
            if (t.predicted && i + 1 == panel.info.size()) {
                line.role = "predicted";
                line.bold = true;
                line.colour = pal.predicted;
            }
            s.add(std::move(line));
            info_y += info_height;
        }
        // Vertical grid lines at the ticks, behind the bars.
        x_grid(s, axis, panel.rows_y - 2.0, panel.axis_y, mix(pal.grid, pal.background, 0.6));
        bool any_row = false;
        for (const TimelineRow& row : lay.rows) {
            if (row.panel != panel.timeline) continue;
            any_row = true;
            auto label = text(lay.plot_left - 6.0, row.y + row.height * 0.72, row.label,
                              "row-label");
            label.anchor = Anchor::end;
            s.add(std::move(label));
        }
        if (!any_row || std::none_of(lay.bars.begin(), lay.bars.end(), [&](const TimelineBar& b) {
                return b.panel == panel.timeline;
            })) {
            auto note = text(lay.plot_left + 6.0, panel.rows_y + options.row_height_px * 0.72,
                             panel.iteration >= 0
                                 ? "no events in iteration " + std::to_string(panel.iteration)
                                 : "no events",
                             "note");
            note.italic = true;
            s.add(std::move(note));
        }
        for (const TimelineBar& b : lay.bars) {
            if (b.panel != panel.timeline) continue;
            const auto& e = t.events[b.event];
            s.add(Rect{.x = b.x, .y = b.y, .w = b.width, .h = b.height,
                       .fill = phase_colour(b.phase),
                       .tip = phase_label(e.phase) + ", " + lay.rows[b.row].label +
                              ", iteration " + std::to_string(e.iteration) + ": " +
                              compact_number(e.begin_us) + " to " + compact_number(e.end_us) +
                              " us (" + compact_number(e.end_us - e.begin_us) + " us)",
                       .role = "event"});
        }
        // Time axis: line, ticks, labels, unit.
        s.add(Line{.x1 = axis.px_lo, .y1 = panel.axis_y, .x2 = axis.px_hi, .y2 = panel.axis_y,
                   .colour = pal.text, .role = "axis"});
        for (const double tick : axis.ticks) {
            s.add(Line{.x1 = axis.px(tick), .y1 = panel.axis_y, .x2 = axis.px(tick),
                       .y2 = panel.axis_y + 4.0, .colour = pal.text, .role = "tick"});
        }
        x_tick_labels(s, axis, panel.axis_y + 15.0, ticks);
        auto unit = text(axis.px_hi, panel.axis_y + 29.0, "time (\u00b5s)", "axis-label");
        unit.anchor = Anchor::end;
        s.add(std::move(unit));
        s.end_group();
    }

    // Legend: the phases drawn, where timeline_layout reserved room for it.
    if (!lay.legend.empty()) {
        s.begin_group("legend");
        draw_legend(s, legend_entries(lay.legend), legend_style(lay.width),
                    lay.legend_y + legend_baseline);
        s.end_group();
    }
    return s;
}

std::string timeline_svg(const std::vector<Timeline>& timelines, const TimelineSvgOptions& options)
{
    return svg(timeline_scene(timelines, options));
}

}  // namespace spmv::viz
