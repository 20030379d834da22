#pragma once
// Measured times next to the models' predictions, one row per variant (streamed in): the
// per-variant format model's time (and measured / model on a GPU) and Kreutzer's
// format-agnostic GFLOP/s bound.
#include <QString>

#include "rowtablemodel.hpp"
#include "session/timing_table.hpp"

class TimingModel : public RowTableModel<TimingRow> {
    Q_OBJECT
public:
    enum Column {
        Variant,
        Precision,
        Median,
        ModelTime,          ///< the format model's time for this variant [µs]
        MeasuredOverModel,  ///< measured / model time (GPU rows)
        GFlops,
        Predicted,  ///< Kreutzer eq. 1 GF/s, the same for every format (a bound only where no
                    ///< per-format prediction exceeds it)
        OfPrediction,
        EffectiveBandwidth,
        OfCopy,
        Note,
        ColumnCount
    };
    explicit TimingModel(QObject* parent = nullptr);

    /// The GPU profile the format model's column is for (its header names it).
    void setModelProfile(const QString& profile);
    QString modelProfile() const { return m_profile; }

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QString m_profile;
};
