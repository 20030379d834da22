// [gpu] The device BLAS-1 of the distributed SpMV and CG (spmv/gpu/vector_ops.hpp) against host
// loops, in float and double, on n = 0, 1, 31, 1000 and 2^20 + 3: gather (repeated, reversed
// indices), xpay, axpy, multiply, the four mixed-precision conversions, and DotEngine's dot2,
// dot and cg_update, whose sums must be bitwise reproducible.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/error.hpp>
#include <spmv/gpu/memory.hpp>
#include <spmv/gpu/vector_ops.hpp>

using namespace spmv::gpu;

namespace {

template <typename V>
std::vector<V> random_vector(std::int64_t n, unsigned seed, double lo = -1.0, double hi = 1.0)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> dist(lo, hi);
    std::vector<V> v(static_cast<std::size_t>(n));
    for (auto& e : v) {
        e = static_cast<V>(dist(gen));
    }
    return v;
}

template <typename V>
DeviceBuffer<V> upload(const std::vector<V>& h)
{
    return DeviceBuffer<V>::from_host(h);
}

/// A few units in the last place of V, relative to max(1, |want|) (the inputs are in [-1, 1]);
/// enough for the device's fused multiply-adds against the host's separate operations.
template <typename V>
constexpr double ulps = std::is_same_v<V, float> ? 1e-6 : 1e-14;

/// How many entries of got differ from want by more than ulps<V>.
template <typename V>
std::size_t count_far(const std::vector<V>& got, const std::vector<V>& want)
{
    REQUIRE(got.size() == want.size());
    std::size_t far = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double w = static_cast<double>(want[i]);
        if (!(std::abs(static_cast<double>(got[i]) - w) <= ulps<V> * std::max(1.0, std::abs(w)))) {
            ++far;
        }
    }
    return far;
}

/// sum_i a_i b_i in long double, and sum_i |a_i b_i| (the scale of its rounding error).
template <typename V>
std::pair<double, double> host_dot(const std::vector<V>& a, const std::vector<V>& b)
{
    long double s = 0;
    long double abs_sum = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const long double t = static_cast<long double>(a[i]) * static_cast<long double>(b[i]);
        s += t;
        abs_sum += std::abs(t);
    }
    return {static_cast<double>(s), static_cast<double>(abs_sum)};
}

/// A device sum against the host's: a double sum of at most 2^20 + 3 terms, far inside 1e-12
/// of the sum of the terms' magnitudes.
void check_sum(double got, std::pair<double, double> want)
{
    CHECK(std::abs(got - want.first) <= 1e-12 * want.second);
}

std::uint64_t bits(double d)
{
    return std::bit_cast<std::uint64_t>(d);
}

std::int64_t test_size()
{
    return GENERATE(as<std::int64_t>{}, 0, 1, 31, 1000, (1 << 20) + 3);
}

/// convert_scaled and add_scaled for one (From, To) pair, against host loops.
template <typename From, typename To>
void check_conversions(std::int64_t n)
{
    const double s = 0.375;
    const auto src = random_vector<From>(n, 11);
    const auto old = random_vector<To>(n, 12);
    std::vector<To> converted(src.size());
    std::vector<To> added(src.size());
    for (std::size_t i = 0; i < src.size(); ++i) {
        converted[i] = static_cast<To>(s * static_cast<double>(src[i]));
        added[i] = old[i] + static_cast<To>(s * static_cast<double>(src[i]));
    }
    auto d_src = upload(src);
    DeviceBuffer<To> d_conv(src.size());
    auto d_add = upload(old);

    convert_scaled(d_src.data(), s, d_conv.data(), n);
    add_scaled(d_src.data(), s, d_add.data(), n);

    CHECK(d_conv.to_host() == converted);  // one product in double, one rounding: exact
    CHECK(count_far(d_add.to_host(), added) == 0);
}

}  // namespace

TEMPLATE_TEST_CASE("gather copies src at a repeated and reversed index list", "[gpu][vector_ops]",
                   float, double)
{
    using V = TestType;
    const std::int64_t n = test_size();
    const auto src = random_vector<V>(n, 1);
    std::vector<std::int32_t> idx(src.size());
    for (std::int64_t i = 0; i < n; ++i) {
        idx[static_cast<std::size_t>(i)] = static_cast<std::int32_t>((n - 1 - i) / 2);
    }
    std::vector<V> want(src.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        want[i] = src[static_cast<std::size_t>(idx[i])];
    }
    auto d_src = upload(src);
    auto d_idx = DeviceBuffer<std::int32_t>::from_host(idx);
    DeviceBuffer<V> d_dst(src.size());

    gather(d_src.data(), d_idx.data(), n, d_dst.data());

    CHECK(d_dst.to_host() == want);
}

