// DistMatrix: plain C++ over Comm (comm.cpp holds every MPI call) and the kernels' public API
// (DeviceMatrix, DeviceBuffer, Stream, Event, gather), so it is the same code with and without
// MPI and CUDA.
#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <functional>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include <spmv/analysis/estimate.hpp>
#include <spmv/dist/dist_matrix.hpp>
#include <spmv/dist/model.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/gpu/device_matrix.hpp>
#include <spmv/gpu/ipc.hpp>
#include <spmv/gpu/memory.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/gpu/vector_ops.hpp>

namespace spmv::dist {

namespace {

constexpr int tag_halo = 7101;
constexpr int tag_rows = 7102;
constexpr int tag_ipc_setup = 7103;     // CUDA IPC: handle + offset + device, once
constexpr int tag_ipc_packed = 7104;    // CUDA IPC: "my send buffer holds your entries"
constexpr int tag_ipc_consumed = 7105;  // CUDA IPC: "I have copied them, you may overwrite"

using Clock = std::chrono::steady_clock;

/// The communication thread of task mode: one persistent thread that runs one job at a time
/// (Kreutzer's "dedicated thread for MPI"); run() hands it a job, join() waits for it and
/// rethrows what it threw.
class CommThread {
public:
    CommThread() : thread_([this] { loop(); }) {}
    ~CommThread()
    {
        {
            std::lock_guard lock(m_);
            quit_ = true;
        }
        cv_.notify_all();
        thread_.join();
    }
    CommThread(const CommThread&) = delete;
    CommThread& operator=(const CommThread&) = delete;

    void run(std::function<void()> job)
    {
        {
            std::lock_guard lock(m_);
            job_ = std::move(job);
            done_ = false;
            error_ = nullptr;
        }
        cv_.notify_all();
    }
    void join()
    {
        std::unique_lock lock(m_);
        cv_.wait(lock, [this] { return done_; });
        if (error_) {
            std::rethrow_exception(std::exchange(error_, nullptr));
        }
    }

private:
    void loop()
    {
        std::unique_lock lock(m_);
        for (;;) {
            cv_.wait(lock, [this] { return quit_ || job_; });
            if (quit_) {
                return;
            }
            auto job = std::exchange(job_, nullptr);
            lock.unlock();
            std::exception_ptr err;
            try {
                job();
            } catch (...) {
                err = std::current_exception();
            }
            lock.lock();
            error_ = err;
            done_ = true;
            cv_.notify_all();
        }
    }

    std::mutex m_;
    std::condition_variable cv_;
    std::function<void()> job_;
    bool done_ = true;
    bool quit_ = false;
    std::exception_ptr error_;
    std::thread thread_;  // last: starts after the members above exist
};

/// Events of one rank; the comm thread writes its own list, merged after the join.
struct Recorder {
    Timeline* tl = nullptr;
    int rank = 0;
    int iteration = 0;
    Clock::time_point origin;
    std::vector<TimelineEvent> comm_events;

    bool on() const noexcept { return tl != nullptr; }
    double now_us() const
    {
        return std::chrono::duration<double, std::micro>(Clock::now() - origin).count();
    }
    void add(Lane lane, Phase phase, double b, double e)
    {
        if (tl != nullptr) {
            tl->events.push_back({rank, lane, phase, iteration, b, e});
        }
    }
    void add_comm(Phase phase, double b, double e)
    {
        if (tl != nullptr) {
            comm_events.push_back({rank, Lane::comm, phase, iteration, b, e});
        }
    }
    void merge()
    {
        if (tl != nullptr) {
            tl->events.insert(tl->events.end(), comm_events.begin(), comm_events.end());
            comm_events.clear();
        }
    }
};

/// Times a scope into a recorder lane.
class Span {
public:
    Span(Recorder& r, Lane lane, Phase p, bool comm_list = false)
        : r_(r), lane_(lane), p_(p), comm_(comm_list), b_(r.on() ? r.now_us() : 0.0)
    {}
    ~Span()
    {
        if (!r_.on()) {
            return;
        }
        const double e = r_.now_us();
        if (comm_) {
            r_.add_comm(p_, b_, e);
        } else {
            r_.add(lane_, p_, b_, e);
        }
    }
    Span(const Span&) = delete;
    Span& operator=(const Span&) = delete;

private:
    Recorder& r_;
    Lane lane_;
    Phase p_;
    bool comm_;
    double b_;
};


/// The rows with non-local entries (the "boundary" rows), ascending.
template <typename ValueType>
std::vector<std::int32_t> boundary_rows(const Csr<ValueType, std::int32_t>& nonlocal)
{
    std::vector<std::int32_t> rows;
    for (std::int32_t i = 0; i < nonlocal.num_rows; ++i) {
        if (nonlocal.row_ptrs[i + 1] > nonlocal.row_ptrs[i]) {
            rows.push_back(i);
        }
    }
    return rows;
}

/// `a` with the listed rows (ascending) left empty.
template <typename ValueType>
Csr<ValueType, std::int32_t> without_rows(const Csr<ValueType, std::int32_t>& a,
                                          const std::vector<std::int32_t>& rows)
{
    Csr<ValueType, std::int32_t> c;
    c.num_rows = a.num_rows;
    c.num_cols = a.num_cols;
    c.row_ptrs.assign(1, 0);
    std::size_t next = 0;
    for (std::int32_t i = 0; i < a.num_rows; ++i) {
        if (next < rows.size() && rows[next] == i) {
            ++next;
        } else {
            for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
                c.col_idxs.push_back(a.col_idxs[static_cast<std::size_t>(k)]);
                c.values.push_back(a.values[static_cast<std::size_t>(k)]);
            }
        }
        c.row_ptrs.push_back(static_cast<std::int32_t>(c.col_idxs.size()));
    }
    return c;
}

/// The listed rows of the merged block [local | non-local] (merge_blocks), in that order: a
/// matrix of rows.size() rows over the ghosted x [x_own | halo].
template <typename ValueType>
Csr<ValueType, std::int32_t> merged_rows(const LocalMatrix<ValueType>& m,
                                         const std::vector<std::int32_t>& rows)
{
    Csr<ValueType, std::int32_t> c;
    c.num_rows = static_cast<std::int32_t>(rows.size());
    c.num_cols = m.local.num_cols + m.nonlocal.num_cols;
    c.row_ptrs.assign(1, 0);
    for (auto i : rows) {
        for (auto k = m.local.row_ptrs[i]; k < m.local.row_ptrs[i + 1]; ++k) {
            c.col_idxs.push_back(m.local.col_idxs[static_cast<std::size_t>(k)]);
            c.values.push_back(m.local.values[static_cast<std::size_t>(k)]);
        }
        for (auto k = m.nonlocal.row_ptrs[i]; k < m.nonlocal.row_ptrs[i + 1]; ++k) {
            c.col_idxs.push_back(m.local.num_cols + m.nonlocal.col_idxs[static_cast<std::size_t>(k)]);
            c.values.push_back(m.nonlocal.values[static_cast<std::size_t>(k)]);
        }
        c.row_ptrs.push_back(static_cast<std::int32_t>(c.col_idxs.size()));
    }
    return c;
}

/// [local | non-local] over [x_own | halo], every row: vector mode's single step.
template <typename ValueType>
Csr<ValueType, std::int32_t> merge_blocks(const LocalMatrix<ValueType>& m)
{
    std::vector<std::int32_t> all(static_cast<std::size_t>(m.local.num_rows));
    std::iota(all.begin(), all.end(), 0);
    return merged_rows(m, all);
}

}  // namespace

