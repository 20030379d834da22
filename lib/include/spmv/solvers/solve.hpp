#pragma once
/// Solvers for A x = b with a symmetric positive definite A, in any storage format:
/// conjugate gradients (CG, optionally Jacobi-preconditioned) and mixed-precision CG (MPIR-CG:
/// an outer loop in double around an inner CG in single precision). MPIR-CG has two outer
/// loops (MpirOuter): the project's own iterative refinement (x += inner solution, default),
/// and Cevahir et al. 2009 §2.2 as written: a flexible double-precision preconditioned CG whose
/// preconditioner is a CG of a fixed number of iterations in float throughout.
///
/// The algorithms are written once (spmv/solvers/cg.hpp) against a small "backend" of vector
/// operations; this header has the vocabulary (options, status, result) and the host driver.
/// The GPU driver with the same shape is spmv::gpu::solve_gpu
/// (kernels/include/spmv/gpu/solver.hpp).
///
/// Stopping test: the relative residual ||b - A x||_2 / ||b||_2 <= tol. A solve reports
/// `converged` only when the TRUE residual (recomputed as b - A x, not the recursively updated
/// one) meets the tolerance; final_relative_residual is that true residual, recomputed in double
/// on the host from the original CSR matrix by the drivers.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/registry.hpp>

