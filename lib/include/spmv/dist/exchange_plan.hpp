#pragma once
/// The halo exchange of a distributed SpMV, computed once and reused by every product (Ginkgo's
/// row_gatherer, Tpetra's Import): whom a rank receives halo entries from and where they go,
/// whom it sends which of its own x entries to. MPI-free: the MPI layer fills the send side
/// with one all-to-all; plan_all() builds every rank's plan in one process (dist plan, GUI,
/// tests).
///
/// Example: the canonical 4x4 over 2 ranks by rows (see local_matrix.hpp):
///   rank 0: recv {from 1: 2 entries at halo[0..2)}  send {to 1: own x entries [0 1]}
///   rank 1: recv {from 0: 2 entries at halo[0..2)}  send {to 0: own x entries [0 1]}
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/dist/partition.hpp>

namespace spmv::dist {

struct Neighbour {
    int rank = 0;
    std::int64_t count = 0;   ///< entries exchanged with this rank
    std::int64_t offset = 0;  ///< first entry in the halo (recv) or in send_idx (send)
};

struct ExchangePlan {
    int rank = 0;
    std::vector<Neighbour> recv;  ///< ascending rank; halo entries [offset, offset + count)
    std::vector<Neighbour> send;  ///< ascending rank; send_idx[offset, offset + count)
    std::vector<std::int32_t> send_idx;  ///< own x entries to pack, in send order
    std::int64_t halo_size() const noexcept;
    std::int64_t send_size() const noexcept { return static_cast<std::int64_t>(send_idx.size()); }
};

/// The receive side of a rank's plan from its halo (halo_owner ascending, as split() makes it).
ExchangePlan receive_side(int rank, std::span<const std::int32_t> halo_owner);

/// The send side: `requests[s]` holds the global columns rank s asked this rank for (in the
/// order it wants them); they become local x indices by `cols`. Throws InvalidArgument when a
/// requested column is not owned by `plan.rank`.
void fill_send_side(ExchangePlan& plan, const std::vector<std::vector<global_index>>& requests,
                    const Partition& cols);

/// Every rank's plan at once from every rank's halo (halo_cols and halo_owner of split()).
std::vector<ExchangePlan> plan_all(const std::vector<std::vector<global_index>>& halo_cols,
                                   const std::vector<std::vector<std::int32_t>>& halo_owner,
                                   const Partition& cols);

/// Throws InvalidLayout when a plan is inconsistent (offsets not contiguous, counts negative,
/// neighbours not ascending or equal to the plan's own rank, send_idx outside [0, own_cols)).
void validate(const ExchangePlan& plan, std::int64_t own_cols);

}  // namespace spmv::dist
