#include "matrixstatsmodel.hpp"

#include <QLocale>

MatrixStatsModel::MatrixStatsModel(QObject* parent) : RowTableModel(3, parent) {}

void MatrixStatsModel::resetData(const MatrixDocumentPtr& document)
{
    QList<MatrixStatsRow> rows;
    if (document) {
        const QLocale loc = QLocale::c();
        const auto& s = document->stats;
        auto add = [&rows](const QString& q, const QString& v, const QString& n = QString()) {
            rows.append({q, v, n});
        };
        add(tr("Matrix"), document->name, document->source);
        add(tr("N (rows)"), loc.toString(s.rows));
        add(tr("columns"), loc.toString(s.cols));
        add(tr("nnz"), loc.toString(s.nnz),
            tr("stored entries (both triangles of a symmetric file)"));
        add(tr("ave = nnz / N"), QString::number(s.ave, 'f', 2), tr("Kreutzer's N_nzr"));
        add(tr("\u03c3 of the row lengths"), QString::number(s.sigma, 'f', 2),
            tr("population standard deviation"));
        add(tr("min row length"), loc.toString(s.min));
        add(tr("max row length"), loc.toString(s.max), tr("ELLPACK width"));
        add(tr("max \u2212 min"), loc.toString(s.spread), tr("PELLR Table 1"));
        add(tr("empty rows"), loc.toString(s.empty_rows));
        if (document->fileInfo) {
            const auto& f = *document->fileInfo;
            add(tr("file field / symmetry"),
                QStringLiteral("%1 / %2").arg(
                    QString::fromUtf8(spmv::io::to_string(f.field).data()),
                    QString::fromUtf8(spmv::io::to_string(f.symmetry).data())));
            add(tr("entries in the file"), loc.toString(f.entries),
                tr("%1 after symmetric expansion").arg(loc.toString(f.expanded_entries)));
            add(tr("explicit zeros"), loc.toString(f.explicit_zeros));
        }
        add(tr("time to load"), QStringLiteral("%1 s").arg(document->loadSeconds, 0, 'f', 3));
    }
    RowTableModel::resetData(rows);
}

QVariant MatrixStatsModel::data(const QModelIndex& index, int role) const
{
    const MatrixStatsRow* row = rowAt(index);
    if (!row) return {};
    const auto& r = *row;
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
            case 0:
                return r.quantity;
            case 1:
                return r.value;
            case 2:
                return r.note;
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() == 1) {
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    }
    return {};
}

QVariant MatrixStatsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
        case 0:
            return tr("Quantity");
        case 1:
            return tr("Value");
        case 2:
            return tr("Note");
    }
    return {};
}
