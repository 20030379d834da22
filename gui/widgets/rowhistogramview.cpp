#include "rowhistogramview.hpp"

#include <algorithm>

#include <QtCharts/QAreaSeries>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QValueAxis>

#include <spmv/viz/units.hpp>

#include "appearance.hpp"
#include "chart_support.hpp"

namespace {

/// The bars' outline; on logarithmic axes y and x are kept above their floors (a bar of empty
/// rows, length 0, starts at 0.5 on a logarithmic length axis).
QLineSeries* outlineSeries(const std::vector<spmv::viz::ChartPoint>& pts, double floor,
                           double xFloor)
{
    auto* s = new QLineSeries;
    for (const auto& p : pts) {
        s->append(qMax(p.x, xFloor), qMax(p.y, floor));
    }
    return s;
}

}  // namespace

RowHistogramView::RowHistogramView(QWidget* parent) : QChartView(parent)
{
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(320, 240);
    auto* c = new QChart;
    c->setTitle(tr("Row-length histogram"));
    setChart(c);
    connect(&Appearance::instance(), &Appearance::changed, this, &RowHistogramView::rebuild);
}

void RowHistogramView::setError(const QString& message)
{
    m_error = message;
    m_data.reset();
    rebuild();
}

void RowHistogramView::setChartData(HistogramChartPtr chartData, int blockRows)
{
    m_error.clear();
    m_data = std::move(chartData);
    m_blockRows = blockRows;
    rebuild();
}

void RowHistogramView::setLogScale(bool on)
{
    m_logScale = on;
    rebuild();
}

void RowHistogramView::setLogLengths(bool on)
{
    m_logLengths = on;
    rebuild();
}

void RowHistogramView::showChart(QChart* chart)
{
    // the legend in a strip of the view's own below the plot, wrapping onto as many lines as
    // it needs: Qt Charts' one-line legend cuts "ELLPACK width = 12" to "ELLPACK ..." in
    // presentation mode beside a lesson's text
    if (m_legend == nullptr) m_legend = new ChartLegend(this);
    m_legend->showLegendOf(chart);
    replaceChart(this, chart);
    placeLegend();
}

void RowHistogramView::placeLegend()
{
    if (m_legend == nullptr) return;
    const int h = m_legend->heightForWidth(width());
    setViewportMargins(0, 0, 0, qMax(0, h));
    m_legend->setGeometry(0, height() - qMax(0, h), width(), qMax(0, h));
    m_legend->show();
    // QChartView sizes its chart to the whole view: the chart takes the viewport, above the strip
    if (chart() != nullptr) {
        chart()->resize(viewport()->size());
        setSceneRect(chart()->geometry());
    }
}

void RowHistogramView::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event);
    placeLegend();
}

