// spmvlab plot without cairo: axes, ticks, the rows and scatter layouts, the record adapter and
// the numbers the figures show (cli/src/plot/), each against a hand-computed value.
#include <cmath>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <utility>
#include <vector>

#include <spmv/error.hpp>
#include <spmv/host_device.hpp>

#include "plot/charts.hpp"
#include "plot/figures.hpp"
#include "plot/records.hpp"
#include "plot/rules.hpp"

using namespace spmvlab::plot;

namespace {

/// A GPU record in schema spmvlab/1's shape: matrix A (nnz 1e6) and B (nnz 1000), double.
/// A: sell 1 ms, csr 2 ms, cusparse_csr_alg1 1.5 ms, cusparse_coo_alg1 1.2 ms;
/// B: csr 0.01 ms, cusparse_csr_alg1 0.02 ms, ell failed.
nlohmann::json gpu_record()
{
    auto row = [](const char* matrix, double nnz, const char* format, double ms, double bytes) {
        return nlohmann::json{{"matrix", matrix},  {"rows", 1000},      {"nnz", nnz},
                              {"format", format},  {"precision", "double"},
                              {"median_ms", ms},   {"min_bytes", bytes}, {"error", ""}};
    };
    nlohmann::json j = {{"meta", {{"schema_version", 1}, {"commit", "abc1234"},
                                  {"date", "2026-11-26T02:31:06Z"}}},
                        {"device", "NVIDIA H100 80GB HBM3 (sm_90)"},
                        {"copy_bandwidth_gbs", 24.0},
                        {"cache_policy", "flush_l2"},
                        {"slice_height", 32},
                        {"block_rows", 32},
                        {"sigma", "auto"},
                        {"complete", true}};
    j["results"] = {row("A", 1e6, "sell", 1.0, 12e6),
                    row("A", 1e6, "csr", 2.0, 12e6),
                    row("A", 1e6, "cusparse_csr_alg1", 1.5, 12e6),
                    row("A", 1e6, "cusparse_coo_alg1", 1.2, 12e6),
                    row("B", 1000, "csr", 0.01, 2e4),
                    row("B", 1000, "cusparse_csr_alg1", 0.02, 2e4),
                    row("B", 1000, "ell", 0.0, 2e4)};
    j["results"][6]["median_ms"] = nullptr;
    j["results"][6]["error"] = "not built: ell would need 24 GiB";
    return j;
}

BenchData data_of(const nlohmann::json& j) { return combine({adapt_record(j, "dir/bench.json")}); }

}  // namespace

TEST_CASE("plot axes: nice linear ticks and 1-2-5 log ticks map data to pixels", "[plot]")
{
    const auto lin = Axis::linear(0, 92, 200, 600, 8);
    const auto lg = Axis::logarithmic(3, 270, 0, 100, 20);
    const auto decades = Axis::logarithmic(3, 270, 0, 100, 4);

    CHECK(lin.ticks == std::vector<double>{0, 20, 40, 60, 80, 100});
    CHECK(lin.px(50) == Approx(400));
    CHECK(lg.ticks == std::vector<double>{2, 5, 10, 20, 50, 100, 200, 500});
    CHECK(lg.px(2) == Approx(0));
    CHECK(lg.px(500) == Approx(100));
    CHECK(lg.px(std::sqrt(1000.0)) == Approx(50));  // the geometric middle of 2 and 500
    CHECK(decades.ticks == std::vector<double>{1, 10, 100, 1000});
}

