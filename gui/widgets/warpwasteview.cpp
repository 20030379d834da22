#include "warpwasteview.hpp"

#include <cmath>

#include <QLocale>
#include <QMouseEvent>
#include <QPainter>

#include "appearance.hpp"
#include "elidedtext.hpp"

using spmv::viz::SlotKind;

WarpWasteView::WarpWasteView(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    connect(&Appearance::instance(), &Appearance::changed, this, [this] {
        relayout();
        update();
    });
}

void WarpWasteView::setError(const QString& message)
{
    m_error = message;
    m_waste.reset();
    relayout();
    update();
}

void WarpWasteView::setWaste(WarpWastePtr waste, const QString& formatTitle)
{
    m_error.clear();
    m_waste = std::move(waste);
    m_title = formatTitle;
    relayout();
    update();
}

double WarpWasteView::stripHeight() const
{
    return std::round(QFontMetricsF(Appearance::instance().font()).height() * 2.2);
}

namespace {

constexpr double textMargin = 8;

}  // namespace

QString WarpWasteView::captionOf(const spmv::viz::WarpPicture& picture)
{
    return tr("warp %1").arg(picture.warp) + (picture.truncated ? tr(" (cut)") : QString());
}

QString WarpWasteView::titleText() const
{
    return m_waste ? tr("%1, warp size %2").arg(m_title).arg(m_waste->warp_size) : QString();
}

QStringList WarpWasteView::numberLines() const
{
    // in presentation mode the panel's table below carries these numbers (N_iter, N_p, idle,
    // padding) and the projector's room goes to the warps; the explanation line stays
    if (!m_waste) return {};
    if (Appearance::instance().presentationMode()) {
        return {tr("Each block is one warp: a row per lane (thread), a column per loop trip.")};
    }
    const auto& w = *m_waste;
    const auto& a = w.analysis;
    const QLocale loc = QLocale::c();
    return {
        tr("N_iter = %1 loop trips (the sum of the warp maxima)").arg(loc.toString(a.n_iter)),
        tr("N_p = %1 flops (PELLR eq. 2: 2 useful \u2212 1 per working thread)")
            .arg(loc.toString(a.n_p)),
        // the same idle count as the table: lanes idle in a row's loop plus phantom lanes
        tr("idle: %1 % of %2 reserved lane slots: %3 (%4 in short rows, %5 phantom lanes)")
            .arg(w.idle_percent(), 0, 'f', 1)
            .arg(loc.toString(w.reserved_slots()))
            .arg(loc.toString(a.idle_slots + a.phantom_slots))
            .arg(loc.toString(a.idle_slots))
            .arg(loc.toString(a.phantom_slots)),
        tr("stored padding: %1 slots, %2 bytes")
            .arg(loc.toString(a.stored_padding),
                 loc.toString(static_cast<qulonglong>(w.padding_bytes))),
        tr("Each block is one warp: a row per lane (thread), a column per loop trip."),
    };
}

std::vector<std::pair<SlotKind, QString>> WarpWasteView::legendItems() const
{
    std::vector<std::pair<SlotKind, QString>> items = {
        {SlotKind::useful, tr("useful")},
        {SlotKind::idle, tr("idle lane")},
        {SlotKind::idle_padding, tr("idle on stored padding")},
        {SlotKind::padding, tr("stored padding")},
    };
    if (m_waste && m_waste->analysis.phantom_slots > 0) {
        items.emplace_back(SlotKind::phantom, tr("no thread"));
    }
    return items;
}

std::vector<int> WarpWasteView::legendRows(double width) const
{
    // the legend flows: an entry that does not fit beside the previous one starts a new row
    const QFontMetricsF fm(Appearance::instance().font());
    const double box = fm.height() - 4;
    std::vector<int> rows;
    double x = textMargin;
    int row = 0;
    for (const auto& item : legendItems()) {
        const double w = box + 4 + fm.horizontalAdvance(item.second);
        if (x > textMargin && x + w > width - textMargin) {
            ++row;
            x = textMargin;
        }
        rows.push_back(row);
        x += w + 12;
    }
    return rows;
}

