// The Distribution view: its Qt-free geometry (heat map binning, balance bars, timeline fit and
// legend, scaling points), the communication-matrix model under QAbstractItemModelTester, the
// panel on small matrices (rank colours, PREDICTED label without a loaded timeline and not
// with one, stale results dropped, bad files refused) and the whole window.
#include <cstdlib>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <catch2/catch.hpp>

#include <spmv/dist/model.hpp>
#include <spmv/dist/partition.hpp>
#include <spmv/generators.hpp>
#include <spmv/viz/rank_pattern.hpp>
#include <spmv/viz/timeline_svg.hpp>

#include "app/mainwindow.hpp"
#include "gui_test_support.hpp"
#include "models/commmatrixmodel.hpp"
#include "test_matrices.hpp"
#include "widgets/distribution_geometry.hpp"
#include "widgets/distributionpanel.hpp"

using spmv::dist::Lane;
using spmv::dist::Mode;
using spmv::dist::Phase;
using spmv::dist::Timeline;
using spmv::viz::Rgb;

namespace {

/// The statistics of the canonical 4x4 over 2 ranks by rows: each rank receives two entries of
/// x from the other (rank 0 rows 0-1 need x2, x3; rank 1 rows 2-3 need x0, x1).
spmv::dist::PartitionStats canonicalStats()
{
    return spmv::dist::partition_stats(spmv::test::canonical4(), spmv::dist::partition_rows(4, 2));
}

/// A hand-made PartitionStats with P ranks: comm[s * P + d] = 10 s + d off the diagonal.
spmv::dist::PartitionStats statsWithComm(int P)
{
    spmv::dist::PartitionStats s;
    s.num_ranks = P;
    s.comm.assign(static_cast<std::size_t>(P * P), 0);
    for (int a = 0; a < P; ++a) {
        spmv::dist::RankStats r;
        r.rank = a;
        r.rows = 10 + a;
        r.local_nnz = 100 + 10 * a;
        r.nonlocal_nnz = a;
        r.nnz = r.local_nnz + r.nonlocal_nnz;
        r.halo = 2 * a;
        s.ranks.push_back(r);
        for (int d = 0; d < P; ++d) {
            if (a != d) s.comm[static_cast<std::size_t>(a * P + d)] = 10 * a + d;
        }
    }
    return s;
}

/// A recorded-looking run of two modes on 2 ranks (no post phase: nothing orange in it).
std::vector<Timeline> recordedTimelines()
{
    std::vector<Timeline> out;
    for (auto mode : {Mode::vector, Mode::task}) {
        Timeline t;
        t.mode = mode;
        t.num_ranks = 2;
        t.matrix = "gen:pde:size=12";
        t.partition = "nnz";
        t.device = "test machine";
        t.predicted = false;
        for (int it = 0; it < 2; ++it) {
            const double t0 = it * 100.0;
            for (int r = 0; r < 2; ++r) {
                const double slow = r == 1 ? 7.0 : 0.0;  // rank 1 is the slower one
                t.events.push_back({r, Lane::compute, Phase::pack, it, t0, t0 + 5});
                if (mode == Mode::task) {
                    t.events.push_back({r, Lane::comm, Phase::exchange, it, t0 + 5, t0 + 30});
                    t.events.push_back({r, Lane::compute, Phase::local, it, t0 + 5, t0 + 25});
                } else {
                    t.events.push_back({r, Lane::compute, Phase::wait, it, t0 + 5, t0 + 30});
                    t.events.push_back({r, Lane::compute, Phase::local, it, t0 + 30, t0 + 50});
                }
                t.events.push_back(
                    {r, Lane::compute, Phase::nonlocal, it, t0 + 50, t0 + 55 + slow});
            }
        }
        out.push_back(std::move(t));
    }
    return out;
}

bool waitIdle(const DistributionPanel& panel, int timeoutMs = 60000)
{
    QElapsedTimer timer;
    timer.start();
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    while (panel.isBusy()) {
        if (timer.elapsed() > timeoutMs) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 20);
    }
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    return true;
}