TEST_CASE("plot tick labels and quartiles read as a person writes them", "[plot]")
{
    CHECK(tick_label(0.5) == "0.5");
    CHECK(tick_label(2500) == "2500");
    CHECK(tick_label(20000) == "20k");
    CHECK(tick_label(1e6) == "1M");
    const auto q = quartiles({4, 1, 3, 2});  // numpy.percentile([1,2,3,4], [25,50,75])
    CHECK(q.q1 == Approx(1.75));
    CHECK(q.median == Approx(2.5));
    CHECK(q.q3 == Approx(3.25));
    CHECK(text_width("mmm", 12) > text_width("iii", 12) * 3);
    CHECK(text_width("abc", 24) == Approx(2 * text_width("abc", 12)));
    CHECK(fit_text("a_rather_long_matrix_name.mtx", 12, 80).size() < 29);
    CHECK(text_width(fit_text("a_rather_long_matrix_name.mtx", 12, 80), 12) <= 80);
}

TEST_CASE("plot rows chart wraps 120 rows into 3 columns, one label and marker per row",
          "[plot]")
{
    RowsChart c;
    c.header.title = "t";
    c.header.series = {{"best", {0, 0, 0}, Shape::circle, false}};
    c.max_rows_per_column = 55;
    c.column_width = 700;
    for (int k = 0; k < 120; ++k) {
        Row r;
        r.label = "m" + std::to_string(k);
        r.marks.push_back({1.0 + k, 0, "tip " + std::to_string(k)});
        c.rows.push_back(r);
    }

    const auto s = draw(c);

    CHECK(s.width == Approx(3 * 700));
    CHECK(s.count("row-label") == 120);
    CHECK(s.count("point") == 120);
    CHECK(s.texts("title") == std::vector<std::string>{"t"});
    // rows 0 and 40 start columns 1 and 2 at the same height, 700 px apart
    const auto labels = [&] {
        std::vector<Text> t;
        for (const auto& i : s.items) {
            if (const auto* x = std::get_if<Text>(&i); x && x->role == "row-label") t.push_back(*x);
        }
        return t;
    }();
    CHECK(labels[40].y == Approx(labels[0].y));
    CHECK(labels[40].x - labels[0].x == Approx(700));
    CHECK(labels[1].y - labels[0].y == Approx(c.row_height));
}

TEST_CASE("plot scatter chart draws every point, and y = x as the plot's diagonal", "[plot]")
{
    ScatterChart c;
    c.header.series = {{"a", {0, 0, 0}, Shape::circle, false}};
    c.points = {{1, 2, 0, "p1", ""}, {10, 8, 0, "p2", ""}, {100, 150, 0, "p3", "named"}};
    c.lines = {{RefLine::proportional, 1, "y = x", {0, 0, 0}, false}};
    c.square = true;

    const auto s = draw(c);

    CHECK(s.count("point") == 3);
    CHECK(s.count("point-label") == 1);
    const Line* diag = nullptr;
    const Rect* frame = nullptr;
    for (const auto& i : s.items) {
        if (const auto* l = std::get_if<Line>(&i); l && l->role == "reference") diag = l;
        if (const auto* r = std::get_if<Rect>(&i); r && r->role == "frame") frame = r;
    }
    REQUIRE(diag);
    REQUIRE(frame);
    CHECK(frame->w == Approx(frame->h));  // square: one decade is as long on both axes
    CHECK(diag->x1 == Approx(frame->x));  // from the bottom-left corner ...
    CHECK(diag->y1 == Approx(frame->y + frame->h));
    CHECK(diag->x2 == Approx(frame->x + frame->w));  // ... to the top-right corner
    CHECK(diag->y2 == Approx(frame->y));
    const auto svg_text = svg(s);
    CHECK(svg_text.find("<title>p3</title>") != std::string::npos);
}

TEST_CASE("plot SVG escapes text and names every element's role", "[plot]")
{
    Scene s;
    s.width = 100;
    s.height = 50;
    s.add(Text{.x = 1, .y = 2, .text = "a<b & \"c\"", .role = "title"});
    s.add(Symbol{.x = 5, .y = 5, .radius = 3, .shape = Shape::diamond, .tip = "x",
                 .role = "point"});

    const auto out = svg(s);

    CHECK(out.find("a&lt;b &amp; &quot;c&quot;") != std::string::npos);
    CHECK(out.find("<polygon class=\"point\"") != std::string::npos);
    CHECK(out.find("width=\"100\" height=\"50\"") != std::string::npos);
}

