#include <random>

#include <catch2/catch.hpp>

#include <spmv/analysis/row_stats.hpp>
#include <spmv/error.hpp>
#include <spmv/viz/colour.hpp>
#include <spmv/viz/density.hpp>
#include <spmv/viz/geometry.hpp>
#include <spmv/viz/histogram.hpp>
#include <spmv/viz/model_chart.hpp>
#include <spmv/viz/units.hpp>

#include "test_matrices.hpp"

using namespace spmv;
using namespace spmv::viz;

TEST_CASE("A 4x4 matrix fitted into 100x80 pixels gets 20 pixels per cell, centred",
          "[viz][geometry]")
{
    const auto t = ViewTransform::fit(4, 4, 100, 80);

    CHECK(t.scale == 20.0);
    CHECK(t.origin_x == 10.0);
    CHECK(t.origin_y == 0.0);
    CHECK(t.cell_at(35, 45) == CellIndex{2, 1});
    CHECK(t.cell_at(10, 0) == CellIndex{0, 0});
    CHECK(t.cell_at(89.9, 79.9) == CellIndex{3, 3});
    CHECK_FALSE(t.cell_at(5, 5).has_value());    // left margin
    CHECK_FALSE(t.cell_at(90, 40).has_value());  // right of column 3
    CHECK(t.exact());
}

TEST_CASE("Zooming keeps the matrix point under the cursor fixed", "[viz][geometry]")
{
    const auto t = ViewTransform::fit(1000, 500, 400, 400);
    const double col = t.col_at(123.0);
    const double row = t.row_at(77.0);

    const auto z = t.zoomed(8.0, 123.0, 77.0);

    CHECK(z.scale == Approx(t.scale * 8));
    CHECK(z.col_at(123.0) == Approx(col));
    CHECK(z.row_at(77.0) == Approx(row));
    // zooming out stops at half the fitted scale, zooming in at max_scale
    CHECK(t.zoomed(1e-6, 0, 0).scale == Approx(t.scale / 2));
    CHECK(t.zoomed(1e9, 0, 0, 64.0).scale == 64.0);
}

TEST_CASE("The visible range covers exactly the rows and columns in the viewport",
          "[viz][geometry]")
{
    auto t = ViewTransform::fit(100, 100, 100, 100);  // 1 px per cell
    t = t.zoomed(4.0, 0, 0);                          // 4 px per cell, top-left fixed

    const auto v = t.visible();

    CHECK(v.row_begin == 0);
    CHECK(v.row_end == 25);
    CHECK(v.col_begin == 0);
    CHECK(v.col_end == 25);
    const auto p = t.panned(-10.0, -40.0).visible();  // 2.5 columns, 10 rows further
    CHECK(p.col_begin == 2);
    CHECK(p.col_end == 28);
    CHECK(p.row_begin == 10);
    CHECK(p.row_end == 35);
}

TEST_CASE("Panning never loses the matrix", "[viz][geometry]")
{
    const auto t = ViewTransform::fit(10, 10, 200, 200);

    const auto p = t.panned(1e6, -1e6);

    CHECK(p.origin_x <= 200 - 50);  // a quarter of the viewport stays covered
    CHECK(p.origin_y + 10 * p.scale >= 50);
}

TEST_CASE("The canonical 4x4 at one pixel per cell rasterises to its pattern", "[viz][density]")
{
    const auto a = test::canonical4();
    const auto t = ViewTransform::fit(4, 4, 4, 4);

    const auto r = rasterize(a, t);

    const int expected[4][4] = {{1, 0, 1, 1}, {0, 1, 0, 0}, {1, 0, 1, 1}, {0, 1, 0, 1}};
    for (int y = 0; y < 4; ++y) {
        for (int x = 0; x < 4; ++x) {
            INFO("pixel " << x << "," << y);
            CHECK(r.at(x, y) == expected[y][x]);
        }
    }
    CHECK(r.max_count == 1);
    CHECK(r.nonzeros_visited == 9);
}

TEST_CASE("Zoomed out, a pixel counts the nonzeros of its 2x2 cells", "[viz][density]")
{
    const auto a = test::canonical4();
    const auto t = ViewTransform::fit(4, 4, 2, 2);  // scale 0.5

    const auto r = rasterize(a, t);

    CHECK(r.at(0, 0) == 2);  // (0,0) (1,1)
    CHECK(r.at(1, 0) == 2);  // (0,2) (0,3)
    CHECK(r.at(0, 1) == 2);  // (2,0) (3,1)
    CHECK(r.at(1, 1) == 3);  // (2,2) (2,3) (3,3)
    CHECK(r.max_count == 3);
}

