#include "coalescingview.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <functional>
#include <new>

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QThreadPool>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <spmv/viz/colour.hpp>

#include "appearance.hpp"
#include "coalescing_geometry.hpp"
#include "elidedtext.hpp"
#include "flowlayout.hpp"
#include "session/memoryguard.hpp"

using spmv::viz::AccessedArray;
using spmv::viz::AccessKernel;
using spmv::viz::ArrayReads;
using spmv::viz::LaneRead;
using spmv::viz::WarpTrip;

namespace {

QThreadPool* coalescingPool()
{
    // two threads: building the chosen kernel's layout never waits behind the whole-matrix sums
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setMaxThreadCount(2);
        return p;
    }();
    return pool;
}

QString fromView(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QString sectorCount(qint64 sectors, qint64 ideal)
{
    return QObject::tr("%1 %2 (ideal %3)")
        .arg(groupDigits(sectors), sectors == 1 ? QObject::tr("sector") : QObject::tr("sectors"),
             groupDigits(ideal));
}

QColor touchedFill()
{
    return QColor(214, 234, 248);  // a light sky blue: the sector is fetched
}

QString describeError(const std::exception& e)
{
    return QString::fromUtf8(e.what());
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The strips of one warp and trip. relayout() (on data, width or font changes) measures the
// texts and asks coalescingGeometry() (Qt-free, widgets/coalescing_geometry.hpp) where
// everything goes, so that tests can ask where a byte is drawn without painting.
class CoalescingCanvas : public QWidget {
public:
    /// The texts of a load; where they and its sectors go is in m_geometry.loads.
    struct LoadText {
        QString caption;  ///< the load, e.g. "values[t * stride + row] (8 B each)"
        QString count;    ///< "N sectors (ideal M)"
    };

    explicit CoalescingCanvas(QWidget* parent = nullptr) : QWidget(parent)
    {
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::MinimumExpanding);
        connect(&Appearance::instance(), &Appearance::changed, this, [this] { relayout(); });
    }

    void setContent(const std::optional<WarpTrip>& trip, const QString& title,
                    const QString& message)
    {
        m_trip = trip;
        m_title = title;
        m_message = message;
        relayout();
    }

    const std::vector<LoadText>& loads() const { return m_loads; }

    QRectF byteRect(int load, std::int64_t offset) const
    {
        if (!m_trip) return {};
        const auto r = m_geometry.byteRect(load, offset);
        return r ? toRect(*r) : QRectF();
    }

    QSize sizeHint() const override { return {900, static_cast<int>(std::ceil(m_height))}; }

    /// Called after every layout with the height of the canvas's head: the title, the header
    /// and the warp's lanes with their rows, everything above the first load's strip.
    std::function<void(int)> headHeightChanged;

protected:
    void resizeEvent(QResizeEvent*) override { relayout(); }
    bool event(QEvent* e) override;
    void paintEvent(QPaintEvent*) override;

private:
    static QRectF toRect(const LayoutRect& r) { return QRectF(r.x, r.y, r.w, r.h); }
    void relayout();
    QString laneTip(int lane) const;

    std::optional<WarpTrip> m_trip;
    QString m_title;
    QString m_message;
    QString m_header;
    QString m_lanesCaption;
    std::vector<LoadText> m_loads;
    QString m_legend;
    CoalescingGeometry m_geometry;
    double m_height = 200;
};

void CoalescingCanvas::relayout()
{
    const auto& app = Appearance::instance();
    const QFont font = app.font();
    const QFont small = app.font(0.85);
    const QFontMetricsF fm(font);
    const QFontMetricsF sm(small);
    CoalescingMetrics m;
    m.width = width();
    m.scale = app.scale();
    m.lineHeight = fm.height();
    m.smallLineHeight = sm.height();
    const double avail = m.available();
    m_loads.clear();
    m_geometry = {};
    if (!m_trip) {
        m_height = coalescingMessageHeight(m, wrappedHeight(font, m_message, avail));
        setMinimumHeight(static_cast<int>(std::ceil(m_height)));
        updateGeometry();
        update();
        if (headHeightChanged) headHeightChanged(static_cast<int>(std::ceil(m_height)));
        return;
    }
    const WarpTrip& t = *m_trip;
    qint64 total = 0;
    qint64 ideal = 0;
    for (const auto& a : t.arrays) {
        total += static_cast<qint64>(a.sectors.size());
        ideal += a.ideal_sectors;
    }
    QString lanes;
    if (t.trip >= t.trips) {
        lanes = QObject::tr(
            "this warp's rows are empty: it runs no loop trip, only the loads "
            "before the loop");
    } else {
        lanes =
            QObject::tr("%1 of %2 lanes load on this trip").arg(t.active_lanes).arg(t.warp_size);
        if (t.active_lanes > t.useful_lanes) {
            lanes += QObject::tr(" (%1 of them load padding)").arg(t.active_lanes - t.useful_lanes);
        }
    }
    m_header =
        QObject::tr("Warp %1 of %2, trip %3 of %4: %5. All loads of this trip: %6.")
            .arg(groupDigits(t.warp), groupDigits(t.warps), groupDigits(t.trip),
                 groupDigits(std::max<std::int64_t>(t.trips, 1)), lanes, sectorCount(total, ideal));
    if (t.threads_per_row > 1) {
        m_header += QObject::tr(" %1 lanes share each row.").arg(t.threads_per_row);
    }
    // presentation mode: one line beside a lesson's text (the tooltip says what hovering shows)
    const QString withRows =
        (app.presentationMode()
             ? QObject::tr("Lanes 0 to %1, each with its row under it")
             : QObject::tr("Lanes 0 to %1, with the row each works on under it (hover for the "
                           "addresses it reads)"))
            .arg(t.warp_size - 1);
    const QString withoutRows =
        QObject::tr("Lanes 0 to %1 (hover for the row each works on)").arg(t.warp_size - 1);
    m_legend = QObject::tr(
        "Each box is one 32-byte sector, cut into its elements; an element read by a lane has "
        "that lane's colour (lane 0 red through the spectrum to the last lane), a hatched element "
        "holds padding, a shaded sector is fetched, an unshaded one lies between fetched ones. "
        "\u22ef n \u22ef skips n sectors that are not read. #k is the sector number: byte "
        "offset / 32 in the array.");

    CoalescingTexts texts;
    texts.titleHeight = wrappedHeight(app.font(1.1, true), m_title, avail);
    texts.headerHeight = wrappedHeight(font, m_header, avail);
    texts.lanesCaptionHeight = wrappedHeight(small, withoutRows, avail);
    texts.lanesCaptionWithRowsHeight = wrappedHeight(small, withRows, avail);
    texts.legendHeight = wrappedHeight(small, m_legend, avail);
    texts.rowNumberWidth = [&sm](std::int64_t row) {
        return sm.horizontalAdvance(QString::number(row));
    };
    texts.sectorLabelWidth = [&sm](std::int64_t sector) {
        return sm.horizontalAdvance(QStringLiteral("#%1").arg(sector));
    };
    const QFontMetricsF bm(app.font(1.0, true));
    for (const auto& a : t.arrays) {
        LoadText l;
        const QString before = t.trip == 0 && a.role == AccessedArray::row_info
                                   ? QObject::tr("before the loop: ")
                                   : QString();
        l.caption = QObject::tr("%1%2 (%3 B each)")
                        .arg(before, QString::fromStdString(a.label))
                        .arg(a.element_bytes);
        l.count = sectorCount(static_cast<qint64>(a.sectors.size()), a.ideal_sectors);
        texts.loads.push_back({fm.horizontalAdvance(l.caption), wrappedHeight(font, l.caption, avail),
                               bm.horizontalAdvance(l.count)});
        m_loads.push_back(std::move(l));
    }
    m_geometry = coalescingGeometry(t, m, texts);
    m_lanesCaption = m_geometry.showRows ? withRows : withoutRows;
    m_height = m_geometry.height;
    setMinimumHeight(static_cast<int>(std::ceil(m_height)));
    updateGeometry();
    update();
    if (headHeightChanged) {
        const double head =
            m_geometry.loads.empty() ? m_height : m_geometry.loads.front().caption.y;
        headHeightChanged(static_cast<int>(std::floor(head)));
    }
}

QString CoalescingCanvas::laneTip(int lane) const
{
    const auto row = m_trip->lane_rows[static_cast<std::size_t>(lane)];
    if (row < 0) return QObject::tr("lane %1: no row (past the last row)").arg(lane);
    QString tip = QObject::tr("lane %1: row %2").arg(lane).arg(row);
    for (const auto& a : m_trip->arrays) {
        for (const auto& r : a.reads) {
            if (r.lane == lane) {
                tip += QObject::tr("\n%1: byte %2 (element %3)%4")
                           .arg(QString::fromStdString(a.array), groupDigits(r.offset),
                                groupDigits(r.offset / a.element_bytes),
                                r.padding ? QObject::tr(", padding") : QString());
            }
        }
    }
    return tip;
}

bool CoalescingCanvas::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip && m_trip) {
        const auto* help = static_cast<QHelpEvent*>(e);
        const double x = help->pos().x();
        const double y = help->pos().y();
        if (const auto lane = m_geometry.laneAt(x, y)) {
            QToolTip::showText(help->globalPos(), laneTip(*lane), this);
            return true;
        }
        for (std::size_t i = 0; i < m_geometry.loads.size(); ++i) {
            const auto hit = m_geometry.loads[i].byteAt(x, y);
            if (!hit) continue;
            const auto& a = m_trip->arrays[i];
            const auto& s = m_geometry.loads[i].sectors[hit->first];
            const std::int64_t offset = hit->second;
            QString tip = QObject::tr("%1, sector %2, bytes %3 to %4")
                              .arg(QString::fromStdString(a.array), groupDigits(s.sector),
                                   groupDigits(offset), groupDigits(offset + a.element_bytes - 1));
            for (const auto& r : a.reads) {
                if (r.offset == offset) tip += QObject::tr("\nread by lane %1").arg(r.lane);
            }
            QToolTip::showText(help->globalPos(), tip, this);
            return true;
        }
        QToolTip::hideText();
        e->ignore();
        return true;
    }
    return QWidget::event(e);
}

