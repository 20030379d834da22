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

void RowHistogramView::rebuild()
{
    auto* c = newStyledChart();
    const auto& app = Appearance::instance();
    const auto& pal = Appearance::palette();
    if (!m_data || m_data->bins.count == 0) {
        c->setTitle(!m_error.isEmpty() ? tr("No histogram: %1").arg(m_error)
                    : m_data           ? tr("Row-length histogram (no rows)")
                                       : tr("Row-length histogram (computing ...)"));
        replaceChart(this, c);
        return;
    }
    const auto& d = *m_data;
    const bool unitBins = d.bins.width == 1;
    c->setTitle(unitBins ? tr("Row-length histogram (bin size 1)")
                         : tr("Row-length histogram (bins of %1 lengths)").arg(d.bins.width));

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
        lin->setRange(range.x, range.y);
        lin->setTitleText(tr("nonzeros per row"));
        lin->setLabelFormat(QStringLiteral("%.0f"));
        lin->setTickType(QValueAxis::TicksDynamic);
        lin->setTickAnchor(0);
        lin->setTickInterval(spmv::viz::nice_step(range.y - range.x, 12));
        xAxis = lin;
    }
    QAbstractAxis* yAxis = nullptr;
    const double floor = m_logScale ? 0.5 : 0.0;
    if (m_logScale) {
        auto* log = new QLogValueAxis;
        log->setBase(10);
        log->setRange(0.5, qMax<double>(10.0, static_cast<double>(d.max_count) * 2));
        log->setLabelFormat(QStringLiteral("%g"));
        yAxis = log;
    } else {
        auto* lin = new QValueAxis;
        lin->setRange(0, qMax<double>(1.0, static_cast<double>(d.max_count) * 1.08));
        lin->setLabelFormat(QStringLiteral("%.0f"));
        lin->applyNiceNumbers();
        yAxis = lin;
    }
    yAxis->setTitleText(tr("rows"));
    for (auto* axis : {xAxis, yAxis}) {
        axis->setLabelsFont(app.font(0.9));
        axis->setTitleFont(app.font());
        c->addAxis(axis, axis == xAxis ? Qt::AlignBottom : Qt::AlignLeft);
    }
    // b_r-blocks are ~b_r times fewer than rows: their own axis on the right, their own bar
    // in every bin (markers drawn over the row bars hid both)
    const bool blocks = std::any_of(d.block_maxima.begin(), d.block_maxima.end(),
                                    [](std::int64_t b) { return b > 0; });
    QAbstractAxis* blockAxis = nullptr;
    if (blocks) {
        const auto most = *std::max_element(d.block_maxima.begin(), d.block_maxima.end());
        if (m_logScale) {
            auto* log = new QLogValueAxis;
            log->setBase(10);
            log->setRange(0.5, qMax<double>(10.0, static_cast<double>(most) * 2));
            log->setLabelFormat(QStringLiteral("%g"));
            blockAxis = log;
        } else {
            auto* lin = new QValueAxis;
            lin->setRange(0, qMax<double>(1.0, static_cast<double>(most) * 1.08));
            lin->setLabelFormat(QStringLiteral("%.0f"));
            lin->applyNiceNumbers();
            blockAxis = lin;
        }
        blockAxis->setTitleText(tr("b_r-blocks"));
        blockAxis->setLabelsFont(app.font(0.9));
        blockAxis->setTitleFont(app.font());
        blockAxis->setLabelsColor(toQColor(pal.selection).darker(140));
        blockAxis->setTitleBrush(toQColor(pal.selection).darker(140));
        c->addAxis(blockAxis, Qt::AlignRight);
    }

    const bool padded = !d.padded_counts.empty();
    const int barsPerBin = 1 + (padded ? 1 : 0) + (blocks ? 1 : 0);
    const double share = 0.9 / barsPerBin;
    auto addBars = [&](const std::vector<std::int64_t>& counts, double offset,
                       spmv::viz::Rgb colour, const QString& name,
                       QAbstractAxis* valueAxis) {
        auto* upper =
            outlineSeries(spmv::viz::bar_outline(d.bins, counts, offset, share), floor, xFloor);
        auto* area = new QAreaSeries(upper);
        area->setName(name);
        area->setColor(toQColor(colour));
        QPen pen(toQColor(colour).darker(130));
        pen.setWidthF(app.lineWidth(0.8));
        area->setPen(pen);
        c->addSeries(area);
        area->attachAxis(xAxis);
        area->attachAxis(valueAxis);
    };
    double offset = 0.05;
    addBars(d.row_counts, offset, pal.nonzero, tr("rows with this many nonzeros"), yAxis);
    if (padded) {
        offset += share;
        addBars(d.padded_counts, offset, pal.padding,
                tr("rows after pJDS padding (b_r = %1)").arg(m_blockRows), yAxis);
    }
    if (blocks) {
        offset += share;
        addBars(d.block_maxima, offset, pal.selection,
                tr("b_r-blocks with this longest row (right axis)"), blockAxis);
    }
    const double top = m_logScale ? qMax<double>(10.0, static_cast<double>(d.max_count) * 2)
                                  : static_cast<QValueAxis*>(yAxis)->max();
    for (const auto& m : d.markers) {
        auto* line = new QLineSeries;
        const double x = qMax(xFloor, spmv::viz::bin_centre(d.bins, d.bins.bin_of(m.value)));
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
    replaceChart(this, c);
}
