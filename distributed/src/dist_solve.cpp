// The distributed solver backends: every vector operation on this rank's entries, every
// reduction finished by an allreduce over the ranks, every SpMV a DistMatrix::apply. GPU ranks
// of a matrix with exchange path "nccl" keep CG's scalars on the device and reduce them with
// ncclAllReduce (GpuDistBackend, "device reductions"); all others reduce host scalars with
// MPI_Allreduce.
#include <algorithm>
#include <array>
#include <optional>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <spmv/dist/dist_solve.hpp>
#include <spmv/error.hpp>
#include <spmv/gpu/dist_cg.hpp>
#include <spmv/gpu/memory.hpp>
#include <spmv/gpu/vector_ops.hpp>
#include <spmv/solvers/cg.hpp>
#include <spmv/solvers/host_backend.hpp>

#include "device_rank.hpp"

namespace spmv::dist {

namespace {

using Clock = std::chrono::steady_clock;
using solvers::CgLimits;
using solvers::CgScalars;
using solvers::PhaseTimes;

/// Adds the lifetime of the object to a phase counter (milliseconds).
class Timer {
public:
    explicit Timer(double& acc) : acc_(acc), t0_(Clock::now()) {}
    ~Timer() { acc_ += std::chrono::duration<double, std::milli>(Clock::now() - t0_).count(); }
    Timer(const Timer&) = delete;
    Timer& operator=(const Timer&) = delete;

private:
    double& acc_;
    Clock::time_point t0_;
};

/// What the two backends share: the matrix, the mode, the sums over ranks, the CG scalars.
template <typename ValueType>
class DistBackendBase {
public:
    using value_type = ValueType;
    static constexpr int lookahead = 0;  // the scalars come back every iteration (allreduce)

    DistBackendBase(DistMatrix<ValueType>& a, const DistSolveOptions& o)
        : a_(&a), opt_(o), n_(static_cast<std::size_t>(a.own_rows()))
    {
        SPMV_EXPECTS(a.part().global_rows == a.part().global_cols,
                     "the solvers need a square matrix");
    }
    const PhaseTimes& times() const noexcept { return times_; }

    void cg_begin(double rho, const CgLimits& limits)
    {
        s_ = CgScalars{};
        s_.rho = rho;
        limits_ = limits;
    }
    void cg_iteration(int iteration) { slot_ = static_cast<std::size_t>(iteration) % records_.size(); }
    CgScalars cg_read(int iteration) const
    {
        return records_[static_cast<std::size_t>(iteration) % records_.size()];
    }
    /// The diagonal of this rank's rows (square matrix, x partitioned like y: row i's diagonal
    /// entry is local column i of the local block), inverted for Jacobi.
    std::vector<ValueType> inverse_diagonal() const
    {
        std::vector<ValueType> d(n_, ValueType{0});
        for (const auto& c : chunk_views(a_->part())) {  // row chunks (ours, issue 36)
            const auto& l = *c.local;
            for (std::int32_t i = 0; i < l.num_rows; ++i) {
                const auto row = c.first_row + i;  // its diagonal: local column `row`
                for (auto k = l.row_ptrs[i]; k < l.row_ptrs[i + 1]; ++k) {
                    if (l.col_idxs[static_cast<std::size_t>(k)] == row) {
                        d[static_cast<std::size_t>(row)] = l.values[static_cast<std::size_t>(k)];
                    }
                }
            }
        }
        for (auto& v : d) {
            v = v != ValueType{0} ? ValueType{1} / v : ValueType{1};
        }
        return d;
    }

protected:
    /// Sums over ranks (MPI_Allreduce), recorded as a reduce phase of the SpMV it follows (so
    /// that a CG iteration's SpMV and its two allreduces share an iteration number).
    void allreduce(std::span<double> v)
    {
        const double b = now_us();
        {
            Timer t(times_.reduction_ms);
            a_->comm().allreduce_sum(v);
        }
        if (opt_.timeline != nullptr) {
            opt_.timeline->events.push_back(
                {a_->comm().rank(), Lane::compute, Phase::reduce, std::max(0, spmv_count_ - 1),
                 b, now_us()});
        }
    }
    double now_us() const
    {
        return std::chrono::duration<double, std::micro>(Clock::now() - t0_).count();
    }
    void after_pq(double pq, double num)
    {
        solvers::cg_after_pq(s_, pq, num);
        if (s_.stop != solvers::cg_running) {
            records_[slot_] = s_;
        }
    }
    void after_update(double rr, double rz)
    {
        solvers::cg_after_update(s_, rr, rz, limits_);
        records_[slot_] = s_;
    }

