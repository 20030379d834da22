#include "mainwindow.hpp"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QStylePainter>
#include <QTimer>
#include <QSvgGenerator>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBlock>
#include <QTextCharFormat>
#include <QTextFragment>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QVBoxLayout>

#include <spmv/build_info.hpp>
#include <spmv/registry.hpp>
#include <spmv/version.hpp>
#include <spmv/viz/glossary.hpp>

#include "generatedialog.hpp"
#include "models/matrixstatsmodel.hpp"
#include "session/outputfile.hpp"
#include "widgets/advisorview.hpp"
#include "widgets/appearance.hpp"
#include "widgets/coalescingview.hpp"
#include "widgets/constructionpanel.hpp"
#include "widgets/distributionpanel.hpp"
#include "widgets/flowlayout.hpp"
#include "widgets/layoutview.hpp"
#include "widgets/memoryview.hpp"
#include "widgets/modelpanel.hpp"
#include "widgets/parameterbar.hpp"
#include "widgets/reorderview.hpp"
#include "widgets/rowhistogramview.hpp"
#include "widgets/solverpanel.hpp"
#include "widgets/sparsityview.hpp"
#include "widgets/sweepview.hpp"
#include "widgets/timingpanel.hpp"
#include "widgets/warpwastepanel.hpp"
#include "widgets/warpwasteview.hpp"
#include "widgets/warptimelineview.hpp"  // issue 34: warps (measured)

namespace {

QString fromView(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<int>(s.size()));
}

/// The views' tab bar: along the top when every title fits there, else down the left side
/// with its titles written horizontally (Qt turns them on their side), one title a line: at
/// 1280 x 720 in presentation mode fourteen titles of 20 px text need 1,600 px across but
/// only 14 x 32 px down, and a 16:9 view has width to spare beside a picture that is as tall
/// as the window lets it be. No tab ever hides behind scroll arrows.
class ViewTabBar : public QTabBar {
public:
    bool side() const { return shape() == QTabBar::RoundedWest || shape() == QTabBar::TriangularWest; }

    /// Width the titles need side by side along the top in `font` (the bar's font follows
    /// the application's a moment later).
    int widthAlongTop(const QFont& font) const
    {
        int w = 0;
        for (int i = 0; i < count(); ++i) w += topSize(i, font).width();
        return w;
    }

    /// Along the top the bar never widens the window: MainWindow::placeTabs moves it to the
    /// side when its titles do not fit.
    QSize minimumSizeHint() const override
    {
        if (side() || count() == 0) return QTabBar::minimumSizeHint();
        return {tabSizeHint(0).width(), QTabBar::minimumSizeHint().height()};
    }

protected:
    QSize topSize(int i, const QFont& f) const
    {
        const QFontMetrics fm(f);
        const int hspace = style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, this);
        return {fm.horizontalAdvance(tabText(i)) + hspace + 2,
                fm.height() + style()->pixelMetric(QStyle::PM_TabBarTabVSpace, nullptr, this)};
    }

    QSize tabSizeHint(int i) const override
    {
        if (!side()) return QTabBar::tabSizeHint(i);
        // one line of text and a third of a line around it
        const QFontMetrics fm(font());
        return {topSize(i, font()).width() + fm.averageCharWidth(), fm.height() * 4 / 3};
    }

    QSize minimumTabSizeHint(int i) const override { return tabSizeHint(i); }

    void paintEvent(QPaintEvent* event) override
    {
        if (!side()) {
            QTabBar::paintEvent(event);
            return;
        }
        QStylePainter painter(this);
        for (int i = 0; i < count(); ++i) {
            QStyleOptionTab opt;
            initStyleOption(&opt, i);
            painter.drawControl(QStyle::CE_TabBarTabShape, opt);
            // the label as a top tab draws it, in the tab's rectangle: horizontal
            opt.shape = QTabBar::RoundedNorth;
            painter.drawControl(QStyle::CE_TabBarTabLabel, opt);
        }
    }
};

class ViewTabs : public QTabWidget {
public:
    ViewTabs() { setTabBar(new ViewTabBar); }
    ViewTabBar* bar() const { return static_cast<ViewTabBar*>(tabBar()); }
};

QWidget* withToolbar(QWidget* view, QLayout* toolbar)
{
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(toolbar);
    layout->addWidget(view, 1);
    return page;
}

}  // namespace

