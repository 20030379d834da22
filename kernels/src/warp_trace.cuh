#pragma once
// The per-warp recorder of traced launches (spmv/gpu/warp_trace.hpp says what and why).
//
// Every SpMV kernel opens with
//     SPMV_WARP_TRACE(trace);
// and, where it knows which stored row a thread computes, calls trace.row(k) for it. In an
// untraced launch (always, except inside trace_warps) the recorder loads one pointer, finds it
// null and does nothing more: its cost is that load, a uniform branch at entry and at each
// return, and the registers of one pointer (kernels/README.md, "Warp timelines", lists the
// registers per kernel before and after: ptxas -v).
//
// The kernels are compiled without relocatable device code, so each .cu file is its own device
// module with its own copy of a __device__ variable. Hence the sink pointer lives in an anonymous
// namespace here, one per file, and each file registers (at static initialisation, host side)
// a function that sets its copy; trace_warps (warp_trace.cu) calls them all.
#include <cstdint>
#include <cuda_runtime.h>

#include "cuda_check.cuh"

namespace spmv::gpu::detail {

/// One warp's record as the device writes it (80 bytes). The host zeroes the buffer first:
/// end_* and the row bounds grow by atomicMax from 0; rows_first_inv holds ~first_row so that
/// atomicMax keeps the smallest row (0: no row reported).
struct WarpRecord {
    unsigned long long grid_id;
    unsigned long long kernel;  // device address of the kernel's name (__func__)
    unsigned long long start_ns;
    unsigned long long end_ns;
    unsigned long long start_cycle;
    unsigned long long end_cycle;
    unsigned int block;
    unsigned int warp;
    unsigned int sm;
    unsigned int grid_blocks;
    unsigned int block_threads;
    unsigned int rows_first_inv;
    unsigned int rows_end;
    unsigned int unused;
};
static_assert(sizeof(WarpRecord) == 80);

/// What a traced launch writes into; all null outside trace_warps.
struct WarpTraceSink {
    WarpRecord* records = nullptr;
    unsigned long long capacity = 0;
    unsigned long long* count = nullptr;  // warps that claimed a record (may exceed capacity)
};

using WarpTraceSetter = void (*)(const WarpTraceSink&);
/// Adds a file's setter (warp_trace.cu); returns true (for a static initialiser).
bool register_warp_trace_setter(WarpTraceSetter set);

__device__ __forceinline__ unsigned long long global_timer_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ unsigned int sm_id()
{
    unsigned int s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

__device__ __forceinline__ unsigned int lane_id()
{
    unsigned int l;
    asm("mov.u32 %0, %%laneid;" : "=r"(l));
    return l;
}

__device__ __forceinline__ unsigned long long grid_id()
{
    unsigned long long g;
    asm volatile("mov.u64 %0, %%gridid;" : "=l"(g));
    return g;
}

/// The recorder's 128 bytes of static shared memory count against a block's default 48 KiB; a
/// kernel that also asks for up to 48 KiB of dynamic shared memory (ell_xs, sell_xs stage x)
/// opts in to more: call once per kernel before its first launch (returns true, for a static).
template <typename Kernel>
bool allow_dynamic_shared(Kernel kernel, std::size_t bytes)
{
    SPMV_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(bytes)));
    return true;
}

namespace {

// This file's copy of the sink (see the top of the file), in constant memory: an untraced
// launch reads its first word, uniform over the grid, from the constant cache.
__constant__ WarpTraceSink warp_trace_sink_;

void set_warp_trace_sink_(const WarpTraceSink& s)
{
    SPMV_CUDA_CHECK(cudaMemcpyToSymbol(warp_trace_sink_, &s, sizeof s));
}

[[maybe_unused]] const bool warp_trace_registered_ =
    register_warp_trace_setter(&set_warp_trace_sink_);

/// RAII: constructed as a kernel's first statement by every thread (the warp is whole there);
/// the destructor runs at each thread's return. Only lane 0 claims the warp's record and writes
/// its start; the end is the latest of the threads' ends (one atomicMax per group of threads that
/// return together). The recorder holds no state: the warp's record index lives in a shared
/// array of 32 entries (128 bytes of shared memory per block), so that no register is held
/// across the kernel's body (an earlier version kept a pointer in registers: csr_merge, at its
/// register limit, then spilled; see kernels/README.md, "Warp timelines").
/// `outlined`: the traced paths are calls (__noinline__) instead of inline code, for a kernel
/// at its register limit (csr_merge: inline, ptxas moved 8-32 bytes of it to spills; outlined,
/// none). Elsewhere inline is the smaller cost: a call's ABI raised other kernels by 8-24
/// registers.
template <bool outlined>
class BasicWarpRecorder {
public:
    __device__ __forceinline__ explicit BasicWarpRecorder(const char* kernel)
    {
        if (traced()) {
            if constexpr (outlined) {
                start_outlined(kernel);
            } else {
                start(kernel);
            }
        }
    }
    __device__ __forceinline__ ~BasicWarpRecorder()
    {
        if (traced()) {
            if constexpr (outlined) {
                finish_outlined();
            } else {
                finish();
            }
        }
    }
    BasicWarpRecorder(const BasicWarpRecorder&) = delete;
    BasicWarpRecorder& operator=(const BasicWarpRecorder&) = delete;

