// [gpu] Distributed CG's device steps (spmv/gpu/dist_cg.hpp) on one GPU, without NCCL (one rank:
// the sums are already the totals), against what the MPI backend computes with DotEngine and the
// host's cg_step.hpp: the same sums and the same vectors to the last bit, the same scalars, and
// every step a no-op once the stop flag is set.
#include <array>
#include <bit>
#include <cstdint>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/gpu/dist_cg.hpp>
#include <spmv/gpu/memory.hpp>
#include <spmv/gpu/vector_ops.hpp>
#include <spmv/solvers/cg_step.hpp>

using namespace spmv;
using namespace spmv::gpu;

namespace {

template <typename V>
std::vector<V> random_vector(std::int64_t n, unsigned seed)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    std::vector<V> v(static_cast<std::size_t>(n));
    for (auto& e : v) {
        e = static_cast<V>(dist(gen));
    }
    return v;
}

template <typename V>
std::array<double, 2> read_sums(DistCgSteps<V>& s)
{
    std::array<double, 2> h{};
    detail::copy_bytes(h.data(), s.sums(), sizeof h, detail::CopyKind::device_to_host);
    return h;
}

}  // namespace

TEMPLATE_TEST_CASE("Distributed CG's device steps match DotEngine and the host's scalar steps "
                   "to the last bit",
                   "[gpu][nccl]", float, double)
{
    using V = TestType;
    for (std::int64_t n : {std::int64_t{1}, std::int64_t{1000}, (std::int64_t{1} << 20) + 3}) {
        INFO("n = " << n);
        const auto p_h = random_vector<V>(n, 1);
        // q = p (2 + e / 100): p.q > 0, as for an SPD A
        auto q_h = random_vector<V>(n, 2);
        for (std::size_t i = 0; i < q_h.size(); ++i) {
            q_h[i] = p_h[i] * (V{2} + q_h[i] / V{100});
        }
        const auto x_h = random_vector<V>(n, 3);
        const auto r_h = random_vector<V>(n, 4);
        std::vector<V> d_h(static_cast<std::size_t>(n), V{0.5});
        Stream stream;
        DotEngine<V> dots;
        DistCgSteps<V> steps(4);

        // Arrange: the MPI backend's way (DotEngine sums, scalars on the host)
        auto p = DeviceBuffer<V>::from_host(p_h);
        auto q = DeviceBuffer<V>::from_host(q_h);
        auto x1 = DeviceBuffer<V>::from_host(x_h);
        auto r1 = DeviceBuffer<V>::from_host(r_h);
        auto x2 = DeviceBuffer<V>::from_host(x_h);
        auto r2 = DeviceBuffer<V>::from_host(r_h);
        auto d = DeviceBuffer<V>::from_host(d_h);
        DeviceBuffer<V> z1(static_cast<std::size_t>(n));
        DeviceBuffer<V> z2(static_cast<std::size_t>(n));
        auto p1 = DeviceBuffer<V>::from_host(p_h);
        auto p2 = DeviceBuffer<V>::from_host(p_h);
        const double rho = 7.25;
        const solvers::CgLimits limits{1e-300, 1e300, 1, 0};
        solvers::CgScalars host;
        host.rho = rho;
        const auto pq = dots.dot2(p.data(), q.data(), r1.data(), p.data(), n);
        solvers::cg_after_pq(host, pq[0], host.rho);
        REQUIRE(host.stop == solvers::cg_running);
        const auto upd = dots.cg_update(host.alpha, p.data(), q.data(), x1.data(), r1.data(),
                                        d.data(), z1.data(), n);
        solvers::cg_after_update(host, upd[0], upd[1], limits);
        xpay(z1.data(), host.beta, p1.data(), n);

        // Act: the device's way (one rank: the sums need no allreduce)
        steps.begin(rho, limits, stream);
        steps.alpha_sums(p.data(), q.data(), r2.data(), n, stream);
        stream.synchronize();
        const auto dev_pq = read_sums(steps);
        steps.alpha(false, 1, stream);
        steps.update_sums(p.data(), q.data(), x2.data(), r2.data(), d.data(), z2.data(), n,
                          stream);
        stream.synchronize();
        const auto dev_upd = read_sums(steps);
        steps.after_update(1, stream);
        steps.direction(z2.data(), p2.data(), n, stream);
        stream.synchronize();
        const auto rec = steps.record(1);

        // Assert
        CHECK(std::bit_cast<std::uint64_t>(dev_pq[0]) == std::bit_cast<std::uint64_t>(pq[0]));
        CHECK(std::bit_cast<std::uint64_t>(dev_pq[1]) == std::bit_cast<std::uint64_t>(pq[1]));
        CHECK(std::bit_cast<std::uint64_t>(dev_upd[0]) == std::bit_cast<std::uint64_t>(upd[0]));
        CHECK(std::bit_cast<std::uint64_t>(dev_upd[1]) == std::bit_cast<std::uint64_t>(upd[1]));
        CHECK(rec.stop == solvers::cg_running);
        CHECK(rec.alpha == host.alpha);
        CHECK(rec.beta == host.beta);
        CHECK(rec.rho == host.rho);
        CHECK(rec.rr == host.rr);
        CHECK(x2.to_host() == x1.to_host());
        CHECK(r2.to_host() == r1.to_host());
        CHECK(z2.to_host() == z1.to_host());
        CHECK(p2.to_host() == p1.to_host());
    }
}

TEST_CASE("Distributed CG's device steps do nothing once an iteration stopped", "[gpu][nccl]")
{
    const std::int64_t n = 4096;
    const auto p_h = random_vector<double>(n, 5);
    const auto x_h = random_vector<double>(n, 6);
    auto p = DeviceBuffer<double>::from_host(p_h);
    auto q = DeviceBuffer<double>::from_host(p_h);
    auto x = DeviceBuffer<double>::from_host(x_h);
    auto r = DeviceBuffer<double>::from_host(x_h);
    Stream stream;
    DistCgSteps<double> steps(2);

    // Arrange: p.q = -|p|^2 < 0 (q = -p): the first alpha step stops (not positive definite)
    gpu::xpay(p.data(), -2.0, q.data(), n, stream);  // q = p - 2 q = -p
    steps.begin(1.0, {1e-300, 1e300, 0, 0}, stream);
    steps.alpha_sums(p.data(), q.data(), nullptr, n, stream);
    steps.alpha(false, 0, stream);

    // Act: the rest of the iteration and the next one, as the solver queues them
    steps.update_sums(p.data(), q.data(), x.data(), r.data(), nullptr, nullptr, n, stream);
    steps.after_update(0, stream);
    steps.direction(r.data(), p.data(), n, stream);
    steps.alpha_sums(p.data(), q.data(), nullptr, n, stream);
    steps.alpha(false, 1, stream);
    stream.synchronize();

    // Assert: stopped at p.q <= 0, x, r and p untouched
    const auto rec = steps.record(0);
    CHECK(rec.stop == solvers::cg_stop_pq);
    CHECK(rec.pq < 0.0);
    CHECK(x.to_host() == x_h);
    CHECK(r.to_host() == x_h);
    CHECK(p.to_host() == p_h);
}
