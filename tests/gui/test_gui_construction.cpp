// The construction view on every format and on matrices larger than its 64 x 64 window, and
// the memory view with formats too large to build (estimated, hatched, "not built").
#include <algorithm>

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>
#include <QSpinBox>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <catch2/catch.hpp>

#include <spmv/viz/construction.hpp>

#include "gui_test_support.hpp"
#include "skip.hpp"
#include "models/formatsummarymodel.hpp"
#include "session/analysiscontroller.hpp"
#include "test_matrices.hpp"
#include "widgets/appearance.hpp"
#include "widgets/constructionpanel.hpp"
#include "widgets/layoutview.hpp"
#include "widgets/memoryview.hpp"

namespace {

const spmv::viz::Palette& palette()
{
    return Appearance::palette();
}

QPointF corner(const QRectF& r, double inset = 3)
{
    return r.topLeft() + QPointF(inset, inset);
}

/// Waits for the next constructionAvailable (the jobs run on the analysis pool).
ConstructionPtr nextConstruction(QSignalSpy& spy)
{
    if (spy.isEmpty() && !spy.wait(60000)) return nullptr;
    auto p = spy.takeFirst().at(0).value<ConstructionPtr>();
    return p;
}

bool waitIdle(AnalysisController& c)
{
    for (int i = 0; i < 3000 && c.isBusy(); ++i) QTest::qWait(20);
    QCoreApplication::processEvents();
    return !c.isBusy();
}

}  // namespace

TEST_CASE("The construction panel walks a large matrix window by window", "[gui][construction]")
{
    guitest::app();
    qRegisterMetaType<ConstructionPtr>("ConstructionPtr");
    AnalysisController controller;
    ConstructionPanel panel(&controller);
    panel.resize(1000, 800);
    QSignalSpy spy(&controller, &AnalysisController::constructionAvailable);

    controller.setDocument(
        makeDocument(spmv::test::random_csr(500, 300, 1, 9, 5), QStringLiteral("r"), {}));
    const auto first = nextConstruction(spy);
    REQUIRE(first);
    QCoreApplication::processEvents();

    CHECK(first->windowed);
    CHECK(panel.firstRowBox()->isEnabled());
    CHECK(panel.firstRowBox()->maximum() == 499);
    CHECK(panel.windowLabel()->text().contains(QStringLiteral("rows 0\u201363 of 500")));

    panel.firstRowBox()->setValue(100);
    const auto moved = nextConstruction(spy);
    REQUIRE(moved);
    QCoreApplication::processEvents();

    const auto* s = panel.layoutView()->step();
    REQUIRE(s);
    CHECK(s->row_offset == 100);
    CHECK(s->rows == 64);
    CHECK(panel.windowLabel()->text().contains(QStringLiteral("rows 100\u2013163 of 500")));
    // the matrix step's row_ptrs show the pointers of rows 100..164 only
    const auto& m = moved->steps.front();
    CHECK(m.arrays.front().name == "row_ptrs");
    CHECK(m.arrays.front().index.front() == 100);
    CHECK(m.arrays.front().index.back() == 164);
}

TEST_CASE("The construction view of HYB highlights the COO entry of a tail cell",
          "[gui][construction]")
{
    guitest::app();
    LayoutView view;
    view.resize(900, 700);
    spmv::FormatParams p;
    p.hyb_width = 2;
    view.setConstruction(std::make_shared<const spmv::viz::Construction>(
        spmv::viz::construction(spmv::test::canonical4(), "hyb", p)));
    view.setStep(2);  // split: row 2 = [5 6 | 7], the 7 is COO entry 1

    view.selectCell(2, 2);
    view.resize(900, qMax(700, view.minimumHeight()));
    const QImage img = guitest::render(view);

    REQUIRE(view.step()->name == "split");
    CHECK(guitest::pixel(img, corner(view.entryRect(QStringLiteral("coo_values"), 1), 2)) ==
          palette().selection);
    CHECK(guitest::pixel(img, corner(view.entryRect(QStringLiteral("coo_values"), 0), 2)) ==
          palette().background);
    // no ELL slot lights up for a COO cell
    for (int i = 0; i < 8; ++i) {
        CHECK(guitest::pixel(img, corner(view.entryRect(QStringLiteral("ell_values"), i), 2)) !=
              palette().selection);
    }
}

