#pragma once
// The solver view's worker: runs the requested solves (e.g. CG, then MPIR-CG) one after the
// other on a dedicated thread and streams each result back (runAvailable). cancel() lets the
// running solve finish and skips the rest (a solve itself has no cancellation point).
#include <atomic>
#include <vector>

#include <QObject>
#include <QString>

#include "matrixdocument.hpp"
#include "solver_job.hpp"

struct SolverRequest {
    MatrixDocumentPtr document;
    std::vector<SolverJob> jobs;  ///< run in this order
};

class SolverWorker : public QObject {
    Q_OBJECT
public:
    explicit SolverWorker(QObject* parent = nullptr) : QObject(parent) {}

    /// Thread-safe: the running solve finishes, the remaining ones are skipped.
    void cancel() { m_cancel.store(true); }

public slots:
    void run(const SolverRequest& request, quint64 generation);

signals:
    void started(int total, quint64 generation);
    void progressChanged(int done, int total, const QString& current, quint64 generation);
    void runAvailable(const SolverRun& run, quint64 generation);
    void finished(bool cancelled, quint64 generation);

private:
    std::atomic<bool> m_cancel{false};
};

Q_DECLARE_METATYPE(SolverRequest)
Q_DECLARE_METATYPE(SolverRun)
