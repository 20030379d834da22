#pragma once
// Launch-configuration helpers shared by the kernels (STYLE.md 5.5).
#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>
#include <type_traits>

#include <spmv/gpu/memory.hpp>

#include "cuda_check.cuh"
#include "warp_trace.cuh"  // SPMV_WARP_TRACE: every SpMV kernel's per-warp recorder

namespace spmv::gpu::detail {

inline cudaStream_t native(StreamRef s) noexcept
{
    return static_cast<cudaStream_t>(s.handle);
}

template <typename T>
constexpr T ceil_div(T n, T d)
{
    return (n + d - 1) / d;
}

/// Multiprocessors of the current device (read once; 132 on an H100 SXM).
int multiprocessor_count();
/// Threads one multiprocessor of the current device holds at once
/// (cudaDevAttrMaxThreadsPerMultiProcessor: 2048 on sm_80 and sm_90), read once.
int threads_per_multiprocessor();

/// Programmatic dependent launch (compute capability 9.0+): a kernel launched with
/// launch_chained may be scheduled while the kernel before it in the stream is still finishing,
/// so the launch latency and the ramp of its blocks overlap the previous kernel's tail. Such a
/// kernel must call chain_wait() before it touches anything an earlier kernel wrote
/// (griddepcontrol.wait returns once that kernel has completed and its memory is visible).
/// chain_release() lets the next chained kernel be scheduled as soon as every block of this one
/// has issued it. Used by the fused CG steps (solver_backend.cu) and the fused SpMV + dot product
/// they chain with. On older devices, or with SPMV_CG_CHAINED=off (a diagnostic, read once),
/// the launches are ordinary ones and both calls compile to nothing or return at once.
bool chained_launches();

__device__ __forceinline__ void chain_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

__device__ __forceinline__ void chain_release()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/// kernel<<<grid, block, 0, stream>>>(args...), with programmatic stream serialization when
/// chained_launches() (see chain_wait).
template <typename... Params, typename... Args>
void launch_chained(void (*kernel)(Params...), unsigned grid, unsigned block, StreamRef stream,
                    Args&&... args)
{
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(block);
    cfg.dynamicSmemBytes = 0;
    cfg.stream = native(stream);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = attr;
    cfg.numAttrs = chained_launches() ? 1 : 0;
    SPMV_CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel, static_cast<Params>(args)...));
}

/// Threads per block for a one-thread-per-item kernel over `items` items: 256 while that
/// still gives at least two blocks per multiprocessor, otherwise 128 or 64, so that small
/// matrices still spread over all SMs instead of sitting on a few.
inline int block_size_for(std::int64_t items, int max_block = 256)
{
    const std::int64_t want_blocks = 2 * std::int64_t{multiprocessor_count()};
    int b = max_block;
    while (b > 64 && ceil_div<std::int64_t>(items, b) < want_blocks) {
        b /= 2;
    }
    return b;
}

/// Read-only load through the non-coherent (texture) path: the modern form of Barbieri's
/// tex1Dfetch on x. Only for data that no thread of the same launch writes.
template <typename T>
__device__ __forceinline__ T ldg(const T* p)
{
    return __ldg(p);
}

/// Load of a matrix array (values, column indices), which one SpMV reads exactly once, in one of
/// two kinds chosen per launch (the kernels that use it take `bool streaming` as a template
/// parameter and are instantiated for both; the launcher picks one with with_stream_policy):
///  - streaming = true: ld.global.cs (__ldcs) marks the lines evict-first in L1 and L2, so that x
///    (gathered, reused) keeps the caches. Measured on an H100, SELL-32-1 on pde100 in double:
///    36.2 -> 34.1 us (kernels/bench/sell_tune.cu); +4-6 % on the large matrices.
///  - streaming = false: the read-only path (__ldg, like ldg above). On the small, latency-bound
///    matrices (a few thousand rows, matrix far smaller than L2) streaming loads were measured
///    ~4 % slower (494_bus ... bcspwr09: csr_vector 5.54 -> 5.76 us with __ldcs).
/// Checked with both kinds per launch (H100, spmvlab bench --gpu, double, one run each): SELL-32
/// on pde05 5.0 us read-only vs 6.0 us streaming, on pde100 38.8 us vs 34.0 us; auto took the
/// faster kind on both (ELLR, ELL, pJDS and BiELL alike).
/// The choice: stream_matrix_loads below (streaming when matrix + vectors exceed the L2, unless
/// SPMV_STREAM_LOADS=always|never says otherwise). x keeps the read-only path; the strided row
/// sum adds an L2 evict_last hint to it in streaming launches (ld_x below). Used by the
/// slice/column-major kernels (ELLPACK family, SELL, pJDS, PELLR, BiELL/BiJAD, split kernels), whose large-matrix bandwidth the streaming loads serve. The CSR,
/// COO, JDS, merge-path and "_xs" kernels keep ldg unconditionally.
template <bool streaming, typename T>
__device__ __forceinline__ T ld_matrix(const T* p)
{
    if constexpr (streaming) {
        return __ldcs(p);
    } else {
        return __ldg(p);
    }
}

