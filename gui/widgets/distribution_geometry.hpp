#pragma once
// Qt-free geometry and binning of the Distribution view (DistributionPanel): the rank x rank
// communication heat map, the per-rank balance bars, the timelines fitted into the view and
// the points of the predicted scaling curve. The widgets only paint what these return.
// Tested with Catch2 in tests/gui/test_gui_distribution.cpp.
#include <cstdint>
#include <string>
#include <vector>

#include <spmv/dist/model.hpp>
#include <spmv/dist/partition_stats.hpp>
#include <spmv/dist/timeline.hpp>
#include <spmv/viz/colour.hpp>
#include <spmv/viz/histogram.hpp>
#include <spmv/viz/timeline_svg.hpp>
#include <spmv/viz/units.hpp>

#include "layout_geometry.hpp"

// ---- communication matrix ----------------------------------------------------------------

/// comm[s * P + d] of a PartitionStats (x entries rank s sends to rank d per SpMV), binned into
/// at most maxCells x maxCells cells: cell (i, j) sums the senders
/// [i * ranksPerCell, (i + 1) * ranksPerCell) and the receivers likewise, with
/// ranksPerCell = ceil(P / maxCells). P <= maxCells: one rank per cell, the exact matrix.
struct CommHeatmap {
    int ranks = 0;
    int cells = 0;  ///< cells per side
    int ranksPerCell = 1;
    std::vector<std::int64_t> counts;  ///< cells x cells, [sender cell * cells + receiver cell]
    std::int64_t maxCount = 0;

    std::int64_t at(int sender, int receiver) const
    {
        return counts[static_cast<std::size_t>(sender) * static_cast<std::size_t>(cells) +
                      static_cast<std::size_t>(receiver)];
    }
    int firstRank(int cell) const { return cell * ranksPerCell; }
    /// Last rank of a cell (inclusive).
    int lastRank(int cell) const;
};

/// maxCells < 1 counts as 1.
CommHeatmap commHeatmap(const spmv::dist::PartitionStats& stats, int maxCells);

/// Colour of a heat-map cell: the density scale of the pattern views (colour.hpp's
/// density_colour: 0 is the background, then light green to dark purple on a log scale).
spmv::viz::Rgb commColour(std::int64_t count, std::int64_t maxCount) noexcept;

/// Where the heat map goes in a widget: square cells, sender labels left of the grid, receiver
/// labels above it. Numbers are drawn in the cells when a cell is at least numberWidth + 4
/// wide and lineHeight + 2 high.
struct HeatmapGeometry {
    LayoutRect grid;
    double cell = 0;
    int cells = 0;
    bool numbers = false;
    LayoutRect cellRect(int sender, int receiver) const
    {
        return {grid.x + receiver * cell, grid.y + sender * cell, cell, cell};
    }
    /// The (sender, receiver) cell under a point, or (-1, -1).
    std::pair<int, int> cellAt(double x, double y) const;
};

/// A count in at most four characters, the same way in every cell of a heat map: as it is
/// below 1,000, else with k, M or G and two significant digits (1.2k, 35k, 350k, 1.2M); the
/// numbers a heat map shows when the full ones do not fit its cells (the tooltip has them
/// whole).
std::string abbreviatedCount(std::int64_t n);

/// `labelWidth`: room for the sender labels; `lineHeight`: one text line (the receiver labels
/// and the axis title take two lines above the grid); the grid is centred horizontally.
HeatmapGeometry heatmapGeometry(int cells, double width, double height, double labelWidth,
                                double lineHeight, double numberWidth, double margin = 6);

// ---- per-rank balance ----------------------------------------------------------------------

/// One bar of the balance chart: one rank, or a group of ranksPerBar ranks when there are more
/// ranks than bars. A group shows its largest value of each quantity (imbalance is about the
/// maximum), and the nonzeros split of its rank with the most nonzeros.
struct BalanceBar {
    int firstRank = 0;
    int lastRank = 0;  ///< inclusive
    double rows = 0;
    double local = 0;     ///< local nonzeros
    double nonlocal = 0;  ///< non-local nonzeros
    double halo = 0;      ///< x entries received per SpMV
};

struct BalanceChart {
    std::vector<BalanceBar> bars;
    int ranksPerBar = 1;
    double maxRows = 0;
    double maxNnz = 0;
    double maxHalo = 0;
    double meanRows = 0;  ///< over ranks (not bars)
    double meanNnz = 0;
    double meanHalo = 0;
    double rowImbalance = 1;  ///< max / mean, from the statistics
    double nnzImbalance = 1;
};

/// maxBars < 1 counts as 1.
BalanceChart balanceChart(const spmv::dist::PartitionStats& stats, int maxBars);