template <typename ValueType>
struct DistMatrix<ValueType>::Impl {
    Comm comm;
    DistOptions opt;
    Partition rows;
    Partition cols;
    LocalMatrix<ValueType> part;
    ExchangePlan plan;
    bool any_halo = false;  // some rank exchanges (all ranks agree on it)
    Clock::time_point origin = Clock::now();

    // host blocks
    std::optional<AnyMatrix<ValueType>> h_local, h_nonlocal, h_merged;
    // Non-local block on its rows with entries only (compressed) when at most half the rows
    // have non-local entries: its pass then reads and writes those y entries only, instead of
    // all of them; nl_rows lists them (empty: the block keeps every row).
    std::vector<std::int32_t> nl_rows;
    bool row_split = false;  // interior rows, then boundary rows (see build_blocks)
    std::vector<ValueType> h_nl_tmp;
    gpu::DeviceBuffer<std::int32_t> d_nl_rows;
    gpu::DeviceBuffer<ValueType> d_nl_tmp;
    std::vector<ValueType> h_ghost;  // [x_own | halo] for apply() on host spans
    std::vector<ValueType> h_send;

    // GPU blocks and buffers
    std::string device_name = "host";
    int device_ordinal = -1;
    gpu::DeviceMatrix<ValueType> d_local, d_nonlocal, d_merged;
    gpu::DeviceBuffer<std::int32_t> d_send_idx;
    gpu::DeviceBuffer<ValueType> d_send;
    gpu::DeviceBuffer<ValueType> d_ghost;  // [x_own | halo] for apply_device(x_own)
    gpu::DeviceBuffer<ValueType> d_io_x, d_io_y;  // apply() on a GPU rank
    gpu::PinnedBuffer<ValueType> p_send, p_recv;
    std::optional<gpu::Stream> s_compute, s_comm;
    gpu::Sums sums = gpu::Sums::value_type;
    bool use_cuda_aware = false;
    // CUDA IPC (DistOptions::exchange): per plan.recv entry the neighbour's send buffer opened
    // here and where this rank's entries start in it; token buffers per neighbour
    bool use_ipc = false;
    std::string exchange_note;
    std::vector<gpu::IpcMapping> ipc_maps;
    std::vector<const ValueType*> ipc_src;
    std::vector<std::int32_t> tok_packed, tok_consumed;
    std::int32_t tok_out = 1;

    std::unique_ptr<CommThread> thread;

    std::int64_t halo() const { return plan.halo_size(); }
    int poll_us = 0;  // DistOptions::task_poll_us resolved (build_blocks)
    /// The communication thread's wait (DistOptions::task_poll_us).
    void comm_wait(Requests& reqs) const
    {
        if (poll_us <= 0) {
            comm.wait_all(reqs);
            return;
        }
        while (!comm.test_all(reqs)) {
            std::this_thread::sleep_for(std::chrono::microseconds(poll_us));
        }
    }
    std::int64_t own() const { return part.num_own_cols; }

    void build_blocks();
    void setup_exchange();  // collective, after build_blocks
    void host_apply(Mode mode, ValueType* x_ghost, ValueType* y, Recorder& rec);
    void device_apply(Mode mode, ValueType* x_ghost, ValueType* y, Recorder& rec);
    void host_exchange_post(const ValueType* x_own, ValueType* halo, Requests& reqs,
                            Recorder& rec, bool comm_lane);
};

