#pragma once
// The sparsity pattern: exact cells when zoomed in, a density raster (nonzeros per pixel, log
// colour scale) when zoomed out. The raster is computed off the GUI thread into a QImage
// (spmv::viz::rasterize, one pass over the CSR); paintEvent only blits it (Qt's Mandelbrot
// example), stretched while a newer raster is on its way. Wheel zooms around the cursor, drag
// pans, double-click fits the whole matrix.
#include <QImage>
#include <QPoint>
#include <QTimer>
#include <QWidget>

#include <spmv/viz/density.hpp>
#include <spmv/viz/geometry.hpp>

#include "session/analysiscontroller.hpp"

class SparsityView : public QWidget {
    Q_OBJECT
public:
    explicit SparsityView(QWidget* parent = nullptr);

    void setDocument(MatrixDocumentPtr document);
    /// Display row k shows matrix row (*order)[k]; nullptr: original order.
    void setRowOrder(RowOrderPtr order, const QString& orderName = QString());
    /// Symmetry, bandwidth, value range and column counts of the document (arrives after it:
    /// until then the legend says "computing" and the column margin is empty).
    void setPatternInfo(PatternInfoPtr info);
    PatternInfoPtr patternInfo() const { return m_info; }

    const spmv::viz::ViewTransform& viewTransform() const { return m_view; }
    /// True while a raster job is queued or running.
    bool isRendering() const { return m_rendering > 0 || m_renderDelay.isActive(); }
    /// Seconds the last raster took (rasterise + colour), for the benchmark.
    double lastRenderSeconds() const { return m_lastRenderSeconds; }
    /// Zoom by `factor` around widget position `pos` (as the mouse wheel does).
    void zoomAt(double factor, QPointF pos);
    /// Fit the whole matrix into the view.
    void resetView();
    /// Colour the nonzeros by density (default), sign or magnitude (spmv::viz::PatternColouring).
    void setColouring(spmv::viz::PatternColouring colouring);
    spmv::viz::PatternColouring colouring() const { return m_colouring; }
    /// Draw the nonzeros per row (right of the plot) and per column (below it), SparseViz's
    /// margins: the largest count of the rows a pixel shows as a bar, their mean darker.
    void setMarginsShown(bool shown);
    bool marginsShown() const { return m_margins; }
    /// The margin strips (empty rectangles when hidden), in widget pixels.
    QRect rowMarginRect() const;
    QRect columnMarginRect() const;
    /// Largest row / column count in the current view (0 before the first raster).
    int rowMarginPeak() const { return m_rowMargin.peak; }
    int columnMarginPeak() const { return m_colMargin.peak; }
    /// The drawing area: the widget minus the title and column numbers above, the row numbers
    /// on the left and the legend strip below. viewTransform() is in widget pixels.
    QRect plotRect() const;

    QSize sizeHint() const override { return {640, 560}; }

signals:
    void statusMessage(const QString& text);
    void renderFinished();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    void scheduleRender();
    void startRender();
    void describePosition(QPointF pos);
    /// Describes the last position anew after a zoom (the status bar named the old scale).
    void dropPositionText();
    /// The legend's strip below the plot (0 when it is beside it), the column right of the
    /// plot it takes instead in a wide view (0 when below), and the strip's height below.
    int legendHeight() const;
    int legendColumnWidth() const;
    int legendBelowHeight() const;
    void drawLegend(QPainter& p);
    void drawGrid(QPainter& p);
    void drawAxes(QPainter& p);
    void drawMargins(QPainter& p);
    int marginThickness() const;
    /// The whole matrix fitted into plotRect(), in widget pixels.
    spmv::viz::ViewTransform fittedView() const;

    MatrixDocumentPtr m_document;
    RowOrderPtr m_order;
    PatternInfoPtr m_info;
    QString m_orderName;
    spmv::viz::ViewTransform m_view;
    bool m_fitted = true;

    spmv::viz::PatternColouring m_colouring = spmv::viz::PatternColouring::density;
    bool m_margins = true;
    spmv::viz::MarginProfile m_rowMargin;
    spmv::viz::MarginProfile m_colMargin;
    QImage m_image;
    spmv::viz::ViewTransform m_imageView;
    qint64 m_imageMaxCount = 0;
    double m_lastRenderSeconds = 0.0;
    quint64 m_renderGeneration = 0;
    int m_rendering = 0;
    QTimer m_renderDelay;

    bool m_dragging = false;
    QPointF m_dragStart;
    spmv::viz::ViewTransform m_dragView;
    bool m_positionShown = false;  ///< the status bar shows describePosition's text
    QPointF m_lastPosition;        ///< of that text
};
