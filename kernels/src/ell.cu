// ELLPACK kernel: one thread per row, column-major slots, padding computed.
#include <cstdint>

#include <spmv/gpu/ell.hpp>

#include "ell_launch.hpp"
#include "launch.cuh"
#include "permuted.cuh"
#include "variant_support.hpp"

namespace spmv::gpu {
namespace {

constexpr int block_size = 256;

template <typename V>
struct EllView {
    std::int32_t num_rows;
    std::int32_t width;
    std::int32_t stride;
    const std::int32_t* col_idxs;
    const V* values;
};

// One thread per row; all `width` slots are loaded, a padding slot contributes 0. `streaming`:
// the matrix arrays' load kind (detail::ld_matrix, chosen per launch).
template <bool streaming, typename V>
__global__ void __launch_bounds__(block_size)
    ell_spmv_kernel(EllView<V> a, V alpha, const V* __restrict__ x, V beta, V* __restrict__ y)
{
    SPMV_WARP_TRACE(trace);
    const std::int64_t row = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if (row >= a.num_rows) {
        return;
    }
    trace.row(row);
    const std::int32_t* col = a.col_idxs + row;
    const V* val = a.values + row;
    V sum{0};
#pragma unroll 4
    for (std::int32_t j = 0; j < a.width; ++j) {
        const std::int32_t c = detail::ld_matrix<streaming>(col);
        const V v = detail::ld_matrix<streaming>(val);
        sum += v * (c >= 0 ? detail::ldg(x + c) : V{0});
        col += a.stride;
        val += a.stride;
    }
    detail::axpby_store(y + row, alpha, sum, beta);
}

// ell_xs: the same one thread per row, but the block first stages all of x in shared memory,
// with the row's first `prefetch` slots already requested (16 when the width is more than 8,
// detail::xs_prefetch_for), then `step` per round: for a small matrix (a few thousand rows,
// cold in DRAM) the time is latency, and the x gather no longer waits for its own DRAM round
// trip after the index load. Needs num_cols * sizeof(V) <= 48 KiB (detail::xs_max_cols).
// Measured on an H200 (docs/benchmarks/h200_xs_prefetch_2026-11-30): 16 first instead of 8 made
// rows of 9-16 one round instead of two (bcspwr05 in single: 5.50 -> 4.42 us) and longer rows
// one round shorter (a median 0.67-0.81 of the time where the longest row has more than 16
// slots, in the form with rounds of 8 after the first 16). Where no row is longer than 16 the
// kernel keeps the form with rounds of 16 (<16, 16>, a loop that never runs), like sell_xs: the
// form with rounds of 8 was up to 13 % slower on the power networks with rows of 10-16 slots
// (bcspwr06, bcspwr07, bcspwr09, nnc1374, orsirr_1 in single: ab2/ of that record, and
// docs/benchmarks/h200_collection_2026-11-30), the same cost as sell_xs's: ptxas interleaved
// x's staging loads and stores in that instantiation (SASS, docs/benchmarks/
// h200_xs_cpasync_2026-11-30). x is staged through cp.async since (detail::stage_x); the form
// with rounds of 8 on rows of 9-16 has not been timed again with it.
constexpr int xs_block_size = 128;

template <int prefetch, int step, typename V>
__global__ void __launch_bounds__(xs_block_size)
    ell_xs_spmv_kernel(EllView<V> a, std::int32_t num_cols, V alpha, const V* __restrict__ x,
                       V beta, V* __restrict__ y)
{
    SPMV_WARP_TRACE(trace);
    extern __shared__ __align__(16) unsigned char xs_raw[];
    V* xs = reinterpret_cast<V*>(xs_raw);
    const std::int64_t row = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
    const bool active = row < a.num_rows;
    if (active) {
        trace.row(row);
    }
    detail::SlotPrefetch<prefetch, V> first;
    first.load(a.col_idxs + row, a.values + row, a.stride, active ? a.width : 0);
    detail::stage_x(x, xs, num_cols);
    __syncthreads();  // every thread reaches it: no early return above
    if (!active) {
        return;
    }
    const V sum = detail::strided_row_sum_xs<prefetch, step>(first, a.col_idxs + row,
                                                             a.values + row, a.stride, a.width, xs);
    detail::axpby_store(y + row, alpha, sum, beta);
}

}  // namespace

template <typename V>
DeviceEll<V> upload(const Ell<V, std::int32_t>& a)
{
    ensure_device_memory("ell",
                         a.col_idxs.size() * sizeof(std::int32_t) + a.values.size() * sizeof(V));
    DeviceEll<V> d;
    d.num_rows = a.num_rows;
    d.num_cols = a.num_cols;
    d.width = a.width;
    d.stride = a.stride;
    d.col_idxs = DeviceBuffer<std::int32_t>::from_host(a.col_idxs, "ell col_idxs");
    d.values = DeviceBuffer<V>::from_host(a.values, "ell values");
    return d;
}

namespace detail {

template <typename V>
void launch_ell(const DeviceEll<V>& a, V alpha, const V* x, V beta, V* y, StreamRef stream,
                bool streaming)
{
    if (a.num_rows == 0) {
        return;
    }
    const int b = block_size_for(a.num_rows, block_size);
    const EllView<V> v{a.num_rows, a.width, a.stride, a.col_idxs.data(), a.values.data()};
    with_stream_policy(streaming, [&](auto s) {
        ell_spmv_kernel<decltype(s)::value>
            <<<ceil_div(a.num_rows, b), b, 0, native(stream)>>>(v, alpha, x, beta, y);
    });
    SPMV_CUDA_CHECK(cudaGetLastError());
}

template void launch_ell<float>(const DeviceEll<float>&, float, const float*, float, float*,
                                StreamRef, bool);
template void launch_ell<double>(const DeviceEll<double>&, double, const double*, double, double*,
                                 StreamRef, bool);

}  // namespace detail

template <typename V>
void spmv(const DeviceEll<V>& a, V alpha, const V* x, V beta, V* y, StreamRef stream)
{
    detail::launch_ell(a, alpha, x, beta, y, stream, detail::stream_matrix_loads_for<V>(a));
}

SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_ELL_UPLOAD);
SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_ELL_SPMV);

