#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <spmv/analysis/row_stats.hpp>
#include <spmv/dist/model.hpp>
#include <spmv/dist/partition_stats.hpp>
#include <spmv/error.hpp>
#include <spmv/generators.hpp>
#include <spmv/model/performance.hpp>

#include "test_matrices.hpp"

using namespace spmv;
using namespace spmv::dist;

namespace {

constexpr auto dp = model::Precision::double_precision;

/// Two ranks exchanging with each other only (sent by one = halo of the other). Rank 0 is
/// small and communication-bound, rank 1 large and computation-bound.
PartitionStats two_ranks()
{
    PartitionStats s;
    s.num_ranks = 2;
    s.value_bytes = 8;
    RankStats r0;
    r0.rank = 0;
    r0.rows = 1000;
    r0.local_nnz = 6000;
    r0.nonlocal_nnz = 1000;
    r0.nnz = 7000;
    r0.nonlocal_rows = 500;
    r0.halo = 800;
    r0.sent = 600;
    r0.recv_neighbours = r0.send_neighbours = 1;
    r0.bytes_received = 6400.0;
    r0.bytes_sent = 4800.0;
    RankStats r1;
    r1.rank = 1;
    r1.rows = 100000;
    r1.local_nnz = 690000;
    r1.nonlocal_nnz = 10000;
    r1.nnz = 700000;
    r1.nonlocal_rows = 5000;
    r1.halo = 600;
    r1.sent = 800;
    r1.recv_neighbours = r1.send_neighbours = 1;
    r1.bytes_received = 4800.0;
    r1.bytes_sent = 6400.0;
    s.ranks = {r0, r1};
    s.num_rows = s.num_cols = 101000;
    s.nnz = 707000;
    s.comm = {0, 600, 800, 0};
    return s;
}

const model::GpuProfile test_gpu = model::custom("test-gpu", 100.0, 10.0);
const LinkProfile test_link = custom_link("test-link", 5.0, 2.0);

/// A diagonal matrix: no row partition ever needs a halo.
Csr<double, std::int32_t> diagonal(std::int32_t n)
{
    Csr<double, std::int32_t> a;
    a.num_rows = a.num_cols = n;
    for (std::int32_t i = 0; i < n; ++i) {
        a.col_idxs.push_back(i);
        a.values.push_back(1.0 + i);
        a.row_ptrs.push_back(i + 1);
    }
    return a;
}

void check_same(const PartitionStats& light, const PartitionStats& full)
{
    CHECK(light.kind == full.kind);
    CHECK(light.num_ranks == full.num_ranks);
    CHECK(light.num_rows == full.num_rows);
    CHECK(light.num_cols == full.num_cols);
    CHECK(light.nnz == full.nnz);
    CHECK(light.value_bytes == full.value_bytes);
    CHECK(light.comm == full.comm);
    CHECK(light.total_halo == full.total_halo);
    CHECK(light.row_imbalance == full.row_imbalance);
    CHECK(light.nnz_imbalance == full.nnz_imbalance);
    CHECK(light.max_bytes_received == full.max_bytes_received);
    CHECK(light.max_neighbours == full.max_neighbours);
    REQUIRE(light.ranks.size() == full.ranks.size());
    for (std::size_t r = 0; r < light.ranks.size(); ++r) {
        const auto& x = light.ranks[r];
        const auto& y = full.ranks[r];
        INFO("rank " << r);
        CHECK(x.rank == y.rank);
        CHECK(x.rows == y.rows);
        CHECK(x.own_cols == y.own_cols);
        CHECK(x.nnz == y.nnz);
        CHECK(x.local_nnz == y.local_nnz);
        CHECK(x.nonlocal_nnz == y.nonlocal_nnz);
        CHECK(x.nonlocal_rows == y.nonlocal_rows);
        CHECK(x.boundary_local_nnz == y.boundary_local_nnz);
        CHECK(x.halo == y.halo);
        CHECK(x.sent == y.sent);
        CHECK(x.recv_neighbours == y.recv_neighbours);
        CHECK(x.send_neighbours == y.send_neighbours);
        CHECK(x.bytes_received == y.bytes_received);
        CHECK(x.bytes_sent == y.bytes_sent);
    }
}

}  // namespace

TEST_CASE("built-in links are found by name ignoring case", "[dist_model]")
{
    const auto& hdr = find_link("IB-HDR");
    const auto& shm = find_link("host-shm");

    CHECK(hdr.name == "ib-hdr");
    CHECK(hdr.bandwidth_gbs == 25.0);
    CHECK(hdr.latency_us == 1.5);
    CHECK(find_link("ib-ndr").bandwidth_gbs == 50.0);
    CHECK(find_link("PCIe4").bandwidth_gbs == 25.0);
    CHECK(find_link("pcie5").bandwidth_gbs == 50.0);
    CHECK(find_link("NVLink4").note.find("ASSUMED") != std::string::npos);
    CHECK(shm.bandwidth_gbs > 0.0);
    CHECK(links().size() == 6);
    for (const auto& l : links()) {
        CHECK_FALSE(l.note.empty());
    }
    CHECK(find_host("CPU-core").memory_bandwidth_gbs == 10.0);
}

TEST_CASE("an unknown link name throws InvalidArgument listing the known names", "[dist_model]")
{
    try {
        (void)find_link("myrinet");
        FAIL("no exception");
    } catch (const InvalidArgument& e) {
        const std::string what = e.what();
        CHECK(what.find("myrinet") != std::string::npos);
        for (const auto& l : links()) {
            CHECK(what.find(l.name) != std::string::npos);
        }
    }
    CHECK_THROWS_AS(find_host("gpu"), InvalidArgument);
    CHECK_THROWS_AS(custom_link("bad", 0.0, 1.0), InvalidArgument);
    CHECK_THROWS_AS(custom_link("bad", 10.0, -1.0), InvalidArgument);
    CHECK_THROWS_AS(custom_host("bad", -5.0), InvalidArgument);
    CHECK(custom_link("mine", 12.5, 0.0).bandwidth_gbs == 12.5);
}

