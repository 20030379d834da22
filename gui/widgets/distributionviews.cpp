#include "distributionviews.hpp"

#include <algorithm>
#include <cstring>

#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QThreadPool>
#include <QToolTip>
#include <QtConcurrent/QtConcurrentRun>

#include <spmv/analysis/summary.hpp>
#include <spmv/viz/colour.hpp>
#include <spmv/viz/rank_pattern.hpp>
#include <spmv/viz/timeline_svg.hpp>

#include "appearance.hpp"
#include "elidedtext.hpp"

namespace {

QThreadPool* rankRasterPool()
{
    // one dedicated thread, as the sparsity view's: a raster never waits behind the scaling job
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setMaxThreadCount(1);
        return p;
    }();
    return pool;
}

struct RankRasterResult {
    QImage image;
    spmv::viz::ViewTransform view;
    int ranks = 1;
    std::vector<std::int64_t> rowBounds;
    std::vector<std::int64_t> colBounds;
    qint64 local = 0;
    qint64 nonlocal = 0;
    QString error;
};

constexpr int plotMargin = 8;

QString fromStd(const std::string& s)
{
    return QString::fromStdString(s);
}

QRectF toRect(const LayoutRect& r)
{
    return {r.x, r.y, r.w, r.h};
}

/// A "first-last" label of a group of ranks, or the rank.
QString rankRange(int first, int last)
{
    return first == last ? QString::number(first)
                         : QStringLiteral("%1\u2013%2").arg(first).arg(last);
}

}  // namespace

// ---- RankPatternView -----------------------------------------------------------------------

RankPatternView::RankPatternView(QWidget* parent) : QWidget(parent)
{
    setMinimumSize(160, 160);
    m_renderDelay.setSingleShot(true);
    m_renderDelay.setInterval(30);
    connect(&m_renderDelay, &QTimer::timeout, this, &RankPatternView::startRender);
    connect(&Appearance::instance(), &Appearance::changed, this, &RankPatternView::scheduleRender);
}

int RankPatternView::legendHeight() const
{
    return QFontMetrics(Appearance::instance().font(0.9)).height() * 2 + 10;
}

QRect RankPatternView::plotRect() const
{
    return QRect(0, 0, width(), qMax(0, height() - legendHeight()));
}

void RankPatternView::setPartition(MatrixDocumentPtr document, PartitionPtr partition)
{
    if (document != m_document) m_image = QImage();
    m_document = std::move(document);
    m_partition = std::move(partition);
    m_message.clear();
    scheduleRender();
    update();
}

void RankPatternView::setMessage(const QString& message)
{
    m_message = message;
    m_partition.reset();
    m_image = QImage();
    ++m_generation;  // a raster on its way is stale
    update();
}

void RankPatternView::resizeEvent(QResizeEvent*)
{
    scheduleRender();
}

void RankPatternView::scheduleRender()
{
    ++m_generation;
    m_renderDelay.start();
}