namespace spmv::solvers {

/// How a solve ended. Only `converged` means "x solves A x = b to the tolerance".
enum class Status {
    converged,             ///< true relative residual <= tol
    max_iterations,        ///< iteration limit reached first
    stagnated,             ///< the true residual stopped decreasing above tol (precision limit)
    breakdown_indefinite,  ///< p^T A p <= 0 (or r^T M^-1 r <= 0): A (or M) is not SPD
    breakdown_nan,         ///< NaN or Inf appeared (in b, A, or during the iteration)
    diverged,              ///< the residual grew beyond SolveOptions::divergence_limit
};
std::string_view to_string(Status s);

enum class Method {
    cg,       ///< conjugate gradients in double (Jacobi-preconditioned with SolveOptions::jacobi)
    mpir_cg,  ///< mixed precision: double outer loop (SolveOptions::mpir_outer), float inner CG
};
std::string_view to_string(Method m);

/// The double-precision outer loop of MPIR-CG. Both run a float inner CG (on the GPU
/// backend: on the device) and decide convergence on a double residual.
///
/// richardson (default; the PROJECT'S OWN method, not a paper's algorithm): iterative
///   refinement, x += d with d the inner solution of A d = r, then r = b - A x recomputed
///   (after Buttari et al.'s refinement). The inner CG runs until its residual dropped by
///   InnerOptions::reduction, by default continues its search direction across steps
///   (InnerOptions::keep_direction) and adds its SpMV products in double
///   (InnerOptions::double_sums), with its dot products and norms accumulated in double: the
///   project's tuning, measured in docs/benchmarks/solvers_h100.md.
/// pcg: Cevahir et al. 2009 §2.2 / §3 as written: "the preconditioned CG [in double]. However,
///   instead of using a fixed preconditioner, preconditioner is solved using a single precision
///   sparse iterative method, in each iteration ... Inner solver runs for a predetermined number
///   of iterations". z = M^-1 r is InnerOptions::max_iterations CG iterations on A z = r from
///   z = 0 (r scaled to norm 1, z scaled back), in float THROUGHOUT: float SpMV with float
///   sums, float dot products, norms and reductions (the drivers set this; double_sums,
///   reduction and keep_direction do not apply). Such a preconditioner is not a fixed linear
///   operator (CG is not linear in its right-hand side), so the outer CG is the flexible one
///   (Golub & Ye 2000, Cevahir's ref. [9]; Notay 2000): beta = z_new.(r_new - r_old) /
///   r_old.z_old (PcgBeta::flexible) instead of plain PCG's r_new.z_new / r_old.z_old.
enum class MpirOuter {
    richardson,
    pcg,
};
/// beta of MPIR-CG's outer PCG (MpirOuter::pcg; spmv::solvers::flexible_pcg in cg.hpp).
enum class PcgBeta {
    /// Golub & Ye / Notay: z_new.(r_new - r_old) / r_old.z_old, which keeps the new direction
    /// A-conjugate to the last one however the preconditioner changed (costs one vector copy
    /// and one dot product per outer iteration). Cevahir's algorithm.
    flexible,
    /// plain PCG: r_new.z_new / r_old.z_old, right for a fixed symmetric M only; kept to show
    /// what the flexible form changes (tutorials/17_cg_mpir).
    plain,
};
/// "richardson", "pcg" (the CLI's --outer values).
std::string_view to_string(MpirOuter o);

/// The inner solve of MPIR-CG (single precision). With MpirOuter::richardson it stops when its
/// own relative residual has dropped by `reduction` (adaptive; the last refinement step asks
/// only for the reduction that reaches tol, with a safety factor 10) or after `max_iterations`
/// (a fixed count when reduction == 0). With MpirOuter::pcg it always runs `max_iterations`
/// (Cevahir's "predetermined number of iterations"; see MpirOuter) in float throughout, and
/// `reduction`, `keep_direction` and `double_sums` are not used.
///
/// keep_direction (default, richardson only): each inner CG continues the previous one's last
/// search direction (rescaled to the new right-hand side, made A-conjugate to it) instead of
/// restarting from p = r. Restarted CG throws away its Krylov space at every refinement step;
/// continued, the float CG behaves like one CG whose residual is replaced by the true double
/// residual at every refinement step ("reliable updates", Sleijpen & van der Vorst 1996, used
/// for mixed precision by Clark et al. 2010). With a double inner solve that needs exactly CG's
/// iterations; with a float one it still needs more (pde100: 281 for double CG, ~350 with
/// double sums, ~420-470 without; docs/benchmarks/solvers_h100.md). false: the classic
/// restarted inner solve of Buttari et al.'s refinement (each inner CG from p = r).
///
/// double_sums (default; richardson only): the inner SpMV keeps the matrix and the vectors in
/// float but adds each row's products in double and rounds once (spmv::gpu::Sums::double_precision
/// on the GPU; on the host the float operator's values in double). Why: the search direction of
/// CG becomes smooth, and for a smooth p a row of a Laplacian, 6 p_i - sum_j p_j, is ~cond(A)
/// times smaller than its terms; a float sum then loses log10(cond) of float's 7 digits, and
/// that error, not the float storage, is what slows float CG down (pde100, plain float CG: 1e-7
/// at iteration 283 with float sums, 248 with double sums, 219 in double). The bytes moved are
/// the float kernel's. Formats whose GPU kernel has no double-sum path run with float sums
/// (SolveResult::inner_double_sums says which was used). MpirOuter::pcg ignores it: Cevahir's
/// inner CG is float throughout (SolveResult::inner_float_reductions).
struct InnerOptions {
    /// Measured best of 1e-4 and 1e-2 (2026-11-26, H200, sell_i16 / auto variants): 1e-2 is
    /// 0.91x and 0.93x the time of 1e-4 on pde100 / pde150, better on 3 of the 5 real SPD
    /// matrices tried, 0.94x geometric mean over all 7 (docs/benchmarks/h200_2026-11-26/s16).
    double reduction = 1e-2;
    int max_iterations = 1000;
    bool keep_direction = true;
    bool double_sums = true;
};

struct SolveOptions {
    double tol = 1e-10;              ///< relative residual ||b - A x|| / ||b|| to reach
    int max_iterations = 10000;      ///< CG iterations; for MPIR-CG the total of inner iterations
    int max_outer_iterations = 100;  ///< MPIR-CG outer steps (refinement steps, or PCG's)
    bool jacobi = false;  ///< Jacobi (diagonal) preconditioner; for MPIR-CG in the inner CG
    InnerOptions inner;   ///< MPIR-CG only
    MpirOuter mpir_outer = MpirOuter::richardson;  ///< MPIR-CG only: the outer loop
    PcgBeta pcg_beta = PcgBeta::flexible;          ///< MpirOuter::pcg only: the outer beta
    /// diverged when the relative residual exceeds this (CG residuals on an SPD matrix may grow
    /// temporarily, but not by many orders of magnitude).
    double divergence_limit = 1e8;
    /// When the recursive residual meets tol, recompute b - A x; if it does not meet tol, replace
    /// the residual and restart (counted in SolveResult::restarts). Off for MPIR's inner solves.
    bool verify_residual = true;
    /// Start from x = 0 whatever x holds (MPIR-CG's inner solves): CG sets x to 0 and takes
    /// r = b, without the SpMV and the norm of b - A x that a general initial guess needs.
    bool start_from_zero = false;
    /// ||b|| when the caller knows it (> 0), instead of a reduction over b: MPIR-CG's inner
    /// right-hand side is its residual scaled to norm 1.
    double rhs_norm = 0.0;
    /// Time every phase (SolveResult::times). The host reference reads std::chrono at the
    /// phase boundaries either way. On the GPU this records a CUDA event at every phase
    /// boundary, which costs 4-5 us per CG iteration on an H100 (docs/benchmarks/solvers_h100.md,
    /// session 6): a tenth of a float iteration on pde100. false: no events, times.* stay 0 and
    /// total_ms is the solve alone (what `spmvlab solve --repeat` times; its phase breakdown
    /// comes from one extra instrumented run).
    bool phase_times = true;
};

/// Milliseconds spent per kind of work. On the GPU they are measured with CUDA events around
/// each operation; on the host with std::chrono::steady_clock.
struct PhaseTimes {
    double spmv_ms = 0.0;       ///< sparse matrix-vector products (residuals included)
    /// xpay, copies, Jacobi scaling, precision conversions; in CG's fused update step
    /// (x, r, z together) also the r.r and r.z sums computed in the same pass
    double vector_ms = 0.0;
    /// dot products and norms (including reading the scalar back); in CG's iterations p.Ap,
    /// except on the GPU with formats whose SpMV sums p.Ap itself (sell, sell_i16: then SpMV)
    double reduction_ms = 0.0;
    double transfer_ms = 0.0;   ///< host <-> device copies of b and x (0 on the host)

