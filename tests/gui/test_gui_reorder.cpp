// The Reorder view: its table model under QAbstractItemModelTester, the view on a shuffled path
// (RCM finds bandwidth 1 again, the rasters are drawn), a rectangular matrix (the RCM and
// nested-dissection panels say "square" in words), stale results of an older document dropped,
// a 1280 x 720 rendering exported for a look, and a large matrix's orderings on demand (their
// buttons, the step shown while they compute, Cancel). Parts that need Boost.Graph or METIS print a
// SKIPPED warning where the build lacks them and check the message that names the package.
#include <algorithm>
#include <numeric>
#include <random>

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QPushButton>
#include <QTableView>
#include <catch2/catch.hpp>

#include <spmv/analysis/reorder.hpp>
#include <spmv/generators.hpp>

#include "gui_test_support.hpp"
#include "models/reordermodel.hpp"
#include "session/matrixdocument.hpp"
#include "test_matrices.hpp"
#include "widgets/appearance.hpp"
#include "widgets/reorderview.hpp"

using spmv::analysis::Ordering;

namespace {

/// The path 0-1-...-(n-1) (stencil 2, -1) with vertex v stored as row (7 v) mod n.
spmv::Csr<double, std::int32_t> shuffledPath(std::int32_t n)
{
    std::vector<std::int32_t> r;
    std::vector<std::int32_t> c;
    std::vector<double> v;
    auto pos = [n](std::int32_t i) { return (7 * i) % n; };
    for (std::int32_t i = 0; i < n; ++i) {
        r.push_back(pos(i)), c.push_back(pos(i)), v.push_back(2.0);
        if (i + 1 < n) {
            r.push_back(pos(i)), c.push_back(pos(i + 1)), v.push_back(-1.0);
            r.push_back(pos(i + 1)), c.push_back(pos(i)), v.push_back(-1.0);
        }
    }
    return spmv::csr_from_triplets<double, std::int32_t>(n, n, r, c, v);
}

bool waitIdle(const ReorderView& view, int timeoutMs = 60000)
{
    QElapsedTimer timer;
    timer.start();
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    while (view.isComputing()) {
        if (timer.elapsed() > timeoutMs) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 20);
    }
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    return true;
}

/// Pixels inside `area` of `img` that differ from `background`.
int pixelsUnlike(const QImage& img, const QRect& area, QRgb background)
{
    int n = 0;
    const QRect inside = area & img.rect();
    for (int y = inside.top(); y <= inside.bottom(); ++y) {
        for (int x = inside.left(); x <= inside.right(); ++x) {
            if (img.pixel(x, y) != background) ++n;
        }
    }
    return n;
}

}  // namespace

TEST_CASE("The reorder model passes QAbstractItemModelTester, with and without reports",
          "[gui][reorder]")
{
    guitest::app();
    ReorderModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const auto a = spmv::test::canonical4();
    auto report = std::make_shared<const spmv::analysis::OrderingReport>(
        spmv::analysis::report_as_given(a, spmv::FormatParams{}));

    model.resetData({ReorderColumn{QStringLiteral("original"), report, {}},
                     ReorderColumn{QStringLiteral("RCM"), nullptr, QStringLiteral("no Boost")},
                     ReorderColumn{QStringLiteral("ND"), nullptr, {}}});

    CHECK(model.rowCount() == ReorderModel::FirstFormatRow + 14);
    CHECK(model.columnCount() == 3);
    CHECK(model.data(model.index(ReorderModel::Bandwidth, 0)).toString() == QStringLiteral("3"));
    CHECK(model.data(model.index(ReorderModel::Profile, 0)).toString() == QStringLiteral("4"));
    CHECK(model.data(model.index(ReorderModel::Bandwidth, 1)).toString() ==
          QStringLiteral("not available"));
    CHECK(model.data(model.index(ReorderModel::Bandwidth, 1), Qt::ToolTipRole).toString() ==
          QStringLiteral("no Boost"));
    // ELLPACK (4th registry entry) of the canonical 4x4: 12 slots, 3 of them padding
    CHECK(model.data(model.index(ReorderModel::FirstFormatRow + 3, 0)).toString() ==
          QStringLiteral("12 (25.0 %)"));
    CHECK(model.headerData(ReorderModel::FirstFormatRow + 3, Qt::Vertical).toString() ==
          QStringLiteral("ELLPACK slots (padding)"));
}

