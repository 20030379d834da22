// The solver view: CG and MPIR-CG on a small SPD matrix (run synchronously and on the worker
// thread), the residual chart's series, a matrix that is not SPD (refused unless asked; then a
// breakdown labelled as such), a diverging run (labelled in table, text and chart, one final
// residual everywhere), the CPU's iteration cap, the idle state, stale results after the
// matrix changes, and the summary model.
#include <cstdio>
#include <cstdlib>
#include <random>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QCheckBox>
#include <QLabel>
#include <QPen>
#include <QProgressBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <catch2/catch.hpp>

#include <spmv/generators.hpp>
#include <spmv/viz/solver_chart.hpp>

#include "app/mainwindow.hpp"
#include "gui_test_support.hpp"
#include "models/solversummarymodel.hpp"
#include "session/analysiscontroller.hpp"
#include "session/solver_job.hpp"
#include "widgets/appearance.hpp"
#include "widgets/solverpanel.hpp"

namespace {

MatrixDocumentPtr laplaceDocument(int n)
{
    return makeDocument(spmv::gen::laplace2d(n, n), QStringLiteral("laplace2d %1x%1").arg(n),
                        QStringLiteral("generated"));
}

template <typename S>
S* findSeries(QChart* chart, const QString& prefix)
{
    for (auto* s : chart->series()) {
        if (auto* typed = qobject_cast<S*>(s); typed && typed->name().startsWith(prefix)) {
            return typed;
        }
    }
    return nullptr;
}

}  // namespace