MainWindow::MainWindow(bool interactive, QWidget* parent)
    : QMainWindow(parent), m_interactive(interactive), m_controller(new AnalysisController(this))
{
    setAcceptDrops(true);
    m_tabs = new ViewTabs;
    m_tabs->setDocumentMode(true);
    m_tabs->setUsesScrollButtons(false);  // every view reachable: placeTabs() finds room
    m_tabs->setElideMode(Qt::ElideNone);

    // matrix statistics
    m_statsModel = new MatrixStatsModel(this);
    m_statsTable = new QTableView;
    m_statsTable->setModel(m_statsModel);
    m_statsTable->verticalHeader()->hide();
    m_statsTable->horizontalHeader()->setStretchLastSection(true);
    m_statsTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_statsTable->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_statsTable->setAlternatingRowColors(true);
    m_tabs->addTab(m_statsTable, tr("Matrix"));

    // sparsity pattern
    m_sparsity = new SparsityView;
    m_rowOrder = new QComboBox;
    m_rowOrder->addItem(tr("original row order"), QString());
    for (const auto& f : spmv::formats()) {
        if (f.permuted) {
            m_rowOrder->addItem(tr("row order of %1").arg(fromView(f.title)), fromView(f.name));
        }
    }
    // the controls flow onto a second line in a narrow window (presentation mode)
    auto* patternBar = new FlowLayout(nullptr);
    patternBar->setSpacing(10);
    patternBar->addWidget(flowPair(new QLabel(tr("Rows in")), m_rowOrder));
    m_patternColour = new QComboBox;
    m_patternColour->setObjectName(QStringLiteral("patternColour"));
    m_patternColour->addItem(tr("density"), static_cast<int>(spmv::viz::PatternColouring::density));
    m_patternColour->addItem(tr("sign"), static_cast<int>(spmv::viz::PatternColouring::sign));
    m_patternColour->addItem(tr("magnitude"),
                             static_cast<int>(spmv::viz::PatternColouring::magnitude));
    connect(m_patternColour, &QComboBox::currentIndexChanged, this, [this] {
        m_sparsity->setColouring(
            static_cast<spmv::viz::PatternColouring>(m_patternColour->currentData().toInt()));
    });
    m_patternMargins = new QCheckBox(tr("counts per row / column"));
    m_patternMargins->setChecked(true);
    connect(m_patternMargins, &QCheckBox::toggled, m_sparsity, &SparsityView::setMarginsShown);
    patternBar->addWidget(flowPair(new QLabel(tr("Colour by")), m_patternColour));
    patternBar->addWidget(m_patternMargins);
    // how to move around, where it is needed (the pattern's tooltip), not on a line of its own
    m_sparsity->setToolTip(tr("Wheel: zoom, drag: pan, double-click: whole matrix"));
    m_tabs->addTab(withToolbar(m_sparsity, patternBar), tr("Pattern"));

    // reorderings side by side (RCM, METIS nested dissection)
    m_reorder = new ReorderView;
    m_tabs->addTab(m_reorder, tr("Reorder"));

    // histogram
    m_histogram = new RowHistogramView;
    m_logScale = new QCheckBox(tr("logarithmic counts"));
    m_logLengths = new QCheckBox(tr("logarithmic lengths"));
    m_logLengths->setToolTip(tr("For heavy tails (power laws): lengths on a log axis"));
    auto* histBar = new QHBoxLayout;
    histBar->addWidget(m_logScale);
    histBar->addWidget(m_logLengths);
    histBar->addStretch(1);
    m_tabs->addTab(withToolbar(m_histogram, histBar), tr("Histogram"));

    m_construction = new ConstructionPanel(m_controller);
    m_tabs->addTab(m_construction, tr("Construction"));
    m_waste = new WarpWastePanel(m_controller);
    m_tabs->addTab(m_waste, tr("Warp waste"));
    m_coalescing = new CoalescingView;
    m_tabs->addTab(m_coalescing, tr("Coalescing"));
    m_memory = new MemoryView;
    m_tabs->addTab(m_memory, tr("Memory"));
    m_sweep = new SweepView;
    m_tabs->addTab(m_sweep, tr("Sweep"));
    m_timing = new TimingPanel(m_controller);
    m_tabs->addTab(m_timing, tr("Timing"));
    m_model = new ModelPanel;
    m_tabs->addTab(m_model, tr("Model"));
    m_advisor = new AdvisorView;
    m_advisor->setFormatMemoryLimit(m_controller->formatMemoryLimit());
    m_tabs->addTab(m_advisor, tr("Advisor"));
    m_solver = new SolverPanel(m_controller);
    m_tabs->addTab(m_solver, tr("Solver"));
    m_distribution = new DistributionPanel;
    m_tabs->addTab(m_distribution, tr("Distribution"));
    // issue 34, the GPU's own warps: a timeline file of spmvlab bench --gpu --warp-timeline
    m_warpTimeline = new WarpTimelineView;
    m_tabs->addTab(m_warpTimeline, tr("Warps (measured)"));
    connect(m_warpTimeline, &WarpTimelineView::statusMessage, statusBar(),
            [this](const QString& m) { statusBar()->showMessage(m, 15000); });
    // one parameter bar above every view (the Histogram, Memory, Warp waste and Construction
    // views all read b_r, C, sigma, the warp size, ...): the panels' own boxes are hidden
    m_parameters = new ParameterBar(m_controller);
    m_construction->setParameterBoxesShown(false);
    m_waste->setWarpBoxShown(false);
    auto* central = new QWidget;
    auto* column = new QVBoxLayout(central);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(m_parameters);
    column->addWidget(m_tabs, 1);
    setCentralWidget(central);

    m_busyLabel = new QLabel;
    m_busyBar = new QProgressBar;
    m_busyBar->setRange(0, 0);
    m_busyBar->setMaximumWidth(120);
    m_busyBar->setVisible(false);
    statusBar()->addPermanentWidget(m_busyLabel);
    statusBar()->addPermanentWidget(m_busyBar);

    buildMenus();

    // wiring: staged results from the controller to the views
    connect(m_controller, &AnalysisController::loadingStarted, this,
            [this](const QString& what) { statusBar()->showMessage(what); });
    connect(m_controller, &AnalysisController::documentAvailable, this,
            [this](MatrixDocumentPtr doc) {
                m_statsModel->resetData(doc);
                setRunnable(true);
                m_sparsity->setDocument(doc);
                m_model->setDocument(doc);
                m_distribution->setDocument(doc);
                // hidden on-demand views drop the old matrix now and get the new one when shown
                m_coalescing->setDocument(nullptr);
                m_sweep->setDocument(nullptr);
                m_reorder->setDocument(nullptr);
                m_advisor->setDocument(nullptr);
                feedShownView();
                m_memory->setSummaries(nullptr);
                m_histogram->setChartData(nullptr, m_controller->params().block_rows);
                m_construction->layoutView()->setConstruction(nullptr);
                for (int side = 0; side < 2; ++side)
                    m_waste->view(side)->setWaste(nullptr, QString());
                updateTitle();
                const auto& p = m_controller->params();
                statusBar()->showMessage(
                    tr("Loaded %1 (%2 s); warp %3, b_r %4, SELL-%5-%6%7")
                        .arg(doc->name)
                        .arg(doc->loadSeconds, 0, 'f', 2)
                        .arg(p.warp_size)
                        .arg(p.block_rows)
                        .arg(p.slice_height)
                        .arg(p.sort_window)
                        .arg(m_controller->userParams()
                                 ? tr(" (yours)")
                                 : doc->stats.rows > AnalysisController::blackboardRows
                                       ? tr(" (for a large matrix)")
                                       : tr(" (blackboard size)")),
                    8000);
            });
    connect(m_controller, &AnalysisController::histogramAvailable, this,
            [this](HistogramChartPtr c) {
                m_histogram->setChartData(std::move(c), m_controller->params().block_rows);
            });
    connect(m_controller, &AnalysisController::summariesAvailable, this, [this](SummariesPtr s) {
        m_memory->setSummaries(std::move(s), m_controller->params(),
                               m_controller->formatMemoryLimit());
    });
    connect(m_controller, &AnalysisController::rowOrderAvailable, this, [this](RowOrderPtr order) {
        const QString name = m_rowOrder->currentData().toString();
        m_sparsity->setRowOrder(
            std::move(order),
            name.isEmpty() ? QString() : fromView(spmv::find_format(name.toStdString()).title));
    });
    connect(m_controller, &AnalysisController::errorOccurred, this, &MainWindow::reportError);
    connect(m_controller, &AnalysisController::analysisFailed, this,
            [this](const QString& what, const QString& message) {
                if (what == QLatin1String("load") && !m_controller->document()) {
                    // nothing loaded: every view says so instead of "computing ..." forever,
                    // and the run buttons stay off until a matrix is there
                    const QString none = tr("no matrix loaded (%1)").arg(message);
                    m_histogram->setError(none);
                    m_construction->layoutView()->setError(none);
                    m_waste->view(0)->setError(none);
                    m_waste->view(1)->setError(none);
                    m_memory->setError(none);
                    setRunnable(false);
                    return;
                }
                if (what == QLatin1String("histogram")) m_histogram->setError(message);
                if (what == QLatin1String("construction"))
                    m_construction->layoutView()->setError(message);
                if (what == QLatin1String("waste0")) m_waste->view(0)->setError(message);
                if (what == QLatin1String("waste1")) m_waste->view(1)->setError(message);
                if (what == QLatin1String("summaries")) m_memory->setError(message);
            });
    connect(m_controller, &AnalysisController::busyChanged, this, [this](bool busy) {
        m_busyBar->setVisible(busy);
        m_busyLabel->setText(busy ? tr("computing ...") : QString());
    });
    connect(m_controller, &AnalysisController::patternInfoAvailable, m_sparsity,
            &SparsityView::setPatternInfo);
    connect(m_rowOrder, &QComboBox::currentIndexChanged, this,
            [this] { m_controller->setRowOrderFormat(m_rowOrder->currentData().toString()); });
    connect(m_logScale, &QCheckBox::toggled, m_histogram, &RowHistogramView::setLogScale);
    connect(m_logLengths, &QCheckBox::toggled, m_histogram, &RowHistogramView::setLogLengths);
    // one GPU profile for the Model, Timing, Sweep and Advisor views: choosing it in one
    // chooses it in the others (they start on the Timing's, today's GPU)
    m_model->selectProfile(m_timing->profileBox()->currentText());
    m_sweep->selectProfile(m_timing->profileBox()->currentText());
    m_advisor->selectProfile(m_timing->profileBox()->currentText());
    for (QComboBox* box : {m_model->profileBox(), m_timing->profileBox(), m_sweep->profileBox(),
                           m_advisor->profileBox()}) {
        connect(box, &QComboBox::currentTextChanged, this, [this](const QString& name) {
            m_model->selectProfile(name);
            m_timing->selectProfile(name);
            m_sweep->selectProfile(name);
            m_advisor->selectProfile(name);
        });
    }
    // one precision for the Timing (its format-model column) and the Advisor
    m_advisor->precisionBox()->setCurrentIndex(m_timing->precisionBox()->currentIndex());
    for (QComboBox* box : {m_timing->precisionBox(), m_advisor->precisionBox()}) {
        connect(box, &QComboBox::currentIndexChanged, this, [this](int i) {
            m_timing->precisionBox()->setCurrentIndex(i);
            m_advisor->precisionBox()->setCurrentIndex(i);
        });
    }
    // the views that cost seconds on a large matrix (every kernel's layout, a sweep of
    // layouts, nested dissection) get the matrix when they are shown, not on every load: the analyses of a 1M-row
    // matrix stay within the 10 s bar (docs/benchmarks/gui.md)
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::feedShownView);
    connect(m_controller, &AnalysisController::paramsChanged, this,
            [this](const spmv::FormatParams& params) {
                m_coalescing->setParams(params);
                m_sweep->setParams(params);
                m_reorder->setParams(params);
                m_advisor->setParams(params, m_controller->sortWindowAdvised());  // issue 34
            });
    m_coalescing->setParams(m_controller->params());
    m_sweep->setParams(m_controller->params());
    m_reorder->setParams(m_controller->params());
    m_advisor->setParams(m_controller->params(), m_controller->sortWindowAdvised());
    // a view's hover text ("Row 5, column 3: ...") means nothing on the next view
    connect(m_tabs, &QTabWidget::currentChanged, statusBar(), &QStatusBar::clearMessage);
    for (auto* source : {static_cast<QObject*>(m_sparsity), static_cast<QObject*>(m_waste),
                         static_cast<QObject*>(m_timing), static_cast<QObject*>(m_solver),
                         static_cast<QObject*>(m_distribution)}) {
        connect(source, SIGNAL(statusMessage(QString)), statusBar(), SLOT(showMessage(QString)));
    }
    m_tabs->installEventFilter(this);  // placeTabs() when the views' room changes
    m_presentationResize = new QTimer(this);
    m_presentationResize->setSingleShot(true);
    m_presentationResize->setInterval(150);
    connect(m_presentationResize, &QTimer::timeout, this, [this] {
        if (Appearance::instance().presentationMode()) setPresentationMode(true);
    });
    resize(1200, 800);
    setRunnable(false);
    updateTitle();
    // the tab bar has the keyboard first, not the parameter bar's first spin box, which would
    // take a presenter's Page Down / Right / Space for itself
    m_tabs->tabBar()->setFocus();
}

