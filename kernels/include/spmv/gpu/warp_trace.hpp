#pragma once
/// The GPU's own warps, measured (issue 34): a traced run of any SpMV kernel records, per warp,
/// when it started and ended (%globaltimer, nanoseconds, one clock for all SMs, and %clock64,
/// the SM's cycle counter), on which SM it ran (%smid), its block and warp in the block, and the
/// rows (stored positions) its threads covered. The explorer draws these beside the model's
/// per-warp work (spmv::analysis::analyze_warps): ELLPACK-R against pJDS on a power law shows
/// the long-row warp that every other warp of its block, and the launch, waits for.
///
/// How (kernels/src/warp_trace.cuh): every SpMV kernel opens with SPMV_WARP_TRACE(trace), a
/// RAII recorder. It reads one device pointer that is null except during trace_warps(); then it
/// does nothing else, so untraced launches keep their speed (kernels/README.md, "Warp
/// timelines", gives the register counts before and after). In a traced launch lane 0 of each
/// warp claims a record (atomicAdd on a counter), stamps the start and the SM; each thread's
/// destructor (at every return) stamps the end with atomicMax, so the warp ends when its last
/// thread does. Launches are told apart by %gridid, so a format of several kernels (HYB: ELL then
/// COO; plain JDS: one per jagged diagonal; the COO carry pass) is recorded launch by launch.
/// cuSPARSE's kernels (the cusparse_* baselines) cannot be instrumented: a trace of them holds
/// no launch.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

/// One warp of a traced launch. Times are absolute device times (%globaltimer ns, %clock64
/// cycles of the warp's SM; cycles compare only within one SM).
struct TracedWarp {
    int block = 0;            ///< linear block index in the grid
    int warp = 0;             ///< warp in the block (linear thread index / 32)
    int sm = 0;               ///< %smid at the warp's start
    std::uint64_t start_ns = 0;
    std::uint64_t end_ns = 0;  ///< the last thread's end (0: no thread ended: a lost record)
    std::uint64_t start_cycle = 0;
    std::uint64_t end_cycle = 0;
    /// Stored rows (positions in the format's row order) its threads reported: [row_begin,
    /// row_end); -1, -1 where the kernel does not say (csr_merge, csr_adaptive, the COO carry).
    std::int64_t row_begin = -1;
    std::int64_t row_end = -1;
};

/// One kernel launch of the traced body, its warps in the order they were recorded.
struct TracedLaunch {
    std::string kernel;          ///< the kernel function's name, e.g. "ellr_spmv_kernel"
    std::uint64_t grid_id = 0;   ///< %gridid
    std::int64_t blocks = 0;     ///< grid size
    int threads_per_block = 0;
    std::int64_t expected_warps = 0;  ///< blocks * ceil(threads_per_block / 32)
    std::uint64_t first_start_ns = 0;  ///< earliest warp start (the launch's time origin)
    std::vector<TracedWarp> warps;
};

struct WarpTrace {
    /// Launches in the order they started (earliest first_start_ns first).
    std::vector<TracedLaunch> launches;
    int multiprocessors = 0;     ///< of the device
    double sm_clock_khz = 0.0;   ///< cudaDevAttrClockRate (the nominal SM clock)
    std::size_t buffer_records = 0;  ///< capacity the final run used
    int runs = 1;  ///< 2 when the first buffer was too small and the body ran again
};

/// Whether this build's kernels carry the warp recorder: CMake option SPMV_WARP_TRACE, OFF by
/// default because the recorder costs some kernels registers and speed even untraced (measured
/// on an H200: csr_vector in single precision +26 % on pde100, SELL-C-sigma and its split kernel
/// +18-23 % on a power law in double; docs/benchmarks/warps_2026-11-28). False without CUDA.
bool warp_recorder_compiled() noexcept;

/// Runs `body` (which queues kernel launches on `stream`, e.g. one SpMV) once with every
/// instrumented kernel recording its warps, and returns the records. The device is synchronised
/// before and after; nothing else may run on the device meanwhile. `capacity_hint`: warps to
/// make room for (0: 1 << 16); when the launches had more, the body runs once more with room for
/// exactly as many (so it must be repeatable: an SpMV with beta = 0). Throws NotCompiled without
/// CUDA, CudaError for a failing launch (the trace pointer is cleared first).
WarpTrace trace_warps(const std::function<void()>& body, StreamRef stream,
                      std::size_t capacity_hint = 0);

}  // namespace spmv::gpu
