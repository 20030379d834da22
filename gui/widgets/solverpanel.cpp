#include "solverpanel.hpp"

#include <cmath>

#include <QComboBox>
#include <QEvent>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <spmv/gpu/device.hpp>
#include <spmv/registry.hpp>
#include <spmv/viz/solver_chart.hpp>

#include "appearance.hpp"
#include "chart_support.hpp"
#include "models/solversummarymodel.hpp"
#include "session/analysiscontroller.hpp"
#include "session/usabledevice.hpp"

namespace {

using spmv::viz::SolverMethod;

QString fromView(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<int>(s.size()));
}

QList<QPointF> toQPoints(const std::vector<spmv::viz::ChartPoint>& points)
{
    QList<QPointF> out;
    out.reserve(static_cast<qsizetype>(points.size()));
    for (const auto& p : points) out.append(QPointF(p.x, p.y));
    return out;
}

}  // namespace

SolverPanel::SolverPanel(AnalysisController* controller, QWidget* parent)
    : QWidget(parent), m_controller(controller)
{
    qRegisterMetaType<SolverRequest>();
    qRegisterMetaType<SolverRun>();
    const auto device = usableDevice();
    m_gpu = device.has_value();

    m_device = new QLabel;
    m_device->setWordWrap(true);
    if (m_gpu) {
        m_device->setText(tr("Solving on the GPU: CUDA device %1. The vectors stay on the "
                             "device for the whole solve; MPIR-CG's inner CG runs in single "
                             "precision on the device.")
                              .arg(QString::fromStdString(device->name)));
    } else {
        const QString why = spmv::gpu::is_compiled()
                                ? tr("No CUDA device found")
                                : tr("This build has no CUDA (built without CUDA)");
        m_device->setText(tr("%1: solving on the CPU with the host reference backend (one "
                             "thread; the format's reference SpMV, MPIR-CG's inner CG in float "
                             "on the host).")
                              .arg(why));
    }

    m_method = new QComboBox;
    m_method->addItem(tr("CG and MPIR-CG (overlay)"), CgAndMpir);
    m_method->addItem(tr("CG"), CgOnly);
    m_method->addItem(tr("Jacobi-CG"), JacobiCgOnly);
    m_method->addItem(tr("MPIR-CG"), MpirOnly);
    m_method->addItem(tr("all three"), AllThree);
    m_format = new QComboBox;
    for (const auto& f : spmv::formats()) {
        m_format->addItem(fromView(f.title), fromView(f.name));
        m_format->setItemData(m_format->count() - 1, fromView(f.description), Qt::ToolTipRole);
    }
    m_format->setCurrentIndex(qMax(0, m_format->findData(QStringLiteral("csr"))));
    m_tolExponent = new QSpinBox;
    m_tolExponent->setRange(1, 16);
    m_tolExponent->setValue(10);
    m_tolExponent->setPrefix(QStringLiteral("1e-"));
    m_tolExponent->setToolTip(tr("Stop when ||b - A x|| / ||b|| <= tolerance."));
    m_maxIterations = new QSpinBox;
    m_maxIterations->setRange(1, 10000000);
    m_maxIterations->setValue(10000);
    m_maxIterations->setToolTip(tr("CG iterations; for MPIR-CG the total of inner iterations."));
    m_rhs = new QComboBox;
    m_rhs->addItem(tr("b = ones"), static_cast<int>(RhsKind::ones));
    m_rhs->addItem(tr("b = random"), static_cast<int>(RhsKind::random));
    m_run.startButton()->setText(tr("Run"));
    m_run.cancelButton()->setToolTip(
        tr("The running solve finishes; the remaining ones are skipped."));
    m_run.progressBar()->setFormat(tr("%v of %m solves"));

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Method")));
    controls->addWidget(m_method);
    controls->addWidget(new QLabel(tr("Format")));
    controls->addWidget(m_format);
    controls->addWidget(new QLabel(tr("Tolerance")));
    controls->addWidget(m_tolExponent);
    controls->addWidget(new QLabel(tr("Max iterations")));
    controls->addWidget(m_maxIterations);
    controls->addWidget(m_rhs);
    controls->addStretch(1);
    auto* actions = new QHBoxLayout;
    m_run.addTo(actions);

    m_message = new QLabel;
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_chartView = new QChartView;
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumHeight(240);
    m_chartView->installEventFilter(this);
    m_model = new SolverSummaryModel(this);
    m_table = new QTableView;
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->resizeColumnsToContents();  // the headers' widths before any run has come back
    // room for the header and three solves without scrolling
    m_table->setMinimumHeight(4 * m_table->verticalHeader()->defaultSectionSize() + 6);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_chartView);
    split->addWidget(m_table);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_device);
    layout->addLayout(controls);
    layout->addLayout(actions);
    layout->addWidget(m_message);
    layout->addWidget(split, 1);

    auto* worker = m_job.worker();
    connect(this, &SolverPanel::runRequested, worker, &SolverWorker::run);
    connect(worker, &SolverWorker::started, this, &SolverPanel::onStarted);
    connect(worker, &SolverWorker::progressChanged, this, &SolverPanel::onProgress);
    connect(worker, &SolverWorker::runAvailable, this, &SolverPanel::onRun);
    connect(worker, &SolverWorker::finished, this, &SolverPanel::onFinished);
    connect(m_run.startButton(), &QPushButton::clicked, this, &SolverPanel::start);
    connect(m_run.cancelButton(), &QPushButton::clicked, this, &SolverPanel::cancel);
    connect(controller, &AnalysisController::documentAvailable, this, [this] {
        // a running solve belongs to the previous matrix: its results are dropped
        m_job.invalidate();
        m_run.reset();
        m_model->resetData();
        m_message->clear();
        rebuildChart();
    });
    connect(&Appearance::instance(), &Appearance::changed, this, &SolverPanel::rebuildChart);
    rebuildChart();
}

