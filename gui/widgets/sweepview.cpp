#include "sweepview.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>

#include <QComboBox>
#include <QCursor>
#include <QFontInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableWidget>
#include <QThreadPool>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <QtConcurrent/QtConcurrentRun>

#include <spmv/analysis/summary.hpp>
#include <spmv/model/gpu_profile.hpp>
#include <spmv/viz/units.hpp>

#include "appearance.hpp"
#include "chart_support.hpp"
#include "flowlayout.hpp"
#include "session/formattext.hpp"

using spmv::Param;
using spmv::analysis::SweepPoint;
using spmv::analysis::SweepResult;

namespace {

QThreadPool* sweepPool()
{
    // one dedicated thread: sweeps queue behind each other, never behind other analyses, and a
    // queued one that became stale is skipped when its turn comes (see recompute)
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setMaxThreadCount(1);
        return p;
    }();
    return pool;
}

struct SweepOutcome {
    std::shared_ptr<const SweepResult> result;
    std::shared_ptr<const std::vector<spmv::model::SweepPrediction>> model;
    QString error;
    bool stale = false;
};

/// The parameters a sweep can vary, in the box's order, each named by sweepParamLabel().
struct ParamChoice {
    Param param;
    const char* axis;  // x axis title
};

const ParamChoice paramChoices[] = {
    {Param::sort_window, "\u03c3 (rows sorted by length together)"},
    {Param::slice_height, "C (rows per slice)"},
    {Param::block_rows, "b_r (rows padded together)"},
    {Param::hyb_width, "K (ELL width; the rest goes to COO)"},
};

const ParamChoice& choice(Param p)
{
    for (const auto& c : paramChoices) {
        if (c.param == p) return c;
    }
    return paramChoices[0];
}

/// Every parameter a sweep reads, equal in both.
bool sameParams(const spmv::FormatParams& a, const spmv::FormatParams& b)
{
    for (const auto& info : spmv::parameters()) {
        if (spmv::get(a, info.id) != spmv::get(b, info.id)) return false;
    }
    return true;
}

/// The swept parameter is HYB's K, the ELL width: the points differ in what goes to COO
/// (SweepPoint::coo_entries), shown as a column of their own.
bool showsCooEntries(const SweepResult& r)
{
    return r.param == Param::hyb_width;
}

/// The seconds per unit that make the largest time read between 1 and 1000.
double timeUnit(double maxSeconds)
{
    if (maxSeconds >= 1.0) return 1.0;
    if (maxSeconds >= 1e-3) return 1e-3;
    if (maxSeconds >= 1e-6) return 1e-6;
    return 1e-9;
}

QString timeUnitName(double unit)
{
    if (unit == 1.0) return QStringLiteral("s");
    if (unit == 1e-3) return QStringLiteral("ms");
    if (unit == 1e-6) return QStringLiteral("\u00b5s");
    return QStringLiteral("ns");
}

QString seconds(double s)
{
    const double unit = timeUnit(s);
    return QStringLiteral("%1 %2").arg(s / unit, 0, 'g', 4).arg(timeUnitName(unit));
}

QString count(std::int64_t n)
{
    return QLocale().toString(static_cast<qlonglong>(n));
}

const char* quantityKey(SweepView::Quantity q)
{
    switch (q) {
    case SweepView::Quantity::PaddingShare: return "padding";
    case SweepView::Quantity::Iterations: return "iterations";
    case SweepView::Quantity::PredictedTime: return "time";
    case SweepView::Quantity::All: break;
    }
    return "";
}

}  // namespace

