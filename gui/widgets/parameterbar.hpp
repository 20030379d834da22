#pragma once
// The format parameters every view uses, in one bar above the views: warp size, pJDS b_r,
// SELL-C-sigma's C and sigma, HYB's K, ELLG's pitch and JDS CSR-like's diagonal padding, with
// the registry's ranges and the glossary's words as tooltips. Bound to the AnalysisController
// both ways (a value set here starts the analyses; a value set elsewhere, or chosen to suit a
// new matrix, shows here). The parameters flow onto a second line where one line does not fit
// (presentation mode at 1280 x 720), each label beside its box.
#include <vector>

#include <QWidget>

#include <spmv/registry.hpp>

class AnalysisController;
class QSpinBox;

class ParameterBar : public QWidget {
    Q_OBJECT
public:
    explicit ParameterBar(AnalysisController* controller, QWidget* parent = nullptr);

    /// The spin box of parameter `id` (every Param of the registry has one).
    QSpinBox* box(spmv::Param id) const;

private:
    void sync(const spmv::FormatParams& params);

    AnalysisController* m_controller;
    std::vector<std::pair<spmv::Param, QSpinBox*>> m_boxes;
};
