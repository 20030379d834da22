// CSR merge-path SpMV: one thread block per strip of consecutive tiles of block * ipt merge items
// (rows + nonzeros); block-wide segmented scan per tile, carries between the tiles of a strip in
// registers, rows cut by strips summed by the last strip to arrive. The design is described in
// spmv/gpu/csr_merge.hpp.
//
// Carries: a deterministic last-arriver fix-up, no atomics on y, no second kernel. atomicAdd on y
// would make the result depend on timing and needs y scaled by beta before any block adds to it
// (a second pass); a separate carry kernel costs a launch and a dependent round trip, which on
// small or one-row-dominated matrices (onefull, 200k rows: about 11 us in all) is a large share.
// Here a cut row costs one atomic per strip it touches (at most two per strip), and the sum order
// of its pieces is fixed by the strip numbers.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <spmv/gpu/csr_merge.hpp>

#include "launch.cuh"
#include "variant_support.hpp"

namespace spmv::gpu {
namespace {

constexpr int warp_size = 32;
constexpr unsigned full_mask = 0xffffffffu;
// Registers are capped so that 768 threads fit on a multiprocessor (80 registers): the next
// tile's loads live in registers while the current one is reduced, and without the cap nvcc
// spends up to 128 registers per thread (4 blocks of 128), with it 6 blocks of 128 and no or
// small spills (16 bytes at 128 x 8 double; ptxas -v).
constexpr int min_threads_per_sm = 768;

template <typename V>
struct MergeView {
    std::int32_t num_rows;
    std::int32_t nnz;
    std::int64_t num_items;  // num_rows + nnz
    std::int64_t num_tiles;
    std::int64_t tiles_per_strip;
    const std::int32_t* row_ptrs;
    const std::int32_t* col_idxs;
    const V* values;
    const std::int32_t* tile_rows;  // the partition, num_tiles + 1 entries
    V* head_vals;                   // per strip
    V* tail_vals;
    std::uint32_t* arrivals;
};

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

/// A tile: rows r0..r1 (r1 open at its end), nonzeros k0..k1-1.
struct Tile {
    std::int32_t r0;
    std::int32_t k0;
    int rows;  // r1 - r0: rows finished in the tile
    int nnz;   // k1 - k0
};

__device__ __forceinline__ Tile tile_at(const std::int32_t* s_rows, int j, std::int64_t t,
                                        std::int64_t tile, std::int64_t num_items)
{
    const std::int32_t r0 = s_rows[j];
    const std::int32_t r1 = s_rows[j + 1];
    const std::int64_t d0 = t * tile;
    const std::int64_t d1 = d0 + tile < num_items ? d0 + tile : num_items;
    const auto k0 = static_cast<std::int32_t>(d0 - r0);
    return {r0, k0, r1 - r0, static_cast<int>(d1 - r1 - k0)};
}

// Starts the loads of a tile into registers: row ends A[i] = row_ptrs[r0 + 1 + i] for
// i = 0..rows (A[rows] may lie past the last row: nnz), columns and values of its nonzeros.
template <int block, int ipt, typename V>
__device__ __forceinline__ void load_tile(const MergeView<V>& a, const Tile& tl,
                                          std::int32_t (&ends)[ipt + 1], std::int32_t (&cols)[ipt],
                                          V (&vals)[ipt])
{
    const int tid = static_cast<int>(threadIdx.x);
#pragma unroll
    for (int s = 0; s <= ipt; ++s) {
        const int i = tid + s * block;
        if (i <= tl.rows) {
            const std::int64_t r = std::int64_t{tl.r0} + 1 + i;
            ends[s] = r <= a.num_rows ? detail::ldg(a.row_ptrs + r) : a.nnz;
        }
    }
#pragma unroll
    for (int s = 0; s < ipt; ++s) {
        const int i = tid + s * block;
        if (i < tl.nnz) {
            cols[s] = detail::ldg(a.col_idxs + tl.k0 + i);
            vals[s] = detail::ldg(a.values + tl.k0 + i);
        }
    }
}

// Multiplies the tile's values by x[col] (the gather; x is read-only in the launch).
template <int block, int ipt, typename V>
__device__ __forceinline__ void gather_products(const Tile& tl, const V* __restrict__ x,
                                                const std::int32_t (&cols)[ipt], V (&vals)[ipt])
{
    const int tid = static_cast<int>(threadIdx.x);
#pragma unroll
    for (int s = 0; s < ipt; ++s) {
        if (tid + s * block < tl.nnz) {
            vals[s] *= detail::ldg(x + cols[s]);
        }
    }
}

// Sums the pieces of a row cut across strips first..last (the tail of `first`, the heads of the
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

// One block per strip of tiles_per_strip consecutive tiles of block * ipt merge items; see
// spmv/gpu/csr_merge.hpp.
template <int block, int ipt, typename V>
__global__ void __launch_bounds__(block, min_threads_per_sm / block)
    csr_merge_kernel(MergeView<V> a, V alpha, const V* __restrict__ x, V beta, V* __restrict__ y)
{
    // outlined: at 80 registers, inline tracing code made ptxas spill; no rows reported (a
    // warp's rows follow from the merge path)
    SPMV_WARP_TRACE_OUTLINED(trace);
    constexpr int tile = block * ipt;
    constexpr int warps = block / warp_size;
    static_assert(warps >= 2 && warps <= warp_size && ipt <= 32);
    __shared__ Slot<V> s_slots[tile + 1];  // the tile's row ends, then its products
    __shared__ V s_out[tile];              // the tile's finished rows
    __shared__ Carry<V> s_warp[warps];
    __shared__ std::int32_t s_rows[csr_merge_max_strip_tiles + 1];  // the strip's partition

    const int tid = static_cast<int>(threadIdx.x);
    const int lane = tid % warp_size;
    const int warp = tid / warp_size;
    const std::int64_t strip = blockIdx.x;
    const std::int64_t t_begin = strip * a.tiles_per_strip;
    const std::int64_t t_end =
        t_begin + a.tiles_per_strip < a.num_tiles ? t_begin + a.tiles_per_strip : a.num_tiles;
    const int num_tiles = static_cast<int>(t_end - t_begin);
    for (int i = tid; i <= num_tiles; i += block) {
        s_rows[i] = detail::ldg(a.tile_rows + t_begin + i);
    }
    __syncthreads();

    // The strip: rows strip_r0..strip_r1, nonzeros strip_k0..strip_k1-1. Its first row is a
    // head piece when it began in an earlier strip; its open last row a tail piece.
    const std::int32_t strip_r0 = s_rows[0];
    const std::int32_t strip_r1 = s_rows[num_tiles];
    const std::int64_t strip_d1 = t_end * tile < a.num_items ? t_end * tile : a.num_items;
    const auto strip_k0 = static_cast<std::int32_t>(t_begin * tile - strip_r0);
    const auto strip_k1 = static_cast<std::int32_t>(strip_d1 - strip_r1);
    const std::int32_t head_begin = detail::ldg(a.row_ptrs + strip_r0);  // strip_r0 < N
    const bool head = head_begin < strip_k0;
    std::int32_t head_end = 0;
    std::int32_t tail_begin = 0;
    std::int32_t tail_end = 0;
    if (warp == 0) {  // for the fix-up at the end
        head_end = detail::ldg(a.row_ptrs + strip_r0 + 1);
        if (strip_r1 < a.num_rows) {
            tail_begin = detail::ldg(a.row_ptrs + strip_r1);
            tail_end = detail::ldg(a.row_ptrs + strip_r1 + 1);
        }
    }

    std::int32_t ends[ipt + 1];
    std::int32_t cols[ipt];
    V vals[ipt];
    {
        const Tile first_tile = tile_at(s_rows, 0, t_begin, tile, a.num_items);
        load_tile<block, ipt>(a, first_tile, ends, cols, vals);
        gather_products<block, ipt>(first_tile, x, cols, vals);
    }
    V carry{0};       // partial sum of the open row (the current tile's r0) within this strip
    V head_piece{0};  // the strip's part of its head row
    for (int j = 0; j < num_tiles; ++j) {
        const Tile tl = tile_at(s_rows, j, t_begin + j, tile, a.num_items);
        const int tile_len = tl.rows + tl.nnz;

        // ---- row ends and products (gathered at the end of the previous tile) to shared memory
        Slot<V>* s_prod = s_slots + tl.rows + 1;
#pragma unroll
        for (int s = 0; s <= ipt; ++s) {
            const int i = tid + s * block;
            if (i <= tl.rows) {
                s_slots[i].offset = ends[s];
            }
        }
#pragma unroll
        for (int s = 0; s < ipt; ++s) {
            const int i = tid + s * block;
            if (i < tl.nnz) {
                s_prod[i].value = vals[s];
            }
        }
        __syncthreads();
        const bool more = j + 1 < num_tiles;
        const Tile next =
            tile_at(s_rows, more ? j + 1 : j, t_begin + j + (more ? 1 : 0), tile, a.num_items);
        if (more) {  // the next tile's loads fly while this one is reduced
            load_tile<block, ipt>(a, next, ends, cols, vals);
        }

        // ---- this thread's items: merge-path search in the tile, then ipt steps
        const int diag = tid * ipt < tile_len ? tid * ipt : tile_len;
        int lo = diag - tl.nnz > 0 ? diag - tl.nnz : 0;
        int hi = diag < tl.rows ? diag : tl.rows;
        while (lo < hi) {
            const int p = (lo + hi) / 2;
            if (s_slots[p].offset <= tl.k0 + (diag - p - 1)) {
                lo = p + 1;
            } else {
                hi = p;
            }
        }
        // Rows finished after the thread's first are complete: straight into s_out. The first
        // one still lacks the partial sums of the threads before (the scan below).
        const int x_start = lo;
        int row = lo;       // local row of the current item
        int k = diag - lo;  // local nonzero of the current item
        V running{0};
        V first{0};
#pragma unroll
        for (int s = 0; s < ipt; ++s) {
            if (diag + s < tile_len) {
                if (tl.k0 + k < s_slots[row].offset) {
                    running += s_prod[k].value;
                    ++k;
                } else {
                    if (row == x_start) {
                        first = running;
                    } else {
                        s_out[row] = running;
                    }
                    running = V{0};
                    ++row;
                }
            }
        }

        // ---- block-wide exclusive segmented scan of (row, running), the carry in front
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
        __syncthreads();  // also: every thread is done reading the slots (the next tile's go there)
        Carry<V> before{0, carry};  // row 0 of the tile continues the strip's open row
        Carry<V> total{0, carry};   // the whole tile: its key is tl.rows
#pragma unroll
        for (int w = 0; w < warps; ++w) {
            const Carry<V> c = s_warp[w];
            if (w < warp) {
                before = combine(before, c);
            }
            total = combine(total, c);
        }
        if (lane > 0) {
            before = combine(before, lane_before);
        }
        if (row > x_start) {  // the thread finished its first row
            s_out[x_start] = (before.key == x_start ? before.value : V{0}) + first;
        }
        __syncthreads();

        if (more) {  // its columns have arrived by now: start the gather of x
            gather_products<block, ipt>(next, x, cols, vals);
        }

        // ---- y for the rows finished here, coalesced; row 0 is the head piece while it is the
        // strip's head row
        const bool head_here = head && tl.r0 == strip_r0;
#pragma unroll
        for (int s = 0; s < ipt; ++s) {
            const int i = tid + s * block;
            if (i < tl.rows && (i > 0 || !head_here)) {
                detail::axpby_store(y + tl.r0 + i, alpha, s_out[i], beta);
            }
        }
        if (head_here && tl.rows > 0) {
            head_piece = s_out[0];
        }
        carry = total.value;
        // No barrier needed here: the next tile writes the slots after the barrier that followed
        // the last read of them, and s_out, s_warp after its own first barrier.
    }

    // ---- rows cut by strip boundaries (warp 0). Row R spans the strips of its items
    // row_ptrs[R] + R (first) ... row_ptrs[R + 1] + R (its finish).
    if (warp != 0) {
        return;
    }
    const bool head_open = head && strip_r1 == strip_r0;  // the strip lies inside its head row
    if (head_open) {
        head_piece = carry;
    }
    const bool tail = strip_r1 < a.num_rows && tail_begin < strip_k1 && !head_open;
    const std::int64_t tiles = a.tiles_per_strip;
    const std::int64_t head_first = (std::int64_t{head_begin} + strip_r0) / tile / tiles;
    const std::int64_t head_last = (std::int64_t{head_end} + strip_r0) / tile / tiles;
    const std::int64_t tail_last = (std::int64_t{tail_end} + strip_r1) / tile / tiles;
    bool head_done = false;  // this strip arrived last: it writes the row
    bool tail_done = false;
    if (lane == 0 && (head || tail)) {
        if (head) {
            a.head_vals[strip] = head_piece;
        }
        if (tail) {
            a.tail_vals[strip] = carry;
        }
        __threadfence();  // the pieces are visible before the arrivals are counted
        if (head) {
            const auto pieces = static_cast<std::uint32_t>(head_last - head_first + 1);
            head_done = atomicAdd(a.arrivals + head_first, 1u) == pieces - 1;
        }
        if (tail) {
            const auto pieces = static_cast<std::uint32_t>(tail_last - strip + 1);
            tail_done = atomicAdd(a.arrivals + strip, 1u) == pieces - 1;
        }
        if (head_done || tail_done) {
            __threadfence();  // then the other strips' pieces are visible here
        }
    }
    __syncwarp();
    head_done = __shfl_sync(full_mask, head_done, 0);
    tail_done = __shfl_sync(full_mask, tail_done, 0);
    if (head_done) {
        const V sum = sum_pieces(a.tail_vals, a.head_vals, head_first, head_last);
        if (lane == 0) {
            a.arrivals[head_first] = 0;
            detail::axpby_store(y + strip_r0, alpha, sum, beta);
        }
    }
    if (tail_done) {
        const V sum = sum_pieces(a.tail_vals, a.head_vals, strip, tail_last);
        if (lane == 0) {
            a.arrivals[strip] = 0;
            detail::axpby_store(y + strip_r1, alpha, sum, beta);
        }
    }
}

/// Calls f.template operator()<block, ipt>() for a supported configuration, else throws.
template <typename F>
void with_config(int block_size, int items_per_thread, F&& f)
{
    auto by_items = [&]<int block>() {
        switch (items_per_thread) {
            case 4:
                return f.template operator()<block, 4>();
            case 6:
                return f.template operator()<block, 6>();
            case 8:
                return f.template operator()<block, 8>();
            case 12:
                if constexpr (block <= 128) {  // 256 x 12 doubles exceed 48 KB of shared memory
                    return f.template operator()<block, 12>();
                }
                [[fallthrough]];
            default:
                SPMV_THROW(InvalidArgument,
                           "csr_merge: items per thread must be 4, 6, 8 or 12 (12 only for 64 or "
                           "128 threads), not " +
                               std::to_string(items_per_thread) + " with " + std::to_string(block) +
                               " threads");
        }
    };
    switch (block_size) {
        case 64:
            return by_items.template operator()<64>();
        case 128:
            return by_items.template operator()<128>();
        case 256:
            return by_items.template operator()<256>();
        default:
            SPMV_THROW(InvalidArgument, "csr_merge: block size must be 64, 128 or 256, not " +
                                            std::to_string(block_size));
    }
}

/// Blocks of this kernel resident per multiprocessor (read once per instantiation).
template <int block, int ipt, typename V>
int resident_blocks()
{
    static const int n = [] {
        int blocks = 0;
        SPMV_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &blocks, csr_merge_kernel<block, ipt, V>, block, 0));
        return std::max(blocks, 1);
    }();
    return n;
}

}  // namespace

