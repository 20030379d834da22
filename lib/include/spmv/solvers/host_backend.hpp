#pragma once
/// The host backend of the solvers (see spmv/solvers/cg.hpp): std::vector vectors and the
/// readable reference SpMV of any storage format. It is the CPU reference the GPU backend is
/// tested against, and shows the algorithm without any device code.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

#include <spmv/any_matrix.hpp>
#include <spmv/error.hpp>
#include <spmv/solvers/cg_step.hpp>
#include <spmv/solvers/solve.hpp>

namespace spmv::solvers {

/// The two sums of CG's fused steps on host vectors, accumulated in Acc: double (the default),
/// or float for Cevahir's inner CG in float throughout (InnerOptions / MpirOuter::pcg). Shared by
/// the host backend below and the distributed host ranks (distributed/src/dist_solve.cpp), whose
/// partial sums an allreduce then adds.
/// Both sum over the first n entries (a distributed rank's own ones: its vectors carry the halo
/// after them). {p.q, r.p} (r.p = 0 without r).
template <typename Acc, typename Vector>
std::pair<double, double> cg_pq_sums(std::size_t n, const Vector& p, const Vector& q,
                                     const Vector* r)
{
    Acc pq{0};
    Acc rp{0};
    for (std::size_t i = 0; i < n; ++i) {
        pq += static_cast<Acc>(p[i]) * static_cast<Acc>(q[i]);
        if (r != nullptr) {
            rp += static_cast<Acc>((*r)[i]) * static_cast<Acc>(p[i]);
        }
    }
    return {static_cast<double>(pq), static_cast<double>(rp)};
}

/// x += alpha p, r -= alpha q, z = inv_diag r (z given); returns {r.r, r.z}.
template <typename Acc, typename Vector, typename V>
std::pair<double, double> cg_update_sums(std::size_t n, V alpha, const Vector& p, const Vector& q,
                                         Vector& x, Vector& r, const Vector& inv_diag, Vector* z)
{
    Acc rr{0};
    Acc rz{0};
    for (std::size_t i = 0; i < n; ++i) {
        x[i] += alpha * p[i];
        r[i] -= alpha * q[i];
        const auto ri = static_cast<Acc>(r[i]);
        rr += ri * ri;
        if (z != nullptr) {
            (*z)[i] = inv_diag[i] * r[i];
            rz += ri * static_cast<Acc>((*z)[i]);
        }
    }
    return {static_cast<double>(rr), static_cast<double>(rz)};
}

/// Vector operations on the host for a square matrix in any format. `order` is the RowOrder
/// passed to the format's SpMV: RowOrder::permuted for a permuted format built from A P^T, so
/// that the operator is P A P^T and every vector lives in the permuted basis.
/// The matrix is referenced, not copied: it must outlive the backend.
template <typename ValueType>
class HostBackend {
public:
    using value_type = ValueType;
    using Vector = std::vector<ValueType>;

    HostBackend(const AnyMatrix<ValueType>& a, RowOrder order = RowOrder::original)
        : a_(&a), order_(order), n_(static_cast<std::size_t>(num_rows(a)))
    {
        SPMV_EXPECTS(num_rows(a) == num_cols(a), "the solvers need a square matrix");
    }

    std::size_t size() const noexcept { return n_; }
    const PhaseTimes& times() const noexcept { return times_; }

    /// Double sums for a float backend (InnerOptions::double_sums): spmv and residual then run
    /// on `wide`, the same operator with the float values held in double (build_wide_operator
    /// in system.hpp), on x promoted to double, and round y once: exact products and double
    /// sums, as the GPU kernels with Sums::double_precision. `wide` must outlive the backend.
    void set_double_sums(const AnyMatrix<double>& wide)
    {
        SPMV_EXPECTS(num_rows(wide) == num_rows(*a_) && num_cols(wide) == num_cols(*a_),
                     "double-sum operator of the wrong size");
        wide_ = &wide;
    }

    /// Float reductions (MPIR-CG "as written", MpirOuter::pcg): dot, norm2 and the sums of the
    /// fused steps (p.Ap, r.p, r.r, r.z) accumulate in ValueType, one sequential sum in index
    /// order, instead of in double. Only meaningful for a float backend (a no-op in double).
    void set_float_reductions(bool on) { float_reductions_ = on; }
    bool float_reductions() const noexcept { return float_reductions_; }

