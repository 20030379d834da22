#pragma once
// Helpers shared by the spmvlab end-to-end tests split over test_cli*.cpp (one executable,
// test_cli): the sample matrices, a scratch directory and row lookups in --json output.
// SPMVLAB_EXE, SPMV_SOURCE_DIR and SPMV_TEST_TMP come from CMake.
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_run.hpp"

namespace spmv::test {

/// A file of sample_matrices/.
inline std::string sample(const char* name)
{
    return std::string(SPMV_SOURCE_DIR) + "/sample_matrices/" + name;
}

/// A path in the tests' scratch directory (created on first use).
inline std::string tmp(const char* name)
{
    std::filesystem::create_directories(SPMV_TEST_TMP);
    return std::string(SPMV_TEST_TMP) + "/" + name;
}

/// The row of `rows` whose "format" is `name` (fails the test when there is none).
inline const nlohmann::json& by_format(const nlohmann::json& rows, const std::string& name)
{
    for (const auto& r : rows) {
        if (r["format"] == name) {
            return r;
        }
    }
    FAIL("format " << name << " missing");
    return rows;
}

}  // namespace spmv::test
