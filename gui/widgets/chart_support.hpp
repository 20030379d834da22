#pragma once
// What every Qt Charts view does the same way: a fresh chart in the current presentation
// fonts (Appearance), and swapping it into the view when it is rebuilt.
class QChart;
class QChartView;

/// A new, empty chart with the title, legend and margins of every view (fonts of the current
/// presentation mode, legend at the bottom, 4 px margins). The caller owns it until it is set
/// on a view.
QChart* newStyledChart();

/// Shows `chart` in `view` (which takes it over) and deletes the chart shown before.
void replaceChart(QChartView* view, QChart* chart);
