// GPU backend of the solvers: the fused CG step kernels (scalars on the device), vector kernels
// (one thread per entry), CUB reductions, phase timing with CUDA events. Everything runs on the
// legacy default stream, in order: the CG iterations never wait for the host; the other
// reductions synchronise once, to read back their 8-byte result.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>
#include <type_traits>

#include <spmv/error.hpp>

#include "cuda_check.cuh"
#include "grid_sum.cuh"
#include "launch.cuh"
#include "solver_backend.hpp"
#include "vector_kernels.cuh"

namespace spmv::gpu::detail {
namespace {

constexpr int block_size = 256;

// ---- vector kernels (one thread per entry), packs and update_one: vector_kernels.cuh -------

unsigned grid_for(std::size_t n)
{
    return static_cast<unsigned>(ceil_div<std::size_t>(n, block_size));
}

// ---- reduction functors: products and sums in Acc ------------------------------------------
// Acc = double for both precisions (the default), or float for a float backend with
// use_float_reductions (MPIR-CG's inner CG in float throughout, as Cevahir §3.2 runs it: "dot
// products and norms are implemented as in the parallel reduction example of NVIDIA's CUDA
// SDK", in the GPU's only precision).

template <typename V, typename Acc = double>
struct Square {
    __host__ __device__ Acc operator()(V v) const
    {
        const auto d = static_cast<Acc>(v);
#ifdef __CUDA_ARCH__
        return acc_mul(d, d);  // rounded by itself: no FMA with CUB's add (vector_kernels.cuh)
#else
        return d * d;
#endif
    }
};

template <typename V, typename Acc = double>
struct Product {
    const V* x;
    const V* y;
    __host__ __device__ Acc operator()(std::int64_t i) const
    {
#ifdef __CUDA_ARCH__
        return acc_mul(static_cast<Acc>(x[i]), static_cast<Acc>(y[i]));
#else
        return static_cast<Acc>(x[i]) * static_cast<Acc>(y[i]);
#endif
    }
};

// The pair of sums a fused step reduces: double2, or float2 with float reductions.
template <typename Acc>
struct AccPair;
template <>
struct AccPair<double> {
    using type = double2;
};
template <>
struct AccPair<float> {
    using type = float2;
};
template <typename Acc>
using acc_pair = typename AccPair<Acc>::type;

// ---- fused CG steps (see spmv/solvers/cg_step.hpp) ------------------------------------------
// Each step first reads the stop flag: once an iteration has stopped, the steps queued after it
// return at once. The two reductions are summed per thread in a grid-stride loop, per block
// with cub::BlockReduce, and over the blocks by the last block to finish (the one that takes
// the last ticket): a fixed grid and a fixed order, so the result is bitwise reproducible. That
// block also runs the scalar logic of cg_step.hpp, so no host round trip is needed.

constexpr int red_block = 256;

// The iteration's scalars, written straight into the host's pinned record (zero copy: no
// copy-engine operation per iteration). The host reads it only after the event recorded behind
// the kernel has completed, and that synchronisation makes the kernel's writes to mapped memory
// visible: no __threadfence_system here (it kept the last block of every update ~2 us longer,
// measured on an H100: pde150 MPIR-CG 65.4 -> 64.3 ms).
__device__ void report(const solvers::CgScalars& s, solvers::CgScalars* record)
{
    *record = s;
}

__global__ void cg_begin_kernel(CgDeviceState* st, double rho, solvers::CgLimits limits)
{
    st->s = solvers::CgScalars{};
    st->s.rho = rho;
    st->limits = limits;
    st->ticket = 0;
    st->spmv_ticket = 0;
    st->spmv_pq = 0.0;
}

// The packed kernels need 16-byte aligned vectors (DeviceBuffer's cudaMalloc gives 256).
void expect_pack_aligned(std::initializer_list<const void*> ptrs)
{
    for (const void* p : ptrs) {
        SPMV_EXPECTS(p == nullptr || reinterpret_cast<std::uintptr_t>(p) % 16 == 0,
                     "CG vectors must be 16-byte aligned (packed loads)");
    }
}

// pq = p.q (and r.p for the first step of a continued solve), then alpha; sums in Acc.
template <typename V, typename Acc>
__global__ void __launch_bounds__(red_block)
    cg_alpha_kernel(std::int64_t n, const V* __restrict__ p, const V* __restrict__ q,
                    const V* __restrict__ r, CgDeviceState* st, acc_pair<Acc>* partials,
                    solvers::CgScalars* record)
{
    chain_wait();
    chain_release();
    if (st->s.stop != solvers::cg_running) {
        return;
    }
    acc_pair<Acc> m{};
    grid_stride_chunks<V, red_block>(
        n,
        [&](std::int64_t i) {
            const Pack<V> pp = load_pack(p + i);
            const Pack<V> qq = load_pack(q + i);
            Pack<V> rr{};
            if (r != nullptr) {
                rr = load_pack(r + i);
            }
#pragma unroll
            for (int u = 0; u < pack_width<V>; ++u) {
                const auto pi = static_cast<Acc>(pp.v[u]);
                m.x += acc_mul(pi, static_cast<Acc>(qq.v[u]));
                m.y += acc_mul(static_cast<Acc>(rr.v[u]), pi);
            }
        },
        [&](std::int64_t k) {
            const auto pi = static_cast<Acc>(p[k]);
            m.x += acc_mul(pi, static_cast<Acc>(q[k]));
            if (r != nullptr) {
                m.y += acc_mul(static_cast<Acc>(r[k]), pi);
            }
        });
    acc_pair<Acc> t;
    if (grid_sum<red_block>(m, partials, &st->ticket, t) && threadIdx.x == 0) {
        // the scalar logic in double on the float sums: alpha = rho / p.q rounded to float
        // once is the correctly rounded float quotient (53 >= 2 * 24 + 2 bits)
        solvers::cg_after_pq(st->s, static_cast<double>(t.x),
                             r != nullptr ? static_cast<double>(t.y) : st->s.rho);
        if (st->s.stop != solvers::cg_running) {  // cg_update will not run: report it here
            report(st->s, record);
        }
    }
}

// x += alpha p, r -= alpha q, z = inv_diag r (Jacobi), r.r and r.z (summed in Acc), the
// stopping test, beta. pq_from_spmv: alpha is not in the state yet; every block computes it
// from the p.q that the SpMV summed (st->spmv_pq), and the last block stores it. On a p.q that
// stops the iteration (<= 0, NaN) no block updates and block 0 reports it.
template <typename V, bool jacobi, typename Acc>
__global__ void __launch_bounds__(red_block)
    cg_update_kernel(std::int64_t n, const V* __restrict__ p, const V* __restrict__ q,
                     V* __restrict__ x, V* __restrict__ r, const V* __restrict__ inv_diag,
                     V* __restrict__ z, CgDeviceState* st, acc_pair<Acc>* partials,
                     solvers::CgScalars* record, bool pq_from_spmv)
{
    chain_wait();
    chain_release();
    if (st->s.stop != solvers::cg_running) {
        return;
    }
    double alpha_d = st->s.alpha;
    if (pq_from_spmv) {
        solvers::CgScalars s = st->s;
        solvers::cg_after_pq(s, st->spmv_pq, s.rho);
        if (s.stop != solvers::cg_running) {
            if (blockIdx.x == 0 && threadIdx.x == 0) {
                st->s = s;
                report(s, record);
            }
            return;
        }
        alpha_d = s.alpha;
    }
    const auto alpha = static_cast<V>(alpha_d);
    const acc_pair<Acc> m = cg_update_pass<V, red_block, jacobi, /*aligned=*/true, acc_pair<Acc>>(
        n, alpha, p, q, x, r, inv_diag, z);
    acc_pair<Acc> t;
    if (grid_sum<red_block>(m, partials, &st->ticket, t) && threadIdx.x == 0) {
        if (pq_from_spmv) {
            solvers::cg_after_pq(st->s, st->spmv_pq, st->s.rho);
        }
        const auto rr = static_cast<double>(t.x);
        solvers::cg_after_update(st->s, rr, jacobi ? static_cast<double>(t.y) : rr, st->limits);
        report(st->s, record);
    }
}

// p = z + beta p, one chunk (16 bytes of each vector) per thread.
template <typename V>
__global__ void __launch_bounds__(block_size)
    cg_direction_kernel(std::int64_t n, const V* __restrict__ z, V* __restrict__ p,
                        const CgDeviceState* st)
{
    chain_wait();
    chain_release();
    if (st->s.stop != solvers::cg_running) {
        return;
    }
    constexpr int w = pack_width<V>;
    const auto beta = static_cast<V>(st->s.beta);
    const std::int64_t i = (std::int64_t{blockIdx.x} * block_size + threadIdx.x) * w;
    if (i + w <= n) {
        const Pack<V> zz = load_pack(z + i);
        Pack<V> pp = load_pack(p + i);
#pragma unroll
        for (int u = 0; u < w; ++u) {
            pp.v[u] = zz.v[u] + beta * pp.v[u];
        }
        store_pack(p + i, pp);
    } else {
        for (std::int64_t k = i; k < n; ++k) {
            p[k] = z[k] + beta * p[k];
        }
    }
}

// Device pointer of a vector the solver only reads. The solver's vectors are on the device for
// the whole solve: finding one that is not would mean a hidden host->device copy.
template <typename V>
const V* in(const DeviceVector<V>& v)
{
    SPMV_EXPECTS(v.is_device(), "solver vector is not on the device (hidden transfer)");
    return const_cast<DeviceVector<V>&>(v).read_device();  // valid there: no copy happens
}

template <typename V>
V* inout(DeviceVector<V>& v)
{
    SPMV_EXPECTS(v.is_device(), "solver vector is not on the device (hidden transfer)");
    return v.device();
}

int lookahead_from_env()
{
    const char* e = std::getenv("SPMV_CG_LOOKAHEAD");
    return e != nullptr ? std::clamp(std::atoi(e), 1, 16) : 1;
}

// SPMV_CG_FUSED_PQ=off: p.Ap in its own kernel even where the SpMV could sum it (a diagnostic,
// to measure what the fusion gains on the same machine).
bool fused_pq_from_env()
{
    const char* e = std::getenv("SPMV_CG_FUSED_PQ");
    return e == nullptr || std::strcmp(e, "off") != 0;
}

bool phase_events_from_env()
{
    const char* e = std::getenv("SPMV_SOLVER_PHASES");
    return e == nullptr || std::strcmp(e, "off") != 0;
}

}  // namespace

// ---- PhaseClock -----------------------------------------------------------------------------

PhaseClock::PhaseClock(bool on) : on_(on && phase_events_from_env()) {}

std::size_t PhaseClock::acquire()
{
    if (free_.empty()) {
        pool_.emplace_back();
        return pool_.size() - 1;
    }
    const auto k = free_.back();
    free_.pop_back();
    return k;
}

void PhaseClock::enter(Phase p)
{
    if (!on_) {
        return;
    }
    if (!chain_.empty() && chain_.back().phase == p) {
        return;
    }
    const auto k = acquire();
    pool_[k].record();
    chain_.push_back({k, p});
}

void PhaseClock::resolve()
{
    if (chain_.size() < 2) {
        return;
    }
    std::size_t i = 0;
    for (; i + 1 < chain_.size(); ++i) {
        if (!pool_[chain_[i + 1].event].query()) {
            break;  // still running (the CG pipeline is one iteration ahead)
        }
        const double ms = Event::elapsed_ms(pool_[chain_[i].event], pool_[chain_[i + 1].event]);
        switch (chain_[i].phase) {
            case Phase::spmv:
                times_.spmv_ms += ms;
                break;
            case Phase::vector:
                times_.vector_ms += ms;
                break;
            case Phase::reduction:
                times_.reduction_ms += ms;
                break;
            case Phase::transfer:
                times_.transfer_ms += ms;
                break;
        }
        free_.push_back(chain_[i].event);
    }
    chain_.erase(chain_.begin(), chain_.begin() + static_cast<std::ptrdiff_t>(i));
}

void PhaseClock::finish()
{
    if (chain_.empty()) {
        return;
    }
    const auto k = acquire();
    pool_[k].record();
    pool_[k].synchronize();
    chain_.push_back({k, chain_.back().phase});
    resolve();
    free_.push_back(chain_.back().event);
    chain_.clear();
}

// ---- GpuBackend -----------------------------------------------------------------------------

template <typename V>
GpuBackend<V>::GpuBackend(const DeviceMatrix<V>& a, RowOrder order, PhaseClock& clock)
    : lookahead(lookahead_from_env()),
      a_(&a),
      order_(order),
      clock_(&clock),
      n_(static_cast<std::size_t>(a.num_rows())),
      result_(1, "reduction result"),
      host_result_(1)
{
    SPMV_EXPECTS(a.num_rows() == a.num_cols(), "the solvers need a square matrix");
    // One temporary buffer big enough for both reductions (sizes queried with nullptr).
    std::size_t dot_bytes = 0;
    std::size_t norm_bytes = 0;
    std::size_t dot_float_bytes = 0;  // the float-accumulating ones (use_float_reductions)
    std::size_t norm_float_bytes = 0;
    SPMV_CUDA_CHECK(cub::DeviceReduce::TransformReduce(
        nullptr, dot_bytes, thrust::counting_iterator<std::int64_t>(0), result_.data(),
        static_cast<std::int64_t>(n_), cuda::std::plus<double>{}, Product<V>{nullptr, nullptr},
        0.0));
    SPMV_CUDA_CHECK(cub::DeviceReduce::TransformReduce(
        nullptr, norm_bytes, static_cast<const V*>(nullptr), result_.data(),
        static_cast<std::int64_t>(n_), cuda::std::plus<double>{}, Square<V>{}, 0.0));
    SPMV_CUDA_CHECK(cub::DeviceReduce::TransformReduce(
        nullptr, dot_float_bytes, thrust::counting_iterator<std::int64_t>(0),
        reinterpret_cast<float*>(result_.data()), static_cast<std::int64_t>(n_),
        cuda::std::plus<float>{}, Product<V, float>{nullptr, nullptr}, 0.0f));
    SPMV_CUDA_CHECK(cub::DeviceReduce::TransformReduce(
        nullptr, norm_float_bytes, static_cast<const V*>(nullptr),
        reinterpret_cast<float*>(result_.data()), static_cast<std::int64_t>(n_),
        cuda::std::plus<float>{}, Square<V, float>{}, 0.0f));
    temp_ = DeviceBuffer<std::byte>(
        std::max<std::size_t>({dot_bytes, norm_bytes, dot_float_bytes, norm_float_bytes, 1}),
        "reduction scratch");
    // Fused CG reductions: exactly one resident wave of blocks (as many as the occupancy of each
    // kernel allows on every SM), grid-stride: no partial second wave, and few partial sums for
    // the last block to add.
    auto wave = [&](const void* kernel) {
        int per_sm = 0;
        SPMV_CUDA_CHECK(
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, red_block, 0));
        const auto resident = static_cast<std::size_t>(std::max(per_sm, 1)) *
                              static_cast<std::size_t>(multiprocessor_count());
        return static_cast<unsigned>(
            std::clamp<std::size_t>(ceil_div<std::size_t>(n_, red_block), 1, resident));
    };
    alpha_blocks_ = wave(reinterpret_cast<const void*>(&cg_alpha_kernel<V, double>));
    update_blocks_ = wave(reinterpret_cast<const void*>(&cg_update_kernel<V, false, double>));
    update_jacobi_blocks_ =
        wave(reinterpret_cast<const void*>(&cg_update_kernel<V, true, double>));
    // the float-accumulating variants (use_float_reductions) get their own one-wave grids
    alpha_blocks_float_ = wave(reinterpret_cast<const void*>(&cg_alpha_kernel<V, float>));
    update_blocks_float_ = wave(reinterpret_cast<const void*>(&cg_update_kernel<V, false, float>));
    update_jacobi_blocks_float_ =
        wave(reinterpret_cast<const void*>(&cg_update_kernel<V, true, float>));
    cg_state_ = DeviceBuffer<CgDeviceState>(1, "CG scalars");
    // two doubles per block hold a double2 or a float2 partial
    partials_ = DeviceBuffer<double>(
        2 * std::size_t{std::max({alpha_blocks_, update_blocks_, update_jacobi_blocks_,
                                  alpha_blocks_float_, update_blocks_float_,
                                  update_jacobi_blocks_float_})},
        "CG reduction partials");
    // one partial per block of the fused SpMV (blocks of >= 32 rows)
    if (a.has_dot() && fused_pq_from_env()) {
        spmv_partials_ = DeviceBuffer<double>(
            std::max<std::size_t>(ceil_div<std::size_t>(n_, 32), 1), "CG fused p.q partials");
    }
    records_ = PinnedBuffer<solvers::CgScalars>(record_slots());
    record_events_.resize(record_slots());
}

