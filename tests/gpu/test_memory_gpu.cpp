// [gpu] RAII memory, events, errors and the out-of-memory message.
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/gpu/device.hpp>
#include <spmv/gpu/error.hpp>
#include <spmv/gpu/memory.hpp>

using namespace spmv;
using namespace spmv::gpu;

TEST_CASE("DeviceBuffer round-trips host data and fills on the device", "[gpu][memory]")
{
    std::vector<double> h(1000);
    std::iota(h.begin(), h.end(), 0.5);

    auto b = DeviceBuffer<double>::from_host(h);
    const auto back = b.to_host();
    DeviceBuffer<std::int32_t> ints(777);
    ints.fill(-1);
    const auto filled = ints.to_host();

    CHECK(b.size() == 1000);
    CHECK(b.bytes() == 8000);
    CHECK(back == h);
    CHECK(filled == std::vector<std::int32_t>(777, -1));
}

// [api-error]: registers the same memory twice on purpose, a failing CUDA call that
// compute-sanitizer memcheck reports (scripts/gpu_sanitize.sh leaves it out, as [oom]).
TEST_CASE("HostPin page-locks a caller's memory for its lifetime", "[gpu][memory][api-error]")
{
    std::vector<double> h(1 << 20, 1.5);
    {
        HostPin pin(h.data(), h.size() * sizeof(double));
        REQUIRE(pin.pinned());
        // The same memory cannot be registered twice while the first pin lives: this shows
        // that the registration is real (and that a refusal is reported as pinned() == false).
        const HostPin twice(h.data(), h.size() * sizeof(double));
        CHECK_FALSE(twice.pinned());
        // Copies from and to the pinned memory work as usual.
        auto d = DeviceBuffer<double>::from_host(h);
        CHECK(d.to_host() == h);
        HostPin moved = std::move(pin);
        CHECK(moved.pinned());
        CHECK_FALSE(pin.pinned());  // NOLINT(bugprone-use-after-move): moved-from is empty
    }
    // Every pin is gone (unregistered exactly once): the memory can be pinned again.
    const HostPin again(h.data(), h.size() * sizeof(double));
    CHECK(again.pinned());
    CHECK_FALSE(HostPin(h.data(), 0).pinned());  // nothing to pin
}

TEST_CASE("DeviceBuffer is move-only and clone() is an explicit deep copy", "[gpu][memory]")
{
    auto a = DeviceBuffer<float>::from_host(std::vector<float>{1, 2, 3});

    auto c = a.clone();
    auto m = std::move(a);
    c.fill(7.0f);

    CHECK(a.empty());  // NOLINT: moved-from state is specified: empty
    CHECK(a.data() == nullptr);
    CHECK(m.to_host() == std::vector<float>{1, 2, 3});
    CHECK(c.to_host() == std::vector<float>{7, 7, 7});
}

TEST_CASE("an impossible allocation names the format, the bytes needed and the bytes free",
          "[gpu][memory][oom]")
{
    const auto info = memory_info();
    const std::size_t too_much = info.total_bytes + (std::size_t{1} << 30);

    try {
        ensure_device_memory("pjds", too_much);
        FAIL("ensure_device_memory did not throw");
    } catch (const OutOfDeviceMemory& e) {
        const std::string what = e.what();
        INFO(what);
        CHECK(what.find("pjds needs ") != std::string::npos);
        CHECK(what.find(" GiB on the device, ") != std::string::npos);
        CHECK(what.find(" GiB free") != std::string::npos);
        CHECK(e.needed_bytes() == too_much);
        CHECK(e.free_bytes() <= info.total_bytes);
    }
    // cudaMalloc of 8 TiB fails as OutOfDeviceMemory too, and leaves no sticky error behind
    CHECK_THROWS_AS(DeviceBuffer<double>(std::size_t{1} << 40, "huge test buffer"),
                    OutOfDeviceMemory);
    CHECK_THROWS_WITH(DeviceBuffer<double>(std::size_t{1} << 40, "huge test buffer"),
                      Catch::Contains("huge test buffer needs 8192.0 GiB on the device"));
    CHECK_NOTHROW(DeviceBuffer<double>(1024).fill(1.0));
    CHECK_NOTHROW(synchronize());
}

TEST_CASE("CudaError carries the call, the location and the CUDA error name", "[gpu][memory]")
{
    const CudaError e("kernels/src/x.cu", 42, "cudaMalloc(&p, n)", 2, "cudaErrorMemoryAllocation",
                      "out of memory");

    const std::string what = e.what();

    CHECK(what ==
          "kernels/src/x.cu:42: cudaMalloc(&p, n) failed: cudaErrorMemoryAllocation "
          "(out of memory)");
    CHECK(e.code() == 2);
}

TEST_CASE("format_bytes picks a readable unit", "[gpu][memory]")
{
    CHECK(format_bytes(17) == "17 bytes");
    CHECK(format_bytes(3 * 1024) == "3.0 KiB");
    CHECK(format_bytes(512 * 1024 * 1024) == "512.0 MiB");
    CHECK(format_bytes(std::size_t{13207024435}) == "12.3 GiB");
}

TEST_CASE("GpuTimer and Stream time device work", "[gpu][memory]")
{
    DeviceBuffer<double> big(std::size_t{1} << 25);  // 256 MiB
    Stream s;
    GpuTimer t;

    t.start(s);
    big.fill(3.0, s);
    t.stop(s);
    const float ms = t.elapsed_ms();
    s.synchronize();

    CHECK(ms > 0.0f);
    CHECK(ms < 1000.0f);
    CHECK(big.to_host()[12345] == 3.0);
}

TEST_CASE("device_info describes the GPU", "[gpu][memory]")
{
    const auto d = device_info();

    CHECK(!d.name.empty());
    CHECK(d.multiprocessors > 0);
    CHECK(d.l2_cache_bytes > 0);
    CHECK(d.global_memory_bytes > 0);
}
