#pragma once
// Qt-free rows of the timing view: a measured time (GPU kernel via spmv::gpu::bench, or the
// CPU reference SpMV) next to two predictions: Kreutzer's format-agnostic traffic bound
// (spmv::model::predict on the row statistics, one rate for every format) and the per-variant
// format model (spmv::model::format_model.hpp: that kernel's traffic, gather and latency on
// this matrix, for a GPU profile). Tested in tests/gui.
#include <cstdint>
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
    std::string device;     ///< GPU name or "CPU reference (1 thread)"
    bool baseline = false;  ///< cuSPARSE reference
    bool gpu = false;
    double median_ms = 0.0;
    double gflops = 0.0;                  ///< 2 nnz / median
    double effective_gbs = 0.0;           ///< bench's minimum bytes / median (GPU and CPU)
    double fraction_of_copy = 0.0;        ///< of the measured copy bandwidth (GPU only)
    double predicted_gflops = 0.0;        ///< model: 2 nnz / T_MVM for the chosen profile
    double fraction_of_prediction = 0.0;  ///< gflops / predicted_gflops (the bandwidth limit)
    /// The format model's time for this variant on a GPU of `model_profile` (0: the model does
    /// not know the variant, e.g. a cuSPARSE baseline or CSC, or it cannot run the matrix).
    double model_s = 0.0;
    double model_gflops = 0.0;  ///< 2 nnz / model_s
    std::string model_bound;    ///< what bounds it, e.g. "latency", "DRAM bandwidth"
    std::string model_profile;  ///< the GPU profile the model time is for, e.g. "H100"
    std::string model_note;     ///< why there is no model time (unknown variant, infeasible)
    /// measured / model time (GPU rows only: a CPU time over a GPU prediction means nothing).
    double measured_over_model = 0.0;
    std::string error;  ///< why the variant did not run (out of memory, ...)
};

/// GFLOP/s of `nnz` nonzeros in `ms` milliseconds: 2 nnz / t (SPEC §2); 0 for t <= 0.
double gflops_of(std::int64_t nnz, double ms);

/// Fills predicted_gflops and fraction_of_prediction from a model prediction.
void attach_prediction(TimingRow& row, const spmv::model::Prediction& prediction);

/// The format model of one timing run: every modelled variant's kernel shape of the matrix
/// (counted once per run, O(nnz + N log N)), priced for one GPU profile and precision.
struct FormatModelColumn {
    std::vector<spmv::model::KernelShape> shapes;
    spmv::model::FormatModelConstants constants;
    spmv::model::Precision precision = spmv::model::Precision::double_precision;
    std::string profile;
    std::string error;  ///< why there are no shapes (an empty matrix)
};

/// Counts the shapes with the run's parameters (the layouts the run times). Never throws: a
/// matrix the model cannot take (no rows or no nonzeros) gives no shapes and `error`.
FormatModelColumn make_format_model(const spmv::Csr<double, std::int32_t>& a,
                                    const spmv::FormatParams& params,
                                    const spmv::model::GpuProfile& profile,
                                    spmv::model::Precision precision);

/// The model's prediction for `variant`; {feasible = false, why_not} when the model does not
/// know the variant (spmv::model::find_modelled_variant), has no shapes or no constants for it.
/// Never throws.
spmv::model::FormatPrediction format_model_prediction(const FormatModelColumn& model,
                                                      const std::string& variant);

/// Fills model_s, model_gflops, model_bound, model_profile, model_note and (for GPU rows with
/// a time) measured_over_model from the format model's prediction for row.variant.
void attach_format_model(TimingRow& row, const FormatModelColumn& model);

/// Median of a list of times (empty: 0).
double median_ms(std::vector<double> times);