TEST_CASE("The construction view draws every format without errors", "[gui][construction]")
{
    guitest::app();
    LayoutView view;
    view.resize(900, 700);
    spmv::FormatParams p;
    p.block_rows = p.slice_height = p.warp_size = p.diag_pad = 4;
    const auto a = spmv::test::random_csr(100, 90, 0, 12, 9);
    for (auto name : spmv::viz::construction_formats()) {
        INFO(std::string(name));
        view.setConstruction(std::make_shared<const spmv::viz::Construction>(
            spmv::viz::construction(a, name, p)));
        view.setStep(view.stepCount() - 1);

        const QImage img = guitest::render(view);

        const auto* s = view.step();
        REQUIRE(s);
        CHECK(s->rows <= 64);
        // the first nonzero cell of the window is drawn in the nonzero colour
        bool found = false;
        for (int r = 0; r < s->rows && !found; ++r) {
            for (int c = 0; c < s->cols && !found; ++c) {
                if (s->at(r, c).kind == spmv::viz::CellKind::nonzero) {
                    CHECK(guitest::pixel(img, corner(view.cellRect(r, c), 1)) ==
                          palette().nonzero);
                    found = true;
                }
            }
        }
        CHECK(found);
    }
}

TEST_CASE("Formats over the memory limit are estimated, not built, and labelled",
          "[gui][memory]")
{
    guitest::app();
    qRegisterMetaType<SummariesPtr>("SummariesPtr");
    AnalysisController controller;
    controller.setFormatMemoryLimit(150);  // canonical 4x4: ELLG needs 1168 B, ELLPACK 144 B
    QSignalSpy summaries(&controller, &AnalysisController::summariesAvailable);
    QSignalSpy failed(&controller, &AnalysisController::analysisFailed);
    controller.setDocument(makeDocument(spmv::test::canonical4(), QStringLiteral("c"), {}));
    REQUIRE(summaries.wait(60000));
    const auto s = summaries.takeFirst().at(0).value<SummariesPtr>();
    MemoryView view;
    view.resize(900, 600);

    view.setSummaries(s, controller.params(), controller.formatMemoryLimit());
    guitest::render(view);

    const auto* model = view.model();
    int ellgRow = -1;
    for (int r = 0; r < model->rowCount(); ++r) {
        if ((*s)[static_cast<std::size_t>(r)].name == "ellg") ellgRow = r;
    }
    REQUIRE(ellgRow >= 0);
    CHECK((*s)[static_cast<std::size_t>(ellgRow)].estimated);
    CHECK(model->data(model->index(ellgRow, FormatSummaryModel::Format)).toString() ==
          QStringLiteral("ELLG (not built)"));
    CHECK(model->data(model->index(ellgRow, FormatSummaryModel::TotalBytes)).toString() ==
          QLocale::c().toString(qulonglong{1168}));  // the model's C locale
    auto* axis = qobject_cast<QBarCategoryAxis*>(
        view.chartView()->chart()->axes(Qt::Horizontal).value(0));
    REQUIRE(axis);
    CHECK(axis->categories().value(ellgRow) == QStringLiteral("ELLG*"));
    // the reason is a wrapped note below the legend (a chart title elides it when several
    // formats are over the limit), not part of the title
    CHECK(view.notBuiltNote().contains(QStringLiteral("ELLG would need 1.14 KiB")));
    CHECK(view.notBuiltNote().contains(QStringLiteral("limit 150 B")));
    CHECK_FALSE(view.chartView()->chart()->title().contains(QStringLiteral("not built")));

    // the construction of a format over the limit is refused with the same reason
    controller.setConstructionFormat(QStringLiteral("ellg"));
    REQUIRE(waitIdle(controller));
    bool constructionFailed = false;
    for (const auto& f : failed) {
        if (f.at(0).toString() == QLatin1String("construction")) {
            constructionFailed = f.at(1).toString().contains(QStringLiteral("not built"));
        }
    }
    CHECK(constructionFailed);
}

TEST_CASE("Row labels and array names of a large matrix get the room they need", "[gui][construction]")
{
    guitest::app();
    qRegisterMetaType<ConstructionPtr>("ConstructionPtr");
    AnalysisController controller;
    ConstructionPanel panel(&controller);
    panel.resize(1000, 800);
    QSignalSpy spy(&controller, &AnalysisController::constructionAvailable);

    controller.setDocument(
        makeDocument(spmv::test::random_csr(20000, 300, 1, 9, 5), QStringLiteral("r"), {}));
    const auto c = nextConstruction(spy);
    REQUIRE(c);
    QCoreApplication::processEvents();

    const QFontMetricsF fm(Appearance::instance().font());
    const auto m = panel.layoutView()->metrics();
    CHECK(m.rowLabelWidth >= fm.horizontalAdvance(QStringLiteral("row 19999")));
    const QFontMetricsF bold(Appearance::instance().font(1.0, true));
    for (const auto& step : c->steps) {
        for (const auto& a : step.arrays) {
            CHECK(m.arrayLabelWidth >= bold.horizontalAdvance(QString::fromStdString(a.name)));
        }
    }
}

