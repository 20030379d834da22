#pragma once
// Matrix statistics of SPEC §2 (N, nnz, ave, sigma, max - min, ...) as a two-column table.
#include <QAbstractTableModel>

#include "app/matrixdocument.hpp"

class MatrixStatsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit MatrixStatsModel(QObject* parent = nullptr);

    void resetData(const MatrixDocumentPtr& document);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString quantity;
        QString value;
        QString note;
    };
    QList<Row> m_rows;
};