TEST_CASE("the distributed model matches hand-computed times for two GPU ranks", "[dist_model]")
{
    // B_GPU = 100 GB/s, B_PCI = 10 GB/s, link 5 GB/s + 2 us per message, DP (s_v = 8), alpha 1:
    // 20 bytes per nonzero, 16 per row.
    // Rank 0: local   (6000*20 + 1000*16) / 1e11 = 136000 / 1e11 = 1.36 us
    //         nonloc  (1000*20 + 1000*16) / 1e11 =  36000 / 1e11 = 0.36 us (all rows' y)
    //         merged  (7000*20 + 1000*16) / 1e11 = 156000 / 1e11 = 1.56 us
    //         pack    600 * (4 + 16) / 1e11 = 0.12 us, d2h 600*8/1e10 = 0.48 us
    //         exchange 2 us * 1 + max(4800, 6400) / 5e9 = 2 + 1.28 = 3.28 us, h2d 6400/1e10 = 0.64
    //         comm 0.12 + 0.48 + 3.28 + 0.64 = 4.52 us
    //         vector 4.52 + 1.56 = 6.08 us, task max(1.36, 4.52) + 0.36 = 4.88 us
    // Rank 1: local   (690000*20 + 100000*16) / 1e11 = 15.4e6 / 1e11 = 154 us
    //         nonloc  5000 of 100000 rows have entries: compressed (<= a third)
    //                 (10000*20 + 5000*16) / 1e11 + 5000 * (24 + 4) / 1e11 = 4.2 us
    //         merged  (700000*20 + 100000*16) / 1e11 = 15.6e6 / 1e11 = 156 us
    //         pack    800 * 20 / 1e11 = 0.16 us, d2h 6400/1e10 = 0.64, exchange 3.28, h2d 0.48
    //         comm 4.56 us; vector 4.56 + 156 = 160.56 us, task 154 + 4.2 = 158.2 us,
    //         naive 4.56 + 154 + 4.2 = 162.76 us (nothing hidden, the second pass extra),
    //         overlap (explicit, GPU) max(154, 4.56) + 4.2 = 158.2 us
    // One SpMV: the slowest rank (1): vector 160.56 us, naive 162.76 us, overlap 158.2 us,
    // task 158.2 us.
    // (Rank 0's non-local rows are half its rows: full-row block, 0.36 us.)
    const auto s = two_ranks();

    const auto p = predict_distributed(s, test_gpu, test_link);

    REQUIRE(p.ranks.size() == 2);
    const auto& r0 = p.ranks[0];
    CHECK(r0.local_s == Approx(1.36e-6));
    CHECK(r0.nonlocal_s == Approx(0.36e-6));
    CHECK(r0.merged_s == Approx(1.56e-6));
    CHECK(r0.pack_s == Approx(0.12e-6));
    CHECK(r0.copy_d2h_s == Approx(0.48e-6));
    CHECK(r0.exchange_s == Approx(3.28e-6));
    CHECK(r0.copy_h2d_s == Approx(0.64e-6));
    CHECK(r0.comm_s == Approx(4.52e-6));
    CHECK(r0.time_s.vector == Approx(6.08e-6));
    CHECK(r0.time_s.naive == Approx(6.24e-6));    // 4.52 + 1.36 + 0.36
    CHECK(r0.time_s.overlap == Approx(4.88e-6));  // max(1.36, 4.52) + 0.36
    CHECK(r0.time_s.task == Approx(4.88e-6));
    const auto& r1 = p.ranks[1];
    CHECK(r1.local_s == Approx(154e-6));
    CHECK(r1.nonlocal_s == Approx(4.2e-6));
    CHECK(r1.comm_s == Approx(4.56e-6));
    CHECK(r1.time_s.vector == Approx(160.56e-6));
    CHECK(r1.time_s.task == Approx(158.2e-6));
    CHECK(p.time_s.vector == Approx(160.56e-6));
    CHECK(p.time_s.naive == Approx(162.76e-6));   // 4.56 + 154 + 4.2
    CHECK(p.time_s.overlap == Approx(158.2e-6));  // max(154, 4.56) + 4.2
    CHECK(p.time_s.task == Approx(158.2e-6));
    CHECK(p.slowest_rank(Mode::naive) == 1);
    CHECK(p.slowest_rank(Mode::task) == 1);
    // 2 * 707000 flops / 158.2 us = 8.94 GF/s
    CHECK(p.gflops(Mode::task) == Approx(2.0 * 707000 / 158.2e-6 / 1e9));
}

TEST_CASE("the non-local kernel pays Kreutzer's extra 8 over N_nzt bytes per flop", "[dist_model]")
{
    // One rank, every row split into a local and a non-local half (N_nzt = 8, 4 + 4): the two
    // kernels move 2 * 16 bytes of y per row instead of 16, i.e. 16 / (2 * 8) = 1 byte/flop
    // more than one fused kernel: 8 / N_nzt with N_nzt = 8.
    RankStats r;
    r.rows = 1000;
    r.local_nnz = 4000;
    r.nonlocal_nnz = 4000;
    r.nnz = 8000;
    r.nonlocal_rows = 1000;
    r.halo = 1;

    const auto t = predict_rank(r, 8, test_gpu, test_link);

    const double fused = model::t_mvm_seconds(1000, 8.0, 1.0, 100.0, dp);
    const double flops = 2.0 * 8000;
    CHECK((t.local_s + t.nonlocal_s - fused) * 100e9 / flops == Approx(8.0 / 8.0));
}

TEST_CASE("host ranks stream through host memory and cross no PCIe", "[dist_model]")
{
    // cpu-core 10 GB/s, rank 0 of two_ranks(): local 136000/1e10 = 13.6 us, non-local
    // 36000/1e10 = 3.6 us, merged 156000/1e10 = 15.6 us, pack 12000/1e10 = 1.2 us, no copies,
    // exchange 3.28 us: comm 4.48 us, vector 4.48 + 15.6 = 20.08 us, task 13.6 + 3.6 = 17.2 us,
    // naive 4.48 + 13.6 + 3.6 = 21.68 us; overlap on a host rank is the naive schedule.
    const auto s = two_ranks();

    const auto p = predict_distributed(s, find_host("cpu-core"), test_link);

    const auto& r0 = p.ranks[0];
    CHECK_FALSE(p.gpu);
    CHECK(r0.local_s == Approx(13.6e-6));
    CHECK(r0.nonlocal_s == Approx(3.6e-6));
    CHECK(r0.pack_s == Approx(1.2e-6));
    CHECK(r0.copy_d2h_s == 0.0);
    CHECK(r0.copy_h2d_s == 0.0);
    CHECK(r0.comm_s == Approx(4.48e-6));
    CHECK(r0.time_s.vector == Approx(20.08e-6));
    CHECK(r0.time_s.task == Approx(17.2e-6));
    CHECK(r0.time_s.naive == Approx(21.68e-6));
    CHECK(r0.time_s.overlap == r0.time_s.naive);
}