SweepView::SweepView(QWidget* parent) : QWidget(parent)
{
    m_param = new QComboBox;
    for (const auto& c : paramChoices) {
        m_param->addItem(sweepParamLabel(c.param), static_cast<int>(c.param));
    }
    m_param->setToolTip(tr("The parameter to sweep; the other parameters stay as set"));
    m_quantity = new QComboBox;
    m_quantity->addItem(tr("Padding share"), static_cast<int>(Quantity::PaddingShare));
    m_quantity->addItem(tr("N_iter (warp loop trips)"), static_cast<int>(Quantity::Iterations));
    m_quantity->addItem(tr("Predicted time"), static_cast<int>(Quantity::PredictedTime));
    m_quantity->addItem(tr("All three"), static_cast<int>(Quantity::All));
    m_precision = new QComboBox;
    // the Advisor's words: the bar stays on one line in presentation mode at 1280 x 720
    m_precision->addItem(tr("double"));
    m_precision->addItem(tr("single"));
    m_precision->setToolTip(
        tr("The values' precision: double (8-byte values) or single (4-byte values)"));
    m_profile = makeProfileBox();

    // the controls flow onto a second line where one is too narrow for them at their full
    // width (presentation mode at 1280 x 720, or beside a lesson's text)
    auto* bar = new FlowLayout(nullptr);
    bar->setSpacing(12);
    bar->addWidget(flowPair(new QLabel(tr("Sweep")), m_param));
    bar->addWidget(flowPair(new QLabel(tr("Show")), m_quantity));
    bar->addWidget(flowPair(new QLabel(tr("Precision")), m_precision));
    bar->addWidget(flowPair(new QLabel(tr("GPU")), m_profile));

    m_note = new QLabel;
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::RichText);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // "All three" puts the charts side by side: stacked at 720 px (less in a tab, with the
    // table below) each would be too short for its axis labels in presentation mode
    auto* charts = new QWidget;
    auto* chartLayout = new QHBoxLayout(charts);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->setSpacing(2);
    for (auto*& v : m_views) {
        v = makeChartView();
        chartLayout->addWidget(v, 1);
    }
    m_table = new QTableWidget;
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->setVisible(false);
    m_table->setAlternatingRowColors(true);
    // follows font changes (presentation mode) without a resize call
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_splitter = new QSplitter(Qt::Vertical);
    m_splitter->addWidget(charts);
    m_splitter->addWidget(m_table);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setChildrenCollapsible(false);

    m_message = new QLabel;
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_stack = new QStackedWidget;
    m_stack->addWidget(m_splitter);
    m_stack->addWidget(m_message);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_note);
    layout->addWidget(m_stack, 1);

    connect(m_param, &QComboBox::currentIndexChanged, this, &SweepView::recompute);
    connect(m_precision, &QComboBox::currentIndexChanged, this, &SweepView::recompute);
    connect(m_profile, &QComboBox::currentIndexChanged, this, &SweepView::recompute);
    // the quantity only changes what is drawn from the result at hand
    connect(m_quantity, &QComboBox::currentIndexChanged, this, [this] {
        if (m_result) showResult();
    });
    connect(&Appearance::instance(), &Appearance::changed, this, [this] {
        m_message->setFont(Appearance::instance().font(1.15));
        if (m_result) showResult();
    });
    m_message->setFont(Appearance::instance().font(1.15));
    recompute();
}

SweepView::~SweepView()
{
    ++m_generation;  // a sweep still queued is skipped (its continuation dies with `this`)
    if (m_latest) m_latest->store(m_generation);
}

QChartView* SweepView::makeChartView()
{
    auto* v = new QChartView;
    v->setRenderHint(QPainter::Antialiasing);
    v->setMinimumSize(280, 220);
    return v;
}

void SweepView::setDocument(MatrixDocumentPtr document)
{
    m_document = std::move(document);
    recompute();
}

void SweepView::setParams(const spmv::FormatParams& params)
{
    if (sameParams(params, m_params)) return;
    m_params = params;
    recompute();
}

bool SweepView::setSweptParameter(Param param)
{
    const int i = m_param->findData(static_cast<int>(param));
    if (i < 0) return false;
    m_param->setCurrentIndex(i);
    return true;
}

Param SweepView::sweptParameter() const
{
    return static_cast<Param>(m_param->currentData().toInt());
}

void SweepView::setQuantity(Quantity quantity)
{
    m_quantity->setCurrentIndex(m_quantity->findData(static_cast<int>(quantity)));
}

SweepView::Quantity SweepView::quantity() const
{
    return static_cast<Quantity>(m_quantity->currentData().toInt());
}

void SweepView::setPrecision(spmv::model::Precision precision)
{
    m_precision->setCurrentIndex(precision == spmv::model::Precision::double_precision ? 0 : 1);
}

spmv::model::Precision SweepView::precision() const
{
    return m_precision->currentIndex() == 0 ? spmv::model::Precision::double_precision
                                            : spmv::model::Precision::single_precision;
}

bool SweepView::selectProfile(const QString& name)
{
    const int i = m_profile->findText(name, Qt::MatchFixedString);
    if (i < 0) return false;
    m_profile->setCurrentIndex(i);
    return true;
}

