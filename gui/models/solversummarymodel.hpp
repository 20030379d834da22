#pragma once
// One row per solve of the solver view: method, status, iterations (inner / outer for
// MPIR-CG), final relative residual (recomputed in double), time per phase.
#include <QAbstractTableModel>
#include <QList>

#include "app/solver_job.hpp"

class SolverSummaryModel : public QAbstractTableModel {
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

    void resetData(const QList<SolverRun>& runs = {});
    void appendRun(const SolverRun& run);
    const QList<SolverRun>& runs() const { return m_runs; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<SolverRun> m_runs;
};
