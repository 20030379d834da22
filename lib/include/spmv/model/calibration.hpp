#pragma once
/// Fitting the format model's constants (format_model.hpp) to measured SpMV times, and judging
/// the fit on records it was not fitted on. Host only; the CLI's `spmvlab model fit` reads the
/// records (bench JSON) and the matrices and calls these.
///
/// The fit: B_GPU stays the profile's (a measured streaming bandwidth, not a free constant);
/// B_L2, tau and, per kernel variant, F_v, c_v and e_v minimise the sum over the samples of
/// (ln predicted - ln measured)^2 (plus 1e-3 (ln e_v)^2 per variant, a pull toward e_v = 1):
/// relative errors count alike at 5 us and at 5 ms. Per variant the constants are found by
/// alternating golden-section searches in log space (they only touch that variant's samples;
/// F and c first, then e_v in [0.25, 1] with them), B_L2 and tau by golden-section searches
/// around them (B_L2 prices every variant's streamed sectors, e_v only its x gather, so both
/// are identifiable). Deterministic.
///
/// The validation (the advisor's bars of issue 20), per matrix and precision of the held-out
/// set: the first choice = the variant with the least predicted time among those measured
/// without error; "within 10 %" = its measured time <= 1.10 x the fastest measured own variant;
/// "prediction within 25 %" = |predicted / measured - 1| <= 0.25 for that first choice; and the
/// Spearman rank correlation of predicted and measured times over the variants.
#include <string>
#include <vector>

#include <spmv/model/format_model.hpp>

namespace spmv::model {

struct Sample {
    std::string matrix;
    Precision precision = Precision::double_precision;
    KernelShape shape;      ///< the variant on this matrix
    double measured_s = 0;  ///< median time of the record
};

/// Fits B_L2, tau and every variant's F_v, c_v, e_v present in `samples`; variants without
/// samples keep `start`'s constants. bandwidth_gbs and profile come from `start`.
FormatModelConstants fit(const std::vector<Sample>& samples, const FormatModelConstants& start);

/// One matrix and precision of a validation.
struct ChoiceCheck {
    std::string matrix;
    Precision precision = Precision::double_precision;
    std::string chosen;           ///< the model's first choice
    double chosen_measured_s = 0;
    double chosen_predicted_s = 0;
    std::string fastest;          ///< the fastest measured variant
    double fastest_measured_s = 0;
    double slowdown = 1;          ///< chosen_measured / fastest_measured
    double prediction_ratio = 1;  ///< chosen_predicted / chosen_measured
    double rank_correlation = 1;  ///< Spearman over the measured variants
    int variants = 0;
    bool within_10 = true;
    bool predicted_within_25 = true;
};

struct Validation {
    std::vector<ChoiceCheck> checks;
    int within_10 = 0;
    int predicted_within_25 = 0;
    double median_ratio = 1;        ///< median of predicted / measured over every sample
    double worst_ratio = 1;         ///< the ratio farthest from 1 (max(r, 1/r) largest)
    double median_abs_log_error = 0;
    double median_rank_correlation = 1;
};

/// Validates `constants` on `samples` (grouped by matrix and precision).
Validation validate(const std::vector<Sample>& samples, const FormatModelConstants& constants);

/// Spearman's rank correlation of two equally long lists (ties get their mean rank); 1 for
/// fewer than two entries.
double spearman(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace spmv::model