template <typename V>
void spmv_xs(const DeviceEll<V>& a, V alpha, const V* x, V beta, V* y, StreamRef stream)
{
    if (a.num_rows == 0) {
        return;
    }
    if (a.num_cols > detail::xs_max_cols<V>) {  // x does not fit: the plain kernel
        spmv(a, alpha, x, beta, y, stream);
        return;
    }
    const EllView<V> v{a.num_rows, a.width, a.stride, a.col_idxs.data(), a.values.data()};
    const auto smem = static_cast<std::size_t>(a.num_cols) * sizeof(V);
    const auto launch = [&]<int prefetch, int step>() {
        // x may take the whole default 48 KiB beside the warp recorder's static bytes
        [[maybe_unused]] static const bool opted_in =
            detail::allow_dynamic_shared(ell_xs_spmv_kernel<prefetch, step, V>, 48 * 1024);
        ell_xs_spmv_kernel<prefetch, step><<<detail::ceil_div(a.num_rows, xs_block_size),
                                             xs_block_size, smem, detail::native(stream)>>>(
            v, a.num_cols, alpha, x, beta, y);
    };
    constexpr int r16 = detail::xs_row_prefetch;
    constexpr int r8 = detail::row_unroll;
    if (a.width > r16) {  // the first 16, then rounds of 8
        launch.template operator()<r16, r8>();
    } else if (detail::xs_prefetch_for(a.width) == r16) {  // 9-16: all of the row
        launch.template operator()<r16, r16>();
    } else {
        launch.template operator()<r8, r8>();
    }
    SPMV_CUDA_CHECK(cudaGetLastError());
}

namespace detail {

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_ell_xs(const AnyMatrix<V>& m)
{
    const auto* f = alternative<Ell<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    return make_op<V>(upload(*f), [](const DeviceEll<V>& a, V alpha, const V* x, V beta, V* y,
                                     RowOrder, StreamRef s) { spmv_xs(a, alpha, x, beta, y, s); });
}

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_ell(const AnyMatrix<V>& m)
{
    const auto* f = alternative<Ell<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    return make_op<V>(upload(*f), [](const DeviceEll<V>& a, V alpha, const V* x, V beta, V* y,
                                     RowOrder, StreamRef s) { spmv(a, alpha, x, beta, y, s); });
}

}  // namespace detail
}  // namespace spmv::gpu

SPMV_INSTANTIATE_ASSEMBLE(ell)
SPMV_INSTANTIATE_ASSEMBLE(ell_xs)
