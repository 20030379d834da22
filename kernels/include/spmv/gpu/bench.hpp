#pragma once
/// The timing harness (METHOD: warm up, time with CUDA events, many repetitions, median).
///
/// bench(m) times y = alpha A x + beta y for one assembled matrix:
///  - warm-up runs, then repetitions timed one by one with a pair of CUDA events each, until at
///    least min_reps repetitions AND min_time_ms of measured time (capped by max_reps and
///    max_wall_ms); median, min, max, p10 and p90 of the per-repetition times;
///  - each timed repetition waits behind a launch gate until the host has queued all of it
///    (detail::launch_gate), so a format of many launches (plain JDS, HYB) is timed on the GPU,
///    not at the host's launch rate, which depends on the CPU and its load; a body of more
///    launches than the device's launch queue safely holds (plain JDS with thousands of jagged
///    diagonals) is captured once into a CUDA graph and launched in one call without the gate
///    (whose wait would fill the queue), so the gate can never wait on a host that waits on the
///    GPU; the host's submission time is measured beside the GPU's (TimingStats::method says
///    which way each quantity was timed; bench.cpp explains why);
///  - GFLOP/s = 2 nnz / t (SPEC §2);
///  - minimum bytes (the definition, the same for every format so that formats compare):
///    values + column indices of the nnz nonzeros, row information as N+1 32-bit row pointers,
///    x once, y once (written; read and written when beta != 0); effective bandwidth = that / t,
///    and its fraction of the measured device copy bandwidth;
///  - format bytes: what the format holds on the device (padding and scratch included);
///  - "xGPU" (Barbieri Tables 2-5): the same product plus a host-to-device copy of x (and of y
///    when beta != 0) and a device-to-host copy of y, from and to pinned memory;
///  - permuted formats: the separate un-permute step, timed by itself.
///
/// Cache policy (the H100's L2 is 50 MB, so many test matrices fit in it):
///  - CachePolicy::flush_l2 (default, "cold"): before every timed repetition an untimed
///    read pass (detail::read_bytes) over a scratch buffer of twice the L2 size evicts the
///    matrix and the vectors and leaves only clean lines (a memset would leave dirty ones whose
///    write-back lands inside the timed kernel: ~9 us on an H100);
///    every repetition then reads its data from device memory, as the byte counts
///    assume. Honest for matrices of any size.
///  - CachePolicy::warm: back-to-back repetitions on the same x and y; whatever fits in L2 stays
///    there, as inside an iterative solver (Barbieri's 2000 products in sequence). Small
///    matrices then exceed the DRAM bandwidth.
/// BenchResult::cache_policy states which one was used, in words, for the output.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <spmv/gpu/device_matrix.hpp>
#include <spmv/gpu/block_order.hpp>
#include <spmv/gpu/stream_loads.hpp>
#include <spmv/types.hpp>

namespace spmv::gpu {

enum class CachePolicy { flush_l2, warm };

struct BenchOptions {
    int warmup = 5;
    int min_reps = 50;
    double min_time_ms = 100.0;  ///< accumulated measured time, per timed quantity
    int max_reps = 20000;
    double max_wall_ms = 10000.0;  ///< wall-clock cap per timed quantity (flushes included)
    CachePolicy cache = CachePolicy::flush_l2;
    bool xgpu = true;  ///< also time the transfer-inclusive product
    RowOrder order = RowOrder::original;
    double alpha = 1.0;
    double beta = 0.0;
    /// Device copy bandwidth in GB/s; <= 0 measures it once per process.
    double copy_bandwidth_gbs = 0.0;
    std::uint32_t seed = 7;
};

struct TimingStats {
    int reps = 0;
    double median_ms = 0.0;
    double min_ms = 0.0;
    double max_ms = 0.0;
    double p10_ms = 0.0;
    double p90_ms = 0.0;
    /// How the repetitions were queued: "gated: N launch(es) per repetition", "graph: N
    /// launches ... captured into one CUDA graph, ungated (the host queues one in X ms, the GPU
    /// runs it in Y ms)", or "ungated (why): ..." (empty for
    /// timing_stats() alone).
    std::string method;
};

struct CopyBandwidth {
    double gbs = 0.0;       ///< (bytes read + bytes written) / median time
    std::size_t bytes = 0;  ///< bytes copied per repetition
    int reps = 0;
    double median_ms = 0.0;
};

struct BenchResult {
    std::string variant;
    std::string format;
    std::string precision;  ///< "double" or "float"
    std::int32_t num_rows = 0;
    std::int32_t num_cols = 0;
    std::int64_t nnz = 0;
    double alpha = 1.0;
    double beta = 0.0;
    TimingStats kernel;
    double gflops = 0.0;            ///< 2 nnz / kernel.median
    std::size_t min_bytes = 0;      ///< see above
    double effective_gbs = 0.0;     ///< min_bytes / kernel.median
    double copy_gbs = 0.0;          ///< measured device copy bandwidth
    double fraction_of_copy = 0.0;  ///< effective_gbs / copy_gbs
    std::size_t format_bytes = 0;   ///< device footprint of the format
    TimingStats xgpu;               ///< reps == 0 when not measured
    double xgpu_gflops = 0.0;
    TimingStats unpermute;     ///< reps == 0 for formats that keep the row order
    std::string cache_policy;  ///< in words
    /// The load kind the variant's launch chose for the matrix arrays from the device's L2
    /// (spmv/gpu/stream_loads.hpp); std::nullopt where the kernel does not choose (read-only
    /// whatever the size, or cuSPARSE).
    std::optional<StreamDecision> matrix_loads;
    /// The order sell / sell_i16's plain launch ran its blocks in, chosen from the device's
    /// multiprocessors (spmv/gpu/block_order.hpp); std::nullopt for every other kernel.
    std::optional<BlockOrderDecision> block_order;
};

/// Device-to-device cudaMemcpy of `bytes` (0: min(1 GiB, a quarter of the free memory)),
/// 2 warm-ups, `reps` timed repetitions, median. Counts bytes read + bytes written.
CopyBandwidth measure_copy_bandwidth(std::size_t bytes = 0, int reps = 20);

/// Minimum bytes of one SpMV (see above).
std::size_t spmv_min_bytes(std::int32_t num_rows, std::int32_t num_cols, std::int64_t nnz,
                           std::size_t value_size, bool beta_nonzero);

/// Times `m` as described above. x and y are random (never zeros).
template <typename ValueType>
BenchResult bench(const DeviceMatrix<ValueType>& m, const BenchOptions& options = {});

/// The order statistics of a set of times (exposed for tests).
TimingStats timing_stats(std::vector<double> times_ms);

/// SPMV_BENCH_GATE=on|off (default on): whether the timed repetitions wait behind the launch
/// gate (above). A profiler that runs one launch at a time to completion (Nsight Compute) never
/// lets the host open the gate, so `spmvlab bench` under ncu needs off: the repetitions then
/// run ungated, and TimingStats::method says so (the times may include the host's launch time;
/// the profiler's own kernel times are the ones to read then).
inline constexpr const char* bench_gate_variable = "SPMV_BENCH_GATE";

/// Parses a value of SPMV_BENCH_GATE: nullptr (unset) and "on" give true, "off" false; any other
/// value throws InvalidArgument naming the variable and the value.
bool parse_bench_gate(const char* value);

}  // namespace spmv::gpu
