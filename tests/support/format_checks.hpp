#pragma once
/// Small matrices and checks that several format tests share (tests/formats/test_*.cpp). Each
/// check is a list of Catch2 assertions on a layout the caller built, so the test keeps its own
/// format-specific expectations (arrays, footprints) next to the shared ones. Works for any
/// format with the SparseFormat functions (spmv_reference, to_csr, validate).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/error.hpp>
#include <spmv/formats/csr.hpp>
#include <spmv/types.hpp>

#include "test_matrices.hpp"

namespace spmv::test {

using Ints = std::vector<int>;
using Doubles = std::vector<double>;
using Counts = std::vector<std::int64_t>;

/// y = alpha A x + beta y through the format's spmv_reference; returns y.
template <typename F>
std::vector<double> apply(const F& f, std::vector<double> x, std::vector<double> y, double alpha,
                          double beta, RowOrder order)
{
    spmv_reference(f, alpha, std::span<const double>(x), beta, std::span<double>(y), order);
    return y;
}

/// A x (alpha 1, beta 0, y starting at 0) in the given row order.
template <typename F>
std::vector<double> multiply(const F& f, const std::vector<double>& x, RowOrder order)
{
    return apply(f, x, std::vector<double>(static_cast<std::size_t>(f.num_rows), 0.0), 1.0, 0.0,
                 order);
}

/// Row r has entries in columns 0..len[r]-1 with value 10*(r+1) + column, so a value tells
/// which original row and which column a slot holds.
inline Csr<double, std::int32_t> rows_of_lengths(const std::vector<int>& len, int cols)
{
    Csr<double, std::int32_t> a;
    a.num_rows = static_cast<int>(len.size());
    a.num_cols = cols;
    for (std::size_t r = 0; r < len.size(); ++r) {
        for (int c = 0; c < len[r]; ++c) {
            a.col_idxs.push_back(c);
            a.values.push_back(10.0 * static_cast<double>(r + 1) + c);
        }
        a.row_ptrs.push_back(static_cast<int>(a.values.size()));
    }
    return a;
}

/// A = [0 7 0 0 1; 0 0 0 0 0; 2 0 0 3 0]: rectangular, an empty row and an empty column.
inline Csr<double, std::int32_t> rect3x5()
{
    const std::vector<std::int32_t> r{0, 0, 2, 2}, c{1, 4, 0, 3};
    const std::vector<double> v{7, 1, 2, 3};
    return csr_from_triplets<double, std::int32_t>(3, 5, r, c, v);
}

/// 5x3 with empty rows 0, 2, 4: row 1 = (0:1, 2:2), row 3 = (1:3).
inline Csr<double, std::int32_t> empty_rows5x3()
{
    Csr<double, std::int32_t> a;
    a.num_rows = 5;
    a.num_cols = 3;
    a.row_ptrs = {0, 0, 2, 2, 3, 3};
    a.col_idxs = {0, 2, 1};
    a.values = {1, 2, 3};
    return a;
}

/// 2x5: row 0 = (1:1, 4:2), row 1 = (0:3, 2:4, 3:5); sorted by length, row 1 comes first.
inline Csr<double, std::int32_t> wide2x5()
{
    Csr<double, std::int32_t> a;
    a.num_rows = 2;
    a.num_cols = 5;
    a.row_ptrs = {0, 2, 5};
    a.col_idxs = {1, 4, 0, 2, 3};
    a.values = {1, 2, 3, 4, 5};
    return a;
}

/// f holds canonical4(): y = 2 A x - y for x = (1, 2, 3, 4), y = (1, 1, 1, 1) is
/// (37, 15, 101, 103), and beta == 0 overwrites a y full of NaN with A x = (19, 8, 51, 52).
template <typename F>
void check_canonical4_alpha_beta(const F& f)
{
    std::vector<double> x{1, 2, 3, 4}, y{1, 1, 1, 1};
    spmv_reference(f, 2.0, std::span<const double>(x), -1.0, std::span<double>(y));
    CHECK(y == std::vector<double>{37, 15, 101, 103});
    std::vector<double> y_nan(4, std::nan(""));
    spmv_reference(f, 1.0, std::span<const double>(x), 0.0, std::span<double>(y_nan));
    CHECK(y_nan == std::vector<double>{19, 8, 51, 52});
}

/// f holds a: validate passes, the round trip is exact, and A x (original row order) matches
/// CSR's spmv_reference to 1e-14 for a random x (random_vector(num_cols, seed)).
template <typename F>
void check_matches_csr(const F& f, const Csr<double, std::int32_t>& a, std::uint32_t seed = 1)
{
    CHECK_NOTHROW(validate(f));
    CHECK(to_csr(f) == a);
    const auto x = random_vector(static_cast<std::size_t>(a.num_cols), seed);
    std::vector<double> expected(static_cast<std::size_t>(a.num_rows));
    spmv_reference(a, 1.0, std::span<const double>(x), 0.0, std::span<double>(expected));
    CHECK(relative_error(multiply(f, x, RowOrder::original), expected) < 1e-14);
}

/// f holds rect3x5(): A x for x = (1, 2, 3, 4, 5) is (19, 0, 14) and overwrites y (beta 0, y
/// starting at -1, so the empty row must be written too); the round trip is exact; validate
/// passes.
template <typename F>
void check_rect3x5(const F& f)
{
    std::vector<double> x{1, 2, 3, 4, 5}, y(3, -1.0);
    spmv_reference(f, 1.0, std::span<const double>(x), 0.0, std::span<double>(y));
    CHECK(y == std::vector<double>{19, 0, 14});
    CHECK(to_csr(f) == rect3x5());
    REQUIRE_NOTHROW(validate(f));
}

/// f holds wide2x5() with its rows sorted (row_perm = [1 0]): A x for x = (1, 2, 3, 4, 5) is
/// (12, 35), (35, 12) in the permuted basis; the round trip is exact.
template <typename F>
void check_wide2x5_sorted(const F& f)
{
    const std::vector<double> x{1, 2, 3, 4, 5};
    CHECK(apply(f, x, {0, 0}, 1.0, 0.0, RowOrder::original) == std::vector<double>{12, 35});
    CHECK(apply(f, x, {0, 0}, 1.0, 0.0, RowOrder::permuted) == std::vector<double>{35, 12});
    CHECK(to_csr(f) == wide2x5());
}

/// f is a valid layout: validate passes, and throws InvalidLayout once num_rows (-2) or
/// num_cols (-1) is negative.
template <typename F>
void check_rejects_negative_dimensions(F f)
{
    REQUIRE_NOTHROW(validate(f));
    auto rows = f;
    rows.num_rows = -2;
    CHECK_THROWS_AS(validate(rows), InvalidLayout);
    auto cols = f;
    cols.num_cols = -1;
    CHECK_THROWS_AS(validate(cols), InvalidLayout);
}

/// f is a valid layout of the canonical 4x4 with a row_perm: validate throws InvalidLayout when
/// row_perm is not a permutation of 0..3 (an index out of range, a repeated index, one entry
/// missing).
template <typename F>
void check_rejects_bad_row_perm(F f)
{
    REQUIRE_NOTHROW(validate(f));
    for (const auto& perm : {std::vector<int>{0, 2, 3, 4}, std::vector<int>{0, 2, 3, 3},
                             std::vector<int>{0, 2, 2, 1}, std::vector<int>{0, 2, 3}}) {
        auto g = f;
        g.row_perm = perm;
        CHECK_THROWS_AS(validate(g), InvalidLayout);
    }
}

/// f is a valid sorted-row layout (PELLR, pJDS) of the canonical 4x4, row lengths (3, 3, 2, 1)
/// and no padding rows: validate throws InvalidLayout when row_lengths is not sorted
/// (3, 2, 3, 1) or has one entry too few or too many.
template <typename F>
void check_rejects_bad_row_lengths(F f)
{
    REQUIRE_NOTHROW(validate(f));
    REQUIRE(f.row_lengths == std::vector<int>{3, 3, 2, 1});
    auto unsorted = f;
    unsorted.row_lengths = {3, 2, 3, 1};
    CHECK_THROWS_AS(validate(unsorted), InvalidLayout);
    auto shorter = f;
    shorter.row_lengths.pop_back();
    CHECK_THROWS_AS(validate(shorter), InvalidLayout);
    auto longer = f;
    longer.row_lengths.push_back(0);
    CHECK_THROWS_AS(validate(longer), InvalidLayout);
}

}  // namespace spmv::test
