#pragma once
// The reorderings side by side (spmv::analysis::OrderingReport): one column per ordering
// (original, RCM, nested dissection), one row per metric (bandwidth, profile, mean |i-j|, x
// sectors per warp trip, time) and then one row per registered format with its stored slots
// and padding share under that ordering.
#include <array>
#include <memory>

#include <QAbstractTableModel>
#include <QString>

#include <spmv/analysis/reorder.hpp>

using OrderingReportPtr = std::shared_ptr<const spmv::analysis::OrderingReport>;

/// What one column shows: the report, or (while it is null) why there is none yet.
struct ReorderColumn {
    QString title;             ///< "original", "RCM", "nested dissection (METIS)"
    OrderingReportPtr report;  ///< null while computing or when the ordering failed
    QString message;           ///< "computing ...", or why the ordering is not available
    /// Short state for the table while there is no report: "computing … 1/3", "on demand",
    /// "cancelled"; empty: "not available" when there is a message (why not in the tooltip).
    QString status = {};
};

class ReorderModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int columnsShown = 3;
    enum MetricRow { Bandwidth, Profile, MeanDistance, XSectors, Seconds, FirstFormatRow };

    explicit ReorderModel(QObject* parent = nullptr);

    void resetData(const std::array<ReorderColumn, columnsShown>& columns);
    const ReorderColumn& column(int c) const { return m_columns[static_cast<std::size_t>(c)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::array<ReorderColumn, columnsShown> m_columns;
};