TEST_CASE("asynchronous progress lets naive overlap hide the exchange, nothing else", "[dist_model]")
{
    // With a library that progresses messages in the background the exchange (3.28 us) runs
    // under the local SpMV; pack, the copies and the non-local part stay exposed:
    //   GPU rank 0: 0.12 + 0.48 + max(1.36, 3.28) + 0.64 + 0.36 = 4.88 us (sync: 6.24)
    //   GPU rank 1: 0.16 + 0.64 + max(154, 3.28) + 0.48 + 4.2 = 159.48 us (sync: 162.76)
    //   host rank 0 (cpu-core): 1.2 + max(13.6, 3.28) + 3.6 = 18.4 us (sync: 21.68)
    // Explicit overlap and task mode drive the exchange themselves: unchanged.
    ModelOptions async;
    async.async_progress = true;

    const auto sync = predict_distributed(two_ranks(), test_gpu, test_link);
    const auto with = predict_distributed(two_ranks(), test_gpu, test_link, async);
    const auto host = predict_distributed(two_ranks(), find_host("cpu-core"), test_link, async);

    CHECK(sync.time_s.naive == Approx(162.76e-6));
    CHECK(with.ranks[0].time_s.naive == Approx(4.88e-6));
    CHECK(with.ranks[1].time_s.naive == Approx(159.48e-6));
    CHECK(with.time_s.naive == Approx(159.48e-6));
    CHECK(with.time_s.overlap == sync.time_s.overlap);
    CHECK(with.time_s.task == sync.time_s.task);
    CHECK(with.time_s.vector == sync.time_s.vector);
    CHECK(host.ranks[0].time_s.naive == Approx(18.4e-6));
    CHECK(host.ranks[0].time_s.overlap == host.ranks[0].time_s.naive);
}

TEST_CASE("options change the halo path as documented", "[dist_model]")
{
    // Rank 0 of two_ranks() with 5 us per GPU operation: local 6.36, non-local 5.36, pack 5.12,
    // d2h 5.48, h2d 5.64 us; the MPI exchange (3.28 us) has no launch.
    ModelOptions launch;
    launch.launch_latency_us = 5.0;
    ModelOptions direct;
    direct.stage_through_host = false;

    const auto a = predict_distributed(two_ranks(), test_gpu, test_link, launch).ranks[0];
    const auto b = predict_distributed(two_ranks(), test_gpu, test_link, direct).ranks[0];

    CHECK(a.local_s == Approx(6.36e-6));
    CHECK(a.nonlocal_s == Approx(5.36e-6));
    CHECK(a.pack_s == Approx(5.12e-6));
    CHECK(a.copy_d2h_s == Approx(5.48e-6));
    CHECK(a.copy_h2d_s == Approx(5.64e-6));
    CHECK(a.exchange_s == Approx(3.28e-6));
    CHECK(b.copy_d2h_s == 0.0);
    CHECK(b.copy_h2d_s == 0.0);
    CHECK(b.comm_s == Approx(0.12e-6 + 3.28e-6));
}

TEST_CASE("the model rejects inconsistent inputs", "[dist_model]")
{
    auto s = two_ranks();
    ModelOptions sp;
    sp.precision = model::Precision::single_precision;
    ModelOptions zero_alpha;
    zero_alpha.alpha = 0.0;

    CHECK_THROWS_AS(predict_distributed(s, test_gpu, test_link, sp), InvalidArgument);
    CHECK_THROWS_AS(predict_distributed(s, test_gpu, test_link, zero_alpha), InvalidArgument);
    CHECK_THROWS_AS(predict_distributed(s, model::GpuProfile{}, test_link), InvalidArgument);
    CHECK_THROWS_AS(predicted_timeline(predict_distributed(s, test_gpu, test_link), Mode::task, 0),
                    InvalidArgument);
    s.ranks.pop_back();
    CHECK_THROWS_AS(predict_distributed(s, test_gpu, test_link), InvalidArgument);
}

TEST_CASE("task mode is never slower than vector mode and equal without a halo", "[dist_model]")
{
    const auto& h100 = model::find_profile("H100");
    const auto& link = find_link("ib-hdr");
    const std::vector<std::pair<std::string, Csr<double, std::int32_t>>> matrices = {
        {"pde 12", gen::pde(12)},
        {"power law", gen::power_law(3000, 1, 2.0, 300, 7)},
        {"random", test::random_csr(500, 500, 0, 30, 11)},
    };

    for (const auto& [name, a] : matrices) {
        for (int P : {1, 2, 5, 16, 64}) {
            for (auto kind : {PartitionKind::rows, PartitionKind::nnz}) {
                const auto p =
                    predict_distributed(partition_stats(a, make_partition(a, kind, P)), h100, link);
                INFO(name << " P = " << P << " " << to_string(kind));
                CHECK(p.time_s.task <= p.time_s.vector);
                CHECK(p.time_s.naive >= p.time_s.vector);  // second pass over y, no progress
                CHECK(p.time_s.overlap == p.time_s.task);  // GPU ranks: explicit overlap
                CHECK(p.time_s.vector <= 2.0 * p.time_s.task * (1.0 + 1e-12));
            }
        }
    }
    const auto d = diagonal(1000);
    for (int P : {1, 3, 8}) {
        const auto s = partition_stats(d, partition_rows(d.num_rows, P));
        const auto p = predict_distributed(s, h100, link);
        CHECK(s.total_halo == 0);
        for (auto m : all_modes) {
            CHECK(p.time_s[m] == p.time_s.vector);
        }
        for (const auto& r : p.ranks) {
            CHECK(r.comm_s == 0.0);
            CHECK(r.nonlocal_s == 0.0);
        }
    }
}

TEST_CASE("one rank reproduces the single-GPU T_MVM without communication", "[dist_model]")
{
    const auto a = gen::pde(10);  // 1000 rows, 6400 nonzeros, N_nzr 6.4
    const auto& h100 = model::find_profile("H100");
    const auto stats = analysis::row_stats(a);

    for (double alpha : {1.0, 0.5, 1.0 / 6.4}) {
        ModelOptions o;
        o.alpha = alpha;

        const auto r = predict_scaling(a, PartitionKind::nnz, {1}, h100, find_link("ib-ndr"), o);

        const double t_mvm = model::predict(stats, h100, dp, alpha).t_mvm_s;
        INFO("alpha = " << alpha);
        for (auto m : all_modes) {
            CHECK(r.baseline.time_s[m] == Approx(t_mvm).epsilon(1e-14));
            CHECK(r.points[0].prediction.time_s[m] == Approx(t_mvm).epsilon(1e-14));
            CHECK(r.points[0].speedup[m] == 1.0);
            CHECK(r.points[0].efficiency[m] == 1.0);
        }
        CHECK(r.baseline.ranks[0].comm_s == 0.0);
        CHECK(r.baseline.ranks[0].nonlocal_s == 0.0);
    }
}

