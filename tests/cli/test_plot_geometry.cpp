// spmvlab plot without cairo: axes, ticks, the rows and scatter layouts, the record adapter and
// the numbers the figures show (cli/src/plot/), each against a hand-computed value.
#include <cmath>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <spmv/error.hpp>

#include "plot/charts.hpp"
#include "plot/figures.hpp"
#include "plot/records.hpp"

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
