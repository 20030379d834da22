#pragma once
/// Parameter sweeps: how padding, warp work (N_iter) and the predicted SpMV time of one format
/// change with one of its parameters (σ or C of SELL-C-σ, b_r of pJDS, K of HYB), computed
/// from the row lengths without building the format's arrays.
///
/// Per point:
///   stored_slots, padding_slots      estimate_footprint (analysis/estimate.hpp), equal to what
///                                    the registry's builder stores (tests/analysis/test_sweep)
///   padding_share = padding_slots / stored_slots   (0 when nothing is stored)
///   n_iter, warp_efficiency          analyze_warps (analysis/warps.hpp) over the format's
///                                    thread_work in storage order: N_iter = sum over warps of
///                                    the busiest thread's loop trips (Kreutzer Fig. 2, PELLR
///                                    eq. 1), efficiency = useful / (warp_size * N_iter)
///   bytes_moved, predicted_seconds   the format's TRAFFIC BOUND (below), not a measurement
///
/// Traffic of one SpMV (s_v = 8 DP / 4 SP value bytes, s_i = 4 index bytes, alpha the share of
/// x loads that reach memory, as in model/performance.hpp):
///   slots_read (s_v + s_i)   every loop trip of a thread loads one value and one index: the
///                            SELL-C-σ kernel and HYB's ELL part walk their padding (a thread
///                            runs its slice's / K trips), pJDS threads stop at their own row
///                            length (Listing 2's rowmax[]), so pJDS reads nnz slots whatever
///                            b_r is: b_r changes its storage, not its traffic
///   + nnz alpha s_v          x
///   + rows 2 s_v             y loaded and stored (Kreutzer's per-row term)
///   + coo (s_i + 2 s_v)      HYB's COO part: each entry also loads its row index and updates
///                            y[row] (read + write)
/// Auxiliary arrays (row lengths, col_start, slice pointers, row_perm) are assumed to come from
/// cache, as Kreutzer §II.B assumes for rowmax[] and col_start[]. For a layout without padding
/// and without COO (pJDS b_r = 1, SELL-1-σ) bytes_moved equals model::device_bytes of Kreutzer
/// eq. 2. predicted_seconds = bytes_moved / B_GPU of the GPU profile: a lower bound for a
/// memory-bound kernel. The profiles carry no latency floor (kernel launch, the tail of a small
/// grid), so none is added: for small matrices the real time is dominated by what this omits.
///
/// Canonical 4x4 A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], row lengths (3,1,3,2), SELL with
/// C = 2, warp size 2, DP, alpha = 1, swept over σ:
///   σ = 1:  slices (3,1) (3,2): 12 stored, 3 padding (25 %); N_iter 3 + 3 = 6, efficiency
///           9 / 12 = 0.75; bytes 12*12 + 9*8 + 4*16 = 280
///   σ = 4:  sorted (3,3) (2,1): 10 stored, 1 padding (10 %); N_iter 3 + 2 = 5, efficiency
///           9 / 10 = 0.9; bytes 10*12 + 72 + 64 = 256 (= Kreutzer's 244 + 12 for 1 padding
///           slot); on a 120 GB/s profile 256 / 120e9 s = 2.13 ns
/// Cost: O(N log N) per point for the sorting formats (the window sort), O(N) otherwise; the
/// thread work goes through analyze_warps in chunks, so memory stays O(N) however many
/// threads there are. Exception: σ = 0 (automatic) in the base parameters of a C sweep makes
/// every point resolve σ by choose_sort_window, which sorts up to log2(N/C) + 2 times.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/model/gpu_profile.hpp>
#include <spmv/model/performance.hpp>
#include <spmv/registry.hpp>

