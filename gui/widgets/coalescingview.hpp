#pragma once
// Coalescing: for one warp and one loop trip of a kernel, the bytes every lane reads in each
// array (values, col_idxs, x, row pointers / lengths) drawn on strips of memory cut into
// 32-byte sectors, with "N sectors (ideal M)" per load; below, the sectors per nonzero of the
// whole SpMV for every modelled kernel. The numbers come from spmv::viz::AccessModel
// (lib/include/spmv/viz/coalescing.hpp); where the strips go is Qt-free geometry
// (coalescing_geometry.hpp); this view only measures its texts and draws.
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include <QFuture>
#include <QString>
#include <QWidget>

#include <spmv/registry.hpp>
#include <spmv/viz/coalescing.hpp>

#include "session/matrixdocument.hpp"

class QComboBox;
class QLabel;
class QSpinBox;
class QScrollArea;
class CoalescingCanvas;
class SectorBarsView;

class CoalescingView : public QWidget {
    Q_OBJECT
public:
    /// One row of the whole-matrix comparison: the totals, or why there are none.
    struct SummaryRow {
        spmv::viz::AccessKernel kernel;
        QString title;
        std::optional<spmv::viz::SectorTotals> totals;
        QString error;
    };

    explicit CoalescingView(QWidget* parent = nullptr);
    ~CoalescingView() override;

    void setDocument(MatrixDocumentPtr document);
    /// warp_size, block_rows (pJDS), slice_height and sort_window (SELL-C-σ) are used.
    void setParams(const spmv::FormatParams& params);

    void setKernel(spmv::viz::AccessKernel kernel);
    void setWarp(int warp);
    void setTrip(int trip);
    /// 8 (double) or 4 (float).
    void setValueBytes(int bytes);

    spmv::viz::AccessKernel kernel() const;
    int warp() const;
    int trip() const;
    int valueBytes() const;

    /// True while the layout of the chosen kernel or the whole-matrix comparison is computed.
    bool isComputing() const { return m_modelPending || m_summaryPending; }
    /// The matrix shown (nullptr: none).
    const MatrixDocumentPtr& document() const { return m_document; }
    /// The loads drawn now (empty while computing, without rows, or after an error).
    const std::optional<spmv::viz::WarpTrip>& warpTrip() const { return m_trip; }
    const std::vector<SummaryRow>& summary() const { return m_summary; }
    /// The text shown instead of the strips (no matrix, no rows, an error), else empty.
    QString message() const { return m_message; }
    /// The "N sectors (ideal M)" caption drawn for load `load` of warpTrip()->arrays.
    QString sectorCaption(int load) const;
    /// Where the byte at `offset` of load `load` is drawn, in this widget's coordinates (empty
    /// when that byte is not on the strip).
    QRectF byteRect(int load, qint64 offset) const;
    /// The colour of `lane` on the strips.
    static QColor laneColour(int lane, int warpSize);

    QSize sizeHint() const override { return {960, 640}; }

signals:
    /// Nothing is computing any more (after a document, parameter, kernel or precision change).
    void finished();
    void statusMessage(const QString& text);

private:
    void rebuildModel();
    void recomputeSummary();
    void updateTrip();
    void updateRanges();
    void checkFinished();

    MatrixDocumentPtr m_document;
    spmv::FormatParams m_params;

    QComboBox* m_kernelBox;
    QSpinBox* m_warpBox;
    QSpinBox* m_tripBox;
    QComboBox* m_precisionBox;
    QScrollArea* m_scroll;
    CoalescingCanvas* m_canvas;
    SectorBarsView* m_bars;

    std::shared_ptr<const spmv::viz::AccessModel> m_model;
    std::optional<spmv::viz::WarpTrip> m_trip;
    QString m_message;
    std::vector<SummaryRow> m_summary;

    quint64 m_modelGeneration = 0;
    quint64 m_summaryGeneration = 0;
    bool m_modelPending = false;
    bool m_summaryPending = false;
    std::shared_ptr<std::atomic<bool>> m_summaryCancel;
    std::vector<QFuture<void>> m_futures;  ///< waited for on destruction
};
