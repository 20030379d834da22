#pragma once
/// CSR nonzero-tiled SpMV (ours, issue 37): the plain CSR arrays cut into chunks of 32 S
/// consecutive nonzeros, one warp per chunk, whatever the rows. The GPU variant "csr_tiled" runs
/// it. Written for matrices with random columns (the 1M-row power laws), where every x load is
/// its own L2 sector and the kernel that keeps the most gathers in flight wins:
///  1. Warp c takes nonzeros [32 S c, 32 S (c + 1)) and issues every column, value and x
///     gather of its S steps before the first use. Its first loads need nothing but c: the row
///     structure is computed once on the host (the plan below), not found in row_ptrs after a
///     dependent load.
///  2. The plan's start words tell the warp where rows begin in its chunk (S + 1 words of 32
///     bits; bit q: a row starts at nonzero 32 S c + q; bit 0 of the first word: the chunk's
///     first row starts at its first nonzero). A segmented warp scan per step, with a carry
///     between steps, sums each row; the lane at a row's end writes y.
///  3. A row cut by a chunk boundary leaves pieces: the tail of the chunk where it starts, the
///     heads of the others. A second kernel, launched as a programmatic dependent of the first
///     (sm_90), reads its list of cut rows (static: in the plan) before it waits for the first
///     grid, then adds each row's pieces in chunk order: one thread per row of at most
///     csr_tiled_thread_pieces pieces, a block of 256 per longer row (a fixed tree). It also
///     writes beta y for the empty rows. Every sum is taken in an order fixed by the matrix:
///     the result is bitwise reproducible; no atomics.
/// Rows are counted by their start bits, so an empty row would have no bit: the plan numbers
/// the non-empty rows only, and the kernel maps them back through the plan's row list when the
/// matrix has empty rows (one load more, only then).
///
/// Measured (H200, CUDA 13.0, cold L2, median of `spmvlab bench`, the same run as cuSPARSE 13;
/// docs/benchmarks/h200_tiled_2026-11-29): the power law of 1M rows (4.1M nonzeros) 36.96 us in
/// DP and 33.02 us in SP (cuSPARSE COO ALG1 39.01 / 34.88, our BiELL 42.8 / 36.1); onefull 200k
/// 7.68 / 7.26 us (COO ALG1 10.27 / 9.22); the power law with lengths 4-1000 159.1 / 148.2 us
/// (CSR ALG1 159.2 / 147.8). On small matrices its two launches cost about 1 us more than the
/// fastest one-launch kernel. The tile kernel with a row_ptrs scan after a chunk_row load instead
/// of the start words, and a fix-up that finds its rows itself, took 41.6 us on the power law
/// (kernels/bench/tiled_bench.cu).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/gpu/declare.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

/// Cut rows of at most this many pieces are finished by one thread of the fix-up kernel, longer
/// ones by a block of 256 threads.
inline constexpr std::int32_t csr_tiled_thread_pieces = 32;

struct CsrTiledConfig {
    int steps = 0;  ///< S, steps of 32 nonzeros per chunk: 2, 4 or 8; 0 = 4
};

inline constexpr int csr_tiled_default_steps = 4;

/// A row cut by chunk boundaries: its pieces are the tail of chunk `first` and the heads of the
/// chunks first + 1 .. last. Laid out as the kernel's int4.
struct CsrTiledCut {
    std::int32_t row = 0;
    std::int32_t first = 0;
    std::int32_t last = 0;
    std::int32_t unused = 0;
    bool operator==(const CsrTiledCut&) const = default;
};

/// The host's share of the work, plain C++ (built and tested without CUDA as well).
struct CsrTiledPlan {
    int steps = 0;                 ///< S
    std::int32_t chunk_nnz = 0;    ///< 32 S
    std::int32_t num_chunks = 0;   ///< ceil(nnz / chunk_nnz)
    /// Per chunk, the (non-empty) row holding its first nonzero, numbered among the non-empty
    /// rows.
    std::vector<std::int32_t> chunk_row;
    /// Per chunk, S + 1 words of row-start bits (see the header comment).
    std::vector<std::uint32_t> starts;
    /// Non-empty row number -> row; empty when no row is empty (then they are the same).
    std::vector<std::int32_t> rows;
    /// The rows spanning more than one chunk, of at most csr_tiled_thread_pieces pieces.
    std::vector<CsrTiledCut> cut;
    /// The longer ones (a block each in the fix-up).
    std::vector<CsrTiledCut> long_cut;
    std::vector<std::int32_t> empty_rows;

    std::size_t bytes() const noexcept
    {
        return (chunk_row.size() + rows.size() + empty_rows.size()) * sizeof(std::int32_t) +
               starts.size() * sizeof(std::uint32_t) +
               (cut.size() + long_cut.size()) * sizeof(CsrTiledCut);
    }
};

/// The plan of a CSR matrix given by its row_ptrs (num_rows + 1 entries from 0). Throws
/// InvalidArgument for steps other than 2, 4 or 8, malformed row_ptrs, or more nonzeros than
/// 32-bit chunk offsets reach (nnz + 32 S > 2^31 - 1).
CsrTiledPlan plan_csr_tiled(std::span<const std::int32_t> row_ptrs, const CsrTiledConfig& config = {});

/// The columns and values of the CSR matrix (its row_ptrs are not needed: the plan replaces
/// them) and the plan.
template <typename ValueType>
struct DeviceCsrTiled {
    std::int32_t num_rows = 0;
    std::int32_t num_cols = 0;
    std::int32_t nnz = 0;
    DeviceBuffer<std::int32_t> col_idxs;
    DeviceBuffer<ValueType> values;
    int steps = 0;
    std::int32_t num_chunks = 0;
    std::int32_t num_cut = 0;
    std::int32_t num_long_cut = 0;
    std::int32_t num_empty = 0;
    bool mapped_rows = false;  ///< the matrix has empty rows: rows[] maps the kernel's rows
    DeviceBuffer<std::int32_t> chunk_row;
    DeviceBuffer<std::uint32_t> starts;
    DeviceBuffer<std::int32_t> rows;
    DeviceBuffer<CsrTiledCut> cut;  ///< the short cut rows, then the long ones
    DeviceBuffer<std::int32_t> empty_rows;
    /// The pieces, one head and one tail slot per chunk (written by every SpMV: one SpMV at a
    /// time per matrix).
    mutable DeviceBuffer<ValueType> head;
    mutable DeviceBuffer<ValueType> tail;

    std::size_t device_bytes() const noexcept
    {
        return col_idxs.bytes() + values.bytes() + chunk_row.bytes() + starts.bytes() + rows.bytes() +
               cut.bytes() + empty_rows.bytes() + head.bytes() + tail.bytes();
    }
};

/// Uploads the CSR arrays and the plan. Throws InvalidArgument for an unsupported
/// configuration, OutOfDeviceMemory ("csr_tiled needs ...") when it does not fit.
#define SPMV_GPU_DECLARE_UPLOAD_CSR_TILED(V, D)                       \
    DeviceCsrTiled<V> upload_csr_tiled(const Csr<V, std::int32_t>& a, \
                                       const CsrTiledConfig& config D(= {}))
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_UPLOAD_CSR_TILED, "upload_csr_tiled");

/// y = alpha A x + beta y (beta == 0 does not read y). x, y are device pointers.
#define SPMV_GPU_DECLARE_CSR_TILED_SPMV(V, D)                                \
    void spmv(const DeviceCsrTiled<V>& a, V alpha, const V* x, V beta, V* y, \
              StreamRef stream D(= {}))
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_CSR_TILED_SPMV, "csr_tiled");

}  // namespace spmv::gpu
