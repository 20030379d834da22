#include "textaudit.hpp"

#include <cmath>
#include <vector>

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractScrollArea>
#include <QComboBox>
#include <QDockWidget>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QLabel>
#include <QLayout>
#include <QPaintDevice>
#include <QPaintEngine>
#include <QPainter>
#include <QStackedWidget>
#include <QStyle>
#include <QTabBar>
#include <QTableView>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>

namespace {

/// Where a text landed when the window was rendered: its box on the window (baseline-based:
/// ascent above, descent below, its advance wide), the part of the box the clip left visible,
/// and its font's size on the screen.
struct PaintedText {
    QString text;
    QString widget;
    QRectF box;
    QRectF visible;
    double pixels = 0;
    bool scrolledItems = false;  ///< painted in an item view's viewport (rows scroll past it)
    bool scrolledLines = false;  ///< painted in a text view's viewport (lines scroll past it)
};

/// A paint engine that draws nothing and records every text item with the clip in force:
/// the widgets paint into it as onto the screen (QWidget::render), so it sees exactly the text
/// a screenshot shows, also the text a style or Qt Charts paints.
class TextRecordingEngine : public QPaintEngine {
public:
    TextRecordingEngine() : QPaintEngine(QPaintEngine::AllFeatures) {}
    bool begin(QPaintDevice*) override { return true; }
    bool end() override { return true; }
    void updateState(const QPaintEngineState&) override {}
    void drawPixmap(const QRectF&, const QPixmap&, const QRectF&) override {}
    void drawImage(const QRectF&, const QImage&, const QRectF&, Qt::ImageConversionFlags) override {}
    void drawTiledPixmap(const QRectF&, const QPixmap&, const QPointF&) override {}
    void drawPath(const QPainterPath&) override {}
    void drawPolygon(const QPointF*, int, PolygonDrawMode) override {}
    void drawPolygon(const QPoint*, int, PolygonDrawMode) override {}
    Type type() const override { return QPaintEngine::User; }

    void drawTextItem(const QPointF& p, const QTextItem& item) override
    {
        const QString text = item.text().trimmed();
        QPainter* pa = painter();
        if (text.isEmpty() || !pa) return;
        const QTransform t = pa->deviceTransform();
        const QRectF local(p.x(), p.y() - item.ascent(), item.width(),
                           item.ascent() + item.descent());
        PaintedText out;
        out.text = text;
        out.box = t.mapRect(local);
        QRegion clip(out.box.toAlignedRect());
        if (!systemClip().isEmpty()) clip &= systemClip();
        if (pa->hasClipping()) clip &= t.map(pa->clipRegion());
        out.visible = clip.boundingRect();
        const QFont f = item.font();
        const double px = f.pixelSize() > 0 ? f.pixelSize() : f.pointSizeF() * m_pixelsPerPoint;
        out.pixels = px * std::sqrt(std::abs(t.determinant()));
        if (const auto* w = dynamic_cast<QWidget*>(pa->device())) {
            out.widget = QString::fromLatin1(w->metaObject()->className());
            if (!w->objectName().isEmpty()) out.widget += QLatin1Char('#') + w->objectName();
            // a table's or list's rows run on past the bottom of its viewport: that is how a
            // scrolled list looks, every row reachable; auditTable checks the cells' widths
            const auto* view = qobject_cast<const QAbstractItemView*>(w->parentWidget());
            out.scrolledItems = view && view->viewport() == w;
            // a text view's lines run on past the bottom of its viewport likewise (a line
            // wider than the viewport is still cut)
            const auto* text = qobject_cast<const QAbstractScrollArea*>(w->parentWidget());
            out.scrolledLines = text && text->viewport() == w &&
                                (text->inherits("QTextEdit") || text->inherits("QPlainTextEdit"));
            if (auto* p = w->parentWidget(); p && !out.scrolledItems) {
                if (auto* owner = qobject_cast<const QAbstractItemView*>(p->parentWidget())) {
                    out.scrolledItems = owner->viewport() == p;  // an index widget's text
                }
            }
        }
        texts.push_back(out);
    }

