// Kreutzer Fig. 4-style timeline pictures as SVG text: layout (plain numbers) first, then a
// writer that only turns the layout into elements.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <utility>

#include <spmv/error.hpp>
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
constexpr double legend_line_height = 20.0;
constexpr double legend_swatch = 12.0;
constexpr double text_char_width = 6.4;  ///< rough width of one 11 px character (legend wrap)

}  // namespace

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

namespace {

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
    double x = margin;
    int legend_lines = lay.legend.empty() ? 0 : 1;
    for (Phase ph : lay.legend) {
        const double w = legend_swatch + 5.0 +
                         text_char_width * static_cast<double>(phase_label(ph).size()) + 16.0;
        if (x > margin && x + w > lay.width - margin) {
            x = margin;
            ++legend_lines;
        }
        x += w;
    }
    lay.height = y + legend_line_height * legend_lines + margin;
    return lay;
}

std::string timeline_svg(const std::vector<Timeline>& timelines, const TimelineSvgOptions& options)
{
    const TimelineLayout lay = timeline_layout(timelines, options);
    const Palette& pal = palette();
    const std::string text_fill = hex(pal.text);
    std::string s;
    s += "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n";
    s += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + number(lay.width) +
         "\" height=\"" + number(lay.height) + "\" viewBox=\"0 0 " + number(lay.width) + " " +
         number(lay.height) + "\" font-family=\"sans-serif\" font-size=\"11\">\n";
    s += "<rect class=\"background\" x=\"0\" y=\"0\" width=\"" + number(lay.width) +
         "\" height=\"" + number(lay.height) + "\" fill=\"" + hex(pal.background) + "\"/>\n";

    const auto coloured_text = [&](double x, double y, const std::string& body,
                                   const std::string& extra, const std::string& fill) {
        s += "<text x=\"" + number(x) + "\" y=\"" + number(y) + "\" fill=\"" + fill + "\"" +
             extra + ">" + xml_escape(body) + "</text>\n";
    };
    const auto text = [&](double x, double y, const std::string& body, const std::string& extra) {
        coloured_text(x, y, body, extra, text_fill);
    };
    const auto line = [&](double x1, double y1, double x2, double y2, Rgb c) {
        s += "<line x1=\"" + number(x1) + "\" y1=\"" + number(y1) + "\" x2=\"" + number(x2) +
             "\" y2=\"" + number(y2) + "\" stroke=\"" + hex(c) + "\" stroke-width=\"1\"/>\n";
    };
    const int num_ticks = static_cast<int>(std::lround(lay.axis.max_us / lay.axis.step_us));

    for (const TimelinePanel& panel : lay.panels) {
        const Timeline& t = timelines[panel.timeline];
        s += "<g class=\"panel\">\n";
        text(margin, panel.y + 14.0, panel.title, " font-size=\"14\" font-weight=\"bold\"");
        double info_y = panel.y + title_height + 10.0;
        for (std::size_t i = 0; i < panel.info.size(); ++i) {
            // panel_info puts the PREDICTED line last; it is drawn bold in the model's colour.
            if (t.predicted && i + 1 == panel.info.size()) {
                coloured_text(margin, info_y, panel.info[i],
                              " class=\"predicted\" font-weight=\"bold\"", hex(pal.predicted));
            } else {
                text(margin, info_y, panel.info[i], "");
            }
            info_y += info_height;
        }
        // Vertical grid lines at the ticks, behind the bars.
        for (int i = 0; i <= num_ticks; ++i) {
            const double x = lay.x_of(i * lay.axis.step_us);
            line(x, panel.rows_y - 2.0, x, panel.axis_y, mix(pal.grid, pal.background, 0.6));
        }
        bool any_row = false;
        for (const TimelineRow& row : lay.rows) {
            if (row.panel != panel.timeline) continue;
            any_row = true;
            text(lay.plot_left - 6.0, row.y + row.height * 0.72, row.label,
                 " text-anchor=\"end\"");
        }
        if (!any_row || std::none_of(lay.bars.begin(), lay.bars.end(), [&](const TimelineBar& b) {
                return b.panel == panel.timeline;
            })) {
            const std::string what = panel.iteration >= 0
                                         ? "no events in iteration " +
                                               std::to_string(panel.iteration)
                                         : "no events";
            text(lay.plot_left + 6.0, panel.rows_y + options.row_height_px * 0.72, what,
                 " font-style=\"italic\"");
        }
        for (const TimelineBar& b : lay.bars) {
            if (b.panel != panel.timeline) continue;
            const auto& e = t.events[b.event];
            s += "<rect class=\"event\" x=\"" + number(b.x) + "\" y=\"" + number(b.y) +
                 "\" width=\"" + number(b.width) + "\" height=\"" + number(b.height) +
                 "\" fill=\"" + hex(phase_colour(b.phase)) + "\"><title>" +
                 xml_escape(phase_label(e.phase) + ", " + lay.rows[b.row].label + ", iteration " +
                            std::to_string(e.iteration) + ": " + number(e.begin_us) + " to " +
                            number(e.end_us) + " us (" + number(e.end_us - e.begin_us) +
                            " us)") +
                 "</title></rect>\n";
        }
        // Time axis: line, ticks, labels, unit.
        line(lay.plot_left, panel.axis_y, lay.plot_left + lay.plot_width, panel.axis_y, pal.text);
        for (int i = 0; i <= num_ticks; ++i) {
            const double x = lay.x_of(i * lay.axis.step_us);
            line(x, panel.axis_y, x, panel.axis_y + 4.0, pal.text);
            text(x, panel.axis_y + 15.0, number(i * lay.axis.step_us), " text-anchor=\"middle\"");
        }
        text(lay.plot_left + lay.plot_width, panel.axis_y + 29.0, "time (\u00b5s)",
             " text-anchor=\"end\"");
        s += "</g>\n";
    }

    // Legend: the phases drawn, wrapped like timeline_layout counted its lines.
    if (!lay.legend.empty()) {
        s += "<g class=\"legend\">\n";
        double x = margin;
        double y = lay.legend_y;
        for (Phase ph : lay.legend) {
            const std::string label = phase_label(ph);
            const double w = legend_swatch + 5.0 +
                             text_char_width * static_cast<double>(label.size()) + 16.0;
            if (x > margin && x + w > lay.width - margin) {
                x = margin;
                y += legend_line_height;
            }
            s += "<rect class=\"legend\" x=\"" + number(x) + "\" y=\"" + number(y) +
                 "\" width=\"" + number(legend_swatch) + "\" height=\"" + number(legend_swatch) +
                 "\" fill=\"" + hex(phase_colour(ph)) + "\"/>\n";
            text(x + legend_swatch + 5.0, y + 10.0, label, "");
            x += w;
        }
        s += "</g>\n";
    }
    s += "</svg>\n";
    return s;
}

}  // namespace spmv::viz
