#include "wastecomparisonmodel.hpp"

#include <QLocale>

#include "session/glossary_tip.hpp"

namespace {
enum Row {
    Warps,
    NIter,
    NP,
    Useful,
    IdleSlots,
    IdlePercent,
    StoredPadding,
    PaddingBytes,
    RowCount
};
}

WasteComparisonModel::WasteComparisonModel(QObject* parent) : QAbstractTableModel(parent) {}

void WasteComparisonModel::resetData(int side, const WarpWastePtr& waste, const QString& title)
{
    if (side < 0 || side > 1) return;
    beginResetModel();
    m_waste[static_cast<std::size_t>(side)] = waste;
    m_titles[static_cast<std::size_t>(side)] = title;
    endResetModel();
}

int WasteComparisonModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : RowCount;
}

int WasteComparisonModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : 2;
}

QVariant WasteComparisonModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= RowCount || index.column() >= 2) return {};
    if (role == Qt::TextAlignmentRole) {
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    }
    if (role != Qt::DisplayRole) return {};
    const auto& w = m_waste[static_cast<std::size_t>(index.column())];
    if (!w) return QStringLiteral("\u2014");
    const auto& a = w->analysis;
    const QLocale loc = QLocale::c();
    switch (index.row()) {
        case Warps:
            return loc.toString(static_cast<qulonglong>(a.warps.size()));
        case NIter:
            return loc.toString(a.n_iter);
        case NP:
            return loc.toString(a.n_p);
        case Useful:
            return loc.toString(a.useful);
        case IdleSlots:
            return loc.toString(a.idle_slots + a.phantom_slots);
        case IdlePercent:
            return QStringLiteral("%1 %").arg(w->idle_percent(), 0, 'f', 1);
        case StoredPadding:
            return loc.toString(a.stored_padding);
        case PaddingBytes:
            return loc.toString(static_cast<qulonglong>(w->padding_bytes));
    }
    return {};
}

QVariant WasteComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role == Qt::ToolTipRole && orientation == Qt::Vertical) {
        switch (section) {
            case NIter:
                return glossaryTip("N_iter");
            case NP:
                return glossaryTip("N_p");
            case IdleSlots:
            case IdlePercent:
                return glossaryTip("idle lane slot");
            case Useful:
                return glossaryTip("useful fraction");
            case StoredPadding:
            case PaddingBytes:
                return glossaryTip("padding");
            default:
                return {};
        }
    }
    if (role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    if (orientation == Qt::Horizontal) {
        if (section < 0 || section > 1) return {};
        const auto& t = m_titles[static_cast<std::size_t>(section)];
        return t.isEmpty() ? tr("Format %1").arg(section + 1) : t;
    }
    switch (section) {
        case Warps:
            return tr("warps");
        case NIter:
            return tr("N_iter (loop trips)");
        case NP:
            return tr("N_p (flops)");
        case Useful:
            return tr("useful lane slots");
        case IdleSlots:
            return tr("idle lane slots");
        case IdlePercent:
            return tr("idle share");
        case StoredPadding:
            return tr("stored padding slots");
        case PaddingBytes:
            return tr("padding bytes");
    }
    return {};
}
