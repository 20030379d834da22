#pragma once
/// The figures of `spmvlab plot` (docs/plot.md): bench records (records.hpp) -> charts
/// (charts.hpp), one per figure and precision. A figure the data cannot give (no cuSPARSE
/// baseline, no copy bandwidth, no GPU model for the device) is not built; the reason goes to
/// `notes` instead.
///
///   gflops_variants_P   every variant's GF/s over the matrices: box (quartiles, median) and
///                       one dot per matrix, sorted by median; note: on how many matrices it
///                       was the fastest
///   gflops_matrices_P   per matrix: the fastest own variant (named), the fastest cuSPARSE
///                       variant, and the range slowest..fastest own variant
///   bandwidth_P         per matrix: % of the measured copy bandwidth reached by the fastest
///                       own variant and by cuSPARSE, against the bytes an SpMV must move
///   speedup_cusparse_P  per matrix: fastest own variant / cuSPARSE CSR ALG1 and / the fastest
///                       cuSPARSE variant, against nnz
///   model_P             predicted (spmv/model/format_model.hpp, built-in constants of the
///                       device's profile) against measured time of every modelled variant
/// P is the precision, dp or sp.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <spmv/formats/csr.hpp>

#include "plot/charts.hpp"
#include "plot/records.hpp"

namespace spmvlab::plot {

/// Matches BenchData rows to the user's --variants list (empty: all). cuSPARSE baselines are
/// always kept: they are the reference of the speedup figure.
bool selected(const Measurement& m, const std::vector<std::string>& variants);

/// The provenance lines of every figure: device, precision, cache policy, layout parameters;
/// commits, dates and files of the records.
std::vector<std::string> provenance(const BenchData& d, const std::string& precision);

RowsChart gflops_variants_chart(const BenchData& d, const std::string& precision,
                                const std::vector<std::string>& variants);
RowsChart gflops_matrices_chart(const BenchData& d, const std::string& precision,
                                const std::vector<std::string>& variants);
/// Nothing (and why) without a copy bandwidth or minimum bytes in the records.
std::optional<ScatterChart> bandwidth_chart(const BenchData& d, const std::string& precision,
                                            const std::vector<std::string>& variants,
                                            std::string* why_not);

/// One matrix of the speedup figure.
struct Speedup {
    std::string matrix;
    std::int64_t nnz = 0;
    std::string best_own;
    double best_own_gflops = 0;
    double alg1_gflops = 0;           ///< NaN when cusparse_csr_alg1 was not timed
    std::string best_baseline;
    double best_baseline_gflops = 0;
};
/// Per matrix of `precision` with an own variant and a cuSPARSE baseline, in nnz order.
std::vector<Speedup> speedups(const BenchData& d, const std::string& precision,
                              const std::vector<std::string>& variants);
/// Nothing (and why) without cuSPARSE baselines.
std::optional<ScatterChart> speedup_chart(const BenchData& d, const std::string& precision,
                                          const std::vector<std::string>& variants,
                                          std::string* why_not);

/// A measured time with the model's prediction for it.
struct ModelPoint {
    Measurement measured;
    double predicted_s = 0;
    std::string bound;  ///< the model term that set the time ("DRAM bandwidth", ...)
};
/// Loads a record's matrix by name (nothing when it cannot be found).
using MatrixLoader =
    std::function<std::optional<spmv::Csr<double, std::int32_t>>(const std::string& matrix)>;
struct ModelPoints {
    std::vector<ModelPoint> points;
    std::string constants;            ///< where the model's constants come from
    std::vector<std::string> missing; ///< matrices the loader did not find
};
/// Predictions for every selected, modelled variant of `d` (all precisions); each matrix is
/// loaded once. Nothing (and why) when the device has no GPU profile (a CPU record).
std::optional<ModelPoints> model_points(const BenchData& d, const std::vector<std::string>& variants,
                                        const MatrixLoader& load, std::string* why_not);
std::optional<ScatterChart> model_chart(const BenchData& d, const std::string& precision,
                                        const ModelPoints& mp, std::string* why_not);

}  // namespace spmvlab::plot
