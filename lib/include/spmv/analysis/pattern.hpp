#pragma once
/// What the pattern view says about a matrix besides its picture: the structural and numerical
/// symmetry of the pattern, the sign and magnitude range of its values (for colouring by value)
/// and the number of nonzeros of every column (drawn beside the pattern, as SparseViz does).
/// One pass over the CSR arrays plus one binary search per off-diagonal entry.
///
/// Example, A = [4 -1 0; -1 4 2; 0 0 0.5] (3 x 3):
///   off-diagonal entries (0,1), (1,0), (1,2): (0,1) and (1,0) mirror each other, (1,2) has no
///   (2,1) -> structural symmetry 2/3; both mirrored pairs hold equal values -> numerical 2/3;
///   negatives 2, |a| in [0.5, 4], column counts [2 2 2].
#include <cstdint>
#include <vector>

#include <spmv/formats/csr.hpp>

namespace spmv::analysis {

struct PatternFacts {
    bool square = false;
    std::int64_t off_diagonal = 0;  ///< stored entries with i != j
    std::int64_t mirrored = 0;      ///< of those, entries (i, j) whose (j, i) is stored too
    std::int64_t mirrored_equal = 0;  ///< of those, entries with a(i, j) == a(j, i)
    std::int64_t negatives = 0;     ///< stored entries < 0
    std::int64_t zeros = 0;         ///< explicitly stored zeros
    double abs_min = 0.0;           ///< smallest |a(i, j)| over the nonzero values (0: none)
    double abs_max = 0.0;           ///< largest |a(i, j)|
    /// The 1st and 99th percentile of the nonzero |a(i, j)|, to a factor of 2 (a histogram of
    /// binary exponents): the colour scale of the pattern's magnitude view, which a few
    /// outliers (1e-70 next to 1e4) would otherwise flatten. Equal to abs_min / abs_max when
    /// every value lies within a factor of 2 of them.
    double abs_low = 0.0;
    double abs_high = 0.0;
    bool finite = true;             ///< false when a value is NaN or infinite

    /// mirrored / off_diagonal: 1 for a symmetric pattern (and for a diagonal matrix), 0 for a
    /// strictly triangular one; 0 for a matrix that is not square.
    double structural_symmetry() const noexcept
    {
        if (!square) return 0.0;
        return off_diagonal == 0 ? 1.0
                                 : static_cast<double>(mirrored) / static_cast<double>(off_diagonal);
    }
    /// mirrored_equal / off_diagonal (1 for a symmetric matrix).
    double numerical_symmetry() const noexcept
    {
        if (!square) return 0.0;
        return off_diagonal == 0
                   ? 1.0
                   : static_cast<double>(mirrored_equal) / static_cast<double>(off_diagonal);
    }
};

/// The facts above; columns within a row must be sorted (as every Csr of the library is).
template <typename ValueType>
PatternFacts pattern_facts(const Csr<ValueType, std::int32_t>& a);

/// Stored entries of every column (size num_cols).
template <typename ValueType>
std::vector<std::int32_t> column_counts(const Csr<ValueType, std::int32_t>& a);

}  // namespace spmv::analysis