template <typename V>
void GpuBackend<V>::set_jacobi(std::span<const V> inv_diag)
{
    SPMV_EXPECTS(inv_diag.size() == n_, "Jacobi diagonal of the wrong size");
    inv_diag_ = DeviceBuffer<V>::from_host(inv_diag, "Jacobi diagonal");
}

template <typename V>
auto GpuBackend<V>::new_vector() -> Vector
{
    clock_->enter(Phase::vector);
    Vector v = Vector::on_device(n_);  // no host image: solver vectors live on the device
    if (n_ > 0) {
        SPMV_CUDA_CHECK(cudaMemsetAsync(v.device_for_overwrite(), 0, n_ * sizeof(V)));
    }
    return v;
}

template <typename V>
void GpuBackend<V>::fill_zero(Vector& v)
{
    clock_->enter(Phase::vector);
    if (n_ > 0) {
        SPMV_CUDA_CHECK(cudaMemsetAsync(v.device_for_overwrite(), 0, n_ * sizeof(V)));
    }
    v.set_dev();
}

template <typename V>
bool GpuBackend<V>::use_double_sums(bool on)
{
    const bool wide = std::is_same_v<V, double> || (on && a_->has_double_sums());
    sums_ = wide ? Sums::double_precision : Sums::value_type;
    return wide;
}