    DistMatrix<ValueType>* a_;
    DistSolveOptions opt_;
    std::size_t n_;
    PhaseTimes times_;
    CgScalars s_;
    CgLimits limits_;
    std::array<CgScalars, 4> records_{};
    std::size_t slot_ = 0;
    int spmv_count_ = 0;
    Clock::time_point t0_ = Clock::now();
};

// ---- host ranks -------------------------------------------------------------------------------

template <typename ValueType>
class HostDistBackend : public DistBackendBase<ValueType> {
    using Base = DistBackendBase<ValueType>;
    using Base::a_;
    using Base::n_;
    using Base::times_;
    using Base::s_;

public:
    /// Ghosted: own entries, then room for the halo (written by the exchange, never part of
    /// the vector's value).
    using Vector = std::vector<ValueType>;

    HostDistBackend(DistMatrix<ValueType>& a, const DistSolveOptions& o) : Base(a, o) {}
    void set_jacobi() { inv_diag_ = this->inverse_diagonal(); }
    /// MPIR-CG as Cevahir writes it (MpirOuter::pcg): this rank's dot products and the fused
    /// steps' sums accumulate in ValueType (float), and the sum over the ranks is rounded to
    /// ValueType (the allreduce adds the float partials in double: for 2 ranks that is exactly
    /// the float sum, for more it rounds once instead of at every step of a tree).
    bool set_float_reductions(bool on)
    {
        float_reductions_ = on && std::is_same_v<ValueType, float>;
        return float_reductions_;
    }

