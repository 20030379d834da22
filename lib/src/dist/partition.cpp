#include <algorithm>
#include <limits>
#include <numeric>
#include <string>

#include <spmv/dist/partition.hpp>
#include <spmv/error.hpp>

namespace spmv::dist {

std::string_view to_string(PartitionKind k)
{
    switch (k) {
    case PartitionKind::rows: return "rows";
    case PartitionKind::nnz: return "nnz";
    case PartitionKind::metis: return "metis";
    }
    return "?";
}

PartitionKind parse_partition_kind(std::string_view name)
{
    for (auto k : {PartitionKind::rows, PartitionKind::nnz, PartitionKind::metis}) {
        if (name == to_string(k)) {
            return k;
        }
    }
    SPMV_THROW(InvalidArgument,
               "unknown partition '" + std::string(name) + "' (valid: rows, nnz, metis)");
}

int Partition::owner_of(global_index g) const
{
    SPMV_EXPECTS(g >= 0 && g < size, "index " + std::to_string(g) + " outside [0, " +
                                         std::to_string(size) + ")");
    if (!contiguous()) {
        return owner[static_cast<std::size_t>(g)];
    }
    // the last rank r with offsets[r] <= g (ranks owning nothing have equal offsets)
    auto it = std::upper_bound(offsets.begin(), offsets.end(), g);
    return static_cast<int>(it - offsets.begin()) - 1;
}

std::int64_t Partition::local_index_of(global_index g) const
{
    if (!contiguous()) {
        SPMV_EXPECTS(g >= 0 && g < size, "index outside the partition");
        return local[static_cast<std::size_t>(g)];
    }
    return g - offsets[static_cast<std::size_t>(owner_of(g))];
}

global_index Partition::count(int r) const
{
    SPMV_EXPECTS(r >= 0 && r < num_ranks, "rank " + std::to_string(r) + " outside [0, " +
                                              std::to_string(num_ranks) + ")");
    if (contiguous()) {
        return offsets[static_cast<std::size_t>(r) + 1] - offsets[static_cast<std::size_t>(r)];
    }
    return std::count(owner.begin(), owner.end(), r);
}

std::vector<global_index> Partition::indices_of(int r) const
{
    SPMV_EXPECTS(r >= 0 && r < num_ranks, "rank " + std::to_string(r) + " outside [0, " +
                                              std::to_string(num_ranks) + ")");
    std::vector<global_index> out;
    if (contiguous()) {
        out.resize(static_cast<std::size_t>(count(r)));
        std::iota(out.begin(), out.end(), offsets[static_cast<std::size_t>(r)]);
        return out;
    }
    for (std::size_t g = 0; g < owner.size(); ++g) {
        if (owner[g] == r) {
            out.push_back(static_cast<global_index>(g));
        }
    }
    return out;
}

std::vector<std::int32_t> Partition::owners() const
{
    if (!contiguous()) {
        return owner;
    }
    std::vector<std::int32_t> o(static_cast<std::size_t>(size));
    for (int r = 0; r < num_ranks; ++r) {
        std::fill(o.begin() + offsets[static_cast<std::size_t>(r)],
                  o.begin() + offsets[static_cast<std::size_t>(r) + 1], r);
    }
    return o;
}

void validate(const Partition& p)
{
    SPMV_ENSURE_LAYOUT(p.num_ranks >= 1, "a partition needs at least one rank");
    SPMV_ENSURE_LAYOUT(p.size >= 0, "negative partition size");
    if (p.contiguous()) {
        SPMV_ENSURE_LAYOUT(p.offsets.size() == static_cast<std::size_t>(p.num_ranks) + 1,
                           "offsets must have num_ranks + 1 entries");
        SPMV_ENSURE_LAYOUT(p.offsets.front() == 0 && p.offsets.back() == p.size,
                           "offsets must run from 0 to size");
        SPMV_ENSURE_LAYOUT(std::is_sorted(p.offsets.begin(), p.offsets.end()),
                           "offsets must not decrease");
        return;
    }
    SPMV_ENSURE_LAYOUT(p.owner.size() == static_cast<std::size_t>(p.size) &&
                           p.local.size() == p.owner.size(),
                       "owner and local must have one entry per index");
    std::vector<std::int32_t> next(static_cast<std::size_t>(p.num_ranks), 0);
    for (std::size_t g = 0; g < p.owner.size(); ++g) {
        const auto r = p.owner[g];
        SPMV_ENSURE_LAYOUT(r >= 0 && r < p.num_ranks,
                           "owner of index " + std::to_string(g) + " is not a rank");
        SPMV_ENSURE_LAYOUT(p.local[g] == next[static_cast<std::size_t>(r)]++,
                           "local index of " + std::to_string(g) +
                               " is not its position among its rank's indices");
    }
}

Partition partition_rows(global_index size, int ranks)
{
    SPMV_EXPECTS(ranks >= 1, "a partition needs at least one rank");
    SPMV_EXPECTS(size >= 0, "negative size");
    Partition p;
    p.kind = PartitionKind::rows;
    p.num_ranks = ranks;
    p.size = size;
    p.offsets.resize(static_cast<std::size_t>(ranks) + 1);
    const global_index base = size / ranks;
    const global_index extra = size % ranks;
    p.offsets[0] = 0;
    for (int r = 0; r < ranks; ++r) {
        p.offsets[static_cast<std::size_t>(r) + 1] =
            p.offsets[static_cast<std::size_t>(r)] + base + (r < extra ? 1 : 0);
    }
    return p;
}

Partition partition_weighted(std::span<const global_index> prefix, int ranks)
{
    SPMV_EXPECTS(ranks >= 1, "a partition needs at least one rank");
    SPMV_EXPECTS(!prefix.empty() && prefix.front() == 0, "prefix sums must start at 0");
    SPMV_EXPECTS(std::is_sorted(prefix.begin(), prefix.end()), "prefix sums must not decrease");
    const auto size = static_cast<global_index>(prefix.size()) - 1;
    const global_index total = prefix.back();
    std::vector<global_index> splits(static_cast<std::size_t>(ranks) - 1);
    for (int r = 1; r < ranks; ++r) {
        splits[static_cast<std::size_t>(r) - 1] =
            nearest_boundary(size, ideal_split(total, r, ranks),
                             [&](global_index b) { return prefix[static_cast<std::size_t>(b)]; });
    }
    return nnz_partition_from_splits(size, ranks, splits);
}

Partition nnz_partition_from_splits(global_index num_rows, int ranks,
                                    std::span<const global_index> splits)
{
    SPMV_EXPECTS(ranks >= 1, "a partition needs at least one rank");
    SPMV_EXPECTS(num_rows >= 0, "negative row count");
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

template <typename ValueType>
Partition partition_nnz(const Csr<ValueType, std::int32_t>& a, int ranks)
{
    std::vector<global_index> prefix(a.row_ptrs.begin(), a.row_ptrs.end());
    return partition_weighted(prefix, ranks);
}

template <typename ValueType>
Partition make_partition(const Csr<ValueType, std::int32_t>& a, PartitionKind kind, int ranks)
{
    switch (kind) {
    case PartitionKind::rows: return partition_rows(a.num_rows, ranks);
    case PartitionKind::nnz: return partition_nnz(a, ranks);
    case PartitionKind::metis: return partition_metis(a, ranks);
    }
    SPMV_THROW(InvalidArgument, "unknown partition kind");
}

Partition column_partition(const Partition& rows, global_index num_cols)
{
    if (num_cols == rows.size) {
        return rows;
    }
    SPMV_EXPECTS(rows.contiguous(), "a rectangular matrix needs a contiguous row partition "
                                    "(rows or nnz), not metis");
    Partition c;
    c.kind = rows.kind;
    c.num_ranks = rows.num_ranks;
    c.size = num_cols;
    c.offsets.resize(rows.offsets.size());
    for (std::size_t r = 0; r < rows.offsets.size(); ++r) {
        const long double share =
            rows.size == 0 ? static_cast<long double>(r) / rows.num_ranks
                           : static_cast<long double>(rows.offsets[r]) / rows.size;
        c.offsets[r] = static_cast<global_index>(share * num_cols + 0.5L);
    }
    c.offsets.front() = 0;
    c.offsets.back() = num_cols;
    for (std::size_t r = 1; r < c.offsets.size(); ++r) {
        c.offsets[r] = std::max(c.offsets[r], c.offsets[r - 1]);
    }
    return c;
}

#define SPMV_INSTANTIATE_PARTITION(V)                                                    \
    template Partition partition_nnz<V>(const Csr<V, std::int32_t>&, int);               \
    template Partition make_partition<V>(const Csr<V, std::int32_t>&, PartitionKind, int);
SPMV_INSTANTIATE_PARTITION(double)
SPMV_INSTANTIATE_PARTITION(float)

}  // namespace spmv::dist

namespace spmv::dist::detail {

/// A general partition from an owner per index; local indices follow ascending global order.
Partition owner_partition(std::vector<std::int32_t> owner, int ranks)
{
    Partition p;
    p.kind = PartitionKind::metis;
    p.num_ranks = ranks;
    p.size = static_cast<global_index>(owner.size());
    p.local.resize(owner.size());
    std::vector<std::int32_t> next(static_cast<std::size_t>(ranks), 0);
    for (std::size_t g = 0; g < owner.size(); ++g) {
        SPMV_EXPECTS(owner[g] >= 0 && owner[g] < ranks, "owner outside [0, ranks)");
        // local indices are 32-bit: a rank owns at most 2^31 - 1 indices (as split() requires)
        SPMV_EXPECTS(next[static_cast<std::size_t>(owner[g])] <
                         std::numeric_limits<std::int32_t>::max(),
                     "rank " + std::to_string(owner[g]) +
                         " would own more than 2^31 - 1 indices: use more ranks");
        p.local[g] = next[static_cast<std::size_t>(owner[g])]++;
    }
    p.owner = std::move(owner);
    return p;
}

}  // namespace spmv::dist::detail
