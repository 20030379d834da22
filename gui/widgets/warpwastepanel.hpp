#pragma once
// Per-warp waste of two formats side by side (Kreutzer Fig. 2), with the totals compared in a
// table; warp size and the first warp shown are adjustable.
#include <array>

#include <QWidget>

#include "session/analysiscontroller.hpp"

class QComboBox;
class QLabel;
class QSpinBox;
class QTableView;
class WarpWasteView;
class WasteComparisonModel;

class WarpWastePanel : public QWidget {
    Q_OBJECT
public:
    explicit WarpWastePanel(AnalysisController* controller, QWidget* parent = nullptr);

    WarpWasteView* view(int side) const { return m_views.at(static_cast<std::size_t>(side)); }
    QComboBox* formatBox(int side) const { return m_formats.at(static_cast<std::size_t>(side)); }
    WasteComparisonModel* model() const { return m_model; }
    /// Shows or hides the panel's own warp-size box (the window's ParameterBar has one).
    void setWarpBoxShown(bool shown);

signals:
    void statusMessage(const QString& text);

private:
    QLabel* m_warpLabel = nullptr;
    QString titleOf(int side) const;
    void fitHeader();  ///< the table's header as tall as its titles' lines

    AnalysisController* m_controller;
    std::array<QComboBox*, 2> m_formats{};
    std::array<WarpWasteView*, 2> m_views{};
    QSpinBox* m_warpSize;
    QSpinBox* m_firstWarp;
    QTableView* m_table;
    WasteComparisonModel* m_model;
};
