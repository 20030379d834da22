// ELLG kernel (Barbieri's Sspmvm_gpu_unroll_2_krn): one thread per row, pitched columns,
// unrolled by 2.
#include <cstdint>

#include <spmv/gpu/ellg.hpp>

#include "launch.cuh"
#include "variant_support.hpp"

namespace spmv::gpu {
namespace {

constexpr int block_size = 128;  // Barbieri's THREADBLOCK

template <typename V>
struct EllGView {
    std::int32_t num_rows;
    std::int32_t pitch;               // stride in elements
    const std::int32_t* col_idxs;     // rP
    const V* values;                  // cM
    const std::int32_t* row_lengths;  // rS
};

// One thread per row: row_size/2 trips of two slots (p, p + pitch), both x entries fetched
// before the two multiply-adds, then the odd slot. `streaming`: the matrix arrays' load kind
// (detail::ld_matrix, chosen per launch).
template <bool streaming, typename V>
__global__ void __launch_bounds__(block_size)
    ellg_spmv_kernel(EllGView<V> a, V alpha, const V* __restrict__ x, V beta, V* __restrict__ y)
{
    SPMV_WARP_TRACE(trace);
    const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if (i >= a.num_rows) {
        return;
    }
    trace.row(i);
    const std::int32_t row_size = detail::ldg(a.row_lengths + i);
    const std::int32_t* rP = a.col_idxs + i;
    const V* cM = a.values + i;
    V y_prod{0};
    for (std::int32_t j = 0; j < row_size / 2; ++j) {
        const std::int32_t p0 = detail::ld_matrix<streaming>(rP);
        const std::int32_t p1 = detail::ld_matrix<streaming>(rP + a.pitch);
        const V f0 = detail::ldg(x + p0);
        const V f1 = detail::ldg(x + p1);
        const V v0 = detail::ld_matrix<streaming>(cM);
        const V v1 = detail::ld_matrix<streaming>(cM + a.pitch);
        cM += 2 * a.pitch;
        rP += 2 * a.pitch;
        y_prod += v0 * f0;
        y_prod += v1 * f1;
    }
    if (row_size % 2 != 0) {
        y_prod +=
            detail::ld_matrix<streaming>(cM) * detail::ldg(x + detail::ld_matrix<streaming>(rP));
    }
    detail::axpby_store(y + i, alpha, y_prod, beta);
}

}  // namespace

template <typename V>
DeviceEllG<V> upload(const EllG<V, std::int32_t>& a)
{
    ensure_device_memory("ellg", a.col_idxs.size() * sizeof(std::int32_t) +
                                     a.values.size() * sizeof(V) +
                                     a.row_lengths.size() * sizeof(std::int32_t));
    DeviceEllG<V> d;
    d.num_rows = a.num_rows;
    d.num_cols = a.num_cols;
    d.width = a.width;
    d.stride = a.stride;
    d.col_idxs = DeviceBuffer<std::int32_t>::from_host(a.col_idxs, "ellg col_idxs");
    d.values = DeviceBuffer<V>::from_host(a.values, "ellg values");
    d.row_lengths = DeviceBuffer<std::int32_t>::from_host(a.row_lengths, "ellg row_lengths");
    return d;
}

template <typename V>
void spmv(const DeviceEllG<V>& a, V alpha, const V* x, V beta, V* y, StreamRef stream)
{
    if (a.num_rows == 0) {
        return;
    }
    const int b = detail::block_size_for(a.num_rows, block_size);
    const EllGView<V> v{a.num_rows, a.stride, a.col_idxs.data(), a.values.data(),
                        a.row_lengths.data()};
    detail::with_stream_policy(detail::stream_matrix_loads_for<V>(a), [&](auto s) {
        ellg_spmv_kernel<decltype(s)::value>
            <<<detail::ceil_div(a.num_rows, b), b, 0, detail::native(stream)>>>(v, alpha, x, beta,
                                                                                y);
    });
    SPMV_CUDA_CHECK(cudaGetLastError());
}

SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_ELLG_UPLOAD);
SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_ELLG_SPMV);

namespace detail {

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_ellg(const AnyMatrix<V>& m)
{
    const auto* f = alternative<EllG<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    return make_op<V>(upload(*f), [](const DeviceEllG<V>& a, V alpha, const V* x, V beta, V* y,
                                     RowOrder, StreamRef s) { spmv(a, alpha, x, beta, y, s); });
}

}  // namespace detail
}  // namespace spmv::gpu

SPMV_INSTANTIATE_ASSEMBLE(ellg)