void CoalescingCanvas::paintEvent(QPaintEvent*)
{
    const auto& app = Appearance::instance();
    const auto& pal = Appearance::palette();
    QPainter p(this);
    p.fillRect(rect(), toQColor(pal.background));
    const QFont font = app.font();
    const QFont small = app.font(0.85);
    p.setPen(toQColor(pal.text));
    if (!m_trip) {
        p.setFont(font);
        const double pad = 8 * app.scale();
        p.drawText(QRectF(pad, pad, width() - 2 * pad, height() - 2 * pad),
                   Qt::AlignCenter | Qt::TextWordWrap, m_message);
        return;
    }
    const WarpTrip& t = *m_trip;
    p.setFont(app.font(1.1, true));
    p.drawText(toRect(m_geometry.title), Qt::TextWordWrap, m_title);
    p.setFont(font);
    p.drawText(toRect(m_geometry.header), Qt::TextWordWrap, m_header);

    // lanes
    p.setFont(small);
    p.drawText(toRect(m_geometry.lanesCaption), Qt::TextWordWrap, m_lanesCaption);
    std::vector<bool> loads(static_cast<std::size_t>(t.warp_size), false);
    for (const auto& a : t.arrays) {
        for (const auto& r : a.reads) loads[static_cast<std::size_t>(r.lane)] = true;
    }
    const QFontMetricsF sm(small);
    for (std::size_t k = 0; k < m_geometry.lanes.size(); ++k) {
        const QRectF box = toRect(m_geometry.lanes[k]);
        const QRectF r = box.adjusted(1, 1, -1, -1);
        const bool hasRow = t.lane_rows[k] >= 0;
        const QColor lane = CoalescingView::laneColour(static_cast<int>(k), t.warp_size);
        if (loads[k]) {
            p.fillRect(r, lane);
        } else {
            p.fillRect(r, toQColor(hasRow ? pal.empty : pal.phantom));
        }
        QPen border(hasRow ? lane : toQColor(pal.grid));
        border.setWidthF(app.lineWidth(1.0));
        if (!hasRow) border.setStyle(Qt::DotLine);
        p.setPen(border);
        p.drawRect(r);
        const QString n = QString::number(k);
        p.setPen(toQColor(pal.text));
        if (sm.horizontalAdvance(n) + 2 <= r.width()) {
            p.drawText(r, Qt::AlignCenter, n);
        }
        if (m_geometry.showRows && hasRow) {
            p.drawText(QRectF(box.left(), box.bottom(), box.width(), sm.height()),
                       Qt::AlignHCenter | Qt::AlignTop, QString::number(t.lane_rows[k]));
        }
    }

    // strips
    const QPen sectorPen(toQColor(pal.block_line), app.lineWidth(1.2));
    const QPen cellPen(toQColor(pal.grid), 1.0);
    for (std::size_t i = 0; i < m_loads.size(); ++i) {
        const auto& text = m_loads[i];
        const auto& l = m_geometry.loads[i];
        const ArrayReads& a = t.arrays[i];
        p.setPen(toQColor(pal.text));
        p.setFont(font);
        p.drawText(toRect(l.caption), Qt::TextWordWrap, text.caption);
        p.setFont(app.font(1.0, true));
        p.drawText(toRect(l.count), Qt::AlignRight | Qt::AlignVCenter, text.count);
        if (l.sectors.empty()) {
            p.setFont(font);
            continue;
        }
        for (const auto& s : l.sectors) {
            p.fillRect(toRect(s.rect), s.touched ? touchedFill() : toQColor(pal.empty));
        }
        // the bytes each lane reads, in its colour; an element several lanes read (x of a
        // shared column, CSR vector's row pointer) in horizontal bands, one per lane; padding
        // hatched over it
        std::vector<LaneRead> reads(a.reads.begin(), a.reads.end());
        std::stable_sort(reads.begin(), reads.end(),
                         [](const LaneRead& u, const LaneRead& v) { return u.offset < v.offset; });
        for (std::size_t first = 0; first < reads.size();) {
            std::size_t last = first;
            while (last < reads.size() && reads[last].offset == reads[first].offset) ++last;
            const QRectF cell =
                byteRect(static_cast<int>(i), reads[first].offset).adjusted(1, 1, -1, -1);
            const double band = cell.height() / static_cast<double>(last - first);
            for (std::size_t k = first; k < last && !cell.isEmpty(); ++k) {
                const QRectF part(cell.left(), cell.top() + band * static_cast<double>(k - first),
                                  cell.width(), band);
                p.fillRect(part, CoalescingView::laneColour(reads[k].lane, t.warp_size));
                if (reads[k].padding) {
                    p.fillRect(part, QBrush(toQColor(pal.padding), Qt::BDiagPattern));
                }
            }
            first = last;
        }
        p.setFont(small);
        for (const auto& s : l.sectors) {
            p.setPen(cellPen);
            const QRectF sr = toRect(s.rect);
            const double cw = sr.width() / l.cellsPerSector;
            if (cw >= 4) {
                for (int c = 1; c < l.cellsPerSector; ++c) {
                    const double x = sr.left() + c * cw;
                    p.drawLine(QPointF(x, sr.top()), QPointF(x, sr.bottom()));
                }
            }
            p.setPen(sectorPen);
            p.drawRect(sr);
            if (s.labelled) {
                p.setPen(toQColor(pal.text));
                p.drawText(QPointF(sr.left(), sr.bottom() + sm.ascent() + 1),
                           QStringLiteral("#%1").arg(s.sector));
            }
        }
        p.setPen(toQColor(pal.text));
        for (const auto& b : l.breaks) {
            const QRectF br = toRect(b.rect);
            p.drawText(br, Qt::AlignCenter, QStringLiteral("\u22ef"));
            if (b.skipped > 0) {
                const QString n = groupDigits(b.skipped);
                if (sm.horizontalAdvance(n) <= br.width()) {
                    p.drawText(QRectF(br.left(), br.bottom(), br.width(), sm.height()),
                               Qt::AlignHCenter | Qt::AlignTop, n);
                }
            }
        }
    }
    p.setFont(small);
    p.setPen(toQColor(pal.text));
    p.drawText(toRect(m_geometry.legend), Qt::TextWordWrap, m_legend);
}

