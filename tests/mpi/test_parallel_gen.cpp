// Per-rank generation (spmv/dist/parallel_gen.hpp) under mpiexec -n 1..4: every rank's rows and
// the partition equal the whole generated matrix cut by make_partition + extract_rows (what
// DistMatrix::create scatters from the root), for the rows and nnz partitions of every
// generator; the nnz cut from row blocks (nnz_split.hpp) equals partition_weighted, also for
// pde1100 (9.3e9 nonzeros) from closed-form counts; a rank over its budget ends every rank.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/dist/comm.hpp>
#include <spmv/dist/local_matrix.hpp>
#include <spmv/dist/nnz_split.hpp>
#include <spmv/dist/parallel_gen.hpp>
#include <spmv/dist/partition.hpp>
#include <spmv/error.hpp>
#include <spmv/generator_rows.hpp>
#include <spmv/generators.hpp>

#include "mpi_test_support.hpp"

using namespace spmv;
using namespace spmv::dist;
using spmv::test::world;

namespace {

/// The nnz partition of `prefix` (global row pointers) cut from `blocks` equal row blocks,
/// each seeing only its own rows' prefix (what nnz_partition does over the ranks, in one
/// process).
Partition cut_from_blocks(const std::vector<global_index>& prefix, int blocks, int ranks)
{
    const auto n = static_cast<global_index>(prefix.size()) - 1;
    const auto b = partition_rows(n, blocks);
    std::vector<global_index> splits(static_cast<std::size_t>(ranks) - 1, -1);
    for (int s = 0; s < blocks; ++s) {
        const auto first = b.offsets[static_cast<std::size_t>(s)];
        const auto base = prefix[static_cast<std::size_t>(first)];
        const auto found = nnz_splits_in_block(
            first, b.count(s), base, prefix.back(), ranks,
            [&](global_index i) { return prefix[static_cast<std::size_t>(first + i)] - base; });
        for (std::size_t r = 0; r < found.size(); ++r) {
            if (found[r] >= 0) {
                CHECK(splits[r] == -1);  // one block finds each split
                splits[r] = found[r];
            }
        }
    }
    return nnz_partition_from_splits(n, ranks, splits);
}

/// Nonzeros of pde(k)'s rows [0, b), plane by plane, line by line, point by point.
std::int64_t pde_prefix(std::int64_t k, std::int64_t b)
{
    const std::int64_t plane = k * k;
    auto out = [k](std::int64_t c) { return (c > 0 ? 1 : 0) + (c < k - 1 ? 1 : 0); };
    std::int64_t sum = 0;
    const std::int64_t z_full = b / plane;
    for (std::int64_t z = 0; z < z_full; ++z) {
        sum += plane + 4 * k * (k - 1) + plane * out(z);
    }
    const std::int64_t y_full = (b - z_full * plane) / k;
    for (std::int64_t y = 0; y < y_full; ++y) {
        sum += k + 2 * (k - 1) + k * out(y) + k * out(z_full);
    }
    for (std::int64_t i = z_full * plane + y_full * k; i < b; ++i) {
        sum += 1 + out(i % k) + out(i / k % k) + out(z_full);
    }
    return sum;
}

bool same(const GlobalRows<double>& x, const GlobalRows<double>& y)
{
    return x.num_rows == y.num_rows && x.num_cols == y.num_cols && x.rows == y.rows &&
           x.row_ptrs == y.row_ptrs && x.col_idxs == y.col_idxs && x.values == y.values;
}

}  // namespace

