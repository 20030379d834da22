#include "distributionpanel.hpp"

#include <new>

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QThreadPool>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <QtConcurrent/QtConcurrentRun>

#include <spmv/dist/partition.hpp>
#include <spmv/dist/timeline.hpp>
#include <spmv/model/gpu_profile.hpp>
#include <spmv/viz/timeline_svg.hpp>

#include "appearance.hpp"
#include "chart_support.hpp"
#include "flowlayout.hpp"
#include "models/commmatrixmodel.hpp"

namespace {

using spmv::dist::Mode;

QThreadPool* distributionPool()
{
    // two threads: a plan (fast) never waits behind a scaling study (one partition per point)
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setMaxThreadCount(2);
        return p;
    }();
    return pool;
}

QString fromStd(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<int>(s.size()));
}

QString microseconds(double seconds)
{
    return QStringLiteral("%1 \u00b5s").arg(seconds * 1e6, 0, 'g', 3);
}

/// "rows", "nnz", "metis" ...: one-line title of a panel above its widget.
QWidget* titled(const QString& title, QWidget* content, QWidget* extra = nullptr)
{
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(title));
    label->setObjectName(QStringLiteral("panelTitle"));
    label->setWordWrap(true);  // a narrow column wraps its title rather than widening the window
    layout->addWidget(label);
    if (extra) layout->addWidget(extra);
    layout->addWidget(content, 1);
    return box;
}

QString modeName(Mode m)
{
    switch (m) {
        case Mode::vector:
            return QObject::tr("vector mode");
        case Mode::naive:
            return QObject::tr("naive overlap");
        case Mode::overlap:
            return QObject::tr("explicit overlap");
        case Mode::task:
            return QObject::tr("task mode");
    }
    return {};
}

struct PlanOutcome {
    DistributionPlanPtr plan;
    QString error;
};

struct ScalingOutcome {
    ScalingResultPtr result;
    QString error;
};

QString describe(const std::exception& e)
{
    return QString::fromStdString(e.what());
}

}  // namespace

