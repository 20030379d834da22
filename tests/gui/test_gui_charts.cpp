// Axes and leftovers of issue 34 item 5: the tick arithmetic of count and histogram axes
// (hand-checked), the row-length histogram on ONE count axis with whole-number ticks and bars
// centred on / between their ticks, the Model view's three threshold lines told apart, the
// Timing view's title that follows its button, and the idle progress bar of RunControls.
#include <memory>

#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QProgressBar>
#include <QPushButton>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <catch2/catch.hpp>

#include <spmv/generators.hpp>
#include <spmv/viz/histogram.hpp>

#include "gui_test_support.hpp"
#include "session/analysiscontroller.hpp"
#include "widgets/chart_support.hpp"
#include "widgets/modelpanel.hpp"
#include "widgets/rowhistogramview.hpp"
#include "widgets/runcontrols.hpp"
#include "widgets/timingpanel.hpp"

namespace {

/// x of the first bar's left edge whose height is `count`, in a histogram area series.
double leftEdgeOfBar(QAreaSeries* area, double count)
{
    const auto pts = area->upperSeries()->points();
    for (qsizetype i = 1; i < pts.size(); ++i) {
        if (pts[i].y() == count && pts[i - 1].y() == 0 && pts[i - 1].x() == pts[i].x()) {
            return pts[i].x();
        }
    }
    return -1e300;
}

QList<QAreaSeries*> areas(QChart* chart)
{
    QList<QAreaSeries*> out;
    for (auto* s : chart->series()) {
        if (auto* a = qobject_cast<QAreaSeries*>(s)) out << a;
    }
    return out;
}

}  // namespace

TEST_CASE("Count axes tick at whole numbers with room above the tallest bar", "[gui][charts]")
{
    // nice_step(1.05 max, ticks) is 1, 2, 5, 10, ...; top the next multiple of it
    auto t = countTicks(1, 8);  // one block: 0, 1, 2 (not 0, 0.5, 1, 1.5 read as 0, 1, 1, 2)
    CHECK(t.step == 1);
    CHECK(t.top == 2);
    t = countTicks(2, 8);  // 2.1 -> step 1, top 3
    CHECK(t.step == 1);
    CHECK(t.top == 3);
    t = countTicks(54, 8);  // 56.7: 5 gives 11.3 > 8 intervals, 10 gives 5.67 -> 60
    CHECK(t.step == 10);
    CHECK(t.top == 60);
    t = countTicks(940000, 6);  // 987,000: 100,000 gives 9.87 > 6, 200,000 gives 4.9 -> 1e6
    CHECK(t.step == 200000);
    CHECK(t.top == 1000000);
    t = countTicks(0, 8);  // no bars: one step
    CHECK(t.step == 1);
    CHECK(t.top == 1);
}

TEST_CASE("Histogram length ticks fall on bin edges", "[gui][charts]")
{
    CHECK(binAlignedStep(30, 1, 12) == 5);      // bins of 1: the plain nice step
    CHECK(binAlignedStep(488, 4, 12) == 100);   // 50 is not a multiple of 4, 100 is
    CHECK(binAlignedStep(60, 3, 12) == 6);      // no 1-2-5 number up to 500 divides by 3
    CHECK(binAlignedStep(1000, 10, 12) == 100); // 100 = 10 x 10
}

