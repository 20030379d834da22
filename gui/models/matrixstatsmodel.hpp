#pragma once
// Matrix statistics of SPEC §2 (N, nnz, ave, sigma, max - min, ...) as a two-column table.
#include <QString>

#include "rowtablemodel.hpp"
#include "session/matrixdocument.hpp"

struct MatrixStatsRow {
    QString quantity;
    QString value;
    QString note;
};

class MatrixStatsModel : public RowTableModel<MatrixStatsRow> {
    Q_OBJECT
public:
    explicit MatrixStatsModel(QObject* parent = nullptr);

    /// The rows of `document` (none for nullptr).
    void resetData(const MatrixDocumentPtr& document);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
};
