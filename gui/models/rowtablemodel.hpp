#pragma once
// A read-only table model over a list of rows, one table row per list entry (heaptrack's
// resetData idea): the list, resetting it, appending one row as results stream in, and the
// row and column counts. Subclasses name their columns and say what a cell shows (data,
// headerData). No Q_OBJECT here (moc does not do templates); subclasses have their own.
#include <QAbstractTableModel>
#include <QList>

template <typename Row>
class RowTableModel : public QAbstractTableModel {
public:
    void resetData(const QList<Row>& rows = {})
    {
        beginResetModel();
        m_rows = rows;
        endResetModel();
    }

    void appendRow(const Row& row)
    {
        const int n = static_cast<int>(m_rows.size());
        beginInsertRows({}, n, n);
        m_rows.append(row);
        endInsertRows();
    }

    const QList<Row>& rows() const { return m_rows; }

    int rowCount(const QModelIndex& parent = {}) const override
    {
        return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
    }

    int columnCount(const QModelIndex& parent = {}) const override
    {
        return parent.isValid() ? 0 : m_columnCount;
    }

protected:
    RowTableModel(int columnCount, QObject* parent)
        : QAbstractTableModel(parent), m_columnCount(columnCount)
    {}

    /// The row behind a cell of this table; nullptr for an invalid index or one outside.
    const Row* rowAt(const QModelIndex& index) const
    {
        if (!index.isValid() || index.row() >= m_rows.size() || index.column() >= m_columnCount) {
            return nullptr;
        }
        return &m_rows[index.row()];
    }

private:
    QList<Row> m_rows;
    int m_columnCount;
};
