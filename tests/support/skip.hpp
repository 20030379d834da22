#pragma once
/// A test that cannot run here (its data or a build feature is missing) says so and is counted
/// as SKIPPED by CTest, never as passed: SPMV_SKIP(message) prints the message as a Catch2
/// warning, records the skip and returns from the test case; the test binaries' main (tests/
/// support/catch_main.cpp) then exits 77, which the CTest registration maps to "Skipped"
/// (SKIP_RETURN_CODE 77). Catch2 v2 has no SKIP() of its own.
#include <atomic>

#include <catch2/catch.hpp>

namespace spmv::test {

/// How many test cases of this process skipped themselves.
inline std::atomic<int>& skipped_tests()
{
    static std::atomic<int> n{0};
    return n;
}

}  // namespace spmv::test

#define SPMV_SKIP(msg)                               \
    do {                                             \
        WARN("SKIPPED: " << msg);                    \
        ++::spmv::test::skipped_tests();             \
        return;                                      \
    } while (false)
