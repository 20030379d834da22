#pragma once
// The performance model of Kreutzer §II.B with editable inputs: code balance, T_MVM, T_PCI,
// predicted GFLOP/s and the PCIe share for the loaded matrix, and the PCIe share as a function
// of N_nzr with the thresholds of eq. 3 (50 %) and eq. 4 / exact 10 % drawn as vertical lines.
#include <vector>

#include <QString>
#include <QWidget>

#include <spmv/viz/colour.hpp>

#include "session/matrixdocument.hpp"

class QChartView;
class ChartLegend;
class QComboBox;
class QDoubleSpinBox;
class QLabel;

/// One vertical threshold line of the chart: where, its legend text, colour and pen style.
struct ModelThresholdLine {
    double at = 0;
    QString name;
    spmv::viz::Rgb colour;
    Qt::PenStyle style = Qt::SolidLine;
};
/// The chart's three threshold lines (PCIe share 50 % by eq. 3, 10 % exact, 10 % by the
/// paper's eq. 4), each in its own colour and pen style.
std::vector<ModelThresholdLine> modelThresholdLines(double half, double tenth, double eq4);

class ModelPanel : public QWidget {
    Q_OBJECT
public:
    explicit ModelPanel(QWidget* parent = nullptr);

    void setDocument(MatrixDocumentPtr document);
    QLabel* resultsLabel() const { return m_results; }
    QDoubleSpinBox* memoryBandwidthBox() const { return m_bGpu; }
    QDoubleSpinBox* pcieBandwidthBox() const { return m_bPci; }
    QDoubleSpinBox* nnzPerRowBox() const { return m_nnzr; }
    bool selectProfile(const QString& name);
    /// The GPU profile box (MainWindow links the Model's and the Timing's).
    QComboBox* profileBox() const { return m_profile; }

private:
    void applyProfile();
    void recompute();

    MatrixDocumentPtr m_document;
    QComboBox* m_profile;
    QComboBox* m_precision;
    QDoubleSpinBox* m_bGpu;
    QDoubleSpinBox* m_bPci;
    QDoubleSpinBox* m_alpha;
    QDoubleSpinBox* m_nnzr;
    QDoubleSpinBox* m_rows;
    QLabel* m_results;
    QChartView* m_chartView;
    ChartLegend* m_legend;
};