void MainWindow::setRunnable(bool on)
{
    // the buttons that start work on the loaded matrix (construction Play, Time, Run)
    const QString why = on ? QString() : tr("Open or generate a matrix first");
    for (auto* page : {static_cast<QWidget*>(m_construction), static_cast<QWidget*>(m_timing),
                       static_cast<QWidget*>(m_solver)}) {
        if (on && ((page == m_timing && m_timing->isRunning()) ||
                   (page == m_solver && m_solver->isRunning()))) {
            continue;
        }
        for (auto* b : page->findChildren<QPushButton*>(QStringLiteral("runButton"))) {
            b->setEnabled(on);
            b->setToolTip(why);
        }
    }
}

MainWindow::~MainWindow() = default;

QStringList MainWindow::viewNames()
{
    return {QStringLiteral("matrix"),     QStringLiteral("pattern"),
            QStringLiteral("reorder"),
            QStringLiteral("histogram"),  QStringLiteral("construction"),
            QStringLiteral("waste"),      QStringLiteral("coalescing"),
            QStringLiteral("memory"),     QStringLiteral("sweep"),
            QStringLiteral("timing"),     QStringLiteral("model"),
            QStringLiteral("advisor"),
            QStringLiteral("solver"),     QStringLiteral("distribution"),
            QStringLiteral("warps")};
}

