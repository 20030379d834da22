#include "sparsityview.hpp"

#include <cmath>
#include <cstring>

#include <QElapsedTimer>
#include <QLinearGradient>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QThreadPool>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentRun>

#include <spmv/viz/colour.hpp>
#include <spmv/viz/density.hpp>
#include <spmv/viz/units.hpp>

#include "appearance.hpp"
#include "elidedtext.hpp"

namespace {

QThreadPool* rasterPool()
{
    // one dedicated thread: a raster never waits behind long analyses
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setMaxThreadCount(1);
        return p;
    }();
    return pool;
}

struct RasterResult {
    spmv::viz::MarginProfile rowMargin;
    spmv::viz::MarginProfile colMargin;
    QImage image;
    spmv::viz::ViewTransform view;
    qint64 maxCount = 0;
    double seconds = 0.0;
    QString error;
};

constexpr int plotMargin = 8;

}  // namespace

SparsityView::SparsityView(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(160, 160);
    setAutoFillBackground(false);
    m_renderDelay.setSingleShot(true);
    m_renderDelay.setInterval(30);
    connect(&m_renderDelay, &QTimer::timeout, this, &SparsityView::startRender);
    connect(&Appearance::instance(), &Appearance::changed, this, [this] { resetView(); });
}

QRect SparsityView::plotRect() const
{
    // room for the title and the column ticks above, the row ticks on the left
    const QFontMetrics fm(Appearance::instance().font(0.9));
    const qint64 rows = m_document ? m_document->csr.num_rows : 0;
    const int left = fm.horizontalAdvance(groupDigits(qMax<qint64>(rows, 100))) + 14;
    // the title above the column numbers, or at the top of the legend's column beside the plot
    const int title = legendColumnWidth() > 0 ? 0 : QFontMetrics(Appearance::instance().font()).height();
    const int top = title + fm.height() + 12;
    const int margin = m_margins ? marginThickness() + 6 : 0;
    return QRect(left, top, qMax(0, width() - left - 10 - margin - legendColumnWidth()),
                 qMax(0, height() - legendHeight() - top - margin));
}

int SparsityView::legendColumnWidth() const
{
    // a wide view (16:9, the tabs beside it) has its legend in a column right of the plot, so
    // that the plot, as tall as the view, is as large as it can be; a narrow one below it
    const int column = qBound(220, width() / 4, 480);
    const int plotIfBeside = qMin(width() - column, height());
    const int plotIfBelow = qMin(width(), height() - legendBelowHeight());
    return plotIfBeside > plotIfBelow ? column : 0;
}

int SparsityView::legendBelowHeight() const
{
    return QFontMetrics(Appearance::instance().font()).height() * 3 + 14;
}

int SparsityView::marginThickness() const
{
    // room for a bar and its peak number
    return QFontMetrics(Appearance::instance().font(0.9)).horizontalAdvance(QStringLiteral("00000")) + 8;
}

QRect SparsityView::rowMarginRect() const
{
    // right of the matrix itself (it is centred in the plot when its shape differs), clamped
    // to the room reserved right of the plot
    if (!m_margins) return {};
    const QRect r = plotRect();
    const double matrixRight = m_view.x_of_col(static_cast<double>(m_view.num_cols));
    const int x = qBound(r.left(), static_cast<int>(std::ceil(matrixRight)) + 1, r.right()) + 6;
    return QRect(x, r.top(), marginThickness(), r.height());
}

QRect SparsityView::columnMarginRect() const
{
    if (!m_margins) return {};
    const QRect r = plotRect();
    const double matrixBottom = m_view.y_of_row(static_cast<double>(m_view.num_rows));
    const int y = qBound(r.top(), static_cast<int>(std::ceil(matrixBottom)) + 1, r.bottom()) + 6;
    return QRect(r.left(), y, r.width(), marginThickness());
}

void SparsityView::setColouring(spmv::viz::PatternColouring colouring)
{
    if (colouring == m_colouring) return;
    m_colouring = colouring;
    scheduleRender();
    update();
}

