#pragma once
// Task mode's communication thread (internal to spmv::dist): Kreutzer et al.'s "dedicated
// thread for MPI" (§III.A), one persistent thread per matrix that runs one job at a time.
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

namespace spmv::dist::detail {

/// One persistent thread that runs one job at a time: run() hands it a job, join() waits for
/// it and rethrows what it threw.
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

}  // namespace spmv::dist::detail
