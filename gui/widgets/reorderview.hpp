#pragma once
// The Reorder view: the matrix in its original order, in reverse Cuthill-McKee order
// (Boost.Graph) and in METIS nested-dissection order, as three density pictures of P A P^T side
// by side, over a table of what each ordering does to the bandwidth, the profile, the reads of
// x per warp trip and every format's padding (spmv::analysis::report_permutation).
//
// The orderings, the permuted matrices, their metrics and their rasters are computed off the
// GUI thread, one job per ordering (the original appears at once, nested dissection of a large
// matrix may take seconds), inputs captured by value. A generation counter drops the results
// of an older document or older parameters (hotspot's JobTracker). The permutations of the
// current document are kept, so that new parameters (warp, C, sigma, ...) only re-measure.
// An ordering this build lacks (no Boost.Graph, no METIS) or a matrix that is not square is
// said in words in its panel.
#include <array>
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
class QTableView;

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

    explicit ReorderView(QWidget* parent = nullptr);
    ~ReorderView() override;

    /// Computes the three orderings of `document` (nullptr: shows "No matrix loaded").
    void setDocument(MatrixDocumentPtr document);
    /// The formats' parameters for the padding columns and the warp size of the x-locality
    /// numbers; re-measures with the permutations already computed.
    void setParams(const spmv::FormatParams& params);

    MatrixDocumentPtr document() const { return m_document; }
    const spmv::FormatParams& params() const { return m_params; }
    /// True while a job of the current document and parameters is queued or running.
    bool isComputing() const { return m_pending > 0; }
    /// The report of ordering `o`; null while computing or when it is not available.
    OrderingReportPtr report(Ordering o) const;
    ReorderPatternPanel* panel(Ordering o) const;
    ReorderModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }

    QSize sizeHint() const override { return {1180, 680}; }
    QSize minimumSizeHint() const override { return {720, 480}; }

signals:
    /// Every ordering of the current document and parameters is in (shown or said why not).
    /// Usually emitted later from the event loop; for a tiny matrix whose jobs are done before
    /// their continuations are attached, already inside setDocument() / setParams().
    void finished();

private:
    struct Outcome;
    void start();
    void deliver(std::size_t k, Outcome outcome);
    void updateSummary();
    void updateTable();

    MatrixDocumentPtr m_document;
    spmv::FormatParams m_params;
    quint64 m_generation = 0;
    int m_pending = 0;
    std::array<OrderingReportPtr, 3> m_reports;
    std::array<QString, 3> m_messages;
    /// Permutations (and the seconds they took) of m_document, reused for new parameters.
    std::array<std::shared_ptr<const std::vector<std::int32_t>>, 3> m_perms;
    std::array<double, 3> m_permSeconds{};
    std::vector<QFuture<void>> m_futures;

    QLabel* m_summary;
    std::array<ReorderPatternPanel*, 3> m_panels{};
    ReorderModel* m_model;
    QTableView* m_table;
};