void SparsityView::setMarginsShown(bool shown)
{
    if (shown == m_margins) return;
    m_margins = shown;
    resizeEvent(nullptr);  // the plot area changed
    update();
}

spmv::viz::ViewTransform SparsityView::fittedView() const
{
    // fitted into the plot rectangle, expressed in widget pixels: the raster covers the widget
    // from (0, 0) to the plot's far corner and is clipped to the plot when drawn
    const QRect r = plotRect();
    const auto rows = m_document ? m_document->csr.num_rows : 0;
    const auto cols = m_document ? m_document->csr.num_cols : 0;
    auto v = spmv::viz::ViewTransform::fit(rows, cols, r.width(), r.height(), plotMargin);
    v.origin_x += r.left();
    v.origin_y += r.top();
    v.width = r.right() + 1;
    v.height = r.bottom() + 1;
    return v;
}

int SparsityView::legendHeight() const
{
    return legendColumnWidth() > 0 ? 0 : legendBelowHeight();
}

void SparsityView::setPatternInfo(PatternInfoPtr info)
{
    if (info && info->document != m_document) return;  // another matrix's
    m_info = std::move(info);
    scheduleRender();  // the column margin and the magnitude scale use it
    update();
}

void SparsityView::setDocument(MatrixDocumentPtr document)
{
    m_document = std::move(document);
    m_info.reset();
    m_order.reset();
    m_orderName.clear();
    m_image = QImage();
    resetView();
}

void SparsityView::setRowOrder(RowOrderPtr order, const QString& orderName)
{
    m_order = std::move(order);
    m_orderName = m_order ? orderName : QString();
    scheduleRender();
    update();
}

void SparsityView::resetView()
{
    m_view = fittedView();
    m_fitted = true;
    scheduleRender();
    update();
    dropPositionText();
}

void SparsityView::zoomAt(double factor, QPointF pos)
{
    m_view = m_view.zoomed(factor, pos.x(), pos.y());
    m_fitted = false;
    scheduleRender();
    update();
    dropPositionText();
}

void SparsityView::dropPositionText()
{
    // the status bar's "Row r, column c (one pixel = k x k cells)" was for the old zoom: the
    // point the mouse was last over is described anew (the mouse leaving cleared it)
    if (m_positionShown) describePosition(m_lastPosition);
}

void SparsityView::scheduleRender()
{
    ++m_renderGeneration;  // anything in flight is stale now
    m_renderDelay.start();
}

void SparsityView::startRender()
{
    if (!m_document || m_view.width <= 0 || m_view.height <= 0) {
        m_image = QImage();
        update();
        emit renderFinished();
        return;
    }
    const quint64 generation = ++m_renderGeneration;
    ++m_rendering;
    const QRgb outside = palette().color(QPalette::Window).rgb();
    auto job = [doc = m_document, order = m_order, view = m_view, outside,
                colouring = m_colouring, margins = m_margins, info = m_info] {
        RasterResult r;
        r.view = view;
        QElapsedTimer timer;
        timer.start();
        try {
            std::span<const std::int32_t> rowOrder;
            if (order) rowOrder = *order;
            const auto raster = spmv::viz::rasterize(doc->csr, view, rowOrder, colouring);
            // the 1st-99th percentile: a few outliers must not flatten the scale
            const double lo = info ? info->facts.abs_low : 0.0;
            const double hi = info ? info->facts.abs_high : 0.0;
            const auto px = spmv::viz::to_argb(raster, view, outside, colouring, lo, hi);
            if (margins) {
                // the same pixels as the raster: index i at origin + i * scale
                r.rowMargin = spmv::viz::margin_profile(doc->rowLengths, view.origin_y, view.scale,
                                                        view.height, rowOrder);
                if (info) {
                    r.colMargin = spmv::viz::margin_profile(info->columnCounts, view.origin_x,
                                                            view.scale, view.width);
                }
            }
            QImage img(raster.width, raster.height, QImage::Format_RGB32);
            for (int y = 0; y < raster.height; ++y) {
                std::memcpy(img.scanLine(y), px.data() + static_cast<std::size_t>(y) * raster.width,
                            static_cast<std::size_t>(raster.width) * 4);
            }
            r.image = std::move(img);
            r.maxCount = raster.max_count;
        } catch (const std::exception& e) {
            r.error = QString::fromStdString(e.what());
        }
        r.seconds = static_cast<double>(timer.nsecsElapsed()) * 1e-9;
        return r;
    };
    QtConcurrent::run(rasterPool(), std::move(job)).then(this, [this, generation](RasterResult r) {
        --m_rendering;
        if (generation == m_renderGeneration) {
            if (!r.error.isEmpty()) {
                emit statusMessage(tr("Could not draw the pattern: %1").arg(r.error));
            }
            m_image = std::move(r.image);
            m_imageView = r.view;
            m_imageMaxCount = r.maxCount;
            m_rowMargin = std::move(r.rowMargin);
            m_colMargin = std::move(r.colMargin);
            m_lastRenderSeconds = r.seconds;
            update();
        }
        if (!isRendering()) {
            emit renderFinished();
        }
    });
}

