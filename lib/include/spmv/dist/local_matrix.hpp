#pragma once
/// One rank's part of a distributed matrix: its rows split into a LOCAL block (the columns whose
/// x entries the rank owns) and a NON-LOCAL block (columns owned by other ranks, renumbered
/// compactly as the "halo"), as in Kreutzer et al. §III.A, PETSc's MPIAIJ (diagonal and
/// off-diagonal parts) and Ginkgo's distributed::Matrix (local and non-local matrices).
///
///   y_r = A_local x_r + A_nonlocal halo_r
///
/// x_r holds the rank's own entries of x (in the column partition's local order), halo_r the
/// entries it receives from the others (ExchangePlan), ordered by owning rank, then by global
/// column. Both blocks are plain 32-bit CSR matrices, so each can be built into ANY registered
/// format (spmv::build) and run by any kernel. A rank with more nonzeros than 32-bit row
/// offsets address keeps them as row chunks, each such a pair (LocalChunk, ours).
///
/// Example: the canonical 4x4 A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9] over 2 ranks by rows
/// (rank 0: rows/cols {0,1}, rank 1: rows/cols {2,3}):
///   rank 0: local    = [1 0; 0 4]          nonlocal = [2 3; 0 0]   halo = global cols {2,3}
///   rank 1: local    = [6 7; 0 9]          nonlocal = [5 0; 0 8]   halo = global cols {0,1}
/// With x = (1,2,3,4): rank 0 computes (1,8) + (2*3+3*4, 0) = (19, 8), rank 1 (18+28, 36) +
/// (5, 16) = (51, 52), i.e. A x = (19, 8, 51, 52).
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/dist/partition.hpp>
#include <spmv/formats/csr.hpp>

