#pragma once
// The halo exchange of one rank (internal to spmv::dist): one object per matrix behind which
// the ways the halo can move are implementations (halo_exchange.cpp):
//
//   HaloExchange                 start / send / finish (+ queue_pack, bind_thread)
//   ├── HostExchange             host ranks: pack on the host, MPI on host buffers  "host"
//   └── DeviceExchange           GPU ranks: the gather on the device, the step order
//       ├── CudaAwareExchange    device buffers to MPI                        "cuda-aware"
//       │   └── HostStagedExchange   + copies through page-locked memory     "host-staged"
//       ├── CudaIpcExchange      peer copies of the halo, MPI for tokens only   "cuda-ipc"
//       └── NcclExchange         ncclSend / ncclRecv queued on the stream, no MPI  "nccl"
//
// Like the row gatherer of Ginkgo's distributed::Matrix (`req = gather.apply_async(b, recv);
// local.apply(...); req.wait(); non_local.apply(...)`) and PETSc's VecScatterBegin / End
// around MatMult_MPIAIJ's diagonal block: start() begins an exchange, finish() completes it.
// Kreutzer's modes need two more handles in between, because they differ in when the host may
// wait for the packed entries: send() (naive mode: before the local SpMV) and queue_pack()
// (task mode: the device's gather queued by the host thread before the local SpMV, the rest
// driven by the communication thread). Who calls which step when is the schedule's business
// (schedule.hpp); the Driver passed to every step says who drives (the host thread or the
// communication thread: its timeline lane and how it waits) and where device work is queued.
// One exchange is in flight at a time per object.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <spmv/dist/comm.hpp>
#include <spmv/dist/dist_matrix.hpp>
#include <spmv/dist/exchange_plan.hpp>
#include <spmv/gpu/memory.hpp>

#include "device_rank.hpp"
#include "trace.hpp"

namespace spmv::dist::detail {

/// Who drives an exchange and where its device work goes: what the modes change.
struct Driver {
    Recorder& rec;
    const Comm& comm;
    /// Task mode's communication thread (the comm lane, its events in lists of its own until
    /// the join, its waits as DistOptions::task_poll_us says); else the host thread that also
    /// runs the products (the compute lane, MPI_Waitall).
    bool comm_thread = false;
    Queue queue = Queue::compute;
    int poll_us = 0;  ///< the communication thread's poll interval (0: MPI_Waitall)

