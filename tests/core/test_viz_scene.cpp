// The one chart stack (spmv/viz/scene.hpp, spmv/viz/chart.hpp): hand-checked SVG fragments of
// ticks on linear and log axes, escaping, symbols, paths, groups and the legend's layout.
#include <cmath>
#include <string>

#include <catch2/catch.hpp>

#include <spmv/error.hpp>
#include <spmv/viz/chart.hpp>
#include <spmv/viz/scene.hpp>

using namespace spmv::viz;

namespace {

bool has(const std::string& text, const std::string& fragment)
{
    return text.find(fragment) != std::string::npos;
}

std::size_t count(const std::string& text, const std::string& what)
{
    std::size_t n = 0;
    for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
}

Scene canvas(double w = 400, double h = 300)
{
    Scene s;
    s.width = w;
    s.height = h;
    return s;
}

}  // namespace

TEST_CASE("A linear axis puts each tick label centred on its pixel", "[viz][scene]")
{
    // 0..92 with at most 8 intervals: step 20 (nice_step), widened to 0..100 over 200..600 px,
    // so 40 sits at 200 + 0.4 * 400 = 360
    const auto ax = Axis::linear(0, 92, 200, 600, 8);
    auto s = canvas(800, 100);

    x_tick_labels(s, ax, 80);
    x_grid(s, ax, 10, 70, {200, 200, 200});
    const auto out = svg(s);

    CHECK(ax.ticks == std::vector<double>{0, 20, 40, 60, 80, 100});
    CHECK(s.count("tick-label") == 6);
    CHECK(has(out, "<text class=\"tick-label\" x=\"360\" y=\"80\" font-size=\"12\" "
                   "text-anchor=\"middle\" fill=\"#141414\">40</text>"));
    CHECK(has(out, "<line class=\"grid\" x1=\"360\" y1=\"10\" x2=\"360\" y2=\"70\" "
                   "stroke=\"#c8c8c8\" stroke-width=\"1\"/>"));
    CHECK(has(out, ">100</text>"));
    CHECK_THROWS_AS(Axis::linear(5, 1, 0, 1, 4), spmv::InvalidArgument);
}

TEST_CASE("A log axis maps decades to equal lengths, with 1-2-5 ticks or only decades",
          "[viz][scene]")
{
    // y axis 1..100 from pixel 200 (bottom) to 0 (top): 10 is halfway, at y = 100; the label's
    // baseline is 12 / 3 = 4 px lower, right-aligned at x = 50
    const auto ay = Axis::logarithmic(1, 100, 200, 0, 10);
    // 3..270 widens to the 1-2-5 ticks 2..500; with at most 4 ticks only decades 1..1000
    const auto wide = Axis::logarithmic(3, 270, 0, 100, 20);
    const auto decades_only = Axis::logarithmic(3, 270, 0, 100, 4);
    auto s = canvas();

    y_tick_labels(s, ay, 50);
    const auto out = svg(s);

    CHECK(ay.ticks == std::vector<double>{1, 2, 5, 10, 20, 50, 100});
    CHECK(ay.px(10) == Approx(100));
    CHECK(has(out, "<text class=\"tick-label\" x=\"50\" y=\"104\" font-size=\"12\" "
                   "text-anchor=\"end\" fill=\"#141414\">10</text>"));
    // 2 is log10(2) / 2 = 0.1505 of the way up: y = 200 - 30.103 = 169.897, label at 173.897
    CHECK(has(out, "y=\"173.897\" font-size=\"12\" text-anchor=\"end\" fill=\"#141414\">2</text>"));
    CHECK(wide.ticks == std::vector<double>{2, 5, 10, 20, 50, 100, 200, 500});
    CHECK(wide.px(std::sqrt(1000.0)) == Approx(50));  // the geometric middle of 2 and 500
    CHECK(decades_only.ticks == std::vector<double>{1, 10, 100, 1000});
    CHECK(log_ticks_125(120, 5500) == std::vector<double>{100, 200, 500, 1000, 2000, 5000, 10000});
    CHECK_THROWS_AS(Axis::logarithmic(0, 10, 0, 1, 10), spmv::InvalidArgument);
}

