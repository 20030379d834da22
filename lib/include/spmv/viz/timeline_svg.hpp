#pragma once
/// Event-timeline pictures of distributed SpMVs, in the style of Kreutzer et al. 2012, Fig. 4,
/// written as standalone SVG 1.1 text (no display, no Qt: the CLI writes them to files, a
/// browser shows them, the GUI can load them).
///
/// One panel per timeline (one recorded or predicted run of one mode), stacked vertically.
/// Each panel has one row per (rank, lane) that has events, ordered by rank and then lane
/// (compute, comm, GPU), labelled "rank 0 compute", "rank 0 comm", "rank 0 GPU", and one
/// rectangle per event, coloured by phase. Reading a task-mode panel of a GPU rank: the comm
/// row shows the exchange, while the GPU row shows the local SpMV at the same x, so the
/// exchange is hidden; in vector mode the same rectangles sit one after the other.
///
/// All panels share ONE time scale, so modes compare by length: time t (microseconds after
/// the panel's origin) sits at x = plot_left + t / axis.max_us * plot_width. The origin of a
/// panel is the earliest begin of the events it draws (runs of different modes have different
/// clocks; within a panel, all ranks keep their common MPI_Wtime origin). axis.max_us is the
/// longest drawn span rounded up to a multiple of a nice tick step (1, 2, 5 x 10^k us).
///
/// Example: two panels whose drawn spans are 80 us and 40 us, plot width 800 px, 10 ticks:
/// step 10 us, max 80 us; an event [20, 30) us of either panel is drawn at x = plot_left + 200
/// with width 100 px: the 40 us panel is half as long as the 80 us one.
///
/// Which events are drawn: by default only the last iteration present in each timeline (the
/// first SpMVs are warm-up, and one iteration is what Fig. 4 shows), shifted so that it starts
/// at 0; options.iteration picks another one, or all of them.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <spmv/dist/timeline.hpp>
#include <spmv/viz/colour.hpp>
#include <spmv/viz/scene.hpp>  // compact_number, xml_escape

