// sell_i16: SELL-C-σ with 16-bit column offsets from a per-slice base column
// (spmv/gpu/sell_i16.hpp). Same mapping and inner loop as sell (sell.cu): one thread per stored
// row, C = 32 makes one warp one slice, streaming or read-only matrix loads chosen per launch; the
// only differences are the index loads (2 bytes: a warp reads 64 instead of 128 bytes per column of
// its slice) and x, shifted by the slice's base column.
//
// Bytes per slot: 2 (offset) + sizeof(V) instead of 4 + sizeof(V), i.e. 10 instead of 12 B in
// double and 6 instead of 8 B in float, plus 4 B per slice for its base. x and y are unchanged.
// Measured (H100 SXM, 2026-11-22, spmvlab bench --gpu, cold L2, one run): pde150 device arrays
// 283.1 -> 238.6 MiB in double, 193.3 -> 148.8 MiB in float; SpMV 116.4 -> 105.3 us (double) and
// 75.5 -> 62.8 us (float) against sell, cuSPARSE SELL 129.4 / 77.9 us. pde100: 34.1 -> 31.1 us
// and 24.2 -> 20.5 us. ("% copy BW" then reads 110-120 %: the limit counts 4-byte indices.)
#include <cstdint>
#include <type_traits>
#include <vector>

#include <spmv/gpu/sell_i16.hpp>

#include "launch.cuh"
#include "permuted.cuh"
#include "variant_support.hpp"