void RankPatternView::startRender()
{
    const QRect area = plotRect();
    if (!m_document || !m_partition || area.width() <= 0 || area.height() <= 0) {
        m_image = QImage();
        update();
        emit renderFinished();
        return;
    }
    const auto view =
        spmv::viz::ViewTransform::fit(m_document->csr.num_rows, m_document->csr.num_cols,
                                      area.width(), area.height(), plotMargin);
    const quint64 generation = ++m_generation;
    ++m_rendering;
    const QRgb outside = palette().color(QPalette::Window).rgb();
    auto job = [doc = m_document, part = m_partition, view, outside] {
        RankRasterResult r;
        r.view = view;
        try {
            const auto raster = spmv::viz::rasterize_ranks(doc->csr, *part, view);
            const auto px = spmv::viz::rank_argb(raster, view, outside);
            QImage img(raster.width, raster.height, QImage::Format_RGB32);
            for (int y = 0; y < raster.height; ++y) {
                std::memcpy(img.scanLine(y), px.data() + static_cast<std::size_t>(y) * raster.width,
                            static_cast<std::size_t>(raster.width) * 4);
            }
            r.image = std::move(img);
            r.ranks = raster.num_ranks;
            r.rowBounds = raster.row_bounds;
            r.colBounds = raster.col_bounds;
            r.local = raster.local_visited;
            r.nonlocal = raster.nonlocal_visited;
        } catch (const std::exception& e) {
            r.error = QString::fromStdString(e.what());
        }
        return r;
    };
    QtConcurrent::run(rankRasterPool(), std::move(job))
        .then(this, [this, generation](RankRasterResult r) {
            --m_rendering;
            if (generation == m_generation) {
                m_image = std::move(r.image);
                m_imageView = r.view;
                m_imageRanks = r.ranks;
                m_rowBounds = std::move(r.rowBounds);
                m_colBounds = std::move(r.colBounds);
                m_local = r.local;
                m_nonlocal = r.nonlocal;
                if (!r.error.isEmpty())
                    m_message = tr("Could not draw the pattern: %1").arg(r.error);
                update();
            }
            if (!isRendering()) emit renderFinished();
        });
}

void RankPatternView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const auto& app = Appearance::instance();
    const auto& pal = Appearance::palette();
    p.fillRect(rect(), palette().color(QPalette::Window));
    p.setFont(app.font());
    const QRect area = plotRect();
    if (!m_message.isEmpty() || !m_document || !m_partition || m_image.isNull()) {
        p.setPen(toQColor(pal.text));
        p.drawText(area.adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap,
                   !m_message.isEmpty() ? m_message
                   : m_document         ? tr("Computing the partition ...")
                                        : tr("No matrix loaded"));
        return;
    }
    p.drawImage(0, 0, m_image);
    const auto& view = m_imageView;
    const int P = m_imageRanks;
    const double left = view.x_of_col(0);
    const double right = view.x_of_col(static_cast<double>(view.num_cols));
    const double top = view.y_of_row(0);
    const double bottom = view.y_of_row(static_cast<double>(view.num_rows));
    // rank boundaries, while the bands are at least 2 px high on average
    const bool boundaries = P > 1 && view.scale * static_cast<double>(view.num_rows) / P >= 2.0;
    if (boundaries) {
        QColor c = toQColor(pal.block_line);
        c.setAlpha(190);
        QPen pen(c);
        pen.setWidthF(app.lineWidth(1.2));
        p.setPen(pen);
        for (std::size_t r = 1; r + 1 < m_rowBounds.size(); ++r) {
            const double y = view.y_of_row(static_cast<double>(m_rowBounds[r]));
            p.drawLine(QPointF(left, y), QPointF(right, y));
        }
        for (std::size_t r = 1; r + 1 < m_colBounds.size(); ++r) {
            const double x = view.x_of_col(static_cast<double>(m_colBounds[r]));
            p.drawLine(QPointF(x, top), QPointF(x, bottom));
        }
    }
    QPen frame(toQColor(pal.text));
    frame.setWidthF(app.lineWidth());
    p.setPen(frame);
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(left, top, right - left, bottom - top));

    // legend: the ranks' colours, then what local / non-local / the lines mean
    const QFont small = app.font(0.9);
    p.setFont(small);
    const QFontMetrics fm(small);
    const int sw = fm.height() - 4;
    int x = 8;
    int y = area.bottom() + 6;
    auto swatch = [&](QColor fill, QColor border, const QString& label) {
        const QRect box(x, y + 2, sw, sw);
        p.fillRect(box, fill);
        p.setPen(border);
        p.drawRect(box.adjusted(0, 0, -1, -1));
        p.setPen(toQColor(pal.text));
        p.drawText(x + sw + 4, y + fm.ascent() + 1, label);
        x += sw + 4 + fm.horizontalAdvance(label) + 12;
    };
    const int shown = std::min(P, 8);
    for (int r = 0; r < shown; ++r) {
        const QColor c = toQColor(spmv::viz::rank_colour(r));
        swatch(c, c, tr("rank %1").arg(r));
    }
    if (P > shown) {
        p.setPen(toQColor(pal.text));
        p.drawText(x, y + fm.ascent() + 1, tr("\u2026 (%1 ranks, 7 colours repeat)").arg(P));
    }
    x = 8;
    y += fm.height() + 2;
    swatch(toQColor(spmv::viz::rank_colour(0)), toQColor(spmv::viz::rank_colour(0)),
           tr("local (the rank owns row and x)"));
    swatch(toQColor(spmv::viz::rank_nonlocal_colour(0)), toQColor(spmv::viz::rank_outline_colour),
           tr("non-local (x from another rank)"));
    swatch(toQColor(spmv::viz::rank_band_colour(0)), toQColor(spmv::viz::rank_band_colour(0)),
           tr("the rank's rows"));
}