QString WarpWasteView::stripCaption(double stripWidth) const
{
    if (!m_waste) return {};
    const auto& a = m_waste->analysis;
    const auto strip = spmv::viz::waste_strip(a, m_waste->warp_size, static_cast<int>(stripWidth));
    if (strip.empty()) return {};
    const auto per = strip.front().last_warp - strip.front().first_warp + 1;
    const QString warps = QLocale::c().toString(static_cast<qlonglong>(a.warps.size()));
    return per > 1 ? tr("All %1 warps, left to right (%2 per column): useful and idle share")
                         .arg(warps)
                         .arg(per)
                   : tr("All %1 warps, left to right: useful and idle share").arg(warps);
}

double WarpWasteView::headerHeight() const
{
    const QFontMetricsF fm(Appearance::instance().font());
    const QFontMetricsF bold(Appearance::instance().font(1.15, true));
    const double view = qMax(200, width());
    const double w = view - 2 * textMargin;
    // title, the lines of numbers, the legend, the strip's caption and the strip, each
    // word-wrapped to the view's width (in presentation mode they do not fit on one line)
    double h = textMargin + wrappedHeight(bold, titleText(), w) + 2;
    for (const auto& l : numberLines()) h += wrappedHeight(fm, l, w);
    const auto rows = legendRows(view);
    h += (rows.empty() ? 1 : rows.back() + 1) * fm.height() + 6;
    h += wrappedHeight(fm, stripCaption(qMax(40.0, view - 16.0)), w);
    return h + stripHeight() + 12;
}

void WarpWasteView::relayout()
{
    std::vector<std::pair<int, int>> sizes;
    if (m_waste) {
        for (const auto& p : m_waste->pictures) {
            sizes.emplace_back(p.lanes, p.columns);
        }
    }
    const QFontMetricsF fm(Appearance::instance().font());
    // every caption gets the room of the widest ("warp 1234 (cut)"), however narrow its warp
    double captionWidth = 4 * (fm.height() + 2);
    if (m_waste) {
        for (const auto& p : m_waste->pictures) {
            captionWidth = qMax(captionWidth, std::ceil(fm.horizontalAdvance(captionOf(p))) + 4);
        }
    }
    m_layout = warpLayout(sizes, headerHeight(), qMax(width(), 200), std::round(fm.height() * 1.8),
                          2, fm.height() + 2, std::round(fm.height() * 0.6), captionWidth);
    setMinimumHeight(static_cast<int>(std::ceil(m_layout.height + footerHeight())));
    updateGeometry();
}

double WarpWasteView::footerHeight() const
{
    // a line below the warps says which of them are drawn when not all are
    const bool some = m_waste && m_waste->pictures.size() < m_waste->analysis.warps.size();
    return some ? QFontMetricsF(Appearance::instance().font()).height() + 4 : 0;
}

QSize WarpWasteView::sizeHint() const
{
    return {480, qMax(240, static_cast<int>(m_layout.height + footerHeight()))};
}

void WarpWasteView::resizeEvent(QResizeEvent*)
{
    relayout();
}

QRectF WarpWasteView::slotRect(int picture, int lane, int column) const
{
    if (picture < 0 || static_cast<std::size_t>(picture) >= m_layout.blocks.size()) return {};
    const auto r = m_layout.cellRect(static_cast<std::size_t>(picture), lane, column);
    return {r.x, r.y, r.w, r.h};
}

void WarpWasteView::mouseMoveEvent(QMouseEvent* event)
{
    if (!m_waste) return;
    const auto hit = m_layout.cellAt(event->position().x(), event->position().y());
    if (!hit) return;
    const auto [b, lane, column] = *hit;
    const auto& pic = m_waste->pictures[b];
    if (lane < 0 || lane >= pic.lanes || column < 0 || column >= pic.columns) return;
    static const char* names[] = {"nothing",         "useful",
                                  "idle (reserved)", "idle on stored padding",
                                  "stored padding",  "lane without a thread"};
    const auto kind = pic.at(lane, column);
    emit statusMessage(tr("Warp %1, lane %2 (thread %3), loop slot %4: %5")
                           .arg(pic.warp)
                           .arg(lane)
                           .arg(pic.stats.first_thread + lane)
                           .arg(column)
                           .arg(tr(names[static_cast<int>(kind)])));
}