TEST_CASE("parallel efficiency is T1 over P times TP", "[dist_model]")
{
    const auto a = gen::pde(16);

    const auto r = predict_scaling(a, PartitionKind::rows, {2, 4, 8, 1},
                                   model::find_profile("H100"), find_link("ib-hdr"));

    REQUIRE(r.points.size() == 4);
    CHECK(r.points[3].num_ranks == 1);
    for (const auto& pt : r.points) {
        INFO("P = " << pt.num_ranks);
        CHECK(pt.prediction.num_ranks == pt.num_ranks);
        CHECK(pt.nnz == static_cast<std::int64_t>(a.values.size()));
        for (auto m : all_modes) {
            const double t1 = r.baseline.time_s[m];
            const double tp = pt.prediction.time_s[m];
            CHECK(pt.speedup[m] == Approx(t1 / tp));
            CHECK(pt.efficiency[m] == Approx(t1 / (pt.num_ranks * tp)));
            CHECK(pt.efficiency[m] <= 1.0 + 1e-12);
        }
    }
    CHECK_THROWS_AS(predict_scaling(a, PartitionKind::rows, {}, model::find_profile("H100"),
                                    find_link("ib-hdr")),
                    InvalidArgument);
    CHECK_THROWS_AS(predict_scaling(a, PartitionKind::rows, {0}, model::find_profile("H100"),
                                    find_link("ib-hdr")),
                    InvalidArgument);
}

TEST_CASE("the light statistics path equals analyse of distribute", "[dist_model]")
{
    auto matrices = test::zoo();
    matrices.push_back({"pde 7", gen::pde(7)});
    matrices.push_back({"power law 2000", gen::power_law(2000, 1, 2.0, 400, 3)});
    matrices.push_back({"laplace2d 30x17", gen::laplace2d(30, 17)});
    std::vector<PartitionKind> kinds = {PartitionKind::rows, PartitionKind::nnz};
    if (has_metis()) {
        kinds.push_back(PartitionKind::metis);
    }

    for (const auto& m : matrices) {
        for (auto kind : kinds) {
            if (kind == PartitionKind::metis &&
                (m.a.num_rows != m.a.num_cols || m.a.num_rows == 0)) {
                continue;  // METIS partitions square matrices only
            }
            for (int P : {1, 2, 3, 4, 7, 16}) {
                INFO(m.name << ", " << to_string(kind) << ", P = " << P);
                const auto part = make_partition(m.a, kind, P);
                for (int vb : {8, 4}) {
                    const auto light = partition_stats(m.a, part, vb);
                    const auto full = analyse(distribute(m.a, part), vb);
                    check_same(light, full);
                }
            }
        }
    }
}

TEST_CASE("predicted timeline events are consistent with the breakdown", "[dist_model]")
{
    ModelOptions async;
    async.async_progress = true;
    const auto gpu = predict_distributed(two_ranks(), test_gpu, test_link);
    const auto host = predict_distributed(two_ranks(), find_host("cpu-core"), test_link);
    const auto gpu_async = predict_distributed(two_ranks(), test_gpu, test_link, async);
    const auto host_async =
        predict_distributed(two_ranks(), find_host("cpu-core"), test_link, async);

    for (const auto* p : {&gpu, &host, &gpu_async, &host_async}) {
        for (auto mode : all_modes) {
            const auto t = predicted_timeline(*p, mode, 2);

            INFO(p->device << (p->options.async_progress ? " async " : " ") << to_string(mode));
            CHECK(t.predicted);
            CHECK(t.mode == mode);
            CHECK(t.num_ranks == 2);
            CHECK(t.span_us() == Approx(2.0 * p->time_s[mode] * 1e6));
            // naive, and overlap on host ranks: the paper's naive schedule
            const bool naive = mode == Mode::naive || (mode == Mode::overlap && !p->gpu);
            for (const auto& r : p->ranks) {
                for (int it = 0; it < 2; ++it) {
                    const double t0 = it * p->time_s[mode] * 1e6;
                    std::map<Phase, double> sum;
                    std::map<Lane, double> lane_exchange;
                    double end = t0;
                    double local_end = 0.0;
                    double wait_begin = 1e300;
                    std::vector<const TimelineEvent*> mine;
                    for (const auto& e : t.events) {
                        if (e.rank != r.rank || e.iteration != it) continue;
                        CHECK(e.begin_us >= t0 - 1e-9);
                        CHECK(e.end_us > e.begin_us);
                        sum[e.phase] += e.end_us - e.begin_us;
                        end = std::max(end, e.end_us);
                        if (e.phase == Phase::local) local_end = e.end_us;
                        if (e.phase == Phase::wait) wait_begin = std::min(wait_begin, e.begin_us);
                        if (e.phase == Phase::wait || e.phase == Phase::exchange) {
                            lane_exchange[e.lane] += e.end_us - e.begin_us;
                        }
                        mine.push_back(&e);
                    }
                    // vector mode runs the merged block in one step (drawn as "local")
                    CHECK(sum[Phase::local] ==
                          Approx((mode == Mode::vector ? r.merged_s : r.local_s) * 1e6));
                    CHECK(sum[Phase::nonlocal] ==
                          Approx(mode == Mode::vector ? 0.0 : r.nonlocal_s * 1e6));
                    CHECK(sum[Phase::pack] == Approx(r.pack_s * 1e6));
                    CHECK(sum[Phase::copy_d2h] == Approx(r.copy_d2h_s * 1e6));
                    CHECK(sum[Phase::copy_h2d] == Approx(r.copy_h2d_s * 1e6));
                    CHECK(end - t0 == Approx(r.time_s[mode] * 1e6));
                    // where the messages move: task mode's thread; the library's progress
                    // engine in naive mode with async progress (the rest waited for); else
                    // the host thread's wait
                    if (mode == Mode::task) {
                        CHECK(lane_exchange[Lane::comm] == Approx(r.exchange_s * 1e6));
                        CHECK(sum[Phase::wait] == 0.0);
                    } else if (naive && p->options.async_progress) {
                        CHECK(lane_exchange[Lane::comm] == Approx(r.exchange_s * 1e6));
                        CHECK(sum[Phase::wait] ==
                              Approx(std::max(0.0, r.exchange_s - r.local_s) * 1e6).margin(1e-9));
                    } else {
                        CHECK(lane_exchange[Lane::compute] == Approx(r.exchange_s * 1e6));
                        CHECK(lane_exchange[Lane::comm] == 0.0);
                    }
                    if (naive && !p->options.async_progress) {
                        // the local SpMV ends before the host enters the wait (Kreutzer's
                        // naive overlap: the messages move only in MPI_Waitall)
                        CHECK(local_end <= wait_begin + 1e-9);
                        // GPU ranks: the host blocked on the local kernel
                        CHECK(sum[Phase::idle] == Approx(p->gpu ? r.local_s * 1e6 : 0.0));
                    }
                    // events of one lane never overlap
                    for (const auto* e : mine) {
                        for (const auto* f : mine) {
                            if (e != f && e->lane == f->lane) {
                                CHECK((e->end_us <= f->begin_us + 1e-9 ||
                                       f->end_us <= e->begin_us + 1e-9));
                            }
                        }
                    }
                }
            }
        }
    }
    // Rank 1's halo path (4.56 us) hides entirely behind its local kernel (154 us) in task
    // mode and in explicit overlap (the host drives it while the GPU computes); vector and
    // naive mode hide nothing.
    CHECK(overlapped_fraction(predicted_timeline(gpu, Mode::task), 1) == Approx(1.0));
    CHECK(overlapped_fraction(predicted_timeline(gpu, Mode::overlap), 1) == Approx(1.0));
    CHECK(overlapped_fraction(predicted_timeline(gpu, Mode::vector), 1) == 0.0);
    CHECK(overlapped_fraction(predicted_timeline(gpu, Mode::naive), 1) == 0.0);
    CHECK(overlapped_fraction(predicted_timeline(host, Mode::overlap), 1) == 0.0);
    // with async progress naive mode hides the exchange (3.28 us) under rank 1's local SpMV
    // but not pack and the copies (0.16 + 0.64 + 0.48): 3.28 / 4.56
    CHECK(overlapped_fraction(predicted_timeline(gpu_async, Mode::naive), 1) ==
          Approx(3.28 / 4.56));
    CHECK(predicted_timeline(gpu, Mode::task, 3).events.size() == 3 * 2 * 6);
}

