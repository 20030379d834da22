#pragma once
// Qt-free part of the solver view: one solve of A x = b (x0 = 0) by CG, Jacobi-CG or MPIR-CG,
// on the GPU (spmv::gpu::solve_gpu) or with the host reference (spmv::solvers::solve_host),
// the way `spmvlab solve` runs it. Exceptions (NotCompiled, a non-square matrix, an unknown
// format, a matrix too large for the device) become SolverRun::error; numerical failures
// (breakdown, divergence, stagnation, the iteration cap) are in the result's status.
//
// A matrix that is CERTAINLY not SPD (spmv::analysis::screen_spd: not symmetric, or a
// diagonal entry missing or <= 0) is not solved unless the job asks for it
// (SolverJob::runIfNotSpd): CG is defined for SPD matrices only, and on such a matrix its
// curve is not a solve. The run is then `refused` and says why.
//
// One residual everywhere: the number the view calls "final relative residual" (table, text,
// chart marker) is SolveResult::final_relative_residual, ||b - A x|| / ||b|| of the returned x
// recomputed in double from the CSR matrix, which is what `spmvlab solve` prints as "final
// relative residual". The per-iteration curve is the residual the iteration itself updates
// (CG's recursive r; MPIR-CG's inner estimate), called "iterated residual" in the words below.
#include <cstdint>
#include <string>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/registry.hpp>
#include <spmv/solvers/solve.hpp>
#include <spmv/viz/solver_chart.hpp>

enum class RhsKind {
    ones,    ///< b = (1, ..., 1)
    random,  ///< b uniform in [-1, 1], std::mt19937(seed) (the CLI's --rhs random)
};

/// The view's default iteration limit (the CLI's --max-iterations default).
inline constexpr int defaultSolverMaxIterations = 10000;

struct SolverJob {
    spmv::viz::SolverMethod method = spmv::viz::SolverMethod::cg;
    std::string format = "csr";  ///< registry name
    spmv::FormatParams params;
    double tol = 1e-10;
    int maxIterations = defaultSolverMaxIterations;  ///< CG; MPIR-CG: total inner iterations
    RhsKind rhs = RhsKind::ones;
    std::uint32_t seed = 1;
    bool gpu = false;  ///< spmv::gpu::solve_gpu instead of the host reference
    /// Solve even when the SPD screen shows that the matrix is not SPD (the view's "Run CG
    /// anyway"); false: such a run is refused.
    bool runIfNotSpd = false;
};

struct SolverRun {
    spmv::viz::SolverMethod method = spmv::viz::SolverMethod::cg;
    spmv::solvers::SolveResult result;
    std::string backend;  ///< "GPU (<name>)" or "host reference (1 thread)"
    std::string error;    ///< non-empty when the solve could not run at all
    /// Why the matrix is certainly not SPD (spmv::analysis::screen_spd), empty when the
    /// screen passes: CG's convergence theory does not hold for it.
    std::string not_spd;
    /// Not solved: not_spd is set and the job did not ask to run anyway.
    bool refused = false;
    int maxIterations = 0;  ///< the job's iteration limit
};

/// How a run ended, as the view labels it (table, chart legend, text).
enum class RunOutcome {
    converged,
    notRun,        ///< refused: the matrix is certainly not SPD
    error,         ///< could not run at all (SolverRun::error)
    diverged,      ///< Status::diverged
    breakdown,     ///< Status::breakdown_indefinite or breakdown_nan
    iterationCap,  ///< Status::max_iterations
    stagnated,     ///< Status::stagnated
};
RunOutcome runOutcome(const SolverRun& run);

/// The short label of the table's Status column and of the chart's legend: "converged",
/// "not run: matrix not SPD", "diverged (did not converge)", "did not converge: breakdown",
/// "did not converge: iteration cap 58", "did not converge: stagnated", "error: ...".
std::string outcomeLabel(const SolverRun& run);

/// The right-hand side: ones, or the same random vector as `spmvlab solve --rhs random`.
std::vector<double> makeRhs(RhsKind kind, std::size_t n, std::uint32_t seed);

/// Why `a` is certainly not SPD (screen_spd's reason), or "" when the screen passes or `a`
/// is not square (the solve then reports that itself). O(nnz log(row length)).
std::string screenNotSpd(const spmv::Csr<double, std::int32_t>& a);

/// Runs one solve (never throws for a failed solve: see the header comment). `notSpd` is
/// screenNotSpd(a), computed once for all the jobs of a request.
SolverRun runSolverJob(const spmv::Csr<double, std::int32_t>& a, const SolverJob& job,
                       const std::string& notSpd);
/// The same, screening `a` itself.
SolverRun runSolverJob(const spmv::Csr<double, std::int32_t>& a, const SolverJob& job);

/// One line for the panel, with the one residual named as in the table:
/// "CG: converged in 281 iterations; final relative residual ||b - A x|| / ||b|| = 9.92e-11",
/// "MPIR-CG: diverged (did not converge) after 12 inner / 1 outer iterations; final relative
/// residual ||b - A x|| / ||b|| = 1.00e+00. Why: inner single-precision CG, ...: iterated
/// residual 1.003e+08 ..." (the norms written with U+2016),
/// "CG: not run: the matrix is not symmetric: a(0, 1) = 1 but a(1, 0) = 0", or
/// "CG could not run: ...".
std::string describeRun(const SolverRun& run);

/// The view's iteration cap for the host reference backend (one thread), so that one solve
/// of the view takes about a second on a laptop core whatever the matrix: as many iterations as
/// fit in `cpuSolveWorkBudget` element operations, one CG iteration counting nnz (the SpMV)
/// plus 8 per row (the vector updates and reductions), never below 20 nor above
/// defaultSolverMaxIterations. Example: a 100^3 Laplacian (6.94e6 nonzeros, 1e6 rows) gets
/// 8e8 / 1.494e7 = 53 iterations; a 40 x 40 Laplacian keeps 10000. (Measured on this project's
/// 2-core build machine: pde100 host CG takes 20 ms per iteration, 37 ms under load, i.e.
/// 7.5e8 of these operations per second; converging needs 281 iterations there.)
inline constexpr double cpuSolveWorkBudget = 8e8;
int cpuIterationCap(std::int64_t rows, std::int64_t nnz);