QWidget* MainWindow::viewPage(const QString& name) const
{
    const int i = static_cast<int>(viewNames().indexOf(name));
    return i < 0 ? nullptr : m_tabs->widget(i);
}

QWidget* MainWindow::viewContent(const QString& name) const
{
    // what File > Export writes: the picture without the controls above it, and the
    // construction at its full extent (the layout widget, not the scrolled viewport)
    if (name == QLatin1String("pattern")) return m_sparsity;
    if (name == QLatin1String("histogram")) return m_histogram;
    if (name == QLatin1String("construction")) return m_construction->layoutView();
    return viewPage(name);
}

bool MainWindow::setCurrentView(const QString& name)
{
    const int i = static_cast<int>(viewNames().indexOf(name));
    if (i < 0) return false;
    m_tabs->setCurrentIndex(i);
    return true;
}

QString MainWindow::currentViewName() const
{
    return viewNames().value(m_tabs->currentIndex());
}

void MainWindow::buildMenus()
{
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open Matrix Market file ..."), QKeySequence::Open, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open matrix"), QString(),
            tr("Matrix Market, plain, compressed or a SuiteSparse archive (*.mtx *.mtx.gz "
               "*.mtx.bz2 *.mtx.xz *.mtx.zst *.tar.gz *.tgz *.tar.xz *.tar.bz2 *.tar);;"
               "All files (*)"));
        if (!path.isEmpty()) openFile(path);
    });
    auto* samples = file->addMenu(tr("Open &sample"));
    for (const auto& [label, path] : sampleMatrices()) {
        const QString p = path;
        samples->addAction(label, this, [this, p] { openFile(p); });
    }
    file->addAction(tr("&Generate ..."), QKeySequence(Qt::CTRL | Qt::Key_G), this,
                    &MainWindow::showGenerateDialog);
    file->addAction(tr("Open warp &timeline (measured on a GPU) ..."), this, [this] {
        m_warpTimeline->openTimeline();  // issue 34
        setCurrentView(QStringLiteral("warps"));
    });
    file->addSeparator();
    file->addAction(tr("Export view as &PNG ..."), this,
                    [this] { exportCurrentView(QStringLiteral("png")); });
    file->addAction(tr("Export view as S&VG ..."), this,
                    [this] { exportCurrentView(QStringLiteral("svg")); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::closeAllWindows);

    auto* view = menuBar()->addMenu(tr("&View"));
    auto* presentation = view->addAction(tr("&Presentation mode (large fonts, thick lines)"));
    presentation->setCheckable(true);
    presentation->setObjectName(QStringLiteral("presentationAction"));
    presentation->setShortcut(QKeySequence(Qt::Key_F5));
    connect(presentation, &QAction::toggled, this, &MainWindow::setPresentationMode);
    view->addSeparator();
    const QStringList names = viewNames();
    for (int i = 0; i < names.size(); ++i) {
        // Ctrl+1 .. Ctrl+9, then Ctrl+0 for the tenth view
        const QKeySequence key =
            i < 10 ? QKeySequence(QStringLiteral("Ctrl+%1").arg((i + 1) % 10)) : QKeySequence();
        view->addAction(m_tabs->tabText(i), key, this, [this, i] { m_tabs->setCurrentIndex(i); });
    }
    // the guided tour: one entry per tutorial lesson (tutorials/NN/explorer.json)
    auto* lessonsMenu = menuBar()->addMenu(tr("&Lessons"));
    m_lessons = loadLessons();
    for (const Lesson& lesson : m_lessons) {
        auto* action = lessonsMenu->addAction(lesson.title);
        action->setObjectName(QStringLiteral("lesson_%1").arg(lesson.id));
        if (!lesson.error.isEmpty()) {
            action->setEnabled(false);
            action->setToolTip(lesson.error);
            continue;
        }
        connect(action, &QAction::triggered, this, [this, lesson] { openLesson(lesson); });
    }
    lessonsMenu->setToolTipsVisible(true);
    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Glossary (N_iter, N_p, b_r, \u03c3, code balance, ...)"),
                    QKeySequence::HelpContents, this, &MainWindow::showGlossary);
    help->addAction(tr("&About SpMV Lab"), this, [this] {
        QMessageBox::about(
            this, tr("About SpMV Lab"),
            tr("<p><b>SpMV Lab explorer</b></p><p>Sparse matrix formats on GPUs: "
               "ELLPACK, pJDS, SELL-C-\u03c3 and friends, built step by step, with "
               "their padding, warp waste, memory and speed.</p>"
               "<p>Version %1, commit %2; Qt %3.</p>")
                .arg(QStringLiteral(SPMV_VERSION_STRING), QStringLiteral(SPMV_GIT_COMMIT),
                     QString::fromLatin1(qVersion())));
    });
}