TEST_CASE("A row order draws the permuted matrix", "[viz][density]")
{
    const auto a = test::canonical4();
    const std::vector<std::int32_t> perm{0, 2, 3, 1};

    const auto r = rasterize(a, ViewTransform::fit(4, 4, 4, 4), perm);

    CHECK(r.at(0, 1) == 1);  // display row 1 = row 2 = [5 0 6 7]
    CHECK(r.at(1, 1) == 0);
    CHECK(r.at(3, 1) == 1);
    CHECK(r.at(1, 3) == 1);  // display row 3 = row 1 = [0 4 0 0]
    CHECK(r.at(0, 3) == 0);
    CHECK_THROWS_AS(rasterize(a, ViewTransform::fit(4, 4, 4, 4), std::vector<std::int32_t>{0, 1}),
                    InvalidArgument);
}

TEST_CASE("Density raster agrees with an independent per-nonzero count", "[viz][density]")
{
    const auto a = test::random_csr(300, 200, 0, 40, 11);
    // zoomed out with a fractional origin, then zoomed in and panned
    auto out = ViewTransform::fit(300, 200, 97, 61, 3);
    auto in = out.zoomed(23.7, 40.3, 20.9);

    for (const auto& t : {out, in}) {
        const auto r = rasterize(a, t);

        std::vector<std::int32_t> expect(r.counts.size(), 0);
        if (t.exact()) {
            // every pixel shows the cell under its centre
            for (int y = 0; y < t.height; ++y) {
                for (int x = 0; x < t.width; ++x) {
                    const auto c = t.cell_at(x + 0.5, y + 0.5);
                    if (!c) continue;
                    const auto* b = a.col_idxs.data() + a.row_ptrs[c->row];
                    const auto* e = a.col_idxs.data() + a.row_ptrs[c->row + 1];
                    expect[y * t.width + x] = std::binary_search(b, e, c->col) ? 1 : 0;
                }
            }
        } else {
            // every nonzero lands in the pixel holding its cell centre
            for (int i = 0; i < a.num_rows; ++i) {
                for (int k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
                    const double x = std::floor(t.x_of_col(a.col_idxs[k] + 0.5));
                    const double y = std::floor(t.y_of_row(i + 0.5));
                    if (x >= 0 && y >= 0 && x < t.width && y < t.height) {
                        ++expect[static_cast<int>(y) * t.width + static_cast<int>(x)];
                    }
                }
            }
        }

        CHECK(r.counts == expect);
    }
}

TEST_CASE("Zoomed out, every nonzero is counted exactly once", "[viz][density]")
{
    const auto a = test::random_csr(5000, 3000, 0, 25, 3);
    const auto t = ViewTransform::fit(5000, 3000, 123, 77);

    const auto r = rasterize(a, t);

    std::int64_t sum = 0;
    for (auto c : r.counts) sum += c;
    CHECK(sum == nnz(a));
    CHECK(r.nonzeros_visited == nnz(a));
}

TEST_CASE("Pixels get the density colour of their count, outside pixels the frame colour",
          "[viz][density][colour]")
{
    const auto a = test::canonical4();
    const auto t = ViewTransform::fit(4, 4, 6, 4);  // one free column of pixels on each side

    const auto r = rasterize(a, t);
    const auto px = to_argb(r, t, 0xff000000u);

    CHECK(px[0] == 0xff000000u);                  // outside
    CHECK(px[1] == palette().nonzero.argb());     // (0,0)
    CHECK(px[2] == palette().background.argb());  // (0,1) empty
    CHECK(px[5] == 0xff000000u);
}