/// Pixels within a small distance of colour c (antialiased text never has many exact ones).
/// With tolerance 60 the model's orange is told apart from every phase colour and from their
/// blends with the white background.
int countNear(const QImage& img, Rgb c, int tolerance = 60)
{
    int n = 0;
    for (int y = 0; y < img.height(); ++y) {
        for (int x = 0; x < img.width(); ++x) {
            const Rgb p = guitest::pixel(img, QPointF(x, y));
            if (std::abs(p.r - c.r) + std::abs(p.g - c.g) + std::abs(p.b - c.b) < tolerance) ++n;
        }
    }
    return n;
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const std::string& text)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (f.open(QIODevice::WriteOnly)) f.write(text.data(), static_cast<qint64>(text.size()));
    return path;
}

}  // namespace

// ---- Qt-free geometry ----------------------------------------------------------------------

TEST_CASE("The heat map of few ranks is the communication matrix itself", "[gui][distribution]")
{
    const auto s = canonicalStats();

    const auto h = commHeatmap(s, 64);

    REQUIRE(h.cells == 2);
    CHECK(h.ranksPerCell == 1);
    CHECK(h.at(0, 0) == 0);
    CHECK(h.at(0, 1) == 2);  // rank 0 sends x0, x1 to rank 1
    CHECK(h.at(1, 0) == 2);
    CHECK(h.maxCount == 2);
    CHECK(commColour(0, 2) == spmv::viz::palette().background);
}

TEST_CASE("More ranks than cells are binned by summing blocks of ranks", "[gui][distribution]")
{
    const auto s = statsWithComm(5);  // comm[s][d] = 10 s + d

    const auto h = commHeatmap(s, 2);  // 3 ranks per cell: {0,1,2} {3,4}

    REQUIRE(h.cells == 2);
    CHECK(h.ranksPerCell == 3);
    CHECK(h.lastRank(0) == 2);
    CHECK(h.lastRank(1) == 4);
    // senders 0-2 to receivers 3-4: (3+4) + (13+14) + (23+24)
    CHECK(h.at(0, 1) == 81);
    // senders 3-4 to receivers 3-4 without the diagonal: 34 + 43
    CHECK(h.at(1, 1) == 77);
    // senders 0-2 among themselves: 1 + 2 + 10 + 12 + 20 + 21
    CHECK(h.at(0, 0) == 66);
}

TEST_CASE("Heat-map cells are square, centred, and numbered when the numbers fit",
          "[gui][distribution]")
{
    const auto g = heatmapGeometry(4, 300, 250, 40, 16, 20, 6);

    // room: 300 - 46 - 6 = 248 wide, 250 - 38 - 6 = 206 high: cells of 51 px
    CHECK(g.cell == 51);
    CHECK(g.grid.y == 38);
    CHECK(g.grid.w == 204);
    CHECK(g.grid.x == 46 + 22);  // (248 - 204) / 2
    CHECK(g.numbers);
    CHECK(g.cellAt(g.grid.x + 51 * 2 + 1, g.grid.y + 51 * 3 + 1) == std::pair<int, int>{3, 2});
    CHECK(g.cellAt(g.grid.x - 1, g.grid.y + 1) == std::pair<int, int>{-1, -1});
    CHECK_FALSE(heatmapGeometry(64, 300, 250, 40, 16, 20, 6).numbers);
}

