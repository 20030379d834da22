#include "constructionpanel.hpp"

#include <algorithm>
#include <limits>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QSpinBox>
#include <QVBoxLayout>

#include <spmv/registry.hpp>

#include "layoutoverview.hpp"
#include "layoutview.hpp"
#include "session/glossary_tip.hpp"

ConstructionPanel::ConstructionPanel(AnalysisController* controller, QWidget* parent)
    : QWidget(parent), m_controller(controller)
{
    m_format = new QComboBox;
    for (auto name : spmv::viz::construction_formats()) {
        const auto& info = spmv::find_format(name);
        m_format->addItem(QString::fromUtf8(info.title.data(), static_cast<int>(info.title.size())),
                          QString::fromUtf8(name.data(), static_cast<int>(name.size())));
    }
    m_format->setCurrentIndex(qMax(0, m_format->findData(controller->constructionFormat())));
    m_format->setToolTip(tr("Format whose construction is shown"));

    auto spin = [](int lo, int hi, int value, const QString& tip) {
        auto* s = new QSpinBox;
        s->setRange(lo, hi);
        s->setValue(value);
        s->setToolTip(tip);
        s->setKeyboardTracking(false);
        return s;
    };
    const auto& p = controller->params();
    m_blockRows = spin(2, 64, p.block_rows, tr("b_r: rows padded together after sorting (pJDS)"));
    m_sliceHeight = spin(2, 64, p.slice_height, tr("C: rows per slice (SELL-C-sigma)"));
    m_sortWindow =
        spin(1, 1 << 20, p.sort_window, tr("sigma: rows sorted inside windows of sigma rows"));
    m_warpSize =
        spin(2, 64, p.warp_size, tr("Threads per warp: 4 for the blackboard, 32 for the hardware"));
    // the other parameters of the schema that a format reads: ELLG pitch, HYB K, JDS CSR-like
    // diagonal padding (the CLI's --pitch, --hyb-width, --diag-pad)
    for (const auto& info : spmv::parameters()) {
        if (info.id != spmv::Param::pitch_bytes && info.id != spmv::Param::hyb_width &&
            info.id != spmv::Param::diag_pad) {
            continue;
        }
        ExtraParam e;
        e.id = info.id;
        e.box = spin(info.min_value, info.max_value, spmv::get(p, info.id),
                     QString::fromUtf8(info.description.data(),
                                       static_cast<int>(info.description.size())));
        if (info.id == spmv::Param::hyb_width) {
            e.box->setSpecialValueText(tr("auto"));  // -1: the one-third rule
        }
        e.label = new QLabel(info.id == spmv::Param::pitch_bytes ? tr("pitch B")
                             : info.id == spmv::Param::hyb_width ? tr("K")
                                                                 : tr("diag pad"));
        e.label->setToolTip(glossaryTip(info.id == spmv::Param::pitch_bytes ? "pitch"
                                        : info.id == spmv::Param::hyb_width ? "HYB K"
                                                                            : "diag pad"));
        const auto id = info.id;
        connect(e.box, &QSpinBox::valueChanged, this,
                [this, id](int v) { m_controller->setParam(id, v); });
        m_extra.push_back(e);
    }
    m_blockRowsLabel = new QLabel(tr("b_r"));
    m_sliceLabel = new QLabel(tr("C"));
    m_sigmaLabel = new QLabel(tr("\u03c3"));
    // the symbols explained where they are set (Help > Glossary has them all)
    m_blockRowsLabel->setToolTip(glossaryTip("b_r"));
    m_sliceLabel->setToolTip(glossaryTip("C"));
    m_sigmaLabel->setToolTip(glossaryTip("sigma"));

    m_previous = new QPushButton(tr("\u25c0 Previous"));
    m_next = new QPushButton(tr("Next \u25b6"));
    m_play = new QPushButton(tr("Play"));
    m_play->setCheckable(true);
    m_play->setObjectName(QStringLiteral("runButton"));  // MainWindow::setRunnable finds it
    m_previous->setToolTip(tr("Previous step (Page Up, Left, Shift+Space)"));
    m_next->setToolTip(tr("Next step (Page Down, Right, Space: a presenter's clicker works)"));
    m_stepLabel = new QLabel;
    const auto& window = controller->constructionWindow();
    m_firstRow = spin(0, 0, 0, tr("First grid row shown: the view shows %1 rows at a time")
                                   .arg(window.rows));
    m_firstRow->setSingleStep(window.rows / 2);
    m_firstCol = spin(0, 0, 0, tr("First grid column shown: the view shows %1 columns at a time")
                                   .arg(window.cols));
    m_firstCol->setSingleStep(window.cols / 2);
    m_windowLabel = new QLabel;
    m_selection = new QLabel;
    m_selection->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Format")));
    controls->addWidget(m_format);
    controls->addSpacing(8);
    controls->addWidget(m_blockRowsLabel);
    controls->addWidget(m_blockRows);
    controls->addWidget(m_sliceLabel);
    controls->addWidget(m_sliceHeight);
    controls->addWidget(m_sigmaLabel);
    controls->addWidget(m_sortWindow);
    for (const auto& e : m_extra) {
        controls->addWidget(e.label);
        controls->addWidget(e.box);
    }
    controls->addSpacing(8);
    m_warpLabel = new QLabel(tr("warp"));
    m_warpLabel->setToolTip(glossaryTip("warp"));
    controls->addWidget(m_warpLabel);
    controls->addWidget(m_warpSize);
    controls->addSpacing(12);
    controls->addWidget(m_previous);
    controls->addWidget(m_next);
    controls->addWidget(m_play);
    controls->addWidget(m_stepLabel);
    controls->addStretch(1);

    m_view = new LayoutView;
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_view);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    auto* windowRow = new QHBoxLayout;
    windowRow->addWidget(new QLabel(tr("First row")));
    windowRow->addWidget(m_firstRow);
    windowRow->addWidget(new QLabel(tr("first column")));
    windowRow->addWidget(m_firstCol);
    windowRow->addSpacing(8);
    windowRow->addWidget(m_windowLabel);
    windowRow->addStretch(1);

    // the whole layout beside the window's cells
    m_overview = new LayoutOverview;
    auto* body = new QHBoxLayout;
    body->addWidget(scroll, 1);
    body->addWidget(m_overview);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addLayout(windowRow);
    layout->addLayout(body, 1);
    layout->addWidget(m_selection);
    connect(controller, &AnalysisController::layoutWorkAvailable, m_overview,
            &LayoutOverview::setWork);
    connect(m_overview, &LayoutOverview::windowRequested, this, [this](qint64 row, qint64 col) {
        m_controller->setConstructionWindow(row, col);
    });
    // the window follows the selected nonzero from step to step (each step centres on it
    // where it would be out of view); moving the window by hand stops that
    connect(m_view, &LayoutView::nonzeroSelected, this, [this](qint64 nz) {
        auto w = m_controller->constructionWindow();
        w.focus = nz;
        m_controller->setConstructionWindow(w);
    });

    connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
        m_controller->setConstructionFormat(m_format->currentData().toString());
        updateParamVisibility();
    });
    connect(m_blockRows, &QSpinBox::valueChanged, controller, &AnalysisController::setBlockRows);
    connect(m_sliceHeight, &QSpinBox::valueChanged, controller,
            &AnalysisController::setSliceHeight);
    connect(m_sortWindow, &QSpinBox::valueChanged, controller, &AnalysisController::setSortWindow);
    connect(m_warpSize, &QSpinBox::valueChanged, controller, &AnalysisController::setWarpSize);
    connect(controller, &AnalysisController::paramsChanged, this, &ConstructionPanel::syncParams);
    connect(controller, &AnalysisController::constructionAvailable, m_view,
            &LayoutView::setConstruction);
    connect(m_previous, &QPushButton::clicked, m_view, &LayoutView::previousStep);
    connect(m_next, &QPushButton::clicked, m_view, &LayoutView::nextStep);
    connect(m_play, &QPushButton::toggled, this, &ConstructionPanel::setPlaying);
    connect(m_view, &LayoutView::stepChanged, this, &ConstructionPanel::updateStepLabel);
    connect(m_view, &LayoutView::stepChanged, this, &ConstructionPanel::updateWindowControls);
    // a row set by hand: every step from that row, columns still following the entries of
    // those rows; a column set by hand: from that column
    connect(m_firstRow, &QSpinBox::valueChanged, this, [this](int row) {
        auto w = m_controller->constructionWindow();
        w.first_row = row;
        w.follow_rows = false;
        w.focus = -1;
        m_controller->setConstructionWindow(w);
    });
    connect(m_firstCol, &QSpinBox::valueChanged, this, [this](int col) {
        auto w = m_controller->constructionWindow();
        w.first_col = col;
        w.follow_cols = false;
        w.focus = -1;
        m_controller->setConstructionWindow(w);
    });
    connect(m_view, &LayoutView::selectionDescribed, m_selection, &QLabel::setText);
    m_playTimer.setInterval(1400);
    connect(&m_playTimer, &QTimer::timeout, this, [this] {
        if (m_view->currentStep() + 1 >= m_view->stepCount()) {
            m_play->setChecked(false);
        } else {
            m_view->nextStep();
        }
    });
    // Keyboard and clicker stepping: presenter remotes send Page Down / Page Up (some Right /
    // Left); Space steps as in a slide show. Window-wide while this panel is shown (the tab
    // bar or a button may have the focus); edit fields keep the keys they use (they accept
    // ShortcutOverride for them).
    auto keys = [this](std::initializer_list<QKeySequence> seqs, auto slot) {
        for (const auto& k : seqs) {
            auto* sc = new QShortcut(k, this);
            sc->setContext(Qt::WindowShortcut);
            sc->setEnabled(false);
            connect(sc, &QShortcut::activated, this, slot);
            m_stepKeys.push_back(sc);
        }
    };
    keys({QKeySequence(Qt::Key_PageDown), QKeySequence(Qt::Key_Right), QKeySequence(Qt::Key_Space)},
         [this] { stepBy(1); });
    keys({QKeySequence(Qt::Key_PageUp), QKeySequence(Qt::Key_Left),
          QKeySequence(Qt::SHIFT | Qt::Key_Space)},
         [this] { stepBy(-1); });
    keys({QKeySequence(Qt::Key_Home)}, [this] { m_view->setStep(0); });
    keys({QKeySequence(Qt::Key_End)}, [this] { m_view->setStep(std::max(0, m_view->stepCount() - 1)); });
    updateParamVisibility();
    updateStepLabel(0, 0);
}

