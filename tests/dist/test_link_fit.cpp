// The link fitted to measured exchanges (spmv/dist/link_fit.hpp): the chain pattern's bytes per
// rank, the fit on times made from known numbers, the line through two hand-checked points,
// and the fitted link priced by the model's own exchange term.
#include <cmath>
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/dist/link_fit.hpp>
#include <spmv/dist/model.hpp>
#include <spmv/error.hpp>

using namespace spmv;
using namespace spmv::dist;

namespace {

/// Times of the chain pattern made from a known link: T(s) = m lat + m s / (B 1e3) us.
std::vector<LinkSample> made_from(double latency_us, double bandwidth_gbs, int messages,
                                  const std::vector<std::int64_t>& sizes)
{
    std::vector<LinkSample> v;
    for (auto s : sizes) {
        v.push_back({s, messages * latency_us +
                            static_cast<double>(messages * s) / (bandwidth_gbs * 1e3)});
    }
    return v;
}

const std::vector<std::int64_t> default_sizes = {8,      64,      512,     4096,    32768,
                                                 262144, 1048576, 2097152, 4194304, 8388608};

}  // namespace

TEST_CASE("The chain pattern counts one message per neighbour: one on 2 ranks, two in the middle",
          "[link_fit]")
{
    // 2 ranks: each has one neighbour, sends one 4 KiB message and receives one
    const auto two = chain_traffic(0, 2, 4096);
    const auto four_middle = chain_traffic(1, 4, 4096);
    const auto four_end = chain_traffic(3, 4, 4096);
    const auto one = chain_traffic(0, 1, 4096);

    CHECK(two.messages == 1);
    CHECK(two.bytes_sent == 4096);
    CHECK(two.bytes_received == 4096);
    CHECK(chain_traffic(1, 2, 4096).bytes_sent == 4096);
    // 4 ranks: rank 1 exchanges with 0 and 2, 2 x 4096 bytes each way; rank 3 only with 2
    CHECK(four_middle.messages == 2);
    CHECK(four_middle.bytes_sent == 8192);
    CHECK(four_middle.bytes_received == 8192);
    CHECK(four_end.messages == 1);
    CHECK(four_end.bytes_sent == 4096);
    CHECK(one.messages == 0);
    CHECK(one.bytes_sent == 0);
    CHECK(chain_messages(1) == 0);
    CHECK(chain_messages(2) == 1);
    CHECK(chain_messages(3) == 2);
    CHECK(chain_messages(4) == 2);
    CHECK_THROWS_AS(chain_traffic(4, 4, 8), InvalidArgument);
    CHECK_THROWS_AS(chain_traffic(0, 2, -8), InvalidArgument);
}

TEST_CASE("The fit gives back the latency and bandwidth the times were made from", "[link_fit]")
{
    // lat 2 us, 5 GB/s: on 4 ranks (2 messages) 4 KiB takes 4 + 8192 / 5000 = 5.6384 us
    const auto four = made_from(2.0, 5.0, 2, default_sizes);
    const auto two = made_from(0.7, 12.5, 1, default_sizes);
    REQUIRE(four[3].time_us == Approx(5.6384).epsilon(1e-15));

    const auto f4 = fit_link(four, 2);
    const auto f2 = fit_link(two, 1);

    CHECK(f4.latency_us == Approx(2.0).epsilon(1e-9));
    CHECK(f4.bandwidth_gbs == Approx(5.0).epsilon(1e-9));
    CHECK(f4.messages == 2);
    CHECK(f4.usable());
    REQUIRE(f4.residual_us.size() == default_sizes.size());
    for (std::size_t i = 0; i < default_sizes.size(); ++i) {
        CHECK(f4.residual_us[i] == Approx(0.0).margin(1e-9 * four[i].time_us));
        CHECK(f4.time_us(default_sizes[i]) == Approx(four[i].time_us).epsilon(1e-9));
    }
    CHECK(f2.latency_us == Approx(0.7).epsilon(1e-9));
    CHECK(f2.bandwidth_gbs == Approx(12.5).epsilon(1e-9));
}

