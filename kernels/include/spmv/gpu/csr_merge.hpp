#pragma once
/// CSR merge-path SpMV (Merrill & Garland, "Merge-based parallel sparse matrix-vector
/// multiplication", SC'16): load balancing that does not care how the nonzeros are spread over
/// the rows. The GPU variant "csr_merge" runs the plain CSR arrays (DeviceCsr) with it.
///
/// The work is the merge of the row ends (row_ptrs[1..N]) with the nonzero indices 0..NZ-1:
/// N + NZ "items", each either "add nonzero k to the current row" or "finish the current row".
/// Item d of the merge path lies at (i, d - i) with i = max{ i : row_ptrs[i] + i <= d } rows
/// finished. Every thread block of B threads takes the next B * P consecutive items (a "tile";
/// P = items per thread), so a block gets the same work whether its share holds one long row,
/// many short rows or many empty rows:
///  1. the tile's first and last rows come from a partition computed once at upload (the
///     binary search above, per tile boundary; CsrMergePartition::search repeats it in every
///     SpMV instead, as a 32-way warp search in row_ptrs);
///  2. the block loads the tile's row ends and its nonzeros' products values[k] * x[col[k]]
///     coalesced into shared memory;
///  3. each thread finds its own P items by a merge-path search in shared memory and walks them
///     sequentially in registers: rows it finishes are complete except for the first, which
///     needs the partial sums of the threads before it;
///  4. a block-wide segmented scan (warp shuffles, then the warp totals) gives each thread that
///     carry; finished rows go through shared memory and are written to y coalesced
///     (y = alpha sum + beta y, y not read when beta == 0; empty rows are finished rows too);
///  5. rows cut by a tile boundary: the tile where a row starts stores its partial sum as a
///     "tail", every later tile of the row its partial sum as a "head"; each tile then counts its
///     arrival on the row's counter (an atomic), and the tile that arrives last sums the row's
///     pieces in tile order (lane-strided, fixed shuffle tree) and writes y. The sum order
///     depends only on the matrix and the tile size, never on timing: the result is
///     deterministic, and no second kernel (launch) is needed. The counters reset themselves.
/// The scratch (one head, one tail and one counter per tile) lives in DeviceCsrMerge: one SpMV
/// at a time per matrix.
#include <cstddef>
#include <cstdint>

#include <spmv/formats/csr.hpp>
#include <spmv/gpu/csr.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

enum class CsrMergePartition {
    precomputed,  ///< tile boundaries searched once at upload (default)
    search,       ///< every SpMV searches row_ptrs for its tile's boundaries (32-way warp search)
};

struct CsrMergeConfig {
    int block_size = 0;        ///< threads per block: 64, 128 or 256; 0 = default (128)
    int items_per_thread = 0;  ///< merge items per thread: 4, 6, 8 or 12; 0 = default
    CsrMergePartition partition = CsrMergePartition::precomputed;
};

/// The default items per thread for a value type (tile = 128 threads x this).
template <typename ValueType>
constexpr int csr_merge_default_items_per_thread() noexcept
{
    return sizeof(ValueType) > 4 ? 8 : 12;
}

template <typename ValueType>
struct DeviceCsrMerge {
    DeviceCsr<ValueType> csr;
    int block_size = 0;
    int items_per_thread = 0;
    CsrMergePartition partition = CsrMergePartition::precomputed;
    std::int64_t num_items = 0;   ///< num_rows + nnz
    std::int64_t tile_items = 0;  ///< block_size * items_per_thread
    std::int64_t num_tiles = 0;   ///< ceil(num_items / tile_items)
    /// precomputed: num_tiles + 1 entries, rows finished before tile t's first item; else empty.
    DeviceBuffer<std::int32_t> tile_rows;
    /// Scratch of the carry fix-up, one slot per tile (written by every SpMV).
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
template <typename ValueType>
DeviceCsrMerge<ValueType> upload_csr_merge(const Csr<ValueType, std::int32_t>& a,
                                           const CsrMergeConfig& config = {});

/// y = alpha A x + beta y (beta == 0 does not read y). x, y are device pointers.
template <typename ValueType>
void spmv(const DeviceCsrMerge<ValueType>& a, ValueType alpha, const ValueType* x,
          ValueType beta, ValueType* y, StreamRef stream = {});

}  // namespace spmv::gpu