TEST_CASE("Tick labels and numbers read as a person writes them", "[viz][scene]")
{
    CHECK(tick_label(0.2) == "0.2");
    CHECK(tick_label(5000) == "5000");
    CHECK(tick_label(20000) == "20k");
    CHECK(tick_label(12345) == "12345");
    CHECK(tick_label(2e6) == "2M");
    CHECK(num3(0.012345) == "0.0123");
    CHECK(num3(4.567) == "4.57");
    CHECK(num3(NAN) == "-");
    CHECK(compact_number(12.5) == "12.5");
    CHECK(compact_number(1.0 / 3) == "0.333");
    CHECK(compact_number(-0.0001) == "0");
}

TEST_CASE("Text, tooltips and roles are XML-escaped in the SVG", "[viz][scene]")
{
    auto s = canvas(100, 50);
    s.add(Text{.x = 1, .y = 2, .text = "a<b & c>d", .bold = true, .role = "title"});
    s.add(Rect{.x = 0, .y = 0, .w = 10, .h = 5, .fill = {255, 0, 0}, .tip = "x < y & \"z\"",
               .role = "bar"});
    s.add(Text{.x = 3, .y = 4, .text = "it's", .vertical = true, .italic = true});

    const auto out = svg(s);

    CHECK(out.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 0) == 0);
    CHECK(has(out, "width=\"100\" height=\"50\" viewBox=\"0 0 100 50\""));
    CHECK(has(out, "<text class=\"title\" x=\"1\" y=\"2\" font-size=\"12\" text-anchor=\"start\" "
                   "fill=\"#141414\" font-weight=\"bold\">a&lt;b &amp; c&gt;d</text>"));
    CHECK(has(out, "<rect class=\"bar\" x=\"0\" y=\"0\" width=\"10\" height=\"5\" "
                   "fill=\"#ff0000\"><title>x &lt; y &amp; &quot;z&quot;</title></rect>"));
    CHECK(has(out, "font-style=\"italic\" transform=\"rotate(-90 3 4)\">it&apos;s</text>"));
    CHECK_FALSE(has(out, "a<b"));
    CHECK(out.ends_with("</svg>\n"));
}

TEST_CASE("Symbols, paths and dashes are drawn as svg() documents them", "[viz][scene]")
{
    auto s = canvas();
    // a diamond of radius 10 reaches 13 from its centre
    s.add(Symbol{.x = 50, .y = 50, .radius = 10, .shape = Shape::diamond, .role = "point"});
    // a hollow triangle: apex 13 above, base 0.75 * 13 = 9.75 below, half-width 13
    s.add(Symbol{.x = 0, .y = 0, .radius = 10, .shape = Shape::triangle, .colour = {0, 0, 255},
                 .hollow = true, .opacity = 0.5, .role = "point"});
    s.add(Symbol{.x = 5, .y = 6, .radius = 2, .shape = Shape::square, .role = "point"});
    s.add(Path{.points = {{0, 0}, {10, 0}, {10, 10}}, .closed = true, .colour = {0, 0, 0},
               .stroke_opacity = 0.6, .fill = {0, 114, 178}, .fill_opacity = 0.18,
               .tip = "band", .role = "band"});
    s.add(Path{.points = {{0, 1}, {2, 3}}, .dash = Dash::dashed, .role = "reference"});
    s.add(Line{.x2 = 5, .dash = Dash::dotted, .role = "reference"});

    const auto out = svg(s);

    CHECK(s.count("point") == 3);
    CHECK(has(out, "<polygon class=\"point\" points=\"50,37 63,50 50,63 37,50\" "
                   "fill=\"#000000\"/>"));
    CHECK(has(out, "<polygon class=\"point\" points=\"0,-13 13,9.75 -13,9.75\" fill=\"none\" "
                   "stroke=\"#0000ff\" stroke-width=\"1.5\" stroke-opacity=\"0.5\"/>"));
    CHECK(has(out, "<rect class=\"point\" x=\"3\" y=\"4\" width=\"4\" height=\"4\""));
    CHECK(has(out, "<polygon class=\"band\" points=\"0,0 10,0 10,10\" fill=\"#0072b2\" "
                   "fill-opacity=\"0.18\" stroke=\"#000000\" stroke-width=\"1\" "
                   "stroke-opacity=\"0.6\"><title>band</title></polygon>"));
    CHECK(has(out, "<polyline class=\"reference\" points=\"0,1 2,3\" fill=\"none\" "
                   "stroke=\"#000000\" stroke-width=\"1\" stroke-dasharray=\"6 4\"/>"));
    CHECK(has(out, "stroke-dasharray=\"1 3\"/>"));
}

