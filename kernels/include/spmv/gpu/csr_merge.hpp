#pragma once
/// CSR merge-path SpMV (Merrill & Garland, "Merge-based parallel sparse matrix-vector
/// multiplication", SC'16): load balancing that does not care how the nonzeros are spread over
/// the rows. The GPU variant "csr_merge" runs the plain CSR arrays (DeviceCsr) with it.
///
/// The work is the merge of the row ends (row_ptrs[1..N]) with the nonzero indices 0..NZ-1:
/// N + NZ "items", each either "add nonzero k to the current row" or "finish the current row".
/// After the first d items, i(d) = max{ i : row_ptrs[i] + i <= d } rows are finished and d - i(d)
/// nonzeros consumed. The items are cut into tiles of B * P (B threads per block, P items per
/// thread), and the tiles into equal "strips" of consecutive tiles, one strip per thread block
/// (about one wave of resident blocks), so every block gets the same work whether its share
/// holds one long row, many short rows or many empty rows:
///  1. Upload computes i(d) at every tile boundary by binary search in row_ptrs (the partition,
///     like cusparseSpMV_preprocess: once per matrix, never timed). Searching row_ptrs in every
///     SpMV instead (a 32-way warp search per tile) measured 5-25 % slower on an H100.
///  2. Per tile, the block loads the row ends and the nonzeros' products values[k] * x[col[k]]
///     coalesced into shared memory; the next tile's row ends, columns and values are loaded
///     into registers while the current tile is reduced, and its x gathered right after
///     (software pipelining).
///  3. Each thread finds its P items by a merge-path search in shared memory and walks them in
///     registers; a block-wide segmented scan (warp shuffles, then the warp totals) gives each
///     thread the partial sum of its first row from the threads before it, and the tile's last,
///     open row carries into the next tile of the strip in registers. Finished rows go through
///     shared memory to y, coalesced (y = alpha sum + beta y, y not read when beta == 0; empty
///     rows are finished rows too).
///  4. Rows cut by a strip boundary: the strip where a row starts stores its partial sum as a
///     "tail", every later strip of the row its partial sum as a "head"; each strip counts its
///     arrival on the row's counter (one atomic), and the strip that arrives last sums all pieces
///     of the row in strip order (lane-strided, fixed shuffle tree) and writes y. The order
///     depends only on the matrix and the launch shape, never on timing: deterministic, one
///     kernel, no atomics on y. The counters reset themselves.
/// The scratch (a head, a tail and a counter per strip) lives in DeviceCsrMerge: one SpMV at a
/// time per matrix.
///
/// Measured (H100 80GB HBM3, CUDA 13.0, cold L2, median of the bench() harness, double; GF/s
/// and % of the 3014 GB/s copy bandwidth by spmv_min_bytes; cuSPARSE = CSR ALG1), by block x
/// items per thread:
///   matrix                          128 x 6 (default)  128 x 8        best            cuSPARSE
///   pde100 (1M rows, 7 per row)     228.4 (56.4 %)     228.5 (56.5 %) 239.8 (256 x 8) 280.7
///   powerlaw 1M rows, mean 19.9     205.4 (44.4 %)     204.3 (44.1 %) 205.4           215.9
///   onefull 200k (row 0 full)        76.0 (10.5 us)     67.9 (11.8 us) 76.0             63.8
///   blocks5 100k block rows         308.9 (66.1 %)     300.2 (64.2 %) 310.8 (64 x 8)  352.2
/// Strips of one tile (no carries inside a block, no pipelining) ran pde100 at 156 GF/s, the
/// first version (a tile per block, a row-carry fix-up per tile) at 220. Float, pde100: 302 GF/s
/// at 128 x 12 (the float default), 271 at 128 x 8; cuSPARSE ALG1 412.
#include <cstddef>
#include <cstdint>

#include <spmv/formats/csr.hpp>
#include <spmv/gpu/csr.hpp>
#include <spmv/gpu/declare.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

struct CsrMergeConfig {
    int block_size = 0;        ///< threads per block: 64, 128 or 256; 0 = 128
    int items_per_thread = 0;  ///< 4, 6, 8 or 12 (12: block <= 128); 0 = 6 (double), 12 (float)
    /// Tiles per strip (per block); 0 = as many as spread the tiles over one wave of resident
    /// blocks. Small values exercise the strip fix-up, large ones the in-block carries.
    int tiles_per_strip = 0;
};

inline constexpr int csr_merge_default_block_size = 128;

/// The default items per thread, the fastest measured (see above).
template <typename ValueType>
constexpr int csr_merge_default_items_per_thread() noexcept
{
    return sizeof(ValueType) > 4 ? 6 : 12;
}

/// The most tiles one strip may hold (its tile boundaries are staged in shared memory).
inline constexpr int csr_merge_max_strip_tiles = 512;

template <typename ValueType>
struct DeviceCsrMerge {
    DeviceCsr<ValueType> csr;
    int block_size = 0;
    int items_per_thread = 0;
    std::int64_t num_items = 0;   ///< num_rows + nnz
    std::int64_t tile_items = 0;  ///< block_size * items_per_thread
    std::int64_t num_tiles = 0;   ///< ceil(num_items / tile_items)
    std::int64_t tiles_per_strip = 0;
    std::int64_t num_strips = 0;  ///< thread blocks launched
    /// num_tiles + 1 entries: rows finished before tile t's first item (the partition).
    DeviceBuffer<std::int32_t> tile_rows;
    /// Scratch of the strip fix-up, one slot per strip (written by every SpMV).
    mutable DeviceBuffer<ValueType> head_vals;
    mutable DeviceBuffer<ValueType> tail_vals;
    mutable DeviceBuffer<std::uint32_t> arrivals;  ///< zero between SpMVs

    std::size_t device_bytes() const noexcept
    {
        return csr.device_bytes() + tile_rows.bytes() + head_vals.bytes() + tail_vals.bytes() +
               arrivals.bytes();
    }
};

/// Uploads the CSR arrays and the merge-path partition. Throws InvalidArgument for an
/// unsupported configuration, OutOfDeviceMemory ("csr_merge needs ...") when it does not fit.
#define SPMV_GPU_DECLARE_UPLOAD_CSR_MERGE(V, D)                       \
    DeviceCsrMerge<V> upload_csr_merge(const Csr<V, std::int32_t>& a, \
                                       const CsrMergeConfig& config D(= {}))
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_UPLOAD_CSR_MERGE, "upload_csr_merge");

/// y = alpha A x + beta y (beta == 0 does not read y). x, y are device pointers.
#define SPMV_GPU_DECLARE_CSR_MERGE_SPMV(V, D)                                \
    void spmv(const DeviceCsrMerge<V>& a, V alpha, const V* x, V beta, V* y, \
              StreamRef stream D(= {}))
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_CSR_MERGE_SPMV, "csr_merge");

}  // namespace spmv::gpu
