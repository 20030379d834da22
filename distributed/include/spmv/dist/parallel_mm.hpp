#pragma once
/// Per-rank input of a Matrix Market file (issue 36, "per-rank input"): every rank reads its
/// share of the file and ends up with its rows, without any rank holding the whole matrix.
///
///   1. Every rank maps the file and reads its banner and size line (io::EntryRangeReader: the
///      serial reader's header checks and messages).
///   2. The entry lines' bytes are cut into P equal ranges, each moved forward to the next line
///      start; every rank counts the newlines of its range and an exclusive scan of the counts
///      gives it the number of its first line, so that errors name the global line
///      ("file.mtx:123456: ...") as the serial reader does.
///   3. In rounds of at most ParallelReadOptions::round_bytes of text per rank (the same number
///      of rounds on every rank), each rank parses the next piece of its range with the serial
///      reader's per-entry parsing (symmetric and skew-symmetric entries expanded on the way)
///      and sends every entry to the owner of its row under equal row blocks (one all-to-all of
///      counts, one of entries). No rank holds more than its row block's entries plus one
///      round's buffers.
///   4. The counts of every rank's range (entries, diagonal, the first line below and above the
///      diagonal) are gathered; a rank whose range fails a check that needs what precedes it
///      (more entries than declared, both triangles of a symmetric file) or holds a bad line
///      parses its range again from the counts of the ranks before it, which throws exactly the
///      serial reader's first error; the lowest failing rank's message ends every rank
///      (RemoteError, agree()). A file with fewer entries than declared fails as the serial
///      reader does ("file ends at line N after k of M entries").
///   5. Each row block's owner sorts its entries by (row, column, file order) and sums
///      duplicates in file order: the same CSR rows, to the bit, as read_matrix_market. The
///      entries arrive in one piece per round; each piece is placed into the rows' arrays by a
///      counting sort on the row and freed, each row then sorted in place (no sorted copy).
///   6. Partition `rows` is those blocks. Partition `nnz` (Cevahir §3.3, partition_weighted's
///      rule) is cut from the blocks' row lengths by a distributed prefix sum: every rank knows
///      only its block's row pointers and the P block totals; the rank whose block holds the
///      ideal split r * nnz / P finds the row boundary, and the rows then move to their owners
///      (a second round-bounded all-to-all; the sender's block and the receiver's rows are both
///      held during it, so the peak there is about twice a rank's share).
///
/// Compressed files, tar archives and the standard input cannot be cut by bytes: rank 0 reads
/// them with read_matrix_market and its entries go through steps 3, 5, 6 (ParallelRead::note
/// says so, for the caller to print; rank 0 then holds the whole matrix, as before).
///
/// Memory: ReadOptions::memory is a budget per rank. The size line's dimension check
/// (unconfirmed_dimension) is the serial reader's; the byte limit is held against the rank's
/// share, not the whole matrix's CSR: once step 2 has counted the lines, before any entry is
/// parsed, every rank estimates what steps 3 and 5 take (1/P of the entries after symmetric
/// expansion: 32 bytes each as they arrive, beside one round's buffers of 84 bytes per entry
/// parsed; then 56 while they are sorted into rows, 16 once they are; 24 bytes per row), and
/// after step 3 it checks the entries that did arrive before assembling them (a file whose
/// rows are skewed gives some rank more than 1/P). A rank over the limit ends every rank with
/// MemoryLimitExceeded naming that rank, its rows and its estimate ("rank 1 of 4: reading its
/// share of F (... rows 250000 to 499999, about 1735000 entries) would need 139 MiB; the memory
/// limit is ..."), agreed collectively. Compressed and archived input is read whole by rank 0
/// within the whole budget, as the serial reader reads it.
///
/// Not done yet: a failed allocation inside an all-to-all round is not agreed (the exchange
/// itself is not wrapped in collective()); step 6's second all-to-all is not estimated
/// against the budget (its peak is about twice a rank's share). Partition `metis` needs the
/// whole graph and is refused.
#include <cstdint>
#include <filesystem>
#include <string>

#include <spmv/dist/comm.hpp>
#include <spmv/dist/local_matrix.hpp>
#include <spmv/dist/partition.hpp>
#include <spmv/io/matrix_market.hpp>

namespace spmv::dist {

struct ParallelReadOptions {
    /// How pattern entries get values, threads are not used (one range per rank); `memory`:
    /// see above.
    io::ReadOptions read;
    PartitionKind partition = PartitionKind::nnz;  ///< rows or nnz
    /// Bytes of text each rank parses and sends per round: with at most one entry per 4 bytes
    /// ("1 1\n") and two per symmetric line, a round's buffers (84 bytes per entry) hold at
    /// most round_bytes / 2 entries; a typical line of 15 to 40 bytes gives 2 to 11 MiB for the
    /// default of 1 MiB (16 MiB, the first default, made the buffers of a 65 MB pde100 file
    /// larger than a rank's rows on 4 ranks). Tests set it small to run many rounds.
    std::int64_t round_bytes = std::int64_t{1} << 20;
    /// Entries per rank per round when rows move to their nnz-partition owners: the round's
    /// buffers take 68 bytes per entry (4.25 MiB for the default; 2^20, the first default,
    /// gave 68 MiB, more than a rank's rows of pde100 on 4 ranks).
    std::int64_t round_entries = std::int64_t{1} << 16;
};

template <typename ValueType>
struct ParallelRead {
    GlobalRows<ValueType> rows;  ///< this rank's rows (all of them, empty ones included)
    Partition partition;         ///< the same on every rank
    /// The whole file's, the same on every rank: the header's fields and the global counts
    /// (entries, diagonal_entries, expanded_entries, duplicates_summed, explicit_zeros, nnz).
    io::MatrixMarketInfo info;
    bool per_rank = true;  ///< false: rank 0 read the whole file (compressed or archived input)
    std::string note;      ///< why per_rank is false; empty otherwise
};

/// Collective. Reads `path` as above. Every failure throws RemoteError on every rank with the
/// first failing rank's message (for a bad line: "<file>:<line>: <problem>", the serial
/// reader's message and line).
template <typename ValueType>
ParallelRead<ValueType> read_matrix_market_parallel(const Comm& comm,
                                                    const std::filesystem::path& path,
                                                    const ParallelReadOptions& opt = {});

}  // namespace spmv::dist
