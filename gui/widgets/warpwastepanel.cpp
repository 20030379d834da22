#include "warpwastepanel.hpp"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <spmv/registry.hpp>

#include "appearance.hpp"
#include "models/wastecomparisonmodel.hpp"
#include "warpwasteview.hpp"

WarpWastePanel::WarpWastePanel(AnalysisController* controller, QWidget* parent)
    : QWidget(parent), m_controller(controller)
{
    m_warpSize = new QSpinBox;
    m_warpSize->setRange(2, 64);
    m_warpSize->setValue(controller->params().warp_size);
    m_warpSize->setToolTip(tr("Threads per warp: 4 for the blackboard, 32 for the hardware"));
    m_warpSize->setKeyboardTracking(false);
    m_firstWarp = new QSpinBox;
    m_firstWarp->setRange(0, 1 << 30);
    m_firstWarp->setToolTip(
        tr("First warp drawn (at most %1 are drawn)").arg(AnalysisController::maxWarpPictures));
    m_firstWarp->setKeyboardTracking(false);

    auto* top = new QHBoxLayout;
    m_warpLabel = new QLabel(tr("Warp size"));
    top->addWidget(m_warpLabel);
    top->addWidget(m_warpSize);
    top->addSpacing(12);
    top->addWidget(new QLabel(tr("First warp")));
    top->addWidget(m_firstWarp);
    top->addStretch(1);

    auto* sides = new QSplitter(Qt::Horizontal);
    for (int side = 0; side < 2; ++side) {
        auto* box = new QComboBox;
        for (const auto& f : spmv::formats()) {
            box->addItem(QString::fromUtf8(f.title.data(), static_cast<int>(f.title.size())),
                         QString::fromUtf8(f.name.data(), static_cast<int>(f.name.size())));
        }
        box->setCurrentIndex(qMax(0, box->findData(controller->wasteFormat(side))));
        auto* view = new WarpWasteView;
        auto* scroll = new QScrollArea;
        scroll->setWidget(view);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        auto* column = new QWidget;
        auto* v = new QVBoxLayout(column);
        v->setContentsMargins(0, 0, 0, 0);
        auto* row = new QHBoxLayout;
        row->addWidget(new QLabel(side == 0 ? tr("Left format") : tr("Right format")));
        row->addWidget(box, 1);
        v->addLayout(row);
        v->addWidget(scroll, 1);
        sides->addWidget(column);
        m_formats[static_cast<std::size_t>(side)] = box;
        m_views[static_cast<std::size_t>(side)] = view;
        connect(box, &QComboBox::currentIndexChanged, this, [this, side, box] {
            m_controller->setWasteFormat(side, box->currentData().toString());
        });
        connect(view, &WarpWasteView::statusMessage, this, &WarpWastePanel::statusMessage);
    }
    m_model = new WasteComparisonModel(this);
    m_table = new QTableView;
    m_table->setModel(m_model);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setMaximumHeight(m_table->verticalHeader()->defaultSectionSize() * 10);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(sides, 1);
    layout->addWidget(m_table);

    connect(&Appearance::instance(), &Appearance::changed, this, &WarpWastePanel::fitHeader,
            Qt::QueuedConnection);  // after the header's font follows the appearance
    connect(m_warpSize, &QSpinBox::valueChanged, controller, &AnalysisController::setWarpSize);
    connect(m_firstWarp, &QSpinBox::valueChanged, controller,
            &AnalysisController::setWasteFirstWarp);
    connect(controller, &AnalysisController::paramsChanged, this,
            [this](const spmv::FormatParams& p) {
                const QSignalBlocker block(m_warpSize);
                m_warpSize->setValue(p.warp_size);
            });
    connect(
        controller, &AnalysisController::wasteAvailable, this,
        [this](int side, WarpWastePtr waste) {
            const QString title = titleOf(side);
            m_views.at(static_cast<std::size_t>(side))->setWaste(waste, title);
            // the table's column header: the format's name above its parameters (one line
            // is wider than a column in presentation mode)
            QString head = title;
            if (const auto comma = head.indexOf(QStringLiteral(", ")); comma > 0) {
                head.replace(comma, 2, QLatin1Char('\n'));
            }
            m_model->resetData(side, waste, head);
            fitHeader();
            m_firstWarp->setMaximum(qMax(0, static_cast<int>(waste->analysis.warps.size()) - 1));
        });
}

void WarpWastePanel::fitHeader()
{
    // QHeaderView sizes itself for one line: the two-line titles need the header that tall
    auto* header = m_table->horizontalHeader();
    int lines = 1;
    for (int c = 0; c < m_model->columnCount(); ++c) {
        lines = qMax(lines, static_cast<int>(
                                m_model->headerData(c, Qt::Horizontal).toString().count('\n')) + 1);
    }
    header->setMinimumHeight(lines * header->fontMetrics().height() + 8);
}

QString WarpWastePanel::titleOf(int side) const
{
    const auto* box = m_formats.at(static_cast<std::size_t>(side));
    QString title = box->currentText();
    const auto& info = spmv::find_format(box->currentData().toString().toStdString());
    const auto& p = m_controller->params();
    for (auto id : info.params) {
        for (const auto& schema : spmv::parameters()) {
            if (schema.id == id && id != spmv::Param::warp_size) {
                title += QStringLiteral(", %1 = %2")
                             .arg(QString::fromUtf8(schema.name.data(),
                                                    static_cast<int>(schema.name.size())))
                             .arg(spmv::get(p, id));
            }
        }
    }
    return title;
}

void WarpWastePanel::setWarpBoxShown(bool shown)
{
    m_warpLabel->setVisible(shown);
    m_warpSize->setVisible(shown);
}
