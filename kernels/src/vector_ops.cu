// Device BLAS-1 of the distributed SpMV and CG (spmv/gpu/vector_ops.hpp): element-wise kernels
// (one thread per entry, vector_kernels.cuh, shared with the solver backend) and the
// deterministic reductions of DotEngine (one resident wave of blocks, grid-stride over 16-byte
// chunks, per-block partials added in block order by the last block: grid_sum.cuh; its pass and
// grid in dot_engine.cuh, shared with distributed CG's device steps, dist_cg.cu).
#include <algorithm>
#include <array>
#include <cstdint>
#include <cuda_runtime.h>
#include <initializer_list>
#include <limits>
#include <string>

#include <spmv/error.hpp>
#include <spmv/gpu/permutation.hpp>
#include <spmv/gpu/vector_ops.hpp>

#include "cuda_check.cuh"
#include "dot_engine.cuh"
#include "grid_sum.cuh"
#include "launch.cuh"
#include "vector_kernels.cuh"

namespace spmv::gpu {
namespace {

constexpr int block_size = 256;  // element-wise kernels: one thread per entry
// reductions: one thread per 16-byte chunk, grid-stride (dot_engine.cuh)
constexpr int red_block = detail::dot_block;

unsigned grid_for(std::int64_t n)
{
    return static_cast<unsigned>(detail::ceil_div<std::int64_t>(n, block_size));
}

// n >= 0, and the vectors exist when there is something to do.
void expect_args(const char* what, std::int64_t n, std::initializer_list<const void*> ptrs)
{
    SPMV_EXPECTS(n >= 0, std::string(what) + ": negative length " + std::to_string(n));
    if (n > 0) {
        for (const void* p : ptrs) {
            SPMV_EXPECTS(p != nullptr, std::string(what) + ": null vector");
        }
    }
}

bool aligned16(std::initializer_list<const void*> ptrs)
{
    return std::all_of(ptrs.begin(), ptrs.end(),
                       [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; });
}

// ---- reductions ------------------------------------------------------------------------------

// {x.y, u.v} (u.v only when `second`) into *result, a double2 in page-locked host memory.
template <typename V, bool aligned, bool second>
__global__ void __launch_bounds__(red_block)
    dot2_kernel(std::int64_t n, const V* __restrict__ x, const V* __restrict__ y,
                const V* __restrict__ u, const V* __restrict__ v, double2* partials,
                unsigned* ticket, double2* result)
{
    const double2 m = detail::dot2_pass<V, red_block, aligned, second>(n, x, y, u, v);
    double2 t;
    if (detail::grid_sum<red_block>(m, partials, ticket, t) && threadIdx.x == 0) {
        *result = t;  // t.y = 0 without `second`
    }
}

// x += alpha p, r -= alpha q, (jacobi) z = inv_diag r; {r.r, r.z} into *result.
template <typename V, bool aligned, bool jacobi>
__global__ void __launch_bounds__(red_block)
    cg_update_sums_kernel(std::int64_t n, V alpha, const V* __restrict__ p, const V* __restrict__ q,
                          V* __restrict__ x, V* __restrict__ r, const V* __restrict__ inv_diag,
                          V* __restrict__ z, double2* partials, unsigned* ticket, double2* result)
{
    const double2 m =
        detail::cg_update_pass<V, red_block, jacobi, aligned>(n, alpha, p, q, x, r, inv_diag, z);
    double2 t;
    if (detail::grid_sum<red_block>(m, partials, ticket, t) && threadIdx.x == 0) {
        *result = make_double2(t.x, jacobi ? t.y : t.x);
    }
}

// Resident blocks per SM of a reduction kernel.
int per_sm(const void* kernel)
{
    int blocks = 0;
    SPMV_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, red_block, 0));
    return std::max(blocks, 1);
}

template <typename K>
const void* as_ptr(K* kernel)
{
    return reinterpret_cast<const void*>(kernel);
}

}  // namespace

// ---- element-wise operations -----------------------------------------------------------------

template <typename V>
void gather(const V* src, const std::int32_t* idx, std::int64_t n, V* dst, StreamRef stream)
{
    expect_args("gather", n, {src, idx, dst});
    // permute_rows is this gather (dst[k] = src[perm[k]], one thread per entry, any perm), for
    // int32 lengths: longer index lists run in pieces.
    constexpr std::int64_t piece = std::numeric_limits<std::int32_t>::max();
    for (std::int64_t off = 0; off < n; off += piece) {
        permute_rows(idx + off, src, dst + off, static_cast<std::int32_t>(std::min(piece, n - off)),
                     stream);
    }
}

namespace {
/// dst[idx[i]] += src[i]: one thread per entry (idx holds no repeats).
template <int block, typename V>
__global__ void __launch_bounds__(block)
    scatter_add_kernel(std::int64_t n, const V* __restrict__ src,
                       const std::int32_t* __restrict__ idx, V* __restrict__ dst)
{
    const auto i = std::int64_t{blockIdx.x} * block + threadIdx.x;
    if (i < n) {
        dst[idx[i]] += src[i];
    }
}
}  // namespace