SolverPanel::~SolverPanel() = default;  // m_job cancels the solves and waits for its thread

const QList<SolverRun>& SolverPanel::runs() const
{
    return m_model->rows();
}

QChart* SolverPanel::chart() const
{
    return m_chartView->chart();
}

SolverRequest SolverPanel::request() const
{
    SolverRequest r;
    r.document = m_controller->document();
    if (!r.document) return r;
    QList<SolverMethod> methods;
    switch (m_method->currentData().toInt()) {
        case CgOnly:
            methods = {SolverMethod::cg};
            break;
        case JacobiCgOnly:
            methods = {SolverMethod::jacobi_cg};
            break;
        case MpirOnly:
            methods = {SolverMethod::mpir_cg};
            break;
        case AllThree:
            methods = {SolverMethod::cg, SolverMethod::jacobi_cg, SolverMethod::mpir_cg};
            break;
        default:
            methods = {SolverMethod::cg, SolverMethod::mpir_cg};
            break;
    }
    for (const auto m : methods) {
        SolverJob job;
        job.method = m;
        job.format = m_format->currentData().toString().toStdString();
        job.params = m_controller->params();
        job.tol = std::pow(10.0, -m_tolExponent->value());
        job.maxIterations = m_maxIterations->value();
        job.rhs = static_cast<RhsKind>(m_rhs->currentData().toInt());
        job.gpu = m_gpu;
        r.jobs.push_back(job);
    }
    return r;
}

void SolverPanel::beginRun()
{
    m_model->resetData();
    m_message->setText(tr("Solving ..."));
    m_message->setStyleSheet(QString());
    m_shownTol = std::pow(10.0, -m_tolExponent->value());
    m_run.setRunning();
    rebuildChart();
}

void SolverPanel::start()
{
    if (!m_controller->document() || m_job.isRunning()) return;
    const auto r = request();
    const quint64 generation = m_job.begin();
    beginRun();
    emit runRequested(r, generation);
}

void SolverPanel::runSynchronously()
{
    if (!m_controller->document() || m_job.isRunning()) return;
    const auto r = request();
    const quint64 generation = m_job.begin();
    beginRun();
    SolverWorker worker;  // lives on this thread: its signals arrive directly
    connect(&worker, &SolverWorker::started, this, &SolverPanel::onStarted);
    connect(&worker, &SolverWorker::progressChanged, this, &SolverPanel::onProgress);
    connect(&worker, &SolverWorker::runAvailable, this, &SolverPanel::onRun);
    connect(&worker, &SolverWorker::finished, this, &SolverPanel::onFinished);
    worker.run(r, generation);
}

void SolverPanel::cancel()
{
    if (m_job.isRunning()) {
        m_job.cancel();
        m_message->setText(tr("Cancelling: the running solve finishes first ..."));
    }
}

void SolverPanel::onStarted(int total, quint64 generation)
{
    if (!m_job.isCurrent(generation)) return;
    m_run.showStarted(total);
}

