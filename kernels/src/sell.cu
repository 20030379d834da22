// SELL-C-σ kernels. sell: one thread per stored row, C = 32 makes one warp one slice.
// sell_split: the same for narrow slices, T = 2..8 warps per slice for wide ones (C = 32 only,
// split.cuh); any other C falls back to the one-thread-per-row kernel.
//
// Bytes and floor (METHOD.md "two numbers first"), pde100 in double: N = 1,000,000 rows,
// nnz = 6,940,000. The project's bandwidth-limit bytes (bench.hpp spmv_min_bytes, beta = 0):
//   values 8 nnz + column indices 4 nnz + row pointers 4 (N+1) + x 8 N + y 8 N
//   = 55.52 + 27.76 + 4.00 + 8.00 + 8.00 MB = 103.28 MB per SpMV, and 2 nnz = 13.88 MFLOP.
// At the H100's measured device copy bandwidth (3.01 TB/s, read + write) that is a floor of
// 34.3 us, i.e. 405 GF/s; the 90 % target is 38.1 us / 364 GF/s. The flops are nothing
// (0.4 TFLOP/s at the floor against ~60 TFLOP/s of FP64): SpMV is purely bandwidth bound.
// What SELL-32-1 itself moves on pde100: 6.96 M slots (0.3 % padding; a padding slot costs its
// 4-byte index only) x 12 B + slice_ptrs/slice_widths (0.25 MB) + x + y, and no row_perm
// (σ = 1 is the identity) = 99.8 MB, a little under the limit's bytes (no row pointers).
// The x gathers of a 7-point stencil hit L2 after their first touch, so x costs ~8 MB.
// Measured (H100 SXM, 2026-11-22): spmv::gpu::bench cold (read-pass L2 flush), pde100 double:
// 38.4 us (89 % of the limit) with __ldg for the matrix arrays, 34.1 us = 407 GF/s (101 %) with
// the streaming loads of strided_row_sum (detail::ld_matrix<true>; since then chosen per launch:
// streaming when matrix + x + y exceed the L2, launch.cuh); cuSPARSE SELL 36.2 us in the same run.
// kernels/bench/sell_tune.cu has the block-size / unroll / load-kind experiments behind it.
//
// sell_i16 (spmv/gpu/sell_i16.hpp): the same kernel on 16-bit column offsets from a base column
// per slice (I = std::uint16_t): 10 instead of 12 B per slot in double, 6 instead of 8 in float,
// plus 4 B per slice. Measured (H100, 2026-11-22, spmvlab bench --gpu, cold L2, commit d4a97e2):
// pde150 116.4 -> 105.3 us (double) and 75.5 -> 62.8 us (float) against sell, cuSPARSE SELL
// 129.4 / 77.9 us; pde100 34.2 -> 31.2 us and 24.3 -> 20.6 us.
//
// Mapping (sell): thread k = stored row k; slice s = k / C, row r = k % C inside it; slot (r, j)
// is slice_ptrs[s] + j*C + r, so the C threads of a slice read C consecutive slots per column.
// Each thread loops to slice_widths[s] in steps of 8 slots (index loads first, predicated, see
// permuted.cuh), and loads its output row (row_perm[k]) before the loop.
//
// Launch order (ours, not the paper's): the plain launch runs its blocks of 128 rows widest
// width class first where the sort windows leave wide and narrow blocks mixed
// (spmv/gpu/block_order.hpp): block b computes block_order[b]. Measured on an H200, off / on
// alternating over two rounds (docs/benchmarks/h200_order_2026-11-30): a full sort by width took
// blocks5's sell_i16 in double 38.9 -> 35.0 us (88 % -> 98 % of the copy roof) but cost pde100 /
// pde150 1.5-4 %; the width classes (committed) 39.05 -> 36.61 us (87 % -> 93 %), sell 41.4 ->
// 40.2, and leave pde's blocks (one class) in blockIdx order. A grid of
// one resident wave or less keeps the blockIdx order too (block_order_pays), as does CG's fused
// dot launch (one resident wave striding over tiles).
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <spmv/gpu/block_order.hpp>
#include <spmv/gpu/sell.hpp>
#include <spmv/gpu/sell_i16.hpp>