template <typename ValueType>
void DistMatrix<ValueType>::Impl::build_blocks()
{
    const bool merged = opt.merged_block && any_halo && halo() > 0;
    if (opt.exchange != "auto" && opt.exchange != "host-staged" && opt.exchange != "cuda-ipc" &&
        opt.exchange != "cuda-aware") {
        SPMV_THROW(InvalidArgument, "exchange path '" + opt.exchange +
                                        "': not auto, host-staged, cuda-ipc or cuda-aware");
    }
    if (opt.task_poll_us >= 0) {
        poll_us = opt.task_poll_us;
    } else {
        // each rank runs a compute and a communication thread: without two hardware threads
        // per rank the polling MPI_Waitall would take the compute side's core
        const auto hw = std::max(1u, std::thread::hardware_concurrency());
        poll_us = 2u * static_cast<unsigned>(comm.node_size()) > hw ? 20 : 0;
    }
    // The two passes of naive, overlap and task mode (the same rule as the model's,
    // spmv/dist/model.hpp, compressed_nonlocal):
    //  - few boundary rows (rows with non-local entries, at most a third): the first pass runs
    //    the interior rows (the local block with the boundary rows emptied), the second the
    //    boundary rows whole (local and non-local entries, over the ghosted x) into a product
    //    per row that is scattered into y. Every row is then summed in one pass, as in vector
    //    mode's merged block: the same y to the last bit, whatever the mode (in float too);
    //  - many: Kreutzer's split by columns, the local block over every row, then the full-row
    //    non-local block adding into y (beta = 1).
    std::vector<std::int32_t> rows_with_entries = boundary_rows(part.nonlocal);
    const bool compress = compressed_nonlocal(static_cast<std::int64_t>(rows_with_entries.size()),
                                              part.nonlocal.num_rows);
    Csr<ValueType, std::int32_t> first = part.local;
    Csr<ValueType, std::int32_t> second = part.nonlocal;
    row_split = compress && !rows_with_entries.empty();
    if (row_split) {
        nl_rows = std::move(rows_with_entries);
        first = without_rows(part.local, nl_rows);
        second = merged_rows(part, nl_rows);
    } else {
        nl_rows.clear();
    }
    // Every block this rank builds, estimated before any is (DistOptions::budget); inside
    // build_blocks' collective, a refusal on one rank ends every rank with its message.
    if (opt.budget.limited()) {
        const std::string& fmt = opt.variant.empty() ? opt.format
                                                     : std::string(gpu::find_variant(opt.variant).format);
        std::uint64_t need = 0;
        auto add = [&](const Csr<ValueType, std::int32_t>& c) {
            if constexpr (std::is_same_v<ValueType, double>) {
                need += analysis::estimate_footprint(c, fmt, opt.params).total_bytes();
            } else {  // the estimate counts 8-byte values: an upper bound for float blocks
                need += analysis::estimate_footprint(convert_values<double>(c), fmt, opt.params)
                            .total_bytes();
            }
        };
        add(first);
        if (halo() > 0) {
            add(second);
        }
        if (merged) {
            add(merge_blocks(part));
        }
        require_memory(opt.budget, need,
                       "rank " + std::to_string(comm.rank()) + "'s " + fmt + " blocks (" +
                           std::to_string(part.local.num_rows) + " rows; " +
                           (opt.gpu ? "device" : "host") + " memory, estimated)");
    }
    if (!opt.gpu) {
        h_local = spmv::build<ValueType>(opt.format, first, opt.params);
        h_nonlocal = spmv::build<ValueType>(opt.format, second, opt.params);
        h_nl_tmp.resize(nl_rows.size());
        if (merged) {
            h_merged = spmv::build<ValueType>(opt.format, merge_blocks(part), opt.params);
        }
        h_ghost.resize(static_cast<std::size_t>(own() + halo()));
        h_send.resize(static_cast<std::size_t>(plan.send_size()));
        return;
    }
    const int n = gpu::device_count();
    if (n == 0) {
        SPMV_THROW(InvalidArgument, gpu::is_compiled()
                                        ? "--gpu: no CUDA device on this rank's host"
                                        : "--gpu: this build has no CUDA kernels");
    }
    device_ordinal = comm.node_rank() % n;
    gpu::set_device(device_ordinal);
    device_name = gpu::device_info().name;
    auto up = [&](const Csr<ValueType, std::int32_t>& c) {
        if (opt.variant.empty()) {
            return gpu::assemble(spmv::build<ValueType>(opt.format, c, opt.params));
        }
        const auto& v = gpu::find_variant(opt.variant);
        return gpu::assemble(v, spmv::build<ValueType>(v.format, c, opt.params));
    };
    d_local = up(first);
    if (halo() > 0) {
        d_nonlocal = up(second);
        if (!nl_rows.empty()) {
            d_nl_rows = gpu::DeviceBuffer<std::int32_t>::from_host(nl_rows, "non-local rows");
            d_nl_tmp = gpu::DeviceBuffer<ValueType>(nl_rows.size(), "non-local products");
        }
    }
    if (merged) {
        d_merged = up(merge_blocks(part));
    }
    const bool wide = opt.double_sums && d_local.has_double_sums() &&
                      (!d_nonlocal || d_nonlocal.has_double_sums()) &&
                      (!d_merged || d_merged.has_double_sums());
    sums = wide ? gpu::Sums::double_precision : gpu::Sums::value_type;
    d_send_idx = gpu::DeviceBuffer<std::int32_t>::from_host(plan.send_idx, "halo send indices");
    d_send = gpu::DeviceBuffer<ValueType>(static_cast<std::size_t>(plan.send_size()), "halo send buffer");
    d_ghost = gpu::DeviceBuffer<ValueType>(static_cast<std::size_t>(own() + halo()), "ghosted x");
    use_cuda_aware = (opt.exchange == "auto" || opt.exchange == "cuda-aware") && cuda_aware();
    if (!use_cuda_aware) {
        p_send = gpu::PinnedBuffer<ValueType>(static_cast<std::size_t>(plan.send_size()));
        p_recv = gpu::PinnedBuffer<ValueType>(static_cast<std::size_t>(halo()));
    }
    s_compute.emplace();
    s_comm.emplace(gpu::Stream::Priority::high);  // the halo's gather and copies go first
}

/// Chooses the GPU ranks' exchange path (DistOptions::exchange) and, for CUDA IPC, opens
/// every neighbour's send buffer. Collective: every rank reaches it with the same options, and
/// all take the same path (a rank that cannot open a buffer makes all of them fall back, or,
/// with "cuda-ipc" asked for, fail with its reason).
template <typename ValueType>
void DistMatrix<ValueType>::Impl::setup_exchange()
{
    const std::string& want = opt.exchange;  // checked by build_blocks
    if (!opt.gpu || !any_halo) {
        return;
    }
    if (want == "cuda-aware" && !use_cuda_aware) {
        collective(comm, [&] {
            if (comm.rank() == 0) {
                SPMV_THROW(InvalidArgument, "exchange path cuda-aware: this MPI library (" +
                                                library_version() + ") is not CUDA-aware");
            }
        });
    }
    if (use_cuda_aware || (want != "auto" && want != "cuda-ipc")) {
        return;
    }
    std::string why;  // the same on every rank
    if (comm.node_size() != comm.size()) {
        why = "the ranks are on more than one host";
    }
    std::string mine;  // this rank's failure
    std::vector<std::array<std::int64_t, 10>> in(plan.recv.size());
    std::vector<gpu::IpcMapping> maps;
    if (why.empty()) {
        // handle (64 bytes), where the receiver's entries start in the send buffer, device
        std::array<std::int64_t, 10> out{};
        if (plan.send_size() > 0) {
            try {
                const auto h = gpu::ipc_export(d_send.data());
                std::memcpy(out.data(), h.data(), h.size());
            } catch (const std::exception& e) {
                mine = std::string("exporting the send buffer: ") + e.what();
            }
        }
        out[9] = device_ordinal;
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
                    mine = "GPU " + std::to_string(device_ordinal) + " cannot read GPU " +
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
                    why = "rank " + std::to_string(r) + ": " + all[r];
                    break;
                }
            }
        }
    }
    if (!why.empty()) {
        if (want == "cuda-ipc") {
            collective(comm, [&] {
                if (comm.rank() == 0) {
                    SPMV_THROW(InvalidArgument, "exchange path cuda-ipc: " + why);
                }
            });
        }
        exchange_note = "CUDA IPC not taken: " + why;
        return;
    }
    use_ipc = true;
    ipc_maps = std::move(maps);
    ipc_src.resize(plan.recv.size());
    for (std::size_t i = 0; i < plan.recv.size(); ++i) {
        ipc_src[i] = static_cast<const ValueType*>(ipc_maps[i].data()) + in[i][8];
    }
    tok_packed.assign(plan.recv.size(), 0);
    tok_consumed.assign(plan.send.size(), 0);
    p_send = {};  // the host buffers are not used
    p_recv = {};
}

