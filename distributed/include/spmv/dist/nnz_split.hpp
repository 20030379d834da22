#pragma once
/// The nnz-balanced partition (Cevahir et al. §3.3, partition_weighted's exact rule) cut from
/// rows spread over the ranks in contiguous blocks, without any rank seeing every row: the
/// per-rank Matrix Market reader (parallel_mm.cpp, step 6) and per-rank generation
/// (parallel_gen.cpp) share it.
///
///   1. every rank knows its block [first, first + count) and the nonzeros of its first i rows
///      (`prefix(i)`: the reader from its row pointers, a generator in closed form or from its
///      row lengths);
///   2. the block totals are allgathered: block b's rows start at global prefix `base`, the sum
///      of the totals before it;
///   3. for every r in 1..P-1, the ideal split r * total / P lies in exactly one block's range
///      (base, base + block_nnz] (none when total = 0); that block finds the first global row
///      boundary at or after it by binary search over prefix() and steps back one row when the
///      boundary before is nearer -- partition_weighted's own ideal_split and nearest_boundary
///      (spmv/dist/partition.hpp), so the cut is the same to the row;
///   4. the splits are allgathered and nnz_partition_from_splits (spmv/dist/partition.hpp),
///      the clamp partition_weighted itself ends in (a rank never gets fewer than zero rows),
///      makes the partition.
/// Cost: one allgather of P totals and one of P - 1 splits, O(log count) prefix() calls per
/// split found.
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include <spmv/dist/comm.hpp>
#include <spmv/dist/partition.hpp>

namespace spmv::dist {

/// Nonzeros of a block's first i rows, 0 <= i <= count: prefix(0) = 0, non-decreasing,
/// prefix(count) = the block's total.
using BlockPrefix = std::function<std::int64_t(global_index i)>;

/// The splits of partition_weighted(global prefix, ranks) that fall in one block (no
/// communication): entry r - 1 for r in 1..ranks-1 is the row boundary partition_weighted picks
/// for split r before its clamp when the ideal split r * total / ranks lies in
/// (base, base + prefix(count)], and -1 otherwise.
/// @param first  the block's first global row
/// @param count  its rows
/// @param base   nonzeros of all rows before `first`
/// @param total  nonzeros of the whole matrix
std::vector<global_index> nnz_splits_in_block(global_index first, global_index count,
                                              std::int64_t base, std::int64_t total, int ranks,
                                              const BlockPrefix& prefix);

/// Collective: the nnz partition over comm.size() ranks of `num_rows` rows of which this rank
/// holds the block [first, first + count) (the blocks in rank order, together all rows).
/// The same Partition as partition_weighted on the whole prefix, on every rank.
Partition nnz_partition(const Comm& comm, global_index num_rows, global_index first,
                        global_index count, const BlockPrefix& prefix);

}  // namespace spmv::dist