// ---------------------------------------------------------------------------------------------
// Sectors per nonzero of the whole SpMV, one stacked bar per kernel (values, col_idxs, x).
class SectorBarsView : public QWidget {
public:
    explicit SectorBarsView(QWidget* parent = nullptr) : QWidget(parent)
    {
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Minimum);
        connect(&Appearance::instance(), &Appearance::changed, this, [this] { relayout(); });
    }

    void setRows(const std::vector<CoalescingView::SummaryRow>& rows, bool pending, int valueBytes,
                 AccessKernel selected, const QString& message)
    {
        m_rows = rows;
        m_pending = pending;
        m_valueBytes = valueBytes;
        m_selected = selected;
        m_message = message;
        relayout();
    }

    QSize sizeHint() const override { return {900, static_cast<int>(std::ceil(m_height))}; }

protected:
    void resizeEvent(QResizeEvent*) override { relayout(); }
    void paintEvent(QPaintEvent*) override;

private:
    QString valueText(const CoalescingView::SummaryRow& r) const
    {
        if (!r.totals) return r.error.isEmpty() ? QObject::tr("computing\u2026") : r.error;
        return QObject::tr("%1 per nonzero (ideal %2)")
            .arg(r.totals->sectors_per_nonzero(), 0, 'f', 2)
            .arg(r.totals->ideal_per_nonzero(), 0, 'f', 2);
    }
    void relayout();

    std::vector<CoalescingView::SummaryRow> m_rows;
    bool m_pending = false;
    int m_valueBytes = 8;
    AccessKernel m_selected = AccessKernel::csr_scalar;
    QString m_message;
    QString m_title;
    QRectF m_titleRect;
    static constexpr double rowFactor = 1.3;  ///< row height in font heights
    static std::array<QString, 3> legendNames()
    {
        return {QStringLiteral("values"), QStringLiteral("col_idxs"), QStringLiteral("x")};
    }
    double m_labelWidth = 0;
    double m_valueWidth = 0;
    double m_swatchWidth = 0;
    std::vector<QRectF> m_rowRects;
    QString m_legend;
    QRectF m_legendRect;
    double m_height = 120;
};

