#pragma once
/// CSC: compressed sparse columns (Barbieri §2: "similar to CSR except that the matrix values
/// are read first by column, a row index is stored for each value, and column pointers are
/// stored"). The transpose layout of CSR.
///
/// A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], x = (1,2,3,4), A x = (19, 8, 51, 52)
/// col_ptrs = [0 2 4 6 9]
/// row_idxs = [0 2 | 1 3 | 0 2 | 0 2 3]
/// values   = [1 5 | 4 8 | 2 6 | 3 7 9]                      9 stored, 0 padding
/// Column by column, y = 0 + x0*(1,0,5,0) + x1*(0,4,0,8) + x2*(2,0,6,0) + x3*(3,0,7,9)
///                     = (1,0,5,0) + (0,8,0,16) + (6,0,18,0) + (12,0,28,36) = (19,8,51,52).
/// Footprint (double, int32): values 72, row indices 36, col_ptrs 5*4 = 20 (aux): 128 bytes.
/// Invariants: col_ptrs has num_cols+1 non-decreasing entries from 0 to nnz; row indices are
/// in [0, num_rows) and strictly increasing within a column (sorted, no duplicates).
/// The reference SpMV is a scatter: one (virtual) thread per column adds alpha*x[j]*A(:,j)
/// into y (on a GPU this needs atomics, since columns write to overlapping rows).
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/types.hpp>

namespace spmv {

template <typename ValueType, typename IndexType = std::int32_t>
struct Csc {
    using value_type = ValueType;
    using index_type = IndexType;

    IndexType num_rows = 0;
    IndexType num_cols = 0;
    std::vector<IndexType> col_ptrs{0};
    std::vector<IndexType> row_idxs;
    std::vector<ValueType> values;
};

struct CscOptions {};

template <typename ValueType, typename IndexType>
Csc<ValueType, IndexType> to_csc(const Csr<ValueType, IndexType>& a, const CscOptions& = {});

/// Exact inverse of to_csc: rows come out with increasing columns.
template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const Csc<ValueType, IndexType>& a);

/// Throws InvalidLayout if an invariant above is broken.
template <typename ValueType, typename IndexType>
void validate(const Csc<ValueType, IndexType>& a);

template <typename ValueType, typename IndexType>
std::int64_t nnz(const Csc<ValueType, IndexType>& a);

template <typename ValueType, typename IndexType>
Footprint footprint(const Csc<ValueType, IndexType>& a);

/// One thread per column (scatter kernel): iterations = useful = stored = column length.
template <typename ValueType, typename IndexType>
ThreadWork thread_work(const Csc<ValueType, IndexType>& a);

/// y = alpha * A x + beta * y: scale y by beta (beta == 0 overwrites), then column by column
/// y[row_idxs[k]] += alpha * values[k] * x[j].
template <typename ValueType, typename IndexType>
void spmv_reference(const Csc<ValueType, IndexType>& a, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order = RowOrder::original);

}  // namespace spmv
