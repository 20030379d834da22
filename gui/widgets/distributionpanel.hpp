#pragma once
// The Distribution view: the loaded matrix spread over P ranks as `spmvlab dist plan` computes
// it, in one process without MPI. Panels: (1) the pattern coloured by owning rank with the
// local / non-local entries and the rank boundaries, (2) the rank x rank communication matrix
// (heat map and table), (3) the per-rank balance, (4) the timelines of the four modes, from
// a recorded JSON file (spmvlab dist bench --timeline) or else the model's prediction,
// labelled PREDICTED, and (5) the predicted strong-scaling curve. At a desk the five panels
// sit side by side; in presentation mode each is a page of its own (tabs 1-5), large enough
// for text a lecture hall reads, and the timelines draw as many modes as fit so (Modes picks).
//
// The partition, its statistics and the model (make_partition, partition_stats,
// predict_distributed, predicted_timeline) run off the GUI thread, as does the scaling study
// (predict_scaling), each with a generation counter that drops stale results; both start only
// while the view is shown.
#include <memory>
#include <vector>

#include <QFuture>
#include <QList>
#include <QTimer>
#include <QWidget>

#include <spmv/dist/model.hpp>

#include "distributionviews.hpp"
#include "session/matrixdocument.hpp"

class QChartView;
class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableView;
class CommMatrixModel;

/// What one plan job computes for the chosen ranks, partition, device, link and precision.
struct DistributionPlan {
    PartitionPtr partition;
    PartitionStatsPtr stats;
    spmv::dist::DistPrediction prediction;
    std::vector<spmv::dist::Timeline> predicted;  ///< the four modes (all_modes), predicted = true
};
using DistributionPlanPtr = std::shared_ptr<const DistributionPlan>;
using ScalingResultPtr = std::shared_ptr<const spmv::dist::ScalingResult>;

class DistributionPanel : public QWidget {
    Q_OBJECT
public:
    explicit DistributionPanel(QWidget* parent = nullptr);
    ~DistributionPanel() override;

    void setDocument(MatrixDocumentPtr document);
    MatrixDocumentPtr document() const { return m_document; }

    /// Reads a timeline JSON file (spmv::dist::timelines_from_json) and shows it instead of the
    /// prediction. On failure the view keeps what it showed, says why, and *error gets the
    /// message ("FILE: timeline 0, event 3: ...").
    bool loadTimeline(const QString& path, QString* error = nullptr);
    /// Back to the model's predicted timelines.
    void clearTimeline();
    bool hasLoadedTimeline() const { return !m_loaded.empty(); }
    /// True while the timeline panel shows the model's prediction (no file loaded).
    bool showsPredictedTimeline() const { return m_loaded.empty(); }

    /// Selects by name: partition "rows" / "nnz" / "metis", link "ib-hdr", ..., device "H100"
    /// (a GPU profile) or "cpu-core" (a host profile); false for an unknown or disabled one.
    bool selectPartition(const QString& name);
    bool selectLink(const QString& name);
    bool selectDevice(const QString& name);

    /// True while a job runs or is about to start, or the pattern is being drawn.
    bool isBusy() const;

    DistributionPlanPtr plan() const { return m_plan; }
    ScalingResultPtr scaling() const { return m_scaling; }

    QSpinBox* ranksBox() const { return m_ranks; }
    QComboBox* partitionBox() const { return m_partition; }
    QComboBox* linkBox() const { return m_link; }
    QComboBox* deviceBox() const { return m_device; }
    QComboBox* precisionBox() const { return m_precision; }
    QComboBox* timelineRanksBox() const { return m_timelineRanks; }
    /// The modes drawn in the timelines: all four (-1) or one (its spmv::dist::Mode as data).
    QComboBox* timelineModesBox() const { return m_timelineModes; }
    /// The five panels (pattern, communication, balance, timelines, scaling): side by side,
    /// or in presentation mode one a page of this tab widget.
    QTabWidget* panelPages() const { return m_pages; }
    QPushButton* loadTimelineButton() const { return m_loadButton; }
    /// The line above the timelines: "PREDICTED by the model ..." or the loaded file.
    QLabel* timelineSourceLabel() const { return m_timelineSource; }
    QLabel* summaryLabel() const { return m_summary; }
    RankPatternView* patternView() const { return m_pattern; }
    CommMatrixView* commView() const { return m_comm; }
    CommMatrixModel* commModel() const { return m_commModel; }
    BalanceView* balanceView() const { return m_balance; }
    TimelineView* timelineView() const { return m_timeline; }
    QChartView* scalingView() const { return m_scalingView; }

signals:
    void statusMessage(const QString& text);
    /// A plan or a scaling result arrived (or failed), for tests and the window.
    void planFinished();
    void scalingFinished();

protected:
    void showEvent(QShowEvent* event) override;

private:
    enum Dirty { nothing = 0, planDue = 1, scalingDue = 2 };
    void inputsChanged(int what);
    void startDueJobs();
    void startPlan();
    void startScaling();
    void showPlan(DistributionPlanPtr plan);
    void showPlanError(const QString& message);
    void showScaling();
    void updateTimelines();
    spmv::dist::RankDevice currentDevice() const;
    spmv::dist::ModelOptions currentOptions() const;
    spmv::dist::PartitionKind currentKind() const;
    QString deviceLabel() const;
    void chooseTimelineFile();
    /// The five panels side by side, or one a page in presentation mode.
    void arrangePanels();

    MatrixDocumentPtr m_document;
    DistributionPlanPtr m_plan;
    ScalingResultPtr m_scaling;
    QString m_scalingError;
    std::vector<spmv::dist::Timeline> m_loaded;
    QString m_loadedPath;

    int m_dirty = nothing;
    QTimer m_startDelay;
    quint64 m_planGeneration = 0;
    quint64 m_scalingGeneration = 0;
    int m_planPending = 0;
    int m_scalingPending = 0;
    std::vector<QFuture<void>> m_futures;

    QSpinBox* m_ranks;
    QComboBox* m_partition;
    QComboBox* m_link;
    QComboBox* m_device;
    QComboBox* m_precision;
    QComboBox* m_timelineRanks;
    QComboBox* m_timelineModes;
    QList<QWidget*> m_panels;  ///< the five titled panels
    class QSplitter* m_lower = nullptr;
    class QSplitter* m_left = nullptr;
    class QSplitter* m_right = nullptr;
    class QSplitter* m_columns = nullptr;
    QTabWidget* m_pages = nullptr;
    bool m_arranged = false;  ///< arrangePanels() placed the panels once
    bool m_paged = false;     ///< ... as pages (presentation mode)
    QPushButton* m_loadButton;
    QPushButton* m_clearButton;
    QLabel* m_summary;
    QLabel* m_timelineSource;
    RankPatternView* m_pattern;
    CommMatrixView* m_comm;
    CommMatrixModel* m_commModel;
    QTableView* m_commTable;
    QTabWidget* m_commTabs;
    BalanceView* m_balance;
    TimelineView* m_timeline;
    QChartView* m_scalingView;
};
