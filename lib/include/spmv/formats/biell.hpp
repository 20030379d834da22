#pragma once
/// BiELL, bisection ELLPACK (PELLR §2.3.3, after Zheng et al., JPDC 74(7), 2014). PELLR only
/// sketches it; docs/formats/biell_bijad.md gives the full interpretation implemented here.
///
/// Rows are cut into warps of W = warp_size consecutive rows and sorted by length inside each
/// warp, longest first (stable; row_perm[k] = original row stored k-th). Each warp is split into
/// G groups by bisection: group g keeps the h_g longest rows of the warp and gives each of them
/// W / h_g lanes (threads), so all W lanes stay busy while the rows get fewer and longer. For W a
/// power of two h_g = W >> g and G = log2(W) + 1 (six groups for W = 32):
///   g = 0: W rows x 1 lane, g = 1: W/2 rows x 2 lanes, ..., g = G-1: 1 row x W lanes.
/// (Any other W: h_{g+1} is the largest divisor of W that is <= h_g / 2, e.g. W = 3: 3, 1.)
/// Every lane runs the same number of iterations width_g in group g ("the non-zero elements in a
/// group are equally allocated to different threads"). width_g is the smallest number that lets
/// the first row leaving after group g, sorted row b_g = h_{g+1} (b_{G-1} = 0), finish in g:
///   width_g = max(0, ceil((len(b_g) - cap_{g-1}) / (W/h_g))),  cap_g = sum_{i<=g} W/h_i width_i.
/// Group g of warp w is a W x width_g block at group_ptrs[w*G + g] (the paper's I[]), stored
/// column-major over the lanes: slot (lane t, iteration j) = group_ptrs[w*G + g] + j*W + t.
/// Lane t serves sorted row p = t mod h_g; so entry e of row p in group g (counted from the
/// row's first entry of that group) sits at group_ptrs[w*G + g] + p + e*h_g.
/// The last warp is completed with empty virtual rows; unused slots are padding (-1, value 0).
///
/// A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], row lengths (3,1,3,2), x = (1,2,3,4)
/// W = 4 (G = 3): row_perm = [0 2 3 1] (sorted lengths 3 3 2 1), widths [2 1 0]
///   group_ptrs = [0 8 12 12]
///   col_idxs   = [0 0 1 1 | 2 2 3 - || 3 3 - -]  (g0: 4 rows x 2 iterations; g1: 2 rows x 2 lanes)
///   values     = [1 5 8 4 | 2 6 9 0 || 3 7 0 0]   12 stored, 3 padding; 3 iterations per lane
/// W = 2 (G = 2): warps {0,1} and {2,3}, already sorted: row_perm = [0 1 2 3], widths [1 1 | 2 1]
///   group_ptrs = [0 2 4 8 10]
///   col_idxs   = [0 1 | 2 3 || 0 1 2 3 | 3 -]    (warp 0, g1: row 0 on both lanes)
///   values     = [1 4 | 2 3 || 5 8 6 9 | 7 0]    10 stored, 1 padding
/// A x = (19, 8, 51, 52); with W = 4 and RowOrder::permuted, y = (19, 51, 52, 8).
/// Invariants: warp_size >= 1; row_perm is a permutation that only moves rows inside their
/// warp, and the stored rows of each warp have non-increasing lengths; group_ptrs has
/// num_warps*G + 1 entries from 0 to the slot count, and group g of every warp has the width of
/// the rule above (W x width_g slots); along a row (groups in order, slots p + e*h_g) padding
/// only follows the real entries, has value 0, and real columns are in range and strictly
/// increasing; slots of virtual rows are padding.
#include <cstdint>

#include <spmv/formats/bisection.hpp>
#include <spmv/formats/csr.hpp>

namespace spmv {

/// Arrays: num_rows, num_cols, warp_size (W), row_perm (perm[]), group_ptrs (I[]), col_idxs
/// (J[]), values (A[]). to_csr, validate, nnz, footprint, group_widths, thread_work and
/// spmv_reference are declared (and documented) once for both formats in bisection.hpp.
template <typename ValueType, typename IndexType = std::int32_t>
using BiEll = BisectionMatrix<ValueType, IndexType, detail::BiEllRowSort>;

using BiEllOptions = BisectionOptions;  ///< warp_size: W >= 1, rows per warp

/// Throws InvalidArgument if options.warp_size is below 1.
template <typename ValueType, typename IndexType>
BiEll<ValueType, IndexType> to_biell(const Csr<ValueType, IndexType>& a,
                                     const BiEllOptions& options = {});

}  // namespace spmv