namespace spmv::viz {

/// TimelineSvgOptions::iteration: draw the last iteration present in each timeline.
inline constexpr int timeline_last_iteration = -1;
/// TimelineSvgOptions::iteration: draw every event of every iteration.
inline constexpr int timeline_all_iterations = -2;

struct TimelineSvgOptions {
    /// Iteration k >= 0 to draw (a timeline without it gets an empty panel saying so),
    /// timeline_last_iteration, or timeline_all_iterations.
    int iteration = timeline_last_iteration;
    double width_px = 960.0;       ///< width of the whole picture
    double label_width_px = 130.0; ///< room for the row labels, left of the plot
    double row_height_px = 18.0;   ///< height of one (rank, lane) row
    int max_ticks = 10;            ///< at most this many tick intervals on the time axis
};

/// "Vector mode (no overlap)", "Vector mode, naive overlap", "Explicit overlap (GPU era, not
/// the paper's)", "Task mode (comm thread)".
std::string mode_title(dist::Mode m);

/// Colour of a phase in the pictures, from the Okabe-Ito palette (colour.hpp), so that the
/// phases stay apart under the common colour-vision deficiencies; where ten phases outnumber
/// its colours, related phases share a hue at another lightness:
///   local    blue (0, 114, 178)        nonlocal  sky blue (86, 180, 233)
///   pack     bluish green (0, 158, 115)
///   copy_d2h reddish purple (204, 121, 167)  copy_h2d the same mixed 50 % with white
///   post     orange (230, 159, 0)      wait      vermillion (213, 94, 0)
///   exchange vermillion mixed 40 % with black (the comm thread's whole exchange)
///   reduce   dark grey (90, 90, 90)    idle      yellow (240, 228, 66), the palette's idle
/// Compute is blue as "useful work" is everywhere in SpMV Lab, and waiting is vermillion as
/// padding waste is.
Rgb phase_colour(dist::Phase p) noexcept;

/// Legend text of a phase: "local SpMV", "non-local SpMV", "local gather (pack)",
/// "copy device to host", "copy host to device", "post Isend/Irecv", "wait (Waitall)",
/// "exchange (comm thread)", "reduce (Allreduce)", "idle".
std::string phase_label(dist::Phase p);

/// "compute", "comm", "GPU".
std::string lane_label(dist::Lane l);

/// The shared time axis. Ticks at 0, step_us, 2 step_us, ..., max_us.
struct TimelineAxis {
    double max_us = 1.0;
    double step_us = 1.0;
};

/// One (rank, lane) row of a panel.
struct TimelineRow {
    std::size_t panel = 0;
    int rank = 0;
    dist::Lane lane = dist::Lane::compute;
    std::string label;  ///< "rank 0 compute"
    double y = 0.0;     ///< top, pixels
    double height = 0.0;
};

/// One drawn event, in pixels.
struct TimelineBar {
    std::size_t panel = 0;
    std::size_t event = 0;  ///< index into the timeline's events
    std::size_t row = 0;    ///< index into TimelineLayout::rows
    dist::Phase phase = dist::Phase::local;
    double x = 0.0;
    double y = 0.0;
    double width = 0.0;
    double height = 0.0;
};

/// One timeline's panel: its text lines and where its rows and axis are.
struct TimelinePanel {
    std::size_t timeline = 0;
    /// The iteration drawn; timeline_all_iterations; or timeline_last_iteration when the
    /// timeline has no events at all.
    int iteration = timeline_all_iterations;
    double origin_us = 0.0;  ///< recorded time drawn at x = plot_left
    /// Mode, iteration and the hidden share of the exchange (dist::overlapped_fraction of the
    /// drawn iteration, left out without exchange): "Task mode (comm thread), iteration 9:
    /// 63 % of the exchange hidden".
    std::string title;
    /// "matrix: m · format: f · partition: p · 2 ranks", "device: ... · precision: ... · date:
    /// ... · commit: ..." (empty fields left out), then "PREDICTED by the model" when predicted.
    std::vector<std::string> info;
    double y = 0.0;                  ///< top of the panel
    double rows_y = 0.0;             ///< top of the first row
    double axis_y = 0.0;             ///< y of the time axis line under the rows
    double height = 0.0;
};

/// Everything timeline_svg draws, as plain numbers (tests check these, not SVG text).
struct TimelineLayout {
    double width = 0.0;
    double height = 0.0;
    double plot_left = 0.0;  ///< x of time 0
    double plot_width = 0.0;
    TimelineAxis axis;
    std::vector<TimelinePanel> panels;
    std::vector<TimelineRow> rows;
    std::vector<TimelineBar> bars;
    std::vector<dist::Phase> legend;  ///< phases drawn, in enumeration order
    double legend_y = 0.0;

    /// x in pixels of `t_us` microseconds after a panel's origin.
    double x_of(double t_us) const noexcept
    {
        return plot_left + t_us / axis.max_us * plot_width;
    }
};

/// The layout of timeline_svg(timelines, options) (see the header comment). Throws
/// InvalidArgument for width_px not larger than label_width_px plus the margins, a
/// row_height_px below 2, or an event with end_us < begin_us.
TimelineLayout timeline_layout(const std::vector<dist::Timeline>& timelines,
                               const TimelineSvgOptions& options = {});

/// The picture as a Scene (scene.hpp), drawn from timeline_layout: per panel a group
/// "panel" with the title, the provenance lines ("predicted" for the PREDICTED line), grid
/// lines, the row labels ("row-label"), one Rect "event" per bar with a tooltip (phase, rank,
/// lane, iteration, times), and the time axis ("axis", "tick", "tick-label", "axis-label");
/// then a group "legend" (chart.hpp's draw_legend: swatches "legend-key", labels "legend").
Scene timeline_scene(const std::vector<dist::Timeline>& timelines,
                     const TimelineSvgOptions& options = {});

/// svg(timeline_scene(timelines, options)): an SVG 1.1 document ("<?xml ...?>" then one
/// <svg> element) in which every event is one `<rect class="event" ...>` with a <title>
/// tooltip. All text is XML-escaped.
std::string timeline_svg(const std::vector<dist::Timeline>& timelines,
                         const TimelineSvgOptions& options = {});

}  // namespace spmv::viz
