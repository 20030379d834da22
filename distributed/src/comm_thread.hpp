#pragma once
// Task mode's communication thread (internal to spmv::dist): Kreutzer et al.'s "dedicated
// thread for MPI" (§III.A), one persistent thread per matrix that runs one job at a time.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

namespace spmv::dist::detail {

/// One persistent thread that runs one job at a time: run() hands it a job, join() waits for
/// it and rethrows what it threw.
///
/// The hand-offs: a thread asleep on a condition variable takes 5-20 us to wake, twice per
/// product (the job to the thread, its end back), which made task mode the slowest mode on
/// small GPU products (pde150 on 4 H200: 61.5 against 54.1 us in vector mode, NCCL). With
/// `spin` (ours; where a rank has a core for each of its two threads, the same rule that lets
/// MPI_Waitall poll: resolve_poll_us() == 0) both sides first watch an atomic flag for up to
/// `spin_for`, then sleep as before; without it they sleep at once, as on an oversubscribed
/// host a spinning thread would take the other's core.
class CommThread {
public:
    explicit CommThread(bool spin = false,
                        std::chrono::microseconds spin_for = std::chrono::microseconds(2000))
        : spin_(spin), spin_for_(spin_for), thread_([this] { loop(); })
    {
    }
    ~CommThread()
    {
        {
            std::lock_guard lock(m_);
            quit_ = true;
            posted_.store(true, std::memory_order_release);
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
            finished_.store(false, std::memory_order_relaxed);
            posted_.store(true, std::memory_order_release);
        }
        cv_.notify_all();
    }
    void join()
    {
        watch(finished_);
        std::unique_lock lock(m_);
        cv_.wait(lock, [this] { return done_; });
        if (error_) {
            std::rethrow_exception(std::exchange(error_, nullptr));
        }
    }

private:
    /// With spin_: returns once `flag` is set or spin_for_ has passed (the caller then takes
    /// the mutex and waits as usual, so the flag is a hint, never the only signal).
    void watch(const std::atomic<bool>& flag) const
    {
        if (!spin_) {
            return;
        }
        const auto until = std::chrono::steady_clock::now() + spin_for_;
        while (!flag.load(std::memory_order_acquire)) {
            if (std::chrono::steady_clock::now() >= until) {
                return;
            }
            std::this_thread::yield();
        }
    }

    void loop()
    {
        for (;;) {
            watch(posted_);
            std::unique_lock lock(m_);
            cv_.wait(lock, [this] { return quit_ || job_; });
            if (quit_) {
                return;
            }
            auto job = std::exchange(job_, nullptr);
            posted_.store(false, std::memory_order_relaxed);
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
            finished_.store(true, std::memory_order_release);
            lock.unlock();
            cv_.notify_all();
        }
    }

    const bool spin_;
    const std::chrono::microseconds spin_for_;
    std::mutex m_;
    std::condition_variable cv_;
    std::function<void()> job_;
    bool done_ = true;
    bool quit_ = false;
    std::exception_ptr error_;
    std::atomic<bool> posted_{false};   // a job (or quit) is waiting: the thread's hint
    std::atomic<bool> finished_{true};  // the job ended: join()'s hint
    std::thread thread_;  // last: starts after the members above exist
};

}  // namespace spmv::dist::detail
