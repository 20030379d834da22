#pragma once
/// Conjugate gradients and mixed-precision CG (iterative refinement, or Cevahir's outer PCG),
/// written ONCE against a "backend" of vector operations, so the same code runs on host vectors
/// (HostBackend: std::vector + spmv_reference of any format) and on device vectors (spmv::gpu's
/// backend, where every vector stays on the GPU for the whole solve: Barbieri et al. §3, "CG
/// runs unchanged on the GPU, by simply feeding the appropriate data objects").
///
/// A backend owns the matrix (in one storage format and one precision) and provides:
///   Vector new_vector()                       zero vector of the system's size
///   void   fill_zero(Vector& v)
///   void   spmv(const Vector& x, Vector& y)   y = A x
///   void   residual(b, x, Vector& r)          r = b - A x
///   void   precondition(const Vector& r, Vector& z)   z = D^-1 r (Jacobi; needs set_jacobi)
///   double dot(x, y), double norm2(x)         reductions, returned to the host
///   void   xpay(x, double a, Vector& y)       y = x + a y
///   void   copy(x, Vector& y)                 y = x
///   PhaseTimes times()                        time spent so far per phase
/// and the fused steps of a CG iteration, whose scalars (CgScalars, cg_step.hpp) stay in the
/// backend (on the device for the GPU) and are decided by cg_step.hpp's functions:
///   void cg_begin(double rho, CgLimits)       new rho, clear the stop flag
///   void cg_spmv(p, Vector& q)                q = A p, the SpMV of an iteration (the GPU adds
///                                             p.q in the same kernel where the format can)
///   void cg_alpha(p, q, const Vector* r)      pq = p.q; alpha = (r ? r.p : rho) / pq
///   void cg_update(p, q, x, r, Vector* z)     x += alpha p; r -= alpha q; z = D^-1 r;
///                                             rr = r.r, rz = r.z; stop test; beta, rho
///   void cg_direction(const Vector& z, p)     p = z + beta p
///   void cg_iteration(int it)                 the steps that follow are iteration it: they
///                                             report its CgScalars (after the update, or when
///                                             alpha stops it) into a record kept for cg_read
///   CgScalars cg_read(int it)                 iteration it's record (waits for it)
///   int lookahead                             iterations queued before one is read (GPU: 1)
/// Once an iteration sets CgScalars::stop, the fused steps do nothing until cg_begin.
/// Scalars cross the interface as double and are rounded to the backend's value_type.
/// Mixed precision (mpir_cg) also needs, on the double "outer" backend:
///   void demote(const Vector& r, double s, InnerVector& rf)       rf = float(s * r)
///   void promote_add(const InnerVector& d, double s, Vector& x)   x = x + s * double(d)
/// (mpir_pcg / flexible_pcg drive the outer CG with the fused steps above, one iteration at a
/// time, and need nothing more. For Cevahir's algorithm as written the drivers also switch the
/// inner float backend to float sums and float reductions: set_float_reductions.)
#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>

#include <spmv/solvers/cg_step.hpp>
#include <spmv/solvers/solve.hpp>

