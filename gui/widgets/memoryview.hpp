#pragma once
// Memory per format: stacked bars values / indices / auxiliary arrays / padding (Qt Charts),
// over the table of every format's footprint and warp work.
#include <QWidget>

#include "app/analysiscontroller.hpp"

class QChartView;
class QTableView;
class FormatSummaryModel;

class MemoryView : public QWidget {
    Q_OBJECT
public:
    explicit MemoryView(QWidget* parent = nullptr);

    void setSummaries(SummariesPtr summaries, const spmv::FormatParams& params = {});
    FormatSummaryModel* model() const { return m_model; }
    void setError(const QString& message);
    QChartView* chartView() const { return m_chartView; }

private:
    void rebuild();

    SummariesPtr m_summaries;
    spmv::FormatParams m_params;
    QString m_error;
    QChartView* m_chartView;
    QTableView* m_table;
    FormatSummaryModel* m_model;
};
