#pragma once
/// BiJAD, bisection JAD (PELLR §2.3.5, after Zheng et al., JPDC 74(7), 2014): "BiELL sorts each
/// row in a warp, while BiJAD sorts all the rows". Here: rows are sorted by length over the
/// whole matrix, longest first (stable, as JDS), then warps of W consecutive sorted rows get
/// exactly BiELL's bisection layout (biell.hpp): G = log2(W) + 1 groups per warp ("six groups per
/// warp" for W = 32), group g gives the h_g = W >> g longest rows of the warp W / h_g lanes each,
/// group widths follow the same rule, slot (lane t, iteration j) = group_ptrs[w*G + g] + j*W + t.
/// Sorting globally puts rows of similar length into the same warp (less padding than BiELL);
/// the price is that the result is scattered back through a global permutation.
/// docs/formats/biell_bijad.md explains the interpretation.
///
/// A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], row lengths (3,1,3,2), x = (1,2,3,4)
/// row_perm = [0 2 3 1]             (sorted lengths 3 3 2 1)
/// W = 2 (G = 2): warps {0,2} and {3,1}, widths [3 0 | 1 1]
///   group_ptrs = [0 6 6 8 10]
///   col_idxs   = [0 0 | 2 2 | 3 3 || 1 1 | 3 -]   (warp 1, g1: row 3 on both lanes)
///   values     = [1 5 | 2 6 | 3 7 || 8 4 | 9 0]   10 stored, 1 padding
/// W = 4: a single warp, so the layout equals BiELL's with W = 4 (12 stored, 3 padding).
/// A x = (19, 8, 51, 52); with RowOrder::permuted y = (19, 51, 52, 8) (y[k] is row row_perm[k]).
/// Invariants: those of BiELL, except that row_perm may move rows between warps and the stored
/// row lengths are non-increasing over the whole matrix.
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/types.hpp>

namespace spmv {

template <typename ValueType, typename IndexType = std::int32_t>
struct BiJad {
    using value_type = ValueType;
    using index_type = IndexType;

    IndexType num_rows = 0;
    IndexType num_cols = 0;
    IndexType warp_size = 32;              ///< W (the paper's bisection: a power of two)
    std::vector<IndexType> row_perm;       ///< perm[]: row_perm[k] = original row stored k-th
    std::vector<IndexType> group_ptrs{0};  ///< I[]: num_warps * G + 1 group starts
    std::vector<IndexType> col_idxs;       ///< J[]
    std::vector<ValueType> values;         ///< A[]
};

struct BiJadOptions {
    int warp_size = 32;  ///< W >= 1: rows per warp and lanes per group
};

/// Throws InvalidArgument if options.warp_size is below 1.
template <typename ValueType, typename IndexType>
BiJad<ValueType, IndexType> to_bijad(const Csr<ValueType, IndexType>& a,
                                     const BiJadOptions& options = {});

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const BiJad<ValueType, IndexType>& f);

template <typename ValueType, typename IndexType>
void validate(const BiJad<ValueType, IndexType>& f);

template <typename ValueType, typename IndexType>
std::int64_t nnz(const BiJad<ValueType, IndexType>& f);

/// aux_bytes: row_perm and group_ptrs.
template <typename ValueType, typename IndexType>
Footprint footprint(const BiJad<ValueType, IndexType>& f);

/// Per-lane iterations of every group: (group_ptrs[i+1] - group_ptrs[i]) / W.
template <typename ValueType, typename IndexType>
std::vector<IndexType> group_widths(const BiJad<ValueType, IndexType>& f);

/// As BiELL: W lanes per warp, each runs the warp's sum of group widths (padding walked).
template <typename ValueType, typename IndexType>
ThreadWork thread_work(const BiJad<ValueType, IndexType>& f);

/// As BiELL: per group, lane sums; the W / h_g lanes of a row are added; lane p writes row p.
template <typename ValueType, typename IndexType>
void spmv_reference(const BiJad<ValueType, IndexType>& f, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order = RowOrder::original);

}  // namespace spmv