template <typename V>
bool GpuBackend<V>::use_float_reductions(bool on)
{
    float_reductions_ = on && std::is_same_v<V, float>;
    return float_reductions_;
}

template <typename V>
void GpuBackend<V>::spmv(const Vector& x, Vector& y)
{
    clock_->enter(Phase::spmv);
    a_->spmv(V{1}, in(x), V{0}, y.device_for_overwrite(), order_, {}, sums_);
}

template <typename V>
void GpuBackend<V>::residual(const Vector& b, const Vector& x, Vector& r)
{
    copy(b, r);
    clock_->enter(Phase::spmv);
    a_->spmv(V{-1}, in(x), V{1}, inout(r), order_, {}, sums_);
}

template <typename V>
void GpuBackend<V>::precondition(const Vector& r, Vector& z)
{
    SPMV_EXPECTS(inv_diag_.size() == n_, "precondition() needs set_jacobi() first");
    clock_->enter(Phase::vector);
    if (n_ > 0) {
        jacobi_kernel<block_size><<<grid_for(n_), block_size>>>(
            static_cast<std::int64_t>(n_), inv_diag_.data(), in(r), z.device_for_overwrite());
        SPMV_CUDA_CHECK(cudaGetLastError());
    }
}

template <typename V>
double GpuBackend<V>::reduce_read_back()
{
    SPMV_CUDA_CHECK(
        cudaMemcpy(host_result_.data(), result_.data(), sizeof(double), cudaMemcpyDeviceToHost));
    clock_->resolve();  // the copy synchronised: every recorded event has completed
    return host_result_.data()[0];
}