TEST_CASE("weak scaling keeps k cubed rows per rank for cube rank counts", "[dist_model]")
{
    const auto r = predict_weak_scaling(4, PartitionKind::rows, {1, 8, 27},
                                        model::find_profile("H100"), find_link("ib-hdr"));

    REQUIRE(r.points.size() == 3);
    CHECK(r.baseline.nnz == 7 * 64 - 6 * 16);
    for (const auto& pt : r.points) {
        INFO("P = " << pt.num_ranks);
        CHECK(pt.num_rows == 64 * pt.num_ranks);
        for (auto m : all_modes) {
            const double work = static_cast<double>(pt.nnz) / static_cast<double>(r.baseline.nnz);
            CHECK(pt.speedup[m] == Approx(work * r.baseline.time_s[m] / pt.prediction.time_s[m]));
            CHECK(pt.efficiency[m] == Approx(pt.speedup[m] / pt.num_ranks));
        }
    }
    CHECK(r.points[0].efficiency.task == Approx(1.0));
    CHECK(r.points[2].efficiency.vector < 1.0);
}

TEST_CASE("strong scaling to 1024 ranks runs on the light statistics path", "[dist_model]")
{
    const auto a = gen::pde(100);  // 1M rows, 6.94M nonzeros: 977 rows per rank at P = 1024
    std::vector<int> ranks;
    for (int P = 1; P <= 1024; P *= 2) {
        ranks.push_back(P);
    }

    const auto r = predict_scaling(a, PartitionKind::nnz, ranks, model::find_profile("H100"),
                                   find_link("ib-ndr"));

    REQUIRE(r.points.size() == 11);
    CHECK(r.points.back().prediction.ranks.size() == 1024);
    // the halo path grows relative to the shrinking blocks: efficiency falls
    CHECK(r.points.back().efficiency.vector < r.points[1].efficiency.vector);
    for (const auto& pt : r.points) {
        CHECK(pt.prediction.time_s.task <= pt.prediction.time_s.vector);
    }
}

TEST_CASE("the split by rows runs the interior rows first and the boundary rows whole", "[dist_model]")
{
    // B = 100 GB/s, DP, alpha 1 (20 bytes per nonzero, 16 per row); 1000 rows, 200 of them
    // boundary rows (<= a third: split by rows) holding 1400 of the 7000 local nonzeros and
    // all 300 non-local ones:
    //   first pass  ((7000 - 1400) * 20 + 1000 * 16) / 1e11 = 128000 / 1e11 = 1.28 us
    //   second pass ((1400 + 300) * 20 + 200 * 16) / 1e11 + 200 * (24 + 4) / 1e11
    //             = (34000 + 3200 + 5600) / 1e11 = 0.428 us
    //   merged      ((7000 + 300) * 20 + 1000 * 16) / 1e11 = 1.62 us
    RankStats r;
    r.rows = 1000;
    r.local_nnz = 7000;
    r.nonlocal_nnz = 300;
    r.nnz = 7300;
    r.nonlocal_rows = 200;
    r.boundary_local_nnz = 1400;
    r.halo = 50;
    r.sent = 50;
    r.recv_neighbours = r.send_neighbours = 1;

    const auto t = predict_rank(r, 8, test_gpu, test_link);

    CHECK(t.local_s == Approx(1.28e-6));
    CHECK(t.nonlocal_s == Approx(0.428e-6));
    CHECK(t.merged_s == Approx(1.62e-6));
    // more than a third of the rows at the boundary: Kreutzer's split by columns
    r.nonlocal_rows = 400;
    const auto c = predict_rank(r, 8, test_gpu, test_link);
    CHECK(c.local_s == Approx((7000 * 20 + 1000 * 16) / 1e11));
    CHECK(c.nonlocal_s == Approx((300 * 20 + 1000 * 16) / 1e11));
}

// ---------------------------------------------------------------------------------------------
// The distributed product's fixed costs (model.hpp, "THE DISTRIBUTED PRODUCT'S FIXED COSTS")

namespace {

/// exchange 10 us, +4 per further neighbour, sync 8, hand-off 3, first pass 5 (made up, every
/// one different so that a term in the wrong mode shows)
ModelOptions with_fixed()
{
    ModelOptions o;
    o.fixed_costs = custom_fixed_costs("test", 10.0, 4.0, 8.0, 3.0, 5.0);
    return o;
}

}  // namespace