QString SweepView::message() const
{
    return m_stack->currentWidget() == m_message ? m_message->text() : QString();
}

void SweepView::recompute()
{
    const quint64 generation = ++m_generation;
    if (!m_latest) m_latest = std::make_shared<std::atomic<quint64>>(0);
    m_latest->store(generation);
    m_result.reset();
    m_modelPoints.reset();
    const auto* doc = m_document.get();
    if (!doc || doc->csr.num_rows == 0 || doc->csr.row_ptrs.back() == 0) {
        m_computing = false;
        showMessage(!doc ? tr("Open or generate a matrix to sweep a format parameter.")
                    : doc->csr.num_rows == 0
                        ? tr("%1 has no rows: there is nothing to sweep.").arg(doc->name)
                        : tr("%1 has no nonzeros: every layout stores nothing and does no "
                             "work, so there is nothing to sweep.")
                              .arg(doc->name));
        emit finished();
        return;
    }
    m_computing = true;
    spmv::analysis::SweepOptions options;
    options.precision = precision();
    options.gpu = spmv::model::find_profile(m_profile->currentText().toStdString());
    auto job = [doc = m_document, params = m_params, param = sweptParameter(), options,
                latest = m_latest, generation]() {
        SweepOutcome o;
        if (latest->load() != generation) {  // superseded while it waited for the thread
            o.stale = true;
            return o;
        }
        try {
            const auto format = spmv::analysis::sweep_format(param);
            auto values = spmv::analysis::default_sweep_values(doc->csr, param);
            // the current setting as the builder resolves it, so that it lies on the curve
            values.push_back(spmv::analysis::resolved_value(doc->csr, format, param, params));
            o.result = std::make_shared<const SweepResult>(
                spmv::analysis::sweep(doc->csr, format, param, params, values, options));
            if (latest->load() != generation) {  // superseded meanwhile: skip the model
                o.stale = true;
                return o;
            }
            // the predicted time of every point: the per-format fitted model, the one call the
            // Advisor, Timing and the CLI share, at the points sweep() returns (sorted,
            // distinct). It keeps one model context for the whole sweep, so the passes over
            // the nonzeros that do not depend on the swept value run once (C, b_r, K: ~0.2 s
            // for 10M nonzeros; sigma: one pass per point, ~0.1 s each)
            std::vector<int> at;
            at.reserve(o.result->points.size());
            for (const auto& point : o.result->points) at.push_back(point.value);
            auto model = spmv::model::predict_sweep(doc->csr, format, param, params, at,
                                                    options.gpu, options.precision);
            o.model = std::make_shared<const std::vector<spmv::model::SweepPrediction>>(
                std::move(model));
        } catch (const std::bad_alloc&) {
            o.error = tr("Out of memory: the matrix is too large for the sweep.");
        } catch (const std::exception& e) {
            o.error = QString::fromStdString(e.what());
        }
        return o;
    };
    QtConcurrent::run(sweepPool(), std::move(job)).then(this, [this, generation](SweepOutcome o) {
        if (o.stale || generation != m_generation) return;  // a newer request is on its way
        m_computing = false;
        if (o.result) {
            m_result = std::move(o.result);
            m_modelPoints = std::move(o.model);
            showResult();
        } else {
            showMessage(tr("The sweep failed: %1").arg(o.error));
            emit errorOccurred(o.error);
        }
        emit finished();
    });
    // keep the old chart until the new one arrives, but say it is being replaced
    m_note->setText(tr("<i>Computing the sweep\u2026</i>"));
}

void SweepView::showMessage(const QString& text)
{
    m_message->setText(text);
    m_note->clear();
    m_stack->setCurrentWidget(m_message);
}

