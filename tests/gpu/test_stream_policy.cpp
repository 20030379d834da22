// The per-launch choice of the matrix arrays' load kind (spmv/gpu/stream_loads.hpp) on the
// device: every GPU variant with each kind forced, so that both instantiations of the
// slice/column-major kernels are checked (with the default rule the small test matrices would
// only ever take the read-only one). The parsing, the rule and the decision log, which need no
// device, are tested in tests/kernels/test_stream_loads.cpp (run in every build).
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
#include "stream_loads_scope.hpp"

using namespace spmv;
using namespace spmv::gpu;
using spmv::test::ScopedStreamLoads;

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
