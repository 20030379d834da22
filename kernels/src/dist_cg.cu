// DistCgSteps (spmv/gpu/dist_cg.hpp): distributed CG's steps with the scalars on the device. The
// sums kernels are DotEngine's (vector_ops.cu: dot2_kernel, cg_update_sums_kernel) with their
// result written to device memory instead of page-locked host memory and a stop check in front:
// the same per-thread passes and DotEngine's grid (dot_engine.cuh), so the same bits;
// the scalar kernels are one thread running cg_step.hpp's functions, as the single-GPU solver's
// fused kernels do in their last block (solver_backend.cu).
#include <algorithm>
#include <cstdint>
#include <cuda_runtime.h>
#include <initializer_list>
#include <string>

#include <spmv/error.hpp>
#include <spmv/gpu/dist_cg.hpp>

#include "cuda_check.cuh"
#include "dot_engine.cuh"
#include "grid_sum.cuh"
#include "launch.cuh"
#include "vector_kernels.cuh"

namespace spmv::gpu {
namespace {

constexpr int block_size = 256;  // element-wise kernels: one thread per entry
// reductions: DotEngine's, so that the sums have its bits (dot_engine.cuh)
constexpr int red_block = detail::dot_block;

using solvers::CgLimits;
using solvers::CgScalars;

struct State {  // DistCgSteps<V>::State, the same layout for both value types
    CgScalars s;
    CgLimits limits;
};

// sums = {p.q, r.p}: DotEngine's dot2_kernel (the same pass, the same grid_sum).
template <typename V, bool aligned, bool second>
__global__ void __launch_bounds__(red_block)
    dist_cg_alpha_sums_kernel(std::int64_t n, const V* __restrict__ x, const V* __restrict__ y,
                              const V* __restrict__ u, const V* __restrict__ v,
                              const State* __restrict__ state, double2* partials,
                              unsigned* ticket, double2* sums)
{
    if (state->s.stop != solvers::cg_running) {
        return;  // every block alike: the ticket stays 0
    }
    const double2 m = detail::dot2_pass<V, red_block, aligned, second>(n, x, y, u, v);
    double2 t;
    if (detail::grid_sum<red_block>(m, partials, ticket, t) && threadIdx.x == 0) {
        *sums = t;
    }
}

// x += alpha p, r -= alpha q, (jacobi) z = inv_diag r; sums = {r.r, r.z}: DotEngine's
// cg_update_sums_kernel with alpha read from the device state.
template <typename V, bool aligned, bool jacobi>
__global__ void __launch_bounds__(red_block)
    dist_cg_update_sums_kernel(std::int64_t n, const V* __restrict__ p, const V* __restrict__ q,
                               V* __restrict__ x, V* __restrict__ r,
                               const V* __restrict__ inv_diag, V* __restrict__ z,
                               const State* __restrict__ state, double2* partials,
                               unsigned* ticket, double2* sums)
{
    if (state->s.stop != solvers::cg_running) {
        return;
    }
    const auto alpha = static_cast<V>(state->s.alpha);
    const double2 m =
        detail::cg_update_pass<V, red_block, jacobi, aligned>(n, alpha, p, q, x, r, inv_diag, z);
    double2 t;
    if (detail::grid_sum<red_block>(m, partials, ticket, t) && threadIdx.x == 0) {
        *sums = make_double2(t.x, jacobi ? t.y : t.x);
    }
}

// One thread: alpha from the reduced sums (a stop writes the record).
__global__ void dist_cg_alpha_kernel(State* state, const double* sums, int line_search,
                                     CgScalars* record)
{
    auto& st = *state;
    if (st.s.stop != solvers::cg_running) {
        return;
    }
    solvers::cg_after_pq(st.s, sums[0], line_search != 0 ? sums[1] : st.s.rho);
    if (st.s.stop != solvers::cg_running) {
        *record = st.s;  // page-locked host memory, written directly
    }
}

// One thread: the stop test, beta and rho from the reduced sums; the record.
__global__ void dist_cg_after_update_kernel(State* state, const double* sums, CgScalars* record)
{
    auto& st = *state;
    if (st.s.stop != solvers::cg_running) {
        return;
    }
    solvers::cg_after_update(st.s, sums[0], sums[1], st.limits);
    *record = st.s;
}

// p = z + beta p, beta rounded to V (gpu::xpay's arithmetic). One thread per entry.
template <typename V>
__global__ void __launch_bounds__(block_size)
    dist_cg_direction_kernel(std::int64_t n, const V* __restrict__ z, V* __restrict__ p,
                             const State* __restrict__ state)
{
    if (state->s.stop != solvers::cg_running) {
        return;
    }
    const auto beta = static_cast<V>(state->s.beta);
    const auto i = std::int64_t{blockIdx.x} * block_size + threadIdx.x;
    if (i < n) {
        p[i] = z[i] + beta * p[i];
    }
}

// the header's DistCgSteps<V>::State, as the kernels see it (the same layout)
template <typename T>
State* dev(DeviceBuffer<T>& b)
{
    static_assert(sizeof(T) == sizeof(State));
    return reinterpret_cast<State*>(b.data());
}

bool aligned16(std::initializer_list<const void*> ptrs)
{
    return std::all_of(ptrs.begin(), ptrs.end(),
                       [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; });
}

void expect_n(const char* what, std::int64_t n, std::initializer_list<const void*> ptrs)
{
    SPMV_EXPECTS(n >= 0, std::string(what) + ": negative length " + std::to_string(n));
    if (n > 0) {
        for (const void* p : ptrs) {
            SPMV_EXPECTS(p != nullptr, std::string(what) + ": null vector");
        }
    }
}

}  // namespace

template <typename V>
DistCgSteps<V>::DistCgSteps(std::size_t record_slots)
{
    SPMV_EXPECTS(record_slots > 0, "DistCgSteps: at least one record slot");
    // DotEngine's grid (dot_engine.cuh), so that the sums add in DotEngine's order. Our own
    // kernels may keep fewer blocks resident (their early exit may cost a register): the blocks
    // of the wave that do not fit then run after the others, which changes nothing in the result
    // (grid_sum's last block adds in block order)
    max_blocks_ = detail::dot_engine_max_blocks<V>();
    state_ = DeviceBuffer<typename DistCgSteps<V>::State>(1, "CG scalars");
    sums_ = DeviceBuffer<double>(2, "CG sums");
    partials_ = DeviceBuffer<double>(2 * std::size_t{max_blocks_}, "reduction partials");
    ticket_ = DeviceBuffer<unsigned>(1, "reduction ticket");
    staging_ = PinnedBuffer<typename DistCgSteps<V>::State>(1);
    records_ = PinnedBuffer<CgScalars>(record_slots);
    SPMV_CUDA_CHECK(cudaMemsetAsync(ticket_.data(), 0, sizeof(unsigned), nullptr));
    SPMV_CUDA_CHECK(cudaMemsetAsync(sums_.data(), 0, 2 * sizeof(double), nullptr));
    SPMV_CUDA_CHECK(cudaStreamSynchronize(nullptr));
}

template <typename V>
unsigned DistCgSteps<V>::blocks_for(std::int64_t n) const
{
    return detail::dot_engine_blocks<V>(n, max_blocks_);
}

template <typename V>
void DistCgSteps<V>::begin(double rho, const CgLimits& limits, StreamRef stream)
{
    const auto s = detail::native(stream);
    SPMV_CUDA_CHECK(cudaStreamSynchronize(s));  // the staging buffer's last upload is done
    auto& st = *staging_.data();
    st.s = CgScalars{};
    st.s.rho = rho;
    st.limits = limits;
    SPMV_CUDA_CHECK(cudaMemcpyAsync(dev(state_), staging_.data(), sizeof st,
                                    cudaMemcpyHostToDevice, s));
    SPMV_CUDA_CHECK(cudaStreamSynchronize(s));
}

template <typename V>
void DistCgSteps<V>::alpha_sums(const V* p, const V* q, const V* r, std::int64_t n,
                                StreamRef stream)
{
    expect_n("DistCgSteps::alpha_sums", n, {p, q});
    const auto s = detail::native(stream);
    auto* sums = reinterpret_cast<double2*>(sums_.data());
    if (n == 0) {  // an empty rank adds nothing (but only while running: a memset is harmless)
        SPMV_CUDA_CHECK(cudaMemsetAsync(sums_.data(), 0, 2 * sizeof(double), s));
        return;
    }
    const unsigned grid = blocks_for(n);
    auto* partials = reinterpret_cast<double2*>(partials_.data());
    const bool aligned = aligned16({p, q, r});
    // dot2(p, q, r, p): {p.q, r.p}, the MPI backend's call
    if (r != nullptr) {
        auto* k = aligned ? &dist_cg_alpha_sums_kernel<V, true, true>
                          : &dist_cg_alpha_sums_kernel<V, false, true>;
        k<<<grid, red_block, 0, s>>>(n, p, q, r, p, dev(state_), partials, ticket_.data(),
                                     sums);
    } else {
        auto* k = aligned ? &dist_cg_alpha_sums_kernel<V, true, false>
                          : &dist_cg_alpha_sums_kernel<V, false, false>;
        k<<<grid, red_block, 0, s>>>(n, p, q, nullptr, nullptr, dev(state_), partials,
                                     ticket_.data(), sums);
    }
    SPMV_CUDA_CHECK(cudaGetLastError());
}

template <typename V>
void DistCgSteps<V>::alpha(bool line_search, std::size_t slot, StreamRef stream)
{
    SPMV_EXPECTS(slot < records_.size(), "DistCgSteps: record slot out of range");
    dist_cg_alpha_kernel<<<1, 1, 0, detail::native(stream)>>>(
        dev(state_), sums_.data(), line_search ? 1 : 0, records_.data() + slot);
    SPMV_CUDA_CHECK(cudaGetLastError());
}

template <typename V>
void DistCgSteps<V>::update_sums(const V* p, const V* q, V* x, V* r, const V* inv_diag, V* z,
                                 std::int64_t n, StreamRef stream)
{
    expect_n("DistCgSteps::update_sums", n, {p, q, x, r});
    SPMV_EXPECTS((inv_diag == nullptr) == (z == nullptr),
                 "DistCgSteps::update_sums: inv_diag and z are both given or both nullptr");
    const auto s = detail::native(stream);
    auto* sums = reinterpret_cast<double2*>(sums_.data());
    if (n == 0) {
        SPMV_CUDA_CHECK(cudaMemsetAsync(sums_.data(), 0, 2 * sizeof(double), s));
        return;
    }
    const unsigned grid = blocks_for(n);
    auto* partials = reinterpret_cast<double2*>(partials_.data());
    const bool aligned = aligned16({p, q, x, r, inv_diag, z});
    if (inv_diag != nullptr) {
        auto* k = aligned ? &dist_cg_update_sums_kernel<V, true, true>
                          : &dist_cg_update_sums_kernel<V, false, true>;
        k<<<grid, red_block, 0, s>>>(n, p, q, x, r, inv_diag, z, dev(state_), partials,
                                     ticket_.data(), sums);
    } else {
        auto* k = aligned ? &dist_cg_update_sums_kernel<V, true, false>
                          : &dist_cg_update_sums_kernel<V, false, false>;
        k<<<grid, red_block, 0, s>>>(n, p, q, x, r, nullptr, nullptr, dev(state_), partials,
                                     ticket_.data(), sums);
    }
    SPMV_CUDA_CHECK(cudaGetLastError());
}

template <typename V>
void DistCgSteps<V>::after_update(std::size_t slot, StreamRef stream)
{
    SPMV_EXPECTS(slot < records_.size(), "DistCgSteps: record slot out of range");
    dist_cg_after_update_kernel<<<1, 1, 0, detail::native(stream)>>>(dev(state_), sums_.data(),
                                                                     records_.data() + slot);
    SPMV_CUDA_CHECK(cudaGetLastError());
}

template <typename V>
void DistCgSteps<V>::direction(const V* z, V* p, std::int64_t n, StreamRef stream)
{
    expect_n("DistCgSteps::direction", n, {z, p});
    if (n == 0) {
        return;
    }
    const auto grid = static_cast<unsigned>(detail::ceil_div<std::int64_t>(n, block_size));
    dist_cg_direction_kernel<V>
        <<<grid, block_size, 0, detail::native(stream)>>>(n, z, p, dev(state_));
    SPMV_CUDA_CHECK(cudaGetLastError());
}

template <typename V>
const CgScalars& DistCgSteps<V>::record(std::size_t slot) const
{
    SPMV_EXPECTS(slot < records_.size(), "DistCgSteps: record slot out of range");
    return records_.data()[slot];
}

template class DistCgSteps<double>;
template class DistCgSteps<float>;

}  // namespace spmv::gpu
