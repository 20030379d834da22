#pragma once
// Memory per format: stacked bars values / indices / auxiliary arrays / padding (Qt Charts),
// over the table of every format's footprint and warp work.
#include <QWidget>

#include "session/analysiscontroller.hpp"

class QChartView;
class ChartLegend;
class QLabel;
class QTableView;
class FormatSummaryModel;

class MemoryView : public QWidget {
    Q_OBJECT
public:
    explicit MemoryView(QWidget* parent = nullptr);

    /// `limit`: the memory limit the summaries were computed with (formats above it carry
    /// estimates, FormatSummary::estimated), named in the chart's note.
    void setSummaries(SummariesPtr summaries, const spmv::FormatParams& params = {},
                      quint64 limit = 0);
    FormatSummaryModel* model() const { return m_model; }
    void setError(const QString& message);
    /// What setError said (empty once data arrived).
    QString error() const { return m_error; }
    QChartView* chartView() const { return m_chartView; }
    /// The note below the legend on the formats not built ("* not built (limit ...): X would
    /// need ..."); empty when every format was built.
    QString notBuiltNote() const;

private:
    void rebuild();

    SummariesPtr m_summaries;
    spmv::FormatParams m_params;
    quint64 m_limit = 0;
    QString m_error;
    QChartView* m_chartView;
    ChartLegend* m_legend;
    /// "* not built (limit ...): X would need ..." wrapped below the legend (a chart title
    /// elides it when several formats are over the limit)
    QLabel* m_notBuilt;
    QTableView* m_table;
    FormatSummaryModel* m_model;
};