TEST_CASE("The reorder view finds bandwidth 1 for a shuffled path and draws three rasters",
          "[gui][reorder]")
{
    guitest::app();
    ReorderView view;
    view.resize(1280, 720);
    view.show();
    int finished = 0;
    QObject::connect(&view, &ReorderView::finished, [&] { ++finished; });

    view.setDocument(makeDocument(shuffledPath(40), QStringLiteral("path40"), QStringLiteral("test")));
    REQUIRE(waitIdle(view));

    CHECK(finished == 1);
    const auto orig = view.report(Ordering::original);
    REQUIRE(orig);
    CHECK(orig->bandwidth == 33);
    const auto bg = view.palette().color(QPalette::Window).rgb();
    auto* origPanel = view.panel(Ordering::original);
    REQUIRE(origPanel->hasImage());
    const QImage origShot = guitest::render(*origPanel);
    // 118 nonzeros of a 40 x 40 matrix: a good part of the picture is coloured
    CHECK(pixelsUnlike(origShot, origPanel->pictureRect().adjusted(2, 2, -2, -2), qRgb(255, 255, 255)) >
          origPanel->pictureRect().width() * origPanel->pictureRect().height() / 20);
    CHECK(origPanel->caption().contains(QStringLiteral("bandwidth 33")));

    auto* rcmPanel = view.panel(Ordering::rcm);
    if (spmv::analysis::has_rcm()) {
        const auto rcm = view.report(Ordering::rcm);
        REQUIRE(rcm);
        CHECK(rcm->bandwidth == 1);
        CHECK(view.model()->data(view.model()->index(ReorderModel::Bandwidth, 1), Qt::UserRole)
                  .toLongLong() == 1);
        REQUIRE(rcmPanel->hasImage());
        const QImage shot = guitest::render(*rcmPanel);
        const QRect pic = rcmPanel->pictureRect();
        // tridiagonal: the top-left cell is a nonzero, the top-right corner is empty
        CHECK(shot.pixel(pic.left() + 3, pic.top() + 3) != qRgb(255, 255, 255));
        CHECK(shot.pixel(pic.right() - 3, pic.top() + 3) == qRgb(255, 255, 255));
        CHECK(rcmPanel->caption().contains(QStringLiteral("bandwidth 1 ")));
    } else {
        WARN("SKIPPED (RCM part): this build has no Boost.Graph");
        CHECK(rcmPanel->message().contains(QStringLiteral("libboost-graph-dev")));
        CHECK(pixelsUnlike(guitest::render(*rcmPanel), rcmPanel->pictureRect(), bg) > 100);
    }
    auto* ndPanel = view.panel(Ordering::nested_dissection);
    if (spmv::analysis::has_nested_dissection()) {
        REQUIRE(view.report(Ordering::nested_dissection));
        CHECK(view.report(Ordering::nested_dissection)->nnz == 118);
        CHECK(ndPanel->hasImage());
    } else {
        WARN("SKIPPED (nested dissection part): this build has no METIS");
        CHECK(ndPanel->message().contains(QStringLiteral("libmetis-dev")));
    }
}

TEST_CASE("The reorder view says in words that a rectangular matrix is not square",
          "[gui][reorder]")
{
    guitest::app();
    ReorderView view;
    view.resize(1280, 720);
    view.show();
    const auto rect = spmv::csr_from_triplets<double, std::int32_t>(
        3, 4, std::vector<std::int32_t>{0, 1, 2}, std::vector<std::int32_t>{0, 1, 3},
        std::vector<double>{1, 1, 1});

    view.setDocument(makeDocument(rect, QStringLiteral("rect"), QStringLiteral("test")));
    REQUIRE(waitIdle(view));

    REQUIRE(view.report(Ordering::original));  // the matrix as given is still measured
    CHECK(view.panel(Ordering::original)->hasImage());
    const auto bg = view.palette().color(QPalette::Window).rgb();
    for (auto o : {Ordering::rcm, Ordering::nested_dissection}) {
        auto* panel = view.panel(o);
        INFO(panel->title().toStdString() << ": " << panel->message().toStdString());
        CHECK(!view.report(o));
        CHECK(!panel->hasImage());
        CHECK(panel->message().contains(QStringLiteral("square matrix, this one is 3 x 4")));
        // the message is drawn (text pixels), not an empty box
        const QImage shot = guitest::render(*panel);
        const QRect pic = panel->pictureRect().adjusted(14, 14, -14, -14);
        CHECK(pixelsUnlike(shot, pic, Appearance::colour(Appearance::palette().empty).rgb()) >
              100);
        CHECK(pixelsUnlike(shot, panel->rect(), bg) > 100);
    }
}

