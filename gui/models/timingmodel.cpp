#include "timingmodel.hpp"

TimingModel::TimingModel(QObject* parent) : RowTableModel(ColumnCount, parent) {}

void TimingModel::setModelProfile(const QString& profile)
{
    if (profile == m_profile) return;
    m_profile = profile;
    emit headerDataChanged(Qt::Horizontal, ModelTime, ModelTime);
}

QVariant TimingModel::data(const QModelIndex& index, int role) const
{
    const TimingRow* row = rowAt(index);
    if (!row) return {};
    const auto& r = *row;
    if (role == Qt::TextAlignmentRole) {
        const bool left = index.column() == Variant || index.column() == Note;
        return QVariant::fromValue(
            Qt::Alignment((left ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter));
    }
    if (role == Qt::ToolTipRole) {
        if (index.column() == ModelTime) {
            if (r.model_s <= 0) return QString::fromStdString(r.model_note);
            return tr("Per-format fitted model for %1, L2 flushed before every SpMV: %2 (a "
                      "prediction, not a measurement; the same number as the Advisor, the "
                      "Sweep and spmvlab recommend)")
                .arg(QString::fromStdString(r.model_profile),
                     QString::fromStdString(r.model_bound));
        }
        if (index.column() == MeasuredOverModel && !r.gpu) {
            return tr("A CPU time over a GPU prediction: not compared");
        }
        if (r.error.empty() && !r.timing.empty()) {
            // the harness's word on how it timed the variant (bench.cpp): gated launches, or
            // one CUDA graph, ungated, for a body of many launches (never a gate waiting on
            // itself)
            return tr("%1\ntimed as: %2")
                .arg(QString::fromStdString(r.device), QString::fromStdString(r.timing));
        }
        return QString::fromStdString(r.error.empty() ? r.device : r.error);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    const bool ok = r.error.empty();
    const QString none = QStringLiteral("\u2014");
    auto number = [ok, none](double v, int decimals) {
        return ok && v > 0 ? QString::number(v, 'f', decimals) : none;
    };
    auto percent = [ok, none](double v) {
        return ok && v > 0 ? QStringLiteral("%1 %").arg(100.0 * v, 0, 'f', 1) : none;
    };
    switch (index.column()) {
        case Variant:
            return QString::fromStdString(r.variant) + (r.baseline ? tr(" (cuSPARSE)") : QString());
        case Precision:
            return QString::fromStdString(r.precision);
        case Median:
            return number(r.median_ms * 1e3, 2);  // microseconds
        case ModelTime:  // a prediction: shown also where the variant failed to run
            return r.model_s > 0 ? QString::number(r.model_s * 1e6, 'f', 2) : none;
        case MeasuredOverModel:
            return ok && r.measured_over_model > 0
                       ? QStringLiteral("%1\u00d7").arg(r.measured_over_model, 0, 'f', 2)
                       : none;
        case GFlops:
            return number(r.gflops, 2);
        case Predicted:
            return number(r.predicted_gflops, 2);
        case OfPrediction:
            return percent(r.fraction_of_prediction);
        case EffectiveBandwidth:
            return r.effective_gbs > 0 ? number(r.effective_gbs, 1) : none;
        case OfCopy:
            return r.gpu ? percent(r.fraction_of_copy) : none;
        case Note:
            return ok ? QString::fromStdString(r.device) : QString::fromStdString(r.error);
    }
    return {};
}

QVariant TimingModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole) {
        switch (section) {
            case ModelTime:
                return tr(
                    "The per-format fitted model's time for one SpMV on a GPU of the "
                    "profile named (L2 flushed before every SpMV): a prediction, shown "
                    "also next to CPU timings. \u2014: a variant the model does not know "
                    "(cuSPARSE, CSC)");
            case MeasuredOverModel:
                return tr("Measured GPU time / format model time (> 1: slower than predicted)");
            case Predicted:
                return tr("Kreutzer eq. 1 / eq. 2: B_GPU / code balance at the chosen \u03b1, "
                          "2 nnz / T_MVM, the same for every format. The chart calls it a "
                          "bound only where no per-format prediction exceeds it");
            case OfPrediction:
                return tr("Measured GFLOP/s / Kreutzer eq. 1 GFLOP/s");
            default:
                return {};
        }
    }
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
        case Variant:
            return tr("Variant");
        case Precision:
            return tr("Precision");
        case Median:
            return tr("Median [\u00b5s]");
        case ModelTime:
            return m_profile.isEmpty() ? tr("GPU model [\u00b5s]")
                                       : tr("%1 model [\u00b5s]").arg(m_profile);
        case MeasuredOverModel:
            return tr("meas/model");
        case GFlops:
            return tr("GFLOP/s");
        case Predicted:
            return tr("Kreutzer eq. 1 GFLOP/s");
        case OfPrediction:
            return tr("of Kreutzer");
        case EffectiveBandwidth:
            return tr("GB/s (min bytes)");
        case OfCopy:
            return tr("of copy BW");
        case Note:
            return tr("Device / error");
    }
    return {};
}