    double m_pixelsPerPoint = 96.0 / 72.0;
    std::vector<PaintedText> texts;
};

class TextRecorder : public QPaintDevice {
public:
    TextRecorder(QSize size, int dpi) : m_size(size), m_dpi(dpi)
    {
        m_engine.m_pixelsPerPoint = dpi / 72.0;
    }
    QPaintEngine* paintEngine() const override { return &m_engine; }
    std::vector<PaintedText>& texts() { return m_engine.texts; }

protected:
    int metric(PaintDeviceMetric m) const override
    {
        switch (m) {
        case PdmWidth: return m_size.width();
        case PdmHeight: return m_size.height();
        case PdmWidthMM: return m_size.width() * 254 / (10 * m_dpi);
        case PdmHeightMM: return m_size.height() * 254 / (10 * m_dpi);
        case PdmNumColors: return 0x7fffffff;
        case PdmDepth: return 32;
        case PdmDpiX:
        case PdmDpiY:
        case PdmPhysicalDpiX:
        case PdmPhysicalDpiY: return m_dpi;
        case PdmDevicePixelRatio: return 1;
        case PdmDevicePixelRatioScaled: return static_cast<int>(devicePixelRatioFScale());
        default: return 0;
        }
    }

private:
    QSize m_size;
    int m_dpi;
    mutable TextRecordingEngine m_engine;
};

bool shown(const QWidget* w, const QWidget* root)
{
    return w->isVisibleTo(root) && w->width() > 0;
}

void auditTable(QTableView* table, QStringList& out)
{
    auto* model = table->model();
    if (!model) return;
    const QFontMetrics fm(table->font());
    // QItemDelegate / QStyledItemDelegate leave (focus frame margin + 1) on each side
    const int pad =
        2 * (table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table) + 1);
    for (int c = 0; c < model->columnCount(); ++c) {
        if (table->isColumnHidden(c)) continue;
        const int w = table->columnWidth(c);
        const QString head = model->headerData(c, Qt::Horizontal).toString();
        const QFontMetrics hfm(table->horizontalHeader()->font());
        const int headNeed = hfm.horizontalAdvance(head) + pad;
        if (table->horizontalHeader()->isVisible() && !head.contains(QLatin1Char('\n')) &&
            headNeed > w) {
            out << QStringLiteral("table header '%1': needs %2 px, has %3")
                       .arg(auditQuote(head))
                       .arg(headNeed)
                       .arg(w);
        }
        for (int r = 0; r < model->rowCount(); ++r) {
            const QString text = model->index(r, c).data().toString();
            const int need = fm.horizontalAdvance(text) + pad;
            if (!text.contains(QLatin1Char('\n')) && need > w) {
                out << QStringLiteral("table cell (%1, %2) '%3': needs %4 px, has %5")
                           .arg(r)
                           .arg(c)
                           .arg(auditQuote(text))
                           .arg(need)
                           .arg(w);
            }
        }
    }
}

void auditChart(QChartView* view, QStringList& out)
{
    if (!view->scene()) return;
    for (QGraphicsItem* item : view->scene()->items()) {
        if (!item->isVisible()) continue;
        QString text;
        if (auto* t = dynamic_cast<QGraphicsTextItem*>(item)) text = t->toPlainText();
        if (auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item)) text = t->text();
        if (text.contains(QChar(0x2026)) || text.endsWith(QLatin1String("..."))) {
            out << QStringLiteral("chart text '%1': elided by Qt Charts").arg(auditQuote(text));
        }
    }
}

