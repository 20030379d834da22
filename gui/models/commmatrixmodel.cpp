#include "commmatrixmodel.hpp"

#include <QColor>
#include <QLocale>

#include <spmv/analysis/summary.hpp>
#include <spmv/viz/colour.hpp>

namespace {

/// The colour of a heat-map cell of the Distribution view (commColour in
/// widgets/distribution_geometry.hpp, above this layer, makes the same call): the density scale
/// of the pattern views.
QColor cellColour(std::int64_t count, std::int64_t maxCount)
{
    const auto c = spmv::viz::density_colour(count, maxCount);
    return QColor(c.r, c.g, c.b);
}

QColor textColourOn(std::int64_t count, std::int64_t maxCount)
{
    const auto c = spmv::viz::text_colour_on(spmv::viz::density_colour(count, maxCount));
    return QColor(c.r, c.g, c.b);
}

}  // namespace

CommMatrixModel::CommMatrixModel(QObject* parent) : QAbstractTableModel(parent) {}

void CommMatrixModel::resetData(const PartitionStatsPtr& stats)
{
    beginResetModel();
    m_stats = stats;
    m_max = 0;
    if (m_stats) {
        for (auto c : m_stats->comm) m_max = std::max(m_max, c);
    }
    endResetModel();
}

int CommMatrixModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_stats ? 0 : m_stats->num_ranks;
}

int CommMatrixModel::columnCount(const QModelIndex& parent) const
{
    return rowCount(parent);
}

QVariant CommMatrixModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_stats || index.row() >= rowCount() ||
        index.column() >= columnCount()) {
        return {};
    }
    const auto P = static_cast<std::size_t>(m_stats->num_ranks);
    const auto at =
        static_cast<std::size_t>(index.row()) * P + static_cast<std::size_t>(index.column());
    const std::int64_t n = at < m_stats->comm.size() ? m_stats->comm[at] : 0;
    switch (role) {
        case Qt::DisplayRole:
            return QLocale::c().toString(static_cast<qlonglong>(n));
        case Qt::EditRole:
            return static_cast<qlonglong>(n);
        case Qt::TextAlignmentRole:
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        case Qt::BackgroundRole:
            return cellColour(n, m_max);
        case Qt::ForegroundRole:
            return textColourOn(n, m_max);
        case Qt::ToolTipRole:
            return tr("rank %1 sends %2 entries of x to rank %3 per SpMV (%4)")
                .arg(index.row())
                .arg(n)
                .arg(index.column())
                .arg(QString::fromStdString(
                    spmv::analysis::format_bytes(static_cast<double>(n) * m_stats->value_bytes)));
        default:
            return {};
    }
}

QVariant CommMatrixModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    if (section < 0 || section >= rowCount()) return {};
    return orientation == Qt::Horizontal ? tr("to %1").arg(section) : tr("from %1").arg(section);
}
