// The distributed product's one schedule (schedule.hpp): the three shapes the four modes take
// (the exchange first; the host thread driving it around the first pass; a communication
// thread driving it), over any rank's blocks and any exchange path.
#include <algorithm>
#include <thread>

#include "schedule.hpp"

namespace spmv::dist::detail {

int resolve_poll_us(const DistOptions& opt, const Comm& comm)
{
    if (opt.task_poll_us >= 0) {
        return opt.task_poll_us;
    }
    // each rank runs a compute and a communication thread: without two hardware threads per
    // rank the polling MPI_Waitall would take the compute side's core
    const auto hw = std::max(1u, std::thread::hardware_concurrency());
    return 2u * static_cast<unsigned>(comm.node_size()) > hw ? 20 : 0;
}

template <typename ValueType>
void run_schedule(Mode mode, ScheduleParts<ValueType> parts, Product<ValueType>& p)
{
    auto& blocks = parts.blocks;
    blocks.begin(p);
    if (parts.exchange == nullptr) {  // nothing to exchange anywhere: every mode is the local SpMV
        blocks.local(p);
        blocks.end(p);
        return;
    }
    auto& exchange = *parts.exchange;
    const Schedule s = schedule_of(mode);
    const Driver host{p.rec, parts.comm, false, s.queue, parts.poll_us};
    if (s.exchange_first) {
        // Kreutzer's vector mode without overlap: the whole exchange, then the SpMV in one step
        exchange.start(p.x_ghost, host);
        exchange.finish(host);
        blocks.whole(p);
    } else if (s.comm_thread) {
        // Kreutzer's task mode: the communication thread posts, packs, sends and waits (GPU
        // ranks: the gather is queued here, before the local SpMV, and the thread waits for
        // it, sends, waits and queues the halo's copy to the device) while this thread runs
        // the first pass; after the join, the second
        if (!parts.thread) {
            // spin-then-sleep hand-offs where the rank has a core per thread (comm_thread.hpp)
            parts.thread = std::make_unique<CommThread>(parts.poll_us == 0);
        }
        exchange.queue_pack(p.x_ghost, host);
        const Driver comm_thread{p.rec, parts.comm, true, s.queue, parts.poll_us};
        parts.thread->run([&] {
            const double b = p.rec.on() ? p.rec.now_us() : 0.0;
            exchange.bind_thread();
            exchange.start(p.x_ghost, comm_thread);
            exchange.finish(comm_thread);
            if (p.rec.on()) {
                p.rec.add_comm(Phase::exchange, b, p.rec.now_us());
            }
        });
        blocks.local(p);
        {
            Span idle(p.rec, Lane::compute, Phase::idle);
            parts.thread->join();
        }
        p.rec.merge();
        blocks.halo_ready(s.queue);
        blocks.nonlocal(p);
    } else {
        // The host thread drives the exchange around the first pass. Naive overlap (as the
        // paper ran it): the sends are posted before it (GPU ranks: the host waits for the
        // gather and its copy first: the paper's node had the send buffer in host memory), the
        // host is busy in (GPU ranks: blocked on) the first pass, and the messages move only
        // in the wait after it (no asynchronous progress: "OMPI progress: no"). Explicit
        // overlap (GPU ranks): the gather is queued on the comm stream before the first pass,
        // and the host waits for it, sends and sits in MPI_Waitall while the GPU computes.
        exchange.start(p.x_ghost, host);
        if (s.send_before_local) {
            exchange.send(host);
        }
        blocks.local(p);
        if (s.wait_for_local) {
            blocks.wait_local(p);
        }
        exchange.finish(host);
        blocks.halo_ready(s.queue);
        blocks.nonlocal(p);
    }
    blocks.end(p);
}

template void run_schedule<double>(Mode, ScheduleParts<double>, Product<double>&);
template void run_schedule<float>(Mode, ScheduleParts<float>, Product<float>&);

}  // namespace spmv::dist::detail