TEST_CASE("plot adapter reads schema-1 and older records, never throws a raw JSON error",
          "[plot]")
{
    auto j = gpu_record();
    const auto r = adapt_record(j, "f.json");
    CHECK(r.ok.size() == 6);
    CHECK(r.failed == 1);
    CHECK(r.run.commit == "abc1234");
    CHECK(r.run.copy_bandwidth_gbs == 24.0);
    CHECK(r.ok[0].precision == "dp");
    CHECK(r.run.params.sort_window == 0);

    auto old = gpu_record();  // unversioned: commit and date at the top, "dp"
    old.erase("meta");
    old["commit"] = "7aa03ad";
    for (auto& e : old["results"]) e["precision"] = "dp";
    CHECK(adapt_record(old, "f.json").run.commit == "7aa03ad");
    CHECK(adapt_record(old, "f.json").ok[0].precision == "dp");

    auto broken = gpu_record();
    broken["results"][1].erase("matrix");
    CHECK_THROWS_AS(adapt_record(broken, "f.json"), spmv::InvalidArgument);
    CHECK_THROWS_WITH(adapt_record(broken, "f.json"),
                      Catch::Contains("f.json: results[1]: no \"matrix\" string"));
    broken = gpu_record();
    broken["results"][0]["median_ms"] = "fast";
    CHECK_THROWS_WITH(adapt_record(broken, "f.json"), Catch::Contains("is not a number"));
    CHECK_THROWS_WITH(adapt_record(nlohmann::json::array(), "f.json"),
                      Catch::Contains("not a bench record"));
    auto incomplete = gpu_record();
    incomplete["complete"] = false;
    incomplete["matrices_done"] = 1;
    incomplete["matrices_total"] = 5;
    const auto ri = adapt_record(incomplete, "f.json");
    CHECK_FALSE(ri.run.complete);
    CHECK(ri.run.progress == "1 of 5 matrices");
}

TEST_CASE("plot speedup over cuSPARSE: fastest own over CSR ALG1 and over the fastest baseline",
          "[plot]")
{
    const auto d = data_of(gpu_record());

    const auto sp = speedups(d, "dp", {});
    std::string why;
    const auto chart = speedup_chart(d, "dp", {}, &why);

    REQUIRE(sp.size() == 2);
    // sorted by nnz: B first. B: csr 2e3 flop / 1e-5 s = 0.2 GF/s, alg1 0.1 GF/s
    CHECK(sp[0].matrix == "B");
    CHECK(sp[0].best_own_gflops / sp[0].alg1_gflops == Approx(2.0));
    // A: sell 2e6 / 1e-3 s = 2 GF/s; alg1 1.5 ms -> 1.333 GF/s; fastest baseline coo 1.2 ms
    CHECK(sp[1].best_own == "sell");
    CHECK(sp[1].best_own_gflops == Approx(2.0));
    CHECK(sp[1].best_own_gflops / sp[1].alg1_gflops == Approx(1.5));
    CHECK(sp[1].best_baseline == "cusparse_coo_alg1");
    CHECK(sp[1].best_own_gflops / sp[1].best_baseline_gflops == Approx(1.2));
    REQUIRE(chart);
    CHECK(chart->header.series.size() == 2);  // two cuSPARSE variants: both ratios
    CHECK(chart->points.size() == 4);
    CHECK(draw(*chart).count("point") == 4);
}