void SparsityView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Window));
    const QRect area = plotRect();
    if (!m_document) {
        p.setFont(Appearance::instance().font());
        p.drawText(area, Qt::AlignCenter, tr("No matrix loaded"));
        return;
    }
    p.save();
    p.setClipRect(area);
    if (!m_image.isNull()) {
        if (m_imageView.scale == m_view.scale && m_imageView.origin_x == m_view.origin_x &&
            m_imageView.origin_y == m_view.origin_y) {
            p.drawImage(0, 0, m_image);
        } else {
            // stretch the last raster to the new transform until the new one arrives
            const double k = m_view.scale / m_imageView.scale;
            p.translate(m_view.origin_x - m_imageView.origin_x * k,
                        m_view.origin_y - m_imageView.origin_y * k);
            p.scale(k, k);
            p.drawImage(0, 0, m_image);
            p.resetTransform();
        }
    }
    drawGrid(p);
    // matrix frame
    const auto& pal = Appearance::palette();
    QPen frame(toQColor(pal.text));
    frame.setWidthF(Appearance::instance().lineWidth());
    p.setPen(frame);
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(m_view.x_of_col(0), m_view.y_of_row(0),
                      static_cast<double>(m_view.num_cols) * m_view.scale,
                      static_cast<double>(m_view.num_rows) * m_view.scale));
    p.restore();
    drawAxes(p);
    drawMargins(p);
    drawLegend(p);
}

