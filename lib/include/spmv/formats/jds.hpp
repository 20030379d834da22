#pragma once
/// JDS (jagged diagonal storage, "JAD" in PELLR §2.3.5; Cevahir §2.1, Fig. 2): rows sorted by
/// length, longest first (row_perm), every row shifted left; column j of that compressed matrix
/// is "jagged diagonal" j and holds entry j of every sorted row that has more than j entries.
/// The diagonals are stored one after another, jd_ptrs[d] is where diagonal d starts. No padding.
///
/// A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], row lengths (3,1,3,2), x = (1,2,3,4)
/// row_perm = [0 2 3 1]            (sorted lengths 3 3 2 1; ties keep the original order)
/// jd_ptrs  = [0 4 7 9]            (diagonal lengths 4 3 2)
/// col_idxs = [0 0 1 1 | 2 2 3 | 3 3]
/// values   = [1 5 8 4 | 2 6 9 | 3 7]                         9 stored, 0 padding
/// A x = (19, 8, 51, 52); with RowOrder::permuted y = (19, 51, 52, 8) (y[k] is row row_perm[k]).
/// Invariants: row_perm is a permutation of 0..num_rows-1; jd_ptrs has num_diags+1 entries from 0
/// to nnz; diagonal lengths are >= 1, <= num_rows and non-increasing (so the sorted row lengths
/// are non-increasing); the rows of row_perm are in that order: sorted row k has exactly
/// #{d : len(d) > k} entries, its original row's; real column indices are in range and strictly
/// increasing along a row (diagonal d to d+1).
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/types.hpp>

namespace spmv {

template <typename ValueType, typename IndexType = std::int32_t>
struct Jds {
    using value_type = ValueType;
    using index_type = IndexType;

    IndexType num_rows = 0;
    IndexType num_cols = 0;
    std::vector<IndexType> row_perm;    ///< row_perm[k] = original row stored k-th
    std::vector<IndexType> jd_ptrs{0};  ///< num_diags + 1 offsets of the jagged diagonals
    std::vector<IndexType> col_idxs;
    std::vector<ValueType> values;
};

struct JdsOptions {};

template <typename ValueType, typename IndexType>
Jds<ValueType, IndexType> to_jds(const Csr<ValueType, IndexType>& a, const JdsOptions& = {});

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const Jds<ValueType, IndexType>& a);

/// Throws InvalidLayout if an invariant above is broken.
template <typename ValueType, typename IndexType>
void validate(const Jds<ValueType, IndexType>& a);

template <typename ValueType, typename IndexType>
std::int64_t nnz(const Jds<ValueType, IndexType>& a)
{
    return static_cast<std::int64_t>(a.values.size());
}

/// aux_bytes = row_perm + jd_ptrs.
template <typename ValueType, typename IndexType>
Footprint footprint(const Jds<ValueType, IndexType>& a);

/// The plain JDS kernel (Cevahir §4, "each thread computes one element of the matrix"): one
/// thread per stored nonzero, diagonal after diagonal in storage order (a flat launch over all
/// diagonals, or one launch per diagonal: the same threads in the same order), so every thread
/// has iterations = useful = stored = 1 and there are nnz threads.
template <typename ValueType, typename IndexType>
ThreadWork thread_work(const Jds<ValueType, IndexType>& a);

/// Mirrors Cevahir Fig. 2 with the y_temp of §4: products of diagonal d are accumulated into
/// y_temp[r] (r = position in the diagonal = sorted row), then y[row_perm[r]] (or y[r] in
/// RowOrder::permuted) = alpha * y_temp[r] + beta * y. beta == 0 overwrites y.
template <typename ValueType, typename IndexType>
void spmv_reference(const Jds<ValueType, IndexType>& a, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order = RowOrder::original);

}  // namespace spmv