TEST_CASE("The solver view overlays CG and MPIR-CG on a 10x10 Laplacian", "[gui][solver]")
{
    guitest::app();
    AnalysisController controller;
    SolverPanel panel(&controller);
    panel.resize(1000, 700);
    controller.setDocument(laplaceDocument(10));

    // the defaults of the issue: CG and MPIR-CG, CSR, tol 1e-10, b = ones
    CHECK(panel.methodBox()->currentData().toInt() == SolverPanel::CgAndMpir);
    CHECK(panel.formatBox()->currentData().toString() == QStringLiteral("csr"));
    CHECK(panel.toleranceExponentBox()->value() == 10);
    const auto request = panel.request();
    REQUIRE(request.jobs.size() == 2);
    CHECK(request.jobs[0].tol == Approx(1e-10));

    panel.runSynchronously();

    CHECK_FALSE(panel.isRunning());
    const auto& runs = panel.runs();
    REQUIRE(runs.size() == 2);
    CHECK(runs[0].method == spmv::viz::SolverMethod::cg);
    CHECK(runs[1].method == spmv::viz::SolverMethod::mpir_cg);
    for (const auto& r : runs) {
        CHECK(r.not_spd.empty());  // the Laplacian passes the SPD screen
        INFO(describeRun(r));
        CHECK(r.error.empty());
        CHECK(r.result.status == spmv::solvers::Status::converged);
    }
    if (!panel.usesGpu()) {
        CHECK(panel.deviceLabel()->text().contains(QStringLiteral("host reference")));
        CHECK(runs[0].backend == "host reference (1 thread)");
    }

    QChart* chart = panel.chart();
    auto* cg = findSeries<QLineSeries>(chart, QStringLiteral("CG"));
    auto* mpir = findSeries<QLineSeries>(chart, QStringLiteral("MPIR-CG ("));
    auto* outer = findSeries<QScatterSeries>(chart, QStringLiteral("MPIR-CG outer"));
    auto* tol = findSeries<QLineSeries>(chart, QStringLiteral("tolerance"));
    REQUIRE(cg);
    REQUIRE(mpir);
    REQUIRE(outer);
    REQUIRE(tol);
    // CG: one point per iteration plus the initial residual 1, the last one at or below tol
    const auto cgPoints = cg->points();
    REQUIRE(cgPoints.size() == runs[0].result.iterations + 1);
    CHECK(cgPoints.front().y() == Approx(1.0));
    CHECK(cgPoints.back().x() == runs[0].result.iterations);
    CHECK(cgPoints.back().y() <= 1e-10);
    CHECK(cg->pen().color() == QColor(0, 114, 178));   // Okabe-Ito blue
    CHECK(mpir->pen().color() == QColor(213, 94, 0));  // Okabe-Ito vermillion
    // MPIR-CG: x runs over the cumulative inner iterations; one marker per refinement step
    CHECK(mpir->points().back().x() == runs[1].result.inner_iterations);
    REQUIRE(outer->count() == runs[1].result.outer_iterations + 1);
    CHECK(outer->count() >= 3);  // float alone does not reach 1e-10: several refinements
    CHECK(outer->points().back().x() == runs[1].result.inner_iterations);
    CHECK(outer->points().back().y() <= 1e-10);
    // the tolerance: a dashed horizontal line at 1e-10 across the whole x range
    REQUIRE(tol->count() == 2);
    CHECK(tol->at(0).y() == Approx(1e-10));
    CHECK(tol->at(1).y() == Approx(1e-10));
    CHECK(tol->pen().style() == Qt::DashLine);
    CHECK(tol->at(1).x() >= runs[0].result.iterations);
    // a log axis that holds every point
    const auto axes = chart->axes(Qt::Vertical);
    REQUIRE(axes.size() == 1);
    auto* log = qobject_cast<QLogValueAxis*>(axes.front());
    REQUIRE(log);
    CHECK(log->min() <= cgPoints.back().y());
    CHECK(log->max() >= 1.0);
    CHECK(chart->legend()->isVisible());

    // the summary table and the message
    auto* model = panel.model();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    REQUIRE(model->rowCount() == 2);
    CHECK(model->index(0, SolverSummaryModel::Method).data().toString() == QStringLiteral("CG"));
    CHECK(model->index(0, SolverSummaryModel::Status).data().toString() ==
          QStringLiteral("converged"));
    CHECK(model->index(0, SolverSummaryModel::Iterations).data().toString() ==
          QString::number(runs[0].result.iterations));
    CHECK(model->index(1, SolverSummaryModel::Iterations).data().toString() ==
          QStringLiteral("%1 / %2")
              .arg(runs[1].result.inner_iterations)
              .arg(runs[1].result.outer_iterations));
    CHECK(model->index(0, SolverSummaryModel::Residual).data().toString().toDouble() <= 1e-10);
    CHECK(panel.messageLabel()->text().contains(QStringLiteral("CG: converged in")));
    CHECK(panel.messageLabel()->text().contains(QStringLiteral("MPIR-CG: converged in")));
    // converged runs: solid lines named by the method alone, and their final residuals
    CHECK(cg->name() == QStringLiteral("CG"));
    CHECK(cg->pen().style() == Qt::SolidLine);
    auto* finals = findSeries<QScatterSeries>(chart, QStringLiteral("final"));
    REQUIRE(finals);
    REQUIRE(finals->count() == 2);
    CHECK(finals->at(0).y() == Approx(runs[0].result.final_relative_residual));
    CHECK(finals->at(0).y() <= 2e-10);
    CHECK(chart->title() == QStringLiteral("Relative residual per iteration: laplace2d 10x10 in "
                                           "CSR"));

    // the view renders offscreen at its size, fits the window's width, and shows both lines
    CHECK(panel.minimumSizeHint().width() < 1000);
    const QImage img = guitest::render(panel);
    REQUIRE(img.size() == panel.size());
    auto near = [](QRgb c, const QColor& want) {
        return std::abs(qRed(c) - want.red()) + std::abs(qGreen(c) - want.green()) +
                   std::abs(qBlue(c) - want.blue()) <
               40;
    };
    int blue = 0;
    int vermillion = 0;
    for (int yy = 0; yy < img.height(); ++yy) {
        for (int xx = 0; xx < img.width(); ++xx) {
            blue += near(img.pixel(xx, yy), QColor(0, 114, 178)) ? 1 : 0;
            vermillion += near(img.pixel(xx, yy), QColor(213, 94, 0)) ? 1 : 0;
        }
    }
    CHECK(blue > 50);
    CHECK(vermillion > 50);
}