    Vector new_vector() const { return Vector(static_cast<std::size_t>(a_->ghosted_size()), ValueType{0}); }
    void fill_zero(Vector& v)
    {
        Timer t(times_.vector_ms);
        std::fill(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n_), ValueType{0});
    }
    void spmv(const Vector& x, Vector& y)
    {
        Timer t(times_.spmv_ms);
        // the halo tail of x is the exchange's scratch space, not part of x's value
        auto& xg = const_cast<Vector&>(x);
        a_->apply_ghosted(this->opt_.mode, std::span<ValueType>(xg),
                          std::span<ValueType>(y.data(), n_), this->opt_.timeline,
                          this->spmv_count_++);
    }
    void residual(const Vector& b, const Vector& x, Vector& r)
    {
        spmv(x, r);
        Timer t(times_.vector_ms);
        for (std::size_t i = 0; i < n_; ++i) {
            r[i] = b[i] - r[i];
        }
    }
    void precondition(const Vector& r, Vector& z)
    {
        SPMV_EXPECTS(inv_diag_.size() == n_, "precondition() needs set_jacobi() first");
        Timer t(times_.vector_ms);
        for (std::size_t i = 0; i < n_; ++i) {
            z[i] = inv_diag_[i] * r[i];
        }
    }
    double dot(const Vector& x, const Vector& y)
    {
        std::array<double, 1> s{0.0};
        {
            Timer t(times_.reduction_ms);
            if (float_reductions_) {
                ValueType f{0};
                for (std::size_t i = 0; i < n_; ++i) {
                    f += x[i] * y[i];
                }
                s[0] = static_cast<double>(f);
            } else {
                for (std::size_t i = 0; i < n_; ++i) {
                    s[0] += static_cast<double>(x[i]) * static_cast<double>(y[i]);
                }
            }
        }
        this->allreduce(s);
        round_sums(s);
        return s[0];
    }
    double norm2(const Vector& x) { return std::sqrt(dot(x, x)); }
    void xpay(const Vector& x, double alpha, Vector& y)
    {
        Timer t(times_.vector_ms);
        const auto a = static_cast<ValueType>(alpha);
        for (std::size_t i = 0; i < n_; ++i) {
            y[i] = x[i] + a * y[i];
        }
    }
    void copy(const Vector& x, Vector& y)
    {
        Timer t(times_.vector_ms);
        std::copy(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n_), y.begin());
    }
    /// This rank's entries in and out of a (ghosted) vector.
    void upload(std::span<const ValueType> h, Vector& v) { std::copy(h.begin(), h.end(), v.begin()); }
    void download(const Vector& v, std::span<ValueType> h)
    {
        std::copy(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(h.size()), h.begin());
    }
    void cg_spmv(const Vector& p, Vector& q) { spmv(p, q); }
    void cg_alpha(const Vector& p, const Vector& q, const Vector* r)
    {
        if (s_.stop != solvers::cg_running) {
            return;
        }
        std::array<double, 2> s{0.0, 0.0};
        {
            Timer t(times_.reduction_ms);
            const auto [pq, rp] = float_reductions_
                                      ? solvers::cg_pq_sums<ValueType>(n_, p, q, r)
                                      : solvers::cg_pq_sums<double>(n_, p, q, r);
            s = {pq, rp};
        }
        this->allreduce(s);
        round_sums(s);
        this->after_pq(s[0], r != nullptr ? s[1] : s_.rho);
    }
    void cg_update(const Vector& p, const Vector& q, Vector& x, Vector& r, Vector* z)
    {
        if (s_.stop != solvers::cg_running) {
            return;
        }
        std::array<double, 2> s{0.0, 0.0};
        {
            Timer t(times_.vector_ms);
            const auto alpha = static_cast<ValueType>(s_.alpha);
            const auto [rr, rz] =
                float_reductions_
                    ? solvers::cg_update_sums<ValueType>(n_, alpha, p, q, x, r, inv_diag_, z)
                    : solvers::cg_update_sums<double>(n_, alpha, p, q, x, r, inv_diag_, z);
            s = {rr, rz};
        }
        this->allreduce(s);
        round_sums(s);
        this->after_update(s[0], z != nullptr ? s[1] : s[0]);
    }
    void cg_direction(const Vector& z, Vector& p)
    {
        if (s_.stop == solvers::cg_running) {
            xpay(z, s_.beta, p);
        }
    }
    template <typename Low>
    void demote(const Vector& src, double scale, std::vector<Low>& dst)
    {
        Timer t(times_.vector_ms);
        for (std::size_t i = 0; i < n_; ++i) {
            dst[i] = static_cast<Low>(scale * static_cast<double>(src[i]));
        }
    }
    template <typename Low>
    void promote_add(const std::vector<Low>& d, double scale, Vector& x)
    {
        Timer t(times_.vector_ms);
        for (std::size_t i = 0; i < n_; ++i) {
            x[i] += static_cast<ValueType>(scale * static_cast<double>(d[i]));
        }
    }

private:
    /// The ranks' float partials were added in double by the allreduce: round to ValueType.
    template <std::size_t n>
    void round_sums(std::array<double, n>& s) const
    {
        if (float_reductions_) {
            for (auto& v : s) {
                v = static_cast<double>(static_cast<ValueType>(v));
            }
        }
    }

    std::vector<ValueType> inv_diag_;
    bool float_reductions_ = false;
};

// ---- GPU ranks --------------------------------------------------------------------------------