    /// Jacobi: z = inv_diag .* r (inv_diag in the solver's basis).
    void set_jacobi(std::vector<ValueType> inv_diag)
    {
        SPMV_EXPECTS(inv_diag.size() == n_, "Jacobi diagonal of the wrong size");
        inv_diag_ = std::move(inv_diag);
    }

    Vector new_vector() const { return Vector(n_, ValueType{0}); }

    void fill_zero(Vector& v)
    {
        Clock c(times_.vector_ms);
        std::fill(v.begin(), v.end(), ValueType{0});
    }

    void spmv(const Vector& x, Vector& y)
    {
        Clock c(times_.spmv_ms);
        if (wide_ != nullptr) {
            wide_spmv(nullptr, x, y);
            return;
        }
        spmv_reference(*a_, ValueType{1}, std::span<const ValueType>(x), ValueType{0},
                       std::span<ValueType>(y), order_);
    }

    void residual(const Vector& b, const Vector& x, Vector& r)
    {
        if (wide_ != nullptr) {
            Clock c(times_.spmv_ms);
            wide_spmv(&b, x, r);
            return;
        }
        {
            Clock c(times_.vector_ms);
            r = b;
        }
        Clock c(times_.spmv_ms);
        spmv_reference(*a_, ValueType{-1}, std::span<const ValueType>(x), ValueType{1},
                       std::span<ValueType>(r), order_);
    }

    void precondition(const Vector& r, Vector& z)
    {
        SPMV_EXPECTS(inv_diag_.size() == n_, "precondition() needs set_jacobi() first");
        Clock c(times_.vector_ms);
        for (std::size_t i = 0; i < n_; ++i) {
            z[i] = inv_diag_[i] * r[i];
        }
    }

    /// Accumulated in double: a sequential float sum of n terms loses up to n * eps_float
    /// (a GPU tree reduction only about log2(n) * eps_float). With set_float_reductions in
    /// ValueType: products and sums rounded to float, as Cevahir's float-only inner CG.
    double dot(const Vector& x, const Vector& y)
    {
        Clock c(times_.reduction_ms);
        if (float_reductions_) {
            ValueType s{0};
            for (std::size_t i = 0; i < n_; ++i) {
                s += x[i] * y[i];
            }
            return static_cast<double>(s);
        }
        double s = 0.0;
        for (std::size_t i = 0; i < n_; ++i) {
            s += static_cast<double>(x[i]) * static_cast<double>(y[i]);
        }
        return s;
    }

    double norm2(const Vector& x)
    {
        if (float_reductions_) {  // the square root in float too, as the GPU's
            return static_cast<double>(std::sqrt(static_cast<ValueType>(dot(x, x))));
        }
        return std::sqrt(dot(x, x));
    }

    void xpay(const Vector& x, double alpha, Vector& y)
    {
        Clock c(times_.vector_ms);
        const auto a = static_cast<ValueType>(alpha);
        for (std::size_t i = 0; i < n_; ++i) {
            y[i] = x[i] + a * y[i];
        }
    }

    void copy(const Vector& x, Vector& y)
    {
        Clock c(times_.vector_ms);
        y = x;
    }

    // ---- the fused steps of a CG iteration (see cg.hpp); the scalars live in s_ ----

    /// The host answers at once: no iteration needs to be queued ahead.
    static constexpr int lookahead = 0;

    void cg_begin(double rho, const CgLimits& limits)
    {
        s_ = CgScalars{};
        s_.rho = rho;
        limits_ = limits;
    }

    /// pq = p.q, alpha = (r ? r.p : rho) / pq.
    void cg_alpha(const Vector& p, const Vector& q, const Vector* r)
    {
        if (s_.stop != cg_running) {
            return;
        }
        Clock c(times_.reduction_ms);
        double pq = 0.0;
        double rp = 0.0;
        if (float_reductions_) {
            std::tie(pq, rp) = cg_pq_sums<ValueType>(n_, p, q, r);
        } else {
            std::tie(pq, rp) = cg_pq_sums<double>(n_, p, q, r);
        }
        cg_after_pq(s_, pq, r != nullptr ? rp : s_.rho);
        if (s_.stop != cg_running) {
            records_[slot_] = s_;  // cg_update will not run: report the stop here
        }
    }

