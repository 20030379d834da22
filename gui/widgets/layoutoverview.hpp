#pragma once
// The whole storage layout of the construction's format in one raster (spmv::viz::
// layout_raster): every kernel thread a line, its stored slots coloured useful / padding, the
// construction's 64 x 64 window outlined on it. Clicking moves the window there. Beside the
// LayoutView, which shows the window's cells.
#include <QImage>
#include <QWidget>

#include <spmv/viz/layout_raster.hpp>

#include "session/analysiscontroller.hpp"

class LayoutOverview : public QWidget {
    Q_OBJECT
public:
    explicit LayoutOverview(QWidget* parent = nullptr);

    void setWork(LayoutWorkPtr work, const QString& title);
    /// The window shown by the construction view, in grid rows / columns of its last step, and
    /// that grid's size; the outline is drawn when the grid's rows are the layout's threads.
    void setWindow(qint64 firstRow, int rows, qint64 firstCol, int cols, qint64 totalRows,
                   qint64 totalCols);
    /// The raster area (below the title lines), in widget pixels.
    QRect rasterRect() const;
    const spmv::viz::LayoutRaster& raster() const { return m_raster; }
    /// The outline of the window on the raster (empty when not drawn).
    QRectF windowRect() const;

    /// As wide as its second line ("pJDS: 13 436 threads × 27 slots") needs, at least 220 px.
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return {140, 200}; }

signals:
    /// Clicked at grid row / column: the construction window should start there.
    void windowRequested(qint64 firstRow, qint64 firstCol);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    void rebuild();
    int headerHeight() const;
    int footerHeight() const;
    QString sizeLine() const;

    LayoutWorkPtr m_work;
    QString m_title;
    spmv::viz::LayoutRaster m_raster;
    QImage m_image;
    qint64 m_firstRow = 0, m_firstCol = 0, m_totalRows = 0, m_totalCols = 0;
    int m_rows = 0, m_cols = 0;
};