// ---- CommMatrixView ------------------------------------------------------------------------

CommMatrixView::CommMatrixView(QWidget* parent) : QWidget(parent)
{
    setMinimumSize(160, 140);
    setMouseTracking(true);
    connect(&Appearance::instance(), &Appearance::changed, this, [this] {
        rebin();
        update();
    });
}

void CommMatrixView::setStats(PartitionStatsPtr stats)
{
    m_stats = std::move(stats);
    rebin();
    update();
}

void CommMatrixView::resizeEvent(QResizeEvent*)
{
    rebin();
}

void CommMatrixView::rebin()
{
    // cells of at least 4 px, at most 64 per side
    const int maxCells = std::clamp(std::min(width(), height()) / 4, 1, 64);
    m_heatmap = m_stats ? commHeatmap(*m_stats, maxCells) : CommHeatmap{};
}

double CommMatrixView::labelWidth() const
{
    const QFontMetrics fm(Appearance::instance().font(0.9));
    const int last = std::max(0, m_heatmap.ranks - 1);
    const QString widest = m_heatmap.ranksPerCell > 1 ? rankRange(last, last) + QStringLiteral("00")
                                                      : QString::number(last);
    return std::max(fm.horizontalAdvance(widest), fm.horizontalAdvance(tr("from \u2193"))) + 8;
}

double CommMatrixView::numberWidth() const
{
    const QFontMetrics fm(Appearance::instance().font(0.85));
    return fm.horizontalAdvance(QString::number(m_heatmap.maxCount));
}

HeatmapGeometry CommMatrixView::geometry() const
{
    const QFontMetrics fm(Appearance::instance().font(0.9));
    return heatmapGeometry(m_heatmap.cells, width(), height(), labelWidth(), fm.height(),
                           numberWidth());
}

