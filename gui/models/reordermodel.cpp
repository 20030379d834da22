#include "reordermodel.hpp"

#include <QLocale>

#include <spmv/error.hpp>
#include <spmv/registry.hpp>

namespace {

QString number(qint64 v)
{
    return QLocale::c().toString(v);  // 1,234,567: digits grouped, as the other tables do
}

}  // namespace

ReorderModel::ReorderModel(QObject* parent) : QAbstractTableModel(parent) {}

void ReorderModel::resetData(const std::array<ReorderColumn, columnsShown>& columns)
{
    beginResetModel();
    m_columns = columns;
    endResetModel();
}

int ReorderModel::rowCount(const QModelIndex& parent) const
{
    // the format rows follow the registry, so that every column lists them in the same order
    return parent.isValid() ? 0 : FirstFormatRow + static_cast<int>(spmv::formats().size());
}

int ReorderModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : columnsShown;
}

QVariant ReorderModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    if (orientation == Qt::Horizontal) {
        if (section < 0 || section >= columnsShown) return {};
        return m_columns[static_cast<std::size_t>(section)].title;
    }
    if (section < 0 || section >= rowCount()) return {};
    const bool tip = role == Qt::ToolTipRole;
    switch (section) {
        case Bandwidth:
            return tip ? tr("max |i \u2212 j| over the stored entries") : tr("bandwidth");
        case Profile:
            return tip ? tr("sum over the rows of (i \u2212 first column), rows right of the "
                            "diagonal counting 0: the envelope a skyline storage would hold")
                       : tr("profile");
        case MeanDistance:
            return tip ? tr("mean |i \u2212 j| over the stored entries") : tr("mean |i \u2212 j|");
        case XSectors:
            return tip ? tr("distinct 32-byte sectors of x (4 doubles each) that one warp of "
                            "consecutive rows reads per loop trip of the column-major "
                            "(ELLPACK-R) kernel, averaged over the trips with an active lane; "
                            "ideal: active lanes / 4, rounded up")
                       : tr("x sectors per warp trip (ideal)");
        case Seconds:
            return tip ? tr("time to compute the ordering") : tr("time to order");
        default:
            break;
    }
    const auto& info = spmv::formats()[static_cast<std::size_t>(section - FirstFormatRow)];
    const auto title = QString::fromUtf8(info.title.data(), static_cast<int>(info.title.size()));
    return tip ? tr("%1: stored value slots (padding included) and the padding's share under "
                    "each ordering")
                     .arg(title)
               : tr("%1 slots (padding)").arg(title);
}

QVariant ReorderModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnsShown) {
        return {};
    }
    const auto& col = m_columns[static_cast<std::size_t>(index.column())];
    if (role == Qt::TextAlignmentRole) {
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    }
    if (!col.report) {
        // the pattern panel above says why in full; a long message here would widen the column
        if (role == Qt::ToolTipRole) return col.message;
        if (role == Qt::DisplayRole) {
            if (index.row() != 0) return QStringLiteral("\u2014");
            if (!col.status.isEmpty()) return col.status;  // computing, on demand, cancelled
            return col.message.isEmpty() ? QStringLiteral("\u2014") : tr("not available");
        }
        return {};
    }
    const auto& r = *col.report;
    const int row = index.row();
    if (role == Qt::UserRole) {  // raw numbers, for tests and sorting
        switch (row) {
            case Bandwidth:
                return QVariant::fromValue<qint64>(r.bandwidth);
            case Profile:
                return QVariant::fromValue<qint64>(r.profile);
            case MeanDistance:
                return r.mean_distance;
            case XSectors:
                return r.x.sectors_per_trip;
            case Seconds:
                return r.seconds;
            default:
                break;
        }
        const auto k = static_cast<std::size_t>(row - FirstFormatRow);
        return k < r.padding.size() ? QVariant::fromValue<qint64>(r.padding[k].stored_entries)
                                    : QVariant();
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    switch (row) {
        case Bandwidth:
            return number(r.bandwidth);
        case Profile:
            return number(r.profile);
        case MeanDistance:
            return QString::number(r.mean_distance, 'f', 1);
        case XSectors:
            return tr("%1 (%2)")
                .arg(QString::number(r.x.sectors_per_trip, 'f', 2),
                     QString::number(r.x.ideal_sectors_per_trip, 'f', 2));
        case Seconds:
            if (r.ordering == spmv::analysis::Ordering::original) return QStringLiteral("\u2014");
            return r.seconds < 1.0 ? tr("%1 ms").arg(QString::number(1e3 * r.seconds, 'f', 1))
                                   : tr("%1 s").arg(QString::number(r.seconds, 'f', 2));
        default:
            break;
    }
    const auto k = static_cast<std::size_t>(row - FirstFormatRow);
    if (k >= r.padding.size()) return {};
    const auto& f = r.padding[k];
    if (!f.ok()) {
        return role == Qt::ToolTipRole
                   ? QString::fromStdString(spmv::user_message(f.error))
                   : tr("n/a");
    }
    return tr("%1 (%2 %)").arg(number(f.stored_entries),
                               QString::number(100.0 * f.padding_share, 'f', 1));
}
