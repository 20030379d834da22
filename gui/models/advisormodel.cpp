#include "advisormodel.hpp"

#include <QApplication>
#include <QLocale>
#include <QPalette>

#include <spmv/registry.hpp>

#include "session/formattext.hpp"

namespace {

QString fromStd(const std::string& s)
{
    return QString::fromStdString(s);
}

}  // namespace

AdvisorModel::AdvisorModel(QObject* parent) : RowTableModel(ColumnCount, parent) {}

QColor AdvisorModel::greyed()
{
    // half way between the text and its background: plainly grey, still legible on a projector
    // (the palette's disabled text is too faint there)
    const QPalette pal = QApplication::palette();
    const QColor t = pal.color(QPalette::Text);
    const QColor b = pal.color(QPalette::Base);
    return QColor((t.red() + b.red()) / 2, (t.green() + b.green()) / 2, (t.blue() + b.blue()) / 2);
}

void AdvisorModel::resetAdvice(const spmv::model::Advice& advice)
{
    m_iterations = advice.iterations;
    m_hasPlain = false;  // a row sort "never pays off" only against an unpermuted candidate
    for (const auto& r : advice.ranked) {
        if (r.candidate && r.breakeven_iterations == 0) m_hasPlain = true;
    }
    resetData(QList<spmv::model::Recommendation>(advice.ranked.begin(), advice.ranked.end()));
}

QString AdvisorModel::layoutText(const spmv::model::Recommendation& r)
{
    // the registry's title, its parameters' symbols replaced by their values: SELL-32-1
    return layoutTitle(r.format, r.params);
}

QString AdvisorModel::micro(double seconds)
{
    const double us = seconds * 1e6;
    const int decimals = us < 100 ? 2 : us < 10000 ? 1 : 0;
    return QLocale::c().toString(us, 'f', decimals).replace(QLatin1Char(','), QChar(0x2009));
}

QVariant AdvisorModel::data(const QModelIndex& index, int role) const
{
    const auto* row = rowAt(index);
    if (!row) return {};
    const auto& r = *row;
    const int c = index.column();
    if (role == Qt::TextAlignmentRole) {
        const bool left = c == Variant || c == Layout || c == Bound || c == Note;
        return QVariant::fromValue(
            Qt::Alignment((left ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter));
    }
    if (role == Qt::ForegroundRole && !r.candidate) return greyed();
    if (role == Qt::ToolTipRole) {
        if (!r.candidate) return tr("Not a candidate: %1").arg(fromStd(r.why_not));
        return r.reasons.empty() ? QVariant() : QVariant(fromStd(r.reasons.front()));
    }
    if (role != Qt::DisplayRole) return {};
    const QString none = QStringLiteral("\u2014");
    const bool predicted = r.prediction.feasible && r.prediction.time_s > 0;
    switch (c) {
        case Rank:
            return r.rank > 0 ? QString::number(r.rank) : none;
        case Variant:
            return fromStd(r.variant);
        case Layout:
            return layoutText(r);
        case Time:
            return r.spmv_s > 0 && (predicted || r.measured_s > 0) ? micro(r.spmv_s) : none;
        case GFlops:
            return predicted ? QString::number(r.prediction.gflops, 'f', 1) : none;
        case Bound:
            return predicted ? fromStd(r.prediction.bound) : none;
        case Setup:
            return r.setup_s > 0 ? micro(r.setup_s) : none;
        case Total:
            return r.candidate && m_iterations > 0 ? micro(r.total_s) : none;
        case Note:
            if (!r.candidate) return tr("not a candidate: %1").arg(fromStd(r.why_not));
            if (r.breakeven_iterations > 0) {
                return tr("row sort pays off after %1 SpMVs")
                    .arg(QLocale::c()
                             .toString(static_cast<qlonglong>(r.breakeven_iterations))
                             .replace(QLatin1Char(','), QChar(0x2009)));
            }
            if (r.breakeven_iterations < 0 && m_hasPlain) return tr("row sort never pays off");
            return QString();
    }
    return {};
}

QVariant AdvisorModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole) {
        switch (section) {
            case Time:
                return tr(
                    "The format model's predicted time of one SpMV (L2 flushed before "
                    "every SpMV), not a measurement");
            case Setup:
                return tr(
                    "Estimated one-off cost: the host conversion from CSR (a row sort for "
                    "the permuted layouts) and the upload over PCIe");
            case Total:
                return tr("Setup + N \u00d7 SpMV time: what the ranking uses when N > 0");
            case Bound:
                return tr(
                    "What the predicted time waits on: the longest chain of dependent "
                    "loads (latency), DRAM traffic, the gather of x from L2, issuing "
                    "every warp's loop trips (warp issue), or the heaviest warp's own "
                    "sectors at its share of its multiprocessor (heaviest warp)");
            default:
                return {};
        }
    }
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
        case Rank:
            return tr("Rank");
        case Variant:
            return tr("Variant");
        case Layout:
            return tr("Format");
        case Time:
            return tr("Predicted [\u00b5s]");
        case GFlops:
            return tr("GFLOP/s");
        case Bound:
            return tr("Bound");
        case Setup:
            return tr("Setup [\u00b5s]");
        case Total:
            return tr("Setup + N SpMV [\u00b5s]");
        case Note:
            return tr("Note");
    }
    return {};
}
