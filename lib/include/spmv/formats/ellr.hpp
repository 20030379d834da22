#pragma once
/// ELLPACK-R (ELLR): the ELLPACK layout plus the length of every row (`rowmax[]` in Kreutzer
/// Listing 1, `rl[]` in PELLR §2.3.2), so that a thread stops at the end of its own row instead
/// of multiplying the padding. Storage is the same as ELL; computation is the minimum.
///
/// A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], x = (1,2,3,4), A x = (19, 8, 51, 52)
/// row_lengths = [3 1 3 2], width 3, stride 4
/// col_idxs = [0 1 0 1 | 2 - 2 3 | 3 - 3 -]      (- = padding_index, value 0)
/// values   = [1 4 5 8 | 2 0 6 9 | 3 0 7 0]      12 stored, 3 padding
/// Thread 1 (row 1) runs 1 iteration: y1 = 4*x1 = 8; thread 3: y3 = 8*2 + 9*4 = 52.
/// Footprint (double, int32): values 9*8 = 72, indices 9*4 = 36, row_lengths 4*4 = 16 (aux),
/// padding 3*(8+4) = 36: 160 bytes.
/// Invariants: slot (row i, column j) lives at j * stride + i; stride == num_rows;
/// 0 <= row_lengths[i] <= width and width == max row length; the first row_lengths[i] slots of
/// row i are real entries (column in range, strictly increasing), the rest are padding
/// (padding_index, value 0).
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/types.hpp>

namespace spmv {

template <typename ValueType, typename IndexType = std::int32_t>
struct EllR {
    using value_type = ValueType;
    using index_type = IndexType;

    IndexType num_rows = 0;
    IndexType num_cols = 0;
    IndexType width = 0;   ///< max row length (N_nzr^max)
    IndexType stride = 0;  ///< leading dimension (= num_rows)
    std::vector<IndexType> col_idxs;
    std::vector<ValueType> values;
    std::vector<IndexType> row_lengths;  ///< rowmax[] / rl[]: entries of each row
};

struct EllROptions {};

template <typename ValueType, typename IndexType>
EllR<ValueType, IndexType> to_ellr(const Csr<ValueType, IndexType>& a, const EllROptions& = {});

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const EllR<ValueType, IndexType>& a);

/// Throws InvalidLayout if an invariant above is broken.
template <typename ValueType, typename IndexType>
void validate(const EllR<ValueType, IndexType>& a);

template <typename ValueType, typename IndexType>
std::int64_t nnz(const EllR<ValueType, IndexType>& a);

/// Same slots as ELL; row_lengths counts as auxiliary bytes.
template <typename ValueType, typename IndexType>
Footprint footprint(const EllR<ValueType, IndexType>& a);

/// One thread per row: iterations = useful = row length, stored = width.
template <typename ValueType, typename IndexType>
ThreadWork thread_work(const EllR<ValueType, IndexType>& a);

/// Mirrors Kreutzer Listing 1: for(j = 0; j < rowmax[i]; ++j) c[i] += val[j*N+i]*rhs[col[j*N+i]].
template <typename ValueType, typename IndexType>
void spmv_reference(const EllR<ValueType, IndexType>& a, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order = RowOrder::original);

}  // namespace spmv