    /// Whether this launch is traced (for work done only to report rows).
    __device__ __forceinline__ bool active() const { return traced(); }

    /// The thread computes stored row (position) k; call it from the threads that have a row.
    __device__ __forceinline__ void row(std::int64_t k) const
    {
        if (traced() && k >= 0) {
            if (WarpRecord* r = slot()) {
                atomicMax(&r->rows_first_inv, ~static_cast<unsigned int>(k));
                atomicMax(&r->rows_end, static_cast<unsigned int>(k + 1));
            }
        }
    }

private:
    static constexpr unsigned no_slot = 0xffffffffu;

    __device__ __forceinline__ static bool traced()
    {
        return warp_trace_sink_.records != nullptr;
    }
    __device__ __forceinline__ static unsigned thread_in_block()
    {
        return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    }
    // the block's warps' record indices (no_slot: not recorded, the buffer was full)
    __device__ __forceinline__ static unsigned* slots()
    {
        __shared__ unsigned s[32];
        return s;
    }
    __device__ __forceinline__ static WarpRecord* slot()
    {
        const unsigned i = slots()[thread_in_block() / 32];
        return i == no_slot ? nullptr : warp_trace_sink_.records + i;
    }

    __device__ __forceinline__ void start(const char* kernel) const
    {
        const unsigned long long t0 = global_timer_ns();
        const auto c0 = static_cast<unsigned long long>(clock64());
        const WarpTraceSink& sink = warp_trace_sink_;
        const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
        const unsigned tid = thread_in_block();
        const unsigned warp = tid / 32;
        const unsigned in_warp = min(32u, threads - warp * 32);
        const unsigned mask = in_warp == 32 ? 0xffffffffu : (1u << in_warp) - 1;
        if (tid % 32 == 0) {
            const unsigned long long index = atomicAdd(sink.count, 1ull);
            const bool kept = index < sink.capacity;
            slots()[warp] = kept ? static_cast<unsigned>(index) : no_slot;
            if (kept) {
                WarpRecord& r = sink.records[index];
                r.grid_id = grid_id();
                r.kernel = reinterpret_cast<unsigned long long>(kernel);
                r.start_ns = t0;
                r.start_cycle = c0;
                r.block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
                r.warp = warp;
                r.sm = sm_id();
                r.grid_blocks = gridDim.x * gridDim.y * gridDim.z;
                r.block_threads = threads;
            }
        }
        __syncwarp(mask);  // the warp's other lanes see its slot from here on
    }

    __device__ __noinline__ void start_outlined(const char* kernel) const { start(kernel); }
    __device__ __noinline__ void finish_outlined() const { finish(); }

    __device__ __forceinline__ void finish() const
    {
        const unsigned long long t = global_timer_ns();
        const auto c = static_cast<unsigned long long>(clock64());
        const unsigned mask = __activemask();
        if (lane_id() == static_cast<unsigned>(__ffs(mask) - 1)) {
            if (WarpRecord* r = slot()) {
                atomicMax(&r->end_ns, t);
                atomicMax(&r->end_cycle, c);
            }
        }
    }
};

using WarpRecorder = BasicWarpRecorder<false>;
using OutlinedWarpRecorder = BasicWarpRecorder<true>;

}  // namespace
}  // namespace spmv::gpu::detail

#ifndef SPMV_NO_WARP_TRACE
/// Opens a kernel: `name` becomes its warp recorder (see above).
#define SPMV_WARP_TRACE(name) ::spmv::gpu::detail::WarpRecorder name(__func__)
/// The same for a kernel at its register limit (see BasicWarpRecorder).
#define SPMV_WARP_TRACE_OUTLINED(name) \
    ::spmv::gpu::detail::OutlinedWarpRecorder name(__func__)
#else
// cmake -DSPMV_WARP_TRACE=OFF: the kernels compile exactly as without the recorder (for an A/B
// of the untraced speed); trace_warps throws.
namespace spmv::gpu::detail {
struct NoWarpRecorder {
    __device__ __forceinline__ bool active() const { return false; }
    __device__ __forceinline__ void row(std::int64_t) const {}
};
}  // namespace spmv::gpu::detail
#define SPMV_WARP_TRACE(name) [[maybe_unused]] constexpr ::spmv::gpu::detail::NoWarpRecorder name{}
#define SPMV_WARP_TRACE_OUTLINED(name) SPMV_WARP_TRACE(name)
#endif