void SparsityView::drawMargins(QPainter& p)
{
    if (!m_margins) return;
    const auto& pal = Appearance::palette();
    const QFont font = Appearance::instance().font(0.9);
    p.setFont(font);
    const QFontMetrics fm(font);
    const QRect area = plotRect();
    const QColor maxColour = toQColor(pal.grid);
    const QColor meanColour = toQColor(pal.nonzero);
    // nonzeros per row, right of the plot: pixel row y shows the rows at y of the raster
    const QRect rows = rowMarginRect();
    const int barRoom = rows.width() - 2;
    if (m_rowMargin.peak > 0) {
        const double k = barRoom / static_cast<double>(m_rowMargin.peak);
        for (int y = area.top(); y <= area.bottom() && y < static_cast<int>(m_rowMargin.max.size()); ++y) {
            const auto i = static_cast<std::size_t>(y);
            if (m_rowMargin.max[i] == 0) continue;
            p.fillRect(QRectF(rows.left(), y, m_rowMargin.max[i] * k, 1.0), maxColour);
            p.fillRect(QRectF(rows.left(), y, m_rowMargin.mean[i] * k, 1.0), meanColour);
        }
    }
    // nonzeros per column, below the plot
    const QRect cols = columnMarginRect();
    const int colRoom = cols.height() - 2;
    if (m_colMargin.peak > 0) {
        const double k = colRoom / static_cast<double>(m_colMargin.peak);
        for (int x = area.left(); x <= area.right() && x < static_cast<int>(m_colMargin.max.size()); ++x) {
            const auto i = static_cast<std::size_t>(x);
            if (m_colMargin.max[i] == 0) continue;
            p.fillRect(QRectF(x, cols.top(), 1.0, m_colMargin.max[i] * k), maxColour);
            p.fillRect(QRectF(x, cols.top(), 1.0, m_colMargin.mean[i] * k), meanColour);
        }
    }
    p.setPen(toQColor(pal.text));
    // the scale: the peak count at the far end of each strip, the strip's name at its start
    if (m_rowMargin.peak > 0) {
        const QString peak = groupDigits(m_rowMargin.peak);
        const double matrixTop = qMax<double>(area.top(), m_view.y_of_row(0));
        p.drawText(QPointF(rows.right() - fm.horizontalAdvance(peak), matrixTop - 4), peak);
    }
    if (m_colMargin.peak > 0) {
        const QString peak = groupDigits(m_colMargin.peak);
        const double matrixLeft = qMax<double>(area.left(), m_view.x_of_col(0));
        p.drawText(QPointF(matrixLeft - fm.horizontalAdvance(peak) - 6, cols.bottom()), peak);
    }
}

void SparsityView::drawAxes(QPainter& p)
{
    // title, then the column numbers above the plot and the row numbers left of it, at 1-2-5
    // steps of the part in view (cell centres), so that a zoomed view says where it is
    const QRect area = plotRect();
    const auto& pal = Appearance::palette();
    const QFont titleFont = Appearance::instance().font();
    QFont bold = titleFont;
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(toQColor(pal.text));
    QString title = tr("Sparsity pattern of %1").arg(m_document->name);
    if (m_order) title += tr(", rows in %1 order").arg(m_orderName);
    const QFontMetrics tfm(bold);
    if (legendColumnWidth() == 0) {  // else the legend's column starts with it
        p.drawText(QPoint(area.left(), tfm.ascent() + 4),
                   elideText(tfm, title, Qt::ElideMiddle, qMax(40, width() - area.left() - 8)));
    }

    const QFont font = Appearance::instance().font(0.9);
    p.setFont(font);
    const QFontMetrics fm(font);
    const qint64 rows = m_document->csr.num_rows;
    const qint64 cols = m_document->csr.num_cols;
    QPen tick(toQColor(pal.text));
    tick.setWidthF(1.0);
    p.setPen(tick);
    // the part of the matrix in view, in matrix units and in pixels: the numbers sit next to
    // the matrix itself (it is centred in the plot when its shape differs from the plot's)
    const double c0 = qBound(0.0, m_view.col_at(area.left()), static_cast<double>(cols));
    const double c1 = qBound(0.0, m_view.col_at(area.right()), static_cast<double>(cols));
    const double r0 = qBound(0.0, m_view.row_at(area.top()), static_cast<double>(rows));
    const double r1 = qBound(0.0, m_view.row_at(area.bottom()), static_cast<double>(rows));
    const double left = m_view.x_of_col(c0);
    const double right = m_view.x_of_col(c1);
    const double top = m_view.y_of_row(r0);
    const double bottom = m_view.y_of_row(r1);
    const int colLabel = fm.horizontalAdvance(groupDigits(qMax<qint64>(cols, 10))) + 16;
    if (c1 > c0) {
        const int maxTicks = qMax(1, static_cast<int>((right - left) / colLabel));
        const double step = qMax(1.0, spmv::viz::nice_step(c1 - c0, maxTicks));
        for (double c = std::ceil(c0 / step) * step; c < c1; c += step) {
            const double x = m_view.x_of_col(c + 0.5);
            if (x < area.left() || x > area.right()) continue;
            p.drawLine(QPointF(x, top - 4), QPointF(x, top));
            const QString label = groupDigits(static_cast<qint64>(c));
            p.drawText(QPointF(x - fm.horizontalAdvance(label) / 2.0, top - 6), label);
        }
    }
    if (r1 > r0) {
        const int maxTicks = qMax(1, static_cast<int>((bottom - top) / (2 * fm.height())));
        const double step = qMax(1.0, spmv::viz::nice_step(r1 - r0, maxTicks));
        for (double r = std::ceil(r0 / step) * step; r < r1; r += step) {
            const double y = m_view.y_of_row(r + 0.5);
            if (y < area.top() || y > area.bottom()) continue;
            p.drawLine(QPointF(left - 4, y), QPointF(left, y));
            const QString label = groupDigits(static_cast<qint64>(r));
            p.drawText(QPointF(left - 6 - fm.horizontalAdvance(label), y + fm.ascent() / 2.0 - 1),
                       label);
        }
    }
}

