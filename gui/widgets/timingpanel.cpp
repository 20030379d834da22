#include "timingpanel.hpp"

#include <cmath>
#include <span>

#include <QComboBox>
#include <QDateTime>
#include <QEvent>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <QtMath>

#include <spmv/gpu/device.hpp>
#include <spmv/model/gpu_profile.hpp>
#include <spmv/viz/units.hpp>

#include "appearance.hpp"
#include "chart_support.hpp"
#include "models/timingmodel.hpp"
#include "session/analysiscontroller.hpp"
#include "session/usabledevice.hpp"

TimingPanel::TimingPanel(AnalysisController* controller, QWidget* parent)
    : QWidget(parent), m_controller(controller)
{
    qRegisterMetaType<TimingRequest>();
    qRegisterMetaType<TimingRow>();
    const auto device = usableDevice();
    m_gpu = device.has_value();

    m_device = new QLabel;
    m_device->setWordWrap(true);
    if (m_gpu) {
        m_device->setText(
            tr("CUDA device: %1 (%2 SMs, %3 GiB). Every GPU kernel variant and "
               "the cuSPARSE baselines are timed with the kernels' harness "
               "(median of many runs, L2 flushed).")
                .arg(QString::fromStdString(device->name))
                .arg(device->multiprocessors)
                .arg(static_cast<double>(device->global_memory_bytes) / (1 << 30), 0, 'f', 1));
    } else {
        m_device->setText(
            spmv::gpu::is_compiled()
                ? tr("No CUDA device found: GPU timing is not possible on this machine. Shown "
                     "instead: the CPU reference SpMV of every format (one thread), next to what "
                     "the models predict for the format's GPU kernel on the GPU profile chosen "
                     "below (predictions, not measurements).")
                : tr("This build has no CUDA kernels (built without CUDA): GPU timing is not "
                     "possible. Shown instead: the CPU reference SpMV of every format (one "
                     "thread), next to what the models predict for the format's GPU kernel on "
                     "the GPU profile chosen below (predictions, not measurements)."));
    }
    m_precision = new QComboBox;
    m_precision->addItem(tr("double"), 0);
    m_precision->addItem(tr("single"), 1);
    m_profile = makeProfileBox(QStringLiteral("H100"));
    m_alpha = new QDoubleSpinBox;
    m_alpha->setRange(0.0, 1.0);
    m_alpha->setSingleStep(0.05);
    m_alpha->setDecimals(3);
    // default 1/N_nzr (the box's minimum, clamped per matrix): x read once from DRAM, as the
    // per-format fitted model assumes; alpha = 1 is the paper's no-reuse case
    m_alpha->setValue(0.0);
    m_alpha->setSpecialValueText(tr("1/N_nzr"));  // the minimum, 0, is clamped to 1/N_nzr
    m_alpha->setToolTip(
        tr("Kreutzer eq. 1: fraction of x loads that go to memory (1: no reuse, every load "
           "from DRAM). Clamped to at least 1/N_nzr (x read once, what the per-format fitted "
           "model assumes), the default."));
    m_run.startButton()->setText(m_gpu ? tr("Time on the GPU") : tr("Time on the CPU"));
    m_run.setProgressFormat(tr("%v of %m"));
    m_run.startButton()->installEventFilter(this);  // its enabled state changes the title

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Precision")));
    controls->addWidget(m_precision);
    controls->addSpacing(8);
    controls->addWidget(new QLabel(tr("Model GPU profile")));
    controls->addWidget(m_profile);
    controls->addWidget(new QLabel(tr("\u03b1")));
    controls->addWidget(m_alpha);
    controls->addSpacing(8);
    m_run.addTo(controls);

    m_model = new TimingModel(this);
    m_table = new QTableView;
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // every row counts, also those scrolled out of view (27 GPU variants: "cusparse_csr_alg1
    // (cuSPARSE)" sits below the fold and was cut to the width of the rows shown)
    m_table->horizontalHeader()->setResizeContentsPrecision(-1);
    connect(m_model, &QAbstractItemModel::rowsInserted, m_table, [this] {
        m_table->horizontalHeader()->resizeSections(QHeaderView::ResizeToContents);
    });
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_chartView = new QChartView;
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumHeight(220);
    auto* split = new QSplitter(Qt::Vertical);
    // the legend below the chart wraps (Qt Charts' own elides "traffic bound 388.4 GFLOP/s")
    m_legend = new ChartLegend;
    split->addWidget(chartWithLegend(m_chartView, m_legend));
    split->addWidget(m_table);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_device);
    layout->addLayout(controls);
    layout->addWidget(split, 1);

    auto* worker = m_job.worker();
    connect(this, &TimingPanel::runRequested, worker, &TimingWorker::run);
    connect(worker, &TimingWorker::started, this, [this](int total, quint64 gen) {
        if (!m_job.isCurrent(gen)) return;
        m_run.showStarted(total);
    });
    connect(worker, &TimingWorker::timingAvailable, this,
            [this](const TimingRow& row, quint64 gen) {
                if (!m_job.isCurrent(gen)) return;
                m_model->appendRow(row);
                rebuildChart();
            });
    connect(worker, &TimingWorker::progressChanged, this,
            [this](int done, int, const QString& current, quint64 gen) {
                if (!m_job.isCurrent(gen)) return;
                m_run.showProgress(done);
                if (!current.isEmpty()) emit statusMessage(tr("Timing %1 ...").arg(current));
            });
    connect(worker, &TimingWorker::errorOccurred, this, [this](const QString& msg, quint64 gen) {
        if (m_job.isCurrent(gen)) emit statusMessage(tr("Timing failed: %1").arg(msg));
    });
    connect(worker, &TimingWorker::finished, this, [this](bool cancelled, quint64 gen) {
        if (!m_job.finish(gen)) return;
        m_run.setIdle();
        emit statusMessage(cancelled ? tr("Timing cancelled.") : tr("Timing finished."));
        emit runFinished();
    });
    connect(m_run.startButton(), &QPushButton::clicked, this, &TimingPanel::start);
    connect(m_run.cancelButton(), &QPushButton::clicked, this, &TimingPanel::cancel);
    connect(m_profile, &QComboBox::currentIndexChanged, this, &TimingPanel::rebuildChart);
    connect(controller, &AnalysisController::documentAvailable, this, [this] {
        // a running run belongs to the previous matrix: its rows (and its finished signal) are
        // dropped, and the panel is idle at once
        m_job.invalidate();
        m_run.reset();
        m_model->resetData();
        rebuildChart();
    });
    connect(&Appearance::instance(), &Appearance::changed, this, &TimingPanel::rebuildChart);
    rebuildChart();
}