TEST_CASE("A matrix that is certainly not SPD is not solved unless asked", "[gui][solver]")
{
    guitest::app();
    MainWindow w(false);
    // -A of the 2-D Laplacian: symmetric negative definite; the screen sees a(0, 0) = -4
    auto a = spmv::gen::laplace2d(8, 8);
    for (auto& v : a.values) v = -v;
    w.controller()->setDocument(
        makeDocument(std::move(a), QStringLiteral("minus laplace"), QStringLiteral("generated")));
    REQUIRE(w.waitUntilIdle(60000));
    auto* panel = w.solverPanel();
    CHECK_FALSE(panel->runAnywayBox()->isChecked());  // refusing is the default
    QSignalSpy status(panel, &SolverPanel::statusMessage);

    panel->start();  // on the worker thread
    REQUIRE(w.waitUntilIdle(60000));

    // refused: no solve, and every place says so
    REQUIRE(panel->runs().size() == 2);
    for (const auto& r : panel->runs()) {
        CHECK(r.refused);
        CHECK(runOutcome(r) == RunOutcome::notRun);
        CHECK(r.result.iterations == 0);
        CHECK(r.result.residual_history.empty());  // CG did not run
    }
    QString text = panel->messageLabel()->text();
    CHECK(text.startsWith(QStringLiteral("Not solved: the matrix is not positive definite: the "
                                         "diagonal entry a(0, 0) = -4 is not positive.")));
    CHECK(text.contains(panel->runAnywayBox()->text()));  // how to run it anyway
    CHECK_FALSE(text.contains(QStringLiteral("converge")));
    CHECK(panel->chart()->title().startsWith(
        QStringLiteral("Not solved: minus laplace is not symmetric positive definite")));
    CHECK(panel->chart()->series().isEmpty());
    auto* model = panel->model();
    CHECK(model->index(0, SolverSummaryModel::Status).data().toString() ==
          QStringLiteral("not run: matrix not SPD"));
    CHECK(model->index(0, SolverSummaryModel::Residual).data().toString() ==
          QStringLiteral("\u2014"));
    CHECK(model->index(0, SolverSummaryModel::Iterations).data().toString() ==
          QStringLiteral("\u2014"));
    // the progress bar too: nothing ran, not "2 of 2 solves"
    auto* bar = panel->findChild<QProgressBar*>();
    REQUIRE(bar);
    CHECK(bar->text() == QStringLiteral("not run: refused (matrix not SPD)"));
    CHECK(bar->value() == 0);
    REQUIRE_FALSE(status.isEmpty());  // and the status bar: not "Solve finished."
    CHECK(status.last().at(0).toString() == QStringLiteral("Not solved: refused (matrix not SPD)."));

    // asked for: CG runs, breaks down at once (p^T A p < 0), and is labelled as not a solve
    panel->runAnywayBox()->setChecked(true);
    panel->start();
    REQUIRE(w.waitUntilIdle(60000));
    REQUIRE(panel->runs().size() == 2);
    for (const auto& r : panel->runs()) {
        INFO(describeRun(r));
        CHECK_FALSE(r.refused);
        CHECK(r.error.empty());
        CHECK(r.result.status == spmv::solvers::Status::breakdown_indefinite);
        CHECK(runOutcome(r) == RunOutcome::breakdown);
    }
    text = panel->messageLabel()->text();
    CHECK(text.contains(QStringLiteral("Run anyway on a matrix that is not positive definite")));
    CHECK(text.contains(QStringLiteral("CG: did not converge: breakdown after")));
    CHECK(text.contains(QStringLiteral("not positive definite")));
    CHECK_FALSE(text.contains(QStringLiteral("converged in")));
    CHECK(model->index(0, SolverSummaryModel::Status).data().toString() ==
          QStringLiteral("did not converge: breakdown"));
    CHECK(panel->chart()->title().endsWith(QStringLiteral("did not converge")));
    auto* cg = findSeries<QLineSeries>(panel->chart(), QStringLiteral("CG: did not converge"));
    REQUIRE(cg);
    CHECK(cg->pen().style() == Qt::DashDotLine);  // not drawn like a solve
    CHECK(bar->text() == QStringLiteral("2 of 2 solves"));  // both ran (and broke down)
    CHECK(bar->value() == 2);
    CHECK(w.errors().isEmpty());  // shown in the view, not reported as an application error
}