DistributionPanel::DistributionPanel(QWidget* parent) : QWidget(parent)
{
    // ---- controls
    m_ranks = new QSpinBox;
    m_ranks->setRange(1, 1024);
    m_ranks->setValue(4);
    m_ranks->setKeyboardTracking(false);
    m_ranks->setToolTip(tr("Number of ranks (MPI processes, one GPU or CPU core each)"));

    m_partition = new QComboBox;
    m_partition->addItem(tr("rows"), QStringLiteral("rows"));
    m_partition->addItem(tr("nnz"), QStringLiteral("nnz"));
    m_partition->addItem(tr("metis"), QStringLiteral("metis"));
    m_partition->setItemData(0, tr("Contiguous blocks of (almost) equal row counts"),
                             Qt::ToolTipRole);
    m_partition->setItemData(1,
                             tr("Contiguous blocks of (almost) equal nonzero counts "
                                "(Cevahir et al. 3.3)"),
                             Qt::ToolTipRole);
    if (spmv::dist::has_metis()) {
        m_partition->setItemData(2, tr("METIS k-way partition of A + A^T: minimises the halo"),
                                 Qt::ToolTipRole);
    } else {
        if (auto* items = qobject_cast<QStandardItemModel*>(m_partition->model())) {
            items->item(2)->setEnabled(false);
        }
        m_partition->setItemData(2, tr("Not available: this build has no METIS (libmetis-dev)"),
                                 Qt::ToolTipRole);
    }
    m_partition->setCurrentIndex(1);  // nnz, as spmvlab dist plan

    m_device = new QComboBox;
    for (const auto& p : spmv::model::profiles()) {
        m_device->addItem(fromStd(p.name), QStringLiteral("gpu:%1").arg(fromStd(p.name)));
        m_device->setItemData(m_device->count() - 1, fromStd(p.note), Qt::ToolTipRole);
    }
    for (const auto& h : spmv::dist::hosts()) {
        m_device->addItem(tr("host %1").arg(fromStd(h.name)),
                          QStringLiteral("host:%1").arg(fromStd(h.name)));
        m_device->setItemData(m_device->count() - 1, fromStd(h.note), Qt::ToolTipRole);
    }
    m_device->setToolTip(tr("What every rank runs on (an ASSUMED profile; see each tooltip)"));

    m_link = new QComboBox;
    for (const auto& l : spmv::dist::links()) {
        m_link->addItem(fromStd(l.name), fromStd(l.name));
        m_link->setItemData(m_link->count() - 1,
                            tr("%1 GB/s, %2 \u00b5s per message. %3")
                                .arg(l.bandwidth_gbs, 0, 'g', 3)
                                .arg(l.latency_us, 0, 'g', 3)
                                .arg(fromStd(l.note)),
                            Qt::ToolTipRole);
    }
    m_link->setToolTip(tr("The network between the ranks (each profile's tooltip says where its "
                          "numbers come from: assumed, or measured like host-shm)"));

    m_precision = new QComboBox;
    m_precision->addItem(tr("DP"));
    m_precision->addItem(tr("SP"));
    m_precision->setToolTip(tr("Value size: double (8 bytes) or float (4 bytes)"));

    m_timelineRanks = new QComboBox;
    m_timelineRanks->addItem(tr("auto"));
    m_timelineRanks->addItem(tr("all ranks"));
    m_timelineRanks->addItem(tr("slowest"));
    m_timelineRanks->setToolTip(
        tr("Ranks drawn in the timelines: all, or per mode the slowest one (its time is the "
           "SpMV's); auto: all up to 2 ranks"));

    m_loadButton = new QPushButton(tr("Load timeline JSON..."));
    m_loadButton->setToolTip(tr("A timeline recorded by spmvlab dist bench --timeline"));
    m_clearButton = new QPushButton(tr("Use prediction"));
    m_clearButton->setEnabled(false);

    m_timelineModes = new QComboBox;
    m_timelineModes->addItem(tr("all four"), -1);
    for (auto m : spmv::dist::all_modes) {
        m_timelineModes->addItem(modeName(m), static_cast<int>(m));
    }
    m_timelineModes->setToolTip(
        tr("The modes whose timelines are drawn: all four, or one (presentation mode draws as "
           "many as fit with legible text)"));

    // the controls flow onto more lines in a narrow window (presentation mode at 1280 x 720)
    auto* bar = new FlowLayout(nullptr);
    bar->setSpacing(10);
    auto addPair = [&](const QString& label, QWidget* w) {
        bar->addWidget(flowPair(new QLabel(label), w));
    };
    addPair(tr("Ranks"), m_ranks);
    addPair(tr("Partition"), m_partition);
    addPair(tr("Device"), m_device);
    addPair(tr("Link"), m_link);
    addPair(tr("Precision"), m_precision);
    addPair(tr("Timeline ranks"), m_timelineRanks);
    addPair(tr("Modes"), m_timelineModes);
    bar->addWidget(m_loadButton);
    bar->addWidget(m_clearButton);

    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // ---- panels
    m_pattern = new RankPatternView;
    m_comm = new CommMatrixView;
    m_commModel = new CommMatrixModel(this);
    m_commTable = new QTableView;
    m_commTable->setModel(m_commModel);
    m_commTable->horizontalHeader()->setDefaultSectionSize(56);
    m_commTabs = new QTabWidget;
    m_commTabs->setDocumentMode(true);
    m_commTabs->addTab(m_comm, tr("heat map"));
    m_commTabs->addTab(m_commTable, tr("table"));
    m_balance = new BalanceView;
    m_timeline = new TimelineView;
    m_timelineSource = new QLabel;
    m_timelineSource->setWordWrap(true);
    m_timelineSource->setTextFormat(Qt::RichText);
    m_scalingView = new QChartView;
    m_scalingView->setRenderHint(QPainter::Antialiasing);
    m_scalingView->setMinimumSize(220, 170);

    m_panels = {titled(tr("1  Pattern by owning rank"), m_pattern),
                titled(tr("2  Communication: x entries sent per SpMV"), m_commTabs),
                titled(tr("3  Balance per rank"), m_balance),
                titled(tr("4  Timelines of one SpMV (Kreutzer Fig. 4)"), m_timeline,
                       m_timelineSource),
                titled(tr("5  Predicted strong scaling: time per SpMV (solid), parallel "
                          "efficiency (dashed)"),
                       m_scalingView)};
    m_lower = new QSplitter(Qt::Horizontal);
    m_left = new QSplitter(Qt::Vertical);
    m_left->addWidget(m_lower);
    m_right = new QSplitter(Qt::Vertical);
    m_columns = new QSplitter(Qt::Horizontal);
    m_columns->addWidget(m_left);
    m_columns->addWidget(m_right);
    // presentation mode: one panel at a time, as large as the view, behind tabs of their own
    m_pages = new QTabWidget;
    m_pages->setObjectName(QStringLiteral("distributionPages"));
    m_pages->setDocumentMode(true);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_summary);
    layout->addWidget(m_columns, 1);
    layout->addWidget(m_pages, 1);
    arrangePanels();
    connect(&Appearance::instance(), &Appearance::changed, this, &DistributionPanel::arrangePanels);

    // ---- wiring: the plan depends on everything, the scaling study on all but the ranks
    m_startDelay.setSingleShot(true);
    m_startDelay.setInterval(40);
    connect(&m_startDelay, &QTimer::timeout, this, &DistributionPanel::startDueJobs);
    connect(m_ranks, &QSpinBox::valueChanged, this, [this] { inputsChanged(planDue); });
    for (auto* box : {m_partition, m_device, m_link, m_precision}) {
        connect(box, &QComboBox::currentIndexChanged, this,
                [this] { inputsChanged(planDue | scalingDue); });
    }
    connect(m_timelineRanks, &QComboBox::currentIndexChanged, this,
            &DistributionPanel::updateTimelines);
    connect(m_timelineModes, &QComboBox::currentIndexChanged, this,
            &DistributionPanel::updateTimelines);
    connect(m_loadButton, &QPushButton::clicked, this, &DistributionPanel::chooseTimelineFile);
    connect(m_clearButton, &QPushButton::clicked, this, &DistributionPanel::clearTimeline);
    connect(&Appearance::instance(), &Appearance::changed, this, &DistributionPanel::showScaling);
    connect(m_pattern, &RankPatternView::renderFinished, this, [this] {
        if (!m_plan) return;
        const qint64 local = m_pattern->localEntries();
        const qint64 nonlocal = m_pattern->nonlocalEntries();
        if (local + nonlocal > 0) {
            emit statusMessage(tr("Pattern: %1 local and %2 non-local entries drawn")
                                   .arg(groupDigits(local), groupDigits(nonlocal)));
        }
    });
    // the defaults of spmvlab dist plan: H100 ranks over InfiniBand HDR
    selectDevice(QStringLiteral("H100"));
    selectLink(QStringLiteral("ib-hdr"));
    m_dirty = nothing;  // nothing to compute before a matrix arrives
    updateTimelines();
    showScaling();
}