/// Whether GPU ranks reduce CG's scalars on the device (DistSolveOptions::device_reductions;
/// SPMV_DIST_REDUCTIONS=mpi turns it off, a diagnostic for `spmvlab dist solve`, whose CLI has
/// no option for it: the same NCCL exchange with the reductions through the host).
bool device_reductions(const DistMatrix<double>& a, const DistSolveOptions& o)
{
    if (!a.on_gpu() || a.options().exchange != "nccl" || !o.device_reductions) {
        return false;
    }
    const char* env = std::getenv("SPMV_DIST_REDUCTIONS");
    return env == nullptr || std::string(env) != "mpi";
}

/// GPU ranks. Two ways to finish CG's reductions:
///  - MPI (every exchange path but nccl): each fused step's rank-local sums come back to the
///    host (DotEngine, which waits for the device), MPI_Allreduce adds them, the host decides
///    alpha and beta (cg_step.hpp) and queues the next step with them: two host round trips per
///    iteration, and the cg() driver reads every iteration at once (lookahead 0);
///  - on the device (exchange path nccl, DistSolveOptions::device_reductions): the sums stay
///    in device memory (gpu::DistCgSteps), ncclAllReduce adds them in place on the rank's
///    compute stream, the same cg_step.hpp functions decide alpha, beta and the stop flag in a
///    one-thread kernel, and the host only queues: no host round trip inside an iteration's
///    reductions. The host reads each iteration's scalars one iteration late (lookahead 1, as
///    the single-GPU solver): iteration it + 1 is queued before iteration it's record is read,
///    and when it stopped, the device's stop flag turns the steps of it + 1 into no-ops (only
///    its SpMV runs, recomputing q = A p), so the iteration count and the residual reported are
///    exactly those of the iteration that met the tolerance, as with MPI. What still waits on
///    the host each iteration is the distributed SpMV itself, whose product ends with a
///    synchronize of the compute stream (RankBlocks::end).
/// The rank-local sums have the same bits on both ways (DistCgSteps runs DotEngine's
/// arithmetic on its grid); with two ranks MPI and NCCL both add a + b, so both take the same
/// iterations; with more, the ranks' sums may be added in another order (±1 iteration).
template <typename ValueType>
class GpuDistBackend : public DistBackendBase<ValueType> {
    using Base = DistBackendBase<ValueType>;
    using Base::a_;
    using Base::n_;
    using Base::times_;
    using Base::s_;

public:
    /// Ghosted device vector (own entries, then the halo).
    using Vector = gpu::DeviceBuffer<ValueType>;

    /// Iterations queued before one is read: 1 with device reductions, else 0 (cg.hpp).
    const int lookahead;

    GpuDistBackend(DistMatrix<ValueType>& a, const DistSolveOptions& o, bool on_device)
        : Base(a, o), lookahead(on_device ? 1 : 0)
    {
        if (on_device) {
            device_ = a.device_rank();
            SPMV_EXPECTS(device_ != nullptr, "device reductions need GPU ranks");
            SPMV_EXPECTS(a.comm().size() == 1 || device_->nccl,
                         "device reductions need the matrix's NCCL communicator (exchange nccl)");
            steps_.emplace(std::size_t{4});  // > lookahead + 1: a record is read before reuse
            events_.resize(4);
        }
    }
    /// Whether CG's reductions run on the device (NCCL).
    bool on_device() const noexcept { return steps_.has_value(); }
    /// Not available on GPU ranks: their dot products and fused-step sums are
    /// spmv::gpu::DotEngine's (kernels/src/vector_ops.cu, the public BLAS-1 API), which
    /// accumulate in double for both precisions; a float accumulator there is the same
    /// Acc = float template as the single-GPU solver backend's (kernels/src/solver_backend.cu),
    /// not done yet. So on GPU ranks `dist solve --outer pcg` runs float SpMV with float sums
    /// but double dot products, and says so (SolveResult::inner_float_reductions = false).
    bool set_float_reductions(bool /*on*/) { return false; }
    void set_jacobi()
    {
        const auto d = this->inverse_diagonal();
        inv_diag_ = gpu::DeviceBuffer<ValueType>::from_host(d, "Jacobi diagonal");
    }
    std::int64_t n() const { return static_cast<std::int64_t>(n_); }

