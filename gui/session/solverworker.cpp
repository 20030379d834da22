#include "solverworker.hpp"

void SolverWorker::run(const SolverRequest& request, quint64 generation)
{
    resetCancel();
    const int total = static_cast<int>(request.jobs.size());
    emit started(total, generation);
    int done = 0;
    if (request.document) {
        for (const auto& job : request.jobs) {
            if (isCancelled()) break;
            emit progressChanged(done, total,
                                 QString::fromStdString(spmv::viz::solver_method_label(job.method)),
                                 generation);
            // runSolverJob turns every exception into SolverRun::error: nothing escapes
            emit runAvailable(runSolverJob(request.document->csr, job), generation);
            emit progressChanged(++done, total, QString(), generation);
        }
    }
    emit finished(isCancelled(), generation);
}