void DistributionPanel::arrangePanels()
{
    // the grid of five panels at a desk; one panel a page in presentation mode, where five
    // side by side would leave each too small for text a lecture hall can read
    const bool pages = Appearance::instance().presentationMode();
    if (m_arranged && pages == m_paged) return;
    m_arranged = true;
    m_paged = pages;
    const int current = m_pages->currentIndex();
    // a page's tab names it: its title line above it goes (its words are the tab's tooltip),
    // a lecture-size line more for the panel
    for (auto* panel : m_panels) {
        if (auto* title = panel->findChild<QLabel*>(QStringLiteral("panelTitle"))) {
            title->setVisible(!pages);
        }
    }
    if (pages) {
        const QStringList names = {tr("1 Pattern"), tr("2 Communication"), tr("3 Balance"),
                                   tr("4 Timelines"), tr("5 Scaling")};
        for (int i = 0; i < 5; ++i) {
            m_pages->addTab(m_panels[i], names[i]);
            if (auto* title = m_panels[i]->findChild<QLabel*>(QStringLiteral("panelTitle"))) {
                m_pages->setTabToolTip(i, title->text());
            }
        }
    } else {
        while (m_pages->count() > 0) m_pages->removeTab(0);
        m_lower->addWidget(m_panels[1]);
        m_lower->addWidget(m_panels[2]);
        m_left->insertWidget(0, m_panels[0]);
        m_right->addWidget(m_panels[3]);
        m_right->addWidget(m_panels[4]);
        for (auto* panel : m_panels) panel->show();
        m_left->setStretchFactor(0, 3);
        m_left->setStretchFactor(1, 2);
        m_right->setStretchFactor(0, 5);
        m_right->setStretchFactor(1, 3);
        m_columns->setStretchFactor(0, 9);
        m_columns->setStretchFactor(1, 11);
    }
    m_pages->setVisible(pages);
    m_columns->setVisible(!pages);
    if (pages && current >= 0) m_pages->setCurrentIndex(current);
}

