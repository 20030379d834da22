#pragma once
// One row per solve of the solver view: method, status, iterations (inner / outer for
// MPIR-CG), final relative residual (recomputed in double), time per phase.
#include "rowtablemodel.hpp"
#include "session/solver_job.hpp"

class SolverSummaryModel : public RowTableModel<SolverRun> {
    Q_OBJECT
public:
    enum Column {
        Method,
        Status,
        Iterations,
        Residual,
        SpmvMs,
        VectorMs,
        ReductionMs,
        TransferMs,
        TotalMs,
        SetupMs,
        ColumnCount
    };
    explicit SolverSummaryModel(QObject* parent = nullptr);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
};