template <typename V>
double GpuBackend<V>::reduce_read_back_float()
{
    float value = 0.0f;
    SPMV_CUDA_CHECK(cudaMemcpy(&value, result_.data(), sizeof(float), cudaMemcpyDeviceToHost));
    clock_->resolve();  // the copy synchronised: every recorded event has completed
    return static_cast<double>(value);
}

template <typename V>
double GpuBackend<V>::dot(const Vector& x, const Vector& y)
{
    clock_->enter(Phase::reduction);
    std::size_t bytes = temp_.size();
    if (float_reductions_) {  // products and the whole tree reduction in float
        auto* out = reinterpret_cast<float*>(result_.data());
        SPMV_CUDA_CHECK(cub::DeviceReduce::TransformReduce(
            temp_.data(), bytes, thrust::counting_iterator<std::int64_t>(0), out,
            static_cast<std::int64_t>(n_), cuda::std::plus<float>{},
            Product<V, float>{in(x), in(y)}, 0.0f));
        return reduce_read_back_float();
    }
    SPMV_CUDA_CHECK(cub::DeviceReduce::TransformReduce(
        temp_.data(), bytes, thrust::counting_iterator<std::int64_t>(0), result_.data(),
        static_cast<std::int64_t>(n_), cuda::std::plus<double>{}, Product<V>{in(x), in(y)}, 0.0));
    return reduce_read_back();
}

