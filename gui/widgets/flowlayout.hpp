#pragma once
// A layout that places its items left to right and wraps to a new line where the next one
// would pass the right edge (Qt's flow layout example), with height-for-width so that the
// layout above gives it the lines it needs. The bars of controls above the views use it: in
// presentation mode at 1280 x 720 the parameter bar's eight parameters take two lines rather
// than a window 1,500 px wide or labels cut to "JDS diag p". Keep a label with its control by
// adding both as one widget (flowPair).
#include <QHBoxLayout>
#include <QLabel>
#include <QLayout>
#include <QList>
#include <QWidget>

class FlowLayout : public QLayout {
public:
    explicit FlowLayout(QWidget* parent) : QLayout(parent) {}
    ~FlowLayout() override
    {
        while (QLayoutItem* item = takeAt(0)) delete item;
    }
    void addItem(QLayoutItem* item) override { m_items.append(item); }
    int count() const override { return static_cast<int>(m_items.size()); }
    QLayoutItem* itemAt(int i) const override { return m_items.value(i); }
    QLayoutItem* takeAt(int i) override
    {
        return i >= 0 && i < m_items.size() ? m_items.takeAt(i) : nullptr;
    }
    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override { return arrange(QRect(0, 0, width, 0), false); }
    void setGeometry(const QRect& rect) override
    {
        QLayout::setGeometry(rect);
        arrange(rect, true);
    }
    QSize sizeHint() const override
    {
        // all on one line
        QSize s(0, 0);
        for (auto* item : m_items) {
            if (item->isEmpty()) continue;
            if (s.width() > 0) s.rwidth() += spacing();
            s.rwidth() += item->sizeHint().width();
            s.setHeight(qMax(s.height(), item->sizeHint().height()));
        }
        const QMargins m = contentsMargins();
        return s + QSize(m.left() + m.right(), m.top() + m.bottom());
    }
    QSize minimumSize() const override
    {
        // the widest item: anything narrower wraps
        QSize s(0, 0);
        for (auto* item : m_items) s = s.expandedTo(item->minimumSize());
        const QMargins m = contentsMargins();
        return s + QSize(m.left() + m.right(), m.top() + m.bottom());
    }

private:
    /// Lays the items out in lines (each item vertically centred in its line); returns the
    /// height used.
    int arrange(const QRect& rect, bool place) const
    {
        const QMargins m = contentsMargins();
        const QRect r = rect.marginsRemoved(m);
        int x = r.x(), y = r.y(), line = 0;
        QList<QLayoutItem*> current;
        auto flush = [&] {
            if (place) {
                int cx = r.x();
                for (auto* item : current) {
                    const QSize hint = item->sizeHint();
                    item->setGeometry(QRect(QPoint(cx, y + (line - hint.height()) / 2), hint));
                    cx += hint.width() + spacing();
                }
            }
            current.clear();
        };
        for (auto* item : m_items) {
            if (item->isEmpty()) continue;  // a hidden widget takes no room
            const QSize hint = item->sizeHint();
            if (x > r.x() && x + hint.width() > r.right() + 1) {  // wrap
                flush();
                x = r.x();
                y += line + spacing();
                line = 0;
            }
            current << item;
            x += hint.width() + spacing();
            line = qMax(line, hint.height());
        }
        flush();
        return y + line - rect.y() + m.bottom();
    }

    QList<QLayoutItem*> m_items;
};

/// `label` and `control` side by side as one item of a FlowLayout (a line never breaks
/// between them).
inline QWidget* flowPair(QWidget* label, QWidget* control, int spacing = 4)
{
    auto* pair = new QWidget;
    auto* layout = new QHBoxLayout(pair);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(spacing);
    layout->addWidget(label);
    layout->addWidget(control);
    return pair;
}
