#pragma once
// The rank x rank communication matrix of a partition (PartitionStats::comm) as a table: row s,
// column d = x entries rank s sends to rank d per SpMV; the cells are coloured like the
// Distribution view's heat map, the tooltip gives the bytes.
#include <memory>

#include <QAbstractTableModel>

#include <spmv/dist/partition_stats.hpp>

using PartitionStatsPtr = std::shared_ptr<const spmv::dist::PartitionStats>;

class CommMatrixModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit CommMatrixModel(QObject* parent = nullptr);

    /// nullptr: empty.
    void resetData(const PartitionStatsPtr& stats);
    const PartitionStatsPtr& stats() const { return m_stats; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    PartitionStatsPtr m_stats;
    std::int64_t m_max = 0;
};
