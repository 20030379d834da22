#pragma once
// The GPU backend of the solvers (lib/include/spmv/solvers/cg.hpp): the vectors are
// DeviceVectors that stay on the device for the whole solve (Barbieri §3: the GPU is a
// "magnet"; data stays where it was last written), the matrix is a DeviceMatrix in any format.
// The CG iteration runs as fused kernels whose scalars (alpha, beta, the stop flag) stay on the
// device: p.Ap, then x/r update + Jacobi + r.r/r.z in one pass, then the new direction; each
// iteration's CgScalars are written by the kernel into pinned host memory and read by the host
// one iteration late. On compute capability 9.0+ the step kernels and the fused SpMV + p.q are
// chained launches (programmatic dependent launch, launch.cuh): each is scheduled while the one
// before it finishes and waits for it in its first instruction (SPMV_CG_CHAINED=off: ordinary
// launches, a diagnostic). The SpMV queued after the iteration that stopped skips its pass.
// The other reductions (norms of b and of true residuals) are cub::DeviceReduce calls.
// Sums accumulate in double for both precisions, except in a float backend switched to float
// reductions (use_float_reductions: MPIR-CG's inner CG as Cevahir writes it).
//
// Plain C++ declarations (the definitions are in solver_backend.cu), so that the CG template is
// instantiated with it like with the host backend. Internal to spmv::kernels.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/gpu/device_matrix.hpp>
#include <spmv/gpu/device_vector.hpp>
#include <spmv/gpu/memory.hpp>
#include <spmv/solvers/cg_step.hpp>
#include <spmv/solvers/solve.hpp>

namespace spmv::gpu::detail {

enum class Phase { spmv, vector, reduction, transfer };

/// Time per phase from CUDA events recorded at phase boundaries on the (legacy default) stream:
/// when the solver moves from one kind of work to another, enter() records an event, and the
/// time between two consecutive events is charged to the phase that was running (launch gaps
/// included, so the phases add up to the wall-clock time of the solve). Events are resolved
/// after each synchronising read-back, so the pool stays small.
/// SPMV_SOLVER_PHASES=off records no events (a diagnostic: what the timing itself costs; the
/// phase times then read 0): on an H100, 4-5 us per CG iteration on pde100.
class PhaseClock {
public:
    /// on = false (SolveOptions::phase_times, or SPMV_SOLVER_PHASES=off): enter() records
    /// nothing and every phase time stays 0.
    explicit PhaseClock(bool on);
    bool on() const noexcept { return on_; }
    void enter(Phase p);
    /// Accumulates the intervals whose end event has completed (does not wait).
    void resolve();
    /// Records a final event, waits for it and resolves everything.
    void finish();
    const solvers::PhaseTimes& times() const noexcept { return times_; }

private:
    struct Mark {
        std::size_t event;
        Phase phase;
    };
    std::size_t acquire();

    bool on_;
    std::vector<Event> pool_;
    std::vector<std::size_t> free_;
    std::vector<Mark> chain_;
    solvers::PhaseTimes times_;
};

/// The device-resident state of the fused CG steps.
struct CgDeviceState {
    solvers::CgScalars s;
    solvers::CgLimits limits;
    unsigned int ticket;       ///< blocks done in the running reduction (last one finishes it)
    unsigned int spmv_ticket;  ///< the same for the p.q fused into the SpMV (DotSink)
    double spmv_pq;            ///< p.q from the fused SpMV, read by the update kernel
};

template <typename ValueType>
class GpuBackend {
public:
    using value_type = ValueType;
    using Vector = DeviceVector<ValueType>;

    /// `a` and `clock` must outlive the backend. `order`: RowOrder::permuted for a permuted
    /// format built from A P^T (the operator is then P A P^T, see spmv/solvers/system.hpp).
    GpuBackend(const DeviceMatrix<ValueType>& a, RowOrder order, PhaseClock& clock);

    /// SpMV and residual with the kernel's sums in double (Sums::double_precision) when `on`
    /// and the format's kernel has that path; returns whether they do (always for double).
    bool use_double_sums(bool on);

