// The halo exchange's implementations (halo_exchange.hpp): the host ranks' path and the GPU
// ranks' four (cuda-aware, host-staged, cuda-ipc, nccl), and the collective choice between them.
// Plain C++ over Comm (comm.cpp holds every MPI call), NcclComm (nccl_comm.cpp every NCCL call)
// and the kernels' public API.
#include <array>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string_view>
#include <thread>
#include <utility>

#include <spmv/gpu/ipc.hpp>
#include <spmv/gpu/vector_ops.hpp>

#include "halo_exchange.hpp"
#include "shared_steps.hpp"

namespace spmv::dist::detail {

namespace {

constexpr int tag_halo = 7101;
constexpr int tag_ipc_setup = 7103;     // CUDA IPC: handle + offset + device, once
constexpr int tag_ipc_packed = 7104;    // CUDA IPC: "my send buffer holds your entries"
constexpr int tag_ipc_consumed = 7105;  // CUDA IPC: "I have copied them, you may overwrite"

/// Host ranks: the host packs the entries to send itself, so start() posts the receives, packs
/// and posts the sends at once; finish() waits.
template <typename ValueType>
class HostExchange final : public HaloExchange<ValueType> {
public:
    HostExchange(const Comm& comm, const ExchangePlan& plan, std::int64_t own,
                 std::vector<ValueType> send)
        : comm_(comm), plan_(plan), own_(own), send_(std::move(send))
    {}
    const char* path() const noexcept override { return "host"; }

    void start(ValueType* x_ghost, const Driver& d) override
    {
        {
            const auto s = d.span(Phase::post);
            for (const auto& n : plan_.recv) {
                comm_.irecv(x_ghost + own_ + n.offset, n.count, datatype_of<ValueType>(), n.rank,
                            tag_halo, reqs_);
            }
        }
        {
            const auto s = d.span(Phase::pack);
            for (std::size_t i = 0; i < plan_.send_idx.size(); ++i) {
                send_[i] = x_ghost[plan_.send_idx[i]];
            }
        }
        const auto s = d.span(Phase::post);
        for (const auto& n : plan_.send) {
            comm_.isend(send_.data() + n.offset, n.count, datatype_of<ValueType>(), n.rank,
                        tag_halo, reqs_);
        }
    }
    void send(const Driver& /*d*/) override {}  // start() posted them
    void finish(const Driver& d) override
    {
        const auto s = d.span(Phase::wait);
        d.wait(reqs_);
    }

private:
    const Comm& comm_;
    const ExchangePlan& plan_;
    std::int64_t own_;
    std::vector<ValueType> send_;
    Requests reqs_;
};

/// GPU ranks: the entries to send are gathered on the device (on the driver's queue), and the
/// host waits for the gather before it sends (the paths differ in what they send and how the
/// halo arrives). The gather can be queued ahead (queue_pack) so that it is not stuck behind a
/// local SpMV that fills the GPU (measured on two H100: the gather waited 1.3 ms for the local
/// SpMV of pde400), which serialised the exchange after the first pass; the comm stream has
/// the device's greatest priority for the same reason.
template <typename ValueType>
class DeviceExchange : public HaloExchange<ValueType> {
public:
    DeviceExchange(const Comm& comm, const ExchangePlan& plan, std::int64_t own,
                   DeviceRank& device, HaloBuffers<ValueType>& buffers)
        : comm_(comm), plan_(plan), own_(own), device_(device),
          send_idx_(std::move(buffers.send_idx)), send_(std::move(buffers.send))
    {}

