#pragma once
// The "split" kernel shared by sell_split (SELL-32-σ), pellr_split and pjds_split (b_r = 32):
// layouts made of groups of 32 consecutive stored rows, column-major inside the group, so that
// slot (row `lane` of group g, column j) = slot(g, j) + lane and a warp reads one column of a
// group as 32 consecutive slots. Only the addressing differs:
//   SELL-32:  slice_ptrs[g] + 32 j          width = slice_widths[g]
//   PELLR:    32 g + j * stride             width = rl[32 g] (rows sorted: the first is longest)
//   pJDS-32:  col_start[j] + 32 g           width = rowmax[32 g]
// Slots past a row's end (up to the group's width) hold padding_index: they cost their 4-byte
// index, not their value nor x.
//
// Mapping: T = 1, 2, 4 or 8 warps per group (T chosen per group from its width, so that a warp
// walks at most split_columns_per_warp columns when T = 8 allows). Warp t of a group takes
// columns t, t + T, t + 2T, ...; lane r is row r of the group. With T > 1 the T partial sums of
// a row meet in shared memory and warp 0 of the group writes y. One thread per row (T = 1)
// keeps the format's own mapping for ordinary rows; only wide groups are split, which removes
// the serial walk of one thread along a very long row (power-law matrices: rows of 500 entries
// in a warp of 32 would otherwise cost 500 dependent load steps).
//
// Blocks are 256 threads = 8 warps. A block holds 8/T consecutive groups of the same T; the
// schedule (one int32 per block: first group << 5 | (groups - 1) << 2 | log2 T) is built once on
// the host at upload. When every group has T = 1 there is no schedule: block b takes groups
// 8b .. 8b + 7 (nothing is loaded to find them).
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/types.hpp>

#include "launch.cuh"
#include "permuted.cuh"

