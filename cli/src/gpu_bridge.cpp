// The CLI's view of spmv::gpu: verification and benchmark records.
#include "common.hpp"
#include "gpu_bridge.hpp"

#include <optional>

#include <cmath>
#include <random>
#include <sstream>

#include <spmv/analysis/estimate.hpp>
#include <spmv/analysis/warps.hpp>
#include <spmv/error.hpp>
#include <spmv/gpu/bench.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/gpu/error.hpp>
#include <spmv/gpu/sell.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/gpu/verify.hpp>
#include <spmv/gpu/warp_trace.hpp>
#include <spmv/memory.hpp>

namespace spmvlab {
namespace {

void require_gpu()
{
    if (!spmv::gpu::is_compiled()) {
        SPMV_THROW(spmv::NotCompiled,
                   "--gpu: this spmvlab was built without CUDA; rebuild on a machine with the CUDA "
                   "toolkit in /usr/local/cuda (CPU reference paths work without it)");
    }
    if (spmv::gpu::device_count() == 0) {
        SPMV_THROW(spmv::Error, "--gpu: no CUDA device is present (driver or GPU missing)");
    }
}

std::vector<const spmv::gpu::KernelVariant*> select_variants(const std::string& list)
{
    std::vector<const spmv::gpu::KernelVariant*> out;
    if (list.empty() || list == "all") {
        for (const auto& v : spmv::gpu::kernel_variants()) {
            out.push_back(&v);
        }
        return out;
    }
    std::stringstream ss(list);
    std::string name;
    while (std::getline(ss, name, ',')) {
        if (!name.empty()) {
            out.push_back(&spmv::gpu::find_variant(name));
        }
    }
    return out;
}

/// Empty, or why variant v is not built: its host format (built on the host before the
/// upload) would exceed --max-format-mib, or else the host memory budget. The device's free
/// memory is checked by the GPU layer itself before it allocates (OutOfDeviceMemory).
std::string too_large(const spmv::gpu::KernelVariant& v, const spmv::Csr<double, std::int32_t>& a,
                      const spmv::FormatParams& params, double limit)
{
    spmv::MemoryBudget budget = memory_budget();
    if (limit > 0) {
        budget.bytes = static_cast<std::uint64_t>(limit);
        budget.origin = "--max-format-mib";
        budget.hint.clear();
    }
    return over_budget(v.format, a, params, budget);
}

}  // namespace

bool is_refusal(const std::exception& e) noexcept
{
    return dynamic_cast<const spmv::NotApplicable*>(&e) != nullptr ||
           dynamic_cast<const spmv::MemoryLimitExceeded*>(&e) != nullptr ||
           dynamic_cast<const spmv::gpu::OutOfDeviceMemory*>(&e) != nullptr;
}

std::string gpu_variant_format(const std::string& name)
{
    return std::string(spmv::gpu::find_variant(name).format);
}

std::vector<GpuVerifyResult> verify_on_gpu(const spmv::Csr<double, std::int32_t>& a,
                                           const spmv::FormatParams& params,
                                           const std::string& formats, double alpha,
                                           const std::vector<double>& /*x*/, double beta,
                                           const std::vector<double>& /*y0*/,
                                           const std::vector<double>& /*ref*/)
{
    require_gpu();
    std::vector<GpuVerifyResult> out;
    const auto af = spmv::convert_values<float>(a);
    spmv::gpu::VerifyOptions vo;
    vo.alpha = alpha;
    vo.beta = beta;
    for (const auto* v : select_variants(formats)) {
        const std::string skip = too_large(*v, a, params, 0);  // once a variant, as bench_on_gpu
        for (const char* prec : {"dp", "sp"}) {
            GpuVerifyResult r;
            r.name = std::string(v->name);
            r.precision = prec;
            if (!skip.empty()) {
                r.error = skip;
                r.not_applicable = true;
                out.push_back(std::move(r));
                continue;
            }
            try {
                const auto res = std::string(prec) == "dp" ? spmv::gpu::verify(*v, a, params, vo)
                                                           : spmv::gpu::verify(*v, af, params, vo);
                r.accuracy.relative_error = res.normwise_error;
                r.accuracy.scaled_error = res.error;
                r.accuracy.bound = res.tolerance;
                r.accuracy.unwritten = !res.passed && !(res.error > res.tolerance);
                if (!res.passed && r.accuracy.scaled_error <= r.accuracy.bound) {
                    r.accuracy.scaled_error = INFINITY;  // NaN/unwritten output: force FAIL
                }
            } catch (const std::exception& e) {
                r.error = user_message(e.what());
                r.not_applicable = is_refusal(e);
            }
            out.push_back(std::move(r));
        }
    }
    return out;
}

GpuContext gpu_context()
{
    require_gpu();
    GpuContext c;
    const auto info = spmv::gpu::device_info();
    c.device = info.name + " (sm_" + std::to_string(info.compute_capability_major) +
               std::to_string(info.compute_capability_minor) + ", " +
               std::to_string(info.global_memory_bytes >> 30) + " GiB, ECC " +
               (info.ecc_enabled ? "on" : "off") + ")";
    c.copy_bandwidth_gbs = spmv::gpu::measure_copy_bandwidth().gbs;
    c.l2_bytes = info.l2_cache_bytes;
    c.multiprocessors = info.multiprocessors;
    c.threads_per_multiprocessor = info.threads_per_multiprocessor;
    // a bad SPMV_STREAM_LOADS is refused here, before minutes of timing
    c.stream_loads = std::string(spmv::gpu::stream_loads_name(spmv::gpu::stream_loads()));
    return c;
}

nlohmann::json launch_rules_json(const GpuContext& ctx)
{
    return {{"l2_bytes", ctx.l2_bytes},
            {"multiprocessors", ctx.multiprocessors},
            {"threads_per_multiprocessor", ctx.threads_per_multiprocessor},
            {"stream_loads", ctx.stream_loads}};
}

std::string launch_rules_text(const GpuContext& ctx)
{
    const std::string l2 = spmv::format_bytes(static_cast<double>(ctx.l2_bytes));
    std::string s = "# launch choices from this device: ";
    if (ctx.stream_loads == "auto") {
        s += std::string("matrix arrays streamed (loads: stream) where a format's arrays + x + y "
                         "exceed the L2 of ") +
             l2 + ", else read through the read-only path (ldg)";
    } else {
        s += std::string("matrix loads forced by ") + spmv::gpu::stream_loads_variable + "=" +
             ctx.stream_loads;
    }
    s += "; -: the kernel does not choose\n# blocks halved (to 64 threads at least) until a "
         "launch has 2 per SM of its " +
         std::to_string(ctx.multiprocessors) + "\n";
    if (ctx.multiprocessors > 0 && ctx.threads_per_multiprocessor > 0) {
        constexpr int block = spmv::gpu::sell_spmv_block_threads;
        s += "# sell, sell_i16: blocks run widest first (order: widest) where mixed widths meet "
             "a launch of more than one resident wave (" +
             std::to_string(spmv::gpu::resident_blocks(block, ctx.multiprocessors,
                                                       ctx.threads_per_multiprocessor)) +
             " blocks of " + std::to_string(block) + " here), else in index order (order: index)\n";
    }
    return s;
}

nlohmann::json matrix_loads_json(const std::optional<spmv::gpu::StreamDecision>& d)
{
    if (!d) {
        return nullptr;
    }
    return {{"streaming", d->streaming},
            {"setting", std::string(spmv::gpu::stream_loads_name(d->mode))},
            {"matrix_bytes", d->matrix_bytes},
            {"vector_bytes", d->vector_bytes},
            {"l2_bytes", d->l2_bytes > 0 ? nlohmann::json(d->l2_bytes) : nlohmann::json()},
            {"reason", spmv::gpu::describe_stream_decision(*d)}};
}

nlohmann::json block_order_json(const std::optional<spmv::gpu::BlockOrderDecision>& d)
{
    if (!d) {
        return nullptr;
    }
    return {{"widest_first", d->widest_first},
            {"blocks", d->blocks},
            {"block_threads", d->block_threads},
            {"resident_blocks", d->resident_blocks},
            {"reason", spmv::gpu::describe_block_order(*d)}};
}

std::string block_order_cell(const nlohmann::json& block_order)
{
    if (!block_order.is_object()) {
        return "-";
    }
    return block_order.value("widest_first", false) ? "widest" : "index";
}

std::string matrix_loads_cell(const nlohmann::json& matrix_loads)
{
    if (!matrix_loads.is_object()) {
        return "-";
    }
    return matrix_loads.value("streaming", false) ? "stream" : "ldg";
}

std::vector<BenchRecord> bench_on_gpu(const GpuContext& ctx, const std::string& matrix_name,
                                      const spmv::Csr<double, std::int32_t>& a,
                                      const spmv::FormatParams& params,
                                      const GpuBenchOptions& options)
{
    std::vector<BenchRecord> out;
    const auto af = spmv::convert_values<float>(a);
    spmv::gpu::BenchOptions bo;
    bo.copy_bandwidth_gbs = ctx.copy_bandwidth_gbs;
    bo.cache = options.warm ? spmv::gpu::CachePolicy::warm : spmv::gpu::CachePolicy::flush_l2;
    if (options.min_time_ms > 0) bo.min_time_ms = options.min_time_ms;
    if (options.min_reps > 0) bo.min_reps = options.min_reps;
    bo.order = options.permuted_basis ? spmv::RowOrder::permuted : spmv::RowOrder::original;
    for (const auto* v : select_variants(options.formats)) {
        const std::string skip = too_large(*v, a, params, options.max_format_bytes);
        for (int p = 0; p < 2; ++p) {
            const bool dp = p == 0;
            if ((dp && !options.dp) || (!dp && !options.single)) {
                continue;
            }
            BenchRecord r;
            r.matrix = matrix_name;
            r.rows = a.num_rows;
            r.cols = a.num_cols;
            r.nnz = spmv::nnz(a);
            r.format = std::string(v->name);
            r.precision = dp ? "dp" : "sp";
            r.device = ctx.device;
            r.basis = options.permuted_basis ? "permuted" : "original";
            if (!skip.empty()) {
                r.error = skip;
                r.median_ms = r.min_ms = r.max_ms = r.gflops = NAN;
                r.min_bytes = r.effective_gbs = r.fraction_of_copy = r.format_bytes = NAN;
                r.xgpu_ms = r.permutation_ms = NAN;
                out.push_back(std::move(r));
                continue;
            }
            try {
                auto time_it = [&](const auto& m) {
                    return !options.permuted_basis || m.permuted()
                               ? std::optional<spmv::gpu::BenchResult>(spmv::gpu::bench(m, bo))
                               : std::nullopt;
                };
                const auto timed = dp ? time_it(spmv::gpu::prepare(*v, a, params))
                                      : time_it(spmv::gpu::prepare(*v, af, params));
                if (!timed) {
                    continue;  // keeps the row order: its original-basis record says it all
                }
                const auto& res = *timed;
                r.repetitions = res.kernel.reps;
                r.median_ms = res.kernel.median_ms;
                r.min_ms = res.kernel.min_ms;
                r.max_ms = res.kernel.max_ms;
                r.gflops = res.gflops;
                r.min_bytes = static_cast<double>(res.min_bytes);
                r.effective_gbs = res.effective_gbs;
                r.fraction_of_copy = res.fraction_of_copy;
                r.format_bytes = static_cast<double>(res.format_bytes);
                r.xgpu_ms = res.xgpu.reps > 0 ? res.xgpu.median_ms : NAN;
                r.permutation_ms = res.unpermute.reps > 0 ? res.unpermute.median_ms : NAN;
                r.cache_policy = res.cache_policy;
                r.timing = res.kernel.method;
                r.matrix_loads = matrix_loads_json(res.matrix_loads);
                r.block_order = block_order_json(res.block_order);
            } catch (const std::exception& e) {
                r.error = user_message(e.what());
                r.median_ms = r.min_ms = r.max_ms = r.gflops = NAN;
                r.min_bytes = r.effective_gbs = r.fraction_of_copy = r.format_bytes = NAN;
                r.xgpu_ms = r.permutation_ms = NAN;
            }
            out.push_back(std::move(r));
        }
    }
    return out;
}

namespace {

/// One variant: warm-up products, then one traced product; the model of its host format beside.
template <typename V>
spmv::analysis::TimelineVariant trace_variant(const spmv::gpu::KernelVariant& v,
                                              const spmv::Csr<V, std::int32_t>& a,
                                              const spmv::FormatParams& params, int warmup,
                                              double& sm_clock_khz)
{
    const auto host = spmv::build<V>(v.format, a, params);
    const auto model = spmv::analysis::analyze_warps(host, 32);  // the hardware's warp
    const auto m = spmv::gpu::assemble(v, host);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    std::vector<V> xh(static_cast<std::size_t>(a.num_cols));
    for (auto& e : xh) e = static_cast<V>(d(rng));
    auto x = spmv::gpu::DeviceBuffer<V>::from_host(xh, "warp timeline x");
    spmv::gpu::DeviceBuffer<V> y(static_cast<std::size_t>(a.num_rows), "warp timeline y");
    const spmv::gpu::Stream s;
    const auto product = [&] {
        m.spmv(V(1), x.data(), V(0), y.data(), spmv::RowOrder::original, s);
    };
    for (int i = 0; i < warmup; ++i) product();
    s.synchronize();
    const auto hint = 2 * (static_cast<std::size_t>(a.num_rows) / 32 + 1) + 4096;
    const auto trace = spmv::gpu::trace_warps(product, s, hint);
    sm_clock_khz = trace.sm_clock_khz;

    spmv::analysis::TimelineVariant out;
    out.variant = std::string(v.name);
    out.format = std::string(v.format);
    const std::uint64_t origin =
        trace.launches.empty() ? 0 : trace.launches.front().first_start_ns;
    for (std::size_t i = 0; i < trace.launches.size(); ++i) {
        const auto& l = trace.launches[i];
        spmv::analysis::MeasuredLaunch ml;
        ml.index = static_cast<int>(i);
        ml.kernel = l.kernel;
        ml.blocks = l.blocks;
        ml.threads_per_block = l.threads_per_block;
        ml.expected_warps = l.expected_warps;
        ml.offset_ns = static_cast<double>(l.first_start_ns - origin);
        for (const auto& w : l.warps) {
            spmv::analysis::MeasuredWarp mw;
            mw.block = w.block;
            mw.warp = w.warp;
            mw.sm = w.sm;
            mw.start_ns = static_cast<double>(w.start_ns - l.first_start_ns);
            // a warp whose end was never stamped (it cannot happen unless a thread trapped)
            // keeps end = start, so the file stays valid; the launch's count shows it
            mw.end_ns = w.end_ns >= w.start_ns ? static_cast<double>(w.end_ns - l.first_start_ns)
                                               : mw.start_ns;
            mw.cycles = w.end_cycle >= w.start_cycle
                            ? static_cast<double>(w.end_cycle - w.start_cycle)
                            : -1.0;
            mw.row_begin = w.row_begin;
            mw.row_end = w.row_end;
            ml.warps.push_back(mw);
        }
        // the view and the reader want the warps of a launch in the order they started
        std::stable_sort(ml.warps.begin(), ml.warps.end(),
                         [](const auto& p, const auto& q) { return p.start_ns < q.start_ns; });
        out.launches.push_back(std::move(ml));
    }
    out.model_warp_size = model.warp_size;
    for (const auto& w : model.warps) {
        out.model.push_back({w.first_thread, w.threads, w.max_iterations, w.useful, w.idle_slots,
                             w.stored_padding});
    }
    return out;
}

}  // namespace

spmv::analysis::WarpTimeline trace_warp_timeline(const GpuContext& ctx,
                                                 const std::string& matrix_name,
                                                 const spmv::Csr<double, std::int32_t>& a,
                                                 const spmv::FormatParams& params,
                                                 const std::string& formats, bool dp, int warmup,
                                                 std::vector<std::string>& notes)
{
    require_gpu();
    spmv::analysis::WarpTimeline t;
    t.device = ctx.device;
    t.precision = dp ? "double" : "single";
    t.matrix = matrix_name;
    t.rows = a.num_rows;
    t.cols = a.num_cols;
    t.nnz = spmv::nnz(a);
    const auto info = spmv::gpu::device_info();
    t.multiprocessors = info.multiprocessors;
    std::vector<const spmv::gpu::KernelVariant*> chosen;
    for (const auto* v : select_variants(formats)) {
        if (v->baseline) {
            if (formats.empty() || formats == "all") continue;
            SPMV_THROW(spmv::InvalidArgument,
                       "--warp-timeline: " + std::string(v->name) +
                           " runs cuSPARSE's own kernels, which cannot be instrumented; name "
                           "one of SpMV Lab's variants (spmvlab bench --help lists them)");
        }
        chosen.push_back(v);
    }
    const auto af = dp ? spmv::Csr<float, std::int32_t>{} : spmv::convert_values<float>(a);
    for (const auto* v : chosen) {
        const std::string skip = too_large(*v, a, params, 0);
        if (!skip.empty()) {
            notes.push_back(std::string(v->name) + ": not traced: " + skip);
            continue;
        }
        try {
            t.variants.push_back(dp ? trace_variant(*v, a, params, warmup, t.sm_clock_khz)
                                    : trace_variant(*v, af, params, warmup, t.sm_clock_khz));
        } catch (const std::exception& e) {
            if (!is_refusal(e)) throw;
            notes.push_back(std::string(v->name) + ": not traced: " + user_message(e.what()));
        }
    }
    if (t.variants.empty()) {
        SPMV_THROW(spmv::Error, "--warp-timeline: no variant could be traced on " + matrix_name);
    }
    return t;
}

}  // namespace spmvlab
