#pragma once
// Qt-free rows of the timing view: a measured time (GPU kernel via spmv::gpu::bench, or the
// CPU reference SpMV) next to the performance model's prediction. Tested in tests/gui.
#include <cstdint>
#include <string>
#include <vector>

#include <spmv/model/performance.hpp>

struct TimingRow {
    std::string variant;    ///< GPU variant or registry format name
    std::string format;     ///< host registry name of the layout
    std::string precision;  ///< "double" / "float"
    std::string device;     ///< GPU name or "CPU reference (1 thread)"
    bool baseline = false;  ///< cuSPARSE reference
    bool gpu = false;
    double median_ms = 0.0;
    double gflops = 0.0;                  ///< 2 nnz / median
    double effective_gbs = 0.0;           ///< bench's minimum bytes / median (GPU and CPU)
    double fraction_of_copy = 0.0;        ///< of the measured copy bandwidth (GPU only)
    double predicted_gflops = 0.0;        ///< model: 2 nnz / T_MVM for the chosen profile
    double fraction_of_prediction = 0.0;  ///< gflops / predicted_gflops (the bandwidth limit)
    std::string error;                    ///< why the variant did not run (out of memory, ...)
};

/// GFLOP/s of `nnz` nonzeros in `ms` milliseconds: 2 nnz / t (SPEC §2); 0 for t <= 0.
double gflops_of(std::int64_t nnz, double ms);

/// Fills predicted_gflops and fraction_of_prediction from a model prediction.
void attach_prediction(TimingRow& row, const spmv::model::Prediction& prediction);

/// Median of a list of times (empty: 0).
double median_ms(std::vector<double> times);