namespace spmv::gpu {
namespace {

constexpr int block_size = 256;

template <typename V>
struct SellI16View {
    std::int32_t num_rows;
    std::int32_t slice_height;
    const std::int32_t* slice_ptrs;
    const std::int32_t* slice_widths;
    const std::int32_t* slice_bases;
    const std::int32_t* out_map;  ///< nullptr: y[k]; else y[out_map[k]]
    const std::uint16_t* col_offsets;
    const V* values;
};

template <typename V>
SellI16View<V> view(const DeviceSellI16<V>& a, RowOrder order)
{
    return {a.num_rows,           a.slice_height,
            a.slice_ptrs.data(),  a.slice_widths.data(),
            a.slice_bases.data(), detail::output_map(a.row_perm.data(), a.identity_perm, order),
            a.col_offsets.data(), a.values.data()};
}

// One thread per stored row (fixed_height > 0: C known at compile time, else a.slice_height).
// The slice's width, first slot and base column are three independent loads; the row sum reads
// x + base at the 16-bit offsets. `streaming` and Acc as in sell_spmv_kernel.
template <bool streaming, int fixed_height, typename Acc, typename V>
__global__ void __launch_bounds__(block_size)
    sell_spmv_i16_kernel(SellI16View<V> a, V alpha, const V* __restrict__ x, V beta,
                         V* __restrict__ y)
{
    const std::uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= static_cast<std::uint32_t>(a.num_rows)) {
        return;  // padding rows of the last slice: nothing to compute, nothing to write
    }
    const std::uint32_t row = detail::output_row(a.out_map, k);
    const std::uint32_t c = fixed_height > 0 ? fixed_height : a.slice_height;
    const std::uint32_t slice = k / c;
    const std::uint32_t r = k - slice * c;
    const std::int32_t width = detail::ldg(a.slice_widths + slice);
    const std::int32_t first = detail::ldg(a.slice_ptrs + slice) + static_cast<std::int32_t>(r);
    const std::int32_t base = detail::ldg(a.slice_bases + slice);
    const Acc sum = detail::strided_row_sum<streaming, detail::row_unroll, V, Acc>(
        a.col_offsets + first, a.values + first, static_cast<std::int32_t>(c), width, x + base);
    detail::store_row(y, row, alpha, sum, beta);
}

template <typename Acc, typename V>
void spmv_sums(const DeviceSellI16<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
               StreamRef stream)
{
    if (a.num_rows == 0) {
        return;
    }
    const SellI16View<V> v = view(a, order);
    const int b = detail::block_size_for(a.num_rows, block_size);
    const auto blocks = static_cast<unsigned>(detail::ceil_div(a.num_rows, b));
    detail::with_stream_policy(detail::stream_matrix_loads_for<V>(a), [&](auto s) {
        constexpr bool streaming = decltype(s)::value;
        if (a.slice_height == 32) {
            sell_spmv_i16_kernel<streaming, 32, Acc>
                <<<blocks, b, 0, detail::native(stream)>>>(v, alpha, x, beta, y);
        } else {
            sell_spmv_i16_kernel<streaming, 0, Acc>
                <<<blocks, b, 0, detail::native(stream)>>>(v, alpha, x, beta, y);
        }
    });
    SPMV_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

template <typename V>
DeviceSellI16<V> upload_sell_i16(const SellCSigma<V, std::int32_t>& a)
{
    SPMV_EXPECTS(a.slice_height >= 1, "sell_i16: slice_height must be at least 1");
    const SellI16Columns cols = encode_sell_i16_columns(a);  // throws before any allocation
    ensure_device_memory(
        "sell_i16",
        (a.slice_ptrs.size() + a.slice_widths.size() + cols.bases.size() + a.row_perm.size()) *
                sizeof(std::int32_t) +
            cols.offsets.size() * sizeof(std::uint16_t) + a.values.size() * sizeof(V));
    DeviceSellI16<V> d;
    d.num_rows = a.num_rows;
    d.num_cols = a.num_cols;
    d.slice_height = a.slice_height;
    d.sort_window = a.sort_window;
    d.identity_perm = detail::is_identity(a.row_perm);
    d.slice_ptrs = DeviceBuffer<std::int32_t>::from_host(a.slice_ptrs, "sell_i16 slice_ptrs");
    d.slice_widths = DeviceBuffer<std::int32_t>::from_host(a.slice_widths, "sell_i16 slice_widths");
    d.slice_bases = DeviceBuffer<std::int32_t>::from_host(cols.bases, "sell_i16 slice_bases");
    d.row_perm = DeviceBuffer<std::int32_t>::from_host(a.row_perm, "sell_i16 row_perm");
    d.col_offsets = DeviceBuffer<std::uint16_t>::from_host(cols.offsets, "sell_i16 col_offsets");
    d.values = DeviceBuffer<V>::from_host(a.values, "sell_i16 values");
    return d;
}

template DeviceSellI16<float> upload_sell_i16<float>(const SellCSigma<float, std::int32_t>&);
template DeviceSellI16<double> upload_sell_i16<double>(const SellCSigma<double, std::int32_t>&);

template <typename V>
void spmv(const DeviceSellI16<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
          StreamRef stream)
{
    spmv_sums<V>(a, alpha, x, beta, y, order, stream);
}

template void spmv<float>(const DeviceSellI16<float>&, float, const float*, float, float*, RowOrder,
                          StreamRef);
template void spmv<double>(const DeviceSellI16<double>&, double, const double*, double, double*,
                           RowOrder, StreamRef);

namespace detail {

// For V = float also the kernel with double sums (Sums::double_precision), as sell has.
template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_sell_i16(const AnyMatrix<V>& m)
{
    const auto* f = alternative<SellCSigma<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    const auto launch = [](const DeviceSellI16<V>& a, V alpha, const V* x, V beta, V* y,
                           RowOrder order, StreamRef s) { spmv(a, alpha, x, beta, y, order, s); };
    if constexpr (std::is_same_v<V, float>) {
        return make_op<V, /*permuted=*/true>(
            upload_sell_i16(*f), launch,
            [](const DeviceSellI16<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
               StreamRef s) { spmv_sums<double>(a, alpha, x, beta, y, order, s); });
    } else {
        return make_op<V, /*permuted=*/true>(upload_sell_i16(*f), launch);
    }
}

}  // namespace detail
}  // namespace spmv::gpu

SPMV_INSTANTIATE_ASSEMBLE(sell_i16)