void SectorBarsView::relayout()
{
    const auto& app = Appearance::instance();
    const QFont font = app.font();
    const QFontMetricsF fm(font);
    const QFontMetricsF bm(app.font(1.0, true));
    const double pad = std::round(8 * app.scale());
    const double avail = std::max(200.0, static_cast<double>(width()) - 2 * pad);
    // presentation mode: one line beside a lesson's text (the precision box above names the
    // value size; the full title on hover)
    const QString fullTitle =
        QObject::tr("Whole matrix: 32-byte sectors read per nonzero (%1-byte values)")
            .arg(m_valueBytes);
    setToolTip(fullTitle);
    m_title = app.presentationMode() ? QObject::tr("Whole matrix: 32-byte sectors per nonzero")
                                     : fullTitle;
    if (m_pending) m_title += QObject::tr(" \u2014 computing\u2026");
    double y = pad;
    m_titleRect = QRectF(pad, y, avail, wrappedHeight(app.font(1.05, true), m_title, avail));
    y = m_titleRect.bottom() + pad / 2;
    m_rowRects.clear();
    m_labelWidth = 0;
    m_valueWidth = 0;
    for (const auto& r : m_rows) {
        m_labelWidth = std::max(m_labelWidth, bm.horizontalAdvance(r.title));
        if (r.totals) m_valueWidth = std::max(m_valueWidth, fm.horizontalAdvance(valueText(r)));
    }
    m_valueWidth = std::min(m_valueWidth, avail / 2);
    const double rowH = std::round(fm.height() * rowFactor);
    for (const auto& r : m_rows) {
        double h = rowH;
        if (!r.totals) {  // an error or "computing": wrapped right of the label
            h = std::max(rowH, wrappedHeight(font, valueText(r), avail - m_labelWidth - pad) + 4);
        }
        m_rowRects.emplace_back(pad, y, avail, h);
        y += h;
    }
    if (!m_message.isEmpty()) {
        m_legendRect = QRectF(pad, y, avail, wrappedHeight(font, m_message, avail));
        m_legend = m_message;
    } else {
        // one line: the swatches, then the sentence (wrapped right of them when narrow)
        m_legend = QObject::tr(
            "black tick: ideal, the same bytes packed into as few sectors as "
            "they fill; every warp and trip of the SpMV counted");
        m_swatchWidth = 0;
        const QFontMetricsF sm(app.font(0.85));
        for (const QString& name : legendNames()) {
            m_swatchWidth += sm.height() + 4 + sm.horizontalAdvance(name) + 12;
        }
        m_legendRect = QRectF(pad, y + pad / 2, avail,
                              wrappedHeight(app.font(0.85), m_legend, avail - m_swatchWidth));
    }
    m_height = m_legendRect.bottom() + pad;
    setMinimumHeight(static_cast<int>(std::ceil(m_height)));
    updateGeometry();
    update();
}

