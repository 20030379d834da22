// The Advisor view and the Timing view's format-model column: the view's rows are
// spmv::model::advise()'s ranking (first row = best(), every modelled variant listed, the
// non-candidates last and greyed with why not, N > 0 ranks by setup + N SpMVs), the built-in
// constants give advise()'s ranking or its error in words, the texts say "prediction" and "L2
// flushed", nothing is cut short at 1280x720 and in presentation mode, and the Timing table's
// model column is predict() for the row's variant.
//
// The model's constants are being fitted (lib/src/model/format_constants.cpp): the tests do not
// depend on their numbers. Where a test needs every variant priced it fills the kernels the
// built-in constants lack with placeholder costs (completeConstants).
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QPalette>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTextBrowser>
#include <QtCharts/QChartView>
#include <QtCharts/QScatterSeries>
#include <catch2/catch.hpp>

#include <spmv/analysis/estimate.hpp>
#include <spmv/error.hpp>
#include <spmv/formats/sell.hpp>
#include <spmv/generators.hpp>
#include <spmv/model/advisor.hpp>
#include <spmv/model/format_model.hpp>
#include <spmv/model/gpu_profile.hpp>
#include <spmv/registry.hpp>

#include "app/mainwindow.hpp"
#include "app/textaudit.hpp"
#include "gui_test_support.hpp"
#include "models/advisormodel.hpp"
#include "models/timingmodel.hpp"
#include "session/analysiscontroller.hpp"
#include "session/matrixdocument.hpp"
#include "session/timing_table.hpp"
#include "test_matrices.hpp"
#include "widgets/advisorview.hpp"
#include "widgets/appearance.hpp"
#include "widgets/parameterbar.hpp"
#include "widgets/timingpanel.hpp"

using spmv::model::Precision;

namespace {

/// The built-in constants of `gpu`, with placeholder costs for the variants they lack.
spmv::model::FormatModelConstants completeConstants(const spmv::model::GpuProfile& gpu)
{
    auto c = spmv::model::builtin_constants(gpu);
    for (const auto& v : spmv::model::modelled_variants()) {
        if (!c.find(v.name)) c.kernels.push_back({std::string(v.name), 4.0, 40.0});
    }
    return c;
}

QString cell(const QAbstractItemModel& m, int row, int col)
{
    return m.data(m.index(row, col)).toString();
}

/// Waits until the view shows the ranking of its latest request.
void waitForAdvice(AdvisorView& view)
{
    if (!view.isComputing()) return;
    QSignalSpy done(&view, &AdvisorView::finished);
    REQUIRE(done.wait(60000));
    REQUIRE_FALSE(view.isComputing());
}

MatrixDocumentPtr smallDocument()
{
    // 400 rows of 1 to 40 entries: enough variety in row lengths to rank
    return makeDocument(spmv::test::random_csr(400, 400, 1, 40, 7), QStringLiteral("random 400"),
                        QStringLiteral("test"));
}

}  // namespace