void SolverPanel::onProgress(int done, int, const QString& current, quint64 generation)
{
    if (!m_job.isCurrent(generation)) return;
    m_run.showProgress(done);
    if (!current.isEmpty()) {
        emit statusMessage(tr("Solving with %1 ...").arg(current));
    }
}

void SolverPanel::onRun(const SolverRun& run, quint64 generation)
{
    if (!m_job.isCurrent(generation)) return;  // an older matrix or run
    m_model->appendRow(run);
    m_table->resizeColumnsToContents();  // now, not on a later layout pass (screenshots)
    updateMessage(false);
    rebuildChart();
}

void SolverPanel::onFinished(bool cancelled, quint64 generation)
{
    if (!m_job.finish(generation)) return;
    m_run.setIdle();
    updateMessage(cancelled);
    emit statusMessage(cancelled ? tr("Solve cancelled.") : tr("Solve finished."));
    emit runFinished();
}

void SolverPanel::updateMessage(bool cancelled)
{
    QStringList lines;
    bool failed = false;
    for (const auto& run : m_model->rows()) {
        lines << QString::fromStdString(describeRun(run));
        failed =
            failed || !run.error.empty() || run.result.status != spmv::solvers::Status::converged;
    }
    if (cancelled) lines << tr("Cancelled: the remaining solves were skipped.");
    if (!m_model->rows().isEmpty()) {
        const auto& first = m_model->rows().front();
        if (!first.not_spd.empty()) {
            // before the results: what they mean on such a matrix
            lines.prepend(tr("The matrix is %1. CG and its variants assume a symmetric positive "
                             "definite matrix, so breakdown or divergence below is what the "
                             "theory allows, not a fault of the solver.")
                              .arg(QString::fromStdString(first.not_spd)));
            failed = true;
        }
        lines.prepend(tr("On %1:").arg(QString::fromStdString(first.backend)));
    }
    m_message->setText(lines.join(QLatin1Char('\n')));
    // a failure is written in the colour of padding/waste (vermillion), success in plain text
    m_message->setStyleSheet(
        failed ? QStringLiteral("color: %1;").arg(toQColor(Appearance::palette().padding).name())
               : QString());
    // the message may have grown: settle the layout now, so that the chart is built for the
    // height it will have (the log axis labels depend on it)
    layout()->activate();
}

bool SolverPanel::eventFilter(QObject* watched, QEvent* event)
{
    // Qt Charts lays the axis labels out for the base the axis was added with: a new base
    // (the view got much shorter or taller) means a new chart
    if (watched == m_chartView && event->type() == QEvent::Resize && m_logAxis &&
        logBase() != m_logAxis->base()) {
        QMetaObject::invokeMethod(this, &SolverPanel::rebuildChart, Qt::QueuedConnection);
    }
    return QWidget::eventFilter(watched, event);
}

double SolverPanel::logBase() const
{
    // A label per decade as long as they fit the plot's height, else one every few decades.
    // Qt Charts elides a label ("...") that gets less than its height + 2 x 2 px padding, and
    // the spacing of the ticks is not quite even on screen, so each label is given 8 px of
    // room; the title, the legend (up to two lines) and the x axis take about 10 label heights
    // (a 1e0 .. 1e-16 run at the default window size got 19 labels in 335 px and all elided).
    const int labelHeight = QFontMetrics(Appearance::instance().font(0.9)).height() + 8;
    const int plotHeight = m_chartView->height() - 10 * labelHeight;
    return spmv::viz::log_axis_base(m_logRange, qMax(2, plotHeight / qMax(1, labelHeight)));
}