template <typename V>
void scatter_add(const V* src, const std::int32_t* idx, std::int64_t n, V* dst, StreamRef stream)
{
    expect_args("scatter_add", n, {src, idx, dst});
    if (n > 0) {
        scatter_add_kernel<block_size>
            <<<grid_for(n), block_size, 0, detail::native(stream)>>>(n, src, idx, dst);
    }
    SPMV_CUDA_CHECK(cudaGetLastError());
}

template <typename V>
void xpay(const V* x, double a, V* y, std::int64_t n, StreamRef stream)
{
    expect_args("xpay", n, {x, y});
    if (n > 0) {
        detail::xpay_kernel<block_size>
            <<<grid_for(n), block_size, 0, detail::native(stream)>>>(n, x, static_cast<V>(a), y);
        SPMV_CUDA_CHECK(cudaGetLastError());
    }
}

template <typename V>
void axpy(double a, const V* x, V* y, std::int64_t n, StreamRef stream)
{
    expect_args("axpy", n, {x, y});
    if (n > 0) {
        detail::axpy_kernel<block_size>
            <<<grid_for(n), block_size, 0, detail::native(stream)>>>(n, static_cast<V>(a), x, y);
        SPMV_CUDA_CHECK(cudaGetLastError());
    }
}

template <typename V>
void multiply(const V* d, const V* r, V* z, std::int64_t n, StreamRef stream)
{
    expect_args("multiply", n, {d, r, z});
    if (n > 0) {
        detail::jacobi_kernel<block_size>
            <<<grid_for(n), block_size, 0, detail::native(stream)>>>(n, d, r, z);
        SPMV_CUDA_CHECK(cudaGetLastError());
    }
}

template <typename From, typename To>
void convert_scaled(const From* src, double s, To* dst, std::int64_t n, StreamRef stream)
{
    expect_args("convert_scaled", n, {src, dst});
    if (n > 0) {
        detail::convert_scaled_kernel<block_size>
            <<<grid_for(n), block_size, 0, detail::native(stream)>>>(n, s, src, dst);
        SPMV_CUDA_CHECK(cudaGetLastError());
    }
}

template <typename From, typename To>
void add_scaled(const From* src, double s, To* dst, std::int64_t n, StreamRef stream)
{
    expect_args("add_scaled", n, {src, dst});
    if (n > 0) {
        detail::add_scaled_kernel<block_size>
            <<<grid_for(n), block_size, 0, detail::native(stream)>>>(n, s, src, dst);
        SPMV_CUDA_CHECK(cudaGetLastError());
    }
}

// ---- DotEngine -----------------------------------------------------------------------------

namespace detail {

template <typename V>
unsigned dot_engine_max_blocks()
{
    // One wave: the fewest resident blocks of any reduction kernel, so that every reduction of
    // a given n runs on the same grid (dot and dot2, aligned or not, add in the same order).
    int fewest = std::numeric_limits<int>::max();
    for (const void* k :
         {as_ptr(&dot2_kernel<V, true, true>), as_ptr(&dot2_kernel<V, true, false>),
          as_ptr(&dot2_kernel<V, false, true>), as_ptr(&dot2_kernel<V, false, false>),
          as_ptr(&cg_update_sums_kernel<V, true, true>),
          as_ptr(&cg_update_sums_kernel<V, true, false>),
          as_ptr(&cg_update_sums_kernel<V, false, true>),
          as_ptr(&cg_update_sums_kernel<V, false, false>)}) {
        fewest = std::min(fewest, per_sm(k));
    }
    return static_cast<unsigned>(fewest * multiprocessor_count());
}

template unsigned dot_engine_max_blocks<float>();
template unsigned dot_engine_max_blocks<double>();

}  // namespace detail

template <typename V>
DotEngine<V>::DotEngine()
{
    const unsigned blocks = detail::dot_engine_max_blocks<V>();
    partials_ = DeviceBuffer<double>(2 * std::size_t{blocks}, "reduction partials");
    ticket_ = DeviceBuffer<unsigned>(1, "reduction ticket");
    result_ = PinnedBuffer<double>(2);
    // waited for: the ticket is 0 before any launch, on any stream (non-blocking ones too)
    SPMV_CUDA_CHECK(cudaMemsetAsync(ticket_.data(), 0, sizeof(unsigned), nullptr));
    SPMV_CUDA_CHECK(cudaStreamSynchronize(nullptr));
    max_blocks_ = blocks;
}

template <typename V>
unsigned DotEngine<V>::blocks_for(std::int64_t n) const
{
    return detail::dot_engine_blocks<V>(n, max_blocks_);
}

