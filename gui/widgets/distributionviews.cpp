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

/// A mode's short name, as the Modes box lists it.
QString modeTitle(spmv::dist::Mode m)
{
    switch (m) {
        case spmv::dist::Mode::vector:
            return QObject::tr("vector");
        case spmv::dist::Mode::naive:
            return QObject::tr("naive overlap");
        case spmv::dist::Mode::overlap:
            return QObject::tr("explicit overlap");
        case spmv::dist::Mode::task:
            return QObject::tr("task mode");
    }
    return {};
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
    setMinimumSize(120, 120);  // small minima: a lesson's text docked below leaves little height
    m_renderDelay.setSingleShot(true);
    m_renderDelay.setInterval(30);
    connect(&m_renderDelay, &QTimer::timeout, this, &RankPatternView::startRender);
    connect(&Appearance::instance(), &Appearance::changed, this, &RankPatternView::scheduleRender);
}

namespace {

/// The rank pattern's legend: the ranks' colours, then what local / non-local / the bands mean.
struct LegendKey {
    QColor fill;
    QColor border;
    QString label;
    bool swatch = true;
    bool newLine = false;  ///< starts the second group on a line of its own
};

std::vector<LegendKey> rankLegend(int P)
{
    std::vector<LegendKey> keys;
    const int shown = std::min(P, 8);
    for (int r = 0; r < shown; ++r) {
        const QColor c = toQColor(spmv::viz::rank_colour(r));
        keys.push_back({c, c, RankPatternView::tr("rank %1").arg(r)});
    }
    if (P > shown) {
        keys.push_back({QColor(), QColor(),
                        RankPatternView::tr("\u2026 (%1 ranks, 7 colours repeat)").arg(P), false});
    }
    const QColor local = toQColor(spmv::viz::rank_colour(0));
    keys.push_back(
        {local, local, RankPatternView::tr("local (the rank owns row and x)"), true, true});
    keys.push_back({toQColor(spmv::viz::rank_nonlocal_colour(0)),
                    toQColor(spmv::viz::rank_outline_colour),
                    RankPatternView::tr("non-local (x from another rank)")});
    const QColor band = toQColor(spmv::viz::rank_band_colour(0));
    keys.push_back({band, band, RankPatternView::tr("the rank's rows")});
    return keys;
}

/// Top-left corners of the keys, flowing onto a new line where the next would pass `width`;
/// the number of lines in *lines.
std::vector<QPoint> flowLegend(const std::vector<LegendKey>& keys, const QFontMetrics& fm,
                               int width, int* lines)
{
    std::vector<QPoint> at;
    const int sw = fm.height() - 4;
    int x = 8, line = 0;
    for (const auto& k : keys) {
        const int w = (k.swatch ? sw + 4 : 0) + fm.horizontalAdvance(k.label);
        if (x > 8 && (k.newLine || x + w > width - 4)) {
            x = 8;
            ++line;
        }
        at.emplace_back(x, line * (fm.height() + 2));
        x += w + 12;
    }
    *lines = keys.empty() ? 0 : line + 1;
    return at;
}

}  // namespace

int RankPatternView::legendHeight() const
{
    const QFontMetrics fm(Appearance::instance().font(0.9));
    int lines = 0;
    flowLegend(rankLegend(m_imageRanks), fm, width(), &lines);
    return lines * (fm.height() + 2) + 8;
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

    // legend: the ranks' colours, then what local / non-local / the lines mean, flowing onto
    // as many lines as the width needs (legendHeight reserved them)
    const QFont small = app.font(0.9);
    p.setFont(small);
    const QFontMetrics fm(small);
    const int sw = fm.height() - 4;
    const auto keys = rankLegend(P);
    int lines = 0;
    const auto at = flowLegend(keys, fm, width(), &lines);
    const int legendTop = area.bottom() + 6;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const auto& k = keys[i];
        int x = at[i].x();
        const int y = legendTop + at[i].y();
        if (k.swatch) {
            const QRect box(x, y + 2, sw, sw);
            p.fillRect(box, k.fill);
            p.setPen(k.border);
            p.drawRect(box.adjusted(0, 0, -1, -1));
            x += sw + 4;
        }
        p.setPen(toQColor(pal.text));
        p.drawText(x, y + fm.ascent() + 1, k.label);
    }
}

// ---- CommMatrixView ------------------------------------------------------------------------

