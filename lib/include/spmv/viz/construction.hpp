#pragma once
/// The construction of every registered format step by step, as in Kreutzer Fig. 1:
///   matrix (cells of A) -> compress left (ELLPACK) -> sort by length -> pad per block of b_r
///   (pJDS) or per slice of C rows after sorting inside windows of sigma rows (SELL-C-sigma),
/// and the analogous sequences of the other formats (COO triplets, CSR row_ptrs, CSC columns,
/// ELLG's pitched leading dimension, JDS jagged diagonals, JDS CSR-like padded diagonals,
/// BiELL / BiJAD bisection groups, HYB's ELL part + COO tail). Every step is a grid of cells
/// plus the storage arrays of that step. Nothing is re-implemented here: each layout is built
/// by the registry (spmv::build) and the cells are READ from its arrays at the address the
/// kernels use (ELL: j*stride + i, pJDS: col_start[j] + i, SELL: slice_ptrs[s] + j*C + r,
/// JDS: jd_ptrs[d] + k, BiELL: group_ptrs[w*G + g] + p + e*h_g, ...). A real slot's nonzero is
/// looked up in the CSR (row, column) -> k, and its value checked.
///
/// Large matrices are shown through a window of grid rows and columns (ConstructionWindow,
/// 64 x 64 by default): the format is built once for the WHOLE matrix (ConstructionSource,
/// refused with a message when estimate_footprint says it would exceed a memory limit), and
/// each window only reads the cells in view and the array entries that belong to them
/// (StorageArray::index holds their positions in the full arrays).
///
/// Canonical 4x4 A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9] as pJDS with b_r = 2:
///   matrix   4 x 4 cells, 9 nonzero; arrays row_ptrs, col_idxs, values
///   compress 4 x 3 (ELLPACK width 3): row 1 = [4 P P], row 3 = [8 9 P]   (P = padding)
///   sort     4 x 3, grid rows show rows 0 2 3 1 (row_perm), jagged: row 1 = [4 . .]
///   pad      4 x 3, blocks {0,2} | {3,1}: grid row 3 (matrix row 1) = [4 P .], 1 padding cell;
///            arrays values, col_idxs (10 slots), col_start [0 4 8 10], row_lengths, row_perm
/// As JDS: compress (jagged, nothing stored) -> sort -> diagonals: grid row k = sorted row,
///   column d = diagonal d, jd_ptrs = [0 4 7 9], values = [1 5 8 4 | 2 6 9 | 3 7].
/// As HYB with K = 2: compress (ELLPACK) -> split: columns 0..1 are ELL slots
///   (ell_values = [1 4 5 8 | 2 0 6 9]), column 2 of rows 0 and 2 the COO tail (coo_values = [3 7]).
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/registry.hpp>
#include <spmv/viz/construction_grid.hpp>

namespace spmv::viz {

/// Formats whose construction can be shown: every registered format whose registry entry has
/// construction steps (all of them today), in registry order.
std::vector<std::string_view> construction_formats();

/// The format built once for the whole matrix, plus what its steps need; windows are cut from
/// it cheaply (construction(source, window)). Immutable, shareable between threads.
class ConstructionSource;

/// Default limit of prepare_construction: 1 GiB per layout.
inline constexpr std::size_t default_construction_bytes = std::size_t{1} << 30;

/// Builds `format` with `params` for the whole of `a` (kept alive by the pointer). Throws
/// InvalidArgument for an unknown format, or when estimate_footprint says the layout would need
/// more than max_bytes ("ELLPACK of this matrix would need 24.0 GiB ..."). The ELLPACK of the
/// compress step of pJDS / SELL / PELLR / HYB is built only under the same limit; otherwise
/// that step shows the rows compressed left without padding and says why.
std::shared_ptr<const ConstructionSource> prepare_construction(
    std::shared_ptr<const Csr<double, std::int32_t>> a, std::string_view format,
    const FormatParams& params, std::size_t max_bytes = default_construction_bytes);

/// The kernel's work per thread of the layout `source` built (useful and stored slots), for
/// the whole-matrix layout raster (layout_raster.hpp).
ThreadWork construction_thread_work(const ConstructionSource& source);

/// All steps of `source`'s format seen through `window`. Throws InvalidLayout if a built layout
/// contradicts the CSR.
Construction construction(const ConstructionSource& source, const ConstructionWindow& window);

/// prepare_construction + construction in one call (`a` must outlive the call only).
Construction construction(const Csr<double, std::int32_t>& a, std::string_view format,
                          const FormatParams& params, const ConstructionWindow& window = {},
                          std::size_t max_bytes = default_construction_bytes);

/// The leading rows x cols submatrix of `a` (entries with row < rows and column < cols).
Csr<double, std::int32_t> leading_submatrix(const Csr<double, std::int32_t>& a, std::int32_t rows,
                                            std::int32_t cols);

}  // namespace spmv::viz