TEST_CASE("A diverging run is labelled diverged, with one final residual everywhere",
          "[gui][solver]")
{
    guitest::app();
    AnalysisController controller;
    SolverPanel panel(&controller);
    panel.resize(1000, 700);
    // A = [1 10; 0 1], b = (1, 1): positive diagonal, not symmetric. CG by hand: p = r = b,
    // A p = (11, 1), alpha = 2 / 12, r = (-5/6, 5/6): relative residual 5/6 after one step;
    // then it grows by ~50x per step and passes the divergence limit 1e8 at iteration 7
    spmv::Csr<double, std::int32_t> a;
    a.num_rows = a.num_cols = 2;
    a.row_ptrs = {0, 2, 3};
    a.col_idxs = {0, 1, 1};
    a.values = {1.0, 10.0, 1.0};
    controller.setDocument(makeDocument(std::move(a), QStringLiteral("upper 2x2"), {}));
    panel.runAnywayBox()->setChecked(true);

    panel.runSynchronously();

    REQUIRE(panel.runs().size() == 2);
    const auto& cgRun = panel.runs()[0];
    const auto& mpirRun = panel.runs()[1];
    INFO(describeRun(cgRun));
    INFO(describeRun(mpirRun));
    CHECK(cgRun.not_spd == "not symmetric: a(0, 1) = 10 but a(1, 0) = 0");
    REQUIRE(cgRun.result.status == spmv::solvers::Status::diverged);
    CHECK(cgRun.result.iterations == 7);
    REQUIRE(cgRun.result.residual_history.size() >= 2);
    CHECK(cgRun.result.residual_history[1] == Approx(5.0 / 6.0));
    CHECK(cgRun.result.residual_history.back() > 1e8);
    // MPIR-CG: the refined residual passes the divergence limit too
    REQUIRE(mpirRun.result.status == spmv::solvers::Status::diverged);
    CHECK(mpirRun.result.final_relative_residual > 1e8);

    // the table: "diverged (did not converge)", and the final relative residual
    auto* model = panel.model();
    CHECK(model->index(0, SolverSummaryModel::Status).data().toString() ==
          QStringLiteral("diverged (did not converge)"));
    // the CLI's format (%.2e) of the recomputed ||b - A x|| / ||b||
    for (int row = 0; row < 2; ++row) {
        char want[32];
        std::snprintf(want, sizeof want, "%.2e",
                      panel.runs()[row].result.final_relative_residual);
        CHECK(model->index(row, SolverSummaryModel::Residual).data().toString() ==
              QString::fromLatin1(want));
    }
    // the text: the table's number, named the same, for both runs; the solver's own number
    // (the inner residual, > 1e8) is named "iterated residual", never "relative residual"
    const QString text = panel.messageLabel()->text();
    for (int row = 0; row < 2; ++row) {
        const QString residual = model->index(row, SolverSummaryModel::Residual).data().toString();
        CHECK(text.contains(QStringLiteral("final relative residual \u2016b \u2212 A x\u2016 / "
                                           "\u2016b\u2016 = ") +
                            residual));
    }
    CHECK(text.contains(QStringLiteral("CG: diverged (did not converge) after 7 iterations")));
    CHECK(text.contains(QStringLiteral("iterated residual")));
    CHECK(text.count(QStringLiteral("relative residual")) == 2);  // the two final ones only
    // the chart: "diverged" in the legend and the title, the final residuals as diamonds at
    // the table's numbers
    QChart* chart = panel.chart();
    CHECK(chart->title().endsWith(QStringLiteral("CG, MPIR-CG did not converge")));
    auto* cg = findSeries<QLineSeries>(chart, QStringLiteral("CG: diverged"));
    REQUIRE(cg);
    CHECK(cg->points().back().y() > 1e8);
    CHECK(findSeries<QLineSeries>(chart, QStringLiteral("MPIR-CG: diverged")));
    auto* finals = findSeries<QScatterSeries>(chart, QStringLiteral("final"));
    REQUIRE(finals);
    REQUIRE(finals->count() == 2);
    CHECK(finals->at(0).x() == 7);
    CHECK(finals->at(0).y() == Approx(cgRun.result.final_relative_residual));
    CHECK(finals->at(1).x() == mpirRun.result.inner_iterations);  // at the last outer step
    CHECK(finals->at(1).y() == Approx(mpirRun.result.final_relative_residual));
    auto* log = qobject_cast<QLogValueAxis*>(chart->axes(Qt::Vertical).front());
    REQUIRE(log);
    CHECK(log->max() >= cg->points().back().y());
}

