// 64-bit global indices (issue 36): partitions, splits, plans, statistics, the model and
// timelines whose global counts pass 2^31 (and 2^32), without materialising such a matrix: a
// contiguous partition is its offsets, a rank's rows are handed over as GlobalRows of a few
// rows with huge global indices, statistics are given as counts. Every expected value is
// computed by hand (or in closed form) in the comments, not by the code under test.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <spmv/dist/exchange_plan.hpp>
#include <spmv/dist/local_matrix.hpp>
#include <spmv/dist/model.hpp>
#include <spmv/dist/partition.hpp>
#include <spmv/dist/partition_stats.hpp>
#include <spmv/dist/timeline.hpp>
#include <spmv/error.hpp>

using namespace spmv;
using namespace spmv::dist;
using Catch::Matchers::Contains;

namespace {

constexpr global_index two31 = global_index{1} << 31;  // 2,147,483,648
constexpr global_index two32 = global_index{1} << 32;  // 4,294,967,296

/// The message of the DimensionMismatch that f throws (fails the test when none is thrown).
template <typename F>
std::string mismatch_message(F&& f)
{
    try {
        f();
    } catch (const DimensionMismatch& e) {
        return e.what();
    }
    FAIL("no DimensionMismatch thrown");
    return {};
}

}  // namespace

