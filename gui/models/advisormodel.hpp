#pragma once
// The format advisor's ranking (spmv::model::advise), one row per GPU kernel variant: the
// candidates by rank, then the variants that cannot serve this matrix, greyed with why not.
// Times are the format model's predictions (format_model.hpp), never measurements.
#include <QColor>
#include <QString>

#include <spmv/model/advisor.hpp>

#include "rowtablemodel.hpp"

class AdvisorModel : public RowTableModel<spmv::model::Recommendation> {
    Q_OBJECT
public:
    enum Column {
        Rank,
        Variant,
        Layout,  ///< the host format with its parameters: "SELL-32-64", "pJDS", ...
        Time,    ///< predicted time per SpMV [µs]
        GFlops,  ///< 2 nnz / predicted time
        Bound,   ///< latency, DRAM bandwidth, L2 gather or warp issue
        Setup,   ///< estimated conversion + upload [µs]
        Total,   ///< setup + N x SpMV [µs] (N = iterations; hidden for N = 0)
        Note,    ///< why not a candidate; when a row sort pays off
        ColumnCount
    };
    explicit AdvisorModel(QObject* parent = nullptr);

    /// The ranking of `advice` (an empty list for an empty advice).
    void resetAdvice(const spmv::model::Advice& advice);
    std::int64_t iterations() const { return m_iterations; }

    /// "SELL-32-64", "pJDS", "CSR", ...: the layout a recommendation runs on.
    static QString layoutText(const spmv::model::Recommendation& r);
    /// The text colour of the variants that are not candidates.
    static QColor greyed();
    /// Microseconds with two decimals below 100, one below 10 000, none above.
    static QString micro(double seconds);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::int64_t m_iterations = 0;
    bool m_hasPlain = false;
};