    PhaseTimes& operator+=(const PhaseTimes& o)
    {
        spmv_ms += o.spmv_ms;
        vector_ms += o.vector_ms;
        reduction_ms += o.reduction_ms;
        transfer_ms += o.transfer_ms;
        return *this;
    }
};

struct SolveResult {
    Status status = Status::max_iterations;
    std::string message;       ///< why it stopped, in words (empty when converged cleanly)
    int iterations = 0;        ///< SpMV iterations: CG iterations, or MPIR's inner total
    int inner_iterations = 0;  ///< MPIR-CG: total inner (float) CG iterations
    int outer_iterations = 0;  ///< MPIR-CG: refinement steps, or outer PCG iterations
    /// CG and MPIR-CG's outer PCG: residual replacements after a false convergence
    int restarts = 0;
    int inner_breakdowns = 0;  ///< MPIR-CG: inner solves cut short by p^T A p <= 0 in float
    /// MPIR-CG: the inner SpMV added its products in double (InnerOptions::double_sums, and the
    /// format's kernel has that path); false: in float.
    bool inner_double_sums = false;
    /// MPIR-CG: the inner CG's dot products, norms and fused-step reductions (r.r, r.z, p.Ap)
    /// accumulated in float (MpirOuter::pcg, Cevahir as written); false: in double.
    bool inner_float_reductions = false;
    double final_relative_residual = 0.0;  ///< true ||b - A x|| / ||b||, in double
    /// Relative residual after every iteration, entry 0 = initial. For MPIR-CG one entry per
    /// inner iteration: richardson: the inner CG's residual scaled by the outer residual it
    /// started from (an estimate of the global one); pcg: the outer residual of the current x,
    /// which changes only at an outer iteration (a staircase whose steps sit at the markers of
    /// outer_residual_history; the inner residual measures the preconditioner, not x).
    std::vector<double> residual_history;
    /// MPIR-CG: double relative residual before the first and after every outer step.
    /// richardson: b - A x recomputed every step; pcg: the outer CG's residual, updated in
    /// double (r -= alpha A p), except that b - A x, recomputed, replaces it in an iteration
    /// whose updated residual met tol (the last one of a converged solve).
    std::vector<double> outer_residual_history;
    /// MPIR-CG: iterations of every inner solve (richardson: one per refinement step; pcg: the
    /// preconditioner applied before each outer iteration), plus the failed one when an inner
    /// solve broke down without a usable result.
    std::vector<int> inner_iteration_counts;
    PhaseTimes times;
    bool phase_times = false;  ///< times.* were measured (SolveOptions::phase_times)
    double total_ms = 0.0;  ///< the whole solve: b in, iterations, x out (no matrix setup)
    double setup_ms = 0.0;  ///< building the format(s), permuting, uploading the matrix
    std::size_t bytes_to_device = 0;  ///< GPU: vector bytes copied host -> device (b, x0)
    std::size_t bytes_to_host = 0;    ///< GPU: vector bytes copied device -> host (x)
    /// GPU: the caller's b and x were page-locked (cudaHostRegister, during setup) for their
    /// transfers, which then run as direct DMA; false: pageable memory, staged by the driver.
    bool pinned_transfers = false;
    std::string format;               ///< registry name of the storage format used
    bool permuted_basis = false;      ///< the solve ran in the format's permuted basis
    std::string where;                ///< "host reference", or the GPU's name
};

/// Solves A x = b on the host with the reference SpMV of `format` (any registered format; a
/// permuted one runs in its permuted basis). x holds the initial guess on entry and the
/// solution on return. For Method::mpir_cg the inner CG runs in float on the host (slow, but
/// shows the algorithm), under the outer loop SolveOptions::mpir_outer. Throws
/// InvalidArgument/DimensionMismatch for bad arguments; numerical failures are reported in
/// SolveResult::status, never thrown.
SolveResult solve_host(const Csr<double, std::int32_t>& a, std::span<const double> b,
                       std::span<double> x, Method method, std::string_view format = "csr",
                       const FormatParams& params = {}, const SolveOptions& options = {});

/// ||b - A x||_2 / ||b||_2 in double with the CSR reference (0 when b = 0 and A x = 0).
double relative_residual(const Csr<double, std::int32_t>& a, std::span<const double> b,
                         std::span<const double> x);

}  // namespace spmv::solvers