TEST_CASE("the fixed costs match the hand-computed worked example", "[dist_model]")
{
    // model.hpp's worked example with fixed costs. Rank 0 (communication-bound): T_comm =
    // 4.52 + 10 = 14.52 us (one neighbour: no neighbour_us); vector 14.52 + 1.56 = 16.08;
    // naive 14.52 + 1.36 + 8 + 0.36 = 24.24; L = 5 + 1.36 = 6.36 < 14.52: overlap 14.52 + 8 +
    // 0.36 = 22.88; task path 14.52 + 2 * 3 = 20.52 > 6.36: 20.52 + 8 + 0.36 = 28.88 us.
    // Rank 1 (computation-bound): T_comm = 4.56 + 10 = 14.56; vector 14.56 + 156 = 170.56;
    // naive 14.56 + 154 + 8 + 4.2 = 180.76; L = 159 > 14.56 (and > 20.56): overlap = task =
    // 159 + 4.2 = 163.2 us.
    const auto p = predict_distributed(two_ranks(), test_gpu, test_link, with_fixed());
    const auto& r0 = p.ranks[0];
    CHECK(r0.fixed_exchange_s == Approx(10e-6));
    CHECK(r0.sync_s == Approx(8e-6));
    CHECK(r0.handoff_s == Approx(3e-6));
    CHECK(r0.first_pass_s == Approx(5e-6));
    CHECK(r0.comm_s == Approx(14.52e-6));
    CHECK(r0.time_s.vector == Approx(16.08e-6));
    CHECK(r0.time_s.naive == Approx(24.24e-6));
    CHECK(r0.time_s.overlap == Approx(22.88e-6));
    CHECK(r0.time_s.task == Approx(28.88e-6));
    // the fixed costs' share: against 6.08, 6.24, 4.88, 4.88 us without them
    CHECK(r0.fixed_s.vector == Approx(10e-6));
    CHECK(r0.fixed_s.naive == Approx(18e-6));
    CHECK(r0.fixed_s.overlap == Approx(18e-6));
    CHECK(r0.fixed_s.task == Approx(24e-6));
    const auto& r1 = p.ranks[1];
    CHECK(r1.comm_s == Approx(14.56e-6));
    CHECK(r1.time_s.vector == Approx(170.56e-6));
    CHECK(r1.time_s.naive == Approx(180.76e-6));
    CHECK(r1.time_s.overlap == Approx(163.2e-6));
    CHECK(r1.time_s.task == Approx(163.2e-6));
    CHECK(r1.fixed_s.overlap == Approx(5e-6));  // only the first pass's delay
    CHECK(p.time_s.vector == Approx(170.56e-6));
    CHECK(p.time_s.naive == Approx(180.76e-6));
    CHECK(p.time_s.task == Approx(163.2e-6));
    CHECK(p.fixed_time(Mode::naive) == Approx(18e-6));
    CHECK(p.fixed_time(Mode::task) == Approx(5e-6));
    CHECK(p.fixed_costs.find("test (exchange 10 us, +4 us per further neighbour, sync 8 us") ==
          0);

    // two neighbours: the second costs neighbour_us (and the link's latency once more)
    auto s = two_ranks();
    s.ranks[0].recv_neighbours = s.ranks[0].send_neighbours = 2;
    const auto q = predict_distributed(s, test_gpu, test_link, with_fixed());
    CHECK(q.ranks[0].fixed_exchange_s == Approx(14e-6));
    CHECK(q.ranks[0].exchange_s == Approx(5.28e-6));  // 2 * 2 us + 1.28
    CHECK(q.ranks[0].comm_s == Approx(0.12e-6 + 0.48e-6 + 5.28e-6 + 0.64e-6 + 14e-6));
}

TEST_CASE("each fixed cost enters the modes it belongs to", "[dist_model]")
{
    // One constant at a time on the two ranks (rank 0 communication-bound, rank 1 not): the
    // counts of model.hpp's table, per mode.
    const auto bare = predict_distributed(two_ranks(), test_gpu, test_link);
    struct One {
        const char* what;
        FixedCosts f;
        double vector0, naive0, overlap0, task0;  // rank 0's extra us
        double vector1, naive1, overlap1, task1;  // rank 1's
    };
    const std::vector<One> cases = {
        // on the halo path: serial in vector and naive, hidden in overlap and task where the
        // path is shorter than the first pass (rank 1), else up to the pass (rank 0: 1.36 us
        // of local hides 1.36 of it: max(1.36, 14.52) - max(1.36, 4.52) = 10)
        {"exchange", custom_fixed_costs("e", 10, 0, 0, 0, 0), 10, 10, 10, 10, 10, 10, 0, 0},
        // one host round trip: naive always (wait_local); overlap and task only where the
        // halo path ends after the first pass (rank 0)
        {"sync", custom_fixed_costs("s", 0, 0, 8, 0, 0), 0, 8, 8, 8, 0, 8, 0, 0},
        // two hand-offs on task mode's halo path: rank 0 only (its path is critical)
        {"hand-off", custom_fixed_costs("h", 0, 0, 0, 3, 0), 0, 0, 0, 6, 0, 0, 0, 0},
        // the first pass's delay: overlap and task, where the first pass is critical (rank 1)
        // or becomes it (rank 0: 1.36 + 5 = 6.36 > 4.52: +1.84)
        {"first pass", custom_fixed_costs("f", 0, 0, 0, 0, 5), 0, 0, 1.84, 1.84, 0, 0, 5, 5},
    };
    for (const auto& c : cases) {
        INFO(c.what);
        ModelOptions o;
        o.fixed_costs = c.f;
        const auto p = predict_distributed(two_ranks(), test_gpu, test_link, o);
        const double want[2][4] = {{c.vector0, c.naive0, c.overlap0, c.task0},
                                   {c.vector1, c.naive1, c.overlap1, c.task1}};
        for (int r = 0; r < 2; ++r) {
            int i = 0;
            for (auto m : {Mode::vector, Mode::naive, Mode::overlap, Mode::task}) {
                INFO("rank " << r << " " << to_string(m));
                const auto& x = p.ranks[static_cast<std::size_t>(r)];
                const auto& y = bare.ranks[static_cast<std::size_t>(r)];
                CHECK((x.time_s[m] - y.time_s[m]) * 1e6 == Approx(want[r][i]).margin(1e-9));
                CHECK(x.fixed_s[m] * 1e6 == Approx(want[r][i]).margin(1e-9));
                ++i;
            }
        }
    }
}

