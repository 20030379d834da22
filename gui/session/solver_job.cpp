#include "solver_job.hpp"

#include <cstdio>
#include <new>
#include <random>

#include <spmv/analysis/spd.hpp>
#include <spmv/error.hpp>
#include <spmv/gpu/solver.hpp>

namespace {

std::string sci(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2e", v);
    return buf;
}

}  // namespace

std::vector<double> makeRhs(RhsKind kind, std::size_t n, std::uint32_t seed)
{
    if (kind == RhsKind::ones) return std::vector<double>(n, 1.0);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    std::vector<double> b(n);
    for (auto& e : b) e = d(rng);
    return b;
}

SolverRun runSolverJob(const spmv::Csr<double, std::int32_t>& a, const SolverJob& job)
{
    using spmv::viz::SolverMethod;
    SolverRun run;
    run.method = job.method;
    run.backend = job.gpu ? "GPU" : "host reference (1 thread)";
    // CG's theory needs an SPD matrix: say so before the curves when it is certainly not one
    if (a.num_rows == a.num_cols) {
        run.not_spd = spmv::analysis::screen_spd(a).reason();
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
    if (!run.error.empty()) return name + " could not run: " + run.error;
    const auto& r = run.result;
    const bool mpir = run.method == spmv::viz::SolverMethod::mpir_cg;
    const std::string its = mpir ? std::to_string(r.inner_iterations) + " inner / " +
                                       std::to_string(r.outer_iterations) + " outer iterations"
                                 : std::to_string(r.iterations) + " iterations";
    if (r.status == spmv::solvers::Status::converged) {
        return name + ": converged in " + its + ", relative residual " +
               sci(r.final_relative_residual);
    }
    return name + ": " + std::string(spmv::solvers::to_string(r.status)) + " after " + its +
           (r.message.empty() ? std::string() : ": " + r.message);
}
