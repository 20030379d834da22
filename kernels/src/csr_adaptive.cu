// CSR-adaptive SpMV: one block of 256 threads per group of rows (stream, row or piece group),
// the group table in the kernel parameters for small plans. Design and plan:
// spmv/gpu/csr_adaptive.hpp, csr_adaptive_plan.cpp.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include <spmv/error.hpp>
#include <spmv/gpu/csr_adaptive.hpp>

#include "launch.cuh"
#include "variant_support.hpp"

namespace spmv::gpu {
namespace {

constexpr int block = csr_adaptive_block;
constexpr int warp_size = 32;
constexpr int warps = block / warp_size;
constexpr unsigned full_mask = 0xffffffffu;
constexpr int stream_loads = 1024 / block;  // stream_nnz <= 1024: at most 4 nonzeros per thread
constexpr int row_steps = 8;                // piece_nnz <= 2048: 8 steps of 256 in flight

template <typename V>
struct AdaptiveView {
    const std::int32_t* row_ptrs;
    const std::int32_t* col_idxs;
    const V* values;
    const std::int32_t* group_row;  // device table (nullptr on the parameter path)
    const std::int32_t* group_nnz;
    double* partials;
    std::uint32_t* arrivals;
    std::int32_t piece_nnz;
};

// Sum over the block in a fixed order (shuffle tree per warp, then warp 0 over the warps);
// the total is valid in thread 0.
template <typename Acc>
__device__ __forceinline__ Acc block_sum(Acc s, Acc* s_warp)
{
    const int lane = static_cast<int>(threadIdx.x) % warp_size;
    const int warp = static_cast<int>(threadIdx.x) / warp_size;
#pragma unroll
    for (int off = warp_size / 2; off > 0; off /= 2) {
        s += __shfl_down_sync(full_mask, s, off);
    }
    if (lane == 0) {
        s_warp[warp] = s;
    }
    __syncthreads();
    Acc t{0};
    if (warp == 0) {
        t = lane < warps ? s_warp[lane] : Acc{0};
#pragma unroll
        for (int off = warps / 2; off > 0; off /= 2) {
            t += __shfl_down_sync(full_mask, t, off);
        }
    }
    return t;
}

// This thread's share of the products of nonzeros [b, e): 8 strided steps of 256 per round,
// all loads of a round in flight before the first x gather.
template <typename Acc, typename V>
__device__ __forceinline__ Acc strided_products(const AdaptiveView<V>& a, std::int32_t b,
                                                std::int32_t e, const V* __restrict__ x)
{
    const int t = static_cast<int>(threadIdx.x);
    Acc s{0};
    for (std::int32_t base = b; base < e; base += block * row_steps) {
        std::int32_t c[row_steps];
        V v[row_steps];
#pragma unroll
        for (int u = 0; u < row_steps; ++u) {
            const std::int32_t i = base + t + u * block;
            if (i < e) {
                c[u] = detail::ldg(a.col_idxs + i);
                v[u] = detail::ldg(a.values + i);
            }
        }
#pragma unroll
        for (int u = 0; u < row_steps; ++u) {
            if (base + t + u * block < e) {
                s += detail::product<Acc>(v[u], detail::ldg(x + c[u]));
            }
        }
    }
    return s;
}

// A stream group: rows [r0, r0 + k), nonzeros [nz0, nz0 + m), m <= 1024, k <= 255.
template <typename Acc, typename V>
__device__ __forceinline__ void stream_group(const AdaptiveView<V>& a, std::int32_t r0, int k,
                                             std::int32_t nz0, int m, V alpha,
                                             const V* __restrict__ x, V beta, V* __restrict__ y)
{
    __shared__ Acc s_prod[stream_loads * block];
    __shared__ std::int32_t s_rp[block];
    const int t = static_cast<int>(threadIdx.x);
    // One round trip for the matrix: columns, values and the row pointers together.
    std::int32_t c[stream_loads];
    V v[stream_loads];
#pragma unroll
    for (int j = 0; j < stream_loads; ++j) {
        const int i = t + j * block;
        if (i < m) {
            c[j] = detail::ldg(a.col_idxs + nz0 + i);
            v[j] = detail::ldg(a.values + nz0 + i);
        }
    }
    std::int32_t rp = 0;
    if (t <= k) {
        rp = detail::ldg(a.row_ptrs + r0 + t) - nz0;
    }
    // One for x.
#pragma unroll
    for (int j = 0; j < stream_loads; ++j) {
        const int i = t + j * block;
        if (i < m) {
            s_prod[i] = detail::product<Acc>(v[j], detail::ldg(x + c[j]));
        }
    }
    if (t <= k) {
        s_rp[t] = rp;
    }
    __syncthreads();
    // tpr threads per row (a power of two dividing 32), each adds at most `serial` products.
    const int tpr = csr_adaptive_threads_per_row(k);
    const int row = t / tpr;
    const int part = t % tpr;
    Acc s{0};
    if (row < k) {
        const int end = s_rp[row + 1];
        for (int i = s_rp[row] + part; i < end; i += tpr) {
            s += s_prod[i];
        }
    }
    for (int off = tpr / 2; off > 0; off /= 2) {
        s += __shfl_down_sync(full_mask, s, off, tpr);
    }
    if (part == 0 && row < k) {
        detail::axpby_store(y + r0 + row, alpha, s, beta);
    }
}

// One block per group; `Table` is a CsrAdaptiveTableOf (parameter path) or a device-table tag.
struct DeviceTable {};

// The group table as the kernel parameters carry it, in the smallest of a few sizes that holds
// the plan: the launch copies every parameter byte, and a small matrix's SpMV is a few
// microseconds, so the full 2 KiB table (CsrAdaptiveTable) is sent only by plans that need it.
// Measured on an H200 against the 2 KiB table for every plan (docs/benchmarks/
// h200_param_tiers_2026-11-30): a median 1.7 % (under 0.1 us of 5) faster on the 73 smallest
// matrices of the collection, whose plans hold 1-86 groups; small, but free. The kernel's floor
// on those matrices is its active time (a profile of one launch on a 3-nonzero matrix: 343
// instructions per warp and the barrier, twice ell_xs's), not the parameters and not x's round
// trip (staging x in shared memory was tried there and was slower).
template <typename T>
inline constexpr bool is_param_table = false;
template <int N>
inline constexpr bool is_param_table<CsrAdaptiveTableOf<N>> = true;
// Plans of at most 7, 31, 127 and 255 groups (32 B, 128 B, 512 B and 1 KiB per array). The
// kernel takes the table as a __grid_constant__: a block's row of it is read where the launch
// put it, never copied (without it, nvcc copied the 64-byte table to local memory in every
// thread to index it by blockIdx.x: 16 stores and a load per thread, in the PTX of sm_90).
constexpr int param_tiers[] = {7, 31, 127, csr_adaptive_param_groups};

template <typename Acc, typename V, typename Table>
__global__ void __launch_bounds__(block)
    csr_adaptive_kernel(AdaptiveView<V> a, const __grid_constant__ Table table, V alpha,
                        const V* __restrict__ x, V beta, V* __restrict__ y)
{
    SPMV_WARP_TRACE(trace);  // no rows reported: a block's rows depend on its group
    __shared__ Acc s_warp[warps];
    const int g = static_cast<int>(blockIdx.x);
    std::int32_t e0, e1, nz0, nz1;
    if constexpr (is_param_table<Table>) {
        e0 = table.row[g];
        e1 = table.row[g + 1];
        nz0 = table.nnz[g];
        nz1 = table.nnz[g + 1];
    } else {
        e0 = detail::ldg(a.group_row + g);
        e1 = detail::ldg(a.group_row + g + 1);
        nz0 = detail::ldg(a.group_nnz + g);
        nz1 = detail::ldg(a.group_nnz + g + 1);
    }
    if (e0 >= 0) {
        const int k = csr_adaptive_row(e1) - e0;
        if (k > 1) {
            stream_group<Acc>(a, e0, k, nz0, nz1 - nz0, alpha, x, beta, y);
            return;
        }
        // A row group: the block reduces row e0.
        const Acc s = block_sum(strided_products<Acc>(a, nz0, nz1, x), s_warp);
        if (threadIdx.x == 0) {
            detail::axpby_store(y + e0, alpha, s, beta);
        }
        return;
    }
    // A piece of row r: its partial sum; the last piece to arrive adds them all in order.
    const std::int32_t r = ~e0;
    const std::int32_t row_begin = detail::ldg(a.row_ptrs + r);  // in flight with the products
    const std::int32_t row_end = detail::ldg(a.row_ptrs + r + 1);
    const Acc s = block_sum(strided_products<Acc>(a, nz0, nz1, x), s_warp);
    if (threadIdx.x == 0) {
        const int first = g - (nz0 - row_begin) / a.piece_nnz;
        const int pieces = (row_end - row_begin + a.piece_nnz - 1) / a.piece_nnz;
        a.partials[g] = static_cast<double>(s);
        __threadfence();  // the partial is visible before the arrival is counted
        if (atomicAdd(a.arrivals + first, 1u) == static_cast<unsigned>(pieces - 1)) {
            __threadfence();  // and the other pieces' partials are visible here
            Acc total{0};
            for (int q = 0; q < pieces; ++q) {
                total += static_cast<Acc>(__ldcg(a.partials + first + q));
            }
            a.arrivals[first] = 0u;  // ready for the next SpMV (launches on a stream run in order)
            detail::axpby_store(y + r, alpha, total, beta);
        }
    }
}

template <typename Acc, typename V>
void launch(const DeviceCsrAdaptive<V>& a, V alpha, const V* x, V beta, V* y, StreamRef stream)
{
    if (a.num_groups == 0) {
        return;
    }
    const AdaptiveView<V> v{a.csr.row_ptrs.data(), a.csr.col_idxs.data(), a.csr.values.data(),
                            a.group_row.data(),    a.group_nnz.data(),    a.partials.data(),
                            a.arrivals.data(),     a.piece_nnz};
    const auto grid = static_cast<unsigned>(a.num_groups);
    const auto with_table = [&]<int N>(CsrAdaptiveTableOf<N> t) {
        const auto n = static_cast<std::size_t>(a.num_groups) + 1;
        std::copy_n(a.table.row, n, t.row);
        std::copy_n(a.table.nnz, n, t.nnz);
        csr_adaptive_kernel<Acc><<<grid, block, 0, detail::native(stream)>>>(v, t, alpha, x, beta,
                                                                            y);
    };
    if (a.param_table) {
        if (a.num_groups <= param_tiers[0]) {
            with_table(CsrAdaptiveTableOf<param_tiers[0]>{});
        } else if (a.num_groups <= param_tiers[1]) {
            with_table(CsrAdaptiveTableOf<param_tiers[1]>{});
        } else if (a.num_groups <= param_tiers[2]) {
            with_table(CsrAdaptiveTableOf<param_tiers[2]>{});
        } else {
            with_table(CsrAdaptiveTableOf<param_tiers[3]>{});
        }
    } else {
        csr_adaptive_kernel<Acc><<<grid, block, 0, detail::native(stream)>>>(v, DeviceTable{},
                                                                            alpha, x, beta, y);
    }
    SPMV_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

template <typename V>
DeviceCsrAdaptive<V> upload_csr_adaptive(const Csr<V, std::int32_t>& a,
                                         const CsrAdaptiveConfig& config)
{
    SPMV_EXPECTS(config.param_groups >= 0 && config.param_groups <= csr_adaptive_param_groups,
                 "csr_adaptive: param_groups must be in [0, " +
                     std::to_string(csr_adaptive_param_groups) + "], not " +
                     std::to_string(config.param_groups));
    SPMV_EXPECTS(a.row_ptrs.size() == static_cast<std::size_t>(a.num_rows) + 1 &&
                     static_cast<std::size_t>(a.row_ptrs.back()) == a.values.size(),
                 "csr_adaptive: row_ptrs must hold num_rows + 1 entries ending at nnz");
    const CsrAdaptivePlan plan =
        plan_csr_adaptive(a.row_ptrs, config, detail::multiprocessor_count());
    const auto groups = static_cast<std::size_t>(plan.num_groups());
    const bool cut = std::any_of(plan.group_row.begin(), plan.group_row.end(),
                                 [](std::int32_t e) { return e < 0; });
    const bool param_table = plan.num_groups() <= config.param_groups;
    ensure_device_memory("csr_adaptive",
                         a.row_ptrs.size() * sizeof(std::int32_t) +
                             a.col_idxs.size() * sizeof(std::int32_t) +
                             a.values.size() * sizeof(V) +
                             (param_table ? 0 : 2 * plan.group_row.size() * sizeof(std::int32_t)) +
                             (cut ? groups * (sizeof(double) + sizeof(std::uint32_t)) : 0));
    DeviceCsrAdaptive<V> d;
    d.csr = upload(a);
    d.piece_nnz = plan.piece_nnz;
    d.num_groups = plan.num_groups();
    d.param_table = param_table;
    if (param_table) {  // the kernel parameters carry the table: no device copy
        std::copy(plan.group_row.begin(), plan.group_row.end(), d.table.row);
        std::copy(plan.group_nnz.begin(), plan.group_nnz.end(), d.table.nnz);
    } else {
        d.group_row = DeviceBuffer<std::int32_t>::from_host(plan.group_row, "csr_adaptive groups");
        d.group_nnz = DeviceBuffer<std::int32_t>::from_host(plan.group_nnz, "csr_adaptive groups");
    }
    if (cut) {
        d.partials = DeviceBuffer<double>(groups, "csr_adaptive pieces");
        d.arrivals = DeviceBuffer<std::uint32_t>(groups, "csr_adaptive pieces");
        d.arrivals.fill(0u);
        synchronize();  // the counters are zero before the first SpMV on any stream
    }
    return d;
}

template <typename V>
void spmv(const DeviceCsrAdaptive<V>& a, V alpha, const V* x, V beta, V* y, StreamRef stream,
          bool double_sums)
{
    if (double_sums) {
        launch<double>(a, alpha, x, beta, y, stream);
    } else {
        launch<V>(a, alpha, x, beta, y, stream);
    }
}

SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_UPLOAD_CSR_ADAPTIVE);
SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_CSR_ADAPTIVE_SPMV);

namespace detail {

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_csr_adaptive(const AnyMatrix<V>& m)
{
    const auto* f = alternative<Csr<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    auto launch = [](const DeviceCsrAdaptive<V>& a, V alpha, const V* x, V beta, V* y, RowOrder,
                     StreamRef s) { spmv(a, alpha, x, beta, y, s); };
    if constexpr (std::is_same_v<V, float>) {
        return make_op<V>(upload_csr_adaptive(*f), launch,
                          [](const DeviceCsrAdaptive<V>& a, V alpha, const V* x, V beta, V* y,
                             RowOrder, StreamRef s) { spmv(a, alpha, x, beta, y, s, true); });
    } else {
        return make_op<V>(upload_csr_adaptive(*f), launch);
    }
}

}  // namespace detail
}  // namespace spmv::gpu

SPMV_INSTANTIATE_ASSEMBLE(csr_adaptive)
