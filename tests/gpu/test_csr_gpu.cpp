// [gpu] CSR scalar and CSR vector through the typed API (spmv/gpu/csr.hpp).
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/gpu/csr.hpp>

#include "gpu_test_matrices.hpp"

using namespace spmv;
using namespace spmv::gpu;

TEST_CASE("CSR vector picks the sub-warp from half the mean row length", "[gpu][csr]")
{
    CHECK(csr_vector_threads_per_row(0.0) == 2);
    CHECK(csr_vector_threads_per_row(4.0) == 2);
    CHECK(csr_vector_threads_per_row(4.1) == 4);
    CHECK(csr_vector_threads_per_row(6.94) == 4);  // pde100
    CHECK(csr_vector_threads_per_row(16.0) == 8);
    CHECK(csr_vector_threads_per_row(32.0) == 16);
    CHECK(csr_vector_threads_per_row(33.0) == 32);
    CHECK(csr_vector_threads_per_row(5000.0) == 32);
}

TEST_CASE("CSR scalar and every CSR vector sub-warp agree with the reference", "[gpu][csr]")
{
    const auto a = test::one_long_row(2000, 1500, 31);  // empty rows, one row of 2000
    const auto x = test::random_vector(2000, 32);
    const auto y0 = test::random_vector(2000, 33);
    std::vector<double> expected = y0;
    spmv_reference(a, 1.5, std::span<const double>(x), -0.25, std::span<double>(expected));
    const auto d = upload(a);
    auto dx = DeviceBuffer<double>::from_host(x);

    for (const CsrLaunch launch :
         {CsrLaunch{CsrKernel::scalar, 0}, CsrLaunch{CsrKernel::vector, 0},
          CsrLaunch{CsrKernel::vector, 2}, CsrLaunch{CsrKernel::vector, 4},
          CsrLaunch{CsrKernel::vector, 8}, CsrLaunch{CsrKernel::vector, 16},
          CsrLaunch{CsrKernel::vector, 32}}) {
        INFO("threads per row " << launch.threads_per_row);
        auto dy = DeviceBuffer<double>::from_host(y0);
        gpu::spmv(d, 1.5, dx.data(), -0.25, dy.data(), launch);
        CHECK(test::relative_error(dy.to_host(), expected) < 1e-14);
    }
    auto dy = DeviceBuffer<double>::from_host(y0);
    CHECK_THROWS_AS(gpu::spmv(d, 1.0, dx.data(), 0.0, dy.data(), CsrLaunch{CsrKernel::vector, 3}),
                    InvalidArgument);
    CHECK(d.device_bytes() == (2001 + 2 * a.values.size()) * 4 + 4 * a.values.size());
}

// Hidden (run by scripts/device_check.sh): CSR vector time for every sub-warp size, to check
// the mean-row-length heuristic. Warm timing (back-to-back), mean of 50 after 5 warm-ups.
TEST_CASE("CSR vector sub-warp sweep", "[.][gpu][csr-vector-sweep]")
{
    const std::vector<test::NamedMatrix> mats = {
        {"pde100 (mean 6.9)", test::pde7(100)},
        {"irregular 1M (mean 16)", test::random_irregular(1000000, 1000000, 32, 71)},
        {"irregular 100k (mean 128)", test::random_irregular(100000, 100000, 256, 72)}};
    for (const auto& m : mats) {
        const auto d = upload(m.a);
        auto x = DeviceBuffer<double>::from_host(test::random_vector(m.a.num_cols, 73));
        DeviceBuffer<double> y(static_cast<std::size_t>(m.a.num_rows));
        std::printf("%-28s heuristic %2d:", m.name.c_str(),
                    csr_vector_threads_per_row(d.mean_row_length));
        for (int t : {0, 2, 4, 8, 16, 32}) {
            const CsrLaunch launch{t == 0 ? CsrKernel::scalar : CsrKernel::vector, t};
            for (int k = 0; k < 5; ++k) {
                gpu::spmv(d, 1.0, x.data(), 0.0, y.data(), launch);
            }
            GpuTimer timer;
            timer.start();
            for (int k = 0; k < 50; ++k) {
                gpu::spmv(d, 1.0, x.data(), 0.0, y.data(), launch);
            }
            timer.stop();
            const double us = 1e3 * timer.elapsed_ms() / 50.0;
            std::printf("  %s %.1f us (%.0f GF/s)", t == 0 ? "scalar" : std::to_string(t).c_str(),
                        us, 2.0 * static_cast<double>(m.a.values.size()) / us / 1e3);
        }
        std::printf("\n");
    }
    SUCCEED();
}