DistributionPanel::~DistributionPanel()
{
    // the jobs only touch what they captured by value; wait so that none outlives the process
    for (auto& f : m_futures) f.waitForFinished();
}

void DistributionPanel::setDocument(MatrixDocumentPtr document)
{
    m_document = std::move(document);
    ++m_planGeneration;  // results for the previous matrix are stale
    ++m_scalingGeneration;
    m_plan.reset();
    m_scaling.reset();
    m_scalingError.clear();
    m_pattern->setPartition(m_document, nullptr);
    m_comm->setStats(nullptr);
    m_balance->setStats(nullptr);
    m_commModel->resetData(nullptr);
    m_summary->setText(
        m_document ? tr("Computing the partition of %1 ...").arg(m_document->name.toHtmlEscaped())
                   : tr("No matrix loaded"));
    updateTimelines();
    showScaling();
    inputsChanged(planDue | scalingDue);
}

void DistributionPanel::inputsChanged(int what)
{
    m_dirty |= what;
    if (what & planDue) ++m_planGeneration;  // anything on its way is stale now
    if (what & scalingDue) ++m_scalingGeneration;
    if (isVisible()) m_startDelay.start();
}

void DistributionPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_dirty != nothing) m_startDelay.start();
}

bool DistributionPanel::isBusy() const
{
    return m_planPending > 0 || m_scalingPending > 0 || m_startDelay.isActive() ||
           m_pattern->isRendering() || (m_dirty != nothing && m_document && isVisible());
}

void DistributionPanel::startDueJobs()
{
    if (!m_document || !isVisible()) return;
    const int due = m_dirty;
    m_dirty = nothing;
    if (due & planDue) startPlan();
    if (due & scalingDue) startScaling();
}

spmv::dist::PartitionKind DistributionPanel::currentKind() const
{
    return spmv::dist::parse_partition_kind(m_partition->currentData().toString().toStdString());
}

spmv::dist::RankDevice DistributionPanel::currentDevice() const
{
    const QString d = m_device->currentData().toString();
    const std::string name = d.mid(d.indexOf(QLatin1Char(':')) + 1).toStdString();
    if (d.startsWith(QLatin1String("host:"))) return spmv::dist::find_host(name);
    return spmv::model::find_profile(name);
}

spmv::dist::ModelOptions DistributionPanel::currentOptions() const
{
    spmv::dist::ModelOptions o;
    o.precision = m_precision->currentIndex() == 0 ? spmv::model::Precision::double_precision
                                                   : spmv::model::Precision::single_precision;
    return o;
}