    Vector new_vector() const
    {
        Vector v(static_cast<std::size_t>(a_->ghosted_size()), "solver vector");
        v.fill(ValueType{0});
        return v;
    }
    void fill_zero(Vector& v)
    {
        Timer t(times_.vector_ms);
        if (n_ > 0) {
            gpu::detail::memset_bytes(v.data(), 0, n_ * sizeof(ValueType));
        }
    }
    void spmv(const Vector& x, Vector& y)
    {
        Timer t(times_.spmv_ms);
        auto& xg = const_cast<Vector&>(x);  // the halo tail is the exchange's scratch space
        a_->apply_device_ghosted(this->opt_.mode, xg.data(), y.data(), this->opt_.timeline,
                                 this->spmv_count_++);
    }
    void residual(const Vector& b, const Vector& x, Vector& r)
    {
        spmv(x, r);  // r = A x
        Timer t(times_.vector_ms);
        gpu::xpay(b.data(), -1.0, r.data(), n());  // r = b - r
    }
    void precondition(const Vector& r, Vector& z)
    {
        Timer t(times_.vector_ms);
        gpu::multiply(inv_diag_.data(), r.data(), z.data(), n());
    }
    double dot(const Vector& x, const Vector& y)
    {
        std::array<double, 1> s{0.0};
        {
            Timer t(times_.reduction_ms);
            s[0] = dots_.dot(x.data(), y.data(), n());
        }
        this->allreduce(s);
        return s[0];
    }
    double norm2(const Vector& x) { return std::sqrt(dot(x, x)); }
    void xpay(const Vector& x, double alpha, Vector& y)
    {
        Timer t(times_.vector_ms);
        gpu::xpay(x.data(), alpha, y.data(), n());
    }
    void copy(const Vector& x, Vector& y)
    {
        Timer t(times_.vector_ms);
        if (n_ > 0) {
            gpu::detail::copy_bytes_async(y.data(), x.data(), n_ * sizeof(ValueType),
                                          gpu::detail::CopyKind::device_to_device, {});
        }
    }
    void cg_spmv(const Vector& p, Vector& q) { spmv(p, q); }
    void cg_begin(double rho, const CgLimits& limits)
    {
        Base::cg_begin(rho, limits);
        if (steps_) {
            steps_->begin(rho, limits, stream());
        }
    }
    void cg_iteration(int iteration)
    {
        Base::cg_iteration(iteration);
        if (steps_) {
            dev_slot_ = static_cast<std::size_t>(iteration) % steps_->record_slots();
        }
    }
    CgScalars cg_read(int iteration) const
    {
        if (!steps_) {
            return Base::cg_read(iteration);
        }
        const auto slot = static_cast<std::size_t>(iteration) % steps_->record_slots();
        events_[slot].synchronize();  // the record is written by the iteration's last step
        return steps_->record(slot);
    }
    void cg_alpha(const Vector& p, const Vector& q, const Vector* r)
    {
        if (steps_) {
            {
                Timer t(times_.reduction_ms);
                steps_->alpha_sums(p.data(), q.data(), r != nullptr ? r->data() : nullptr, n(),
                                   stream());
            }
            device_allreduce();
            Timer t(times_.vector_ms);
            steps_->alpha(r != nullptr, dev_slot_, stream());
            return;
        }
        if (s_.stop != solvers::cg_running) {
            return;
        }
        std::array<double, 2> s{};
        {
            Timer t(times_.reduction_ms);
            s = dots_.dot2(p.data(), q.data(), r != nullptr ? r->data() : nullptr,
                           r != nullptr ? p.data() : nullptr, n());
        }
        this->allreduce(s);
        this->after_pq(s[0], r != nullptr ? s[1] : s_.rho);
    }
    void cg_update(const Vector& p, const Vector& q, Vector& x, Vector& r, Vector* z)
    {
        if (steps_) {
            {
                Timer t(times_.vector_ms);
                steps_->update_sums(p.data(), q.data(), x.data(), r.data(),
                                    z != nullptr ? inv_diag_.data() : nullptr,
                                    z != nullptr ? z->data() : nullptr, n(), stream());
            }
            device_allreduce();
            Timer t(times_.vector_ms);
            steps_->after_update(dev_slot_, stream());
            events_[dev_slot_].record(stream());
            return;
        }
        if (s_.stop != solvers::cg_running) {
            return;
        }
        std::array<double, 2> s{};
        {
            Timer t(times_.vector_ms);
            s = dots_.cg_update(s_.alpha, p.data(), q.data(), x.data(), r.data(),
                                z != nullptr ? inv_diag_.data() : nullptr,
                                z != nullptr ? z->data() : nullptr, n());
        }
        this->allreduce(s);
        this->after_update(s[0], z != nullptr ? s[1] : s[0]);
    }
    void cg_direction(const Vector& z, Vector& p)
    {
        if (steps_) {
            Timer t(times_.vector_ms);
            steps_->direction(z.data(), p.data(), n(), stream());
            return;
        }
        if (s_.stop == solvers::cg_running) {
            xpay(z, s_.beta, p);
        }
    }
    template <typename Low>
    void demote(const Vector& src, double scale, gpu::DeviceBuffer<Low>& dst)
    {
        Timer t(times_.vector_ms);
        gpu::convert_scaled<ValueType, Low>(src.data(), scale, dst.data(), n());
    }
    template <typename Low>
    void promote_add(const gpu::DeviceBuffer<Low>& d, double scale, Vector& x)
    {
        Timer t(times_.vector_ms);
        gpu::add_scaled<Low, ValueType>(d.data(), scale, x.data(), n());
    }
    /// This rank's entries in and out of a (ghosted) device vector.
    void upload(std::span<const ValueType> h, Vector& v) { v.upload(h); }
    void download(const Vector& v, std::span<ValueType> h) { v.download(h); }

private:
    /// The device reductions' stream: the rank's compute stream, where the SpMV runs (the
    /// other vector operations run on the legacy default stream, which orders itself with it).
    gpu::StreamRef stream() const { return device_->compute.ref(); }
    /// The two sums of the last step over the ranks, in place on the device (ncclAllReduce
    /// queued on the compute stream; nothing on one rank). Recorded as a reduce phase of the
    /// SpMV it follows, like the MPI reductions; its times are the host's queuing only (the
    /// device's time for it lies in the next synchronize). NCCL's connection for this sum was
    /// made with the matrix (halo_exchange.cpp, connect_nccl), not in the first iteration.
    void device_allreduce()
    {
        if (!device_->nccl) {
            return;
        }
        const double b = this->now_us();
        {
            Timer t(times_.reduction_ms);
            device_->nccl->allreduce_sum(steps_->sums(), 2, stream());
        }
        if (this->opt_.timeline != nullptr) {
            this->opt_.timeline->events.push_back({a_->comm().rank(), Lane::compute,
                                                   Phase::reduce,
                                                   std::max(0, this->spmv_count_ - 1), b,
                                                   this->now_us()});
        }
    }

