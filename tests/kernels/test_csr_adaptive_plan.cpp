// csr_adaptive's row partition (spmv::gpu::plan_csr_adaptive): plain host code, so these run in
// the build without CUDA as well. Hand-checked plans for each kind of group (stream groups cut by
// the nonzero, row and serial limits, row groups, pieces), the automatic stream size, the
// invariants on random row lengths, and the configuration errors.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/error.hpp>
#include <spmv/gpu/csr_adaptive.hpp>

#include "test_matrices.hpp"

using namespace spmv;
using namespace spmv::gpu;
using spmv::test::row_ptrs_of;

namespace {

using Ints = std::vector<std::int32_t>;


CsrAdaptivePlan plan(const Ints& lengths, int stream_nnz, int serial = 8, int piece = 2048)
{
    const Ints p = row_ptrs_of(lengths);
    return plan_csr_adaptive(p, CsrAdaptiveConfig{stream_nnz, serial, piece});
}

}  // namespace

TEST_CASE("csr_adaptive plan: threads per row", "[csr_adaptive]")
{
    CHECK(csr_adaptive_threads_per_row(1) == 32);
    CHECK(csr_adaptive_threads_per_row(8) == 32);
    CHECK(csr_adaptive_threads_per_row(9) == 16);
    CHECK(csr_adaptive_threads_per_row(40) == 4);
    CHECK(csr_adaptive_threads_per_row(128) == 2);
    CHECK(csr_adaptive_threads_per_row(129) == 1);
    CHECK(csr_adaptive_threads_per_row(255) == 1);
    CHECK(csr_adaptive_row(5) == 5);
    CHECK(csr_adaptive_row(~5) == 5);
}

TEST_CASE("csr_adaptive plan: hand-checked groups", "[csr_adaptive]")
{
    SECTION("short rows: one stream group")
    {
        const auto p = plan({3, 3, 3, 3}, 256);
        CHECK(p.group_row == Ints{0, 4});
        CHECK(p.group_nnz == Ints{0, 12});
        CHECK(p.num_groups() == 1);
    }
    SECTION("a row longer than serial * 32 gets a row group of its own")
    {
        const auto p = plan({1, 300, 1, 1}, 256);
        CHECK(p.group_row == Ints{0, 1, 2, 4});
        CHECK(p.group_nnz == Ints{0, 1, 301, 303});
    }
    SECTION("a row longer than piece_nnz is cut into pieces")
    {
        const auto p = plan({2, 5000, 0}, 1024);
        CHECK(p.group_row == Ints{0, ~1, ~1, ~1, 2, 3});
        CHECK(p.group_nnz == Ints{0, 2, 2050, 4098, 5002, 5002});
        const auto q = plan({512}, 256, 8, 256);  // exactly two pieces of 256
        CHECK(q.group_row == Ints{~0, ~0, 1});
        CHECK(q.group_nnz == Ints{0, 256, 512});
    }
    SECTION("at most 255 rows per group")
    {
        const auto p = plan(Ints(300, 0), 256);
        CHECK(p.group_row == Ints{0, 255, 300});
        CHECK(p.group_nnz == Ints{0, 0, 0});
    }
    SECTION("the serial limit: rows per group fall with the longest row")
    {
        // serial 2: 40 rows of 1 share a group (4 threads per row); a row of 9 would need
        // 9 > 2 * 4 products per thread with 41 rows, so it starts the next group.
        Ints l(40, 1);
        l.push_back(9);
        const auto p = plan(l, 1024, 2);
        CHECK(p.group_row == Ints{0, 40, 41});
        CHECK(p.group_nnz == Ints{0, 40, 49});
    }
    SECTION("the nonzero limit of a stream group")
    {
        const auto p = plan({200, 200, 200}, 256);
        CHECK(p.group_row == Ints{0, 1, 2, 3});
        CHECK(p.group_nnz == Ints{0, 200, 400, 600});
        const auto q = plan({100, 100, 56, 1}, 256);
        CHECK(q.group_row == Ints{0, 3, 4});
        CHECK(q.group_nnz == Ints{0, 256, 257});
    }
    SECTION("no rows")
    {
        const auto p = plan({}, 256);
        CHECK(p.group_row == Ints{0});
        CHECK(p.group_nnz == Ints{0});
        CHECK(p.num_groups() == 0);
    }
}

