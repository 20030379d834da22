// Qt-free parts of gui/: the construction view's layout, the warp layout, the timing rows.
#include <catch2/catch.hpp>

#include "session/timing_table.hpp"
#include "widgets/layout_geometry.hpp"

TEST_CASE("The construction grid gets the preferred cell size when it fits", "[gui][geometry]")
{
    LayoutMetrics m;  // margin 8, row labels 40, preferred cell 32, line 16

    const auto g = layoutGeometry(4, 3, {}, 100, 800, m);

    CHECK(g.cell == 32);
    CHECK(g.grid.x == 48);   // margin + row labels
    CHECK(g.grid.y == 116);  // top + one line of column numbers
    CHECK(g.cellRect(2, 1).x == 48 + 32);
    CHECK(g.cellRect(2, 1).y == 116 + 64);
    CHECK(g.cellAt(48 + 33, 116 + 65) == std::pair<int, int>{2, 1});
    CHECK_FALSE(g.cellAt(47, 120).has_value());
    CHECK_FALSE(g.cellAt(48 + 96, 120).has_value());  // right of the last column
}

TEST_CASE("A wide grid shrinks its cells to the view width", "[gui][geometry]")
{
    LayoutMetrics m;

    const auto g = layoutGeometry(10, 100, {}, 0, 456, m);
    const auto h = layoutGeometry(10, 1000, {}, 0, 456, m);

    CHECK(g.cell == 4);  // (456 - 48 - 8) / 100
    CHECK(g.grid.w == 400);
    CHECK(h.cell == 3);  // 0.4 is below minCell
}

TEST_CASE("Array entries wrap and leave a gap before each group", "[gui][geometry]")
{
    LayoutMetrics m;
    m.charWidth = 10;
    m.arrayLabelWidth = 100;
    ArrayShape a;
    a.entries = 10;
    a.digits = 1;  // entry width 10 * 2.2 = 22
    a.groupStarts = {4, 8};

    const auto g = layoutGeometry(1, 1, {a}, 0, 300, m);

    REQUIRE(g.arrays.size() == 1);
    const auto& e = g.arrays[0].entries;
    REQUIRE(e.size() == 10);
    CHECK(e[0].x == 108);  // margin + label column
    CHECK(e[1].x == Approx(108 + 22));
    CHECK(e[4].x == Approx(108 + 4 * 22 + m.groupGap));
    // 300 - 8 = 292 is the right edge: entries 0..7 fit (108 + 8*22 + 6 = 290), entry 8 wraps
    CHECK(e[7].y == e[0].y);
    CHECK(e[8].y > e[0].y);
    CHECK(e[8].x == 108);
    CHECK(g.entryAt(e[5].x + 1, e[5].y + 1) == std::pair<std::size_t, std::size_t>{0, 5});
    CHECK_FALSE(g.arrays[0].truncated);
    CHECK(layoutGeometry(1, 1, {a}, 0, 300, m, 6).arrays[0].truncated);
}

TEST_CASE("Warp blocks flow left to right and wrap", "[gui][geometry]")
{
    const std::vector<std::pair<int, int>> sizes{{4, 3}, {4, 5}, {4, 2}};

    const auto w = warpLayout(sizes, 10, 200, 20, 2, 12, 6);

    CHECK(w.cell == 20);
    REQUIRE(w.blocks.size() == 3);
    CHECK(w.blocks[0].x == 6);
    CHECK(w.blocks[0].y == 22);  // top + caption
    CHECK(w.blocks[1].x == 6 + 60 + 6);
    CHECK(w.blocks[2].y > w.blocks[0].y);  // 72 + 100 + 6 + 40 > 194: wraps
    CHECK(w.blocks[2].x == 6);
    const auto hit = w.cellAt(w.blocks[1].x + 41, w.blocks[1].y + 21);
    REQUIRE(hit.has_value());
    CHECK(*hit == std::tuple<std::size_t, int, int>{1, 1, 2});
}

TEST_CASE("Timing rows compute GFLOP/s and the fraction of the model", "[gui][timing]")
{
    TimingRow r;
    r.gflops = gflops_of(5'000'000, 1.0);  // 1e7 flops in 1 ms
    spmv::model::Prediction p;
    p.gflops = 40.0;

    attach_prediction(r, p);

    CHECK(r.gflops == Approx(10.0));
    CHECK(r.predicted_gflops == 40.0);
    CHECK(r.fraction_of_prediction == Approx(0.25));
    CHECK(gflops_of(10, 0.0) == 0.0);
    CHECK(median_ms({3, 1, 2}) == 2.0);
    CHECK(median_ms({4, 1, 3, 2}) == 2.5);
    CHECK(median_ms({}) == 0.0);
}