TEST_CASE("plot bandwidth: minimum bytes / time / copy bandwidth, skipped for CPU records",
          "[plot]")
{
    auto j = gpu_record();
    std::string why;

    const auto chart = bandwidth_chart(data_of(j), "dp", {}, &why);
    j.erase("copy_bandwidth_gbs");
    j["device"] = "CPU (host reference SpMV, one thread; not a GPU measurement)";
    const auto cpu = bandwidth_chart(data_of(j), "dp", {}, &why);

    REQUIRE(chart);
    // A's fastest own: 12e6 B / 1e-3 s = 12 GB/s of 24 GB/s = 50 %
    CHECK(chart->points[0].x == Approx(12.0));  // MB
    CHECK(chart->points[0].y == Approx(50.0));
    CHECK_FALSE(cpu);
    CHECK_THAT(why, Catch::Contains("no measured copy bandwidth"));
    auto own_only = gpu_record();
    nlohmann::json own = nlohmann::json::array();
    for (const auto& e : own_only["results"]) {
        if (e["format"].get<std::string>().rfind("cusparse_", 0) != 0) own.push_back(e);
    }
    own_only["results"] = own;
    CHECK_FALSE(speedup_chart(data_of(own_only), "dp", {}, &why));
    CHECK_THAT(why, Catch::Contains("no cuSPARSE baseline"));
}

TEST_CASE("plot GF/s charts: one row per variant and per matrix, filters keep the baselines",
          "[plot]")
{
    const auto d = data_of(gpu_record());

    const auto variants = gflops_variants_chart(d, "dp", {});
    const auto matrices = gflops_matrices_chart(d, "dp", {});
    const auto only_csr = gflops_variants_chart(d, "dp", {"csr"});

    REQUIRE(variants.rows.size() == 4);  // sell, csr, and the two baselines (ell failed)
    CHECK(matrices.rows.size() == 2);
    CHECK(matrices.rows[0].label == "A");  // 2 GF/s before B's 0.2
    CHECK(matrices.rows[0].note == "sell");
    CHECK(matrices.rows[0].range_lo == Approx(1.0));  // csr: 2e6 / 2e-3 s
    CHECK(only_csr.rows.size() == 3);
    const auto s = draw(variants);
    CHECK(s.count("row-label") == 4);
    CHECK(s.count("strip") == 6);  // one dot per measurement
    CHECK(s.texts("provenance")[0].find("NVIDIA H100") != std::string::npos);
    CHECK(s.texts("provenance")[1].find("commit abc1234") != std::string::npos);
}

TEST_CASE("plot model points predict the H100 kernels of a loaded matrix, not CPU records",
          "[plot]")
{
    auto j = gpu_record();
    spmv::Csr<double, std::int32_t> canonical;  // STYLE.md's 4x4
    canonical.num_rows = canonical.num_cols = 4;
    canonical.row_ptrs = {0, 3, 4, 7, 9};
    canonical.col_idxs = {0, 2, 3, 1, 0, 2, 3, 1, 3};
    canonical.values = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const MatrixLoader load = [&](const std::string& m) -> std::optional<spmv::Csr<double, std::int32_t>> {
        if (m == "A") return canonical;
        return std::nullopt;
    };
    std::string why;

    const auto mp = model_points(data_of(j), {}, load, &why);
    j["device"] = "CPU (host reference SpMV, one thread; not a GPU measurement)";
    const auto cpu = model_points(data_of(j), {}, load, &why);

    REQUIRE(mp);
    CHECK(mp->points.size() == 2);  // A's sell and csr; cuSPARSE is not modelled
    CHECK(mp->missing == std::vector<std::string>{"B"});
    for (const auto& p : mp->points) CHECK(p.predicted_s > 0);
    CHECK_FALSE(cpu);
    CHECK_THAT(why, Catch::Contains("no GPU profile"));
}

