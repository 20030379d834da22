#pragma once
// The solver view's worker: runs the requested solves (e.g. CG, then MPIR-CG) one after the
// other on a dedicated thread and streams each result back (runAvailable). cancel() lets the
// running solve finish and skips the rest (a solve itself has no cancellation point).
#include <vector>

#include "backgroundjob.hpp"
#include "matrixdocument.hpp"
#include "solver_job.hpp"

struct SolverRequest {
    MatrixDocumentPtr document;
    std::vector<SolverJob> jobs;  ///< run in this order
};

class SolverWorker : public CancellableWorker {
    Q_OBJECT
public:
    explicit SolverWorker(QObject* parent = nullptr) : CancellableWorker(parent) {}

public slots:
    /// started, then per solve progressChanged and runAvailable, then finished.
    void run(const SolverRequest& request, quint64 generation);

signals:
    void runAvailable(const SolverRun& run, quint64 generation);
};

Q_DECLARE_METATYPE(SolverRequest)
Q_DECLARE_METATYPE(SolverRun)
