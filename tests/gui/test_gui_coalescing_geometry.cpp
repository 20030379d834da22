// Qt-free geometry of the coalescing view (widgets/coalescing_geometry.hpp): where the lanes,
// every load's caption and sectors, the breaks between runs and the legend go, checked by hand.
// Text sizes are fixed numbers here (the widget measures them with its fonts): row numbers
// 7 px per digit, sector labels "#k" 7 px per character.
#include <catch2/catch.hpp>

#include <spmv/error.hpp>

#include "widgets/coalescing_geometry.hpp"

namespace {

using spmv::viz::ArrayReads;
using spmv::viz::WarpTrip;

double digits(std::int64_t v)
{
    double d = 1;
    while (v >= 10) {
        v /= 10;
        ++d;
    }
    return d;
}

CoalescingTexts fixedTexts(std::size_t loads, double captionWidth, double countWidth)
{
    CoalescingTexts t;
    t.titleHeight = 20;
    t.headerHeight = 16;
    t.lanesCaptionHeight = 10;
    t.lanesCaptionWithRowsHeight = 12;
    t.legendHeight = 30;
    t.rowNumberWidth = [](std::int64_t row) { return 7 * digits(row); };
    t.sectorLabelWidth = [](std::int64_t sector) { return 7 * (1 + digits(sector)); };
    for (std::size_t i = 0; i < loads; ++i) t.loads.push_back({captionWidth, 32, countWidth});
    return t;
}

ArrayReads load(int elementBytes, std::vector<std::int64_t> sectors)
{
    ArrayReads a;
    a.array = "values";
    a.element_bytes = elementBytes;
    a.sectors = std::move(sectors);
    return a;
}

}  // namespace

TEST_CASE("The coalescing strips of a 4-lane warp are placed line by line", "[gui][geometry]")
{
    WarpTrip trip;
    trip.warp_size = 4;
    trip.lane_rows = {0, 1, 2, -1};
    trip.arrays = {load(8, {0, 1, 10})};  // runs [0, 1] and [10]: 8 sectors apart
    CoalescingMetrics m;
    m.width = 400;  // pad 8, available 384
    m.lineHeight = 16;
    m.smallLineHeight = 12;

    const auto g = coalescingGeometry(trip, m, fixedTexts(1, 200, 100));

    CHECK(m.pad() == 8);
    CHECK(m.available() == 384);
    CHECK(g.title.y == 8);
    CHECK(g.header.y == 32);        // 8 + 20 + pad / 2
    CHECK(g.lanesCaption.y == 56);  // 32 + 16 + pad
    // lanes: 384 / 4 = 96 capped at 34 px; every row number (7 px + 2) fits: numbers shown,
    // the caption that promises them is 12 high
    CHECK(g.showRows);
    CHECK(g.lanesCaption.h == 12);
    REQUIRE(g.lanes.size() == 4);
    CHECK(g.lanes[0].x == 8);
    CHECK(g.lanes[3].x == 8 + 3 * 34);
    CHECK(g.lanes[3].y == 70);  // 56 + 12 + 2
    CHECK(g.lanes[0].w == 34);
    CHECK(g.lanes[0].h == 17);  // round(12 * 1.4)
    // the load: caption and count on one line (200 + 16 + 100 <= 384), 29 px of lanes and
    // row numbers plus pad above it
    REQUIRE(g.loads.size() == 1);
    const auto& l = g.loads[0];
    CHECK(l.caption.y == 107);  // 70 + 17 + 12 + 8
    CHECK(l.caption.w == 201);
    CHECK(l.count.x == 291);  // right-aligned: 8 + 384 - 100 - 1
    CHECK(l.count.y == 107);
    CHECK(l.cellsPerSector == 4);
    // sectors: (384 - one 19 px break) / 3 = 121.7, capped at 90 px; 24 px high
    REQUIRE(l.sectors.size() == 3);
    CHECK(l.sectors[0].sector == 0);
    CHECK(l.sectors[0].rect.x == 8);
    CHECK(l.sectors[0].rect.y == 126);  // 107 + 16 + 3
    CHECK(l.sectors[0].rect.w == 90);
    CHECK(l.sectors[0].rect.h == 24);
    CHECK(l.sectors[1].rect.x == 98);
    REQUIRE(l.breaks.size() == 1);
    CHECK(l.breaks[0].rect.x == 188);
    CHECK(l.breaks[0].rect.w == 19);
    CHECK(l.breaks[0].skipped == 8);  // sectors 2 to 9
    CHECK(l.sectors[2].sector == 10);
    CHECK(l.sectors[2].rect.x == 207);
    for (const auto& s : l.sectors) {
        CHECK(s.touched);
        CHECK(s.labelled);  // "#0", "#1" (14 px), "#10" (21 px) all fit under their sector
    }
    // below the strip: its 24 px, the 12 px of sector numbers, pad; then the legend
    CHECK(g.legend.y == 170);
    CHECK(g.height == 208);  // 170 + 30 + 8
}