QRectF WarpWasteView::shownRect(const QPaintEvent* event) const
{
    // what the scroll area shows of the view, or all that is painted where more is (an export
    // or a render of the view alone); partial repaints inside it decide as the full one did
    return QRectF(visibleRegion().boundingRect() | event->region().boundingRect())
        .adjusted(-1, -1, 1, 1);
}

void WarpWasteView::moveEvent(QMoveEvent*)
{
    // the scroll area scrolls by moving the view: repaint all of it, so that text left out at
    // the old edge is drawn now it is whole (a scroll repaints only the uncovered strip)
    update();
}

void WarpWasteView::paintEvent(QPaintEvent* event)
{
    QPainter p(this);
    const auto& app = Appearance::instance();
    const auto& pal = Appearance::palette();
    p.fillRect(rect(), toQColor(pal.background));
    const QFont font = app.font();
    const QFont bold = app.font(1.15, true);
    const QFontMetricsF fm(font);
    p.setPen(toQColor(pal.text));
    if (!m_waste) {
        p.setFont(font);
        p.drawText(rect().adjusted(16, 16, -16, -16), Qt::AlignCenter | Qt::TextWordWrap,
                   m_error.isEmpty() ? tr("Computing the warp analysis ...")
                                     : tr("No warp analysis: %1").arg(m_error));
        return;
    }
    const auto& w = *m_waste;
    const auto& a = w.analysis;
    const double textW = qMax(200, width()) - 2 * textMargin;
    // text half scrolled out of the scroll area is left out rather than drawn cut in two
    // (scrolling brings it back whole); shown is the part of the view its scroll area shows
    const QRectF shown = shownRect(event);
    const auto wrapped = [&](const QFontMetricsF& m, const QString& text, double y0) {
        const double h = wrappedHeight(m, text, textW);
        const QRectF r(textMargin, y0, textW, h);
        if (shown.contains(QRectF(r.x(), r.y() + 1, 1, r.height() - 2))) {
            p.drawText(r, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, text);
        }
        return h;
    };
    double y = textMargin;
    p.setFont(bold);
    y += wrapped(QFontMetricsF(bold), titleText(), y) + 2;
    p.setFont(font);
    for (const auto& l : numberLines()) y += wrapped(fm, l, y);
    // legend, flowing onto as many rows as the width needs
    const double box = fm.height() - 4;
    const auto items = legendItems();
    const auto rows = legendRows(qMax(200, width()));
    double x = textMargin;
    int row = 0;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const auto& [kind, label] = items[i];
        if (rows[i] != row) {
            row = rows[i];
            x = textMargin;
            y += fm.height();
        }
        const QRectF r(x, y + 2, box, box);
        p.setPen(QPen(toQColor(pal.grid)));
        switch (kind) {
            case SlotKind::useful:
                p.setBrush(toQColor(pal.useful));
                break;
            case SlotKind::idle:
                p.setBrush(toQColor(pal.idle));
                break;
            case SlotKind::padding:
                p.setBrush(toQColor(pal.padding));
                break;
            case SlotKind::phantom:
                p.setBrush(toQColor(pal.phantom));
                break;
            default:
                p.setBrush(Qt::NoBrush);
                break;
        }
        p.drawRect(r);
        if (kind == SlotKind::idle_padding) {
            p.fillRect(r, toQColor(pal.padding));
            p.fillRect(r, QBrush(toQColor(pal.idle), Qt::BDiagPattern));
        }
        p.setPen(toQColor(pal.text));
        x += box + 4;
        if (shown.contains(QRectF(x, y + 1, 1, fm.height() - 2))) {
            p.drawText(QPointF(x, y + fm.ascent()), label);
        }
        x += fm.horizontalAdvance(label) + 12;
    }

    // the whole matrix in one strip: every warp, left to right, as the share of its lane
    // slots that do useful work (blue, from the bottom) and that idle (yellow)
    y += fm.height() + 6;
    const double stripW = qMax(40.0, width() - 16.0);
    const auto strip = spmv::viz::waste_strip(a, w.warp_size, static_cast<int>(stripW));
    if (!strip.empty()) {
        p.setPen(toQColor(pal.text));
        y += wrapped(fm, stripCaption(stripW), y);
        const double h = stripHeight();
        const double colW = stripW / static_cast<double>(strip.size());
        p.setPen(Qt::NoPen);
        for (std::size_t i = 0; i < strip.size(); ++i) {
            const auto& c = strip[i];
            const double x0 = 8 + colW * static_cast<double>(i);
            if (c.reserved == 0) continue;
            const double usefulH = h * c.useful;
            p.setBrush(toQColor(pal.idle));
            p.drawRect(QRectF(x0, y, colW + 0.5, h - usefulH));
            p.setBrush(toQColor(pal.useful));
            p.drawRect(QRectF(x0, y + h - usefulH, colW + 0.5, usefulH));
        }
        p.setPen(QPen(toQColor(pal.grid)));
        p.setBrush(Qt::NoBrush);
        m_stripRect = QRectF(8, y, stripW, h);
        p.drawRect(m_stripRect);
    }

    const double cell = m_layout.cell;
    const QBrush hatch(toQColor(pal.idle), cell >= 6 ? Qt::BDiagPattern : Qt::Dense4Pattern);
    QPen border(toQColor(pal.grid));
    border.setWidthF(1.0);
    for (std::size_t b = 0; b < w.pictures.size() && b < m_layout.blocks.size(); ++b) {
        const auto& pic = w.pictures[b];
        const auto& cap = m_layout.captions[b];
        const QRectF capRect(cap.x, cap.y, cap.w, cap.h);
        // a caption half scrolled out of the scroll area is left out rather than drawn cut
        // in two (its warp's cells still are; hovering one names the warp in the status bar)
        if (shown.contains(QRectF(cap.x, cap.y + 1, 1, cap.h - 2))) {
            p.setPen(toQColor(pal.text));
            p.drawText(capRect, Qt::AlignLeft | Qt::AlignVCenter, captionOf(pic));
        }
        for (int lane = 0; lane < pic.lanes; ++lane) {
            for (int j = 0; j < pic.columns; ++j) {
                const auto kind = pic.at(lane, j);
                const auto rc = m_layout.cellRect(b, lane, j);
                const QRectF r(rc.x, rc.y, rc.w, rc.h);
                switch (kind) {
                    case SlotKind::none:
                        continue;
                    case SlotKind::useful:
                        p.fillRect(r, toQColor(pal.useful));
                        break;
                    case SlotKind::idle:
                        p.fillRect(r, toQColor(pal.idle));
                        break;
                    case SlotKind::padding:
                        p.fillRect(r, toQColor(pal.padding));
                        break;
                    case SlotKind::phantom:
                        p.fillRect(r, toQColor(pal.phantom));
                        break;
                    case SlotKind::idle_padding:
                        p.fillRect(r, toQColor(pal.padding));
                        p.fillRect(r, hatch);
                        break;
                }
                if (cell >= 6) {
                    p.setPen(border);
                    p.setBrush(Qt::NoBrush);
                    p.drawRect(r);
                }
            }
        }
    }
    if (static_cast<std::int64_t>(w.pictures.size()) < static_cast<std::int64_t>(a.warps.size())) {
        p.setPen(toQColor(pal.text));
        if (shown.contains(QRectF(8, m_layout.height + 1, 1, fm.height() - 2)))
            p.drawText(QPointF(8, m_layout.height + fm.ascent()),
                   tr("Showing warps %1 to %2 of %3.")
                       .arg(w.first_warp)
                       .arg(w.first_warp + static_cast<qint64>(w.pictures.size()) - 1)
                       .arg(a.warps.size()));
    }
}