bool MainWindow::selectFormat(const QString& name, const QString& format)
{
    auto select = [&format](QComboBox* box) {
        const int i = box->findData(format);
        if (i < 0) return false;
        box->setCurrentIndex(i);
        return true;
    };
    if (name == QLatin1String("construction")) return select(m_construction->formatBox());
    if (name == QLatin1String("waste")) return select(m_waste->formatBox(0));
    if (name == QLatin1String("solver")) return select(m_solver->formatBox());
    if (name == QLatin1String("pattern")) return select(m_rowOrder);
    return false;
}

bool MainWindow::openLesson(const Lesson& lesson)
{
    if (!lesson.error.isEmpty()) {
        reportError(lesson.error);
        return false;
    }
    // parameters first: the analyses of the lesson's matrix use them
    if (!lesson.params.isEmpty()) {
        spmv::FormatParams params = m_controller->params();
        params.warp_size = lesson.params.value(QStringLiteral("warp"), params.warp_size);
        params.block_rows = lesson.params.value(QStringLiteral("br"), params.block_rows);
        params.slice_height = lesson.params.value(QStringLiteral("slice"), params.slice_height);
        params.sort_window = lesson.params.value(QStringLiteral("sigma"), params.sort_window);
        m_controller->setParams(params);
    }
    if (!lesson.format.isEmpty() && !selectFormat(lesson.view, lesson.format)) {
        reportError(tr("Lesson %1: the %2 view has no format '%3'")
                        .arg(lesson.id, lesson.view, lesson.format));
    }
    if (!lesson.profile.isEmpty()) {
        m_timing->selectProfile(lesson.profile);
        m_model->selectProfile(lesson.profile);
        m_distribution->selectDevice(lesson.profile);
    }
    if (lesson.ranks > 0) m_distribution->ranksBox()->setValue(lesson.ranks);
    if (lesson.matrix.startsWith(QLatin1String("gen:"))) {
        QString error;
        const auto spec = parseGeneratorSpec(lesson.matrix, &error);
        if (!spec) {
            reportError(tr("Lesson %1: %2").arg(lesson.id, error));
            return false;
        }
        m_controller->generate(spec->generator, spec->params, spec->seed);
    } else {
        openFile(lesson.matrix);
    }
    setCurrentView(lesson.view);
    if (!m_lessonDock) {
        m_lessonDock = new QDockWidget(this);
        m_lessonDock->setObjectName(QStringLiteral("lessonDock"));
        m_lessonText = new QTextBrowser;
        m_lessonText->setOpenExternalLinks(true);
        m_lessonDock->setWidget(m_lessonText);
        addDockWidget(Qt::RightDockWidgetArea, m_lessonDock);
    }
    // right of the view, or below it for views that need the window's width (Distribution)
    const Qt::DockWidgetArea area = lesson.textBelow ? Qt::BottomDockWidgetArea : Qt::RightDockWidgetArea;
    if (dockWidgetArea(m_lessonDock) != area) addDockWidget(area, m_lessonDock);
    m_lessonText->setMinimumWidth(
        lesson.textBelow ? 0 : qMax(260, fontMetrics().horizontalAdvance(QLatin1Char('x')) * 36));
    m_lessonText->setMinimumHeight(lesson.textBelow ? fontMetrics().height() * 8 : 0);
    // the title bar holds the lesson's number (a long title would be cut there); the text
    // starts with the whole title
    m_lessonDock->setWindowTitle(tr("Lesson %1").arg(lesson.id.section(QLatin1Char('_'), 0, 0)));
    // headings two levels down: a dock beside the view has no room for 2x-size titles (the
    // dock's title bar names the lesson); '#' lines inside code blocks are code
    QStringList lines = lesson.markdown.split(QLatin1Char('\n'));
    bool code = false;
    for (QString& line : lines) {
        if (line.startsWith(QLatin1String("```"))) code = !code;
        if (!code && line.startsWith(QLatin1Char('#')) && !line.startsWith(QLatin1String("#####"))) {
            line.prepend(QLatin1String("##"));
        }
    }
    QString text = lines.join(QLatin1Char('\n'));
    if (!lesson.lookAt.isEmpty()) {
        // what to look at in the view first, above the lesson's text
        text = QStringLiteral("> **In the explorer:** %1\n\n%2").arg(lesson.lookAt, text);
    }
    m_lessonText->setMarkdown(text);
    // code lines wrap too (Markdown's code blocks do not): a line of code past the dock's edge
    // is cut off on a projector, a scroll bar away
    // and code is as large as the text around it (Markdown's code font keeps the system's
    // fixed-pitch size, 12 px, in presentation mode too)
    const double codePoints = Appearance::instance().font(0.95).pointSizeF();
    for (QTextBlock b = m_lessonText->document()->begin(); b.isValid(); b = b.next()) {
        QTextBlockFormat f = b.blockFormat();
        if (f.nonBreakableLines()) {
            f.setNonBreakableLines(false);
            QTextCursor(b).setBlockFormat(f);
        }
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!fragment.isValid() || !fragment.charFormat().fontFixedPitch()) continue;
            QTextCursor c(m_lessonText->document());
            c.setPosition(fragment.position());
            c.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            QTextCharFormat size;
            size.setFontPointSize(codePoints);
            c.mergeCharFormat(size);
        }
    }
    m_lessonText->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_lessonDock->show();
    // the view keeps most of the window, the lesson about a third
    if (lesson.textBelow) {
        resizeDocks({m_lessonDock}, {qMax(160, height() / 4)}, Qt::Vertical);
    } else {
        resizeDocks({m_lessonDock}, {qMax(320, width() / 3)}, Qt::Horizontal);
    }
    return true;
}

