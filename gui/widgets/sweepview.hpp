#pragma once
// Parameter sweeps as a chart: padding share, N_iter (warp-level loop trips, Kreutzer's
// measure) (spmv::analysis::sweep, computed from the row lengths without building the formats)
// and the predicted time of one SpMV against σ or C of SELL-C-σ, b_r of pJDS or K of HYB. The
// predicted time is the per-format fitted model of the format's GPU kernel
// (spmv::model::predict_sweep, the same call the Advisor, Timing view, `spmvlab recommend` and
// `spmvlab model --format` make), drawn with its traffic bound (the kernel's DRAM bytes /
// B_GPU, a lower bound the prediction never crosses); a prediction, not a measurement, and the
// view says so. The current value of the parameter is marked on the curve, and a compact table
// below lists every point.
// The sweep runs on a worker thread (QtConcurrent); results of a superseded request (another
// matrix, parameter, precision or profile meanwhile) are dropped.
#include <atomic>
#include <memory>

#include <QWidget>

#include <spmv/analysis/sweep.hpp>
#include <spmv/model/format_model.hpp>
#include <spmv/model/performance.hpp>
#include <spmv/registry.hpp>

#include "session/matrixdocument.hpp"

class QChartView;
class QComboBox;
class QLabel;
class QLineSeries;
class QSplitter;
class QStackedWidget;
class QTableWidget;

class SweepView : public QWidget {
    Q_OBJECT
public:
    /// What the chart shows; All puts the three charts side by side.
    enum class Quantity { PaddingShare, Iterations, PredictedTime, All };

    explicit SweepView(QWidget* parent = nullptr);
    ~SweepView() override;

    void setDocument(MatrixDocumentPtr document);
    /// The parameters of every format (the parameter bar's); the swept one varies, the others
    /// stay as given, and the given value of the swept one is marked as "current".
    void setParams(const spmv::FormatParams& params);
    const spmv::FormatParams& params() const { return m_params; }

    /// σ (Param::sort_window) or C (slice_height) of SELL-C-σ, b_r (block_rows) of pJDS, K
    /// (hyb_width) of HYB. Returns false (and changes nothing) for any other parameter.
    bool setSweptParameter(spmv::Param param);
    spmv::Param sweptParameter() const;
    void setQuantity(Quantity quantity);
    Quantity quantity() const;
    void setPrecision(spmv::model::Precision precision);
    spmv::model::Precision precision() const;
    /// Picks a built-in GPU profile by name (case ignored); false if there is none.
    bool selectProfile(const QString& name);
    /// The GPU profile box (for linking with the other views' profile boxes).
    QComboBox* profileBox() const { return m_profile; }

    /// A sweep was requested and its result is not shown yet.
    bool isComputing() const { return m_computing; }
    /// The matrix shown (nullptr: none).
    const MatrixDocumentPtr& document() const { return m_document; }
    /// The sweep shown (null when the view shows a message instead: no matrix, an empty
    /// matrix, an error).
    std::shared_ptr<const spmv::analysis::SweepResult> result() const { return m_result; }
    /// The per-format model at every point of result() (same order; null with no result).
    std::shared_ptr<const std::vector<spmv::model::SweepPrediction>> modelPoints() const
    {
        return m_modelPoints;
    }
    /// The message shown instead of the chart (empty while a chart is shown).
    QString message() const;
    /// The line series of `q` (PaddingShare, Iterations or PredictedTime) in the chart shown,
    /// or nullptr when that quantity is not on screen. Padding share is in percent, N_iter as
    /// is, the time (the per-format fitted model) in timeUnitSeconds() units.
    QLineSeries* series(Quantity q) const;
    /// The traffic-bound line beside the predicted time (timeUnitSeconds() units), or nullptr.
    QLineSeries* trafficSeries() const;
    /// Seconds per unit of the time axis (1e-6 when it reads in µs).
    double timeUnitSeconds() const { return m_timeUnit; }
    QTableWidget* table() const { return m_table; }

signals:
    /// A requested sweep is shown (or replaced by a message).
    void finished();
    /// The sweep failed; the view shows the message too.
    void errorOccurred(const QString& message);

private:
    void recompute();
    void showResult();
    void showMessage(const QString& text);
    void fillTable();
    QChartView* makeChartView();
    void buildChart(QChartView* view, Quantity q, bool compact);
    QString pointText(int index) const;

    MatrixDocumentPtr m_document;
    spmv::FormatParams m_params;
    std::shared_ptr<const spmv::analysis::SweepResult> m_result;
    std::shared_ptr<const std::vector<spmv::model::SweepPrediction>> m_modelPoints;
    quint64 m_generation = 0;
    /// The latest generation, shared with the queued jobs so that a superseded one skips its
    /// work when the thread reaches it.
    std::shared_ptr<std::atomic<quint64>> m_latest;
    bool m_computing = false;
    double m_timeUnit = 1.0;

    QComboBox* m_param;
    QComboBox* m_quantity;
    QComboBox* m_precision;
    QComboBox* m_profile;
    QLabel* m_note;
    QStackedWidget* m_stack;
    QLabel* m_message;
    QSplitter* m_splitter;
    QChartView* m_views[3];
    QTableWidget* m_table;
};
