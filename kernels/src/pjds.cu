// pJDS kernels. pjds (Kreutzer Listing 2): one thread per sorted row, loops to its own row
// length. pjds_split (b_r = 32): each block of 32 sorted rows is a group of the split kernel,
// T = 1..8 warps per block of rows by its width (split.cuh); other b_r fall back to pjds.
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/gpu/pjds.hpp>

#include "jagged.cuh"
#include "launch.cuh"
#include "permuted.cuh"
#include "split.cuh"
#include "variant_support.hpp"

namespace spmv::gpu {
namespace {

constexpr int block_size = 256;

template <typename V>
struct PjdsView {
    std::int32_t num_rows;
    const std::int32_t* row_lengths;
    const std::int32_t* col_start;  ///< read only by the global-memory path (capacity 0)
    const std::int32_t* out_map;    ///< nullptr: y[i]; else y[out_map[i]]
    const std::int32_t* col_idxs;
    const V* values;
};

// One thread per sorted row i: c += val[col_start[j] + i] * x[col_idx[col_start[j] + i]] for
// j < rowmax[i]; col_start from the constant-bank table (capacity > 0) or global memory.
// `streaming`: the matrix arrays' load kind (detail::ld_matrix, chosen per launch).
template <bool streaming, int capacity, typename V>
__global__ void __launch_bounds__(block_size)
    pjds_spmv_kernel(PjdsView<V> a, const __grid_constant__ detail::OffsetTable<capacity> table,
                     V alpha, const V* __restrict__ x, V beta, V* __restrict__ y)
{
    SPMV_WARP_TRACE(trace);
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= static_cast<std::uint32_t>(a.num_rows)) {
        return;
    }
    trace.row(i);
    const std::uint32_t row = detail::output_row(a.out_map, i);
    const std::int32_t len = detail::ldg(a.row_lengths + i);
    const V sum = detail::jagged_row_sum<streaming, detail::row_unroll>(
        table, a.col_start, a.col_idxs, a.values, static_cast<std::int32_t>(i), len, x);
    detail::store_row(y, row, alpha, sum, beta);
}

/// pJDS with b_r = 32 as groups of the split kernel: slot(g, j) = col_start[j] + 32 g, width =
/// rowmax of the group's first row; col_start from the constant-bank table or global memory.
template <int capacity, typename V>
struct PjdsSplitLayout {
    detail::OffsetTable<capacity> table;
    const std::int32_t* col_start;
    const std::int32_t* row_lengths;
    const std::int32_t* col_idxs;
    const V* values;
    __device__ detail::SplitCursor group(std::int32_t g, std::int32_t lane) const
    {
        return {32 * g + lane, detail::ldg(row_lengths + 32 * g)};
    }
    __device__ std::int32_t slot(const detail::SplitCursor& c, std::int32_t j) const
    {
        return detail::offset_at(table, col_start, j) + c.base;
    }
};

/// pjds_split: DevicePjds plus the block schedule of the split kernel (b_r = 32 only).
template <typename V>
struct DevicePjdsSplit : DevicePjds<V> {
    DeviceBuffer<std::int32_t> schedule;
    std::size_t schedule_blocks = 0;

    std::size_t device_bytes() const noexcept
    {
        return DevicePjds<V>::device_bytes() + schedule.bytes();
    }
};

template <typename V>
void spmv_split(const DevicePjdsSplit<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
                StreamRef stream)
{
    if (a.block_rows != 32) {  // the split kernel needs one warp per block of rows
        spmv(static_cast<const DevicePjds<V>&>(a), alpha, x, beta, y, order, stream);
        return;
    }
    const std::span<const std::int32_t> offsets(a.col_start_host.data(),
                                                static_cast<std::size_t>(a.width));
    const auto* map = detail::output_map(a.row_perm.data(), a.identity_perm, order);
    const bool streaming = detail::stream_matrix_loads_for<V>(a);
    detail::with_offset_table(offsets, [&](const auto& table) {
        constexpr int capacity = std::decay_t<decltype(table)>::size;
        const PjdsSplitLayout<capacity, V> layout{table, a.col_start.data(), a.row_lengths.data(),
                                                  a.col_idxs.data(), a.values.data()};
        detail::launch_split(layout, a.schedule_blocks > 0 ? a.schedule.data() : nullptr,
                             a.schedule_blocks, detail::ceil_div(a.num_rows, 32), a.num_rows, map,
                             alpha, x, beta, y, stream, streaming);
    });
}

}  // namespace