void SolverPanel::rebuildChart()
{
    m_logAxis = nullptr;  // owned by the chart replaced below
    const auto& app = Appearance::instance();
    m_table->setFont(app.font());
    m_table->horizontalHeader()->setFont(app.font(0.9));
    m_message->setFont(app.font());
    m_device->setFont(app.font());
    auto* chart = newStyledChart();

    struct Shown {
        SolverMethod method;
        spmv::viz::ResidualSeries series;
    };
    std::vector<Shown> shown;
    for (const auto& run : m_model->rows()) {
        if (!run.error.empty()) continue;
        shown.push_back({run.method, spmv::viz::residual_series(
                                         run.result, run.method == SolverMethod::mpir_cg)});
    }
    const auto doc = m_controller->document();
    if (shown.empty()) {
        QString title =
            tr("Open or generate a symmetric positive definite matrix, "
               "e.g. File \u2192 Generate \u2192 laplace2d");
        if (m_job.isRunning()) {
            title = tr("Solving ...");
        } else if (doc) {
            title = tr("Press \u201cRun\u201d to solve A x = b for %1 "
                       "(A must be symmetric positive definite)")
                        .arg(doc->name);
        }
        chart->setTitle(title);
        replaceChart(m_chartView, chart);
        return;
    }
    std::vector<spmv::viz::ResidualSeries> all;
    for (const auto& s : shown) all.push_back(s.series);
    const auto range = spmv::viz::residual_axis_range(all, m_shownTol);
    const auto xAxis = spmv::viz::iteration_axis(spmv::viz::iteration_axis_max(all), 10);
    const double xMax = xAxis.max;

    QString format = QString::fromStdString(m_model->rows().front().result.format);
    try {
        format = fromView(spmv::find_format(format.toStdString()).title);
    } catch (const std::exception&) {
        // keep the registry name
    }
    chart->setTitle(
        tr("Relative residual per iteration: %1 in %2").arg(doc ? doc->name : QString(), format));
    auto* x = new QValueAxis;
    x->setRange(0, xMax);
    x->setLabelFormat(QStringLiteral("%.0f"));
    x->setTickType(QValueAxis::TicksDynamic);
    x->setTickAnchor(0);
    x->setTickInterval(xAxis.step);
    x->setTitleText(tr("iteration (MPIR-CG: cumulative inner iterations)"));
    x->setTitleFont(app.font());
    x->setLabelsFont(app.font(0.9));
    chart->addAxis(x, Qt::AlignBottom);
    auto* y = new QLogValueAxis;
    m_logRange = range;
    const double base = logBase();
    y->setBase(base);
    y->setRange(range.lo, range.hi);
    y->setLabelFormat(QStringLiteral("%.0e"));
    y->setMinorTickCount(base == 10.0 && std::log10(range.hi / range.lo) <= 6 ? 8 : 0);
    m_logAxis = y;
    y->setTitleText(tr("\u2016b \u2212 A x\u2016 / \u2016b\u2016"));
    y->setTitleFont(app.font());
    y->setLabelsFont(app.font(0.9));
    chart->addAxis(y, Qt::AlignLeft);

    // lines in reverse order, so that CG (run first) is drawn on top of MPIR-CG, whose first
    // inner solve follows the same curve; the markers on top of every line
    for (auto it = shown.rbegin(); it != shown.rend(); ++it) {
        const auto& s = *it;
        const QColor colour = toQColor(spmv::viz::solver_method_colour(s.method));
        const QString label = QString::fromStdString(spmv::viz::solver_method_label(s.method));
        auto* line = new QLineSeries;
        line->setName(s.method == SolverMethod::mpir_cg
                          ? tr("%1 (inner float CG, scaled)").arg(label)
                          : label);
        line->replace(toQPoints(s.series.line));
        QPen pen(colour);
        pen.setWidthF(app.lineWidth(2.0));
        line->setPen(pen);
        chart->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
    }
    for (const auto& s : shown) {
        const QColor colour = toQColor(spmv::viz::solver_method_colour(s.method));
        const QString label = QString::fromStdString(spmv::viz::solver_method_label(s.method));
        if (!s.series.markers.empty()) {
            auto* markers = new QScatterSeries;
            markers->setName(tr("%1 outer refinement steps (true residual)").arg(label));
            markers->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
            markers->setMarkerSize(9.0 * app.scale());
            markers->setColor(colour);
            markers->setBorderColor(toQColor(spmv::viz::okabe_ito::black));
            markers->replace(toQPoints(s.series.markers));
            chart->addSeries(markers);
            markers->attachAxis(x);
            markers->attachAxis(y);
        }
    }
    if (m_shownTol > 0) {
        auto* tol = new QLineSeries;
        tol->setName(tr("tolerance %1").arg(m_shownTol, 0, 'g', 3));
        tol->append(0, m_shownTol);
        tol->append(xMax, m_shownTol);
        QPen pen(toQColor(spmv::viz::tolerance_colour));
        pen.setWidthF(app.lineWidth(1.5));
        pen.setStyle(Qt::DashLine);
        tol->setPen(pen);
        chart->addSeries(tol);
        tol->attachAxis(x);
        tol->attachAxis(y);
    }
    replaceChart(m_chartView, chart);
}
