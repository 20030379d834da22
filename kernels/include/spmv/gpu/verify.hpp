#pragma once
/// GPU verification: run a device matrix on random x and y and compare with the host CSR
/// reference computed in double precision from the same (rounded) data.
///
/// Error measure (componentwise, scaled by what the row could lose to rounding):
///   error = max_i |y_gpu[i] - y_ref[i]| / s_i,   s_i = |alpha| sum_j |a_ij x_j| + |beta y_in[i]|
/// (0/0 counts as 0, NaN or inf anywhere as a failure). Any summation order of a row of L
/// products, followed by the alpha and beta operations, satisfies
///   |y_gpu[i] - y_ref[i]| <= gamma_{L+3} s_i,  gamma_n = n u / (1 - n u)
/// (Higham, Accuracy and Stability of Numerical Algorithms, §3.1), u = 2^-53 in double and
/// 2^-24 in float; the reference's own error is gamma_{L+3} in double, negligible for float and
/// inside the factor 2 below for double. Hence the tolerance
///   tol = max(floor, 2 (L_max + 3) u),   floor = 1e-12 (double), 1e-5 (float):
/// the floors are the project's thresholds; the row-length term takes over for rows longer than
/// about 4500 entries (double) or 80 entries (float), where the bound itself grows. A kernel
/// that drops or doubles one entry of a row is off by about 1/L relative to s_i: far above tol.
#include <cstdint>
#include <string>

#include <spmv/formats/csr.hpp>
#include <spmv/gpu/device_matrix.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/registry.hpp>

namespace spmv::gpu {

struct VerifyOptions {
    double alpha = -0.75;  ///< exactly representable in float and double
    double beta = 0.5;     ///< != 0 and != 1: a row the kernel forgets to write is caught
    std::uint32_t seed = 20120401;
};

struct VerifyResult {
    double error = 0.0;            ///< max of the three errors below
    double error_general = 0.0;    ///< y = alpha A x + beta y, random x and y
    double error_beta_zero = 0.0;  ///< beta = 0 with y poisoned by NaN beforehand
    double error_permuted = 0.0;   ///< permuted formats: RowOrder::permuted, then unpermute()
    double normwise_error = 0.0;   ///< ||y_gpu - y_ref||_2 / ||y_ref||_2 of the general run
    double tolerance = 0.0;
    std::int64_t max_row_length = 0;
    bool passed = false;
    std::string message;  ///< one line: variant, errors, tolerance, first bad row if any
};

/// max(floor, 2 (max_row_length + 3) u) as explained above.
template <typename ValueType>
double verify_tolerance(std::int64_t max_row_length);

/// Checks `m` (assembled from `a`) against the double-precision CSR reference.
template <typename ValueType>
VerifyResult verify(const DeviceMatrix<ValueType>& m, const Csr<ValueType, std::int32_t>& a,
                    const VerifyOptions& options = {});

/// prepare(v, a, params), then verify.
template <typename ValueType>
VerifyResult verify(const KernelVariant& v, const Csr<ValueType, std::int32_t>& a,
                    const FormatParams& params = {}, const VerifyOptions& options = {});

}  // namespace spmv::gpu