/// The three strips of the balance chart, top to bottom: nonzeros (local and non-local
/// stacked), rows, halo. Each strip has a title line, then its bars over a baseline; every
/// strip's bars scale to its own maximum. The mean of each quantity is a horizontal line.
struct BalanceGeometry {
    enum Strip { nnz = 0, rows = 1, halo = 2 };
    struct Bar {
        LayoutRect local;     ///< nnz strip, bottom part
        LayoutRect nonlocal;  ///< nnz strip, stacked on top of local
        LayoutRect rows;
        LayoutRect halo;
    };
    LayoutRect strips[3];          ///< the plot area of each strip (bars grow up from its bottom)
    double titleY[3] = {0, 0, 0};  ///< top of each strip's title line
    double meanY[3] = {0, 0, 0};   ///< y of each strip's mean line
    std::vector<Bar> bars;
    /// Centre x of the bars that get a rank label: every bar when they fit, else a subset
    /// keeping labels at least labelWidth apart (first and last bar always).
    std::vector<std::size_t> labelledBars;
};

/// `titleHeight`: room for each strip's title (< 0: one line, lineHeight; two lines where a
/// title wraps in a narrow view).
BalanceGeometry balanceGeometry(const BalanceChart& chart, double width, double height,
                                double lineHeight, double labelWidth, double margin = 6,
                                double titleHeight = -1);

// ---- timelines -----------------------------------------------------------------------------

/// Which ranks the timelines show: all, or per timeline only its slowest rank (the rank whose
/// events of the drawn iteration end last; Kreutzer's Fig. 4 shows one rank per mode; the
/// time of an SpMV is the slowest rank's).
enum class TimelineRanks { all, slowest };

/// The rank of `t` whose events in its last iteration end last (the lowest such rank on a
/// tie); -1 without events.
int slowestRank(const spmv::dist::Timeline& t);

/// Copies of `timelines` keeping the events of the ranks `which` says (num_ranks and the text
/// fields unchanged, so the panels still say "4 ranks").
std::vector<spmv::dist::Timeline> selectTimelineRanks(
    const std::vector<spmv::dist::Timeline>& timelines, TimelineRanks which);

/// A timeline layout (spmv::viz::timeline_layout) made to fit width x height pixels: the rows
/// shrink from maxRow down to minRow pixels; when even that is too tall, the layout is made
/// for a wider virtual canvas and drawn scaled down by `scale` (< 1). The layout's own
/// pixels are scaled by `scale` to reach the widget (also in presentation mode, where `zoom`
/// > 1 enlarges the drawing: the layout is then made for width / zoom).
struct TimelineFit {
    spmv::viz::TimelineLayout layout;
    spmv::viz::TimelineSvgOptions options;
    double scale = 1.0;
    std::size_t shown = 0;  ///< the first `shown` timelines are laid out (all, unless legible)
};

/// Presentation mode's fit: the layout's text (11 px in layout units) drawn at least
/// minTextPixels on the screen, never scaled down below that; the first timelines that fit
/// so are laid out (at least one), the others left to a choice of mode. `reserve`: pixels
/// kept free below the layout for a line saying what was left out.
TimelineFit fitTimelinesLegibly(const std::vector<spmv::dist::Timeline>& timelines,
                                double width, double height, double minTextPixels,
                                double reserve);

/// Throws InvalidArgument when the width leaves no room for a plot (see timeline_layout).
TimelineFit fitTimelines(const std::vector<spmv::dist::Timeline>& timelines, double width,
                         double height, double zoom = 1.0, double minRow = 6, double maxRow = 18);

/// One legend entry of a timeline picture, in layout pixels: where timeline_svg puts it (the
/// legend that timeline_layout reserves room for at legend_y).
struct TimelineLegendItem {
    spmv::dist::Phase phase = spmv::dist::Phase::local;
    LayoutRect swatch;
    double textX = 0;
    double baselineY = 0;
    std::string label;
};
std::vector<TimelineLegendItem> timelineLegend(const spmv::viz::TimelineLayout& layout);

/// Tick values of the shared time axis, 0 .. max_us in steps of step_us.
std::vector<double> timelineTicks(const spmv::viz::TimelineAxis& axis);


// ---- scaling curve -------------------------------------------------------------------------

/// Colour of a mode's curves: vector blue, naive overlap orange, explicit overlap reddish
/// purple, task bluish green (Okabe-Ito).
spmv::viz::Rgb modeColour(spmv::dist::Mode m) noexcept;

/// The points of the predicted strong-scaling chart: per mode, time per SpMV in microseconds and
/// parallel efficiency against the number of ranks (x), from ScalingResult::points.
struct ScalingSeries {
    spmv::dist::Mode mode = spmv::dist::Mode::vector;
    std::vector<spmv::viz::ChartPoint> timeUs;
    std::vector<spmv::viz::ChartPoint> efficiency;
};
struct ScalingChart {
    std::vector<ScalingSeries> series;  ///< vector, naive, overlap, task (all_modes)
    spmv::viz::Decades timeRange;       ///< whole decades around every time
    double maxEfficiency = 1.0;         ///< at least 1, rounded up to a tenth
    int minRanks = 1;
    int maxRanks = 1;
};
ScalingChart scalingChart(const spmv::dist::ScalingResult& result);

/// Rank counts of the scaling curve: 1, 2, 4, ... up to min(limit, max(rows, 1)) (a rank
/// without rows would add nothing to the curve).
std::vector<int> scalingRanks(std::int64_t rows, int limit = 1024);