void SweepView::showResult()
{
    const auto& r = *m_result;
    const auto& c = choice(r.param);
    double maxSeconds = 0.0;
    for (const auto& m : *m_modelPoints) {
        maxSeconds = std::max(maxSeconds, m.model.prediction.time_s);
    }
    m_timeUnit = timeUnit(maxSeconds);
    const QString variant =
        m_modelPoints->empty() ? QString()
                               : QString::fromStdString(m_modelPoints->front().model.shape.variant);

    m_note->setText(
        tr("<b>%1</b>, warp size %2, %3 rows, %4 nonzeros; current %5 = <b>%6</b> (marked). "
           "Predicted time = the <b>per-format fitted model</b> of the <tt>%10</tt> kernel "
           "(%7, %9; the same number as the Advisor, the Timing view and "
           "<tt>spmvlab recommend</tt>): <b>a prediction, not a measurement</b>. Traffic bound = "
           "its DRAM bytes / B%11 (%8 GB/s), a lower bound the prediction never "
           "crosses.")
            .arg(sweepTitle(r).toHtmlEscaped())
            .arg(r.base.warp_size)
            .arg(count(r.rows), count(r.nnz), paramSymbol(c.param))
            .arg(r.current_value)
            .arg(QString::fromStdString(r.gpu.name).toHtmlEscaped())
            .arg(r.gpu.memory_bandwidth_gbs, 0, 'g', 4)
            .arg(r.precision == spmv::model::Precision::double_precision ? tr("double")
                                                                         : tr("single"))
            .arg(variant.toHtmlEscaped())
            .arg(Appearance::instance().legibleSubscript(QStringLiteral("GPU"))));

    const Quantity q = quantity();
    if (q == Quantity::All) {
        buildChart(m_views[0], Quantity::PaddingShare, true);
        buildChart(m_views[1], Quantity::Iterations, true);
        buildChart(m_views[2], Quantity::PredictedTime, true);
        for (auto* v : m_views) v->setVisible(true);
    } else {
        buildChart(m_views[0], q, false);
        m_views[1]->setVisible(false);
        m_views[2]->setVisible(false);
        m_views[0]->setVisible(true);
    }
    fillTable();
    m_stack->setCurrentWidget(m_splitter);
}