TEST_CASE("On the CPU the iteration limit starts at what fits in about a second",
          "[gui][solver]")
{
    // hand-checked: per iteration nnz + 8 rows; 8e8 of them per solve
    CHECK(cpuIterationCap(1000000, 6940000) == 53);  // pde100: 8e8 / 1.494e7 = 53.5
    CHECK(cpuIterationCap(1600, 7840) == defaultSolverMaxIterations);  // laplace2d 40x40
    CHECK(cpuIterationCap(100000000, 1000000000) == 20);  // the floor
    CHECK(cpuIterationCap(0, 0) == defaultSolverMaxIterations);

    guitest::app();
    AnalysisController controller;
    SolverPanel panel(&controller);
    if (panel.usesGpu()) {
        WARN("a CUDA device is present: no CPU cap to check");
        return;
    }
    // laplace2d 300 x 300: 90,000 rows, 5 * 90,000 - 4 * 300 = 448,800 nonzeros -> 8e8 /
    // (448,800 + 720,000) = 684
    controller.setDocument(laplaceDocument(300));
    CHECK(panel.maxIterationsBox()->value() == 684);
    CHECK(panel.iterationsCappedForCpu());
    CHECK(panel.messageLabel()->text().startsWith(
        QStringLiteral("Max iterations is 684 for this matrix on the CPU")));
    CHECK(panel.request().jobs.front().maxIterations == 684);
    // a small matrix gets the default back
    controller.setDocument(laplaceDocument(10));
    CHECK(panel.maxIterationsBox()->value() == defaultSolverMaxIterations);
    CHECK_FALSE(panel.iterationsCappedForCpu());
    // the user's own value is kept for the next matrix
    panel.maxIterationsBox()->setValue(5000);
    controller.setDocument(laplaceDocument(300));
    CHECK(panel.maxIterationsBox()->value() == 5000);
    CHECK_FALSE(panel.iterationsCappedForCpu());
}

TEST_CASE("The solver view's idle progress bar and title match its state", "[gui][solver]")
{
    guitest::app();
    AnalysisController controller;
    SolverPanel panel(&controller);
    auto* bar = panel.findChild<QProgressBar*>();
    REQUIRE(bar);
    CHECK(bar->text() == QStringLiteral("idle"));  // not "0 of 1 solves"
    CHECK(panel.chart()->title().startsWith(QStringLiteral("Open or generate")));

    controller.setDocument(laplaceDocument(4));
    CHECK(bar->text() == QStringLiteral("idle"));
    CHECK(panel.chart()->title().startsWith(QStringLiteral("Press \u201cRun\u201d")));

    panel.runSynchronously();
    CHECK(bar->text() == QStringLiteral("2 of 2 solves"));
    controller.setDocument(laplaceDocument(5));  // results dropped: idle again
    CHECK(bar->text() == QStringLiteral("idle"));
}

TEST_CASE("A solve that cannot run (non-square matrix) is a message, not a crash", "[gui][solver]")
{
    guitest::app();
    AnalysisController controller;
    SolverPanel panel(&controller);
    spmv::Csr<double, std::int32_t> a;
    a.num_rows = 2;
    a.num_cols = 3;
    a.row_ptrs = {0, 1, 2};
    a.col_idxs = {0, 2};
    a.values = {1.0, 2.0};
    controller.setDocument(
        makeDocument(std::move(a), QStringLiteral("2x3"), QStringLiteral("generated")));

    panel.runSynchronously();

    REQUIRE(panel.runs().size() == 2);
    CHECK_FALSE(panel.runs()[0].error.empty());
    CHECK(panel.messageLabel()->text().contains(QStringLiteral("CG could not run")));
    CHECK(panel.messageLabel()->text().contains(QStringLiteral("square")));
    CHECK(panel.model()
              ->index(0, SolverSummaryModel::Status)
              .data()
              .toString()
              .startsWith(QStringLiteral("error")));
    // nothing plottable: only the title, no series
    CHECK(panel.chart()->series().isEmpty());
}

TEST_CASE("Results of a replaced matrix are dropped", "[gui][solver]")
{
    guitest::app();
    AnalysisController controller;
    SolverPanel panel(&controller);
    controller.setDocument(laplaceDocument(40));
    panel.start();
    REQUIRE(panel.isRunning());

    controller.setDocument(laplaceDocument(3));  // before the first solve could report back
    CHECK_FALSE(panel.isRunning());
    CHECK(panel.runs().isEmpty());
    panel.methodBox()->setCurrentIndex(panel.methodBox()->findData(SolverPanel::CgOnly));
    QSignalSpy done(&panel, &SolverPanel::runFinished);
    panel.start();  // queued behind the stale run on the same worker
    REQUIRE(done.wait(120000));

    // only the 3x3 grid's CG: 9 unknowns, so at most 9 iterations in exact arithmetic (a few
    // more in floating point at worst); the 40x40 grid's CG needs far more
    REQUIRE(panel.runs().size() == 1);
    CHECK(panel.runs()[0].method == spmv::viz::SolverMethod::cg);
    CHECK(panel.runs()[0].result.status == spmv::solvers::Status::converged);
    CHECK(panel.runs()[0].result.iterations <= 12);
}

