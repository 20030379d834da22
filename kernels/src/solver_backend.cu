// GPU backend of the solvers: vector kernels (one thread per entry), CUB reductions, phase
// timing with CUDA events. Everything runs on the legacy default stream, in order, so the only
// host synchronisation per reduction is the read-back of its 8-byte result.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>
#include <type_traits>

#include <spmv/error.hpp>

#include "cuda_check.cuh"
#include "launch.cuh"
#include "solver_backend.hpp"

namespace spmv::gpu::detail {
namespace {

constexpr int block_size = 256;

// ---- vector kernels: one thread per entry --------------------------------------------------

template <typename V>
__global__ void __launch_bounds__(block_size)
    axpy_kernel(std::int64_t n, V alpha, const V* __restrict__ x, V* __restrict__ y)
{
    const auto i = std::int64_t{blockIdx.x} * block_size + threadIdx.x;
    if (i < n) {
        y[i] += alpha * x[i];
    }
}

template <typename V>
__global__ void __launch_bounds__(block_size)
    xpay_kernel(std::int64_t n, const V* __restrict__ x, V alpha, V* __restrict__ y)
{
    const auto i = std::int64_t{blockIdx.x} * block_size + threadIdx.x;
    if (i < n) {
        y[i] = x[i] + alpha * y[i];
    }
}

template <typename V>
__global__ void __launch_bounds__(block_size)
    jacobi_kernel(std::int64_t n, const V* __restrict__ inv_diag, const V* __restrict__ r,
                  V* __restrict__ z)
{
    const auto i = std::int64_t{blockIdx.x} * block_size + threadIdx.x;
    if (i < n) {
        z[i] = inv_diag[i] * r[i];
    }
}

__global__ void __launch_bounds__(block_size)
    demote_kernel(std::int64_t n, double scale, const double* __restrict__ src,
                  float* __restrict__ dst)
{
    const auto i = std::int64_t{blockIdx.x} * block_size + threadIdx.x;
    if (i < n) {
        dst[i] = static_cast<float>(scale * src[i]);
    }
}

__global__ void __launch_bounds__(block_size)
    promote_add_kernel(std::int64_t n, double scale, const float* __restrict__ d,
                       double* __restrict__ x)
{
    const auto i = std::int64_t{blockIdx.x} * block_size + threadIdx.x;
    if (i < n) {
        x[i] += scale * static_cast<double>(d[i]);
    }
}

unsigned grid_for(std::size_t n)
{
    return static_cast<unsigned>(ceil_div<std::size_t>(n, block_size));
}

// ---- reduction functors: products are accumulated in double for both precisions ----------

template <typename V>
struct Square {
    __host__ __device__ double operator()(V v) const
    {
        const auto d = static_cast<double>(v);
        return d * d;
    }
};

template <typename V>
struct Product {
    const V* x;
    const V* y;
    __host__ __device__ double operator()(std::int64_t i) const
    {
        return static_cast<double>(x[i]) * static_cast<double>(y[i]);
    }
};

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

}  // namespace

// ---- PhaseClock -----------------------------------------------------------------------------

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
    for (std::size_t i = 0; i + 1 < chain_.size(); ++i) {
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
    chain_.erase(chain_.begin(), chain_.end() - 1);
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
    : a_(&a),
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
    SPMV_CUDA_CHECK(cub::DeviceReduce::TransformReduce(
        nullptr, dot_bytes, thrust::counting_iterator<std::int64_t>(0), result_.data(),
        static_cast<std::int64_t>(n_), cuda::std::plus<double>{}, Product<V>{nullptr, nullptr},
        0.0));
    SPMV_CUDA_CHECK(cub::DeviceReduce::TransformReduce(
        nullptr, norm_bytes, static_cast<const V*>(nullptr), result_.data(),
        static_cast<std::int64_t>(n_), cuda::std::plus<double>{}, Square<V>{}, 0.0));
    temp_ = DeviceBuffer<std::byte>(std::max<std::size_t>({dot_bytes, norm_bytes, 1}),
                                    "reduction scratch");
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
    Vector v(n_);
    if (n_ > 0) {
        SPMV_CUDA_CHECK(cudaMemsetAsync(v.device_for_overwrite(), 0, n_ * sizeof(V)));
    } else {
        v.set_dev();
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
void GpuBackend<V>::spmv(const Vector& x, Vector& y)
{
    clock_->enter(Phase::spmv);
    a_->spmv(V{1}, in(x), V{0}, y.device_for_overwrite(), order_);
}

template <typename V>
void GpuBackend<V>::residual(const Vector& b, const Vector& x, Vector& r)
{
    copy(b, r);
    clock_->enter(Phase::spmv);
    a_->spmv(V{-1}, in(x), V{1}, inout(r), order_);
}

template <typename V>
void GpuBackend<V>::precondition(const Vector& r, Vector& z)
{
    SPMV_EXPECTS(inv_diag_.size() == n_, "precondition() needs set_jacobi() first");
    clock_->enter(Phase::vector);
    if (n_ > 0) {
        jacobi_kernel<<<grid_for(n_), block_size>>>(static_cast<std::int64_t>(n_), inv_diag_.data(),
                                                    in(r), z.device_for_overwrite());
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
double GpuBackend<V>::dot(const Vector& x, const Vector& y)
{
    clock_->enter(Phase::reduction);
    std::size_t bytes = temp_.size();
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
    SPMV_CUDA_CHECK(cub::DeviceReduce::TransformReduce(
        temp_.data(), bytes, in(x), result_.data(), static_cast<std::int64_t>(n_),
        cuda::std::plus<double>{}, Square<V>{}, 0.0));
    return std::sqrt(reduce_read_back());
}

template <typename V>
void GpuBackend<V>::axpy(double alpha, const Vector& x, Vector& y)
{
    clock_->enter(Phase::vector);
    if (n_ > 0) {
        axpy_kernel<<<grid_for(n_), block_size>>>(static_cast<std::int64_t>(n_),
                                                  static_cast<V>(alpha), in(x), inout(y));
        SPMV_CUDA_CHECK(cudaGetLastError());
    }
}

template <typename V>
void GpuBackend<V>::xpay(const Vector& x, double alpha, Vector& y)
{
    clock_->enter(Phase::vector);
    if (n_ > 0) {
        xpay_kernel<<<grid_for(n_), block_size>>>(static_cast<std::int64_t>(n_), in(x),
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
void GpuBackend<V>::demote(const Vector& src, double scale, DeviceVector<float>& dst)
{
    if constexpr (std::is_same_v<V, double>) {
        SPMV_EXPECTS(dst.size() == n_, "demote: sizes differ");
        clock_->enter(Phase::vector);
        if (n_ > 0) {
            demote_kernel<<<grid_for(n_), block_size>>>(static_cast<std::int64_t>(n_), scale,
                                                        in(src), dst.device_for_overwrite());
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
            promote_add_kernel<<<grid_for(n_), block_size>>>(static_cast<std::int64_t>(n_), scale,
                                                             in(d), inout(x));
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
