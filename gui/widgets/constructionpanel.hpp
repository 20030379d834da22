#pragma once
// The construction view: format, b_r / C / sigma / warp-size spin boxes, previous / next / play
// (also Page Down / Page Up, Right / Left, Space / Shift+Space, Home, End: a clicker steps it),
// the window of a large matrix (first row / first column, "rows a–b of N"), and the LayoutView
// of the current step in a scroll area.
#include <vector>

#include <QTimer>
#include <QWidget>

#include "session/analysiscontroller.hpp"

class QComboBox;
class QLabel;
class QPushButton;
class QShortcut;
class QSpinBox;
class LayoutOverview;
class LayoutView;

class ConstructionPanel : public QWidget {
    Q_OBJECT
public:
    explicit ConstructionPanel(AnalysisController* controller, QWidget* parent = nullptr);

    LayoutView* layoutView() const { return m_view; }
    LayoutOverview* overview() const { return m_overview; }
    QComboBox* formatBox() const { return m_format; }
    QSpinBox* blockRowsBox() const { return m_blockRows; }
    QPushButton* nextButton() const { return m_next; }
    QPushButton* previousButton() const { return m_previous; }
    QPushButton* playButton() const { return m_play; }
    QSpinBox* firstRowBox() const { return m_firstRow; }
    QSpinBox* firstColumnBox() const { return m_firstCol; }
    QLabel* windowLabel() const { return m_windowLabel; }

public slots:
    void setPlaying(bool on);
    /// One step forward (delta > 0) or back, as Next / Previous and the keys do; stops Play.
    void stepBy(int delta);
    /// Shows or hides the panel's own parameter boxes (the window has a ParameterBar for every
    /// view; the panel alone, e.g. in tests, keeps its own).
    void setParameterBoxesShown(bool shown);

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void updateStepLabel(int step, int count);
    void syncParams(const spmv::FormatParams& params);
    void updateParamVisibility();
    void updateWindowControls();

    AnalysisController* m_controller;
    QComboBox* m_format;
    QSpinBox* m_blockRows;
    QSpinBox* m_sliceHeight;
    QSpinBox* m_sortWindow;
    QSpinBox* m_warpSize;
    QLabel* m_blockRowsLabel;
    QLabel* m_sliceLabel;
    QLabel* m_sigmaLabel;
    QPushButton* m_previous;
    QPushButton* m_next;
    QPushButton* m_play;
    QLabel* m_stepLabel;
    QSpinBox* m_firstRow;
    QSpinBox* m_firstCol;
    QLabel* m_windowLabel;
    QLabel* m_selection;
    LayoutView* m_view;
    LayoutOverview* m_overview;
    QTimer m_playTimer;
    std::vector<QShortcut*> m_stepKeys;  ///< enabled while the panel is shown
    struct ExtraParam {
        spmv::Param id;
        QLabel* label = nullptr;
        QSpinBox* box = nullptr;
    };
    std::vector<ExtraParam> m_extra;  ///< ELLG pitch, HYB K, JDS diagonal padding
    bool m_paramsShown = true;
    QLabel* m_warpLabel = nullptr;
public:
    /// The spin box of parameter `id` (pitch, HYB K, diagonal padding), or nullptr.
    QSpinBox* paramBox(spmv::Param id) const
    {
        for (const auto& e : m_extra) {
            if (e.id == id) return e.box;
        }
        return nullptr;
    }
};
