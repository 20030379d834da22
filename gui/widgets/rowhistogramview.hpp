#pragma once
// Row-length histogram (Kreutzer Fig. 3) with Qt Charts: bars of the row lengths (bin size 1
// while the lengths fit), next to them the lengths the rows are padded to by pJDS with the
// current b_r, the number of b_r-blocks per block maximum, and vertical markers at the
// ELLPACK width and the HYB split K. All positions come from spmv::viz; the ticks from
// chart_support (countTicks: whole-number counts; binAlignedStep: ticks on bin edges).
// Every series shares ONE count axis, so that bar heights compare (blocks are ~b_r times fewer
// than rows, and look it); the grouped bars of a bin sit centred on its tick (bins of one
// length) or between the ticks of its edges (wider bins).
#include <QtCharts/QChartView>

#include "session/analysiscontroller.hpp"

class QChart;
class ChartLegend;

class RowHistogramView : public QChartView {
    Q_OBJECT
public:
    explicit RowHistogramView(QWidget* parent = nullptr);

    void setChartData(HistogramChartPtr chartData, int blockRows);
    void setLogScale(bool on);
    /// Row lengths on a logarithmic axis (power-law tails).
    void setLogLengths(bool on);
    void setError(const QString& message);
    /// What setError said (empty once data arrived).
    QString error() const { return m_error; }
    bool logScale() const { return m_logScale; }
    bool logLengths() const { return m_logLengths; }
    HistogramChartPtr chartData() const { return m_data; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    /// Shows the chart's legend (a ChartLegend that wraps) in a strip below the plot.
    void showChart(QChart* chart);
    void placeLegend();

    ChartLegend* m_legend = nullptr;
    HistogramChartPtr m_data;
    int m_blockRows = 32;
    bool m_logScale = false;
    bool m_logLengths = false;
    QString m_error;
};