CommMatrixView::CommMatrixView(QWidget* parent) : QWidget(parent)
{
    setMinimumSize(120, 100);
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

double CommMatrixView::numberWidth(bool abbreviated) const
{
    const QFontMetrics fm(Appearance::instance().font(0.85));
    if (!abbreviated) return fm.horizontalAdvance(QString::number(m_heatmap.maxCount));
    // the widest abbreviation: four characters ("8.8k", "350k")
    return std::max(fm.horizontalAdvance(QStringLiteral("8.8k")),
                    fm.horizontalAdvance(QStringLiteral("888k")));
}

CommMatrixView::CellNumbers CommMatrixView::cellNumbers() const
{
    // whole numbers where they fit the cells, else every number abbreviated alike, else none
    // and a colour scale below the grid says what the colours count
    const QFontMetrics fm(Appearance::instance().font(0.9));
    const int cells = m_heatmap.cells;
    if (heatmapGeometry(cells, width(), height(), labelWidth(), fm.height(), numberWidth(false))
            .numbers) {
        return CellNumbers::whole;
    }
    if (heatmapGeometry(cells, width(), height() - scaleHeight(), labelWidth(), fm.height(),
                        numberWidth(true))
            .numbers) {
        return CellNumbers::abbreviated;
    }
    return CellNumbers::scale;
}

int CommMatrixView::scaleHeight() const
{
    return QFontMetrics(Appearance::instance().font(0.9)).height() * 2 + 10;
}

HeatmapGeometry CommMatrixView::geometry() const
{
    const QFontMetrics fm(Appearance::instance().font(0.9));
    const CellNumbers numbers = cellNumbers();
    const double h = numbers == CellNumbers::whole ? height() : height() - scaleHeight();
    return heatmapGeometry(m_heatmap.cells, width(), h, labelWidth(), fm.height(),
                           numberWidth(numbers == CellNumbers::abbreviated));
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
    const CellNumbers numbers = cellNumbers();
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
                p.drawText(r, Qt::AlignCenter,
                           numbers == CellNumbers::abbreviated
                               ? QString::fromStdString(abbreviatedCount(n))
                               : QString::number(n));
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
    // below the grid where the cells cannot hold whole numbers: what the abbreviations mean,
    // or the colour scale, 0 .. the largest count
    if (numbers != CellNumbers::whole) {
        p.setFont(labelFont);
        p.setPen(toQColor(pal.text));
        const double y0 = g.grid.bottom() + 6;
        double x = 6;
        if (numbers == CellNumbers::abbreviated) {
            p.drawText(QPointF(x, y0 + fm.ascent()), tr("k: thousand, M: million"));
            p.drawText(QPointF(x, y0 + fm.height() + fm.ascent()),
                       tr("(hover a cell: exact count)"));
        } else {
            p.drawText(QPointF(x, y0 + fm.ascent()), tr("entries sent (hover: exact)"));
            const double y1 = y0 + fm.height() + 2;
            const QString lo = QStringLiteral("0");
            const QString hi = groupDigits(h.maxCount);
            p.drawText(QPointF(x, y1 + fm.ascent()), lo);
            x += fm.horizontalAdvance(lo) + 4;
            const double ramp = std::clamp(width() - x - fm.horizontalAdvance(hi) - 12.0, 30.0, 160.0);
            for (int i = 0; i < static_cast<int>(ramp); ++i) {
                const auto count = static_cast<std::int64_t>(
                    std::llround(static_cast<double>(h.maxCount) * i / (ramp - 1)));
                p.fillRect(QRectF(x + i, y1 + 2, 1, fm.height() - 4),
                           toQColor(commColour(count, h.maxCount)));
            }
            x += ramp + 4;
            p.drawText(QPointF(x, y1 + fm.ascent()), hi);
        }
    }
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
    setMinimumSize(120, 120);
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

QStringList BalanceView::titleTails() const
{
    // the scale of each strip's count bars: the strip's top is its maximum, the dashed line
    // its mean (issue 34: count bars without a scale; max/mean is in the summary line)
    const auto& c = m_chart;
    const QString group =
        c.ranksPerBar > 1 ? tr(" (bars: largest of %1 ranks)").arg(c.ranksPerBar) : QString();
    auto count = [](double v) { return groupDigits(static_cast<qint64>(v + 0.5)); };
    return {tr("top %1, mean %2%3").arg(count(c.maxNnz), count(c.meanNnz), group),
            tr("top %1, mean %2").arg(count(c.maxRows), count(c.meanRows)),
            tr("top %1, mean %2").arg(count(c.maxHalo), count(c.meanHalo))};
}

QStringList BalanceView::titleHeads() const
{
    return {tr("nnz:") + QStringLiteral(" ") + tr("local") + QStringLiteral(" ") + tr("non-local"),
            tr("rows"), tr("halo (x received)")};
}

bool BalanceView::titlesWrap() const
{
    // a title's values go on a line of their own where head and values do not fit one
    const QFontMetrics fm(Appearance::instance().font(0.9));
    const QStringList heads = titleHeads();
    const QStringList tails = titleTails();
    for (int s = 0; s < 3; ++s) {
        // the swatches and gaps of the head: at most three of a line's height each
        const int need = 6 + 3 * fm.height() + fm.horizontalAdvance(heads[s]) + 16 +
                         fm.horizontalAdvance(tails[s]) + 6;
        if (need > width()) return true;
    }
    return false;
}

BalanceGeometry BalanceView::geometry() const
{
    const QFontMetrics fm(Appearance::instance().font(0.9));
    const int last = m_chart.bars.empty() ? 0 : m_chart.bars.back().lastRank;
    const QString widest = m_chart.ranksPerBar > 1 ? rankRange(last, last) : QString::number(last);
    const double line = fm.height() + 2;
    return balanceGeometry(m_chart, width(), height(), line, fm.horizontalAdvance(widest) + 8, 6,
                           titlesWrap() ? 2 * line : line);
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
    const bool wrap = titlesWrap();
    const QStringList tails = titleTails();

    // titles, with a swatch for each colour used in the strip; the values after them, or on
    // the line below where they do not fit beside them
    auto title = [&](int strip, const QList<QPair<QColor, QString>>& parts, const QString& tail) {
        double x = g.strips[strip].x;
        double y = g.titleY[strip];
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
        if (wrap) {
            x = g.strips[strip].x;
            y += fm.height() + 2;
        }
        p.drawText(QPointF(x, y + fm.ascent()),
                   elideText(fm, tail, Qt::ElideRight, static_cast<int>(width() - x - 4)));
    };
    title(BalanceGeometry::nnz,
          {{QColor(), tr("nnz:")}, {local, tr("local")}, {nonlocal, tr("non-local")}}, tails[0]);
    title(BalanceGeometry::rows, {{rows, tr("rows")}}, tails[1]);
    title(BalanceGeometry::halo, {{halo, tr("halo (x received)")}}, tails[2]);

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
    setMinimumSize(240, 120);
    setMouseTracking(true);
    connect(&Appearance::instance(), &Appearance::changed, this, qOverload<>(&QWidget::update));
}

void TimelineView::setTimelines(std::vector<spmv::dist::Timeline> timelines)
{
    m_timelines = std::move(timelines);
    update();
}

int TimelineView::noteHeight() const
{
    return QFontMetrics(Appearance::instance().font(0.9)).height() + 4;
}

TimelineFit TimelineView::fit() const
{
    const auto& app = Appearance::instance();
    if (!app.presentationMode()) {
        // at a desk: all modes, scaled down to fit, but no text below the desk's minimum (8
        // px); a view too small for that draws the first modes that fit (Modes: the others)
        TimelineFit all = fitTimelines(m_timelines, width(), height(), app.scale(), 9.0, 18.0);
        if (all.scale * 11.0 >= app.minimumTextPixels() - 0.01) return all;
        return fitTimelinesLegibly(m_timelines, width(), height(), app.minimumTextPixels(),
                                   noteHeight());
    }
    // presentation mode: the text never below the lecture hall's minimum; the modes that do
    // not fit so are left to the Modes box (a line below says which). The panels' provenance
    // lines (matrix, partition, device, precision, PREDICTED) go: the line above the view
    // says them (PREDICTED in the model's colour), and each costs a lecture-size line of every
    // panel.
    std::vector<spmv::dist::Timeline> brief = m_timelines;
    for (auto& t : brief) {
        t.predicted = false;
        t.matrix.clear();
        t.format.clear();
        t.partition.clear();
        t.device.clear();
        t.precision.clear();
        t.date.clear();
        t.commit.clear();
    }
    return fitTimelinesLegibly(brief, width(), height(), app.minimumTextPixels(), noteHeight());
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
            // panel_info's last line when predicted (presentation mode leaves it out)
            const bool predictedLine = t.predicted && i + 1 == panel.info.size() &&
                                       panel.info[i].rfind("PREDICTED", 0) == 0;
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
    if (f.shown < m_timelines.size()) {
        // what presentation mode left out for legible text, and where to find it
        p.resetTransform();
        p.setFont(Appearance::instance().font(0.9));
        p.setPen(toQColor(pal.predicted));
        QStringList left;
        for (std::size_t i = f.shown; i < m_timelines.size(); ++i) {
            left << modeTitle(m_timelines[i].mode);
        }
        p.drawText(QRectF(4, height() - noteHeight(), width() - 8, noteHeight()),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   tr("Also %1: choose in Modes").arg(left.join(QStringLiteral(", "))));
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