QString MainWindow::glossaryHtml()
{
    QString html = QStringLiteral("<h2>%1</h2><dl>").arg(tr("Glossary"));
    for (const auto& e : spmv::viz::glossary()) {
        html += QStringLiteral("<dt><b>%1</b> <i>(%2)</i></dt><dd>%3</dd>")
                    .arg(fromView(e.term).toHtmlEscaped(), fromView(e.source).toHtmlEscaped(),
                         fromView(e.definition).toHtmlEscaped());
    }
    return html + QStringLiteral("</dl>");
}

void MainWindow::showGlossary()
{
    auto* dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("SpMV Lab glossary"));
    auto* text = new QTextBrowser;
    text->setHtml(glossaryHtml());
    text->setFont(Appearance::instance().font());
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(text);
    dialog->resize(720, 640);
    dialog->show();
}

void MainWindow::openFile(const QString& path)
{
    m_controller->openFile(path);
}

void MainWindow::openBuiltInExample()
{
    m_controller->openFile(builtInExamplePath());
}

void MainWindow::showGenerateDialog()
{
    GenerateDialog dialog(this);
    if (dialog.exec() == QDialog::Accepted) {
        m_controller->generate(dialog.generator(), dialog.params(), dialog.seed());
    }
}

bool MainWindow::exportWidget(QWidget* widget, const QString& path, QString* error)
{
    if (!widget) {
        if (error) *error = tr("nothing to export");
        return false;
    }
    // OutputFile: a regular file through QSaveFile (renamed on commit, never half-written), a
    // link's target likewise, a device or FIFO written in place and never replaced
    OutputFile out(path);
    if (!out.open(error)) {
        return false;
    }
    QIODevice& file = *out.device();
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setResolution(96);  // without it the SVG's physical size assumes 72 dpi (4/3 too big)
        svg.setSize(widget->size());
        svg.setViewBox(QRect(QPoint(0, 0), widget->size()));
        svg.setTitle(widget->windowTitle());
        QPainter painter;
        if (!painter.begin(&svg)) {
            if (error) *error = tr("cannot write %1").arg(path);
            return false;
        }
        widget->render(&painter);
        painter.end();
    } else {
        const QPixmap pixmap = widget->grab();
        const QByteArray suffix = QFileInfo(path).suffix().toLower().toLatin1();
        if (!pixmap.save(&file, suffix.isEmpty() ? "PNG" : suffix.constData())) {
            if (error) *error = tr("cannot write %1: %2").arg(path, file.errorString());
            return false;
        }
    }
    return out.commit(error);
}

