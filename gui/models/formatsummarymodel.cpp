#include "formatsummarymodel.hpp"

#include <QColor>
#include <QLocale>
#include "session/glossary_tip.hpp"

FormatSummaryModel::FormatSummaryModel(QObject* parent) : QAbstractTableModel(parent) {}

void FormatSummaryModel::resetData(const SummariesPtr& summaries)
{
    beginResetModel();
    m_summaries = summaries;
    endResetModel();
}

int FormatSummaryModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_summaries ? 0 : static_cast<int>(m_summaries->size());
}

int FormatSummaryModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FormatSummaryModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_summaries || index.row() >= rowCount() ||
        index.column() >= ColumnCount) {
        return {};
    }
    const auto& s = (*m_summaries)[static_cast<std::size_t>(index.row())];
    const QLocale loc = QLocale::c();
    if (role == Qt::ToolTipRole) {
        return s.ok() ? QString::fromStdString(s.name)
                      : QString::fromStdString(s.error) +
                            (s.estimated ? tr(" (the footprint shown is the exact estimate)")
                                         : QString());
    }
    if (role == Qt::ForegroundRole && s.estimated) {
        return QColor(Qt::gray);
    }
    if (role == Qt::TextAlignmentRole) {
        return QVariant::fromValue(Qt::Alignment(
            (index.column() == Format ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter));
    }
    if (role == Qt::UserRole) {  // raw numbers, for sorting and charts
        switch (index.column()) {
            case Stored:
                return QVariant::fromValue<qint64>(s.stored_entries);
            case TotalBytes:
                return QVariant::fromValue<qulonglong>(s.bytes);
            default:
                return {};
        }
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    if (index.column() == Format) {
        const auto title = QString::fromUtf8(s.title.data(), static_cast<int>(s.title.size()));
        return s.estimated ? tr("%1 (not built)").arg(title) : title;
    }
    if (s.estimated && (index.column() == NIter || index.column() == NP ||
                        index.column() == UsefulPercent)) {
        // warp work needs the layout; the footprint columns hold the estimate
        return index.column() == NIter ? QString::fromStdString(s.error) : QStringLiteral("\u2014");
    }
    if (!s.ok() && !s.estimated) {
        return index.column() == Stored ? tr("not built: %1").arg(QString::fromStdString(s.error))
                                        : QVariant();
    }
    const auto& f = s.footprint;
    switch (index.column()) {
        case Stored:
            return loc.toString(s.stored_entries);
        case Padding:
            return loc.toString(s.padding_entries);
        case Values:
            return loc.toString(static_cast<qulonglong>(f.value_bytes));
        case Indices:
            return loc.toString(static_cast<qulonglong>(f.index_bytes));
        case Aux:
            return loc.toString(static_cast<qulonglong>(f.aux_bytes));
        case PaddingBytes:
            return loc.toString(static_cast<qulonglong>(f.padding_bytes));
        case TotalBytes:
            return loc.toString(static_cast<qulonglong>(s.bytes));
        case ReductionVsEll:
            return s.data_reduction_vs_ell_percent
                       ? QStringLiteral("%1 %").arg(*s.data_reduction_vs_ell_percent, 0, 'f', 1)
                       : QStringLiteral("\u2014");
        case NIter:
            return loc.toString(s.n_iter);
        case NP:
            return loc.toString(s.n_p);
        case UsefulPercent:
            return QStringLiteral("%1 %").arg(100.0 * s.useful_fraction, 0, 'f', 1);
    }
    return {};
}

QVariant FormatSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role == Qt::ToolTipRole && orientation == Qt::Horizontal) {
        switch (section) {
            case NIter:
                return glossaryTip("N_iter");
            case NP:
                return glossaryTip("N_p");
            case Padding:
            case PaddingBytes:
                return glossaryTip("padding");
            default:
                return {};
        }
    }
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
        case Format:
            return tr("Format");
        case Stored:
            return tr("Stored slots");
        case Padding:
            return tr("Padding slots");
        case Values:
            return tr("Values [B]");
        case Indices:
            return tr("Indices [B]");
        case Aux:
            return tr("Aux [B]");
        case PaddingBytes:
            return tr("Padding [B]");
        case TotalBytes:
            return tr("Total [B]");
        case ReductionVsEll:
            return tr("Slots saved vs ELLPACK");
        case NIter:
            return tr("N_iter");
        case NP:
            return tr("N_p");
        case UsefulPercent:
            return tr("Useful lane slots");
    }
    return {};
}
