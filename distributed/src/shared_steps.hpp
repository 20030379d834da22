#pragma once
// Collective steps more than one source of spmv::dist takes, each defined once in the source
// that owns it (internal: not installed, not part of the public API).
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/dist/comm.hpp>
#include <spmv/dist/partition.hpp>

namespace spmv::dist::detail {

/// Every rank's `mine` (the same length on every rank), rank after rank, on every rank.
/// Collective (one alltoallv). Defined in nnz_split.cpp; the reader (parallel_mm.cpp) uses it
/// too.
std::vector<std::int64_t> allgather_i64(const Comm& comm, std::span<const std::int64_t> mine);

/// The root's partition on every rank: offsets, or the owner of every index for a
/// non-contiguous one (metis), with `local` rebuilt from the owners on the other ranks (the
/// root keeps its own). Collective. Defined in dist_matrix.cpp (DistMatrix::create's scatter
/// from the root); per-rank generation's root path (parallel_gen.cpp) uses it too.
Partition broadcast_partition(const Comm& comm, Partition p);

}  // namespace spmv::dist::detail
