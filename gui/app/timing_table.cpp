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
    row.fraction_of_prediction = prediction.gflops > 0 ? row.gflops / prediction.gflops : 0.0;
}

FormatModelColumn make_format_model(const spmv::Csr<double, std::int32_t>& a,
                                    const spmv::FormatParams& params,
                                    const spmv::model::GpuProfile& profile,
                                    spmv::model::Precision precision)
{
    FormatModelColumn m;
    m.precision = precision;
    m.profile = profile.name;
    m.constants = spmv::model::builtin_constants(profile);
    try {
        m.shapes = spmv::model::kernel_shapes(a, params);
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
    for (const auto& s : model.shapes) {
        if (s.variant != variant) continue;
        try {
            return spmv::model::predict(s, model.constants, model.precision);
        } catch (const std::exception& e) {  // e.g. constants without this variant
            none.why_not = spmv::user_message(e.what());
            return none;
        }
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
    if (row.gpu && row.median_ms > 0) row.measured_over_model = row.median_ms * 1e-3 / p.time_s;
}

double median_ms(std::vector<double> times)
{
    if (times.empty()) return 0.0;
    std::sort(times.begin(), times.end());
    const std::size_t n = times.size();
    return n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2.0;
}
