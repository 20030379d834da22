#include "solverworker.hpp"

void SolverWorker::run(const SolverRequest& request, quint64 generation)
{
    resetCancel();
    const int total = static_cast<int>(request.jobs.size());
    emit started(total, generation);
    int done = 0;
    if (request.document) {
        // the SPD screen once for all the solves (O(nnz log(row length)))
        std::string notSpd;
        try {
            if (!request.jobs.empty()) notSpd = screenNotSpd(request.document->csr);
        } catch (const std::exception&) {
            // (out of memory) no verdict: the solves run and report for themselves
        }
        for (const auto& job : request.jobs) {
            if (isCancelled()) break;
            emit progressChanged(done, total,
                                 QString::fromStdString(spmv::viz::solver_method_label(job.method)),
                                 generation);
            // runSolverJob turns every exception into SolverRun::error: nothing escapes
            emit runAvailable(runSolverJob(request.document->csr, job, notSpd), generation);
            emit progressChanged(++done, total, QString(), generation);
        }
    }
    emit finished(isCancelled(), generation);
}
