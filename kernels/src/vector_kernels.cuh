#pragma once
// Vector kernels shared by the solver backend (solver_backend.cu) and the public BLAS-1 API
// (vector_ops.cu, spmv/gpu/vector_ops.hpp):
//  - element-wise kernels, one thread per entry, for a grid of ceil_div(n, block) blocks of
//    `block` threads (the launcher skips n == 0);
//  - 16-byte packs and the grid-stride chunk loop of the fused, deterministic reductions (each
//    thread adds its elements in index order; grid_sum.cuh adds the blocks in block order);
//  - update_one and cg_update_pass: CG's fused update (x += alpha p, r -= alpha q,
//    z = inv_diag r) with its sums r.r and r.z, one element / one thread's chunks.
// Templates only, so that every .cu including it gets its own instantiations.
#include <cstdint>
#include <cuda_runtime.h>
#include <type_traits>

namespace spmv::gpu::detail {

// ---- element-wise kernels: one thread per entry ---------------------------------------------

/// y = x + alpha y (alpha already in V, so the arithmetic is in V).
template <int block, typename V>
__global__ void __launch_bounds__(block)
    xpay_kernel(std::int64_t n, const V* __restrict__ x, V alpha, V* __restrict__ y)
{
    const auto i = std::int64_t{blockIdx.x} * block + threadIdx.x;
    if (i < n) {
        y[i] = x[i] + alpha * y[i];
    }
}

/// y = y + alpha x (alpha already in V).
template <int block, typename V>
__global__ void __launch_bounds__(block)
    axpy_kernel(std::int64_t n, V alpha, const V* __restrict__ x, V* __restrict__ y)
{
    const auto i = std::int64_t{blockIdx.x} * block + threadIdx.x;
    if (i < n) {
        y[i] += alpha * x[i];
    }
}

/// z = inv_diag .* r (Jacobi; any element-wise product d .* r).
template <int block, typename V>
__global__ void __launch_bounds__(block)
    jacobi_kernel(std::int64_t n, const V* __restrict__ inv_diag, const V* __restrict__ r,
                  V* __restrict__ z)
{
    const auto i = std::int64_t{blockIdx.x} * block + threadIdx.x;
    if (i < n) {
        z[i] = inv_diag[i] * r[i];
    }
}

/// dst = (To)(scale * src), the product in double (MPIR's demotion of a scaled residual).
template <int block, typename From, typename To>
__global__ void __launch_bounds__(block)
    convert_scaled_kernel(std::int64_t n, double scale, const From* __restrict__ src,
                          To* __restrict__ dst)
{
    const auto i = std::int64_t{blockIdx.x} * block + threadIdx.x;
    if (i < n) {
        dst[i] = static_cast<To>(scale * static_cast<double>(src[i]));
    }
}

/// dst += (To)(scale * src), the product in double (MPIR's promotion of a correction).
template <int block, typename From, typename To>
__global__ void __launch_bounds__(block)
    add_scaled_kernel(std::int64_t n, double scale, const From* __restrict__ src,
                      To* __restrict__ dst)
{
    const auto i = std::int64_t{blockIdx.x} * block + threadIdx.x;
    if (i < n) {
        dst[i] += static_cast<To>(scale * static_cast<double>(src[i]));
    }
}

// ---- packs: the fused reductions move 16 bytes per load (float4 / double2) -----------------
// Thread t of a grid-stride loop handles chunk c = t, t + stride, ...: elements
// [c * width, c * width + width), one 16-byte load per vector when the chunk is full, one
// element at a time for the last, partial chunk. With four floats (two doubles) per load a
// one-wave grid keeps 4x (2x) more bytes in flight per thread than element-wise loads: the
// float kernels were latency bound (pde150: 2.2 TB/s in float against 2.6 TB/s in double).
// Every thread adds its elements in index order, so a fixed grid still gives bitwise
// reproducible sums. load_pack/store_pack need 16-byte aligned pointers (cudaMalloc gives 256).

template <typename V>
inline constexpr int pack_width = 16 / static_cast<int>(sizeof(V));

template <typename V>
struct Pack {
    V v[pack_width<V>];
};

template <typename V>
__device__ __forceinline__ Pack<V> load_pack(const V* p)
{
    Pack<V> r;
    if constexpr (std::is_same_v<V, float>) {
        const float4 t = *reinterpret_cast<const float4*>(p);
        r.v[0] = t.x;
        r.v[1] = t.y;
        r.v[2] = t.z;
        r.v[3] = t.w;
    } else {
        const double2 t = *reinterpret_cast<const double2*>(p);
        r.v[0] = t.x;
        r.v[1] = t.y;
    }
    return r;
}

template <typename V>
__device__ __forceinline__ void store_pack(V* p, const Pack<V>& r)
{
    if constexpr (std::is_same_v<V, float>) {
        *reinterpret_cast<float4*>(p) = make_float4(r.v[0], r.v[1], r.v[2], r.v[3]);
    } else {
        *reinterpret_cast<double2*>(p) = make_double2(r.v[0], r.v[1]);
    }
}

/// A chunk of pack_width<V> elements at p: one 16-byte load when `aligned` (p 16-byte aligned),
/// else one load per element. The same values either way, so the sums do not depend on it.
template <bool aligned, typename V>
__device__ __forceinline__ Pack<V> load_chunk(const V* p)
{
    if constexpr (aligned) {
        return load_pack(p);
    } else {
        Pack<V> r;
#pragma unroll
        for (int u = 0; u < pack_width<V>; ++u) {
            r.v[u] = p[u];
        }
        return r;
    }
}

template <bool aligned, typename V>
__device__ __forceinline__ void store_chunk(V* p, const Pack<V>& r)
{
    if constexpr (aligned) {
        store_pack(p, r);
    } else {
#pragma unroll
        for (int u = 0; u < pack_width<V>; ++u) {
            p[u] = r.v[u];
        }
    }
}

// The grid-stride loop of the fused reductions over chunks of pack_width<V> elements, for
// blocks of `block` threads: full(i) for a full chunk starting at element i, tail(k) for each
// element k of the last, partial one.
template <typename V, int block, typename Full, typename Tail>
__device__ __forceinline__ void grid_stride_chunks(std::int64_t n, Full full, Tail tail)
{
    constexpr int w = pack_width<V>;
    const std::int64_t chunks = (n + w - 1) / w;
    for (auto c = std::int64_t{blockIdx.x} * block + threadIdx.x; c < chunks;
         c += std::int64_t{gridDim.x} * block) {
        const std::int64_t i = c * w;
        if (i + w <= n) {
            full(i);
        } else {
            for (std::int64_t k = i; k < n; ++k) {
                tail(k);
            }
        }
    }
}

// a * b for a sum in Acc. In float, __fmul_rn rounds the product by itself, so the compiler
// cannot contract it with the add that follows into an FMA: a float sum is then the sum of
// rounded float products, as on the host. (An FMA adds the exact product: on diag(1, -1, ...)
// the float p.Ap became the rounding error of one product instead of 0, and CG took a step of
// 1e9 where the host met p.Ap = 0.) A product of two floats is exact in double, so the
// double sums are the same either way.
template <typename Acc>
__device__ __forceinline__ Acc acc_mul(Acc a, Acc b)
{
    if constexpr (sizeof(Acc) == sizeof(float)) {
        return __fmul_rn(a, b);
    } else {
        return a * b;
    }
}

// One element of cg_update: x += alpha p, r -= alpha q, z = inv_diag r; adds r.r and r.z
// into m, a double2 (sums in double, the default) or a float2 (float throughout: MPIR-CG's
// inner CG as Cevahir writes it, solver_backend.cu).
template <typename V, bool jacobi, typename Acc2>
__device__ __forceinline__ void update_one(V alpha, V pi, V qi, V& xi, V& ri, V di, V& zi,
                                           Acc2& m)
{
    using Acc = decltype(m.x);
    xi += alpha * pi;
    ri -= alpha * qi;
    m.x += acc_mul(static_cast<Acc>(ri), static_cast<Acc>(ri));
    if constexpr (jacobi) {
        zi = di * ri;
        m.y += acc_mul(static_cast<Acc>(ri), static_cast<Acc>(zi));
    }
}

// One thread's part of CG's fused update (x += alpha p, r -= alpha q, z = inv_diag r with
// jacobi) over its grid-stride chunks: returns its {r.r, r.z} (.y only with jacobi), to be added
// over the grid with grid_sum. The single-GPU solvers' cg_update_kernel (aligned) and the
// public DotEngine::cg_update (vector_ops.cu) both run it.
// Acc2 = float2 accumulates in float (solver_backend.cu's float reductions).
template <typename V, int block, bool jacobi, bool aligned, typename Acc2 = double2>
__device__ __forceinline__ Acc2 cg_update_pass(std::int64_t n, V alpha, const V* __restrict__ p,
                                               const V* __restrict__ q, V* __restrict__ x,
                                               V* __restrict__ r, const V* __restrict__ inv_diag,
                                               V* __restrict__ z)
{
    Acc2 m{};
    grid_stride_chunks<V, block>(
        n,
        [&](std::int64_t i) {
            const Pack<V> pp = load_chunk<aligned>(p + i);
            const Pack<V> qq = load_chunk<aligned>(q + i);
            Pack<V> xx = load_chunk<aligned>(x + i);
            Pack<V> rr = load_chunk<aligned>(r + i);
            Pack<V> dd{};
            Pack<V> zz{};
            if constexpr (jacobi) {
                dd = load_chunk<aligned>(inv_diag + i);
            }
#pragma unroll
            for (int u = 0; u < pack_width<V>; ++u) {
                update_one<V, jacobi>(alpha, pp.v[u], qq.v[u], xx.v[u], rr.v[u], dd.v[u], zz.v[u],
                                      m);
            }
            store_chunk<aligned>(x + i, xx);
            store_chunk<aligned>(r + i, rr);
            if constexpr (jacobi) {
                store_chunk<aligned>(z + i, zz);
            }
        },
        [&](std::int64_t k) {
            V zk{};
            update_one<V, jacobi>(alpha, p[k], q[k], x[k], r[k], jacobi ? inv_diag[k] : V{}, zk, m);
            if constexpr (jacobi) {
                z[k] = zk;
            }
        });
    return m;
}

}  // namespace spmv::gpu::detail
