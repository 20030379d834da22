#pragma once
/// Matrices for property tests: small, irregular, reproducible. Independent of lib's generators
/// so that a generator bug cannot hide a format bug.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <spmv/formats/csr.hpp>

namespace spmv::test {

struct NamedMatrix {
    std::string name;
    Csr<double, std::int32_t> a;
};

/// The canonical 4x4 of STYLE.md: A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9].
Csr<double, std::int32_t> canonical4();

/// Random matrix with row lengths drawn in [min_len, max_len] (capped at cols), random columns.
Csr<double, std::int32_t> random_csr(std::int32_t rows, std::int32_t cols, int min_len,
                                     int max_len, std::uint32_t seed);

/// Kreutzer's pJDS worst case, n x n: row 0 full (values 1), the diagonal (values 2) in every
/// other row. ELLPACK stores n * n slots, pJDS (b_r + 1) n - b_r.
Csr<double, std::int32_t> one_full_row(std::int32_t n);

/// A zoo of shapes that break formats: 0x0, 1x1, empty rows, one full row, rectangular
/// (wide and tall), irregular lengths, more rows than a warp, constant row length.
std::vector<NamedMatrix> zoo();

/// The row_ptrs (lengths.size() + 1 entries from 0) of rows with these lengths.
std::vector<std::int32_t> row_ptrs_of(const std::vector<std::int32_t>& lengths);

/// Random vector with entries in [-1, 1] (never all zeros).
std::vector<double> random_vector(std::size_t n, std::uint32_t seed);

/// ||a - b||_2 / max(||b||_2, tiny)
double relative_error(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace spmv::test