TEST_CASE("The construction panel alone shows the parameter boxes its format reads", "[gui][construction]")
{
    guitest::app();
    AnalysisController controller;
    ConstructionPanel panel(&controller);
    panel.resize(1400, 800);
    panel.show();
    auto* k = panel.paramBox(spmv::Param::hyb_width);
    auto* pitch = panel.paramBox(spmv::Param::pitch_bytes);
    REQUIRE(k);
    REQUIRE(pitch);

    panel.formatBox()->setCurrentIndex(panel.formatBox()->findData(QStringLiteral("hyb")));
    CHECK(k->isVisible());
    CHECK_FALSE(pitch->isVisible());  // ELLG's, not HYB's
    panel.formatBox()->setCurrentIndex(panel.formatBox()->findData(QStringLiteral("ellg")));
    CHECK_FALSE(k->isVisible());
    CHECK(pitch->isVisible());
    panel.setParameterBoxesShown(false);
    CHECK_FALSE(pitch->isVisible());
    CHECK_FALSE(panel.blockRowsBox()->isVisible());
}

namespace {

std::int64_t nonzeroCells(const spmv::viz::ConstructionStep& s)
{
    return std::count_if(s.cells.begin(), s.cells.end(), [](const spmv::viz::Cell& x) {
        return x.kind == spmv::viz::CellKind::nonzero;
    });
}

/// The next construction of `format` (earlier ones, of a format left, are passed over).
ConstructionPtr constructionOf(QSignalSpy& spy, const std::string& format)
{
    for (int i = 0; i < 10; ++i) {
        auto c = nextConstruction(spy);
        if (!c || c->format == format) return c;
    }
    return nullptr;
}

}  // namespace

TEST_CASE("bayer10's SELL and pJDS constructions open where its entries are",
          "[gui][construction]")
{
    const QString path = QStringLiteral(SPMV_SHARED_MATRICES "/bayer10.mtx");
    if (!QFile::exists(path)) {
        SPMV_SKIP(path.toStdString() << " not found (no shared matrices beside the clone)");
    }
    guitest::app();
    qRegisterMetaType<ConstructionPtr>("ConstructionPtr");
    AnalysisController controller;
    ConstructionPanel panel(&controller);
    panel.resize(1280, 800);
    QSignalSpy spy(&controller, &AnalysisController::constructionAvailable);
    const auto doc = loadMatrixMarket(path);
    // rows 0-63 hold columns 13,316 on only (13,317 in the file's 1-based numbering)
    std::int32_t firstCol = doc->csr.num_cols;
    for (int r = 0; r < 64; ++r) {
        const auto b = doc->csr.row_ptrs[static_cast<std::size_t>(r)];
        if (b < doc->csr.row_ptrs[static_cast<std::size_t>(r) + 1]) {
            firstCol = std::min(firstCol, doc->csr.col_idxs[static_cast<std::size_t>(b)]);
        }
    }
    REQUIRE(firstCol >= 13316);

    controller.setDocument(doc);
    for (const char* format : {"pjds", "sell"}) {
        INFO(format);
        panel.formatBox()->setCurrentIndex(panel.formatBox()->findData(QString::fromLatin1(format)));
        const auto c = constructionOf(spy, format);
        REQUIRE(c);
        QCoreApplication::processEvents();

        for (const auto& s : c->steps) {
            INFO(s.name << ": " << s.window_label());
            CHECK(nonzeroCells(s) > 0);
        }
        panel.layoutView()->setStep(0);
        CHECK(panel.firstColumnBox()->value() == firstCol);
        CHECK(panel.windowLabel()->text().contains(
            QStringLiteral("columns %1\u2013").arg(firstCol)));
        CHECK(panel.windowLabel()->toolTip().contains(QStringLiteral("where the entries are")));
        // the last step (the format as stored) starts at its first slot column
        panel.layoutView()->setStep(panel.layoutView()->stepCount() - 1);
        CHECK(panel.firstColumnBox()->value() == 0);
    }
}

