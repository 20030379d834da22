#pragma once
/// The scalar part of one CG iteration, shared by every solver backend: the host backend runs
/// it on the CPU, the GPU backend inside the last block of its fused reduction kernels (these
/// functions are constexpr so that device code can call them), so alpha, beta and the stopping
/// test are decided by the same lines of code on both.
///
/// Why the scalars live in the backend: on a GPU, reading p.Ap and r.r back to the host twice per
/// iteration stalls the device for a launch-and-copy round trip each time (measured on an H100,
/// pde100 in double: vector updates and reductions took 91 us per iteration next to a 49 us
/// SpMV; with the fused steps 38 us). With alpha, beta and the stop flag kept on the device, the
/// host only queues work and reads each iteration's CgScalars one iteration late (see cg() in
/// cg.hpp): the device never waits for the host.

namespace spmv::solvers {

/// Why an iteration stopped the pipeline (CgScalars::stop). The host decides what it means
/// (converged, breakdown, divergence) from the reason and the recorded values.
enum CgStop : int {
    cg_running = 0,
    cg_stop_pq = 1,        ///< p.Ap <= 0, NaN or Inf: x and r were not updated
    cg_stop_residual = 2,  ///< r.r met the tolerance, exceeded the divergence limit, or is NaN
    cg_stop_rz = 3,        ///< Jacobi: r.z <= 0, NaN or Inf with r.r above the tolerance
};

/// The scalars of the current iteration. After cg_after_update: rho and beta are for the next
/// direction p = z + beta p (rho = r.z of the new residual).
struct CgScalars {
    double rho = 0.0;    ///< r.z (r.r without a preconditioner) of the current residual
    double pq = 0.0;     ///< p.Ap of this iteration
    double alpha = 0.0;  ///< step length of this iteration
    double rr = 0.0;     ///< r.r after the update
    double rz = 0.0;     ///< r.z after the update (== rr without a preconditioner)
    double beta = 0.0;   ///< next direction: p = z + beta p
    int stop = cg_running;
    int pad_ = 0;
};

/// Thresholds of the stopping test on r.r (squared, so no square root on the device).
struct CgLimits {
    double rr_tol = 0.0;      ///< (tol * ||b||)^2: stop, the recursive residual met tol
    double rr_diverge = 0.0;  ///< (divergence_limit * ||b||)^2
    int jacobi = 0;           ///< check r.z as well (preconditioned CG)
    int pad_ = 0;
};

/// Finite (not NaN, not +-Inf) without std::isfinite, which is not constexpr.
constexpr bool cg_finite(double v)
{
    return v - v == 0.0;
}

/// After the reduction p.Ap of this iteration: alpha = num / p.Ap (num = rho, or r.p for the
/// first step of a continued solve), or stop on a non-positive or non-finite p.Ap.
constexpr void cg_after_pq(CgScalars& s, double pq, double num)
{
    s.pq = pq;
    if (!(pq > 0.0) || !cg_finite(pq)) {
        s.alpha = 0.0;
        s.stop = cg_stop_pq;
        return;
    }
    s.alpha = num / pq;
}

/// After x += alpha p, r -= alpha q (z = M^-1 r) and the reductions r.r, r.z: the stopping test,
/// then beta = rz / rho and rho = rz for the next direction.
constexpr void cg_after_update(CgScalars& s, double rr, double rz, const CgLimits& lim)
{
    s.rr = rr;
    s.rz = rz;
    if (!cg_finite(rr) || rr <= lim.rr_tol || rr > lim.rr_diverge) {
        s.stop = cg_stop_residual;
        return;
    }
    if (lim.jacobi != 0 && (!(rz > 0.0) || !cg_finite(rz))) {
        s.stop = cg_stop_rz;
        return;
    }
    s.beta = rz / s.rho;
    s.rho = rz;
}

}  // namespace spmv::solvers
