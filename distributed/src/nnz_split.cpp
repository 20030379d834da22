// The nnz partition cut from row blocks spread over the ranks (nnz_split.hpp): the reader's
// step 6 and per-rank generation share it. Plain C++ over Comm.
#include <spmv/dist/nnz_split.hpp>

#include <algorithm>
#include <string>

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
    for (int r = 1; r < ranks; ++r) {
        // partition_weighted's ideal split, in the same arithmetic (exact for 64-bit totals)
        const long double ideal = static_cast<long double>(total) * r / ranks;
        if (total == 0 || !(static_cast<long double>(base) < ideal &&
                            ideal <= static_cast<long double>(base + own))) {
            continue;  // another block's (total 0: every cut at 0, as lower_bound gives)
        }
        // first local boundary i in [1, count] with base + prefix(i) >= ideal: it exists, as
        // base + prefix(count) >= ideal, and it is the global lower_bound, as base < ideal
        global_index lo = 1;
        global_index hi = count;
        while (lo < hi) {
            const global_index mid = lo + (hi - lo) / 2;
            if (static_cast<long double>(base + prefix(mid)) < ideal) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        global_index b = first + lo;
        if (ideal - static_cast<long double>(base + prefix(lo - 1)) <
            static_cast<long double>(base + prefix(lo)) - ideal) {
            --b;  // the boundary before is nearer
        }
        splits[static_cast<std::size_t>(r) - 1] = b;
    }
    return splits;
}

Partition nnz_partition_from_splits(global_index num_rows, int ranks,
                                    std::span<const global_index> splits)
{
    SPMV_EXPECTS(ranks >= 1, "a partition needs at least one rank");
    SPMV_EXPECTS(splits.size() == static_cast<std::size_t>(ranks) - 1,
                 "one split per rank boundary (" + std::to_string(ranks - 1) + "), got " +
                     std::to_string(splits.size()));
    Partition p;
    p.kind = PartitionKind::nnz;
    p.num_ranks = ranks;
    p.size = num_rows;
    p.offsets.assign(static_cast<std::size_t>(ranks) + 1, 0);
    p.offsets.back() = num_rows;
    for (int r = 1; r < ranks; ++r) {
        p.offsets[static_cast<std::size_t>(r)] =
            std::clamp(splits[static_cast<std::size_t>(r) - 1],
                       p.offsets[static_cast<std::size_t>(r) - 1], num_rows);
    }
    validate(p);
    return p;
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