TEST_CASE("Balance bars show each rank against the largest, grouped beyond the bar count",
          "[gui][distribution]")
{
    const auto s = statsWithComm(4);  // rows 10..13, nnz 100, 111, 122, 133; halo 0, 2, 4, 6

    const auto c = balanceChart(s, 100);
    const auto grouped = balanceChart(s, 2);
    const auto g = balanceGeometry(c, 206, 300, 16, 10, 3);

    REQUIRE(c.bars.size() == 4);
    CHECK(c.maxNnz == 133);
    CHECK(c.maxRows == 13);
    CHECK(c.maxHalo == 6);
    CHECK(c.meanHalo == 3);
    REQUIRE(grouped.bars.size() == 2);
    CHECK(grouped.ranksPerBar == 2);
    CHECK(grouped.bars[1].firstRank == 2);
    CHECK(grouped.bars[1].lastRank == 3);
    CHECK(grouped.bars[1].rows == 13);     // the largest of the group
    CHECK(grouped.bars[1].nonlocal == 3);  // split of rank 3, the one with most nonzeros
    // geometry: 4 slots of 50 px, bars of 40 px; the last rank's nonzeros fill the strip
    REQUIRE(g.bars.size() == 4);
    const auto& strip = g.strips[BalanceGeometry::nnz];
    CHECK(g.bars[0].local.x == Approx(3 + 5));
    CHECK(g.bars[0].local.w == Approx(40));
    CHECK(g.bars[3].local.h + g.bars[3].nonlocal.h == Approx(strip.h));
    CHECK(g.bars[3].nonlocal.y == Approx(strip.y));
    CHECK(g.bars[0].halo.h == 0);
    CHECK(g.meanY[BalanceGeometry::halo] ==
          Approx(g.strips[BalanceGeometry::halo].bottom() - g.strips[BalanceGeometry::halo].h / 2));
    CHECK(g.labelledBars == std::vector<std::size_t>{0, 1, 2, 3});
}

TEST_CASE("The slowest rank is the one whose last iteration ends last", "[gui][distribution]")
{
    const auto t = recordedTimelines();

    const auto slow = selectTimelineRanks(t, TimelineRanks::slowest);

    CHECK(slowestRank(t[0]) == 1);
    REQUIRE(slow.size() == 2);
    CHECK(slow[0].num_ranks == 2);  // the panel still says "2 ranks"
    CHECK(std::all_of(slow[0].events.begin(), slow[0].events.end(),
                      [](const auto& e) { return e.rank == 1; }));
    CHECK(slow[0].events.size() == t[0].events.size() / 2);
    CHECK(selectTimelineRanks(t, TimelineRanks::all) == t);
    CHECK(slowestRank(Timeline{}) == -1);
}

TEST_CASE("Timelines shrink their rows, then scale down, to fit the view", "[gui][distribution]")
{
    const auto t = recordedTimelines();
    const double natural = spmv::viz::timeline_layout(t).height;  // 18 px rows

    const auto roomy = fitTimelines(t, 960, 2000);
    const auto tight = fitTimelines(t, 960, natural - 30);
    const auto tiny = fitTimelines(t, 960, 150);

    CHECK(roomy.scale == 1.0);
    CHECK(roomy.options.row_height_px == 18);
    CHECK(tight.scale == 1.0);
    CHECK(tight.options.row_height_px < 18);
    CHECK(tight.layout.height <= natural - 30);
    CHECK(tiny.scale < 1.0);
    CHECK(tiny.layout.height * tiny.scale <= Approx(150).epsilon(0.01));
    CHECK(tiny.layout.width * tiny.scale == Approx(960));
    // presentation mode: a zoom of 1.6 draws the same picture 1.6 times larger
    const auto zoomed = fitTimelines(t, 960, 4000, 1.6);
    CHECK(zoomed.scale == Approx(1.6));
    CHECK(zoomed.layout.width == Approx(600));
}

TEST_CASE("Presentation mode draws the timelines that fit with legible text, never smaller",
          "[gui][distribution]")
{
    const auto t = recordedTimelines();
    REQUIRE(t.size() == 2);
    const double natural = spmv::viz::timeline_layout(t).height;

    const auto roomy = fitTimelinesLegibly(t, 960, 4000, 18.0, 30);
    const auto tight = fitTimelinesLegibly(t, 960, natural * 18.0 / 11.0 * 0.75, 18.0, 30);
    const auto tiny = fitTimelinesLegibly(t, 960, 60, 18.0, 30);

    // 11 px layout text drawn at 18 px or more
    CHECK(roomy.shown == 2);
    CHECK(roomy.scale * 11.0 >= Approx(18.0));
    CHECK(tight.shown == 1);  // the second mode is left to the Modes box
    CHECK(tight.scale * 11.0 >= Approx(18.0));
    CHECK(tight.layout.height * tight.scale <= natural * 18.0 / 11.0 * 0.75 - 30 + 0.5);
    CHECK(tiny.shown == 1);  // one, scaled as it must in a view too small for any
    CHECK(fitTimelines(t, 960, 4000).shown == 2);
}