/// Posts the receives into `halo`, packs and posts the sends (host buffers).
template <typename ValueType>
void DistMatrix<ValueType>::Impl::host_exchange_post(const ValueType* x_own, ValueType* halo_out,
                                                     Requests& reqs, Recorder& rec,
                                                     bool comm_lane)
{
    const Lane lane = comm_lane ? Lane::comm : Lane::compute;
    {
        Span s(rec, lane, Phase::post, comm_lane);
        for (const auto& n : plan.recv) {
            comm.irecv(halo_out + n.offset, n.count, datatype_of<ValueType>(), n.rank, tag_halo, reqs);
        }
    }
    {
        Span s(rec, lane, Phase::pack, comm_lane);
        for (std::size_t i = 0; i < plan.send_idx.size(); ++i) {
            h_send[i] = x_own[plan.send_idx[i]];
        }
    }
    Span s(rec, lane, Phase::post, comm_lane);
    for (const auto& n : plan.send) {
        comm.isend(h_send.data() + n.offset, n.count, datatype_of<ValueType>(), n.rank, tag_halo, reqs);
    }
}

template <typename ValueType>
void DistMatrix<ValueType>::Impl::host_apply(Mode mode, ValueType* x_ghost, ValueType* y,
                                             Recorder& rec)
{
    const auto nr = static_cast<std::size_t>(part.local.num_rows);
    std::span<const ValueType> x_own(x_ghost, static_cast<std::size_t>(own()));
    std::span<const ValueType> xh(x_ghost + own(), static_cast<std::size_t>(halo()));
    std::span<const ValueType> xg(x_ghost, static_cast<std::size_t>(own() + halo()));
    std::span<ValueType> ys(y, nr);
    auto local = [&] {
        Span s(rec, Lane::compute, Phase::local);
        spmv_reference(*h_local, ValueType{1}, x_own, ValueType{0}, ys);
    };
    auto nonlocal = [&] {
        if (halo() == 0) {
            return;
        }
        Span s(rec, Lane::compute, Phase::nonlocal);
        if (nl_rows.empty()) {  // the full-row block adds into y itself
            spmv_reference(*h_nonlocal, ValueType{1}, xh, ValueType{1}, ys);
            return;
        }
        spmv_reference(*h_nonlocal, ValueType{1}, xg, ValueType{0}, std::span<ValueType>(h_nl_tmp));
        for (std::size_t k = 0; k < nl_rows.size(); ++k) {
            ys[static_cast<std::size_t>(nl_rows[k])] += h_nl_tmp[k];
        }
    };
    if (!any_halo) {  // nothing to exchange anywhere: every mode is the local SpMV
        local();
        return;
    }
    Requests reqs;
    switch (mode) {
    case Mode::vector: {
        host_exchange_post(x_ghost, x_ghost + own(), reqs, rec, false);
        {
            Span s(rec, Lane::compute, Phase::wait);
            comm.wait_all(reqs);
        }
        if (h_merged) {
            Span s(rec, Lane::compute, Phase::local);  // the whole SpMV in one step
            spmv_reference(*h_merged, ValueType{1}, xg, ValueType{0}, ys);
        } else {
            local();
            nonlocal();
        }
        break;
    }
    case Mode::naive:
    case Mode::overlap: {
        // Kreutzer's naive overlap; explicit overlap is the same schedule on a host rank: its
        // one thread cannot compute and sit in MPI at once (task mode adds the thread)
        host_exchange_post(x_ghost, x_ghost + own(), reqs, rec, false);
        local();
        {
            Span s(rec, Lane::compute, Phase::wait);
            comm.wait_all(reqs);
        }
        nonlocal();
        break;
    }
    case Mode::task: {
        if (!thread) {
            thread = std::make_unique<CommThread>();
        }
        thread->run([&] {
            const double b = rec.on() ? rec.now_us() : 0.0;
            host_exchange_post(x_ghost, x_ghost + own(), reqs, rec, true);
            {
                Span s(rec, Lane::comm, Phase::wait, true);
                comm_wait(reqs);
            }
            if (rec.on()) {
                rec.add_comm(Phase::exchange, b, rec.now_us());
            }
        });
        local();
        {
            Span s(rec, Lane::compute, Phase::idle);
            thread->join();
        }
        rec.merge();
        nonlocal();
        break;
    }
    }
}