TEST_CASE("The fit through two sizes is the line through them, checked by hand", "[link_fit]")
{
    // 1 message: 1000 B in 3 us, 11000 B in 5 us: slope 2 us / 10000 B = 1 / (5000 B/us), i.e.
    // 5 GB/s; intercept 3 - 1000 / 5000 = 2.8 us. With 2 messages the bytes double (2000 and
    // 22000 B): the same slope per byte counted is 2 / 20000 -> 10 GB/s, and the intercept
    // 2.8 us is two latencies: 1.4 us each.
    const std::vector<LinkSample> v = {{1000, 3.0}, {11000, 5.0}};

    const auto one = fit_link(v, 1);
    const auto two = fit_link(v, 2);

    CHECK(one.bandwidth_gbs == Approx(5.0).epsilon(1e-12));
    CHECK(one.latency_us == Approx(2.8).epsilon(1e-12));
    CHECK(two.bandwidth_gbs == Approx(10.0).epsilon(1e-12));
    CHECK(two.latency_us == Approx(1.4).epsilon(1e-12));
}

TEST_CASE("The fit weighs sizes by their relative residual and reports each residual",
          "[link_fit]")
{
    // exact times of lat 1 us, 10 GB/s on 2 ranks, with the 8-byte time 50 % too slow: the
    // latency moves up (the small sizes set it), the 8-byte size lies above the line and the
    // 4 KiB one below it; the bandwidth moves little (every size counts alike: 10.26 GB/s)
    auto v = made_from(1.0, 10.0, 1, {8, 4096, 1048576, 8388608});
    v[0].time_us *= 1.5;

    const auto f = fit_link(v, 1);

    CHECK(f.latency_us > 1.0);
    CHECK(f.latency_us < 1.5);
    CHECK(f.residual_us[0] > 0.0);  // measured - fitted: slower than the line
    CHECK(f.residual_us[1] < 0.0);
    CHECK(f.bandwidth_gbs == Approx(10.0).epsilon(0.05));
    for (std::size_t i = 0; i < v.size(); ++i) {
        CHECK(f.residual_fraction[i] == Approx(f.residual_us[i] / v[i].time_us));
        CHECK(f.residual_us[i] == Approx(v[i].time_us - f.time_us(v[i].message_bytes)));
    }
    CHECK(std::abs(f.residual_fraction[3]) < 0.05);
    CHECK(std::abs(f.residual_fraction[3]) < f.residual_fraction[0]);
}

TEST_CASE("A fit of times that do not grow with the size is not a usable link", "[link_fit]")
{
    const std::vector<LinkSample> flat = {{8, 5.0}, {1048576, 4.0}};

    const auto f = fit_link(flat, 2);

    CHECK_FALSE(f.usable());
    CHECK(f.bandwidth_gbs < 0.0);
    CHECK_THROWS_AS(fit_link(std::vector<LinkSample>{{8, 1.0}, {8, 2.0}}, 1), InvalidArgument);
    CHECK_THROWS_AS(fit_link(std::vector<LinkSample>{{8, 1.0}, {64, 0.0}}, 1), InvalidArgument);
    CHECK_THROWS_AS(fit_link(std::vector<LinkSample>{{0, 1.0}, {64, 2.0}}, 1), InvalidArgument);
    CHECK_THROWS_AS(fit_link(made_from(1.0, 1.0, 1, {8, 64}), 0), InvalidArgument);
}

TEST_CASE("The fitted link prices the model's exchange as the measured pattern", "[link_fit]")
{
    // a middle rank of the chain with 1 MiB messages in DP: halo = sent = 2 x 131072 entries,
    // two neighbours; the model's T_exchange over the fitted link is the fit's time
    const auto f = fit_link(made_from(2.0, 5.0, 2, default_sizes), 2);
    const auto traffic = chain_traffic(1, 3, 1048576);
    RankStats r;
    r.rank = 1;
    r.rows = 1000;
    r.own_cols = 1000;
    r.local_nnz = 3000;
    r.nnz = 3000;
    r.halo = traffic.bytes_received / 8;
    r.sent = traffic.bytes_sent / 8;
    r.recv_neighbours = traffic.messages;
    r.send_neighbours = traffic.messages;
    r.bytes_received = static_cast<double>(traffic.bytes_received);
    r.bytes_sent = static_cast<double>(traffic.bytes_sent);

    const auto t = predict_rank(r, 8, custom_host("h", 100.0),
                                custom_link("fitted", f.bandwidth_gbs, f.latency_us));

    CHECK(t.exchange_s * 1e6 == Approx(f.time_us(1048576)).epsilon(1e-9));
    CHECK(t.exchange_s * 1e6 == Approx(4.0 + 2097152.0 / 5000.0).epsilon(1e-9));
}