#include "grid_sum.cuh"
#include "launch.cuh"
#include "permuted.cuh"
#include "split.cuh"
#include "variant_support.hpp"

namespace spmv::gpu {
namespace {

constexpr int block_size = 256;  // the dot path's resident wave (grid_sum) and the launch bound
// Threads per block of the plain SpMV launch (at most; detail::block_size_for halves it on small
// matrices). 128, where it was 256 until 2026-11-30. Measured on an H200 in one call, 256 / 128 /
// 64 alternating over two rounds, SELL-32 with sigma auto (docs/benchmarks/h200_roof_2026-11-30):
// sell_i16 in double 1.2-1.8 % faster on pde100, pde150 and the 60,000-block-row blocks5
// (pde100 25.18 -> 24.74 us, pde150 80.83 -> 79.66), 0.3 % on blocks5, 0.4-0.9 % in single;
// sell -0.7 to +1.0 % there, and 8 % (double) / 22 % (single) faster on the default power law,
// where a block of 256 waits for the longest of its eight slices. pJDS and cuSPARSE SELL,
// unchanged, moved by at most 0.3 %. Matrices of fewer rows than 2 x SMs x 256 (67,584 on an
// H200) launched 128 or fewer threads per block already.
constexpr int spmv_block_size = sell_spmv_block_threads;

// I: the column index type, std::int32_t (sell) or std::uint16_t (sell_i16: offsets from the
// slice's base column, slice_bases; nullptr for sell).
template <typename V, typename I = std::int32_t>
struct SellView {
    std::int32_t num_rows;
    std::int32_t slice_height;
    const std::int32_t* slice_ptrs;
    const std::int32_t* slice_widths;
    const std::int32_t* out_map;  ///< nullptr: y[k]; else y[out_map[k]]
    const std::int32_t* slice_bases;
    const I* col_idxs;
    const V* values;
    const std::int32_t* block_order;  ///< nullptr: block b computes block b (block_order.hpp)
};

template <typename V>
SellView<V> view(const DeviceSell<V>& a, RowOrder order)
{
    return {a.num_rows,
            a.slice_height,
            a.slice_ptrs.data(),
            a.slice_widths.data(),
            detail::output_map(a.row_perm.data(), a.identity_perm, order),
            nullptr,
            a.col_idxs.data(),
            a.values.data(),
            nullptr};
}

template <typename V>
SellView<V, std::uint16_t> view(const DeviceSellI16<V>& a, RowOrder order)
{
    return {a.num_rows,
            a.slice_height,
            a.slice_ptrs.data(),
            a.slice_widths.data(),
            detail::output_map(a.row_perm.data(), a.identity_perm, order),
            a.slice_bases.data(),
            a.col_offsets.data(),
            a.values.data(),
            nullptr};
}

// One thread per stored row (fixed_height > 0: C known at compile time, else a.slice_height).
// `streaming`: the matrix arrays' load kind (detail::ld_matrix, chosen per launch). Acc: the
// type of the sums (V, or double for a float matrix with Sums::double_precision). With 16-bit
// offsets (sell_i16) the slice's base column is a third load next to its width and first slot,
// and the row reads x + base. `dot` (DeviceOp::apply_dot; alpha = 1, beta = 0): each thread
// also multiplies its stored y entry by x at the same row, and the grid adds these products
// into sink.result (grid_sum.cuh). The dot launch is one resident wave of block_size-thread
// blocks, each taking 256-row tiles blockIdx.x, + gridDim.x, ...: the grid sum's fence and
// ticket then come once per resident block, not once per 256 rows (with a block per tile they
// kept every block resident ~2 us longer; pde150 float: +18 us per SpMV, measured on an H100).
// `ordered` (plain launch only): block b computes block a.block_order[b] (widest first, see
// spmv_sums); unordered launches are compiled without the order's test and load.
template <bool streaming, int fixed_height, typename Acc, bool dot, bool ordered, typename V,
          typename I>
__global__ void __launch_bounds__(block_size)
    sell_spmv_kernel(SellView<V, I> a, V alpha, const V* __restrict__ x, V beta, V* __restrict__ y,
                     DotSink sink)
{
    static_assert(!(dot && ordered), "the dot launch keeps the blockIdx order");
    SPMV_WARP_TRACE(trace);
    if constexpr (dot) {  // launched chained after the CG step that wrote x (launch.cuh)
        detail::chain_wait();
        detail::chain_release();
        if (sink.skip != nullptr && *sink.skip != 0) {
            return;  // every block returns: the grid sum's ticket is not touched
        }
    }
    double xy = 0.0;
    const std::uint32_t tiles =
        dot ? (static_cast<std::uint32_t>(a.num_rows) + block_size - 1) / block_size : 1;
    for (std::uint32_t tile = blockIdx.x; !dot || tile < tiles; tile += gridDim.x) {
        std::uint32_t blk = dot ? tile : blockIdx.x;
        if constexpr (ordered) {  // widest blocks first (a.block_order, see spmv_sums)
            blk = static_cast<std::uint32_t>(detail::ldg(a.block_order + blockIdx.x));
        }
        const std::uint32_t k = blk * blockDim.x + threadIdx.x;
        // k >= num_rows: padding rows of the last slice, nothing to compute or write
        if (k < static_cast<std::uint32_t>(a.num_rows)) {
            trace.row(k);
            const std::uint32_t row = detail::output_row(a.out_map, k);
            const std::uint32_t c = fixed_height > 0 ? fixed_height : a.slice_height;
            const std::uint32_t slice = k / c;
            const std::uint32_t r = k - slice * c;
            const std::int32_t width = detail::ldg(a.slice_widths + slice);
            const std::int32_t first =
                detail::ldg(a.slice_ptrs + slice) + static_cast<std::int32_t>(r);
            const V* xs = x;
            if constexpr (!std::is_same_v<I, std::int32_t>) {
                xs += detail::ldg(a.slice_bases + slice);
            }
            // the dot's own x entry, requested with the slice's header (not after the sum)
            const V x_row = dot ? detail::ldg(x + row) : V{};
            const Acc sum = detail::strided_row_sum<streaming, detail::row_unroll, V, Acc, I>(
                a.col_idxs + first, a.values + first, static_cast<std::int32_t>(c), width, xs);
            if constexpr (dot) {
                const auto yr = static_cast<V>(sum);
                y[row] = yr;
                xy += static_cast<double>(x_row) * static_cast<double>(yr);
            } else {
                detail::store_row(y, row, alpha, sum, beta);
            }
        }
        if constexpr (!dot) {
            break;  // one row per thread
        }
    }
    if constexpr (dot) {
        double total = 0.0;
        if (detail::grid_sum<block_size>(xy, sink.partials, sink.ticket, total) &&
            threadIdx.x == 0) {
            *sink.result = total;
        }
    }
}

// One launch of sell_spmv_kernel: a block per block_rows rows, or with a sink (the dot path)
// one resident wave of block_size-thread blocks (grid_sum's block size); the occupancy behind
// that wave is read once per instantiation.
template <bool streaming, int fixed_height, typename Acc, typename V, typename I>
void launch_sell(const SellView<V, I>& v, int block_rows, V alpha, const V* x, V beta, V* y,
                 const DotSink* sink, StreamRef stream)
{
    if (sink == nullptr) {
        const auto blocks = static_cast<unsigned>(detail::ceil_div(v.num_rows, block_rows));
        if (v.block_order != nullptr) {
            sell_spmv_kernel<streaming, fixed_height, Acc, false, true>
                <<<blocks, block_rows, 0, detail::native(stream)>>>(v, alpha, x, beta, y,
                                                                    DotSink{});
        } else {
            sell_spmv_kernel<streaming, fixed_height, Acc, false, false>
                <<<blocks, block_rows, 0, detail::native(stream)>>>(v, alpha, x, beta, y,
                                                                    DotSink{});
        }
        return;
    }
    static const std::int64_t resident = [] {
        int per_sm = 0;
        SPMV_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &per_sm, sell_spmv_kernel<streaming, fixed_height, Acc, true, false, V, I>, block_size,
            0));
        return std::int64_t{std::max(per_sm, 1)} * detail::multiprocessor_count();
    }();
    const auto grid = static_cast<unsigned>(
        std::min(detail::ceil_div<std::int64_t>(v.num_rows, block_size), resident));
    SPMV_EXPECTS(grid <= sink->capacity,
                 "sell: the dot sink holds " + std::to_string(sink->capacity) +
                     " partial sums, the launch needs " + std::to_string(grid));
    detail::launch_chained(&sell_spmv_kernel<streaming, fixed_height, Acc, true, false, V, I>, grid,
                           block_size, stream, v, alpha, x, beta, y, *sink);
}

