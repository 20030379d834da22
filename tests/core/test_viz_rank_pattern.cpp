// The Distribution view's pattern coloured by owning rank (spmv::viz::rasterize_ranks):
// hand-checked on the canonical 4x4, compared with partition_stats' local / non-local split.
#include <catch2/catch.hpp>

#include <spmv/dist/model.hpp>
#include <spmv/dist/partition.hpp>
#include <spmv/error.hpp>
#include <spmv/generators.hpp>
#include <spmv/viz/rank_pattern.hpp>

#include "test_matrices.hpp"

using namespace spmv;
using namespace spmv::viz;

namespace {

struct Totals {
    std::int64_t local = 0;
    std::int64_t nonlocal = 0;
};

Totals sum(const RankRaster& r)
{
    Totals t;
    for (auto c : r.local) t.local += c;
    for (auto c : r.nonlocal) t.nonlocal += c;
    return t;
}

}  // namespace

TEST_CASE("The canonical 4x4 over 2 ranks by rows has 5 local and 4 non-local entries",
          "[viz][rank_pattern]")
{
    const auto a = test::canonical4();
    const auto part = dist::partition_rows(4, 2);      // rows 0-1 rank 0, rows 2-3 rank 1
    const auto view = ViewTransform::fit(4, 4, 4, 4);  // one pixel per cell

    const auto r = rasterize_ranks(a, part, view);

    REQUIRE(r.width == 4);
    REQUIRE(r.height == 4);
    CHECK(r.num_ranks == 2);
    // (x = column, y = row): local (0,0) (1,1) (2,2) (2,3) (3,3)
    CHECK(r.local_at(0, 0) == 1);
    CHECK(r.local_at(1, 1) == 1);
    CHECK(r.local_at(2, 2) == 1);
    CHECK(r.local_at(3, 2) == 1);
    CHECK(r.local_at(3, 3) == 1);
    // non-local (0,2) (0,3) (2,0) (3,1)
    CHECK(r.nonlocal_at(2, 0) == 1);
    CHECK(r.nonlocal_at(3, 0) == 1);
    CHECK(r.nonlocal_at(0, 2) == 1);
    CHECK(r.nonlocal_at(1, 3) == 1);
    // nothing else: zeros stay empty, no entry counted twice
    CHECK(r.local_at(1, 0) + r.nonlocal_at(1, 0) == 0);
    CHECK(r.local_at(0, 1) + r.nonlocal_at(0, 1) == 0);
    CHECK(r.local_visited == 5);
    CHECK(r.nonlocal_visited == 4);
    CHECK(sum(r).local == 5);
    CHECK(sum(r).nonlocal == 4);
    CHECK(r.max_count == 1);
    CHECK(r.row_owner == std::vector<std::int32_t>{0, 0, 1, 1});
    CHECK(r.col_owner == std::vector<std::int32_t>{0, 0, 1, 1});
    CHECK(r.owner_at(3, 2) == 1);
    CHECK(r.row_bounds == std::vector<std::int64_t>{0, 2, 4});
    CHECK(r.col_bounds == std::vector<std::int64_t>{0, 2, 4});
}

TEST_CASE("Two rows and two columns per pixel add up local and non-local entries separately",
          "[viz][rank_pattern]")
{
    const auto a = test::canonical4();
    const auto part = dist::partition_rows(4, 2);
    const auto view = ViewTransform::fit(4, 4, 2, 2);  // scale 0.5

    const auto r = rasterize_ranks(a, part, view);

    // [local 2 | non-local 2]  rows 0-1: (0,0) (1,1) | (0,2) (0,3)
    // [non-local 2 | local 3]  rows 2-3: (2,0) (3,1) | (2,2) (2,3) (3,3)
    CHECK(r.local_at(0, 0) == 2);
    CHECK(r.nonlocal_at(0, 0) == 0);
    CHECK(r.local_at(1, 0) == 0);
    CHECK(r.nonlocal_at(1, 0) == 2);
    CHECK(r.local_at(0, 1) == 0);
    CHECK(r.nonlocal_at(0, 1) == 2);
    CHECK(r.local_at(1, 1) == 3);
    CHECK(r.nonlocal_at(1, 1) == 0);
    CHECK(r.max_count == 3);
    CHECK(r.row_owner == std::vector<std::int32_t>{0, 1});
}