void CommMatrixView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const auto& app = Appearance::instance();
    const auto& pal = Appearance::palette();
    p.fillRect(rect(), toQColor(pal.background));
    const QFont labelFont = app.font(0.9);
    p.setFont(labelFont);
    p.setPen(toQColor(pal.text));
    if (!m_stats || m_heatmap.cells == 0) {
        p.drawText(rect(), Qt::AlignCenter, tr("No partition"));
        return;
    }
    const HeatmapGeometry g = geometry();
    const QFontMetrics fm(labelFont);
    const auto& h = m_heatmap;
    const bool exact = h.ranksPerCell == 1;
    // header: what the axes are
    p.drawText(QRectF(g.grid.x, 6, std::max(10.0, width() - g.grid.x - 4), fm.height()),
               Qt::AlignLeft | Qt::AlignVCenter, tr("to rank \u2192 (receives)"));
    p.drawText(QRectF(g.grid.x - labelWidth(), 6 + fm.height(), labelWidth() - 4, fm.height()),
               Qt::AlignRight | Qt::AlignVCenter, tr("from \u2193"));
    // cells
    const QFont numberFont = app.font(0.85);
    for (int s = 0; s < h.cells; ++s) {
        for (int d = 0; d < h.cells; ++d) {
            const QRectF r = toRect(g.cellRect(s, d));
            const std::int64_t n = h.at(s, d);
            const bool self = exact && s == d;
            const auto fill = self ? pal.empty : commColour(n, h.maxCount);
            p.fillRect(r, toQColor(fill));
            if (g.numbers && !self) {
                p.setFont(numberFont);
                p.setPen(toQColor(spmv::viz::text_colour_on(fill)));
                p.drawText(r, Qt::AlignCenter, QString::number(n));
            }
        }
    }
    // light grid between cells that are large enough, frame around all
    if (g.cell >= 8) {
        QPen grid(toQColor(pal.grid));
        grid.setWidthF(1.0);
        p.setPen(grid);
        for (int i = 1; i < h.cells; ++i) {
            const double x = g.grid.x + i * g.cell;
            const double y = g.grid.y + i * g.cell;
            p.drawLine(QPointF(x, g.grid.y), QPointF(x, g.grid.bottom()));
            p.drawLine(QPointF(g.grid.x, y), QPointF(g.grid.right(), y));
        }
    }
    QPen frame(toQColor(pal.text));
    frame.setWidthF(app.lineWidth());
    p.setPen(frame);
    p.setBrush(Qt::NoBrush);
    p.drawRect(toRect(g.grid));
    // labels of the cells: all when they fit, else the first and the last
    p.setFont(labelFont);
    p.setPen(toQColor(pal.text));
    const bool allRows = g.cell >= fm.height();
    const QString lastLabel = rankRange(h.firstRank(h.cells - 1), h.lastRank(h.cells - 1));
    const bool allCols = g.cell >= fm.horizontalAdvance(lastLabel) + 4;
    for (int c = 0; c < h.cells; ++c) {
        if (!allRows && c != 0 && c != h.cells - 1 && !allCols) continue;
        const QString label = rankRange(h.firstRank(c), h.lastRank(c));
        const LayoutRect cell = g.cellRect(c, c);
        if (allRows || c == 0 || c == h.cells - 1) {
            p.drawText(QRectF(g.grid.x - labelWidth(), cell.y, labelWidth() - 4,
                              std::max(cell.h, double(fm.height()))),
                       Qt::AlignRight | (allRows ? Qt::AlignVCenter : Qt::AlignTop), label);
        }
        if (allCols || c == 0 || c == h.cells - 1) {
            const double w = std::max(cell.w, double(fm.horizontalAdvance(label)) + 4);
            p.drawText(
                QRectF(cell.x + cell.w / 2 - w / 2, g.grid.y - fm.height() - 1, w, fm.height()),
                Qt::AlignCenter, label);
        }
    }
}

void CommMatrixView::mouseMoveEvent(QMouseEvent* event)
{
    const HeatmapGeometry g = geometry();
    const auto [s, d] = g.cellAt(event->position().x(), event->position().y());
    if (s < 0 || !m_stats) {
        QToolTip::hideText();
        return;
    }
    const auto& h = m_heatmap;
    const auto n = h.at(s, d);
    QToolTip::showText(
        event->globalPosition().toPoint(),
        tr("rank %1 \u2192 rank %2: %3 entries of x per SpMV (%4)")
            .arg(rankRange(h.firstRank(s), h.lastRank(s)), rankRange(h.firstRank(d), h.lastRank(d)))
            .arg(groupDigits(n))
            .arg(QString::fromStdString(
                spmv::analysis::format_bytes(static_cast<double>(n) * m_stats->value_bytes))),
        this);
}

// ---- BalanceView ---------------------------------------------------------------------------

BalanceView::BalanceView(QWidget* parent) : QWidget(parent)
{
    setMinimumSize(160, 160);
    connect(&Appearance::instance(), &Appearance::changed, this, [this] {
        rebin();
        update();
    });
}