TEST_CASE("The row-length histogram draws every series on one count axis with whole ticks",
          "[gui][charts]")
{
    guitest::app();
    RowHistogramView view;
    view.resize(800, 500);
    // lengths 0..3 with one bin each: rows (0 1 1 2), padded (0 0 2 2), blocks (0 0 0 1)
    spmv::viz::HistogramChart d;
    d.bins = spmv::viz::bins_for(3, 64);
    d.row_counts = {0, 1, 1, 2};
    d.padded_counts = {0, 0, 2, 2};
    d.block_maxima = {0, 0, 0, 1};
    d.max_count = 2;
    view.setChartData(std::make_shared<const spmv::viz::HistogramChart>(d), 2);

    QChart* chart = view.chart();
    const auto vertical = chart->axes(Qt::Vertical);
    REQUIRE(vertical.size() == 1);  // no second axis for the blocks
    auto* y = qobject_cast<QValueAxis*>(vertical.front());
    REQUIRE(y);
    CHECK(y->tickType() == QValueAxis::TicksDynamic);
    CHECK(y->tickAnchor() == 0);
    CHECK(y->tickInterval() == 1);  // 0, 1, 2, 3: whole counts
    CHECK(y->max() == 3);
    CHECK(y->labelFormat() == QStringLiteral("%.0f"));
    const auto bars = areas(chart);
    REQUIRE(bars.size() == 3);
    for (auto* a : bars) {
        CHECK(a->attachedAxes().contains(y));
    }
    // the group of length 3 is centred on the tick 3: rows from 2.55, blocks to 3.45
    CHECK(leftEdgeOfBar(bars[0], 2) == Approx(2.55));
    const auto blockPts = bars[2]->upperSeries()->points();
    CHECK(blockPts.back().x() == Approx(3.45));
    CHECK(leftEdgeOfBar(bars[2], 1) == Approx(3.15));
    auto* x = qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal).front());
    REQUIRE(x);
    CHECK(x->tickAnchor() == 0);
    CHECK(x->tickInterval() == 1);

    // the case: 940,000 rows in one bin, 30,000 blocks in another; on one axis the
    // block bar is the lower one
    spmv::viz::HistogramChart big;
    big.bins = spmv::viz::bins_for(1, 64);
    big.row_counts = {0, 940000};
    big.padded_counts = {};
    big.block_maxima = {30000, 0};
    big.max_count = 940000;
    view.setChartData(std::make_shared<const spmv::viz::HistogramChart>(big), 32);
    chart = view.chart();
    REQUIRE(chart->axes(Qt::Vertical).size() == 1);
    y = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).front());
    REQUIRE(y);
    // countTicks(940000, 8): 987,000 needs 9.87 intervals of 100,000, 4.9 of 200,000
    CHECK(y->tickInterval() == 200000);
    CHECK(y->max() == 1000000);
    const auto bigBars = areas(chart);
    REQUIRE(bigBars.size() == 2);
    CHECK(bigBars[0]->attachedAxes().contains(y));
    CHECK(bigBars[1]->attachedAxes().contains(y));
    CHECK(leftEdgeOfBar(bigBars[0], 940000) > -1e300);
    CHECK(leftEdgeOfBar(bigBars[1], 30000) > -1e300);
}

TEST_CASE("Wide histogram bins sit between the ticks of their edges", "[gui][charts]")
{
    guitest::app();
    RowHistogramView view;
    view.resize(800, 500);
    // lengths 0, 100, 487 in at most 122 bars: bins of 4 lengths ([100, 103] is bin 25)
    const std::vector<std::int32_t> lengths = {0, 100, 487};
    const auto d = spmv::viz::histogram_chart(lengths, {}, {}, {}, 122);
    REQUIRE(d.bins.width == 4);
    view.setChartData(std::make_shared<const spmv::viz::HistogramChart>(d), 32);

    auto* x = qobject_cast<QValueAxis*>(view.chart()->axes(Qt::Horizontal).front());
    REQUIRE(x);
    CHECK(x->tickAnchor() == 0);
    CHECK(x->tickInterval() == 100);  // a multiple of 4: every tick on a bin edge
    CHECK(x->min() == 0);
    CHECK(x->max() == 488);
    const auto bars = areas(view.chart());
    REQUIRE(bars.size() == 1);
    // bin [100, 103] drawn over [100, 104), its bar in the middle 90 %: 100.2 .. 103.8
    const auto pts = bars[0]->upperSeries()->points();
    bool found = false;
    for (qsizetype i = 0; i + 3 < pts.size(); i += 4) {
        if (pts[i + 1].y() == 1 && pts[i].x() > 99 && pts[i].x() < 104) {
            found = true;
            CHECK(pts[i].x() == Approx(100.2));
            CHECK(pts[i + 2].x() == Approx(103.8));
        }
    }
    CHECK(found);
}