template <typename ValueType>
void DistMatrix<ValueType>::Impl::device_apply(Mode mode, ValueType* x_ghost, ValueType* y,
                                               Recorder& rec)
{
    auto& sc = *s_compute;
    auto& sm = *s_comm;
    const ValueType* xh = x_ghost + own();
    // GPU lane times: CUDA events against a reference event synchronised at the start
    struct GpuMark {
        Phase phase;
        Lane lane;
        gpu::Event b, e;
    };
    std::vector<GpuMark> marks, comm_marks;  // the comm thread keeps its own list
    std::optional<gpu::Event> ref;
    double ref_us = 0.0;
    if (rec.on()) {
        ref.emplace();
        ref->record(sc);
        ref->synchronize();
        ref_us = rec.now_us();
    }
    // x_ghost's own part was written on the compute stream: the comm stream's gather waits
    {
        gpu::Event x_ready;
        x_ready.record(sc);
        sm.wait(x_ready);
    }
    auto gpu_span = [&](Phase p, gpu::StreamRef s, auto&& work, bool comm_thread = false) {
        if (!rec.on()) {
            work();
            return;
        }
        auto& list = comm_thread ? comm_marks : marks;
        list.push_back({p, Lane::gpu, gpu::Event{}, gpu::Event{}});
        auto& m = list.back();
        m.b.record(s);
        work();
        m.e.record(s);
    };
    auto local = [&](gpu::StreamRef s) {
        gpu_span(Phase::local, s, [&] {
            d_local.spmv(ValueType{1}, x_ghost, ValueType{0}, y, RowOrder::original, s, sums);
        });
    };
    auto nonlocal = [&](gpu::StreamRef s) {
        if (halo() == 0) {
            return;
        }
        gpu_span(Phase::nonlocal, s, [&] {
            if (nl_rows.empty()) {
                d_nonlocal.spmv(ValueType{1}, xh, ValueType{1}, y, RowOrder::original, s, sums);
            } else {
                // the boundary rows whole, over the ghosted x
                d_nonlocal.spmv(ValueType{1}, x_ghost, ValueType{0}, d_nl_tmp.data(),
                                RowOrder::original, s, sums);
                gpu::scatter_add(d_nl_tmp.data(), d_nl_rows.data(),
                                 static_cast<std::int64_t>(nl_rows.size()), y, s);
            }
        });
    };
    // The exchange in four steps, so that the halo's gather can be queued on the device
    // BEFORE the local SpMV (overlap and task mode): a kernel queued behind one that fills the
    // GPU starts only when that one ends (measured on two H100: the gather waited 1.3 ms for
    // the local SpMV of pde400), which serialised the exchange after the first pass. The
    // comm stream has the high priority as well (build_blocks). Naive mode runs steps 1-3
    // before the local SpMV and step 4 after it, as Kreutzer's naive overlap does.
    // 1. receives into the halo (host buffer, or the device's ghost entries when CUDA-aware)
    //    (CUDA IPC: the neighbours' "packed" and "consumed" tokens)
    struct Exchange {
        Requests reqs;      // the halo messages (MPI paths); the tokens sent (IPC)
        Requests packed;    // IPC: the senders' "packed" tokens
        Requests consumed;  // IPC: the receivers' "consumed" tokens
    };
    auto post_receives = [&](Exchange& ex, bool comm_lane) {
        const Lane lane = comm_lane ? Lane::comm : Lane::compute;
        Span sp(rec, lane, Phase::post, comm_lane);
        if (use_ipc) {
            for (std::size_t i = 0; i < plan.recv.size(); ++i) {
                comm.irecv(&tok_packed[i], 1, Datatype::i32, plan.recv[i].rank, tag_ipc_packed,
                           ex.packed);
            }
            for (std::size_t i = 0; i < plan.send.size(); ++i) {
                comm.irecv(&tok_consumed[i], 1, Datatype::i32, plan.send[i].rank,
                           tag_ipc_consumed, ex.consumed);
            }
            return;
        }
        ValueType* halo_dst = use_cuda_aware ? x_ghost + own() : p_recv.data();
        for (const auto& n : plan.recv) {
            comm.irecv(halo_dst + n.offset, n.count, datatype_of<ValueType>(), n.rank, tag_halo,
                       ex.reqs);
        }
    };
    // 2. gather the entries to send on the device and copy them to the host, queued on `s`
    auto pack = [&](gpu::Stream& s, bool comm_lane) {
        if (plan.send_size() == 0) {
            return;
        }
        gpu_span(Phase::pack, s, [&] {
            gpu::gather(x_ghost, d_send_idx.data(), plan.send_size(), d_send.data(), s.ref());
        }, comm_lane);
        if (!use_cuda_aware && !use_ipc) {
            gpu_span(Phase::copy_d2h, s, [&] {
                gpu::detail::copy_bytes_async(p_send.data(), d_send.data(),
                                              static_cast<std::size_t>(plan.send_size()) * sizeof(ValueType),
                                              gpu::detail::CopyKind::device_to_host, s.ref());
            }, comm_lane);
        }
    };
    // 3. wait for the packed entries and send them (IPC: tell the receivers they are there)
    auto wait = [&](Requests& reqs, bool comm_lane) {
        if (comm_lane) {
            comm_wait(reqs);
        } else {
            comm.wait_all(reqs);
        }
    };
    auto send_packed = [&](gpu::Stream& s, Exchange& ex, bool comm_lane) {
        const Lane lane = comm_lane ? Lane::comm : Lane::compute;
        if (plan.send_size() > 0) {
            Span sp(rec, lane, Phase::pack, comm_lane);  // host waits for gather (+ copy)
            s.synchronize();
        }
        Span sp(rec, lane, Phase::post, comm_lane);
        if (use_ipc) {
            // tell the receivers that the send buffer holds their entries
            for (const auto& n : plan.send) {
                comm.isend(&tok_out, 1, Datatype::i32, n.rank, tag_ipc_packed, ex.reqs);
            }
            return;
        }
        const ValueType* src = use_cuda_aware ? d_send.data() : p_send.data();
        for (const auto& n : plan.send) {
            comm.isend(src + n.offset, n.count, datatype_of<ValueType>(), n.rank, tag_halo,
                       ex.reqs);
        }
    };
    // 4. wait for every message, copy the halo to the device (queued on `s`). IPC: pull the
    //    halo from each sender's buffer when it says so; tell the senders it was copied; wait
    //    until the receivers have copied ours (the next gather overwrites it)
    auto complete_exchange = [&](gpu::Stream& s, Exchange& ex, bool comm_lane) {
        const Lane lane = comm_lane ? Lane::comm : Lane::compute;
        if (use_ipc) {
            {
                Span sp(rec, lane, Phase::wait, comm_lane);
                wait(ex.packed, comm_lane);
            }
            if (halo() > 0) {
                gpu_span(Phase::copy_peer, s, [&] {
                    for (std::size_t i = 0; i < plan.recv.size(); ++i) {
                        const auto& n = plan.recv[i];
                        gpu::detail::copy_bytes_async(x_ghost + own() + n.offset, ipc_src[i],
                                                      static_cast<std::size_t>(n.count) * sizeof(ValueType),
                                                      gpu::detail::CopyKind::device_to_device, s.ref());
                    }
                }, comm_lane);
                Span sp(rec, lane, Phase::wait, comm_lane);
                s.synchronize();
            }
            {
                Span sp(rec, lane, Phase::post, comm_lane);
                for (const auto& n : plan.recv) {
                    comm.isend(&tok_out, 1, Datatype::i32, n.rank, tag_ipc_consumed, ex.reqs);
                }
            }
            Span sp(rec, lane, Phase::wait, comm_lane);
            wait(ex.consumed, comm_lane);
            wait(ex.reqs, comm_lane);
            return;
        }
        {
            Span sp(rec, lane, Phase::wait, comm_lane);
            wait(ex.reqs, comm_lane);
        }
        if (!use_cuda_aware && halo() > 0) {
            gpu_span(Phase::copy_h2d, s, [&] {
                gpu::detail::copy_bytes_async(x_ghost + own(), p_recv.data(),
                                              static_cast<std::size_t>(halo()) * sizeof(ValueType),
                                              gpu::detail::CopyKind::host_to_device, s.ref());
            }, comm_lane);
        }
    };
    auto finish_exchange = [&](gpu::Stream& s, Exchange& ex, bool comm_lane) {
        send_packed(s, ex, comm_lane);
        complete_exchange(s, ex, comm_lane);
    };

    if (!any_halo) {
        local(sc);
    } else {
        switch (mode) {
        case Mode::vector: {
            Exchange ex;
            post_receives(ex, false);
            pack(sc, false);
            finish_exchange(sc, ex, false);
            if (d_merged) {
                gpu_span(Phase::local, sc, [&] {
                    d_merged.spmv(ValueType{1}, x_ghost, ValueType{0}, y, RowOrder::original, sc, sums);
                });
            } else {
                local(sc);
                nonlocal(sc);
            }
            break;
        }
        case Mode::naive: {
            // Kreutzer's naive overlap as the paper's node ran it: the receives posted, the
            // send buffer gathered and copied to the host (the host waits: the paper's node had
            // it in host memory) and sent; then the host is blocked on the local SpMV; the
            // messages move only in MPI_Waitall after it (no asynchronous progress); then the
            // halo to the device and the non-local SpMV. Everything on the compute stream.
            Exchange ex;
            post_receives(ex, false);
            pack(sc, false);
            send_packed(sc, ex, false);
            local(sc);
            {
                Span s(rec, Lane::compute, Phase::idle);  // the host blocked on the kernel
                sc.synchronize();
            }
            complete_exchange(sc, ex, false);
            nonlocal(sc);
            break;
        }
        case Mode::overlap: {
            // Explicit overlap (the GPU-era schedule, not the paper's): the gather first, then
            // the local SpMV, so the GPU computes while the host drives the exchange (its
            // MPI_Waitall progresses the messages)
            Exchange ex;
            post_receives(ex, false);
            pack(sm, false);
            local(sc);
            finish_exchange(sm, ex, false);
            gpu::Event halo_ready;
            halo_ready.record(sm);
            sc.wait(halo_ready);
            nonlocal(sc);
            break;
        }
        case Mode::task: {
            if (!thread) {
                thread = std::make_unique<CommThread>();
            }
            pack(sm, false);  // queued before the local SpMV (above)
            thread->run([&] {
                const double b = rec.on() ? rec.now_us() : 0.0;
                gpu::set_device(device_ordinal);  // the comm thread's current device
                Exchange ex;
                post_receives(ex, true);
                finish_exchange(sm, ex, true);
                if (rec.on()) {
                    rec.add_comm(Phase::exchange, b, rec.now_us());
                }
            });
            local(sc);
            {
                Span s(rec, Lane::compute, Phase::idle);
                thread->join();
            }
            rec.merge();
            gpu::Event halo_ready;
            halo_ready.record(sm);
            sc.wait(halo_ready);
            nonlocal(sc);
            break;
        }
        }
    }
    sc.synchronize();
    if (rec.on()) {
        marks.insert(marks.end(), std::make_move_iterator(comm_marks.begin()),
                     std::make_move_iterator(comm_marks.end()));
        for (auto& m : marks) {
            m.e.synchronize();
            rec.add(Lane::gpu, m.phase, ref_us + 1e3 * gpu::Event::elapsed_ms(*ref, m.b),
                    ref_us + 1e3 * gpu::Event::elapsed_ms(*ref, m.e));
        }
    }
}

