#pragma once
// The distributed product's one schedule (internal to spmv::dist): y = A x over a rank's
// blocks (blocks.hpp, host or GPU) and its halo exchange (halo_exchange.hpp, any path), the
// same code for every rank. The four modes (spmv/dist/mode.hpp; Kreutzer et al. 2012 §III.A)
// are four settings of it: who drives the exchange's progress, where its device work is
// queued, and when the host waits.
//
//   mode     drives the exchange   device work   host waits for the packed   host blocks on the
//                                  queued on     entries and sends           first pass
//   vector   host thread           compute       before any product (the whole exchange first,
//                                                then the SpMV in one step)
//   naive    host thread           compute       before the first pass       yes, then waits
//                                                                            for the messages
//   overlap  host thread           comm stream   after launching it          no: it waits for
//                                                                            the messages meanwhile
//   task     communication thread  comm stream   on that thread              no: it joins the
//                                                                            thread after it
//
// The table's host waits are those of the MPI paths. Exchange path nccl queues its group of
// ncclSend / ncclRecv on the same stream behind the gather, so its host never waits for the
// packed entries or the messages (halo_exchange.cpp, NcclExchange): the columns "device work
// queued on" and the first pass's wait are all that tell its modes apart.
//
// On host ranks the first pass is the host's own work and the exchange packs on the host: the
// sends are posted in start() already, so overlap runs naive's order (one thread cannot compute
// and sit in MPI at once), as Mode's documentation says.
#include <memory>

#include <spmv/dist/comm.hpp>
#include <spmv/dist/dist_matrix.hpp>

#include "blocks.hpp"
#include "comm_thread.hpp"
#include "halo_exchange.hpp"

namespace spmv::dist::detail {

/// What tells the modes apart (the table above).
struct Schedule {
    bool exchange_first = false;     ///< vector: the whole exchange, then blocks.whole()
    bool comm_thread = false;        ///< task: a thread of its own drives the exchange
    Queue queue = Queue::compute;    ///< where the exchange's device work goes
    bool send_before_local = false;  ///< naive: the sends are posted before the first pass
    bool wait_for_local = false;     ///< naive: the host blocks on the first pass first
};

constexpr Schedule schedule_of(Mode mode) noexcept
{
    switch (mode) {
    case Mode::vector: return {.exchange_first = true};
    case Mode::naive: return {.send_before_local = true, .wait_for_local = true};
    case Mode::overlap: return {.queue = Queue::comm};
    case Mode::task: return {.comm_thread = true, .queue = Queue::comm};
    }
    return {};
}

/// DistOptions::task_poll_us resolved: the option when >= 0, else 20 us when the ranks on this
/// host have fewer than two hardware threads each (the polling MPI_Waitall would take the
/// compute side's core), else 0.
int resolve_poll_us(const DistOptions& opt, const Comm& comm);

/// Everything the schedule runs over, for one rank.
template <typename ValueType>
struct ScheduleParts {
    const Comm& comm;
    RankBlocks<ValueType>& blocks;
    HaloExchange<ValueType>* exchange;  ///< null: no rank has a halo (the local SpMV only)
    std::unique_ptr<CommThread>& thread;  ///< task mode's, started on first use
    int poll_us = 0;
};

/// y = A x in `mode` (x_ghost's own part written; its halo written by the exchange).
template <typename ValueType>
void run_schedule(Mode mode, ScheduleParts<ValueType> parts, Product<ValueType>& p);

}  // namespace spmv::dist::detail
