// The MPI-free half of distributed SpMV: partitions, the local / non-local split, the exchange
// plan and the partition statistics, against hand-checked cases and the single-process SpMV.
#include <algorithm>
#include <numeric>
#include <random>

#include <catch2/catch.hpp>

#include <spmv/dist/exchange_plan.hpp>
#include <spmv/dist/local_matrix.hpp>
#include <spmv/dist/partition.hpp>
#include <spmv/dist/partition_stats.hpp>
#include <spmv/error.hpp>
#include <spmv/generators.hpp>
#include <spmv/parallel.hpp>

#include "skip.hpp"
#include "test_matrices.hpp"

using namespace spmv;
using namespace spmv::dist;

namespace {

/// y = A x assembled from every rank's local / non-local product, with each rank's halo filled
/// through its exchange plan from the owners' x entries (what the MPI layer does with messages).
std::vector<double> distributed_product(const Distribution<double>& d, const std::vector<double>& x)
{
    const int P = d.rows.num_ranks;
    std::vector<std::vector<double>> own(static_cast<std::size_t>(P));
    for (int r = 0; r < P; ++r) {
        for (auto g : d.cols.indices_of(r)) {
            own[static_cast<std::size_t>(r)].push_back(x[static_cast<std::size_t>(g)]);
        }
    }
    std::vector<double> y(static_cast<std::size_t>(d.rows.size), 0.0);
    for (int r = 0; r < P; ++r) {
        const auto& plan = d.plans[static_cast<std::size_t>(r)];
        std::vector<double> halo(static_cast<std::size_t>(plan.halo_size()));
        for (const auto& n : plan.recv) {
            // the sender packs send_idx entries for us in the order we asked for them
            const auto& sp = d.plans[static_cast<std::size_t>(n.rank)];
            const auto it = std::find_if(sp.send.begin(), sp.send.end(),
                                         [&](const Neighbour& s) { return s.rank == r; });
            REQUIRE(it != sp.send.end());
            REQUIRE(it->count == n.count);
            for (std::int64_t k = 0; k < n.count; ++k) {
                halo[static_cast<std::size_t>(n.offset + k)] =
                    own[static_cast<std::size_t>(n.rank)]
                       [static_cast<std::size_t>(sp.send_idx[static_cast<std::size_t>(it->offset + k)])];
            }
        }
        const auto& m = d.parts[static_cast<std::size_t>(r)];
        std::vector<double> yr(static_cast<std::size_t>(m.local.num_rows));
        spmv_reference(m, std::span<const double>(own[static_cast<std::size_t>(r)]),
                       std::span<const double>(halo), std::span<double>(yr));
        for (std::size_t i = 0; i < yr.size(); ++i) {
            y[static_cast<std::size_t>(m.row_ids[i])] = yr[i];
        }
    }
    return y;
}

std::vector<double> global_product(const Csr<double, std::int32_t>& a, const std::vector<double>& x)
{
    std::vector<double> y(static_cast<std::size_t>(a.num_rows));
    spmv_reference(a, 1.0, std::span<const double>(x), 0.0, std::span<double>(y));
    return y;
}

}  // namespace

TEST_CASE("Row and nonzero partitions of the canonical matrix split after row 1", "[dist]")
{
    const auto a = test::canonical4();

    const auto rows = partition_rows(a.num_rows, 2);
    const auto nz = partition_nnz(a, 2);

    CHECK(rows.offsets == std::vector<global_index>{0, 2, 4});
    CHECK(nz.offsets == std::vector<global_index>{0, 2, 4});
    CHECK(nz.kind == PartitionKind::nnz);
    CHECK(rows.owner_of(1) == 0);
    CHECK(rows.owner_of(2) == 1);
    CHECK(rows.local_index_of(3) == 1);
}

TEST_CASE("Row partitions give the first size mod P ranks one more row, and empty ranks at the end", "[dist]")
{
    CHECK(partition_rows(10, 3).offsets == std::vector<global_index>{0, 4, 7, 10});
    const auto p = partition_rows(2, 4);
    CHECK(p.offsets == std::vector<global_index>{0, 1, 2, 2, 2});
    CHECK(p.count(3) == 0);
    CHECK(p.owner_of(1) == 1);
    CHECK(p.indices_of(2).empty());
    CHECK_NOTHROW(validate(p));
}