TEST_CASE("csr_adaptive plan: automatic stream size", "[csr_adaptive]")
{
    // nnz / (2 * multiprocessors) nonzeros per group, rounded up to 256, 512 or 1024
    const Ints small = row_ptrs_of(Ints(1000, 1));
    CHECK(plan_csr_adaptive(small, {}, 132).stream_nnz == 256);
    const Ints mid = row_ptrs_of(Ints(264 * 100, 4));  // 400 per group
    CHECK(plan_csr_adaptive(mid, {}, 132).stream_nnz == 512);
    const Ints big = row_ptrs_of(Ints(264 * 150, 4));  // 600 per group
    CHECK(plan_csr_adaptive(big, {}, 132).stream_nnz == 1024);
}

TEST_CASE("csr_adaptive plan: invariants on random row lengths", "[csr_adaptive]")
{
    std::mt19937 rng(11);
    std::uniform_int_distribution<int> kind(0, 9);
    std::uniform_int_distribution<std::int32_t> shortlen(0, 12);
    std::uniform_int_distribution<std::int32_t> longlen(200, 9000);
    Ints l;
    for (int i = 0; i < 5000; ++i) {
        l.push_back(kind(rng) == 0 ? longlen(rng) : shortlen(rng));
    }
    const Ints rp = row_ptrs_of(l);
    for (const int s : {256, 512, 1024}) {
        for (const int serial : {1, 4, 8}) {
            for (const int piece : {256, 2048}) {
                const auto p = plan_csr_adaptive(rp, CsrAdaptiveConfig{s, serial, piece});
                INFO("stream " << s << ", serial " << serial << ", piece " << piece);
                REQUIRE(p.group_row.back() == 5000);
                REQUIRE(p.group_nnz.back() == rp.back());
                std::int32_t next_row = 0;
                for (std::int32_t g = 0; g < p.num_groups(); ++g) {
                    const auto e = p.group_row[g];
                    const auto b = p.group_nnz[g];
                    const auto end = p.group_nnz[g + 1];
                    REQUIRE(end >= b);
                    if (e < 0) {  // a piece: inside its row, piece_nnz long except the last
                        const auto r = ~e;
                        REQUIRE(b >= rp[r]);
                        REQUIRE(end <= rp[r + 1]);
                        REQUIRE(end - b <= piece);
                        REQUIRE((end - b == piece || end == rp[r + 1]));
                        REQUIRE(rp[r + 1] - rp[r] > piece);
                        next_row = r + 1;
                        continue;
                    }
                    REQUIRE(e == next_row);  // no row skipped or repeated
                    REQUIRE(b == rp[e]);
                    const auto r1 = csr_adaptive_row(p.group_row[g + 1]);
                    const int k = r1 - e;
                    REQUIRE(k >= 1);
                    REQUIRE(k <= csr_adaptive_max_rows);
                    REQUIRE(end == rp[r1]);
                    if (k > 1) {  // a stream group within its limits
                        REQUIRE(end - b <= s);
                        for (std::int32_t r = e; r < r1; ++r) {
                            REQUIRE(rp[r + 1] - rp[r] <= serial * csr_adaptive_threads_per_row(k));
                        }
                    } else {
                        REQUIRE(end - b <= std::max(piece, s));
                    }
                    next_row = r1;
                }
                REQUIRE(next_row == 5000);
            }
        }
    }
}

TEST_CASE("csr_adaptive plan: configuration errors", "[csr_adaptive]")
{
    const Ints rp = row_ptrs_of({1, 2, 3});
    CHECK_THROWS_AS(plan_csr_adaptive(rp, CsrAdaptiveConfig{300}), InvalidArgument);
    CHECK_THROWS_AS(plan_csr_adaptive(rp, CsrAdaptiveConfig{256, 0}), InvalidArgument);
    CHECK_THROWS_AS(plan_csr_adaptive(rp, CsrAdaptiveConfig{256, 8, 100}), InvalidArgument);
    CHECK_THROWS_AS(plan_csr_adaptive(rp, CsrAdaptiveConfig{256, 8, 2304}), InvalidArgument);
    CHECK_THROWS_AS(plan_csr_adaptive(Ints{0, 3, 2}, {}), InvalidArgument);
    CHECK_THROWS_WITH(plan_csr_adaptive(rp, CsrAdaptiveConfig{300}),
                      Catch::Contains("stream_nnz must be 0 (automatic), 256, 512 or 1024"));
}
