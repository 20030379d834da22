#pragma once
/// Per-rank generation of a gen: matrix (issue 36, "per-rank input"): every rank generates only
/// its own rows (spmv::gen::generate_rows, 64-bit global indices, bit for bit the rows of the
/// whole generator), so that no rank ever holds the whole matrix and a matrix past 32-bit
/// indices (pde1100: 1.33e9 rows, 9.3e9 nonzeros) can be built on several ranks.
///
///   rows  equal row blocks (partition_rows); each rank generates its block.
///   nnz   Cevahir §3.3, the same Partition as partition_weighted on the whole matrix's row
///         pointers: each rank counts the nonzeros of its equal row block (closed form for pde,
///         laplace2d, onefull, random and banded with fill 1; the row lengths otherwise), the
///         block totals are allgathered and the rank whose block holds a split finds the
///         boundary row (nnz_split.hpp); then each rank generates exactly its rows. No entry
///         moves between ranks (the per-rank reader's step 6 has to move its rows).
///   metis needs the whole graph: rank 0 generates the whole matrix (32-bit, within its
///         budget), partitions it and sends every rank its rows (per_rank = false, note says
///         so). The same happens for a generator without a row-range form (none today).
///
/// Budget: before generating, every rank estimates its rows' bytes (gen::rows_bytes: 8 per row
/// id and row pointer, 16 per entry) -- and, for nnz with a generator whose counts have no
/// closed form, the 8 bytes per row of its block's prefix sums -- and checks them against
/// `budget` (per rank); over the budget on any rank ends every rank with a RemoteError naming
/// that rank and its estimate (collective() / agree()).
///
/// Errors (a bad spec, an unknown generator, a bad parameter) end every rank with the same
/// RemoteError.
#include <string>
#include <string_view>

#include <spmv/dist/comm.hpp>
#include <spmv/dist/local_matrix.hpp>
#include <spmv/dist/partition.hpp>
#include <spmv/memory.hpp>

namespace spmv::dist {

template <typename ValueType>
struct ParallelGenerated {
    GlobalRows<ValueType> rows;  ///< this rank's rows (global numbering, 64-bit)
    Partition partition;         ///< the same on every rank
    bool per_rank = true;        ///< false: rank 0 generated the whole matrix and sent the rows
    std::string note;            ///< why per_rank is false; empty otherwise
};

/// Collective. Generates `spec` ("gen:NAME[:key=value,...]", gen::parse_spec) over the ranks
/// of `comm` under `partition` (rows, nnz or metis), as above.
template <typename ValueType>
ParallelGenerated<ValueType> generate_parallel(const Comm& comm, std::string_view spec,
                                               PartitionKind partition,
                                               const MemoryBudget& budget = {});

}  // namespace spmv::dist