void SectorBarsView::paintEvent(QPaintEvent*)
{
    const auto& app = Appearance::instance();
    const auto& pal = Appearance::palette();
    QPainter p(this);
    p.fillRect(rect(), toQColor(pal.background));
    p.setPen(toQColor(pal.text));
    p.setFont(app.font(1.05, true));
    p.drawText(m_titleRect, Qt::TextWordWrap, m_title);
    const QFont font = app.font();
    const QFontMetricsF fm(font);
    const double pad = std::round(8 * app.scale());
    double maxValue = 0;
    for (const auto& r : m_rows) {
        if (r.totals) maxValue = std::max(maxValue, r.totals->sectors_per_nonzero());
    }
    const std::array<std::pair<QColor, int>, 3> parts = {
        {{toQColor(pal.values), 0}, {toQColor(pal.indices), 1}, {toQColor(pal.aux), 2}}};
    for (std::size_t k = 0; k < m_rows.size(); ++k) {
        const auto& r = m_rows[k];
        const QRectF row = m_rowRects[k];
        p.setPen(toQColor(pal.text));
        p.setFont(app.font(1.0, r.kernel == m_selected));
        p.drawText(QRectF(row.left(), row.top(), m_labelWidth + 1, fm.height() * rowFactor),
                   Qt::AlignLeft | Qt::AlignVCenter, r.title);
        p.setFont(font);
        const double barLeft = row.left() + m_labelWidth + pad;
        if (!r.totals) {
            p.drawText(QRectF(barLeft, row.top() + 2, row.right() - barLeft, row.height()),
                       Qt::TextWordWrap, valueText(r));
            continue;
        }
        const double barSpan = std::max(10.0, row.right() - barLeft - m_valueWidth - pad);
        const auto& s = *r.totals;
        const double nnz = static_cast<double>(std::max<std::int64_t>(s.nnz, 1));
        const std::array<double, 3> per = {static_cast<double>(s.values) / nnz,
                                           static_cast<double>(s.col_idxs) / nnz,
                                           static_cast<double>(s.x) / nnz};
        const double barH = std::round(fm.height() * 0.95);
        const double top = row.top() + (fm.height() * rowFactor - barH) / 2;
        double x = barLeft;
        for (const auto& [colour, i] : parts) {
            const double w =
                maxValue > 0 ? per[static_cast<std::size_t>(i)] / maxValue * barSpan : 0;
            p.fillRect(QRectF(x, top, w, barH), colour);
            x += w;
        }
        // the ideal as a tick across the bar
        if (maxValue > 0) {
            const double ix = barLeft + s.ideal_per_nonzero() / maxValue * barSpan;
            QPen tick(toQColor(pal.block_line), app.lineWidth(2.0));
            p.setPen(tick);
            p.drawLine(QPointF(ix, top - 3), QPointF(ix, top + barH + 3));
        }
        p.setPen(toQColor(pal.text));
        p.drawText(QRectF(x + pad / 2, row.top(), m_valueWidth + pad, fm.height() * rowFactor),
                   Qt::AlignLeft | Qt::AlignVCenter, valueText(r));
    }
    p.setFont(m_message.isEmpty() ? app.font(0.85) : font);
    if (m_message.isEmpty()) {
        // legend swatches, then the sentence
        const QFontMetricsF sm(app.font(0.85));
        double x = m_legendRect.left();
        const double y = m_legendRect.top();
        const std::array<QColor, 3> colours = {toQColor(pal.values), toQColor(pal.indices),
                                               toQColor(pal.aux)};
        const auto names = legendNames();
        for (std::size_t i = 0; i < names.size(); ++i) {
            p.fillRect(QRectF(x, y + 2, sm.height(), sm.height() - 4), colours[i]);
            x += sm.height() + 4;
            p.setPen(toQColor(pal.text));
            p.drawText(QPointF(x, y + sm.ascent()), names[i]);
            x += sm.horizontalAdvance(names[i]) + 12;
        }
        p.drawText(QRectF(m_legendRect.left() + m_swatchWidth, y,
                          m_legendRect.width() - m_swatchWidth, m_legendRect.height()),
                   Qt::TextWordWrap, m_legend);
    } else {
        p.drawText(m_legendRect, Qt::TextWordWrap, m_message);
    }
}