void SparsityView::drawGrid(QPainter& p)
{
    // cell borders once cells are large enough to read
    if (m_view.scale < 8.0) {
        return;
    }
    const auto v = m_view.visible();
    QPen pen(toQColor(Appearance::palette().grid));
    pen.setWidthF(1.0);
    p.setPen(pen);
    for (auto c = v.col_begin; c <= v.col_end; ++c) {
        const double x = m_view.x_of_col(static_cast<double>(c));
        p.drawLine(QPointF(x, m_view.y_of_row(static_cast<double>(v.row_begin))),
                   QPointF(x, m_view.y_of_row(static_cast<double>(v.row_end))));
    }
    for (auto r = v.row_begin; r <= v.row_end; ++r) {
        const double y = m_view.y_of_row(static_cast<double>(r));
        p.drawLine(QPointF(m_view.x_of_col(static_cast<double>(v.col_begin)), y),
                   QPointF(m_view.x_of_col(static_cast<double>(v.col_end)), y));
    }
}

void SparsityView::drawLegend(QPainter& p)
{
    const auto& pal = Appearance::palette();
    const QRect strip(0, height() - legendHeight(), width(), legendHeight());
    const QFont font = Appearance::instance().font();
    p.setFont(font);
    const QFontMetrics fm(font);
    p.setPen(toQColor(pal.text));
    const auto& s = m_document->stats;
    QString line1 = tr("%1 \u00d7 %2, %3 nonzeros")
                        .arg(groupDigits(s.rows), groupDigits(s.cols), groupDigits(s.nnz));
    if (m_order) {
        line1 += tr("  \u2014  rows in %1 order (row_perm)").arg(m_orderName);
    }
    QString line2;
    if (!m_info) {
        line2 = tr("bandwidth and symmetry: computing ...");
    } else {
        line2 = tr("bandwidth %1").arg(groupDigits(m_info->bandwidth));
    }
    const spmv::analysis::PatternFacts facts = m_info ? m_info->facts : spmv::analysis::PatternFacts{};
    if (m_info && facts.square) {
        auto percent = [](double share) {
            const double pct = 100.0 * share;
            return QString::number(pct, 'f', pct > 0.0 && pct < 10.0 ? 1 : 0);
        };
        line2 += tr("; pattern %1 % symmetric (values %2 %)")
                     .arg(percent(facts.structural_symmetry()),
                          percent(facts.numerical_symmetry()));
    }
    if (m_margins) line2 += tr("; beside the plot: nonzeros per row / column (grey: max, blue: mean)");
    int y = strip.top() + 2 * fm.height() + 8;
    int x = plotRect().left();
    const int column = legendColumnWidth();
    // beside the plot: the lines wrapped in the column, the key below them, one item a line
    // where the column is too narrow for the next one
    const int left = column > 0 ? width() - column : x;
    const int right = column > 0 ? width() - 4 : width();
    if (column > 0) {
        QRect r(left, 4, right - left, height() - 4);
        QRect used;
        QFont bold = font;
        bold.setBold(true);
        p.setFont(bold);
        QString title = tr("Sparsity pattern of %1").arg(m_document->name);
        if (m_order) title += tr(", rows in %1 order").arg(m_orderName);
        p.drawText(r, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, title, &used);
        p.setFont(font);
        r.setTop(used.bottom() + 10);
        p.drawText(r, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, line1, &used);
        r.setTop(used.bottom() + 6);
        p.drawText(r, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop,
                   line2.replace(QStringLiteral("; "), QStringLiteral(";\n")), &used);
        y = used.bottom() + 10;
        x = left;
    } else {
        p.drawText(QPoint(plotRect().left(), strip.top() + fm.ascent() + 2), line1);
        p.drawText(QPoint(plotRect().left(), strip.top() + fm.height() + fm.ascent() + 4), line2);
    }
    const int box = fm.height() - 2;
    // the next key item of `w` px: on this line when it fits, else at the start of the next
    auto room = [&](int w) {
        if (column > 0 && x > left && x + w > right) {
            x = left;
            y += fm.height() + 4;
        }
    };
    if (m_colouring == spmv::viz::PatternColouring::sign) {
        const struct {
            spmv::viz::Rgb colour;
            QString text;
        } keys[] = {{spmv::viz::sign_colour(1, 0, 1), tr("positive")},
                    {spmv::viz::sign_colour(1, 1, 1), tr("negative")},
                    {spmv::viz::sign_colour(2, 1, 2), tr("both in one pixel (lighter: fewer nonzeros)")}};
        for (const auto& k : keys) {
            room(box + 4 + fm.horizontalAdvance(k.text));
            p.fillRect(QRect(x, y, box, box), toQColor(k.colour));
            x += box + 4;
            p.drawText(QPoint(x, y + fm.ascent()), k.text);
            x += fm.horizontalAdvance(k.text) + 14;
        }
    } else if (m_colouring == spmv::viz::PatternColouring::magnitude) {
        const auto& f = facts;
        const bool clipped = f.abs_low > f.abs_min || f.abs_high < f.abs_max;
        const QString lo = tr("largest |value| per pixel: %1%2")
                               .arg(clipped ? QStringLiteral("\u2264 ") : QString())
                               .arg(f.abs_low, 0, 'g', 3);
        room(fm.horizontalAdvance(lo));
        p.drawText(QPoint(x, y + fm.ascent()), lo);
        x += fm.horizontalAdvance(lo) + 6;
        const int rampWidth = 160;
        room(rampWidth);
        for (int i = 0; i < rampWidth; ++i) {
            const double t = i / (rampWidth - 1.0);
            const double v = f.abs_high > f.abs_low && f.abs_low > 0
                                 ? f.abs_low * std::pow(f.abs_high / f.abs_low, t)
                                 : f.abs_high;
            p.fillRect(QRect(x + i, y, 1, box),
                       toQColor(spmv::viz::magnitude_colour(v, f.abs_low, f.abs_high)));
        }
        p.setPen(toQColor(pal.grid));
        p.drawRect(QRect(x, y, rampWidth, box));
        p.setPen(toQColor(pal.text));
        x += rampWidth + 6;
        QString hi = clipped ? tr("\u2265 %1 (log scale, 1st\u201399th percentile; all: %2 \u2026 %3)")
                                   .arg(f.abs_high, 0, 'g', 3)
                                   .arg(f.abs_min, 0, 'g', 3)
                                   .arg(f.abs_max, 0, 'g', 3)
                             : tr("%1 (log scale)").arg(f.abs_max, 0, 'g', 3);
        if (f.zeros > 0) hi += tr("; grey: stored zero");
        if (column > 0) {
            x = left;
            y += fm.height() + 4;
            p.drawText(QRect(x, y, right - left, height() - y), Qt::TextWordWrap, hi);
        } else {
            p.drawText(QPoint(x, y + fm.ascent()), hi);
        }
    } else if (m_imageMaxCount > 1) {
        const QString label = tr("nonzeros per pixel: 1");
        p.drawText(QPoint(x, y + fm.ascent()), label);
        x += fm.horizontalAdvance(label) + 6;
        const int rampWidth = 160;
        room(rampWidth);
        const auto ramp = spmv::viz::density_ramp(m_imageMaxCount, rampWidth);
        for (int i = 0; i < rampWidth; ++i) {
            p.fillRect(QRect(x + i, y, 1, box), toQColor(ramp[static_cast<std::size_t>(i)]));
        }
        p.setPen(toQColor(pal.grid));
        p.drawRect(QRect(x, y, rampWidth, box));
        p.setPen(toQColor(pal.text));
        x += rampWidth + 6;
        const QString top = tr("%1 (log scale)").arg(groupDigits(m_imageMaxCount));
        room(fm.horizontalAdvance(top));
        p.drawText(QPoint(x, y + fm.ascent()), top);
    } else {
        p.fillRect(QRect(x, y, box, box), toQColor(pal.nonzero));
        x += box + 6;
        const QString what = m_view.exact()
                                 ? tr("nonzero (one cell = %1 px)").arg(m_view.scale, 0, 'g', 3)
                                 : tr("nonzero");
        if (column > 0) {
            p.drawText(QRect(x, y, right - x, height() - y), Qt::TextWordWrap, what);
        } else {
            p.drawText(QPoint(x, y + fm.ascent()), what);
        }
    }
}

