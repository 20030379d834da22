// CSR merge-path SpMV: one thread block per tile of block * ipt merge items (rows + nonzeros),
// block-wide segmented scan, rows cut by tiles fixed up by the last tile to arrive (no atomics on
// y, no second kernel; deterministic). The design is described in spmv/gpu/csr_merge.hpp.
//
// Why a last-arriver fix-up rather than atomics or a second kernel: atomicAdd on y would make the
// result depend on timing and needs y scaled by beta before any tile adds to it (a second pass
// over y); a separate carry kernel costs a launch and a dependent round trip, which on small or
// one-row-dominated matrices (onefull: 200k rows, 4.6 us with cuSPARSE) is most of the time. The
// arrival counter costs one atomic per piece of a cut row (about one per tile on regular
// matrices), and the sum order of a cut row's pieces is fixed by the tile numbers.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <spmv/gpu/csr_merge.hpp>

#include "launch.cuh"
#include "variant_support.hpp"

namespace spmv::gpu {
namespace {

constexpr int warp_size = 32;
constexpr unsigned full_mask = 0xffffffffu;

template <typename V>
struct MergeView {
    std::int32_t num_rows;
    std::int32_t nnz;
    std::int64_t num_items;  // num_rows + nnz
    const std::int32_t* row_ptrs;
    const std::int32_t* col_idxs;
    const V* values;
    const std::int32_t* tile_rows;  // precomputed partition (num_tiles + 1), or nullptr
    V* head_vals;
    V* tail_vals;
    std::uint32_t* arrivals;
};

/// Rows finished after the first d merge items: max{ i in [0, N] : row_ptrs[i] + i <= d }. A
/// whole warp searches together: 32 probes per step, one load round trip per factor of 32.
__device__ std::int32_t merge_path_row(const std::int32_t* __restrict__ row_ptrs,
                                       std::int32_t num_rows, std::int32_t nnz, std::int64_t d)
{
    const int lane = static_cast<int>(threadIdx.x % warp_size);
    std::int64_t lo = d - nnz > 0 ? d - nnz : 0;       // f(lo) <= d holds here
    std::int64_t hi = d < num_rows ? d : num_rows;     // the answer is <= hi
    while (lo < hi) {                                  // uniform over the warp
        const std::int64_t step = (hi - lo + warp_size - 1) / warp_size;
        const std::int64_t q = lo + (lane + 1) * step;
        const bool below = q <= hi && detail::ldg(row_ptrs + q) + q <= d;
        const int c = __popc(__ballot_sync(full_mask, below));  // the true probes are a prefix
        const std::int64_t new_hi = lo + (c + 1) * step - 1;
        lo += c * step;
        hi = new_hi < hi ? new_hi : hi;
    }
    return static_cast<std::int32_t>(lo);
}

/// The segmented-scan operator on (row, partial sum) pairs, rows non-decreasing:
/// (ka, va) + (kb, vb) = (kb, ka == kb ? va + vb : vb).
template <typename V>
struct Carry {
    std::int32_t key;
    V value;
};

template <typename V>
__device__ __forceinline__ Carry<V> combine(Carry<V> a, Carry<V> b)
{
    return {b.key, a.key == b.key ? a.value + b.value : b.value};
}

template <typename V>
union alignas(sizeof(V)) Slot {
    V value;
    std::int32_t offset;
};

// Sums the pieces of a row cut across tiles first..last (the tail of `first`, the heads of the
// others) in a fixed order: lane l adds pieces l, l + 32, ..., then a fixed shuffle tree. Called
// by a whole warp; the pieces were written by other blocks, so they are read from L2 (__ldcg).
template <typename V>
__device__ V sum_pieces(const V* tail_vals, const V* head_vals, std::int64_t first,
                        std::int64_t last)
{
    const int lane = static_cast<int>(threadIdx.x % warp_size);
    V sum{0};
    for (std::int64_t p = first + lane; p <= last; p += warp_size) {
        sum += p == first ? __ldcg(tail_vals + p) : __ldcg(head_vals + p);
    }
#pragma unroll
    for (int offset = warp_size / 2; offset > 0; offset /= 2) {
        sum += __shfl_down_sync(full_mask, sum, offset);
    }
    return sum;
}

// One block per tile of block * ipt consecutive merge items; see spmv/gpu/csr_merge.hpp.
template <int block, int ipt, bool search, typename V>
__global__ void __launch_bounds__(block)
    csr_merge_kernel(MergeView<V> a, V alpha, const V* __restrict__ x, V beta, V* __restrict__ y)
{
    constexpr int tile = block * ipt;
    constexpr int warps = block / warp_size;
    static_assert(warps >= 2 && warps <= warp_size && ipt <= 32);
    __shared__ Slot<V> s_slots[tile + 1];  // row ends, then products; later the finished rows
    __shared__ Carry<V> s_warp[warps];
    __shared__ std::int32_t s_bounds[2];

    const int tid = static_cast<int>(threadIdx.x);
    const int lane = tid % warp_size;
    const int warp = tid / warp_size;
    const std::int64_t t = blockIdx.x;
    const std::int64_t d0 = t * tile;
    const std::int64_t d1 = d0 + tile < a.num_items ? d0 + tile : a.num_items;

    // ---- 1. the tile: rows [r0, r1] and nonzeros [k0, k1)
    std::int32_t r0;
    std::int32_t r1;
    if constexpr (search) {
        if (warp < 2) {
            const std::int32_t r = merge_path_row(a.row_ptrs, a.num_rows, a.nnz, warp ? d1 : d0);
            if (lane == 0) {
                s_bounds[warp] = r;
            }
        }
        __syncthreads();
        r0 = s_bounds[0];
        r1 = s_bounds[1];
    } else {
        r0 = detail::ldg(a.tile_rows + t);
        r1 = detail::ldg(a.tile_rows + t + 1);
    }
    const auto k0 = static_cast<std::int32_t>(d0 - r0);
    const auto k1 = static_cast<std::int32_t>(d1 - r1);
    const int tile_rows = r1 - r0;
    const int tile_nnz = k1 - k0;
    const int tile_len = tile_rows + tile_nnz;
    const std::int32_t first_row_begin = detail::ldg(a.row_ptrs + r0);  // r0 <= N

    // ---- 2. row ends A[i] = row_ptrs[r0 + 1 + i], i in [0, tile_rows] (A[tile_rows] may lie past
    // the last row: nnz), and the products of nonzeros k0 .. k1-1, all loads in flight together.
    Slot<V>* s_prod = s_slots + tile_rows + 1;
    {
        std::int32_t ends[ipt + 1];
        std::int32_t cols[ipt];
        V vals[ipt];
#pragma unroll
        for (int s = 0; s <= ipt; ++s) {
            const int i = tid + s * block;
            if (i <= tile_rows) {
                const std::int64_t r = std::int64_t{r0} + 1 + i;
                ends[s] = r <= a.num_rows ? detail::ldg(a.row_ptrs + r) : a.nnz;
            }
        }
#pragma unroll
        for (int s = 0; s < ipt; ++s) {
            const int i = tid + s * block;
            if (i < tile_nnz) {
                cols[s] = detail::ldg(a.col_idxs + k0 + i);
                vals[s] = detail::ldg(a.values + k0 + i);
            }
        }
#pragma unroll
        for (int s = 0; s < ipt; ++s) {
            const int i = tid + s * block;
            if (i < tile_nnz) {
                vals[s] *= detail::ldg(x + cols[s]);
            }
        }
#pragma unroll
        for (int s = 0; s <= ipt; ++s) {
            const int i = tid + s * block;
            if (i <= tile_rows) {
                s_slots[i].offset = ends[s];
            }
        }
#pragma unroll
        for (int s = 0; s < ipt; ++s) {
            const int i = tid + s * block;
            if (i < tile_nnz) {
                s_prod[i].value = vals[s];
            }
        }
    }
    __syncthreads();

    // Row pointers the fix-up needs, read before the slots are reused.
    const std::int32_t first_row_end = s_slots[0].offset;                       // row_ptrs[r0 + 1]
    const std::int32_t last_row_begin =
        tile_rows > 0 ? s_slots[tile_rows - 1].offset : first_row_begin;       // row_ptrs[r1]
    const std::int32_t last_row_end = s_slots[tile_rows].offset;                // row_ptrs[r1 + 1]

    // ---- 3. this thread's items: merge-path search in the tile, then ipt steps
    const int diag = tid * ipt < tile_len ? tid * ipt : tile_len;
    int lo = diag - tile_nnz > 0 ? diag - tile_nnz : 0;
    int hi = diag < tile_rows ? diag : tile_rows;
    while (lo < hi) {
        const int p = (lo + hi) / 2;
        if (s_slots[p].offset <= k0 + (diag - p - 1)) {
            lo = p + 1;
        } else {
            hi = p;
        }
    }
    const int x_start = lo;
    int row = lo;         // local row of the current item
    int k = diag - lo;    // local nonzero of the current item
    V running{0};
    V finished[ipt];      // finished[s]: the row finished at step s (bit s of `done`)
    unsigned done = 0;
#pragma unroll
    for (int s = 0; s < ipt; ++s) {
        if (diag + s < tile_len) {
            if (k0 + k < s_slots[row].offset) {
                running += s_prod[k].value;
                ++k;
            } else {
                finished[s] = running;
                done |= 1u << s;
                running = V{0};
                ++row;
            }
        }
    }

    // ---- 4. block-wide exclusive segmented scan of (row, running)
    Carry<V> inclusive{row, running};
#pragma unroll
    for (int offset = 1; offset < warp_size; offset *= 2) {
        const std::int32_t k_up = __shfl_up_sync(full_mask, inclusive.key, offset);
        const V v_up = __shfl_up_sync(full_mask, inclusive.value, offset);
        if (lane >= offset && k_up == inclusive.key) {
            inclusive.value += v_up;
        }
    }
    const Carry<V> lane_before{__shfl_up_sync(full_mask, inclusive.key, 1),
                               __shfl_up_sync(full_mask, inclusive.value, 1)};
    if (lane == warp_size - 1) {
        s_warp[warp] = inclusive;
    }
    __syncthreads();  // also: every thread is done reading the slots
    Carry<V> before{-1, V{0}};  // the items of all earlier threads
    Carry<V> total{-1, V{0}};   // the whole tile: its key is tile_rows
#pragma unroll
    for (int w = 0; w < warps; ++w) {
        const Carry<V> c = s_warp[w];
        if (w < warp) {
            before = w == 0 ? c : combine(before, c);
        }
        total = w == 0 ? c : combine(total, c);
    }
    if (lane > 0) {
        before = warp == 0 ? lane_before : combine(before, lane_before);
    }
    const V carry_in = before.key == x_start ? before.value : V{0};

    // Finished rows into the slots (as values), the first one with the carry of earlier threads.
    V* s_out = &s_slots[0].value;
    {
        int r = x_start;
#pragma unroll
        for (int s = 0; s < ipt; ++s) {
            if (done & (1u << s)) {
                s_out[r] = r == x_start ? carry_in + finished[s] : finished[s];
                ++r;
            }
        }
    }
    __syncthreads();

    // ---- 5. write the rows that start and end in this tile, coalesced. Row r0 continues a row
    // of an earlier tile when it began before k0: then it is this tile's head piece.
    const bool head = first_row_begin < k0;
    {
        V old[ipt];
        if (beta != V{0}) {
#pragma unroll
            for (int s = 0; s < ipt; ++s) {
                const int i = tid + s * block;
                if (i < tile_rows && (i > 0 || !head)) {
                    old[s] = y[r0 + i];
                }
            }
        }
#pragma unroll
        for (int s = 0; s < ipt; ++s) {
            const int i = tid + s * block;
            if (i < tile_rows && (i > 0 || !head)) {
                y[r0 + i] = beta != V{0} ? alpha * s_out[i] + beta * old[s] : alpha * s_out[i];
            }
        }
    }

    // ---- 6. rows cut by tile boundaries (warp 0). Row R spans the tiles of its items
    // row_ptrs[R] + R (first) ... row_ptrs[R + 1] + R (its finish).
    if (warp != 0) {
        return;
    }
    const bool tail = r1 < a.num_rows && last_row_begin < k1 && (tile_rows > 0 || !head);
    std::int64_t head_first = 0;
    std::int64_t tail_last = 0;
    bool head_done = false;  // this tile arrived last: it writes the row
    bool tail_done = false;
    if (lane == 0 && (head || tail)) {
        if (head) {
            head_first = (std::int64_t{first_row_begin} + r0) / tile;
            a.head_vals[t] = tile_rows > 0 ? s_out[0] : total.value;
        }
        if (tail) {
            tail_last = (std::int64_t{last_row_end} + r1) / tile;
            a.tail_vals[t] = total.value;
        }
        __threadfence();  // the pieces are visible before the arrivals are counted
        if (head) {
            const std::int64_t head_last = (std::int64_t{first_row_end} + r0) / tile;
            const auto pieces = static_cast<std::uint32_t>(head_last - head_first + 1);
            head_done = atomicAdd(a.arrivals + head_first, 1u) == pieces - 1;
        }
        if (tail) {
            const auto pieces = static_cast<std::uint32_t>(tail_last - t + 1);
            tail_done = atomicAdd(a.arrivals + t, 1u) == pieces - 1;
        }
        if (head_done || tail_done) {
            __threadfence();  // see the other tiles' pieces
        }
    }
    __syncwarp();  // orders lane 0's fence and counters before the other lanes' loads
    head_done = __shfl_sync(full_mask, head_done, 0);
    tail_done = __shfl_sync(full_mask, tail_done, 0);
    if (head_done) {  // this tile finishes row r0: it is the row's last tile
        head_first = __shfl_sync(full_mask, head_first, 0);
        const V sum = sum_pieces(a.tail_vals, a.head_vals, head_first, t);
        if (lane == 0) {
            a.arrivals[head_first] = 0;
            detail::axpby_store(y + r0, alpha, sum, beta);
        }
    }
    if (tail_done) {
        tail_last = __shfl_sync(full_mask, tail_last, 0);
        const V sum = sum_pieces(a.tail_vals, a.head_vals, t, tail_last);
        if (lane == 0) {
            a.arrivals[t] = 0;
            detail::axpby_store(y + r1, alpha, sum, beta);
        }
    }
}

template <int block, int ipt, bool search, typename V>
void launch_merge(const DeviceCsrMerge<V>& a, const MergeView<V>& v, V alpha, const V* x, V beta,
                  V* y, StreamRef stream)
{
    csr_merge_kernel<block, ipt, search>
        <<<static_cast<unsigned>(a.num_tiles), block, 0, detail::native(stream)>>>(v, alpha, x,
                                                                                  beta, y);
    SPMV_CUDA_CHECK(cudaGetLastError());
}

template <int block, int ipt, typename V>
void launch_partition(const DeviceCsrMerge<V>& a, const MergeView<V>& v, V alpha, const V* x,
                      V beta, V* y, StreamRef stream)
{
    if (a.partition == CsrMergePartition::search) {
        launch_merge<block, ipt, true>(a, v, alpha, x, beta, y, stream);
    } else {
        launch_merge<block, ipt, false>(a, v, alpha, x, beta, y, stream);
    }
}

template <int block, typename V>
void launch_ipt(const DeviceCsrMerge<V>& a, const MergeView<V>& v, V alpha, const V* x, V beta,
                V* y, StreamRef stream)
{
    switch (a.items_per_thread) {
        case 4:
            return launch_partition<block, 4>(a, v, alpha, x, beta, y, stream);
        case 6:
            return launch_partition<block, 6>(a, v, alpha, x, beta, y, stream);
        case 8:
            return launch_partition<block, 8>(a, v, alpha, x, beta, y, stream);
        case 12:
            return launch_partition<block, 12>(a, v, alpha, x, beta, y, stream);
        default:
            SPMV_THROW(InvalidArgument, "csr_merge: unsupported items per thread " +
                                            std::to_string(a.items_per_thread));
    }
}

bool supported(int block_size, int items_per_thread)
{
    return (block_size == 64 || block_size == 128 || block_size == 256) &&
           (items_per_thread == 4 || items_per_thread == 6 || items_per_thread == 8 ||
            items_per_thread == 12);
}

}  // namespace

template <typename V>
DeviceCsrMerge<V> upload_csr_merge(const Csr<V, std::int32_t>& a, const CsrMergeConfig& config)
{
    DeviceCsrMerge<V> d;
    d.block_size = config.block_size > 0 ? config.block_size : 128;
    d.items_per_thread = config.items_per_thread > 0 ? config.items_per_thread
                                                     : csr_merge_default_items_per_thread<V>();
    d.partition = config.partition;
    if (!supported(d.block_size, d.items_per_thread)) {
        SPMV_THROW(InvalidArgument,
                   "csr_merge: block size must be 64, 128 or 256 and items per thread 4, 6, 8 "
                   "or 12, not " +
                       std::to_string(d.block_size) + " and " +
                       std::to_string(d.items_per_thread));
    }
    const auto nnz = static_cast<std::int64_t>(a.values.size());
    SPMV_EXPECTS(a.row_ptrs.size() == static_cast<std::size_t>(a.num_rows) + 1 &&
                     a.row_ptrs.back() == nnz,
                 "csr_merge: row_ptrs must hold num_rows + 1 entries ending at nnz");
    d.num_items = std::int64_t{a.num_rows} + nnz;
    d.tile_items = std::int64_t{d.block_size} * d.items_per_thread;
    d.num_tiles = a.num_rows > 0 ? detail::ceil_div(d.num_items, d.tile_items) : 0;
    const auto tiles = static_cast<std::size_t>(d.num_tiles);
    const bool precomputed = d.partition == CsrMergePartition::precomputed;

    // The partition: tile t starts after max{ i : row_ptrs[i] + i <= t * tile_items } rows.
    std::vector<std::int32_t> tile_rows;
    if (precomputed && tiles > 0) {
        tile_rows.resize(tiles + 1);
        for (std::size_t t = 0; t <= tiles; ++t) {
            const std::int64_t diag =
                std::min(static_cast<std::int64_t>(t) * d.tile_items, d.num_items);
            std::int64_t lo = 0;  // f(lo) <= diag
            std::int64_t hi = a.num_rows;
            while (lo < hi) {
                const std::int64_t mid = (lo + hi + 1) / 2;
                if (a.row_ptrs[static_cast<std::size_t>(mid)] + mid <= diag) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            tile_rows[t] = static_cast<std::int32_t>(lo);
        }
    }

    ensure_device_memory("csr_merge", a.row_ptrs.size() * sizeof(std::int32_t) +
                                          a.col_idxs.size() * sizeof(std::int32_t) +
                                          a.values.size() * sizeof(V) +
                                          tile_rows.size() * sizeof(std::int32_t) +
                                          tiles * (2 * sizeof(V) + sizeof(std::uint32_t)));
    d.csr = upload(a);
    d.tile_rows = DeviceBuffer<std::int32_t>::from_host(tile_rows, "csr_merge partition");
    d.head_vals = DeviceBuffer<V>(tiles, "csr_merge carries");
    d.tail_vals = DeviceBuffer<V>(tiles, "csr_merge carries");
    d.arrivals = DeviceBuffer<std::uint32_t>(tiles, "csr_merge carries");
    d.arrivals.fill(0u);
    synchronize();  // the counters are zero before the first SpMV on any stream
    return d;
}

template <typename V>
void spmv(const DeviceCsrMerge<V>& a, V alpha, const V* x, V beta, V* y, StreamRef stream)
{
    if (a.num_tiles == 0) {
        return;
    }
    const MergeView<V> v{a.csr.num_rows,
                         static_cast<std::int32_t>(a.csr.values.size()),
                         a.num_items,
                         a.csr.row_ptrs.data(),
                         a.csr.col_idxs.data(),
                         a.csr.values.data(),
                         a.tile_rows.data(),
                         a.head_vals.data(),
                         a.tail_vals.data(),
                         a.arrivals.data()};
    switch (a.block_size) {
        case 64:
            return launch_ipt<64>(a, v, alpha, x, beta, y, stream);
        case 128:
            return launch_ipt<128>(a, v, alpha, x, beta, y, stream);
        case 256:
            return launch_ipt<256>(a, v, alpha, x, beta, y, stream);
        default:
            SPMV_THROW(InvalidArgument,
                       "csr_merge: unsupported block size " + std::to_string(a.block_size));
    }
}

template DeviceCsrMerge<float> upload_csr_merge<float>(const Csr<float, std::int32_t>&,
                                                       const CsrMergeConfig&);
template DeviceCsrMerge<double> upload_csr_merge<double>(const Csr<double, std::int32_t>&,
                                                         const CsrMergeConfig&);
template void spmv<float>(const DeviceCsrMerge<float>&, float, const float*, float, float*,
                          StreamRef);
template void spmv<double>(const DeviceCsrMerge<double>&, double, const double*, double, double*,
                           StreamRef);

namespace detail {

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_csr_merge(const AnyMatrix<V>& m)
{
    const auto* f = alternative<Csr<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    return make_op<V>(upload_csr_merge(*f), [](const DeviceCsrMerge<V>& a, V alpha, const V* x,
                                               V beta, V* y, RowOrder, StreamRef s) {
        spmv(a, alpha, x, beta, y, s);
    });
}

}  // namespace detail
}  // namespace spmv::gpu

SPMV_INSTANTIATE_ASSEMBLE(csr_merge)