template <typename V>
double GpuBackend<V>::norm2(const Vector& x)
{
    clock_->enter(Phase::reduction);
    std::size_t bytes = temp_.size();
    if (float_reductions_) {
        SPMV_CUDA_CHECK(cub::DeviceReduce::TransformReduce(
            temp_.data(), bytes, in(x), reinterpret_cast<float*>(result_.data()),
            static_cast<std::int64_t>(n_), cuda::std::plus<float>{}, Square<V, float>{}, 0.0f));
        return static_cast<double>(std::sqrt(static_cast<float>(reduce_read_back_float())));
    }
    SPMV_CUDA_CHECK(cub::DeviceReduce::TransformReduce(
        temp_.data(), bytes, in(x), result_.data(), static_cast<std::int64_t>(n_),
        cuda::std::plus<double>{}, Square<V>{}, 0.0));
    return std::sqrt(reduce_read_back());
}

template <typename V>
void GpuBackend<V>::xpay(const Vector& x, double alpha, Vector& y)
{
    clock_->enter(Phase::vector);
    if (n_ > 0) {
        xpay_kernel<block_size><<<grid_for(n_), block_size>>>(static_cast<std::int64_t>(n_), in(x),
                                                              static_cast<V>(alpha), inout(y));
        SPMV_CUDA_CHECK(cudaGetLastError());
    }
}

