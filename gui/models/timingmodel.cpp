#include "timingmodel.hpp"

TimingModel::TimingModel(QObject* parent) : RowTableModel(ColumnCount, parent) {}

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
        return QString::fromStdString(r.error.empty() ? r.device : r.error);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    const bool ok = r.error.empty();
    auto number = [ok](double v, int decimals) {
        return ok && v > 0 ? QString::number(v, 'f', decimals) : QStringLiteral("\u2014");
    };
    auto percent = [ok](double v) {
        return ok && v > 0 ? QStringLiteral("%1 %").arg(100.0 * v, 0, 'f', 1)
                           : QStringLiteral("\u2014");
    };
    switch (index.column()) {
        case Variant:
            return QString::fromStdString(r.variant) + (r.baseline ? tr(" (cuSPARSE)") : QString());
        case Precision:
            return QString::fromStdString(r.precision);
        case Median:
            return number(r.median_ms * 1e3, 2);  // microseconds
        case GFlops:
            return number(r.gflops, 2);
        case Predicted:
            return number(r.predicted_gflops, 2);
        case OfPrediction:
            return percent(r.fraction_of_prediction);
        case EffectiveBandwidth:
            return r.effective_gbs > 0 ? number(r.effective_gbs, 1) : QStringLiteral("\u2014");
        case OfCopy:
            return r.gpu ? percent(r.fraction_of_copy) : QStringLiteral("\u2014");
        case Note:
            return ok ? QString::fromStdString(r.device) : QString::fromStdString(r.error);
    }
    return {};
}

QVariant TimingModel::headerData(int section, Qt::Orientation orientation, int role) const
{
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
        case GFlops:
            return tr("GFLOP/s");
        case Predicted:
            return tr("Model GFLOP/s");
        case OfPrediction:
            return tr("of model");
        case EffectiveBandwidth:
            return tr("GB/s (min bytes)");
        case OfCopy:
            return tr("of copy BW");
        case Note:
            return tr("Device / error");
    }
    return {};
}