void ConstructionPanel::stepBy(int delta)
{
    if (m_play->isChecked()) {
        m_play->setChecked(false);  // a manual step stops the animation
    }
    if (delta > 0 && m_view->currentStep() + 1 < m_view->stepCount()) {
        m_view->nextStep();
    } else if (delta < 0 && m_view->currentStep() > 0) {
        m_view->previousStep();
    }
}

void ConstructionPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    for (auto* sc : m_stepKeys) sc->setEnabled(true);
}

void ConstructionPanel::hideEvent(QHideEvent* event)
{
    QWidget::hideEvent(event);
    for (auto* sc : m_stepKeys) sc->setEnabled(false);
}

void ConstructionPanel::setPlaying(bool on)
{
    if (on) {
        if (m_view->currentStep() + 1 >= m_view->stepCount()) {
            m_view->setStep(0);
        }
        m_playTimer.start();
        m_play->setText(tr("Pause"));
    } else {
        m_playTimer.stop();
        m_play->setText(tr("Play"));
    }
    if (m_play->isChecked() != on) {
        m_play->setChecked(on);
    }
}

void ConstructionPanel::updateStepLabel(int step, int count)
{
    m_stepLabel->setText(count > 0 ? tr("Step %1 of %2").arg(step + 1).arg(count) : QString());
    m_previous->setEnabled(step > 0);
    m_next->setEnabled(step + 1 < count);
}

