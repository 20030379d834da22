// The whole-matrix waste strip (spmv::viz::waste_strip): hand-checked warps binned into columns.
#include <catch2/catch.hpp>

#include <spmv/analysis/warps.hpp>
#include <spmv/error.hpp>
#include <spmv/viz/warp_grid.hpp>

using namespace spmv;

TEST_CASE("The waste strip bins consecutive warps and gives each column's useful share", "[waste_strip]")
{
    // warp size 2, 4 warps: rows of lengths (2,2) (2,0) (1,1) (2,1); the loop runs to each warp's
    // longest row: reserved 4, 4, 2, 4 lane slots; useful 4, 2, 2, 3
    ThreadWork w;
    w.iterations = {2, 2, 2, 0, 1, 1, 2, 1};
    w.useful = w.iterations;
    w.stored = w.iterations;
    const auto a = analysis::analyze_warps(w, 2);
    REQUIRE(a.warps.size() == 4);

    const auto two = viz::waste_strip(a, 2, 2);
    REQUIRE(two.size() == 2);
    CHECK(two[0].first_warp == 0);
    CHECK(two[0].last_warp == 1);
    CHECK(two[0].reserved == 8);
    CHECK(two[0].useful == Approx(6.0 / 8.0));
    CHECK(two[0].idle == Approx(2.0 / 8.0));
    CHECK(two[1].first_warp == 2);
    CHECK(two[1].last_warp == 3);
    CHECK(two[1].reserved == 6);
    CHECK(two[1].useful == Approx(5.0 / 6.0));

    // more columns than warps: one warp each; 3 columns for 4 warps: 2 + 2
    CHECK(viz::waste_strip(a, 2, 10).size() == 4);
    CHECK(viz::waste_strip(a, 2, 3).size() == 2);
    CHECK(viz::waste_strip(a, 2, 1).front().useful == Approx(11.0 / 14.0));
    CHECK_THROWS_AS(viz::waste_strip(a, 2, 0), InvalidArgument);
    CHECK(viz::waste_strip(analysis::WarpAnalysis{}, 32, 5).empty());
}
