#pragma once
// The Reorder view: the matrix in its original order, in reverse Cuthill-McKee order
// (Boost.Graph) and in METIS nested-dissection order, as three density pictures of P A P^T side
// by side, over a table of what each ordering does to the bandwidth, the profile, the reads of
// x per warp trip and every format's padding (spmv::analysis::report_permutation).
//
// The orderings, the permuted matrices, their metrics and their rasters are computed off the
// GUI thread, one job per ordering (the original appears at once, nested dissection of a large
// matrix may take seconds), inputs captured by value. A generation counter per ordering drops
// the results of an older document, older parameters or a cancelled run (hotspot's
// JobTracker). The permutations of the current document are kept, so that new parameters
// (warp, C, sigma, ...) only re-measure. An ordering this build lacks (no Boost.Graph, no
// METIS) or a matrix that is not square is said in words in its panel.
//
// Large matrices: an ordering is computed when the matrix is shown only up to
// automaticNonzeros(o) stored entries (RCM 3,000,000, nested dissection 1,000,000: METIS
// takes ~3 s per million nonzeros on the 2-core machine class, 32 s for a 10M-nonzero power
// law). Above that its panel says so, with the time to expect, and a button computes it on
// demand. While a job runs, its panel and the table say which of its three steps it is on
// (the ordering, P A P^T and its metrics, the picture), and a Cancel button drops it: the
// job stops before its next step. Boost's RCM and METIS_NodeND themselves cannot be
// interrupted: a call in progress runs to its end on its worker thread and its result is
// thrown away. That is safe because the job owns everything it touches (the document and the
// parameters by value, its own progress flags); it only holds a worker of the view's two.
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include <QFuture>
#include <QImage>
#include <QWidget>

#include <spmv/analysis/reorder.hpp>
#include <spmv/registry.hpp>

#include "models/reordermodel.hpp"
#include "session/matrixdocument.hpp"

class QLabel;
class QPushButton;
class QTableView;
class QTimer;

/// One ordering's picture: a title, the density raster of P A P^T (or a message in words
/// while computing or when the ordering is not available) and a one-line caption.
class ReorderPatternPanel : public QWidget {
public:
    explicit ReorderPatternPanel(const QString& title, QWidget* parent = nullptr);

    void setImage(const QImage& image, const QString& caption);
    void setMessage(const QString& message);  ///< replaces the picture

    QString title() const { return m_title; }
    QString message() const { return m_message; }
    QString caption() const { return m_caption; }
    bool hasImage() const { return !m_image.isNull(); }
    /// Where the picture is drawn (square, centred below the title), in widget pixels.
    QRect pictureRect() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QString m_title;
    QString m_message;
    QString m_caption;
    QImage m_image;
};

class ReorderView : public QWidget {
    Q_OBJECT
public:
    using Ordering = spmv::analysis::Ordering;
    static constexpr std::array<Ordering, 3> orderings = {
        Ordering::original, Ordering::rcm, Ordering::nested_dissection};
    /// Side of the square rasters computed off-thread, in pixels (scaled when drawn).
    static constexpr int rasterSize = 480;
    /// Up to this many stored entries an ordering is computed as soon as the matrix is shown;
    /// above, on demand (its button). Default: RCM 3,000,000 (Boost's RCM ~0.65 s per million
    /// nonzeros here), nested dissection 1,000,000 (METIS ~3.2 s per million); the original
    /// order always.
    static std::int64_t defaultAutomaticNonzeros(Ordering o);
    /// Seconds per million nonzeros the ordering took on the 2-core machine class (a 10M-nonzero
    /// power law: RCM 6.5 s, METIS 32 s; docs/benchmarks/gui_timing_2026-11-28): the time the
    /// on-demand panels announce.
    static double secondsPerMillionNonzeros(Ordering o);