TEST_CASE("The reorder view drops the results of an older document and re-measures new "
          "parameters", "[gui][reorder]")
{
    guitest::app();
    ReorderView view;
    view.resize(1280, 720);
    int finished = 0;
    QObject::connect(&view, &ReorderView::finished, [&] { ++finished; });

    view.setDocument(makeDocument(spmv::gen::laplace2d(60, 60), QStringLiteral("big"),
                                  QStringLiteral("test")));
    view.setDocument(makeDocument(shuffledPath(30), QStringLiteral("path30"),
                                  QStringLiteral("test")));
    REQUIRE(waitIdle(view));

    CHECK(finished == 1);  // only the current document's jobs count
    for (auto o : ReorderView::orderings) {
        if (const auto r = view.report(o)) CHECK(r->num_rows == 30);
    }
    const auto before = view.report(Ordering::rcm);
    spmv::FormatParams p;
    p.warp_size = 4;
    p.slice_height = 4;
    view.setParams(p);
    REQUIRE(waitIdle(view));
    const auto orig = view.report(Ordering::original);
    REQUIRE(orig);
    CHECK(orig->warp_size == 4);
    if (before) {  // the same permutation, measured again with the new warp
        const auto after = view.report(Ordering::rcm);
        REQUIRE(after);
        CHECK(after->perm == before->perm);
        CHECK(after->warp_size == 4);
    }
}

TEST_CASE("The reorder view at 1280 x 720 renders legibly (exported for a look)",
          "[gui][reorder]")
{
    guitest::app();
    ReorderView view;
    view.resize(1280, 720);
    view.setParams([] {
        spmv::FormatParams p;
        p.slice_height = 8;
        return p;
    }());
    // a 2-D Laplacian whose grid points were numbered at random: RCM brings the band back
    const auto grid = spmv::gen::laplace2d(24, 20);
    std::vector<std::int32_t> shuffle(static_cast<std::size_t>(grid.num_rows));
    std::iota(shuffle.begin(), shuffle.end(), 0);
    std::shuffle(shuffle.begin(), shuffle.end(), std::mt19937(2026));
    view.setDocument(makeDocument(spmv::permute_symmetric(grid, std::span<const std::int32_t>(shuffle)),
                                  QStringLiteral("laplace2d 24x20, shuffled"),
                                  QStringLiteral("generated")));
    view.show();
    REQUIRE(waitIdle(view));

    const QImage img = guitest::render(view);
    REQUIRE(img.save(QStringLiteral(SPMV_GUI_TEST_DIR "/reorderview.png")));
    // every panel is at least 300 pixels wide and its title fits
    for (auto o : ReorderView::orderings) {
        auto* panel = view.panel(o);
        CHECK(panel->width() >= 300);
        CHECK(panel->width() >= panel->minimumSizeHint().width());
    }
    // every table column shows its widest cell without eliding
    auto* table = view.table();
    for (int c = 0; c < view.model()->columnCount(); ++c) {
        int widest = 0;
        for (int r = 0; r < view.model()->rowCount(); ++r) {
            widest = std::max(widest, table->fontMetrics().horizontalAdvance(
                                          view.model()->index(r, c).data().toString()));
        }
        CHECK(table->columnWidth(c) > widest);
    }
    view.hide();
}

