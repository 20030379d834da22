// The widest-first launch order of sell / sell_i16's blocks (spmv/gpu/block_order.hpp): plain
// host code, so these run in every build. The kernels that use it are checked on the device by
// tests/gpu (sell, sell_i16 against the host reference on matrices launched in blocks of 128).
#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/error.hpp>
#include <spmv/gpu/block_order.hpp>

using spmv::gpu::block_order_pays;
using spmv::gpu::BlockOrderDecision;
using spmv::gpu::describe_block_order;
using spmv::gpu::note_block_order;
using spmv::gpu::resident_blocks;
using spmv::gpu::take_block_order;
using spmv::gpu::widest_first_block_order;

namespace {

using Widths = std::vector<std::int32_t>;

int width_class(std::int32_t w)
{
    return std::bit_width(static_cast<std::uint32_t>(w));
}

}  // namespace

TEST_CASE("block order: blocks of one width class launch in their own order", "[block-order]")
{
    // pde-like: 7-point rows with shorter boundary rows, widths 4..7 are one class (4 <= w < 8)
    CHECK(widest_first_block_order(Widths{7, 7, 6, 7, 4, 5, 7, 7}, 2).empty());
    CHECK(widest_first_block_order(Widths{5}, 4).empty());
    CHECK(widest_first_block_order(Widths{}, 4).empty());
    // already widest class first (non-increasing), any widths inside a class
    CHECK(widest_first_block_order(Widths{40, 33, 20, 31, 9, 8, 1, 0}, 2).empty());
}

TEST_CASE("block order: hand-checked orders", "[block-order]")
{
    // blocks of 2 slices: block widths max(5,3)=5, max(40,2)=40, max(10,15)=15, max(35,20)=35
    // classes (floor(log2) + 1): 3, 6, 4, 6  ->  blocks 1, 3 (class 6, in order), 2, 0
    CHECK(widest_first_block_order(Widths{5, 3, 40, 2, 10, 15, 35, 20}, 2) == Widths{1, 3, 2, 0});
    // a last partial block (slices 6 of 2 per block, 7 slices: block 3 holds slice 6 alone)
    CHECK(widest_first_block_order(Widths{1, 1, 2, 2, 4, 4, 64}, 2) == Widths{3, 2, 1, 0});
    // empty blocks (width 0, e.g. the rows past the last real row) go last; 1 slice per block
    CHECK(widest_first_block_order(Widths{0, 3, 0, 1}, 1) == Widths{1, 3, 0, 2});
    // the class boundaries are powers of two: 7 and 4 tie, 8 is wider
    CHECK(widest_first_block_order(Widths{4, 7, 8}, 1) == Widths{2, 0, 1});
}

TEST_CASE("block order: a permutation, classes non-increasing, stable inside a class",
          "[block-order]")
{
    std::mt19937 rng(37);
    for (int trial = 0; trial < 50; ++trial) {
        const int per = 1 + trial % 8;
        Widths w(static_cast<std::size_t>(1 + rng() % 3000));
        for (auto& x : w) {
            x = static_cast<std::int32_t>(rng() % 3 == 0 ? rng() % 2000 : 5 * (1 + rng() % 8));
        }
        const auto order = widest_first_block_order(w, per);
        const std::size_t blocks =
            (w.size() + static_cast<std::size_t>(per) - 1) / static_cast<std::size_t>(per);
        std::vector<int> cls(blocks, 0);
        for (std::size_t s = 0; s < w.size(); ++s) {
            cls[s / static_cast<std::size_t>(per)] =
                std::max(cls[s / static_cast<std::size_t>(per)], width_class(w[s]));
        }
        if (order.empty()) {
            CHECK(std::is_sorted(cls.begin(), cls.end(), std::greater<>{}));
            continue;
        }
        REQUIRE(order.size() == blocks);
        auto sorted = order;
        std::sort(sorted.begin(), sorted.end());
        for (std::size_t b = 0; b < blocks; ++b) {
            REQUIRE(sorted[b] == static_cast<std::int32_t>(b));
        }
        for (std::size_t i = 1; i < blocks; ++i) {
            const auto l = static_cast<std::size_t>(order[i - 1]);
            const auto r = static_cast<std::size_t>(order[i]);
            REQUIRE(cls[l] >= cls[r]);
            if (cls[l] == cls[r]) {
                REQUIRE(l < r);  // stable: blockIdx order inside a class
            }
        }
    }
}

