#pragma once
/// A cheap screen for the matrices CG is defined for: symmetric positive definite (SPD). Being
/// SPD cannot be checked cheaply, but two necessary conditions can, in O(nnz log(row length)):
/// A = A^T, and every diagonal entry present and positive (a_ii = e_i^T A e_i > 0 for SPD A).
/// A matrix that passes may still be indefinite (CG then reports a breakdown); one that fails
/// is certainly not SPD, and the result names the first entry that shows it.
///
/// Example: [[2, 1], [0, 2]] fails symmetry at (0, 1): a_01 = 1, a_10 = 0; -I passes symmetry
/// and fails the diagonal at (0, 0) = -1.
#include <cstdint>
#include <string>

#include <spmv/formats/csr.hpp>

namespace spmv::analysis {

struct SpdScreen {
    bool square = true;
    bool symmetric = true;
    bool positive_diagonal = true;
    /// The first asymmetric pair (row-major order of (row, col)): a(row, col) != a(col, row),
    /// a missing entry counting as 0, within relative tolerance `tol` of the larger magnitude.
    std::int64_t row = -1;
    std::int64_t col = -1;
    double a_rc = 0.0;
    double a_cr = 0.0;
    /// The first row whose diagonal entry is missing or not positive, and that entry (0 when
    /// missing).
    std::int64_t diag_row = -1;
    double diag_value = 0.0;

    bool passes() const noexcept { return square && symmetric && positive_diagonal; }
    /// "" when it passes, else one sentence: "not symmetric: a(0, 1) = 1 but a(1, 0) = 0".
    std::string reason() const;
};

/// Checks the two conditions above. `tol` is relative (entries from a file rounded to 16
/// digits differ by ~1e-16 relative; the default leaves room for that).
SpdScreen screen_spd(const Csr<double, std::int32_t>& a, double tol = 1e-12);

}  // namespace spmv::analysis