    gpu::DeviceBuffer<ValueType> inv_diag_;
    gpu::DotEngine<ValueType> dots_;
    detail::DeviceRank* device_ = nullptr;        // device reductions: streams, communicator
    std::optional<gpu::DistCgSteps<ValueType>> steps_;
    mutable std::vector<gpu::Event> events_;      // per record slot: its iteration's last step
    std::size_t dev_slot_ = 0;                    // the record of the iteration being queued
};

template <typename Outer, typename Inner>
solvers::SolveResult run(Outer& outer, Inner* inner, std::span<const double> b_own,
                         std::span<double> x_own, solvers::Method method,
                         const solvers::SolveOptions& opt)
{
    auto b = outer.new_vector();
    auto x = outer.new_vector();
    outer.upload(b_own, b);
    outer.upload(x_own, x);
    solvers::SolveResult res;
    if (method == solvers::Method::cg || inner == nullptr) {
        res = solvers::cg(outer, b, x, opt);
    } else {
        res = solvers::mpir_cg(outer, *inner, b, x, opt);
    }
    outer.download(x, x_own);
    // the true residual in double, with the distributed double SpMV
    auto r = outer.new_vector();
    outer.residual(b, x, r);
    const double bn = outer.norm2(b);
    const double rn = outer.norm2(r);
    res.final_relative_residual = bn > 0.0 ? rn / bn : rn;
    res.times = outer.times();
    if (inner != nullptr && method == solvers::Method::mpir_cg) {
        res.times += inner->times();
    }
    res.phase_times = true;
    return res;
}

