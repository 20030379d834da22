// CSR kernels: scalar (one thread per row) and vector (a sub-warp per row). Both are templates
// on the type of their sums, Acc: V, or double for float matrices with Sums::double_precision
// (device_matrix.hpp; same loads, the products and sums in double).
#include <cstdint>
#include <type_traits>

#include <spmv/gpu/csr.hpp>

#include "launch.cuh"
#include "variant_support.hpp"

namespace spmv::gpu {
namespace {

constexpr int block_size = 256;

template <typename V>
struct CsrView {
    std::int32_t num_rows;
    const std::int32_t* row_ptrs;
    const std::int32_t* col_idxs;
    const V* values;
};

template <typename V>
CsrView<V> view(const DeviceCsr<V>& a)
{
    return {a.num_rows, a.row_ptrs.data(), a.col_idxs.data(), a.values.data()};
}

// One thread per row.
template <typename Acc, typename V>
__global__ void __launch_bounds__(block_size)
    csr_spmv_scalar_kernel(CsrView<V> a, V alpha, const V* __restrict__ x, V beta,
                           V* __restrict__ y)
{
    SPMV_WARP_TRACE(trace);
    const std::int64_t row = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if (row >= a.num_rows) {
        return;
    }
    trace.row(row);
    const std::int32_t end = detail::ldg(a.row_ptrs + row + 1);
    Acc sum{0};
    for (std::int32_t k = detail::ldg(a.row_ptrs + row); k < end; ++k) {
        sum += detail::product<Acc>(detail::ldg(a.values + k),
                                    detail::ldg(x + detail::ldg(a.col_idxs + k)));
    }
    detail::axpby_store(y + row, alpha, sum, beta);
}

// A sub-warp of `threads_per_row` consecutive lanes per row: lane l reads entries l, l+t, ...
// of the row (coalesced), then a shuffle tree adds the partial sums into lane 0 of the sub-warp.
// Wang & Gu's CSRV (PELLR 2.2) gives every row a half-warp and sums the partial results in
// shared memory; here the width follows the mean row length (csr_vector_threads_per_row) and
// the sum is by shuffles, on purpose: a row of 3 entries keeps 13 of 16 lanes idle.
// CsrLaunch::threads_per_row = 16 runs the paper's half-warp width.
// Lanes of rows past the end stay in the loop-free path and still join the shuffles (the full
// warp mask requires every lane).
template <int threads_per_row, typename Acc, typename V>
__global__ void __launch_bounds__(block_size)
    csr_spmv_vector_kernel(CsrView<V> a, V alpha, const V* __restrict__ x, V beta,
                           V* __restrict__ y)
{
    SPMV_WARP_TRACE(trace);
    const std::int64_t tid = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
    const std::int64_t row = tid / threads_per_row;
    const int lane = static_cast<int>(threadIdx.x % threads_per_row);
    Acc sum{0};
    if (row < a.num_rows) {
        trace.row(row);
        const std::int32_t end = detail::ldg(a.row_ptrs + row + 1);
        for (std::int32_t k = detail::ldg(a.row_ptrs + row) + lane; k < end; k += threads_per_row) {
            sum += detail::product<Acc>(detail::ldg(a.values + k),
                                        detail::ldg(x + detail::ldg(a.col_idxs + k)));
        }
    }
#pragma unroll
    for (int offset = threads_per_row / 2; offset > 0; offset /= 2) {
        sum += __shfl_down_sync(0xffffffffu, sum, offset, threads_per_row);
    }
    if (row < a.num_rows && lane == 0) {
        detail::axpby_store(y + row, alpha, sum, beta);
    }
}

template <int t, typename Acc, typename V>
void launch_vector(const DeviceCsr<V>& a, V alpha, const V* x, V beta, V* y, StreamRef stream)
{
    const std::int64_t threads = std::int64_t{a.num_rows} * t;
    const int b = detail::block_size_for(threads, block_size);
    const auto blocks = static_cast<unsigned>(detail::ceil_div<std::int64_t>(threads, b));
    csr_spmv_vector_kernel<t, Acc>
        <<<blocks, b, 0, detail::native(stream)>>>(view(a), alpha, x, beta, y);
    SPMV_CUDA_CHECK(cudaGetLastError());
}

template <typename Acc, typename V>
void spmv_sums(const DeviceCsr<V>& a, V alpha, const V* x, V beta, V* y, const CsrLaunch& launch,
               StreamRef stream)
{
    if (a.num_rows == 0) {
        return;
    }
    if (launch.kernel == CsrKernel::scalar) {
        const int b = detail::block_size_for(a.num_rows, block_size);
        csr_spmv_scalar_kernel<Acc>
            <<<detail::ceil_div(a.num_rows, b), b, 0, detail::native(stream)>>>(view(a), alpha, x,
                                                                                beta, y);
        SPMV_CUDA_CHECK(cudaGetLastError());
        return;
    }
    const int t = launch.threads_per_row > 0 ? launch.threads_per_row
                                             : csr_vector_threads_per_row(a.mean_row_length);
    switch (t) {
        case 2:
            launch_vector<2, Acc>(a, alpha, x, beta, y, stream);
            break;
        case 4:
            launch_vector<4, Acc>(a, alpha, x, beta, y, stream);
            break;
        case 8:
            launch_vector<8, Acc>(a, alpha, x, beta, y, stream);
            break;
        case 16:
            launch_vector<16, Acc>(a, alpha, x, beta, y, stream);
            break;
        case 32:
            launch_vector<32, Acc>(a, alpha, x, beta, y, stream);
            break;
        default:
            SPMV_THROW(
                InvalidArgument,
                "CSR vector: threads_per_row must be 2, 4, 8, 16 or 32, not " + std::to_string(t));
    }
}

}  // namespace

template <typename V>
DeviceCsr<V> upload(const Csr<V, std::int32_t>& a)
{
    DeviceCsr<V> d;
    ensure_device_memory("csr", a.row_ptrs.size() * sizeof(std::int32_t) +
                                    a.col_idxs.size() * sizeof(std::int32_t) +
                                    a.values.size() * sizeof(V));
    d.num_rows = a.num_rows;
    d.num_cols = a.num_cols;
    d.mean_row_length = a.num_rows > 0 ? static_cast<double>(a.values.size()) / a.num_rows : 0.0;
    d.row_ptrs = DeviceBuffer<std::int32_t>::from_host(a.row_ptrs, "csr row_ptrs");
    d.col_idxs = DeviceBuffer<std::int32_t>::from_host(a.col_idxs, "csr col_idxs");
    d.values = DeviceBuffer<V>::from_host(a.values, "csr values");
    return d;
}

template <typename V>
void spmv(const DeviceCsr<V>& a, V alpha, const V* x, V beta, V* y, const CsrLaunch& launch,
          StreamRef stream)
{
    spmv_sums<V>(a, alpha, x, beta, y, launch, stream);
}

SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_CSR_UPLOAD);
SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_CSR_SPMV);

