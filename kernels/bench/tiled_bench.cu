// tiled_bench: a PROTOTYPE of a nonzero-tiled CSR kernel for matrices with random columns (the
// 1M-row power laws of issue 37), timed beside BiELL and the cuSPARSE baselines on the same
// matrix and the same clean cold L2 as spmvlab bench. Not a library kernel.
//
// Why this shape (docs/benchmarks/h200_powerlaw_2026-11-28): on the power law every x load is
// its own L2 sector, and the kernel that keeps the most gathers in flight wins. cuSPARSE COO ALG1
// keeps L2 78 % busy, our BiELL 59 % (padding and a chain of dependent groups) and CSR merge 53 %
// (78 registers, 0.94 waves). The gather floor (gather_bench.cu: one warp per 32 S nonzeros, all
// loads issued before the first use) is 34.1 us on the H200. This kernel is that floor plus the
// row structure:
//   - warp c takes nonzeros [32 S c, 32 S (c+1)), S steps of 32 coalesced loads, every column,
//     value and x gather issued before the first use;
//   - its rows: chunk_row[c] (the row holding its first nonzero, computed once on the host) and
//     the row_ptrs of the rows starting inside the chunk, set as bits of a per-warp mask;
//   - a segmented warp scan per step (flags from the mask) with a carry between steps; the lane
//     at a row's end writes y[row] when the row lies inside the chunk, else the chunk's head or
//     tail piece;
//   - a fix-up kernel (one thread per chunk) sums the pieces of each cut row in chunk order and
//     writes y: deterministic, no atomics.
// Limits of the prototype (a library kernel would lift them): alpha = 1, beta = 0; no empty rows
// (the power laws have none; a row of length 0 would need its own write); 32-bit indices.
//
// Built with the library wherever CUDA is (CMake target tiled_bench, build/kernels/bench/; not
// run by ctest). By hand on the GPU machine after building spmv_kernels (build-device):
//   nvcc -O3 -std=c++20 -arch=sm_90 -Ilib/include -Ikernels/include -Ibuild-device/lib/generated \
//     kernels/bench/tiled_bench.cu build-device/kernels/libspmv_kernels.a \
//     build-device/lib/libspmv_core.a -lcusparse -o build-device/tiled_bench
// Run: build-device/tiled_bench [min-len max-len] (power law of 1M rows; default 1 500);
// scripts/experiments/s23.sh tiled builds and runs it on the device machine.
//
// Results, H200, 2026-11-28, us, default power law DP / SP (records and the other matrix in
// docs/benchmarks/h200_powerlaw_2026-11-28/tiled):
//   tile kernel alone, S = 4 (cut rows unfinished)      38.3 / 32.4
//   tile + fix-up as a programmatic dependent launch   42.1 / 35.9
//   one kernel, last arriver (fence per cut piece)     57.9 / 51.2  (removed since; its code
//                                                     is in the record's s23e run)
//   cuSPARSE COO ALG1 41.4 / 36.5, BiELL 42.7 / 35.1
// => the tile is the fastest kernel measured on the power laws; finishing the cut rows (a
//    dependent serial fix-up, 4.8 us) takes the lead away.
// Session 24 (docs/benchmarks/h200_tiled_2026-11-29): persistent warp strips and row-aligned
// chunks were slower (+20-30 %: the first loads wait on an earlier load); the row starts planned
// on the host and a static cut-row list made the complete SpMV as fast as the tile kernel alone.
// That scheme is the library kernel csr_tiled (spmv/gpu/csr_tiled.hpp), timed here beside the
// prototype through the library. tiled_bench onefull runs onefull 200k instead of a power law.
// Session 25 (docs/benchmarks/h200_floor_2026-11-29): "lookback", one kernel without the fix-up
// (the warp at a cut row's end sums the row's pieces, which their chunks publish tagged with
// the launch's epoch, blocks ordered by a ticket): correct, bitwise repeatable, and 26-41 %
// slower than csr_tiled; its code is in git history (0977f09), its record in that folder.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <string>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/generators.hpp>
#include <spmv/gpu/bench.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/gpu/device_matrix.hpp>
#include <spmv/gpu/memory.hpp>
#include <spmv/gpu/variants.hpp>

#include "bench_common.cuh"

using namespace spmv;
using namespace spmv::gpu;