namespace spmv::solvers {

template <typename B>
concept SolverBackend = requires(B& be, const typename B::Vector& cx, typename B::Vector& v,
                                 double s)
{
    typename B::value_type;
    typename B::Vector;
    {
        be.new_vector()
        } -> std::same_as<typename B::Vector>;
    be.fill_zero(v);
    be.spmv(cx, v);
    be.residual(cx, cx, v);
    be.precondition(cx, v);
    {
        be.dot(cx, cx)
        } -> std::convertible_to<double>;
    {
        be.norm2(cx)
        } -> std::convertible_to<double>;
    be.xpay(cx, s, v);
    be.copy(cx, v);
    {
        be.times()
        } -> std::convertible_to<PhaseTimes>;
    be.cg_begin(s, CgLimits{});
    be.cg_spmv(cx, v);
    be.cg_alpha(cx, cx, &cx);
    be.cg_update(cx, cx, v, v, &v);
    be.cg_direction(cx, v);
    be.cg_iteration(1);
    {
        be.cg_read(1)
        } -> std::same_as<CgScalars>;
    {
        be.lookahead
        } -> std::convertible_to<int>;
};

namespace detail {

inline std::string sci(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3e", v);
    return buf;
}

inline bool stop(SolveResult& res, Status s, std::string message)
{
    res.status = s;
    res.message = std::move(message);
    return true;
}

}  // namespace detail

/// Work vectors of cg(), kept between calls by a caller that solves many systems with the same
/// backend (MPIR-CG's inner solves), so that device vectors are not reallocated every time.
template <typename Vector>
struct CgWorkspace {
    std::optional<Vector> r, p, q, z;
    /// Continuing the search direction across solves (MPIR-CG with InnerOptions::keep_direction):
    /// after a cg() call, p holds the last search direction p_j, q = A p_j, `pq` = p_j.A p_j and
    /// `has_direction` says they are usable. When the caller sets `continue_scale` = s > 0 before
    /// the next call, whose right-hand side is the previous system's final residual multiplied
    /// by s, the first direction is z + beta s p_j with beta making it A-conjugate to p_j,
    /// instead of z: CG goes on where it stopped instead of restarting its Krylov space.
    double pq = 0.0;
    bool has_direction = false;
    double continue_scale = 0.0;
};

/// (Jacobi-preconditioned) conjugate gradients, Barbieri §3 / Saad Alg. 9.1:
///   r = b - A x, z = M^-1 r, p = z, rho = r.z
///   repeat: q = A p; alpha = rho / p.q; x += alpha p; r -= alpha q;
///           stop if ||r||/||b|| <= tol; z = M^-1 r; rho' = r.z; p = z + (rho'/rho) p
/// Breakdowns are detected, never reported as convergence: p.q <= 0 (A not positive definite),
/// r.z <= 0 with r != 0 (M not positive definite), NaN/Inf anywhere. When the recursive
/// residual meets tol, the true residual b - A x is recomputed (verify_residual); if it does not
/// meet tol, r is replaced by it and CG restarts; when a replacement gains less than 10 % on
/// the previous one (or after 20), the precision is exhausted: stagnated.
/// x holds the initial guess on entry. The residual history holds ||r||/||b|| per iteration.
template <SolverBackend Backend>
SolveResult cg(Backend& be, const typename Backend::Vector& b, typename Backend::Vector& x,
               const SolveOptions& opt, CgWorkspace<typename Backend::Vector>* workspace = nullptr)
{
    using Vector = typename Backend::Vector;
    using detail::sci;
    SolveResult res;
    res.final_relative_residual = 1.0;
    const double bnorm = opt.rhs_norm > 0.0 ? opt.rhs_norm : be.norm2(b);
    if (!std::isfinite(bnorm)) {
        detail::stop(res, Status::breakdown_nan, "the right-hand side holds NaN or Inf");
        return res;
    }
    if (bnorm == 0.0) {  // A x = 0 is solved by x = 0
        be.fill_zero(x);
        res.status = Status::converged;
        res.final_relative_residual = 0.0;
        res.residual_history.push_back(0.0);
        return res;
    }
    CgWorkspace<Vector> local;
    CgWorkspace<Vector>& ws = workspace != nullptr ? *workspace : local;
    for (auto* v : {&ws.r, &ws.p, &ws.q, &ws.z}) {
        if (!v->has_value() && (v != &ws.z || opt.jacobi)) {
            v->emplace(be.new_vector());
        }
    }
    Vector& r = *ws.r;
    Vector& p = *ws.p;
    Vector& q = *ws.q;
    Vector* z = opt.jacobi ? &*ws.z : nullptr;
    Vector& zr = opt.jacobi ? *z : r;  // the preconditioned residual (r itself without Jacobi)

    // rho = r.z; returns false (and sets the status) on an indefinite preconditioner or NaN.
    double rho = 0.0;
    auto precondition = [&](double rnorm) {
        if (!opt.jacobi) {
            rho = rnorm * rnorm;
            return true;
        }
        be.precondition(r, *z);
        rho = be.dot(r, *z);
        if (!std::isfinite(rho)) {
            return !detail::stop(res, Status::breakdown_nan, "r^T M^-1 r is NaN or Inf");
        }
        if (rho <= 0.0 && rnorm > 0.0) {
            return !detail::stop(res, Status::breakdown_indefinite,
                                 "r^T M^-1 r = " + sci(rho) +
                                     " <= 0: the Jacobi preconditioner is not positive definite");
        }
        return true;
    };

    double rel = 1.0;
    if (opt.start_from_zero) {  // r = b - A 0 = b, ||r|| / ||b|| = 1
        be.fill_zero(x);
        be.copy(b, r);
    } else {
        be.residual(b, x, r);
        rel = be.norm2(r) / bnorm;
    }
    res.residual_history.push_back(rel);
    res.final_relative_residual = rel;
    if (!std::isfinite(rel)) {
        detail::stop(res, Status::breakdown_nan, "the initial residual b - A x is NaN or Inf");
        return res;
    }
    if (rel <= opt.tol) {
        res.status = Status::converged;
        return res;
    }
    if (!precondition(rel * bnorm)) {
        return res;
    }
    bool line_search = false;  // first step of a continued solve: alpha = r.p / p.Ap
    if (ws.has_direction && ws.continue_scale > 0.0 && ws.pq > 0.0) {
        // Go on along the kept direction p_j, A-conjugate to it explicitly:
        // p = z + beta p_j with beta = -z.(A p_j) / p_j.(A p_j) (q still holds A p_j). Any
        // rescaling of p_j cancels in beta p_j, so s is not needed here. The "rho_new / rho_j"
        // form assumes the new residual is the recursive one; the true residual that replaced
        // it differs by the float rounding gap, and the explicit form keeps p conjugate anyway.
        const double beta = -be.dot(zr, q) / ws.pq;
        be.xpay(zr, beta, p);
        line_search = true;
    } else {
        be.copy(zr, p);
    }
    ws.has_direction = false;  // set again below once this solve has built a direction
    ws.continue_scale = 0.0;
    double last_true = rel;  // true residual at the last check (start or replacement)

    // The iterations run as fused steps whose scalars stay in the backend (cg_step.hpp).
    // Iteration it + lookahead is queued before iteration it is read, so a GPU never waits for
    // the host's decision; an iteration that stops sets a flag that turns the steps queued after
    // it into no-ops (only their SpMV runs, recomputing the same q = A p).
    const CgLimits limits{opt.tol * bnorm * opt.tol * bnorm,
                          opt.divergence_limit * bnorm * opt.divergence_limit * bnorm,
                          opt.jacobi ? 1 : 0};
    be.cg_begin(rho, limits);
    int queued = 0;
    auto queue_until = [&](int last) {
        last = std::min(last, opt.max_iterations);
        while (queued < last) {
            ++queued;
            be.cg_iteration(queued);
            be.cg_spmv(p, q);
            be.cg_alpha(p, q, line_search ? &r : nullptr);
            line_search = false;
            be.cg_update(p, q, x, r, z);
            if (queued < opt.max_iterations) {  // the last one keeps q = A p (CgWorkspace)
                be.cg_direction(zr, p);
            }
        }
    };

    for (int it = 1; it <= opt.max_iterations; ++it) {
        queue_until(it + be.lookahead);
        const CgScalars s = be.cg_read(it);
        res.iterations = it;
        if (s.stop == cg_stop_pq) {  // x and r were not updated
            if (!std::isfinite(s.pq)) {
                detail::stop(res, Status::breakdown_nan,
                             "p^T A p is NaN or Inf at iteration " + std::to_string(it));
            } else {
                detail::stop(res, Status::breakdown_indefinite,
                             "p^T A p = " + sci(s.pq) + " <= 0 at iteration " +
                                 std::to_string(it) + ": A is not positive definite");
            }
            return res;
        }
        ws.pq = s.pq;  // p and q = A p are kept: a caller may continue along p (see CgWorkspace)
        ws.has_direction = true;
        rel = std::sqrt(s.rr) / bnorm;
        res.residual_history.push_back(rel);
        res.final_relative_residual = rel;
        if (s.stop == cg_running) {
            continue;
        }
        if (s.stop == cg_stop_rz) {
            if (!std::isfinite(s.rz)) {
                detail::stop(res, Status::breakdown_nan, "r^T M^-1 r is NaN or Inf");
            } else {
                detail::stop(res, Status::breakdown_indefinite,
                             "r^T M^-1 r = " + sci(s.rz) +
                                 " <= 0: the Jacobi preconditioner is not positive definite");
            }
            return res;
        }
        if (!std::isfinite(rel)) {
            detail::stop(res, Status::breakdown_nan,
                         "the residual became NaN or Inf at iteration " + std::to_string(it));
            return res;
        }
        if (s.rr > limits.rr_diverge) {
            detail::stop(res, Status::diverged,
                         "relative residual " + sci(rel) + " at iteration " + std::to_string(it) +
                             " exceeds the divergence limit " + sci(opt.divergence_limit));
            return res;
        }
        // The recursive residual met tol.
        if (!opt.verify_residual) {
            res.status = Status::converged;
            return res;
        }
        be.residual(b, x, r);  // the recursive residual may have drifted from b - A x
        const double rnorm = be.norm2(r);
        const double true_rel = rnorm / bnorm;
        res.final_relative_residual = true_rel;
        if (true_rel <= opt.tol) {
            res.status = Status::converged;
            return res;
        }
        if (!std::isfinite(true_rel)) {
            detail::stop(res, Status::breakdown_nan, "the true residual is NaN or Inf");
            return res;
        }
        // Each replacement restarts CG from the true residual, which costs only the few
        // iterations needed to get below tol again; stop when that no longer helps.
        constexpr int max_restarts = 20;
        if ((res.restarts > 0 && true_rel > 0.9 * last_true) || res.restarts >= max_restarts) {
            detail::stop(res, Status::stagnated,
                         "the recursive residual reached " + sci(rel) +
                             " but the true residual b - A x stays at " + sci(true_rel) +
                             " (precision limit of this arithmetic)");
            return res;
        }
        last_true = true_rel;
        ++res.restarts;  // residual replacement: restart CG from the true residual
        if (!precondition(rnorm)) {
            return res;
        }
        be.copy(zr, p);
        be.cg_begin(rho, limits);
        queued = it;  // the iteration queued after this one did nothing (stop flag)
    }
    detail::stop(res, Status::max_iterations,
                 "no convergence in " + std::to_string(opt.max_iterations) +
                     " iterations (relative residual " + sci(rel) + ")");
    return res;
}

namespace detail {

/// Books one inner solve of MPIR-CG into `res` (its iterations, its count) and returns false,
/// with res's status and message set, when it gave nothing usable: the first inner step already
/// failed, or NaN / divergence. A p^T A p <= 0 after progress keeps the result built so far
/// (in float, A rounded to single precision can be numerically indefinite; the outer residual,
/// in double, decides whether it helped) and is counted in res.inner_breakdowns.
inline bool book_inner_solve(SolveResult& res, const SolveResult& ir, const std::string& step)
{
    res.inner_iterations += ir.iterations;
    res.inner_iteration_counts.push_back(ir.iterations);
    res.iterations = res.inner_iterations;
    const bool broke = ir.status == Status::breakdown_indefinite ||
                       ir.status == Status::breakdown_nan || ir.status == Status::diverged;
    if (broke && (ir.iterations <= 1 || ir.status != Status::breakdown_indefinite)) {
        return !stop(res, ir.status, "inner single-precision CG, " + step + ": " + ir.message);
    }
    if (broke) {
        ++res.inner_breakdowns;
    }
    return true;
}

/// The start shared by both MPIR-CG outer loops: ||b||, r = b - A x and its relative norm
/// (pushed to both histories). Returns false when the solve is already over (b = 0: x = 0,
/// converged; NaN or Inf in b or the initial residual).
template <SolverBackend Outer>
bool mpir_start(Outer& outer, const typename Outer::Vector& b, typename Outer::Vector& x,
                typename Outer::Vector& r, SolveResult& res, double& bnorm, double& rel)
{
    res.final_relative_residual = 1.0;
    bnorm = outer.norm2(b);
    if (!std::isfinite(bnorm)) {
        return !stop(res, Status::breakdown_nan, "the right-hand side holds NaN or Inf");
    }
    if (bnorm == 0.0) {
        outer.fill_zero(x);
        res.status = Status::converged;
        res.final_relative_residual = 0.0;
        res.residual_history.push_back(0.0);
        res.outer_residual_history.push_back(0.0);
        return false;
    }
    outer.residual(b, x, r);
    rel = outer.norm2(r) / bnorm;
    res.residual_history.push_back(rel);
    res.outer_residual_history.push_back(rel);
    res.final_relative_residual = rel;
    if (!std::isfinite(rel)) {
        return !stop(res, Status::breakdown_nan, "the initial residual b - A x is NaN or Inf");
    }
    return true;
}

/// The inner options shared by both outer loops: from z = 0, right-hand side of norm 1, no
/// residual verification (the outer loop recomputes its residual in double).
inline SolveOptions inner_options(const SolveOptions& opt)
{
    SolveOptions in;
    in.jacobi = opt.jacobi;
    in.verify_residual = false;
    in.start_from_zero = true;
    // The right-hand side is r / ||r|| rounded to float: norm 1 up to float rounding (relative
    // 6e-8), which moves the inner stopping test by as much; the outer residual, in double, is
    // what decides convergence.
    in.rhs_norm = 1.0;
    in.divergence_limit = opt.divergence_limit;
    return in;
}

}  // namespace detail

/// MPIR-CG with the refinement outer loop (MpirOuter::richardson; after Buttari et al.):
///   r = b - A x                                   (double SpMV)
///   repeat until ||r||/||b|| <= tol:
///     solve A d = r approximately by CG in single precision, from d = 0 (with
///       inner.keep_direction: continuing the previous inner solve's search direction, the
///       "reliable update" form of Clark et al. 2010 / Sleijpen & van der Vorst 1996; without
///       it, restarting from p = r), until the inner residual dropped by
///       max(inner.reduction, 0.1 tol / (||r||/||b||)) or after inner.max_iterations (the
///       inner system is scaled: it solves A d' = r/||r||, so that float never under- or
///       overflows)
///     x = x + ||r|| d'                             (double)
///     r = b - A x                                  (double SpMV: the TRUE residual)
/// Each refinement step gains roughly a factor inner.reduction as long as the inner solve is
/// that accurate, i.e. while cond(A) * eps_float stays well below 1; the residual that decides
/// convergence is always recomputed in double, so float can never fake convergence.
/// This is the project's own method, not Cevahir §2.2's outer loop (a flexible preconditioned
/// CG with a float-throughout inner CG of fixed length: mpir_pcg below).
template <SolverBackend Outer, SolverBackend Inner>
SolveResult mpir_richardson(Outer& outer, Inner& inner, const typename Outer::Vector& b,
                            typename Outer::Vector& x, const SolveOptions& opt)
{
    using detail::sci;
    SolveResult res;
    auto r = outer.new_vector();
    double bnorm = 0.0;
    double rel = 0.0;
    if (!detail::mpir_start(outer, b, x, r, res, bnorm, rel)) {
        return res;
    }
    auto rf = inner.new_vector();
    auto df = inner.new_vector();
    CgWorkspace<typename Inner::Vector> inner_ws;  // reused by every inner solve
    SolveOptions in = detail::inner_options(opt);  // each computes a correction d from d = 0
    int slow_steps = 0;
    double prev_rel = 0.0;     // outer residual the previous inner system was scaled by
    bool continue_ok = false;  // the previous inner solve ended with a usable direction
    while (rel > opt.tol) {
        if (res.outer_iterations >= opt.max_outer_iterations) {
            detail::stop(res, Status::max_iterations,
                         "no convergence in " + std::to_string(opt.max_outer_iterations) +
                             " refinement steps (relative residual " + sci(rel) + ")");
            return res;
        }
        const int budget = opt.max_iterations - res.inner_iterations;
        if (budget <= 0) {
            detail::stop(res, Status::max_iterations,
                         "no convergence in " + std::to_string(opt.max_iterations) +
                             " inner iterations (relative residual " + sci(rel) + ")");
            return res;
        }
        in.max_iterations = std::min(opt.inner.max_iterations, budget);
        // Adaptive: the last step needs only tol/rel (with a safety factor 10), not the full
        // inner.reduction; a fixed count (reduction == 0) is left alone.
        in.tol = opt.inner.reduction > 0.0
                     ? std::max(opt.inner.reduction, std::min(0.1 * opt.tol / rel, 0.1))
                     : 0.0;
        const double rnorm = rel * bnorm;
        outer.demote(r, 1.0 / rnorm, rf);
        // keep_direction: the new inner right-hand side r/||r|| is the previous inner system's
        // final residual times s = previous rel / rel, so the inner CG can go on along its last
        // search direction (see CgWorkspace) instead of restarting from p = r.
        inner_ws.continue_scale =
            opt.inner.keep_direction && continue_ok && prev_rel > 0.0 ? prev_rel / rel : 0.0;
        const SolveResult ir = cg(inner, rf, df, in, &inner_ws);
        prev_rel = rel;
        continue_ok = ir.status == Status::converged || ir.status == Status::max_iterations;
        for (std::size_t k = 1; k < ir.residual_history.size(); ++k) {
            res.residual_history.push_back(rel * ir.residual_history[k]);
        }
        if (!detail::book_inner_solve(
                res, ir, "refinement step " + std::to_string(res.outer_iterations + 1))) {
            return res;
        }
        outer.promote_add(df, rnorm, x);
        outer.residual(b, x, r);
        const double new_rel = outer.norm2(r) / bnorm;
        ++res.outer_iterations;
        res.outer_residual_history.push_back(new_rel);
        res.final_relative_residual = new_rel;
        if (!std::isfinite(new_rel)) {
            detail::stop(res, Status::breakdown_nan,
                         "the refined residual became NaN or Inf at refinement step " +
                             std::to_string(res.outer_iterations));
            return res;
        }
        if (new_rel > opt.divergence_limit) {
            detail::stop(res, Status::diverged,
                         "relative residual " + sci(new_rel) + " after refinement step " +
                             std::to_string(res.outer_iterations));
            return res;
        }
        slow_steps = new_rel > 0.5 * rel ? slow_steps + 1 : 0;
        rel = new_rel;
        if (rel > opt.tol && slow_steps >= 3) {
            detail::stop(res, Status::stagnated,
                         "three refinement steps in a row gained less than a factor 2 "
                         "(relative residual " +
                             sci(rel) +
                             "): the single-precision inner solve is too inaccurate for this "
                             "matrix (cond(A) * eps_float too large?)");
            return res;
        }
    }
    res.status = Status::converged;
    if (res.inner_breakdowns > 0) {
        res.message = std::to_string(res.inner_breakdowns) +
                      " inner solve(s) stopped early on p^T A p <= 0 in single precision";
    }
    return res;
}

/// The outer loop of MPIR-CG as Cevahir et al. 2009 write it (MpirOuter::pcg; mpir_pcg below),
/// for any preconditioner that may change from one application to the next: the flexible
/// (inexact) preconditioned CG of Golub & Ye 2000 (Cevahir's ref. [9], "Inexact Preconditioned
/// Conjugate Gradient Method with Inner-Outer Iterations") and Notay 2000, in the precision of
/// the outer backend (double):
///   r_0 = b - A x_0;  z_0 = M_0^-1 r_0;  rho_0 = r_0.z_0;  p_0 = z_0
///   for k = 0, 1, ...:
///     r_old = r_k                                                    (one vector copy)
///     q = A p_k;  alpha = rho_k / p_k.q;  x += alpha p_k;  r_{k+1} = r_k - alpha q
///                                                                    (CG's fused steps)
///     stop when ||r_{k+1}||/||b|| <= tol and the recomputed b - A x agrees
///     z_{k+1} = M_{k+1}^-1 r_{k+1};  rho_{k+1} = r_{k+1}.z_{k+1}
///     beta_k = z_{k+1}.(r_{k+1} - r_k) / rho_k = (rho_{k+1} - z_{k+1}.r_old) / rho_k
///     p_{k+1} = z_{k+1} + beta_k p_k
/// Why this beta: A p_k = (r_k - r_{k+1}) / alpha and alpha p_k^T A p_k = rho_k, so beta_k =
/// -z_{k+1}^T A p_k / p_k^T A p_k: p_{k+1} is A-conjugate to p_k whatever M_{k+1} is. Plain
/// PCG's beta = rho_{k+1} / rho_k (PcgBeta::plain, kept for comparison) drops z_{k+1}.r_k,
/// which is 0 only for a fixed symmetric M (r_{k+1}^T M r_k = 0); with an M that changes it is
/// not, and p_{k+1} is then not even conjugate to p_k. (The form r_{k+1}.(z_{k+1} - z_k) that
/// this code used before 2026-12 is not the flexible one: r_{k+1}.z_k = -beta r_{k+1}.p_{k-1}
/// is ~0 by construction, so it was plain PCG; tests/solvers/test_mpir_pcg.cpp has a 2x2 on
/// which the two betas differ, -1/40 against 3/40.)
///
/// `precondition(r, rnorm, rel, z, res)` sets z = M^-1 r for the current residual r (rnorm =
/// ||r||, rel = rnorm / ||b||) and returns true, or returns false with res's status and message
/// set (the solve then ends with res). It may book its own work into res (inner iterations).
/// Breakdowns: r.z <= 0 (M not positive definite) and p.Ap <= 0 (A not SPD) stop with
/// breakdown_indefinite; NaN with breakdown_nan.
template <SolverBackend Outer, typename Precondition>
SolveResult flexible_pcg(Outer& outer, const typename Outer::Vector& b, typename Outer::Vector& x,
                         const SolveOptions& opt, Precondition&& precondition)
{
    using Vector = typename Outer::Vector;
    using detail::sci;
    SolveResult res;
    Vector r = outer.new_vector();
    double bnorm = 0.0;
    double rel = 0.0;
    if (!detail::mpir_start(outer, b, x, r, res, bnorm, rel)) {
        return res;
    }
    if (rel <= opt.tol) {
        res.status = Status::converged;
        return res;
    }
    const bool flexible = opt.pcg_beta == PcgBeta::flexible;
    Vector p = outer.new_vector();
    Vector q = outer.new_vector();
    Vector z = outer.new_vector();
    std::optional<Vector> r_old;  // r_k, kept for the flexible beta
    if (flexible) {
        r_old.emplace(outer.new_vector());
    }
    auto apply = [&] { return precondition(std::as_const(r), rel * bnorm, rel, z, res); };
    // r.z > 0 for an SPD A and an SPD M; returns false with the status set otherwise.
    auto positive = [&](double rz) {
        if (!std::isfinite(rz)) {
            return !detail::stop(res, Status::breakdown_nan, "r^T M^-1 r is NaN or Inf");
        }
        if (rz <= 0.0) {
            return !detail::stop(
                res, Status::breakdown_indefinite,
                "r^T M^-1 r = " + sci(rz) + " <= 0 before outer iteration " +
                    std::to_string(res.outer_iterations + 1) +
                    ": the single-precision inner CG is not a positive definite preconditioner "
                    "(A not SPD, or cond(A) * eps_float too large)");
        }
        return true;
    };
    // Checked before every preconditioner application, so that none is wasted at the limit.
    auto outer_limit = [&] {
        if (res.outer_iterations < opt.max_outer_iterations) {
            return false;
        }
        return detail::stop(res, Status::max_iterations,
                            "no convergence in " + std::to_string(opt.max_outer_iterations) +
                                " outer iterations (relative residual " + sci(rel) + ")");
    };

    if (outer_limit() || !apply()) {
        return res;
    }
    double rho = outer.dot(r, z);
    if (!positive(rho)) {
        return res;
    }
    outer.copy(z, p);
    // CG's fused steps (cg_step.hpp) do q = A p, alpha = rho / p.q, x += alpha p, r -= alpha q
    // and the stopping test on r.r; rho = r.z is handed in by cg_begin every iteration, beta is
    // computed here (their beta, r.r / rho, is plain CG's).
    const CgLimits limits{opt.tol * bnorm * opt.tol * bnorm,
                          opt.divergence_limit * bnorm * opt.divergence_limit * bnorm, 0};
    double last_true = rel;  // true residual at the last check (start or replacement)
    for (int it = 1;; ++it) {
        if (flexible) {
            outer.copy(r, *r_old);  // r_k, before the fused update overwrites r
        }
        outer.cg_begin(rho, limits);
        outer.cg_iteration(it);
        outer.cg_spmv(p, q);
        outer.cg_alpha(p, q, nullptr);
        outer.cg_update(p, q, x, r, nullptr);
        const CgScalars s = outer.cg_read(it);
        if (s.stop == cg_stop_pq) {  // x and r were not updated
            if (!std::isfinite(s.pq)) {
                detail::stop(res, Status::breakdown_nan,
                             "p^T A p is NaN or Inf at outer iteration " + std::to_string(it));
            } else {
                detail::stop(res, Status::breakdown_indefinite,
                             "p^T A p = " + sci(s.pq) + " <= 0 at outer iteration " +
                                 std::to_string(it) + ": A is not positive definite");
            }
            return res;
        }
        ++res.outer_iterations;
        rel = std::sqrt(s.rr) / bnorm;
        res.residual_history.push_back(rel);
        res.outer_residual_history.push_back(rel);
        res.final_relative_residual = rel;
        if (!std::isfinite(rel)) {
            detail::stop(res, Status::breakdown_nan,
                         "the residual became NaN or Inf at outer iteration " + std::to_string(it));
            return res;
        }
        if (s.rr > limits.rr_diverge) {
            detail::stop(res, Status::diverged,
                         "relative residual " + sci(rel) + " at outer iteration " +
                             std::to_string(it) + " exceeds the divergence limit " +
                             sci(opt.divergence_limit));
            return res;
        }
        if (s.stop == cg_stop_residual) {
            // The updated residual met tol: recompute b - A x, which decides.
            outer.residual(b, x, r);
            const double true_rel = outer.norm2(r) / bnorm;
            res.final_relative_residual = true_rel;
            res.residual_history.back() = true_rel;
            res.outer_residual_history.back() = true_rel;
            if (true_rel <= opt.tol) {
                res.status = Status::converged;
                if (res.inner_breakdowns > 0) {
                    res.message = std::to_string(res.inner_breakdowns) +
                                  " inner solve(s) stopped early on p^T A p <= 0 in single "
                                  "precision";
                }
                return res;
            }
            if (!std::isfinite(true_rel)) {
                detail::stop(res, Status::breakdown_nan, "the true residual is NaN or Inf");
                return res;
            }
            constexpr int max_restarts = 20;
            if ((res.restarts > 0 && true_rel > 0.9 * last_true) || res.restarts >= max_restarts) {
                detail::stop(res, Status::stagnated,
                             "the outer residual reached " + sci(rel) +
                                 " but the true residual b - A x stays at " + sci(true_rel) +
                                 " (precision limit of this arithmetic)");
                return res;
            }
            // Residual replacement: restart the outer CG from the true residual (p = z).
            last_true = true_rel;
            rel = true_rel;
            ++res.restarts;
            if (outer_limit() || !apply()) {
                return res;
            }
            rho = outer.dot(r, z);
            if (!positive(rho)) {
                return res;
            }
            outer.copy(z, p);
            continue;
        }
        if (outer_limit() || !apply()) {
            return res;
        }
        const double rho_new = outer.dot(r, z);
        if (!positive(rho_new)) {
            return res;
        }
        const double beta =
            flexible ? (rho_new - outer.dot(z, *r_old)) / rho : rho_new / rho;
        rho = rho_new;
        outer.xpay(z, beta, p);  // p = z + beta p
    }
}

/// MPIR-CG as Cevahir et al. 2009 write it (§2.2, §3; MpirOuter::pcg): "the preconditioned CG
/// ... instead of using a fixed preconditioner, preconditioner is solved using a single
/// precision sparse iterative method, in each iteration. Operations other than the inner solver
/// run in double precision ... Inner solver runs for a predetermined number of iterations".
/// The outer loop is flexible_pcg above, in double (the paper's CPU part), with
/// M^-1 r (the paper's GPU part) = k = inner.max_iterations iterations of CG on the `inner`
/// backend, in float, on A z' = float(r / ||r||) from z' = 0 (Jacobi-preconditioned with
/// SolveOptions::jacobi, which the paper allows: "Single precision inner solver may also use
/// preconditioned CG"), then z = ||r|| double(z').
/// "As written" means float THROUGHOUT (the 8800 GTS of §4 had no double precision, and §3.2
/// puts the inner CG's dot products and norms on the GPU): the drivers (solve_host,
/// spmv::gpu::solve_gpu, spmv::dist::solve) give this loop an inner backend whose SpMV adds its
/// products in float and whose dot products, norms and fused-step reductions accumulate in
/// float (HostBackend / GpuBackend set_float_reductions; SolveResult::inner_float_reductions).
/// The scalars alpha and beta of the inner CG are divided in double from those float sums and
/// rounded to float once, which is exactly float division (53 >= 2 * 24 + 2 bits: the double
/// rounding is innocuous).
///
/// The k iterations are not a fixed linear operator: CG's iterate is a polynomial in A chosen by
/// the right-hand side, so M changes with r, and the outer CG must be the flexible one.
/// r.z stays positive in exact arithmetic (CG's iterate z_k is the A-orthogonal projection of
/// A^-1 r on its Krylov space, so r.z_k = z_k^T A z_k > 0 on an SPD A), so r.z <= 0 means A is
/// not SPD or float broke the inner solve: breakdown_indefinite.
///
/// k -> large: z -> A^-1 r to float accuracy and the outer CG needs a few iterations (each
/// gains ~ cond(A) eps_float); k = 1: z = (r.r / r.Ar) r, a multiple of r, and the outer CG is
/// plain CG in double with one float SpMV per iteration on top. The inner solve stops before k
/// only when its recursive residual falls below 1e-30 (float would underflow; z is then exact
/// to float accuracy) or breaks down.
template <SolverBackend Outer, SolverBackend Inner>
SolveResult mpir_pcg(Outer& outer, Inner& inner, const typename Outer::Vector& b,
                     typename Outer::Vector& x, const SolveOptions& opt)
{
    using Vector = typename Outer::Vector;
    using detail::sci;
    auto rf = inner.new_vector();
    auto df = inner.new_vector();
    CgWorkspace<typename Inner::Vector> inner_ws;  // reused; never continued (continue_scale 0)
    SolveOptions in = detail::inner_options(opt);
    constexpr double fixed_count_floor = 1e-30;
    in.tol = fixed_count_floor;

    // z = M^-1 r: the float inner CG of k iterations on A z' = r / ||r||, z = ||r|| z'.
    // Its iterations show in residual_history as the outer residual they run under.
    auto precondition = [&](const Vector& r, double rnorm, double rel, Vector& zk,
                            SolveResult& res) {
        const int budget = opt.max_iterations - res.inner_iterations;
        if (budget <= 0) {
            return !detail::stop(res, Status::max_iterations,
                                 "no convergence in " + std::to_string(opt.max_iterations) +
                                     " inner iterations (relative residual " + sci(rel) + ")");
        }
        in.max_iterations = std::min(opt.inner.max_iterations, budget);
        outer.demote(r, 1.0 / rnorm, rf);
        const SolveResult ir = cg(inner, rf, df, in, &inner_ws);
        for (int k = 1; k < ir.iterations; ++k) {
            res.residual_history.push_back(rel);
        }
        if (!detail::book_inner_solve(
                res, ir, "outer iteration " + std::to_string(res.outer_iterations + 1))) {
            return false;
        }
        outer.fill_zero(zk);
        outer.promote_add(df, rnorm, zk);
        return true;
    };
    return flexible_pcg(outer, b, x, opt, precondition);
}

/// Mixed-precision CG: the outer loop SolveOptions::mpir_outer (MpirOuter) around a
/// single-precision inner CG on the `inner` backend (the same matrix in float).
template <SolverBackend Outer, SolverBackend Inner>
SolveResult mpir_cg(Outer& outer, Inner& inner, const typename Outer::Vector& b,
                    typename Outer::Vector& x, const SolveOptions& opt)
{
    return opt.mpir_outer == MpirOuter::pcg ? mpir_pcg(outer, inner, b, x, opt)
                                            : mpir_richardson(outer, inner, b, x, opt);
}

}  // namespace spmv::solvers