TEMPLATE_TEST_CASE("xpay, axpy and multiply match host loops", "[gpu][vector_ops]", float, double)
{
    using V = TestType;
    const std::int64_t n = test_size();
    const double a = -0.75;
    const auto x = random_vector<V>(n, 2);
    const auto y = random_vector<V>(n, 3);
    std::vector<V> xpay_want(x.size());
    std::vector<V> axpy_want(x.size());
    std::vector<V> mul_want(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        xpay_want[i] = x[i] + static_cast<V>(a) * y[i];
        axpy_want[i] = y[i] + static_cast<V>(a) * x[i];
        mul_want[i] = x[i] * y[i];
    }
    auto d_x = upload(x);
    auto d_xpay = upload(y);
    auto d_axpy = upload(y);
    auto d_y = upload(y);
    DeviceBuffer<V> d_mul(x.size());
    const Stream stream;

    xpay(d_x.data(), a, d_xpay.data(), n);
    axpy(a, d_x.data(), d_axpy.data(), n, stream);
    multiply(d_x.data(), d_y.data(), d_mul.data(), n, stream);
    stream.synchronize();

    CHECK(count_far(d_xpay.to_host(), xpay_want) == 0);
    CHECK(count_far(d_axpy.to_host(), axpy_want) == 0);
    CHECK(d_mul.to_host() == mul_want);  // one rounding on both sides: exact
}

TEST_CASE("convert_scaled and add_scaled match host loops for every precision pair",
          "[gpu][vector_ops]")
{
    const std::int64_t n = test_size();

    check_conversions<double, float>(n);
    check_conversions<float, double>(n);
    check_conversions<float, float>(n);
    check_conversions<double, double>(n);
}

TEST_CASE("a zero length launches nothing and accepts null vectors", "[gpu][vector_ops]")
{
    DotEngine<double> dots;

    gather<double>(nullptr, nullptr, 0, nullptr);
    xpay<float>(nullptr, 2.0, nullptr, 0);
    axpy<double>(2.0, nullptr, nullptr, 0);
    multiply<float>(nullptr, nullptr, nullptr, 0);
    convert_scaled<double, float>(nullptr, 2.0, nullptr, 0);
    add_scaled<float, double>(nullptr, 2.0, nullptr, 0);
    const auto d2 = dots.dot2(nullptr, nullptr, nullptr, nullptr, 0);
    const auto cg = dots.cg_update(1.0, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0);
    synchronize();

    CHECK(d2 == std::array<double, 2>{0.0, 0.0});
    CHECK(cg == std::array<double, 2>{0.0, 0.0});
    CHECK_THROWS_AS(xpay<double>(nullptr, 1.0, nullptr, -1), spmv::InvalidArgument);
}

TEMPLATE_TEST_CASE("DotEngine dot2 and dot sum in double and repeat bit for bit",
                   "[gpu][vector_ops]", float, double)
{
    using V = TestType;
    const std::int64_t n = test_size();
    const auto x = random_vector<V>(n, 4);
    const auto y = random_vector<V>(n, 5);
    const auto u = random_vector<V>(n, 6);
    const auto v = random_vector<V>(n, 7);
    auto d_x = upload(x);
    auto d_y = upload(y);
    auto d_u = upload(u);
    auto d_v = upload(v);
    DotEngine<V> dots;
    const Stream stream;

    const auto first = dots.dot2(d_x.data(), d_y.data(), d_u.data(), d_v.data(), n, stream);
    const auto second = dots.dot2(d_x.data(), d_y.data(), d_u.data(), d_v.data(), n, stream);
    const auto single = dots.dot2(d_x.data(), d_y.data(), nullptr, nullptr, n);
    const double xy = dots.dot(d_x.data(), d_y.data(), n);
    const double xy_again = dots.dot(d_x.data(), d_y.data(), n, stream);

    check_sum(first[0], host_dot(x, y));
    check_sum(first[1], host_dot(u, v));
    CHECK(bits(first[0]) == bits(second[0]));
    CHECK(bits(first[1]) == bits(second[1]));
    CHECK(single[1] == 0.0);
    CHECK(bits(single[0]) == bits(xy));
    CHECK(bits(xy) == bits(xy_again));
    check_sum(xy, host_dot(x, y));
}

