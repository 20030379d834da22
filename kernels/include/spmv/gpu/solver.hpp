#pragma once
/// Solvers on the GPU: CG (plain or Jacobi) with any storage format that has a GPU kernel, and
/// mixed-precision iterative refinement CG (double outer loop, float inner CG, all on the GPU).
/// Plain C++: callable from code compiled without nvcc. The algorithms are the same templates
/// as on the host (spmv/solvers/cg.hpp), run with a GPU backend whose vectors stay on the
/// device for the whole solve: b and the initial x are uploaded once, x is downloaded once,
/// and per iteration only the 8-byte results of the reductions come back (Barbieri §3).
///
///   std::vector<double> x(n, 0.0);
///   auto r = spmv::gpu::solve_gpu(a, b, x, spmv::solvers::Method::mpir_cg, "pjds");
///   // r.status, r.iterations, r.inner_iterations, r.outer_iterations,
///   // r.final_relative_residual (recomputed in double on the host), r.times (per phase)
#include <cstdint>
#include <span>
#include <string_view>

#include <spmv/formats/csr.hpp>
#include <spmv/registry.hpp>
#include <spmv/solvers/solve.hpp>

namespace spmv::gpu {

/// Solves A x = b on the current GPU with `format` (a permuted one runs in its permuted basis:
/// b permuted once on the host before the upload, x un-permuted once after the download;
/// see spmv/solvers/system.hpp). `variant` picks a GPU kernel variant of that format by name
/// (spmv::gpu::kernel_variants(), e.g. "csr_vector"); empty picks the default one.
/// x holds the initial guess on entry and the solution on return.
///
/// Times: setup_ms = building the format(s) on the host + uploading the matrix (not in
/// total_ms); total_ms = permuting and uploading b and x, the iterations, downloading and
/// un-permuting x; times.* split total_ms by phase with CUDA events at phase boundaries
/// (spmv, vector updates, reductions including their read-back, transfers). bytes_to_device /
/// bytes_to_host count the vector traffic (b and x only: the solve never moves a vector
/// otherwise). `where` is the device's name. Dot products and norms accumulate in double in
/// both precisions, except in the inner CG of MpirOuter::pcg (Cevahir as written), which runs in
/// float throughout: float SpMV sums, float dot products, norms and fused-step reductions
/// (SolveResult::inner_float_reductions).
///
/// Throws NotCompiled in a build without CUDA, spmv::Error when no device is present,
/// InvalidArgument for an unknown format/variant or bad sizes, OutOfDeviceMemory when the
/// matrix does not fit. Numerical failures are reported in the status, never thrown.
solvers::SolveResult solve_gpu(const Csr<double, std::int32_t>& a, std::span<const double> b,
                               std::span<double> x, solvers::Method method,
                               std::string_view format = "csr", const FormatParams& params = {},
                               const solvers::SolveOptions& options = {},
                               std::string_view variant = {});

}  // namespace spmv::gpu
