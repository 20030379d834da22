#pragma once
// A panel's long runs (timing every variant, solving) on one dedicated QThread, with
// hotspot's JobTracker idea for dropping stale results: every run gets a new generation, every
// signal of the worker carries it, and the panel ignores signals of an older one (the matrix
// changed meanwhile).
//   CancellableWorker: the worker side, the cancellation flag and the signals every run emits
//                      (a subclass adds its run slot and its result signals);
//   BackgroundJob:     the panel side, the thread, the generation and the running flag.
#include <atomic>

#include <QObject>
#include <QString>
#include <QThread>

class CancellableWorker : public QObject {
    Q_OBJECT
public:
    explicit CancellableWorker(QObject* parent = nullptr) : QObject(parent) {}

    /// Thread-safe: the running step finishes, the remaining ones are skipped.
    void cancel() { m_cancel.store(true); }

signals:
    void started(int total, quint64 generation);
    void progressChanged(int done, int total, const QString& current, quint64 generation);
    void finished(bool cancelled, quint64 generation);

protected:
    /// At the start of a run: a cancel meant for an earlier run does not stop this one.
    void resetCancel() { m_cancel.store(false); }
    bool isCancelled() const { return m_cancel.load(); }

private:
    std::atomic<bool> m_cancel{false};
};

/// Owns a Worker (a CancellableWorker) living on its own thread, named `threadName`.
template <typename Worker>
class BackgroundJob {
public:
    explicit BackgroundJob(const QString& threadName) : m_worker(new Worker)
    {
        m_worker->moveToThread(&m_thread);
        QObject::connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
        m_thread.setObjectName(threadName);
        m_thread.start();
    }
    ~BackgroundJob()
    {
        m_worker->cancel();
        m_thread.quit();
        m_thread.wait();
    }
    BackgroundJob(const BackgroundJob&) = delete;
    BackgroundJob& operator=(const BackgroundJob&) = delete;

    /// Lives on the job's thread: connect to it, never call its run slot directly.
    Worker* worker() const { return m_worker; }
    bool isRunning() const { return m_running; }
    /// True for signals of the latest run; false for stale ones (drop them).
    bool isCurrent(quint64 generation) const { return generation == m_generation; }

    /// A run starts: returns its generation, to hand to the worker with the request.
    quint64 begin()
    {
        m_running = true;
        return ++m_generation;
    }
    /// The worker finished the run of `generation`: true (and not running any more) if that is
    /// the latest run, false for a stale one.
    bool finish(quint64 generation)
    {
        if (!isCurrent(generation)) return false;
        m_running = false;
        return true;
    }
    /// The running step finishes, the remaining ones are skipped (no-op when idle).
    void cancel()
    {
        if (m_running) m_worker->cancel();
    }
    /// The running run's results are stale from now on (e.g. the matrix changed): it is
    /// cancelled, its signals are ignored, and the job is idle at once, so that a new run can
    /// start (it queues behind the cancelled one on the thread).
    void invalidate()
    {
        cancel();
        ++m_generation;
        m_running = false;
    }

private:
    QThread m_thread;
    Worker* m_worker;
    quint64 m_generation = 0;
    bool m_running = false;
};