TEST_CASE("Jacobi-CG alone, in a permuted format, with a random right-hand side", "[gui][solver]")
{
    guitest::app();
    AnalysisController controller;
    SolverPanel panel(&controller);
    controller.setDocument(laplaceDocument(12));
    panel.methodBox()->setCurrentIndex(panel.methodBox()->findData(SolverPanel::JacobiCgOnly));
    REQUIRE(panel.formatBox()->findData(QStringLiteral("sell")) >= 0);
    panel.formatBox()->setCurrentIndex(panel.formatBox()->findData(QStringLiteral("sell")));
    panel.rhsBox()->setCurrentIndex(panel.rhsBox()->findData(static_cast<int>(RhsKind::random)));
    panel.toleranceExponentBox()->setValue(8);

    panel.runSynchronously();

    REQUIRE(panel.runs().size() == 1);
    const auto& r = panel.runs()[0];
    INFO(describeRun(r));
    CHECK(r.method == spmv::viz::SolverMethod::jacobi_cg);
    CHECK(r.result.format == "sell");
    CHECK(r.result.status == spmv::solvers::Status::converged);
    CHECK(r.result.final_relative_residual <= 1e-8);
    auto* line = findSeries<QLineSeries>(panel.chart(), QStringLiteral("Jacobi-CG"));
    REQUIRE(line);
    CHECK(line->pen().color() == QColor(0, 158, 115));  // Okabe-Ito bluish green
    CHECK(findSeries<QScatterSeries>(panel.chart(), QStringLiteral("MPIR")) == nullptr);
    auto* tol = findSeries<QLineSeries>(panel.chart(), QStringLiteral("tolerance"));
    REQUIRE(tol);
    CHECK(tol->at(0).y() == Approx(1e-8));

    // presentation mode: the chart is rebuilt with larger fonts and thicker lines
    const qreal width = line->pen().widthF();
    const qreal title = panel.chart()->titleFont().pointSizeF();
    Appearance::instance().setPresentationMode(true);
    auto* thick = findSeries<QLineSeries>(panel.chart(), QStringLiteral("Jacobi-CG"));
    REQUIRE(thick);
    CHECK(thick->pen().widthF() > width);
    CHECK(panel.chart()->titleFont().pointSizeF() > title);
    CHECK(panel.chart()->titleFont().pointSizeF() ==
          Approx(Appearance::instance().font(1.15, true).pointSizeF()));
    Appearance::instance().setPresentationMode(false);
    CHECK(findSeries<QLineSeries>(panel.chart(), QStringLiteral("Jacobi-CG"))->pen().widthF() ==
          Approx(width));
}

TEST_CASE("The random right-hand side is the CLI's", "[gui][solver]")
{
    // std::mt19937(1) through uniform_real_distribution(-1, 1), as `spmvlab solve --rhs random`
    const auto b = makeRhs(RhsKind::random, 3, 1);
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    for (double v : b) CHECK(v == d(rng));
    CHECK(makeRhs(RhsKind::ones, 4, 1) == std::vector<double>(4, 1.0));
}

TEST_CASE("A matrix that is not symmetric is named as such before the curves", "[gui][solver]")
{
    guitest::app();
    AnalysisController controller;
    SolverPanel panel(&controller);
    panel.resize(1000, 700);
    // 2 on the diagonal, 1 above it: positive diagonal, not symmetric
    spmv::Csr<double, std::int32_t> a;
    a.num_rows = a.num_cols = 6;
    a.row_ptrs = {0};
    for (int r = 0; r < 6; ++r) {
        a.col_idxs.push_back(r);
        a.values.push_back(2.0);
        if (r + 1 < 6) {
            a.col_idxs.push_back(r + 1);
            a.values.push_back(1.0);
        }
        a.row_ptrs.push_back(static_cast<std::int32_t>(a.col_idxs.size()));
    }
    controller.setDocument(makeDocument(std::move(a), QStringLiteral("upper"), {}));

    panel.runSynchronously();

    REQUIRE_FALSE(panel.runs().isEmpty());
    CHECK(panel.runs().front().not_spd == "not symmetric: a(0, 1) = 1 but a(1, 0) = 0");
    CHECK(panel.runs().front().refused);
    CHECK(panel.messageLabel()->text().contains(
        QStringLiteral("Not solved: the matrix is not symmetric: a(0, 1) = 1 but a(1, 0) = 0.")));
}
