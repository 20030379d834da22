#pragma once
// Device helpers shared by the kernels of the permuted formats (registry entries with
// permuted = true: JDS, pJDS, PELLR, SELL-C-sigma, ...): where the result of stored row k goes, and the inner loop over a row whose
// slots lie `stride` apart (column-major layouts: ELLPACK-R, SELL slices, BiELL groups).
#include <cstdint>
#include <span>
#include <type_traits>

#include <cuda_pipeline.h>

#include <spmv/types.hpp>

#include "launch.cuh"

namespace spmv::gpu::detail {

/// True when perm[k] == k for every k (SELL-C-1, or rows that were already sorted): the kernel
/// then writes y[k] directly and does not read row_perm at all (4 bytes per row saved).
inline bool is_identity(std::span<const std::int32_t> perm)
{
    for (std::size_t k = 0; k < perm.size(); ++k) {
        if (perm[k] != static_cast<std::int32_t>(k)) {
            return false;
        }
    }
    return true;
}

/// The scatter map handed to a kernel: nullptr means "stored row k is y[k]" (RowOrder::permuted,
/// or an identity row_perm), otherwise y[perm[k]] (RowOrder::original: the un-permute step is
/// folded into the kernel's single store).
inline const std::int32_t* output_map(const std::int32_t* perm, bool identity, RowOrder order)
{
    return order == RowOrder::permuted || identity ? nullptr : perm;
}

/// Row of y that stored row k goes to: out_map[k], or k when there is no map. Kernels load it
/// before their inner loop, so that its latency overlaps the loads of the row.
__device__ __forceinline__ std::uint32_t output_row(const std::int32_t* __restrict__ map,
                                                    std::uint32_t k)
{
    return map == nullptr ? k : static_cast<std::uint32_t>(ldg(map + k));
}

/// y[row] = alpha * sum + beta * y[row], never reading y when beta == 0 (in Acc, see
/// axpby_store).
template <typename Acc, typename V>
__device__ __forceinline__ void store_row(V* __restrict__ y, std::uint32_t row, V alpha, Acc sum,
                                          V beta)
{
    axpby_store(y + row, alpha, sum, beta);
}

/// Slots per step of the inner loops: `unroll` index loads are issued together (predicated on
/// the row length, so there is no serial remainder loop), then the value loads and the gathers
/// of x of the real ones. 8 covers the 7-point stencil in one step.
inline constexpr int row_unroll = 8;

/// Whether a column index read from a matrix is the padding sentinel: -1 (any negative value)
/// for signed indices, exactly padding_index<I> (0xFFFF) for sell_i16's unsigned offsets. For
/// int32 this is the `c < 0` the kernels always tested (same instruction).
template <typename I>
__device__ __forceinline__ constexpr bool is_padding(I c)
{
    if constexpr (std::is_signed_v<I>) {
        return c < 0;
    } else {
        return c == padding_index<I>;
    }
}

/// sum_{j < count} val[j*stride] * x[idx[j*stride]] in steps of `unroll` slots (see above),
/// into two independent accumulators. Index and value of a slot are loaded together (the value
/// load does not wait for the index: one DRAM round trip less per step than predicating it on
/// the index); a slot holding padding_index (-1) skips only the gather of x. Padding slots
/// inside `count` exist only where a neighbouring lane of the warp has a real slot (SELL pads a
/// slice to its longest row), so their values lie in sectors the warp loads anyway. `streaming`:
/// the load kind of idx and val (ld_matrix, chosen per launch) and of x (ld_x). Acc: the type
/// of the sums (V, or double for a float kernel with Sums::double_precision). I: the index type, std::int32_t
/// (column indices) or std::uint16_t (sell_i16's offsets from a slice's base column: the caller
/// passes x shifted by the base, padding is 0xFFFF).
template <bool streaming, int unroll, typename V, typename Acc = V, typename I = std::int32_t>
__device__ __forceinline__ Acc strided_row_sum(const I* __restrict__ idx, const V* __restrict__ val,
                                               std::int32_t stride, std::int32_t count,
                                               const V* __restrict__ x)
{
    const std::uint64_t policy = x_policy<streaming>();
    Acc s0{0};
    Acc s1{0};
    for (std::int32_t j = 0; j < count; j += unroll) {
        I c[unroll];
        V v[unroll];
#pragma unroll
        for (int u = 0; u < unroll; ++u) {
            const bool in = j + u < count;
            c[u] = in ? ld_matrix<streaming>(idx + u * stride) : padding_index<I>;
            v[u] = in ? ld_matrix<streaming>(val + u * stride) : V{0};
        }
#pragma unroll
        for (int u = 0; u < unroll; ++u) {
            const bool real = !is_padding(c[u]);
            const V xv = real ? ld_x<streaming>(x + c[u], policy) : V{0};
            if (u % 2 == 0) {
                s0 += product<Acc>(v[u], xv);
            } else {
                s1 += product<Acc>(v[u], xv);
            }
        }
        idx += unroll * stride;
        val += unroll * stride;
    }
    return s0 + s1;
}

}  // namespace spmv::gpu::detail