void BalanceView::setStats(PartitionStatsPtr stats)
{
    m_stats = std::move(stats);
    rebin();
    update();
}

void BalanceView::resizeEvent(QResizeEvent*)
{
    rebin();
}

void BalanceView::rebin()
{
    // bars of at least 2 px
    const int maxBars = std::max(1, (width() - 12) / 2);
    m_chart = m_stats ? balanceChart(*m_stats, maxBars) : BalanceChart{};
}

BalanceGeometry BalanceView::geometry() const
{
    const QFontMetrics fm(Appearance::instance().font(0.9));
    const int last = m_chart.bars.empty() ? 0 : m_chart.bars.back().lastRank;
    const QString widest = m_chart.ranksPerBar > 1 ? rankRange(last, last) : QString::number(last);
    return balanceGeometry(m_chart, width(), height(), fm.height() + 2,
                           fm.horizontalAdvance(widest) + 8);
}

void BalanceView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const auto& app = Appearance::instance();
    const auto& pal = Appearance::palette();
    p.fillRect(rect(), toQColor(pal.background));
    const QFont font = app.font(0.9);
    p.setFont(font);
    p.setPen(toQColor(pal.text));
    if (!m_stats || m_chart.bars.empty()) {
        p.drawText(rect(), Qt::AlignCenter, tr("No partition"));
        return;
    }
    const BalanceGeometry g = geometry();
    const QFontMetrics fm(font);
    const QColor local = toQColor(spmv::viz::rank_colour(0));
    const QColor nonlocal = toQColor(spmv::viz::rank_nonlocal_colour(0));
    const QColor rows = toQColor(pal.indices);
    const QColor halo = toQColor(spmv::viz::okabe_ito::reddish_purple);
    const auto& c = m_chart;
    const QString group =
        c.ranksPerBar > 1 ? tr(" (bars: largest of %1 ranks)").arg(c.ranksPerBar) : QString();

    // titles, with a swatch for each colour used in the strip
    auto title = [&](int strip, const QList<QPair<QColor, QString>>& parts, const QString& tail) {
        double x = g.strips[strip].x;
        const double y = g.titleY[strip];
        const int sw = fm.height() - 6;
        for (const auto& [colour, text] : parts) {
            if (colour.isValid()) {
                p.fillRect(QRectF(x, y + 3, sw, sw), colour);
                x += sw + 3;
            }
            p.setPen(toQColor(pal.text));
            p.drawText(QPointF(x, y + fm.ascent()), text);
            x += fm.horizontalAdvance(text) + 8;
        }
        p.drawText(QPointF(x, y + fm.ascent()),
                   elideText(fm, tail, Qt::ElideRight, static_cast<int>(width() - x - 4)));
    };
    title(BalanceGeometry::nnz,
          {{QColor(), tr("nnz:")}, {local, tr("local")}, {nonlocal, tr("non-local")}},
          tr("max/mean %1%2").arg(c.nnzImbalance, 0, 'f', 3).arg(group));
    title(BalanceGeometry::rows, {{rows, tr("rows")}},
          tr("max/mean %1").arg(c.rowImbalance, 0, 'f', 3));
    title(BalanceGeometry::halo, {{halo, tr("halo (x received)")}},
          tr("max %1, mean %2")
              .arg(groupDigits(static_cast<qint64>(c.maxHalo)),
                   groupDigits(static_cast<qint64>(c.meanHalo + 0.5))));

    for (const auto& b : g.bars) {
        p.fillRect(toRect(b.local), local);
        p.fillRect(toRect(b.nonlocal), nonlocal);
        p.fillRect(toRect(b.rows), rows);
        p.fillRect(toRect(b.halo), halo);
    }
    // baselines and the means
    QPen base(toQColor(pal.text));
    base.setWidthF(app.lineWidth());
    QPen mean(toQColor(pal.text));
    mean.setStyle(Qt::DashLine);
    mean.setWidthF(app.lineWidth());
    for (int s = 0; s < 3; ++s) {
        const auto& r = g.strips[s];
        p.setPen(base);
        p.drawLine(QPointF(r.x, r.bottom()), QPointF(r.right(), r.bottom()));
        if (r.h > 0) {
            p.setPen(mean);
            p.drawLine(QPointF(r.x, g.meanY[s]), QPointF(r.right(), g.meanY[s]));
        }
    }
    // rank labels under the last strip
    p.setPen(toQColor(pal.text));
    const auto& last = g.strips[BalanceGeometry::halo];
    for (std::size_t i : g.labelledBars) {
        const auto& b = g.bars[i];
        const auto& bar = c.bars[i];
        const double cx = b.halo.x + b.halo.w / 2;
        const QString label = rankRange(bar.firstRank, bar.lastRank);
        const double w = fm.horizontalAdvance(label) + 4;
        double x = std::clamp(cx - w / 2, 0.0, width() - w);
        p.drawText(QRectF(x, last.bottom() + 1, w, fm.height()), Qt::AlignCenter, label);
    }
}