namespace {

/// A CPU record as bench without --gpu writes it: `matrices` matrices (nnz 1e6 each) and the
/// formats csr (1 ms: 2 GF/s), ell (2 ms: 1 GF/s) and sell (0.5 ms: 4 GF/s), double precision.
nlohmann::json cpu_record(int matrices, const std::string& device = spmv::host_device_name())
{
    nlohmann::json j = {{"meta", {{"schema_version", 1}, {"commit", "abc1234"},
                                  {"date", "2026-11-28T10:00:00Z"}}},
                        {"device", device},
                        {"slice_height", 32},
                        {"block_rows", 32},
                        {"sigma", "auto"},
                        {"complete", true}};
    j["results"] = nlohmann::json::array();
    for (int m = 0; m < matrices; ++m) {
        const std::vector<std::pair<std::string, double>> times = {
            {"csr", 1.0}, {"ell", 2.0}, {"sell", 0.5}};
        for (const auto& [format, ms] : times) {
            j["results"].push_back({{"matrix", "m" + std::to_string(m) + ".mtx"},
                                    {"rows", 100},
                                    {"nnz", 1000000},
                                    {"format", format},
                                    {"precision", "double"},
                                    {"median_ms", ms},
                                    {"min_bytes", nullptr},
                                    {"error", ""}});
        }
    }
    return j;
}

struct Box {
    double x0, y0, x1, y1;
};

/// Where a horizontal text's ink can reach: its advance width from the anchor, from 0.8 of the
/// font size above the baseline to 0.25 below (DejaVu Sans's ascent and descent, rounded up).
Box text_box(const Text& t)
{
    const double w = text_width(t.text, t.size, t.bold);
    const double x0 = t.anchor == Anchor::start    ? t.x
                      : t.anchor == Anchor::middle ? t.x - w / 2
                                                   : t.x - w;
    return {x0, t.y - 0.8 * t.size, x0 + w, t.y + 0.25 * t.size};
}

/// Every pair of horizontal texts of the scene whose boxes overlap, as "a | b".
std::vector<std::string> overlapping_texts(const Scene& s)
{
    std::vector<Text> texts;
    for (const auto& i : s.items) {
        if (const auto* t = std::get_if<Text>(&i); t && !t->vertical && !t->text.empty()) {
            texts.push_back(*t);
        }
    }
    std::vector<std::string> out;
    for (std::size_t a = 0; a < texts.size(); ++a) {
        for (std::size_t b = a + 1; b < texts.size(); ++b) {
            const auto p = text_box(texts[a]), q = text_box(texts[b]);
            if (p.x0 < q.x1 && q.x0 < p.x1 && p.y0 < q.y1 && q.y0 < p.y1) {
                out.push_back(texts[a].text + " | " + texts[b].text);
            }
        }
    }
    return out;
}

/// The data markers of a scene (Symbols of role point and strip, boxes) and how many of them
/// carry a tooltip.
std::pair<std::size_t, std::size_t> markers_and_tips(const Scene& s)
{
    std::size_t markers = 0, tips = 0;
    for (const auto& i : s.items) {
        if (const auto* m = std::get_if<Symbol>(&i); m && m->role != "legend-key") {
            ++markers;
            tips += !m->tip.empty();
        }
        if (const auto* r = std::get_if<Rect>(&i); r && r->role == "box") {
            ++markers;
            tips += !r->tip.empty();
        }
    }
    return {markers, tips};
}

}  // namespace

TEST_CASE("the CPU has one name, and the names earlier records wrote still read as it",
          "[plot]")
{
    const auto old_head =
        cpu_record(1, "CPU (host reference SpMV, one thread; not a GPU measurement)");
    const auto old_rows = cpu_record(1, "CPU (host reference, 1 thread)");
    auto other = cpu_record(1);
    for (auto& e : other["results"]) e["matrix"] = "other.mtx";

    const auto d = combine({adapt_record(old_head, "a.json"), adapt_record(old_rows, "b.json"),
                            adapt_record(other, "c.json")});

    CHECK(spmv::host_device_name() == "CPU (host reference SpMV, 1 thread)");
    CHECK(spmv::is_host_device_name("CPU reference (1 thread)"));  // the explorer's, before
    CHECK_FALSE(spmv::is_host_device_name("NVIDIA H100 80GB HBM3"));
    CHECK(d.runs.size() == 3);  // one device: the three records combine
    CHECK(d.host());
    CHECK_FALSE(d.gpu());
    for (const auto& r : d.runs) CHECK(r.device == spmv::host_device_name());
    CHECK(d.duplicates == 3);  // b.json measured m0.mtx again
    CHECK_FALSE(data_of(gpu_record()).host());
}

