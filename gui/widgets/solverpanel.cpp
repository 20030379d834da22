#include "solverpanel.hpp"

#include <algorithm>
#include <cmath>

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QScrollBar>
#include <QPushButton>
#include <QSignalBlocker>
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
#include "flowlayout.hpp"
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
        // one line (a projector's height is precious), the details on hover
        m_device->setText(tr("Solving on the GPU: CUDA device %1.")
                              .arg(QString::fromStdString(device->name)));
        m_device->setToolTip(tr("The vectors stay on the device for the whole solve; MPIR-CG's "
                                "inner CG runs in single precision on the device."));
    } else {
        const QString why = spmv::gpu::is_compiled()
                                ? tr("No CUDA device found")
                                : tr("This build has no CUDA (built without CUDA)");
        m_device->setText(
            tr("%1: solving on the CPU with the host reference backend (one thread).").arg(why));
        m_device->setToolTip(tr("The format's reference SpMV; MPIR-CG's inner CG in float on "
                                "the host."));
    }

    m_method = new QComboBox;
    m_method->addItem(tr("CG + MPIR-CG"), CgAndMpir);
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
    m_maxIterations->setValue(defaultSolverMaxIterations);
    m_maxIterations->setToolTip(
        tr("CG iterations; for MPIR-CG the total of inner iterations. On the CPU it starts at "
           "what one thread does in about a second for the matrix (at most %1).")
            .arg(defaultSolverMaxIterations));
    connect(m_maxIterations, &QSpinBox::valueChanged, this, [this] {
        m_iterationsEdited = true;  // the user's value is kept for the next matrix
    });
    m_rhs = new QComboBox;
    m_rhs->addItem(tr("b = ones"), static_cast<int>(RhsKind::ones));
    m_rhs->addItem(tr("b = random"), static_cast<int>(RhsKind::random));
    m_run.startButton()->setText(tr("Run"));
    m_run.cancelButton()->setToolTip(
        tr("The running solve finishes; the remaining ones are skipped."));
    m_run.setProgressFormat(tr("%v of %m solves"));
    m_runAnyway = new QCheckBox(tr("Run CG anyway if A is not SPD"));
    m_runAnyway->setToolTip(
        tr("A matrix that is certainly not symmetric positive definite (not symmetric, or a "
           "diagonal entry <= 0) is not solved: CG is defined for SPD matrices only, and its "
           "curve on such a matrix is not a solve. Tick to run it anyway and watch it break "
           "down or diverge."));
    m_run.startButton()->installEventFilter(this);  // its enabled state changes the title

    // the controls flow onto a second line where one is too narrow for them at their full
    // width (a lesson's text beside the view in presentation mode), never squeezing the boxes
    auto* controls = new FlowLayout(nullptr);
    controls->addWidget(flowPair(new QLabel(tr("Method")), m_method));
    controls->addWidget(flowPair(new QLabel(tr("Format")), m_format));
    controls->addWidget(flowPair(new QLabel(tr("Tolerance")), m_tolExponent));
    controls->addWidget(flowPair(new QLabel(tr("Max iterations")), m_maxIterations));
    auto* actions = new QHBoxLayout;
    m_run.addTo(actions);
    actions->addWidget(m_rhs);  // here, not above: the row above fills a 1280-px projector
    actions->addWidget(m_runAnyway);
    // the progress bar gives way where the line is short (a lesson's text beside the view),
    // never the box, whose text would be cut
    m_rhs->setSizePolicy(QSizePolicy::Fixed, m_rhs->sizePolicy().verticalPolicy());

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
    // room for the header and three solves without scrolling: rebuildChart sizes it for the
    // fonts of the moment
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
        m_message->setStyleSheet(QString());
        applyCpuCap();
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

void SolverPanel::applyCpuCap()
{
    // the GPU solves a 1M-row Laplacian in milliseconds; one CPU thread needs 20-40 s per
    // solve for it: there the limit starts at what fits in about a second (said in the view)
    const auto doc = m_controller->document();
    if (m_gpu || m_iterationsEdited || !doc) return;
    const QSignalBlocker block(m_maxIterations);  // not the user's edit
    m_maxIterations->setValue(cpuIterationCap(doc->csr.num_rows, spmv::nnz(doc->csr)));
    if (m_model->rows().isEmpty() && !m_job.isRunning()) {
        m_message->setText(capNote());
    }
}