TEST_CASE("The timeline legend sits where the SVG writer puts it", "[gui][distribution]")
{
    const auto t = recordedTimelines();
    spmv::viz::TimelineSvgOptions o;
    o.width_px = 420;  // narrow: the legend wraps
    const auto lay = spmv::viz::timeline_layout(t, o);
    const QString svg = QString::fromStdString(spmv::viz::timeline_svg(t, o));
    const QRegularExpression rect(
        QStringLiteral("class=\"legend-key\" x=\"([0-9.]+)\" y=\"([0-9.]+)\""));

    const auto items = timelineLegend(lay);

    auto it = rect.globalMatch(svg);
    std::size_t k = 0;
    while (it.hasNext()) {
        const auto m = it.next();
        REQUIRE(k < items.size());
        CHECK(items[k].swatch.x == Approx(m.captured(1).toDouble()));
        CHECK(items[k].swatch.y == Approx(m.captured(2).toDouble()));
        ++k;
    }
    CHECK(k == items.size());
    CHECK(items.size() == lay.legend.size());
    CHECK(items.back().swatch.y > items.front().swatch.y);  // wrapped
    CHECK(timelineTicks({50, 10}) == std::vector<double>{0, 10, 20, 30, 40, 50});
    CHECK(spmv::viz::compact_number(12.5) == "12.5");
    CHECK(spmv::viz::compact_number(-0.0001) == "0");
    CHECK(spmv::viz::compact_number(3.0) == "3");
}

TEST_CASE("The scaling chart has time and efficiency per mode at powers of two",
          "[gui][distribution]")
{
    const auto a = spmv::gen::laplace2d(16, 16);  // 256 rows
    const auto ranks = scalingRanks(a.num_rows);
    const auto result = spmv::dist::predict_scaling(a, spmv::dist::PartitionKind::rows, ranks,
                                                    spmv::model::find_profile("H100"),
                                                    spmv::dist::find_link("ib-hdr"));

    const auto c = scalingChart(result);

    CHECK(ranks == std::vector<int>{1, 2, 4, 8, 16, 32, 64, 128, 256});
    CHECK(scalingRanks(5000).back() == 1024);
    CHECK(scalingRanks(0) == std::vector<int>{1});
    REQUIRE(c.series.size() == 4);
    CHECK(c.series[1].mode == Mode::naive);
    CHECK(c.series[3].mode == Mode::task);
    REQUIRE(c.series[0].timeUs.size() == ranks.size());
    CHECK(c.series[0].timeUs[0].x == 1);
    CHECK(c.series[0].timeUs[0].y == Approx(result.points[0].prediction.time_s.vector * 1e6));
    CHECK(c.series[0].efficiency[0].y == Approx(1.0));  // P = 1
    CHECK(c.minRanks == 1);
    CHECK(c.maxRanks == 256);
    CHECK(c.timeRange.lo <= c.series[0].timeUs.back().y);
    CHECK(c.maxEfficiency >= 1.0);
    CHECK(modeColour(Mode::vector) != modeColour(Mode::task));
}

// ---- model ---------------------------------------------------------------------------------

TEST_CASE("The communication-matrix model lists what each rank sends to each rank",
          "[gui][distribution][models]")
{
    guitest::app();
    CommMatrixModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);

    model.resetData(std::make_shared<const spmv::dist::PartitionStats>(canonicalStats()));

    REQUIRE(model.rowCount() == 2);
    REQUIRE(model.columnCount() == 2);
    CHECK(model.data(model.index(0, 1)).toString() == QStringLiteral("2"));
    CHECK(model.data(model.index(1, 1)).toString() == QStringLiteral("0"));
    CHECK(
        model.data(model.index(0, 1), Qt::ToolTipRole).toString().contains(QStringLiteral("16 B")));
    CHECK(model.headerData(1, Qt::Horizontal).toString() == QStringLiteral("to 1"));
    CHECK(model.headerData(0, Qt::Vertical).toString() == QStringLiteral("from 0"));
    model.resetData(std::make_shared<const spmv::dist::PartitionStats>(statsWithComm(6)));
    CHECK(model.rowCount() == 6);
    CHECK(model.data(model.index(5, 4), Qt::EditRole).toLongLong() == 54);
    model.resetData(nullptr);
    CHECK(model.rowCount() == 0);
}