QString DistributionPanel::deviceLabel() const
{
    return m_device->currentText();
}

void DistributionPanel::startPlan()
{
    const quint64 generation = m_planGeneration;
    ++m_planPending;
    const auto options = currentOptions();
    const int valueBytes = options.precision == spmv::model::Precision::single_precision ? 4 : 8;
    auto job = [doc = m_document, kind = currentKind(), ranks = m_ranks->value(),
                device = currentDevice(),
                link = spmv::dist::find_link(m_link->currentData().toString().toStdString()),
                options, valueBytes]() {
        PlanOutcome o;
        try {
            auto plan = std::make_shared<DistributionPlan>();
            auto part = std::make_shared<spmv::dist::Partition>(
                spmv::dist::make_partition(doc->csr, kind, ranks));
            auto stats = std::make_shared<spmv::dist::PartitionStats>(
                spmv::dist::partition_stats(doc->csr, *part, valueBytes));
            plan->prediction = spmv::dist::predict_distributed(*stats, device, link, options);
            for (auto m : spmv::dist::all_modes) {
                auto t = spmv::dist::predicted_timeline(plan->prediction, m, 1);
                t.matrix = doc->name.toStdString();
                plan->predicted.push_back(std::move(t));
            }
            plan->partition = std::move(part);
            plan->stats = std::move(stats);
            o.plan = std::move(plan);
        } catch (const std::bad_alloc&) {
            o.error = tr("Out of memory: the matrix is too large for this partition.");
        } catch (const std::exception& e) {
            o.error = describe(e);
        }
        return o;
    };
    auto running = QtConcurrent::run(distributionPool(), std::move(job));
    running.then(this, [this, generation](PlanOutcome o) {
        --m_planPending;
        if (generation == m_planGeneration) {
            if (o.plan) {
                showPlan(std::move(o.plan));
            } else {
                showPlanError(o.error);
            }
            emit planFinished();
        }
    });
    std::erase_if(m_futures, [](const QFuture<void>& f) { return f.isFinished(); });
    m_futures.push_back(QFuture<void>(running));
}

void DistributionPanel::startScaling()
{
    const quint64 generation = m_scalingGeneration;
    ++m_scalingPending;
    auto job = [doc = m_document, kind = currentKind(), device = currentDevice(),
                link = spmv::dist::find_link(m_link->currentData().toString().toStdString()),
                options = currentOptions()]() {
        ScalingOutcome o;
        try {
            const auto ranks = scalingRanks(doc->csr.num_rows);
            o.result = std::make_shared<const spmv::dist::ScalingResult>(
                spmv::dist::predict_scaling(doc->csr, kind, ranks, device, link, options));
        } catch (const std::bad_alloc&) {
            o.error = tr("Out of memory: the matrix is too large for the scaling study.");
        } catch (const std::exception& e) {
            o.error = describe(e);
        }
        return o;
    };
    auto running = QtConcurrent::run(distributionPool(), std::move(job));
    running.then(this, [this, generation](ScalingOutcome o) {
        --m_scalingPending;
        if (generation == m_scalingGeneration) {
            m_scaling = std::move(o.result);
            m_scalingError = o.error;
            showScaling();
            emit scalingFinished();
        }
    });
    std::erase_if(m_futures, [](const QFuture<void>& f) { return f.isFinished(); });
    m_futures.push_back(QFuture<void>(running));
}

