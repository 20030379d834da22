// csr_tiled's plan (spmv::gpu::plan_csr_tiled): plain host code, so these run in the build
// without CUDA as well. Hand-checked plans (cut rows, an empty row, rows ending exactly on a
// chunk boundary, a long cut row, no nonzeros), the configuration and input errors, and on
// random row lengths a host replay of the kernel's row count (the first row of the chunk plus
// the start bits before a nonzero) against the true row of every nonzero.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/error.hpp>
#include <spmv/gpu/csr_tiled.hpp>

#include "test_matrices.hpp"

using namespace spmv;
using namespace spmv::gpu;
using spmv::test::row_ptrs_of;

namespace {

using Ints = std::vector<std::int32_t>;


bool bit(const CsrTiledPlan& p, std::int32_t chunk, std::int32_t q)
{
    const auto w = static_cast<std::size_t>(chunk) * static_cast<std::size_t>(p.steps + 1) +
                   static_cast<std::size_t>(q / 32);
    return ((p.starts[w] >> (q % 32)) & 1u) != 0;
}

}  // namespace

TEST_CASE("csr_tiled plan: cut rows, an empty row, the row map (S = 2)", "[kernels][csr_tiled]")
{
    // rows 3, 0, 70, 130, 1: nonzeros [0,3) [3,3) [3,73) [73,203) [203,204); chunks of 64:
    // [0,64) [64,128) [128,192) [192,204)
    const auto p = plan_csr_tiled(row_ptrs_of({3, 0, 70, 130, 1}), {2});
    CHECK(p.steps == 2);
    CHECK(p.chunk_nnz == 64);
    CHECK(p.num_chunks == 4);
    // non-empty rows 0, 2, 3, 4 are numbered 0, 1, 2, 3; nonzero 0 in row 0, 64 in row 2,
    // 128 and 192 in row 3
    CHECK(p.chunk_row == Ints{0, 1, 2, 2});
    CHECK(p.rows == Ints{0, 2, 3, 4});
    CHECK(p.empty_rows == Ints{1});
    // starts: row 0 at 0 (chunk 0 bit 0), row 2 at 3 (bit 3), row 3 at 73 (chunk 1 bit 9),
    // row 4 at 203 (chunk 3 bit 11), the end 204 (chunk 3 bit 12); three words per chunk
    CHECK(p.starts == std::vector<std::uint32_t>{0x9u, 0, 0, 0x200u, 0, 0, 0, 0, 0, 0x1800u, 0,
                                                 0});
    // row 2 spans chunks 0..1, row 3 chunks 1..3
    CHECK(p.cut == std::vector<CsrTiledCut>{{2, 0, 1, 0}, {3, 1, 3, 0}});
    CHECK(p.long_cut.empty());
}

TEST_CASE("csr_tiled plan: rows ending exactly on chunk boundaries", "[kernels][csr_tiled]")
{
    // two rows of 64 (S = 2): row 1 starts at 64 = bit 0 of chunk 1 and bit 64 (word 2 bit 0)
    // of chunk 0; the end 128 is bit 64 of chunk 1; no cut, no map
    const auto p = plan_csr_tiled(row_ptrs_of({64, 64}), {2});
    CHECK(p.num_chunks == 2);
    CHECK(p.starts == std::vector<std::uint32_t>{1u, 0, 1u, 1u, 0, 1u});
    CHECK(p.chunk_row == Ints{0, 1});
    CHECK(p.cut.empty());
    CHECK(p.rows.empty());
    CHECK(p.empty_rows.empty());
    // the default S = 4: one chunk of 128 holding both rows
    const auto q = plan_csr_tiled(row_ptrs_of({64, 64}));
    CHECK(q.steps == 4);
    CHECK(q.num_chunks == 1);
    CHECK(q.starts == std::vector<std::uint32_t>{1u, 0, 1u, 0, 1u});
}

TEST_CASE("csr_tiled plan: a long cut row, and no nonzeros at all", "[kernels][csr_tiled]")
{
    // one row of 64 x 40 + 1 (S = 2): 41 chunks, 41 pieces > csr_tiled_thread_pieces
    const auto p = plan_csr_tiled(row_ptrs_of({0, 64 * 40 + 1, 5}), {2});
    CHECK(p.num_chunks == 41);
    CHECK(p.cut.empty());
    CHECK(p.long_cut == std::vector<CsrTiledCut>{{1, 0, 40, 0}});
    CHECK(p.empty_rows == Ints{0});
    CHECK(p.rows == Ints{1, 2});
    // rows of 64 x 32: exactly 32 pieces, still a thread's
    const auto q = plan_csr_tiled(row_ptrs_of({1, 64 * 32 - 1}), {2});
    CHECK(q.cut == std::vector<CsrTiledCut>{{1, 0, 31, 0}});
    CHECK(q.long_cut.empty());

    const auto e = plan_csr_tiled(row_ptrs_of({0, 0, 0}));
    CHECK(e.num_chunks == 0);
    CHECK(e.starts.empty());
    CHECK(e.empty_rows == Ints{0, 1, 2});
    CHECK(e.rows.empty());
    const auto z = plan_csr_tiled(Ints{0});  // 0 rows
    CHECK(z.num_chunks == 0);
    CHECK(z.empty_rows.empty());
}