// ---- TimelineView --------------------------------------------------------------------------

TimelineView::TimelineView(QWidget* parent) : QWidget(parent)
{
    setMinimumSize(240, 200);
    setMouseTracking(true);
    connect(&Appearance::instance(), &Appearance::changed, this, qOverload<>(&QWidget::update));
}

void TimelineView::setTimelines(std::vector<spmv::dist::Timeline> timelines)
{
    m_timelines = std::move(timelines);
    update();
}

TimelineFit TimelineView::fit() const
{
    return fitTimelines(m_timelines, width(), height(), Appearance::instance().scale(), 9.0, 18.0);
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const auto& pal = Appearance::palette();
    p.fillRect(rect(), toQColor(pal.background));
    if (m_timelines.empty()) {
        p.setFont(Appearance::instance().font());
        p.setPen(toQColor(pal.text));
        p.drawText(rect(), Qt::AlignCenter, tr("No timeline"));
        return;
    }
    TimelineFit f;
    try {
        f = fit();
    } catch (const std::exception& e) {
        p.setFont(Appearance::instance().font());
        p.setPen(toQColor(pal.text));
        p.drawText(rect().adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("Cannot draw the timelines: %1").arg(QString::fromStdString(e.what())));
        return;
    }
    const auto& lay = f.layout;
    p.setRenderHint(QPainter::TextAntialiasing);
    p.scale(f.scale, f.scale);
    // the layout's units are the SVG's: 11 px text, 14 px bold titles (timeline_svg.cpp)
    QFont text = Appearance::instance().font();
    text.setPixelSize(11);
    QFont bold = text;
    bold.setBold(true);
    QFont titleFont = bold;
    titleFont.setPixelSize(14);
    const QColor ink = toQColor(pal.text);
    const QColor gridColour = toQColor(spmv::viz::mix(pal.grid, pal.background, 0.6));
    const auto ticks = timelineTicks(lay.axis);
    const double margin = 12.0;
    // row labels shrink with the rows so that neighbouring labels do not overlap
    QFont rowFont = text;
    rowFont.setPixelSize(static_cast<int>(std::clamp(f.options.row_height_px + 2.0, 7.0, 11.0)));
    const QFontMetricsF rowMetrics(rowFont);

    for (const auto& panel : lay.panels) {
        const auto& t = m_timelines[panel.timeline];
        p.setPen(ink);
        p.setFont(titleFont);
        p.drawText(QPointF(margin, panel.y + 14.0), fromStd(panel.title));
        double infoY = panel.y + 20.0 + 10.0;
        for (std::size_t i = 0; i < panel.info.size(); ++i) {
            const bool predictedLine = t.predicted && i + 1 == panel.info.size();
            p.setFont(predictedLine ? bold : text);
            p.setPen(predictedLine ? toQColor(pal.predicted) : ink);
            p.drawText(QPointF(margin, infoY), fromStd(panel.info[i]));
            infoY += 15.0;
        }
        p.setPen(QPen(gridColour, 0));
        for (double tick : ticks) {
            const double x = lay.x_of(tick);
            p.drawLine(QPointF(x, panel.rows_y - 2.0), QPointF(x, panel.axis_y));
        }
        p.setFont(rowFont);
        p.setPen(ink);
        bool anyBar = false;
        for (const auto& row : lay.rows) {
            if (row.panel != panel.timeline) continue;
            p.drawText(QRectF(0, row.y + row.height / 2 - rowMetrics.height() / 2,
                              lay.plot_left - 6.0, rowMetrics.height()),
                       Qt::AlignRight | Qt::AlignVCenter, fromStd(row.label));
        }
        for (const auto& b : lay.bars) {
            if (b.panel != panel.timeline) continue;
            anyBar = true;
            // at least one device pixel wide, so a short phase stays visible
            p.fillRect(QRectF(b.x, b.y, std::max(b.width, 1.0 / f.scale), b.height),
                       toQColor(spmv::viz::phase_colour(b.phase)));
        }
        if (!anyBar) {
            p.setFont(text);
            p.drawText(QPointF(lay.plot_left + 6.0, panel.rows_y + f.options.row_height_px * 0.72),
                       panel.iteration >= 0 ? tr("no events in iteration %1").arg(panel.iteration)
                                            : tr("no events"));
        }
        // time axis
        p.setFont(text);
        p.setPen(QPen(ink, 0));
        p.drawLine(QPointF(lay.plot_left, panel.axis_y),
                   QPointF(lay.plot_left + lay.plot_width, panel.axis_y));
        for (double tick : ticks) {
            const double x = lay.x_of(tick);
            p.drawLine(QPointF(x, panel.axis_y), QPointF(x, panel.axis_y + 4.0));
            p.drawText(QRectF(x - 40, panel.axis_y + 5.0, 80, 13), Qt::AlignHCenter | Qt::AlignTop,
                       fromStd(spmv::viz::compact_number(tick)));
        }
        p.drawText(QRectF(lay.plot_left, panel.axis_y + 19.0, lay.plot_width, 13),
                   Qt::AlignRight | Qt::AlignTop, tr("time (\u00b5s)"));
    }
    p.setFont(text);
    for (const auto& item : timelineLegend(lay)) {
        p.fillRect(toRect(item.swatch), toQColor(spmv::viz::phase_colour(item.phase)));
        p.setPen(ink);
        p.drawText(QPointF(item.textX, item.baselineY), fromStd(item.label));
    }
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    if (m_timelines.empty()) return;
    try {
        const TimelineFit f = fit();
        const double x = event->position().x() / f.scale;
        const double y = event->position().y() / f.scale;
        for (const auto& b : f.layout.bars) {
            if (x >= b.x && x <= b.x + std::max(b.width, 2.0 / f.scale) && y >= b.y &&
                y <= b.y + b.height) {
                const auto& e = m_timelines[b.panel].events[b.event];
                QToolTip::showText(
                    event->globalPosition().toPoint(),
                    tr("%1, %2, iteration %3: %4 to %5 \u00b5s (%6 \u00b5s)")
                        .arg(fromStd(spmv::viz::phase_label(e.phase)),
                             fromStd(f.layout.rows[b.row].label))
                        .arg(e.iteration)
                        .arg(fromStd(spmv::viz::compact_number(e.begin_us)), fromStd(spmv::viz::compact_number(e.end_us)),
                             fromStd(spmv::viz::compact_number(e.end_us - e.begin_us))),
                    this);
                return;
            }
        }
    } catch (const std::exception&) {
    }
    QToolTip::hideText();
}
