// `spmvlab dist link`'s measurement (spmv/dist/link_bench.hpp) under mpiexec -n 1..4: every
// rank gets the same report, the times are a median over repetitions of the slowest rank, the
// busiest rank's message count is the chain's, the options are refused alike on every rank, and
// --gpu says why it cannot run on a host without a device. Timings are not compared with each
// other (a larger message is not guaranteed to take longer on a loaded host). The [gpu] case
// runs on a GPU host (mpirun -n 2 build/tests/test_mpi "[link]") and skips visibly elsewhere.
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/dist/comm.hpp>
#include <spmv/dist/link_bench.hpp>
#include <spmv/dist/link_fit.hpp>
#include <spmv/error.hpp>
#include <spmv/gpu/device.hpp>

#include "mpi_test_support.hpp"

using namespace spmv;
using namespace spmv::dist;
using spmv::test::world;

namespace {

/// Every number and name of a measurement, bit for bit (hexfloat).
std::string fingerprint(const LinkMeasurement& m)
{
    std::ostringstream s;
    s << std::hexfloat << m.ranks << '|' << m.distinct_hosts << '|' << m.messages << '|'
      << m.repeat << '|' << m.warmup << '|' << m.gpu << '|' << m.devices << '|';
    for (const auto& h : m.hosts) s << h << ',';
    for (const auto& r : m.sizes) {
        s << r.message_bytes << ':';
        for (const auto* t : {&r.exchange, &r.d2h, &r.h2d, &r.staged}) {
            s << t->median_us << ',' << t->min_us << ';';
        }
    }
    return s.str();
}

/// The same report on every rank (rank 0's fingerprint against each rank's). Collective.
void check_same_everywhere(const LinkMeasurement& m)
{
    const auto all = world().allgather(fingerprint(m));
    for (std::size_t r = 1; r < all.size(); ++r) {
        INFO("rank " << r);
        CHECK(all[r] == all[0]);
    }
}

LinkBenchOptions small(bool gpu = false)
{
    LinkBenchOptions o;
    o.sizes = {8, 4096, 65536};
    o.repeat = 5;
    o.warmup = 1;
    o.gpu = gpu;
    return o;
}

}  // namespace

TEST_CASE("dist link gives every rank the same report of the chain exchange", "[link]")
{
    const auto& comm = world();
    if (comm.size() < 2) {
        // one rank: nothing to exchange, refused with the reason
        CHECK_THROWS_WITH(measure_link(comm, small()),
                          Catch::Contains("needs at least 2 ranks"));
        return;
    }

    const auto m = measure_link(comm, small());

    check_same_everywhere(m);
    CHECK(m.ranks == comm.size());
    REQUIRE(m.hosts.size() == static_cast<std::size_t>(comm.size()));
    CHECK(m.hosts[static_cast<std::size_t>(comm.rank())] == comm.processor_name());
    CHECK(m.distinct_hosts >= 1);
    CHECK(m.distinct_hosts <= comm.size());
    // the busiest rank's messages, counted by hand: 1 on 2 ranks, 2 (a middle rank) on 3 or 4
    CHECK(m.messages == (comm.size() == 2 ? 1 : 2));
    CHECK(m.repeat == 5);
    CHECK(m.warmup == 1);
    CHECK_FALSE(m.gpu);
    REQUIRE(m.sizes.size() == 3);
    const std::vector<std::int64_t> sizes = {8, 4096, 65536};
    for (std::size_t i = 0; i < m.sizes.size(); ++i) {
        const auto& r = m.sizes[i];
        INFO("size " << r.message_bytes);
        CHECK(r.message_bytes == sizes[i]);
        CHECK(r.exchange.min_us > 0.0);
        CHECK(r.exchange.median_us >= r.exchange.min_us);
        CHECK(r.d2h.median_us == 0.0);  // not measured without --gpu
        CHECK(r.staged.median_us == 0.0);
    }
    // the fit takes the medians whatever they are (its sign is the noise's business)
    std::vector<LinkSample> samples;
    for (const auto& r : m.sizes) samples.push_back({r.message_bytes, r.exchange.median_us});
    const auto f = fit_link(samples, m.messages);
    CHECK(f.residual_us.size() == 3);
    CHECK(std::isfinite(f.latency_us));
}

TEST_CASE("dist link refuses bad options on every rank before it exchanges", "[link]")
{
    const auto& comm = world();
    auto odd = small();
    odd.sizes = {8, 12};
    auto none = small();
    none.sizes.clear();
    auto zero = small();
    zero.repeat = 0;

    // every rank throws the same, before any message: the next collective still pairs up
    CHECK_THROWS_WITH(measure_link(comm, odd), Catch::Contains("multiples of 8"));
    CHECK_THROWS_AS(measure_link(comm, none), InvalidArgument);
    CHECK_THROWS_AS(measure_link(comm, zero), InvalidArgument);
    comm.barrier();
}

TEST_CASE("dist link --gpu without a device ends every rank with the reason", "[link]")
{
    const auto& comm = world();
    if (gpu::is_available()) {
        SUCCEED("a GPU is present: the [gpu] case below measures");
        return;
    }

    if (!gpu::is_compiled()) {
        CHECK_THROWS_AS(measure_link(comm, small(true)), NotCompiled);
    } else {
        // a collective step: every rank gets the first failing rank's message, none hangs
        CHECK_THROWS_WITH(measure_link(comm, small(true)), Catch::Contains("no CUDA device"));
    }
    comm.barrier();
}

TEST_CASE("dist link --gpu times the pinned copies and the host-staged step", "[link][gpu]")
{
    const auto& comm = world();
    if (!gpu::is_available()) {
        if (comm.rank() == 0) {
            WARN("SKIPPED: " << (gpu::is_compiled() ? "no CUDA device on this host"
                                                    : "built without CUDA")
                             << ": dist link --gpu's pinned copies are not measured here");
        }
        return;
    }

    const auto m = measure_link(comm, small(true));

    check_same_everywhere(m);
    CHECK(m.gpu);
    CHECK_FALSE(m.devices.empty());
    for (const auto& r : m.sizes) {
        INFO("size " << r.message_bytes);
        CHECK(r.d2h.min_us > 0.0);
        CHECK(r.d2h.median_us >= r.d2h.min_us);
        CHECK(r.h2d.min_us > 0.0);
        CHECK(r.h2d.median_us >= r.h2d.min_us);
        if (comm.size() >= 2) {
            CHECK(r.staged.min_us > 0.0);
            CHECK(r.staged.median_us >= r.staged.min_us);
        } else {
            CHECK(r.staged.median_us == 0.0);  // one rank: the copies only
            CHECK(r.exchange.median_us == 0.0);
        }
    }
}
