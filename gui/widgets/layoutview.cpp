#include "layoutview.hpp"

#include <cmath>

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QTextLayout>
#include <QToolTip>

#include "appearance.hpp"
#include "elidedtext.hpp"

using spmv::viz::CellKind;

namespace {

/// Characters an entry of a values array gets ("-564.2…"); index arrays are integers, shown
/// in full however long.
constexpr int valueEntryChars = 7;

int entryChars(const spmv::viz::StorageArray& a)
{
    return a.role == spmv::viz::ArrayRole::values ? valueEntryChars : 1 << 10;
}

QString entryText(const spmv::viz::StorageArray& a, std::size_t i)
{
    return LayoutView::valueText(a.entries[i], entryChars(a));
}

int digitsOf(const spmv::viz::StorageArray& a)
{
    int d = 1;
    for (std::size_t i = 0; i < a.entries.size(); ++i) {
        const QString t = entryText(a, i);  // "…" as wide as two digits, to be safe
        d = qMax(d, static_cast<int>(t.size() + t.count(QChar(0x2026))));
    }
    return d;
}

QString fullText(double v)
{
    return QString::fromStdString(spmv::viz::full_value_text(v));
}

constexpr std::size_t maxEntriesShown = 600;

constexpr double headerMargin = 8;

}  // namespace

LayoutView::LayoutView(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(false);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    connect(&Appearance::instance(), &Appearance::changed, this, [this] {
        relayout();
        update();
    });
}

void LayoutView::setError(const QString& message)
{
    m_error = message;
    setConstruction(nullptr);
}

void LayoutView::setConstruction(ConstructionPtr construction)
{
    if (construction) {
        m_error.clear();
    }
    m_construction = std::move(construction);
    m_step = qBound(0, m_step, qMax(0, stepCount() - 1));
    relayout();
    // keep the selected nonzero if the new construction still shows it
    const auto* s = step();
    m_selected = {-1, -1};
    if (s && m_selectedNonzero >= 0) {
        if (const auto pos = s->find_nonzero(m_selectedNonzero)) {
            m_selected = {pos->first, pos->second};
        }
    }
    describeSelection();
    emit stepChanged(m_step, stepCount());
    update();
}

int LayoutView::stepCount() const
{
    return m_construction ? static_cast<int>(m_construction->steps.size()) : 0;
}

const spmv::viz::ConstructionStep* LayoutView::step() const
{
    if (!m_construction || m_step < 0 || m_step >= stepCount()) {
        return nullptr;
    }
    return &m_construction->steps[static_cast<std::size_t>(m_step)];
}

void LayoutView::setStep(int newStep)
{
    newStep = qBound(0, newStep, qMax(0, stepCount() - 1));
    m_step = newStep;
    relayout();
    m_selected = {-1, -1};
    if (const auto* s = step(); s && m_selectedNonzero >= 0) {
        if (const auto pos = s->find_nonzero(m_selectedNonzero)) {
            m_selected = {pos->first, pos->second};
        }
    }
    describeSelection();
    emit stepChanged(m_step, stepCount());
    update();
}

void LayoutView::nextStep()
{
    setStep(m_step + 1);
}

void LayoutView::previousStep()
{
    setStep(m_step - 1);
}

void LayoutView::selectCell(int row, int col)
{
    const auto* s = step();
    const qint64 before = m_selectedNonzero;
    if (!s || row < 0 || col < 0 || row >= s->rows || col >= s->cols) {
        m_selected = {-1, -1};
        m_selectedNonzero = -1;
    } else {
        m_selected = {row, col};
        const auto& c = s->at(row, col);
        if (c.kind == CellKind::nonzero) {
            m_selectedNonzero = c.nz;
        }
    }
    describeSelection();
    update();
    if (m_selectedNonzero != before) emit nonzeroSelected(m_selectedNonzero);
}

QString LayoutView::valueText(double value, int maxChars)
{
    return QString::fromStdString(spmv::viz::cell_value_text(value, maxChars));
}