TEST_CASE("Groups become nested <g> elements and must be closed", "[viz][scene]")
{
    auto s = canvas();
    s.begin_group("panel");
    s.add(Text{.text = "inside", .role = "title"});
    s.end_group();

    const auto out = svg(s);

    CHECK(has(out, "<g class=\"panel\">\n<text class=\"title\""));
    CHECK(has(out, ">inside</text>\n</g>\n</svg>"));
    CHECK(s.count("panel") == 1);
    s.begin_group("open");
    CHECK_THROWS_AS(svg(s), spmv::InvalidArgument);
    auto t = canvas();
    t.end_group();
    CHECK_THROWS_AS(svg(t), spmv::InvalidArgument);
}

TEST_CASE("The legend wraps before an entry that would pass the right edge", "[viz][scene]")
{
    // fixed 6 px per character: "alpha" = 5 + 5 + 30 + 10 = 50 px wide, "beta" 44, "gamma" 50;
    // from x = 10 with the edge at 110: alpha 10..60, beta 60..104, gamma would end at 154 and
    // starts the second line
    LegendStyle st;
    st.left = 10;
    st.right = 110;
    st.key = 5;
    st.gap = 5;
    st.spacing = 10;
    st.char_width = 6;
    st.line_height = 20;
    st.rise = 4;
    const std::vector<LegendEntry> entries{
        {.label = "alpha", .colour = {255, 0, 0}},
        {.label = "beta", .key = LegendEntry::Key::symbol, .colour = {0, 0, 255},
         .shape = Shape::square},
        {.label = "gamma", .key = LegendEntry::Key::line, .dash = Dash::dashed}};
    auto s = canvas();

    const auto spots = legend_layout(entries, st, 30);
    const double last = draw_legend(s, entries, st, 30);
    const auto out = svg(s);

    REQUIRE(spots.size() == 3);
    CHECK(spots[0].x == Approx(10));
    CHECK(spots[1].x == Approx(60));
    CHECK(spots[1].baseline == Approx(30));
    CHECK(spots[2].x == Approx(10));
    CHECK(spots[2].baseline == Approx(50));
    CHECK(last == Approx(50));
    CHECK(s.texts("legend") == std::vector<std::string>{"alpha", "beta", "gamma"});
    CHECK(s.count("legend-key") == 3);
    CHECK(count(out, "<text class=\"legend\"") == 3);
    // the swatch centred 4 px above the baseline: y = 30 - 4 - 2.5; its label 5 px after it
    CHECK(has(out, "<rect class=\"legend-key\" x=\"10\" y=\"23.5\" width=\"5\" height=\"5\" "
                   "fill=\"#ff0000\"/>"));
    CHECK(has(out, "<text class=\"legend\" x=\"20\" y=\"30\""));
    // a line sample is 2.2 keys long, at the key's centre height
    CHECK(has(out, "<line class=\"legend-key\" x1=\"10\" y1=\"46\" x2=\"21\" y2=\"46\""));
    CHECK(legend_layout({}, st, 30).empty());
}

TEST_CASE("Text width follows DejaVu Sans and fit_text cuts on character boundaries",
          "[viz][scene]")
{
    CHECK(text_width("mmm", 12) > text_width("iii", 12) * 3);
    CHECK(text_width("10", 10) == Approx(12.8));  // two digits of 0.64 em
    CHECK(text_width("abc", 24) == Approx(2 * text_width("abc", 12)));
    const std::string cut = fit_text("a_rather_long_matrix_name.mtx", 12, 80);
    CHECK(cut.ends_with("..."));
    CHECK(text_width(cut, 12) <= 80);
    CHECK(fit_text("\u00b5\u00b5\u00b5\u00b5\u00b5\u00b5", 10, 40) == "\u00b5\u00b5\u00b5...");
}
