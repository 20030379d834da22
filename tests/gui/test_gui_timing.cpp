// The timing view's worker thread: a matrix that changes during a (host) timing run drops the
// old run's rows, leaves the panel idle at once, and a new run starts and finishes.
#include <QAbstractItemModel>
#include <QSignalSpy>
#include <catch2/catch.hpp>

#include <spmv/generators.hpp>
#include <spmv/registry.hpp>

#include <QApplication>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QChartView>

#include <spmv/gpu/variants.hpp>
#include <spmv/model/format_model.hpp>

#include "app/textaudit.hpp"
#include "gui_test_support.hpp"
#include "models/timingmodel.hpp"
#include "session/analysiscontroller.hpp"
#include "test_matrices.hpp"
#include "widgets/appearance.hpp"
#include "widgets/timingpanel.hpp"

TEST_CASE("A matrix changed during a timing run leaves the timing view idle and ready",
          "[gui][timing]")
{
    guitest::app();
    AnalysisController controller;
    TimingPanel panel(&controller);
    if (panel.gpuAvailable()) {
        WARN("a CUDA device is present: the host timing run is not exercised");
        return;
    }
    REQUIRE(panel.selectProfile(QStringLiteral("C2050")));
    // 90,000 rows: every format is timed for at least 60 ms, more than a second in all
    controller.setDocument(makeDocument(spmv::gen::laplace2d(300, 300),
                                        QStringLiteral("laplace2d 300x300"),
                                        QStringLiteral("generated")));
    QSignalSpy rowsIn(panel.model(), &QAbstractItemModel::rowsInserted);
    panel.start();
    REQUIRE(panel.isRunning());
    REQUIRE(rowsIn.wait(60000));  // the run is under way: its first row is in
    REQUIRE(panel.model()->rows().size() < static_cast<int>(spmv::formats().size()));

    controller.setDocument(makeDocument(spmv::test::canonical4(), QStringLiteral("canonical 4x4"),
                                        QStringLiteral("generated")));

    CHECK_FALSE(panel.isRunning());
    CHECK(panel.model()->rows().isEmpty());
    QSignalSpy done(&panel, &TimingPanel::runFinished);
    panel.start();  // queued behind the cancelled run on the same worker thread
    REQUIRE(panel.isRunning());
    REQUIRE(done.wait(120000));
    CHECK_FALSE(panel.isRunning());
    // only the new matrix's rows: one per format, each with the canonical 4x4's prediction
    // (C2050, DP, alpha = 1/N_nzr, the box's default, N_nzr = 9 / 4:
    // 120 GB/s / ((8 + 4 + 8 / 2.25 + 16 / 2.25) / 2 B/flop))
    const auto& rows = panel.model()->rows();
    REQUIRE(rows.size() == static_cast<int>(spmv::formats().size()));
    for (const auto& r : rows) {
        INFO(r.variant);
        CHECK(r.error.empty());
        CHECK(r.predicted_gflops == Approx(120.0 / ((8 + 4 + 8 / 2.25 + 16.0 / 2.25) / 2)));
    }
}

TEST_CASE("The timing chart names all GPU variants in full at 1280x720 and in presentation mode",
          "[gui][timing][audit]")
{
    // the H100 run of the Timing view (docs/benchmarks/gui_timing_2026-11-25) showed
    // "csr_vec..." and "cusparse..." under 27 bars: the rows of such a run, then the audit
    guitest::app();
    AnalysisController controller;
    TimingPanel panel(&controller);
    panel.resize(1280, 640);
    panel.show();  // rows stream in while the table is on screen, as in a real run
    for (const auto& v : spmv::gpu::kernel_variants()) {
        TimingRow row;
        row.variant = std::string(v.name);
        row.format = std::string(v.format);
        row.precision = "double";
        row.device = "NVIDIA H100 80GB HBM3";
        row.gpu = true;
        row.baseline = v.baseline;
        row.median_ms = 0.1;
        row.gflops = 100.0;
        row.predicted_gflops = 288.0;
        if (spmv::model::find_modelled_variant(row.variant)) {  // the format model's marker
            row.model_profile = "H100";
            row.model_gflops = 80.0 + 4.0 * static_cast<double>(panel.model()->rows().size());
            row.model_s = 2.0 * 5000 / (row.model_gflops * 1e9);  // 100 GF/s in 0.1 ms: 5000 nnz
            row.model_bound = "DRAM bandwidth";
            row.measured_over_model = row.median_ms * 1e-3 / row.model_s;
        }
        panel.model()->appendRow(row);
        QApplication::processEvents();
    }
    REQUIRE(panel.model()->rows().size() >= 25);
    for (const bool presentation : {false, true}) {
        Appearance::instance().setPresentationMode(presentation);
        REQUIRE(panel.selectProfile(QStringLiteral("H200")));  // a new profile rebuilds the chart
        REQUIRE(panel.selectProfile(QStringLiteral("H100")));
        panel.resize(presentation ? QSize(1920, 1000) : QSize(1280, 640));
        panel.show();
        QApplication::processEvents();
        resetElisions();
        guitest::render(panel).save(QStringLiteral(SPMV_GUI_TEST_DIR "/timing_gpu_rows_%1.png")
                                        .arg(presentation ? "f5" : "normal"));
        const QStringList cut = auditText(&panel);
        // the chart holds every variant (a placeholder title would pass the audit trivially)
        auto* view = panel.findChild<QChartView*>();
        REQUIRE(view);
        REQUIRE(view->chart()->axes(Qt::Horizontal).size() == 1);
        CHECK(static_cast<QBarCategoryAxis*>(view->chart()->axes(Qt::Horizontal).front())->count() ==
              panel.model()->rows().size());
        INFO((presentation ? "presentation: " : "normal: ") + cut.join("; ").toStdString());
        CHECK(cut.isEmpty());
    }
    Appearance::instance().setPresentationMode(false);
}