TimingPanel::~TimingPanel() = default;  // m_job cancels the run and waits for its thread

bool TimingPanel::selectProfile(const QString& name)
{
    const int i = m_profile->findText(name, Qt::MatchFixedString);
    if (i < 0) return false;
    m_profile->setCurrentIndex(i);
    return true;
}

bool TimingPanel::selectPrecision(const QString& name)
{
    const QString n = name.toLower();
    int code = -1;  // the box's item data: 0 double, 1 single
    if (n == QLatin1String("double") || n == QLatin1String("dp")) code = 0;
    if (n == QLatin1String("single") || n == QLatin1String("float") || n == QLatin1String("sp"))
        code = 1;
    const int i = code < 0 ? -1 : m_precision->findData(code);
    if (i < 0) return false;
    m_precision->setCurrentIndex(i);
    return true;
}

QByteArray TimingPanel::recordJson(const QString& matrixName, const QString& commit) const
{
    QJsonArray rows;
    for (const TimingRow& r : m_model->rows()) {
        QJsonObject o;
        o[QStringLiteral("variant")] = QString::fromStdString(r.variant);
        o[QStringLiteral("format")] = QString::fromStdString(r.format);
        o[QStringLiteral("precision")] = QString::fromStdString(r.precision);
        o[QStringLiteral("device")] = QString::fromStdString(r.device);
        o[QStringLiteral("baseline")] = r.baseline;
        o[QStringLiteral("gpu")] = r.gpu;
        o[QStringLiteral("median_us")] = r.median_ms * 1e3;
        o[QStringLiteral("gflops")] = r.gflops;
        o[QStringLiteral("effective_gbs")] = r.effective_gbs;
        o[QStringLiteral("fraction_of_copy")] = r.fraction_of_copy;
        o[QStringLiteral("predicted_gflops")] = r.predicted_gflops;
        if (r.model_s > 0) {  // the format model's time for this variant (a prediction)
            o[QStringLiteral("model_us")] = r.model_s * 1e6;
            o[QStringLiteral("model_bound")] = QString::fromStdString(r.model_bound);
            o[QStringLiteral("model_profile")] = QString::fromStdString(r.model_profile);
        }
        if (!r.error.empty()) o[QStringLiteral("error")] = QString::fromStdString(r.error);
        rows.append(o);
    }
    QJsonObject record;
    record[QStringLiteral("tool")] = QStringLiteral("spmvlab-gui timing view");
    record[QStringLiteral("matrix")] = matrixName;
    record[QStringLiteral("commit")] = commit;
    record[QStringLiteral("date")] =
        QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    record[QStringLiteral("device")] = m_device->text();
    record[QStringLiteral("profile")] = m_profile->currentText();
    record[QStringLiteral("rows")] = rows;
    return QJsonDocument(record).toJson(QJsonDocument::Indented);
}