// sell_xs: sell with x staged in shared memory by every block (small, latency-bound matrices;
// see ell.cu's ell_xs). The slice's pointer and width are requested first, x is staged while
// they travel, then the row's first `prefetch` slots are requested before the barrier: all of
// them when no slice is wider than 16, else 8, and then `prefetch` per round. Unlike ell_xs it
// does not request 16 first when a slice is wider: measured on an H200
// (docs/benchmarks/h200_xs_prefetch_2026-11-30), that form (16 first, then rounds of 8) was
// 5-40 % slower on matrices whose rows have 9-16 slots, although its PTX requests the same
// loads before the barrier there. The SASS showed why (docs/benchmarks/h200_xs_cpasync_2026-11-30):
// in that instantiation ptxas interleaved the loads and stores of x's staging, up to four DRAM
// round trips per step instead of one. x is staged through cp.async since (detail::stage_x),
// which has no such freedom; the 16-first form has not been timed again with it.
constexpr int xs_block_size = 128;

template <int prefetch, typename V>
__global__ void __launch_bounds__(xs_block_size)
    sell_xs_spmv_kernel(SellView<V> a, std::int32_t num_cols, V alpha, const V* __restrict__ x,
                        V beta, V* __restrict__ y)
{
    SPMV_WARP_TRACE(trace);
    extern __shared__ __align__(16) unsigned char xs_raw[];
    V* xs = reinterpret_cast<V*>(xs_raw);
    const std::uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    const bool active = k < static_cast<std::uint32_t>(a.num_rows);
    if (active) {
        trace.row(k);
    }
    const auto c = static_cast<std::uint32_t>(a.slice_height);
    std::uint32_t row = 0;
    std::int32_t width = 0;
    std::int32_t first_slot = 0;
    if (active) {
        row = detail::output_row(a.out_map, k);
        const std::uint32_t slice = k / c;
        width = detail::ldg(a.slice_widths + slice);
        first_slot = detail::ldg(a.slice_ptrs + slice) + static_cast<std::int32_t>(k - slice * c);
    }
    detail::SlotPrefetch<prefetch, V> first;
    first.load(a.col_idxs + first_slot, a.values + first_slot, static_cast<std::int32_t>(c), width);
    detail::stage_x(x, xs, num_cols);
    __syncthreads();  // every thread reaches it: no early return above
    if (!active) {
        return;
    }
    const V sum = detail::strided_row_sum_xs<prefetch, prefetch>(
        first, a.col_idxs + first_slot, a.values + first_slot, static_cast<std::int32_t>(c), width,
        xs);
    detail::store_row(y, row, alpha, sum, beta);
}

