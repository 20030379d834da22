// Colouring the pattern by value (sign, magnitude), the row / column margins and the facts the
// pattern view prints (symmetry, value range), on hand-checked matrices.
#include <cmath>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/analysis/pattern.hpp>
#include <spmv/error.hpp>
#include <spmv/viz/colour.hpp>
#include <spmv/viz/density.hpp>

#include "test_matrices.hpp"

using namespace spmv;
using namespace spmv::viz;

namespace {

// A = [4 -1 0; -1 4 2; 0 0 0.5]: the example of analysis/pattern.hpp
Csr<double, std::int32_t> example3()
{
    const std::vector<std::int32_t> r{0, 0, 1, 1, 1, 2};
    const std::vector<std::int32_t> c{0, 1, 0, 1, 2, 2};
    const std::vector<double> v{4.0, -1.0, -1.0, 4.0, 2.0, 0.5};
    return csr_from_triplets<double, std::int32_t>(3, 3, r, c, v);
}

}  // namespace

TEST_CASE("pattern_facts: symmetry, signs and the magnitude range of a hand-checked 3x3",
          "[viz][pattern]")
{
    const auto f = analysis::pattern_facts(example3());
    CHECK(f.square);
    CHECK(f.off_diagonal == 3);
    CHECK(f.mirrored == 2);
    CHECK(f.mirrored_equal == 2);
    CHECK(f.structural_symmetry() == Approx(2.0 / 3.0));
    CHECK(f.numerical_symmetry() == Approx(2.0 / 3.0));
    CHECK(f.negatives == 2);
    CHECK(f.zeros == 0);
    CHECK(f.abs_min == 0.5);
    CHECK(f.abs_max == 4.0);
    CHECK(f.finite);
    // 6 values: no outlier can be dropped (1 % of 6 is 0): the percentiles are the extremes
    CHECK(f.abs_low == 0.5);
    CHECK(f.abs_high == 4.0);
    CHECK(analysis::column_counts(example3()) == std::vector<std::int32_t>{2, 2, 2});
}

TEST_CASE("pattern_facts: canonical 4x4 (structurally unsymmetric) and a rectangular matrix",
          "[viz][pattern]")
{
    // A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9]: off-diagonal (0,2) (0,3) (2,0) (2,3) (3,1);
    // mirrored: (0,2)<->(2,0) only -> 2 of 5; values 2 != 5 -> numerically 0
    const auto f = analysis::pattern_facts(test::canonical4());
    CHECK(f.off_diagonal == 5);
    CHECK(f.mirrored == 2);
    CHECK(f.mirrored_equal == 0);
    CHECK(f.structural_symmetry() == Approx(0.4));
    CHECK(analysis::column_counts(test::canonical4()) == std::vector<std::int32_t>{2, 2, 2, 3});
    // 2 x 3 with a stored zero: not square, symmetry 0
    const std::vector<std::int32_t> rr{0, 1};
    const std::vector<std::int32_t> rc{2, 0};
    const std::vector<double> rv{0.0, -3.0};
    const auto r = csr_from_triplets<double, std::int32_t>(2, 3, rr, rc, rv);
    const auto g = analysis::pattern_facts(r);
    CHECK_FALSE(g.square);
    CHECK(g.structural_symmetry() == 0.0);
    CHECK(g.zeros == 1);
    CHECK(g.abs_min == 3.0);
    CHECK(g.abs_max == 3.0);
}

TEST_CASE("pattern_facts: the 1st-99th percentile range ignores a few extreme magnitudes",
          "[viz][pattern]")
{
    // 200 diagonal values: 1e-70 and 1e4 once each, the rest in [1, 3] -> the 2nd smallest
    // (rank 2 = 200 / 100) and the 2nd largest decide, to a factor of 2
    std::vector<std::int32_t> idx(200);
    std::vector<double> v(200);
    for (int i = 0; i < 200; ++i) {
        idx[static_cast<std::size_t>(i)] = i;
        v[static_cast<std::size_t>(i)] = 1.0 + (i % 3);
    }
    v[0] = 1e-70;
    v[1] = 1e4;
    const auto a = csr_from_triplets<double, std::int32_t>(200, 200, idx, idx, v);
    const auto f = analysis::pattern_facts(a);
    CHECK(f.abs_min == 1e-70);
    CHECK(f.abs_max == 1e4);
    CHECK(f.abs_low == 1.0);   // 1 lies in [2^0, 2^1): the bin's lower edge
    CHECK(f.abs_high == 4.0);  // 3 lies in [2^1, 2^2): the bin's upper edge
}

