#include "solversummarymodel.hpp"

SolverSummaryModel::SolverSummaryModel(QObject* parent) : RowTableModel(ColumnCount, parent) {}

QVariant SolverSummaryModel::data(const QModelIndex& index, int role) const
{
    const SolverRun* row = rowAt(index);
    if (!row) return {};
    const auto& run = *row;
    const auto& r = run.result;
    const bool ok = run.error.empty();
    if (role == Qt::TextAlignmentRole) {
        const bool left = index.column() == Method || index.column() == Status;
        return QVariant::fromValue(
            Qt::Alignment((left ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter));
    }
    if (role == Qt::ToolTipRole) {
        return QString::fromStdString(describeRun(run) + "\non " + run.backend);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    const QString none = QStringLiteral("\u2014");
    // a refused run (matrix not SPD) has no numbers; a failed one none either
    const bool ran = ok && !run.refused;
    auto ms = [&](double v) { return ran ? QString::number(v, 'f', 3) : none; };
    const bool mpir = run.method == spmv::viz::SolverMethod::mpir_cg;
    switch (index.column()) {
        case Method:
            return QString::fromStdString(spmv::viz::solver_method_label(run.method));
        case Status:
            return QString::fromStdString(outcomeLabel(run));
        case Iterations:
            if (!ran) return none;
            return mpir ? QStringLiteral("%1 / %2").arg(r.inner_iterations).arg(r.outer_iterations)
                        : QString::number(r.iterations);
        case Residual:
            // the CLI's "final relative residual" and its format (%.2e)
            return ran ? QString::number(r.final_relative_residual, 'e', 2) : none;
        case SpmvMs:
            return ms(r.times.spmv_ms);
        case VectorMs:
            return ms(r.times.vector_ms);
        case ReductionMs:
            return ms(r.times.reduction_ms);
        case TransferMs:
            return ms(r.times.transfer_ms);
        case TotalMs:
            return ms(r.total_ms);
        case SetupMs:
            return ms(r.setup_ms);
    }
    return {};
}

QVariant SolverSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
            case Iterations:
                return tr(
                    "CG: iterations. MPIR-CG: inner (float) / outer (double refinement) "
                    "iterations.");
            case Residual:
                return tr(
                    "Final relative residual ||b - A x|| / ||b|| of the returned x, recomputed "
                    "in double from the CSR matrix: the number `spmvlab solve` prints as "
                    "\u201cfinal relative residual\u201d, the text above and the chart's "
                    "\u25c6 marker. The chart's curve is the residual the iteration updates.");
            case Status:
                return tr(
                    "converged: the final relative residual meets the tolerance. Anything "
                    "else did not converge: diverged, breakdown (A not positive definite), "
                    "the iteration cap, stagnated; not run: the matrix is not SPD.");
            case TotalMs:
                return tr("The whole solve: b in, the iterations, x out (no matrix setup).");
            case SetupMs:
                return tr("Building the format(s) and, on the GPU, uploading the matrix.");
            default:
                return {};
        }
    }
    if (role != Qt::DisplayRole) return {};
    switch (section) {
        case Method:
            return tr("Method");
        case Status:
            return tr("Status");
        case Iterations:
            return tr("Iterations (inner / outer)");
        case Residual:
            return tr("Final \u2016b \u2212 A x\u2016 / \u2016b\u2016");
        case SpmvMs:
            return tr("SpMV ms");
        case VectorMs:
            return tr("Vector ms");
        case ReductionMs:
            return tr("Reductions ms");
        case TransferMs:
            return tr("Transfers ms");
        case TotalMs:
            return tr("Total ms");
        case SetupMs:
            return tr("Setup ms");
    }
    return {};
}