// ---------------------------------------------------------------------------------------------

template <typename ValueType>
DistMatrix<ValueType>::DistMatrix() = default;
template <typename ValueType>
DistMatrix<ValueType>::~DistMatrix() = default;
template <typename ValueType>
DistMatrix<ValueType>::DistMatrix(DistMatrix&&) noexcept = default;
template <typename ValueType>
DistMatrix<ValueType>& DistMatrix<ValueType>::operator=(DistMatrix&&) noexcept = default;

namespace {

template <typename T>
void send_vec(const Comm& c, const std::vector<T>& v, int dest)
{
    c.send(v.data(), static_cast<std::int64_t>(v.size()), datatype_of<T>(), dest, tag_rows);
}
template <typename T>
void recv_vec(const Comm& c, std::vector<T>& v, int source)
{
    c.recv(v.data(), static_cast<std::int64_t>(v.size()), datatype_of<T>(), source, tag_rows);
}

/// The partition from the root to every rank.
Partition broadcast_partition(const Comm& comm, Partition p)
{
    std::int64_t head[4] = {static_cast<std::int64_t>(p.kind), p.num_ranks, p.size,
                            p.contiguous() ? 1 : 0};
    comm.broadcast(head, 4, Datatype::i64);
    p.kind = static_cast<PartitionKind>(head[0]);
    p.num_ranks = static_cast<int>(head[1]);
    p.size = head[2];
    if (head[3] == 1) {
        p.owner.clear();
        p.local.clear();
        p.offsets.resize(static_cast<std::size_t>(p.num_ranks) + 1);
        comm.broadcast(p.offsets.data(), static_cast<std::int64_t>(p.offsets.size()), Datatype::i64);
        return p;
    }
    p.offsets.clear();
    p.owner.resize(static_cast<std::size_t>(p.size));
    comm.broadcast(p.owner.data(), p.size, Datatype::i32);
    if (comm.rank() != 0) {
        p.local.assign(p.owner.size(), 0);
        std::vector<std::int32_t> next(static_cast<std::size_t>(p.num_ranks), 0);
        for (std::size_t g = 0; g < p.owner.size(); ++g) {
            p.local[g] = next[static_cast<std::size_t>(p.owner[g])]++;
        }
    }
    return p;
}

}  // namespace

template <typename ValueType>
DistMatrix<ValueType> DistMatrix<ValueType>::create(const Comm& comm,
                                                    const Csr<ValueType, std::int32_t>& a,
                                                    const DistOptions& opt)
{
    Partition p;
    std::int64_t dims[2] = {0, 0};
    collective(comm, [&] {
        if (comm.rank() == 0) {
            validate(a);
            p = make_partition(a, opt.partition, comm.size());
            dims[0] = a.num_rows;
            dims[1] = a.num_cols;
        }
    });
    comm.broadcast(dims, 2, Datatype::i64);
    p = broadcast_partition(comm, std::move(p));

    // The root hands every rank its rows: sizes first, then (after every rank allocated, and
    // all agreed that it could) the arrays.
    GlobalRows<ValueType> mine;
    std::vector<GlobalRows<ValueType>> outgoing;
    std::int64_t sizes[2] = {0, 0};  // rows, nnz of this rank
    collective(comm, [&] {
        if (comm.rank() == 0) {
            outgoing.resize(static_cast<std::size_t>(comm.size()));
            for (int r = 0; r < comm.size(); ++r) {
                outgoing[static_cast<std::size_t>(r)] = extract_rows(a, p, r);
            }
        }
    });
    if (comm.rank() == 0) {
        for (int r = 1; r < comm.size(); ++r) {
            const auto& g = outgoing[static_cast<std::size_t>(r)];
            std::int64_t s[2] = {static_cast<std::int64_t>(g.rows.size()),
                                 static_cast<std::int64_t>(g.values.size())};
            comm.send(s, 2, Datatype::i64, r, tag_rows);
        }
        mine = std::move(outgoing[0]);
    } else {
        comm.recv(sizes, 2, Datatype::i64, 0, tag_rows);
    }
    collective(comm, [&] {
        mine.num_rows = dims[0];
        mine.num_cols = dims[1];
        if (comm.rank() != 0) {
            mine.rows.resize(static_cast<std::size_t>(sizes[0]));
            mine.row_ptrs.resize(static_cast<std::size_t>(sizes[0]) + 1);
            mine.col_idxs.resize(static_cast<std::size_t>(sizes[1]));
            mine.values.resize(static_cast<std::size_t>(sizes[1]));
        }
    });
    if (comm.rank() == 0) {
        for (int r = 1; r < comm.size(); ++r) {
            auto& g = outgoing[static_cast<std::size_t>(r)];
            send_vec(comm, g.rows, r);
            send_vec(comm, g.row_ptrs, r);
            send_vec(comm, g.col_idxs, r);
            send_vec(comm, g.values, r);
            g = GlobalRows<ValueType>{};  // free as we go
        }
    } else {
        recv_vec(comm, mine.rows, 0);
        recv_vec(comm, mine.row_ptrs, 0);
        recv_vec(comm, mine.col_idxs, 0);
        recv_vec(comm, mine.values, 0);
    }
    return from_rows(comm, mine, p, opt);
}