    /// q = A p (the host has nothing to fuse: p.q is cg_alpha's loop).
    void cg_spmv(const Vector& p, Vector& q) { spmv(p, q); }

    /// x += alpha p, r -= alpha q, z = D^-1 r (when z is given), then r.r, r.z and the
    /// stopping test.
    void cg_update(const Vector& p, const Vector& q, Vector& x, Vector& r, Vector* z)
    {
        if (s_.stop != cg_running) {
            return;
        }
        SPMV_EXPECTS(z == nullptr || inv_diag_.size() == n_, "cg_update needs set_jacobi() first");
        Clock c(times_.vector_ms);
        double rr = 0.0;
        double rz = 0.0;
        if (float_reductions_) {
            std::tie(rr, rz) = cg_update_sums<ValueType>(n_, static_cast<ValueType>(s_.alpha), p,
                                                         q, x, r, inv_diag_, z);
        } else {
            std::tie(rr, rz) = cg_update_sums<double>(n_, static_cast<ValueType>(s_.alpha), p, q,
                                                      x, r, inv_diag_, z);
        }
        cg_after_update(s_, rr, z != nullptr ? rz : rr, limits_);
        records_[slot_] = s_;
    }

    /// p = z + beta p.
    void cg_direction(const Vector& z, Vector& p)
    {
        if (s_.stop != cg_running) {
            return;
        }
        xpay(z, s_.beta, p);
    }

    /// A ring of records like the GPU's, so that a backend queuing ahead (a test derives one with
    /// lookahead = 1) reads each iteration's own scalars.
    void cg_iteration(int iteration)
    {
        slot_ = static_cast<std::size_t>(iteration) % records_.size();
    }
    CgScalars cg_read(int iteration) const
    {
        return records_[static_cast<std::size_t>(iteration) % records_.size()];
    }

    /// Mixed precision, outer side: dst = (Low) (scale * src).
    template <typename Low>
    void demote(const Vector& src, double scale, std::vector<Low>& dst)
    {
        Clock c(times_.vector_ms);
        dst.resize(n_);
        for (std::size_t i = 0; i < n_; ++i) {
            dst[i] = static_cast<Low>(scale * static_cast<double>(src[i]));
        }
    }

    /// Mixed precision, outer side: x = x + scale * d.
    template <typename Low>
    void promote_add(const std::vector<Low>& d, double scale, Vector& x)
    {
        Clock c(times_.vector_ms);
        for (std::size_t i = 0; i < n_; ++i) {
            x[i] += static_cast<ValueType>(scale * static_cast<double>(d[i]));
        }
    }

private:
    /// y = b - A x (b given) or A x, in double on wide_, rounded to ValueType once.
    void wide_spmv(const Vector* b, const Vector& x, Vector& y)
    {
        wide_x_.assign(x.begin(), x.end());
        if (b != nullptr) {
            wide_y_.assign(b->begin(), b->end());
        } else {
            wide_y_.assign(n_, 0.0);
        }
        spmv_reference(*wide_, b != nullptr ? -1.0 : 1.0, std::span<const double>(wide_x_),
                       b != nullptr ? 1.0 : 0.0, std::span<double>(wide_y_), order_);
        for (std::size_t i = 0; i < n_; ++i) {
            y[i] = static_cast<ValueType>(wide_y_[i]);
        }
    }

    /// Adds the lifetime of the object to a phase counter (milliseconds).
    class Clock {
    public:
        explicit Clock(double& acc) : acc_(acc), t0_(std::chrono::steady_clock::now()) {}
        ~Clock()
        {
            acc_ +=
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0_)
                    .count();
        }
        Clock(const Clock&) = delete;
        Clock& operator=(const Clock&) = delete;

    private:
        double& acc_;
        std::chrono::steady_clock::time_point t0_;
    };

    const AnyMatrix<ValueType>* a_;
    RowOrder order_;
    std::size_t n_;
    const AnyMatrix<double>* wide_ = nullptr;  ///< set_double_sums: the operator in double
    std::vector<double> wide_x_, wide_y_;      ///< its scratch vectors
    std::vector<ValueType> inv_diag_;
    bool float_reductions_ = false;  ///< set_float_reductions
    PhaseTimes times_;
    CgScalars s_;
    std::array<CgScalars, 4> records_{};
    std::size_t slot_ = 0;
    CgLimits limits_;
};

}  // namespace spmv::solvers
