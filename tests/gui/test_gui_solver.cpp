// The solver view: CG and MPIR-CG on a small SPD matrix (run synchronously and on the worker
// thread), the residual chart's series, a matrix that is not SPD (breakdown message, no crash),
// stale results after the matrix changes, and the summary model.
#include <cstdlib>
#include <random>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QPen>
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

TEST_CASE("A matrix that is not SPD shows a breakdown message, not convergence", "[gui][solver]")
{
    guitest::app();
    MainWindow w(false);
    // -A of the 2-D Laplacian: symmetric negative definite, so p^T A p < 0 at once
    auto a = spmv::gen::laplace2d(8, 8);
    for (auto& v : a.values) v = -v;
    w.controller()->setDocument(
        makeDocument(std::move(a), QStringLiteral("minus laplace"), QStringLiteral("generated")));
    REQUIRE(w.waitUntilIdle(60000));
    auto* panel = w.solverPanel();

    panel->start();  // on the worker thread
    CHECK(w.isBusy());
    REQUIRE(w.waitUntilIdle(60000));

    REQUIRE(panel->runs().size() == 2);
    for (const auto& r : panel->runs()) {
        INFO(describeRun(r));
        CHECK(r.error.empty());
        CHECK(r.result.status == spmv::solvers::Status::breakdown_indefinite);
    }
    const QString text = panel->messageLabel()->text();
    CHECK(text.contains(QStringLiteral("CG: breakdown_indefinite")));
    CHECK(text.contains(QStringLiteral("not positive definite")));
    // the screen says why before the solve's own message: -A has a negative diagonal
    CHECK(text.contains(QStringLiteral("The matrix is not positive definite: the diagonal "
                                       "entry a(0, 0) = -4 is not positive")));
    CHECK_FALSE(text.contains(QStringLiteral("converged")));
    CHECK(panel->model()->index(0, SolverSummaryModel::Status).data().toString() ==
          QStringLiteral("breakdown_indefinite"));
    CHECK(w.errors().isEmpty());  // shown in the view, not reported as an application error
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
    CHECK(findSeries<QScatterSeries>(panel.chart(), QString()) == nullptr);  // no MPIR markers
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
    CHECK(panel.chart()->titleFont().pointSizeF() == Approx(title * 1.6));
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
    CHECK(panel.messageLabel()->text().contains(
        QStringLiteral("The matrix is not symmetric: a(0, 1) = 1 but a(1, 0) = 0.")));
}
