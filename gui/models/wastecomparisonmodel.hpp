#pragma once
// The totals of two formats' warp analyses side by side (rows: N_iter, N_p, idle %, ...).
#include <array>

#include <QAbstractTableModel>

#include "session/analysiscontroller.hpp"

class WasteComparisonModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit WasteComparisonModel(QObject* parent = nullptr);

    void resetData(int side, const WarpWastePtr& waste, const QString& title);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::array<WarpWastePtr, 2> m_waste;
    std::array<QString, 2> m_titles;
};