/// Renders `root` into the recorder and reports the painted text that its clip cuts, or that
/// is smaller than minPixels.
void auditPainted(QWidget* root, double minPixels, QStringList& out)
{
    TextRecorder recorder(root->size(), root->logicalDpiY() > 0 ? root->logicalDpiY() : 96);
    root->render(&recorder, QPoint(), QRegion(), QWidget::DrawChildren);
    const bool debug = qEnvironmentVariableIsSet("SPMV_AUDIT_DEBUG");
    for (const PaintedText& t : recorder.texts()) {
        if (debug) {
            qInfo("text '%s' in %s: box %.0f,%.0f %.0fx%.0f visible %.0f,%.0f %.0fx%.0f %.1f px",
                  qPrintable(auditQuote(t.text)), qPrintable(t.widget), t.box.x(), t.box.y(),
                  t.box.width(), t.box.height(), t.visible.x(), t.visible.y(),
                  t.visible.width(), t.visible.height(), t.pixels);
        }
        if (t.visible.isEmpty()) continue;  // wholly outside: scrolled away, not cut
        // a cut of a pixel or two is the glyph box's side bearing or line gap, not the text
        const double cutX = t.box.width() - t.visible.width();
        const double cutY = t.box.height() - t.visible.height();
        const bool cutAcross = cutX > 2.5;
        const bool cutDown = !t.scrolledLines && cutY > qMax(2.5, 0.3 * t.box.height());
        if (!t.scrolledItems && (cutAcross || cutDown)) {
            out << QStringLiteral("clipped text '%1' in %2: %3 x %4 px of its %5 x %6 visible")
                       .arg(auditQuote(t.text), t.widget)
                       .arg(qRound(t.visible.width()))
                       .arg(qRound(t.visible.height()))
                       .arg(qRound(t.box.width()))
                       .arg(qRound(t.box.height()));
        }
        if (minPixels > 0 && t.pixels + 0.25 < minPixels) {
            out << QStringLiteral("undersized text '%1' in %2: %3 px, the minimum is %4 px")
                       .arg(auditQuote(t.text), t.widget)
                       .arg(t.pixels, 0, 'f', 1)
                       .arg(minPixels, 0, 'f', 0);
        }
    }
}

/// The minimum size the layout of w's parent gives w: its explicit minimum where set, else
/// its minimum size hint (its size hint where its size policy does not let it shrink), as
/// Qt's layouts take it (qSmartMinSize).
QSize effectiveMinimum(const QWidget* w)
{
    const QSize hint = w->sizeHint();
    const QSize minHint = w->minimumSizeHint();
    const QSizePolicy policy = w->sizePolicy();
    QSize s;
    if (policy.horizontalPolicy() != QSizePolicy::Ignored) {
        s.setWidth(policy.horizontalPolicy() & QSizePolicy::ShrinkFlag ? minHint.width()
                                                                       : hint.width());
    }
    if (policy.verticalPolicy() != QSizePolicy::Ignored) {
        s.setHeight(policy.verticalPolicy() & QSizePolicy::ShrinkFlag ? minHint.height()
                                                                      : hint.height());
    }
    s = s.expandedTo(QSize(0, 0));
    if (w->minimumWidth() > 0) s.setWidth(w->minimumWidth());
    if (w->minimumHeight() > 0) s.setHeight(w->minimumHeight());
    return s.boundedTo(w->maximumSize());
}

QString describe(const QWidget* w)
{
    QString d = QString::fromLatin1(w->metaObject()->className());
    if (!w->objectName().isEmpty()) d += QLatin1Char('#') + w->objectName();
    QString text;
    if (auto* l = qobject_cast<const QLabel*>(w)) text = l->text();
    if (auto* b = qobject_cast<const QAbstractButton*>(w)) text = b->text();
    if (text.isEmpty()) {
        // a container: name it by its first label
        for (auto* l : w->findChildren<QLabel*>()) {
            if (!l->text().isEmpty()) {
                text = l->text();
                break;
            }
        }
    }
    if (!text.isEmpty()) d += QStringLiteral(" '%1'").arg(auditQuote(text));
    return d;
}