void MainWindow::exportCurrentView(const QString& format)
{
    const QString suggested = QStringLiteral("spmvlab-%1.%2").arg(currentViewName(), format);
    const QString filter = format == QLatin1String("svg") ? tr("SVG (*.svg)") : tr("PNG (*.png)");
    QString path = QFileDialog::getSaveFileName(this, tr("Export view"), suggested, filter);
    if (path.isEmpty()) return;
    if (!path.endsWith(QLatin1Char('.') + format, Qt::CaseInsensitive)) {
        path += QLatin1Char('.') + format;
    }
    QString error;
    if (exportWidget(viewContent(currentViewName()), path, &error)) {
        statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    } else {
        reportError(error);
    }
}

void MainWindow::placeTabs()
{
    auto* bar = static_cast<ViewTabs*>(m_tabs)->bar();
    // along the top while the titles fit beside each other, else down the side
    // the tab widget's own width: a lesson's dock beside it takes a third of the window
    const bool fits = bar->widthAlongTop(QApplication::font()) <= m_tabs->width() - 8;
    const QTabWidget::TabPosition want = fits ? QTabWidget::North : QTabWidget::West;
    if (m_tabs->tabPosition() != want) m_tabs->setTabPosition(want);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_tabs && event->type() == QEvent::Resize) placeTabs();
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    // presentation mode's text sizes are fractions of the window's height (Appearance); a
    // resize settles before the views are laid out for it anew
    if (Appearance::instance().presentationMode() &&
        Appearance::instance().presentationHeight() != height()) {
        m_presentationResize->start();
    }
    placeTabs();
}

