#pragma once
/// Strong scaling of the distributed SpMV as a standalone SVG picture: the model's predicted
/// time per SpMV against the number of GPUs (or ranks), with the measured points drawn over
/// it -- Kreutzer et al. 2012 Fig. 5 / Cevahir et al. 2009 Fig. 5 in today's form. No Qt:
/// `spmvlab dist chart` writes it from `dist bench` records.
///
/// One panel per (matrix, precision, partition). Both axes are logarithmic: x is the number of
/// ranks (1, 2, 4, ... as given), y the time per SpMV in microseconds, so ideal strong scaling
/// T1 / P is a straight line of slope -1 (drawn dotted from the measured T1). For each model
/// series the panel draws a band between the best case (x reused perfectly, alpha = 1/N_nzr)
/// and the worst (alpha = 1, Kreutzer's default), with its task-mode prediction as the band's
/// edges and a dashed line for vector mode at alpha = 1. Measured points: one marker per mode
/// (circle task, square vector, triangle overlap; a filled diamond for the single-process
/// T1), coloured like the model series of the same exchange path.
///
/// Example: a panel whose values span 120 .. 5,500 us gets y ticks 100, 200, 500, 1000, 2000,
/// 5000, 10000 (1-2-5 steps: log_ticks_125, chart.hpp), x ticks at the given rank counts;
/// with ranks 1, 2, 4 the tick of 2 sits halfway between those of 1 and 4.
#include <string>
#include <vector>

#include <spmv/viz/chart.hpp>  // log_ticks_125, the axes
#include <spmv/viz/colour.hpp>
#include <spmv/viz/scene.hpp>

namespace spmv::viz {

/// One curve of the model over rank counts (same length as ScalingPanel::ranks).
struct ScalingModelSeries {
    std::string label;                 ///< e.g. "model, cuda-ipc over nvlink4"
    Rgb colour;
    std::vector<double> task_best_us;  ///< alpha = 1/N_nzr
    std::vector<double> task_worst_us; ///< alpha = 1
    std::vector<double> vector_worst_us;
};

struct ScalingMeasured {
    int ranks = 1;
    std::string mode;  ///< "task", "vector", "overlap", or "single" (the single-process T1)
    double us = 0.0;
    Rgb colour;
};

struct ScalingPanel {
    std::string title;     ///< matrix, precision, partition
    std::string subtitle;  ///< device, date, commit; a second line after the first "; "
    std::vector<int> ranks;
    std::vector<ScalingModelSeries> model;
    std::vector<ScalingMeasured> measured;
    std::vector<std::pair<std::string, Rgb>> legend;  ///< measured series: label, colour
};

struct ScalingSvgOptions {
    double panel_width_px = 560.0;
    double panel_height_px = 330.0;
    int columns = 2;
};

/// The whole picture as a Scene (scene.hpp): per panel a group "panel" with the title, the
/// provenance lines, the axes (chart.hpp: Axis::logarithmic for the time, the rank counts as
/// the ticks of a log x axis whose ends sit 12 px inside the frame and which spans at least
/// one doubling), one closed Path "band" and one dashed Path "reference" per model series, the
/// dotted ideal line ("reference"), one Symbol "point" per measured median (with its tooltip)
/// and the legend (measured series as swatches, then the four marker shapes). Throws
/// InvalidArgument for a panel without ranks, a series whose length differs from the ranks',
/// or a non-positive time.
Scene scaling_scene(const std::vector<ScalingPanel>& panels, const ScalingSvgOptions& options = {});

/// svg(scaling_scene(panels, options)).
std::string scaling_svg(const std::vector<ScalingPanel>& panels, const ScalingSvgOptions& options = {});

}  // namespace spmv::viz