TEST_CASE("The advisor view lists advise() ranking with best() first", "[gui][advisor]")
{
    guitest::app();
    AdvisorView view;
    QAbstractItemModelTester tester(view.model(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    view.resize(1280, 720);
    REQUIRE(view.selectProfile(QStringLiteral("h100")));
    const auto gpu = spmv::model::find_profile("H100");
    const auto constants = completeConstants(gpu);
    view.setConstants(constants);
    const auto doc = smallDocument();

    view.setDocument(doc);
    waitForAdvice(view);

    REQUIRE(view.advice());
    REQUIRE(view.message().isEmpty());
    spmv::model::AdvisorOptions o;
    o.precision = Precision::double_precision;
    const auto expected = spmv::model::advise(doc->csr, gpu, o, &constants);
    const auto& model = *view.model();
    REQUIRE(model.rowCount() == static_cast<int>(spmv::model::modelled_variants().size()));
    REQUIRE(model.rowCount() == static_cast<int>(expected.ranked.size()));
    const auto& best = expected.best();
    CHECK(cell(model, 0, AdvisorModel::Rank) == QStringLiteral("1"));
    CHECK(cell(model, 0, AdvisorModel::Variant) == QString::fromStdString(best.variant));
    CHECK(cell(model, 0, AdvisorModel::Time) == AdvisorModel::micro(best.spmv_s));
    CHECK(cell(model, 0, AdvisorModel::GFlops) == QString::number(best.prediction.gflops, 'f', 1));
    CHECK(cell(model, 0, AdvisorModel::Bound) == QString::fromStdString(best.prediction.bound));
    CHECK(cell(model, 0, AdvisorModel::Setup) == AdvisorModel::micro(best.setup_s));
    // the whole ranking in advise()'s order
    for (int r = 0; r < model.rowCount(); ++r) {
        INFO(r);
        CHECK(cell(model, r, AdvisorModel::Variant) ==
              QString::fromStdString(expected.ranked[static_cast<std::size_t>(r)].variant));
    }
    // N = 0: no setup + N column
    CHECK(view.table()->isColumnHidden(AdvisorModel::Total));

    // the first row is selected: its reasons and library equivalent below the table
    CHECK(view.selectedVariant() == QString::fromStdString(best.variant));
    const QString details = view.details()->toPlainText();
    REQUIRE_FALSE(best.reasons.empty());
    CHECK(details.contains(QString::fromStdString(best.reasons.front())));
    CHECK(details.contains(QStringLiteral("Library equivalent")));
    CHECK(details.contains(QString::fromStdString(best.equivalent)));
    // another row's reasons when it is selected
    const auto& other = expected.ranked.back();
    REQUIRE(view.selectVariant(QString::fromStdString(other.variant)));
    CHECK(view.details()->toPlainText().contains(QString::fromStdString(other.reasons.front())));

    // said in words: predictions for the named profile, L2 flushed, not measurements
    QString texts;
    for (auto* label : view.findChildren<QLabel*>()) texts += label->text() + QLatin1Char('\n');
    CHECK(texts.contains(QStringLiteral("not measurements")));
    CHECK(texts.contains(QStringLiteral("L2 flushed before every SpMV")));
    CHECK(texts.contains(QStringLiteral("H100")));
}

TEST_CASE("The advisor view greys the non-candidates and says why not", "[gui][advisor]")
{
    guitest::app();
    AdvisorView view;
    const auto gpu = spmv::model::find_profile("H100");
    const auto constants = completeConstants(gpu);
    view.setConstants(constants);
    // one row of 300 entries among 299 of 2: ELLPACK stores 300 x 300 slots, far over 64 KiB
    auto a = spmv::test::one_full_row(300);
    const auto doc = makeDocument(a, QStringLiteral("one full row"), QStringLiteral("test"));
    view.setFormatMemoryLimit(64 * 1024);
    view.setDocument(doc);
    waitForAdvice(view);
    REQUIRE(view.advice());

    spmv::model::AdvisorOptions o;
    o.max_format_bytes = 64 * 1024;
    const auto expected = spmv::model::advise(doc->csr, gpu, o, &constants);
    const auto& model = *view.model();
    REQUIRE(model.rowCount() == static_cast<int>(expected.ranked.size()));
    CHECK(cell(model, 0, AdvisorModel::Variant) == QString::fromStdString(expected.best().variant));
    int nonCandidates = 0;
    bool seenNonCandidate = false;
    for (int r = 0; r < model.rowCount(); ++r) {
        const auto& rec = expected.ranked[static_cast<std::size_t>(r)];
        INFO(rec.variant);
        if (rec.candidate) {
            CHECK_FALSE(seenNonCandidate);  // candidates first
            continue;
        }
        seenNonCandidate = true;
        ++nonCandidates;
        CHECK(cell(model, r, AdvisorModel::Rank) == QStringLiteral("\u2014"));
        CHECK(cell(model, r, AdvisorModel::Note).contains(QString::fromStdString(rec.why_not)));
        CHECK(
            model.data(model.index(r, AdvisorModel::Variant), Qt::ForegroundRole).value<QColor>() ==
            AdvisorModel::greyed());
    }
    CHECK(nonCandidates > 0);  // ELLPACK at least
}

TEST_CASE("The advisor view ranks by setup plus N SpMVs when N is set", "[gui][advisor]")
{
    guitest::app();
    AdvisorView view;
    const auto gpu = spmv::model::find_profile("H200");
    REQUIRE(view.selectProfile(QStringLiteral("H200")));
    view.setPrecision(Precision::single_precision);
    const auto constants = completeConstants(gpu);
    view.setConstants(constants);
    const auto doc = smallDocument();
    view.setDocument(doc);
    view.setIterations(1000);
    waitForAdvice(view);
    REQUIRE(view.advice());
    CHECK(view.advice()->iterations == 1000);

    spmv::model::AdvisorOptions o;
    o.precision = Precision::single_precision;
    o.iterations = 1000;
    const auto expected = spmv::model::advise(doc->csr, gpu, o, &constants);
    const auto& model = *view.model();
    CHECK(cell(model, 0, AdvisorModel::Variant) == QString::fromStdString(expected.best().variant));
    CHECK(cell(model, 0, AdvisorModel::Total) == AdvisorModel::micro(expected.best().total_s));
    CHECK_FALSE(view.table()->isColumnHidden(AdvisorModel::Total));
}

TEST_CASE("The advisor view with the built-in constants shows advise() or its error",
          "[gui][advisor]")
{
    guitest::app();
    AdvisorView view;
    const auto doc = smallDocument();
    view.setDocument(doc);
    waitForAdvice(view);
    const auto gpu = spmv::model::find_profile(view.profileBox()->currentText().toStdString());
    try {
        const auto expected = spmv::model::advise(doc->csr, gpu, view.options());
        REQUIRE(view.advice());
        CHECK(cell(*view.model(), 0, AdvisorModel::Variant) ==
              QString::fromStdString(expected.best().variant));
    } catch (const std::exception& e) {
        // the constants being fitted may lack a variant: the view says what advise() said
        CHECK_FALSE(view.advice());
        CHECK(view.message().contains(QString::fromStdString(spmv::user_message(e.what()))));
    }
}

TEST_CASE("The advisor view says why there is nothing to rank", "[gui][advisor]")
{
    guitest::app();
    AdvisorView view;
    CHECK(view.message().contains(QStringLiteral("Open or generate a matrix")));
    spmv::Csr<double, std::int32_t> empty;
    empty.num_rows = 3;
    empty.num_cols = 3;
    empty.row_ptrs = {0, 0, 0, 0};
    view.setDocument(makeDocument(empty, QStringLiteral("empty"), QStringLiteral("test")));
    waitForAdvice(view);
    CHECK(view.message().contains(QStringLiteral("no nonzeros")));
    CHECK(view.model()->rowCount() == 0);
}

TEST_CASE("The advisor view shows nothing cut short at 1280x720 and in presentation mode",
          "[gui][advisor][audit]")
{
    guitest::app();
    AdvisorView view;
    view.setConstants(completeConstants(spmv::model::find_profile("H100")));
    view.setDocument(
        makeDocument(spmv::gen::generate("powerlaw", {{"rows", 3000}, {"max-len", 300}}, 2),
                     QStringLiteral("powerlaw 3000"), QStringLiteral("test")));
    view.setFormatMemoryLimit(2 << 20);  // ELLPACK of the power law is not a candidate
    view.setIterations(500);
    waitForAdvice(view);
    REQUIRE(view.advice());
    for (const bool presentation : {false, true}) {
        Appearance::instance().setPresentationMode(presentation);
        view.table()->setFont(Appearance::instance().font());  // as MainWindow does on F5
        view.table()->horizontalHeader()->setFont(Appearance::instance().font(0.9));
        view.table()->resizeColumnsToContents();
        view.table()->resizeRowsToContents();
        view.resize(presentation ? QSize(1920, 1000) : QSize(1280, 640));
        view.show();
        // the new font reaches the labels, then their layout asks for the room they now need
        for (int i = 0; i < 3; ++i) {
            QApplication::processEvents();
            QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        }
        resetElisions();
        guitest::render(view).save(QStringLiteral(SPMV_GUI_TEST_DIR "/advisor_%1.png")
                                       .arg(presentation ? "f5" : "normal"));
        const QStringList cut = auditText(&view);
        INFO((presentation ? "presentation: " : "normal: ") + cut.join("; ").toStdString());
        CHECK(cut.isEmpty());
    }
    Appearance::instance().setPresentationMode(false);
}

TEST_CASE("The timing table's model column is predict() for the row's variant",
          "[gui][timing][advisor]")
{
    guitest::app();
    const auto a = spmv::test::random_csr(500, 500, 2, 30, 3);
    spmv::FormatParams params;  // the GPU kernels' defaults: C 32, sigma 1
    const auto gpu = spmv::model::find_profile("H100");
    auto column = make_format_model(a, params, gpu, Precision::double_precision);
    REQUIRE(column.error.empty());
    REQUIRE(column.shapes.size() == spmv::model::modelled_variants().size());

    // a variant the built-in constants price (they are being fitted: whichever comes first),
    // then sell_i16 with every variant priced
    std::string priced;
    for (const auto& v : spmv::model::modelled_variants()) {
        if (priced.empty() && column.constants.find(v.name)) priced = std::string(v.name);
    }
    REQUIRE_FALSE(priced.empty());
    for (const bool complete : {false, true}) {
        if (complete) {  // priced at make time: the column holds predict_variants' numbers
            const auto c = completeConstants(gpu);
            column = make_format_model(a, params, gpu, Precision::double_precision, &c);
        }
        const std::string variant = complete ? "sell_i16" : priced;
        INFO(variant);
        const std::string_view name = variant;
        const auto shape = spmv::model::kernel_shapes(a, params, {&name, 1}).at(0);
        const auto expected =
            spmv::model::predict(shape, column.constants, Precision::double_precision);
        REQUIRE(expected.time_s > 0);

        TimingRow gpuRow;
        gpuRow.variant = variant;
        gpuRow.gpu = true;
        gpuRow.median_ms = 2.0 * expected.time_s * 1e3;  // measured twice the prediction
        gpuRow.gflops = gflops_of(shape.nnz, gpuRow.median_ms);
        attach_format_model(gpuRow, column);
        CHECK(gpuRow.model_s == expected.time_s);
        CHECK(gpuRow.model_bound == expected.bound);
        CHECK(gpuRow.measured_over_model == Approx(2.0));
        TimingRow cpuRow = gpuRow;  // the same variant timed on the CPU: no ratio
        cpuRow.gpu = false;
        cpuRow.measured_over_model = 0;
        attach_format_model(cpuRow, column);
        TimingRow baseline;
        baseline.variant = "cusparse_csr_alg1";
        baseline.gpu = true;
        baseline.baseline = true;
        baseline.median_ms = 0.01;
        attach_format_model(baseline, column);

        TimingModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setModelProfile(QStringLiteral("H100"));
        model.appendRow(gpuRow);
        model.appendRow(cpuRow);
        model.appendRow(baseline);
        CHECK(model.headerData(TimingModel::ModelTime, Qt::Horizontal).toString() ==
              QStringLiteral("H100 model [\u00b5s]"));
        CHECK(cell(model, 0, TimingModel::ModelTime) ==
              QString::number(expected.time_s * 1e6, 'f', 2));
        CHECK(cell(model, 0, TimingModel::MeasuredOverModel) == QStringLiteral("2.00\u00d7"));
        CHECK(cell(model, 1, TimingModel::ModelTime) ==
              QString::number(expected.time_s * 1e6, 'f', 2));
        CHECK(cell(model, 1, TimingModel::MeasuredOverModel) == QStringLiteral("\u2014"));
        CHECK(cell(model, 2, TimingModel::ModelTime) == QStringLiteral("\u2014"));
        CHECK(cell(model, 2, TimingModel::MeasuredOverModel) == QStringLiteral("\u2014"));
        CHECK(model.data(model.index(2, TimingModel::ModelTime), Qt::ToolTipRole)
                  .toString()
                  .contains(QStringLiteral("no kernel 'cusparse_csr_alg1'")));
    }
}

TEST_CASE("A CPU timing run shows each format's GPU model time and marks it on the chart",
          "[gui][timing][advisor]")
{
    guitest::app();
    AnalysisController controller;
    TimingPanel panel(&controller);
    if (panel.gpuAvailable()) {
        WARN("a CUDA device is present: the host timing run is not exercised");
        return;
    }
    panel.resize(1280, 640);
    REQUIRE(panel.selectProfile(QStringLiteral("H100")));
    const auto doc = makeDocument(spmv::test::random_csr(300, 300, 1, 12, 5),
                                  QStringLiteral("random 300"), QStringLiteral("test"));
    controller.setDocument(doc);
    QSignalSpy done(&panel, &TimingPanel::runFinished);
    panel.start();
    REQUIRE(done.wait(120000));

    const auto column =
        make_format_model(doc->csr, controller.params(), spmv::model::find_profile("H100"),
                          Precision::double_precision);
    const auto& rows = panel.model()->rows();
    REQUIRE(rows.size() == static_cast<int>(spmv::formats().size()));
    int withModel = 0;
    for (int i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        INFO(r.variant);
        CHECK(r.model_profile == "H100");
        CHECK(r.measured_over_model == 0);  // a CPU time is not divided by a GPU prediction
        const auto expected = format_model_prediction(column, r.variant);
        if (expected.feasible && expected.time_s > 0) {
            ++withModel;
            CHECK(r.model_s == expected.time_s);
            CHECK(cell(*panel.model(), i, TimingModel::ModelTime) ==
                  QString::number(expected.time_s * 1e6, 'f', 2));
        } else {
            CHECK(r.model_s == 0);
            CHECK(cell(*panel.model(), i, TimingModel::ModelTime) == QStringLiteral("\u2014"));
        }
        if (r.variant == "csc") CHECK(r.model_s == 0);  // no GPU kernel of CSC is modelled
    }
    auto* view = panel.findChild<QChartView*>();
    REQUIRE(view);
    QScatterSeries* markers = nullptr;
    for (auto* s : view->chart()->series()) {
        if (auto* sc = qobject_cast<QScatterSeries*>(s)) markers = sc;
    }
    if (withModel > 0) {
        REQUIRE(markers);
        CHECK(markers->count() == withModel);
        CHECK(markers->name().contains(QStringLiteral("H100")));
    } else {
        CHECK(markers == nullptr);
    }
}

TEST_CASE("The advisor tab follows the window's matrix, GPU profile and precision",
          "[gui][advisor][window]")
{
    guitest::app();
    MainWindow w(false);
    w.resize(1280, 720);
    auto* advisor = w.advisorView();
    REQUIRE(advisor);
    advisor->setConstants(completeConstants(spmv::model::find_profile("H100")));
    w.controller()->setDocument(smallDocument());
    REQUIRE(w.waitUntilIdle(60000));
    CHECK_FALSE(advisor->document());  // computed when shown, not on every load
    REQUIRE(w.setCurrentView(QStringLiteral("advisor")));
    w.show();
    REQUIRE(w.waitUntilIdle(60000));
    REQUIRE(advisor->document() == w.controller()->document());
    REQUIRE(advisor->advice());
    CHECK(advisor->advice()->profile == advisor->profileBox()->currentText().toStdString());

    // one profile and one precision: chosen in the Timing view, the Advisor re-ranks
    REQUIRE(w.timingPanel()->selectProfile(QStringLiteral("H200")));
    REQUIRE(w.timingPanel()->selectPrecision(QStringLiteral("single")));
    REQUIRE(w.waitUntilIdle(60000));
    CHECK(advisor->profileBox()->currentText() == QStringLiteral("H200"));
    CHECK(advisor->precision() == Precision::single_precision);
    REQUIRE(advisor->advice());
    CHECK(advisor->advice()->profile == "H200");
    CHECK(advisor->advice()->precision == Precision::single_precision);
    // and back, from the Advisor's own boxes
    REQUIRE(advisor->selectProfile(QStringLiteral("H100")));
    advisor->setPrecision(Precision::double_precision);
    CHECK(w.timingPanel()->profileBox()->currentText() == QStringLiteral("H100"));
    CHECK(w.timingPanel()->precisionBox()->currentIndex() == 0);
    REQUIRE(w.waitUntilIdle(60000));
    guitest::render(w).save(QStringLiteral(SPMV_GUI_TEST_DIR "/advisor_window.png"));

    // a new matrix: the shown Advisor ranks it
    w.controller()->setDocument(makeDocument(spmv::gen::laplace2d(30, 30),
                                             QStringLiteral("laplace2d 30x30"),
                                             QStringLiteral("generated")));
    REQUIRE(w.waitUntilIdle(60000));
    CHECK(advisor->document() == w.controller()->document());
    REQUIRE(advisor->advice());
    CHECK(advisor->model()->rowCount() ==
          static_cast<int>(spmv::model::modelled_variants().size()));
}

TEST_CASE("The advisor ranks the layouts at the shared parameters and says which",
          "[gui][advisor]")
{
    guitest::app();
    AdvisorView view;
    view.resize(1280, 720);
    view.setConstants(completeConstants(spmv::model::find_profile("H100")));
    view.setDocument(smallDocument());
    waitForAdvice(view);
    spmv::FormatParams p;  // as a parameter bar would set them
    p.block_rows = 16;
    p.slice_height = 8;
    p.sort_window = 64;
    p.warp_size = 4;  // the blackboard's: the GPU runs warps of 32 all the same

    view.setParams(p, false);
    waitForAdvice(view);

    REQUIRE(view.advice());
    CHECK(view.options().params.slice_height == 8);
    CHECK(view.options().params.warp_size == 32);
    int sell = 0, pjds = 0;
    for (const auto& r : view.advice()->ranked) {
        if (r.format == "sell") {
            ++sell;
            CHECK(r.params.slice_height == 8);
            CHECK(r.params.sort_window == 64);
        }
        if (r.format == "pjds") {
            ++pjds;
            CHECK(r.params.block_rows == 16);
        }
    }
    CHECK(sell > 0);
    CHECK(pjds > 0);
    // the same ranking as advise() with those parameters
    const auto constants = completeConstants(view.profile());
    const auto expected =
        spmv::model::advise(view.document()->csr, view.profile(), view.options(), &constants);
    REQUIRE(expected.ranked.size() == view.advice()->ranked.size());
    for (std::size_t i = 0; i < expected.ranked.size(); ++i) {
        CHECK(view.advice()->ranked[i].variant == expected.ranked[i].variant);
    }
    bool said = false;
    for (auto* l : view.findChildren<QLabel*>()) {
        const QString t = l->text();
        said = said || (t.contains(QStringLiteral("b<sub>r</sub> = 16")) &&
                        t.contains(QStringLiteral("C = 8")) && t.contains(QStringLiteral("\u03c3 = 64")));
    }
    CHECK(said);
    // sigma chosen for the matrix is said as such
    view.setParams(p, true);
    waitForAdvice(view);
    said = false;
    for (auto* l : view.findChildren<QLabel*>()) {
        said = said || l->text().contains(QStringLiteral("\u03c3 = 64 (the advisor's choice"));
    }
    CHECK(said);
}

TEST_CASE("The advisor tab follows the parameter bar", "[gui][advisor][window]")
{
    guitest::app();
    MainWindow w(false);
    w.resize(1280, 720);
    auto* advisor = w.advisorView();
    advisor->setConstants(completeConstants(spmv::model::find_profile("H100")));
    w.controller()->setDocument(smallDocument());
    REQUIRE(w.setCurrentView(QStringLiteral("advisor")));
    w.show();
    REQUIRE(w.waitUntilIdle(60000));
    REQUIRE(advisor->advice());
    CHECK(advisor->params().slice_height == w.controller()->params().slice_height);

    w.controller()->setSliceHeight(16);
    w.controller()->setBlockRows(8);
    REQUIRE(w.waitUntilIdle(60000));

    CHECK(advisor->params().slice_height == 16);
    CHECK(advisor->params().block_rows == 8);
    REQUIRE(advisor->advice());
    for (const auto& r : advisor->advice()->ranked) {
        if (r.format == "sell") CHECK(r.params.slice_height == 16);
        if (r.format == "pjds") CHECK(r.params.block_rows == 8);
    }
}

TEST_CASE("An irregular large matrix gets the advisor's sigma, said as such, until the user sets one",
          "[gui][advisor][sigma]")
{
    guitest::app();
    MainWindow w(false);
    auto* c = w.controller();
    auto* sigmaBox = w.parameterBar()->box(spmv::Param::sort_window);
    REQUIRE(sigmaBox);
    const auto doc = makeDocument(spmv::gen::generate("powerlaw", {{"rows", 5000}}, 3),
                                  QStringLiteral("powerlaw 5000"), QStringLiteral("generated"));

    c->setDocument(doc);
    REQUIRE(w.waitUntilIdle(60000));

    // SELL-C-sigma's own "sigma = auto" rule at C = 32, not sigma = 1
    const int advised = spmv::choose_sort_window(doc->csr, 32);
    CHECK(advised > 1);
    CHECK(c->params().slice_height == 32);
    CHECK(c->params().sort_window == advised);
    CHECK(AnalysisController::advisedSortWindow(doc->csr, 32) == advised);
    CHECK(c->sortWindowAdvised());
    CHECK(sigmaBox->value() == advised);
    CHECK(sigmaBox->suffix().contains(QStringLiteral("advisor")));
    CHECK(sigmaBox->toolTip().contains(QStringLiteral("advisor's choice")));
    CHECK(w.advisorView()->params().sort_window == advised);
    // and it pays: SELL within 2 % of nnz of its least padding, far below sigma = 1's
    spmv::FormatParams p = c->params();
    const auto at = [&](int sigma) {
        p.sort_window = sigma;
        return spmv::analysis::estimate_footprint(doc->csr, "sell", p).stored_entries;
    };
    CHECK(at(advised) <= at(doc->csr.num_rows) + spmv::nnz(doc->csr) / 50);
    CHECK(at(advised) < at(1));

    // a new C: sigma chosen again for it
    c->setSliceHeight(8);
    CHECK(c->params().sort_window == spmv::choose_sort_window(doc->csr, 8));
    CHECK(c->sortWindowAdvised());

    // the user's sigma wins, also on the next matrix
    sigmaBox->setValue(4);
    REQUIRE(w.waitUntilIdle(60000));
    CHECK(c->params().sort_window == 4);
    CHECK_FALSE(c->sortWindowAdvised());
    CHECK(sigmaBox->suffix().isEmpty());
    c->setDocument(makeDocument(spmv::gen::generate("powerlaw", {{"rows", 3000}}, 4),
                                QStringLiteral("powerlaw 3000"), QStringLiteral("generated")));
    REQUIRE(w.waitUntilIdle(60000));
    CHECK(c->params().sort_window == 4);
    CHECK_FALSE(c->sortWindowAdvised());
}