void ConstructionPanel::updateWindowControls()
{
    // ranges from the construction shown (the largest grid of its steps), label from the step
    const auto c = m_view->construction();
    const auto* s = m_view->step();
    const QSignalBlocker b1(m_firstRow), b2(m_firstCol);
    const auto clampInt = [](std::int64_t v) {
        return static_cast<int>(std::min<std::int64_t>(v, std::numeric_limits<int>::max()));
    };
    m_firstRow->setRange(0, c ? clampInt(std::max<std::int64_t>(0, c->max_total_rows - 1)) : 0);
    m_firstCol->setRange(0, c ? clampInt(std::max<std::int64_t>(0, c->max_total_cols - 1)) : 0);
    if (s) {
        // where this step's window is (steps that follow the entries or a nonzero each place
        // their own)
        m_firstRow->setValue(clampInt(s->row_offset));
        m_firstCol->setValue(clampInt(s->col_offset));
    }
    // the overview matters where the window shows a part only: a small matrix is all there
    m_overview->setVisible(c && c->windowed);
    if (c && !c->steps.empty()) {
        const auto& last = c->steps.back();  // the format as stored
        m_overview->setWindow(last.row_offset, last.rows, last.col_offset, last.cols,
                              last.total_rows, last.total_cols);
    }
    const bool windowed = c && c->windowed;
    m_firstRow->setEnabled(windowed);
    m_firstCol->setEnabled(windowed);
    // how the window was placed, in the tooltip (the line itself must fit 1280 px in F5)
    QString follows;
    if (windowed && c->window.focus >= 0 && s->find_nonzero(c->window.focus)) {
        follows = tr("The window follows nonzero %1 through the steps: each step shows it. "
                     "Set the first row or column to move it by hand.")
                      .arg(c->window.focus);
    } else if (windowed && (c->window.follow_rows || c->window.follow_cols)) {
        follows = tr("The window is where the entries are: each step starts at its first rows "
                     "holding a nonzero and the first column holding one in them. Click a "
                     "nonzero to follow it through the steps.");
    }
    m_windowLabel->setToolTip(follows);
    m_windowLabel->setText(s ? (windowed ? tr("showing %1").arg(QString::fromStdString(s->window_label()))
                                         : tr("whole matrix: %1").arg(QString::fromStdString(s->window_label())))
                             : QString());
}