template <typename B, typename V>
B make_backend(DistMatrix<V>& a, const DistSolveOptions& dist, bool on_device)
{
    if constexpr (std::is_constructible_v<B, DistMatrix<V>&, const DistSolveOptions&, bool>) {
        return B(a, dist, on_device);
    } else {
        return B(a, dist);  // host ranks: MPI
    }
}

/// Builds the backends (and MPIR-CG's float matrix on the same partition) and solves.
template <template <typename> class Backend>
solvers::SolveResult solve_with(DistMatrix<double>& a, std::span<const double> b_own,
                                std::span<double> x_own, solvers::Method method,
                                const solvers::SolveOptions& options, const DistSolveOptions& dist)
{
    auto elapsed = [](Clock::time_point t) {
        return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
    };
    const bool on_device = device_reductions(a, dist);
    Backend<double> outer = make_backend<Backend<double>>(a, dist, on_device);
    std::optional<DistMatrix<float>> af;
    std::optional<Backend<float>> inner;
    double setup_ms = 0.0;
    bool float_reductions = false;
    if (method == solvers::Method::mpir_cg) {
        const auto ts = Clock::now();
        // Cevahir as written (MpirOuter::pcg): float SpMV sums and, on host ranks, float
        // reductions; the project's refinement asks for double sums (GPU ranks only: host
        // ranks add in float either way)
        const bool as_written = options.mpir_outer == solvers::MpirOuter::pcg;
        af.emplace(a.template with_values<float>(options.inner.double_sums && !as_written));
        inner.emplace(make_backend<Backend<float>>(*af, dist, on_device));
        float_reductions = inner->set_float_reductions(as_written);
        setup_ms = elapsed(ts);
    }
    if (options.jacobi) {
        outer.set_jacobi();
        if (inner) {
            inner->set_jacobi();
        }
    }
    const auto ts = Clock::now();
    auto res = run(outer, inner ? &*inner : nullptr, b_own, x_own, method, options);
    res.total_ms = elapsed(ts);
    res.setup_ms = setup_ms;
    res.inner_double_sums = af && af->info().double_sums;
    res.inner_float_reductions = float_reductions;
    return res;
}

}  // namespace

solvers::SolveResult solve(DistMatrix<double>& a, std::span<const double> b_own,
                           std::span<double> x_own, solvers::Method method,
                           const solvers::SolveOptions& options, const DistSolveOptions& dist)
{
    SPMV_EXPECTS(static_cast<std::int64_t>(b_own.size()) == a.own_rows() &&
                     static_cast<std::int64_t>(x_own.size()) == a.own_rows(),
                 "b and x must hold this rank's entries");
    auto res = a.on_gpu() ? solve_with<GpuDistBackend>(a, b_own, x_own, method, options, dist)
                          : solve_with<HostDistBackend>(a, b_own, x_own, method, options, dist);
    res.where = a.on_gpu() ? a.info().device
                           : "host, " + std::to_string(a.comm().size()) + " rank(s)";
    res.format = a.options().format;
    return res;
}

}  // namespace spmv::dist