bool SolverPanel::iterationsCappedForCpu() const
{
    return !m_gpu && !m_iterationsEdited && m_controller->document() &&
           m_maxIterations->value() < defaultSolverMaxIterations;
}

QString SolverPanel::capNote() const
{
    if (!iterationsCappedForCpu()) return {};
    return tr("Max iterations is %1 for this matrix on the CPU (one thread, about a second per "
              "solve); a solve that needs more stops there and says \u201cdid not converge\u201d. "
              "Raise it to run to convergence.")
        .arg(m_maxIterations->value());
}

QString SolverPanel::idleTitle() const
{
    const auto doc = m_controller->document();
    if (!doc) {
        return tr("Open or generate a symmetric positive definite matrix, "
                  "e.g. File \u2192 Generate \u2192 laplace2d");
    }
    const QString run = m_run.startButton()->text();
    if (!m_run.startButton()->isEnabled()) {  // e.g. the last file could not be read
        const QString why = m_run.startButton()->toolTip();
        return why.isEmpty() ? tr("\u201c%1\u201d is not available now").arg(run)
                             : tr("\u201c%1\u201d is not available: %2").arg(run, why);
    }
    return tr("Press \u201c%1\u201d to solve A x = b for %2 "
              "(A must be symmetric positive definite)")
        .arg(run, doc->name);
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
        job.runIfNotSpd = m_runAnyway->isChecked();
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

void SolverPanel::onProgress(int done, int total, const QString& current, quint64 generation)
{
    if (!m_job.isCurrent(generation)) return;
    if (!current.isEmpty()) {
        m_run.showProgress(done,
                           tr("solving with %1 (%2 of %3)").arg(current).arg(done + 1).arg(total));
        emit statusMessage(tr("Solving with %1 ...").arg(current));
    } else {
        showSolvesDone(done);
    }
}

void SolverPanel::showSolvesDone(int done)
{
    // the bar counts solves that ran: a refused one (the matrix is certainly not SPD) is
    // processed but not solved, so it is not "2 of 2 solves"
    int refused = 0;
    for (const auto& run : m_model->rows()) refused += runOutcome(run) == RunOutcome::notRun;
    if (refused == 0) {
        m_run.showProgress(done);
        return;
    }
    const int ran = std::max(0, done - refused);
    const int total = m_run.progressBar()->maximum();
    m_run.showProgress(ran, ran == 0 ? tr("not run: refused (matrix not SPD)")
                                     : tr("%1 of %2 solves run, %3 refused (matrix not SPD)")
                                           .arg(ran)
                                           .arg(total)
                                           .arg(refused));
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
    showSolvesDone(static_cast<int>(m_model->rows().size()));  // setIdle restored the format
    updateMessage(cancelled);
    rebuildChart();  // an empty chart's title said "Solving ..."
    const auto& rows = m_model->rows();
    const bool allRefused =
        !rows.isEmpty() && std::all_of(rows.begin(), rows.end(), [](const SolverRun& run) {
            return runOutcome(run) == RunOutcome::notRun;
        });
    emit statusMessage(cancelled    ? tr("Solve cancelled.")
                       : allRefused ? tr("Not solved: refused (matrix not SPD).")
                                    : tr("Solve finished."));
    emit runFinished();
}

void SolverPanel::updateMessage(bool cancelled)
{
    QStringList lines;
    bool failed = false;
    bool refused = false;
    bool capped = false;
    for (const auto& run : m_model->rows()) {
        const RunOutcome outcome = runOutcome(run);
        refused = refused || outcome == RunOutcome::notRun;
        capped = capped || outcome == RunOutcome::iterationCap;
        failed = failed || outcome != RunOutcome::converged;
        if (outcome != RunOutcome::notRun) lines << QString::fromStdString(describeRun(run));
    }
    if (cancelled) lines << tr("Cancelled: the remaining solves were skipped.");
    if (!m_model->rows().isEmpty()) {
        const auto& first = m_model->rows().front();
        const QString notSpd = QString::fromStdString(first.not_spd);
        if (refused) {
            // the refusal: what was not done, why, and how to do it anyway
            lines.prepend(tr("Not solved: the matrix is %1. CG, Jacobi-CG and MPIR-CG are "
                             "defined for symmetric positive definite matrices only; on this one "
                             "a residual curve would not be a solve. Tick \u201c%2\u201d to run "
                             "them anyway and watch them break down or diverge.")
                              .arg(notSpd, m_runAnyway->text()));
        } else if (!notSpd.isEmpty()) {
            // run anyway, as asked: what the results mean on such a matrix
            lines.prepend(tr("Run anyway on a matrix that is %1: CG and its variants assume a "
                             "symmetric positive definite matrix, so breakdown or divergence "
                             "below is what the theory allows, and nothing below is a solution "
                             "unless it says converged.")
                              .arg(notSpd));
        }
        // where they ran: the line above the controls says it; the exact backend on hover
        m_message->setToolTip(tr("Solved on %1.").arg(QString::fromStdString(first.backend)));
    }
    if (capped && iterationsCappedForCpu()) lines << capNote();
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
    // the title names the Run button's state: enabled, or why not
    if (watched == m_run.startButton() && event->type() == QEvent::EnabledChange &&
        m_model->rows().isEmpty()) {
        QMetaObject::invokeMethod(this, &SolverPanel::rebuildChart, Qt::QueuedConnection);
    }
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
    // in presentation mode the table keeps what a lecture reads (status, iterations, final
    // residual, total and setup time); the time per phase returns at the desk
    for (int c : {SolverSummaryModel::SpmvMs, SolverSummaryModel::VectorMs,
                  SolverSummaryModel::ReductionMs, SolverSummaryModel::TransferMs}) {
        m_table->setColumnHidden(c, app.presentationMode());
    }
    m_table->setFont(app.font());
    m_table->horizontalHeader()->setFont(app.font(0.9));
    {
        // the header and three solves (the most a request makes), and no more: rows left
        // empty below would take the chart's height (on a 720-px projector its axis title)
        const int row = qMax(m_table->verticalHeader()->defaultSectionSize(),
                             QFontMetrics(app.font()).height() + 8);
        const int header =
            qMax(m_table->horizontalHeader()->sizeHint().height(),
                 QFontMetrics(app.font(0.9)).height() + 8);
        const int frame = 2 * m_table->frameWidth();
        m_table->setMinimumHeight(header + 2 * row + frame);  // CG and MPIR-CG, the default
        m_table->setMaximumHeight(header + 3 * row + frame +
                                  m_table->horizontalScrollBar()->sizeHint().height());
    }
    m_message->setFont(app.font());
    m_device->setFont(app.font());
    auto* chart = newStyledChart();

    struct Shown {
        SolverMethod method;
        spmv::viz::ResidualSeries series;
        QString outcome;  ///< empty when converged
        double final = 0;
    };
    std::vector<Shown> shown;
    QStringList notConverged;
    bool refused = false;
    for (const auto& run : m_model->rows()) {
        const RunOutcome outcome = runOutcome(run);
        refused = refused || outcome == RunOutcome::notRun;
        if (outcome == RunOutcome::notRun || outcome == RunOutcome::error) continue;
        Shown s{run.method,
                spmv::viz::residual_series(run.result, run.method == SolverMethod::mpir_cg),
                outcome == RunOutcome::converged ? QString()
                : outcome == RunOutcome::diverged ? tr("diverged")
                                                  : tr("did not converge"),
                run.result.final_relative_residual};
        if (!s.outcome.isEmpty()) {
            notConverged << QString::fromStdString(spmv::viz::solver_method_label(run.method));
        }
        shown.push_back(std::move(s));
    }
    const auto doc = m_controller->document();
    if (shown.empty()) {
        QString title = idleTitle();
        if (refused && doc) {
            title = tr("Not solved: %1 is not symmetric positive definite (see above)")
                        .arg(doc->name);
        } else if (m_job.isRunning()) {
            title = tr("Solving ...");
        }
        chart->setTitle(title);
        replaceChart(m_chartView, chart);
        return;
    }
    // the final residual of every run (the table's number) is a point of the chart too, at
    // the run's last iteration (MPIR-CG: its last outer step)
    auto plottable = [](double v) { return std::isfinite(v) && v > 0; };
    auto lastX = [](const spmv::viz::ResidualSeries& s) {
        return s.markers.empty() ? s.last_iteration
                                 : std::max(s.last_iteration, s.markers.back().x);
    };
    std::vector<spmv::viz::ResidualSeries> all;
    for (const auto& s : shown) {
        all.push_back(s.series);
        if (plottable(s.final)) all.back().markers.push_back({lastX(s.series), s.final});
    }
    const auto range = spmv::viz::residual_axis_range(all, m_shownTol);
    const auto xAxis = spmv::viz::iteration_axis(spmv::viz::iteration_axis_max(all), 10);
    const double xMax = xAxis.max;

    QString format = QString::fromStdString(m_model->rows().front().result.format);
    try {
        format = fromView(spmv::find_format(format.toStdString()).title);
    } catch (const std::exception&) {
        // keep the registry name
    }
    QString title =
        tr("Relative residual per iteration: %1 in %2").arg(doc ? doc->name : QString(), format);
    if (!notConverged.isEmpty()) {
        title += tr(" \u2014 %1 did not converge").arg(notConverged.join(QStringLiteral(", ")));
    }
    chart->setTitle(title);
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
    {
        // the axis title only where it fits the plot's height (Qt Charts would cut it to
        // "\u2016b \u2212 A x\u2016 ..."; the chart's title says what y is either way): the
        // height left by the title, the legend, the x labels and title and the margins
        const QString text = tr("\u2016b \u2212 A x\u2016 / \u2016b\u2016");
        const QFontMetrics body(app.font());
        const int taken = QFontMetrics(app.font(1.15, true)).height() + 2 * body.height() +
                          QFontMetrics(app.font(0.9)).height() + 60;
        if (body.horizontalAdvance(text) + 8 <= m_chartView->height() - taken) {
            y->setTitleText(text);
        }
    }
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
        // the legend says when a curve is not a solve: "CG: diverged", "CG: did not converge"
        QString name = label;
        if (!s.outcome.isEmpty()) name += QStringLiteral(": ") + s.outcome;
        if (s.method == SolverMethod::mpir_cg) name += tr(" (inner, scaled)");
        line->setName(name);
        line->replace(toQPoints(s.series.line));
        QPen pen(colour);
        pen.setWidthF(app.lineWidth(2.0));
        if (!s.outcome.isEmpty()) pen.setStyle(Qt::DashDotLine);  // not a solve
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
            markers->setName(tr("%1 outer steps").arg(label));
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
    // the final relative residual of every run, the number of the table and the text
    auto* finals = new QScatterSeries;
    finals->setName(tr("final \u2016b \u2212 A x\u2016/\u2016b\u2016"));
    finals->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
    finals->setMarkerSize(12.0 * app.scale());
    finals->setColor(toQColor(spmv::viz::okabe_ito::black));
    finals->setBorderColor(toQColor(spmv::viz::okabe_ito::black));
    for (const auto& s : shown) {
        if (plottable(s.final)) finals->append(lastX(s.series), s.final);
    }
    if (finals->count() > 0) {
        chart->addSeries(finals);
        finals->attachAxis(x);
        finals->attachAxis(y);
    } else {
        delete finals;
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
    // the legend is short (a projector's width); what the lines are, in full, on hover
    m_chartView->setToolTip(
        tr("Lines: the relative residual of every iteration, as the iteration updates it "
           "(MPIR-CG: its inner float CG's residual scaled by the outer residual), dash-dotted "
           "for a run that did not converge. Squares: MPIR-CG's true double residual after each "
           "outer step. Diamonds: each run's final relative residual \u2016b \u2212 A x\u2016 / "
           "\u2016b\u2016, recomputed in double (the table's number)."));
    replaceChart(m_chartView, chart);
}
