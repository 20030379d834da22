// The per-launch choice of the matrix arrays' load kind (spmv/gpu/stream_loads.hpp): parsing of
// SPMV_STREAM_LOADS and the L2 rule (host only, no device touched), then every GPU variant with
// each kind forced, so that both instantiations of the slice/column-major kernels are checked
// (with the default rule the small test matrices would only ever take the read-only one).
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/error.hpp>
#include <spmv/gpu/stream_loads.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/gpu/verify.hpp>
#include <spmv/registry.hpp>

#include "gpu_test_matrices.hpp"

using namespace spmv;
using namespace spmv::gpu;

namespace {

constexpr std::size_t mib = std::size_t{1} << 20;
constexpr std::size_t h100_l2 = 50 * mib;

/// Sets the process-wide setting for one scope and puts the previous one back.
class ScopedStreamLoads {
public:
    explicit ScopedStreamLoads(StreamLoads mode) : before_(stream_loads())
    {
        set_stream_loads(mode);
    }
    ~ScopedStreamLoads() { set_stream_loads(before_); }
    ScopedStreamLoads(const ScopedStreamLoads&) = delete;
    ScopedStreamLoads& operator=(const ScopedStreamLoads&) = delete;

private:
    StreamLoads before_;
};

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

namespace {

template <typename V>
void check_every_variant_with(StreamLoads mode)
{
    const ScopedStreamLoads forced(mode);
    test::check_every_variant<V>();
}

}  // namespace

TEST_CASE("every GPU variant matches the reference with streaming loads forced",
          "[gpu][stream-loads]")
{
    check_every_variant_with<double>(StreamLoads::always);
    check_every_variant_with<float>(StreamLoads::always);
}

TEST_CASE("every GPU variant matches the reference with the read-only path forced",
          "[gpu][stream-loads]")
{
    check_every_variant_with<double>(StreamLoads::never);
    check_every_variant_with<float>(StreamLoads::never);
}

TEST_CASE("a matrix larger than the L2 gives the same result with either load kind",
          "[gpu][stream-loads]")
{
    // pde 120^3 in double: 1.73 M rows, 12.0 M nonzeros; SELL-32 holds ~145 MB, more than the L2
    // of an H100 or H200, so auto streams here. Both kinds must give bit-identical y (only the load
    // instruction differs, not the order of the additions).
    constexpr std::int32_t k = 120;
    const auto a = test::pde7(k);
    const std::vector<double> x(static_cast<std::size_t>(a.num_cols), 1.0);
    const std::vector<double> y0(static_cast<std::size_t>(a.num_rows), 0.5);
    const auto interior = static_cast<std::size_t>((60 * k + 60) * k + 60);
    for (const char* name : {"sell", "ellr", "pjds", "biell"}) {
        INFO(name);
        const auto& v = find_variant(name);
        const auto d = prepare(v, a);
        std::vector<double> streamed;
        std::vector<double> cached;
        {
            const ScopedStreamLoads forced(StreamLoads::always);
            streamed = test::run_once<double>(d, 2.0, x, -1.0, y0);
        }
        {
            const ScopedStreamLoads forced(StreamLoads::never);
            cached = test::run_once<double>(d, 2.0, x, -1.0, y0);
        }
        CHECK(streamed == cached);
        // Row sums of the 7-point Laplacian are 6 - (neighbours): 0 inside, 3 at a corner.
        CHECK(streamed[interior] == 2.0 * 0.0 - 0.5);
        CHECK(streamed[0] == 2.0 * 3.0 - 0.5);
    }
}
