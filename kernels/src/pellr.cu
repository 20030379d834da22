// PELLR kernels. pellr: one thread per sorted row, stops at its row length rl[k].
// pellr_split: groups of 32 sorted rows, T = 1..8 warps per group by its width (split.cuh).
#include <cstdint>
#include <type_traits>
#include <vector>

#include <spmv/gpu/pellr.hpp>

#include "launch.cuh"
#include "permuted.cuh"
#include "split.cuh"
#include "variant_support.hpp"

namespace spmv::gpu {
namespace {

constexpr int block_size = 256;

template <typename V>
struct PellrView {
    std::int32_t num_rows;
    std::int32_t stride;
    const std::int32_t* row_lengths;
    const std::int32_t* out_map;  ///< nullptr: y[k]; else y[out_map[k]]
    const std::int32_t* col_idxs;
    const V* values;
};

// One thread per sorted row k: slots k, k + stride, ... up to rl[k] (no padding is touched).
// `streaming`: the matrix arrays' load kind (detail::ld_matrix, chosen per launch). Acc: the
// type of the sums (V, or double for a float matrix with Sums::double_precision).
template <bool streaming, typename Acc, typename V>
__global__ void __launch_bounds__(block_size)
    pellr_spmv_kernel(PellrView<V> a, V alpha, const V* __restrict__ x, V beta, V* __restrict__ y)
{
    SPMV_WARP_TRACE(trace);
    const std::uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= static_cast<std::uint32_t>(a.num_rows)) {
        return;
    }
    trace.row(k);
    const std::uint32_t row = detail::output_row(a.out_map, k);
    const std::int32_t len = detail::ldg(a.row_lengths + k);
    const Acc sum = detail::strided_row_sum<streaming, detail::row_unroll, V, Acc>(
        a.col_idxs + k, a.values + k, a.stride, len, x);
    detail::store_row(y, row, alpha, sum, beta);
}

/// pellr_split: DevicePellr plus the block schedule of the split kernel.
template <typename V>
struct DevicePellrSplit : DevicePellr<V> {
    DeviceBuffer<std::int32_t> schedule;
    std::size_t schedule_blocks = 0;

    std::size_t device_bytes() const noexcept
    {
        return DevicePellr<V>::device_bytes() + schedule.bytes();
    }
};

template <typename V>
void spmv_split(const DevicePellrSplit<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
                StreamRef stream)
{
    const detail::PellrSplitLayout<V> layout{a.stride, a.row_lengths.data(), a.col_idxs.data(),
                                             a.values.data()};
    detail::launch_split(layout, a.schedule_blocks > 0 ? a.schedule.data() : nullptr,
                         a.schedule_blocks, detail::ceil_div(a.num_rows, 32), a.num_rows,
                         detail::output_map(a.row_perm.data(), a.identity_perm, order), alpha, x,
                         beta, y, stream, detail::stream_matrix_loads_for<V>(a));
}

}  // namespace

template <typename V>
DevicePellr<V> upload(const Pellr<V, std::int32_t>& a)
{
    ensure_device_memory("pellr", (a.row_perm.size() + a.row_lengths.size() + a.col_idxs.size()) *
                                          sizeof(std::int32_t) +
                                      a.values.size() * sizeof(V));
    DevicePellr<V> d;
    d.num_rows = a.num_rows;
    d.num_cols = a.num_cols;
    d.width = a.width;
    d.stride = a.stride;
    d.identity_perm = detail::is_identity(a.row_perm);
    d.row_perm = DeviceBuffer<std::int32_t>::from_host(a.row_perm, "pellr row_perm");
    d.row_lengths = DeviceBuffer<std::int32_t>::from_host(a.row_lengths, "pellr row_lengths");
    d.col_idxs = DeviceBuffer<std::int32_t>::from_host(a.col_idxs, "pellr col_idxs");
    d.values = DeviceBuffer<V>::from_host(a.values, "pellr values");
    return d;
}

namespace {

template <typename Acc, typename V>
void spmv_sums(const DevicePellr<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
               StreamRef stream)
{
    if (a.num_rows == 0) {
        return;
    }
    const PellrView<V> v{
        a.num_rows,           a.stride,
        a.row_lengths.data(), detail::output_map(a.row_perm.data(), a.identity_perm, order),
        a.col_idxs.data(),    a.values.data()};
    const int b = detail::block_size_for(a.num_rows, block_size);
    detail::with_stream_policy(detail::stream_matrix_loads_for<V>(a), [&](auto s) {
        pellr_spmv_kernel<decltype(s)::value, Acc>
            <<<detail::ceil_div(a.num_rows, b), b, 0, detail::native(stream)>>>(v, alpha, x, beta,
                                                                                y);
    });
    SPMV_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

template <typename V>
void spmv(const DevicePellr<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
          StreamRef stream)
{
    spmv_sums<V>(a, alpha, x, beta, y, order, stream);
}

SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_PELLR_UPLOAD);
SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_PELLR_SPMV);

namespace detail {

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_pellr(const AnyMatrix<V>& m)
{
    const auto* f = alternative<Pellr<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    auto launch = [](const DevicePellr<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
                     StreamRef s) { spmv(a, alpha, x, beta, y, order, s); };
    if constexpr (std::is_same_v<V, float>) {  // also with double sums (Sums::double_precision)
        return make_op<V, /*permuted=*/true>(
            upload(*f), launch,
            [](const DevicePellr<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
               StreamRef s) { spmv_sums<double>(a, alpha, x, beta, y, order, s); });
    } else {
        return make_op<V, /*permuted=*/true>(upload(*f), launch);
    }
}

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_pellr_split(const AnyMatrix<V>& m)
{
    const auto* f = alternative<Pellr<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    DevicePellrSplit<V> d;
    static_cast<DevicePellr<V>&>(d) = upload(*f);
    std::vector<std::int32_t> widths;  // the first (longest) row of each group of 32
    for (std::size_t k = 0; k < f->row_lengths.size(); k += 32) {
        widths.push_back(f->row_lengths[k]);
    }
    const auto schedule = split_schedule(widths);
    d.schedule = DeviceBuffer<std::int32_t>::from_host(schedule, "pellr_split schedule");
    d.schedule_blocks = schedule.size();
    return make_op<V, /*permuted=*/true>(
        std::move(d),
        [](const DevicePellrSplit<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
           StreamRef s) { spmv_split(a, alpha, x, beta, y, order, s); });
}

}  // namespace detail
}  // namespace spmv::gpu

SPMV_INSTANTIATE_ASSEMBLE(pellr)
SPMV_INSTANTIATE_ASSEMBLE(pellr_split)
