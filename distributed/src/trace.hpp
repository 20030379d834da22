#pragma once
// The recording side of one distributed product (internal to spmv::dist): the events of a rank
// on its three lanes (spmv/dist/timeline.hpp). Host work is timed with the steady clock from
// the matrix's origin (DistMatrix::start_clock); GPU work with CUDA events against a reference
// event synchronised at the start, turned into the same clock after the product's final
// synchronize. Task mode's communication thread writes lists of its own, merged after the join
// (no lock on the hot path). Nothing is recorded, and no event is created, without a Timeline.
#include <chrono>
#include <optional>
#include <utility>
#include <vector>

#include <spmv/dist/timeline.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::dist::detail {

using Clock = std::chrono::steady_clock;

/// The GPU lane of one product: an event pair around each piece of work queued on a stream.
class GpuTrace {
public:
    /// The reference: recorded on `s` and waited for, at host time `now_us`.
    void start(gpu::StreamRef s, double now_us)
    {
        ref_.emplace();
        ref_->record(s);
        ref_->synchronize();
        ref_us_ = now_us;
    }
    bool on() const noexcept { return ref_.has_value(); }
    /// Queues `work` on `s` between two events (the comm thread's list when `comm_thread`).
    template <typename Work>
    void span(Phase p, gpu::StreamRef s, Work&& work, bool comm_thread)
    {
        if (!on()) {
            work();
            return;
        }
        auto& list = comm_thread ? comm_marks_ : marks_;
        list.push_back({p, gpu::Event{}, gpu::Event{}});
        auto& m = list.back();
        m.b.record(s);
        work();
        m.e.record(s);
    }
    /// Every mark (the host thread's, then the comm thread's) as a time in microseconds after
    /// the origin, passed to `add(phase, begin, end)`; waits for each end event.
    template <typename Add>
    void finish(Add&& add)
    {
        if (!on()) {
            return;
        }
        marks_.insert(marks_.end(), std::make_move_iterator(comm_marks_.begin()),
                      std::make_move_iterator(comm_marks_.end()));
        for (auto& m : marks_) {
            m.e.synchronize();
            add(m.phase, ref_us_ + 1e3 * gpu::Event::elapsed_ms(*ref_, m.b),
                ref_us_ + 1e3 * gpu::Event::elapsed_ms(*ref_, m.e));
        }
    }

private:
    struct Mark {
        Phase phase;
        gpu::Event b, e;
    };
    std::vector<Mark> marks_, comm_marks_;  // the comm thread keeps its own list
    std::optional<gpu::Event> ref_;
    double ref_us_ = 0.0;
};

/// Events of one rank for one product; the comm thread writes its own list, merged after the
/// join; GPU ranks' device work goes through `gpu`.
struct Recorder {
    Timeline* tl = nullptr;
    int rank = 0;
    int iteration = 0;
    Clock::time_point origin;
    std::vector<TimelineEvent> comm_events;
    GpuTrace gpu;

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
    /// The comm thread's events into the timeline (after the join).
    void merge()
    {
        if (tl != nullptr) {
            tl->events.insert(tl->events.end(), comm_events.begin(), comm_events.end());
            comm_events.clear();
        }
    }
    /// GPU ranks: the reference event, recorded on `s` (the compute stream) at the start.
    void start_gpu(gpu::StreamRef s)
    {
        if (on()) {
            gpu.start(s, now_us());
        }
    }
    /// GPU ranks: the device's events into the timeline (after the final synchronize).
    void finish_gpu()
    {
        gpu.finish([this](Phase p, double b, double e) { add(Lane::gpu, p, b, e); });
    }
};

/// Times a scope into a recorder lane (into the comm thread's list when `comm_list`).
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

}  // namespace spmv::dist::detail