/// sell_split: DeviceSell plus the block schedule of the split kernel (C = 32 only).
template <typename V>
struct DeviceSellSplit : DeviceSell<V> {
    DeviceBuffer<std::int32_t> schedule;
    std::size_t schedule_blocks = 0;

    std::size_t device_bytes() const noexcept
    {
        return DeviceSell<V>::device_bytes() + schedule.bytes();
    }
};

template <typename V>
void spmv_split(const DeviceSellSplit<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
                StreamRef stream)
{
    if (a.slice_height != 32) {  // the split kernel needs one warp per slice
        spmv(static_cast<const DeviceSell<V>&>(a), alpha, x, beta, y, order, stream);
        return;
    }
    const detail::SellSplitLayout<V> layout{a.slice_ptrs.data(), a.slice_widths.data(),
                                            a.col_idxs.data(), a.values.data()};
    detail::launch_split(layout, a.schedule_blocks > 0 ? a.schedule.data() : nullptr,
                         a.schedule_blocks, static_cast<std::int32_t>(a.slice_widths.size()),
                         a.num_rows, detail::output_map(a.row_perm.data(), a.identity_perm, order),
                         alpha, x, beta, y, stream, detail::stream_matrix_loads_for<V>(a));
}

}  // namespace

namespace {

// What sell and sell_i16 share: the sizes and every array but the column indices.
template <typename V>
std::size_t shared_bytes(const SellCSigma<V, std::int32_t>& a)
{
    // 2 x slice_widths: the widths and, at most one entry per slice, the block order
    return (a.slice_ptrs.size() + 2 * a.slice_widths.size() + a.row_perm.size()) *
               sizeof(std::int32_t) +
           a.values.size() * sizeof(V);
}

template <typename D, typename V>
void upload_shared(D& d, const SellCSigma<V, std::int32_t>& a, const std::string& name)
{
    d.num_rows = a.num_rows;
    d.num_cols = a.num_cols;
    d.slice_height = a.slice_height;
    d.sort_window = a.sort_window;
    d.identity_perm = detail::is_identity(a.row_perm);
    d.slice_ptrs = DeviceBuffer<std::int32_t>::from_host(a.slice_ptrs, name + " slice_ptrs");
    d.slice_widths = DeviceBuffer<std::int32_t>::from_host(a.slice_widths, name + " slice_widths");
    d.max_width = a.slice_widths.empty()
                      ? 0
                      : *std::max_element(a.slice_widths.begin(), a.slice_widths.end());
    d.row_perm = DeviceBuffer<std::int32_t>::from_host(a.row_perm, name + " row_perm");
    d.values = DeviceBuffer<V>::from_host(a.values, name + " values");
    // the plain launch's blocks widest first (spmv_sums), for the block this device launches,
    // where the grid is more than one resident wave
    const int rows = detail::block_size_for(a.num_rows, spmv_block_size);
    if (rows % a.slice_height == 0 &&
        block_order_pays(detail::ceil_div<std::int64_t>(a.num_rows, rows), rows,
                         detail::multiprocessor_count(), detail::threads_per_multiprocessor())) {
        const auto order = widest_first_block_order(a.slice_widths, rows / a.slice_height);
        if (!order.empty()) {
            d.order_block_rows = rows;
            d.block_order = DeviceBuffer<std::int32_t>::from_host(order, name + " block_order");
        }
    }
}

}  // namespace

