// [gpu] DeviceVector: the host/device validity state and its transfer counters.
#include <span>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/gpu/device_matrix.hpp>
#include <spmv/gpu/device_vector.hpp>
#include <spmv/gpu/memory.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/registry.hpp>

#include "test_matrices.hpp"

using namespace spmv;
using namespace spmv::gpu;

TEST_CASE("DeviceVector::on_device has no host image until the host asks", "[gpu][vector]")
{
    auto v = DeviceVector<double>::on_device(4);
    CHECK(v.size() == 4);
    CHECK(v.valid() == DeviceVector<double>::Valid::device);

    auto h = v.host_for_overwrite();  // the host image appears, sized, for writing
    REQUIRE(h.size() == 4);
    for (std::size_t i = 0; i < 4; ++i) h[i] = static_cast<double>(i + 1);
    v.read_device();
    CHECK(v.bytes_to_device() == 32);

    v.set_dev();
    const auto r = v.read_host();
    CHECK(std::vector<double>(r.begin(), r.end()) == std::vector<double>{1, 2, 3, 4});
    CHECK(v.copies_to_host() == 1);

    auto w = DeviceVector<float>::on_device(3);  // read back without ever touching the host
    // written on the device first (on_device leaves it uninitialised: reading that back is
    // what compute-sanitizer's initcheck reports)
    spmv::gpu::detail::memset_bytes(w.device_for_overwrite(), 0, 3 * sizeof(float));
    const auto z = w.read_host();
    CHECK(std::vector<float>(z.begin(), z.end()) == std::vector<float>{0, 0, 0});
    CHECK(w.bytes_to_host() == 12);
}

TEST_CASE("DeviceVector::uploaded and copy_to move data without a host image", "[gpu][vector]")
{
    const std::vector<double> h = {5, 6, 7};
    auto v = DeviceVector<double>::uploaded(h);
    CHECK(v.valid() == DeviceVector<double>::Valid::device);
    CHECK(v.copies_to_device() == 1);
    CHECK(v.bytes_to_device() == 24);
    v.read_device();  // already there: no second copy
    CHECK(v.copies_to_device() == 1);

    std::vector<double> out(3, 0.0);
    v.copy_to(out);
    CHECK(out == h);
    CHECK(v.bytes_to_host() == 24);
    CHECK(v.valid() == DeviceVector<double>::Valid::device);  // no host image was made

    std::vector<double> wrong(2);
    CHECK_THROWS_AS(v.copy_to(wrong), InvalidArgument);

    DeviceVector<double> on_host(h);  // host image valid: copy_to copies on the host
    std::vector<double> out2(3, 0.0);
    on_host.copy_to(out2);
    CHECK(out2 == h);
    CHECK(on_host.bytes_to_host() == 0);
}

TEST_CASE("DeviceVector copies only when the requested image is stale", "[gpu][vector]")
{
    const std::vector<double> h = {1, 2, 3, 4};
    DeviceVector<double> v(h);
    REQUIRE(v.is_host());
    REQUIRE_FALSE(v.is_device());

    v.read_device();
    v.read_device();
    CHECK(v.copies_to_device() == 1);
    CHECK(v.bytes_to_device() == 32);
    CHECK(v.valid() == DeviceVector<double>::Valid::both);

    v.device();  // write access on the device: host image now stale
    CHECK_FALSE(v.is_host());
    CHECK(v.copies_to_device() == 1);

    const auto r = v.read_host();
    v.read_host();
    CHECK(v.copies_to_host() == 1);
    CHECK(v.bytes_to_host() == 32);
    CHECK(std::vector<double>(r.begin(), r.end()) == h);

    v.host()[2] = 30.0;  // write access on the host: device image stale
    v.sync();            // Barbieri's sync(): copies host -> device, once
    v.sync();
    CHECK(v.copies_to_device() == 2);
    v.device_for_overwrite();  // an output: no copy at all
    CHECK(v.copies_to_device() == 2);
    v.reset_counters();
    CHECK(v.bytes_to_device() == 0);
}

TEST_CASE("SpMV on DeviceVectors moves x once, never uploads y for beta == 0", "[gpu][vector]")
{
    const auto a = test::random_csr(500, 400, 0, 12, 3);
    const auto dev = prepare<double>("csr", a);
    DeviceVector<double> x(test::random_vector(400, 1));
    DeviceVector<double> y(std::vector<double>(500, 99.0));

    for (int k = 0; k < 3; ++k) {
        dev.spmv(2.0, x, 0.0, y);
    }
    const auto got = y.read_host();

    CHECK(x.copies_to_device() == 1);
    CHECK(x.bytes_to_device() == 400 * sizeof(double));
    CHECK(y.copies_to_device() == 0);  // beta == 0: y is an output only
    CHECK(y.copies_to_host() == 1);
    std::vector<double> expected(500);
    const auto xs = test::random_vector(400, 1);
    spmv_reference(a, 2.0, std::span<const double>(xs), 0.0, std::span<double>(expected));
    CHECK(test::relative_error(std::vector<double>(got.begin(), got.end()), expected) < 1e-14);
}

TEST_CASE("SpMV with beta != 0 uploads y once, then keeps it on the device", "[gpu][vector]")
{
    const auto a = test::random_csr(300, 300, 1, 8, 4);
    const auto dev = prepare<float>("ell", convert_values<float>(a));
    DeviceVector<float> x(std::vector<float>(300, 1.0f));
    DeviceVector<float> y(std::vector<float>(300, 1.0f));

    dev.spmv(1.0f, x, 0.5f, y);
    dev.spmv(1.0f, x, 0.5f, y);

    CHECK(y.copies_to_device() == 1);
    CHECK(y.copies_to_host() == 0);
    CHECK_FALSE(y.is_host());
    DeviceVector<float> too_short(299);
    CHECK_THROWS_AS(dev.spmv(1.0f, too_short, 0.5f, y), DimensionMismatch);
}
