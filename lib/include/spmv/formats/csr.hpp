#pragma once
/// CSR: compressed sparse rows, the hub format every other format is built from and returns to.
///
/// A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], x = (1,2,3,4), A x = (19, 8, 51, 52)
/// row_ptrs = [0 3 4 7 9]
/// col_idxs = [0 2 3 | 1 | 0 2 3 | 1 3]
/// values   = [1 2 3 | 4 | 5 6 7 | 8 9]                      9 stored, 0 padding
/// Invariants: row_ptrs has num_rows+1 non-decreasing entries from 0 to nnz; column indices
/// are in [0, num_cols) and strictly increasing within a row (sorted, no duplicates).
/// The reference SpMV is the "CSR scalar" loop of PELLR §2.2: one row per (virtual) thread.
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/types.hpp>

namespace spmv {

template <typename ValueType, typename IndexType = std::int32_t>
struct Csr {
    using value_type = ValueType;
    using index_type = IndexType;

    IndexType num_rows = 0;
    IndexType num_cols = 0;
    std::vector<IndexType> row_ptrs{0};
    std::vector<IndexType> col_idxs;
    std::vector<ValueType> values;

    friend bool operator==(const Csr&, const Csr&) = default;
};

/// Builds a CSR matrix from unsorted triplets: entries are sorted by (row, column) and
/// duplicates are summed. Throws InvalidArgument for an index out of range.
template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> csr_from_triplets(IndexType num_rows, IndexType num_cols,
                                            std::span<const IndexType> rows,
                                            std::span<const IndexType> cols,
                                            std::span<const ValueType> values);

template <typename ValueType, typename IndexType>
std::int64_t nnz(const Csr<ValueType, IndexType>& a)
{
    return static_cast<std::int64_t>(a.values.size());
}

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const Csr<ValueType, IndexType>& a)
{
    return a;
}

/// Throws InvalidLayout if an invariant above is broken.
template <typename ValueType, typename IndexType>
void validate(const Csr<ValueType, IndexType>& a);

template <typename ValueType, typename IndexType>
Footprint footprint(const Csr<ValueType, IndexType>& a);

/// CSR scalar: thread i handles row i (iterations = useful = stored = row length).
template <typename ValueType, typename IndexType>
ThreadWork thread_work(const Csr<ValueType, IndexType>& a);

/// y = alpha * A x + beta * y. Throws DimensionMismatch on wrong vector sizes.
/// beta == 0 overwrites y (NaN in y does not propagate), as BLAS does.
template <typename ValueType, typename IndexType>
void spmv_reference(const Csr<ValueType, IndexType>& a, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order = RowOrder::original);

/// Number of entries of every row.
template <typename ValueType, typename IndexType>
std::vector<IndexType> row_lengths(const Csr<ValueType, IndexType>& a);

/// Same structure, values converted (e.g. double -> float for single-precision runs).
template <typename To, typename From, typename IndexType>
Csr<To, IndexType> convert_values(const Csr<From, IndexType>& a)
{
    Csr<To, IndexType> r;
    r.num_rows = a.num_rows;
    r.num_cols = a.num_cols;
    r.row_ptrs = a.row_ptrs;
    r.col_idxs = a.col_idxs;
    r.values.assign(a.values.begin(), a.values.end());
    for (std::size_t k = 0; k < a.values.size(); ++k) {
        r.values[k] = static_cast<To>(a.values[k]);
    }
    return r;
}

/// B = P A: row k of B is row perm[k] of A (perm is a permutation of 0..num_rows-1).
template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> permute_rows(const Csr<ValueType, IndexType>& a,
                                       std::span<const IndexType> perm);

/// B = P A P^T for a square A: B(k, l) = A(perm[k], perm[l]). Used to run solvers in the
/// permuted basis of a sorted format (permute b once, un-permute x once).
template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> permute_symmetric(const Csr<ValueType, IndexType>& a,
                                            std::span<const IndexType> perm);

/// The permutation that sorts rows by length, longest first; ties keep the original order
/// (stable), so the result is deterministic. Shared by JDS, pJDS, PELLR, BiJAD and SELL.
template <typename IndexType>
std::vector<IndexType> sort_by_length_desc(std::span<const IndexType> lengths);

/// Throws InvalidLayout unless `perm` is a permutation of 0..n-1.
template <typename IndexType>
void validate_permutation(std::span<const IndexType> perm, IndexType n, const char* what);

/// Checks the vector sizes of y = alpha A x + beta y; throws DimensionMismatch.
void check_spmv_dims(std::int64_t num_rows, std::int64_t num_cols, std::size_t x_size,
                     std::size_t y_size);

/// The CSR vector kernel's threads per row (kernels/src/csr.cu): the smallest power of two
/// >= mean row length / 2, clamped to [2, 32]. Here so that the host models of that kernel
/// (viz/coalescing.hpp) and the kernel itself use one rule.
inline int csr_vector_threads_per_row(double mean_row_length) noexcept
{
    int t = 2;
    while (t < 32 && t < mean_row_length / 2.0) {
        t *= 2;
    }
    return t;
}

}  // namespace spmv
