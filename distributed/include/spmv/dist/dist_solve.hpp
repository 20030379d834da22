#pragma once
/// Distributed CG, Jacobi-CG and MPIR-CG: the solvers of spmv/solvers/cg.hpp, written once
/// against a backend of vector operations, run unchanged on a backend whose vectors are each
/// rank's own entries, whose SpMV is DistMatrix::apply in one of the three modes, and whose
/// dot products end in MPI_Allreduce (Cevahir et al. §3.3: rows and vector entries spread over
/// the GPUs, input vector entries exchanged before every SpMV, scalars reduced twice per
/// iteration; MPIR-CG's inner CG in float on the GPUs, refinement in double). GPU ranks whose
/// matrix exchanges through NCCL reduce on the device instead (ncclAllReduce,
/// DistSolveOptions::device_reductions).
///
/// Host ranks keep their vectors in std::vector, GPU ranks on their device (the SpMV input is
/// "ghosted": own entries followed by the halo, so the exchange writes straight into it). The
/// iteration count equals the single-process solve's up to rounding (the sums of the dot
/// products are split over ranks and added in a different order: ±1 iteration).
///
/// MPIR-CG's two outer loops (SolveOptions::mpir_outer) run here as in the single-process
/// solvers. MpirOuter::pcg (Cevahir as written) runs the inner CG with float SpMV sums, and on
/// host ranks with float dot products and reductions (each rank's float partial sum, the sum
/// over ranks rounded to float). GPU ranks keep double accumulation in their dot products
/// (spmv::gpu::DotEngine has no float accumulator yet): SolveResult::inner_float_reductions
/// says which ran.
#include <span>

#include <spmv/dist/dist_matrix.hpp>
#include <spmv/dist/timeline.hpp>
#include <spmv/solvers/solve.hpp>

namespace spmv::dist {

struct DistSolveOptions {
    Mode mode = Mode::task;       ///< how each SpMV exchanges its halo
    /// Record every SpMV and every reduction into this timeline (this rank's events).
    Timeline* timeline = nullptr;
    /// GPU ranks of a matrix with exchange path "nccl" (DistOptions::exchange): CG's dot
    /// products are summed over the ranks by ncclAllReduce on device scalars and alpha, beta
    /// and the stopping test are decided on the device, so the host only queues an iteration's
    /// reductions and reads its scalars one iteration late (the solver stops exactly at the
    /// iteration that met the tolerance: the device's stop flag makes the steps queued after it
    /// no-ops). false: MPI_Allreduce on host scalars, as on every other path (a diagnostic; the
    /// environment variable SPMV_DIST_REDUCTIONS=mpi does the same for `spmvlab dist solve`).
    /// Host ranks and the other exchange paths always reduce through MPI. The norms outside
    /// the iterations (||b||, true residuals) go through MPI either way.
    bool device_reductions = true;
};

/// Collective. Solves A x = b with b_own / x_own this rank's entries (x_own holds the initial
/// guess); `a` on host or GPU ranks (DistOptions::gpu). For Method::mpir_cg a float copy of
/// the matrix is built on the same partition (counted in setup_ms). The result is the same on
/// every rank; final_relative_residual is the true ||b - A x|| / ||b|| in double, computed with
/// the distributed double SpMV.
solvers::SolveResult solve(DistMatrix<double>& a, std::span<const double> b_own,
                           std::span<double> x_own, solvers::Method method,
                           const solvers::SolveOptions& options = {},
                           const DistSolveOptions& dist = {});

}  // namespace spmv::dist