void DistributionPanel::showPlan(DistributionPlanPtr plan)
{
    m_plan = std::move(plan);
    const auto& s = *m_plan->stats;
    const auto& p = m_plan->prediction;
    m_pattern->setPartition(m_document, m_plan->partition);
    m_comm->setStats(m_plan->stats);
    m_commModel->resetData(m_plan->stats);
    m_balance->setStats(m_plan->stats);
    std::int64_t nonlocal = 0;
    for (const auto& r : s.ranks) nonlocal += r.nonlocal_nnz;
    const double share =
        s.nnz > 0 ? 100.0 * static_cast<double>(nonlocal) / static_cast<double>(s.nnz) : 0.0;
    m_summary->setText(
        tr("<b>%1</b>: %2 rows, %3 nonzeros over <b>%4 ranks</b> (%5 partition): "
           "%6 % of the nonzeros non-local, halo %7 entries of x per SpMV, up to %8 neighbours; "
           "imbalance rows %9, nnz %10. "
           "<span style='color:%11'><b>Model</b></span> (%12 ranks over %13): one SpMV takes "
           "vector %14 \u00b7 naive overlap %15 \u00b7 explicit overlap %16 \u00b7 task %17.")
            .arg(m_document->name.toHtmlEscaped(), groupDigits(s.num_rows), groupDigits(s.nnz))
            .arg(s.num_ranks)
            .arg(fromStd(spmv::dist::to_string(s.kind)))
            .arg(share, 0, 'f', 1)
            .arg(groupDigits(s.total_halo))
            .arg(s.max_neighbours)
            .arg(s.row_imbalance, 0, 'f', 3)
            .arg(s.nnz_imbalance, 0, 'f', 3)
            .arg(toQColor(Appearance::palette().predicted).name(), deviceLabel().toHtmlEscaped(),
                 fromStd(p.link).toHtmlEscaped(), microseconds(p.time_s.vector),
                 microseconds(p.time_s.naive), microseconds(p.time_s.overlap))
            .arg(microseconds(p.time_s.task)));
    updateTimelines();
    showScaling();
}

void DistributionPanel::showPlanError(const QString& message)
{
    m_plan.reset();
    m_pattern->setMessage(tr("No partition: %1").arg(message));
    m_comm->setStats(nullptr);
    m_balance->setStats(nullptr);
    m_commModel->resetData(nullptr);
    m_summary->setText(
        tr("<span style='color:%1'><b>The partition failed:</b> %2</span>")
            .arg(toQColor(Appearance::palette().padding).name(), message.toHtmlEscaped()));
    emit statusMessage(tr("Distribution: %1").arg(message));
    updateTimelines();
    showScaling();
}

void DistributionPanel::updateTimelines()
{
    const bool loaded = !m_loaded.empty();
    const std::vector<spmv::dist::Timeline> none;
    const auto& source = loaded ? m_loaded : (m_plan ? m_plan->predicted : none);
    int maxRanks = 0;
    for (const auto& t : source) maxRanks = std::max(maxRanks, t.num_ranks);
    const int choice = m_timelineRanks->currentIndex();
    const bool all = choice == 1 || (choice == 0 && maxRanks <= 2);
    auto shown = selectTimelineRanks(source, all ? TimelineRanks::all : TimelineRanks::slowest);
    const int mode = m_timelineModes->currentData().toInt();
    if (mode >= 0) {
        std::erase_if(shown, [mode](const spmv::dist::Timeline& t) {
            return static_cast<int>(t.mode) != mode;
        });
    }
    m_timeline->setTimelines(std::move(shown));
    m_clearButton->setEnabled(loaded);

    const QString predictedColour = toQColor(Appearance::palette().predicted).name();
    const QString which = all ? QString() : tr("; the slowest rank of each mode is drawn");
    if (!loaded) {
        m_timelineSource->setText(
            tr("<span style='color:%1'><b>PREDICTED by the model</b></span> \u2014 no recorded "
               "timeline loaded (%2 ranks over %3%4)")
                .arg(predictedColour, deviceLabel().toHtmlEscaped(),
                     m_link->currentData().toString().toHtmlEscaped(), which));
        return;
    }
    const auto& t = m_loaded.front();
    bool anyPredicted = false;
    for (const auto& l : m_loaded) anyPredicted = anyPredicted || l.predicted;
    QStringList what;
    if (!t.matrix.empty()) what << fromStd(t.matrix);
    what << (t.num_ranks == 1 ? tr("1 rank") : tr("%1 ranks").arg(t.num_ranks));
    if (!t.partition.empty()) what << tr("%1 partition").arg(fromStd(t.partition));
    if (!t.format.empty()) what << tr("format %1").arg(fromStd(t.format));
    if (!t.device.empty()) what << fromStd(t.device);
    if (!t.date.empty()) what << fromStd(t.date);
    const QString file = QFileInfo(m_loadedPath).fileName().toHtmlEscaped();
    const QString head =
        anyPredicted ? tr("<span style='color:%1'><b>PREDICTED by the model</b></span>, loaded "
                          "from %2")
                           .arg(predictedColour, file)
                     : tr("<b>Recorded</b> timeline %1").arg(file);
    const QString others = m_document ? tr(" \u2014 the other panels show %1 over %2 ranks")
                                            .arg(m_document->name.toHtmlEscaped())
                                            .arg(m_ranks->value())
                                      : QString();
    m_timelineSource->setText(
        QStringLiteral("%1: %2%3%4")
            .arg(head, what.join(QStringLiteral(", ")).toHtmlEscaped(), others, which));
}