TEST_CASE("The colour scales are Okabe-Ito and viridis", "[viz][colour]")
{
    CHECK(palette().nonzero == Rgb{0, 114, 178});
    CHECK(palette().padding == Rgb{213, 94, 0});
    CHECK(palette().idle == Rgb{240, 228, 66});
    CHECK(viridis(0.0) == Rgb{68, 1, 84});
    CHECK(viridis(0.5) == Rgb{33, 144, 141});
    CHECK(viridis(1.0) == Rgb{253, 231, 37});
    CHECK(viridis(1.0 / 16) == Rgb{70, 23, 103});  // halfway between the first two points
    CHECK(Rgb::from_argb(Rgb{1, 2, 3}.argb()) == Rgb{1, 2, 3});
    CHECK(text_colour_on(palette().nonzero) == Rgb{255, 255, 255});
    CHECK(text_colour_on(palette().idle) == Rgb{0, 0, 0});
}

TEST_CASE("Denser density bins are darker", "[viz][colour]")
{
    CHECK(density_colour(0, 100) == palette().background);
    CHECK(density_colour(1, 1) == palette().nonzero);
    double last = 2.0;
    for (int c = 1; c <= 100; c += 9) {
        const double l = luminance(density_colour(c, 100));
        CHECK(l < last);
        last = l;
    }
    CHECK(density_colour(100, 100) == viridis(0.0));
}

TEST_CASE("Histogram bins have width 1 while the lengths fit, wider bins otherwise",
          "[viz][histogram]")
{
    const auto b1 = bins_for(3, 64);
    const auto b3 = bins_for(10, 4);

    CHECK(b1.width == 1);
    CHECK(b1.count == 4);
    CHECK(b3.width == 3);
    CHECK(b3.count == 4);
    CHECK(b3.label(3) == "9-11");
    CHECK(b1.label(2) == "2");
    CHECK(b3.bin_of(8) == 2);
    CHECK(bins_for(-1, 10).count == 0);
    CHECK_THROWS_AS(bins_for(5, 0), InvalidArgument);
}

TEST_CASE("Bin-size-1 counts equal the analysis row-length histogram", "[viz][histogram]")
{
    for (const auto& m : test::zoo()) {
        INFO(m.name);
        const auto len = row_lengths(m.a);
        const auto h = analysis::row_length_histogram(m.a);

        const auto chart = histogram_chart(len, {}, {}, {}, 100000);

        CHECK(chart.bins.width == 1);
        CHECK(chart.row_counts == h.counts);
    }
}

TEST_CASE("The histogram chart bins every series alike and keeps the markers", "[viz][histogram]")
{
    const std::vector<std::int32_t> len{3, 1, 3, 2};
    const std::vector<std::int64_t> padded{3, 3, 2, 2};  // pJDS b_r = 2
    const std::vector<std::int64_t> blocks{3, 2};

    const auto c = histogram_chart(len, padded, blocks, {{"ELLPACK width", 3}}, 64);

    CHECK(c.row_counts == std::vector<std::int64_t>{0, 1, 1, 2});
    CHECK(c.padded_counts == std::vector<std::int64_t>{0, 0, 2, 2});
    CHECK(c.block_maxima == std::vector<std::int64_t>{0, 0, 1, 1});
    CHECK(c.max_count == 2);
    REQUIRE(c.markers.size() == 1);
    CHECK(c.bins.bin_of(c.markers[0].value) == 3);
}

TEST_CASE("Bar outlines put bin-size-1 bars on their lengths, side by side", "[viz][histogram]")
{
    const auto b = bins_for(2, 64);  // lengths 0, 1, 2
    const std::vector<std::int64_t> counts{0, 5, 2};

    const auto left = bar_outline(b, counts, 0.0, 0.5);

    REQUIRE(left.size() == 12);
    CHECK(left[4] == ChartPoint{0.5, 0.0});  // bin 1 starts at 1 - 0.5
    CHECK(left[5] == ChartPoint{0.5, 5.0});
    CHECK(left[6] == ChartPoint{1.0, 5.0});  // half a bin wide
    CHECK(bar_outline(b, counts, 0.5, 0.5)[8] == ChartPoint{2.0, 0.0});
    CHECK(bin_centre(bins_for(10, 4), 1) == 4.0);  // values 3..5
    CHECK(x_range(b) == ChartPoint{-0.5, 2.5});
    CHECK_THROWS_AS(bar_outline(b, std::vector<std::int64_t>{1}, 0, 1), InvalidArgument);
}

