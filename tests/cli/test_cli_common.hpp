#pragma once
// Helpers shared by the spmvlab end-to-end tests split over test_cli*.cpp (one executable,
// test_cli): the sample matrices and a scratch directory (tests/support/test_files.hpp, shared
// by every test) and row lookups in --json output. SPMVLAB_EXE, SPMV_SOURCE_DIR and
// SPMV_TEST_TMP come from CMake.
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_run.hpp"
#include "test_files.hpp"

namespace spmv::test {

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
