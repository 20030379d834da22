#include "textaudit.hpp"

#include <QAbstractButton>
#include <QComboBox>
#include <QDockWidget>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QLabel>
#include <QStyle>
#include <QTabBar>
#include <QTableView>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>

namespace {

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

}  // namespace

QStringList auditText(QWidget* root)
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
    out << paintedElisions();
    return out;
}