/// Counts a widget in its parent's layout: shown, or a page of a stack (a hidden tab's page
/// still sets the window's minimum size).
bool laidOut(const QWidget* w)
{
    if (w->isWindow()) return false;
    if (!w->isHidden()) return true;
    return qobject_cast<const QStackedWidget*>(w->parentWidget()) != nullptr ||
           w->sizePolicy().retainSizeWhenHidden();
}

void findOverflow(const QWidget* w, QSize room, QStringList& out)
{
    const QSize need = effectiveMinimum(w);
    const bool wide = need.width() > room.width();
    const bool tall = need.height() > room.height();
    if (!wide && !tall) return;
    bool inner = false;
    for (auto* child : w->findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
        if (!laidOut(child)) continue;
        const int before = static_cast<int>(out.size());
        findOverflow(child, room, out);
        inner = inner || out.size() > before;
    }
    if (!inner) {
        // a row or column of widgets that only together overflow: name the largest of them
        QStringList parts;
        for (auto* child : w->findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
            if (!laidOut(child)) continue;
            const QSize c = effectiveMinimum(child);
            if ((wide && c.width() * 5 >= room.width()) || (tall && c.height() * 5 >= room.height())) {
                parts << QStringLiteral("%1 %2 x %3").arg(describe(child)).arg(c.width()).arg(c.height());
            }
        }
        out << QStringLiteral("%1 needs %2 x %3 px, the window has %4 x %5%6")
                   .arg(describe(w))
                   .arg(need.width())
                   .arg(need.height())
                   .arg(room.width())
                   .arg(room.height())
                   .arg(parts.isEmpty() ? QString()
                                        : QStringLiteral(" (of it: %1)").arg(parts.join(QStringLiteral("; "))));
    }
}

}  // namespace

QStringList layoutOverflow(QWidget* window, QSize size)
{
    QStringList out;
    if (window->minimumSizeHint().width() <= size.width() &&
        window->minimumSizeHint().height() <= size.height() && window->size() == size) {
        return out;
    }
    // the innermost widgets too wide or too tall for the whole window; a row of widgets that
    // together overflow is named by its container
    findOverflow(window, size, out);
    // the pages of a stack (the views of the tab bar, beside which they must fit) by name
    for (auto* stack : window->findChildren<QStackedWidget*>()) {
        if (!stack->isVisible()) continue;
        // the room it would have in a window of `size`
        const QSize has = stack->size() - (window->size() - size);
        for (int i = 0; i < stack->count(); ++i) {
            const QSize need = effectiveMinimum(stack->widget(i));
            if (need.width() > has.width() + 1 || need.height() > has.height() + 1) {
                out << QStringLiteral("page %1 (%2) of %3 needs %4 x %5 px, has %6 x %7")
                           .arg(i)
                           .arg(describe(stack->widget(i)), describe(stack))
                           .arg(need.width())
                           .arg(need.height())
                           .arg(has.width())
                           .arg(has.height());
            }
        }
    }
    if (out.isEmpty()) {
        out << QStringLiteral("the window is %1 x %2 px, not the %3 x %4 asked for")
                   .arg(window->width())
                   .arg(window->height())
                   .arg(size.width())
                   .arg(size.height());
    }
    return out;
}