TEST_CASE("Rank pixels are solid when local, dark when non-local, the band tint when empty",
          "[viz][rank_pattern]")
{
    const auto a = test::canonical4();
    const auto part = dist::partition_rows(4, 2);
    auto view = ViewTransform::fit(4, 4, 4, 4);
    const auto r = rasterize_ranks(a, part, view);
    const std::uint32_t outside = 0xff123456u;

    const auto px = rank_argb(r, view, outside);

    auto at = [&](int x, int y) { return Rgb::from_argb(px[r.index(x, y)]); };
    CHECK(at(0, 0) == rank_colour(0));           // A(0,0) local, rank 0
    CHECK(at(2, 0) == rank_nonlocal_colour(0));  // A(0,2) non-local, rank 0's row
    CHECK(at(1, 0) == rank_band_colour(0));      // A(0,1) = 0 in rank 0's band
    CHECK(at(0, 2) == rank_nonlocal_colour(1));  // A(2,0)
    CHECK(at(2, 2) == rank_colour(1));           // A(2,2)
    CHECK(at(2, 3) == rank_band_colour(1));      // A(3,2) = 0
    CHECK(rank_colour(0) == okabe_ito::blue);
    CHECK(rank_colour(1) == okabe_ito::orange);
    CHECK(rank_colour(7) == rank_colour(0));  // seven colours, then again
    CHECK(rank_colour(-1) == palette().background);
}

TEST_CASE("Large cells outline non-local entries in black and separate local ones",
          "[viz][rank_pattern]")
{
    const auto a = test::canonical4();
    const auto part = dist::partition_rows(4, 2);
    const auto view = ViewTransform::fit(4, 4, 40, 40);  // 10 px per cell
    const auto r = rasterize_ranks(a, part, view);

    const auto px = rank_argb(r, view, 0xff000000u);

    auto at = [&](int x, int y) { return Rgb::from_argb(px[r.index(x, y)]); };
    // cell (0,2) non-local: pixels x 20..29, y 0..9
    CHECK(at(20, 5) == rank_outline_colour);
    CHECK(at(29, 5) == rank_outline_colour);
    CHECK(at(25, 0) == rank_outline_colour);
    CHECK(at(25, 5) == rank_nonlocal_colour(0));
    // cell (0,0) local: border in the band colour, inside solid
    CHECK(at(0, 5) == rank_band_colour(0));
    CHECK(at(5, 5) == rank_colour(0));
    // below the outline scale there is no border
    const auto small = ViewTransform::fit(4, 4, 20, 20);  // 5 px per cell
    const auto rs = rasterize_ranks(a, part, small);
    const auto ps = rank_argb(rs, small, 0xff000000u);
    CHECK(Rgb::from_argb(ps[rs.index(10, 0)]) == rank_nonlocal_colour(0));
}

TEST_CASE("Zoomed out, a non-local pixel is widened onto its neighbours", "[viz][rank_pattern]")
{
    // 8x8 block diagonal over 2 ranks plus one non-local entry (1, 6); 4x4 pixels, scale 0.5
    std::vector<std::int32_t> rows, cols;
    std::vector<double> vals;
    for (std::int32_t i = 0; i < 8; ++i) {
        rows.push_back(i);
        cols.push_back(i);
        vals.push_back(1.0);
    }
    rows.push_back(1);
    cols.push_back(6);
    vals.push_back(2.0);
    const auto a = csr_from_triplets<double, std::int32_t>(8, 8, rows, cols, vals);
    const auto part = dist::partition_rows(8, 2);
    const auto view = ViewTransform::fit(8, 8, 4, 4);
    const auto r = rasterize_ranks(a, part, view);
    REQUIRE(r.nonlocal_at(3, 0) == 1);

    const auto wide = rank_argb(r, view, 0xff000000u);
    const auto plain = rank_argb(r, view, 0xff000000u, 0);

    auto at = [&](const std::vector<std::uint32_t>& px, int x, int y) {
        return Rgb::from_argb(px[r.index(x, y)]);
    };
    CHECK(at(plain, 3, 0) == rank_nonlocal_colour(0));
    CHECK(at(plain, 2, 0) == rank_band_colour(0));
    CHECK(at(wide, 2, 0) == rank_nonlocal_colour(0));  // neighbour, same row band
    CHECK(at(wide, 2, 1) == rank_nonlocal_colour(0));  // diagonal neighbour
    CHECK(at(wide, 1, 0) == rank_band_colour(0));      // two pixels away
    CHECK(at(wide, 0, 0) == rank_colour(0));           // local diagonal
    CHECK(r.local_visited == 8);                       // the counts are unchanged
}

