#pragma once
/// Measured strong scaling next to the model's: how `spmvlab dist chart` sorts `dist bench`
/// runs into panels, which exchange paths get a model curve, and which curve each measured
/// time is held against (Kreutzer et al. 2012 Fig. 5 / Cevahir et al. 2009 Fig. 5: measured
/// points over the predicted curve). MPI-free and JSON-free: the caller reads the records,
/// computes the model (predict_scaling) and draws (spmv/viz/scaling_svg.hpp).
///
/// Example: runs a (2 ranks, cuda-ipc), b (4 ranks, host-staged), c (1 rank, no exchange: path
/// "none") and g (4 ranks, cuda-ipc) of one matrix, precision, partition and format make one
/// group {a, b, c, g}; with --scaling 1,2,4,8 its rank axis is 1, 2, 4, 8; its model paths are
/// cuda-ipc and host-staged (first seen first); a's and g's times are held against the
/// cuda-ipc curve, b's against host-staged, and c's (no exchange of its own) against
/// cuda-ipc, the first path in name order: at one rank nothing is exchanged, so any path's
/// model gives the same time. A group whose runs are all of one rank gets one curve, "none".
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <spmv/dist/mode.hpp>
#include <spmv/dist/model.hpp>

namespace spmv::dist {

/// One mode's measurement in a run.
struct MeasuredMode {
    Mode mode = Mode::vector;
    double median_us = 0.0;
    /// The same product in one process on the root's device (dist bench --gpu), if measured.
    std::optional<double> single_process_us;
};

/// One `dist bench` run (one record), as far as grouping and comparing need it.
struct BenchRun {
    std::string matrix;
    std::string precision;  ///< "double" or "single"
    std::string partition;
    std::string format = "csr";
    std::string exchange_path = "none";  ///< "none": one rank, nothing exchanged
    int num_ranks = 1;
    std::vector<MeasuredMode> modes;
};

/// Runs that share matrix, precision, partition and format (one chart panel, one model):
/// indices into `runs`, groups in the order of their first run, runs in input order.
std::vector<std::vector<std::size_t>> group_runs(std::span<const BenchRun> runs);

/// The ranks a group's curves are computed at: `requested` and every run's rank count,
/// ascending, each once.
std::vector<int> rank_axis(std::vector<int> requested, std::span<const BenchRun> runs,
                           std::span<const std::size_t> group);

/// The exchange paths of a group that get a model curve, in the order first seen: every path
/// but "none" (a one-rank run exchanges nothing and is held against another path's curve), or
/// "none" alone when every run of the group is of one rank.
std::vector<std::string> model_paths(std::span<const BenchRun> runs,
                                     std::span<const std::size_t> group);

/// The model's strong scaling for one exchange path at both ends of the reuse of x.
struct PathModel {
    std::string path;
    ScalingResult worst;  ///< alpha = 1: no reuse (Kreutzer's default)
    ScalingResult best;   ///< alpha = min: 1/N_nzr, perfect reuse
};

/// The model's time of one SpMV in `mode` at `num_ranks` ranks, in us; 0 when the curve has no
/// point there.
double model_time_us(const ScalingResult& curve, int num_ranks, Mode mode);

/// The curve a run with exchange path `path` is held against: its own path's; for a path
/// without one (a one-rank run: "none") the first model in name order; nullptr when `models`
/// is empty.
const PathModel* model_for(std::span<const PathModel> models, std::string_view path);

/// What the chart draws of one path's model, one value per point (in us): the band of task
/// mode between best and worst reuse, and vector mode at alpha = 1. Throws InvalidArgument
/// when the two curves are not over the same rank counts.
struct ModelSeries {
    std::vector<double> task_best_us;
    std::vector<double> task_worst_us;
    std::vector<double> vector_worst_us;
};
ModelSeries model_series(const PathModel& model);

/// One line of the measured-against-model table.
struct ModelComparison {
    std::size_t run = 0;  ///< index into the runs
    /// The mode measured; nullopt for the single-process baseline (one GPU, no exchange), held
    /// against the one-rank model in vector mode.
    std::optional<Mode> mode;
    int num_ranks = 1;
    std::string exchange_path;  ///< "none" for the single-process baseline
    double measured_us = 0.0;
    double model_alpha1_us = 0.0;  ///< 0: no model point (see model_time_us)
    double model_alpha_min_us = 0.0;
};

/// Every measured mode of the group's runs (in run order, modes in record order) against its
/// model (model_for), and the first single-process baseline of the group right after the mode
/// that carried it.
std::vector<ModelComparison> compare_with_model(std::span<const BenchRun> runs,
                                                std::span<const std::size_t> group,
                                                std::span<const PathModel> models);

}  // namespace spmv::dist