    void bind_thread() override { gpu::set_device(device_.ordinal); }
    void queue_pack(ValueType* x_ghost, const Driver& d) override
    {
        x_ = x_ghost;
        pack(d);
        pack_queued_ = true;
    }
    void start(ValueType* x_ghost, const Driver& d) override
    {
        x_ = x_ghost;
        sent_ = false;
        {
            const auto s = d.span(Phase::post);
            post_receives();
        }
        if (!pack_queued_) {
            pack(d);
        }
    }
    void send(const Driver& d) override
    {
        if (sent_) {
            return;
        }
        sent_ = true;
        if (plan_.send_size() > 0 && host_waits_for_pack()) {
            const auto s = d.span(Phase::pack);  // the host waits for the gather (+ copy)
            device_.stream(d.queue).synchronize();
        }
        const auto s = d.span(Phase::post);
        post_sends(d);
    }
    void finish(const Driver& d) override
    {
        pack_queued_ = false;
        send(d);
        complete(d);
    }

protected:
    /// Posts the receives of the halo (or of what announces it).
    virtual void post_receives() = 0;
    /// Queues what follows the gather on `s` (host-staged: the copy to the host).
    virtual void stage_out(const Driver& /*d*/, gpu::Stream& /*s*/) {}
    /// Whether send() waits on the host for the gather before post_sends (MPI reads the send
    /// buffer when it is posted; NCCL's sends are queued behind the gather on its stream).
    virtual bool host_waits_for_pack() const noexcept { return true; }
    /// Posts the sends (the gathered entries are complete, or queued before them on d.queue's
    /// stream where host_waits_for_pack() is false).
    virtual void post_sends(const Driver& d) = 0;
    /// Waits for every message and brings the halo into x_ghost's tail (queued on d.queue).
    virtual void complete(const Driver& d) = 0;

    ValueType* halo() const noexcept { return x_ + own_; }
    std::int64_t halo_size() const noexcept { return plan_.halo_size(); }

    const Comm& comm_;
    const ExchangePlan& plan_;
    std::int64_t own_;
    DeviceRank& device_;
    gpu::DeviceBuffer<std::int32_t> send_idx_;
    gpu::DeviceBuffer<ValueType> send_;

private:
    void pack(const Driver& d)
    {
        if (plan_.send_size() == 0) {
            return;
        }
        auto& s = device_.stream(d.queue);
        d.gpu_span(Phase::pack, s, [&] {
            gpu::gather(x_, send_idx_.data(), plan_.send_size(), send_.data(), s.ref());
        });
        stage_out(d, s);
    }

    ValueType* x_ = nullptr;
    bool pack_queued_ = false;  // queue_pack ran for the exchange start() begins
    bool sent_ = false;
};

/// The gathered entries go to MPI as they are, on the device; the halo arrives in x_ghost's
/// tail on the device.
template <typename ValueType>
class CudaAwareExchange : public DeviceExchange<ValueType> {
public:
    using DeviceExchange<ValueType>::DeviceExchange;
    const char* path() const noexcept override { return "cuda-aware"; }

protected:
    /// Where the halo messages land and where the sent entries are read.
    virtual ValueType* recv_buffer() { return this->halo(); }
    virtual const ValueType* send_buffer() const { return this->send_.data(); }
    /// Queues what follows the wait (host-staged: the copy of the halo to the device).
    virtual void stage_in(const Driver& /*d*/) {}

