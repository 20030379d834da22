#pragma once
// Live timing of every variant next to the performance model: on a CUDA device every GPU kernel
// variant and the cuSPARSE baselines (spmv::gpu::bench); without one, the view says so and
// times the CPU reference SpMV of every format, with the model's prediction for a chosen GPU
// profile. The work runs on one dedicated QThread (BackgroundJob); rows stream in; Cancel
// stops after the running variant; a new matrix drops the running run's results.
#include <QWidget>

#include "runcontrols.hpp"
#include "session/backgroundjob.hpp"
#include "session/matrixdocument.hpp"
#include "session/timingworker.hpp"

class AnalysisController;
class QChartView;
class ChartLegend;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTableView;
class TimingModel;

class TimingPanel : public QWidget {
    Q_OBJECT
public:
    explicit TimingPanel(AnalysisController* controller, QWidget* parent = nullptr);
    ~TimingPanel() override;

    bool isRunning() const { return m_job.isRunning(); }
    bool gpuAvailable() const { return m_gpu; }
    TimingModel* model() const { return m_model; }
    QLabel* deviceLabel() const { return m_device; }
    /// Select a GPU profile for the prediction by name (e.g. "H100"); false if unknown.
    bool selectProfile(const QString& name);
    /// Select the precision of the next run: "double" or "single" (also "dp" / "sp"); false
    /// if unknown.
    bool selectPrecision(const QString& name);
    /// The finished rows as a JSON record (device, matrix, commit, date and every row's
    /// median, GF/s and GB/s), so that a run of the view can be compared with `spmvlab bench`.
    QByteArray recordJson(const QString& matrixName, const QString& commit) const;
    /// The GPU profile box (MainWindow links the Model's and the Timing's).
    QComboBox* profileBox() const { return m_profile; }
    /// The precision box, "double" / "single" (MainWindow links the Advisor's with it).
    QComboBox* precisionBox() const { return m_precision; }
    /// The chart's title while no row is shown (tests): what pressing the button would do,
    /// or, when it is disabled, why.
    QString idleTitle() const;
    QPushButton* startButton() const { return m_run.startButton(); }

public slots:
    void start();
    void cancel();

signals:
    void runRequested(const TimingRequest& request, quint64 generation);
    void statusMessage(const QString& text);
    void runFinished();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuildChart();
    spmv::model::GpuProfile currentProfile() const;

    AnalysisController* m_controller;
    BackgroundJob<TimingWorker> m_job{QStringLiteral("timing")};
    bool m_gpu = false;

    QLabel* m_device;
    QComboBox* m_precision;
    QComboBox* m_profile;
    QDoubleSpinBox* m_alpha;
    double m_runAlpha = 0.0;  ///< the alpha of the run shown (clamped to >= 1/N_nzr)
    RunControls m_run;
    QTableView* m_table;
    QChartView* m_chartView;
    ChartLegend* m_legend;
    TimingModel* m_model;
};