/// Load of a gathered x entry in a launch whose matrix loads are `streaming` (see ld_matrix):
/// then the read-only path with an L2 evict_last hint, so that the x lines, reused by other rows,
/// outlive the matrix lines that stream past them in L2; otherwise plain ldg. Measured on an
/// H100 (kernels/bench/gather_bench.cu, power law of 1M rows and 4.1M random columns, double, cold
/// L2): columns + values + gathers 39.3 us with ldg, 37.7 us with the hint (x_policy); BiELL on that matrix
/// 47.9-48.5 -> 46.3 us, on the min-len 4 power law 206.7 -> 194.8 us; SELL/SELL_i16 on pde100,
/// pde150 and blocks5 unchanged (within 1 %). Used by strided_row_sum (the slice kernels) only:
/// the same hint made pjds_split's wide-slice kernel (split.cuh) slower (54.9 -> 58.7 us on the
/// power law) and csr_merge 1-2 % slower, so those keep ldg.
/// The L2 cache policy ld_x passes with x in a `streaming` launch (evict_last); 0, unused,
/// otherwise. Make it once per thread, outside the gather loop.
template <bool streaming>
__device__ __forceinline__ std::uint64_t x_policy()
{
    std::uint64_t policy = 0;
    if constexpr (streaming) {
        asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
    }
    return policy;
}

template <bool streaming, typename T>
__device__ __forceinline__ T ld_x(const T* p, std::uint64_t policy)
{
    static_assert(std::is_same_v<T, double> || std::is_same_v<T, float>);
    if constexpr (streaming) {
        T v;
        if constexpr (std::is_same_v<T, double>) {
            asm("ld.global.nc.L2::cache_hint.f64 %0, [%1], %2;" : "=d"(v) : "l"(p), "l"(policy));
        } else {
            asm("ld.global.nc.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(v) : "l"(p), "l"(policy));
        }
        return v;
    } else {
        return __ldg(p);
    }
}

/// L2 cache of the current device in bytes (read once; 50 MiB on an H100 SXM).
std::size_t l2_cache_bytes();

/// Whether a launch uses streaming loads (ld_matrix<true>) for the matrix arrays: true when
/// matrix_bytes + vector_bytes exceed the L2 (l2_cache_bytes), i.e. when the matrix cannot stay
/// in L2 from one SpMV to the next anyway and must not evict x. SPMV_STREAM_LOADS=always|never
/// overrides it (auto, the default: the size rule); the variable is read once, any other value
/// throws spmv::InvalidArgument, and set_stream_loads overrides it in-process
/// (spmv/gpu/stream_loads.hpp).
bool stream_matrix_loads(std::size_t matrix_bytes, std::size_t vector_bytes);

/// stream_matrix_loads for a device format: its device_bytes() (values, indices and aux arrays)
/// against x and y, (num_rows + num_cols) entries of V.
template <typename V, typename DeviceFmt>
bool stream_matrix_loads_for(const DeviceFmt& a)
{
    const auto entries =
        static_cast<std::size_t>(a.num_rows) + static_cast<std::size_t>(a.num_cols);
    return stream_matrix_loads(a.device_bytes(), entries * sizeof(V));
}

/// Calls f(std::true_type{}) when `streaming`, else f(std::false_type{}), so that a launcher
/// writes its launch once, as kernel<decltype(s)::value><<<...>>> in a lambda taking `auto s`.
/// Only the kernels that load matrix arrays with ld_matrix are instantiated twice.
template <typename F>
void with_stream_policy(bool streaming, F&& f)
{
    if (streaming) {
        f(std::true_type{});
    } else {
        f(std::false_type{});
    }
}

/// y = alpha * sum + beta * y, never reading y when beta == 0 (BLAS semantics: NaN in y
/// must not propagate). The arithmetic is in the sum's type Acc (double for a float kernel with
/// Sums::double_precision: y is rounded to V once, here).
template <typename Acc, typename V>
__device__ __forceinline__ void axpby_store(V* y, V alpha, Acc sum, V beta)
{
    if (beta == V{0}) {
        *y = static_cast<V>(static_cast<Acc>(alpha) * sum);
    } else {
        *y = static_cast<V>(static_cast<Acc>(alpha) * sum +
                            static_cast<Acc>(beta) * static_cast<Acc>(*y));
    }
}

/// a * b with both converted to Acc first: exact in double for two floats (24 + 24 bits of
/// significand fit 53), so a double sum of such products rounds only in its additions.
template <typename Acc, typename V>
__device__ __forceinline__ Acc product(V a, V b)
{
    return static_cast<Acc>(a) * static_cast<Acc>(b);
}

}  // namespace spmv::gpu::detail