    void post_receives() override
    {
        ValueType* dst = recv_buffer();
        for (const auto& n : this->plan_.recv) {
            this->comm_.irecv(dst + n.offset, n.count, datatype_of<ValueType>(), n.rank,
                              tag_halo, reqs_);
        }
    }
    void post_sends(const Driver& /*d*/) override
    {
        const ValueType* src = send_buffer();
        for (const auto& n : this->plan_.send) {
            this->comm_.isend(src + n.offset, n.count, datatype_of<ValueType>(), n.rank,
                              tag_halo, reqs_);
        }
    }
    void complete(const Driver& d) override
    {
        {
            const auto s = d.span(Phase::wait);
            d.wait(reqs_);
        }
        stage_in(d);
    }

private:
    Requests reqs_;
};

/// The papers' path: the gathered entries are copied to page-locked host memory and sent from
/// there; the halo arrives in page-locked host memory and is copied to the device.
template <typename ValueType>
class HostStagedExchange final : public CudaAwareExchange<ValueType> {
public:
    HostStagedExchange(const Comm& comm, const ExchangePlan& plan, std::int64_t own,
                       DeviceRank& device, HaloBuffers<ValueType>& buffers)
        : CudaAwareExchange<ValueType>(comm, plan, own, device, buffers),
          pinned_send_(std::move(buffers.pinned_send)),
          pinned_recv_(std::move(buffers.pinned_recv))
    {}
    const char* path() const noexcept override { return "host-staged"; }

protected:
    ValueType* recv_buffer() override { return pinned_recv_.data(); }
    const ValueType* send_buffer() const override { return pinned_send_.data(); }
    void stage_out(const Driver& d, gpu::Stream& s) override
    {
        d.gpu_span(Phase::copy_d2h, s, [&] {
            gpu::detail::copy_bytes_async(
                pinned_send_.data(), this->send_.data(),
                static_cast<std::size_t>(this->plan_.send_size()) * sizeof(ValueType),
                gpu::detail::CopyKind::device_to_host, s.ref());
        });
    }
    void stage_in(const Driver& d) override
    {
        if (this->halo_size() == 0) {
            return;
        }
        auto& s = this->device_.stream(d.queue);
        d.gpu_span(Phase::copy_h2d, s, [&] {
            gpu::detail::copy_bytes_async(
                this->halo(), pinned_recv_.data(),
                static_cast<std::size_t>(this->halo_size()) * sizeof(ValueType),
                gpu::detail::CopyKind::host_to_device, s.ref());
        });
    }

private:
    gpu::PinnedBuffer<ValueType> pinned_send_, pinned_recv_;
};

/// Each rank pulls its halo from its neighbours' send buffers (opened once with CUDA IPC) with
/// one device copy per neighbour; MPI carries a "packed" token (my send buffer holds your
/// entries) and a "consumed" token (you may overwrite it) per neighbour and exchange.
template <typename ValueType>
class CudaIpcExchange final : public DeviceExchange<ValueType> {
public:
    /// `maps[i]`: plan.recv[i]'s send buffer opened here; `offsets[i]`: where this rank's
    /// entries start in it.
    CudaIpcExchange(const Comm& comm, const ExchangePlan& plan, std::int64_t own,
                    DeviceRank& device, HaloBuffers<ValueType>& buffers,
                    std::vector<gpu::IpcMapping> maps, const std::vector<std::int64_t>& offsets)
        : DeviceExchange<ValueType>(comm, plan, own, device, buffers), maps_(std::move(maps)),
          tok_packed_(plan.recv.size(), 0), tok_consumed_(plan.send.size(), 0)
    {
        for (std::size_t i = 0; i < plan.recv.size(); ++i) {
            src_.push_back(static_cast<const ValueType*>(maps_[i].data()) + offsets[i]);
        }
    }
    const char* path() const noexcept override { return "cuda-ipc"; }

protected:
    void post_receives() override
    {
        const auto& plan = this->plan_;
        for (std::size_t i = 0; i < plan.recv.size(); ++i) {
            this->comm_.irecv(&tok_packed_[i], 1, Datatype::i32, plan.recv[i].rank,
                              tag_ipc_packed, packed_);
        }
        for (std::size_t i = 0; i < plan.send.size(); ++i) {
            this->comm_.irecv(&tok_consumed_[i], 1, Datatype::i32, plan.send[i].rank,
                              tag_ipc_consumed, consumed_);
        }
    }
    void post_sends(const Driver& /*d*/) override
    {
        // tell the receivers that the send buffer holds their entries
        for (const auto& n : this->plan_.send) {
            this->comm_.isend(&tok_out_, 1, Datatype::i32, n.rank, tag_ipc_packed, reqs_);
        }
    }
    /// Pulls the halo from each sender's buffer when it says so; tells the senders it was
    /// copied; waits until the receivers have copied ours (the next gather overwrites it).
    void complete(const Driver& d) override
    {
        const auto& plan = this->plan_;
        {
            const auto s = d.span(Phase::wait);
            d.wait(packed_);
        }
        if (this->halo_size() > 0) {
            auto& stream = this->device_.stream(d.queue);
            d.gpu_span(Phase::copy_peer, stream, [&] {
                for (std::size_t i = 0; i < plan.recv.size(); ++i) {
                    const auto& n = plan.recv[i];
                    gpu::detail::copy_bytes_async(
                        this->halo() + n.offset, src_[i],
                        static_cast<std::size_t>(n.count) * sizeof(ValueType),
                        gpu::detail::CopyKind::device_to_device, stream.ref());
                }
            });
            const auto s = d.span(Phase::wait);
            stream.synchronize();
        }
        {
            const auto s = d.span(Phase::post);
            for (const auto& n : plan.recv) {
                this->comm_.isend(&tok_out_, 1, Datatype::i32, n.rank, tag_ipc_consumed, reqs_);
            }
        }
        const auto s = d.span(Phase::wait);
        d.wait(consumed_);
        d.wait(reqs_);
    }

private:
    std::vector<gpu::IpcMapping> maps_;
    std::vector<const ValueType*> src_;  // per plan.recv entry: this rank's entries there
    std::vector<std::int32_t> tok_packed_, tok_consumed_;
    std::int32_t tok_out_ = 1;
    Requests reqs_;      // the tokens sent
    Requests packed_;    // the senders' "packed" tokens
    Requests consumed_;  // the receivers' "consumed" tokens
};

/// NCCL: the gather, then one group of ncclSend (from the device send buffer) and ncclRecv (into
/// x_ghost's halo tail), all queued on the driver's stream: no host staging, no MPI and no host
/// wait on the data path. Where the modes put it (schedule.hpp):
///  - vector and naive (compute stream): the group is queued when the sends are due (vector:
///    finish(), before the whole SpMV; naive: send(), before the local SpMV), so the SpMV that
///    follows on the same stream reads the halo in order. Naive mode's host still blocks on the
///    local kernel (which now runs after the exchange, on the same stream: nothing hidden, as
///    the paper expects of naive overlap);
///  - overlap (comm stream): start() queues the gather; the host launches the local SpMV on
///    the compute stream; finish() queues the group on the comm stream behind the gather, while
///    the GPU runs the local SpMV; the non-local SpMV waits for it with an event
///    (RankBlocks::halo_ready); the host never waits for the exchange. The group used to be
///    queued in start(), before the local SpMV's launch: NCCL's host side of a group
///    (ncclGroupEnd: the plan, the proxy's work, the kernel launch) then delayed the local
///    SpMV's launch by its whole time, and overlap ran slower than vector and task mode (2 x
///    H200, pde150 SELL: 81.0 us against 74.2 and 72.5, issue 36). NCCL's kernel, queued
///    behind a local SpMV that may fill the GPU, gets the SMs first as they free up (the comm
///    stream has the device's greatest priority), as the gather queued ahead of it does;
///  - task: the host thread queues the gather (queue_pack) and launches the local SpMV, the
///    communication thread queues the group on the comm stream meanwhile and is done at once;
///    after the join, the event as in overlap.
/// The timeline shows the group as Phase::copy_peer on the GPU lane (NCCL's kernel moving the
/// halo from the neighbours' GPUs) and its queuing as Phase::post on the driver's lane. The
/// share of the exchange "hidden" (overlap_times) counts an exchange interval as hidden where
/// a compute interval of another lane covers it, and the GPU lane holds both streams: NCCL's
/// kernel beside the local SpMV (both on the GPU lane) is not counted, only the host's queuing
/// beside the GPU's kernels is. So for this path it says little; compare the modes' times.
/// The send buffer is safe to overwrite at the next gather: it is queued behind this group's
/// kernel on the same stream, or (the other stream) after the product's final synchronize.
template <typename ValueType>
class NcclExchange final : public DeviceExchange<ValueType> {
public:
    NcclExchange(const Comm& comm, const ExchangePlan& plan, std::int64_t own,
                 DeviceRank& device, HaloBuffers<ValueType>& buffers)
        : DeviceExchange<ValueType>(comm, plan, own, device, buffers)
    {}
    const char* path() const noexcept override { return "nccl"; }

protected:
    bool host_waits_for_pack() const noexcept override { return false; }
    void post_receives() override {}  // in the group, with the sends
    void post_sends(const Driver& d) override
    {
        const auto& plan = this->plan_;
        sends_.clear();
        recvs_.clear();
        for (const auto& n : plan.send) {
            sends_.push_back({n.rank, this->send_.data() + n.offset, n.count});
        }
        for (const auto& n : plan.recv) {
            recvs_.push_back({n.rank, this->halo() + n.offset, n.count});
        }
        auto& stream = this->device_.stream(d.queue);
        d.gpu_span(Phase::copy_peer, stream, [&] {
            this->device_.nccl->exchange(sends_, recvs_, datatype_of<ValueType>(), stream.ref());
        });
    }
    void complete(const Driver& /*d*/) override {}  // the halo arrives in order on the stream

private:
    std::vector<NcclPeer> sends_, recvs_;
};

/// Exchanges the IPC handles of the send buffers with the neighbours and opens theirs.
/// Returns why IPC cannot run (the same on every rank; empty: `maps` and `offsets` hold one
/// entry per plan.recv entry). Collective.
template <typename ValueType>
std::string open_neighbours(const Comm& comm, const ExchangePlan& plan, const DeviceRank& device,
                            const gpu::DeviceBuffer<ValueType>& send,
                            std::vector<gpu::IpcMapping>& maps, std::vector<std::int64_t>& offsets)
{
    if (comm.node_size() != comm.size()) {
        return "the ranks are on more than one host";
    }
    bool apart = false;  // the same answer on every rank, or an error on every rank
    collective(comm, [&] { apart = hosts_apart(); });
    if (comm.allreduce_max(apart ? 1.0 : 0.0) > 0.0) {
        return "SPMV_DIST_HOSTS=apart treats the ranks as on separate hosts";
    }
    std::string mine;  // this rank's failure
    std::vector<std::array<std::int64_t, 10>> in(plan.recv.size());
    // handle (64 bytes), where the receiver's entries start in the send buffer, device
    std::array<std::int64_t, 10> out{};
    if (plan.send_size() > 0) {
        try {
            const auto h = gpu::ipc_export(send.data());
            std::memcpy(out.data(), h.data(), h.size());
        } catch (const std::exception& e) {
            mine = std::string("exporting the send buffer: ") + e.what();
        }
    }
    out[9] = device.ordinal;
    std::vector<std::array<std::int64_t, 10>> outs(plan.send.size(), out);
    Requests reqs;
    for (std::size_t i = 0; i < plan.recv.size(); ++i) {
        comm.irecv(in[i].data(), 10, Datatype::i64, plan.recv[i].rank, tag_ipc_setup, reqs);
    }
    for (std::size_t i = 0; i < plan.send.size(); ++i) {
        outs[i][8] = plan.send[i].offset;
        comm.isend(outs[i].data(), 10, Datatype::i64, plan.send[i].rank, tag_ipc_setup, reqs);
    }
    comm.wait_all(reqs);
    for (std::size_t i = 0; i < in.size() && mine.empty(); ++i) {
        try {
            const int peer = static_cast<int>(in[i][9]);
            if (!gpu::can_access_peer(peer)) {
                mine = "GPU " + std::to_string(device.ordinal) + " cannot read GPU " +
                       std::to_string(peer) + " (no peer access)";
                break;
            }
            gpu::IpcHandle h{};
            std::memcpy(h.data(), in[i].data(), h.size());
            maps.emplace_back(h);
        } catch (const std::exception& e) {
            mine = std::string("opening rank ") + std::to_string(plan.recv[i].rank) +
                   "'s send buffer: " + user_message(e.what());
        }
    }
    if (comm.allreduce_max(mine.empty() ? 0.0 : 1.0) > 0.0) {
        const auto all = comm.allgather(mine);
        for (std::size_t r = 0; r < all.size(); ++r) {
            if (!all[r].empty()) {
                return "rank " + std::to_string(r) + ": " + all[r];
            }
        }
    }
    for (const auto& v : in) {
        offsets.push_back(v[8]);
    }
    return {};
}

/// Makes every NCCL connection the matrix's products and solves will use, at its creation.
/// NCCL (>= 2.22, NCCL_RUNTIME_CONNECT=1 by default) connects lazily: on the first ncclSend /
/// ncclRecv to each peer and on the first collective of each algorithm, each first call costing
/// ~100 ms or more. Left to the solve, that landed inside CG's first iteration (issue 36, 2 x
/// H200, pde150: 420 ms with device reductions against 68 ms with CUDA IPC, 157 ms of it in
/// the reductions; dist bench, which warms up, never saw it). So the setup makes them, once:
///  - one halo exchange with the plan's peers and sizes, queued on the comm stream (the entries
///    sent are whatever the send buffer holds, the received ones land in scratch memory: only
///    the connections matter, which NCCL makes per peer whatever the size);
///  - the sum of two doubles on the compute stream: exactly the device reductions' call
///    (NcclComm::allreduce_sum of gpu::DistCgSteps::sums(), both precisions), so that NCCL's
///    tuning picks the same algorithm, whose connection is the one made;
/// then waits for both. The setup time (DistMatrix::create, with_values) includes NCCL's
/// connection set-up; the products and solves after it do not. Collective: the scratch memory
/// (which can fail on one rank alone) is agreed before any rank enters NCCL, whose connection
/// set-up waits for the peers; the NCCL calls' own result is agreed after them.
template <typename ValueType>
void connect_nccl(const Comm& comm, const ExchangePlan& plan, DeviceRank& device,
                  gpu::DeviceBuffer<ValueType>& send)
{
    gpu::DeviceBuffer<ValueType> halo;
    gpu::DeviceBuffer<double> sums;
    collective(comm, [&] {
        gpu::set_device(device.ordinal);
        halo = gpu::DeviceBuffer<ValueType>(static_cast<std::size_t>(plan.halo_size()),
                                            "NCCL warm-up halo");
        sums = gpu::DeviceBuffer<double>(2, "NCCL warm-up sums");
        sums.fill(0.0);
        if (send.size() > 0) {
            send.fill(ValueType{0});  // defined data on the wire (compute-sanitizer's initcheck)
        }
    });
    collective(comm, [&] {
        std::vector<NcclPeer> sends, recvs;
        for (const auto& n : plan.send) {
            sends.push_back({n.rank, send.data() + n.offset, n.count});
        }
        for (const auto& n : plan.recv) {
            recvs.push_back({n.rank, halo.data() + n.offset, n.count});
        }
        device.nccl->exchange(sends, recvs, datatype_of<ValueType>(), device.comm.ref());
        device.nccl->allreduce_sum(sums.data(), 2, device.compute.ref());
        device.comm.synchronize();
        device.compute.synchronize();
    });
}

/// Every rank throws `what` as the root's error (a choice all ranks made alike).
void fail_everywhere(const Comm& comm, const std::string& what)
{
    collective(comm, [&] {
        if (comm.rank() == 0) {
            SPMV_THROW(InvalidArgument, what);
        }
    });
}

}  // namespace

void Driver::wait(Requests& reqs) const
{
    if (!comm_thread || poll_us <= 0) {
        comm.wait_all(reqs);
        return;
    }
    while (!comm.test_all(reqs)) {
        std::this_thread::sleep_for(std::chrono::microseconds(poll_us));
    }
}

void check_exchange_name(const std::string& name)
{
    if (name != "auto" && name != "host-staged" && name != "cuda-ipc" && name != "cuda-aware" &&
        name != "nccl") {
        SPMV_THROW(InvalidArgument, "exchange path '" + name +
                                        "': not auto, nccl, host-staged, cuda-ipc or cuda-aware");
    }
    if (name == "nccl" && !nccl_compiled()) {
        SPMV_THROW(NotCompiled,
                   "exchange path nccl: this build has no NCCL (" + nccl_version() + ")");
    }
    hosts_apart();  // a bad SPMV_DIST_HOSTS is refused on every kind of rank
}

bool hosts_apart()
{
    const char* v = std::getenv("SPMV_DIST_HOSTS");
    if (v == nullptr || *v == '\0') {
        return false;
    }
    if (std::string_view(v) != "apart") {
        SPMV_THROW(InvalidArgument, "SPMV_DIST_HOSTS='" + std::string(v) +
                                        "': the only value is 'apart' (treat the ranks as on "
                                        "separate hosts), or leave it unset");
    }
    return true;
}

std::string auto_exchange(bool cuda_aware_mpi)
{
    // The one place of auto's rule. NCCL is left out until it is measured faster (issue 36:
    // "chosen by auto where it is faster (measured)"); to take it, return "nccl" here where
    // nccl_compiled() (and, across hosts, where NCCL's network transport is the better one).
    if (cuda_aware_mpi) {
        return "cuda-aware";
    }
    return "cuda-ipc";  // falls back to host-staged where IPC cannot run (make_halo_exchange)
}

template <typename ValueType>
HaloBuffers<ValueType> allocate_halo_buffers(const ExchangePlan& plan, const DistOptions& opt)
{
    HaloBuffers<ValueType> b;
    const auto n_send = static_cast<std::size_t>(plan.send_size());
    if (!opt.gpu) {
        b.host_send.resize(n_send);
        return b;
    }
    b.send_idx = gpu::DeviceBuffer<std::int32_t>::from_host(plan.send_idx, "halo send indices");
    b.send = gpu::DeviceBuffer<ValueType>(n_send, "halo send buffer");
    const bool mpi_cuda_aware = cuda_aware();
    b.cuda_aware = mpi_cuda_aware &&
                   (opt.exchange == "cuda-aware" ||
                    (opt.exchange == "auto" && auto_exchange(true) == "cuda-aware"));
    if (!b.cuda_aware && opt.exchange != "nccl") {
        b.pinned_send = gpu::PinnedBuffer<ValueType>(n_send);
        b.pinned_recv = gpu::PinnedBuffer<ValueType>(static_cast<std::size_t>(plan.halo_size()));
    }
    return b;
}

template <typename ValueType>
ExchangeChoice<ValueType> make_halo_exchange(const Comm& comm, const ExchangePlan& plan,
                                             std::int64_t own, const DistOptions& opt,
                                             bool any_halo, DeviceRank* device,
                                             HaloBuffers<ValueType> buffers,
                                             std::shared_ptr<NcclComm> shared_nccl)
{
    ExchangeChoice<ValueType> c;
    if (opt.exchange == "nccl") {
        if (!opt.gpu) {
            fail_everywhere(comm, "exchange path nccl: NCCL moves data between GPUs; it needs "
                                  "GPU ranks (--gpu, DistOptions::gpu)");
        }
        if (comm.size() > 1) {  // one rank has nothing to exchange or reduce
            if (shared_nccl) {
                device->nccl = std::move(shared_nccl);
            } else {
                device->nccl = NcclComm::create(comm, device->ordinal);
            }
            // at setup, not in the first product or solve (connect_nccl); cheap where the
            // connections exist already (a shared communicator)
            connect_nccl(comm, plan, *device, buffers.send);
        }
        if (any_halo) {
            c.exchange = std::make_unique<NcclExchange<ValueType>>(comm, plan, own, *device,
                                                                   buffers);
        }
        return c;
    }
    if (!any_halo) {
        return c;  // exchange_path "none": every mode is the local SpMV
    }
    if (!opt.gpu) {
        c.exchange = std::make_unique<HostExchange<ValueType>>(comm, plan, own,
                                                               std::move(buffers.host_send));
        return c;
    }
    const std::string& want = opt.exchange;  // checked with the blocks (check_exchange_name)
    if (want == "cuda-aware" && !buffers.cuda_aware) {
        fail_everywhere(comm, "exchange path cuda-aware: this MPI library (" + library_version() +
                                  ") is not CUDA-aware");
    }
    if (buffers.cuda_aware) {
        c.exchange = std::make_unique<CudaAwareExchange<ValueType>>(comm, plan, own, *device,
                                                                    buffers);
        return c;
    }
    if ((want == "auto" && auto_exchange(false) == "cuda-ipc") || want == "cuda-ipc") {
        std::vector<gpu::IpcMapping> maps;
        std::vector<std::int64_t> offsets;
        const std::string why = open_neighbours(comm, plan, *device, buffers.send, maps, offsets);
        if (why.empty()) {  // the page-locked buffers are not used
            buffers.pinned_send = {};
            buffers.pinned_recv = {};
            c.exchange = std::make_unique<CudaIpcExchange<ValueType>>(
                comm, plan, own, *device, buffers, std::move(maps), offsets);
            return c;
        }
        if (want == "cuda-ipc") {
            fail_everywhere(comm, "exchange path cuda-ipc: " + why);
        }
        c.note = "CUDA IPC not taken: " + why;
    }
    c.exchange = std::make_unique<HostStagedExchange<ValueType>>(comm, plan, own, *device, buffers);
    return c;
}

#define SPMV_DIST_INSTANTIATE(V)                                                             \
    template HaloBuffers<V> allocate_halo_buffers<V>(const ExchangePlan&, const DistOptions&); \
    template ExchangeChoice<V> make_halo_exchange<V>(const Comm&, const ExchangePlan&,       \
                                                     std::int64_t, const DistOptions&, bool,  \
                                                     DeviceRank*, HaloBuffers<V>,             \
                                                     std::shared_ptr<NcclComm>)
SPMV_DIST_INSTANTIATE(double);
SPMV_DIST_INSTANTIATE(float);
#undef SPMV_DIST_INSTANTIATE

}  // namespace spmv::dist::detail
