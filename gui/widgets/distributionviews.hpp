#pragma once
// The QPainter views of the Distribution view (DistributionPanel): the pattern coloured by
// owning rank, the rank x rank communication heat map, the per-rank balance bars and the
// Fig. 4 timelines. They only paint: the rank pattern is rasterised off the GUI thread into a
// QImage (spmv::viz::rasterize_ranks), every other position comes from
// distribution_geometry.hpp or spmv::viz::timeline_layout.
#include <memory>
#include <vector>

#include <QImage>
#include <QStringList>
#include <QTimer>
#include <QWidget>

#include <spmv/dist/partition.hpp>
#include <spmv/dist/partition_stats.hpp>
#include <spmv/dist/timeline.hpp>
#include <spmv/viz/geometry.hpp>

#include "distribution_geometry.hpp"
#include "session/matrixdocument.hpp"

using PartitionPtr = std::shared_ptr<const spmv::dist::Partition>;
using PartitionStatsPtr = std::shared_ptr<const spmv::dist::PartitionStats>;

/// The sparsity pattern coloured by owning rank: each rank's rows as a light band, local
/// entries in the rank's colour, non-local ones dark (outlined in black when cells are large),
/// rank boundaries as lines; rows and columns grouped rank by rank (METIS).
class RankPatternView : public QWidget {
    Q_OBJECT
public:
    explicit RankPatternView(QWidget* parent = nullptr);

    /// The matrix and its row partition (nullptr: nothing to show).
    void setPartition(MatrixDocumentPtr document, PartitionPtr partition);
    /// A line shown instead of the pattern (e.g. why there is none).
    void setMessage(const QString& message);

    bool isRendering() const { return m_rendering > 0 || m_renderDelay.isActive(); }
    /// Matrix <-> pixels of the picture shown (the last raster's).
    const spmv::viz::ViewTransform& viewTransform() const { return m_imageView; }
    /// The drawing area (widget minus the legend strip).
    QRect plotRect() const;
    /// Entries drawn by the last raster.
    qint64 localEntries() const { return m_local; }
    qint64 nonlocalEntries() const { return m_nonlocal; }

    QSize sizeHint() const override { return {420, 420}; }

signals:
    void renderFinished();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void scheduleRender();
    void startRender();
    int legendHeight() const;

    MatrixDocumentPtr m_document;
    PartitionPtr m_partition;
    QString m_message;
    spmv::viz::ViewTransform m_imageView;
    int m_imageRanks = 1;
    QImage m_image;
    std::vector<std::int64_t> m_rowBounds;
    std::vector<std::int64_t> m_colBounds;
    qint64 m_local = 0;
    qint64 m_nonlocal = 0;
    quint64 m_generation = 0;
    int m_rendering = 0;
    QTimer m_renderDelay;
};

/// The rank x rank communication matrix as a heat map (sender rows, receiver columns), with
/// the numbers in the cells when they fit; more ranks than cells are binned.
class CommMatrixView : public QWidget {
    Q_OBJECT
public:
    explicit CommMatrixView(QWidget* parent = nullptr);
    void setStats(PartitionStatsPtr stats);
    const CommHeatmap& heatmap() const { return m_heatmap; }
    HeatmapGeometry geometry() const;
    QSize sizeHint() const override { return {280, 260}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

    /// What the cells say: their counts whole where they fit, every count abbreviated alike
    /// (abbreviatedCount: 1.2k, 35k) where only that fits, else nothing, and a colour scale
    /// below the grid (the tooltip always has the exact count).
    enum class CellNumbers { whole, abbreviated, scale };
    CellNumbers cellNumbers() const;

private:
    void rebin();
    double labelWidth() const;
    double numberWidth(bool abbreviated) const;
    int scaleHeight() const;

    PartitionStatsPtr m_stats;
    CommHeatmap m_heatmap;
};

/// Per-rank balance: nonzeros (local and non-local stacked), rows and halo, each against its
/// mean; groups of ranks when there are more ranks than bars.
class BalanceView : public QWidget {
    Q_OBJECT
public:
    explicit BalanceView(QWidget* parent = nullptr);
    void setStats(PartitionStatsPtr stats);
    const BalanceChart& chart() const { return m_chart; }
    BalanceGeometry geometry() const;
    QSize sizeHint() const override { return {300, 260}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebin();
    /// Each strip's title before and after its values ("rows" / "max/mean 1.056"); the values
    /// go on a second line where both do not fit one.
    QStringList titleHeads() const;
    QStringList titleTails() const;
    bool titlesWrap() const;

    PartitionStatsPtr m_stats;
    BalanceChart m_chart;
};

/// Event timelines of the modes (Kreutzer Fig. 4) on one time scale, painted from
/// spmv::viz::timeline_layout fitted into the widget; hovering a bar names its phase and times.
/// In presentation mode the text is never drawn below Appearance::minimumTextPixels(): the
/// first modes that fit so are drawn, a line names the others (the panel's Modes box shows
/// one mode at a time).
class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);
    void setTimelines(std::vector<spmv::dist::Timeline> timelines);
    const std::vector<spmv::dist::Timeline>& timelines() const { return m_timelines; }
    /// The layout as painted at the current size (layout pixels times fit().scale = widget
    /// pixels); throws like fitTimelines.
    TimelineFit fit() const;
    QSize sizeHint() const override { return {560, 420}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    /// The line below the timelines naming the modes presentation mode left out.
    int noteHeight() const;

    std::vector<spmv::dist::Timeline> m_timelines;
};
