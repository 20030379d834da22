// The nnz partition cut from row blocks spread over the ranks (nnz_split.hpp): the reader's
// step 6 and per-rank generation share it. Plain C++ over Comm.
#include <spmv/dist/nnz_split.hpp>

#include <algorithm>

#include <spmv/error.hpp>

#include "shared_steps.hpp"

namespace spmv::dist {

namespace detail {

// Declared in shared_steps.hpp (parallel_mm.cpp uses it too).
/// Every rank's `mine` (the same length on every rank), rank after rank, on every rank.
std::vector<std::int64_t> allgather_i64(const Comm& comm, std::span<const std::int64_t> mine)
{
    const auto P = static_cast<std::size_t>(comm.size());
    const auto k = mine.size();
    std::vector<std::int64_t> send(P * k);
    for (std::size_t s = 0; s < P; ++s) {
        std::copy(mine.begin(), mine.end(), send.begin() + static_cast<std::ptrdiff_t>(s * k));
    }
    std::vector<std::int64_t> counts(P, static_cast<std::int64_t>(k));
    std::vector<std::int64_t> all(P * k);
    comm.alltoallv(send, counts, all, counts);
    return all;
}

}  // namespace detail

using detail::allgather_i64;

std::vector<global_index> nnz_splits_in_block(global_index first, global_index count,
                                              std::int64_t base, std::int64_t total, int ranks,
                                              const BlockPrefix& prefix)
{
    SPMV_EXPECTS(ranks >= 1, "a partition needs at least one rank");
    SPMV_EXPECTS(first >= 0 && count >= 0 && base >= 0, "a block needs first, count, base >= 0");
    std::vector<global_index> splits(static_cast<std::size_t>(ranks) - 1, -1);
    const std::int64_t own = count > 0 ? prefix(count) : 0;
    const auto global_prefix = [&](global_index i) { return base + prefix(i); };
    for (int r = 1; r < ranks; ++r) {
        // partition_weighted's ideal split and nearest boundary, in the same arithmetic
        const long double ideal = ideal_split(total, r, ranks);
        if (total == 0 || !(static_cast<long double>(base) < ideal &&
                            ideal <= static_cast<long double>(base + own))) {
            continue;  // another block's (total 0: every cut at 0, as lower_bound gives)
        }
        // base + prefix(count) >= ideal, so the first boundary at or after it is in this block,
        // and it is the global one, as base < ideal: so is the nearer of it and the one before
        splits[static_cast<std::size_t>(r) - 1] =
            first + nearest_boundary(count, ideal, global_prefix);
    }
    return splits;
}

Partition nnz_partition(const Comm& comm, global_index num_rows, global_index first,
                        global_index count, const BlockPrefix& prefix)
{
    const int P = comm.size();
    const std::int64_t own = count > 0 ? prefix(count) : 0;
    const auto totals = allgather_i64(comm, std::span<const std::int64_t>(&own, 1));
    std::int64_t base = 0;
    std::int64_t total = 0;
    for (int s = 0; s < P; ++s) {
        base += s < comm.rank() ? totals[static_cast<std::size_t>(s)] : 0;
        total += totals[static_cast<std::size_t>(s)];
    }
    const auto mine = nnz_splits_in_block(first, count, base, total, P, prefix);
    std::vector<global_index> splits(mine.size(), -1);
    if (!mine.empty()) {
        const auto all = allgather_i64(comm, mine);
        for (std::size_t s = 0; s < static_cast<std::size_t>(P); ++s) {
            for (std::size_t r = 0; r < mine.size(); ++r) {
                splits[r] = std::max(splits[r], all[s * mine.size() + r]);
            }
        }
    }
    return nnz_partition_from_splits(num_rows, P, splits);
}

}  // namespace spmv::dist