// ---- panel ---------------------------------------------------------------------------------

TEST_CASE("The distribution view colours the canonical 4x4 by rank and labels the prediction",
          "[gui][distribution]")
{
    guitest::app();
    DistributionPanel panel;
    panel.resize(1100, 760);
    panel.show();
    const auto doc =
        makeDocument(spmv::test::canonical4(), QStringLiteral("canonical"), QStringLiteral("test"));
    panel.ranksBox()->setValue(2);
    REQUIRE(panel.selectPartition(QStringLiteral("rows")));

    panel.setDocument(doc);
    REQUIRE(waitIdle(panel));

    REQUIRE(panel.plan());
    CHECK(panel.plan()->stats->num_ranks == 2);
    CHECK(panel.plan()->stats->total_halo == 4);
    REQUIRE(panel.scaling());
    CHECK(panel.scaling()->points.back().num_ranks == 4);  // no more ranks than rows
    CHECK(panel.commModel()->rowCount() == 2);
    CHECK(panel.showsPredictedTimeline());
    CHECK(panel.timelineSourceLabel()->text().contains(QStringLiteral("PREDICTED by the model")));
    CHECK(panel.timelineView()->timelines().size() == 4);  // all_modes
    CHECK(panel.patternView()->localEntries() == 5);
    CHECK(panel.patternView()->nonlocalEntries() == 4);
    // the whole view renders; the pattern shows rank colours at the entries' cells
    const QImage whole = guitest::render(panel);
    CHECK_FALSE(whole.isNull());
    const QImage pattern = guitest::render(*panel.patternView());
    const auto& t = panel.patternView()->viewTransform();
    auto at = [&](double row, double col) {
        return guitest::pixel(pattern, QPointF(t.x_of_col(col + 0.5), t.y_of_row(row + 0.5)));
    };
    CHECK(at(0, 0) == spmv::viz::rank_colour(0));           // local
    CHECK(at(0, 2) == spmv::viz::rank_nonlocal_colour(0));  // non-local
    CHECK(at(2, 3) == spmv::viz::rank_colour(1));
    CHECK(at(1, 0) == spmv::viz::rank_band_colour(0));  // zero in rank 0's rows
    // the timelines carry the PREDICTED line in the model's colour
    const QImage timelines = guitest::render(*panel.timelineView());
    CHECK(countNear(timelines, spmv::viz::palette().predicted) > 10);
}

TEST_CASE("A loaded timeline replaces the prediction and its label, a bad one is refused",
          "[gui][distribution]")
{
    guitest::app();
    QTemporaryDir dir;
    const QString good =
        writeFile(dir, QStringLiteral("t.json"), spmv::dist::to_json(recordedTimelines()));
    const QString bad =
        writeFile(dir, QStringLiteral("bad.json"),
                  R"([{"mode": "vector", "num_ranks": 2, "events": [)"
                  R"({"rank": 1610372162, "lane": "unknown", "phase": "unknown", "iteration": -1,)"
                  R"( "begin_us": 1, "end_us": 2}]}])");
    DistributionPanel panel;
    panel.resize(1100, 760);
    panel.show();
    panel.setDocument(makeDocument(spmv::gen::laplace2d(12, 12), QStringLiteral("laplace"),
                                   QStringLiteral("test")));
    REQUIRE(waitIdle(panel));
    REQUIRE(panel.showsPredictedTimeline());

    REQUIRE(panel.loadTimeline(good));

    CHECK(panel.hasLoadedTimeline());
    CHECK_FALSE(panel.showsPredictedTimeline());
    CHECK_FALSE(panel.timelineSourceLabel()->text().contains(QStringLiteral("PREDICTED")));
    CHECK(panel.timelineSourceLabel()->text().contains(QStringLiteral("Recorded")));
    CHECK(panel.timelineView()->timelines().size() == 2);  // as in the file (2 ranks: all)
    CHECK(panel.timelineView()->timelines() == recordedTimelines());
    const QImage recorded = guitest::render(*panel.timelineView());
    CHECK(countNear(recorded, spmv::viz::palette().predicted) == 0);
    CHECK_FALSE(guitest::render(panel).isNull());

    QString error;
    CHECK_FALSE(panel.loadTimeline(bad, &error));
    CHECK(error.contains(QStringLiteral("bad.json")));
    CHECK(error.contains(QStringLiteral("key 'rank'")));
    CHECK(panel.hasLoadedTimeline());  // the good one stays
    CHECK_FALSE(panel.loadTimeline(dir.filePath(QStringLiteral("missing.json")), &error));

    panel.clearTimeline();
    CHECK(panel.showsPredictedTimeline());
    CHECK(panel.timelineSourceLabel()->text().contains(QStringLiteral("PREDICTED")));
}

