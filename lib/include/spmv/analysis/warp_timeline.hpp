#pragma once
/// Measured warp timelines (issue 34), Qt-free: the file `spmvlab bench --gpu --warp-timeline
/// FILE` writes (schemas/warp-timeline.schema.json, docs/gui.md "Warps (measured)"), its reader
/// and validator, and the pairing of each measured warp with the model's warp of the same rows
/// (analyze_warps, warps.hpp), which the explorer draws side by side.
///
/// What a measured warp is: one hardware warp of one kernel launch, as the instrumented kernels
/// record it on the GPU (kernels/src/warp_trace.cuh): its SM, its block and warp in the block,
/// its start (lane 0's first instruction) and end (its last thread's return) in nanoseconds of
/// %globaltimer, relative to the launch's earliest warp start, its SM cycles (%clock64) and the
/// stored rows (positions in the format's row order) its threads computed, where the kernel
/// reports them.
///
/// Pairing: the model's warp k covers threads [first_thread, first_thread + threads) of the
/// format's ThreadWork; for the one-thread-per-row kernels (ELLPACK, ELLPACK-R, pJDS, PELLR,
/// SELL, CSR scalar) thread i computes stored row i, so a measured warp of rows [b, e) is the
/// model's warp that holds thread b, and the pair is exact when the model's warp covers
/// exactly [b, e). Kernels of another mapping (CSR vector: several threads per row; COO: a warp
/// per chunk of nonzeros) still pair by the first row, not exactly; the pairing counts both.
///
/// Example (a hand-checked file: tests/analysis/test_warp_timeline.cpp): 3 warps of one launch,
/// rows [0,32) [32,64) [64,70), durations 100, 900, 120 ns; model warps of 32, 32 and 6 threads
/// with max_iterations 2, 40, 3: every pair exact, the longest warp is warp 1 (900 ns, 7.5x the
/// median 120 ns), and duration and max_iterations correlate (Pearson r = 0.9999993).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spmv::analysis {

/// Value of the "schema" key of a warp timeline file.
inline constexpr std::string_view warp_timeline_schema = "spmvlab.warp-timeline/1";

struct MeasuredWarp {
    int block = 0;
    int warp = 0;  ///< in its block
    int sm = 0;
    double start_ns = 0.0;  ///< relative to the launch's first warp start
    double end_ns = 0.0;
    double cycles = -1.0;  ///< SM cycles from start to end (-1: not recorded)
    std::int64_t row_begin = -1;  ///< stored rows [row_begin, row_end); -1 where unknown
    std::int64_t row_end = -1;

    double duration_ns() const noexcept { return end_ns - start_ns; }
    bool has_rows() const noexcept { return row_begin >= 0 && row_end > row_begin; }
};

struct MeasuredLaunch {
    int index = 0;            ///< order of the launches in the product (0 first)
    std::string kernel;       ///< e.g. "ellr_spmv_kernel"
    std::int64_t blocks = 0;
    int threads_per_block = 0;
    std::int64_t expected_warps = 0;  ///< blocks * ceil(threads_per_block / 32)
    double offset_ns = 0.0;   ///< its first warp start after the variant's first launch's
    std::vector<MeasuredWarp> warps;

    /// Latest warp end (0 without warps): the launch's span from its first start.
    double span_ns() const noexcept;
};

/// The model's work of one warp (a subset of WarpStats).
struct ModelWarp {
    std::int64_t first_thread = 0;
    std::int64_t threads = 0;
    std::int64_t max_iterations = 0;
    std::int64_t useful = 0;
    std::int64_t idle_slots = 0;
    std::int64_t stored_padding = 0;
};

struct TimelineVariant {
    std::string variant;  ///< GPU variant, e.g. "ellr"
    std::string format;   ///< its host format, e.g. "ellr"
    std::vector<MeasuredLaunch> launches;
    int model_warp_size = 32;
    std::vector<ModelWarp> model;  ///< empty when the file has no model for it
};

struct WarpTimeline {
    std::string device;
    std::string precision;  ///< "double" or "single"
    std::string matrix;
    std::string date;
    std::string commit;
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    std::int64_t nnz = 0;
    int multiprocessors = 0;
    double sm_clock_khz = 0.0;
    bool synthetic = false;  ///< made by hand (tests, examples), not measured
    std::vector<TimelineVariant> variants;
};

/// Reads a warp timeline file's text. `source` names it in errors (a path). Throws
/// InvalidArgument naming the source and the place: for a JSON syntax error the line and
/// column ("F: line 3, column 7: ..."), otherwise the key path ("F: variants[0].launches[1]
/// .warps[5]: key 'end_ns': 10 is before start_ns 20").
/// Rules: "schema" must be "spmvlab.warp-timeline/1"; "variants" a non-empty array; each
/// variant has "variant", "format", "launches" (an array); each launch "kernel",
/// "blocks" >= 0, "threads_per_block" >= 1, "expected_warps" >= 0 and "warps"; each warp
/// "block" in [0, blocks), "warp" in [0, ceil(threads_per_block / 32)), "sm" in [0,
/// multiprocessors) when "multiprocessors" is given, finite "start_ns" >= 0 and "end_ns" >=
/// start_ns, optional "cycles" >= 0 and "row_begin" <= "row_end" (both or neither).
/// "model" (optional) holds "warp_size" and "warps" of first_thread, threads, max_iterations,
/// useful, idle_slots, stored_padding (all >= 0). Unknown keys are ignored.
WarpTimeline read_warp_timeline(std::string_view text, std::string_view source);
/// Reads the file; throws InvalidArgument naming it when it cannot be read or is invalid.
WarpTimeline load_warp_timeline(const std::string& path);
/// The file's text without its "meta" block (the CLI adds meta); read back by
/// read_warp_timeline to the same values.
std::string to_json(const WarpTimeline& t);

/// The numbers the view states for one launch.
struct LaunchSummary {
    std::size_t warps = 0;
    double span_ns = 0.0;            ///< first start to last end
    double median_duration_ns = 0.0;
    double max_duration_ns = 0.0;
    std::size_t longest = 0;   ///< index of the longest warp (the first of equals)
    std::size_t last_end = 0;  ///< index of the warp that ends last: the one the launch waits for
    double longest_over_median = 0.0;  ///< max / median duration (0 when the median is 0)
    int sms_used = 0;  ///< distinct SMs
};
/// Throws InvalidArgument for a launch without warps.
LaunchSummary summarize(const MeasuredLaunch& launch);

/// One measured warp and the model's warp of its rows.
struct WarpPair {
    std::size_t measured = 0;  ///< index into the launch's warps
    std::int64_t model = -1;   ///< index into the variant's model warps; -1: none
    bool exact = false;        ///< the model's warp covers exactly the measured rows
};

struct TimelinePairing {
    std::size_t launch = 0;  ///< which launch of the variant was paired
    std::vector<WarpPair> pairs;  ///< one per measured warp, in the launch's order
    std::size_t paired = 0;
    std::size_t exact = 0;
    /// Pearson correlation of the paired warps' durations with their max_iterations (NaN with
    /// fewer than two pairs or no spread).
    double correlation = 0.0;
};

/// Pairs the warps of `launch` with the variant's model warps by row range (see the top).
/// Throws InvalidArgument for a launch index out of range.
TimelinePairing pair_warps(const TimelineVariant& v, std::size_t launch);
/// The launch whose pairing has the most exact pairs (then the most paired, then the longest
/// span): the kernel the model describes. nullopt when the variant has no model or no launch
/// reports rows.
std::optional<TimelinePairing> best_pairing(const TimelineVariant& v);

}  // namespace spmv::analysis