TEST_CASE("Pixels outside the matrix get the outside colour and no owner", "[viz][rank_pattern]")
{
    const auto a = test::canonical4();
    const auto part = dist::partition_rows(4, 2);
    const auto view = ViewTransform::fit(4, 4, 8, 4);  // 1 px per cell, centred: x 2..5

    const auto r = rasterize_ranks(a, part, view);
    const auto px = rank_argb(r, view, 0xff123456u);

    CHECK(view.origin_x == 2.0);
    CHECK(px[r.index(0, 0)] == 0xff123456u);
    CHECK(px[r.index(7, 3)] == 0xff123456u);
    CHECK(r.col_owner == std::vector<std::int32_t>{-1, -1, 0, 0, 1, 1, -1, -1});
    CHECK(r.local_at(2, 0) == 1);  // A(0,0)
}

TEST_CASE("A partition of another matrix size is refused", "[viz][rank_pattern]")
{
    const auto a = test::canonical4();
    const auto view = ViewTransform::fit(4, 4, 4, 4);

    CHECK_THROWS_AS(rasterize_ranks(a, dist::partition_rows(5, 2), view), InvalidArgument);
}

TEST_CASE("The rank pattern splits entries exactly as partition_stats does", "[viz][rank_pattern]")
{
    const auto a = test::random_csr(300, 300, 1, 12, 5);
    for (int ranks : {1, 3, 7}) {
        for (auto kind : {dist::PartitionKind::rows, dist::PartitionKind::nnz}) {
            const auto part = dist::make_partition(a, kind, ranks);
            const auto stats = dist::partition_stats(a, part);
            std::int64_t local = 0;
            std::int64_t nonlocal = 0;
            for (const auto& s : stats.ranks) {
                local += s.local_nnz;
                nonlocal += s.nonlocal_nnz;
            }

            const auto r = rasterize_ranks(a, part, ViewTransform::fit(300, 300, 97, 61));

            INFO(ranks << " ranks, " << dist::to_string(kind));
            CHECK(r.local_visited == local);
            CHECK(r.nonlocal_visited == nonlocal);
            CHECK(sum(r).local == local);
            CHECK(sum(r).nonlocal == nonlocal);
            CHECK(r.row_bounds == part.offsets);
        }
    }
}

TEST_CASE("A METIS partition is shown rank by rank with its local blocks on the diagonal",
          "[viz][rank_pattern][metis]")
{
    if (!dist::has_metis()) {
        WARN("built without METIS: the METIS case is not checked");
        return;
    }
    const auto a = gen::laplace2d(8, 8);  // 64 rows
    const auto part = dist::make_partition(a, dist::PartitionKind::metis, 3);
    const auto stats = dist::partition_stats(a, part);
    const auto view = ViewTransform::fit(64, 64, 64, 64);  // one pixel per cell

    const auto r = rasterize_ranks(a, part, view);
    const auto ungrouped =
        rasterize_ranks(a, part, view, RankPatternOptions{.group_by_rank = false});

    REQUIRE(r.row_bounds.size() == 4);
    CHECK(r.row_bounds.front() == 0);
    CHECK(r.row_bounds.back() == 64);
    CHECK(r.col_bounds == r.row_bounds);  // square: x is distributed like the rows
    for (int rank = 0; rank < 3; ++rank) {
        const auto rz = static_cast<std::size_t>(rank);
        CHECK(r.row_bounds[rz + 1] - r.row_bounds[rz] == stats.ranks[rz].rows);
        for (auto y = r.row_bounds[rz]; y < r.row_bounds[rz + 1]; ++y) {
            CHECK(r.row_owner[static_cast<std::size_t>(y)] == rank);
        }
    }
    std::int64_t nonlocal = 0;
    for (const auto& s : stats.ranks) nonlocal += s.nonlocal_nnz;
    CHECK(r.nonlocal_visited == nonlocal);
    CHECK(r.local_visited == stats.nnz - nonlocal);
    // grouped: local entries lie in the diagonal blocks, non-local ones outside them
    bool blocks_ok = true;
    for (int y = 0; y < 64; ++y) {
        for (int x = 0; x < 64; ++x) {
            const bool same = r.row_owner[static_cast<std::size_t>(y)] ==
                              r.col_owner[static_cast<std::size_t>(x)];
            if ((r.local_at(x, y) > 0 && !same) || (r.nonlocal_at(x, y) > 0 && same)) {
                blocks_ok = false;
            }
        }
    }
    CHECK(blocks_ok);
    // in the original order the scattered rows have no bands, and the same split
    CHECK(ungrouped.row_bounds.empty());
    CHECK(ungrouped.nonlocal_visited == nonlocal);
    CHECK(ungrouped.row_owner[5] == part.owner[5]);
}
