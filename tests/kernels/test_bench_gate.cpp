// SPMV_BENCH_GATE (spmv/gpu/bench.hpp): the timing harness's switch for profilers that run one
// launch at a time. Plain C++: runs in the build without CUDA too.
#include <string>

#include <catch2/catch.hpp>

#include <spmv/error.hpp>
#include <spmv/gpu/bench.hpp>

using namespace spmv;
using namespace spmv::gpu;

TEST_CASE("SPMV_BENCH_GATE: unset and on keep the gate, off drops it, anything else is refused",
          "[bench-gate]")
{
    CHECK(parse_bench_gate(nullptr));
    CHECK(parse_bench_gate("on"));
    CHECK_FALSE(parse_bench_gate("off"));
    for (const char* bad : {"", "OFF", "0", "no", "off ", "auto"}) {
        INFO("value '" << bad << "'");
        std::string what;
        try {
            parse_bench_gate(bad);
        } catch (const InvalidArgument& e) {
            what = e.what();
        }
        CHECK(what.find("SPMV_BENCH_GATE='" + std::string(bad) + "'") != std::string::npos);
        CHECK(what.find("on or off") != std::string::npos);
    }
}
