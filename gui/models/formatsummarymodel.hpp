#pragma once
// Memory footprint and warp work of every registered format (spmv::analysis::summarize_all):
// one row per format.
#include <QAbstractTableModel>

#include "session/analysiscontroller.hpp"

class FormatSummaryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Format,
        Stored,
        Padding,
        Values,
        Indices,
        Aux,
        PaddingBytes,
        TotalBytes,
        ReductionVsEll,
        NIter,
        NP,
        UsefulPercent,
        ColumnCount
    };
    explicit FormatSummaryModel(QObject* parent = nullptr);

    void resetData(const SummariesPtr& summaries);
    SummariesPtr summaries() const { return m_summaries; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    SummariesPtr m_summaries;
};
