#pragma once
// The solver view: solves A x = b for the loaded matrix by CG, Jacobi-CG and/or
// mixed-precision iterative refinement CG (MPIR-CG) in a chosen storage format, on the CUDA
// device when there is one and with the host reference backend otherwise (the view says
// which), and plots the relative residual of every iteration on a log scale, with MPIR-CG's
// outer refinement steps as markers, the tolerance as a dashed line and every run's final
// relative residual ||b - A x|| / ||b|| (the table's number) as a diamond. Below the chart: one
// summary row per solve (status, iterations, final residual, time per phase).
//
// Honest about what a run is: a matrix that is certainly not SPD (not symmetric, or a diagonal
// entry <= 0) is not solved unless "Run CG anyway" is ticked (the view then says why, in the
// text, the chart's title and the table); a run that did not converge (diverged, broke down,
// hit the iteration cap, stagnated) says so in the table, the legend and the chart's title.
// On the CPU (host reference, one thread) the iteration limit starts at cpuIterationCap for
// the matrix (about a second per solve; the view says so), never above 10000: a 1M-row
// Laplacian would take 20-40 s per solve to converge there. The user's own value is kept.
//
// The solves run on one dedicated QThread (SolverWorker in a BackgroundJob); results of a
// matrix that was replaced meanwhile are dropped (generation counter). Failures (a matrix that is
// not SPD, NotCompiled, a format without a GPU kernel, ...) are shown as a message, never thrown.
// The point lists, marker positions and axis ranges come from spmv::viz (solver_chart.hpp).
#include <QList>
#include <QPointer>
#include <QWidget>

#include <spmv/viz/units.hpp>

#include "runcontrols.hpp"
#include "session/backgroundjob.hpp"
#include "session/matrixdocument.hpp"
#include "session/solverworker.hpp"

class AnalysisController;
class QChart;
class QChartView;
class QCheckBox;
class QComboBox;
class QLabel;
class QLogValueAxis;
class QSpinBox;
class QTableView;
class SolverSummaryModel;

class SolverPanel : public QWidget {
    Q_OBJECT
public:
    /// Entries of the method box (its item data).
    enum MethodChoice { CgAndMpir = 0, CgOnly, JacobiCgOnly, MpirOnly, AllThree };

    explicit SolverPanel(AnalysisController* controller, QWidget* parent = nullptr);
    ~SolverPanel() override;

    bool isRunning() const { return m_job.isRunning(); }
    bool usesGpu() const { return m_gpu; }
    /// The request the current controls describe (no document: empty jobs).
    SolverRequest request() const;
    const QList<SolverRun>& runs() const;

    QLabel* deviceLabel() const { return m_device; }
    QLabel* messageLabel() const { return m_message; }
    QComboBox* methodBox() const { return m_method; }
    QComboBox* formatBox() const { return m_format; }
    QComboBox* rhsBox() const { return m_rhs; }
    QSpinBox* toleranceExponentBox() const { return m_tolExponent; }
    QSpinBox* maxIterationsBox() const { return m_maxIterations; }
    /// "Run CG anyway": solve a matrix that the SPD screen rejects.
    QCheckBox* runAnywayBox() const { return m_runAnyway; }
    /// The CPU's iteration cap applies to the shown limit (no GPU, not changed by the user,
    /// below the default 10000).
    bool iterationsCappedForCpu() const;
    QChart* chart() const;
    SolverSummaryModel* model() const { return m_model; }

public slots:
    /// Starts the solves on the worker thread (no-op while running or without a matrix).
    void start();
    /// The running solve finishes, the remaining ones are skipped.
    void cancel();
    /// Runs the same solves on the calling thread and shows them (tests, scripted use).
    void runSynchronously();

signals:
    void runRequested(const SolverRequest& request, quint64 generation);
    void statusMessage(const QString& text);
    void runFinished();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    double logBase() const;
    void onStarted(int total, quint64 generation);
    void onProgress(int done, int total, const QString& current, quint64 generation);
    void onRun(const SolverRun& run, quint64 generation);
    void onFinished(bool cancelled, quint64 generation);
    void beginRun();
    /// The progress bar after `done` solves: "done of total solves", or what was refused.
    void showSolvesDone(int done);
    void updateMessage(bool cancelled);
    void rebuildChart();
    void applyCpuCap();
    QString capNote() const;
    QString idleTitle() const;

    AnalysisController* m_controller;
    BackgroundJob<SolverWorker> m_job{QStringLiteral("solver")};
    bool m_gpu = false;
    double m_shownTol = 1e-10;          ///< tolerance of the shown runs
    QPointer<QLogValueAxis> m_logAxis;  ///< y axis of the shown chart (null when empty)
    spmv::viz::Decades m_logRange;

    QLabel* m_device;
    QComboBox* m_method;
    QComboBox* m_format;
    QSpinBox* m_tolExponent;
    QSpinBox* m_maxIterations;
    bool m_iterationsEdited = false;  ///< the user set Max iterations: keep it
    QComboBox* m_rhs;
    QCheckBox* m_runAnyway;
    RunControls m_run;
    QLabel* m_message;
    QChartView* m_chartView;
    QTableView* m_table;
    SolverSummaryModel* m_model;
};
