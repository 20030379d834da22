// DistMatrix (dist_matrix.hpp): its setup (the root's rows to every rank, the split, the plan,
// the blocks and the exchange path, all collective), its accessors, and the entry points of y =
// A x, which all end in the one schedule (schedule.hpp) over the rank's blocks (blocks.hpp) and
// halo exchange (halo_exchange.hpp). Plain C++ over Comm (comm.cpp holds every MPI call) and the
// kernels' public API, so it is the same code with and without MPI and CUDA.
#include <algorithm>
#include <string>
#include <utility>

#include <spmv/dist/dist_matrix.hpp>
#include <spmv/gpu/memory.hpp>

#include "blocks.hpp"
#include "comm_thread.hpp"
#include "device_rank.hpp"
#include "halo_exchange.hpp"
#include "schedule.hpp"
#include "shared_steps.hpp"
#include "trace.hpp"

namespace spmv::dist {

namespace {

constexpr int tag_rows = 7102;

using detail::Clock;

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
    int poll_us = 0;        // DistOptions::task_poll_us resolved (build)
    Clock::time_point origin = Clock::now();

    // what the schedule runs over (destroyed in reverse: the thread, the exchange and the
    // blocks before the device whose streams they use)
    std::unique_ptr<detail::DeviceRank> device;  // GPU ranks
    std::unique_ptr<detail::RankBlocks<ValueType>> blocks;
    std::unique_ptr<detail::HaloExchange<ValueType>> exchange;  // null: no rank has a halo
    std::string exchange_note;
    std::unique_ptr<detail::CommThread> thread;  // task mode's, started on first use

    std::vector<ValueType> h_ghost;           // [x_own | halo] for apply() on host spans
    gpu::DeviceBuffer<ValueType> d_ghost;     // [x_own | halo] for apply_device(x_own)
    gpu::DeviceBuffer<ValueType> d_io_x, d_io_y;  // apply() on a GPU rank

    std::int64_t halo() const { return plan.halo_size(); }
    std::int64_t own() const { return part.num_own_cols; }

    /// Collective, once the plan is complete: the blocks and the exchange's buffers (one
    /// collective step, so that any rank's failure ends every rank), then the exchange path
    /// (exchange nccl: over `nccl` where given, another matrix's communicator, else a new one).
    void build(std::shared_ptr<detail::NcclComm> nccl = {});
    /// y = A x in `mode` over the ghosted x (host or device pointers, as the blocks are).
    void run(Mode mode, ValueType* x_ghost, ValueType* y, Timeline* timeline, int iteration);
};

template <typename ValueType>
void DistMatrix<ValueType>::Impl::build(std::shared_ptr<detail::NcclComm> nccl)
{
    detail::HaloBuffers<ValueType> buffers;
    collective(comm, [&] {
        detail::check_exchange_name(opt.exchange);
        poll_us = detail::resolve_poll_us(opt, comm);
        auto split = detail::split_blocks(part, halo(), opt, any_halo, comm.rank());
        if (opt.gpu) {
            device = detail::open_device_rank(comm);
        }
        blocks = detail::make_blocks(part, std::move(split), halo(), opt, device.get());
        buffers = detail::allocate_halo_buffers<ValueType>(plan, opt);
        const auto ghosted = static_cast<std::size_t>(own() + halo());
        if (opt.gpu) {
            d_ghost = gpu::DeviceBuffer<ValueType>(ghosted, "ghosted x");
        } else {
            h_ghost.resize(ghosted);
        }
    });
    auto choice = detail::make_halo_exchange(comm, plan, own(), opt, any_halo, device.get(),
                                             std::move(buffers), std::move(nccl));
    exchange = std::move(choice.exchange);
    exchange_note = std::move(choice.note);
}

template <typename ValueType>
void DistMatrix<ValueType>::Impl::run(Mode mode, ValueType* x_ghost, ValueType* y,
                                      Timeline* timeline, int iteration)
{
    detail::Recorder rec{timeline, comm.rank(), iteration, origin, {}, {}};
    detail::Product<ValueType> p{x_ghost, y, rec};
    try {
        detail::run_schedule<ValueType>(mode, {comm, *blocks, exchange.get(), thread, poll_us}, p);
    } catch (const std::exception& e) {
        if (any_halo && comm.size() > 1) {
            abort_all(e.what());  // peers may be blocked in the exchange
        }
        throw;
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

}  // namespace

namespace detail {

// Declared in shared_steps.hpp: the root path of per-rank generation (parallel_gen.cpp) takes
// it too.
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

}  // namespace detail

using detail::broadcast_partition;

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
    return from_rows(comm, std::move(mine), p, opt);
}

template <typename ValueType>
DistMatrix<ValueType> DistMatrix<ValueType>::from_rows(const Comm& comm,
                                                       const GlobalRows<ValueType>& rows,
                                                       const Partition& row_partition,
                                                       const DistOptions& opt)
{
    return from_rows_(comm, rows, nullptr, row_partition, opt);
}

template <typename ValueType>
DistMatrix<ValueType> DistMatrix<ValueType>::from_rows(const Comm& comm,
                                                       GlobalRows<ValueType>&& rows,
                                                       const Partition& row_partition,
                                                       const DistOptions& opt)
{
    return from_rows_(comm, rows, &rows, row_partition, opt);
}

template <typename ValueType>
DistMatrix<ValueType> DistMatrix<ValueType>::from_rows_(const Comm& comm,
                                                        const GlobalRows<ValueType>& rows,
                                                        GlobalRows<ValueType>* owned,
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
        d.part = split(rows, d.rows, d.cols, comm.rank(), opt.max_chunk_nnz);
        if (owned != nullptr) {
            *owned = GlobalRows<ValueType>{};  // the rows live on in d.part only
        }
    });
    d.plan = exchange_plan(comm, d.part.halo_cols, d.part.halo_owner, d.cols);
    d.any_halo = comm.allreduce_sum(static_cast<std::int64_t>(d.plan.halo_size() + d.plan.send_size())) > 0;
    d.build();
    comm.barrier();
    d.origin = Clock::now();
    return m;
}

