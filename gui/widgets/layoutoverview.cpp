#include "layoutoverview.hpp"

#include <cstring>

#include <QLocale>
#include <QMouseEvent>
#include <QPainter>

#include <spmv/viz/colour.hpp>

#include "appearance.hpp"
#include "elidedtext.hpp"

LayoutOverview::LayoutOverview(QWidget* parent) : QWidget(parent)
{
    setToolTip(tr("The whole layout: one line per kernel thread, its stored slots left to "
                  "right (blue: a nonzero, vermillion: padding). The frame is the window "
                  "shown beside; click to move it."));
    connect(&Appearance::instance(), &Appearance::changed, this, [this] {
        rebuild();
        updateGeometry();
        update();
    });
}

QString LayoutOverview::sizeLine() const
{
    return tr("%1: %2 threads \u00d7 %3 slots")
        .arg(m_title, groupDigits(m_raster.threads), groupDigits(m_raster.slot_columns));
}

QSize LayoutOverview::sizeHint() const
{
    const QFontMetrics fm(Appearance::instance().font(0.9));
    return {qMax(220, fm.horizontalAdvance(sizeLine()) + 12), 400};
}

int LayoutOverview::headerHeight() const
{
    return 2 * QFontMetrics(Appearance::instance().font(0.9)).height() + 8;
}

int LayoutOverview::footerHeight() const
{
    return 2 * QFontMetrics(Appearance::instance().font(0.9)).height() + 6;
}

QRect LayoutOverview::rasterRect() const
{
    return QRect(4, headerHeight(), qMax(1, width() - 8),
                 qMax(1, height() - headerHeight() - footerHeight()));
}

void LayoutOverview::setWork(LayoutWorkPtr work, const QString& title)
{
    m_work = std::move(work);
    m_title = title;
    rebuild();
    updateGeometry();  // the width follows the text line
    update();
}

void LayoutOverview::setWindow(qint64 firstRow, int rows, qint64 firstCol, int cols,
                               qint64 totalRows, qint64 totalCols)
{
    m_firstRow = firstRow;
    m_rows = rows;
    m_firstCol = firstCol;
    m_cols = cols;
    m_totalRows = totalRows;
    m_totalCols = totalCols;
    update();
}

void LayoutOverview::rebuild()
{
    m_raster = {};
    m_image = QImage();
    if (!m_work) return;
    const QRect r = rasterRect();
    // O(threads + pixels): cheap enough for the GUI thread even at 10^6 threads
    m_raster = spmv::viz::layout_raster(*m_work, r.width(), r.height());
    const auto px = spmv::viz::to_argb(m_raster);
    m_image = QImage(m_raster.width, m_raster.height, QImage::Format_RGB32);
    for (int y = 0; y < m_raster.height; ++y) {
        std::memcpy(m_image.scanLine(y), px.data() + static_cast<std::size_t>(y) * m_raster.width,
                    static_cast<std::size_t>(m_raster.width) * 4);
    }
}

QRectF LayoutOverview::windowRect() const
{
    // only where the last step's grid rows are the kernel's threads (ELLPACK, pJDS, SELL, ...)
    if (!m_work || m_raster.threads == 0 || m_raster.slot_columns == 0 ||
        m_totalRows != m_raster.threads || m_rows <= 0) {
        return {};
    }
    const QRect r = rasterRect();
    const double ky = r.height() / static_cast<double>(m_raster.threads);
    const double kx = r.width() / static_cast<double>(m_raster.slot_columns);
    QRectF w(r.left() + static_cast<double>(m_firstCol) * kx,
             r.top() + static_cast<double>(m_firstRow) * ky, m_cols * kx, m_rows * ky);
    // at least a few pixels, so that a 64-row window of 10^6 threads stays visible
    if (w.height() < 4) w.setHeight(4);
    if (w.width() < 4) w.setWidth(4);
    return w.intersected(QRectF(r).adjusted(-1, -1, 1, 1));
}

void LayoutOverview::resizeEvent(QResizeEvent*)
{
    rebuild();
}

void LayoutOverview::mousePressEvent(QMouseEvent* event)
{
    const QRect r = rasterRect();
    if (!m_work || m_raster.threads == 0 || !r.contains(event->position().toPoint())) return;
    const double fy = (event->position().y() - r.top()) / r.height();
    const double fx = (event->position().x() - r.left()) / r.width();
    // centre the window on the click
    const auto row = static_cast<qint64>(fy * static_cast<double>(m_raster.threads)) - m_rows / 2;
    const auto col =
        static_cast<qint64>(fx * static_cast<double>(m_raster.slot_columns)) - m_cols / 2;
    emit windowRequested(qMax<qint64>(0, row), qMax<qint64>(0, col));
}

void LayoutOverview::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const auto& pal = Appearance::palette();
    p.fillRect(rect(), palette().color(QPalette::Window));
    const QFont font = Appearance::instance().font(0.9);
    QFont bold = font;
    bold.setBold(true);
    const QFontMetrics fm(font);
    const QRect r = rasterRect();
    p.setPen(toQColor(pal.text));
    p.setFont(bold);
    p.drawText(QRect(4, 2, width() - 8, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
               elideText(QFontMetrics(bold), tr("Whole layout"), Qt::ElideRight, width() - 8));
    p.setFont(font);
    if (!m_work) {
        p.drawText(r, Qt::AlignCenter | Qt::TextWordWrap, tr("no layout"));
        return;
    }
    // the second line: what the lines are (elided only when the panel is very narrow)
    p.drawText(QRect(4, 4 + fm.height(), width() - 8, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
               elideText(fm, sizeLine(), Qt::ElideMiddle, width() - 8));
    p.drawImage(r.topLeft(), m_image);
    p.setPen(toQColor(pal.grid));
    p.drawRect(r.adjusted(0, 0, -1, -1));
    const QRectF w = windowRect();
    if (!w.isEmpty()) {
        QPen pen(toQColor(pal.selection));
        pen.setWidthF(Appearance::instance().lineWidth(2.0));
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        p.drawRect(w);
    }
    p.setPen(toQColor(pal.text));
    const double padding = m_raster.stored_total > 0
                               ? 100.0 * static_cast<double>(m_raster.stored_total -
                                                             m_raster.useful_total) /
                                     static_cast<double>(m_raster.stored_total)
                               : 0.0;
    const int y0 = r.bottom() + 4;
    p.drawText(QRect(4, y0, width() - 8, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
               elideText(fm, tr("%1 stored slots").arg(groupDigits(m_raster.stored_total)),
                             Qt::ElideRight, width() - 8));
    p.drawText(QRect(4, y0 + fm.height(), width() - 8, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
               elideText(fm, tr("%1 % padding").arg(padding, 0, 'f', 1), Qt::ElideRight,
                             width() - 8));
}
