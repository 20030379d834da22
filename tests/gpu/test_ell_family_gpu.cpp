// [gpu] ELLPACK, ELLPACK-R, ELLG and HYB through their typed APIs.
#include <cmath>
#include <span>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/formats/ell.hpp>
#include <spmv/formats/ellg.hpp>
#include <spmv/formats/ellr.hpp>
#include <spmv/formats/hyb.hpp>
#include <spmv/gpu/ell.hpp>
#include <spmv/gpu/ellg.hpp>
#include <spmv/gpu/ellr.hpp>
#include <spmv/gpu/hyb.hpp>

#include "gpu_test_matrices.hpp"

using namespace spmv;
using namespace spmv::gpu;

namespace {

template <typename DeviceFmt>
std::vector<double> run(const DeviceFmt& d, double alpha, double beta, const std::vector<double>& x,
                        const std::vector<double>& y0)
{
    auto dx = DeviceBuffer<double>::from_host(x);
    auto dy = DeviceBuffer<double>::from_host(y0);
    gpu::spmv(d, alpha, dx.data(), beta, dy.data());
    return dy.to_host();
}

struct Case {
    Csr<double, std::int32_t> a = test::random_csr(1000, 700, 0, 30, 51);  // > warp, empty rows
    std::vector<double> x = test::random_vector(700, 52);
    std::vector<double> y0 = test::random_vector(1000, 53);
    std::vector<double> expected(double alpha, double beta) const
    {
        auto e = y0;
        spmv_reference(a, alpha, std::span<const double>(x), beta, std::span<double>(e));
        return e;
    }
};

}  // namespace

TEST_CASE("ELL computes its padding and matches the reference", "[gpu][ell]")
{
    const Case c;
    const auto d = upload(to_ell(c.a));

    CHECK(test::relative_error(run(d, 0.5, 2.0, c.x, c.y0), c.expected(0.5, 2.0)) < 1e-14);
    CHECK(test::relative_error(run(d, 0.5, 0.0, c.x, std::vector<double>(1000, std::nan(""))),
                               c.expected(0.5, 0.0)) < 1e-14);
    CHECK(d.width == to_ell(c.a).width);
}

TEST_CASE("ELLPACK-R stops at the row length and matches the reference", "[gpu][ellr]")
{
    const Case c;
    const auto d = upload(to_ellr(c.a));

    CHECK(test::relative_error(run(d, -1.0, 0.25, c.x, c.y0), c.expected(-1.0, 0.25)) < 1e-14);
    CHECK(d.row_lengths.size() == 1000);
}

TEST_CASE("ELLG works for every pitch, odd and even row lengths", "[gpu][ellg]")
{
    const Case c;
    for (int pitch : {4, 64, 128, 256}) {
        INFO("pitch " << pitch);
        const auto h = to_ellg(c.a, EllGOptions{pitch});
        const auto d = upload(h);
        CHECK(d.stride == h.stride);
        CHECK(test::relative_error(run(d, 1.0, -0.5, c.x, c.y0), c.expected(1.0, -0.5)) < 1e-14);
    }
}

TEST_CASE("HYB adds its COO part after the ELL part, for any width K", "[gpu][hyb]")
{
    const Case c;
    for (int k : {-1, 0, 1, 5, 1000}) {
        INFO("K " << k);
        const auto d = upload(to_hyb(c.a, HybOptions{k}));
        CHECK(test::relative_error(run(d, 1.0, 0.5, c.x, c.y0), c.expected(1.0, 0.5)) < 1e-14);
        CHECK(test::relative_error(run(d, 1.0, 0.0, c.x, std::vector<double>(1000, std::nan(""))),
                                   c.expected(1.0, 0.0)) < 1e-14);
    }
}