template <typename ValueType>
DistMatrix<ValueType> DistMatrix<ValueType>::from_rows(const Comm& comm,
                                                       const GlobalRows<ValueType>& rows,
                                                       const Partition& row_partition,
                                                       const DistOptions& opt)
{
    DistMatrix m;
    m.impl_ = std::make_unique<Impl>();
    auto& d = *m.impl_;
    d.comm = comm;
    d.opt = opt;
    collective(comm, [&] {
        SPMV_EXPECTS(row_partition.num_ranks == comm.size(),
                     "the partition has " + std::to_string(row_partition.num_ranks) +
                         " ranks, the run " + std::to_string(comm.size()));
        validate(row_partition);
        d.rows = row_partition;
        d.cols = column_partition(row_partition, rows.num_cols);
        d.part = split(rows, d.rows, d.cols, comm.rank());
        d.plan = receive_side(comm.rank(), d.part.halo_owner);
    });
    // The send side: tell every owner which of its x entries this rank needs (all-to-all).
    const auto P = static_cast<std::size_t>(comm.size());
    std::vector<std::int64_t> want(P, 0), asked(P, 0);
    for (const auto& n : d.plan.recv) {
        want[static_cast<std::size_t>(n.rank)] = n.count;
    }
    comm.alltoall(want, asked);
    std::vector<std::int64_t> req_in;
    std::vector<std::vector<global_index>> requests(P);
    collective(comm, [&] {
        std::int64_t total = 0;
        for (auto v : asked) {
            total += v;
        }
        req_in.resize(static_cast<std::size_t>(total));
    });
    comm.alltoallv(std::span<const std::int64_t>(d.part.halo_cols), want, req_in, asked);
    collective(comm, [&] {
        std::size_t pos = 0;
        for (std::size_t s = 0; s < P; ++s) {
            requests[s].assign(req_in.begin() + static_cast<std::ptrdiff_t>(pos),
                               req_in.begin() + static_cast<std::ptrdiff_t>(pos + static_cast<std::size_t>(asked[s])));
            pos += static_cast<std::size_t>(asked[s]);
        }
        fill_send_side(d.plan, requests, d.cols);
        validate(d.plan, d.part.num_own_cols);
    });
    d.any_halo = comm.allreduce_sum(static_cast<std::int64_t>(d.plan.halo_size() + d.plan.send_size())) > 0;
    collective(comm, [&] { d.build_blocks(); });
    d.setup_exchange();
    comm.barrier();
    d.origin = Clock::now();
    return m;
}

template <typename ValueType>
const Comm& DistMatrix<ValueType>::comm() const { return impl_->comm; }
template <typename ValueType>
const Partition& DistMatrix<ValueType>::row_partition() const { return impl_->rows; }
template <typename ValueType>
const Partition& DistMatrix<ValueType>::col_partition() const { return impl_->cols; }
template <typename ValueType>
const LocalMatrix<ValueType>& DistMatrix<ValueType>::part() const { return impl_->part; }
template <typename ValueType>
const ExchangePlan& DistMatrix<ValueType>::plan() const { return impl_->plan; }
template <typename ValueType>
const DistOptions& DistMatrix<ValueType>::options() const { return impl_->opt; }
template <typename ValueType>
std::int64_t DistMatrix<ValueType>::own_rows() const { return impl_->part.local.num_rows; }
template <typename ValueType>
std::int64_t DistMatrix<ValueType>::own_cols() const { return impl_->part.num_own_cols; }
template <typename ValueType>
std::int64_t DistMatrix<ValueType>::ghosted_size() const { return impl_->own() + impl_->halo(); }
template <typename ValueType>
bool DistMatrix<ValueType>::on_gpu() const { return impl_->opt.gpu; }

template <typename ValueType>
int DistMatrix<ValueType>::task_poll_interval_us() const { return impl_->poll_us; }

template <typename ValueType>
std::string DistMatrix<ValueType>::exchange_path() const
{
    if (!impl_->any_halo) {
        return "none";
    }
    if (!impl_->opt.gpu) {
        return "host";
    }
    if (impl_->use_ipc) {
        return "cuda-ipc";
    }
    return impl_->use_cuda_aware ? "cuda-aware" : "host-staged";
}

template <typename ValueType>
std::string DistMatrix<ValueType>::exchange_note() const
{
    return impl_->exchange_note;
}

template <typename ValueType>
RankInfo DistMatrix<ValueType>::info() const
{
    const auto& d = *impl_;
    RankInfo r;
    r.rank = d.comm.rank();
    r.device = d.device_name;
    r.device_ordinal = d.device_ordinal;
    r.rows = d.part.local.num_rows;
    r.nnz = nnz(d.part.local) + nnz(d.part.nonlocal);
    r.halo = d.halo();
    r.neighbours = static_cast<int>(std::max(d.plan.recv.size(), d.plan.send.size()));
    r.double_sums = d.sums == gpu::Sums::double_precision;
    return r;
}

template <typename ValueType>
template <typename To>
DistMatrix<To> DistMatrix<ValueType>::with_values(bool double_sums) const
{
    const auto& d = *impl_;
    DistMatrix<To> m;
    m.impl_ = std::make_unique<typename DistMatrix<To>::Impl>();
    auto& o = *m.impl_;
    o.comm = d.comm;
    o.opt = d.opt;
    o.opt.double_sums = double_sums;
    o.rows = d.rows;
    o.cols = d.cols;
    o.plan = d.plan;
    o.any_halo = d.any_halo;
    o.opt.task_poll_us = d.poll_us;
    collective(d.comm, [&] {
        auto& p = o.part;
        p.rank = d.part.rank;
        p.global_rows = d.part.global_rows;
        p.global_cols = d.part.global_cols;
        p.local = convert_values<To>(d.part.local);
        p.nonlocal = convert_values<To>(d.part.nonlocal);
        p.row_ids = d.part.row_ids;
        p.halo_cols = d.part.halo_cols;
        p.halo_owner = d.part.halo_owner;
        p.num_own_cols = d.part.num_own_cols;
        o.build_blocks();
    });
    o.setup_exchange();
    o.origin = d.origin;
    return m;
}