template <typename V>
void GpuBackend<V>::copy(const Vector& x, Vector& y)
{
    clock_->enter(Phase::vector);
    if (n_ > 0) {
        SPMV_CUDA_CHECK(cudaMemcpyAsync(y.device_for_overwrite(), in(x), n_ * sizeof(V),
                                        cudaMemcpyDeviceToDevice));
    }
    y.set_dev();
}

template <typename V>
void GpuBackend<V>::cg_begin(double rho, const solvers::CgLimits& limits)
{
    clock_->enter(Phase::vector);
    cg_begin_kernel<<<1, 1>>>(cg_state_.data(), rho, limits);
    SPMV_CUDA_CHECK(cudaGetLastError());
}

template <typename V>
void GpuBackend<V>::cg_spmv(const Vector& p, Vector& q)
{
    clock_->enter(Phase::spmv);
    alpha_from_spmv_ = false;
    // the fused p.q of the SpMV kernels sums in double: with float reductions, cg_alpha's
    // float kernel sums it instead
    if (spmv_partials_.size() > 0 && !float_reductions_) {
        auto* st = cg_state_.data();
        // the stop flag: the SpMV queued after the iteration that stopped does nothing
        const DotSink sink{spmv_partials_.data(), spmv_partials_.size(), &st->spmv_ticket,
                           &st->spmv_pq, &st->s.stop};
        alpha_from_spmv_ = a_->spmv_dot(in(p), q.device_for_overwrite(), order_, {}, sums_, sink);
    }
    if (!alpha_from_spmv_) {
        a_->spmv(V{1}, in(p), V{0}, q.device_for_overwrite(), order_, {}, sums_);
    }
}

