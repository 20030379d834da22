// The Timing view's logarithmic GFLOP/s axis never gets a zero: a CPU run against a GPU
// profile's predictions (two decades apart: the log axis) with a variant that did not run
// (0 GFLOP/s, as an out-of-memory GPU variant reports) is built, laid out and painted without
// Qt Charts' "Logarithms of zero and negative values are undefined." (issue 35). The Qt
// messages are captured with qInstallMessageHandler while the view is built.
#include <QApplication>
#include <QSignalSpy>
#include <QStringList>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChartView>
#include <QtCharts/QLogValueAxis>
#include <catch2/catch.hpp>

#include <spmv/registry.hpp>

#include "gui_test_support.hpp"
#include "models/timingmodel.hpp"
#include "session/analysiscontroller.hpp"
#include "test_matrices.hpp"
#include "widgets/timingpanel.hpp"

namespace {

QStringList* g_messages = nullptr;

void captureMessage(QtMsgType, const QMessageLogContext&, const QString& text)
{
    if (g_messages) g_messages->append(text);
}

/// Every Qt message while it lives (restoring the previous handler after).
class MessageCapture {
public:
    MessageCapture()
    {
        g_messages = &m_messages;
        m_previous = qInstallMessageHandler(captureMessage);
    }
    ~MessageCapture()
    {
        qInstallMessageHandler(m_previous);
        g_messages = nullptr;
    }
    MessageCapture(const MessageCapture&) = delete;
    MessageCapture& operator=(const MessageCapture&) = delete;

    QStringList containing(const QString& what) const
    {
        return m_messages.filter(what);
    }

private:
    QStringList m_messages;
    QtMessageHandler m_previous = nullptr;
};

}  // namespace

TEST_CASE("The timing chart's log axis shows a variant that did not run without a Qt warning",
          "[gui][timing]")
{
    guitest::app();
    MessageCapture messages;
    AnalysisController controller;
    TimingPanel panel(&controller);
    panel.resize(1280, 640);
    panel.show();
    REQUIRE(panel.selectProfile(QStringLiteral("H100")));
    if (panel.gpuAvailable()) {
        WARN("a CUDA device is present: the host timing run is not exercised; rows are added");
    } else {  // the real run on a matrix: one thread's CPU SpMV against H100's predictions
        controller.setDocument(makeDocument(spmv::test::random_csr(300, 300, 1, 12, 5),
                                            QStringLiteral("random 300"),
                                            QStringLiteral("test")));
        QSignalSpy done(&panel, &TimingPanel::runFinished);
        panel.start();
        REQUIRE(done.wait(120000));
        REQUIRE(panel.model()->rows().size() == static_cast<int>(spmv::formats().size()));
    }
    // a variant that did not run, as the GPU worker reports it (gflops 0, the reason in error),
    // beside measured rows far below the model's predictions
    for (const double gflops : {0.0, 1.5, 2.5}) {
        TimingRow row;
        row.variant = gflops > 0 ? "measured_" + std::to_string(static_cast<int>(gflops * 10))
                                 : std::string("failed_variant");
        row.format = "ell";
        row.precision = "double";
        row.device = "test";
        row.median_ms = gflops > 0 ? 0.01 : 0.0;
        row.gflops = gflops;
        row.model_profile = "H100";
        row.model_gflops = 400.0;
        row.model_s = 2.0 * 5000 / (row.model_gflops * 1e9);
        if (gflops == 0) row.error = "out of memory";
        panel.model()->appendRow(row);
    }
    REQUIRE(panel.selectProfile(QStringLiteral("H200")));  // a new profile rebuilds the chart
    REQUIRE(panel.selectProfile(QStringLiteral("H100")));
    QApplication::processEvents();
    guitest::render(panel);  // laid out and painted, as on screen

    auto* view = panel.findChild<QChartView*>();
    REQUIRE(view);
    auto* log = qobject_cast<QLogValueAxis*>(view->chart()->axes(Qt::Vertical).value(0));
    REQUIRE(log);  // 1.5 against 400 GFLOP/s: more than 30 x apart, the log axis
    CHECK(log->min() > 0);
    QBarSet* bars = nullptr;
    for (auto* s : view->chart()->series()) {
        if (auto* b = qobject_cast<QBarSeries*>(s); b && b->count() == 1) bars = b->barSets()[0];
    }
    REQUIRE(bars);
    const auto rows = static_cast<int>(panel.model()->rows().size());
    REQUIRE(bars->count() == rows);
    // the failed variant's bar sits on the axis' floor (no height); the measured ones keep
    // their values
    CHECK(bars->at(rows - 3) == Approx(log->min()));
    CHECK(bars->at(rows - 2) == Approx(1.5));
    CHECK(bars->at(rows - 1) == Approx(2.5));
    for (int i = 0; i < bars->count(); ++i) {
        INFO("bar " << i);
        CHECK(bars->at(i) > 0);
    }
    const QStringList zero = messages.containing(QStringLiteral("Logarithms of zero"));
    INFO(zero.join(QLatin1Char('\n')).toStdString());
    CHECK(zero.isEmpty());
}