int LayoutView::cellChars() const
{
    // one budget for every cell of the step: as many digits as its width holds; fewer than
    // 3 ("-1…") say too little, and then no cell shows a value (the tooltip does)
    const QFontMetricsF fm(Appearance::instance().font());
    const int chars = static_cast<int>((m_geometry.cell - 2) / fm.horizontalAdvance(QLatin1Char('0')));
    return chars >= 3 && m_geometry.cell >= fm.height() * 1.1 ? chars : 0;
}

QString LayoutView::toolTipAt(const QPointF& pos) const
{
    const auto* s = step();
    if (!s) return {};
    if (const auto cell = m_geometry.cellAt(pos.x(), pos.y())) {
        const auto& x = s->at(cell->first, cell->second);
        if (x.kind == CellKind::nonzero) {
            return tr("A(%1, %2) = %3").arg(x.row).arg(x.col).arg(fullText(x.value));
        }
        if (x.kind == CellKind::padding) return tr("padding: value 0, index -1");
        return {};
    }
    if (const auto hit = m_geometry.entryAt(pos.x(), pos.y())) {
        const auto& a = s->arrays[hit->first];
        if (hit->second >= a.entries.size()) return {};
        return QStringLiteral("%1[%2] = %3")
            .arg(QString::fromStdString(a.name))
            .arg(hit->second < a.index.size() ? a.index[hit->second] : qint64(hit->second))
            .arg(fullText(a.entries[hit->second]));
    }
    return {};
}

bool LayoutView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString tip = toolTipAt(help->pos());
        if (tip.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), tip, this);
        }
        return true;
    }
    return QWidget::event(event);
}

void LayoutView::describeSelection()
{
    const auto* s = step();
    if (!s || m_selected.first < 0) {
        emit selectionDescribed(tr("Click a cell to follow it through the storage arrays."));
        return;
    }
    const auto& c = s->at(m_selected.first, m_selected.second);
    QString text;
    switch (c.kind) {
        case CellKind::nonzero:
            text = tr("Nonzero %1: A(%2, %3) = %4").arg(c.nz).arg(c.row).arg(c.col).arg(fullText(c.value));
            break;
        case CellKind::padding:
            text = c.row >= 0 ? tr("Padding slot of row %1").arg(c.row)
                              : tr("Padding slot of an empty padding row");
            break;
        case CellKind::empty:
            text = tr("Not stored");
            break;
    }
    if (c.slot >= 0) {
        text += c.part == 1 ? tr(", COO entry %1").arg(c.slot) : tr(", storage slot %1").arg(c.slot);
    }
    emit selectionDescribed(text);
}

LayoutMetrics LayoutView::metrics() const
{
    const QFontMetricsF fm(Appearance::instance().font());
    LayoutMetrics m;
    m.lineHeight = fm.height();
    m.charWidth = fm.horizontalAdvance(QLatin1Char('0'));
    // room for the widest row label of this matrix ("row 999833", "entry 12") and the widest
    // array name of the construction ("coo_row_idx", "slice_widths")
    const qint64 rows = m_construction ? qMax<qint64>(m_construction->max_total_rows, 1) : 1;
    m.rowLabelWidth =
        fm.horizontalAdvance(QStringLiteral("entry %1").arg(qMax<qint64>(rows - 1, 1000))) + 6;
    double arrayName = fm.horizontalAdvance(QStringLiteral("slice_widths"));
    if (m_construction) {
        const QFontMetricsF bold(Appearance::instance().font(1.0, true));
        for (const auto& step : m_construction->steps) {
            for (const auto& a : step.arrays) {
                arrayName = std::max(arrayName, bold.horizontalAdvance(QString::fromStdString(a.name)));
            }
        }
    }
    m.arrayLabelWidth = arrayName + 12;
    // room for 5 characters of a value ("-564…", "4.74…", "0.01") where the grid fits
    m.preferredCell = std::max(std::round(fm.height() * 2.0), std::ceil(5 * m.charWidth + 4));
    m.minCell = 3;
    m.groupGap = m.charWidth;
    return m;
}

QString LayoutView::stepTitle(const spmv::viz::ConstructionStep& step) const
{
    return QStringLiteral("%1 \u2014 %2")
        .arg(QString::fromStdString(m_construction->title), QString::fromStdString(step.title));
}

