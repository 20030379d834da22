#include "chart_support.hpp"

#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>

#include "appearance.hpp"

QChart* newStyledChart()
{
    const auto& app = Appearance::instance();
    auto* chart = new QChart;
    chart->setTitleFont(app.font(1.15, true));
    chart->legend()->setFont(app.font());
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    return chart;
}

void replaceChart(QChartView* view, QChart* chart)
{
    QChart* old = view->chart();
    view->setChart(chart);  // takes ownership of chart, releases (does not delete) the old one
    delete old;
}
