// The per-format performance model (spmv/model/format_model.hpp): the engine that asks every
// registry format's kernel rules (model_variants(), in the format's story file) for their
// counts, and turns counts into times. It names no format and no variant.
#include <spmv/model/format_model.hpp>

#include <algorithm>
#include <cmath>
#include <optional>

#include <spmv/error.hpp>
#include <spmv/registry.hpp>

#include "shape_kit.hpp"

namespace spmv::model {
namespace {

// Every format's rules, in registry order.
const std::vector<const VariantRule*>& all_rules()
{
    static const std::vector<const VariantRule*> rules = [] {
        std::vector<const VariantRule*> v;
        for (const auto& f : formats()) {
            if (f.model_variants == nullptr) continue;
            for (const auto& r : f.model_variants()) v.push_back(&r);
        }
        return v;
    }();
    return rules;
}

}  // namespace

std::span<const ModelledVariant> modelled_variants()
{
    static const std::vector<ModelledVariant> all = [] {
        std::vector<ModelledVariant> v;
        for (const auto* r : all_rules()) v.push_back(r->variant);
        return v;
    }();
    return all;
}

const ModelledVariant* find_modelled_variant(std::string_view name) noexcept
{
    for (const auto& v : modelled_variants()) {
        if (v.name == name) {
            return &v;
        }
    }
    return nullptr;
}

const KernelConstants* FormatModelConstants::find(std::string_view variant) const noexcept
{
    for (const auto& k : kernels) {
        if (k.variant == variant) {
            return &k;
        }
    }
    return nullptr;
}

namespace {

// Throws InvalidArgument for a variant the model does not know, listing the ones it does.
void check_wanted(std::span<const std::string_view> wanted)
{
    for (const auto w : wanted) {
        if (find_modelled_variant(w) == nullptr) {
            std::string names;
            for (const auto& v : modelled_variants()) {
                names += names.empty() ? "" : ", ";
                names += v.name;
            }
            SPMV_THROW(InvalidArgument, "no model for GPU variant '" + std::string(w) +
                                  "'; modelled: " + names);
        }
    }
}

// The shapes of the wanted variants (all when empty) at the context's parameters.
std::vector<KernelShape> shapes_in(ShapeContext& context, std::span<const std::string_view> wanted)
{
    auto want = [&](std::string_view v) {
        return wanted.empty() || std::find(wanted.begin(), wanted.end(), v) != wanted.end();
    };
    std::vector<KernelShape> out;
    for (const auto* rule : all_rules()) {
        const auto& v = rule->variant;
        if (!want(v.name)) {
            continue;
        }
        KernelShape s;
        s.variant = std::string(v.name);
        s.format = std::string(v.format);
        s.params = context.params;
        s.permuted = v.permuted;
        s.rows = context.n;
        s.cols = context.a.num_cols;
        s.x_cols = context.touched_cols;
        s.nnz = context.nnz;
        s.loaded_slots = static_cast<double>(context.nnz);
        s.stored_slots = static_cast<double>(context.nnz);
        s.row_info_bytes = 4.0 * static_cast<double>(context.n + 1);
        rule->shape(context, s);  // the format's own rule (its story file)
        s.useful_fraction = s.warp_trips > 0
                                ? std::min(1.0, static_cast<double>(context.nnz) /
                                                    (static_cast<double>(warp) * static_cast<double>(s.warp_trips)))
                                : 1.0;
        out.push_back(std::move(s));
    }
    return out;
}

void check_matrix(const Csr<double, std::int32_t>& a)
{
    SPMV_EXPECTS(a.num_rows > 0 && !a.col_idxs.empty(),
                 "the format model needs a matrix with rows and nonzeros");
}

}  // namespace

std::vector<KernelShape> kernel_shapes(const Csr<double, std::int32_t>& a,
                                       const FormatParams& params_in,
                                       std::span<const std::string_view> wanted)
{
    check_matrix(a);
    check_wanted(wanted);
    // every "auto" resolved by its format's registry entry, as every builder and estimate does
    ShapeContext context(a, resolve_all_params(a.row_ptrs, params_in));
    return shapes_in(context, wanted);
}

namespace {
bool x_in_shared(const KernelShape& s, Precision p)
{
    // detail::xs_max_cols: 48 KiB of x per block (6144 doubles, 12288 floats)
    return s.x_staged > 0 && s.cols * value_bytes(p) <= 48 * 1024;
}
}  // namespace

double dram_bytes(const KernelShape& s, Precision p)
{
    const double v = value_bytes(p);
    const auto x_read = s.x_cols >= 0 ? s.x_cols : s.cols;
    return s.loaded_slots * (v + s.index_bytes) + s.extra_index_slots * 4.0 + s.row_info_bytes +
           v * static_cast<double>(x_read) + v * static_cast<double>(s.rows) * s.vector_passes +
           v * s.temp_value_traffic;
}

double l2_gather_sectors(const KernelShape& s, Precision p)
{
    const double v = value_bytes(p);
    return x_in_shared(s, p) ? s.x_staged * v / 32.0
                             : (p == Precision::double_precision ? s.x_sectors_dp : s.x_sectors_sp);
}

double l2_sectors(const KernelShape& s, Precision p)
{
    const double v = value_bytes(p);
    const double matrix = (s.loaded_slots * (v + s.index_bytes) + s.extra_index_slots * 4.0) / 32.0 *
                          s.matrix_sector_factor;
    const double x = l2_gather_sectors(s, p);
    return matrix + s.row_info_bytes / 32.0 + x +
           (v * static_cast<double>(s.rows) * s.vector_passes + v * s.temp_value_traffic) / 32.0;
}

std::int64_t latency_trips(const KernelShape& s, Precision p)
{
    return x_in_shared(s, p) ? s.staged_trips : s.critical_trips;
}

std::int64_t extra_stage_steps(const KernelShape& s, Precision p)
{
    return x_in_shared(s, p) ? xs_stage_steps(s.cols, value_bytes(p)) - 1 : 0;
}

const std::string& timed_variant(const KernelShape& s, Precision p)
{
    return s.plain_variant.empty() || x_in_shared(s, p) ? s.variant : s.plain_variant;
}

double overlap_time(double latency, double memory, double q) noexcept
{
    const double hi = std::max(latency, memory);
    if (q <= 0 || hi <= 0) return hi;
    const double lo = std::min(latency, memory);
    // hi (1 + (lo / hi)^q)^(1/q): no overflow at large q
    return hi * std::pow(1.0 + std::pow(lo / hi, q), 1.0 / q);
}

double warp_sectors(const KernelShape& s, Precision p)
{
    return p == Precision::double_precision ? s.warp_sectors_dp : s.warp_sectors_sp;
}

FormatPrediction predict(const KernelShape& s, const FormatModelConstants& c, Precision p)
{
    FormatPrediction r;
    r.variant = s.variant;
    r.feasible = s.feasible;
    r.why_not = s.why_not;
    const auto& timed = timed_variant(s, p);  // an "_xs" kernel whose x does not fit: the plain one
    const auto* k = c.find(timed);
    if (k == nullptr) {
        SPMV_THROW(InvalidArgument, "the constants of '" + c.profile + "' have no entry for variant '" +
                              timed + "'");
    }
    SPMV_EXPECTS(c.bandwidth_gbs > 0 && c.l2_gbs > 0, "model constants need positive bandwidths");
    SPMV_EXPECTS(k->l2_efficiency > 0 && k->l2_efficiency <= 1,
                 "the L2 efficiency e_v of '" + timed + "' must lie in (0, 1]");
    r.dram_bytes = dram_bytes(s, p);
    r.l2_sectors = l2_sectors(s, p);
    r.floor_s = k->floor_us * 1e-6;
    r.latency_s = k->trip_ns * 1e-9 * static_cast<double>(latency_trips(s, p)) +
                  c.stage_ns * 1e-9 * static_cast<double>(extra_stage_steps(s, p));
    r.dram_s = r.dram_bytes / (c.bandwidth_gbs * 1e9);
    // the x gather at e_v B_L2, the streamed rest at B_L2 (e_v = 1: the model before, bit for bit)
    const double e = k->l2_efficiency;
    const double gather = l2_gather_sectors(s, p);
    const double l2_at_b = e == 1.0 ? r.l2_sectors : (r.l2_sectors - gather) + gather / e;
    r.l2_s = l2_at_b * 32.0 / (c.l2_gbs * 1e9);
    r.issue_s = c.issue_ps * 1e-12 * static_cast<double>(s.warp_trips);
    // the heaviest warp at its share of its SM (constants without B_w: the model before)
    r.warp_s = c.warp_gbs > 0 ? warp_sectors(s, p) * 32.0 / (c.warp_gbs * 1e9) : 0.0;
    const double memory = std::max({r.dram_s, r.l2_s, r.issue_s, r.warp_s});
    r.time_s = r.floor_s + overlap_time(r.latency_s, memory, c.overlap_q);
    r.bound = r.latency_s >= memory ? "latency"
              : r.dram_s == memory  ? "DRAM bandwidth"
              : r.l2_s == memory    ? "L2 gather"
              : r.issue_s == memory ? "warp issue"
                                    : "heaviest warp";
    r.gflops = 2.0 * static_cast<double>(s.nnz) / r.time_s / 1e9;
    return r;
}

std::vector<VariantPrediction> predict_variants(const Csr<double, std::int32_t>& a,
                                                const FormatParams& params, const GpuProfile& gpu,
                                                Precision p,
                                                std::span<const std::string_view> variants,
                                                const FormatModelConstants* constants)
{
    const auto c = constants != nullptr ? *constants : builtin_constants(gpu);
    auto shapes = kernel_shapes(a, params, variants);
    std::vector<VariantPrediction> out;
    out.reserve(shapes.size());
    for (auto& s : shapes) {
        auto t = predict(s, c, p);
        out.push_back({std::move(s), std::move(t)});
    }
    return out;
}

VariantPrediction predict_variant(const Csr<double, std::int32_t>& a, std::string_view variant,
                                  const FormatParams& params, const GpuProfile& gpu, Precision p,
                                  const FormatModelConstants* constants)
{
    const std::string_view one[] = {variant};
    auto all = predict_variants(a, params, gpu, p, one, constants);
    SPMV_EXPECTS(all.size() == 1, "the format model gave no prediction for '" +
                                      std::string(variant) + "'");
    return std::move(all.front());
}

const ModelledVariant* format_variant(std::string_view format) noexcept
{
    const auto* v = find_modelled_variant(format);
    return v != nullptr && v->format == format ? v : nullptr;
}

std::vector<SweepPrediction> predict_sweep(const Csr<double, std::int32_t>& a,
                                           std::string_view format, Param param,
                                           const FormatParams& base, std::span<const int> values,
                                           const GpuProfile& gpu, Precision p,
                                           const FormatModelConstants* constants)
{
    const auto* v = format_variant(format);
    if (v == nullptr) {
        SPMV_THROW(InvalidArgument, "the per-format model has no GPU kernel for format '" +
                                        std::string(format) + "'");
    }
    const auto c = constants != nullptr ? *constants : builtin_constants(gpu);
    const std::string_view one[] = {v->name};
    // one context for the whole sweep: the row lengths and every pass that does not depend on
    // the swept value (the identity and global passes for C, b_r and K; the window pass too
    // while sigma stays) are computed once, not once per point. The same numbers as
    // predict_variant at every value, bit for bit (tests/analysis/test_sweep.cpp).
    std::optional<ShapeContext> context;
    std::vector<SweepPrediction> out;
    out.reserve(values.size());
    for (const int value : values) {
        SweepPrediction sp;
        sp.value = value;
        sp.params = base;
        spmv::set(sp.params, param, value);
        const auto resolved = resolve_all_params(a.row_ptrs, sp.params);
        if (context) {
            context->set_params(resolved);
        } else {
            check_matrix(a);
            context.emplace(a, resolved);
        }
        auto shapes = shapes_in(*context, one);
        SPMV_EXPECTS(shapes.size() == 1, "the format model gave no prediction for '" +
                                             std::string(v->name) + "'");
        auto t = predict(shapes.front(), c, p);
        sp.model = {std::move(shapes.front()), std::move(t)};
        out.push_back(std::move(sp));
    }
    return out;
}

ModelBounds model_bounds(std::span<const FormatPrediction> predictions, std::int64_t rows,
                         std::int64_t nnz, const GpuProfile& gpu, Precision p, double alpha)
{
    SPMV_EXPECTS(rows > 0 && nnz > 0, "model bounds need a matrix with rows and nonzeros");
    ModelBounds b;
    b.alpha = alpha;
    const double n_nzr = static_cast<double>(nnz) / static_cast<double>(rows);
    b.kreutzer_eq1_s =
        t_mvm_seconds(static_cast<double>(rows), n_nzr, alpha, gpu.memory_bandwidth_gbs, p);
    for (const auto& t : predictions) {
        if (!t.feasible || !(t.time_s > 0) || !(t.dram_s > 0)) continue;
        if (b.traffic_bound_s == 0 || t.dram_s < b.traffic_bound_s) {
            b.traffic_bound_s = t.dram_s;
            b.traffic_bound_variant = t.variant;
        }
        if (b.fastest_prediction_s == 0 || t.time_s < b.fastest_prediction_s) {
            b.fastest_prediction_s = t.time_s;
        }
    }
    b.kreutzer_is_bound = b.fastest_prediction_s == 0 || b.kreutzer_eq1_s <= b.fastest_prediction_s;
    return b;
}

}  // namespace spmv::model