TEST_CASE("The nnz cut from row blocks is partition_weighted's, to the row",
          "[mpi][parallel_gen][nnz_split]")
{
    // row lengths with empty runs, a long row and ties (pde's regular lengths)
    std::vector<std::vector<std::int64_t>> cases = {
        {3, 1, 3, 2},  // the canonical 4x4: cut after row 1 for 2 ranks
        {0, 0, 0, 0, 0},
        {5},
        {0, 0, 9, 0, 0, 0, 1, 1, 0, 4},
        {1000, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
    };
    std::vector<std::int64_t> irregular;
    std::uint64_t state = 7;
    for (int i = 0; i < 997; ++i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        const auto r = static_cast<std::int64_t>(state >> 58);  // 0..63
        irregular.push_back(r < 20 ? 0 : r);
    }
    cases.push_back(irregular);
    const auto pde = gen::row_lengths(gen::parse_spec("gen:pde:size=9"), 0, 729);
    cases.push_back(pde);

    for (const auto& lengths : cases) {
        std::vector<global_index> prefix(lengths.size() + 1, 0);
        std::partial_sum(lengths.begin(), lengths.end(), prefix.begin() + 1);
        for (int ranks = 1; ranks <= 9; ++ranks) {
            const auto want = partition_weighted(prefix, ranks);
            for (int blocks = 1; blocks <= 6; ++blocks) {
                INFO(lengths.size() << " rows, " << ranks << " ranks, " << blocks << " blocks");
                const auto got = cut_from_blocks(prefix, blocks, ranks);
                CHECK(got.offsets == want.offsets);
                CHECK(got.kind == PartitionKind::nnz);
            }
        }
    }
    const std::vector<global_index> canonical{0, 3, 4, 7, 9};
    CHECK(cut_from_blocks(canonical, 2, 2).offsets == std::vector<global_index>{0, 2, 4});
}

TEST_CASE("The nnz cut of pde1100 over 4 ranks comes from closed-form counts in 64 bits",
          "[mpi][parallel_gen][nnz_split]")
{
    const std::int64_t k = 1100;
    const std::int64_t n = k * k * k;
    const auto spec = gen::parse_spec("gen:pde:size=1100");
    const std::int64_t total = 9'309'740'000;  // 7k^3 - 6k^2
    REQUIRE(pde_prefix(k, n) == total);

    // expected: partition_weighted's rule by bisection over the prefix counted here
    std::vector<global_index> want{0};
    for (int r = 1; r < 4; ++r) {
        const std::int64_t ideal = total / 4 * r;  // 2,327,435,000 r: exact
        global_index lo = 0, hi = n;
        while (lo < hi) {
            const auto mid = lo + (hi - lo) / 2;
            if (pde_prefix(k, mid) < ideal) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if (ideal - pde_prefix(k, lo - 1) < pde_prefix(k, lo) - ideal) {
            --lo;
        }
        want.push_back(lo);
    }
    want.push_back(n);
    // the middle cut: by symmetry of the grid, exactly half the rows
    CHECK(want[2] == n / 2);
    CHECK(want[1] > (std::int64_t{1} << 28));

    // 4 equal row blocks, each counting only its own rows by the generator's closed form
    const auto blocks = partition_rows(n, 4);
    std::vector<global_index> splits(3, -1);
    std::int64_t base = 0;
    for (int s = 0; s < 4; ++s) {
        const auto first = blocks.offsets[static_cast<std::size_t>(s)];
        const auto found = nnz_splits_in_block(
            first, blocks.count(s), base, total, 4,
            [&](global_index i) { return gen::count_nonzeros(spec, first, first + i); });
        for (std::size_t r = 0; r < 3; ++r) {
            splits[r] = std::max(splits[r], found[r]);
        }
        base += gen::count_nonzeros(spec, first, first + blocks.count(s));
    }
    CHECK(base == total);
    const auto got = nnz_partition_from_splits(n, 4, splits);
    CHECK(got.offsets == want);

    // and the collective on however many ranks run this (the same rule over comm.size())
    const auto P = world().size();
    const auto mine = partition_rows(n, P);
    const auto first = mine.offsets[static_cast<std::size_t>(world().rank())];
    const auto all =
        nnz_partition(world(), n, first, mine.count(world().rank()),
                      [&](global_index i) { return gen::count_nonzeros(spec, first, first + i); });
    if (P == 4) {
        CHECK(all.offsets == want);
    }
    CHECK(all.offsets.front() == 0);
    CHECK(all.offsets.back() == n);
}

TEST_CASE("Per-rank generation gives every rank the rows of the whole generator",
          "[mpi][parallel_gen]")
{
    const std::vector<std::string> specs = {
        "gen:pde:size=9",
        "gen:laplace2d:nx=17,ny=5",
        "gen:powerlaw:rows=1999,min-len=1,max-len=200,seed=4",
        "gen:onefull:n=101,seed=2",
        "gen:blocks5:block-rows=23,blocks=4,seed=6",  // 115 rows: blocks cut inside block rows
        "gen:banded:n=500,bandwidth=3,fill=0.4,seed=5",
        "gen:banded:n=50,bandwidth=1,offdiags=3",
        "gen:random:rows=301,cols=77,nnz-per-row=9,seed=3",
        "gen:onefull:n=2",  // fewer rows than ranks
    };
    const int P = world().size();
    const int me = world().rank();
    for (const auto& text : specs) {
        const auto a = gen::generate(gen::parse_spec(text));
        for (const auto kind : {PartitionKind::rows, PartitionKind::nnz}) {
            INFO(text << ", partition " << to_string(kind) << ", rank " << me << " of " << P);

            const auto got = generate_parallel<double>(world(), text, kind);

            const auto want = make_partition(a, kind, P);
            CHECK(got.per_rank);
            CHECK(got.note.empty());
            CHECK(got.partition.kind == kind);
            CHECK(got.partition.offsets == want.offsets);
            CHECK(same(got.rows, extract_rows(a, want, me)));
        }
    }

    // float: the same rows, values rounded once
    const auto a = gen::generate(gen::parse_spec("gen:powerlaw:rows=500,seed=8"));
    const auto got =
        generate_parallel<float>(world(), "gen:powerlaw:rows=500,seed=8", PartitionKind::nnz);
    const auto want = extract_rows(a, make_partition(a, PartitionKind::nnz, P), me);
    CHECK(got.rows.rows == want.rows);
    CHECK(got.rows.col_idxs == want.col_idxs);
    REQUIRE(got.rows.values.size() == want.values.size());
    for (std::size_t k = 0; k < want.values.size(); ++k) {
        REQUIRE(got.rows.values[k] == static_cast<float>(want.values[k]));
    }
}

TEST_CASE("Partition metis generates the whole matrix on rank 0 and sends the rows",
          "[mpi][parallel_gen]")
{
    if (!has_metis() && world().size() > 1) {
        return;  // a build without METIS partitions only on one rank
    }
    const std::string text = "gen:laplace2d:nx=20,ny=15";
    const auto a = gen::generate(gen::parse_spec(text));

    const auto got = generate_parallel<double>(world(), text, PartitionKind::metis);

    const auto want = make_partition(a, PartitionKind::metis, world().size());
    CHECK_FALSE(got.per_rank);
    CHECK_THAT(got.note, Catch::Contains("generated whole on rank 0") &&
                             Catch::Contains("metis needs the whole graph"));
    CHECK(got.partition.owners() == want.owners());
    CHECK(same(got.rows, extract_rows(a, want, world().rank())));
}

TEST_CASE("A rank over its budget ends every rank, naming it and its estimate",
          "[mpi][parallel_gen]")
{
    // onefull: rank 0's block holds the full row 0 (n entries), every other row one entry
    const std::string text = "gen:onefull:n=40000";
    const auto spec = gen::parse_spec(text);
    const int P = world().size();
    const auto blocks = partition_rows(40000, P);
    const auto rank0 = gen::rows_bytes(spec, 0, blocks.offsets[1]);
    MemoryBudget budget;
    budget.bytes = rank0 - 1;  // every other rank's rows fit, rank 0's not
    if (P > 1) {
        REQUIRE(gen::rows_bytes(spec, blocks.offsets[1], blocks.offsets[2]) < budget.bytes);
    }

    try {
        (void)generate_parallel<double>(world(), text, PartitionKind::rows, budget);
        FAIL("no error");
    } catch (const RemoteError& e) {
        CHECK(e.failed_rank() == 0);
        CHECK_THAT(e.what(), Catch::Contains("rank 0: generating its rows [0, " +
                                             std::to_string(blocks.offsets[1]) + ") of " + text));
    }

    // a bad spec: every rank ends with the parser's message
    try {
        (void)generate_parallel<double>(world(), "gen:pde:size=4,size=5", PartitionKind::nnz);
        FAIL("no error");
    } catch (const RemoteError& e) {
        CHECK_THAT(e.what(), Catch::Contains("key size given twice"));
    }
    // within the budget it runs
    budget.bytes = rank0;
    CHECK(generate_parallel<double>(world(), text, PartitionKind::rows, budget).rows.rows.size() ==
          static_cast<std::size_t>(blocks.count(world().rank())));
}
