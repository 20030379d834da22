#pragma once
// Measured times next to the model's prediction, one row per variant (streamed in).
#include <QAbstractTableModel>
#include <QList>

#include "app/timing_table.hpp"

class TimingModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Variant,
        Precision,
        Median,
        GFlops,
        Predicted,
        OfPrediction,
        EffectiveBandwidth,
        OfCopy,
        Note,
        ColumnCount
    };
    explicit TimingModel(QObject* parent = nullptr);

    void resetData(const QList<TimingRow>& rows = {});
    void appendRow(const TimingRow& row);
    const QList<TimingRow>& rows() const { return m_rows; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<TimingRow> m_rows;
};