TEST_CASE("plot and report's rule: the shortest time wins, equal times the first name",
          "[plot]")
{
    CHECK(faster(0.9, "sell", 1.0, "csr"));
    CHECK_FALSE(faster(1.0, "sell", 1.0, "csr"));
    CHECK(faster(1.0, "csr", 1.0, "sell"));
    CHECK_FALSE(faster(1.0, "csr", 1.0, "csr"));  // irreflexive
    CHECK(faster(5.0, "csr", std::nan(""), "ell"));  // a missing time never wins
    CHECK_FALSE(faster(0.0, "csr", 5.0, "ell"));
    CHECK(counted(1, "matrix", "matrices") == "1 matrix");
    CHECK(counted(0, "matrix", "matrices") == "0 matrices");
    CHECK(counted(2, "matrix", "matrices") == "2 matrices");

    // sell and csr tie on m0.mtx; in either file order the figures name csr
    for (const bool sell_first : {true, false}) {
        auto j = cpu_record(1);
        j["results"] = {j["results"][sell_first ? 2 : 0], j["results"][sell_first ? 0 : 2]};
        j["results"][0]["median_ms"] = j["results"][1]["median_ms"] = 0.75;
        const auto d = data_of(j);

        const auto matrices = gflops_matrices_chart(d, "dp", {});
        const auto variants = gflops_variants_chart(d, "dp", {});

        CHECK(matrices.rows[0].note == "csr");
        for (const auto& r : variants.rows) {
            CHECK(r.note == (r.label == "csr" ? "fastest on 1" : ""));
        }
    }
}

TEST_CASE("plot words a CPU record as formats, counts in the singular, overlaps no text",
          "[plot]")
{
    const auto one = data_of(cpu_record(1));
    const auto three = data_of(cpu_record(3));
    const auto gpu = data_of(gpu_record());

    const auto v1 = gflops_variants_chart(one, "dp", {});
    const auto m1 = gflops_matrices_chart(one, "dp", {});
    const auto v3 = gflops_variants_chart(three, "dp", {});
    const auto vg = gflops_variants_chart(gpu, "dp", {});

    CHECK(v1.header.title == "GF/s of every format over 1 matrix (double precision)");
    CHECK(v3.header.title == "GF/s of every format over 3 matrices (double precision)");
    CHECK(m1.header.title == "Fastest format per matrix, 1 matrix (double precision)");
    CHECK(vg.header.title == "GF/s of every kernel variant over 2 matrices (double precision)");
    CHECK(v1.row_label_title == "format");
    CHECK(vg.row_label_title == "variant");
    CHECK(v1.header.series[0].label == "format (host reference SpMV, 1 thread)");
    CHECK(m1.header.series[0].label == "fastest format (named right)");
    for (const auto* c : {&v1, &m1, &v3}) {
        for (const auto& line : c->header.footer) {
            INFO(line);
            CHECK(line.find("variant") == std::string::npos);
            CHECK(line.find("kernel") == std::string::npos);
            CHECK(line.find("1 matrices") == std::string::npos);
        }
    }
    CHECK(m1.rows[0].marks[0].tip ==
          "m0.mtx: fastest format sell 4.00 GF/s, slowest format ell 1.00 GF/s");
    // the drawn figures: no text over another (the row labels' title "format" and the first
    // tick label shared a line before), every text inside the figure
    const auto mg = gflops_matrices_chart(gpu, "dp", {});
    for (const auto& s : {draw(v1), draw(m1), draw(v3), draw(vg), draw(mg)}) {
        const auto overlaps = overlapping_texts(s);
        INFO(s.texts("title")[0]);
        CHECK(overlaps == std::vector<std::string>{});
        for (const auto& i : s.items) {
            if (const auto* t = std::get_if<Text>(&i); t && !t->vertical) {
                INFO(t->text);
                CHECK(text_box(*t).x0 >= 0);
                CHECK(text_box(*t).x1 <= s.width);
            }
        }
    }
}