bool DistributionPanel::loadTimeline(const QString& path, QString* error)
{
    auto fail = [&](const QString& message) {
        const QString m = QStringLiteral("%1: %2").arg(path, message);
        if (error) *error = m;
        emit statusMessage(tr("Could not load the timeline: %1").arg(m));
        return false;
    };
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return fail(f.errorString());
    const QByteArray text = f.readAll();
    std::vector<spmv::dist::Timeline> timelines;
    try {
        timelines = spmv::dist::timelines_from_json(
            std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
    } catch (const std::exception& e) {
        return fail(describe(e));
    }
    if (timelines.empty()) return fail(tr("no timelines in the file"));
    try {
        (void)spmv::viz::timeline_layout(timelines);  // a file the picture cannot draw
    } catch (const std::exception& e) {
        return fail(describe(e));
    }
    m_loaded = std::move(timelines);
    m_loadedPath = path;
    updateTimelines();
    emit statusMessage(tr("Loaded %1 timeline(s) from %2").arg(m_loaded.size()).arg(path));
    return true;
}

void DistributionPanel::clearTimeline()
{
    m_loaded.clear();
    m_loadedPath.clear();
    updateTimelines();
}

void DistributionPanel::chooseTimelineFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Load timeline"), QString(),
                                                      tr("Timeline JSON (*.json);;All files (*)"));
    if (path.isEmpty()) return;
    QString error;
    if (!loadTimeline(path, &error)) {
        m_timelineSource->setText(tr("<span style='color:%1'><b>Not loaded:</b> %2</span><br>%3")
                                      .arg(toQColor(Appearance::palette().padding).name(),
                                           error.toHtmlEscaped(), m_timelineSource->text()));
    }
}

bool DistributionPanel::selectPartition(const QString& name)
{
    const int i = m_partition->findData(name.toLower());
    if (i < 0) return false;
    if (auto* items = qobject_cast<QStandardItemModel*>(m_partition->model())) {
        if (!items->item(i)->isEnabled()) return false;
    }
    m_partition->setCurrentIndex(i);
    return true;
}

bool DistributionPanel::selectLink(const QString& name)
{
    const int i = m_link->findData(name.toLower());
    if (i < 0) return false;
    m_link->setCurrentIndex(i);
    return true;
}

bool DistributionPanel::selectDevice(const QString& name)
{
    for (int i = 0; i < m_device->count(); ++i) {
        const QString d = m_device->itemData(i).toString();
        if (d.mid(d.indexOf(QLatin1Char(':')) + 1).compare(name, Qt::CaseInsensitive) == 0) {
            m_device->setCurrentIndex(i);
            return true;
        }
    }
    return false;
}