TEST_CASE("Weighted partitions split at the row boundary nearest to the ideal share", "[dist]")
{
    // weights 1, 1, 1, 97: the ideal split 50 lies between boundary 3 (3) and 4 (100): 3 is nearer
    const std::vector<global_index> prefix{0, 1, 2, 3, 100};

    const auto p = partition_weighted(prefix, 2);

    CHECK(p.offsets == std::vector<global_index>{0, 3, 4});
    // three ranks: ideal 33.3 snaps to boundary 3 (30.3 below vs 66.7 above), ideal 66.7 to
    // boundary 4 (33.3 above vs 63.7 below): the last rank owns nothing
    CHECK(partition_weighted(prefix, 3).offsets == std::vector<global_index>{0, 3, 4, 4});
}

TEST_CASE("Nonzero partitions balance the nonzeros of a power-law matrix better than row partitions", "[dist]")
{
    const auto a = gen::power_law(4000, 2, 2.0, 400, 7);

    const auto by_rows = analyse(distribute(a, partition_rows(a.num_rows, 4)));
    const auto by_nnz = analyse(distribute(a, partition_nnz(a, 4)));

    CHECK(by_nnz.nnz_imbalance < by_rows.nnz_imbalance);
    CHECK(by_nnz.nnz_imbalance < 1.05);
}