TEST_CASE("The row-length chart marks ELLPACK width, HYB K and the pJDS blocks", "[viz][histogram]")
{
    const auto a = test::canonical4();
    const auto len = row_lengths(a);
    FormatParams p;
    p.block_rows = 2;

    const auto c = row_length_chart(a, len, p, 64);

    CHECK(c.row_counts == std::vector<std::int64_t>{0, 1, 1, 2});
    CHECK(c.padded_counts == std::vector<std::int64_t>{0, 0, 2, 2});  // sorted 3 3 | 2 1
    CHECK(c.block_maxima == std::vector<std::int64_t>{0, 0, 1, 1});
    REQUIRE(c.markers.size() == 2);
    CHECK(c.markers[0].label == "ELLPACK width");
    CHECK(c.markers[0].value == 3);
    CHECK(c.markers[1].label == "HYB K");
    CHECK(c.markers[1].value == 3);  // 2 of 4 rows have >= 3 entries (header of hyb.hpp)
    p.hyb_width = 2;
    CHECK(row_length_chart(a, len, p, 64).markers[1].value == 2);
}

TEST_CASE("Byte units keep the largest bar between 1 and 1024 units", "[viz][units]")
{
    CHECK(byte_unit(144).name == "B");
    CHECK(byte_unit(1023).divisor == 1.0);
    CHECK(byte_unit(1024).name == "KiB");
    CHECK(byte_unit(3 << 20).name == "MiB");
    CHECK(byte_unit(3 << 20).divisor == 1048576.0);
    CHECK(byte_unit(5e9).name == "GiB");
}

TEST_CASE("Model curves cross the PCIe thresholds where Kreutzer eq. 3 puts them", "[viz][model]")
{
    // C2050 without ECC: B_GPU 120 GB/s, B_PCI 6 GB/s, r = 20; alpha = 1 (no reuse)
    const auto c = model_curves(120, 6, 1.0, model::Precision::double_precision, 1, 1000, 301);

    CHECK(c.n_nzr_half == Approx(2.0 * (20 - 1) / (1 + 1.5)));  // eq. 3: 15.2
    CHECK(c.n_nzr_paper_eq4 == Approx((20.0 * 20 - 2) / (1 + 1.5)));
    REQUIRE(c.pcie_share_percent.size() == 301);
    CHECK(c.pcie_share_percent.front().x == Approx(1.0));
    CHECK(c.pcie_share_percent.back().x == Approx(1000.0));
    // the share falls with N_nzr and is 50 % at the eq. 3 threshold
    for (std::size_t i = 1; i < c.pcie_share_percent.size(); ++i) {
        CHECK(c.pcie_share_percent[i].y < c.pcie_share_percent[i - 1].y);
    }
    const double n = c.n_nzr_half;
    const double t_mvm = model::t_mvm_seconds(1e6, n, 1.0, 120, model::Precision::double_precision);
    const double t_pci = model::t_pci_seconds(1e6, 1e6, 6, model::Precision::double_precision);
    CHECK(t_pci / (t_mvm + t_pci) == Approx(0.5));
    // kernel rate approaches B_GPU / code balance: alpha = 1, large N_nzr -> 120 / 10 = 12 GF/s
    CHECK(c.gflops.back().y ==
          Approx(120.0 / model::code_balance(1000, 1.0, model::Precision::double_precision)));
    CHECK_THROWS_AS(model_curves(0, 6, 1, model::Precision::double_precision, 1, 10, 5),
                    InvalidArgument);
}

TEST_CASE("Axis helpers pick 1-2-5 steps and whole decades", "[viz][units]")
{
    CHECK(nice_step(6, 12) == 1.0);
    CHECK(nice_step(55, 12) == 5.0);
    CHECK(nice_step(300, 12) == 50.0);
    CHECK(nice_step(1e5, 12) == 1e4);
    const auto d = decades(0.2, 268);
    CHECK(d.lo == Approx(0.1));
    CHECK(d.hi == Approx(1000));
    CHECK(decades(10, 10).hi == Approx(100));
    CHECK(decades(-1, 5).lo == 1.0);
}

TEST_CASE("The density legend shows the picture's own colours", "[viz][colour]")
{
    const auto ramp = density_ramp(100, 5);

    REQUIRE(ramp.size() == 5);
    CHECK(ramp.front() == density_colour(1, 100));
    CHECK(ramp.back() == density_colour(100, 100));
    CHECK(density_ramp(1, 3) == std::vector<Rgb>(3, palette().nonzero));
    CHECK(density_ramp(10, 0).empty());
}