void ConstructionPanel::syncParams(const spmv::FormatParams& params)
{
    const QSignalBlocker b1(m_blockRows), b2(m_sliceHeight), b3(m_sortWindow), b4(m_warpSize);
    m_blockRows->setValue(params.block_rows);
    m_sliceHeight->setValue(params.slice_height);
    m_sortWindow->setValue(params.sort_window);
    m_warpSize->setValue(params.warp_size);
    for (const auto& e : m_extra) {
        const QSignalBlocker b(e.box);
        e.box->setValue(spmv::get(params, e.id));
    }
}

void ConstructionPanel::updateParamVisibility()
{
    // show the spin boxes of the parameters the chosen format reads (registry schema)
    const auto& info = spmv::find_format(m_format->currentData().toString().toStdString());
    auto reads = [&info](spmv::Param id) {
        return std::find(info.params.begin(), info.params.end(), id) != info.params.end();
    };
    const bool br = m_paramsShown && reads(spmv::Param::block_rows);
    const bool slice = m_paramsShown && reads(spmv::Param::slice_height);
    const bool sigma = m_paramsShown && reads(spmv::Param::sort_window);
    m_warpLabel->setVisible(m_paramsShown);
    m_warpSize->setVisible(m_paramsShown);
    m_blockRowsLabel->setVisible(br);
    m_blockRows->setVisible(br);
    m_sliceLabel->setVisible(slice);
    m_sliceHeight->setVisible(slice);
    m_sigmaLabel->setVisible(sigma);
    m_sortWindow->setVisible(sigma);
    for (const auto& e : m_extra) {
        e.label->setVisible(m_paramsShown && reads(e.id));
        e.box->setVisible(m_paramsShown && reads(e.id));
    }
}

void ConstructionPanel::setParameterBoxesShown(bool shown)
{
    m_paramsShown = shown;
    updateParamVisibility();
}