TEST_CASE("Sign colouring: blue for positive, vermillion for negative, blended for a mix",
          "[viz][pattern]")
{
    const auto a = example3();
    const auto t = ViewTransform::fit(3, 3, 3, 3);  // one pixel per cell
    const auto r = rasterize(a, t, {}, PatternColouring::sign);
    REQUIRE(r.negatives.size() == 9);
    CHECK(r.negatives[1] == 1);  // (0,1) = -1
    CHECK(r.negatives[0] == 0);  // (0,0) = 4
    const auto px = to_argb(r, t, 0xff000000U, PatternColouring::sign);
    CHECK(px[0] == okabe_ito::blue.argb());        // one entry, max_count 1: full colour
    CHECK(px[1] == okabe_ito::vermillion.argb());
    CHECK(px[2] == palette().background.argb());   // (0,2) not stored
    // the whole matrix in one pixel: 6 entries, 2 negative -> a third of the way to vermillion
    const auto one = ViewTransform::fit(3, 3, 1, 1);
    const auto r1 = rasterize(a, one, {}, PatternColouring::sign);
    REQUIRE(r1.counts.size() == 1);
    CHECK(r1.counts[0] == 6);
    CHECK(r1.negatives[0] == 2);
    // share 1/3: two thirds of the way from blue to reddish purple
    const Rgb mixed = sign_colour(6, 2, 6);
    CHECK(mixed.r == std::lround((okabe_ito::blue.r + 2.0 * okabe_ito::reddish_purple.r) / 3.0));
    CHECK(mixed.b == std::lround((okabe_ito::blue.b + 2.0 * okabe_ito::reddish_purple.b) / 3.0));
    CHECK(sign_colour(2, 1, 2) == okabe_ito::reddish_purple);
    // a raster made for density cannot be coloured by sign
    const auto plain = rasterize(a, t);
    CHECK_THROWS_AS(to_argb(plain, t, 0U, PatternColouring::sign), InvalidArgument);
}

TEST_CASE("Magnitude colouring: log scale between the smallest and largest |value|",
          "[viz][pattern]")
{
    const auto a = example3();
    const auto t = ViewTransform::fit(3, 3, 3, 3);
    const auto r = rasterize(a, t, {}, PatternColouring::magnitude);
    REQUIRE(r.max_abs.size() == 9);
    CHECK(r.max_abs[0] == 4.0F);
    CHECK(r.max_abs[8] == 0.5F);
    const auto px = to_argb(r, t, 0U, PatternColouring::magnitude, 0.5, 4.0);
    CHECK(px[0] == viridis(1.0).argb());  // 4 = the top
    CHECK(px[8] == viridis(0.0).argb());  // 0.5 = the bottom
    // |-1| and |2| sit at log(2)/log(8) = 1/3 and 2/3 of the scale
    CHECK(px[1] == viridis(1.0 / 3.0).argb());
    CHECK(px[5] == viridis(2.0 / 3.0).argb());
    CHECK(magnitude_colour(0.0, 0.5, 4.0) == palette().phantom);
    // several entries in one pixel: the largest |value| decides
    const auto one = ViewTransform::fit(3, 3, 1, 1);
    CHECK(rasterize(a, one, {}, PatternColouring::magnitude).max_abs[0] == 4.0F);
}

TEST_CASE("margin_profile: mean and max of the indices each pixel shows", "[viz][pattern]")
{
    const std::vector<std::int32_t> counts{1, 3, 2, 6};
    // the header's example: two indices per pixel
    const auto m = margin_profile(counts, 0.0, 0.5, 2);
    CHECK(m.mean == std::vector<double>{2.0, 4.0});
    CHECK(m.max == std::vector<std::int32_t>{3, 6});
    CHECK(m.peak == 6);
    // zoomed in: index 1 covers pixels 10..19 of 20 when origin is 0 and scale 10
    const auto z = margin_profile(counts, 0.0, 10.0, 20);
    CHECK(z.max[0] == 1);
    CHECK(z.max[15] == 3);
    CHECK(z.peak == 3);  // only indices 0 and 1 are in view
    // shifted origin: pixels left of the matrix stay empty
    const auto s = margin_profile(counts, 2.0, 1.0, 6);
    CHECK(s.max == std::vector<std::int32_t>{0, 0, 1, 3, 2, 6});
    // a row order: display index k shows counts[order[k]]
    const std::vector<std::int32_t> order{3, 2, 1, 0};
    CHECK(margin_profile(counts, 0.0, 1.0, 4, order).max ==
          std::vector<std::int32_t>{6, 2, 3, 1});
    CHECK_THROWS_AS(margin_profile(counts, 0.0, 0.0, 4), InvalidArgument);
    CHECK_THROWS_AS(margin_profile(counts, 0.0, 1.0, 4, std::vector<std::int32_t>{0}),
                    InvalidArgument);
}
