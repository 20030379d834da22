#include "parameterbar.hpp"

#include <QHBoxLayout>
#include <QLayout>
#include <QList>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

#include "appearance.hpp"
#include "flowlayout.hpp"
#include "session/analysiscontroller.hpp"
#include "session/glossary_tip.hpp"

namespace {

struct Shown {
    spmv::Param id;
    const char* label;
    const char* term;  ///< glossary term of the tooltip
};

constexpr Shown shown[] = {
    {spmv::Param::warp_size, "warp", "warp"},
    {spmv::Param::block_rows, "b_r", "b_r"},
    {spmv::Param::slice_height, "C", "C"},
    {spmv::Param::sort_window, "\u03c3", "sigma"},
    {spmv::Param::hyb_width, "HYB K", "HYB K"},
    {spmv::Param::pitch_bytes, "ELLG pitch B", "pitch"},
    {spmv::Param::diag_pad, "JDS diag pad", "diag pad"},
    {spmv::Param::pjds_pad, "pJDS pad N", "pJDS pad"},
};


}  // namespace

ParameterBar::ParameterBar(AnalysisController* controller, QWidget* parent)
    : QWidget(parent), m_controller(controller)
{
    auto* row = new FlowLayout(this);
    row->setContentsMargins(4, 2, 4, 2);
    row->setSpacing(8);
    // the heading goes in presentation mode: the eight parameters then fit one line at
    // 1280 x 720, a line more for the picture below
    auto* heading = new QLabel(tr("Parameters:"));
    row->addWidget(heading);
    auto presentation = [heading] {
        heading->setVisible(!Appearance::instance().presentationMode());
    };
    presentation();
    connect(&Appearance::instance(), &Appearance::changed, heading, presentation);
    for (const auto& s : shown) {
        const spmv::ParamInfo* info = nullptr;
        for (const auto& p : spmv::parameters()) {
            if (p.id == s.id) info = &p;
        }
        if (!info) continue;
        auto* label = new QLabel(QString::fromUtf8(s.label));
        auto* box = new QSpinBox;
        // the GUI's ranges: the registry's, with warp, b_r and C kept to what the views draw
        const bool small = s.id == spmv::Param::warp_size || s.id == spmv::Param::block_rows ||
                           s.id == spmv::Param::slice_height;
        if (small) {
            box->setRange(2, 64);
        } else if (s.id == spmv::Param::sort_window) {
            box->setRange(1, 1 << 20);  // the views need a sigma (0, "choose", is the CLI's)
        } else if (s.id == spmv::Param::hyb_width) {
            // up to 2^20 as sigma (the registry's 2^30 would make a ten-digit box; no view
            // draws an ELL part a million entries wide)
            box->setRange(info->min_value, 1 << 20);
        } else {
            box->setRange(info->min_value, info->max_value);
        }
        box->setValue(spmv::get(controller->params(), s.id));
        box->setKeyboardTracking(false);
        const QString tip = glossaryTip(s.term);
        label->setToolTip(tip);
        box->setToolTip(tip);
        if (s.id == spmv::Param::hyb_width) box->setSpecialValueText(tr("auto"));
        if (s.id == spmv::Param::pjds_pad) box->setSpecialValueText(tr("off"));  // 0; 1: on
        const auto id = s.id;
        connect(box, &QSpinBox::valueChanged, this, [this, id](int v) { m_controller->setParam(id, v); });
        // the label and its box as one item: a line never breaks between them
        row->addWidget(flowPair(label, box));
        m_boxes.emplace_back(s.id, box);
    }
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    connect(controller, &AnalysisController::paramsChanged, this, &ParameterBar::sync);
}

QSpinBox* ParameterBar::box(spmv::Param id) const
{
    for (const auto& [p, b] : m_boxes) {
        if (p == id) return b;
    }
    return nullptr;
}

void ParameterBar::sync(const spmv::FormatParams& params)
{
    for (const auto& [id, box] : m_boxes) {
        const QSignalBlocker block(box);
        box->setValue(spmv::get(params, id));
        if (id == spmv::Param::sort_window) {  // sigma chosen for the matrix says so
            const bool advised = m_controller->sortWindowAdvised();
            box->setSuffix(advised ? tr(" (advisor)") : QString());
            box->setToolTip(advised ? tr("\u03c3 = %1: the advisor's choice for this matrix, the "
                                         "smallest \u03c3 within 2 % of the least padding at C = %2 "
                                         "(spmvlab --sigma auto). Set \u03c3 to choose your own.")
                                          .arg(params.sort_window)
                                          .arg(params.slice_height)
                                    : glossaryTip("sigma"));
        }
    }
}