namespace spmv::analysis {

/// What the model needs beyond the matrix and the format's parameters.
struct SweepOptions {
    model::Precision precision = model::Precision::double_precision;
    /// B_GPU for predicted_seconds; the first built-in profile unless set.
    model::GpuProfile gpu = model::profiles().front();
    double alpha = 1.0;  ///< share of x loads that reach memory, [1/N_nzr, 1]; 1: no reuse
};

/// One value of the swept parameter.
struct SweepPoint {
    int value = 0;  ///< the parameter value as requested
    /// The value the builder actually uses: HYB's K is clamped to the longest row; otherwise
    /// equal to `value`.
    int effective_value = 0;
    std::int64_t stored_slots = 0;   ///< value slots, padding included
    std::int64_t padding_slots = 0;  ///< stored_slots - nnz
    double padding_share = 0.0;      ///< padding_slots / stored_slots (0 if nothing stored)
    std::int64_t coo_entries = 0;    ///< HYB: nonzeros beyond K, stored in COO (0 otherwise)
    std::size_t storage_bytes = 0;   ///< the footprint at the sweep's precision (int32 indices)
    std::int64_t threads = 0;        ///< threads of the kernel(s) (thread_work)
    std::int64_t n_iter = 0;         ///< sum over warps of the busiest thread's loop trips
    std::int64_t idle_slots = 0;     ///< lane trips of existing threads on no real nonzero
    double warp_efficiency = 1.0;    ///< useful / (warp_size * n_iter); 1 for no work at all
    std::int64_t slots_read = 0;     ///< sum of the threads' loop trips (value+index loads)
    double bytes_moved = 0.0;        ///< traffic bound of one SpMV (see the header)
    double predicted_seconds = 0.0;  ///< bytes_moved / B_GPU
};

/// A sweep of one parameter of one format.
struct SweepResult {
    std::string format;  ///< registry name: "sell", "pjds" or "hyb"
    Param param = Param::sort_window;
    FormatParams base;  ///< the other parameters, as given
    /// The base parameters' value of `param` as the builder resolves it (σ = 0 -> the
    /// choose_sort_window result, K = -1 -> the one-third rule, K clamped to the longest row):
    /// the point a chart marks as "current".
    int current_value = 0;
    model::Precision precision = model::Precision::double_precision;
    model::GpuProfile gpu;
    double alpha = 1.0;
    std::int64_t rows = 0;
    std::int64_t nnz = 0;
    /// The values are all >= 1 and span a factor of 8 or more: draw them on a log axis.
    bool log_scale = false;
    std::vector<SweepPoint> points;  ///< one per value, in increasing order of value
};

/// The sweeps supported: those the registry's entries offer (FormatInfo::sweep_params, each
/// with the format's sweep_warps in its story file): today SELL-C-sigma's sort_window and
/// slice_height, pJDS's block_rows and HYB's hyb_width.
bool is_sweepable(std::string_view format, Param param);

/// The first format (registry order) whose sweep takes `param`. Throws InvalidArgument for a
/// parameter no sweep supports.
std::string_view sweep_format(Param param);

/// Valid values of a swept parameter: the registry's schema range without the "automatic"
/// settings (σ = 0, K = -1), which are no point on an axis.
std::pair<int, int> sweep_range(Param param);

/// A geometric set of values inside sweep_range(param), sized to the matrix:
///   σ:        1, 2, 4, ... below N, then N (σ >= N is one global sort)
///   C, b_r:   1, 2, 4, ... up to the first power of two >= N, at most 1024
///   K:        0, 1, ..., longest row when the longest row is <= 32; otherwise
///             1, 2, 4, ... below the longest row, then the longest row (larger K is clamped)
/// A matrix without rows gets {1} ({0} for K).
std::vector<int> default_sweep_values(const Csr<double, std::int32_t>& a, Param param);

/// The value the registry's builder uses for `params`' setting of `param` (SweepResult::
/// current_value): σ = 0 -> choose_sort_window(a, C), K = -1 -> the one-third rule, K clamped
/// to the longest row; any other setting as it is. A caller adds it to the swept values so
/// that the current point lies on the curve. Throws InvalidArgument as sweep() does for the
/// format and parameter.
int resolved_value(const Csr<double, std::int32_t>& a, std::string_view format, Param param,
                   const FormatParams& params);

/// The sweep. `values` empty: default_sweep_values. Values are sorted and duplicates dropped.
/// Throws InvalidArgument for an unknown format, a parameter the format does not have or no
/// sweep supports (naming the sweepable ones), a value outside sweep_range (naming the
/// parameter and the range), base parameters the builder would reject, a non-positive
/// bandwidth, or alpha outside [1/N_nzr, 1].
SweepResult sweep(const Csr<double, std::int32_t>& a, std::string_view format, Param param,
                  const FormatParams& base, std::span<const int> values = {},
                  const SweepOptions& options = {});

}  // namespace spmv::analysis
