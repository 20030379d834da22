// The strong-scaling chart (spmv/viz/scaling_svg.hpp): its tick rule, its checks, and what
// the picture holds.
#include <cmath>
#include <string>

#include <catch2/catch.hpp>

#include <spmv/error.hpp>
#include <spmv/viz/scaling_svg.hpp>

using namespace spmv::viz;

TEST_CASE("Logarithmic 1-2-5 ticks cover the range from the tick at or below to the one at or above", "[scaling_svg]")
{
    CHECK(log_ticks_125(120, 5500) == std::vector<double>{100, 200, 500, 1000, 2000, 5000, 10000});
    CHECK(log_ticks_125(2, 2) == std::vector<double>{2});
    CHECK(log_ticks_125(0.3, 0.9) == std::vector<double>{0.2, 0.5, 1});
    CHECK_THROWS_AS(log_ticks_125(0, 1), spmv::InvalidArgument);
}

TEST_CASE("The scaling chart draws one band per model series and one marker per measured point", "[scaling_svg]")
{
    ScalingPanel p;
    p.title = "pde150 & co";
    p.subtitle = "measured on H100; model H100";
    p.ranks = {1, 2, 4};
    p.model.push_back({"model, cuda-ipc over nvlink4", okabe_ito::blue, {100, 50, 25},
                       {140, 70, 35}, {140, 75, 40}});
    p.measured = {{1, "single", 120, okabe_ito::black},
                  {2, "task", 60, okabe_ito::blue},
                  {2, "vector", 65, okabe_ito::blue},
                  {2, "overlap", 62, okabe_ito::blue}};

    const auto svg = scaling_svg({p});

    CHECK(svg.rfind("<?xml", 0) == 0);
    CHECK(svg.find("<svg ") != std::string::npos);
    CHECK(svg.find("pde150 &amp; co") != std::string::npos);  // escaped
    CHECK(svg.find("model H100") != std::string::npos);       // the second subtitle line
    auto count = [&](const std::string& what) {
        std::size_t n = 0;
        for (auto pos = svg.find(what); pos != std::string::npos; pos = svg.find(what, pos + 1)) ++n;
        return n;
    };
    CHECK(count("<circle class=\"point\"") == 1);   // task
    CHECK(count("<rect class=\"point\"") == 1);     // vector: a hollow square
    CHECK(count("<polygon class=\"point\"") == 2);  // the single-GPU diamond, overlap's triangle
    CHECK(count("<polygon class=\"band\"") == 1);   // the task-mode band of the one series
    CHECK(count("<polyline") == 1);                 // the vector-mode line of the one series
    CHECK(count("<rect class=\"frame\"") == 1);
    CHECK(count("ideal T1/P") == 1);
    CHECK(svg.find("task, 2 rank(s): 60 us") != std::string::npos);
    CHECK(count("class=\"legend-key\"") == 4);  // the four marker shapes (no measured series)
}

TEST_CASE("The scaling chart puts rank counts on a log axis and times on 1-2-5 ticks",
          "[scaling_svg]")
{
    // one panel 560 x 330: plot from x = 58 to 546, ranks 12 px inside: 70 .. 534; y from
    // 58 (top) to 330 - 40 - 22 = 268 (bottom)
    ScalingPanel p;
    p.title = "t";
    p.ranks = {1, 2, 4};
    p.measured = {{1, "single", 120, okabe_ito::black}, {4, "task", 40, okabe_ito::blue}};

    const auto s = scaling_scene({p});

    // times 30 (= T1 / 4, the ideal line's end) .. 120: ticks 20, 50, 100, 200
    CHECK(s.texts("tick-label") ==
          std::vector<std::string>{"20", "50", "100", "200", "1", "2", "4"});
    const auto marks = s.all<Symbol>("point");
    REQUIRE(marks.size() == 2);
    CHECK(marks[0].x == Approx(70));   // 1 rank
    CHECK(marks[1].x == Approx(534));  // 4 ranks
    // 2 ranks halfway between 1 and 4 on the log axis
    const auto labels = s.all<Text>("tick-label");
    CHECK(labels[5].x == Approx(302));
    // 120 us on the axis 20 .. 200: log(6) / log(10) = 0.778 of 210 px up from 268
    CHECK(marks[0].y == Approx(268 - 210 * std::log10(6.0)));
    CHECK(marks[0].shape == Shape::diamond);
    const auto ideal = s.all<Line>("reference");
    REQUIRE(ideal.size() == 1);
    CHECK(ideal[0].dash == Dash::dotted);
    CHECK(ideal[0].y2 == Approx(268 - 210 * std::log10(1.5)));  // T1 / 4 = 30 us
}

TEST_CASE("The scaling chart refuses series that do not match their ranks and non-positive times", "[scaling_svg]")
{
    ScalingPanel p;
    p.title = "t";
    p.ranks = {1, 2};
    p.model.push_back({"m", okabe_ito::blue, {1, 2, 3}, {1, 2}, {1, 2}});
    CHECK_THROWS_AS(scaling_svg({p}), spmv::InvalidArgument);
    p.model.clear();
    p.measured = {{2, "task", 0.0, okabe_ito::blue}};
    CHECK_THROWS_AS(scaling_svg({p}), spmv::InvalidArgument);
    p.ranks.clear();
    CHECK_THROWS_AS(scaling_svg({p}), spmv::InvalidArgument);
}
