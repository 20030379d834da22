#include "solver_job.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <new>
#include <random>

#include <spmv/analysis/spd.hpp>
#include <spmv/error.hpp>
#include <spmv/gpu/solver.hpp>

namespace {

/// The CLI's format for residuals (cli/src/common.cpp sci): "9.92e-11".
std::string sci(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2e", v);
    return buf;
}

/// The solver's reason, with its "relative residual" (the residual the iteration updates)
/// named "iterated residual", so that it is never read as the final one.
std::string solverReason(std::string message)
{
    const std::string from = "relative residual";
    const std::string to = "iterated residual";
    for (auto pos = message.find(from); pos != std::string::npos;
         pos = message.find(from, pos + to.size())) {
        message.replace(pos, from.size(), to);
    }
    return message;
}

}  // namespace

RunOutcome runOutcome(const SolverRun& run)
{
    using spmv::solvers::Status;
    if (run.refused) return RunOutcome::notRun;
    if (!run.error.empty()) return RunOutcome::error;
    switch (run.result.status) {
        case Status::converged:
            return RunOutcome::converged;
        case Status::diverged:
            return RunOutcome::diverged;
        case Status::breakdown_indefinite:
        case Status::breakdown_nan:
            return RunOutcome::breakdown;
        case Status::max_iterations:
            return RunOutcome::iterationCap;
        case Status::stagnated:
            return RunOutcome::stagnated;
    }
    return RunOutcome::error;
}

std::string outcomeLabel(const SolverRun& run)
{
    switch (runOutcome(run)) {
        case RunOutcome::converged:
            return "converged";
        case RunOutcome::notRun:
            return "not run: matrix not SPD";
        case RunOutcome::error:
            return "error: " + run.error;
        case RunOutcome::diverged:
            return "diverged (did not converge)";
        case RunOutcome::breakdown:
            return run.result.status == spmv::solvers::Status::breakdown_nan
                       ? "did not converge: breakdown (NaN)"
                       : "did not converge: breakdown";
        case RunOutcome::iterationCap:
            // the iteration limit, or MPIR-CG's limit of outer steps
            return run.maxIterations > 0 && run.result.iterations >= run.maxIterations
                       ? "did not converge: iteration cap " + std::to_string(run.maxIterations)
                       : "did not converge: iteration limit";
        case RunOutcome::stagnated:
            return "did not converge: stagnated";
    }
    return {};
}

std::vector<double> makeRhs(RhsKind kind, std::size_t n, std::uint32_t seed)
{
    if (kind == RhsKind::ones) return std::vector<double>(n, 1.0);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    std::vector<double> b(n);
    for (auto& e : b) e = d(rng);
    return b;
}

std::string screenNotSpd(const spmv::Csr<double, std::int32_t>& a)
{
    if (a.num_rows != a.num_cols) return {};
    return spmv::analysis::screen_spd(a).reason();
}

SolverRun runSolverJob(const spmv::Csr<double, std::int32_t>& a, const SolverJob& job)
{
    return runSolverJob(a, job, screenNotSpd(a));
}

SolverRun runSolverJob(const spmv::Csr<double, std::int32_t>& a, const SolverJob& job,
                       const std::string& notSpd)
{
    using spmv::viz::SolverMethod;
    SolverRun run;
    run.method = job.method;
    run.backend = job.gpu ? "GPU" : "host reference (1 thread)";
    run.maxIterations = job.maxIterations;
    // CG's theory needs an SPD matrix: certainly not one -> no solve unless asked for
    run.not_spd = notSpd;
    if (!run.not_spd.empty() && !job.runIfNotSpd) {
        run.refused = true;
        return run;
    }
    try {
        const auto method = job.method == SolverMethod::mpir_cg ? spmv::solvers::Method::mpir_cg
                                                                : spmv::solvers::Method::cg;
        spmv::solvers::SolveOptions options;
        options.tol = job.tol;
        options.max_iterations = job.maxIterations;
        options.jacobi = job.method == SolverMethod::jacobi_cg;
        const auto b = makeRhs(job.rhs, static_cast<std::size_t>(a.num_rows), job.seed);
        std::vector<double> x(static_cast<std::size_t>(a.num_cols), 0.0);
        if (job.gpu) {
            run.result = spmv::gpu::solve_gpu(a, b, x, method, job.format, job.params, options);
            run.backend = "GPU (" + run.result.where + ")";
        } else {
            run.result =
                spmv::solvers::solve_host(a, b, x, method, job.format, job.params, options);
        }
    } catch (const std::bad_alloc&) {
        run.error = "out of memory";
    } catch (const std::exception& e) {
        run.error = spmv::user_message(e.what());
    }
    return run;
}

std::string describeRun(const SolverRun& run)
{
    const std::string name = spmv::viz::solver_method_label(run.method);
    if (run.refused) return name + ": not run: the matrix is " + run.not_spd;
    if (!run.error.empty()) return name + " could not run: " + run.error;
    const auto& r = run.result;
    const bool mpir = run.method == spmv::viz::SolverMethod::mpir_cg;
    const std::string its = mpir ? std::to_string(r.inner_iterations) + " inner / " +
                                       std::to_string(r.outer_iterations) + " outer iterations"
                                 : std::to_string(r.iterations) + " iterations";
    // the table's number, named as the table names it
    const std::string residual =
        "final relative residual \u2016b \u2212 A x\u2016 / \u2016b\u2016 = " +
        sci(r.final_relative_residual);
    if (runOutcome(run) == RunOutcome::converged) {
        return name + ": converged in " + its + "; " + residual;
    }
    return name + ": " + outcomeLabel(run) + " after " + its + "; " + residual +
           (r.message.empty() ? std::string() : ". Why: " + solverReason(r.message));
}

int cpuIterationCap(std::int64_t rows, std::int64_t nnz)
{
    const double perIteration =
        static_cast<double>(std::max<std::int64_t>(nnz, 0)) + 8.0 * static_cast<double>(rows);
    if (!(perIteration > 0)) return defaultSolverMaxIterations;
    const double fit = std::floor(cpuSolveWorkBudget / perIteration);
    return static_cast<int>(std::clamp(fit, 20.0, double(defaultSolverMaxIterations)));
}
