#include "timing_table.hpp"

#include <algorithm>
#include <exception>

#include <spmv/error.hpp>

double gflops_of(std::int64_t nnz, double ms)
{
    return ms > 0 ? 2.0 * static_cast<double>(nnz) / (ms * 1e-3) / 1e9 : 0.0;
}

void attach_prediction(TimingRow& row, const spmv::model::Prediction& prediction)
{
    row.predicted_gflops = prediction.gflops;
    row.kreutzer_alpha = prediction.alpha;
    row.fraction_of_prediction = prediction.gflops > 0 ? row.gflops / prediction.gflops : 0.0;
}

FormatModelColumn make_format_model(const spmv::Csr<double, std::int32_t>& a,
                                    const spmv::FormatParams& params,
                                    const spmv::model::GpuProfile& profile,
                                    spmv::model::Precision precision,
                                    const spmv::model::FormatModelConstants* constants)
{
    FormatModelColumn m;
    m.precision = precision;
    m.profile = profile.name;
    m.constants = constants != nullptr ? *constants : spmv::model::builtin_constants(profile);
    try {
        // the one per-format model call (advisor, recommend, model --format, Sweep, Python)
        m.predictions = spmv::model::predict_variants(a, params, profile, precision, {},
                                                      &m.constants);
        for (const auto& p : m.predictions) m.shapes.push_back(p.shape);
    } catch (const std::exception& e) {
        m.error = spmv::user_message(e.what());
    }
    return m;
}

spmv::model::FormatPrediction format_model_prediction(const FormatModelColumn& model,
                                                      const std::string& variant)
{
    spmv::model::FormatPrediction none;
    none.variant = variant;
    none.feasible = false;
    if (spmv::model::find_modelled_variant(variant) == nullptr) {
        none.why_not = "the format model has no kernel '" + variant + "'";
        return none;
    }
    for (const auto& p : model.predictions) {
        if (p.shape.variant == variant) return p.prediction;
    }
    none.why_not = model.error.empty() ? "no shape for '" + variant + "'" : model.error;
    return none;
}

void attach_format_model(TimingRow& row, const FormatModelColumn& model)
{
    const auto p = format_model_prediction(model, row.variant);
    row.model_profile = model.profile;
    if (!p.feasible || p.time_s <= 0) {
        row.model_note = p.why_not;
        return;
    }
    row.model_s = p.time_s;
    row.model_gflops = p.gflops;
    row.model_bound = p.bound;
    row.traffic_s = p.dram_s;
    row.traffic_gflops = p.dram_s > 0 ? p.gflops * p.time_s / p.dram_s : 0.0;
    if (row.gpu && row.median_ms > 0) row.measured_over_model = row.median_ms * 1e-3 / p.time_s;
}

TimingChartLines timing_chart_lines(std::span<const TimingRow> rows)
{
    TimingChartLines l;
    for (const auto& r : rows) {
        if (r.traffic_gflops > l.traffic_gflops) {
            l.traffic_gflops = r.traffic_gflops;
            l.traffic_variant = r.variant;
        }
        l.max_model_gflops = std::max(l.max_model_gflops, r.model_gflops);
        if (r.predicted_gflops > 0) {
            l.kreutzer_gflops = r.predicted_gflops;  // the same for every row
            l.kreutzer_alpha = r.kreutzer_alpha;
        }
    }
    l.kreutzer_is_bound = l.kreutzer_gflops >= l.max_model_gflops;
    return l;
}

double median_ms(std::vector<double> times)
{
    if (times.empty()) return 0.0;
    std::sort(times.begin(), times.end());
    const std::size_t n = times.size();
    return n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2.0;
}
