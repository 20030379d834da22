#pragma once
// The SpMV Lab explorer window: one tab per view (matrix statistics, sparsity pattern,
// row-length histogram, format construction, per-warp waste, memory per format, timing, model,
// the format advisor, solver residual histories, distribution over ranks),
// File menu (open, samples, generate, export PNG / SVG), presentation mode, drag and drop.
#include <QMainWindow>
#include <QStringList>

#include "lessons.hpp"
#include "session/analysiscontroller.hpp"

class QCheckBox;
class QDockWidget;
class QTextBrowser;
class QComboBox;
class QLabel;
class QProgressBar;
class QTabWidget;
class QTimer;
class QTableView;
class AdvisorView;
class CoalescingView;
class ConstructionPanel;
class DistributionPanel;
class MatrixStatsModel;
class MemoryView;
class ModelPanel;
class RowHistogramView;
class SolverPanel;
class SparsityView;
class SweepView;
class TimingPanel;
class WarpWastePanel;
class WarpTimelineView;

class ParameterBar;
class ReorderView;
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    /// interactive = false: errors go to lastError() and the status bar, never a message box
    /// (screenshot mode and tests).
    explicit MainWindow(bool interactive = true, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// View names for --view, in tab order: matrix pattern reorder histogram construction waste
    /// coalescing memory sweep timing model advisor solver distribution warps.
    static QStringList viewNames();
    /// Shows the named view; false for an unknown name.
    bool setCurrentView(const QString& name);
    QString currentViewName() const;
    QWidget* viewPage(const QString& name) const;
    /// What File > Export writes for view `name`: the pattern, histogram and construction
    /// without their controls (the construction at full extent, also the part scrolled out of
    /// view); the whole page for the others.
    /// The glossary (spmv::viz::glossary) as HTML, as Help > Glossary shows it.
    static QString glossaryHtml();
    void showGlossary();
    QWidget* viewContent(const QString& name) const;

    /// Shows `format` in view `name` (the construction's, the left waste side's, the solver's
    /// format, the pattern's row order); false when the view has no such format.
    bool selectFormat(const QString& name, const QString& format);
    /// Opens the lesson (Lessons menu): its matrix, view, format and parameters, with its text
    /// in the lesson dock. False (and an error) for a lesson that cannot be opened.
    bool openLesson(const Lesson& lesson);
    const QList<Lesson>& lessons() const { return m_lessons; }
    /// The lesson dock's text browser (hidden until a lesson is opened).
    QTextBrowser* lessonText() const { return m_lessonText; }
    QDockWidget* lessonDock() const { return m_lessonDock; }

    AnalysisController* controller() const { return m_controller; }
    SparsityView* sparsityView() const { return m_sparsity; }
    RowHistogramView* histogramView() const { return m_histogram; }
    QCheckBox* logLengthsBox() const { return m_logLengths; }
    ParameterBar* parameterBar() const { return m_parameters; }
    ConstructionPanel* constructionPanel() const { return m_construction; }
    WarpWastePanel* wastePanel() const { return m_waste; }
    MemoryView* memoryView() const { return m_memory; }
    TimingPanel* timingPanel() const { return m_timing; }
    CoalescingView* coalescingView() const { return m_coalescing; }
    SweepView* sweepView() const { return m_sweep; }
    ReorderView* reorderView() const { return m_reorder; }
    ModelPanel* modelPanel() const { return m_model; }
    AdvisorView* advisorView() const { return m_advisor; }
    SolverPanel* solverPanel() const { return m_solver; }
    DistributionPanel* distributionPanel() const { return m_distribution; }
    WarpTimelineView* warpTimelineView() const { return m_warpTimeline; }  ///< "warps" (issue 34)
    MatrixStatsModel* statsModel() const { return m_statsModel; }
    QComboBox* rowOrderBox() const { return m_rowOrder; }
    QComboBox* patternColourBox() const { return m_patternColour; }
    QCheckBox* patternMarginsBox() const { return m_patternMargins; }
    QCheckBox* logScaleBox() const { return m_logScale; }

    /// True while an analysis, a raster, a timing run or a solve is in progress.
    bool isBusy() const;
    /// Processes events until nothing is busy (or timeoutMs passed); false on timeout.
    bool waitUntilIdle(int timeoutMs = 120000);
    /// Errors since the last clearErrors() (all of them, newest last).
    const QStringList& errors() const { return m_errors; }
    void clearErrors() { m_errors.clear(); }

    /// Exports a widget (e.g. the current view) to PNG or SVG, chosen by the file suffix.
    static bool exportWidget(QWidget* widget, const QString& path, QString* error = nullptr);

public slots:
    void openFile(const QString& path);
    void openBuiltInExample();
    void showGenerateDialog();
    void exportCurrentView(const QString& format);
    void setPresentationMode(bool on);

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildMenus();
    /// The tab bar along the top when every title fits, else down the left side.
    void placeTabs();
    void reportError(const QString& message);
    void updateTitle();
    /// Enables the buttons that start work on the matrix (Play, Time, Run) or, without a
    /// matrix, disables them with a tooltip saying why; a running panel is left alone.
    void setRunnable(bool on);
    /// Gives the shown on-demand view (Reorder, Coalescing, Sweep, Advisor) the current matrix.
    void feedShownView();

    bool m_interactive;
    AnalysisController* m_controller;
    QTabWidget* m_tabs;
    QTableView* m_statsTable;
    MatrixStatsModel* m_statsModel;
    SparsityView* m_sparsity;
    QComboBox* m_rowOrder;
    CoalescingView* m_coalescing;
    SweepView* m_sweep;
    ReorderView* m_reorder;
    QList<Lesson> m_lessons;
    QDockWidget* m_lessonDock = nullptr;
    QTextBrowser* m_lessonText = nullptr;
    QComboBox* m_patternColour;
    QCheckBox* m_patternMargins;
    RowHistogramView* m_histogram;
    QCheckBox* m_logScale;
    QCheckBox* m_logLengths;
    ParameterBar* m_parameters;
    ConstructionPanel* m_construction;
    WarpWastePanel* m_waste;
    MemoryView* m_memory;
    TimingPanel* m_timing;
    ModelPanel* m_model;
    AdvisorView* m_advisor;
    SolverPanel* m_solver;
    DistributionPanel* m_distribution;
    WarpTimelineView* m_warpTimeline;
    QLabel* m_busyLabel;
    QProgressBar* m_busyBar;
    QStringList m_errors;
    QTimer* m_presentationResize = nullptr;  ///< F5's sizes follow a resized window
};