std::vector<std::pair<int, QString>> LayoutView::legendItems() const
{
    // 0 nonzero, 1 padding, 2 not stored, 3 selected (an outline)
    return {{0, tr("nonzero (value)")},
            {1, tr("stored padding (value 0, index -1)")},
            {2, tr("not stored")},
            {3, tr("selected")}};
}

std::vector<int> LayoutView::legendRows(double width) const
{
    // the legend flows: an entry that does not fit beside the previous one starts a new row
    const QFontMetricsF fm(Appearance::instance().font());
    const double box = fm.height() - 4;
    std::vector<int> rows;
    double x = headerMargin;
    int row = 0;
    for (const auto& item : legendItems()) {
        const double w = box + 4 + fm.horizontalAdvance(item.second);
        if (x > headerMargin && x + w > width - headerMargin) {
            ++row;
            x = headerMargin;
        }
        rows.push_back(row);
        x += w + 14;
    }
    return rows;
}

double LayoutView::titleBlockHeight() const
{
    // the title and caption word-wrap to the view's width; the tallest step's sets the room,
    // so that the grid stays where it is while the stepper moves from step to step
    if (!m_construction) return 0;
    const QFontMetricsF fm(Appearance::instance().font());
    const QFontMetricsF bold(Appearance::instance().font(1.15, true));
    const double w = qMax(300, width()) - 2 * headerMargin;
    double h = 0;
    for (const auto& step : m_construction->steps) {
        h = std::max(h, wrappedHeight(bold, stepTitle(step), w) + 4 +
                            wrappedHeight(fm, QString::fromStdString(step.caption), w));
    }
    return h;
}

double LayoutView::headerHeight() const
{
    const QFontMetricsF fm(Appearance::instance().font());
    // title and caption (wrapped), the legend (flowing onto rows) and a gap
    const auto rows = legendRows(qMax(300, width()));
    return headerMargin + titleBlockHeight() + 4 + (rows.empty() ? 1 : rows.back() + 1) * fm.height() +
           6;
}

void LayoutView::relayout()
{
    const auto* s = step();
    std::vector<ArrayShape> shapes;
    if (s) {
        for (const auto& a : s->arrays) {
            shapes.push_back({a.entries.size(), a.group_starts, digitsOf(a)});
        }
    }
    m_geometry = layoutGeometry(s ? s->rows : 0, s ? s->cols : 0, shapes, headerHeight(),
                                qMax(width(), 300), metrics(), maxEntriesShown);
    setMinimumHeight(static_cast<int>(std::ceil(m_geometry.height)));
    updateGeometry();
}

QSize LayoutView::sizeHint() const
{
    return {qMax(600, static_cast<int>(m_geometry.width)), static_cast<int>(m_geometry.height)};
}

void LayoutView::resizeEvent(QResizeEvent*)
{
    relayout();
}

QRectF LayoutView::cellRect(int row, int col) const
{
    const auto r = m_geometry.cellRect(row, col);
    return {r.x, r.y, r.w, r.h};
}

QRectF LayoutView::entryRect(const QString& arrayName, int entry) const
{
    const auto* s = step();
    if (!s) return {};
    for (std::size_t a = 0; a < s->arrays.size() && a < m_geometry.arrays.size(); ++a) {
        if (QString::fromStdString(s->arrays[a].name) == arrayName) {
            const auto& e = m_geometry.arrays[a].entries;
            if (entry >= 0 && static_cast<std::size_t>(entry) < e.size()) {
                const auto& r = e[static_cast<std::size_t>(entry)];
                return {r.x, r.y, r.w, r.h};
            }
        }
    }
    return {};
}

void LayoutView::mousePressEvent(QMouseEvent* event)
{
    const auto* s = step();
    if (!s || event->button() != Qt::LeftButton) return;
    const QPointF p = event->position();
    if (const auto cell = m_geometry.cellAt(p.x(), p.y())) {
        selectCell(cell->first, cell->second);
        return;
    }
    if (const auto hit = m_geometry.entryAt(p.x(), p.y())) {
        // an entry of a slot array selects the cell stored there
        const auto& a = s->arrays[hit->first];
        if (a.key == spmv::viz::ArrayKey::slot && hit->second < a.index.size()) {
            const auto slot = a.index[hit->second];
            for (int r = 0; r < s->rows; ++r) {
                for (int c = 0; c < s->cols; ++c) {
                    if (s->at(r, c).slot == slot && s->at(r, c).part == a.part) {
                        selectCell(r, c);
                        return;
                    }
                }
            }
        }
    }
}

