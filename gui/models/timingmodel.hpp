#pragma once
// Measured times next to the model's prediction, one row per variant (streamed in).
#include "app/timing_table.hpp"
#include "rowtablemodel.hpp"

class TimingModel : public RowTableModel<TimingRow> {
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

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
};
