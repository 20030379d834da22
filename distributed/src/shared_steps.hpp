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

/// SPMV_DIST_HOSTS=apart (a test of the paths between hosts on one host, issue 36): the ranks
/// are treated as if each were on a host of its own wherever a path depends on sharing one:
/// CUDA IPC is not taken (auto falls back to host-staged, `--exchange cuda-ipc` is refused
/// saying so), and NCCL is told to leave its same-host transports (NCCL_P2P_DISABLE and
/// NCCL_SHM_DISABLE set to 1 unless already set, before its communicator is made), so that it
/// moves the halo over its network transport. MPI's own choice of transport is the MPI
/// library's (Open MPI: OMPI_MCA_btl=self,tcp). GPUs are still picked by the node-local rank.
/// Unset or empty: false; another value: InvalidArgument naming it. Defined in
/// halo_exchange.cpp; nccl_comm.cpp uses it too.
bool hosts_apart();

}  // namespace spmv::dist::detail