TEMPLATE_TEST_CASE("DotEngine sums do not depend on the alignment of the vectors",
                   "[gpu][vector_ops]", float, double)
{
    using V = TestType;
    const std::int64_t n = GENERATE(as<std::int64_t>{}, 2, 32, 1001, (1 << 20) + 4);
    const auto x = random_vector<V>(n, 8);
    const auto y = random_vector<V>(n, 9);
    const std::vector<V> x_tail(x.begin() + 1, x.end());
    const std::vector<V> y_tail(y.begin() + 1, y.end());
    auto d_x = upload(x);
    auto d_y = upload(y);
    auto d_x_tail = upload(x_tail);
    auto d_y_tail = upload(y_tail);
    DotEngine<V> dots;

    // one element past a 256-byte aligned start: not 16-byte aligned, element loads
    const auto shifted =
        dots.dot2(d_x.data() + 1, d_y.data() + 1, d_y.data() + 1, d_x.data() + 1, n - 1);
    const auto aligned =
        dots.dot2(d_x_tail.data(), d_y_tail.data(), d_y_tail.data(), d_x_tail.data(), n - 1);

    CHECK(bits(shifted[0]) == bits(aligned[0]));
    CHECK(bits(shifted[1]) == bits(aligned[1]));
    check_sum(aligned[0], host_dot(x_tail, y_tail));
}

TEMPLATE_TEST_CASE("DotEngine cg_update updates x, r and z and returns r.r and r.z",
                   "[gpu][vector_ops]", float, double)
{
    using V = TestType;
    const std::int64_t n = test_size();
    const bool jacobi = GENERATE(true, false);
    const double alpha = 0.625;
    const auto p = random_vector<V>(n, 21);
    const auto q = random_vector<V>(n, 22);
    const auto x0 = random_vector<V>(n, 23);
    const auto r0 = random_vector<V>(n, 24);
    const auto inv_diag = random_vector<V>(n, 25, 0.5, 2.0);
    auto x_want = x0;
    auto r_want = r0;
    std::vector<V> z_want(x0.size());
    const auto a = static_cast<V>(alpha);
    for (std::size_t i = 0; i < x0.size(); ++i) {
        x_want[i] += a * p[i];
        r_want[i] -= a * q[i];
        z_want[i] = inv_diag[i] * r_want[i];
    }
    auto d_p = upload(p);
    auto d_q = upload(q);
    auto d_d = upload(inv_diag);
    DotEngine<V> dots;
    // one update from (x0, r0): the vectors it leaves behind and the sums it returns
    auto run = [&] {
        auto d_x = upload(x0);
        auto d_r = upload(r0);
        DeviceBuffer<V> d_z(x0.size());
        const auto sums =
            dots.cg_update(alpha, d_p.data(), d_q.data(), d_x.data(), d_r.data(),
                           jacobi ? d_d.data() : nullptr, jacobi ? d_z.data() : nullptr, n);
        return std::make_tuple(sums, d_x.to_host(), d_r.to_host(),
                               jacobi ? d_z.to_host() : std::vector<V>{});
    };

    const auto [sums, x, r, z] = run();
    const auto [sums_again, x_again, r_again, z_again] = run();

    CHECK(count_far(x, x_want) == 0);
    CHECK(count_far(r, r_want) == 0);
    check_sum(sums[0], host_dot(r, r));  // r as the device left it: only the sum's rounding
    if (jacobi) {
        CHECK(count_far(z, z_want) == 0);
        check_sum(sums[1], host_dot(r, z));
    } else {
        CHECK(bits(sums[1]) == bits(sums[0]));
    }
    CHECK(bits(sums[0]) == bits(sums_again[0]));
    CHECK(bits(sums[1]) == bits(sums_again[1]));
    CHECK(x == x_again);
    CHECK(r == r_again);
    CHECK(z == z_again);
}

TEST_CASE("a moved-from DotEngine refuses work and the moved-to one runs", "[gpu][vector_ops]")
{
    const std::vector<double> x{1.0, 2.0, 3.0};
    auto d_x = upload(x);
    DotEngine<double> a;

    DotEngine<double> b = std::move(a);
    const double xx = b.dot(d_x.data(), d_x.data(), 3);

    CHECK(xx == 14.0);
    CHECK(static_cast<bool>(b));
    CHECK_FALSE(static_cast<bool>(a));  // NOLINT(bugprone-use-after-move): specified empty
    CHECK_THROWS_AS(a.dot(d_x.data(), d_x.data(), 3), spmv::InvalidArgument);
}

TEMPLATE_TEST_CASE("scatter_add adds into every other entry in reversed order", "[gpu][vector_ops]",
                   float, double)
{
    using V = TestType;
    const std::int64_t m = 4099;  // destination entries
    const auto dst0 = random_vector<V>(m, 3);
    const std::int64_t n = (m + 1) / 2;
    const auto src = random_vector<V>(n, 4);
    std::vector<std::int32_t> idx(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
        idx[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(m - 1 - 2 * i);
    }
    auto want = dst0;
    for (std::size_t i = 0; i < idx.size(); ++i) {
        want[static_cast<std::size_t>(idx[i])] += src[i];
    }
    auto d_src = upload(src);
    auto d_idx = DeviceBuffer<std::int32_t>::from_host(idx);
    auto d_dst = upload(dst0);

    scatter_add(d_src.data(), d_idx.data(), n, d_dst.data());

    CHECK(d_dst.to_host() == want);
}
