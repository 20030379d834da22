#pragma once
/// What the CLI needs from the GPU side, in CLI terms (records to print and to write as
/// JSON/CSV). Implemented over spmv::gpu in gpu_bridge.cpp; in a build without CUDA the calls
/// throw spmv::NotCompiled, which the CLI prints as a clear error.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <spmv/analysis/warp_timeline.hpp>
#include <spmv/formats/csr.hpp>
#include <spmv/gpu/block_order.hpp>
#include <spmv/gpu/stream_loads.hpp>
#include <spmv/registry.hpp>

#include "verify_check.hpp"

namespace spmvlab {

struct GpuVerifyResult {
    std::string name;       ///< GPU variant (registry name, extra variant or cusparse_*)
    std::string precision;  ///< "sp" or "dp"
    Accuracy accuracy;
    std::string error;  ///< non-empty when the variant could not run (e.g. too large)
    /// The variant refused the matrix (NotApplicable, over the memory limit, not enough device
    /// memory): `error` says why; not a mismatch.
    bool not_applicable = false;
};

/// True for the errors that mean "this format or kernel cannot take this matrix here", not a
/// wrong answer: NotApplicable, MemoryLimitExceeded, OutOfDeviceMemory.
bool is_refusal(const std::exception& e) noexcept;

/// The host format a GPU kernel variant runs ("csr_vector" -> "csr"); throws InvalidArgument
/// naming the known variants when `name` is none of them. Works without CUDA (names only).
std::string gpu_variant_format(const std::string& name);

std::vector<GpuVerifyResult> verify_on_gpu(const spmv::Csr<double, std::int32_t>& a,
                                           const spmv::FormatParams& params,
                                           const std::string& formats, double alpha,
                                           const std::vector<double>& x, double beta,
                                           const std::vector<double>& y0,
                                           const std::vector<double>& ref);

/// One timed (format, precision, matrix) triple. Fields that do not apply are NaN.
struct BenchRecord {
    std::string matrix;
    std::int64_t rows = 0, cols = 0, nnz = 0;
    std::string format;
    std::string precision;
    std::string device;  ///< GPU name, or spmv::host_device_name()
    int repetitions = 0;
    double median_ms = 0, min_ms = 0, max_ms = 0;
    double gflops = 0;
    double min_bytes = 0;          ///< values + indices + row info + x + y
    double effective_gbs = 0;      ///< min_bytes / median time
    double fraction_of_copy = 0;   ///< effective_gbs / measured copy bandwidth
    double format_bytes = 0;       ///< the format's own footprint, padding included
    double xgpu_ms = 0;            ///< median + PCIe transfer of x and y
    double permutation_ms = 0;     ///< un-permuting y (permuted formats), timed separately
    std::string cache_policy;      ///< GPU: how L2 was treated between repetitions
    /// GPU: how the repetitions were queued (spmv::gpu::TimingStats::method: gated launches, one
    /// captured graph for a body of many launches, or ungated with the reason); empty on the CPU
    std::string timing;
    /// GPU: "original" (y in the matrix's row order: permuted formats scatter it back in the
    /// timed product) or "permuted" (y left in the sorted order, as a solver working in the
    /// permuted basis uses it: Kreutzer's timing); empty on the CPU
    std::string basis;
    std::string error;
    /// --formats auto: the advisor's choice this record times (auto_choice_json); null otherwise
    nlohmann::json auto_choice;
    /// GPU: the load kind of the matrix arrays the variant's launch chose from the device's L2
    /// (matrix_loads_json); null where the kernel does not choose, and on the CPU
    nlohmann::json matrix_loads;
    /// GPU: the order sell / sell_i16's plain launch ran its blocks in, chosen from the device's
    /// multiprocessors (block_order_json); null for every other kernel, and on the CPU
    nlohmann::json block_order;
    nlohmann::json to_json() const;
};

/// A launch's load-kind decision as the bench record's "matrix_loads" object: {"streaming",
/// "setting" (SPMV_STREAM_LOADS: auto, always, never), "matrix_bytes", "vector_bytes",
/// "l2_bytes" (null where the setting left nothing to ask), "reason" (in words)}; null for
/// std::nullopt.
nlohmann::json matrix_loads_json(const std::optional<spmv::gpu::StreamDecision>& d);

/// The bench table's "loads" cell of a record's matrix_loads: "stream", "ldg" (the read-only
/// path, chosen), "-" (not chosen per launch).
std::string matrix_loads_cell(const nlohmann::json& matrix_loads);

/// A launch's block order as the bench record's "block_order" object: {"widest_first",
/// "blocks", "block_threads", "resident_blocks", "reason" (in words)}; null for std::nullopt.
nlohmann::json block_order_json(const std::optional<spmv::gpu::BlockOrderDecision>& d);

/// The bench table's "order" cell of a record's block_order: "widest" (widest blocks first),
/// "index" (blockIdx order, chosen), "-" (the kernel does not choose).
std::string block_order_cell(const nlohmann::json& block_order);

struct GpuBenchOptions {
    std::string formats;  ///< comma list of variant names; empty = all
    bool single = true;
    bool dp = true;
    bool warm = false;  ///< back-to-back repetitions (L2 stays warm) instead of flushing L2
    double min_time_ms = 0;  ///< per timed quantity; 0 keeps the harness default
    int min_reps = 0;        ///< 0 keeps the harness default
    /// > 0: a variant whose host format would need more bytes than this (estimated in double
    /// from the row lengths, spmv::analysis::estimate_footprint) is not built; its record
    /// says so with the size.
    double max_format_bytes = 0;
    /// Time in the permuted basis (RowOrder::permuted), and only the variants whose layout
    /// permutes rows; the others keep the row order, so their original-basis time is the same.
    bool permuted_basis = false;
};

struct GpuContext {
    std::string device;
    double copy_bandwidth_gbs = 0;
    std::size_t l2_bytes = 0;  ///< the device's L2: the streaming-load rule's threshold
    int multiprocessors = 0;   ///< launches keep at least 2 blocks per SM where the rows allow
    int threads_per_multiprocessor = 0;  ///< with multiprocessors: the resident blocks of a launch
    std::string stream_loads;  ///< SPMV_STREAM_LOADS as set: auto, always or never
};

/// The bench run's "launch_rules": the device properties the kernels' launch choices are made
/// from, {"l2_bytes", "multiprocessors", "threads_per_multiprocessor", "stream_loads"}.
nlohmann::json launch_rules_json(const GpuContext& ctx);

/// The same for the bench table's header: "# " lines saying which choices follow from the L2
/// and the SM count, and what the table's "loads" and "order" columns mean.
std::string launch_rules_text(const GpuContext& ctx);

/// Measures the device's copy bandwidth once and names the device.
GpuContext gpu_context();

std::vector<BenchRecord> bench_on_gpu(const GpuContext& ctx, const std::string& matrix_name,
                                      const spmv::Csr<double, std::int32_t>& a,
                                      const spmv::FormatParams& params,
                                      const GpuBenchOptions& options);

/// `spmvlab bench --gpu --warp-timeline FILE` (docs/gui.md, "Warps (measured)"): for each
/// variant of `formats` (a comma list; empty: all of ours, the cuSPARSE baselines left out: their
/// kernels cannot be instrumented, and naming one is an error), `warmup` untraced products,
/// then one traced product y = A x (beta = 0, y in the original row order) recording every
/// warp of every launch (spmv::gpu::trace_warps), beside the model's per-warp work of the same
/// host format and parameters (spmv::analysis::analyze_warps, warps of 32). `notes` receives a
/// line per variant that could not be traced (too large, refused), which is then left out.
/// Throws when no variant could be traced.
spmv::analysis::WarpTimeline trace_warp_timeline(const GpuContext& ctx,
                                                 const std::string& matrix_name,
                                                 const spmv::Csr<double, std::int32_t>& a,
                                                 const spmv::FormatParams& params,
                                                 const std::string& formats, bool dp, int warmup,
                                                 std::vector<std::string>& notes);

}  // namespace spmvlab