TEST_CASE("csr_tiled plan: errors", "[kernels][csr_tiled]")
{
    CHECK_THROWS_AS(plan_csr_tiled(row_ptrs_of({1, 2}), {3}), InvalidArgument);
    CHECK_THROWS_AS(plan_csr_tiled(row_ptrs_of({1, 2}), {16}), InvalidArgument);
    CHECK_THROWS_AS(plan_csr_tiled(Ints{}), InvalidArgument);
    CHECK_THROWS_AS(plan_csr_tiled(Ints{1, 2}), InvalidArgument);
    CHECK_THROWS_AS(plan_csr_tiled(Ints{0, 5, 3}), InvalidArgument);
    CHECK_THROWS_AS(plan_csr_tiled(Ints{0, 2147483600}), InvalidArgument);
}

TEST_CASE("csr_tiled plan: the kernel's row count finds every nonzero's row",
          "[kernels][csr_tiled]")
{
    std::mt19937 rng(21);
    for (const int steps : {2, 4, 8}) {
        for (int trial = 0; trial < 20; ++trial) {
            Ints lengths(static_cast<std::size_t>(1 + rng() % 400));
            for (auto& l : lengths) {  // empty, short, around a chunk, and long rows
                const auto kind = rng() % 10;
                l = kind == 0   ? 0
                    : kind < 7  ? static_cast<std::int32_t>(rng() % 8)
                    : kind < 9  ? static_cast<std::int32_t>(rng() % 300)
                                : static_cast<std::int32_t>(rng() % 3000);
            }
            const auto rp = row_ptrs_of(lengths);
            const auto p = plan_csr_tiled(rp, {steps});
            const std::int32_t K = 32 * steps, nnz = rp.back();
            REQUIRE(p.num_chunks == (nnz + K - 1) / K);
            // the non-empty rows in order, and the true (non-empty) row of every nonzero
            Ints nonempty;
            Ints row_of(static_cast<std::size_t>(nnz));
            for (std::size_t r = 0; r < lengths.size(); ++r) {
                if (lengths[r] > 0) {
                    for (auto k = rp[r]; k < rp[r + 1]; ++k) {
                        row_of[static_cast<std::size_t>(k)] =
                            static_cast<std::int32_t>(nonempty.size());
                    }
                    nonempty.push_back(static_cast<std::int32_t>(r));
                }
            }
            CHECK(p.rows == (p.empty_rows.empty() ? Ints{} : nonempty));
            CHECK(p.empty_rows.size() + nonempty.size() == lengths.size());
            std::size_t cuts = 0;
            for (std::int32_t c = 0; c < p.num_chunks; ++c) {
                const std::int32_t k0 = c * K, k1 = std::min(k0 + K, nnz);
                const std::int32_t r0 = p.chunk_row[static_cast<std::size_t>(c)];
                std::int32_t seen = 0;
                for (std::int32_t k = k0; k < k1; ++k) {
                    if (k > k0 && bit(p, c, k - k0)) {
                        ++seen;
                    }
                    INFO("S " << steps << " trial " << trial << " chunk " << c << " nonzero " << k);
                    REQUIRE(r0 + seen == row_of[static_cast<std::size_t>(k)]);
                    // a row ends at k exactly when the next position holds a start bit
                    const bool ends = k + 1 == nnz || row_of[static_cast<std::size_t>(k) + 1] !=
                                                          row_of[static_cast<std::size_t>(k)];
                    REQUIRE(bit(p, c, k + 1 - k0) == ends);
                }
                // bit 0: the chunk's first row starts at its first nonzero
                CHECK(bit(p, c, 0) == (k0 == 0 || row_of[static_cast<std::size_t>(k0) - 1] != r0));
            }
            for (const bool short_list : {true, false}) {
                for (const auto& cut : short_list ? p.cut : p.long_cut) {
                    const auto r = static_cast<std::size_t>(cut.row);
                    CHECK(cut.first == rp[r] / K);
                    CHECK(cut.last == (rp[r + 1] - 1) / K);
                    CHECK(cut.last > cut.first);
                    CHECK((cut.last - cut.first + 1 <= csr_tiled_thread_pieces) == short_list);
                    ++cuts;
                }
            }
            std::size_t expected_cuts = 0;
            for (std::size_t r = 0; r < lengths.size(); ++r) {
                expected_cuts += lengths[r] > 0 && rp[r] / K != (rp[r + 1] - 1) / K ? 1 : 0;
            }
            CHECK(cuts == expected_cuts);
        }
    }
}