    /// What one ordering's column is doing.
    enum class State {
        idle,       ///< no matrix
        onDemand,   ///< above automaticNonzeros: waits for its button
        computing,  ///< queued or running (progress() says which step)
        done,       ///< report and picture shown
        failed,     ///< said why in words (not square, not compiled in, out of memory)
        cancelled,  ///< the user cancelled it; its button computes it again
    };
    /// The steps of one ordering's job, for the progress text.
    static constexpr int jobSteps = 3;

    explicit ReorderView(QWidget* parent = nullptr);
    ~ReorderView() override;

    /// Computes the orderings of `document` that are due (nullptr: shows "No matrix loaded").
    void setDocument(MatrixDocumentPtr document);
    /// The formats' parameters for the padding columns and the warp size of the x-locality
    /// numbers; re-measures with the permutations already computed.
    void setParams(const spmv::FormatParams& params);
    /// Changes the on-demand threshold of `o` (tests; the defaults suit the machine class).
    void setAutomaticNonzeros(Ordering o, std::int64_t nonzeros);
    std::int64_t automaticNonzeros(Ordering o) const;

    /// Starts ordering `o` of the current document (its button); no-op while it computes or
    /// when it is shown already.
    void compute(Ordering o);
    /// Cancels ordering `o`'s job: its result is dropped, its remaining steps are skipped and
    /// its column says "cancelled" at once (no-op unless computing).
    void cancel(Ordering o);

    MatrixDocumentPtr document() const { return m_document; }
    const spmv::FormatParams& params() const { return m_params; }
    /// True while a job of the current document and parameters is queued or running.
    bool isComputing() const;
    State state(Ordering o) const { return m_slots[index(o)].state; }
    /// The step ordering `o`'s job is on (1..jobSteps; 0 while queued or not computing).
    int progress(Ordering o) const;
    /// The report of ordering `o`; null while computing or when it is not available.
    OrderingReportPtr report(Ordering o) const;
    ReorderPatternPanel* panel(Ordering o) const;
    /// The Compute / Cancel button under ordering `o`'s picture (hidden when not needed; the
    /// original order has none).
    QPushButton* button(Ordering o) const { return m_buttons[index(o)]; }
    ReorderModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }

    QSize sizeHint() const override { return {1180, 680}; }
    QSize minimumSizeHint() const override { return {720, 480}; }

signals:
    /// Every ordering of the current document and parameters is in (shown, said why not,
    /// waiting for its button or cancelled): from the event loop (inside setDocument() only
    /// for "No matrix loaded"), and again when an on-demand run ends or is cancelled.
    void finished();

private:
    struct Outcome;
    /// What one job shares with the view: the step it is on and the flag that cancels it.
    struct JobControl {
        std::atomic<int> step{0};
        std::atomic<bool> cancel{false};
    };
    struct Slot {
        State state = State::idle;
        quint64 generation = 0;  ///< results of older runs of this ordering are dropped
        std::shared_ptr<JobControl> control;
        OrderingReportPtr report;
        QString message;  ///< computing / on demand / cancelled / why not: the panel's words
        /// the permutation (and the seconds it took) of m_document, reused for new parameters
        std::shared_ptr<const std::vector<std::int32_t>> perm;
        double permSeconds = 0.0;
    };
    static std::size_t index(Ordering o);
    void start();
    void startJob(std::size_t k);
    void deliver(std::size_t k, Outcome outcome);
    void finishIfIdle();
    void updateProgress();
    void updateButtons();
    void updateSummary();
    void updateTable();
    QString onDemandMessage(std::size_t k) const;
    QString computingMessage(std::size_t k) const;

    MatrixDocumentPtr m_document;
    spmv::FormatParams m_params;
    std::array<Slot, 3> m_slots;
    std::array<std::int64_t, 3> m_automatic{};
    bool m_finishDue = false;  ///< finished() is owed once nothing computes any more
    std::vector<QFuture<void>> m_futures;

    QLabel* m_summary;
    std::array<ReorderPatternPanel*, 3> m_panels{};
    std::array<QPushButton*, 3> m_buttons{};
    QTimer* m_progressTimer;
    ReorderModel* m_model;
    QTableView* m_table;
};