template <typename V>
void GpuBackend<V>::cg_alpha(const Vector& p, const Vector& q, const Vector* r)
{
    if (alpha_from_spmv_ && r == nullptr) {
        return;  // the SpMV summed p.q; the update kernel computes alpha
    }
    alpha_from_spmv_ = false;  // alpha (with r.p for a line search) comes from this kernel
    clock_->enter(Phase::reduction);
    const V* rp = r != nullptr ? in(*r) : nullptr;
    expect_pack_aligned({in(p), in(q), rp});
    if (float_reductions_) {
        launch_chained(&cg_alpha_kernel<V, float>, alpha_blocks_float_, red_block, {},
                       static_cast<std::int64_t>(n_), in(p), in(q), rp, cg_state_.data(),
                       reinterpret_cast<float2*>(partials_.data()), records_.data() + slot_);
    } else {
        launch_chained(&cg_alpha_kernel<V, double>, alpha_blocks_, red_block, {},
                       static_cast<std::int64_t>(n_), in(p), in(q), rp, cg_state_.data(),
                       reinterpret_cast<double2*>(partials_.data()), records_.data() + slot_);
    }
    SPMV_CUDA_CHECK(cudaGetLastError());
}

template <typename V>
void GpuBackend<V>::cg_update(const Vector& p, const Vector& q, Vector& x, Vector& r, Vector* z)
{
    SPMV_EXPECTS(z == nullptr || inv_diag_.size() == n_, "cg_update needs set_jacobi() first");
    clock_->enter(Phase::vector);
    const auto nn = static_cast<std::int64_t>(n_);
    auto* record = records_.data() + slot_;
    // Acc = double (default) or float (use_float_reductions): the kernel and its grid
    auto launch = [&](auto acc) {
        using Acc = decltype(acc);
        constexpr bool wide = std::is_same_v<Acc, double>;
        auto* partials = reinterpret_cast<acc_pair<Acc>*>(partials_.data());
        if (z != nullptr) {
            V* zp = z->device_for_overwrite();
            expect_pack_aligned({in(p), in(q), inout(x), inout(r), inv_diag_.data(), zp});
            launch_chained(&cg_update_kernel<V, true, Acc>,
                           wide ? update_jacobi_blocks_ : update_jacobi_blocks_float_, red_block,
                           {}, nn, in(p), in(q), inout(x), inout(r), inv_diag_.data(), zp,
                           cg_state_.data(), partials, record, alpha_from_spmv_);
        } else {
            expect_pack_aligned({in(p), in(q), inout(x), inout(r)});
            launch_chained(&cg_update_kernel<V, false, Acc>,
                           wide ? update_blocks_ : update_blocks_float_, red_block, {}, nn, in(p),
                           in(q), inout(x), inout(r), static_cast<const V*>(nullptr),
                           static_cast<V*>(nullptr), cg_state_.data(), partials, record,
                           alpha_from_spmv_);
        }
    };
    if (float_reductions_) {
        launch(0.0f);
    } else {
        launch(0.0);
    }
    SPMV_CUDA_CHECK(cudaGetLastError());
    alpha_from_spmv_ = false;
    record_events_[slot_].record();  // behind both writers of the record (alpha and update)
}