ExchangePlan exchange_plan(const Comm& comm, std::span<const global_index> halo_cols,
                           std::span<const std::int32_t> halo_owner, const Partition& cols)
{
    ExchangePlan plan;
    collective(comm, [&] {
        SPMV_EXPECTS(halo_cols.size() == halo_owner.size(),
                     "one owner per halo entry (" + std::to_string(halo_owner.size()) + " for " +
                         std::to_string(halo_cols.size()) + ")");
        SPMV_EXPECTS(cols.num_ranks == comm.size(), "the column partition has " +
                                                        std::to_string(cols.num_ranks) +
                                                        " ranks, the run " +
                                                        std::to_string(comm.size()));
        plan = receive_side(comm.rank(), halo_owner);
    });
    // The send side: tell every owner which of its x entries this rank needs (all-to-all of
    // the counts, then of the global columns, 64-bit; Comm splits what passes one message).
    const auto P = static_cast<std::size_t>(comm.size());
    std::vector<std::int64_t> want(P, 0), asked(P, 0);
    for (const auto& n : plan.recv) {
        want[static_cast<std::size_t>(n.rank)] = n.count;
    }
    comm.alltoall(want, asked);
    std::vector<std::int64_t> req_in;
    collective(comm, [&] {
        std::int64_t total = 0;
        for (auto v : asked) {
            total += v;
        }
        req_in.resize(static_cast<std::size_t>(total));
    });
    comm.alltoallv(halo_cols, want, req_in, asked);
    collective(comm, [&] {
        std::vector<std::vector<global_index>> requests(P);
        std::size_t pos = 0;
        for (std::size_t s = 0; s < P; ++s) {
            const auto n = static_cast<std::size_t>(asked[s]);
            requests[s].assign(req_in.begin() + static_cast<std::ptrdiff_t>(pos),
                               req_in.begin() + static_cast<std::ptrdiff_t>(pos + n));
            pos += n;
        }
        fill_send_side(plan, requests, cols);
        validate(plan, cols.count(comm.rank()));
    });
    return plan;
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
std::int64_t DistMatrix<ValueType>::own_rows() const { return local_rows(impl_->part); }
template <typename ValueType>
std::int64_t DistMatrix<ValueType>::own_cols() const { return impl_->part.num_own_cols; }
template <typename ValueType>
std::int64_t DistMatrix<ValueType>::ghosted_size() const { return impl_->own() + impl_->halo(); }
template <typename ValueType>
bool DistMatrix<ValueType>::on_gpu() const { return impl_->opt.gpu; }

template <typename ValueType>
int DistMatrix<ValueType>::task_poll_interval_us() const { return impl_->poll_us; }

template <typename ValueType>
detail::DeviceRank* DistMatrix<ValueType>::device_rank() const noexcept
{
    return impl_->device.get();  // the NCCL solver backend's streams and communicator
}

template <typename ValueType>
std::string DistMatrix<ValueType>::exchange_path() const
{
    return impl_->exchange ? impl_->exchange->path() : "none";
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
    r.device = d.device ? d.device->name : "host";
    r.device_ordinal = d.device ? d.device->ordinal : -1;
    r.rows = local_rows(d.part);
    r.nnz = local_nnz(d.part) + nonlocal_nnz(d.part);
    r.chunks = d.blocks->chunks();
    r.halo = d.halo();
    r.neighbours = static_cast<int>(std::max(d.plan.recv.size(), d.plan.send.size()));
    r.double_sums = d.blocks->double_sums();
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
        for (const auto& c : d.part.chunks) {  // row chunks (ours, issue 36)
            p.chunks.push_back({c.first_row, convert_values<To>(c.local),
                                convert_values<To>(c.nonlocal)});
        }
        p.row_ids = d.part.row_ids;
        p.halo_cols = d.part.halo_cols;
        p.halo_owner = d.part.halo_owner;
        p.num_own_cols = d.part.num_own_cols;
    });
    o.build(d.device ? d.device->nccl : nullptr);  // one NCCL communicator for both
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
    d.run(mode, x_ghost.data(), y_own.data(), timeline, iteration);
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
                                      gpu::detail::CopyKind::device_to_device, d.device->compute);
    }
    apply_device_ghosted(mode, d.d_ghost.data(), y_own, timeline, iteration);
}

template <typename ValueType>
void DistMatrix<ValueType>::apply_device_ghosted(Mode mode, ValueType* x_ghost, ValueType* y_own,
                                                 Timeline* timeline, int iteration)
{
    auto& d = *impl_;
    SPMV_EXPECTS(d.opt.gpu, "apply_device_ghosted needs GPU ranks (DistOptions::gpu)");
    d.run(mode, x_ghost, y_own, timeline, iteration);
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
        }
        if (!part.contiguous()) {  // rank after rank (a contiguous partition is that already)
            all.reserve(global.size());
            for (int r = 0; r < comm.size(); ++r) {
                for (auto g : part.indices_of(r)) {
                    all.push_back(global[static_cast<std::size_t>(g)]);
                }
            }
        }
    }
    const ValueType* send = part.contiguous() ? global.data() : all.data();
    std::vector<ValueType> mine(static_cast<std::size_t>(part.count(comm.rank())));
    comm.scatterv(send, counts, mine.data(), static_cast<std::int64_t>(mine.size()),
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