spmv::model::GpuProfile TimingPanel::currentProfile() const
{
    return spmv::model::find_profile(m_profile->currentText().toStdString());
}

void TimingPanel::start()
{
    const auto doc = m_controller->document();
    if (!doc || m_job.isRunning()) return;
    TimingRequest r;
    r.document = doc;
    r.params = m_controller->params();
    r.precision = m_precision->currentData().toInt() == 0
                      ? spmv::model::Precision::double_precision
                      : spmv::model::Precision::single_precision;
    r.profile = currentProfile();
    r.alpha =
        doc->stats.ave > 0 ? qMax(m_alpha->value(), spmv::model::min_alpha(doc->stats.ave)) : 1.0;
    m_runAlpha = r.alpha;
    r.useGpu = m_gpu;
    m_model->resetData();
    m_model->setModelProfile(QString::fromStdString(r.profile.name));
    const quint64 generation = m_job.begin();
    m_run.setRunning();
    emit runRequested(r, generation);
}

void TimingPanel::cancel()
{
    m_job.cancel();
}

QString TimingPanel::idleTitle() const
{
    // the words follow the button: never "press" a button that is disabled
    const QPushButton* button = m_run.startButton();
    if (!m_controller->document()) {
        return tr("No matrix yet: open or generate one, then \u201c%1\u201d times every variant")
            .arg(button->text());
    }
    if (!button->isEnabled()) {
        const QString why = button->toolTip();
        return why.isEmpty() ? tr("\u201c%1\u201d is not available now").arg(button->text())
                             : tr("\u201c%1\u201d is not available: %2").arg(button->text(), why);
    }
    return tr("Press \u201c%1\u201d to time every variant").arg(button->text());
}

bool TimingPanel::eventFilter(QObject* watched, QEvent* event)
{
    // MainWindow enables and disables the button (no matrix, a file that failed to load): the
    // title that names it follows
    if (watched == m_run.startButton() && event->type() == QEvent::EnabledChange &&
        m_model->rows().isEmpty()) {
        QMetaObject::invokeMethod(this, &TimingPanel::rebuildChart, Qt::QueuedConnection);
    }
    return QWidget::eventFilter(watched, event);
}