TEST_CASE("A contiguous partition of 3 billion rows is its offsets alone", "[dist][global]")
{
    const auto p = partition_rows(3'000'000'000, 4);

    // 3e9 / 4 = 750,000,000 each; no owner or local entry per row
    CHECK(p.offsets == std::vector<global_index>{0, 750'000'000, 1'500'000'000, 2'250'000'000,
                                                 3'000'000'000});
    CHECK(p.contiguous());
    CHECK(p.owner.empty());
    CHECK(p.local.empty());
    CHECK_NOTHROW(validate(p));
    // around 2^31: rank 2 owns [1.5e9, 2.25e9)
    CHECK(p.owner_of(two31 - 1) == 2);
    CHECK(p.local_index_of(two31 - 1) == 647'483'647);
    CHECK(p.owner_of(two31) == 2);
    CHECK(p.local_index_of(two31) == 647'483'648);
    CHECK(p.owner_of(2'250'000'000) == 3);
    CHECK(p.local_index_of(2'250'000'000) == 0);
    CHECK(p.owner_of(2'999'999'999) == 3);
    CHECK(p.local_index_of(2'999'999'999) == 749'999'999);
    CHECK(p.count(3) == 750'000'000);
    CHECK_THROWS_AS(p.owner_of(3'000'000'000), InvalidArgument);
}

TEST_CASE("partition_rows spreads the remainder of 3,000,000,001 rows over the first ranks",
          "[dist][global]")
{
    // 3,000,000,001 = 7 * 428,571,428 + 5: ranks 0-4 get 428,571,429 rows, ranks 5-6 428,571,428
    const auto p = partition_rows(3'000'000'001, 7);

    CHECK(p.offsets == std::vector<global_index>{0, 428'571'429, 857'142'858, 1'285'714'287,
                                                 1'714'285'716, 2'142'857'145, 2'571'428'573,
                                                 3'000'000'001});
    // 2^31 - 1 = 2,147,483,647 lies in rank 5's [2,142,857,145, 2,571,428,573)
    CHECK(p.owner_of(two31 - 1) == 5);
    CHECK(p.local_index_of(two31 - 1) == 2'147'483'647 - 2'142'857'145);
    CHECK(p.count(0) == 428'571'429);
    CHECK(p.count(6) == 428'571'428);
}

TEST_CASE("pde1100's 1,331,000,000 rows partition into slabs of whole planes",
          "[dist][global]")
{
    // 1100^3 rows; 4 ranks: 275 planes of 1100 x 1100 = 332,750,000 rows each
    const auto four = partition_rows(1'331'000'000, 4);
    const auto three = partition_rows(1'331'000'000, 3);

    CHECK(four.offsets == std::vector<global_index>{0, 332'750'000, 665'500'000, 998'250'000,
                                                    1'331'000'000});
    // 1,331,000,000 = 3 * 443,666,666 + 2
    CHECK(three.offsets ==
          std::vector<global_index>{0, 443'666'667, 887'333'334, 1'331'000'000});
    CHECK(four.owner_of(1'330'999'999) == 3);
    CHECK(four.local_index_of(1'330'999'999) == 332'749'999);
}

TEST_CASE("partition_weighted balances prefix sums beyond 2^31", "[dist][global]")
{
    // six rows of 2.2e9, 1e9, 3e9, 0.5e9, 2.5e9 and 0.8e9 nonzeros: 10e9 in total
    const std::vector<global_index> prefix{0,
                                           2'200'000'000,
                                           3'200'000'000,
                                           6'200'000'000,
                                           6'700'000'000,
                                           9'200'000'000,
                                           10'000'000'000};

    const auto p = partition_weighted(prefix, 4);

    // ideal splits 2.5e9, 5e9, 7.5e9:
    //   2.5e9: first boundary at or after is 2 (3.2e9); 2.2e9 is nearer (0.3e9 < 0.7e9) -> 1
    //   5.0e9: boundary 3 (6.2e9); 3.2e9 is 1.8e9 away, 6.2e9 1.2e9: stays 3
    //   7.5e9: boundary 5 (9.2e9); 6.7e9 is nearer (0.8e9 < 1.7e9) -> 4
    CHECK(p.offsets == std::vector<global_index>{0, 1, 3, 4, 6});
    CHECK(p.kind == PartitionKind::nnz);
}

TEST_CASE("column_partition scales row offsets to 6e9 and 4e9 columns exactly",
          "[dist][global]")
{
    const auto square = column_partition(partition_rows(3'000'000'000, 4), 6'000'000'000);
    const auto pde = column_partition(partition_rows(1'331'000'000, 3), 4'000'000'000);

    CHECK(square.offsets == std::vector<global_index>{0, 1'500'000'000, 3'000'000'000,
                                                      4'500'000'000, 6'000'000'000});
    CHECK(square.contiguous());
    // 443,666,667 / 1,331,000,000 * 4e9 = 1,333,333,334.335 -> 1,333,333,334;
    // 887,333,334 / 1,331,000,000 * 4e9 = 2,666,666,668.670 -> 2,666,666,669
    CHECK(pde.offsets ==
          std::vector<global_index>{0, 1'333'333'334, 2'666'666'669, 4'000'000'000});
}

namespace {

/// Rank 3 of a 6e9 x 6e9 matrix over 4 ranks by rows (each owns 1.5e9 rows and columns; rank 3
/// owns [4.5e9, 6e9)): three rows whose columns are spread over every rank, past 2^31 and 2^32.
GlobalRows<double> rank3_rows()
{
    GlobalRows<double> g;
    g.num_rows = 6'000'000'000;
    g.num_cols = 6'000'000'000;
    g.rows = {4'500'000'000, 5'000'000'000, 5'999'999'999};
    g.row_ptrs = {0, 4, 7, 10};
    g.col_idxs = {0,              two31,          4'500'000'000, 5'999'999'999,  // row 4.5e9
                  3'000'000'000,  4'999'999'999,  5'000'000'000,                 // row 5e9
                  two31,          two32,          5'999'999'999};                // row 6e9 - 1
    g.values = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    return g;
}

}  // namespace

TEST_CASE("split keeps 32-bit local blocks of a rank whose global columns pass 2^32",
          "[dist][global]")
{
    const auto rows = partition_rows(6'000'000'000, 4);
    const auto cols = column_partition(rows, 6'000'000'000);

    const auto m = split(rank3_rows(), rows, cols, 3);

    // own columns: global - 4.5e9 (4.5e9 -> 0, 5e9 - 1 -> 499,999,999, 6e9 - 1 -> 1,499,999,999)
    CHECK(m.num_own_cols == 1'500'000'000);
    CHECK(m.local.num_rows == 3);
    CHECK(m.local.num_cols == 1'500'000'000);
    CHECK(m.local.row_ptrs == std::vector<std::int32_t>{0, 2, 4, 5});
    CHECK(m.local.col_idxs ==
          std::vector<std::int32_t>{0, 1'499'999'999, 499'999'999, 500'000'000, 1'499'999'999});
    CHECK(m.local.values == std::vector<double>{3, 4, 6, 7, 10});
    // halo by (owner, column): (0, 0), (1, 2^31), (2, 3e9), (2, 2^32)
    CHECK(m.halo_cols == std::vector<global_index>{0, two31, 3'000'000'000, two32});
    CHECK(m.halo_owner == std::vector<std::int32_t>{0, 1, 2, 2});
    CHECK(m.nonlocal.num_cols == 4);
    CHECK(m.nonlocal.row_ptrs == std::vector<std::int32_t>{0, 2, 3, 5});
    CHECK(m.nonlocal.col_idxs == std::vector<std::int32_t>{0, 1, 2, 1, 3});
    CHECK(m.nonlocal.values == std::vector<double>{1, 2, 5, 8, 9});
    CHECK(m.row_ids == std::vector<global_index>{4'500'000'000, 5'000'000'000, 5'999'999'999});
    CHECK(m.global_rows == 6'000'000'000);
}

TEST_CASE("plan_all sends x entries whose local indices lie past 2^30", "[dist][global]")
{
    const auto rows = partition_rows(6'000'000'000, 4);
    const auto cols = column_partition(rows, 6'000'000'000);
    const auto m = split(rank3_rows(), rows, cols, 3);
    std::vector<std::vector<global_index>> halo_cols(4);
    std::vector<std::vector<std::int32_t>> halo_owner(4);
    halo_cols[3] = m.halo_cols;
    halo_owner[3] = m.halo_owner;

    const auto plans = plan_all(halo_cols, halo_owner, cols);

    // rank 3 receives 1 entry from rank 0, 1 from rank 1, 2 from rank 2
    REQUIRE(plans[3].recv.size() == 3);
    CHECK(plans[3].recv[2].rank == 2);
    CHECK(plans[3].recv[2].count == 2);
    CHECK(plans[3].recv[2].offset == 2);
    CHECK(plans[3].halo_size() == 4);
    // rank 0 sends its column 0; rank 1 column 2^31 = local 2^31 - 1.5e9 = 647,483,648;
    // rank 2 columns 3e9 and 2^32 = locals 0 and 1,294,967,296
    CHECK(plans[0].send_idx == std::vector<std::int32_t>{0});
    CHECK(plans[1].send_idx == std::vector<std::int32_t>{647'483'648});
    CHECK(plans[2].send_idx == std::vector<std::int32_t>{0, 1'294'967'296});
    REQUIRE(plans[2].send.size() == 1);
    CHECK(plans[2].send[0].rank == 3);
    CHECK(plans[2].send[0].count == 2);
    for (int r = 0; r < 4; ++r) {
        CHECK_NOTHROW(validate(plans[static_cast<std::size_t>(r)], cols.count(r)));
    }
}

TEST_CASE("A rank whose share of x passes 2^31 - 1 is refused with its rank and count",
          "[dist][global]")
{
    // 6e9 columns over 2 ranks: 3e9 each, past the 32-bit local column indices
    const auto rows = partition_rows(6'000'000'000, 2);
    const auto cols = column_partition(rows, 6'000'000'000);
    GlobalRows<double> g;
    g.num_rows = g.num_cols = 6'000'000'000;

    const auto msg = mismatch_message([&] { split(g, rows, cols, 0); });
    ExchangePlan plan;
    plan.rank = 1;
    const auto send_msg = mismatch_message([&] {
        fill_send_side(plan, {{two32}, {}}, cols);
    });

    CHECK_THAT(msg, Contains("rank 0's share of x") && Contains("(3000000000)") &&
                        Contains("use more ranks"));
    CHECK_THAT(send_msg, Contains("rank 1's share of x (3000000000 entries)"));
}

TEST_CASE("check_local_block takes 2^31 - 1 rows, columns and halo, and counts row chunks",
          "[dist][global]")
{
    constexpr global_index m = std::numeric_limits<std::int32_t>::max();

    // nonzeros past 2^31 - 1 are cut into row chunks (ours, issue 36): 2 * (2^31 - 1) nonzeros
    // need ceil(4,294,967,294 / 2,130,706,432) = 3 chunks at the default limit, 2 at 2^31 - 1
    CHECK(check_local_block({m, m, m, m, m}, 0) == 3);
    CHECK(check_local_block({m, m, m, m, m}, 0, m) == 2);
    CHECK(check_local_block({1, 1, 1, 0, 0}, 0) == 1);
    CHECK(check_local_block({10, 1, 7, 3, 2, 4}, 0, 3) == 4);  // ceil(10 / 3)
    const auto rows = mismatch_message([&] { check_local_block({m + 1, 1, 1, 0, 0}, 5); });
    const auto own = mismatch_message([&] { check_local_block({1, m + 1, 1, 0, 0}, 6); });
    const auto halo = mismatch_message([&] { check_local_block({1, 1, 1, m + 1, m + 1}, 9); });
    const auto row = mismatch_message([&] { check_local_block({1, 1, m, 1, 1, m + 1}, 4); });

    CHECK_THAT(rows, Contains("rank 5's row count (2147483648)"));
    CHECK_THAT(own, Contains("rank 6's share of x") && Contains("(2147483648)"));
    CHECK_THAT(halo, Contains("rank 9's halo (2147483648") &&
                         Contains("local column indices stay 32-bit"));
    CHECK_THAT(row, Contains("rank 4 has a row of 2147483648 nonzeros") &&
                        Contains("row chunks cannot cut a row"));
    CHECK_THROWS_AS(check_local_block({1, 1, 1, 1, 2}, 0), InvalidArgument);  // halo > nnz
    CHECK_THROWS_AS(check_local_block({1, 1, 1, 0, 0}, 0, 0), InvalidArgument);
    CHECK_THROWS_AS(check_local_block({1, 1, 1, 0, 0}, 0, m + 1), InvalidArgument);
}

TEST_CASE("row_chunks cuts rows greedily at the limit and refuses a row past 2^31 - 1",
          "[dist][global]")
{
    // row lengths 3, 4, 0, 5, 2, 6 (offsets 0 3 7 7 12 14 20), limit 7: {3,4,0} = 7,
    // {5,2} = 7, {6}: chunks start at rows 0, 3, 5, end at 6
    const std::vector<std::int64_t> ptrs{0, 3, 7, 7, 12, 14, 20};
    CHECK(row_chunks(ptrs, 7, 0) == std::vector<std::int32_t>{0, 3, 5, 6});
    // a row longer than the limit is a chunk alone: limit 4 -> {3}, {4, 0}, {5}, {2}, {6}
    CHECK(row_chunks(ptrs, 4, 0) == std::vector<std::int32_t>{0, 1, 3, 4, 5, 6});
    CHECK(row_chunks(ptrs, 100, 0) == std::vector<std::int32_t>{0, 6});
    CHECK(row_chunks(std::vector<std::int64_t>{0}, 100, 0) == std::vector<std::int32_t>{0, 0});
    // two rows of 2^31 - 1 and 2 nonzeros: two chunks; a row of 2^31 is refused by index
    constexpr global_index m = std::numeric_limits<std::int32_t>::max();
    CHECK(row_chunks(std::vector<std::int64_t>{0, m, m + 2}, m, 0) ==
          std::vector<std::int32_t>{0, 1, 2});
    const auto msg = mismatch_message(
        [&] { row_chunks(std::vector<std::int64_t>{0, 5, 5 + two31}, m, 3); });
    CHECK_THAT(msg, Contains("rank 3's row 1 has 2147483648 nonzeros"));
}

TEST_CASE("A merged or boundary block past 2^31 - 1 columns is refused by name",
          "[dist][global]")
{
    constexpr global_index m = std::numeric_limits<std::int32_t>::max();

    CHECK_NOTHROW(check_ghosted_block(GhostedBlock::merged, m, 0));
    const auto merged = mismatch_message([&] {
        check_ghosted_block(GhostedBlock::merged, 2'400'000'000, 3);
    });
    const auto boundary = mismatch_message([&] {
        check_ghosted_block(GhostedBlock::boundary_rows, m + 1, 2);
    });

    CHECK_THAT(merged, Contains("rank 3's merged block") && Contains("2400000000 columns") &&
                           Contains("--split-blocks"));
    CHECK_THAT(boundary, Contains("rank 2's second pass") && Contains("spans 2147483648 columns") &&
                             Contains("use more ranks"));
}

namespace {

/// pde1100 (the 7-point Laplacian on 1100^3 points: 1,331,000,000 rows) over 4 ranks by rows,
/// counted by hand: a rank owns 275 planes of 1100 x 1100 = 1,210,000 points. A point has 7
/// entries less one per missing neighbour: each plane misses 4 * 1100 = 4,400 in x and y, the
/// first and last plane of the grid 1,210,000 in z. Ranks 0 and 3 hold one grid end and one
/// neighbour, ranks 1 and 2 two neighbours. A boundary plane's point has one non-local entry.
RankStats pde1100_rank(int r)
{
    const bool end = r == 0 || r == 3;
    const std::int64_t plane = 1'210'000;
    const std::int64_t planes_missing_xy = 275 * 4'400;  // 1,210,000
    RankStats s;
    s.rank = r;
    s.rows = 332'750'000;
    s.own_cols = 332'750'000;
    s.nnz = 7 * s.rows - planes_missing_xy - (end ? plane : 0);  // 2,326,830,000 / 2,328,040,000
    s.nonlocal_rows = end ? plane : 2 * plane;
    s.nonlocal_nnz = s.nonlocal_rows;
    s.local_nnz = s.nnz - s.nonlocal_nnz;  // 2,325,620,000 on every rank
    // local entries of a boundary plane's points: 6 per point less the plane's 4,400
    s.boundary_local_nnz = (end ? 1 : 2) * (6 * plane - 4'400);
    s.halo = s.nonlocal_rows;
    s.sent = s.nonlocal_rows;
    s.recv_neighbours = s.send_neighbours = end ? 1 : 2;
    s.bytes_received = 8.0 * static_cast<double>(s.halo);
    s.bytes_sent = 8.0 * static_cast<double>(s.sent);
    return s;
}

PartitionStats pde1100_stats()
{
    PartitionStats s;
    s.kind = PartitionKind::rows;
    s.num_ranks = 4;
    s.num_rows = s.num_cols = 1'331'000'000;
    s.value_bytes = 8;
    for (int r = 0; r < 4; ++r) {
        s.ranks.push_back(pde1100_rank(r));
    }
    finish_totals(s);
    return s;
}

}  // namespace

TEST_CASE("pde1100's statistics on 4 ranks total 9,309,740,000 nonzeros", "[dist][global]")
{
    const auto s = pde1100_stats();

    // closed form: 7 * 1100^3 - 6 * 1100^2 = 9,317,000,000 - 7,260,000
    CHECK(s.nnz == 9'309'740'000);
    CHECK(s.ranks[0].local_nnz == 2'325'620'000);
    CHECK(s.ranks[1].nnz == 2'328'040'000);
    CHECK(s.total_halo == 6 * 1'210'000);
    CHECK(s.max_neighbours == 2);
    CHECK(s.row_imbalance == 1.0);
    // max 2,328,040,000 over the mean 2,327,435,000
    CHECK(s.nnz_imbalance == Approx(2'328'040'000.0 / 2'327'435'000.0).epsilon(1e-15));
    CHECK(s.max_bytes_received == 8.0 * 2'420'000);
}

TEST_CASE("pde1100 on 4 ranks takes 2 row chunks per rank of 2,328,040,000 nonzeros",
          "[dist][global]")
{
    // rank 1: 2,325,620,000 local + 2,420,000 non-local = 2,328,040,000 nonzeros, 7 in its
    // longest row: ceil(2,328,040,000 / 2,130,706,432) = 2 chunks (refused before issue 36)
    const auto r = pde1100_rank(1);

    CHECK(check_local_block({r.rows, r.own_cols, r.local_nnz, r.nonlocal_nnz, r.halo, 7}, 1) ==
          2);
}

TEST_CASE("The distributed model prices pde1100's 9.3 billion nonzeros from counts",
          "[dist][global]")
{
    const auto s = pde1100_stats();
    const auto host = custom_host("test host", 100.0);       // B = 1e11 bytes/s
    const auto link = custom_link("test link", 5.0, 2.0);    // 5e9 bytes/s, 2 us
    ModelOptions o;                                           // DP, alpha 1: 20 bytes per nnz

    const auto p = predict_distributed(s, host, link, o);

    // rank 1 (two neighbours): boundary rows 2,420,000 <= rows / 3: split by rows
    const double B = 1e11;
    const double local = ((2'325'620'000.0 - 14'511'200.0) * 20 + 16 * 332'750'000.0) / B;
    const double nonlocal = ((14'511'200.0 + 2'420'000.0) * 20 + 16 * 2'420'000.0) / B +
                            2'420'000.0 * 28 / B;  // the scatter: 3 s_v + s_i per row
    const double merged = (2'328'040'000.0 * 20 + 16 * 332'750'000.0) / B;
    const double pack = 2'420'000.0 * 20 / B;
    const double exchange = 2 * 2e-6 + 2'420'000.0 * 8 / 5e9;
    const double comm = pack + exchange;
    const auto& r1 = p.ranks[1];
    CHECK(r1.local_s == Approx(local).epsilon(1e-12));
    CHECK(r1.nonlocal_s == Approx(nonlocal).epsilon(1e-12));
    CHECK(r1.merged_s == Approx(merged).epsilon(1e-12));
    CHECK(r1.exchange_s == Approx(exchange).epsilon(1e-12));
    CHECK(r1.time_s.vector == Approx(comm + merged).epsilon(1e-12));
    CHECK(r1.time_s.task == Approx(std::max(local, comm) + nonlocal).epsilon(1e-12));
    // ranks 1 and 2 are the slowest; gflops counts all 9,309,740,000 nonzeros
    CHECK(p.nnz == 9'309'740'000);
    CHECK(p.time_s.vector == Approx(comm + merged).epsilon(1e-12));
    CHECK(p.gflops(Mode::vector) ==
          Approx(2 * 9'309'740'000.0 / (comm + merged) / 1e9).epsilon(1e-12));
}

TEST_CASE("The model takes one rank of 3 billion rows and 21 billion nonzeros",
          "[dist][global]")
{
    RankStats r;
    r.rows = 3'000'000'000;
    r.own_cols = 3'000'000'000;
    r.local_nnz = r.nnz = 21'000'000'000;

    const auto t = predict_rank(r, 8, custom_host("h", 100.0), custom_link("l", 5.0, 2.0));

    // (21e9 * 20 + 16 * 3e9) / 1e11 = 4.68 s, no halo: every mode the same
    CHECK(t.local_s == Approx(4.68).epsilon(1e-12));
    CHECK(t.time_s.vector == Approx(4.68).epsilon(1e-12));
    CHECK(t.time_s.task == Approx(4.68).epsilon(1e-12));
    CHECK(t.exchange_s == 0.0);
}

TEST_CASE("Timelines round-trip times past 2^31 and 2^32 microseconds and the last int "
          "iteration",
          "[dist][global]")
{
    Timeline t;
    t.num_ranks = 2;
    t.events.push_back({1, Lane::comm, Phase::exchange, 2'147'483'647, 2'147'483'648.25,
                        4'294'967'296.5});
    t.events.push_back({0, Lane::compute, Phase::local, 2'147'483'647, 2'147'483'648.0,
                        6'000'000'000.125});

    const auto back = timelines_from_json(to_json({t}));

    REQUIRE(back.size() == 1);
    CHECK(back[0] == t);
    CHECK(back[0].span_us() == 6'000'000'000.125 - 2'147'483'648.0);
    // an iteration past int is refused by name, not wrapped
    auto text = to_json({t});
    const auto at = text.find("2147483647");
    REQUIRE(at != std::string::npos);
    text.replace(at, 10, "2147483648");
    CHECK_THROWS_WITH(timelines_from_json(text), Contains("iteration"));
}