namespace spmv::gpu::detail {

inline constexpr int split_block_size = 256;
inline constexpr int split_warps = split_block_size / 32;
/// Target columns per warp: a group of width w gets the smallest T in {1, 2, 4, 8} with
/// ceil(w / T) <= this (T = 8 beyond 8 times this).
inline constexpr int split_columns_per_warp = 16;

inline int split_log_t(std::int32_t width, int columns_per_warp)
{
    int log_t = 0;
    while (log_t < 3 && (width + (1 << log_t) - 1) / (1 << log_t) > columns_per_warp) {
        ++log_t;
    }
    return log_t;
}

/// The block schedule for groups of the given widths; empty when every group has T = 1.
inline std::vector<std::int32_t> split_schedule(std::span<const std::int32_t> group_widths,
                                                int columns_per_warp = split_columns_per_warp)
{
    std::vector<std::int32_t> blocks;
    bool all_single = true;
    const auto n = static_cast<std::int32_t>(group_widths.size());
    for (std::int32_t g = 0; g < n;) {
        const int log_t = split_log_t(group_widths[static_cast<std::size_t>(g)], columns_per_warp);
        const int per_block = split_warps >> log_t;
        const std::int32_t first = g;
        int count = 0;
        while (g < n && count < per_block &&
               split_log_t(group_widths[static_cast<std::size_t>(g)], columns_per_warp) == log_t) {
            ++g;
            ++count;
        }
        all_single = all_single && log_t == 0;
        blocks.push_back(first << 5 | (count - 1) << 2 | log_t);
    }
    if (all_single) {
        blocks.clear();
    }
    return blocks;
}

/// Where group g starts and how wide it is (per lane: `base` includes the lane).
struct SplitCursor {
    std::int32_t base;
    std::int32_t width;
};

template <typename V>
struct SellSplitLayout {  // SELL-32: slot(g, j) = slice_ptrs[g] + 32 j
    const std::int32_t* slice_ptrs;
    const std::int32_t* slice_widths;
    const std::int32_t* col_idxs;
    const V* values;
    __device__ SplitCursor group(std::int32_t g, std::int32_t lane) const
    {
        return {ldg(slice_ptrs + g) + lane, ldg(slice_widths + g)};
    }
    __device__ std::int32_t slot(const SplitCursor& c, std::int32_t j) const
    {
        return c.base + 32 * j;
    }
};

template <typename V>
struct PellrSplitLayout {  // PELLR: slot(g, j) = 32 g + j * stride
    std::int32_t stride;
    const std::int32_t* row_lengths;
    const std::int32_t* col_idxs;
    const V* values;
    __device__ SplitCursor group(std::int32_t g, std::int32_t lane) const
    {
        return {32 * g + lane, ldg(row_lengths + 32 * g)};
    }
    __device__ std::int32_t slot(const SplitCursor& c, std::int32_t j) const
    {
        return c.base + j * stride;
    }
};

/// The sum of row `lane` of group g over the columns t, t + T, ... < width, `unroll` columns
/// per step (index loads first, predicated; padding skips value and x). `streaming`: the load
/// kind of the matrix arrays (ld_matrix, chosen per launch).
template <bool streaming, int unroll, typename Layout, typename V>
__device__ __forceinline__ V split_row_sum(const Layout& a, const SplitCursor& cur, int t,
                                           int num_t, const V* __restrict__ x)
{
    V s0{0};
    V s1{0};
    for (std::int32_t j = t; j < cur.width; j += unroll * num_t) {
        std::int32_t c[unroll];
        std::int32_t o[unroll];
#pragma unroll
        for (int u = 0; u < unroll; ++u) {
            const std::int32_t jj = j + u * num_t;
            o[u] = jj < cur.width ? a.slot(cur, jj) : 0;
            c[u] = jj < cur.width ? ld_matrix<streaming>(a.col_idxs + o[u])
                                  : padding_index<std::int32_t>;
        }
#pragma unroll
        for (int u = 0; u < unroll; ++u) {
            const bool real = c[u] >= 0;
            const V v = real ? ld_matrix<streaming>(a.values + o[u]) : V{0};
            const V xv = real ? ldg(x + c[u]) : V{0};
            if (u % 2 == 0) {
                s0 += v * xv;
            } else {
                s1 += v * xv;
            }
        }
    }
    return s0 + s1;
}

// Groups of 32 rows, T warps per group (see the top of this file).
template <bool streaming, int unroll, typename Layout, typename V>
__global__ void __launch_bounds__(split_block_size)
    split_spmv_kernel(const __grid_constant__ Layout a, const std::int32_t* __restrict__ schedule,
                      std::int32_t num_groups, std::int32_t num_rows,
                      const std::int32_t* __restrict__ out_map, V alpha, const V* __restrict__ x,
                      V beta, V* __restrict__ y)
{
    SPMV_WARP_TRACE(trace);
    __shared__ V partial[split_warps][32];
    const int warp = static_cast<int>(threadIdx.x >> 5);
    const int lane = static_cast<int>(threadIdx.x & 31);
    std::int32_t first = static_cast<std::int32_t>(blockIdx.x) * split_warps;
    int count = min(split_warps, num_groups - first);
    int log_t = 0;
    if (schedule != nullptr) {
        const std::int32_t e = ldg(schedule + blockIdx.x);
        first = e >> 5;
        count = ((e >> 2) & 7) + 1;
        log_t = e & 3;
    }
    const int num_t = 1 << log_t;
    const int t = warp & (num_t - 1);
    const std::int32_t g = first + (warp >> log_t);
    const std::uint32_t k = static_cast<std::uint32_t>(g) * 32 + static_cast<std::uint32_t>(lane);
    const bool active = (warp >> log_t) < count && k < static_cast<std::uint32_t>(num_rows);
    const std::uint32_t row = active && t == 0 ? output_row(out_map, k) : 0;
    if (active) {
        trace.row(k);
    }
    V sum{0};
    if (active) {
        sum = split_row_sum<streaming, unroll>(a, a.group(g, lane), t, num_t, x);
    }
    if (num_t > 1) {  // block-uniform
        partial[warp][lane] = sum;
        __syncthreads();
        if (t == 0) {
            for (int i = 1; i < num_t; ++i) {
                sum += partial[warp + i][lane];
            }
        }
    }
    if (active && t == 0) {
        store_row(y, row, alpha, sum, beta);
    }
}

/// Launches split_spmv_kernel over num_groups groups of 32 rows; `streaming` picks the load kind
/// of the matrix arrays (stream_matrix_loads_for of the caller's device format).
template <int unroll = row_unroll, typename Layout, typename V>
void launch_split(const Layout& a, const std::int32_t* schedule, std::size_t schedule_blocks,
                  std::int32_t num_groups, std::int32_t num_rows, const std::int32_t* out_map,
                  V alpha, const V* x, V beta, V* y, StreamRef stream, bool streaming)
{
    if (num_rows == 0) {
        return;
    }
    const auto blocks = schedule != nullptr
                            ? static_cast<unsigned>(schedule_blocks)
                            : static_cast<unsigned>(ceil_div(num_groups, split_warps));
    with_stream_policy(streaming, [&](auto s) {
        split_spmv_kernel<decltype(s)::value, unroll>
            <<<blocks, split_block_size, 0, native(stream)>>>(a, schedule, num_groups, num_rows,
                                                              out_map, alpha, x, beta, y);
    });
    SPMV_CUDA_CHECK(cudaGetLastError());
}

}  // namespace spmv::gpu::detail
