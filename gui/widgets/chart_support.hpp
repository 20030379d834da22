#pragma once
// What every Qt Charts view does the same way: a fresh chart in the current presentation
// fonts (Appearance), and swapping it into the view when it is rebuilt; and the Qt-free tick
// arithmetic of count and histogram axes (tested in test_gui_geometry.cpp).
#include <cstdint>

#include <QWidget>

class QChart;
class QChartView;
class QLegendMarker;

/// A new, empty chart with the title, legend and margins of every view (fonts of the current
/// presentation mode, legend at the bottom, 4 px margins). The caller owns it until it is set
/// on a view.
QChart* newStyledChart();

/// Shows `chart` in `view` (which takes it over) and deletes the chart shown before.
void replaceChart(QChartView* view, QChart* chart);

/// A chart's legend as widgets below the chart, one entry (swatch and QLabel) per visible
/// legend marker, in a flow layout that wraps onto as many lines as the width needs. Qt Charts'
/// own legend puts every entry on one line and elides each one to its share of the width
/// ("traffic bound 388.4 ...", "SEL...") at a projector's font; here every name is shown whole
/// and the text audit sees the labels. Each entry's tooltip is its full name.
class ChartLegend : public QWidget {
public:
    explicit ChartLegend(QWidget* parent = nullptr);
    /// Hides `chart`'s own legend and shows its markers here (call after the series are added):
    /// every marker of a visible series whose label is not empty (clear a marker's label to
    /// leave it out); nullptr clears the legend.
    void showLegendOf(QChart* chart);

private:
    static QPixmap swatch(QLegendMarker* marker, int side);
};

/// `view` above `legend` in one widget (for a splitter or a layout), the legend taking the
/// lines it needs and the chart the rest.
QWidget* chartWithLegend(QChartView* view, ChartLegend* legend);

/// A linear axis of counts (rows, blocks: whole numbers) from 0 to `top` with a tick every
/// `step`: step = spmv::viz::nice_step(1.05 max, maxTicks), which is a whole number >= 1, so
/// every tick label is a whole number (never "0, 1, 1, 2" on a 0-1.5 axis), and top = the
/// smallest multiple of step >= 1.05 max (room above the tallest bar), at least one step.
/// Examples: max 1 -> step 1, top 2; max 54 with 8 ticks -> step 10, top 60;
/// max 940000 with 6 ticks -> step 200000, top 1000000; max 0 -> step 1, top 1.
struct CountTicks {
    double top = 1.0;
    double step = 1.0;
};
CountTicks countTicks(double maxCount, int maxTicks);

/// Tick interval of a histogram's length axis whose bins are `binWidth` lengths wide, so that
/// every tick (anchored at 0) falls on a bin edge: the smallest of 1, 2, 5, 10, 20, ... that
/// gives at most maxTicks intervals over `span` and is a multiple of binWidth; when none up to
/// 100 times the plain nice step is, binWidth * nice_step(span / binWidth, maxTicks).
/// Examples: (30, 1, 12) -> 5; (488, 4, 12) -> 100 (50 is not a multiple of 4); (60, 3, 12)
/// -> 6 (no 1-2-5 number up to 500 is a multiple of 3).
double binAlignedStep(double span, std::int64_t binWidth, int maxTicks);
