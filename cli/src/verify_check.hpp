#pragma once
/// The accuracy criterion of `spmvlab verify`, shared by the host and GPU paths.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include <spmv/formats/csr.hpp>

namespace spmvlab {

/// Result of comparing y against the double-precision CSR reference.
struct Accuracy {
    double relative_error = 0.0;  ///< ||y - ref||_2 / ||ref||_2 (what users read)
    double scaled_error = 0.0;    ///< max_i |y_i - ref_i| / s_i, s_i = |alpha| (|A| |x|)_i + |beta| |y0_i|
    double bound = 0.0;           ///< allowed scaled error, the same rule as spmv::gpu::verify
    bool unwritten = false;       ///< an output entry stayed NaN (poisoned and never written)
    bool pass() const { return !unwritten && scaled_error <= bound; }
};

/// Componentwise forward-error test (Higham §3.1): any summation order of a row of L products
/// plus the alpha/beta operations is within gamma_{L+3} s_i of the exact result, so we allow
/// max(floor, 2 (L_max + 3) u) with floor 1e-12 (double) / 1e-5 (float): the rule of
/// kernels/include/spmv/gpu/verify.hpp, so host and GPU verdicts mean the same. Unlike a plain
/// relative error this does not fail on rows whose result cancels to ~0.
template <typename V>
Accuracy check_accuracy(const spmv::Csr<double, std::int32_t>& a, double alpha,
                        std::span<const double> x, double beta, std::span<const double> y0,
                        std::span<const double> ref, std::span<const V> y)
{
    Accuracy r;
    const double u = std::numeric_limits<V>::epsilon() / 2;
    std::int64_t max_len = 0;
    double num = 0.0;
    double den = 0.0;
    for (std::int32_t i = 0; i < a.num_rows; ++i) {
        double s = std::abs(beta) * std::abs(y0[i]);
        for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
            s += std::abs(alpha) * std::abs(a.values[k]) * std::abs(x[a.col_idxs[k]]);
        }
        max_len = std::max<std::int64_t>(max_len, a.row_ptrs[i + 1] - a.row_ptrs[i]);
        const double yi = static_cast<double>(y[i]);
        if (std::isnan(yi)) {
            r.unwritten = true;
            continue;
        }
        const double d = std::abs(yi - ref[i]);
        num += d * d;
        den += ref[i] * ref[i];
        r.scaled_error = std::max(r.scaled_error, s > 0 ? d / s : (d > 0 ? INFINITY : 0.0));
    }
    r.relative_error = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
    const double floor = sizeof(V) == 8 ? 1e-12 : 1e-5;
    r.bound = std::max(floor, 2.0 * static_cast<double>(max_len + 3) * u);
    return r;
}

}  // namespace spmvlab
