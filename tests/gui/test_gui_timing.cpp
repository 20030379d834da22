// The timing view's worker thread: a matrix that changes during a (host) timing run drops the
// old run's rows, leaves the panel idle at once, and a new run starts and finishes.
#include <QAbstractItemModel>
#include <QSignalSpy>
#include <catch2/catch.hpp>

#include <spmv/generators.hpp>
#include <spmv/registry.hpp>

#include "app/analysiscontroller.hpp"
#include "gui_test_support.hpp"
#include "models/timingmodel.hpp"
#include "test_matrices.hpp"
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
    // (C2050, DP, alpha = 1, N_nzr = 9 / 4: 120 GB/s / ((8 + 4 + 8 + 16 / 2.25) / 2 B/flop))
    const auto& rows = panel.model()->rows();
    REQUIRE(rows.size() == static_cast<int>(spmv::formats().size()));
    for (const auto& r : rows) {
        INFO(r.variant);
        CHECK(r.error.empty());
        CHECK(r.predicted_gflops == Approx(120.0 / ((8 + 4 + 8 + 16.0 / 2.25) / 2)));
    }
}