void DistributionPanel::showScaling()
{
    const auto& app = Appearance::instance();
    auto* chart = newStyledChart();
    if (!m_scaling) {
        chart->setTitle(!m_scalingError.isEmpty()
                            ? tr("No scaling curve: %1").arg(m_scalingError)
                            : (m_document ? tr("Predicting the scaling ...") : QString()));
        replaceChart(m_scalingView, chart);
        return;
    }
    const ScalingChart c = scalingChart(*m_scaling);
    chart->setTitle(tr("PREDICTED by the model: %1 ranks over %2, %3 partition")
                        .arg(deviceLabel(), fromStd(m_scaling->link),
                             fromStd(spmv::dist::to_string(m_scaling->kind))));
    chart->setTitleFont(app.font(1.0, true));
    // the chart is wide and low at a desk: the legend on the right; a page of its own in
    // presentation mode is as tall as wide: below, where its five entries are not cut
    chart->legend()->setAlignment(app.presentationMode() ? Qt::AlignBottom : Qt::AlignRight);
    chart->legend()->setFont(app.font(0.9));
    const int selected = m_plan ? m_plan->stats->num_ranks : 0;
    auto* x = new QLogValueAxis;
    x->setBase(2);
    x->setRange(c.minRanks, std::max({c.maxRanks, selected, c.minRanks * 2}));
    x->setLabelFormat(QStringLiteral("%g"));
    x->setMinorTickCount(0);
    x->setTitleText(tr("ranks P"));
    auto* t = new QLogValueAxis;
    t->setBase(10);
    t->setRange(c.timeRange.lo, c.timeRange.hi);
    t->setLabelFormat(QStringLiteral("%g"));
    t->setMinorTickCount(8);
    t->setTitleText(tr("\u00b5s"));  // per SpMV: the section's title says so
    auto* e = new QValueAxis;
    e->setRange(0, c.maxEfficiency);
    e->setLabelFormat(QStringLiteral("%.1f"));
    e->setTitleText(tr("efficiency"));
    for (auto* a : {static_cast<QAbstractAxis*>(x), static_cast<QAbstractAxis*>(t),
                    static_cast<QAbstractAxis*>(e)}) {
        a->setTitleFont(app.font(0.9));
        a->setLabelsFont(app.font(0.85));
    }
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(t, Qt::AlignLeft);
    chart->addAxis(e, Qt::AlignRight);
    for (const auto& s : c.series) {
        const QColor colour = toQColor(modeColour(s.mode));
        auto* time = new QLineSeries;
        time->setName(modeName(s.mode));
        for (const auto& pt : s.timeUs) time->append(pt.x, pt.y);
        QPen tp(colour);
        tp.setWidthF(app.lineWidth(2.5));
        time->setPen(tp);
        time->setPointsVisible(true);
        chart->addSeries(time);
        time->attachAxis(x);
        time->attachAxis(t);
        auto* eff = new QLineSeries;
        eff->setName(tr("%1 efficiency").arg(modeName(s.mode)));
        for (const auto& pt : s.efficiency) eff->append(pt.x, pt.y);
        QPen ep(colour);
        ep.setWidthF(app.lineWidth(1.8));
        ep.setStyle(Qt::DashLine);
        eff->setPen(ep);
        chart->addSeries(eff);
        eff->attachAxis(x);
        eff->attachAxis(e);
        for (auto* marker : chart->legend()->markers(eff)) marker->setVisible(false);
    }
    if (m_plan && selected > 0) {
        auto* here = new QScatterSeries;
        here->setName(tr("P = %1 (this view)").arg(selected));
        for (auto m : spmv::dist::all_modes) {
            const double us = m_plan->prediction.time_s[m] * 1e6;
            if (us > 0) here->append(selected, us);
        }
        here->setColor(toQColor(Appearance::palette().text));
        here->setBorderColor(toQColor(Appearance::palette().text));
        here->setMarkerSize(9 * app.scale());
        chart->addSeries(here);
        here->attachAxis(x);
        here->attachAxis(t);
    }
    replaceChart(m_scalingView, chart);
}