// ---------------------------------------------------------------------------------------------

CoalescingView::CoalescingView(QWidget* parent) : QWidget(parent)
{
    m_kernelBox = new QComboBox;
    for (const auto& k : spmv::viz::access_kernels()) {
        m_kernelBox->addItem(fromView(k.title), fromView(k.name));
        m_kernelBox->setItemData(
            m_kernelBox->count() - 1,
            QStringLiteral("%1: %2").arg(fromView(k.kernel_name), fromView(k.mapping)),
            Qt::ToolTipRole);
    }
    m_kernelBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_warpBox = new QSpinBox;
    m_warpBox->setRange(0, 0);
    m_warpBox->setKeyboardTracking(false);
    m_warpBox->setToolTip(tr("Warp index: threads warp \u00d7 warp size onwards"));
    m_tripBox = new QSpinBox;
    m_tripBox->setRange(0, 0);
    m_tripBox->setKeyboardTracking(false);
    m_tripBox->setToolTip(
        tr("Loop trip of the kernel's row loop (trip 0 also shows the loads before the loop)"));
    m_precisionBox = new QComboBox;
    m_precisionBox->addItem(tr("double (8-byte values)"), 8);
    m_precisionBox->addItem(tr("float (4-byte values)"), 4);
    m_precisionBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);

    // the controls flow onto a second line where one is too narrow for them at their full
    // width (a lesson's text beside the view in presentation mode), never squeezing the boxes
    auto* bar = new FlowLayout(nullptr);
    bar->setSpacing(10);
    bar->addWidget(flowPair(new QLabel(tr("Kernel")), m_kernelBox));
    bar->addWidget(flowPair(new QLabel(tr("Warp")), m_warpBox));
    bar->addWidget(flowPair(new QLabel(tr("Trip")), m_tripBox));
    bar->addWidget(flowPair(new QLabel(tr("Precision")), m_precisionBox));

    m_canvas = new CoalescingCanvas;
    m_scroll = new QScrollArea;
    m_scroll->setWidget(m_canvas);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    // the strips scroll, the head above them never does: the splitter never makes the upper
    // panel shorter than the title, the header and the warp's lanes with their rows, so that
    // a short panel (a lesson's text beside the view in presentation mode) cuts strips, never
    // the lanes' row numbers half way
    m_canvas->headHeightChanged = [this](int head) {
        if (m_scroll->minimumHeight() != head) m_scroll->setMinimumHeight(head);
    };
    m_bars = new SectorBarsView;
    // the comparison keeps the height its rows need (its minimum); the strips scroll
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_scroll);
    split->addWidget(m_bars);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(m_kernelBox, &QComboBox::currentIndexChanged, this, [this] {
        rebuildModel();
        m_bars->setRows(m_summary, m_summaryPending, valueBytes(), kernel(), QString());
    });
    connect(m_warpBox, &QSpinBox::valueChanged, this, [this] {
        updateRanges();
        updateTrip();
    });
    connect(m_tripBox, &QSpinBox::valueChanged, this, [this] { updateTrip(); });
    connect(m_precisionBox, &QComboBox::currentIndexChanged, this, [this] {
        updateTrip();
        recomputeSummary();
    });
    rebuildModel();
    recomputeSummary();
}

CoalescingView::~CoalescingView()
{
    if (m_summaryCancel) m_summaryCancel->store(true);
    // the jobs only touch what they captured by value; wait so none outlives the widget's
    // process (their continuations are dropped with this context object)
    for (auto& f : m_futures) f.waitForFinished();
}

