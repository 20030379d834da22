#pragma once
// Qt-free part of the solver view: one solve of A x = b (x0 = 0) by CG, Jacobi-CG or MPIR-CG,
// on the GPU (spmv::gpu::solve_gpu) or with the host reference (spmv::solvers::solve_host),
// the way `spmvlab solve` runs it. Exceptions (NotCompiled, a non-square matrix, an unknown
// format, a matrix too large for the device) become SolverRun::error; numerical failures
// (breakdown on a matrix that is not SPD, stagnation, ...) are in the result's status.
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

struct SolverJob {
    spmv::viz::SolverMethod method = spmv::viz::SolverMethod::cg;
    std::string format = "csr";  ///< registry name
    spmv::FormatParams params;
    double tol = 1e-10;
    int maxIterations = 10000;  ///< CG iterations; MPIR-CG: total inner iterations
    RhsKind rhs = RhsKind::ones;
    std::uint32_t seed = 1;
    bool gpu = false;  ///< spmv::gpu::solve_gpu instead of the host reference
};

struct SolverRun {
    spmv::viz::SolverMethod method = spmv::viz::SolverMethod::cg;
    spmv::solvers::SolveResult result;
    std::string backend;  ///< "GPU (<name>)" or "host reference (1 thread)"
    std::string error;    ///< non-empty when the solve could not run at all
    /// Why the matrix is certainly not SPD (spmv::analysis::screen_spd), empty when the
    /// screen passes: CG's convergence theory does not hold for it.
    std::string not_spd;
};

/// The right-hand side: ones, or the same random vector as `spmvlab solve --rhs random`.
std::vector<double> makeRhs(RhsKind kind, std::size_t n, std::uint32_t seed);

/// Runs one solve (never throws for a failed solve: see the header comment).
SolverRun runSolverJob(const spmv::Csr<double, std::int32_t>& a, const SolverJob& job);

/// One line for the panel: "MPIR-CG: converged in 42 inner / 3 outer iterations, relative
/// residual 8.1e-11", "CG: breakdown_indefinite: p^T A p = ... <= 0 ...: A is not positive
/// definite", or "CG could not run: ...".
std::string describeRun(const SolverRun& run);