template <typename V>
std::array<double, 2> DotEngine<V>::dot2(const V* x, const V* y, const V* u, const V* v,
                                         std::int64_t n, StreamRef stream)
{
    SPMV_EXPECTS(max_blocks_ > 0, "DotEngine used after it was moved from");
    expect_args("dot2", n, {x, y});
    SPMV_EXPECTS(u == nullptr || n == 0 || v != nullptr, "dot2: u given without v");
    if (n == 0) {
        SPMV_CUDA_CHECK(cudaStreamSynchronize(detail::native(stream)));
        return {0.0, 0.0};
    }
    const unsigned grid = blocks_for(n);
    auto* partials = reinterpret_cast<double2*>(partials_.data());
    auto* result = reinterpret_cast<double2*>(result_.data());  // page-locked: written directly
    const auto s = detail::native(stream);
    const bool aligned = aligned16({x, y, u, v});
    if (u != nullptr) {
        auto* k = aligned ? &dot2_kernel<V, true, true> : &dot2_kernel<V, false, true>;
        k<<<grid, red_block, 0, s>>>(n, x, y, u, v, partials, ticket_.data(), result);
    } else {
        auto* k = aligned ? &dot2_kernel<V, true, false> : &dot2_kernel<V, false, false>;
        k<<<grid, red_block, 0, s>>>(n, x, y, nullptr, nullptr, partials, ticket_.data(), result);
    }
    SPMV_CUDA_CHECK(cudaGetLastError());
    SPMV_CUDA_CHECK(cudaStreamSynchronize(s));
    return {result_.data()[0], result_.data()[1]};
}

template <typename V>
double DotEngine<V>::dot(const V* x, const V* y, std::int64_t n, StreamRef stream)
{
    return dot2(x, y, nullptr, nullptr, n, stream)[0];
}

template <typename V>
std::array<double, 2> DotEngine<V>::cg_update(double alpha, const V* p, const V* q, V* x, V* r,
                                              const V* inv_diag, V* z, std::int64_t n,
                                              StreamRef stream)
{
    SPMV_EXPECTS(max_blocks_ > 0, "DotEngine used after it was moved from");
    expect_args("cg_update", n, {p, q, x, r});
    SPMV_EXPECTS((inv_diag == nullptr) == (z == nullptr),
                 "cg_update: inv_diag and z are both given or both nullptr");
    if (n == 0) {
        SPMV_CUDA_CHECK(cudaStreamSynchronize(detail::native(stream)));
        return {0.0, 0.0};
    }
    const unsigned grid = blocks_for(n);
    auto* partials = reinterpret_cast<double2*>(partials_.data());
    auto* result = reinterpret_cast<double2*>(result_.data());
    const auto s = detail::native(stream);
    const auto a = static_cast<V>(alpha);
    const bool aligned = aligned16({p, q, x, r, inv_diag, z});
    if (inv_diag != nullptr) {
        auto* k = aligned ? &cg_update_sums_kernel<V, true, true>
                          : &cg_update_sums_kernel<V, false, true>;
        k<<<grid, red_block, 0, s>>>(n, a, p, q, x, r, inv_diag, z, partials, ticket_.data(),
                                     result);
    } else {
        auto* k = aligned ? &cg_update_sums_kernel<V, true, false>
                          : &cg_update_sums_kernel<V, false, false>;
        k<<<grid, red_block, 0, s>>>(n, a, p, q, x, r, nullptr, nullptr, partials, ticket_.data(),
                                     result);
    }
    SPMV_CUDA_CHECK(cudaGetLastError());
    SPMV_CUDA_CHECK(cudaStreamSynchronize(s));
    return {result_.data()[0], result_.data()[1]};
}

// ---- instantiations --------------------------------------------------------------------------

#define SPMV_VECTOR_OPS_INSTANTIATE(V)                                                   \
    template void gather<V>(const V*, const std::int32_t*, std::int64_t, V*, StreamRef); \
    template void scatter_add<V>(const V*, const std::int32_t*, std::int64_t, V*, StreamRef); \
    template void xpay<V>(const V*, double, V*, std::int64_t, StreamRef);                \
    template void axpy<V>(double, const V*, V*, std::int64_t, StreamRef);                \
    template void multiply<V>(const V*, const V*, V*, std::int64_t, StreamRef);          \
    template class DotEngine<V>;
SPMV_VECTOR_OPS_INSTANTIATE(float)
SPMV_VECTOR_OPS_INSTANTIATE(double)
#undef SPMV_VECTOR_OPS_INSTANTIATE

#define SPMV_CONVERT_INSTANTIATE(From, To)                                                     \
    template void convert_scaled<From, To>(const From*, double, To*, std::int64_t, StreamRef); \
    template void add_scaled<From, To>(const From*, double, To*, std::int64_t, StreamRef);
SPMV_CONVERT_INSTANTIATE(float, float)
SPMV_CONVERT_INSTANTIATE(float, double)
SPMV_CONVERT_INSTANTIATE(double, float)
SPMV_CONVERT_INSTANTIATE(double, double)
#undef SPMV_CONVERT_INSTANTIATE

}  // namespace spmv::gpu
