#pragma once
/// Per-warp work of a format's kernel (PELLR §3 eq. 1 and 2, Kreutzer Fig. 2): consecutive
/// threads of a format's ThreadWork are grouped into warps; a warp runs as many loop trips as
/// its busiest thread, so the other lanes idle (or compute padding) meanwhile.
///
/// Canonical 4x4 A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], row lengths (3,1,3,2), warp size 2:
///   CSR scalar (one thread per row):   warp 0 = rows 0,1: max 3, useful 4, idle (3-3)+(3-1) = 2,
///                                       useful_fraction 4/6; warp 1 = rows 2,3: max 3,
///                                       useful 5, idle 1, useful_fraction 5/6
///   n_iter = 3 + 3 = 6, n_p = (2*3-1)+(2*1-1)+(2*3-1)+(2*2-1) = 14 = 2*nnz - rows
///   ELL (width 3) has the same warps but stores 3 slots per thread: stored_padding 2 and 1.
/// With warp size 32 the single warp holds 4 threads and 28 phantom lanes: useful 9 of
/// 32*3 = 96 lane slots (useful_fraction 0.09375), idle_slots 3, phantom_slots 84.
///
/// Conventions
/// - idle_slots = sum over the warp's existing threads of (max_iterations - useful_t): every
///   loop trip of a lane that does not touch a real nonzero (waiting for the warp's longest row,
///   or multiplying padding as ELLPACK does).
/// - phantom_slots = (warp_size - threads) * max_iterations: lanes of a short last warp that
///   have no thread at all still occupy the hardware while the warp runs. They are counted as
///   idle hardware in useful_fraction, never in idle_slots, so that
///   useful + idle_slots + phantom_slots = warp_size * max_iterations for every warp.
/// - useful_fraction = useful / (warp_size * max_iterations); a warp (or analysis) with no lane
///   slots at all (every thread has 0 iterations) wastes nothing and reports 1.
/// - n_iter = sum over warps of max_iterations (PELLR eq. 1).
/// - n_p = sum over threads with useful > 0 of (2 * useful - 1): useful multiplications plus
///   useful - 1 additions per thread. PELLR eq. 2 sums (2 b - 1) over all 32 lanes of every
///   warp, with b = 0 for the lanes past the last row, so each phantom lane (and each empty
///   row) would contribute -1 flop. Restricting the sum to threads that do work keeps N_p a
///   flop count and makes it independent of the warp size: for one thread per row,
///   n_p = 2 nnz - (non-empty rows), equal for ELLR and PELLR as the paper states. For formats
///   that split a row over several threads, each thread's partial sum counts on its own (the
///   additions combining partial sums are not in ThreadWork and not counted).
/// - stored_padding = stored - useful (value slots stored for the warp's threads that hold no
///   real nonzero; Kreutzer Fig. 2's white boxes).
#include <cstdint>
#include <vector>

#include <spmv/any_matrix.hpp>
#include <spmv/types.hpp>

namespace spmv::analysis {

/// One warp: threads [first_thread, first_thread + threads) of the launch.
struct WarpStats {
    std::int64_t first_thread = 0;
    std::int64_t threads = 0;         ///< warp_size, except possibly for the last warp
    std::int64_t max_iterations = 0;  ///< loop trips the warp runs (its busiest thread)
    std::int64_t useful = 0;          ///< sum of useful trips (real nonzeros processed)
    std::int64_t idle_slots = 0;      ///< sum over threads of (max_iterations - useful_t)
    std::int64_t phantom_slots = 0;   ///< (warp_size - threads) * max_iterations
    std::int64_t stored = 0;          ///< value slots stored for these threads
    std::int64_t stored_padding = 0;  ///< stored - useful
    std::int64_t n_p = 0;             ///< sum over threads with useful > 0 of (2 useful - 1)
    double useful_fraction = 1.0;     ///< useful / (warp_size * max_iterations)
};

/// All warps of a launch and their totals.
struct WarpAnalysis {
    int warp_size = 32;
    std::int64_t threads = 0;
    std::vector<WarpStats> warps;
    std::int64_t n_iter = 0;  ///< PELLR eq. 1: sum of max_iterations
    std::int64_t n_p = 0;     ///< PELLR eq. 2 over threads that do work (see above)
    std::int64_t useful = 0;
    std::int64_t idle_slots = 0;
    std::int64_t phantom_slots = 0;
    std::int64_t stored = 0;
    std::int64_t stored_padding = 0;
    double useful_fraction = 1.0;  ///< useful / (warp_size * n_iter)

    /// Adds `count` warps like `w` to the totals (threads, n_iter, n_p, useful, idle_slots,
    /// phantom_slots, stored, stored_padding) and recomputes useful_fraction; `warps` is left
    /// as it is. The one place the totals are summed: analyze_warps adds each warp (and appends
    /// it), the parameter sweep adds the warps of its chunks and its full one-trip COO warps
    /// (count > 1) without keeping them.
    void add(const WarpStats& w, std::int64_t count = 1);
};

/// Groups the threads of `work` into warps of `warp_size` consecutive threads.
/// Throws InvalidArgument for warp_size < 1, arrays of different sizes, negative counts or a
/// thread with more useful trips than iterations.
WarpAnalysis analyze_warps(const ThreadWork& work, int warp_size);

/// Same for the kernel of a built format (uses its thread_work()).
template <typename ValueType>
WarpAnalysis analyze_warps(const AnyMatrix<ValueType>& m, int warp_size)
{
    return analyze_warps(thread_work(m), warp_size);
}

}  // namespace spmv::analysis