void RowHistogramView::rebuild()
{
    auto* c = newStyledChart();
    const auto& app = Appearance::instance();
    const auto& pal = Appearance::palette();
    if (!m_data || m_data->bins.count == 0) {
        c->setTitle(!m_error.isEmpty() ? tr("No histogram: %1").arg(m_error)
                    : m_data           ? tr("Row-length histogram (no rows)")
                                       : tr("Row-length histogram (computing ...)"));
        showChart(c);
        return;
    }
    const auto& d = *m_data;
    const bool unitBins = d.bins.width == 1;
    c->setTitle(unitBins ? tr("Row-length histogram (bin size 1)")
                         : tr("Row-length histogram (bins of %1 lengths)").arg(d.bins.width));

    // Bins of one length: bar group L is centred on the tick L (spmv::viz::bar_outline's
    // [L - 0.5, L + 0.5]). Wider bins: bin [a, a + w - 1] is drawn over [a, a + w), shifted by
    // half a length from bar_outline's [a - 0.5, a + w - 0.5], so that the ticks, anchored at 0
    // with a step that is a multiple of w (binAlignedStep), fall on bin edges and read the
    // first length of the bin that starts there.
    const double shift = unitBins || m_logLengths ? 0.0 : 0.5;
    const auto range = spmv::viz::x_range(d.bins);
    // a power-law tail needs logarithmic lengths: linear ones crowd every bar into the first
    // few percent of the axis
    const double xFloor = m_logLengths ? 0.5 : -1e300;
    QAbstractAxis* xAxis = nullptr;
    if (m_logLengths) {
        auto* log = new QLogValueAxis;
        log->setBase(10);
        log->setRange(qMax(range.x, 0.5), qMax(range.y, 10.0));
        log->setLabelFormat(QStringLiteral("%g"));
        log->setMinorTickCount(8);
        log->setTitleText(tr("nonzeros per row (logarithmic)"));
        xAxis = log;
    } else {
        auto* lin = new QValueAxis;
        lin->setRange(range.x + shift, range.y + shift);
        lin->setTitleText(unitBins ? tr("nonzeros per row")
                                   : tr("nonzeros per row (bins of %1; ticks at bin starts)")
                                         .arg(d.bins.width));
        lin->setLabelFormat(QStringLiteral("%.0f"));
        lin->setTickType(QValueAxis::TicksDynamic);
        lin->setTickAnchor(0);
        lin->setTickInterval(binAlignedStep(range.y - range.x, d.bins.width, 12));
        xAxis = lin;
    }
    // ONE count axis for every series, so that bar heights compare: a bar of 30,000 b_r-blocks
    // is lower than one of 940,000 rows (two axes, one per series, drew it higher)
    const bool blocks = std::any_of(d.block_maxima.begin(), d.block_maxima.end(),
                                    [](std::int64_t b) { return b > 0; });
    QAbstractAxis* yAxis = nullptr;
    const double floor = m_logScale ? 0.5 : 0.0;
    const double top = m_logScale ? qMax<double>(10.0, static_cast<double>(d.max_count) * 2)
                                  : countTicks(static_cast<double>(d.max_count), 8).top;
    if (m_logScale) {
        auto* log = new QLogValueAxis;
        log->setBase(10);
        log->setRange(0.5, top);
        log->setLabelFormat(QStringLiteral("%g"));
        yAxis = log;
    } else {
        // whole-number ticks (countTicks): a count axis never reads 0, 1, 1, 2
        const auto ticks = countTicks(static_cast<double>(d.max_count), 8);
        auto* lin = new QValueAxis;
        lin->setRange(0, ticks.top);
        lin->setLabelFormat(QStringLiteral("%.0f"));
        lin->setTickType(QValueAxis::TicksDynamic);
        lin->setTickAnchor(0);
        lin->setTickInterval(ticks.step);
        yAxis = lin;
    }
    yAxis->setTitleText(blocks ? tr("count (rows; purple: b_r-blocks)") : tr("rows"));
    for (auto* axis : {xAxis, yAxis}) {
        axis->setLabelsFont(app.font(0.9));
        axis->setTitleFont(app.font());
        c->addAxis(axis, axis == xAxis ? Qt::AlignBottom : Qt::AlignLeft);
    }

    const bool padded = !d.padded_counts.empty();
    const int barsPerBin = 1 + (padded ? 1 : 0) + (blocks ? 1 : 0);
    const double share = 0.9 / barsPerBin;
    auto addBars = [&](const std::vector<std::int64_t>& counts, double offset,
                       spmv::viz::Rgb colour, const QString& name) {
        auto pts = spmv::viz::bar_outline(d.bins, counts, offset, share);
        for (auto& p : pts) p.x += shift;
        auto* upper = outlineSeries(pts, floor, xFloor);
        auto* area = new QAreaSeries(upper);
        area->setName(name);
        area->setColor(toQColor(colour));
        QPen pen(toQColor(colour).darker(130));
        pen.setWidthF(app.lineWidth(0.8));
        area->setPen(pen);
        c->addSeries(area);
        area->attachAxis(xAxis);
        area->attachAxis(yAxis);
    };
    // the group of a bin is centred in it: [0.05, 0.95] of the bin, one share per series
    double offset = 0.05;
    addBars(d.row_counts, offset, pal.nonzero, tr("rows"));
    if (padded) {
        offset += share;
        addBars(d.padded_counts, offset, pal.padding,
                tr("padded by pJDS"));
    }
    if (blocks) {
        offset += share;
        addBars(d.block_maxima, offset, pal.selection,
                tr("b_r-blocks (b_r = %1)").arg(m_blockRows));
    }
    for (const auto& m : d.markers) {
        auto* line = new QLineSeries;
        const double x =
            qMax(xFloor, spmv::viz::bin_centre(d.bins, d.bins.bin_of(m.value)) + shift);
        line->append(x, floor > 0 ? floor : 0.0);
        line->append(x, top);
        const bool ell = m.label == "ELLPACK width";
        QPen pen(toQColor(ell ? pal.marker_ell : pal.marker_hyb));
        pen.setWidthF(app.lineWidth(2.0));
        pen.setStyle(ell ? Qt::DashLine : Qt::DotLine);
        line->setPen(pen);
        line->setName(QStringLiteral("%1 = %2").arg(QString::fromStdString(m.label)).arg(m.value));
        c->addSeries(line);
        line->attachAxis(xAxis);
        line->attachAxis(yAxis);
    }
    // the legend is short (a projector's width); what each bar counts, in full, on hover
    setToolTip(tr("Blue: rows with this many nonzeros. Vermillion: rows by the length pJDS pads "
                  "them to (b_r = %1). Purple: b_r-blocks by the length of their longest row "
                  "(a count of blocks, not rows: there are b_r times fewer). One count axis for "
                  "all three, so that bar heights compare.")
                   .arg(m_blockRows));
    showChart(c);
}