TEST_CASE("The construction window follows a selected nonzero through every step",
          "[gui][construction]")
{
    guitest::app();
    qRegisterMetaType<ConstructionPtr>("ConstructionPtr");
    AnalysisController controller;
    ConstructionPanel panel(&controller);
    panel.resize(1000, 800);
    QSignalSpy spy(&controller, &AnalysisController::constructionAvailable);
    controller.setDocument(
        makeDocument(spmv::test::random_csr(3000, 300, 1, 9, 5), QStringLiteral("r"), {}));
    const auto first = nextConstruction(spy);
    REQUIRE(first);
    QCoreApplication::processEvents();
    auto* view = panel.layoutView();
    view->setStep(0);
    const auto* s = view->step();
    REQUIRE(s);
    const auto rowOffset = s->row_offset;
    int row = 10, col = 0;  // a nonzero of row 10 or below
    for (; row < s->rows; ++row) {
        for (col = 0; col < s->cols && s->at(row, col).kind != spmv::viz::CellKind::nonzero;) ++col;
        if (col < s->cols) break;
    }
    REQUIRE(row < s->rows);
    const auto nz = s->at(row, col).nz;

    view->selectCell(row, col);
    const auto moved = nextConstruction(spy);
    REQUIRE(moved);
    QCoreApplication::processEvents();

    CHECK(moved->window.focus == nz);
    CHECK(view->step()->row_offset == rowOffset);  // the step clicked in stays put
    // pJDS sorts the row far down: every step shows the nonzero, selected
    for (int i = 0; i < view->stepCount(); ++i) {
        view->setStep(i);
        INFO(view->step()->name << ": " << view->step()->window_label());
        const auto sel = view->selectedCell();
        REQUIRE(sel.first >= 0);
        CHECK(view->step()->at(sel.first, sel.second).nz == nz);
        CHECK(panel.windowLabel()->toolTip().contains(QStringLiteral("follows nonzero %1").arg(nz)));
    }
    const auto& sorted = moved->steps.back();
    CHECK(sorted.row_offset > 0);  // the row is not among pJDS's first 64 sorted rows

    // moving the window by hand stops following
    panel.firstRowBox()->setValue(1000);
    const auto manual = nextConstruction(spy);
    REQUIRE(manual);
    CHECK(manual->window.focus == -1);
    CHECK(manual->steps.back().row_offset == 1000);
}

TEST_CASE("Every value in a cell is shown in full or cut by one rule, with a tooltip",
          "[gui][construction]")
{
    guitest::app();
    auto a = spmv::test::canonical4();
    // values too long for a cell beside short ones (bayer10's among them)
    a.values = {-564.2036607119013, 4.745108542571984, 117, 0.01, -1.4,
                1.221712296762661,  123456,            1e-7, 0.5};
    LayoutView view;
    view.resize(900, 700);
    view.setConstruction(std::make_shared<const spmv::viz::Construction>(
        spmv::viz::construction(a, "csr", spmv::FormatParams{})));
    view.setStep(0);
    view.resize(900, qMax(700, view.minimumHeight()));

    const QImage img = guitest::render(view);

    const int chars = view.cellChars();
    REQUIRE(chars >= 5);  // the grid fits: cells have room for 5 characters
    CHECK(LayoutView::valueText(-564.2036607119013, 5) == QStringLiteral("-564\u2026"));
    CHECK(LayoutView::valueText(4.745108542571984, 5) == QStringLiteral("4.74\u2026"));
    CHECK(LayoutView::valueText(117, 5) == QStringLiteral("117"));
    const auto* s = view.step();
    int cells = 0;
    for (int r = 0; r < s->rows; ++r) {
        for (int c = 0; c < s->cols; ++c) {
            const auto& x = s->at(r, c);
            if (x.kind != spmv::viz::CellKind::nonzero) continue;
            ++cells;
            INFO("A(" << r << ", " << c << ") = " << x.value);
            // no cell is left blank: text pixels inside every nonzero cell
            const QRectF q = view.cellRect(r, c).adjusted(3, 3, -3, -3);
            int ink = 0;
            for (int y = int(q.top()); y < int(q.bottom()); ++y) {
                for (int xx = int(q.left()); xx < int(q.right()); ++xx) {
                    ink += guitest::pixel(img, QPointF(xx, y)) != palette().nonzero;
                }
            }
            CHECK(ink > 0);
            // the full value on hover
            CHECK(view.toolTipAt(view.cellRect(r, c).center()) ==
                  QStringLiteral("A(%1, %2) = %3")
                      .arg(r)
                      .arg(c)
                      .arg(QString::fromStdString(spmv::viz::full_value_text(x.value))));
        }
    }
    CHECK(cells == 9);
    CHECK(view.toolTipAt(view.cellRect(0, 0).center()) ==
          QStringLiteral("A(0, 0) = -564.2036607119013"));
    // array entries by the same rule, the full value on hover
    const QRectF e = view.entryRect(QStringLiteral("values"), 0);
    REQUIRE_FALSE(e.isEmpty());
    CHECK(view.toolTipAt(e.center()) == QStringLiteral("values[0] = -564.2036607119013"));
}
