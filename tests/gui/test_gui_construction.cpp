// The construction view on every format and on matrices larger than its 64 x 64 window, and
// the memory view with formats too large to build (estimated, hatched, "not built").
#include <QComboBox>
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
    CHECK(view.chartView()->chart()->title().contains(QStringLiteral("ELLG would need 1.14 KiB")));
    CHECK(view.chartView()->chart()->title().contains(QStringLiteral("limit 150 B")));

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
