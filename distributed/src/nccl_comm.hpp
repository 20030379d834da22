#pragma once
// NCCL for the GPU ranks (internal to spmv::dist), behind a plain C++ header: no <nccl.h> and no
// CUDA types here, so the exchange, the solvers and every .cu compile the same with and without
// NCCL. nccl_comm.cpp holds every NCCL call (built when CMake found NCCL, cmake/SpmvNccl.cmake);
// nccl_none.cpp stands in otherwise and says "this build has no NCCL".
//
// One communicator per DistMatrix (shared with the matrices with_values() makes of it), over the
// same ranks as its MPI communicator (the same rank numbers), each rank on its own device:
// ncclGetUniqueId on rank 0, the id broadcast over MPI, ncclCommInitRank on every rank,
// ncclCommDestroy with the last matrix holding it. NCCL makes its connections lazily, on the
// first send / receive to each peer and the first collective (~100 ms or more each); the
// matrix's creation makes them (halo_exchange.cpp, connect_nccl), so that no product or solve
// pays for them. Everything it queues runs on
// the CUDA stream it is given, in order with the work around it there, with no host wait and no
// MPI: the halo (NCCL's "point-to-point communication": ncclGroupStart, one ncclSend and one
// ncclRecv per neighbour, ncclGroupEnd) and the sums of CG's dot products (ncclAllReduce on device
// doubles, in place).
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include <spmv/dist/comm.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::dist::detail {

/// Whether this build has NCCL.
bool nccl_compiled() noexcept;
/// "NCCL 2.28.9" (the library's run-time version), or why there is none.
std::string nccl_version();

/// One message of an exchange: `count` elements at `data` (device memory) to or from `rank`.
struct NcclPeer {
    int rank = 0;
    void* data = nullptr;
    std::int64_t count = 0;
};

class NcclComm {
public:
    /// Collective over `comm`: every rank passes its device ordinal (made current here). Any
    /// rank's failure before the communicator is initialised (no NCCL in this build, a failing
    /// ncclGetUniqueId) throws RemoteError on every rank; the initialisation's own result is
    /// agreed after it (NCCL's blocking ncclCommInitRank: a rank that fails inside it after its
    /// peers connected makes them fail too; one that never arrives would leave them waiting,
    /// which the checks before it are there to prevent).
    static std::unique_ptr<NcclComm> create(const Comm& comm, int device);
    ~NcclComm();  // ncclCommDestroy; never throws
    NcclComm(const NcclComm&) = delete;
    NcclComm& operator=(const NcclComm&) = delete;

    int rank() const noexcept { return rank_; }
    int size() const noexcept { return size_; }

    /// Queues on `stream` one group of point-to-point messages: every send of `sends` and
    /// every receive of `recvs` (elements of type `t`, f32 or f64), completing together. Every
    /// rank must queue its groups in the same order (the plan's sends of one rank are the
    /// receives of the others). Nothing is queued when both are empty.
    void exchange(std::span<const NcclPeer> sends, std::span<const NcclPeer> recvs, Datatype t,
                  gpu::StreamRef stream);
    /// Queues on `stream` the sum over the ranks of `count` doubles at `data` (device memory),
    /// in place. Every rank receives the same bits (NCCL reduces each element once and sends
    /// the result to all), so every rank takes the same branch on it.
    void allreduce_sum(double* data, std::int64_t count, gpu::StreamRef stream);

private:
    NcclComm() = default;
    void* comm_ = nullptr;  // ncclComm_t
    int rank_ = 0;
    int size_ = 1;
};

}  // namespace spmv::dist::detail