TEST_CASE("without fixed costs the model gives the numbers before them, to the last bit",
          "[dist_model]")
{
    const auto s = two_ranks();
    ModelOptions zero;
    zero.fixed_costs = custom_fixed_costs("zero", 0, 0, 0, 0, 0);
    ModelOptions zero_async = zero;
    zero_async.async_progress = true;
    ModelOptions async;
    async.async_progress = true;
    const auto host = find_host("cpu-core");
    const std::vector<std::pair<ModelOptions, ModelOptions>> pairs = {
        {ModelOptions{}, zero}, {async, zero_async}};
    for (const auto& [off, on] : pairs) {
        const auto a = predict_distributed(s, test_gpu, test_link, off);
        const auto b = predict_distributed(s, test_gpu, test_link, on);
        for (auto m : all_modes) {
            CHECK(a.time_s[m] == b.time_s[m]);  // exactly: the same sums
            CHECK(b.fixed_time(m) == 0.0);
        }
        CHECK(a.fixed_costs == "none");
    }
    // the worked example's numbers themselves (the test above pins them with Approx)
    const auto p = predict_distributed(s, test_gpu, test_link);
    CHECK(p.ranks[0].time_s.vector == p.ranks[0].comm_s + p.ranks[0].merged_s);
    CHECK(p.ranks[0].fixed_exchange_s == 0.0);
    // host ranks ignore them, whatever their values
    const auto h0 = predict_distributed(s, host, test_link);
    const auto h1 = predict_distributed(s, host, test_link, with_fixed());
    for (auto m : all_modes) {
        CHECK(h0.time_s[m] == h1.time_s[m]);
    }
    CHECK(h1.fixed_costs == "none");
    // a rank without halo: the single-GPU product, no fixed cost
    const auto one = partition_stats(diagonal(100), partition_rows(100, 2), 8);
    const auto d = predict_distributed(one, test_gpu, test_link, with_fixed());
    const auto d0 = predict_distributed(one, test_gpu, test_link);
    for (auto m : all_modes) {
        CHECK(d.time_s[m] == d0.time_s[m]);
    }
}

TEST_CASE("the built-in fixed costs are one per exchange path, measured where said",
          "[dist_model]")
{
    const auto all = fixed_costs();
    REQUIRE(all.size() == 4);
    for (const char* path : {"host-staged", "cuda-ipc", "nccl", "cuda-aware"}) {
        INFO(path);
        const auto& f = find_fixed_costs(path);
        CHECK(f.name == path);
        CHECK(f.exchange_us > 0.0);
        CHECK(f.sync_us > 0.0);
        CHECK(f.first_pass_us > 0.0);
        // a note names its source: MEASURED with the record, or ASSUMED
        const bool measured = f.note.find("MEASURED") == 0 && f.note.find("docs/benchmarks") !=
                                                                   std::string::npos;
        CHECK((measured || f.note.find("ASSUMED") == 0));
    }
    CHECK(find_fixed_costs("CUDA-IPC").name == "cuda-ipc");
    // the host-staged exchange (pinned copies, MPI through shared memory) costs the most
    CHECK(find_fixed_costs("host-staged").exchange_us > find_fixed_costs("cuda-ipc").exchange_us);
    CHECK_THROWS_AS(find_fixed_costs("carrier-pigeon"), InvalidArgument);
    CHECK_THROWS_AS(custom_fixed_costs("x", -1, 0, 0, 0, 0), InvalidArgument);
    CHECK_THROWS_AS(custom_fixed_costs("x", 0, 0, 0, 0, std::nan("")), InvalidArgument);
    ModelOptions bad;
    bad.fixed_costs = FixedCosts{"bad", 1.0, 0.0, -2.0, 0.0, 0.0, ""};
    CHECK_THROWS_AS(predict_distributed(two_ranks(), test_gpu, test_link, bad), InvalidArgument);
}

