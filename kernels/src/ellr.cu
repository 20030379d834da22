// ELLPACK-R kernel: one thread per row, stops at the row length.
#include <cstdint>

#include <spmv/gpu/ellr.hpp>

#include "launch.cuh"
#include "variant_support.hpp"

namespace spmv::gpu {
namespace {

constexpr int block_size = 256;

template <typename V>
struct EllRView {
    std::int32_t num_rows;
    std::int32_t stride;
    const std::int32_t* col_idxs;
    const V* values;
    const std::int32_t* row_lengths;
};

// One thread per row; only the row's own row_lengths[row] slots are read. The loop runs to the
// warp's longest row (the warp waits for it anyway) with the loads of the shorter rows switched
// off, so its trip count is warp-uniform and the unrolled loads of a thread are in flight
// together. `streaming`: the matrix arrays' load kind (detail::ld_matrix, chosen per launch).
template <bool streaming, typename V>
__global__ void __launch_bounds__(block_size)
    ellr_spmv_kernel(EllRView<V> a, V alpha, const V* __restrict__ x, V beta, V* __restrict__ y)
{
    SPMV_WARP_TRACE(trace);
    const std::int64_t row = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
    const bool active = row < a.num_rows;  // no early return: the whole warp takes the max
    if (active) {
        trace.row(row);
    }
    const std::int32_t len = active ? detail::ldg(a.row_lengths + row) : 0;
    const std::int32_t warp_len = __reduce_max_sync(0xffffffffu, len);
    const std::int32_t* col = a.col_idxs + row;
    const V* val = a.values + row;
    V sum{0};
#pragma unroll 4
    for (std::int32_t j = 0; j < warp_len; ++j) {
        if (j < len) {
            sum += detail::ld_matrix<streaming>(val) *
                   detail::ldg(x + detail::ld_matrix<streaming>(col));
        }
        col += a.stride;
        val += a.stride;
    }
    if (active) {
        detail::axpby_store(y + row, alpha, sum, beta);
    }
}

}  // namespace

template <typename V>
DeviceEllR<V> upload(const EllR<V, std::int32_t>& a)
{
    ensure_device_memory("ellr", a.col_idxs.size() * sizeof(std::int32_t) +
                                     a.values.size() * sizeof(V) +
                                     a.row_lengths.size() * sizeof(std::int32_t));
    DeviceEllR<V> d;
    d.num_rows = a.num_rows;
    d.num_cols = a.num_cols;
    d.width = a.width;
    d.stride = a.stride;
    d.col_idxs = DeviceBuffer<std::int32_t>::from_host(a.col_idxs, "ellr col_idxs");
    d.values = DeviceBuffer<V>::from_host(a.values, "ellr values");
    d.row_lengths = DeviceBuffer<std::int32_t>::from_host(a.row_lengths, "ellr row_lengths");
    return d;
}

template <typename V>
void spmv(const DeviceEllR<V>& a, V alpha, const V* x, V beta, V* y, StreamRef stream)
{
    if (a.num_rows == 0) {
        return;
    }
    const int b = detail::block_size_for(a.num_rows, block_size);
    const EllRView<V> v{a.num_rows, a.stride, a.col_idxs.data(), a.values.data(),
                        a.row_lengths.data()};
    detail::with_stream_policy(detail::stream_matrix_loads_for<V>(a), [&](auto s) {
        ellr_spmv_kernel<decltype(s)::value>
            <<<detail::ceil_div(a.num_rows, b), b, 0, detail::native(stream)>>>(v, alpha, x, beta,
                                                                                y);
    });
    SPMV_CUDA_CHECK(cudaGetLastError());
}

SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_ELLR_UPLOAD);
SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_ELLR_SPMV);

namespace detail {

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_ellr(const AnyMatrix<V>& m)
{
    const auto* f = alternative<EllR<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    return make_op<V>(upload(*f), [](const DeviceEllR<V>& a, V alpha, const V* x, V beta, V* y,
                                     RowOrder, StreamRef s) { spmv(a, alpha, x, beta, y, s); });
}

}  // namespace detail
}  // namespace spmv::gpu

SPMV_INSTANTIATE_ASSEMBLE(ellr)