void TimingPanel::rebuildChart()
{
    const auto& app = Appearance::instance();
    const auto& pal = Appearance::palette();
    // in presentation mode the table keeps what a lecture reads; the precision (the box above
    // says it) and Kreutzer eq. 1's rate (one number for every row, a line of the chart) return
    // at the desk: at a projector's font the eleven columns do not fit 1920 px
    for (int c : {TimingModel::Precision, TimingModel::Predicted, TimingModel::OfPrediction}) {
        m_table->setColumnHidden(c, app.presentationMode());
    }
    // and every column keeps its contents' width (the table scrolls): a stretched last column
    // would be cut to the room left (the CPU's name, spmv::host_device_name(), in part of it)
    m_table->horizontalHeader()->setStretchLastSection(!app.presentationMode());
    auto* chart = newStyledChart();
    const auto& rows = m_model->rows();
    if (rows.isEmpty()) {
        chart->setTitle(m_job.isRunning() ? tr("Timing ...") : idleTitle());
    } else {
        const bool gpu = rows.front().gpu;
        chart->setTitle(gpu ? tr("GPU SpMV: measured vs model (%1)")
                                  .arg(QString::fromStdString(rows.front().device))
                            : tr("CPU reference SpMV (measured) vs model prediction for %1")
                                  .arg(m_profile->currentText()));
        // what the lines are, in the chart's tooltip (the legend has room for short names)
        m_chartView->setToolTip(
            tr("per-format fitted model: each variant's predicted time (the Advisor's, the "
               "Sweep's and spmvlab recommend's number)\ntraffic bound: the fewest DRAM bytes "
               "of any variant shown / B_GPU; no prediction lies above it\nKreutzer eq. 1: "
               "B_GPU / code balance at the \u03b1 chosen, one rate for every format; a bound "
               "only where no prediction lies above it (the paper reads x \u03b1 N_nzr times "
               "per row from DRAM and reads y too)"));
        auto* measured = new QBarSet(gpu ? tr("measured GFLOP/s") : tr("CPU reference GFLOP/s"));
        measured->setColor(toQColor(pal.measured));
        QStringList categories;
        // the three lines, named for what they are (timing_chart_lines, Qt-free)
        const auto lines = timing_chart_lines(
            std::span<const TimingRow>(rows.data(), static_cast<std::size_t>(rows.size())));
        const double alpha = lines.kreutzer_alpha > 0 ? lines.kreutzer_alpha : m_runAlpha;
        double top = qMax(lines.traffic_gflops, lines.kreutzer_gflops);
        double bottom = 0;
        // each variant's own prediction (the per-format fitted model), a marker on its bar
        auto* own = new QScatterSeries;
        for (const auto& r : rows) {
            const double x = static_cast<double>(categories.size());
            categories << QString::fromStdString(r.variant);
            top = qMax(top, qMax(r.gflops, r.model_gflops));
            for (const double v : {r.gflops, r.model_gflops}) {
                if (v > 0) bottom = bottom > 0 ? qMin(bottom, v) : v;
            }
            if (r.model_gflops > 0) own->append(x, r.model_gflops);
        }
        // the CPU is orders of magnitude below a GPU prediction: a log axis keeps both readable
        const bool logScale = bottom > 0 && top / bottom > 30;
        const auto range = logScale ? spmv::viz::decades(bottom, top * 1.2) : spmv::viz::Decades{};
        for (const auto& r : rows) {
            // a variant that did not run (r.error: out of memory, ...) has 0 GFLOP/s: on the
            // log axis its bar sits at the axis' floor (no height), as a 0 would place a bar
            // at log(0) (Qt Charts warns "Logarithms of zero ... are undefined" at every layout)
            *measured << (logScale && r.gflops <= 0 ? range.lo : r.gflops);
        }
        auto* series = new QBarSeries;
        series->append(measured);
        chart->addSeries(series);
        auto* x = new QBarCategoryAxis;
        x->append(categories);
        x->setLabelsFont(app.font(0.85));
        // many bars: vertical names, which Qt Charts cuts only by the chart's height (at -45
        // degrees it cuts them to the bar's width: "cusp..." for 27 variants)
        x->setLabelsAngle(categories.size() > 8 ? -90 : 0);
        chart->addAxis(x, Qt::AlignBottom);
        QAbstractAxis* y = nullptr;
        if (logScale) {
            auto* log = new QLogValueAxis;
            log->setBase(10);
            log->setRange(range.lo, range.hi);
            log->setLabelFormat(QStringLiteral("%g"));
            log->setMinorTickCount(8);
            y = log;
        } else {
            auto* lin = new QValueAxis;
            lin->setRange(0, qMax(1e-3, top * 1.08));
            lin->applyNiceNumbers();
            y = lin;
        }
        // in presentation mode the plot is too short for "(log scale)" beside the axis (Qt
        // Charts would cut it to "GFLOP/s (log ..."): the decades 0.1, 1, 10 say it, and the
        // chart's tooltip
        y->setTitleText(logScale && !app.presentationMode() ? tr("GFLOP/s (log scale)")
                                                            : tr("GFLOP/s"));
        if (logScale) {
            m_chartView->setToolTip(m_chartView->toolTip() +
                                    tr("\nThe GFLOP/s axis is logarithmic (decades)."));
        }
        y->setTitleFont(app.font());
        y->setLabelsFont(app.font(0.9));
        chart->addAxis(y, Qt::AlignLeft);
        series->attachAxis(x);
        series->attachAxis(y);
        auto addLine = [&](double value, const QString& name, const QString& key, double grey,
                           Qt::PenStyle style) {
            auto* line = new QLineSeries;
            line->setObjectName(key);
            line->setName(name);
            line->append(-0.5, value);
            line->append(static_cast<double>(categories.size()) - 0.5, value);
            QPen pen(toQColor(spmv::viz::mix(pal.text, pal.background, grey)));
            pen.setWidthF(app.lineWidth(2.5));
            pen.setStyle(style);
            line->setPen(pen);
            chart->addSeries(line);
            line->attachAxis(x);
            line->attachAxis(y);
        };
        if (lines.traffic_gflops > 0) {
            // the fewest DRAM bytes of any variant / B_GPU: no fitted prediction lies above it
            addLine(lines.traffic_gflops,
                    tr("traffic bound %1 GF/s").arg(lines.traffic_gflops, 0, 'f', 1),
                    QStringLiteral("traffic"), 0.15, Qt::SolidLine);
        }
        if (lines.kreutzer_gflops > 0) {
            // Kreutzer's eq. 1: one rate for every format. Called a bound only where no
            // prediction of this chart exceeds it; otherwise it says that it lies below
            const QString a = QString::number(alpha, 'f', 3);
            addLine(lines.kreutzer_gflops,
                    lines.kreutzer_is_bound
                        ? tr("Kreutzer eq. 1 bound (\u03b1 %1) %2 GF/s")
                              .arg(a)
                              .arg(lines.kreutzer_gflops, 0, 'f', 1)
                        : tr("Kreutzer eq. 1 (\u03b1 %1) %2 GF/s, below the model")
                              .arg(a)
                              .arg(lines.kreutzer_gflops, 0, 'f', 1),
                    QStringLiteral("kreutzer"), 0.45, Qt::DashLine);
        }
        if (own->count() > 0) {
            own->setName(tr("per-format fitted model (%1)")
                             .arg(QString::fromStdString(rows.front().model_profile)));
            own->setObjectName(QStringLiteral("model"));
            own->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
            own->setMarkerSize(12.0 * app.scale());
            own->setColor(toQColor(pal.predicted));
            QPen edge(toQColor(pal.text));
            edge.setWidthF(app.lineWidth(1.0));
            own->setPen(edge);
            chart->addSeries(own);
            own->attachAxis(x);
            own->attachAxis(y);
        } else {
            delete own;
        }
    }
    m_legend->showLegendOf(chart);
    replaceChart(m_chartView, chart);
}
