#pragma once
/// The device half of distributed CG whose reductions stay on the device (spmv::dist's solver
/// backend over NCCL, distributed/src/dist_solve.cpp): CG's scalars (alpha, beta, rho, the stop
/// flag: solvers::CgScalars) live in device memory; each reduction step writes this rank's two
/// partial sums to sums() (device memory), the caller queues the sum over the ranks in place
/// (ncclAllReduce on the same stream), and the next scalar step reads the reduced sums there and
/// decides with the same lines of code as every other backend (solvers/cg_step.hpp). Nothing
/// returns to the host but each iteration's record, written by the device into page-locked
/// memory, which the host reads one iteration late (cg.hpp's lookahead). Plain C++
/// (kernels/src/dist_cg.cu; kernels/src/stubs_dist_cg.cpp throws spmv::NotCompiled without
/// CUDA). No NCCL here: the kernels do not know how the sums are reduced.
///
///   steps.alpha_sums(p, q, nullptr, n, s);  nccl.allreduce_sum(steps.sums(), 2, s);
///   steps.alpha(false, slot, s);            // alpha = rho / p.q, or stop (record written)
///   steps.update_sums(p, q, x, r, d, z, n, s);  nccl.allreduce_sum(steps.sums(), 2, s);
///   steps.after_update(slot, s);            // the stop test, beta, rho (record written)
///   steps.direction(z, p, n, s);            // p = z + beta p
///
/// Once a step sets the stop flag, every step after it does nothing until begin() (the sums
/// steps write nothing either, so the allreduce in between adds stale values nobody reads).
///
/// The rank-local sums have DotEngine's arithmetic and grid (spmv/gpu/vector_ops.hpp: one
/// resident wave of 256-thread blocks, grid-stride over 16-byte chunks, partials added in block
/// order by the last block; the same update pass as DotEngine::cg_update): with the same grid
/// they give the same bits as the MPI backend's DotEngine sums, so with two ranks (a + b either
/// way) both backends take the same alpha and beta and stop at the same iteration.
#include <cstddef>
#include <cstdint>
#include <utility>

#include <spmv/gpu/memory.hpp>
#include <spmv/solvers/cg_step.hpp>

namespace spmv::gpu {

template <typename ValueType>
class DistCgSteps {
public:
    /// Allocates the state, the sums and the reduction scratch on the current device and
    /// `record_slots` records in page-locked host memory (throws NotCompiled without CUDA).
    explicit DistCgSteps(std::size_t record_slots);
    DistCgSteps(DistCgSteps&&) noexcept = default;
    DistCgSteps& operator=(DistCgSteps&&) noexcept = default;
    DistCgSteps(const DistCgSteps&) = delete;
    DistCgSteps& operator=(const DistCgSteps&) = delete;
    ~DistCgSteps() = default;

    /// The two rank-local sums of the last sums step (device memory), to be reduced over the
    /// ranks in place, on the same stream, before the next scalar step.
    double* sums() noexcept { return sums_.data(); }

    /// A new CG run: rho, the stop flag cleared, the limits. Waits for `stream` (rare: at the
    /// start and at a residual replacement).
    void begin(double rho, const solvers::CgLimits& limits, StreamRef stream);
    /// sums = {p.q, r.p} (r.p = 0 without r). Nothing once stopped.
    void alpha_sums(const ValueType* p, const ValueType* q, const ValueType* r, std::int64_t n,
                    StreamRef stream);
    /// solvers::cg_after_pq on the reduced sums: alpha = (line_search ? r.p : rho) / p.q, or
    /// the stop flag, then the record written into `slot`. Nothing once stopped.
    void alpha(bool line_search, std::size_t slot, StreamRef stream);
    /// x += alpha p, r -= alpha q, with inv_diag z = inv_diag .* r (both or neither given);
    /// sums = {r.r, r.z} (r.z = r.r without inv_diag). alpha rounded to ValueType. Nothing once
    /// stopped.
    void update_sums(const ValueType* p, const ValueType* q, ValueType* x, ValueType* r,
                     const ValueType* inv_diag, ValueType* z, std::int64_t n, StreamRef stream);
    /// solvers::cg_after_update on the reduced sums (the stop test, beta, rho), then the
    /// record written into `slot`. Nothing once stopped.
    void after_update(std::size_t slot, StreamRef stream);
    /// p = z + beta p (beta rounded to ValueType, as gpu::xpay). Nothing once stopped.
    void direction(const ValueType* z, ValueType* p, std::int64_t n, StreamRef stream);
    /// The record of `slot`, as the device wrote it (the caller waits for the step first).
    const solvers::CgScalars& record(std::size_t slot) const;
    std::size_t record_slots() const noexcept { return records_.size(); }

private:
    unsigned blocks_for(std::int64_t n) const;

    struct State {
        solvers::CgScalars s;
        solvers::CgLimits limits;
    };
    DeviceBuffer<State> state_;
    DeviceBuffer<double> sums_;       ///< two doubles
    DeviceBuffer<double> partials_;   ///< two doubles per block
    DeviceBuffer<unsigned> ticket_;   ///< 0 between launches
    PinnedBuffer<State> staging_;     ///< begin()'s upload
    PinnedBuffer<solvers::CgScalars> records_;
    unsigned max_blocks_ = 0;
};

}  // namespace spmv::gpu
