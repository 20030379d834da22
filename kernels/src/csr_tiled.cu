// csr_tiled (spmv/gpu/csr_tiled.hpp): one warp per chunk of 32 S nonzeros, row starts from the
// host's plan, a segmented warp scan per step; cut rows and empty rows finished by a second,
// programmatically dependent kernel.
#include <cstdint>
#include <string>
#include <vector>

#include <spmv/gpu/csr_tiled.hpp>

#include "launch.cuh"
#include "variant_support.hpp"

namespace spmv::gpu {
namespace {

constexpr int tile_block = 256;  // 8 warps, 8 chunks per block
constexpr int tile_warps = tile_block / 32;
constexpr int fix_block = 256;
constexpr unsigned full_mask = 0xffffffffu;

template <typename V>
struct TiledView {
    std::int32_t nnz;
    std::int32_t num_chunks;
    const std::int32_t* cols;
    const V* vals;
    const std::int32_t* chunk_row;
    const std::uint32_t* starts;
    const std::int32_t* rows;  ///< nullptr: no empty rows, the kernel's rows are the rows
    V* head;
    V* tail;
};

// One warp per chunk of 32 S nonzeros: S coalesced steps of column and value loads and x
// gathers, all issued before the first use; a segmented scan per step with a carry; the lane at
// a row's end writes y, or the chunk's head / tail piece when the row is cut.
template <bool streaming, int S, typename V>
__global__ void __launch_bounds__(tile_block)
    csr_tiled_kernel(TiledView<V> a, V alpha, const V* __restrict__ x, V beta, V* __restrict__ y)
{
    constexpr std::int32_t K = 32 * S;
    detail::chain_release();  // the fix-up may be scheduled now; it waits for this grid to end
    const int lane = static_cast<int>(threadIdx.x % 32);
    const std::int32_t c =
        static_cast<std::int32_t>(blockIdx.x) * tile_warps + static_cast<std::int32_t>(threadIdx.x / 32);
    if (c >= a.num_chunks) {
        return;  // the whole warp
    }
    const std::int32_t k0 = c * K;
    const std::int32_t k1 = min(k0 + K, a.nnz);
    std::int32_t cc[S];
    V vv[S];
#pragma unroll
    for (int s = 0; s < S; ++s) {
        const std::int32_t k = k0 + s * 32 + lane;
        const bool in = k < k1;
        cc[s] = in ? detail::ld_matrix<streaming>(a.cols + k) : -1;
        vv[s] = in ? detail::ld_matrix<streaming>(a.vals + k) : V{0};
    }
    std::uint32_t words[S + 1];
#pragma unroll
    for (int s = 0; s <= S; ++s) {
        words[s] = __ldg(a.starts + static_cast<std::int64_t>(c) * (S + 1) + s);
    }
    const std::int32_t r0 = __ldg(a.chunk_row + c);
    V p[S];
#pragma unroll
    for (int s = 0; s < S; ++s) {
        p[s] = cc[s] >= 0 ? vv[s] * __ldg(x + cc[s]) : V{0};
    }
    const bool head_cut = (words[0] & 1u) == 0;  // the first row began in an earlier chunk
    words[0] &= ~1u;
    V carry{0};
    std::int32_t rows_before = 0;
#pragma unroll
    for (int s = 0; s < S; ++s) {
        const std::uint32_t heads = words[s];
        const std::uint32_t below = heads & (full_mask >> (31 - lane));  // bits 0..lane
        const int seg = below != 0 ? 31 - __clz(below) : -1;  // where this lane's row began
        V v = p[s];
#pragma unroll
        for (int d = 1; d < 32; d *= 2) {
            const V t = __shfl_up_sync(full_mask, v, d);
            if (lane >= d && lane - d >= seg) {
                v += t;
            }
        }
        if (seg < 0) {
            v += carry;
        }
        const bool next_head = lane < 31 ? ((heads >> (lane + 1)) & 1u) != 0
                                         : (words[s + 1] & 1u) != 0;
        const std::int32_t k = k0 + s * 32 + lane;
        if (k < k1 && (next_head || k == k1 - 1)) {
            const std::int32_t row = r0 + rows_before + __popc(below);
            const bool starts_here = row > r0 || !head_cut;
            if (starts_here && next_head) {
                detail::axpby_store(y + (a.rows != nullptr ? __ldg(a.rows + row) : row), alpha, v,
                                    beta);
            } else if (starts_here) {
                a.tail[c] = v;  // begins here, runs on past the chunk
            } else {
                a.head[c] = v;  // begun in an earlier chunk: ends here or runs on
            }
        }
        carry = __shfl_sync(full_mask, v, 31);
        rows_before += __popc(heads);
    }
}

// The fix-up, a programmatic dependent of csr_tiled_kernel. Blocks [0, num_long): one long cut
// row each (lanes strided over its pieces, a fixed tree); then one thread per short cut row
// (its pieces in chunk order); then one thread per empty row (y = beta y). Each thread reads its
// list entry and y before it waits for the tile grid: neither is written there.
template <typename V>
__global__ void __launch_bounds__(fix_block)
    csr_tiled_fixup_kernel(const int4* __restrict__ cut, std::int32_t num_cut,
                           std::int32_t num_long, const std::int32_t* __restrict__ empty_rows,
                           std::int32_t num_empty, const V* head, const V* tail, V alpha, V beta,
                           V* __restrict__ y)
{
    __shared__ V s_part[fix_block / 32];
    const auto b = static_cast<std::int32_t>(blockIdx.x);
    if (b < num_long) {
        const int4 f = __ldg(cut + num_cut + b);
        const V y_old = beta != V{0} && threadIdx.x == 0 ? y[f.x] : V{0};
        detail::chain_wait();
        V sum{0};
        for (std::int32_t m = f.y + static_cast<std::int32_t>(threadIdx.x); m <= f.z;
             m += fix_block) {
            sum += m == f.y ? __ldcg(tail + m) : __ldcg(head + m);
        }
#pragma unroll
        for (int d = 16; d > 0; d /= 2) {
            sum += __shfl_down_sync(full_mask, sum, d);
        }
        if (threadIdx.x % 32 == 0) {
            s_part[threadIdx.x / 32] = sum;
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            V total = s_part[0];
#pragma unroll
            for (int w = 1; w < fix_block / 32; ++w) {
                total += s_part[w];
            }
            y[f.x] = beta == V{0} ? alpha * total : alpha * total + beta * y_old;
        }
        return;
    }
    const std::int64_t i = std::int64_t{b - num_long} * fix_block + threadIdx.x;
    if (i < num_cut) {
        const int4 f = __ldg(cut + i);
        const V y_old = beta != V{0} ? y[f.x] : V{0};
        detail::chain_wait();
        V s4[4] = {__ldcg(tail + f.y), V{0}, V{0}, V{0}};
        std::int32_t m = f.y + 1;
        for (; m + 3 <= f.z; m += 4) {
#pragma unroll
            for (int u = 0; u < 4; ++u) {
                s4[u] += __ldcg(head + m + u);
            }
        }
        for (; m <= f.z; ++m) {
            s4[0] += __ldcg(head + m);
        }
        const V sum = (s4[0] + s4[1]) + (s4[2] + s4[3]);
        y[f.x] = beta == V{0} ? alpha * sum : alpha * sum + beta * y_old;
    } else if (i < std::int64_t{num_cut} + num_empty) {
        const std::int32_t r = __ldg(empty_rows + (i - num_cut));
        y[r] = beta == V{0} ? V{0} : beta * y[r];  // no wait: the tile grid never writes it
    }
}

template <typename F>
void with_steps(int steps, F&& f)
{
    switch (steps) {
        case 2:
            return f.template operator()<2>();
        case 4:
            return f.template operator()<4>();
        case 8:
            return f.template operator()<8>();
        default:
            SPMV_THROW(InvalidArgument,
                       "csr_tiled: steps must be 2, 4 or 8, not " + std::to_string(steps));
    }
}

}  // namespace

template <typename V>
DeviceCsrTiled<V> upload_csr_tiled(const Csr<V, std::int32_t>& a, const CsrTiledConfig& config)
{
    SPMV_EXPECTS(a.row_ptrs.size() == static_cast<std::size_t>(a.num_rows) + 1 &&
                     static_cast<std::size_t>(a.row_ptrs.back()) == a.values.size() &&
                     a.col_idxs.size() == a.values.size(),
                 "csr_tiled: row_ptrs must hold num_rows + 1 entries ending at nnz");
    const CsrTiledPlan plan = plan_csr_tiled(a.row_ptrs, config);
    const auto chunks = static_cast<std::size_t>(plan.num_chunks);
    ensure_device_memory("csr_tiled", a.col_idxs.size() * sizeof(std::int32_t) +
                                          a.values.size() * sizeof(V) + plan.bytes() +
                                          2 * chunks * sizeof(V));
    DeviceCsrTiled<V> d;
    d.num_rows = a.num_rows;
    d.num_cols = a.num_cols;
    d.nnz = static_cast<std::int32_t>(a.values.size());
    d.steps = plan.steps;
    d.num_chunks = plan.num_chunks;
    d.num_cut = static_cast<std::int32_t>(plan.cut.size());
    d.num_long_cut = static_cast<std::int32_t>(plan.long_cut.size());
    d.num_empty = static_cast<std::int32_t>(plan.empty_rows.size());
    d.mapped_rows = !plan.rows.empty();
    d.col_idxs = DeviceBuffer<std::int32_t>::from_host(a.col_idxs, "csr_tiled col_idxs");
    d.values = DeviceBuffer<V>::from_host(a.values, "csr_tiled values");
    d.chunk_row = DeviceBuffer<std::int32_t>::from_host(plan.chunk_row, "csr_tiled plan");
    d.starts = DeviceBuffer<std::uint32_t>::from_host(plan.starts, "csr_tiled plan");
    d.rows = DeviceBuffer<std::int32_t>::from_host(plan.rows, "csr_tiled plan");
    std::vector<CsrTiledCut> cut = plan.cut;
    cut.insert(cut.end(), plan.long_cut.begin(), plan.long_cut.end());
    d.cut = DeviceBuffer<CsrTiledCut>::from_host(cut, "csr_tiled plan");
    d.empty_rows = DeviceBuffer<std::int32_t>::from_host(plan.empty_rows, "csr_tiled plan");
    d.head = DeviceBuffer<V>(chunks, "csr_tiled pieces");
    d.tail = DeviceBuffer<V>(chunks, "csr_tiled pieces");
    return d;
}

template <typename V>
void spmv(const DeviceCsrTiled<V>& a, V alpha, const V* x, V beta, V* y, StreamRef stream)
{
    if (a.num_chunks > 0) {
        const TiledView<V> v{a.nnz,           a.num_chunks,       a.col_idxs.data(),
                             a.values.data(), a.chunk_row.data(), a.starts.data(),
                             a.mapped_rows ? a.rows.data() : nullptr,
                             a.head.data(),   a.tail.data()};
        const auto blocks = static_cast<unsigned>(detail::ceil_div(a.num_chunks, tile_warps));
        const bool streaming = detail::stream_matrix_loads_for<V>(a);
        with_steps(a.steps, [&]<int S>() {
            detail::with_stream_policy(streaming, [&](auto s) {
                csr_tiled_kernel<decltype(s)::value, S>
                    <<<blocks, tile_block, 0, detail::native(stream)>>>(v, alpha, x, beta, y);
            });
        });
        SPMV_CUDA_CHECK(cudaGetLastError());
    }
    const std::int64_t per_thread = std::int64_t{a.num_cut} + a.num_empty;
    if (per_thread + a.num_long_cut == 0) {
        return;
    }
    const auto blocks = static_cast<unsigned>(
        a.num_long_cut + detail::ceil_div<std::int64_t>(per_thread, fix_block));
    detail::launch_chained(csr_tiled_fixup_kernel<V>, blocks, fix_block, stream,
                           reinterpret_cast<const int4*>(a.cut.data()), a.num_cut,
                           a.num_long_cut, a.empty_rows.data(), a.num_empty,
                           static_cast<const V*>(a.head.data()),
                           static_cast<const V*>(a.tail.data()), alpha, beta, y);
}

SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_UPLOAD_CSR_TILED);
SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_CSR_TILED_SPMV);

namespace detail {

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_csr_tiled(const AnyMatrix<V>& m)
{
    const auto* f = alternative<Csr<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    return make_op<V>(upload_csr_tiled(*f),
                      [](const DeviceCsrTiled<V>& a, V alpha, const V* x, V beta, V* y, RowOrder,
                         StreamRef s) { spmv(a, alpha, x, beta, y, s); });
}

}  // namespace detail
}  // namespace spmv::gpu

SPMV_INSTANTIATE_ASSEMBLE(csr_tiled)