TEST_CASE("Global indices above 2^31 map to their owner and local index", "[dist]")
{
    const global_index n = 3'000'000'000LL;
    const auto p = partition_rows(n, 3);  // blocks of 1e9

    CHECK(p.owner_of(2'900'000'000LL) == 2);
    CHECK(p.local_index_of(2'900'000'000LL) == 900'000'000LL);
    CHECK(p.owner_of(1'999'999'999LL) == 1);

    // rank 1's two rows with columns on all three ranks, some above 2^31
    GlobalRows<double> g;
    g.num_rows = g.num_cols = n;
    g.rows = {1'000'000'000LL, 1'000'000'001LL};
    g.row_ptrs = {0, 3, 5};
    g.col_idxs = {5, 1'000'000'000LL, 2'500'000'000LL, 1'000'000'001LL, 2'000'000'001LL};
    g.values = {1, 2, 3, 4, 5};
    const auto m = split(g, p, p, 1);

    CHECK(m.halo_cols == std::vector<global_index>{5, 2'000'000'001LL, 2'500'000'000LL});
    CHECK(m.halo_owner == std::vector<std::int32_t>{0, 2, 2});
    CHECK(m.local.col_idxs == std::vector<std::int32_t>{0, 1});
    CHECK(m.local.values == std::vector<double>{2, 4});
    CHECK(m.nonlocal.row_ptrs == std::vector<std::int32_t>{0, 2, 3});
    CHECK(m.nonlocal.col_idxs == std::vector<std::int32_t>{0, 2, 1});
    CHECK(m.nonlocal.values == std::vector<double>{1, 3, 5});
}

TEST_CASE("A rank whose share of x exceeds 32-bit indices is refused with its size", "[dist]")
{
    const global_index n = 3'000'000'000LL;
    GlobalRows<double> g;
    g.num_rows = g.num_cols = n;
    const auto p = partition_rows(n, 1);

    CHECK_THROWS_AS(split(g, p, p, 0), DimensionMismatch);
    CHECK_THROWS_WITH(split(g, p, p, 0), Catch::Contains("3000000000"));
}

TEST_CASE("The canonical matrix splits into the local and non-local blocks of the header", "[dist]")
{
    const auto a = test::canonical4();
    const auto d = distribute(a, partition_rows(4, 2));

    const auto& r0 = d.parts[0];
    const auto& r1 = d.parts[1];

    CHECK(r0.local.values == std::vector<double>{1, 4});
    CHECK(r0.nonlocal.values == std::vector<double>{2, 3});
    CHECK(r0.nonlocal.row_ptrs == std::vector<std::int32_t>{0, 2, 2});
    CHECK(r0.halo_cols == std::vector<global_index>{2, 3});
    CHECK(r1.local.col_idxs == std::vector<std::int32_t>{0, 1, 1});
    CHECK(r1.local.values == std::vector<double>{6, 7, 9});
    CHECK(r1.nonlocal.col_idxs == std::vector<std::int32_t>{0, 1});
    CHECK(r1.nonlocal.values == std::vector<double>{5, 8});
    CHECK(d.plans[0].send_idx == std::vector<std::int32_t>{0, 1});
    CHECK(d.plans[0].send.size() == 1);
    CHECK(d.plans[0].send[0].rank == 1);
    CHECK(d.plans[1].recv[0].rank == 0);
    CHECK(distributed_product(d, {1, 2, 3, 4}) == std::vector<double>{19, 8, 51, 52});
}

TEST_CASE("Partition statistics of the canonical matrix over two ranks", "[dist]")
{
    const auto s = analyse(distribute(test::canonical4(), partition_rows(4, 2)), 8);

    REQUIRE(s.ranks.size() == 2);
    CHECK(s.ranks[0].nnz == 4);
    CHECK(s.ranks[0].local_nnz == 2);
    CHECK(s.ranks[0].nonlocal_nnz == 2);
    CHECK(s.ranks[0].nonlocal_rows == 1);
    CHECK(s.ranks[1].nonlocal_rows == 2);
    CHECK(s.ranks[0].halo == 2);
    CHECK(s.ranks[1].sent == 2);
    CHECK(s.ranks[1].bytes_received == 16.0);
    CHECK(s.comm == std::vector<std::int64_t>{0, 2, 2, 0});
    CHECK(s.total_halo == 4);
    CHECK(s.nnz_imbalance == Approx(5.0 / 4.5));
    CHECK(s.row_imbalance == 1.0);
    CHECK(s.max_neighbours == 1);
}

TEST_CASE("Every partition kind and rank count reproduces the single-process product", "[dist]")
{
    auto mats = test::zoo();
    mats.push_back({"pde6", gen::pde(6)});
    mats.push_back({"random", test::random_csr(97, 97, 0, 9, 3)});
    for (const auto& [name, a] : mats) {
        const auto x = test::random_vector(static_cast<std::size_t>(a.num_cols), 11);
        const auto ref = global_product(a, x);
        for (int P : {1, 2, 3, 4, 7}) {
            std::vector<PartitionKind> kinds{PartitionKind::rows, PartitionKind::nnz};
            if (has_metis() && a.num_rows == a.num_cols && a.num_rows > 0) {
                kinds.push_back(PartitionKind::metis);
            }
            for (auto kind : kinds) {
                INFO(name << " P=" << P << " " << to_string(kind));
                const auto d = distribute(a, make_partition(a, kind, P));
                for (int r = 0; r < P; ++r) {
                    validate(d.plans[static_cast<std::size_t>(r)],
                             d.parts[static_cast<std::size_t>(r)].num_own_cols);
                    validate(d.parts[static_cast<std::size_t>(r)].local);
                    validate(d.parts[static_cast<std::size_t>(r)].nonlocal);
                }
                const auto y = distributed_product(d, x);
                CHECK(test::relative_error(y, ref) < 1e-14);
            }
        }
    }
}

TEST_CASE("A row given to the wrong rank is refused", "[dist]")
{
    const auto a = test::canonical4();
    const auto p = partition_rows(4, 2);
    auto g = extract_rows(a, p, 0);

    CHECK_THROWS_AS(split(g, p, p, 1), InvalidArgument);
    g.col_idxs[0] = 9;
    CHECK_THROWS_WITH(split(g, p, p, 0), Catch::Contains("outside"));
}

TEST_CASE("split() makes the same blocks on 1 and on several build threads, and names the first "
          "bad row", "[dist]")
{
    // a power law of 200,000 rows over 3 ranks: rank 1's rows are cut into pieces, one per
    // build thread (spmv/parallel.hpp), each counting and writing its own rows' entries
    const auto a = gen::power_law(200000, 1, 2.0, 300, 7);
    const auto p = partition_nnz(a, 3);
    const auto g = extract_rows(a, p, 1);
    const auto nnz = static_cast<global_index>(g.values.size());
    REQUIRE(g.rows.size() > 50000);
    const auto same = [](const Csr<double, std::int32_t>& x, const Csr<double, std::int32_t>& y) {
        CHECK(x.num_rows == y.num_rows);
        CHECK(x.num_cols == y.num_cols);
        CHECK(x.row_ptrs == y.row_ptrs);
        CHECK(x.col_idxs == y.col_idxs);
        CHECK(x.values == y.values);
    };
    for (const global_index limit : {global_index{default_max_chunk_nnz}, nnz / 3 + 1}) {
        set_build_threads(1);
        const auto one = split(g, p, p, 1, limit);
        for (const unsigned threads : {2u, 5u, 16u}) {
            set_build_threads(threads);
            const auto many = split(g, p, p, 1, limit);
            INFO("threads " << threads << ", chunk limit " << limit);
            CHECK(many.halo_cols == one.halo_cols);
            CHECK(many.halo_owner == one.halo_owner);
            CHECK(many.row_ids == one.row_ids);
            CHECK(many.num_own_cols == one.num_own_cols);
            REQUIRE(many.chunks.size() == one.chunks.size());
            if (limit == default_max_chunk_nnz) {
                CHECK(one.chunks.empty());
            } else {  // cut at row boundaries: at least the 3 the nonzeros need
                CHECK(one.chunks.size() >= 3);
            }
            same(many.local, one.local);
            same(many.nonlocal, one.nonlocal);
            for (std::size_t k = 0; k < one.chunks.size(); ++k) {
                CHECK(many.chunks[k].first_row == one.chunks[k].first_row);
                same(many.chunks[k].local, one.chunks[k].local);
                same(many.chunks[k].nonlocal, one.chunks[k].nonlocal);
            }
        }
        // the halo is every distinct non-local column, ordered by owner, then column
        std::vector<std::pair<std::int32_t, global_index>> want;
        for (const auto c : g.col_idxs) {
            if (p.owner_of(c) != 1) {
                want.emplace_back(p.owner_of(c), c);
            }
        }
        std::sort(want.begin(), want.end());
        want.erase(std::unique(want.begin(), want.end()), want.end());
        REQUIRE(one.halo_cols.size() == want.size());
        for (std::size_t h = 0; h < want.size(); ++h) {
            CHECK(one.halo_owner[h] == want[h].first);
            CHECK(one.halo_cols[h] == want[h].second);
        }
    }
    // two bad columns in rows far apart (different pieces on 16 threads): the first is named
    auto bad = g;
    const std::size_t early = g.rows.size() / 3;
    const std::size_t late = g.rows.size() - 10;
    bad.col_idxs[static_cast<std::size_t>(bad.row_ptrs[late])] = a.num_cols + 5;
    bad.col_idxs[static_cast<std::size_t>(bad.row_ptrs[early])] = -2;
    for (const unsigned threads : {1u, 16u}) {
        set_build_threads(threads);
        CHECK_THROWS_WITH(split(bad, p, p, 1),
                          Catch::Contains("column -2 of row " + std::to_string(g.rows[early])));
    }
    set_build_threads(0);
}

TEST_CASE("METIS recovers the locality of a randomly renumbered grid", "[dist]")
{
    if (!has_metis()) {
        CHECK_THROWS_AS(partition_metis(test::canonical4(), 2), NotCompiled);
        SPMV_SKIP("this build has no METIS (libmetis-dev)");
    }
    const auto grid = gen::laplace2d(40, 40);
    std::vector<std::int32_t> perm(static_cast<std::size_t>(grid.num_rows));
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), std::mt19937(5));
    const auto a = permute_symmetric(grid, std::span<const std::int32_t>(perm));

    const auto p = partition_metis(a, 4);
    const auto metis = analyse(distribute(a, p));
    const auto rows = analyse(distribute(a, partition_rows(a.num_rows, 4)));

    CHECK_NOTHROW(validate(p));
    CHECK(p.kind == PartitionKind::metis);
    CHECK(metis.total_halo * 5 < rows.total_halo);
    CHECK(metis.nnz_imbalance < 1.1);
    for (int r = 0; r < 4; ++r) {
        CHECK(p.count(r) > 0);
    }
}