QStringList auditText(QWidget* root, double minPixelSize)
{
    QStringList out;
    for (auto* label : root->findChildren<QLabel*>()) {
        if (!shown(label, root) || label->wordWrap() || label->text().isEmpty() ||
            !label->pixmap().isNull() || label->textFormat() == Qt::RichText ||
            label->text().contains(QLatin1Char('<'))) {
            continue;
        }
        const QFontMetrics fm(label->font());
        int need = 0;
        for (const QString& line : label->text().split(QLatin1Char('\n'))) {
            need = qMax(need, fm.horizontalAdvance(line));
        }
        const int has = label->contentsRect().width() - 2 * label->margin() - label->indent() * 0;
        if (need > has + 1) {
            out << QStringLiteral("label '%1': needs %2 px, has %3")
                       .arg(auditQuote(label->text()))
                       .arg(need)
                       .arg(has);
        }
    }
    for (auto* button : root->findChildren<QAbstractButton*>()) {
        if (!shown(button, root) || button->text().isEmpty()) continue;
        if (button->sizeHint().width() > button->width() + 1) {
            out << QStringLiteral("button '%1': needs %2 px, has %3")
                       .arg(auditQuote(button->text()))
                       .arg(button->sizeHint().width())
                       .arg(button->width());
        }
    }
    for (auto* combo : root->findChildren<QComboBox*>()) {
        if (!shown(combo, root)) continue;
        // the current text plus the box's frame and arrow; the size hint is the widest item
        // plus that overhead
        const QFontMetrics fm(combo->font());
        int widest = 0;
        for (int i = 0; i < combo->count(); ++i) {
            widest = qMax(widest, fm.horizontalAdvance(combo->itemText(i)));
        }
        const int overhead = qMax(0, combo->sizeHint().width() - widest);
        const int need = fm.horizontalAdvance(combo->currentText()) + overhead;
        if (need > combo->width() + 1) {
            out << QStringLiteral("combo box '%1': needs %2 px, has %3")
                       .arg(auditQuote(combo->currentText()))
                       .arg(need)
                       .arg(combo->width());
        }
    }
    for (auto* table : root->findChildren<QTableView*>()) {
        if (shown(table, root)) auditTable(table, out);
    }
    for (auto* bar : root->findChildren<QTabBar*>()) {
        if (!shown(bar, root)) continue;
        const QFontMetrics fm(bar->font());
        for (int i = 0; i < bar->count(); ++i) {
            // the title plus the style's tab margins (QTabBar::tabSizeHint is protected)
            const int need = fm.horizontalAdvance(bar->tabText(i)) +
                             2 * bar->style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, bar) / 2;
            // a tab out of the bar, or a bar with its scroll arrows out: not every view is
            // reachable at a glance (a clicker cannot reach it either)
            const QRect r = bar->tabRect(i);
            bool arrows = false;  // the bar scrolls: some tab lies behind them
            for (auto* b : bar->findChildren<QAbstractButton*>(Qt::FindDirectChildrenOnly)) {
                arrows = arrows || (b->isVisible() && b->geometry().intersects(r));
            }
            if (!bar->rect().contains(r.adjusted(1, 1, -1, -1)) || arrows) {
                out << QStringLiteral("tab '%1': outside the tab bar's %2 x %3 px (scrolled "
                                      "out of sight)")
                           .arg(bar->tabText(i))
                           .arg(bar->width())
                           .arg(bar->height());
                continue;
            }
            if (bar->tabRect(i).width() + 1 < need && bar->elideMode() != Qt::ElideNone) {
                out << QStringLiteral("tab '%1': needs %2 px, has %3")
                           .arg(bar->tabText(i))
                           .arg(need)
                           .arg(bar->tabRect(i).width());
            }
        }
    }
    for (auto* dock : root->findChildren<QDockWidget*>()) {
        if (!shown(dock, root)) continue;
        const QFontMetrics fm(dock->font());
        const int need = fm.horizontalAdvance(dock->windowTitle()) + 60;  // plus float / close
        if (need > dock->width()) {
            out << QStringLiteral("dock title '%1': needs %2 px, has %3")
                       .arg(auditQuote(dock->windowTitle()))
                       .arg(need)
                       .arg(dock->width());
        }
    }
    for (auto* view : root->findChildren<QChartView*>()) {
        if (shown(view, root)) auditChart(view, out);
    }
    auditPainted(root, minPixelSize, out);
    out << paintedElisions();
    out.removeDuplicates();
    return out;
}