TEST_CASE("The coalescing geometry finds the element of a byte and the byte under a point",
          "[gui][geometry]")
{
    WarpTrip trip;
    trip.warp_size = 4;
    trip.lane_rows = {0, 1, 2, -1};
    trip.arrays = {load(8, {0, 1, 10})};
    CoalescingMetrics m;
    m.width = 400;
    m.lineHeight = 16;
    m.smallLineHeight = 12;

    const auto g = coalescingGeometry(trip, m, fixedTexts(1, 200, 100));

    // byte 40: sector 1 (x 98, 90 wide), element 1 of 4 (22.5 px each)
    const auto b40 = g.byteRect(0, 40);
    REQUIRE(b40.has_value());
    CHECK(b40->x == Approx(120.5));
    CHECK(b40->w == Approx(22.5));
    CHECK(b40->y == 126);
    // byte 330: sector 10 at x 207, element (330 % 32) / 8 = 1
    REQUIRE(g.byteRect(0, 330).has_value());
    CHECK(g.byteRect(0, 330)->x == Approx(229.5));
    CHECK_FALSE(g.byteRect(0, 100).has_value());  // sector 3 lies in the break
    CHECK_FALSE(g.byteRect(1, 40).has_value());   // no load 1
    // the element under a point: sector index 1, element 1 -> byte 40
    const auto hit = g.loads[0].byteAt(121, 130);
    REQUIRE(hit.has_value());
    CHECK(hit->first == 1);
    CHECK(hit->second == 40);
    CHECK_FALSE(g.loads[0].byteAt(190, 130).has_value());  // on the break
    // lanes: edges belong to the box (as QRectF::contains), the first box wins
    CHECK(g.laneAt(43, 80) == 1);
    CHECK(g.laneAt(42, 80) == 0);
    CHECK_FALSE(g.laneAt(50, 100).has_value());  // under the boxes (70 to 87)
}

