// [gpu] The row permutation kernels used by the permuted formats.
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/gpu/memory.hpp>
#include <spmv/gpu/permutation.hpp>

using namespace spmv::gpu;

TEST_CASE("permute_rows and unpermute_rows are inverse scatters/gathers", "[gpu][permutation]")
{
    const std::int32_t n = 1000;
    std::vector<std::int32_t> perm(n);
    for (std::int32_t k = 0; k < n; ++k) {
        perm[k] = (k * 377 + 11) % n;  // 377 is coprime with 1000: a permutation
    }
    std::vector<double> y(n);
    for (std::int32_t i = 0; i < n; ++i) {
        y[i] = 0.5 * i;
    }
    auto dperm = DeviceBuffer<std::int32_t>::from_host(perm);
    auto dy = DeviceBuffer<double>::from_host(y);
    DeviceBuffer<double> dp(n);
    DeviceBuffer<double> back(n);

    permute_rows(dperm.data(), dy.data(), dp.data(), n);
    unpermute_rows(dperm.data(), dp.data(), back.data(), n);
    const auto p = dp.to_host();

    for (std::int32_t k = 0; k < n; ++k) {
        REQUIRE(p[k] == y[perm[k]]);  // y_permuted[k] is row perm[k]
    }
    CHECK(back.to_host() == y);
}
