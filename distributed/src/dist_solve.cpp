// The distributed solver backends: every vector operation on this rank's entries, every
// reduction finished by an allreduce over the ranks, every SpMV a DistMatrix::apply.
#include <algorithm>
#include <array>
#include <optional>
#include <chrono>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <spmv/dist/dist_solve.hpp>
#include <spmv/error.hpp>
#include <spmv/gpu/memory.hpp>
#include <spmv/gpu/vector_ops.hpp>
#include <spmv/solvers/cg.hpp>
#include <spmv/solvers/host_backend.hpp>

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
        const auto& l = a_->part().local;
        std::vector<ValueType> d(n_, ValueType{0});
        for (std::int32_t i = 0; i < l.num_rows; ++i) {
            for (auto k = l.row_ptrs[i]; k < l.row_ptrs[i + 1]; ++k) {
                if (l.col_idxs[static_cast<std::size_t>(k)] == i) {
                    d[static_cast<std::size_t>(i)] = l.values[static_cast<std::size_t>(k)];
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

    GpuDistBackend(DistMatrix<ValueType>& a, const DistSolveOptions& o) : Base(a, o) {}
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
    void cg_alpha(const Vector& p, const Vector& q, const Vector* r)
    {
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
    gpu::DeviceBuffer<ValueType> inv_diag_;
    gpu::DotEngine<ValueType> dots_;
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

/// Builds the backends (and MPIR-CG's float matrix on the same partition) and solves.
template <template <typename> class Backend>
solvers::SolveResult solve_with(DistMatrix<double>& a, std::span<const double> b_own,
                                std::span<double> x_own, solvers::Method method,
                                const solvers::SolveOptions& options, const DistSolveOptions& dist)
{
    auto elapsed = [](Clock::time_point t) {
        return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
    };
    Backend<double> outer(a, dist);
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
        inner.emplace(*af, dist);
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
