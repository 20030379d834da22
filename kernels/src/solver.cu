// solve_gpu: the GPU driver of CG and MPIR-CG. The algorithms are lib's templates
// (spmv/solvers/cg.hpp) instantiated with the GPU backend (solver_backend.hpp).
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <spmv/error.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/gpu/device_matrix.hpp>
#include <spmv/gpu/device_vector.hpp>
#include <spmv/gpu/memory.hpp>
#include <spmv/gpu/permutation.hpp>
#include <spmv/gpu/solver.hpp>
#include <spmv/solvers/cg.hpp>
#include <spmv/solvers/system.hpp>

#include "solver_backend.hpp"

namespace spmv::gpu {
namespace {

using solvers::Method;
using solvers::SolveOptions;
using solvers::SolveResult;
using solvers::Status;

double ms_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

SolveResult solve_gpu(const Csr<double, std::int32_t>& a, std::span<const double> b,
                      std::span<double> x, Method method, std::string_view format,
                      const FormatParams& params, const SolveOptions& options,
                      std::string_view variant)
{
    SPMV_EXPECTS(a.num_rows == a.num_cols, "the solvers need a square matrix");
    check_spmv_dims(a.num_rows, a.num_cols, x.size(), b.size());
    SPMV_EXPECTS(options.tol >= 0.0, "tol must be >= 0");
    SPMV_EXPECTS(options.max_iterations >= 0, "max_iterations must be >= 0");
    if (device_count() == 0) {
        SPMV_THROW(Error, "no CUDA device is available (driver missing or no GPU)");
    }
    const std::string device_name = device_info().name;

    // ---- setup: formats on the host, assembled on the device once ----
    const auto t_setup = std::chrono::steady_clock::now();
    solvers::OperatorPlan plan = solvers::plan_operator(a, format, params);
    SolveResult res;
    res.format = plan.format;
    res.permuted_basis = !plan.perm.empty();
    res.where = device_name;
    std::vector<double> inv_diag;
    if (options.jacobi) {
        std::string problem;
        inv_diag = solvers::jacobi_inverse_diagonal(a, plan.perm, problem);
        if (inv_diag.empty()) {
            res.status = problem.find("NaN") != std::string::npos ? Status::breakdown_nan
                                                                  : Status::breakdown_indefinite;
            res.message = problem;
            res.setup_ms = ms_since(t_setup);
            res.final_relative_residual = solvers::relative_residual(a, b, x);
            return res;
        }
    }
    const DeviceMatrix<double> a_double = assemble(plan.matrix, variant);
    std::optional<DeviceMatrix<float>> a_float;
    if (method == Method::mpir_cg) {
        a_float.emplace(assemble(solvers::build_float_operator(plan, a), variant));
    }
    detail::PhaseClock clock(options.phase_times);
    detail::GpuBackend<double> outer(a_double, plan.order, clock);
    std::optional<detail::GpuBackend<float>> inner;
    bool inner_double_sums = false;
    bool inner_float_reductions = false;
    if (a_float) {
        inner.emplace(*a_float, plan.order, clock);
        // Cevahir as written (MpirOuter::pcg): the inner CG in float throughout (float SpMV
        // sums, float dot products and reductions); the project's refinement keeps double sums
        const bool as_written = options.mpir_outer == solvers::MpirOuter::pcg;
        inner_double_sums = inner->use_double_sums(options.inner.double_sums && !as_written);
        inner_float_reductions = inner->use_float_reductions(as_written);
    }
    if (options.jacobi) {
        outer.set_jacobi(inv_diag);
        if (inner) {
            const std::vector<float> inv_float(inv_diag.begin(), inv_diag.end());
            inner->set_jacobi(inv_float);
        }
    }
    // A permuted format solves in its permuted basis: P b and P x0 are formed on the device,
    // x = P^T x' too, with the permutation uploaded once here.
    const bool permuted = !plan.perm.empty();
    DeviceBuffer<std::int32_t> perm_dev;
    if (permuted) {
        perm_dev = DeviceBuffer<std::int32_t>::from_host(plan.perm, "solver permutation");
    }
    // The caller's b and x are page-locked for the solve (undone when it returns), so that the
    // timed transfers are direct DMA rather than pageable copies staged by the driver (on the
    // benchmarks' H100: ~5 GB/s pageable; pinning costs time of its own, counted here in setup).
    const HostPin b_pin(b.data(), b.size_bytes());
    const HostPin x_pin(x.data(), x.size_bytes());
    synchronize();
    const double setup_ms = ms_since(t_setup);

    // ---- solve: b and x go up once (straight from the caller's memory), x comes down once ----
    const auto t_solve = std::chrono::steady_clock::now();
    const auto n = static_cast<std::int32_t>(a.num_rows);
    clock.enter(detail::Phase::transfer);
    auto b_dev = DeviceVector<double>::uploaded(b);
    auto x_dev = DeviceVector<double>::uploaded(x);
    std::optional<DeviceVector<double>> b_basis, x_basis;
    if (permuted) {
        clock.enter(detail::Phase::vector);
        b_basis.emplace(DeviceVector<double>::on_device(b.size()));
        x_basis.emplace(DeviceVector<double>::on_device(x.size()));
        permute_rows(perm_dev.data(), b_dev.read_device(), b_basis->device_for_overwrite(), n);
        permute_rows(perm_dev.data(), x_dev.read_device(), x_basis->device_for_overwrite(), n);
    }
    const std::string where = res.where;
    DeviceVector<double>& bs = permuted ? *b_basis : b_dev;
    DeviceVector<double>& xs = permuted ? *x_basis : x_dev;
    res = method == Method::cg ? solvers::cg(outer, bs, xs, options)
                               : solvers::mpir_cg(outer, *inner, bs, xs, options);
    if (permuted) {
        clock.enter(detail::Phase::vector);
        unpermute_rows(perm_dev.data(), x_basis->read_device(), x_dev.device_for_overwrite(), n);
    }
    clock.enter(detail::Phase::transfer);
    x_dev.copy_to(x);
    clock.finish();
    res.total_ms = ms_since(t_solve);

    res.setup_ms = setup_ms;
    res.times = clock.times();
    res.phase_times = clock.on();
    res.bytes_to_device = b_dev.bytes_to_device() + x_dev.bytes_to_device();
    res.bytes_to_host = b_dev.bytes_to_host() + x_dev.bytes_to_host();
    res.format = plan.format;
    res.permuted_basis = !plan.perm.empty();
    res.inner_double_sums = inner_double_sums;
    res.inner_float_reductions = inner_float_reductions;
    res.pinned_transfers = b_pin.pinned() && x_pin.pinned();
    res.where = where;
    solvers::check_final_residual(res, a, b, x, options.tol);
    return res;
}

}  // namespace spmv::gpu