TEST_CASE("every marker of every figure carries a tooltip with its numbers", "[plot]")
{
    const auto d = data_of(gpu_record());
    std::string why;
    const MatrixLoader load =
        [](const std::string&) -> std::optional<spmv::Csr<double, std::int32_t>> {
        spmv::Csr<double, std::int32_t> a;  // STYLE.md's canonical 4x4
        a.num_rows = a.num_cols = 4;
        a.row_ptrs = {0, 3, 4, 7, 9};
        a.col_idxs = {0, 2, 3, 1, 0, 2, 3, 1, 3};
        a.values = {1, 2, 3, 4, 5, 6, 7, 8, 9};
        return a;
    };
    const auto mp = model_points(d, {}, load, &why);
    REQUIRE(mp);
    std::vector<Scene> scenes = {draw(gflops_variants_chart(d, "dp", {})),
                                 draw(gflops_matrices_chart(d, "dp", {})),
                                 draw(*bandwidth_chart(d, "dp", {}, &why)),
                                 draw(*speedup_chart(d, "dp", {}, &why)),
                                 draw(*model_chart(d, "dp", *mp, &why)),
                                 draw(gflops_variants_chart(data_of(cpu_record(3)), "dp", {}))};

    for (const auto& s : scenes) {
        const auto [markers, tips] = markers_and_tips(s);
        INFO(s.texts("title")[0]);
        CHECK(markers > 0);
        CHECK(tips == markers);
        // and in the SVG: one <title> per marker (the legend keys have none)
        const auto text = svg(s);
        std::size_t titles = 0;
        for (auto p = text.find("<title>"); p != std::string::npos;
             p = text.find("<title>", p + 1)) {
            ++titles;
        }
        std::size_t reference_tips = 0;  // scatter charts' reference lines are titled too
        for (const auto& l : s.all<Line>("reference")) reference_tips += !l.tip.empty();
        std::size_t median_tips = s.all<Line>("median").size();  // a box's median line
        CHECK(titles == markers + reference_tips + median_tips);
    }
    // the dots of gflops_variants name matrix, variant, value and unit
    const auto strip = scenes[0].all<Symbol>("strip");
    REQUIRE(strip.size() == 6);
    CHECK(strip[0].tip.find(" GF/s") != std::string::npos);
    const auto sell_dot = std::find_if(strip.begin(), strip.end(), [](const Symbol& m) {
        return m.tip.rfind("A: sell ", 0) == 0;
    });
    REQUIRE(sell_dot != strip.end());
    CHECK(sell_dot->tip == "A: sell 2.00 GF/s (median 1.00 ms)");
    const auto boxes = scenes[0].all<Rect>("box");
    REQUIRE_FALSE(boxes.empty());
    CHECK(boxes[0].tip.find("median") != std::string::npos);

    // a marker without a tooltip is refused, not drawn silently
    RowsChart bare;
    bare.header.series = {{"s", {0, 0, 0}, Shape::circle, false}};
    Row r;
    r.label = "m";
    r.marks.push_back({1.0, 0, ""});
    bare.rows.push_back(r);
    CHECK_THROWS_WITH(draw(bare), Catch::Contains("a marker without a tooltip"));
    bare.rows[0].marks[0].tip = "m: 1 GF/s";
    bare.rows[0].strip = {1.0, 2.0};
    CHECK_THROWS_WITH(draw(bare), Catch::Contains("one tooltip per dot"));
}
