#pragma once
// Qt-free rows of the timing view: a measured time (GPU kernel via spmv::gpu::bench, or the
// CPU reference SpMV) next to the per-format fitted model (spmv::model::predict_variants, the
// one call the Advisor, Sweep, `spmvlab recommend`, `spmvlab model --format` and Python share:
// that kernel's traffic, gather and latency on this matrix, for a GPU profile), its traffic
// bound (the variant's DRAM bytes / B_GPU) and Kreutzer's format-agnostic eq. 1 line
// (spmv::model::predict on the row statistics, one rate for every format). timing_chart_lines
// names the chart's lines: a line is called a bound only where no prediction crosses it.
// Tested in tests/gui.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/model/format_model.hpp>
#include <spmv/model/gpu_profile.hpp>
#include <spmv/model/performance.hpp>
#include <spmv/registry.hpp>

struct TimingRow {
    std::string variant;    ///< GPU variant or registry format name
    std::string format;     ///< host registry name of the layout
    std::string precision;  ///< "double" / "float"
    std::string device;     ///< GPU name or spmv::host_device_name()
    bool baseline = false;  ///< cuSPARSE reference
    bool gpu = false;
    double median_ms = 0.0;
    double gflops = 0.0;                  ///< 2 nnz / median
    double effective_gbs = 0.0;           ///< bench's minimum bytes / median (GPU and CPU)
    double fraction_of_copy = 0.0;        ///< of the measured copy bandwidth (GPU only)
    /// Kreutzer eq. 1 (format-agnostic): 2 nnz / T_MVM for the chosen profile and alpha
    double predicted_gflops = 0.0;
    double kreutzer_alpha = 0.0;          ///< the alpha of predicted_gflops
    double fraction_of_prediction = 0.0;  ///< gflops / predicted_gflops
    /// The format model's time for this variant on a GPU of `model_profile` (0: the model does
    /// not know the variant, e.g. a cuSPARSE baseline or CSC, or it cannot run the matrix).
    double model_s = 0.0;
    double model_gflops = 0.0;  ///< 2 nnz / model_s
    /// The variant's traffic bound: its DRAM bytes / B_GPU (the model's DRAM term, <= model_s)
    double traffic_s = 0.0;
    double traffic_gflops = 0.0;  ///< 2 nnz / traffic_s
    std::string model_bound;    ///< what bounds it, e.g. "latency", "DRAM bandwidth"
    std::string model_profile;  ///< the GPU profile the model time is for, e.g. "H100"
    std::string model_note;     ///< why there is no model time (unknown variant, infeasible)
    /// measured / model time (GPU rows only: a CPU time over a GPU prediction means nothing).
    double measured_over_model = 0.0;
    std::string error;  ///< why the variant did not run (out of memory, ...)
    /// GPU: how the harness queued the repetitions (spmv::gpu::TimingStats::method): "gated: N
    /// launch(es) per repetition", or for a variant of many launches (plain JDS) "graph: N
    /// launches ... captured into one CUDA graph, ungated (the host queues one in X ms, the GPU
    /// runs it in Y ms)" -- the GPU's time while the host queues faster than the GPU runs
    std::string timing;
};

/// GFLOP/s of `nnz` nonzeros in `ms` milliseconds: 2 nnz / t (SPEC §2); 0 for t <= 0.
double gflops_of(std::int64_t nnz, double ms);

/// Fills predicted_gflops and fraction_of_prediction from a model prediction.
void attach_prediction(TimingRow& row, const spmv::model::Prediction& prediction);

/// The format model of one timing run: every modelled variant's prediction on the matrix
/// (spmv::model::predict_variants, counted once per run, O(nnz + N log N)), for one GPU
/// profile and precision.
struct FormatModelColumn {
    std::vector<spmv::model::VariantPrediction> predictions;
    std::vector<spmv::model::KernelShape> shapes;  ///< the predictions' shapes, in their order
    spmv::model::FormatModelConstants constants;   ///< what they were priced with
    spmv::model::Precision precision = spmv::model::Precision::double_precision;
    std::string profile;
    std::string error;  ///< why there are no shapes (an empty matrix)
};

/// Predicts every variant with the run's parameters (the layouts the run times), with the
/// profile's built-in constants unless `constants` is given. Never throws: a matrix the model
/// cannot take (no rows or no nonzeros) gives no predictions and `error`.
FormatModelColumn make_format_model(const spmv::Csr<double, std::int32_t>& a,
                                    const spmv::FormatParams& params,
                                    const spmv::model::GpuProfile& profile,
                                    spmv::model::Precision precision,
                                    const spmv::model::FormatModelConstants* constants = nullptr);

/// The model's prediction for `variant`; {feasible = false, why_not} when the model does not
/// know the variant (spmv::model::find_modelled_variant), has no shapes or no constants for it.
/// Never throws.
spmv::model::FormatPrediction format_model_prediction(const FormatModelColumn& model,
                                                      const std::string& variant);

/// Fills model_s, model_gflops, model_bound, model_profile, model_note and (for GPU rows with
/// a time) measured_over_model from the format model's prediction for row.variant.
void attach_format_model(TimingRow& row, const FormatModelColumn& model);

/// The reference lines of the timing chart in GF/s, from the rows shown, each named for what
/// it is (docs/gui.md "Timing"):
///   traffic bound    the highest traffic_gflops of the rows: the fewest DRAM bytes of any
///                    variant shown / B_GPU. No per-format prediction lies above it (each
///                    model_gflops <= its own traffic_gflops <= this).
///   Kreutzer eq. 1   predicted_gflops at kreutzer_alpha. It is a bound on this chart only
///                    when no row's model_gflops exceeds it (kreutzer_is_bound); otherwise the
///                    chart labels it as the paper's line under assumptions the fitted model
///                    does not share (every x load from DRAM, y read and written).
///   fitted model     each row's model_gflops (a marker per variant).
struct TimingChartLines {
    double traffic_gflops = 0.0;     ///< 0: no row has a traffic bound
    std::string traffic_variant;     ///< the row with the fewest DRAM bytes
    double kreutzer_gflops = 0.0;    ///< 0: no Kreutzer prediction
    double kreutzer_alpha = 0.0;
    bool kreutzer_is_bound = true;
    double max_model_gflops = 0.0;   ///< the fastest per-format prediction shown
};
TimingChartLines timing_chart_lines(std::span<const TimingRow> rows);

/// Median of a list of times (empty: 0).
double median_ms(std::vector<double> times);
