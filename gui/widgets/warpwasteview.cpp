#include "warpwasteview.hpp"

#include <cmath>

#include <QLocale>
#include <QMouseEvent>
#include <QPainter>

#include "appearance.hpp"

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

double WarpWasteView::headerHeight() const
{
    const QFontMetricsF fm(Appearance::instance().font());
    const QFontMetricsF bold(Appearance::instance().font(1.15, true));
    // title, five lines of numbers, the legend, the strip's caption and the strip
    return 8 + bold.height() + 6 * fm.height() + 6 + fm.height() + stripHeight() + 12;
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
    m_layout = warpLayout(sizes, headerHeight(), qMax(width(), 200), std::round(fm.height() * 1.8),
                          2, fm.height() + 2, std::round(fm.height() * 0.6));
    setMinimumHeight(static_cast<int>(std::ceil(m_layout.height)));
    updateGeometry();
}

QSize WarpWasteView::sizeHint() const
{
    return {480, qMax(240, static_cast<int>(m_layout.height))};
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

void WarpWasteView::paintEvent(QPaintEvent*)
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
    const QLocale loc = QLocale::c();
    double y = 8;
    p.setFont(bold);
    p.drawText(QPointF(8, y + QFontMetricsF(bold).ascent()),
               tr("%1, warp size %2").arg(m_title).arg(w.warp_size));
    y += QFontMetricsF(bold).height() + 2;
    p.setFont(font);
    const QStringList lines = {
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
    for (const auto& l : lines) {
        p.drawText(QPointF(8, y + fm.ascent()), l);
        y += fm.height();
    }
    // legend
    double x = 8;
    const double box = fm.height() - 4;
    auto legend = [&](SlotKind kind, const QString& label) {
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
        p.drawText(QPointF(x, y + fm.ascent()), label);
        x += fm.horizontalAdvance(label) + 12;
    };
    legend(SlotKind::useful, tr("useful"));
    legend(SlotKind::idle, tr("idle lane"));
    legend(SlotKind::idle_padding, tr("idle on stored padding"));
    legend(SlotKind::padding, tr("stored padding"));
    if (a.phantom_slots > 0) legend(SlotKind::phantom, tr("no thread"));

    // the whole matrix in one strip: every warp, left to right, as the share of its lane
    // slots that do useful work (blue, from the bottom) and that idle (yellow)
    y += fm.height() + 6;
    const double stripW = qMax(40.0, width() - 16.0);
    const auto strip = spmv::viz::waste_strip(a, w.warp_size, static_cast<int>(stripW));
    if (!strip.empty()) {
        const auto per = strip.front().last_warp - strip.front().first_warp + 1;
        p.setPen(toQColor(pal.text));
        p.drawText(QPointF(8, y + fm.ascent()),
                   per > 1 ? tr("All %1 warps, left to right (%2 per column): useful and idle share")
                                 .arg(QLocale::c().toString(static_cast<qlonglong>(a.warps.size())))
                                 .arg(per)
                           : tr("All %1 warps, left to right: useful and idle share")
                                 .arg(QLocale::c().toString(static_cast<qlonglong>(a.warps.size()))));
        y += fm.height();
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
        p.setPen(toQColor(pal.text));
        p.drawText(QRectF(cap.x, cap.y, cap.w + 60, cap.h), Qt::AlignLeft | Qt::AlignVCenter,
                   tr("warp %1").arg(pic.warp) + (pic.truncated ? tr(" (cut)") : QString()));
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
        p.drawText(QPointF(8, m_layout.height - 4),
                   tr("Showing warps %1 to %2 of %3.")
                       .arg(w.first_warp)
                       .arg(w.first_warp + static_cast<qint64>(w.pictures.size()) - 1)
                       .arg(a.warps.size()));
    }
}
