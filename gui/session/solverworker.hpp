#pragma once
// The solver view's worker: screens the matrix for SPD once, then runs the requested solves
// (e.g. CG, then MPIR-CG) one after the other on a dedicated thread and streams each result
// back (runAvailable; a refused solve of a matrix that is not SPD comes back at once). cancel()
// lets the running solve finish and skips the rest (a solve itself has no cancellation point:
// the view caps the iterations on the CPU instead, cpuIterationCap, so that one solve takes
// about a second).
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