void CoalescingView::setDocument(MatrixDocumentPtr document)
{
    m_document = std::move(document);
    rebuildModel();
    recomputeSummary();
}

void CoalescingView::setParams(const spmv::FormatParams& params)
{
    const auto& p = m_params;
    if (p.warp_size == params.warp_size && p.block_rows == params.block_rows &&
        p.slice_height == params.slice_height && p.sort_window == params.sort_window) {
        m_params = params;  // a parameter this view does not use changed
        return;
    }
    m_params = params;
    rebuildModel();
    recomputeSummary();
}

void CoalescingView::setKernel(AccessKernel kernel)
{
    const int i = m_kernelBox->findData(fromView(spmv::viz::access_kernel_info(kernel).name));
    m_kernelBox->setCurrentIndex(i);
}

void CoalescingView::setWarp(int warp)
{
    m_warpBox->setValue(warp);
}

void CoalescingView::setTrip(int trip)
{
    m_tripBox->setValue(trip);
}

void CoalescingView::setValueBytes(int bytes)
{
    const int i = m_precisionBox->findData(bytes);
    if (i >= 0) m_precisionBox->setCurrentIndex(i);
}

AccessKernel CoalescingView::kernel() const
{
    return spmv::viz::find_access_kernel(m_kernelBox->currentData().toString().toStdString())
        .kernel;
}

int CoalescingView::warp() const
{
    return m_warpBox->value();
}

int CoalescingView::trip() const
{
    return m_tripBox->value();
}

int CoalescingView::valueBytes() const
{
    return m_precisionBox->currentData().toInt();
}

QString CoalescingView::sectorCaption(int load) const
{
    const auto& loads = m_canvas->loads();
    if (load < 0 || static_cast<std::size_t>(load) >= loads.size()) return {};
    return loads[static_cast<std::size_t>(load)].count;
}

QRectF CoalescingView::byteRect(int load, qint64 offset) const
{
    const QRectF r = m_canvas->byteRect(load, offset);
    if (r.isEmpty()) return {};
    return r.translated(QPointF(m_canvas->mapTo(this, QPoint(0, 0))));
}

QColor CoalescingView::laneColour(int lane, int warpSize)
{
    // hue from red (lane 0) through the spectrum to violet (the last lane): lanes reading
    // consecutive elements paint a rainbow, a scattered access a jumble
    const double f = warpSize > 1 ? static_cast<double>(lane) / (warpSize - 1) : 0.0;
    return QColor::fromHsvF(static_cast<float>(0.80 * f), 0.70f, 0.92f);
}

void CoalescingView::rebuildModel()
{
    const quint64 generation = ++m_modelGeneration;
    m_model.reset();
    m_trip.reset();
    const auto& info = spmv::viz::access_kernel_info(kernel());
    if (!m_document) {
        m_message = tr("No matrix loaded.");
    } else if (m_document->csr.num_rows == 0) {
        m_message = tr("%1 has no rows, so no warp runs and nothing is read. Load or generate a "
                       "matrix with rows to see which sectors a warp's loads touch.")
                        .arg(m_document->name);
    } else {
        m_message =
            tr("Building the %1 layout of %2\u2026").arg(fromView(info.title), m_document->name);
    }
    if (!m_document || m_document->csr.num_rows == 0) {
        m_modelPending = false;
        updateRanges();
        updateTrip();
        checkFinished();
        return;
    }
    m_modelPending = true;
    updateTrip();
    struct Outcome {
        std::shared_ptr<const spmv::viz::AccessModel> model;
        QString error;
    };
    spmv::MemoryBudget budget;
    budget.bytes = formatMemoryLimit(csrBytes(m_document->csr), formatMemoryLimit());
    budget.origin = QStringLiteral("the explorer's limit for one format").toStdString();
    budget.hint = QStringLiteral("set SPMVLAB_FORMAT_LIMIT_MB to change it").toStdString();
    auto job = [doc = m_document, k = info.kernel, params = m_params, budget] {
        Outcome o;
        try {
            o.model = std::make_shared<const spmv::viz::AccessModel>(doc->csr, k, params, budget);
        } catch (const std::bad_alloc&) {
            o.error = QObject::tr("Out of memory: the layout is too large for this machine.");
        } catch (const std::exception& e) {
            o.error = describeError(e);
        }
        return o;
    };
    QFuture<Outcome> running = QtConcurrent::run(coalescingPool(), std::move(job));
    running.then(this, [this, generation](Outcome o) {
        if (generation != m_modelGeneration) return;  // stale: another matrix or kernel since
        m_modelPending = false;
        m_model = std::move(o.model);
        if (!m_model) {
            m_message = tr("No layout: %1").arg(o.error);
            emit statusMessage(m_message);
        } else {
            m_message.clear();
        }
        updateRanges();
        updateTrip();
        checkFinished();
    });
    std::erase_if(m_futures, [](const QFuture<void>& f) { return f.isFinished(); });
    m_futures.push_back(QFuture<void>(running));
}