template <typename ValueType>
void DistMatrix<ValueType>::start_clock()
{
    impl_->comm.barrier();
    impl_->origin = Clock::now();
}

template <typename ValueType>
void DistMatrix<ValueType>::apply(Mode mode, std::span<const ValueType> x_own,
                                  std::span<ValueType> y_own, Timeline* timeline, int iteration)
{
    auto& d = *impl_;
    SPMV_EXPECTS(static_cast<std::int64_t>(x_own.size()) == d.own() &&
                     static_cast<std::int64_t>(y_own.size()) == own_rows(),
                 "x and y must hold this rank's entries");
    if (!d.opt.gpu) {
        std::copy(x_own.begin(), x_own.end(), d.h_ghost.begin());
        apply_ghosted(mode, d.h_ghost, y_own, timeline, iteration);
        return;
    }
    if (d.d_io_x.size() != x_own.size()) {
        d.d_io_x = gpu::DeviceBuffer<ValueType>(x_own.size(), "x");
        d.d_io_y = gpu::DeviceBuffer<ValueType>(y_own.size(), "y");
    }
    d.d_io_x.upload(x_own);
    apply_device(mode, d.d_io_x.data(), d.d_io_y.data(), timeline, iteration);
    d.d_io_y.download(y_own);
}

template <typename ValueType>
void DistMatrix<ValueType>::apply_ghosted(Mode mode, std::span<ValueType> x_ghost,
                                          std::span<ValueType> y_own, Timeline* timeline,
                                          int iteration)
{
    auto& d = *impl_;
    SPMV_EXPECTS(!d.opt.gpu, "apply_ghosted runs host ranks; GPU ranks use apply_device");
    SPMV_EXPECTS(static_cast<std::int64_t>(x_ghost.size()) == ghosted_size() &&
                     static_cast<std::int64_t>(y_own.size()) == own_rows(),
                 "x must hold own + halo entries, y this rank's rows");
    Recorder rec{timeline, d.comm.rank(), iteration, d.origin, {}};
    try {
        d.host_apply(mode, x_ghost.data(), y_own.data(), rec);
    } catch (const std::exception& e) {
        if (d.any_halo && d.comm.size() > 1) {
            abort_all(e.what());  // peers may be blocked in the exchange
        }
        throw;
    }
}

template <typename ValueType>
void DistMatrix<ValueType>::apply_device(Mode mode, const ValueType* x_own, ValueType* y_own,
                                         Timeline* timeline, int iteration)
{
    auto& d = *impl_;
    SPMV_EXPECTS(d.opt.gpu, "apply_device needs GPU ranks (DistOptions::gpu)");
    if (d.own() > 0) {
        gpu::detail::copy_bytes_async(d.d_ghost.data(), x_own,
                                      static_cast<std::size_t>(d.own()) * sizeof(ValueType),
                                      gpu::detail::CopyKind::device_to_device, *d.s_compute);
    }
    apply_device_ghosted(mode, d.d_ghost.data(), y_own, timeline, iteration);
}

template <typename ValueType>
void DistMatrix<ValueType>::apply_device_ghosted(Mode mode, ValueType* x_ghost, ValueType* y_own,
                                                 Timeline* timeline, int iteration)
{
    auto& d = *impl_;
    SPMV_EXPECTS(d.opt.gpu, "apply_device_ghosted needs GPU ranks (DistOptions::gpu)");
    Recorder rec{timeline, d.comm.rank(), iteration, d.origin, {}};
    try {
        d.device_apply(mode, x_ghost, y_own, rec);
    } catch (const std::exception& e) {
        if (d.any_halo && d.comm.size() > 1) {
            abort_all(e.what());
        }
        throw;
    }
}

template <typename ValueType>
std::vector<ValueType> gather_to_root(const Comm& comm, const Partition& part,
                                      std::span<const ValueType> own)
{
    std::vector<std::int64_t> counts;
    std::vector<ValueType> all;
    if (comm.rank() == 0) {
        for (int r = 0; r < comm.size(); ++r) {
            counts.push_back(part.count(r));
        }
        all.resize(static_cast<std::size_t>(part.size));
    }
    comm.gatherv(own.data(), static_cast<std::int64_t>(own.size()), all.data(), counts,
                 datatype_of<ValueType>());
    if (comm.rank() != 0 || part.contiguous()) {
        return all;
    }
    std::vector<ValueType> global(all.size());
    std::size_t pos = 0;
    for (int r = 0; r < comm.size(); ++r) {
        for (auto g : part.indices_of(r)) {
            global[static_cast<std::size_t>(g)] = all[pos++];
        }
    }
    return global;
}

template <typename ValueType>
std::vector<ValueType> scatter_from_root(const Comm& comm, const Partition& part,
                                         std::span<const ValueType> global)
{
    std::vector<std::int64_t> counts;
    std::vector<ValueType> all;
    if (comm.rank() == 0) {
        SPMV_EXPECTS(static_cast<global_index>(global.size()) == part.size,
                     "the global vector does not match the partition");
        for (int r = 0; r < comm.size(); ++r) {
            counts.push_back(part.count(r));
            for (auto g : part.indices_of(r)) {
                all.push_back(global[static_cast<std::size_t>(g)]);
            }
        }
    }
    std::vector<ValueType> mine(static_cast<std::size_t>(part.count(comm.rank())));
    comm.scatterv(all.data(), counts, mine.data(), static_cast<std::int64_t>(mine.size()),
                  datatype_of<ValueType>());
    return mine;
}

template class DistMatrix<double>;
template class DistMatrix<float>;
template DistMatrix<float> DistMatrix<double>::with_values<float>(bool) const;
template DistMatrix<double> DistMatrix<float>::with_values<double>(bool) const;
template DistMatrix<double> DistMatrix<double>::with_values<double>(bool) const;
template std::vector<double> gather_to_root<double>(const Comm&, const Partition&, std::span<const double>);
template std::vector<float> gather_to_root<float>(const Comm&, const Partition&, std::span<const float>);
template std::vector<double> scatter_from_root<double>(const Comm&, const Partition&, std::span<const double>);
template std::vector<float> scatter_from_root<float>(const Comm&, const Partition&, std::span<const float>);

}  // namespace spmv::dist