    Lane lane() const noexcept { return comm_thread ? Lane::comm : Lane::compute; }
    /// Times the enclosing scope on the driver's lane.
    Span span(Phase p) const { return Span(rec, lane(), p, comm_thread); }
    /// Waits for `reqs`: MPI_Waitall, or on the communication thread with a poll interval,
    /// MPI_Testall and a sleep until done.
    void wait(Requests& reqs) const;
    /// Queues `work` on `s` between two events on the GPU lane (GPU ranks).
    template <typename Work>
    void gpu_span(Phase p, gpu::StreamRef s, Work&& work) const
    {
        rec.gpu.span(p, s, work, comm_thread);
    }
};

template <typename ValueType>
class HaloExchange {
public:
    virtual ~HaloExchange() = default;
    /// "host", "host-staged", "cuda-aware", "cuda-ipc" or "nccl" (DistMatrix::exchange_path).
    virtual const char* path() const noexcept = 0;
    /// Called on the communication thread before it drives an exchange (GPU ranks: makes the
    /// rank's device current there).
    virtual void bind_thread() {}
    /// GPU ranks: queues the gather of the entries to send on `d.queue`'s stream now, ahead of
    /// the work queued after it (the local SpMV), for an exchange that start() then begins
    /// without gathering again. Host ranks: nothing (packing is the driver's own work, done in
    /// start()).
    virtual void queue_pack(ValueType* /*x_ghost*/, const Driver& /*d*/) {}
    /// Begins one exchange of the halo of x_ghost = [x_own | halo]: posts the receives, packs
    /// (unless queue_pack did), and posts the sends when the packed entries are ready without
    /// the host waiting (host ranks). x_ghost must stay valid until finish().
    virtual void start(ValueType* x_ghost, const Driver& d) = 0;
    /// Posts the sends now, the host waiting for the packed entries first (GPU ranks); nothing
    /// if they are posted already.
    virtual void send(const Driver& d) = 0;
    /// Completes the exchange: the sends (if send() did not), the wait for every message, and
    /// on GPU ranks the halo's way into x_ghost's tail, queued on `d.queue`'s stream (work on
    /// another stream must wait for it with an event).
    virtual void finish(const Driver& d) = 0;
};

/// The exchange's buffers, allocated with the blocks (inside their collective step, so that a
/// failed allocation on one rank ends every rank) before the path is chosen.
template <typename ValueType>
struct HaloBuffers {
    std::vector<ValueType> host_send;                  ///< host ranks: the packed entries
    gpu::DeviceBuffer<std::int32_t> send_idx;          ///< GPU ranks: the plan's send_idx
    gpu::DeviceBuffer<ValueType> send;                 ///< GPU ranks: the gathered entries
    gpu::PinnedBuffer<ValueType> pinned_send, pinned_recv;  ///< host-staged (not cuda-aware,
                                                            ///< not nccl)
    bool cuda_aware = false;  ///< "auto" or "cuda-aware" asked for and the MPI library is
};

/// Throws InvalidArgument unless `name` is auto, nccl, host-staged, cuda-ipc or cuda-aware, and
/// NotCompiled for nccl in a build without NCCL ("this build has no NCCL").
void check_exchange_name(const std::string& name);

/// What "auto" takes for GPU ranks, in one place: cuda-aware where the MPI library is, else
/// cuda-ipc where every rank is on one host and the GPUs can read each other's memory, else
/// host-staged. NCCL is not (yet) among auto's choices: it is taken only when asked for, until
/// the measurements (scripts/experiments/nccl_x2.sh, docs/distributed.md "NCCL") say where it
/// is faster. Returns the name to try first.
std::string auto_exchange(bool cuda_aware_mpi);

template <typename ValueType>
HaloBuffers<ValueType> allocate_halo_buffers(const ExchangePlan& plan, const DistOptions& opt);

template <typename ValueType>
struct ExchangeChoice {
    std::unique_ptr<HaloExchange<ValueType>> exchange;  ///< null when no rank has a halo
    std::string note;  ///< why "auto" did not take CUDA IPC (empty when it did / did not try)
};

/// Chooses the exchange path (DistOptions::exchange) and builds it over `buffers`; for CUDA
/// IPC it opens every neighbour's send buffer. Collective: every rank reaches it with the same
/// options and all take the same path (a rank that cannot open a buffer makes all of them fall
/// back to host-staged, or, with "cuda-ipc" asked for, fail with its reason). With "nccl" and
/// more than one rank it gives `device` the ranks' NCCL communicator (device->nccl, whether or
/// not any rank has a halo, as CG's reductions use it too): `shared_nccl` where given (another
/// matrix's over the same ranks and device: DistMatrix::with_values, MPIR-CG's float operator),
/// else a new one; then it makes every NCCL connection the products and CG's device reductions
/// will use (one halo exchange, one sum of two doubles), so that NCCL's lazy connection set-up
/// (~100 ms per first call) is part of the setup time, not of the first product or solve.
/// `plan` and `device` must outlive the exchange. GPU ranks pass their device, host ranks
/// nullptr.
template <typename ValueType>
ExchangeChoice<ValueType> make_halo_exchange(const Comm& comm, const ExchangePlan& plan,
                                             std::int64_t own, const DistOptions& opt,
                                             bool any_halo, DeviceRank* device,
                                             HaloBuffers<ValueType> buffers,
                                             std::shared_ptr<NcclComm> shared_nccl = {});

}  // namespace spmv::dist::detail
