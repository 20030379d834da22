#pragma once
/// PELLR, permuted ELLPACK-R (Wang & Gu §3, Fig. 5): sort all rows by length, longest first
/// (row_perm, the paper's perm[]), then store them as ELLPACK-R: an N x width rectangle,
/// column-major, plus rl[] (row_lengths, per sorted row) so that each thread stops at its own
/// row length. Sorting groups rows of similar length into the same warp, which lowers
/// N_iter = sum over warps of the longest row (eq. 1) without changing the work N_p (eq. 2).
///
/// A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], row lengths (3,1,3,2), width 3, stride 4
/// row_perm    = [0 2 3 1]
/// row_lengths = [3 3 2 1]                         (rl[] in sorted order)
/// col_idxs    = [0 0 1 1 | 2 2 3 - | 3 3 - -]     (- = padding_index, value 0)
/// values      = [1 5 8 4 | 2 6 9 0 | 3 7 0 0]     12 stored, 3 padding
/// Invariants: row_perm is a permutation of 0..num_rows-1; row_lengths has num_rows entries,
/// non-increasing, width = row_lengths[0] (0 without rows); slot (sorted row k, column j) lives
/// at j * stride + k, stride >= num_rows; slots j >= row_lengths[k] hold padding_index and 0;
/// real column indices in range and strictly increasing along a row.
/// rl[] is kept for all N rows (the paper notes that N_w entries would do).
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/types.hpp>

namespace spmv {

template <typename ValueType, typename IndexType = std::int32_t>
struct Pellr {
    using value_type = ValueType;
    using index_type = IndexType;

    IndexType num_rows = 0;
    IndexType num_cols = 0;
    IndexType width = 0;                 ///< longest row (N_nzr^max)
    IndexType stride = 0;                ///< leading dimension (= num_rows)
    std::vector<IndexType> row_perm;     ///< row_perm[k] = original row stored k-th (perm[])
    std::vector<IndexType> row_lengths;  ///< rl[]: entries of sorted row k
    std::vector<IndexType> col_idxs;
    std::vector<ValueType> values;
};

struct PellrOptions {};

template <typename ValueType, typename IndexType>
Pellr<ValueType, IndexType> to_pellr(const Csr<ValueType, IndexType>& a, const PellrOptions& = {});

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const Pellr<ValueType, IndexType>& a);

/// Throws InvalidLayout if an invariant above is broken.
template <typename ValueType, typename IndexType>
void validate(const Pellr<ValueType, IndexType>& a);

template <typename ValueType, typename IndexType>
std::int64_t nnz(const Pellr<ValueType, IndexType>& a);

/// stored_entries = stride * width; aux_bytes = row_perm + row_lengths.
template <typename ValueType, typename IndexType>
Footprint footprint(const Pellr<ValueType, IndexType>& a);

/// One thread per sorted row: iterations = useful = rl[k], stored = width.
template <typename ValueType, typename IndexType>
ThreadWork thread_work(const Pellr<ValueType, IndexType>& a);

/// The ELLPACK-R loop (Kreutzer Listing 1 with rowmax[] = rl[]) over the sorted rows; the
/// result goes to y[row_perm[k]] (RowOrder::original) or y[k] (RowOrder::permuted).
template <typename ValueType, typename IndexType>
void spmv_reference(const Pellr<ValueType, IndexType>& a, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order = RowOrder::original);

}  // namespace spmv
