#pragma once
// The Advisor view: every GPU kernel variant of the project ranked for the loaded matrix by the
// format model's predicted time (spmv::model::advise), in a table (rank, variant, format,
// predicted µs, GFLOP/s, what bounds it, estimated setup, setup + N SpMVs), with the reasons,
// the time's terms and the nearest library kernel of the selected row in a panel below.
// Variants that cannot serve the matrix (infeasible, or a layout over the memory limit) are
// listed last, greyed, with why not. The times are PREDICTIONS for the GPU profile chosen (the
// Timing's, Model's and Sweep's profile), with L2 flushed before every SpMV: the view says so
// above the table. The layouts use the shared parameters (the parameter bar's b_r, C, σ, K,
// pitch, diagonal padding: setParams, kept up to date by MainWindow), and the note above the
// table says which; only the warp is always the GPU's 32 (the bar's warp of 4 is the
// blackboard's).
//
// Computed when the view is shown (MainWindow::feedShownView), on a dedicated worker thread
// (QtConcurrent): counting every variant's shape is O(nnz + N log N) per sorted order, about a
// second for a 1M-row matrix. Results of a superseded request (another matrix, profile,
// precision or N meanwhile) are dropped.
#include <atomic>
#include <memory>
#include <optional>

#include <QWidget>

#include <spmv/model/advisor.hpp>
#include <spmv/model/gpu_profile.hpp>
#include <spmv/registry.hpp>

#include "session/matrixdocument.hpp"

class AdvisorModel;
class QComboBox;
class QLabel;
class QSpinBox;
class QSplitter;
class QStackedWidget;
class QTableView;
class QTextBrowser;

using AdvicePtr = std::shared_ptr<const spmv::model::Advice>;

class AdvisorView : public QWidget {
    Q_OBJECT
public:
    explicit AdvisorView(QWidget* parent = nullptr);
    ~AdvisorView() override;

    /// Ranks the variants for `document` (nullptr: "open a matrix").
    void setDocument(MatrixDocumentPtr document);
    const MatrixDocumentPtr& document() const { return m_document; }

    /// Picks a built-in GPU profile by name (case ignored); false if there is none.
    bool selectProfile(const QString& name);
    spmv::model::GpuProfile profile() const;
    /// The GPU profile box (MainWindow links it with the Timing's, Model's and Sweep's).
    QComboBox* profileBox() const { return m_profile; }
    void setPrecision(spmv::model::Precision precision);
    spmv::model::Precision precision() const;
    /// "double" / "single" (MainWindow links it with the Timing's precision).
    QComboBox* precisionBox() const { return m_precision; }
    /// N, the SpMVs the layout will serve: 0 ranks by SpMV time, N > 0 by setup + N x SpMV.
    void setIterations(int iterations);
    QSpinBox* iterationsBox() const { return m_iterations; }
    /// Layouts whose footprint exceeds this are not candidates (0: no limit). MainWindow sets
    /// the memory limit every view uses.
    void setFormatMemoryLimit(quint64 bytes);
    /// The shared parameters the layouts are ranked with (the parameter bar's); sigmaAdvised:
    /// σ is the advisor's choice for the matrix (AnalysisController::sortWindowAdvised), which
    /// the note says. Ranks again if they changed.
    void setParams(const spmv::FormatParams& params, bool sigmaAdvised = false);
    const spmv::FormatParams& params() const { return m_params; }
    /// Model constants used instead of builtin_constants(profile), for every profile (tests);
    /// nullopt: the built-in ones.
    void setConstants(std::optional<spmv::model::FormatModelConstants> constants);
    /// What the next advice is asked with (precision, N, memory limit, the shared parameters
    /// with the GPU's warp of 32).
    spmv::model::AdvisorOptions options() const;

    /// A ranking was requested and is not shown yet.
    bool isComputing() const { return m_computing; }
    /// The advice shown (null while a message is shown instead: no matrix, an error).
    AdvicePtr advice() const { return m_advice; }
    /// The message shown instead of the table (empty while the table is shown).
    QString message() const;
    AdvisorModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QTextBrowser* details() const { return m_details; }
    /// Selects the row of `variant` (its reasons show below); false if it is not listed.
    bool selectVariant(const QString& variant);
    QString selectedVariant() const;

signals:
    /// A requested ranking is shown (or replaced by a message).
    void finished();
    /// The advisor failed; the view shows the message too.
    void errorOccurred(const QString& message);

private:
    void recompute();
    void showAdvice();
    void showMessage(const QString& text);
    void showDetails();
    void updateNote();
    /// The Note column: hidden in presentation mode (the details show the selected row's).
    void showNoteColumn();

    MatrixDocumentPtr m_document;
    AdvicePtr m_advice;
    std::optional<spmv::model::FormatModelConstants> m_constants;
    quint64 m_formatLimit = 0;
    spmv::FormatParams m_params;  ///< the CLI's defaults until MainWindow sets the shared ones
    bool m_sigmaAdvised = false;
    quint64 m_generation = 0;
    /// The latest generation, shared with the queued jobs so that a superseded one skips its
    /// work when the thread reaches it.
    std::shared_ptr<std::atomic<quint64>> m_latest;
    bool m_computing = false;

    QComboBox* m_profile;
    QComboBox* m_precision;
    QSpinBox* m_iterations;
    QLabel* m_note;
    QLabel* m_summary;
    QStackedWidget* m_stack;
    QLabel* m_message;
    QSplitter* m_splitter;
    AdvisorModel* m_model;
    QTableView* m_table;
    QTextBrowser* m_details;
};
