// The CLI's view of spmv::gpu: verification and benchmark records.
#include "common.hpp"
#include "gpu_bridge.hpp"

#include <optional>

#include <cmath>
#include <sstream>

#include <spmv/analysis/estimate.hpp>
#include <spmv/error.hpp>
#include <spmv/gpu/bench.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/gpu/error.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/gpu/verify.hpp>

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
    return c;
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

}  // namespace spmvlab
