// The per-launch choice of the matrix arrays' load kind (spmv/gpu/stream_loads.hpp), its plain
// C++ parts: parsing of SPMV_STREAM_LOADS, the L2 rule, the process-wide setting and the decision
// log `spmvlab bench` prints from. No device touched: these run in every build (the kernels on
// the device: tests/gpu/test_stream_policy.cpp).
#include <cstddef>
#include <limits>
#include <string>

#include <catch2/catch.hpp>

#include <spmv/error.hpp>
#include <spmv/gpu/stream_loads.hpp>

#include "stream_loads_scope.hpp"

using namespace spmv;
using namespace spmv::gpu;
using spmv::test::ScopedStreamLoads;

namespace {

constexpr std::size_t mib = std::size_t{1} << 20;
constexpr std::size_t h100_l2 = 50 * mib;

std::string what_of(const char* value)
{
    try {
        parse_stream_loads(value);
    } catch (const InvalidArgument& e) {
        return e.what();
    }
    return "no exception";
}

}  // namespace

TEST_CASE("SPMV_STREAM_LOADS accepts auto, always and never, and unset means auto",
          "[stream-loads]")
{
    CHECK(parse_stream_loads(nullptr) == StreamLoads::automatic);
    CHECK(parse_stream_loads("auto") == StreamLoads::automatic);
    CHECK(parse_stream_loads("always") == StreamLoads::always);
    CHECK(parse_stream_loads("never") == StreamLoads::never);
}

TEST_CASE("any other SPMV_STREAM_LOADS value is an InvalidArgument naming variable and value",
          "[stream-loads]")
{
    for (const char* bad : {"", "ALWAYS", "Never", "yes", "1", "auto ", " always", "streaming"}) {
        INFO("value '" << bad << "'");
        CHECK_THROWS_AS(parse_stream_loads(bad), InvalidArgument);
        const std::string what = what_of(bad);
        CHECK(what.find("SPMV_STREAM_LOADS") != std::string::npos);
        CHECK(what.find("'" + std::string(bad) + "'") != std::string::npos);
        CHECK(what.find("auto, always or never") != std::string::npos);
    }
}

TEST_CASE("auto streams exactly when matrix plus vectors exceed the L2", "[stream-loads]")
{
    // pde100 in double as SELL-32-1 (sell.cu): 83.8 MB of arrays, x + y 16 MB: far over 50 MiB.
    CHECK(choose_stream_loads(StreamLoads::automatic, 83'800'000, 16'000'000, h100_l2));
    // A tiny matrix (494 rows, ELL width 10, double): 59,280 B of arrays, x + y 7,904 B.
    CHECK_FALSE(choose_stream_loads(StreamLoads::automatic, 59'280, 7'904, h100_l2));
    // The boundary: equal to the L2 still fits, one byte more does not.
    CHECK_FALSE(choose_stream_loads(StreamLoads::automatic, 40 * mib, 10 * mib, h100_l2));
    CHECK(choose_stream_loads(StreamLoads::automatic, 40 * mib, 10 * mib + 1, h100_l2));
    CHECK(choose_stream_loads(StreamLoads::automatic, 50 * mib + 1, 0, h100_l2));
    CHECK(choose_stream_loads(StreamLoads::automatic, 0, 50 * mib + 1, h100_l2));
    // No wrap-around for absurd sizes.
    constexpr auto huge = std::numeric_limits<std::size_t>::max();
    CHECK(choose_stream_loads(StreamLoads::automatic, huge, huge, h100_l2));
    CHECK(choose_stream_loads(StreamLoads::automatic, huge, 1, h100_l2));
}

TEST_CASE("always and never ignore the sizes", "[stream-loads]")
{
    CHECK(choose_stream_loads(StreamLoads::always, 0, 0, h100_l2));
    CHECK(choose_stream_loads(StreamLoads::always, 1024, 64, h100_l2));
    CHECK_FALSE(choose_stream_loads(StreamLoads::never, 500 * mib, 100 * mib, h100_l2));
    CHECK_FALSE(choose_stream_loads(StreamLoads::never, std::numeric_limits<std::size_t>::max(), 0,
                                    h100_l2));
}

TEST_CASE("set_stream_loads overrides the setting until it is set again", "[stream-loads]")
{
    const StreamLoads before = stream_loads();
    {
        const ScopedStreamLoads forced(StreamLoads::never);
        CHECK(stream_loads() == StreamLoads::never);
        set_stream_loads(StreamLoads::always);
        CHECK(stream_loads() == StreamLoads::always);
    }
    CHECK(stream_loads() == before);
}

TEST_CASE("the decision log keeps a thread's last decision until it is taken", "[stream-loads]")
{
    (void)take_stream_decision();  // whatever an earlier test left
    CHECK_FALSE(take_stream_decision().has_value());
    note_stream_decision({true, StreamLoads::automatic, 83'800'000, 16'000'000, h100_l2});
    note_stream_decision({false, StreamLoads::automatic, 59'280, 7'904, h100_l2});
    const auto d = take_stream_decision();
    REQUIRE(d.has_value());
    CHECK_FALSE(d->streaming);  // the last one noted
    CHECK(d->matrix_bytes == 59'280);
    CHECK(d->vector_bytes == 7'904);
    CHECK(d->l2_bytes == h100_l2);
    CHECK_FALSE(take_stream_decision().has_value());  // taken: empty again
}

TEST_CASE("a decision in words names the sizes and the L2, or the setting that forced it",
          "[stream-loads]")
{
    // pde100 in double as SELL-32-1: 83.8 MB of arrays, x + y 16 MB, an H100's 50 MiB L2.
    CHECK(describe_stream_decision({true, StreamLoads::automatic, 83'800'000, 16'000'000,
                                    h100_l2}) ==
          "streaming: arrays + x + y 95.2 MiB > L2 50.0 MiB");
    CHECK(describe_stream_decision({false, StreamLoads::automatic, 59'280, 7'904, h100_l2}) ==
          "read-only: arrays + x + y 65.6 KiB <= L2 50.0 MiB");
    CHECK(describe_stream_decision({true, StreamLoads::always, 59'280, 7'904, 0}) ==
          "streaming: SPMV_STREAM_LOADS=always");
    CHECK(describe_stream_decision({false, StreamLoads::never, 83'800'000, 16'000'000, 0}) ==
          "read-only: SPMV_STREAM_LOADS=never");
    // absurd sizes are summed without wrapping: 2 x (2^64 - 1) bytes
    constexpr auto huge = std::numeric_limits<std::size_t>::max();
    CHECK(describe_stream_decision({true, StreamLoads::automatic, huge, huge, h100_l2}) ==
          "streaming: arrays + x + y 32.0 EiB > L2 50.0 MiB");
    CHECK(stream_loads_name(StreamLoads::automatic) == "auto");
    CHECK(stream_loads_name(StreamLoads::always) == "always");
    CHECK(stream_loads_name(StreamLoads::never) == "never");
}