QRectF LayoutView::shownRect(const QPaintEvent* event) const
{
    // what the scroll area shows of the view, or all that is painted where more is (an export
    // or a render of the view alone); partial repaints inside it decide as the full one did
    return QRectF(visibleRegion().boundingRect() | event->region().boundingRect())
        .adjusted(-1, -1, 1, 1);
}

void LayoutView::moveEvent(QMoveEvent*)
{
    // the scroll area scrolls by moving the view: repaint all of it, so that text left out at
    // the old edge is drawn now it is whole (a scroll repaints only the uncovered strip)
    update();
}

void LayoutView::paintEvent(QPaintEvent* event)
{
    QPainter p(this);
    const auto& app = Appearance::instance();
    const auto& pal = Appearance::palette();
    p.fillRect(rect(), toQColor(pal.background));
    const auto* s = step();
    const QFont font = app.font();
    const QFont bold = app.font(1.15, true);
    const QFontMetricsF fm(font);
    const double margin = 8;
    if (!s) {
        p.setFont(font);
        p.setPen(toQColor(pal.text));
        p.drawText(rect().adjusted(16, 16, -16, -16), Qt::AlignCenter | Qt::TextWordWrap,
                   m_error.isEmpty() ? tr("Computing the construction ...")
                                     : tr("No construction: %1").arg(m_error));
        return;
    }
    // text half scrolled out of the scroll area is left out rather than drawn cut in two
    // (scrolling brings it back whole): `band` is the line of text's extent
    const QRectF shown = shownRect(event);
    const auto whole = [&](double x0, double y0, double w0, double h0) {
        return shown.contains(QRectF(x0, y0 + 1, qMax(1.0, w0), qMax(1.0, h0 - 2)));
    };
    // title and caption, word-wrapped
    const double textW = qMax(300, width()) - 2 * margin;
    double y = margin;
    p.setPen(toQColor(pal.text));
    p.setFont(bold);
    const QString title = stepTitle(*s);
    const double titleH = wrappedHeight(QFontMetricsF(bold), title, textW);
    if (whole(margin, y, 1, titleH)) {
        p.drawText(QRectF(margin, y, textW, titleH),
                   Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, title);
    }
    y += titleH + 4;
    p.setFont(font);
    const QString caption = QString::fromStdString(s->caption);
    const double captionH = wrappedHeight(fm, caption, textW);
    if (whole(margin, y, 1, captionH)) {
        p.drawText(QRectF(margin, y, textW, captionH),
                   Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, caption);
    }
    // legend, flowing onto as many rows as the width needs, right below the caption (the
    // room for the tallest step's caption stays below it, above the grid)
    y += captionH + 4;
    {
        const auto items = legendItems();
        const auto rows = legendRows(qMax(300, width()));
        const QColor fills[] = {toQColor(pal.nonzero), toQColor(pal.padding),
                                toQColor(pal.empty), QColor(Qt::transparent)};
        const double box = fm.height() - 4;
        double lx = margin;
        for (std::size_t i = 0; i < items.size(); ++i) {
            const auto& [kind, label] = items[i];
            if (i > 0 && rows[i] != rows[i - 1]) {
                lx = margin;
                y += fm.height();
            }
            const bool outline = kind == 3;
            p.setPen(outline ? QPen(toQColor(pal.selection), 3) : QPen(toQColor(pal.grid)));
            p.setBrush(fills[kind]);
            p.drawRect(QRectF(lx, y + 2, box, box));
            p.setPen(toQColor(pal.text));
            lx += box + 4;
            if (whole(lx, y, 1, fm.height())) p.drawText(QPointF(lx, y + fm.ascent()), label);
            lx += fm.horizontalAdvance(label) + 14;
        }
    }

    const auto& g = m_geometry;
    const double cell = g.cell;
    const bool showText = cell >= fm.height() * 1.1;
    // column header
    p.setPen(toQColor(pal.text));
    if (showText) {
        for (int c = 0; c < s->cols; ++c) {
            const auto r = g.cellRect(0, c);
            if (!whole(r.x, g.grid.y - fm.height(), 1, fm.height())) continue;
            p.drawText(QRectF(r.x, g.grid.y - fm.height(), r.w, fm.height()), Qt::AlignCenter,
                       QString::number(s->col_offset + c));
        }
    } else {
        // the window's rows and columns are named above the view (ConstructionPanel); cells
        // too small for a digit show no values (the one value rule: hover gives each in full)
        const QString line = tr("%1 \u00d7 %2 cells, too small for their values: hover for them")
                                 .arg(s->rows)
                                 .arg(s->cols);
        const QString shortLine = tr("%1 \u00d7 %2 cells").arg(s->rows).arg(s->cols);
        const QString shownLine =
            g.grid.x + fm.horizontalAdvance(line) <= width() - margin ? line : shortLine;
        if (whole(g.grid.x, g.grid.y - 3 - fm.ascent(), 1, fm.height())) {
            p.drawText(QPointF(g.grid.x, g.grid.y - 3), shownLine);
        }
    }
    // cells
    const QColor nonzero = toQColor(pal.nonzero);
    const QColor padding = toQColor(pal.padding);
    const QColor empty = toQColor(pal.empty);
    const QColor onNonzero = toQColor(spmv::viz::text_colour_on(pal.nonzero));
    QPen border(toQColor(pal.grid));
    border.setWidthF(cell >= 6 ? 1.0 : 0.0);
    // a row label needs a line of text: where cells are lower than that, every labelEvery-th
    // row is labelled, its label reaching down over the rows below it (never cut by its cell)
    const int labelEvery = cell >= fm.height() ? 1 : static_cast<int>(std::ceil(fm.height() / cell));
    for (int r = 0; r < s->rows; ++r) {
        const auto row = s->row_source[static_cast<std::size_t>(r)];
        if (cell >= 8 && r % labelEvery == 0) {
            p.setPen(toQColor(pal.text));
            const auto rr = g.cellRect(r, 0);
            const QString label =
                !s->row_axis.empty()
                    ? QStringLiteral("%1 %2")
                          .arg(QString::fromStdString(s->row_axis))
                          .arg(s->row_offset + r)
                    : row >= 0 ? tr("row %1").arg(row)
                               : tr("(pad)");
            const bool tall = labelEvery == 1;
            const double band = tall ? rr.y + (rr.h - fm.height()) / 2 : rr.y;
            if (whole(margin, band, 1, fm.height())) {
                p.drawText(QRectF(margin, band, g.grid.x - margin - 4, fm.height()),
                           Qt::AlignRight | Qt::AlignVCenter, label);
            }
        }
        for (int c = 0; c < s->cols; ++c) {
            const auto& x = s->at(r, c);
            const auto rc = g.cellRect(r, c);
            const QRectF q(rc.x, rc.y, rc.w, rc.h);
            const QColor fill = x.kind == CellKind::nonzero   ? nonzero
                                : x.kind == CellKind::padding ? padding
                                                              : empty;
            if (cell >= 6) {
                p.setPen(border);
            } else {
                p.setPen(Qt::NoPen);
            }
            p.setBrush(fill);
            p.drawRect(q);
        }
    }
    // values in the cells (each cell carries its nonzero's value): every one in full or cut
    // with "…" by one rule (cellChars, spmv::viz::cell_value_text), never some blank beside
    // printed ones; the tooltip and the selection line give the full value
    if (const int chars = cellChars(); chars > 0) {
        p.setPen(onNonzero);
        for (int r = 0; r < s->rows; ++r) {
            for (int c = 0; c < s->cols; ++c) {
                const auto& x = s->at(r, c);
                if (x.kind != CellKind::nonzero) continue;
                const auto rc = g.cellRect(r, c);
                if (!whole(rc.x, rc.y + (rc.h - fm.height()) / 2, 1, fm.height())) continue;
                QString t = valueText(x.value, chars);
                // "…" and "-" may be wider than a digit: the same rule, a character less
                for (int n = chars - 1; n >= 1 && fm.horizontalAdvance(t) > rc.w - 2; --n) {
                    t = valueText(x.value, n);
                }
                p.drawText(QRectF(rc.x, rc.y, rc.w, rc.h), Qt::AlignCenter, t);
            }
        }
    }
    // block / slice / window boundaries (rows) and group boundaries (columns)
    {
        QPen thick(toQColor(pal.block_line));
        thick.setWidthF(app.lineWidth(2.5));
        p.setPen(thick);
        for (int r : s->boundary_rows()) {
            const double yy = g.grid.y + r * cell;
            p.drawLine(QPointF(g.grid.x - 4, yy), QPointF(g.grid.right() + 4, yy));
        }
        for (const auto& m : s->column_marks) {
            const auto top = g.cellRect(m.first_row, m.col);
            const double yy = g.grid.y + m.last_row * cell;
            p.drawLine(QPointF(top.x, top.y - 3), QPointF(top.x, yy + 3));
        }
    }
    // selection
    if (m_selected.first >= 0) {
        const auto rc = g.cellRect(m_selected.first, m_selected.second);
        QPen sel(toQColor(pal.selection));
        sel.setWidthF(qMax(2.0, qMin(4.0, cell / 6)) * app.scale());
        p.setPen(sel);
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(rc.x, rc.y, rc.w, rc.h).adjusted(-1, -1, 1, 1));
    }
    // arrays
    const QColor selFill = toQColor(pal.selection);
    const QColor padFill = toQColor(spmv::viz::mix(pal.padding, pal.background, 0.6));
    for (std::size_t a = 0; a < s->arrays.size() && a < g.arrays.size(); ++a) {
        const auto& arr = s->arrays[a];
        const auto& row = g.arrays[a];
        p.setPen(toQColor(pal.text));
        p.setFont(app.font(1.0, true));
        if (whole(row.label.x, row.label.y + (row.label.h - fm.height()) / 2, 1, fm.height())) {
            p.drawText(QRectF(row.label.x, row.label.y, row.label.w, row.label.h),
                       Qt::AlignLeft | Qt::AlignVCenter, QString::fromStdString(arr.name));
        }
        p.setFont(font);
        std::vector<bool> related(arr.entries.size(), false);
        if (m_selected.first >= 0) {
            for (auto i : s->related_entries(arr, m_selected.first, m_selected.second)) {
                related[i] = true;
            }
        }
        for (std::size_t i = 0; i < row.entries.size(); ++i) {
            const auto& e = row.entries[i];
            const QRectF q(e.x, e.y, e.w, e.h);
            const bool pad = !arr.padding.empty() && arr.padding[i];
            p.setPen(QPen(toQColor(pal.grid)));
            p.setBrush(related[i] ? selFill : pad ? padFill : toQColor(pal.background));
            p.drawRect(q);
            p.setPen(related[i] ? toQColor(spmv::viz::text_colour_on(pal.selection))
                                : toQColor(pal.text));
            if (whole(e.x, e.y + (e.h - fm.height()) / 2, 1, fm.height())) {
                p.drawText(q, Qt::AlignCenter, entryText(arr, i));
            }
        }
        if ((row.truncated || !arr.complete()) && !row.entries.empty()) {
            const auto& e = row.entries.back();
            p.setPen(toQColor(pal.text));
            const auto first = arr.index.empty() ? 0 : arr.index.front();
            const auto last = arr.index.empty() ? 0 : arr.index.back();
            if (whole(e.right() + 4, e.y, 1, fm.height()))
                p.drawText(QPointF(e.right() + 4, e.y + fm.ascent()),
                       row.truncated ? tr("\u2026 (%1 of %2 entries)")
                                           .arg(row.entries.size())
                                           .arg(arr.total)
                                     : tr("[%1 \u2026 %2] of %3 entries")
                                           .arg(first)
                                           .arg(last)
                                           .arg(arr.total));
        }
    }
}