TEST_CASE("Above its threshold an ordering waits for its button, shows its step and cancels",
          "[gui][reorder]")
{
    guitest::app();
    ReorderView view;
    view.resize(1280, 720);
    view.show();
    // a 60 x 60 Laplacian (17,760 nonzeros) counts as large with thresholds of 100 nonzeros
    view.setAutomaticNonzeros(Ordering::rcm, 100);
    view.setAutomaticNonzeros(Ordering::nested_dissection, 100);
    CHECK(view.automaticNonzeros(Ordering::original) ==
          ReorderView::defaultAutomaticNonzeros(Ordering::original));
    int finished = 0;
    QObject::connect(&view, &ReorderView::finished, [&] { ++finished; });

    view.setDocument(makeDocument(spmv::gen::laplace2d(60, 60), QStringLiteral("grid60"),
                                  QStringLiteral("test")));
    REQUIRE(waitIdle(view));

    // the original order is computed; the others say why not yet, in words and in the table
    CHECK(finished == 1);
    REQUIRE(view.report(Ordering::original));
    CHECK(view.report(Ordering::original)->nnz == 17760);
    CHECK(view.button(Ordering::original)->isHidden());
    for (auto o : {Ordering::rcm, Ordering::nested_dissection}) {
        INFO(view.panel(o)->message().toStdString());
        CHECK(view.state(o) == ReorderView::State::onDemand);
        CHECK(!view.report(o));
        CHECK(view.panel(o)->message().contains(QStringLiteral("on demand above 100 nonzeros")));
        CHECK(view.button(o)->isVisibleTo(&view));
        CHECK(view.button(o)->text().startsWith(QStringLiteral("Compute")));
    }
    const int ndColumn = 2;
    CHECK(view.model()->data(view.model()->index(ReorderModel::Bandwidth, ndColumn)).toString() ==
          QStringLiteral("on demand"));
    // 17,760 nonzeros at 3.2 s per million: "about 0.1 s"
    CHECK(view.panel(Ordering::nested_dissection)->message().contains(QStringLiteral("about 0.1 s")));

    // Compute RCM with its button: the job runs, and its result is the shuffled-free grid's
    if (spmv::analysis::has_rcm()) {
        view.button(Ordering::rcm)->click();
        CHECK(view.state(Ordering::rcm) == ReorderView::State::computing);
        CHECK(view.isComputing());
        CHECK(view.panel(Ordering::rcm)->message().contains(QStringLiteral("step")));
        CHECK(view.model()
                  ->data(view.model()->index(ReorderModel::Bandwidth, 1))
                  .toString()
                  .startsWith(QStringLiteral("computing")));
        REQUIRE(waitIdle(view));
        CHECK(finished == 2);
        REQUIRE(view.report(Ordering::rcm));
        CHECK(view.report(Ordering::rcm)->bandwidth <= 60);  // RCM of a 60 x 60 grid: a band
        CHECK(view.panel(Ordering::rcm)->hasImage());
        CHECK(view.button(Ordering::rcm)->isHidden());
    }

    // start nested dissection and cancel it at once: the column says so, nothing arrives later
    view.compute(Ordering::nested_dissection);
    REQUIRE(view.state(Ordering::nested_dissection) == ReorderView::State::computing);
    CHECK(view.button(Ordering::nested_dissection)->text() == QStringLiteral("Cancel"));
    view.button(Ordering::nested_dissection)->click();
    CHECK(view.state(Ordering::nested_dissection) == ReorderView::State::cancelled);
    CHECK_FALSE(view.isComputing());
    CHECK(view.panel(Ordering::nested_dissection)->message().contains(QStringLiteral("cancelled")));
    CHECK(view.model()->data(view.model()->index(ReorderModel::Bandwidth, ndColumn)).toString() ==
          QStringLiteral("cancelled"));
    CHECK(view.button(Ordering::nested_dissection)->text().startsWith(QStringLiteral("Compute")));
    // the cancelled job ends on its worker; its result must not appear
    QElapsedTimer settle;
    settle.start();
    while (settle.elapsed() < 1500) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    CHECK(view.state(Ordering::nested_dissection) == ReorderView::State::cancelled);
    CHECK(!view.report(Ordering::nested_dissection));

    // computed again after the cancel: it completes (or says METIS is missing)
    view.compute(Ordering::nested_dissection);
    REQUIRE(waitIdle(view));
    if (spmv::analysis::has_nested_dissection()) {
        REQUIRE(view.report(Ordering::nested_dissection));
        CHECK(view.report(Ordering::nested_dissection)->nnz == 17760);
        CHECK(view.state(Ordering::nested_dissection) == ReorderView::State::done);
    } else {
        CHECK(view.state(Ordering::nested_dissection) == ReorderView::State::failed);
        CHECK(view.panel(Ordering::nested_dissection)->message().contains(
            QStringLiteral("libmetis-dev")));
    }
}

TEST_CASE("The default thresholds compute every ordering of a small matrix and none of METIS "
          "above a million nonzeros", "[gui][reorder]")
{
    CHECK(ReorderView::defaultAutomaticNonzeros(Ordering::original) >
          std::int64_t{1} << 40);  // always
    CHECK(ReorderView::defaultAutomaticNonzeros(Ordering::rcm) == 3'000'000);
    CHECK(ReorderView::defaultAutomaticNonzeros(Ordering::nested_dissection) == 1'000'000);
    // the announced times: 10M nonzeros -> RCM 6.5 s, METIS 32 s (the measured power law)
    CHECK(ReorderView::secondsPerMillionNonzeros(Ordering::rcm) * 10 == Approx(6.5));
    CHECK(ReorderView::secondsPerMillionNonzeros(Ordering::nested_dissection) * 10 == Approx(32));
}