namespace spmv::dist {

/// A rank's rows in global numbering: the input of the split, so that a matrix too large for
/// one process (or for 32-bit indices) can be handed over row block by row block.
template <typename ValueType>
struct GlobalRows {
    global_index num_rows = 0;         ///< of the whole matrix
    global_index num_cols = 0;         ///< of the whole matrix
    std::vector<global_index> rows;    ///< global row of each local row, ascending
    std::vector<std::int64_t> row_ptrs{0};
    std::vector<global_index> col_idxs;  ///< global columns, ascending within a row
    std::vector<ValueType> values;
};

/// The rows of `a` that `rows.owner` gives to `rank`.
template <typename ValueType>
GlobalRows<ValueType> extract_rows(const Csr<ValueType, std::int32_t>& a, const Partition& rows,
                                   int rank);

/// Row chunks (ours, issue 36; the papers' nodes never held 2^31 nonzeros per process): a
/// rank whose blocks pass 32-bit row offsets keeps its rows as K consecutive row chunks, each an
/// ordinary pair of 32-bit CSR blocks over the same columns as the whole rank's. Nothing else
/// changes: every format, converter and kernel keeps its 32-bit offsets, and the distributed
/// product runs each pass once per chunk, writing y from the chunk's first row.
///
/// The most nonzeros one chunk may hold (local + non-local entries of its rows) by default:
/// 2^31 - 2^24, a margin of 16.7 million under the 32-bit limit so that the padded formats'
/// slots (ELL-like layouts pad rows) usually still fit one chunk; the blocks cut a chunk further
/// where a format's footprint estimate says its stored slots do not (distributed/src/blocks.cpp).
inline constexpr global_index default_max_chunk_nnz =
    (global_index{1} << 31) - (global_index{1} << 24);
/// The 32-bit limit itself: a single row above it cannot be a chunk (refused).
inline constexpr global_index max_chunk_entries = 2147483647;

template <typename ValueType>
struct LocalChunk {
    std::int32_t first_row = 0;             ///< the chunk's first row among the rank's rows
    Csr<ValueType, std::int32_t> local;     ///< its rows x own columns
    Csr<ValueType, std::int32_t> nonlocal;  ///< its rows x halo entries
};

template <typename ValueType>
struct LocalMatrix {
    int rank = 0;
    global_index global_rows = 0;
    global_index global_cols = 0;
    /// Own rows x own columns (column partition order): every row when the rank is one chunk
    /// (`chunks` empty, the usual case); empty (0 rows) when it is cut into chunks.
    Csr<ValueType, std::int32_t> local;
    Csr<ValueType, std::int32_t> nonlocal;  ///< own rows x halo entries, as `local`
    /// Two or more row chunks (in row order, covering every row) when the rank's nonzeros pass
    /// the chunk limit (split()'s max_chunk_nnz); empty otherwise. Read the blocks through
    /// chunk_views(), which sees both cases alike.
    std::vector<LocalChunk<ValueType>> chunks;
    std::vector<global_index> row_ids;      ///< global row of each local row
    std::vector<global_index> halo_cols;    ///< global column of each halo entry
    std::vector<std::int32_t> halo_owner;   ///< owning rank of each halo entry (ascending)
    std::int32_t num_own_cols = 0;          ///< entries of x this rank holds
};

/// One row chunk of a LocalMatrix wherever it is stored (the whole rank, or chunks[k]).
template <typename ValueType>
struct ChunkView {
    std::int32_t first_row = 0;
    const Csr<ValueType, std::int32_t>* local = nullptr;
    const Csr<ValueType, std::int32_t>* nonlocal = nullptr;
};

/// The rank's row chunks in row order: one view of `local` / `nonlocal` when unchunked.
template <typename ValueType>
std::vector<ChunkView<ValueType>> chunk_views(const LocalMatrix<ValueType>& m)
{
    std::vector<ChunkView<ValueType>> v;
    if (m.chunks.empty()) {
        v.push_back({0, &m.local, &m.nonlocal});
    }
    for (const auto& c : m.chunks) {
        v.push_back({c.first_row, &c.local, &c.nonlocal});
    }
    return v;
}

/// The rank's rows, its local and non-local nonzeros (64-bit: summed over the chunks).
template <typename ValueType>
global_index local_rows(const LocalMatrix<ValueType>& m)
{
    return static_cast<global_index>(m.row_ids.size());
}
/// Nonzeros of one of the rank's blocks (`block`: &ChunkView::local or ::nonlocal) over its
/// chunks.
template <typename ValueType>
global_index block_nnz(const LocalMatrix<ValueType>& m,
                       const Csr<ValueType, std::int32_t>* ChunkView<ValueType>::*block)
{
    global_index n = 0;
    for (const auto& c : chunk_views(m)) {
        const auto& b = *(c.*block);
        n += b.row_ptrs.empty() ? 0 : b.row_ptrs.back();
    }
    return n;
}
template <typename ValueType>
global_index local_nnz(const LocalMatrix<ValueType>& m)
{
    return block_nnz(m, &ChunkView<ValueType>::local);
}
template <typename ValueType>
global_index nonlocal_nnz(const LocalMatrix<ValueType>& m)
{
    return block_nnz(m, &ChunkView<ValueType>::nonlocal);
}

/// Where to cut rows into chunks (ours, issue 36): the first row of each chunk, then the row
/// count, from the rows' offsets (row_ptrs of the rank's rows, 64-bit). Greedy in row order:
/// a chunk takes rows while its nonzeros stay at most `max_chunk_nnz`; a longer row is a chunk
/// alone. Throws InvalidArgument for max_chunk_nnz outside [1, 2^31 - 1] and DimensionMismatch
/// naming the rank and row for a row of more than 2^31 - 1 nonzeros (no 32-bit block holds it).
std::vector<std::int32_t> row_chunks(std::span<const std::int64_t> row_ptrs,
                                     global_index max_chunk_nnz, int rank);

/// The sizes of a rank's two blocks, as split() counts them before it builds them. They are
/// global counts (int64): a matrix may have more than 2^31 rows, columns or nonzeros in total;
/// what must fit 32 bits is each rank's row count, share of x and halo (check_local_block).
struct LocalBlockSizes {
    global_index rows = 0;          ///< the rank's rows (both blocks' rows)
    global_index own_cols = 0;      ///< its share of x (the local block's columns)
    global_index local_nnz = 0;     ///< nonzeros in its own columns
    global_index nonlocal_nnz = 0;  ///< nonzeros in other ranks' columns
    global_index halo = 0;          ///< distinct non-local columns (the non-local block's columns)
    global_index max_row_nnz = 0;   ///< nonzeros of its longest row (0: not known)
};

/// Checks that a rank's blocks can be built and says in how many row chunks at least. Throws
/// DimensionMismatch naming the rank, the count and the way out when something still cannot
/// fit the 32-bit CSR that every registered format and kernel takes: rows, own columns or halo
/// entries above 2^31 - 1 (local indices are 32-bit by design), or a row of more than
/// 2^31 - 1 nonzeros. Nonzeros past 2^31 - 1 are no longer refused: they are cut into row
/// chunks (ours, issue 36); the result is the least chunk count, ceil((local + non-local) /
/// max_chunk_nnz) (row_chunks() cuts at row boundaries, so it may take a few more). split()
/// calls it; it is public so that a rank's sizes can be checked before anything is built.
global_index check_local_block(const LocalBlockSizes& s, int rank,
                               global_index max_chunk_nnz = default_max_chunk_nnz);

/// The blocks over the ghosted x [x_own | halo] that DistMatrix builds besides the two
/// (distributed/src/blocks.hpp): vector mode's merged block [local | non-local] over every row
/// (DistOptions::merged_block), and the second pass's boundary rows whole.
enum class GhostedBlock { merged, boundary_rows };

/// Throws DimensionMismatch when such a block's columns (own x entries + halo) pass 2^31 - 1,
/// more than 32-bit local column indices number, though the local and non-local blocks' each
/// fit. The message names the rank, the count and the way out (for the merged block:
/// DistOptions::merged_block = false, `--split-blocks`). Its nonzeros are not limited: the
/// block is built per row chunk like the others (ours, issue 36).
void check_ghosted_block(GhostedBlock which, global_index cols, int rank);

/// Splits a rank's rows into the local and non-local blocks, in row chunks of at most
/// `max_chunk_nnz` nonzeros each when the rank has more (row_chunks(); one chunk, the plain
/// `local` / `nonlocal`, otherwise). Throws InvalidArgument when a row is not owned by `rank`
/// or a column is out of range, and DimensionMismatch when a block would not fit 32-bit
/// indices (check_local_block, with the rank and its size).
///
/// Transient memory besides the result: the halo's distinct (owner, column) pairs (16 bytes
/// each; duplicates are dropped while the pairs are collected, so at most about twice the
/// distinct halo plus one batch is held), nothing per nonzero.
template <typename ValueType>
LocalMatrix<ValueType> split(const GlobalRows<ValueType>& rows, const Partition& row_part,
                             const Partition& col_part, int rank,
                             global_index max_chunk_nnz = default_max_chunk_nnz);

/// y_r = A_local x_r + A_nonlocal halo_r with the CSR reference, chunk by chunk (the host
/// check of the modes).
template <typename ValueType>
void spmv_reference(const LocalMatrix<ValueType>& m, std::span<const ValueType> x_own,
                    std::span<const ValueType> halo, std::span<ValueType> y);

}  // namespace spmv::dist