namespace spmv::gpu::detail {

/// x staged in shared memory ("_xs" kernels, for small latency-bound matrices): the largest
/// number of columns whose x fits the 48 KiB of static shared memory every block may use.
template <typename V>
inline constexpr std::int32_t xs_max_cols = static_cast<std::int32_t>(48 * 1024 / sizeof(V));

/// The first `unroll` slots of a strided row (idx and val of slot j at j*stride), loaded into
/// registers BEFORE the block stages x, so that the DRAM latency of the matrix and of x overlap
/// instead of adding up. Slots past `count` hold padding (-1, 0). A padding slot inside the row
/// loads its 0 value too: no load depends on another one.
template <int unroll, typename V>
struct SlotPrefetch {
    std::int32_t c[unroll];
    V v[unroll];

    __device__ __forceinline__ void load(const std::int32_t* __restrict__ idx,
                                         const V* __restrict__ val, std::int32_t stride,
                                         std::int32_t count)
    {
#pragma unroll
        for (int u = 0; u < unroll; ++u) {
            const bool in = u < count;
            c[u] = in ? ldg(idx + u * stride) : padding_index<std::int32_t>;
            v[u] = in ? ldg(val + u * stride) : V{0};
        }
    }
};

/// The most slots a row of the "_xs" kernels requests before the block stages x
/// (SlotPrefetch<xs_row_prefetch>): a row of at most 16 then takes one DRAM round trip for its
/// matrix and x together. A launch whose longest row has at most 8 slots requests 8.
inline constexpr int xs_row_prefetch = 2 * row_unroll;

/// The slots a row requests before the barrier, by the launch's longest row: 8 up to 8 slots,
/// else 16 (ell_xs: then rounds of 8 where a row is longer; sell_xs requests 16 only when no row
/// is longer, see sell.cu).
constexpr int xs_prefetch_for(std::int32_t longest_row) noexcept
{
    return longest_row > row_unroll ? xs_row_prefetch : row_unroll;
}

/// x entries each thread of stage_x has in flight per step.
inline constexpr int xs_stage_batch = 4;

/// Every thread of the block copies part of x (n entries) into shared memory, xs_stage_batch
/// entries per step, all requested before the first is stored: a step is one DRAM round trip
/// for 4 * blockDim.x entries (a rolled loop of one entry per step waited for each load in
/// turn: ceil(n / 128) round trips of about 0.18 us on an H200). The caller synchronises the
/// block before reading xs.
///
/// On sm_80 and later the copies are cp.async (global to shared, no registers between): a step's
/// copies are all issued, then waited for. Through registers, ptxas interleaved the batch's loads
/// and stores in some instantiations (LDG LDG STS STS LDG LDG STS STS in SASS: a store waits for
/// its load, so a step took two DRAM round trips, or four): ell_xs with rounds of 8 and sell_xs
/// in double. On an H200 cp.async took a median 0.94-0.97 of the time where x spans more than
/// one step in double and on ell_xs's long rows in single (down to 0.80), and 1.00-1.01 where
/// the register batch had been scheduled whole (docs/benchmarks/h200_xs_cpasync_2026-11-30).
template <typename V>
__device__ __forceinline__ void stage_x(const V* __restrict__ x, V* xs, std::int32_t n)
{
    const auto step = static_cast<std::int32_t>(blockDim.x);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    for (std::int32_t i0 = static_cast<std::int32_t>(threadIdx.x); i0 < n;
         i0 += xs_stage_batch * step) {
#pragma unroll
        for (int u = 0; u < xs_stage_batch; ++u) {
            const std::int32_t i = i0 + u * step;
            if (i < n) {
                __pipeline_memcpy_async(xs + i, x + i, sizeof(V));
            }
        }
        __pipeline_commit();
        __pipeline_wait_prior(0);
    }
#else
    for (std::int32_t i0 = static_cast<std::int32_t>(threadIdx.x); i0 < n;
         i0 += xs_stage_batch * step) {
        V v[xs_stage_batch];
#pragma unroll
        for (int u = 0; u < xs_stage_batch; ++u) {
            const std::int32_t i = i0 + u * step;
            v[u] = i < n ? ldg(x + i) : V{0};
        }
#pragma unroll
        for (int u = 0; u < xs_stage_batch; ++u) {
            const std::int32_t i = i0 + u * step;
            if (i < n) {
                xs[i] = v[u];
            }
        }
    }
#endif
}

/// strided_row_sum with x in shared memory, the first `first_n` slots already in registers
/// (SlotPrefetch), then `step` slots per round. Index and value loads of a step are
/// independent of each other.
template <int first_n, int step, typename V>
__device__ __forceinline__ V strided_row_sum_xs(const SlotPrefetch<first_n, V>& first,
                                                const std::int32_t* __restrict__ idx,
                                                const V* __restrict__ val, std::int32_t stride,
                                                std::int32_t count, const V* xs)
{
    V s0{0};
    V s1{0};
#pragma unroll
    for (int u = 0; u < first_n; ++u) {
        const V xv = first.c[u] >= 0 ? xs[first.c[u]] : V{0};
        if (u % 2 == 0) {
            s0 += first.v[u] * xv;
        } else {
            s1 += first.v[u] * xv;
        }
    }
    // The two loops below compute the same sums; each is the form whose compiled code was
    // measured (docs/benchmarks/h200_xs_prefetch_2026-11-30). The code nvcc makes of this loop
    // decides the time of ell_xs on long rows: the second form with the pointers advanced at the
    // top of the loop ran ell_xs in single precision up to 3x slower on rows of 20-300 slots,
    // with the first 16 requested; measured in one form, the kernel keeps that form.
    if constexpr (first_n == step) {  // sell_xs; ell_xs when no row is longer than 16
        for (std::int32_t j = step; j < count; j += step) {
            idx += step * stride;
            val += step * stride;
            SlotPrefetch<step, V> next;
            next.load(idx, val, stride, count - j);
#pragma unroll
            for (int u = 0; u < step; ++u) {
                const V xv = next.c[u] >= 0 ? xs[next.c[u]] : V{0};
                if (u % 2 == 0) {
                    s0 += next.v[u] * xv;
                } else {
                    s1 += next.v[u] * xv;
                }
            }
        }
    } else {  // ell_xs: the first 16, then rounds of 8
        idx += first_n * stride;
        val += first_n * stride;
        for (std::int32_t j = first_n; j < count; j += step) {
            SlotPrefetch<step, V> next;
            next.load(idx, val, stride, count - j);
#pragma unroll
            for (int u = 0; u < step; ++u) {
                const V xv = next.c[u] >= 0 ? xs[next.c[u]] : V{0};
                if (u % 2 == 0) {
                    s0 += next.v[u] * xv;
                } else {
                    s1 += next.v[u] * xv;
                }
            }
            idx += step * stride;
            val += step * stride;
        }
    }
    return s0 + s1;
}

}  // namespace spmv::gpu::detail