TEST_CASE("A narrow coalescing view wraps lanes, counts, sectors and breaks", "[gui][geometry]")
{
    WarpTrip trip;
    trip.warp_size = 64;  // 200 / 64 < 4: 4 px lanes, 50 on a line
    trip.lane_rows.assign(64, 1000);
    // 4-byte elements: 8 per sector, at least 5 px each -> 40 px sectors; four runs of one
    trip.arrays = {load(4, {0, 10, 20, 30})};
    CoalescingMetrics m;
    m.width = 100;  // available: at least 200
    m.lineHeight = 16;
    m.smallLineHeight = 12;

    const auto g = coalescingGeometry(trip, m, fixedTexts(1, 150, 60));

    CHECK(m.available() == 200);
    // row numbers (28 px) do not fit under 4 px boxes
    CHECK_FALSE(g.showRows);
    CHECK(g.lanesCaption.h == 10);
    REQUIRE(g.lanes.size() == 64);
    CHECK(g.lanes[49].x == 8 + 49 * 4);
    CHECK(g.lanes[50].x == 8);
    CHECK(g.lanes[50].y == g.lanes[0].y + 17 + 2);  // one line of boxes (no numbers) + 2
    // 150 + 16 + 60 > 200: the count goes under the wrapped caption
    const auto& l = g.loads[0];
    CHECK(l.caption.w == 200);
    CHECK(l.caption.h == 32);
    CHECK(l.count.x == 8);
    CHECK(l.count.y == l.caption.y + 32 + 1);
    // (200 - 3 breaks of 19) / 4 = 35.75 < 40: sectors 40 px; 8, 67, 126, then the third
    // break (166 + 19 + 40 > 208.5) starts the next line, 24 + 12 + 6 px lower
    REQUIRE(l.sectors.size() == 4);
    CHECK(l.sectors[0].rect.w == 40);
    CHECK(l.sectors[1].rect.x == 67);
    CHECK(l.sectors[2].rect.x == 126);
    REQUIRE(l.breaks.size() == 3);
    CHECK(l.breaks[2].rect.x == 8);
    CHECK(l.breaks[2].rect.y == l.sectors[0].rect.y + 42);
    CHECK(l.sectors[3].rect.x == 27);
    CHECK(l.sectors[3].rect.y == l.sectors[0].rect.y + 42);
    CHECK(l.breaks[0].skipped == 9);
    CHECK(g.height == l.sectors[3].rect.y + 24 + 12 + 8 + 30 + 8);
}

TEST_CASE("Sector numbers that would run into each other are left out", "[gui][geometry]")
{
    WarpTrip trip;
    trip.warp_size = 1;
    trip.lane_rows = {0};
    // 1-byte elements: 32 per sector, at least 160 px; sectors 1000 and 1001 one run
    trip.arrays = {load(1, {1000, 1001}), load(8, {})};
    CoalescingMetrics m;
    m.width = 416;  // available 400
    m.lineHeight = 16;
    m.smallLineHeight = 12;
    auto texts = fixedTexts(2, 100, 50);
    texts.sectorLabelWidth = [](std::int64_t) { return 170.0; };  // wider than a sector

    const auto g = coalescingGeometry(trip, m, texts);

    const auto& l = g.loads[0];
    REQUIRE(l.sectors.size() == 2);
    CHECK(l.sectors[0].rect.w == 160);  // 400 / 2 = 200 capped at max(160, 90)
    CHECK(l.sectors[0].labelled);
    CHECK_FALSE(l.sectors[1].labelled);  // starts at 168, the first label ends at 178
    // a load without sectors: one line of text height below its count
    CHECK(g.loads[1].sectors.empty());
    CHECK(g.legend.y == g.loads[1].count.y + 16 + 3 + 16 + 8);
}

TEST_CASE("The coalescing geometry refuses texts that do not match the loads", "[gui][geometry]")
{
    WarpTrip trip;
    trip.warp_size = 4;
    trip.lane_rows = {0, 1, 2, 3};
    trip.arrays = {load(8, {0})};
    CoalescingMetrics m;

    CHECK_THROWS_AS(coalescingGeometry(trip, m, fixedTexts(2, 10, 10)), spmv::InvalidArgument);
    auto noWidths = fixedTexts(1, 10, 10);
    noWidths.sectorLabelWidth = nullptr;
    CHECK_THROWS_AS(coalescingGeometry(trip, m, noWidths), spmv::InvalidArgument);
    trip.arrays[0].element_bytes = 0;
    CHECK_THROWS_AS(coalescingGeometry(trip, m, fixedTexts(1, 10, 10)), spmv::InvalidArgument);
    CHECK(coalescingMessageHeight(m, 40) == 8 + 8 + 40 + 16);
}