namespace detail {

template <typename V, CsrKernel kernel>
std::unique_ptr<DeviceOp<V>> assemble_csr(const AnyMatrix<V>& m)
{
    const auto* f = alternative<Csr<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    auto launch = [](const DeviceCsr<V>& a, V alpha, const V* x, V beta, V* y, RowOrder,
                     StreamRef s) { spmv(a, alpha, x, beta, y, CsrLaunch{kernel, 0}, s); };
    if constexpr (std::is_same_v<V, float>) {
        return make_op<V>(upload(*f), launch,
                          [](const DeviceCsr<V>& a, V alpha, const V* x, V beta, V* y, RowOrder,
                             StreamRef s) {
                              spmv_sums<double>(a, alpha, x, beta, y, CsrLaunch{kernel, 0}, s);
                          });
    } else {
        return make_op<V>(upload(*f), launch);
    }
}

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_csr_scalar(const AnyMatrix<V>& m)
{
    return assemble_csr<V, CsrKernel::scalar>(m);
}

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_csr_vector(const AnyMatrix<V>& m)
{
    return assemble_csr<V, CsrKernel::vector>(m);
}

}  // namespace detail
}  // namespace spmv::gpu

SPMV_INSTANTIATE_ASSEMBLE(csr_scalar)
SPMV_INSTANTIATE_ASSEMBLE(csr_vector)