TEST_CASE("block order: bad arguments are refused", "[block-order]")
{
    CHECK_THROWS_AS(widest_first_block_order(Widths{1, 2}, 0), spmv::InvalidArgument);
    CHECK_THROWS_WITH(widest_first_block_order(Widths{1, -3}, 1),
                      Catch::Contains("slice 1 has the negative width -3"));
}

TEST_CASE("block order: only a grid of more than one resident wave needs one", "[block-order]")
{
    // an H100 or H200: 132 multiprocessors of 2048 threads, 16 blocks of 128 each: 2,112 blocks
    CHECK_FALSE(block_order_pays(2112, 128, 132, 2048));
    CHECK(block_order_pays(2113, 128, 132, 2048));
    CHECK_FALSE(block_order_pays(4224, 64, 132, 2048));
    CHECK(block_order_pays(4225, 64, 132, 2048));
    CHECK_FALSE(block_order_pays(0, 128, 132, 2048));
    // a block wider than a multiprocessor's threads still runs one per multiprocessor
    CHECK(block_order_pays(133, 4096, 132, 2048));
    CHECK_THROWS_AS(block_order_pays(10, 0, 132, 2048), spmv::InvalidArgument);
    CHECK_THROWS_WITH(block_order_pays(-1, 128, 132, 2048),
                      Catch::Contains("blocks -1 (must not be negative)"));
    CHECK_THROWS_WITH(block_order_pays(10, 0, 132, 2048),
                      Catch::Contains("block threads 0, multiprocessors 132"));
    CHECK_THROWS_AS(block_order_pays(10, 128, 0, 2048), spmv::InvalidArgument);
    CHECK_THROWS_AS(block_order_pays(10, 128, 132, 0), spmv::InvalidArgument);
}

TEST_CASE("block order: resident blocks per device", "[block-order]")
{
    CHECK(resident_blocks(128, 132, 2048) == 2112);  // H100 SXM, H200
    CHECK(resident_blocks(64, 132, 2048) == 4224);
    CHECK(resident_blocks(256, 108, 2048) == 864);   // A100
    CHECK(resident_blocks(1024, 132, 1536) == 132);  // one block per SM whatever is left
    CHECK_THROWS_AS(resident_blocks(128, 0, 2048), spmv::InvalidArgument);
}

TEST_CASE("block order: the launch's log and its words", "[block-order]")
{
    (void)take_block_order();
    CHECK_FALSE(take_block_order().has_value());
    note_block_order({false, 10, 64, 4224});
    note_block_order({true, 3907, 128, 2112});  // the last launch's order stays
    const auto d = take_block_order();
    REQUIRE(d.has_value());
    CHECK(d->widest_first);
    CHECK(d->blocks == 3907);
    CHECK_FALSE(take_block_order().has_value());  // taken: the log is empty
    CHECK(describe_block_order(*d) == "widest first: 3907 blocks of 128 > 2112 resident");
    CHECK(describe_block_order({false, 782, 128, 2112}) ==
          "index order: 782 blocks of 128 <= 2112 resident");
    CHECK(describe_block_order({false, 7813, 128, 2112}) ==
          "index order: 7813 blocks of 128 > 2112 resident, width classes already in order");
    // a slice height that does not divide the block's rows (C = 24, blocks of 128): no order is
    // built, and the reason says so rather than that the classes are in order
    CHECK(describe_block_order({false, 3907, 128, 2112, false}) ==
          "index order: 3907 blocks of 128 > 2112 resident, blocks do not hold whole slices");
}