template <typename V>
DeviceSell<V> upload(const SellCSigma<V, std::int32_t>& a)
{
    SPMV_EXPECTS(a.slice_height >= 1, "sell: slice_height must be at least 1");
    ensure_device_memory("sell", shared_bytes(a) + a.col_idxs.size() * sizeof(std::int32_t));
    DeviceSell<V> d;
    upload_shared(d, a, "sell");
    d.col_idxs = DeviceBuffer<std::int32_t>::from_host(a.col_idxs, "sell col_idxs");
    return d;
}

SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_SELL_UPLOAD);

namespace {

// sell and sell_i16 (Fmt = DeviceSell<V> or DeviceSellI16<V>), sums in Acc. With a `sink`:
// y = A x and x.y fused (DeviceOp::apply_dot; alpha and beta are ignored).
template <typename Acc, typename V, typename Fmt>
void spmv_sums(const Fmt& a, V alpha, const V* x, V beta, V* y, RowOrder order, StreamRef stream,
               const DotSink* sink = nullptr)
{
    if (a.num_rows == 0) {
        if (sink != nullptr) {
            SPMV_CUDA_CHECK(
                cudaMemsetAsync(sink->result, 0, sizeof(double), detail::native(stream)));
        }
        return;
    }
    auto v = view(a, order);
    const int b = detail::block_size_for(a.num_rows, spmv_block_size);
    if (sink == nullptr) {
        if (b == a.order_block_rows) {  // widest blocks first (upload_shared)
            v.block_order = a.block_order.data();
        }
        note_block_order({v.block_order != nullptr, detail::ceil_div<std::int64_t>(a.num_rows, b),
                          b,
                          resident_blocks(b, detail::multiprocessor_count(),
                                          detail::threads_per_multiprocessor()),
                          b % a.slice_height == 0});
    }
    detail::with_stream_policy(detail::stream_matrix_loads_for<V>(a), [&](auto s) {
        constexpr bool streaming = decltype(s)::value;
        if (a.slice_height == 32) {
            launch_sell<streaming, 32, Acc>(v, b, alpha, x, beta, y, sink, stream);
        } else {
            launch_sell<streaming, 0, Acc>(v, b, alpha, x, beta, y, sink, stream);
        }
    });
    SPMV_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

template <typename V>
void spmv(const DeviceSell<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
          StreamRef stream)
{
    spmv_sums<V>(a, alpha, x, beta, y, order, stream);
}

SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_SELL_SPMV);

template <typename V>
DeviceSellI16<V> upload_sell_i16(const SellCSigma<V, std::int32_t>& a)
{
    SPMV_EXPECTS(a.slice_height >= 1, "sell_i16: slice_height must be at least 1");
    const SellI16Columns cols = encode_sell_i16_columns(a);  // throws before any allocation
    ensure_device_memory("sell_i16", shared_bytes(a) + cols.bases.size() * sizeof(std::int32_t) +
                                         cols.offsets.size() * sizeof(std::uint16_t));
    DeviceSellI16<V> d;
    upload_shared(d, a, "sell_i16");
    d.slice_bases = DeviceBuffer<std::int32_t>::from_host(cols.bases, "sell_i16 slice_bases");
    d.col_offsets = DeviceBuffer<std::uint16_t>::from_host(cols.offsets, "sell_i16 col_offsets");
    return d;
}

SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_UPLOAD_SELL_I16);

