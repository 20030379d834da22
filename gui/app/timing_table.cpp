#include "timing_table.hpp"

#include <algorithm>

double gflops_of(std::int64_t nnz, double ms)
{
    return ms > 0 ? 2.0 * static_cast<double>(nnz) / (ms * 1e-3) / 1e9 : 0.0;
}

void attach_prediction(TimingRow& row, const spmv::model::Prediction& prediction)
{
    row.predicted_gflops = prediction.gflops;
    row.fraction_of_prediction = prediction.gflops > 0 ? row.gflops / prediction.gflops : 0.0;
}

double median_ms(std::vector<double> times)
{
    if (times.empty()) return 0.0;
    std::sort(times.begin(), times.end());
    const std::size_t n = times.size();
    return n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2.0;
}