template <typename V>
DeviceCsrMerge<V> upload_csr_merge(const Csr<V, std::int32_t>& a, const CsrMergeConfig& config)
{
    DeviceCsrMerge<V> d;
    d.block_size = config.block_size > 0 ? config.block_size : csr_merge_default_block_size;
    d.items_per_thread = config.items_per_thread > 0 ? config.items_per_thread
                                                     : csr_merge_default_items_per_thread<V>();
    int resident = 0;
    with_config(d.block_size, d.items_per_thread, [&]<int block, int ipt>() {
        resident = resident_blocks<block, ipt, V>() * detail::multiprocessor_count();
    });
    SPMV_EXPECTS(config.tiles_per_strip >= 0 && config.tiles_per_strip <= csr_merge_max_strip_tiles,
                 "csr_merge: tiles per strip must be in [0, " +
                     std::to_string(csr_merge_max_strip_tiles) + "]");
    const auto nnz = static_cast<std::int64_t>(a.values.size());
    SPMV_EXPECTS(
        a.row_ptrs.size() == static_cast<std::size_t>(a.num_rows) + 1 && a.row_ptrs.back() == nnz,
        "csr_merge: row_ptrs must hold num_rows + 1 entries ending at nnz");
    d.num_items = std::int64_t{a.num_rows} + nnz;
    d.tile_items = std::int64_t{d.block_size} * d.items_per_thread;
    d.num_tiles = a.num_rows > 0 ? detail::ceil_div(d.num_items, d.tile_items) : 0;
    // Strips: one wave of resident blocks with equal shares, unless asked otherwise.
    d.tiles_per_strip =
        config.tiles_per_strip > 0
            ? config.tiles_per_strip
            : std::clamp<std::int64_t>(detail::ceil_div<std::int64_t>(d.num_tiles, resident), 1,
                                       csr_merge_max_strip_tiles);
    d.num_strips = d.num_tiles > 0 ? detail::ceil_div(d.num_tiles, d.tiles_per_strip) : 0;
    const auto tiles = static_cast<std::size_t>(d.num_tiles);
    const auto strips = static_cast<std::size_t>(d.num_strips);

    // The partition: tile t starts after max{ i : row_ptrs[i] + i <= t * tile_items } rows.
    std::vector<std::int32_t> tile_rows(tiles > 0 ? tiles + 1 : 0);
    for (std::size_t t = 0; t < tile_rows.size(); ++t) {
        const std::int64_t diag =
            std::min(static_cast<std::int64_t>(t) * d.tile_items, d.num_items);
        std::int64_t lo = 0;  // row_ptrs[lo] + lo <= diag
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

    ensure_device_memory("csr_merge", a.row_ptrs.size() * sizeof(std::int32_t) +
                                          a.col_idxs.size() * sizeof(std::int32_t) +
                                          a.values.size() * sizeof(V) +
                                          tile_rows.size() * sizeof(std::int32_t) +
                                          strips * (2 * sizeof(V) + sizeof(std::uint32_t)));
    d.csr = upload(a);
    d.tile_rows = DeviceBuffer<std::int32_t>::from_host(tile_rows, "csr_merge partition");
    d.head_vals = DeviceBuffer<V>(strips, "csr_merge carries");
    d.tail_vals = DeviceBuffer<V>(strips, "csr_merge carries");
    d.arrivals = DeviceBuffer<std::uint32_t>(strips, "csr_merge carries");
    d.arrivals.fill(0u);
    synchronize();  // the counters are zero before the first SpMV on any stream
    return d;
}

template <typename V>
void spmv(const DeviceCsrMerge<V>& a, V alpha, const V* x, V beta, V* y, StreamRef stream)
{
    if (a.num_strips == 0) {
        return;
    }
    const MergeView<V> v{a.csr.num_rows,        static_cast<std::int32_t>(a.csr.values.size()),
                         a.num_items,           a.num_tiles,
                         a.tiles_per_strip,     a.csr.row_ptrs.data(),
                         a.csr.col_idxs.data(), a.csr.values.data(),
                         a.tile_rows.data(),    a.head_vals.data(),
                         a.tail_vals.data(),    a.arrivals.data()};
    with_config(a.block_size, a.items_per_thread, [&]<int block, int ipt>() {
        csr_merge_kernel<block, ipt>
            <<<static_cast<unsigned>(a.num_strips), block, 0, detail::native(stream)>>>(v, alpha, x,
                                                                                        beta, y);
        SPMV_CUDA_CHECK(cudaGetLastError());
    });
}

SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_UPLOAD_CSR_MERGE);
SPMV_GPU_INSTANTIATE_FOR_EACH_VALUE_TYPE(SPMV_GPU_DECLARE_CSR_MERGE_SPMV);

namespace detail {

template <typename V>
std::unique_ptr<DeviceOp<V>> assemble_csr_merge(const AnyMatrix<V>& m)
{
    const auto* f = alternative<Csr<V, std::int32_t>>(m);
    if (f == nullptr) {
        return nullptr;
    }
    return make_op<V>(upload_csr_merge(*f),
                      [](const DeviceCsrMerge<V>& a, V alpha, const V* x, V beta, V* y, RowOrder,
                         StreamRef s) { spmv(a, alpha, x, beta, y, s); });
}

}  // namespace detail
}  // namespace spmv::gpu

SPMV_INSTANTIATE_ASSEMBLE(csr_merge)
