#pragma once
/// Checks shared by the fuzz targets: a violated expectation prints one line saying which and
/// calls abort(), which libFuzzer reports as a crash and saves the input for. Exceptions are no
/// use here: every target catches spmv::Error (the expected rejections), and a check that threw
/// one would hide the finding it exists to report.
///
/// check_csr() re-checks CSR's invariants (spmv/formats/csr.hpp) independently of
/// spmv::validate(), in one pass over the arrays, so that it stays cheap next to the parsing
/// or generating that produced the matrix.
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>

#include <spmv/formats/csr.hpp>

namespace spmv::fuzz {

/// Prints "fuzz check failed: <what>" and aborts.
[[noreturn]] inline void fail(const char* what)
{
    std::fprintf(stderr, "fuzz check failed: %s\n", what);
    std::fflush(stderr);
    std::abort();
}

/// Aborts via fail(what) unless `cond` holds.
inline void check(bool cond, const char* what)
{
    if (!cond) {
        fail(what);
    }
}

/// Aborts unless `a` is a valid CSR: non-negative sizes, num_rows + 1 row pointers from 0 to
/// nnz that never decrease, as many values as column indices, and in every row column indices
/// in [0, num_cols) that strictly increase (sorted, no duplicates). With `finite_values`, every
/// value must also be finite (neither a Matrix Market file nor a generator may yield NaN/inf).
template <typename ValueType, typename IndexType>
void check_csr(const Csr<ValueType, IndexType>& a, bool finite_values = true)
{
    check(a.num_rows >= 0 && a.num_cols >= 0, "CSR: negative size");
    const auto rows = static_cast<std::size_t>(a.num_rows);
    check(a.row_ptrs.size() == rows + 1, "CSR: row_ptrs.size() != num_rows + 1");
    check(a.row_ptrs.front() == 0, "CSR: row_ptrs[0] != 0");
    check(static_cast<std::size_t>(a.row_ptrs.back()) == a.col_idxs.size(),
          "CSR: row_ptrs[num_rows] != col_idxs.size()");
    check(a.values.size() == a.col_idxs.size(), "CSR: values.size() != col_idxs.size()");
    for (std::size_t i = 0; i < rows; ++i) {
        const IndexType begin = a.row_ptrs[i];
        const IndexType end = a.row_ptrs[i + 1];
        check(begin <= end, "CSR: row_ptrs decreases");
        for (IndexType k = begin; k < end; ++k) {
            const IndexType col = a.col_idxs[static_cast<std::size_t>(k)];
            check(col >= 0 && col < a.num_cols, "CSR: column index out of range");
            check(k == begin || a.col_idxs[static_cast<std::size_t>(k) - 1] < col,
                  "CSR: columns of a row not strictly increasing");
        }
    }
    if (finite_values) {
        for (const ValueType v : a.values) {
            check(std::isfinite(v), "CSR: value not finite");
        }
    }
}

}  // namespace spmv::fuzz
