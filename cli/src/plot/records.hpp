#pragma once
/// What `spmvlab plot` takes from `spmvlab bench --json-out` records. Every field of a record
/// is read in one place, adapt_record() at the top of records.cpp, so that a change of the
/// record schema touches that function only.
///
/// Fields read. File level: meta.commit and meta.date (schema spmvlab/1, docs/output-schema.md;
/// top-level commit and date in records read without read_bench_json's upgrade), device,
/// copy_bandwidth_gbs (GPU records only), cache_policy, slice_height, block_rows, sigma,
/// complete, matrices_done, matrices_total, results. Per result: matrix, rows, nnz, format (the
/// variant), precision ("double"/"single", or the older "dp"/"sp"), median_ms, min_bytes (null
/// on the CPU), error, basis (GPU --basis).
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <spmv/registry.hpp>

namespace spmvlab::plot {

/// One timed (matrix, precision, variant).
struct Measurement {
    std::string matrix;
    std::string precision;  ///< "dp" or "sp"
    std::string variant;    ///< GPU kernel variant or CPU format ("sell", "cusparse_csr_alg1")
    std::int64_t rows = 0;
    std::int64_t nnz = 0;
    double median_s = 0;          ///< median time of one SpMV
    double min_bytes = 0;         ///< bytes an SpMV must move at least; NaN when not recorded
    double copy_bandwidth_gbs = 0;  ///< of the run it comes from; NaN when not recorded
    std::string source;           ///< the file
    bool baseline() const { return variant.rfind("cusparse_", 0) == 0; }
    double gflops() const { return 2.0 * static_cast<double>(nnz) / median_s / 1e9; }
    /// min_bytes / time / copy bandwidth (NaN without both numbers)
    double fraction_of_copy() const { return min_bytes / median_s / (copy_bandwidth_gbs * 1e9); }
};

/// What one file says about the run.
struct RunInfo {
    std::string file;
    std::string device;   ///< the CPU as spmv::host_device_name(), whatever the record wrote
    bool host = false;    ///< the host reference SpMV on the CPU (bench without --gpu)
    std::string commit;
    std::string date;
    std::string cache_policy;
    double copy_bandwidth_gbs = 0;  ///< NaN when not recorded (CPU)
    spmv::FormatParams params;      ///< C, b_r, sigma of the layouts (sigma 0 = auto)
    bool complete = true;
    std::string progress;           ///< "3 of 50 matrices" when incomplete
};

struct Record {
    RunInfo run;
    std::vector<Measurement> ok;  ///< measured without error, in file order
    int failed = 0;               ///< results with an error or without a time
    int permuted_basis = 0;       ///< --basis permuted results (left out: y left sorted)
};

/// THE adapter: a parsed `bench --json-out` file -> Record. Throws InvalidArgument naming the
/// file and the entry for a result without a usable field ("FILE: results[3]: no \"matrix\"
/// string"), never a raw JSON exception.
Record adapt_record(const nlohmann::json& j, const std::string& file);

/// Several records of one device together. Throws InvalidArgument for records of different
/// devices, or when no result is left; duplicates of (matrix, precision, variant) keep the
/// first file's and are counted.
struct BenchData {
    std::vector<RunInfo> runs;
    std::vector<Measurement> rows;
    int failed = 0;
    int permuted_basis = 0;
    int duplicates = 0;
    bool gpu() const;   ///< the records carry a copy bandwidth (GPU runs)
    bool host() const;  ///< the records are of the CPU's host reference SpMV (formats, not kernels)
};
BenchData combine(std::vector<Record> records);

}  // namespace spmvlab::plot
