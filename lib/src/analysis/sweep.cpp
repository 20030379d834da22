#include <spmv/analysis/sweep.hpp>

#include <algorithm>
#include <functional>
#include <string>

#include <spmv/analysis/estimate.hpp>
#include <spmv/analysis/warps.hpp>
#include <spmv/error.hpp>
#include <spmv/registry.hpp>

#include "sweep_kit.hpp"

namespace spmv::analysis {
namespace {

using I = std::int32_t;

const ParamInfo& schema(Param p)
{
    for (const auto& info : parameters()) {
        if (info.id == p) return info;
    }
    SPMV_THROW(InvalidArgument, "parameter without a schema entry");
}

std::string sweepable_list()
{
    std::string s;
    for (const auto& f : formats()) {
        for (const auto p : f.sweep_params) {
            s += (s.empty() ? "" : ", ") + std::string(schema(p).name) + " of " +
                 std::string(f.name);
        }
    }
    return s;
}

const ParamInfo& check_sweepable(std::string_view format, Param param)
{
    const auto& info = find_format(format);  // InvalidArgument listing the known names
    const auto& pinfo = schema(param);
    SPMV_EXPECTS(std::find(info.params.begin(), info.params.end(), param) != info.params.end(),
                 "format '" + std::string(format) + "' has no parameter " +
                     std::string(pinfo.name) + "; sweepable: " + sweepable_list());
    SPMV_EXPECTS(is_sweepable(format, param),
                 "no sweep of parameter " + std::string(pinfo.name) + " of format '" +
                     std::string(format) + "'; sweepable: " + sweepable_list());
    return pinfo;
}

/// The value the layout of `format` really uses when `param` is set to `value` (see
/// resolved_value): "auto" resolved by the format's registry entry, then its sweep_effective.
int resolve(const Csr<double, std::int32_t>& a, const std::vector<I>& len, std::string_view format,
            Param param, const FormatParams& params, int value)
{
    FormatParams p = params;
    set(p, param, value);
    p = resolve_params(format, a, p);
    const auto& info = find_format(format);
    return info.sweep_effective != nullptr ? info.sweep_effective(param, len, p) : get(p, param);
}

bool is_log_scale(const std::vector<int>& values)
{
    return !values.empty() && values.front() >= 1 &&
           static_cast<std::int64_t>(values.back()) >=
               8 * static_cast<std::int64_t>(values.front());
}

}  // namespace

bool is_sweepable(std::string_view format, Param param)
{
    const auto* f = find_format_or_null(format);
    return f != nullptr && f->sweep_warps != nullptr &&
           std::find(f->sweep_params.begin(), f->sweep_params.end(), param) != f->sweep_params.end();
}

std::string_view sweep_format(Param param)
{
    for (const auto& f : formats()) {
        if (is_sweepable(f.name, param)) return f.name;
    }
    SPMV_THROW(InvalidArgument, "no sweep of parameter " + std::string(schema(param).name) +
                                    "; sweepable: " + sweepable_list());
}

std::pair<int, int> sweep_range(Param param)
{
    const auto& info = schema(param);
    // σ = 0 and K = -1 ask the builder to choose: not a value on an axis
    if (param == Param::sort_window) return {1, info.max_value};
    if (param == Param::hyb_width) return {0, info.max_value};
    return {info.min_value, info.max_value};
}

std::vector<int> default_sweep_values(const Csr<double, std::int32_t>& a, Param param)
{
    (void)sweep_format(param);  // InvalidArgument for a parameter no sweep supports
    const auto [lo, hi] = sweep_range(param);
    const std::int64_t n = a.num_rows;
    std::vector<int> v;
    if (param == Param::hyb_width) {
        const auto len = row_lengths(a);
        const std::int64_t longest = len.empty() ? 0 : *std::max_element(len.begin(), len.end());
        if (longest <= 32) {
            for (std::int64_t k = 0; k <= longest; ++k) v.push_back(static_cast<int>(k));
        } else {
            for (std::int64_t k = 1; k < longest; k *= 2) v.push_back(static_cast<int>(k));
            v.push_back(static_cast<int>(std::min<std::int64_t>(longest, hi)));
        }
        return v;
    }
    if (param == Param::sort_window) {
        for (std::int64_t s = 1; s < n && s < hi; s *= 2) v.push_back(static_cast<int>(s));
        v.push_back(static_cast<int>(std::clamp<std::int64_t>(n, lo, hi)));
        return v;
    }
    // C, b_r: up to the first power of two >= N (a larger block holds only empty rows)
    for (std::int64_t s = lo; s <= hi; s *= 2) {
        v.push_back(static_cast<int>(s));
        if (s >= n) break;
    }
    return v;
}

int resolved_value(const Csr<double, std::int32_t>& a, std::string_view format, Param param,
                   const FormatParams& params)
{
    (void)check_sweepable(format, param);
    return resolve(a, row_lengths(a), format, param, params, get(params, param));
}

SweepResult sweep(const Csr<double, std::int32_t>& a, std::string_view format, Param param,
                  const FormatParams& base, std::span<const int> values,
                  const SweepOptions& options)
{
    const auto& pinfo = check_sweepable(format, param);
    SPMV_EXPECTS(options.gpu.memory_bandwidth_gbs > 0.0,
                 "GPU profile '" + options.gpu.name + "' has no positive memory bandwidth");
    SPMV_EXPECTS(base.warp_size >= 1,
                 "warp size must be >= 1, got " + std::to_string(base.warp_size));

    std::vector<int> v(values.begin(), values.end());
    if (v.empty()) v = default_sweep_values(a, param);
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    const auto [lo, hi] = sweep_range(param);
    for (const int x : v) {
        SPMV_EXPECTS(x >= lo && x <= hi, "sweep of " + std::string(pinfo.name) + ": value " +
                                             std::to_string(x) + " is outside [" +
                                             std::to_string(lo) + ", " + std::to_string(hi) + "]");
    }

    const auto len = row_lengths(a);
    const std::int64_t n = a.num_rows;
    const std::int64_t nnz_a = nnz(a);
    const double sv = model::value_bytes(options.precision);
    const double si = model::index_bytes;
    if (nnz_a > 0) {
        const double lo_alpha =
            model::min_alpha(static_cast<double>(nnz_a) / static_cast<double>(n));
        SPMV_EXPECTS(options.alpha >= lo_alpha * (1.0 - 1e-12) && options.alpha <= 1.0,
                     "alpha = " + std::to_string(options.alpha) + " is outside [" +
                         std::to_string(lo_alpha) + ", 1] (1/N_nzr <= alpha <= 1)");
    } else {
        SPMV_EXPECTS(options.alpha > 0.0 && options.alpha <= 1.0,
                     "alpha = " + std::to_string(options.alpha) + " is outside (0, 1]");
    }

    SweepResult r;
    r.format = std::string(format);
    r.param = param;
    r.base = base;
    r.precision = options.precision;
    r.gpu = options.gpu;
    r.alpha = options.alpha;
    r.rows = n;
    r.nnz = nnz_a;
    r.log_scale = is_log_scale(v);
    r.current_value = resolve(a, len, format, param, base, get(base, param));

    const auto& info = find_format(format);
    SweepRows rows(len);  // its sorts are shared between the points (SweepRows::sorted)
    for (const int x : v) {
        FormatParams p = base;
        set(p, param, x);
        SweepPoint pt;
        pt.value = x;
        pt.effective_value = resolve(a, len, format, param, p, x);
        p = resolve_params(format, a, p);  // sigma = auto: SELL's rule, at this point's C
        const Footprint f = estimate_footprint(a, format, p);
        pt.stored_slots = f.stored_entries;
        pt.padding_slots = f.padding_entries;
        pt.padding_share = f.stored_entries == 0 ? 0.0
                                                 : static_cast<double>(f.padding_entries) /
                                                       static_cast<double>(f.stored_entries);
        // estimate_footprint counts 8-byte values in every stored slot (real and padding)
        pt.storage_bytes = f.total_bytes() - static_cast<std::size_t>(f.stored_entries) *
                                                 (sizeof(double) - static_cast<std::size_t>(sv));

        const auto k = info.sweep_warps(rows, p);  // the format's own rule (its story file)
        const WarpAnalysis& w = k.warps;
        pt.slots_read = k.slots_read;
        pt.coo_entries = k.coo_entries;
        pt.threads = w.threads;
        pt.n_iter = w.n_iter;
        pt.idle_slots = w.idle_slots;
        pt.warp_efficiency = w.useful_fraction;

        pt.bytes_moved = static_cast<double>(pt.slots_read) * (sv + si) +
                         static_cast<double>(nnz_a) * options.alpha * sv +
                         static_cast<double>(n) * 2.0 * sv +
                         static_cast<double>(pt.coo_entries) * (si + 2.0 * sv);
        pt.predicted_seconds = pt.bytes_moved / (options.gpu.memory_bandwidth_gbs * 1e9);
        r.points.push_back(pt);
    }
    return r;
}

}  // namespace spmv::analysis