template <typename V>
void GpuBackend<V>::cg_direction(const Vector& z, Vector& p)
{
    clock_->enter(Phase::vector);
    if (n_ > 0) {
        expect_pack_aligned({in(z), inout(p)});
        const auto threads = ceil_div<std::size_t>(n_, pack_width<V>);
        launch_chained(&cg_direction_kernel<V>, grid_for(threads), block_size, {},
                       static_cast<std::int64_t>(n_), in(z), inout(p),
                       static_cast<const CgDeviceState*>(cg_state_.data()));
        SPMV_CUDA_CHECK(cudaGetLastError());
    }
}

template <typename V>
void GpuBackend<V>::cg_iteration(int iteration)
{
    slot_ = static_cast<std::size_t>(iteration) % record_slots();
}

template <typename V>
solvers::CgScalars GpuBackend<V>::cg_read(int iteration)
{
    const auto slot = static_cast<std::size_t>(iteration) % record_slots();
    record_events_[slot].synchronize();
    clock_->resolve();
    // The kernel wrote it through PCIe; after the event, read it as memory the device changed.
    static_assert(std::is_trivially_copyable_v<solvers::CgScalars> &&
                  sizeof(solvers::CgScalars) % sizeof(std::uint64_t) == 0);
    const volatile auto* rec =
        reinterpret_cast<const volatile std::uint64_t*>(records_.data() + slot);
    std::uint64_t words[sizeof(solvers::CgScalars) / sizeof(std::uint64_t)];
    for (std::size_t k = 0; k < std::size(words); ++k) {
        words[k] = rec[k];
    }
    solvers::CgScalars out;
    std::memcpy(&out, words, sizeof out);
    return out;
}

template <typename V>
void GpuBackend<V>::demote(const Vector& src, double scale, DeviceVector<float>& dst)
{
    if constexpr (std::is_same_v<V, double>) {
        SPMV_EXPECTS(dst.size() == n_, "demote: sizes differ");
        clock_->enter(Phase::vector);
        if (n_ > 0) {
            convert_scaled_kernel<block_size><<<grid_for(n_), block_size>>>(
                static_cast<std::int64_t>(n_), scale, in(src), dst.device_for_overwrite());
            SPMV_CUDA_CHECK(cudaGetLastError());
        }
        dst.set_dev();
    } else {
        SPMV_THROW(InvalidArgument, "demote() is an operation of the double-precision backend");
    }
}

template <typename V>
void GpuBackend<V>::promote_add(const DeviceVector<float>& d, double scale, Vector& x)
{
    if constexpr (std::is_same_v<V, double>) {
        SPMV_EXPECTS(d.size() == n_, "promote_add: sizes differ");
        clock_->enter(Phase::vector);
        if (n_ > 0) {
            add_scaled_kernel<block_size><<<grid_for(n_), block_size>>>(
                static_cast<std::int64_t>(n_), scale, in(d), inout(x));
            SPMV_CUDA_CHECK(cudaGetLastError());
        }
    } else {
        SPMV_THROW(InvalidArgument,
                   "promote_add() is an operation of the double-precision backend");
    }
}

template class GpuBackend<float>;
template class GpuBackend<double>;

}  // namespace spmv::gpu::detail