void SweepView::buildChart(QChartView* view, Quantity q, bool compact)
{
    const auto& r = *m_result;
    const auto& app = Appearance::instance();
    const auto& pal = Appearance::palette();
    const auto& c = choice(r.param);
    const QString symbol = paramSymbol(c.param);

    const auto& model = *m_modelPoints;
    auto y = [&](std::size_t i) {
        const auto& p = r.points[i];
        switch (q) {
        case Quantity::PaddingShare: return 100.0 * p.padding_share;
        case Quantity::Iterations: return static_cast<double>(p.n_iter);
        default: return model[i].model.prediction.time_s / m_timeUnit;
        }
    };
    auto traffic = [&](std::size_t i) { return model[i].model.prediction.dram_s / m_timeUnit; };
    QString title;
    QString yTitle;
    QString yFormat;
    spmv::viz::Rgb colour = pal.padding;
    // compact (three charts side by side): short titles, no legend (the note above names the
    // marker), fewer x labels
    switch (q) {
    case Quantity::PaddingShare:
        title = compact ? tr("Padding share")
                        : tr("Padding share vs %1 (%2)").arg(symbol, sweepTitle(r));
        yTitle = tr("padding share");  // of the stored slots; longer is elided at 720 px
        yFormat = QStringLiteral("%.3g %%");
        colour = pal.padding;
        break;
    case Quantity::Iterations:
        title = compact ? tr("N_iter")
                        : tr("N_iter vs %1 (sum over warps of the busiest thread's trips)")
                              .arg(symbol);
        yTitle = tr("warp loop trips");
        yFormat = QStringLiteral("%.0f");
        colour = pal.useful;
        break;
    default:
        title = compact ? tr("Predicted time (model)")
                        : tr("Predicted time vs %1 (per-format fitted model, not measured)")
                              .arg(symbol);
        yTitle = tr("time (%1)").arg(timeUnitName(m_timeUnit));
        yFormat = QStringLiteral("%.3g");
        colour = pal.predicted;
        break;
    }
    const int maxLabels = compact ? 5 : 8;

    auto* chart = newStyledChart();
    chart->setTitle(title);
    chart->legend()->setVisible(!compact);

    const double xMin = r.points.front().value;
    const double xMax = r.points.back().value;
    QAbstractAxis* xAxis = nullptr;
    if (r.log_scale) {
        auto* a = new QLogValueAxis;
        // a power of two as base, large enough for at most maxLabels labels, so that no label
        // is elided or overlaps at 1280 px in presentation mode
        const double octaves = std::log2(xMax / xMin);
        a->setBase(std::pow(2.0, std::max(1.0, std::ceil(octaves / (maxLabels - 1)))));
        a->setRange(xMin / 1.2, xMax * 1.2);
        a->setLabelFormat(QStringLiteral("%.0f"));
        a->setMinorTickCount(0);
        xAxis = a;
    } else {
        auto* a = new QValueAxis;
        const double span = std::max(1.0, xMax - xMin);
        const double step = std::max(1.0, spmv::viz::nice_step(span, maxLabels));
        a->setRange(xMin - 0.03 * span - (xMax == xMin ? 1.0 : 0.0),
                    xMax + 0.03 * span + (xMax == xMin ? 1.0 : 0.0));
        a->setTickType(QValueAxis::TicksDynamic);
        a->setTickAnchor(0.0);
        a->setTickInterval(step);
        a->setLabelFormat(QStringLiteral("%.0f"));
        xAxis = a;
    }
    // the long title would be elided in a third of the width
    xAxis->setTitleText(compact ? symbol : QString::fromUtf8(c.axis));

    double yMax = 0.0;
    for (std::size_t i = 0; i < r.points.size(); ++i) yMax = std::max(yMax, y(i));
    auto* yAxis = new QValueAxis;
    const double step = spmv::viz::nice_step(yMax > 0 ? yMax : 1.0, 5);
    yAxis->setRange(0.0, std::max(step, std::ceil(yMax * 1.05 / step) * step));
    yAxis->setTickType(QValueAxis::TicksDynamic);
    yAxis->setTickAnchor(0.0);
    yAxis->setTickInterval(step);
    yAxis->setLabelFormat(yFormat);
    yAxis->setTitleText(yTitle);
    for (auto* a : {xAxis, static_cast<QAbstractAxis*>(yAxis)}) {
        a->setTitleFont(app.font());
        a->setLabelsFont(app.font(0.9));
    }
    chart->addAxis(xAxis, Qt::AlignBottom);
    chart->addAxis(yAxis, Qt::AlignLeft);

    auto* line = new QLineSeries;
    line->setObjectName(QString::fromLatin1(quantityKey(q)));
    line->setName(q == Quantity::PaddingShare ? tr("padding share")
                  : q == Quantity::Iterations ? tr("N_iter")
                                              : tr("per-format fitted model"));
    for (std::size_t i = 0; i < r.points.size(); ++i) line->append(r.points[i].value, y(i));
    QPen pen(toQColor(colour));
    pen.setWidthF(app.lineWidth(2.5));
    line->setPen(pen);
    line->setPointsVisible(true);
    chart->addSeries(line);
    line->attachAxis(xAxis);
    line->attachAxis(yAxis);
    connect(line, &QLineSeries::hovered, this, [this](const QPointF& at, bool state) {
        if (!state || !m_result) {
            QToolTip::hideText();
            return;
        }
        // the point nearest in x (in log space on a log axis)
        const auto& pts = m_result->points;
        auto distance = [&](const SweepPoint& p) {
            return m_result->log_scale ? std::abs(std::log(p.value / at.x()))
                                       : std::abs(p.value - at.x());
        };
        int best = 0;
        for (int i = 1; i < static_cast<int>(pts.size()); ++i) {
            if (distance(pts[static_cast<std::size_t>(i)]) <
                distance(pts[static_cast<std::size_t>(best)]))
                best = i;
        }
        QToolTip::showText(QCursor::pos(), pointText(best), this);
    });

    if (q == Quantity::PredictedTime) {
        // the traffic bound: the kernel's DRAM bytes / B_GPU, below the prediction everywhere
        auto* bound = new QLineSeries;
        bound->setObjectName(QStringLiteral("traffic"));
        bound->setName(tr("traffic bound (DRAM bytes / B_GPU)"));
        for (std::size_t i = 0; i < r.points.size(); ++i) {
            bound->append(r.points[i].value, traffic(i));
        }
        QPen dashed(toQColor(spmv::viz::mix(pal.text, pal.background, 0.35)));
        dashed.setWidthF(app.lineWidth(2.0));
        dashed.setStyle(Qt::DashLine);
        bound->setPen(dashed);
        chart->addSeries(bound);
        bound->attachAxis(xAxis);
        bound->attachAxis(yAxis);
    }
    for (std::size_t i = 0; i < r.points.size(); ++i) {
        const auto& p = r.points[i];
        if (p.value != r.current_value) continue;
        auto* here = new QScatterSeries;
        here->setName(tr("current %1 = %2").arg(symbol).arg(p.value));
        here->append(p.value, y(i));
        here->setColor(toQColor(pal.selection));
        here->setBorderColor(toQColor(pal.text));
        here->setMarkerSize(14 * app.scale());
        chart->addSeries(here);
        here->attachAxis(xAxis);
        here->attachAxis(yAxis);
    }
    replaceChart(view, chart);
}

