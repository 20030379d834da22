#include "chart_support.hpp"

#include <algorithm>
#include <cmath>

#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>

#include <spmv/viz/units.hpp>

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

CountTicks countTicks(double maxCount, int maxTicks)
{
    const double want = std::isfinite(maxCount) && maxCount > 0 ? 1.05 * maxCount : 0.0;
    CountTicks t;
    t.step = std::max(1.0, spmv::viz::nice_step(want, maxTicks));  // 1, 2, 5, 10, ...: whole
    t.top = std::max(t.step, std::ceil(want / t.step) * t.step);
    return t;
}

double binAlignedStep(double span, std::int64_t binWidth, int maxTicks)
{
    const double w = static_cast<double>(std::max<std::int64_t>(binWidth, 1));
    const double plain = spmv::viz::nice_step(span, maxTicks);
    for (double decade = 1.0; decade <= 100.0 * plain; decade *= 10.0) {
        for (const double m : {1.0, 2.0, 5.0}) {
            const double v = m * decade;
            if (v >= plain && v <= 100.0 * plain && std::fmod(v, w) == 0.0) return v;
        }
    }
    return w * spmv::viz::nice_step(span / w, maxTicks);
}