TEST_CASE("The Model view's three threshold lines differ in colour and style", "[gui][charts]")
{
    const auto lines = modelThresholdLines(42.8, 391.9, 435.6);
    REQUIRE(lines.size() == 3);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        for (std::size_t j = i + 1; j < lines.size(); ++j) {
            CHECK_FALSE(lines[i].colour == lines[j].colour);
            CHECK(lines[i].style != lines[j].style);
            CHECK(lines[i].name != lines[j].name);
        }
    }
    CHECK(lines[1].name == QStringLiteral("10 % exact: 391.9"));
    CHECK(lines[2].name == QStringLiteral("10 % by eq. 4: 435.6"));

    guitest::app();
    ModelPanel panel;
    panel.resize(1200, 600);
    panel.memoryBandwidthBox()->setValue(3000);
    panel.pcieBandwidthBox()->setValue(55);
    auto* view = panel.findChild<QChartView*>();
    REQUIRE(view);
    QList<QLineSeries*> verticals;
    for (auto* s : view->chart()->series()) {
        auto* l = qobject_cast<QLineSeries*>(s);
        if (l && l->count() == 2 && l->at(0).x() == l->at(1).x()) verticals << l;
    }
    REQUIRE(verticals.size() == 3);
    for (int i = 0; i < verticals.size(); ++i) {
        for (int j = i + 1; j < verticals.size(); ++j) {
            // the legend shows a colour swatch per line: the colours must differ
            CHECK(verticals[i]->pen().color() != verticals[j]->pen().color());
            CHECK(verticals[i]->pen().style() != verticals[j]->pen().style());
        }
    }
}

TEST_CASE("The Timing view never asks to press a disabled button", "[gui][charts]")
{
    guitest::app();
    AnalysisController controller;
    TimingPanel panel(&controller);
    const QString button = panel.startButton()->text();
    auto* view = panel.findChild<QChartView*>();
    REQUIRE(view);
    // no matrix: say so, not "Press"
    CHECK(panel.idleTitle().startsWith(QStringLiteral("No matrix yet")));
    CHECK(view->chart()->title() == panel.idleTitle());

    controller.setDocument(makeDocument(spmv::gen::laplace2d(4, 4), QStringLiteral("l4"),
                                        QStringLiteral("generated")));
    CHECK(view->chart()->title() ==
          QStringLiteral("Press \u201c%1\u201d to time every variant").arg(button));

    // disabled (as MainWindow does when there is nothing to run): the title says why
    panel.startButton()->setToolTip(QStringLiteral("Open or generate a matrix first"));
    panel.startButton()->setEnabled(false);
    QCoreApplication::processEvents();
    CHECK(view->chart()->title() ==
          QStringLiteral("\u201c%1\u201d is not available: Open or generate a matrix first")
              .arg(button));
    panel.startButton()->setEnabled(true);
    QCoreApplication::processEvents();
    CHECK(view->chart()->title().startsWith(QStringLiteral("Press")));
}

TEST_CASE("An idle progress bar reads idle, not 0 of 1", "[gui][charts]")
{
    guitest::app();
    QWidget host;
    auto* row = new QHBoxLayout(&host);
    RunControls run;
    run.addTo(row);
    run.setProgressFormat(QStringLiteral("%v of %m solves"));
    CHECK(run.progressIdle());
    CHECK(run.progressBar()->text() == QStringLiteral("idle"));
    CHECK(run.startButton()->isEnabled());
    CHECK_FALSE(run.cancelButton()->isEnabled());

    run.setRunning();
    run.showStarted(3);
    CHECK(run.progressBar()->text() == QStringLiteral("0 of 3 solves"));
    run.showProgress(1, QStringLiteral("solving with CG (2 of 3)"));
    CHECK(run.progressBar()->text() == QStringLiteral("solving with CG (2 of 3)"));
    run.showProgress(3);
    run.setIdle();  // finished: how far it got
    CHECK(run.progressBar()->text() == QStringLiteral("3 of 3 solves"));
    CHECK_FALSE(run.progressIdle());
    run.reset();  // results dropped
    CHECK(run.progressBar()->text() == QStringLiteral("idle"));
}