void SparsityView::resizeEvent(QResizeEvent*)
{
    const QRect r = plotRect();
    if (m_fitted) {
        resetView();
    } else {
        m_view = m_view.resized(r.right() + 1, r.bottom() + 1);
        scheduleRender();
    }
}

void SparsityView::wheelEvent(QWheelEvent* event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0.0) {
        zoomAt(std::pow(1.25, steps), event->position());
        describePosition(event->position());  // the status bar's "one pixel = ..." anew
    }
    event->accept();
}

void SparsityView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) {
        m_dragging = true;
        m_dragStart = event->position();
        m_dragView = m_view;
        setCursor(Qt::ClosedHandCursor);
    }
}

void SparsityView::mouseMoveEvent(QMouseEvent* event)
{
    if (m_dragging) {
        const QPointF d = event->position() - m_dragStart;
        m_view = m_dragView.panned(d.x(), d.y());
        m_fitted = false;
        scheduleRender();
        update();
    }
    describePosition(event->position());
}

void SparsityView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && m_dragging) {
        m_dragging = false;
        unsetCursor();
    }
}

void SparsityView::mouseDoubleClickEvent(QMouseEvent* event)
{
    resetView();
    describePosition(event->position());  // the zoom the status bar names changed
}

void SparsityView::leaveEvent(QEvent*)
{
    m_positionShown = false;
    emit statusMessage(QString());  // the position under the cursor no longer holds
}

void SparsityView::describePosition(QPointF pos)
{
    m_lastPosition = pos;
    if (!m_document) {
        return;
    }
    const auto cell = m_view.cell_at(pos.x(), pos.y());
    if (!cell) {
        m_positionShown = false;
        emit statusMessage(QString());
        return;
    }
    const qint64 row = m_order ? (*m_order)[static_cast<std::size_t>(cell->row)] : cell->row;
    QString text =
        m_order ? tr("Position %1 = row %2, column %3").arg(cell->row).arg(row).arg(cell->col)
                : tr("Row %1, column %2").arg(row).arg(cell->col);
    if (m_view.exact()) {
        if (const auto k = spmv::viz::find_entry(m_document->csr, row, cell->col)) {
            text += tr(": value %1 (nonzero %2)")
                        .arg(m_document->csr.values[static_cast<std::size_t>(*k)])
                        .arg(*k);
        } else {
            text += tr(": zero");
        }
    } else {
        text += tr(" (one pixel = %1 \u00d7 %1 cells)").arg(1.0 / m_view.scale, 0, 'g', 3);
    }
    m_positionShown = true;
    emit statusMessage(text);
}