QString SweepView::pointText(int index) const
{
    const auto& r = *m_result;
    const auto& p = r.points[static_cast<std::size_t>(index)];
    QString text = tr("%1 = %2%3\nstored slots %4, padding %5 (%6 %)")
                       .arg(paramSymbol(r.param))
                       .arg(p.value)
                       .arg(p.effective_value != p.value
                                ? tr(" (the builder uses %1)").arg(p.effective_value)
                                : QString())
                       .arg(count(p.stored_slots), count(p.padding_slots))
                       .arg(100.0 * p.padding_share, 0, 'f', 1);
    if (showsCooEntries(r)) text += tr("\nCOO entries %1").arg(count(p.coo_entries));
    const auto& m = (*m_modelPoints)[static_cast<std::size_t>(index)].model.prediction;
    text += tr("\nN_iter %1, warp efficiency %2 %\nDRAM bytes %3, traffic bound %4\n"
               "predicted %5 (per-format fitted model, %6)")
                .arg(count(p.n_iter))
                .arg(100.0 * p.warp_efficiency, 0, 'f', 1)
                .arg(QString::fromStdString(spmv::analysis::format_bytes(m.dram_bytes)))
                .arg(seconds(m.dram_s), seconds(m.time_s), QString::fromStdString(m.bound));
    return text;
}

void SweepView::fillTable()
{
    const auto& r = *m_result;
    const bool hyb = showsCooEntries(r);
    QStringList headers{paramSymbol(r.param), tr("stored slots"),
                        tr("padding")};
    if (hyb) headers << tr("COO entries");
    headers << tr("N_iter") << tr("warp efficiency") << tr("DRAM bytes") << tr("traffic bound")
            << tr("predicted time");
    m_table->clear();
    m_table->setColumnCount(static_cast<int>(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setRowCount(static_cast<int>(r.points.size()));
    // the current setting: a tint of the marker's colour (an item font would freeze the size
    // across a presentation-mode switch)
    QColor currentTint = toQColor(Appearance::palette().selection);
    currentTint.setAlpha(60);
    for (int i = 0; i < static_cast<int>(r.points.size()); ++i) {
        const auto& p = r.points[static_cast<std::size_t>(i)];
        QStringList cells{p.effective_value != p.value
                              ? tr("%1 (uses %2)").arg(p.value).arg(p.effective_value)
                              : QString::number(p.value),
                          count(p.stored_slots),
                          QStringLiteral("%1 %").arg(100.0 * p.padding_share, 0, 'f', 1)};
        if (hyb) cells << count(p.coo_entries);
        const auto& m = (*m_modelPoints)[static_cast<std::size_t>(i)].model.prediction;
        cells << count(p.n_iter) << QStringLiteral("%1 %").arg(100.0 * p.warp_efficiency, 0, 'f', 1)
              << QString::fromStdString(spmv::analysis::format_bytes(m.dram_bytes))
              << seconds(m.dram_s) << seconds(m.time_s);
        for (int col = 0; col < static_cast<int>(cells.size()); ++col) {
            auto* item = new QTableWidgetItem(cells[col]);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (p.value == r.current_value) {
                item->setBackground(currentTint);
                item->setToolTip(tr("the current setting (marked on the chart)"));
            }
            m_table->setItem(i, col, item);
        }
    }
}

QLineSeries* SweepView::trafficSeries() const
{
    if (!m_result || m_stack->currentWidget() != m_splitter) return nullptr;
    for (auto* v : m_views) {
        if (v->isHidden() || !v->chart()) continue;
        for (auto* s : v->chart()->series()) {
            if (s->objectName() == QLatin1String("traffic")) return qobject_cast<QLineSeries*>(s);
        }
    }
    return nullptr;
}

QLineSeries* SweepView::series(Quantity q) const
{
    if (!m_result || m_stack->currentWidget() != m_splitter) return nullptr;
    for (auto* v : m_views) {
        if (v->isHidden() || !v->chart()) continue;
        for (auto* s : v->chart()->series()) {
            if (s->objectName() == QLatin1String(quantityKey(q))) {
                return qobject_cast<QLineSeries*>(s);
            }
        }
    }
    return nullptr;
}