template <typename V>
void spmv(const DeviceSellI16<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
          StreamRef stream)
{
    spmv_sums<V>(a, alpha, x, beta, y, order, stream);
}

SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_SELL_I16_SPMV);

namespace {

template <typename V>
void spmv_xs(const DeviceSell<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
             StreamRef stream)
{
    if (a.num_rows == 0) {
        return;
    }
    if (a.num_cols > detail::xs_max_cols<V>) {  // x does not fit: the plain kernel
        spmv(a, alpha, x, beta, y, order, stream);
        return;
    }
    const SellView<V> v = view(a, order);
    const auto smem = static_cast<std::size_t>(a.num_cols) * sizeof(V);
    const auto launch = [&]<int prefetch>() {
        // x may take the whole default 48 KiB beside the warp recorder's static bytes
        [[maybe_unused]] static const bool opted_in =
            detail::allow_dynamic_shared(sell_xs_spmv_kernel<prefetch, V>, 48 * 1024);
        sell_xs_spmv_kernel<prefetch>
            <<<static_cast<unsigned>(detail::ceil_div(a.num_rows, xs_block_size)), xs_block_size,
               smem, detail::native(stream)>>>(v, a.num_cols, alpha, x, beta, y);
    };
    if (a.max_width > detail::row_unroll && a.max_width <= detail::xs_row_prefetch) {
        launch.template operator()<detail::xs_row_prefetch>();
    } else {
        launch.template operator()<detail::row_unroll>();
    }
    SPMV_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

namespace detail {

// sell and sell_xs: the same device matrix, launched by `launch` (spmv or spmv_xs).
template <typename V, auto launch>
std::unique_ptr<DeviceOp<V>> assemble_sell_with(const AnyMatrix<V>& m)
{
    const auto* f = alternative<SellCSigma<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    return make_op<V, /*permuted=*/true>(
        upload(*f), [](const DeviceSell<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
                       StreamRef s) { launch(a, alpha, x, beta, y, order, s); });
}

// sell and sell_i16: the SELL arrays uploaded by `up` (upload or upload_sell_i16), run by
// spmv_sums; a float matrix also gets the kernel with double sums (Sums::double_precision).
// Both have the fused x.y path (DeviceOp::apply_dot) for CG.
template <typename V, auto up>
std::unique_ptr<DeviceOp<V>> assemble_sell_sums(const AnyMatrix<V>& m)
{
    const auto* f = alternative<SellCSigma<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    using Fmt = decltype(up(*f));
    const auto launch = [](const Fmt& a, V alpha, const V* x, V beta, V* y, RowOrder order,
                           StreamRef s) { spmv_sums<V>(a, alpha, x, beta, y, order, s); };
    const auto dot = [](const Fmt& a, const V* x, V* y, RowOrder order, Sums sums,
                        const DotSink& sink, StreamRef s) {
        if (std::is_same_v<V, float> && sums == Sums::double_precision) {
            spmv_sums<double>(a, V{1}, x, V{0}, y, order, s, &sink);
        } else {
            spmv_sums<V>(a, V{1}, x, V{0}, y, order, s, &sink);
        }
    };
    if constexpr (std::is_same_v<V, float>) {
        return make_op<V, /*permuted=*/true>(
            up(*f), launch,
            [](const Fmt& a, V alpha, const V* x, V beta, V* y, RowOrder order, StreamRef s) {
                spmv_sums<double>(a, alpha, x, beta, y, order, s);
            },
            dot);
    } else {
        return make_op<V, /*permuted=*/true>(up(*f), launch, NoWideLaunch{}, dot);
    }
}

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_sell(const AnyMatrix<V>& m)
{
    return assemble_sell_sums<V, &upload<V>>(m);
}

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_sell_i16(const AnyMatrix<V>& m)
{
    return assemble_sell_sums<V, &upload_sell_i16<V>>(m);
}

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_sell_xs(const AnyMatrix<V>& m)
{
    return assemble_sell_with<V, &spmv_xs<V>>(m);
}

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_sell_split(const AnyMatrix<V>& m)
{
    const auto* f = alternative<SellCSigma<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    DeviceSellSplit<V> d;
    static_cast<DeviceSell<V>&>(d) = upload(*f);
    if (f->slice_height == 32) {
        const auto schedule = split_schedule(f->slice_widths);
        d.schedule = DeviceBuffer<std::int32_t>::from_host(schedule, "sell_split schedule");
        d.schedule_blocks = schedule.size();
    }
    return make_op<V, /*permuted=*/true>(
        std::move(d),
        [](const DeviceSellSplit<V>& a, V alpha, const V* x, V beta, V* y, RowOrder order,
           StreamRef s) { spmv_split(a, alpha, x, beta, y, order, s); });
}

}  // namespace detail
}  // namespace spmv::gpu

SPMV_INSTANTIATE_ASSEMBLE(sell)
SPMV_INSTANTIATE_ASSEMBLE(sell_xs)
SPMV_INSTANTIATE_ASSEMBLE(sell_split)
SPMV_INSTANTIATE_ASSEMBLE(sell_i16)