template <typename V>
DevicePjds<V> upload(const Pjds<V, std::int32_t>& a)
{
    ensure_device_memory("pjds", (a.row_perm.size() + a.row_lengths.size() + a.col_start.size() +
                                  a.col_idxs.size()) *
                                         sizeof(std::int32_t) +
                                     a.values.size() * sizeof(V));
    DevicePjds<V> d;
    d.num_rows = a.num_rows;
    d.num_cols = a.num_cols;
    d.block_rows = a.block_rows;
    d.width = static_cast<std::int32_t>(a.col_start.size()) - 1;
    d.identity_perm = detail::is_identity(a.row_perm);
    d.col_start_host = a.col_start;
    d.row_perm = DeviceBuffer<std::int32_t>::from_host(a.row_perm, "pjds row_perm");
    d.row_lengths = DeviceBuffer<std::int32_t>::from_host(a.row_lengths, "pjds row_lengths");
    d.col_start = DeviceBuffer<std::int32_t>::from_host(a.col_start, "pjds col_start");
    d.col_idxs = DeviceBuffer<std::int32_t>::from_host(a.col_idxs, "pjds col_idxs");
    d.values = DeviceBuffer<V>::from_host(a.values, "pjds values");
    return d;
}

template <typename V>
void spmv(const DevicePjds<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
          StreamRef stream)
{
    if (a.num_rows == 0) {
        return;
    }
    const PjdsView<V> v{
        a.num_rows,         a.row_lengths.data(),
        a.col_start.data(), detail::output_map(a.row_perm.data(), a.identity_perm, order),
        a.col_idxs.data(),  a.values.data()};
    const int b = detail::block_size_for(a.num_rows, block_size);
    const auto blocks = static_cast<unsigned>(detail::ceil_div(a.num_rows, b));
    // the kernel reads col_start[0..width): the end offset is not needed
    const std::span<const std::int32_t> offsets(a.col_start_host.data(),
                                                static_cast<std::size_t>(a.width));
    detail::with_stream_policy(detail::stream_matrix_loads_for<V>(a), [&](auto s) {
        detail::with_offset_table(offsets, [&](const auto& table) {
            constexpr int capacity = std::decay_t<decltype(table)>::size;
            pjds_spmv_kernel<decltype(s)::value, capacity>
                <<<blocks, b, 0, detail::native(stream)>>>(v, table, alpha, x, beta, y);
        });
    });
    SPMV_CUDA_CHECK(cudaGetLastError());
}

SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_PJDS_UPLOAD);
SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_PJDS_SPMV);

namespace detail {

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_pjds(const AnyMatrix<V>& m)
{
    const auto* f = alternative<Pjds<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    return make_op<V, /*permuted=*/true>(
        upload(*f), [](const DevicePjds<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
                       StreamRef s) { spmv(a, alpha, x, beta, y, order, s); });
}

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_pjds_split(const AnyMatrix<V>& m)
{
    const auto* f = alternative<Pjds<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    DevicePjdsSplit<V> d;
    static_cast<DevicePjds<V>&>(d) = upload(*f);
    if (f->block_rows == 32) {
        std::vector<std::int32_t> widths;  // rowmax of the first row of each block of 32 rows
        for (std::int32_t k = 0; k < f->num_rows; k += 32) {
            widths.push_back(f->row_lengths[static_cast<std::size_t>(k)]);
        }
        const auto schedule = split_schedule(widths);
        d.schedule = DeviceBuffer<std::int32_t>::from_host(schedule, "pjds_split schedule");
        d.schedule_blocks = schedule.size();
    }
    return make_op<V, /*permuted=*/true>(
        std::move(d),
        [](const DevicePjdsSplit<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
           StreamRef s) { spmv_split(a, alpha, x, beta, y, order, s); });
}

}  // namespace detail
}  // namespace spmv::gpu

SPMV_INSTANTIATE_ASSEMBLE(pjds)
SPMV_INSTANTIATE_ASSEMBLE(pjds_split)
