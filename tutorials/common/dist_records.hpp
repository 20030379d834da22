#pragma once
/// The committed records of the multi-GPU runs, for the lessons that quote them (lesson 18):
/// `spmvlab dist bench` and `dist solve` records (JSON), `dist chart`'s model_vs_measured files
/// and the runs' env.txt, all under docs/benchmarks/ of the source tree. Read with nlohmann/json
/// (header-only; the lesson links nlohmann_json::nlohmann_json). A missing or malformed record
/// throws (std::runtime_error naming the file, or nlohmann's parse error): the lesson then ends
/// with FAIL instead of printing a table with a silent gap.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#ifndef SPMV_SAMPLES_DIR
#error "SPMV_SAMPLES_DIR must name the sample_matrices/ folder (set by tutorials/CMakeLists.txt)"
#endif

namespace tutorial {

/// docs/benchmarks of the source tree (next to sample_matrices/).
inline std::filesystem::path benchmarks_dir()
{
    return std::filesystem::path(SPMV_SAMPLES_DIR).parent_path() / "docs" / "benchmarks";
}

/// The text of docs/benchmarks/<relative>; throws std::runtime_error when it cannot be read.
inline std::string read_record_text(const std::string& relative)
{
    std::ifstream in(benchmarks_dir() / relative, std::ios::binary);
    if (!in) throw std::runtime_error("missing record docs/benchmarks/" + relative);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// docs/benchmarks/<relative> parsed as JSON.
inline nlohmann::json read_record(const std::string& relative)
{
    try {
        return nlohmann::json::parse(read_record_text(relative));
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error("docs/benchmarks/" + relative + ": " + e.what());
    }
}

/// The entry of `mode` ("vector", "naive", "overlap", "task") in a `dist bench` record's "modes"
/// array: median_us (slowest rank), single_process_us (T1, the same run), overlapped_fraction...
inline const nlohmann::json& mode_entry(const nlohmann::json& record, const std::string& mode)
{
    for (const auto& m : record.at("modes"))
        if (m.at("mode") == mode) return m;
    throw std::runtime_error("the record of " + record.at("matrix").get<std::string>() +
                             " has no mode " + mode);
}

/// The median time per SpMV of `mode` (slowest rank), in microseconds.
inline double median_us(const nlohmann::json& record, const std::string& mode)
{
    return mode_entry(record, mode).at("median_us").get<double>();
}

}  // namespace tutorial
