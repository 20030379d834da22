#include "chart_support.hpp"

#include <algorithm>
#include <cmath>

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>

#include <spmv/viz/units.hpp>

#include "appearance.hpp"
#include "flowlayout.hpp"

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

ChartLegend::ChartLegend(QWidget* parent) : QWidget(parent)
{
    auto* flow = new FlowLayout(this);
    flow->setContentsMargins(4, 0, 4, 2);
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

QPixmap ChartLegend::swatch(QLegendMarker* marker, int side)
{
    const qreal ratio = 2.0;  // sharp on a high-density screen and in a 2x screenshot
    QPixmap pix(QSize(side, side) * ratio);
    pix.setDevicePixelRatio(ratio);
    pix.fill(Qt::transparent);
    QPainter p(&pix);
    p.setRenderHint(QPainter::Antialiasing);
    const bool line = marker->type() == QLegendMarker::LegendMarkerTypeXY &&
                      qobject_cast<QLineSeries*>(marker->series()) != nullptr &&
                      qobject_cast<QScatterSeries*>(marker->series()) == nullptr;
    if (line) {
        // a line series: a piece of its line, in its pen (colour, width, dashes)
        QPen pen = static_cast<QLineSeries*>(marker->series())->pen();
        pen.setWidthF(qMax<qreal>(pen.widthF(), 2.0));
        p.setPen(pen);
        p.drawLine(QPointF(0, side / 2.0), QPointF(side, side / 2.0));
    } else {
        const QRectF r(1.5, 1.5, side - 3.0, side - 3.0);
        p.setPen(marker->pen().style() == Qt::NoPen ? QPen(marker->brush().color().darker(140))
                                                     : marker->pen());
        p.setBrush(marker->brush());
        if (qobject_cast<QScatterSeries*>(marker->series()) != nullptr) {
            p.drawEllipse(r);
        } else {
            p.drawRect(r);
        }
    }
    return pix;
}

void ChartLegend::showLegendOf(QChart* chart)
{
    QLayout* flow = layout();
    while (QLayoutItem* item = flow->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    if (chart == nullptr) {
        updateGeometry();
        return;
    }
    const QFont font = Appearance::instance().font();
    const int side = QFontMetrics(font).height() * 3 / 4;
    for (QLegendMarker* marker : chart->legend()->markers()) {
        // (a marker's isVisible() reads false until the chart is shown: an entry is left out by
        // an empty label, or when its series is hidden)
        if (marker->label().isEmpty() || !marker->series()->isVisible()) continue;
        auto* entry = new QWidget;
        auto* row = new QHBoxLayout(entry);
        row->setContentsMargins(0, 0, 8, 0);
        row->setSpacing(4);
        auto* key = new QLabel;
        key->setPixmap(swatch(marker, side));
        auto* text = new QLabel(marker->label());
        text->setFont(font);
        text->setTextFormat(Qt::PlainText);
        row->addWidget(key);
        row->addWidget(text);
        entry->setToolTip(marker->label());
        flow->addWidget(entry);
        entry->show();  // a child added to a shown widget stays hidden until shown
    }
    chart->legend()->hide();
    flow->invalidate();
    updateGeometry();
}

QWidget* chartWithLegend(QChartView* view, ChartLegend* legend)
{
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(view, 1);
    layout->addWidget(legend);
    return box;
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