    /// Dot products, norms and the fused steps' sums (p.Ap, r.p, r.r, r.z) accumulated in float
    /// (products, per-thread sums, block and grid reductions) when `on` and V is float: MPIR-CG's
    /// inner CG as Cevahir writes it (MpirOuter::pcg). The SpMV's fused p.q (which sums in
    /// double) is then not used. Returns whether float reductions are on. Default: double.
    bool use_float_reductions(bool on);
    bool float_reductions() const noexcept { return float_reductions_; }

    /// Jacobi: z = inv_diag .* r (inv_diag in the solver's basis), uploaded once.
    void set_jacobi(std::span<const ValueType> inv_diag);

    Vector new_vector();
    void fill_zero(Vector& v);
    void spmv(const Vector& x, Vector& y);
    void residual(const Vector& b, const Vector& x, Vector& r);
    void precondition(const Vector& r, Vector& z);
    double dot(const Vector& x, const Vector& y);
    double norm2(const Vector& x);
    void xpay(const Vector& x, double alpha, Vector& y);
    void copy(const Vector& x, Vector& y);
    solvers::PhaseTimes times() const { return clock_->times(); }

    // Fused CG steps (cg.hpp): one iteration is queued ahead of the one the host reads.
    /// Iterations queued before one is read: 1, or SPMV_CG_LOOKAHEAD (1..16), a diagnostic:
    /// 3 measured 2-6 % slower than 1 on pde100/pde150 (the host is not what the GPU waits on).
    const int lookahead;
    void cg_begin(double rho, const solvers::CgLimits& limits);
    /// q = A p; with a format that has a fused dot (DeviceMatrix::has_dot) p.q is summed in the
    /// same kernel, and cg_alpha (without r) then launches nothing: the update kernel takes
    /// alpha = rho / p.q itself. SPMV_CG_FUSED_PQ=off turns this off (a diagnostic).
    void cg_spmv(const Vector& p, Vector& q);
    void cg_alpha(const Vector& p, const Vector& q, const Vector* r);
    void cg_update(const Vector& p, const Vector& q, Vector& x, Vector& r, Vector* z);
    void cg_direction(const Vector& z, Vector& p);
    void cg_iteration(int iteration);
    solvers::CgScalars cg_read(int iteration);

    /// Mixed precision, on the double backend: dst = float(scale * src).
    void demote(const Vector& src, double scale, DeviceVector<float>& dst);
    /// Mixed precision, on the double backend: x = x + scale * double(d).
    void promote_add(const DeviceVector<float>& d, double scale, Vector& x);

private:
    double reduce_read_back();
    double reduce_read_back_float();  // result_ holds a float (use_float_reductions)

    const DeviceMatrix<ValueType>* a_;
    RowOrder order_;
    Sums sums_ = Sums::value_type;
    bool float_reductions_ = false;  // use_float_reductions
    PhaseClock* clock_;
    std::size_t n_;
    DeviceBuffer<ValueType> inv_diag_;
    DeviceBuffer<std::byte> temp_;  // cub::DeviceReduce temporary storage
    DeviceBuffer<double> result_;   // the reduced scalar on the device
    PinnedBuffer<double> host_result_;

    // > lookahead + 1: a slot is read before it is reused
    std::size_t record_slots() const noexcept { return static_cast<std::size_t>(lookahead) + 3; }
    unsigned alpha_blocks_ = 1;   // grids of the fused reductions: one resident wave, fixed for
    unsigned update_blocks_ = 1;  // the backend's life, so every sum is bitwise reproducible
    unsigned update_jacobi_blocks_ = 1;
    unsigned alpha_blocks_float_ = 1;  // the same for the float-accumulating kernels
    unsigned update_blocks_float_ = 1;
    unsigned update_jacobi_blocks_float_ = 1;
    DeviceBuffer<CgDeviceState> cg_state_;
    DeviceBuffer<double> partials_;             // two per block of the fused reductions
    DeviceBuffer<double> spmv_partials_;        // one per block of the fused SpMV's p.q
    // the last cg_spmv summed p.q and no alpha kernel ran since: cg_update computes alpha
    bool alpha_from_spmv_ = false;
    PinnedBuffer<solvers::CgScalars> records_;  // written by the kernels (pinned, zero copy)
    std::size_t slot_ = 0;                      // record of the iteration being queued
    std::vector<Event> record_events_;
};

}  // namespace spmv::gpu::detail