TEST_CASE("A matrix replaced while its partition is computed shows only the new one",
          "[gui][distribution]")
{
    guitest::app();
    DistributionPanel panel;
    panel.resize(900, 700);
    panel.show();
    int plans = 0;
    QObject::connect(&panel, &DistributionPanel::planFinished, [&] { ++plans; });

    panel.setDocument(makeDocument(spmv::gen::laplace2d(60, 60), QStringLiteral("first"),
                                   QStringLiteral("test")));
    QCoreApplication::processEvents(QEventLoop::AllEvents, 60);  // its jobs may start
    panel.setDocument(
        makeDocument(spmv::gen::laplace2d(7, 7), QStringLiteral("second"), QStringLiteral("test")));
    panel.ranksBox()->setValue(3);
    REQUIRE(waitIdle(panel));

    REQUIRE(panel.plan());
    CHECK(panel.plan()->stats->num_rows == 49);
    CHECK(panel.plan()->stats->num_ranks == 3);
    CHECK(panel.scaling()->points.back().num_rows == 49);
    CHECK(plans >= 1);
    CHECK(plans <= 2);  // the first matrix's plan, if it ran, was dropped
}

TEST_CASE("The metis partition is offered only where METIS was built", "[gui][distribution]")
{
    guitest::app();
    DistributionPanel panel;

    auto* items = qobject_cast<QStandardItemModel*>(panel.partitionBox()->model());
    REQUIRE(items);
    const int metis = panel.partitionBox()->findData(QStringLiteral("metis"));
    REQUIRE(metis >= 0);

    CHECK(items->item(metis)->isEnabled() == spmv::dist::has_metis());
    CHECK(panel.selectPartition(QStringLiteral("metis")) == spmv::dist::has_metis());
    CHECK_FALSE(panel.partitionBox()->itemData(metis, Qt::ToolTipRole).toString().isEmpty());
    CHECK(panel.selectLink(QStringLiteral("nvlink4")));
    CHECK_FALSE(panel.selectLink(QStringLiteral("carrier-pigeon")));
    CHECK(panel.selectDevice(QStringLiteral("cpu-core")));
}

TEST_CASE("The window shows the distribution view of the built-in example", "[gui][distribution]")
{
    guitest::app();
    QTemporaryDir dir;
    MainWindow w(false);
    w.resize(1200, 800);
    w.show();
    REQUIRE(w.setCurrentView(QStringLiteral("distribution")));

    w.openBuiltInExample();
    REQUIRE(w.waitUntilIdle(60000));

    CHECK(w.errors().isEmpty());
    auto* panel = w.distributionPanel();
    REQUIRE(panel->plan());
    CHECK(panel->plan()->stats->num_rows == 8);
    const QString png = dir.filePath(QStringLiteral("d.png"));
    REQUIRE(MainWindow::exportWidget(w.viewPage(QStringLiteral("distribution")), png));
    const QImage img(png);
    CHECK(img.width() > 800);
}
