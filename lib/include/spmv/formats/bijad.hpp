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

#include <spmv/formats/bisection.hpp>
#include <spmv/formats/csr.hpp>

namespace spmv {

/// Arrays: num_rows, num_cols, warp_size (W), row_perm (perm[]), group_ptrs (I[]), col_idxs
/// (J[]), values (A[]). to_csr, validate, nnz, footprint, group_widths, thread_work and
/// spmv_reference are declared (and documented) once for both formats in bisection.hpp.
template <typename ValueType, typename IndexType = std::int32_t>
using BiJad = BisectionMatrix<ValueType, IndexType, detail::BiJadRowSort>;

using BiJadOptions = BisectionOptions;  ///< warp_size: W >= 1, rows per warp

/// Throws InvalidArgument if options.warp_size is below 1.
template <typename ValueType, typename IndexType>
BiJad<ValueType, IndexType> to_bijad(const Csr<ValueType, IndexType>& a,
                                     const BiJadOptions& options = {});

}  // namespace spmv