namespace {

constexpr int block = 256;
constexpr int warps_per_block = block / 32;
constexpr unsigned full = 0xffffffffu;

template <typename V, int S>
__global__ void __launch_bounds__(block)
    tiled_kernel(std::int32_t nnz, std::int32_t n, const std::int32_t* __restrict__ row_ptr,
                 const std::int32_t* __restrict__ cols, const V* __restrict__ vals,
                 const std::int32_t* __restrict__ chunk_row, std::int32_t num_chunks,
                 const V* __restrict__ x, V* __restrict__ y, V* __restrict__ head,
                 V* __restrict__ tail, int2* __restrict__ fix = nullptr)
{
    constexpr int K = 32 * S;
    // Programmatic dependent launch (sm_90): the fix-up grid may be scheduled from now on; it
    // waits in cudaGridDependencySynchronize until this grid has finished and flushed.
    cudaTriggerProgrammaticLaunchCompletion();
    __shared__ unsigned s_mask[warps_per_block][S + 1];
    const int wl = static_cast<int>(threadIdx.x / 32);
    const int lane = static_cast<int>(threadIdx.x % 32);
    const std::int32_t c = static_cast<std::int32_t>(blockIdx.x) * warps_per_block + wl;
    if (c >= num_chunks) {
        return;  // the whole warp
    }
    const std::int32_t k0 = c * K;
    const std::int32_t k1 = k0 + K < nnz ? k0 + K : nnz;
    if (lane <= S) {
        s_mask[wl][lane] = 0;
    }
    const std::int32_t r0 = __ldg(chunk_row + c);
    std::int32_t cc[S];
    V vv[S];
#pragma unroll
    for (int s = 0; s < S; ++s) {
        const std::int32_t k = k0 + s * 32 + lane;
        const bool in = k < k1;
        cc[s] = in ? __ldcs(cols + k) : -1;
        vv[s] = in ? __ldcs(vals + k) : V{0};
    }
    const bool head_cut = __ldg(row_ptr + r0) < k0;
    __syncwarp();
    // The starts of rows r0+1, r0+2, ... that lie in (k0, k1]: bit q = start - k0 of the mask
    // (bit K: the chunk's last row ends exactly at its end).
    for (std::int32_t r = r0 + 1 + lane;; r += 32) {
        const std::int32_t e = r <= n ? __ldg(row_ptr + r) : nnz + 1;
        if (e > k0 && e <= k1) {
            const int q = e - k0;
            atomicOr(&s_mask[wl][q >> 5], 1u << (q & 31));
        }
        if (__any_sync(full, e >= k1)) {
            break;
        }
    }
    V p[S];
#pragma unroll
    for (int s = 0; s < S; ++s) {
        p[s] = cc[s] >= 0 ? vv[s] * __ldg(x + cc[s]) : V{0};
    }
    __syncwarp();
    unsigned words[S + 1];
#pragma unroll
    for (int s = 0; s <= S; ++s) {
        words[s] = s_mask[wl][s];
    }
    V carry{0};
    int rows_before = 0;
    int fix_row = -1;  // the cut row this chunk finishes, if any (fix list)
#pragma unroll
    for (int s = 0; s < S; ++s) {
        const unsigned heads = words[s];
        const unsigned below = heads & (full >> (31 - lane));  // bits 0..lane
        const int seg = below != 0 ? 31 - __clz(below) : -1;
        V v = p[s];
#pragma unroll
        for (int d = 1; d < 32; d *= 2) {
            const V t = __shfl_up_sync(full, v, d);
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
            const bool ends_here = next_head;  // bit K / the end of the matrix are bits too
            if (starts_here && ends_here) {
                y[row] = v;
            } else if (ends_here || !starts_here) {
                head[c] = v;  // the piece of a row begun earlier (ending here or running on)
                if (ends_here) {
                    fix_row = row;
                }
            } else {
                tail[c] = v;  // the start of a row that runs on past the chunk
            }
        }
        carry = __shfl_sync(full, v, 31);
        rows_before += __popc(heads);
    }
    if (fix != nullptr) {  // one entry per chunk: (row, its first chunk) or (-1, -1)
        fix_row = __reduce_max_sync(full, fix_row);
        if (lane == 0) {
            fix[c] = fix_row < 0 ? make_int2(-1, -1)
                                 : make_int2(fix_row, __ldg(row_ptr + fix_row) / K);
        }
    }
}

// The fix-up from the tile kernel's list: thread c finishes the cut row that chunk c ends (one
// load of its list entry, then the pieces in chunk order). Launched as a programmatic dependent
// of the tile kernel.
template <typename V>
__global__ void fixup_list_kernel(std::int32_t num_chunks, const int2* __restrict__ fix,
                                  const V* __restrict__ head, const V* __restrict__ tail,
                                  V* __restrict__ y)
{
    cudaGridDependencySynchronize();
    const std::int32_t c = static_cast<std::int32_t>(blockIdx.x * blockDim.x + threadIdx.x);
    if (c >= num_chunks) {
        return;
    }
    const int2 f = __ldcg(fix + c);
    if (f.x < 0) {
        return;
    }
    V sum = __ldcg(tail + f.y);
    for (std::int32_t m = f.y + 1; m < c; ++m) {
        sum += __ldcg(head + m);
    }
    y[f.x] = sum + __ldcg(head + c);
}

// One thread per chunk: a chunk whose first row began earlier and ends inside it sums that row's
// pieces, from the chunk where it began (tail) through the chunks it covers whole (head) to this
// one (head), in that order, and writes y.
template <typename V, int S>
__global__ void fixup_kernel(std::int32_t nnz, const std::int32_t* __restrict__ row_ptr,
                             const std::int32_t* __restrict__ chunk_row, std::int32_t num_chunks,
                             const V* __restrict__ head, const V* __restrict__ tail,
                             V* __restrict__ y)
{
    constexpr int K = 32 * S;
    cudaGridDependencySynchronize();  // a no-op unless launched as a programmatic dependent
    const std::int32_t c = static_cast<std::int32_t>(blockIdx.x * blockDim.x + threadIdx.x);
    if (c >= num_chunks) {
        return;
    }
    const std::int32_t r = __ldg(chunk_row + c);
    const std::int32_t start = __ldg(row_ptr + r);
    const std::int32_t k0 = c * K;
    const std::int32_t k1 = k0 + K < nnz ? k0 + K : nnz;
    if (start >= k0 || __ldg(row_ptr + r + 1) > k1) {
        return;  // the row starts here (no head piece) or runs on (a later chunk finishes it)
    }
    const std::int32_t first = start / K;  // the chunk where the row began: its tail piece
    V sum = __ldcg(tail + first);
    for (std::int32_t m = first + 1; m < c; ++m) {
        sum += __ldcg(head + m);
    }
    y[r] = sum + __ldcg(head + c);
}

// The list fix-up with a warp per chunk: the lanes load the cut row's pieces at once (lane i
// piece first + i, + 32, ...) and add them by a fixed shuffle tree, so the sum's order is the
// same on every run; one dependent load (the list entry) before the pieces instead of one per
// piece. Launched as a programmatic dependent of the tile kernel.
template <typename V>
__global__ void __launch_bounds__(256)
    fixup_warp_kernel(std::int32_t num_chunks, const int2* __restrict__ fix,
                      const V* __restrict__ head, const V* __restrict__ tail, V* __restrict__ y)
{
    cudaGridDependencySynchronize();
    const std::int32_t c = static_cast<std::int32_t>((blockIdx.x * blockDim.x + threadIdx.x) / 32);
    const int lane = static_cast<int>(threadIdx.x % 32);
    if (c >= num_chunks) {
        return;
    }
    const int2 f = __ldcg(fix + c);
    if (f.x < 0) {
        return;
    }
    V sum{0};
    for (std::int32_t m = f.y + lane; m <= c; m += 32) {
        sum += m == f.y ? __ldcg(tail + m) : __ldcg(head + m);
    }
#pragma unroll
    for (int d = 16; d > 0; d /= 2) {
        sum += __shfl_down_sync(full, sum, d);
    }
    if (lane == 0) {
        y[f.x] = sum;
    }
}

template <typename V>
struct Tiled {
    std::int32_t n = 0, nnz = 0, chunks = 0;
    DeviceBuffer<std::int32_t> row_ptr, cols, chunk_row;
    DeviceBuffer<V> vals, head, tail;
    DeviceBuffer<int2> fix;
};

template <typename V>
Tiled<V> upload_tiled(const Csr<V, std::int32_t>& a, int K)
{
    Tiled<V> t;
    t.n = a.num_rows;
    t.nnz = a.row_ptrs.back();
    t.chunks = (t.nnz + K - 1) / K;
    std::vector<std::int32_t> cr(static_cast<std::size_t>(t.chunks));
    for (std::int32_t c = 0; c < t.chunks; ++c) {  // the row holding nonzero c K
        const auto it = std::upper_bound(a.row_ptrs.begin(), a.row_ptrs.end(), c * K);
        cr[static_cast<std::size_t>(c)] = static_cast<std::int32_t>(it - a.row_ptrs.begin()) - 1;
    }
    t.row_ptr = DeviceBuffer<std::int32_t>::from_host(a.row_ptrs, "row_ptr");
    t.cols = DeviceBuffer<std::int32_t>::from_host(a.col_idxs, "cols");
    t.vals = DeviceBuffer<V>::from_host(a.values, "vals");
    t.chunk_row = DeviceBuffer<std::int32_t>::from_host(cr, "chunk_row");
    t.head = DeviceBuffer<V>(static_cast<std::size_t>(t.chunks), "head");
    t.tail = DeviceBuffer<V>(static_cast<std::size_t>(t.chunks), "tail");
    t.fix = DeviceBuffer<int2>(static_cast<std::size_t>(t.chunks), "fix");
    return t;
}

template <typename V, int S>
void launch_tiled(Tiled<V>& t, const V* x, V* y, bool fixup)
{
    const auto blocks = static_cast<unsigned>((t.chunks + warps_per_block - 1) / warps_per_block);
    tiled_kernel<V, S><<<blocks, block>>>(t.nnz, t.n, t.row_ptr.data(), t.cols.data(),
                                          t.vals.data(), t.chunk_row.data(), t.chunks, x, y,
                                          t.head.data(), t.tail.data());
    if (fixup) {
        fixup_kernel<V, S><<<static_cast<unsigned>((t.chunks + 255) / 256), 256>>>(
            t.nnz, t.row_ptr.data(), t.chunk_row.data(), t.chunks, t.head.data(),
            t.tail.data(), y);
    }
}

// fix: 0 the tile kernel alone, 1 + fix-up (plain launch), 2 + fix-up as a programmatic
// dependent launch, 3 + the list fix-up as a programmatic dependent launch, 4 + the list fix-up
// with a warp per chunk, PDL.
template <typename V, int S>
void launch_pdl(Tiled<V>& t, const V* x, V* y, int fix)
{
    const auto blocks = static_cast<unsigned>((t.chunks + warps_per_block - 1) / warps_per_block);
    tiled_kernel<V, S><<<blocks, block>>>(t.nnz, t.n, t.row_ptr.data(), t.cols.data(),
                                          t.vals.data(), t.chunk_row.data(), t.chunks, x, y,
                                          t.head.data(), t.tail.data(),
                                          fix >= 3 ? t.fix.data() : nullptr);
    if (fix == 0) {
        return;
    }
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(static_cast<unsigned>((t.chunks + 255) / 256));
    cfg.blockDim = dim3(256);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = fix >= 2 ? 1 : 0;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    if (fix == 4) {
        cfg.gridDim = dim3(static_cast<unsigned>((t.chunks + 7) / 8));
        CHECK_CUDA(cudaLaunchKernelEx(&cfg, fixup_warp_kernel<V>, t.chunks,
                                      static_cast<const int2*>(t.fix.data()),
                                      static_cast<const V*>(t.head.data()),
                                      static_cast<const V*>(t.tail.data()), y));
    } else if (fix == 3) {
        CHECK_CUDA(cudaLaunchKernelEx(&cfg, fixup_list_kernel<V>, t.chunks,
                                      static_cast<const int2*>(t.fix.data()),
                                      static_cast<const V*>(t.head.data()),
                                      static_cast<const V*>(t.tail.data()), y));
    } else {
        CHECK_CUDA(cudaLaunchKernelEx(&cfg, fixup_kernel<V, S>, t.nnz,
                                      static_cast<const std::int32_t*>(t.row_ptr.data()),
                                      static_cast<const std::int32_t*>(t.chunk_row.data()),
                                      t.chunks, static_cast<const V*>(t.head.data()),
                                      static_cast<const V*>(t.tail.data()), y));
    }
}




template <typename V>
void run(const Csr<double, std::int32_t>& ad, const char* prec)
{
    const Csr<V, std::int32_t> a = convert_values<V>(ad);
    const std::int32_t n = a.num_rows;
    const auto nnz = static_cast<std::int64_t>(a.row_ptrs.back());
    std::vector<V> hx(static_cast<std::size_t>(n));
    for (std::int32_t i = 0; i < n; ++i) {
        hx[static_cast<std::size_t>(i)] = static_cast<V>(std::sin(0.001 * i) + 0.5);
    }
    std::vector<double> ref(static_cast<std::size_t>(n), 0.0);
    for (std::int32_t r = 0; r < n; ++r) {
        for (std::int32_t k = a.row_ptrs[r]; k < a.row_ptrs[r + 1]; ++k) {
            ref[r] += static_cast<double>(a.values[k]) * hx[a.col_idxs[k]];
        }
    }
    auto x = DeviceBuffer<V>::from_host(hx, "x");
    DeviceBuffer<V> y(static_cast<std::size_t>(n), "y");
    Timer timer;
    auto check = [&](const std::string& name) {
        std::vector<V> hy(static_cast<std::size_t>(n));
        CHECK_CUDA(cudaMemcpy(hy.data(), y.data(), hy.size() * sizeof(V), cudaMemcpyDeviceToHost));
        double worst = 0;
        for (std::int32_t i = 0; i < n; ++i) {
            const double err = std::abs(hy[i] - ref[i]) / (std::abs(ref[i]) + 1.0);
            worst = std::max(worst, err);
        }
        const double tol = sizeof(V) == 4 ? 1e-4 : 1e-12;
        std::printf("  check %-40s max rel err %.2e %s\n", name.c_str(), worst,
                    worst <= tol ? "ok" : "WRONG");
        return worst <= tol;
    };
    auto report = [&](const std::string& name, double us) {
        std::printf("%s %-44s %8.2f us  %6.1f GF/s\n", prec, name.c_str(), us,
                    2.0 * static_cast<double>(nnz) / us * 1e-3);
    };
#define TILED(S)                                                                                \
    {                                                                                           \
        auto t = upload_tiled(a, 32 * S);                                                       \
        y.fill(V{-7});                                                                          \
        launch_tiled<V, S>(t, x.data(), y.data(), true);                                        \
        CHECK_CUDA(cudaDeviceSynchronize());                                                    \
        check("tiled S=" #S);                                                                   \
        report("tiled S=" #S " (tile + fix-up)",                                                \
               timer.median_us([&] { launch_tiled<V, S>(t, x.data(), y.data(), true); }));      \
        report("tiled S=" #S " (tile kernel alone)",                                            \
               timer.median_us([&] { launch_tiled<V, S>(t, x.data(), y.data(), false); }));     \
    }
    TILED(4)
#define TILED_PDL(S, F, NAME)                                                                   \
    {                                                                                           \
        auto t = upload_tiled(a, 32 * S);                                                       \
        y.fill(V{-7});                                                                          \
        launch_pdl<V, S>(t, x.data(), y.data(), F);                                             \
        CHECK_CUDA(cudaDeviceSynchronize());                                                    \
        check("tiled S=" #S " " NAME);                                                          \
        report("tiled S=" #S " " NAME,                                                          \
               timer.median_us([&] { launch_pdl<V, S>(t, x.data(), y.data(), F); }));           \
    }
    TILED_PDL(4, 3, "+ list fix-up, PDL")
    FormatParams params;
    // csr_tiled: the library kernel that grew out of this prototype (start words planned on the
    // host, a static list of cut rows; session 24, docs/benchmarks/h200_tiled_2026-11-29)
    for (const char* name : {"csr_tiled", "biell", "csr_merge", "cusparse_coo_alg1",
                             "cusparse_csr_alg1", "cusparse_coo_alg2"}) {
        try {
            const auto op = prepare(std::string_view(name), a, params);
            const RowOrder order = op.permuted() ? RowOrder::permuted : RowOrder::original;
            report(name, timer.median_us([&] { op.spmv(V{1}, x.data(), V{0}, y.data(), order); }));
        } catch (const std::exception& e) {
            std::printf("%s %s: %s\n", prec, name, e.what());
        }
    }
}

}  // namespace

int main(int argc, char** argv)
{
    // tiled_bench [min-len max-len]: the power law of 1M rows; tiled_bench onefull: onefull 200k.
    const bool onefull = argc > 1 && std::string(argv[1]) == "onefull";
    const int min_len = argc > 2 ? std::atoi(argv[1]) : 1;
    const int max_len = argc > 2 ? std::atoi(argv[2]) : 500;
    const auto a = onefull ? gen::generate("onefull", {{"n", 200000}})
                           : gen::generate("powerlaw", {{"rows", 1000000}, {"min-len", min_len},
                                                        {"max-len", max_len}});
    std::printf("device %s, %s: rows %d nnz %d, copy %.0f GB/s\n", device_info().name.c_str(),
                onefull ? "onefull n 200000"
                        : ("power law min-len " + std::to_string(min_len) + " max-len " +
                           std::to_string(max_len)).c_str(),
                a.num_rows, a.row_ptrs.back(), measure_copy_bandwidth().gbs);
    run<double>(a, "dp");
    run<float>(a, "sp");
    return 0;
}