TEST_CASE("predicted timelines show the fixed costs as events", "[dist_model]")
{
    const auto p = predict_distributed(two_ranks(), test_gpu, test_link, with_fixed());
    for (auto mode : all_modes) {
        const auto t = predicted_timeline(p, mode, 2);
        INFO(to_string(mode));
        CHECK(t.span_us() == Approx(2.0 * p.time_s[mode] * 1e6));
        for (const auto& r : p.ranks) {
            INFO("rank " << r.rank);
            std::map<Phase, double> sum;
            std::map<std::pair<Lane, Phase>, double> on;
            double end = 0.0;
            std::vector<const TimelineEvent*> mine;
            for (const auto& e : t.events) {
                if (e.rank != r.rank || e.iteration != 0) continue;
                sum[e.phase] += e.end_us - e.begin_us;
                on[{e.lane, e.phase}] += e.end_us - e.begin_us;
                end = std::max(end, e.end_us);
                mine.push_back(&e);
            }
            CHECK(end == Approx(r.time_s[mode] * 1e6));
            // the exchange's fixed cost, once, on the lane that drives the exchange
            const Lane driver = mode == Mode::task ? Lane::comm : Lane::compute;
            CHECK(on[{driver, Phase::post}] == Approx(r.fixed_exchange_s * 1e6));
            const bool comm_critical = r.comm_s + (mode == Mode::task ? 2 * r.handoff_s : 0.0) >
                                       r.first_pass_s + r.local_s;
            if (mode == Mode::naive) {
                // the host blocked on the first pass, then wait_local's round trip
                CHECK(on[{Lane::compute, Phase::idle}] == Approx((r.local_s + r.sync_s) * 1e6));
            } else if (mode != Mode::vector) {
                CHECK(on[{Lane::gpu, Phase::idle}] == Approx(r.first_pass_s * 1e6));
                CHECK(on[{Lane::compute, Phase::idle}] ==
                      Approx(comm_critical ? r.sync_s * 1e6 : 0.0).margin(1e-12));
                CHECK(on[{Lane::comm, Phase::idle}] ==
                      Approx(mode == Mode::task ? 2 * r.handoff_s * 1e6 : 0.0).margin(1e-12));
            }
            for (const auto* e : mine) {
                for (const auto* f : mine) {
                    if (e != f && e->lane == f->lane) {
                        CHECK((e->end_us <= f->begin_us + 1e-9 || f->end_us <= e->begin_us + 1e-9));
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Which ranks pay the fixed costs (model.hpp, "Which ranks pay them"): DistMatrix gives every
// rank an exchange once any rank has one (any_halo), but the exchange is point to point: a rank
// without messages posts, launches and waits for nothing, and only task mode's thread
// (CommThread run / join, schedule.cpp) runs on it as on the others.

namespace {

/// Three blocks of 4 rows, each tridiagonal (10 nonzeros), and `couplings` (row, column)
/// entries between them (values 1).
Csr<double, std::int32_t> three_blocks(const std::vector<std::pair<int, int>>& couplings)
{
    Csr<double, std::int32_t> a;
    a.num_rows = a.num_cols = 12;  // row_ptrs starts as {0}
    for (int i = 0; i < 12; ++i) {
        std::vector<int> cols;
        for (int j = std::max(i - 1, 4 * (i / 4)); j <= std::min(i + 1, 4 * (i / 4) + 3); ++j) {
            cols.push_back(j);
        }
        for (const auto& [r, c] : couplings) {
            if (r == i) cols.push_back(c);
        }
        std::sort(cols.begin(), cols.end());
        for (int c : cols) {
            a.col_idxs.push_back(c);
            a.values.push_back(c == i ? 2.0 : -1.0);
        }
        a.row_ptrs.push_back(static_cast<std::int32_t>(a.col_idxs.size()));
    }
    return a;
}

}  // namespace

TEST_CASE("a rank without messages pays only task mode's hand-offs when others exchange",
          "[dist_model]")
{
    // Rows 3 and 4 couple ranks 0 and 1 (one entry each way); rank 2 (rows 8-11) neither
    // receives nor sends. With exchange 10, sync 8, hand-off 3, first pass 5 us:
    //   rank 2's one kernel: 10 nonzeros * 20 + 4 rows * 16 = 264 bytes at 100 GB/s = 2.64 ns
    //   vector = naive = overlap = 2.64 ns (no exchange, no second pass, nothing to post);
    //   task = max(2.64 ns, 2 * 3 us) = 6 us: the host joins the thread's empty job.
    const auto a = three_blocks({{3, 4}, {4, 3}});
    const auto s = partition_stats(a, partition_rows(12, 3), 8);
    REQUIRE(s.ranks[2].halo == 0);
    REQUIRE(s.ranks[2].sent == 0);
    REQUIRE(s.ranks[0].halo == 1);
    REQUIRE(s.ranks[1].sent == 1);
    const auto p = predict_distributed(s, test_gpu, test_link, with_fixed());
    const auto& r2 = p.ranks[2];
    const double kernel = 2.64e-9;
    CHECK(r2.local_s == Approx(kernel));
    CHECK(r2.fixed_exchange_s == 0.0);
    CHECK(r2.sync_s == 0.0);
    CHECK(r2.first_pass_s == 0.0);
    CHECK(r2.handoff_s == Approx(3e-6));
    CHECK(r2.comm_s == 0.0);
    CHECK(r2.time_s.vector == Approx(kernel));
    CHECK(r2.time_s.naive == Approx(kernel));
    CHECK(r2.time_s.overlap == Approx(kernel));
    CHECK(r2.time_s.task == Approx(6e-6));
    CHECK(r2.fixed_s.task == Approx(6e-6 - kernel));
    CHECK(r2.fixed_s.vector == 0.0);
    // ranks 0 and 1 pay everything; they set the time (one neighbour each): rank 0's T_comm =
    // pack 1 * 20 / 1e11 + d2h 8 / 1e10 + 2 us + 8 / 5e9 + h2d 8 / 1e10 + 10 us = 12.0034 us
    CHECK(p.ranks[0].comm_s == Approx(12.0034e-6));
    CHECK(p.ranks[0].sync_s == Approx(8e-6));
    CHECK(p.slowest_rank(Mode::task) != 2);
    // the predicted timeline draws rank 2's two hand-offs on the comm lane, and nothing else
    // but its kernel
    const auto tl = predicted_timeline(p, Mode::task, 1);
    double idle_comm = 0.0, end = 0.0;
    for (const auto& e : tl.events) {
        if (e.rank != 2) continue;
        end = std::max(end, e.end_us);
        if (e.lane == Lane::comm) {
            CHECK(e.phase == Phase::idle);
            idle_comm += e.end_us - e.begin_us;
        } else {
            CHECK(e.phase == Phase::local);
        }
    }
    CHECK(idle_comm == Approx(6.0));
    CHECK(end == Approx(6.0));

    // predict_rank alone: without any_exchange the rank is a single-GPU product
    const auto alone = predict_rank(s.ranks[2], 8, test_gpu, test_link, with_fixed());
    CHECK(alone.handoff_s == 0.0);
    CHECK(alone.time_s.task == Approx(kernel));
    const auto told = predict_rank(s.ranks[2], 8, test_gpu, test_link, with_fixed(), nullptr,
                                   nullptr, true);
    CHECK(told.time_s.task == r2.time_s.task);
    // no rank exchanging (block diagonal): no exchange anywhere, no hand-off either
    const auto none = partition_stats(three_blocks({}), partition_rows(12, 3), 8);
    const auto q = predict_distributed(none, test_gpu, test_link, with_fixed());
    for (const auto& r : q.ranks) {
        CHECK(r.handoff_s == 0.0);
        CHECK(r.time_s.task == Approx(kernel));
    }
}

TEST_CASE("a rank that only sends pays the exchange but no round trip before a second pass",
          "[dist_model]")
{
    // Row 0 also reads column 8: rank 2 sends one entry to rank 0 and receives nothing. Its
    // exchange: pack 1 * (4 + 16) / 1e11 = 0.2 ns, d2h 8 / 1e10 = 0.8 ns, the link 2 us + 8 /
    // 5e9 = 2.0016 us, no h2d; + exchange_us 10: T_comm = 12.0026 us. No halo: no second pass,
    // so no sync_us (naive's wait for the first pass launches nothing after it):
    //   vector = naive = 12.0026 + 0.00264 = 12.00524 us
    //   overlap = max(5 + 0.00264, 12.0026) = 12.0026 us; task = 12.0026 + 6 = 18.0026 us
    const auto a = three_blocks({{3, 4}, {4, 3}, {0, 8}});
    const auto s = partition_stats(a, partition_rows(12, 3), 8);
    REQUIRE(s.ranks[2].halo == 0);
    REQUIRE(s.ranks[2].sent == 1);
    const auto p = predict_distributed(s, test_gpu, test_link, with_fixed());
    const auto& r2 = p.ranks[2];
    CHECK(r2.fixed_exchange_s == Approx(10e-6));
    CHECK(r2.first_pass_s == Approx(5e-6));
    CHECK(r2.handoff_s == Approx(3e-6));
    CHECK(r2.sync_s == 0.0);
    CHECK(r2.nonlocal_s == 0.0);
    CHECK(r2.comm_s == Approx(12.0026e-6));
    CHECK(r2.time_s.vector == Approx(12.00524e-6));
    CHECK(r2.time_s.naive == Approx(12.00524e-6));
    CHECK(r2.time_s.overlap == Approx(12.0026e-6));
    CHECK(r2.time_s.task == Approx(18.0026e-6));
    // rank 0 (two neighbours now: 1 and 2) pays the round trip before its second pass
    CHECK(p.ranks[0].sync_s == Approx(8e-6));
    CHECK(p.ranks[0].fixed_exchange_s == Approx(14e-6));
}