void CoalescingView::recomputeSummary()
{
    const quint64 generation = ++m_summaryGeneration;
    if (m_summaryCancel) m_summaryCancel->store(true);  // the running sums are stale
    m_summary.clear();
    for (const auto& k : spmv::viz::access_kernels()) {
        m_summary.push_back({k.kernel, fromView(k.title), std::nullopt, QString()});
    }
    if (!m_document || m_document->csr.num_rows == 0 || m_document->csr.values.empty()) {
        m_summaryPending = false;
        m_summary.clear();
        const QString why =
            !m_document
                ? tr("No matrix loaded.")
                : tr("%1 has no nonzeros: there is nothing to compare.").arg(m_document->name);
        m_bars->setRows(m_summary, false, valueBytes(), kernel(), why);
        checkFinished();
        return;
    }
    m_summaryPending = true;
    m_bars->setRows(m_summary, true, valueBytes(), kernel(), QString());
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_summaryCancel = cancel;
    spmv::MemoryBudget budget;
    budget.bytes = formatMemoryLimit(csrBytes(m_document->csr), formatMemoryLimit());
    budget.origin = QStringLiteral("the explorer's limit for one format").toStdString();
    budget.hint = QStringLiteral("set SPMVLAB_FORMAT_LIMIT_MB to change it").toStdString();
    auto job = [doc = m_document, params = m_params, bytes = valueBytes(), budget, cancel,
                rows = m_summary]() mutable {
        for (auto& r : rows) {
            if (cancel->load()) break;
            try {
                // one layout at a time, freed before the next is built
                r.totals = spmv::viz::sector_totals(doc->csr, r.kernel, params, bytes, budget,
                                                    cancel.get());
            } catch (const std::bad_alloc&) {
                r.error = QObject::tr("out of memory");
            } catch (const std::exception& e) {
                r.error = describeError(e);
            }
        }
        return rows;
    };
    QFuture<std::vector<SummaryRow>> running = QtConcurrent::run(coalescingPool(), std::move(job));
    running.then(this, [this, generation](std::vector<SummaryRow> rows) {
        if (generation != m_summaryGeneration) return;  // stale
        m_summaryPending = false;
        m_summary = std::move(rows);
        m_bars->setRows(m_summary, false, valueBytes(), kernel(), QString());
        checkFinished();
    });
    std::erase_if(m_futures, [](const QFuture<void>& f) { return f.isFinished(); });
    m_futures.push_back(QFuture<void>(running));
}

void CoalescingView::updateRanges()
{
    const QSignalBlocker bw(m_warpBox);
    const QSignalBlocker bt(m_tripBox);
    if (!m_model || m_model->warps() == 0) {
        m_warpBox->setRange(0, 0);
        m_tripBox->setRange(0, 0);
        m_warpBox->setSuffix(QString());
        m_tripBox->setSuffix(QString());
        return;
    }
    const auto warps = std::min<std::int64_t>(m_model->warps(), INT_MAX);
    m_warpBox->setRange(0, static_cast<int>(warps - 1));
    const auto trips = std::min<std::int64_t>(
        std::max<std::int64_t>(m_model->trips(m_warpBox->value()), 1), INT_MAX);
    m_tripBox->setRange(0, static_cast<int>(trips - 1));
    m_warpBox->setSuffix(tr(" of %1").arg(m_model->warps()));
    m_tripBox->setSuffix(tr(" of %1").arg(trips));
}

void CoalescingView::updateTrip()
{
    m_trip.reset();
    QString title;
    if (m_model) {
        try {
            m_trip = m_model->warp_trip(m_warpBox->value(), m_tripBox->value(), valueBytes());
            const auto& info = spmv::viz::access_kernel_info(m_model->kernel());
            title =
                tr("%1 (%2: %3)")
                    .arg(fromView(info.title), fromView(info.kernel_name), fromView(info.mapping));
            if (m_model->kernel() == AccessKernel::csr_vector) {
                title += tr(", %1 lanes per row").arg(m_model->threads_per_row());
            } else if (m_model->kernel() == AccessKernel::sell) {
                title += tr(", C = %1, \u03c3 = %2")
                             .arg(m_params.slice_height)
                             .arg(m_params.sort_window > 0 ? QString::number(m_params.sort_window)
                                                           : tr("auto"));
            } else if (m_model->kernel() == AccessKernel::pjds) {
                title += tr(", b_r = %1").arg(m_params.block_rows);
            }
        } catch (const std::exception& e) {
            m_message = describeError(e);
        }
    }
    m_canvas->setContent(m_trip, title, m_message);
}

void CoalescingView::checkFinished()
{
    if (!isComputing()) emit finished();
}