void MainWindow::setPresentationMode(bool on)
{
    m_presentationResize->stop();
    if (auto* action = findChild<QAction*>(QStringLiteral("presentationAction"))) {
        const QSignalBlocker block(action);  // --presentation ticks the menu's box too
        action->setChecked(on);
    }
    Appearance::instance().setPresentationHeight(height());
    Appearance::instance().setPresentationMode(on);  // the charts rebuild on Appearance::changed
    // the tables too: larger fonts, then columns and rows sized again for them, so that F5
    // in the middle of a lecture leaves no "con..." in a header or cell
    const auto& app = Appearance::instance();
    for (auto* table : findChildren<QTableView*>()) {
        table->setFont(app.font());
        table->horizontalHeader()->setFont(app.font(0.9));
        table->verticalHeader()->setFont(app.font(0.9));
        table->resizeColumnsToContents();
        table->resizeRowsToContents();
    }
    placeTabs();
}

void MainWindow::feedShownView()
{
    QWidget* shown = m_tabs->currentWidget();
    {
        // the controller's analyses this view draws (a large matrix computes the others when
        // their view is shown: AnalysisController::lazyNonzeros)
        unsigned wanted = 0;
        if (shown == viewPage(QStringLiteral("pattern"))) wanted = AnalysisController::PatternFacts;
        if (shown == viewPage(QStringLiteral("construction")))
            wanted = AnalysisController::ConstructionSteps;
        if (shown == viewPage(QStringLiteral("waste"))) wanted = AnalysisController::WarpWaste;
        if (shown == viewPage(QStringLiteral("memory")))
            wanted = AnalysisController::FormatSummaries;
        m_controller->setShownAnalyses(wanted);
    }
    const auto doc = m_controller->document();
    if (!doc) return;
    if (shown == m_coalescing && m_coalescing->document() != doc) m_coalescing->setDocument(doc);
    if (shown == m_sweep && m_sweep->document() != doc) m_sweep->setDocument(doc);
    if (shown == m_reorder && m_reorder->document() != doc) m_reorder->setDocument(doc);
    if (shown == m_advisor && m_advisor->document() != doc) m_advisor->setDocument(doc);
}

bool MainWindow::isBusy() const
{
    return m_controller->isBusy() || m_sparsity->isRendering() || m_timing->isRunning() ||
           m_solver->isRunning() || m_distribution->isBusy() || m_coalescing->isComputing() ||
           m_sweep->isComputing() || m_reorder->isComputing() || m_advisor->isComputing();
}

bool MainWindow::waitUntilIdle(int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    // let queued work start first, then wait for the pipeline to drain
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    while (isBusy()) {
        if (timer.elapsed() > timeoutMs) return false;
        // sleep until an event (a job's result) arrives or 20 ms pass: processEvents(flags, ms)
        // ignores WaitForMoreEvents and would spin a core that the analyses need
        QEventLoop wait;
        QTimer::singleShot(20, &wait, &QEventLoop::quit);
        wait.exec();
    }
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    return true;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls()) {
        for (const QUrl& url : event->mimeData()->urls()) {
            if (url.isLocalFile()) {
                event->acceptProposedAction();
                return;
            }
        }
    }
}

void MainWindow::dropEvent(QDropEvent* event)
{
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile()) {
            openFile(url.toLocalFile());
            event->acceptProposedAction();
            return;
        }
    }
}

void MainWindow::reportError(const QString& message)
{
    m_errors.append(message);
    statusBar()->showMessage(tr("Error: %1").arg(message), 15000);
    if (m_interactive) {
        QMessageBox::warning(this, tr("SpMV Lab"), message);
    }
}

void MainWindow::updateTitle()
{
    const auto doc = m_controller->document();
    setWindowTitle(doc ? tr("SpMV Lab \u2014 %1").arg(doc->name) : tr("SpMV Lab"));
}
