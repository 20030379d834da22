// Timelines of distributed SpMVs (Kreutzer et al. 2012, Fig. 4): the names of the
// enumerations, the hand-checked overlap measure, the JSON round trip and its errors, and the
// SVG picture with its plain-number layout.
#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/dist/timeline.hpp>
#include <spmv/error.hpp>
#include <spmv/viz/timeline_svg.hpp>

using namespace spmv;
using namespace spmv::dist;

namespace {

TimelineEvent event(int rank, Lane lane, Phase phase, double begin_us, double end_us,
                    int iteration = 0)
{
    return {rank, lane, phase, iteration, begin_us, end_us};
}

Timeline timeline(Mode mode, int num_ranks, std::vector<TimelineEvent> events)
{
    Timeline t;
    t.mode = mode;
    t.num_ranks = num_ranks;
    t.events = std::move(events);
    return t;
}

std::size_t count(const std::string& text, const std::string& what)
{
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

/// The what() of the InvalidArgument that timelines_from_json throws ("" when it does not).
std::string json_error(const std::string& text)
{
    try {
        timelines_from_json(text);
    } catch (const InvalidArgument& e) {
        return e.what();
    }
    return "";
}

/// A GPU rank in task mode over two iterations (0: warm-up, 1: measured), like Fig. 4.
Timeline task_mode_gpu_rank()
{
    Timeline t = timeline(Mode::task, 1, {});
    for (int it = 0; it < 2; ++it) {
        const double o = 100.0 * it;
        t.events.push_back(event(0, Lane::gpu, Phase::pack, o + 0, o + 5, it));
        t.events.push_back(event(0, Lane::gpu, Phase::copy_d2h, o + 5, o + 10, it));
        t.events.push_back(event(0, Lane::comm, Phase::exchange, o + 10, o + 40, it));
        t.events.push_back(event(0, Lane::gpu, Phase::local, o + 10, o + 50, it));
        t.events.push_back(event(0, Lane::gpu, Phase::copy_h2d, o + 50, o + 55, it));
        t.events.push_back(event(0, Lane::gpu, Phase::nonlocal, o + 55, o + 70, it));
    }
    t.events.push_back(event(0, Lane::compute, Phase::idle, 40, 50, 0));  // warm-up only
    return t;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Names

TEST_CASE("Timeline enumerations print and parse their enumerator names", "[timeline]")
{
    for (Mode m : all_modes) CHECK(parse_mode(to_string(m)) == m);
    for (Phase p : {Phase::local, Phase::nonlocal, Phase::pack, Phase::copy_d2h, Phase::copy_h2d,
                    Phase::post, Phase::wait, Phase::exchange, Phase::reduce, Phase::idle,
                    Phase::copy_peer}) {
        CHECK(parse_phase(to_string(p)) == p);
    }
    for (Lane l : {Lane::compute, Lane::comm, Lane::gpu}) CHECK(parse_lane(to_string(l)) == l);

    CHECK(to_string(Mode::overlap) == "overlap");
    CHECK(to_string(Mode::naive) == "naive");
    CHECK(parse_mode("naive") == Mode::naive);
    // the order of every list, table and `--mode all`: the paper's three, the GPU's own third
    CHECK(all_modes == std::array<Mode, 4>{Mode::vector, Mode::naive, Mode::overlap, Mode::task});
    CHECK(to_string(Phase::copy_d2h) == "copy_d2h");
    CHECK(to_string(Lane::gpu) == "gpu");
}

TEST_CASE("Unknown timeline names are rejected", "[timeline]")
{
    CHECK_THROWS_AS(parse_mode("Vector"), InvalidArgument);
    CHECK_THROWS_AS(parse_phase("lokal"), InvalidArgument);
    CHECK_THROWS_AS(parse_lane(""), InvalidArgument);
}

TEST_CASE("The span of a timeline runs from the first begin to the last end", "[timeline]")
{
    const Timeline t = timeline(Mode::vector, 1,
                                {event(0, Lane::compute, Phase::local, 5, 10),
                                 event(0, Lane::compute, Phase::post, 2, 7)});

    CHECK(t.span_us() == 8.0);
    CHECK(Timeline{}.span_us() == 0.0);
}

TEST_CASE("iterations lists the distinct iterations in ascending order", "[timeline]")
{
    const Timeline t = timeline(Mode::vector, 1,
                                {event(0, Lane::compute, Phase::local, 0, 1, 3),
                                 event(0, Lane::compute, Phase::local, 1, 2, 1),
                                 event(0, Lane::compute, Phase::local, 2, 3, 3)});

    CHECK(iterations(t) == std::vector<int>{1, 3});
    CHECK(iterations(Timeline{}).empty());
}

// ---------------------------------------------------------------------------------------------
// overlapped_fraction, checked by hand

TEST_CASE("An exchange entirely under the local SpMV of another lane is fully hidden",
          "[timeline]")
{
    const Timeline t = timeline(Mode::task, 1,
                                {event(0, Lane::comm, Phase::exchange, 0, 10),
                                 event(0, Lane::compute, Phase::local, 0, 20)});

    CHECK(overlap_times(t) == OverlapTimes{10.0, 10.0});
    CHECK(overlapped_fraction(t) == 1.0);
}

TEST_CASE("Vector mode exposes its whole exchange", "[timeline]")
{
    const Timeline t = timeline(Mode::vector, 1,
                                {event(0, Lane::compute, Phase::post, 0, 2),
                                 event(0, Lane::compute, Phase::wait, 2, 10),
                                 event(0, Lane::compute, Phase::local, 10, 30),
                                 event(0, Lane::compute, Phase::nonlocal, 30, 35)});

    CHECK(overlap_times(t) == OverlapTimes{10.0, 0.0});
    CHECK(overlapped_fraction(t) == 0.0);
}

TEST_CASE("A wait half covered by the GPU's local kernel is half hidden", "[timeline]")
{
    // The host thread waits 0..10 while the GPU computes 5..15.
    const Timeline t = timeline(Mode::overlap, 1,
                                {event(0, Lane::compute, Phase::wait, 0, 10),
                                 event(0, Lane::gpu, Phase::local, 5, 15)});

    CHECK(overlap_times(t) == OverlapTimes{10.0, 5.0});
    CHECK(overlapped_fraction(t) == 0.5);
}

TEST_CASE("Naive overlap on a GPU rank hides nothing: the kernel ends before the wait", "[timeline]")
{
    // Mode::naive on a GPU rank as DistMatrix records it: the host waits for the gather and
    // copy (pack 0..4 on the compute lane beside the GPU's pack 0..2 and copy 2..4), posts,
    // is blocked on the local kernel (idle 5..25 beside the GPU's local 5..25), then waits for
    // the messages 25..35, the halo goes to the device 35..37, the non-local part 37..40.
    const Timeline t = timeline(Mode::naive, 1,
                                {event(0, Lane::compute, Phase::pack, 0, 4),
                                 event(0, Lane::gpu, Phase::pack, 0, 2),
                                 event(0, Lane::gpu, Phase::copy_d2h, 2, 4),
                                 event(0, Lane::compute, Phase::post, 4, 5),
                                 event(0, Lane::compute, Phase::idle, 5, 25),
                                 event(0, Lane::gpu, Phase::local, 5, 25),
                                 event(0, Lane::compute, Phase::wait, 25, 35),
                                 event(0, Lane::gpu, Phase::copy_h2d, 35, 37),
                                 event(0, Lane::gpu, Phase::nonlocal, 37, 40)});

    CHECK(overlap_times(t) == OverlapTimes{17.0, 0.0});  // 0..5, 25..37: nothing hidden
    CHECK(overlapped_fraction(t) == 0.0);
}

TEST_CASE("Overlap on the same lane does not hide the exchange", "[timeline]")
{
    // One thread cannot post and compute at once: same-lane overlap is not overlap.
    const Timeline t = timeline(Mode::overlap, 1,
                                {event(0, Lane::compute, Phase::post, 0, 10),
                                 event(0, Lane::compute, Phase::local, 0, 10),
                                 event(0, Lane::comm, Phase::exchange, 20, 30),
                                 event(0, Lane::comm, Phase::nonlocal, 20, 30)});

    CHECK(overlap_times(t) == OverlapTimes{20.0, 0.0});
    CHECK(overlapped_fraction(t) == 0.0);
}

TEST_CASE("Time covered by several exchange events counts once", "[timeline]")
{
    // Task mode: the comm thread exchanges 0..10 under the local part (0..5); the compute
    // thread then waits 5..10 with nothing to do, which is exposed.
    const Timeline t = timeline(Mode::task, 1,
                                {event(0, Lane::comm, Phase::exchange, 0, 10),
                                 event(0, Lane::compute, Phase::local, 0, 5),
                                 event(0, Lane::compute, Phase::wait, 5, 10),
                                 event(0, Lane::compute, Phase::nonlocal, 10, 12)});

    CHECK(overlap_times(t) == OverlapTimes{10.0, 5.0});
    CHECK(overlapped_fraction(t) == 0.5);
}

TEST_CASE("Two ranks pool their exchange times and never hide each other", "[timeline]")
{
    // Rank 0: exchange 0..10 under its GPU's local kernel 0..30 (hidden).
    // Rank 1: waits 0..30 with no compute of its own; rank 0's kernel does not hide it.
    const Timeline t = timeline(Mode::overlap, 2,
                                {event(0, Lane::comm, Phase::exchange, 0, 10),
                                 event(0, Lane::gpu, Phase::local, 0, 30),
                                 event(1, Lane::compute, Phase::wait, 0, 30)});

    CHECK(overlapped_fraction(t, 0) == 1.0);
    CHECK(overlapped_fraction(t, 1) == 0.0);
    CHECK(overlap_times(t) == OverlapTimes{40.0, 10.0});
    CHECK(overlapped_fraction(t) == 0.25);
    CHECK(overlapped_fraction(t, 2) == 0.0);  // a rank without events has no exchange
}

TEST_CASE("The iteration filter selects one SpMV of the run", "[timeline]")
{
    // Iteration 0 (warm-up) exposes 10 us, iteration 1 hides its 10 us. Iteration 1's
    // compute also covers iteration 0's times: different iterations never hide each other.
    const Timeline t = timeline(Mode::task, 1,
                                {event(0, Lane::compute, Phase::wait, 0, 10, 0),
                                 event(0, Lane::comm, Phase::exchange, 20, 30, 1),
                                 event(0, Lane::gpu, Phase::local, 0, 30, 1)});

    CHECK(overlapped_fraction(t, -1, 0) == 0.0);
    CHECK(overlapped_fraction(t, -1, 1) == 1.0);
    CHECK(overlapped_fraction(t, 0, 1) == 1.0);
    CHECK(overlapped_fraction(t) == 0.5);
}

TEST_CASE("Without exchange the overlapped fraction is 0 and reduce or idle do not count",
          "[timeline]")
{
    const Timeline t = timeline(Mode::task, 1,
                                {event(0, Lane::compute, Phase::local, 0, 10),
                                 event(0, Lane::comm, Phase::reduce, 0, 10),
                                 event(0, Lane::comm, Phase::idle, 10, 20)});

    CHECK(overlap_times(t) == OverlapTimes{0.0, 0.0});
    CHECK(overlapped_fraction(t) == 0.0);
    CHECK(overlapped_fraction(Timeline{}) == 0.0);
}

TEST_CASE("The Fig. 4 task-mode GPU rank hides its exchange behind the local kernel",
          "[timeline]")
{
    const Timeline t = task_mode_gpu_rank();

    // Exchange-type: pack 0..5, copy_d2h 5..10 on the GPU lane (not hidden: only the GPU
    // computes, on the same lane), exchange 10..40 on comm under local 10..50, copy_h2d 50..55.
    CHECK(overlap_times(t, 0, 1) == OverlapTimes{45.0, 30.0});
    CHECK(overlapped_fraction(t, -1, 1) == Approx(30.0 / 45.0));
}

TEST_CASE("An event that ends before it begins makes overlap_times throw", "[timeline]")
{
    const Timeline t = timeline(Mode::vector, 1, {event(0, Lane::compute, Phase::wait, 5, 4)});

    CHECK_THROWS_AS(overlapped_fraction(t), InvalidArgument);
}

// ---------------------------------------------------------------------------------------------
// JSON

TEST_CASE("Timelines survive a JSON round trip exactly", "[timeline]")
{
    Timeline a = task_mode_gpu_rank();
    a.matrix = "DLR1 \"quoted\" <tag> & \u00e9";
    a.format = "pjds";
    a.partition = "nnz";
    a.device = "NVIDIA H100 80GB HBM3";
    a.precision = "double";
    a.date = "2024-05-01T12:00:00Z";
    a.commit = "0123abc";
    a.events.push_back(event(0, Lane::compute, Phase::post, 0.1, 1e-7 + 0.1, 2));
    a.events.push_back(event(0, Lane::compute, Phase::wait, 12345.678901234567, 123456.75, 2));
    Timeline b = timeline(Mode::vector, 3, {event(2, Lane::compute, Phase::reduce, 1, 2, 7)});
    b.predicted = true;
    const std::vector<Timeline> timelines{a, b, Timeline{}};

    const std::string text = to_json(timelines);
    const auto back = timelines_from_json(text);

    CHECK(back == timelines);
    CHECK(text.front() == '[');
    CHECK(count(text, "\"schema\": \"spmvlab.timeline/1\"") == 3);
    CHECK(timelines_from_json(to_json({})).empty());
}

TEST_CASE("A JSON file may hold one timeline object without schema or text fields",
          "[timeline]")
{
    const std::string text = R"({"mode": "overlap", "num_ranks": 2, "events": [
        {"rank": 1, "lane": "gpu", "phase": "local", "iteration": 3, "begin_us": 1,
         "end_us": 2.5}]})";

    const auto t = timelines_from_json(text);

    REQUIRE(t.size() == 1);
    CHECK(t[0].mode == Mode::overlap);
    CHECK(t[0].num_ranks == 2);
    CHECK(t[0].matrix.empty());
    CHECK_FALSE(t[0].predicted);
    CHECK(t[0].events == std::vector<TimelineEvent>{event(1, Lane::gpu, Phase::local, 1, 2.5, 3)});
}

TEST_CASE("JSON errors name the missing or wrong key and the event index", "[timeline]")
{
    const std::string head = R"([{"mode": "task", "num_ranks": 2, "events": [)";
    const std::string good =
        R"({"rank": 0, "lane": "compute", "phase": "local", "iteration": 0, "begin_us": 0,
            "end_us": 1})";

    SECTION("missing key")
    {
        const std::string e = json_error(
            head + good + R"(, {"rank": 0, "lane": "compute", "iteration": 0, "begin_us": 0,
                                 "end_us": 1}]}])");
        CHECK_THAT(e, Catch::Contains("timeline 0, event 1") && Catch::Contains("'phase'"));
    }
    SECTION("bad phase name")
    {
        const std::string e = json_error(
            head + R"({"rank": 0, "lane": "compute", "phase": "lokal", "iteration": 0,
                       "begin_us": 0, "end_us": 1}]}])");
        CHECK_THAT(e, Catch::Contains("event 0") && Catch::Contains("unknown phase 'lokal'"));
    }
    SECTION("end before begin")
    {
        const std::string e = json_error(
            head + good + "," + good + R"(, {"rank": 1, "lane": "comm", "phase": "wait",
                "iteration": 0, "begin_us": 5, "end_us": 4}]}])");
        CHECK_THAT(e, Catch::Contains("event 2") && Catch::Contains("'end_us'") &&
                          Catch::Contains("before it begins"));
    }
    SECTION("rank out of range")
    {
        const std::string e = json_error(
            head + R"({"rank": 2, "lane": "comm", "phase": "wait", "iteration": 0,
                       "begin_us": 0, "end_us": 1}]}])");
        CHECK_THAT(e, Catch::Contains("event 0") && Catch::Contains("'rank'"));
    }
    SECTION("a time that is not a number")
    {
        const std::string e = json_error(
            head + R"({"rank": 0, "lane": "comm", "phase": "wait", "iteration": 0,
                       "begin_us": "0", "end_us": 1}]}])");
        CHECK_THAT(e, Catch::Contains("'begin_us'"));
    }
    SECTION("missing mode of the second timeline")
    {
        const std::string e =
            json_error(head + "]}, " + R"({"num_ranks": 1, "events": []}])");
        CHECK_THAT(e, Catch::Contains("timeline 1") && Catch::Contains("'mode'"));
    }
    SECTION("unknown schema")
    {
        const std::string e = json_error(
            R"({"schema": "spmvlab.timeline/2", "mode": "task", "num_ranks": 1, "events": []})");
        CHECK_THAT(e, Catch::Contains("'schema'") && Catch::Contains("spmvlab.timeline/2"));
    }
    SECTION("not JSON at all")
    {
        CHECK_THAT(json_error("[{\"mode\": "), Catch::Contains("not valid JSON"));
        CHECK_THAT(json_error("42"), Catch::Contains("object or an array"));
    }
}

// ---------------------------------------------------------------------------------------------
// SVG and its layout

TEST_CASE("The timeline SVG draws one rect per event of the last iteration", "[timeline]")
{
    const Timeline t = task_mode_gpu_rank();  // 7 events in iteration 0, 6 in iteration 1

    const std::string svg = viz::timeline_svg({t});

    CHECK(svg.rfind("<?xml", 0) == 0);
    CHECK(count(svg, "<svg ") == 1);
    CHECK(svg.ends_with("</svg>\n"));
    CHECK(count(svg, "<rect class=\"event\"") == 6);
    CHECK(count(svg, "<g") == count(svg, "</g>"));
    CHECK(count(svg, "<text") == count(svg, "</text>"));
    CHECK(count(svg, "<title>") == count(svg, "</title>"));
    CHECK(svg.find("Task mode (comm thread), iteration 1") != std::string::npos);
    CHECK(svg.find("67 % of the exchange hidden") != std::string::npos);
    CHECK(svg.find(">rank 0 GPU<") != std::string::npos);
    CHECK(svg.find(">rank 0 comm<") != std::string::npos);
    CHECK(svg.find(">rank 0 compute<") != std::string::npos);  // has idle in iteration 0
    CHECK(svg.find("PREDICTED") == std::string::npos);
}

TEST_CASE("The timeline SVG legend names the phases drawn", "[timeline]")
{
    const std::string svg = viz::timeline_svg({task_mode_gpu_rank()});

    for (Phase p : {Phase::local, Phase::nonlocal, Phase::pack, Phase::copy_d2h, Phase::copy_h2d,
                    Phase::exchange}) {
        CHECK(svg.find(">" + viz::phase_label(p) + "</text>") != std::string::npos);
    }
    CHECK(count(svg, "<rect class=\"legend-key\"") == 6);  // chart.hpp's legend
    CHECK(svg.find(">idle</text>") == std::string::npos);  // idle is only in iteration 0
}

TEST_CASE("A predicted timeline is labelled PREDICTED by the model", "[timeline]")
{
    Timeline t = task_mode_gpu_rank();
    t.predicted = true;

    const std::string svg = viz::timeline_svg({t});

    CHECK(svg.find("PREDICTED by the model") != std::string::npos);
}

TEST_CASE("Text in the timeline SVG is XML-escaped", "[timeline]")
{
    Timeline t = task_mode_gpu_rank();
    t.matrix = "a<b & \"c\"";

    const std::string svg = viz::timeline_svg({t});

    CHECK(svg.find("matrix: a&lt;b &amp; &quot;c&quot;") != std::string::npos);
    CHECK(svg.find("a<b") == std::string::npos);
    CHECK(viz::xml_escape("<&>\"'") == "&lt;&amp;&gt;&quot;&apos;");
}

TEST_CASE("Timeline x positions scale linearly with time", "[timeline]")
{
    const Timeline t = timeline(Mode::vector, 1,
                                {event(0, Lane::compute, Phase::wait, 100, 110),
                                 event(0, Lane::compute, Phase::local, 110, 130),
                                 event(0, Lane::compute, Phase::nonlocal, 130, 180)});
    viz::TimelineSvgOptions o;
    o.width_px = 130.0 + 800.0 + 28.0;  // labels + plot + right margin: an 800 px plot

    const auto lay = viz::timeline_layout({t}, o);

    REQUIRE(lay.bars.size() == 3);
    CHECK(lay.plot_width == 800.0);
    CHECK(lay.axis.max_us == 80.0);  // span 80 us, step 10 us
    CHECK(lay.axis.step_us == 10.0);
    CHECK(lay.panels[0].origin_us == 100.0);
    CHECK(lay.bars[0].x == Approx(lay.plot_left));
    CHECK(lay.bars[0].width == Approx(100.0));
    CHECK(lay.bars[1].x == Approx(lay.plot_left + 100.0));
    CHECK(lay.bars[1].width == Approx(200.0));
    CHECK(lay.bars[2].x == Approx(lay.plot_left + 300.0));
    CHECK(lay.bars[2].width == Approx(500.0));
    CHECK(lay.x_of(80.0) == Approx(lay.plot_left + lay.plot_width));
}

TEST_CASE("All timeline panels share one time scale", "[timeline]")
{
    // Vector mode takes 80 us, task mode 40 us: the same 10 us event has the same width.
    const Timeline slow = timeline(Mode::vector, 1,
                                   {event(0, Lane::compute, Phase::wait, 0, 20),
                                    event(0, Lane::compute, Phase::local, 20, 30),
                                    event(0, Lane::compute, Phase::nonlocal, 30, 80)});
    const Timeline fast = timeline(Mode::task, 1,
                                   {event(0, Lane::comm, Phase::exchange, 1000, 1020),
                                    event(0, Lane::compute, Phase::local, 1020, 1030),
                                    event(0, Lane::compute, Phase::nonlocal, 1030, 1040)});
    viz::TimelineSvgOptions o;
    o.width_px = 130.0 + 800.0 + 28.0;

    const auto lay = viz::timeline_layout({slow, fast}, o);

    REQUIRE(lay.panels.size() == 2);
    REQUIRE(lay.bars.size() == 6);
    CHECK(lay.axis.max_us == 80.0);
    CHECK(lay.panels[1].origin_us == 1000.0);
    CHECK(lay.panels[1].y > lay.panels[0].y + lay.panels[0].height);
    CHECK(lay.bars[1].x == Approx(lay.bars[4].x));  // both local SpMVs: 20..30 us
    CHECK(lay.bars[1].width == Approx(lay.bars[4].width));
    CHECK(lay.bars[5].x + lay.bars[5].width == Approx(lay.plot_left + 400.0));  // ends at 40
    CHECK(lay.bars[2].x + lay.bars[2].width == Approx(lay.plot_left + 800.0));  // ends at 80
    CHECK(lay.rows[lay.bars[3].row].label == "rank 0 comm");
    CHECK(lay.rows[lay.bars[3].row].panel == 1);
}

TEST_CASE("The timeline layout draws the chosen iteration shifted to start at 0",
          "[timeline]")
{
    const Timeline t = task_mode_gpu_rank();
    viz::TimelineSvgOptions o;

    SECTION("the default is the last iteration")
    {
        const auto lay = viz::timeline_layout({t}, o);
        CHECK(lay.panels[0].iteration == 1);
        CHECK(lay.panels[0].origin_us == 100.0);
        CHECK(lay.bars.size() == 6);
        CHECK(lay.axis.max_us == 70.0);
        CHECK(lay.bars.front().x == Approx(lay.plot_left));
    }
    SECTION("iteration 0")
    {
        o.iteration = 0;
        const auto lay = viz::timeline_layout({t}, o);
        CHECK(lay.panels[0].origin_us == 0.0);
        CHECK(lay.bars.size() == 7);
        CHECK(std::count(lay.legend.begin(), lay.legend.end(), Phase::idle) == 1);
    }
    SECTION("all iterations")
    {
        o.iteration = viz::timeline_all_iterations;
        const auto lay = viz::timeline_layout({t}, o);
        CHECK(lay.bars.size() == t.events.size());
        CHECK(lay.axis.step_us == 20.0);  // span 170 us: 10 us steps would be 17 ticks
        CHECK(lay.axis.max_us == 180.0);
    }
    SECTION("an iteration the timeline lacks gives an empty panel")
    {
        o.iteration = 5;
        const auto lay = viz::timeline_layout({t}, o);
        CHECK(lay.bars.empty());
        CHECK(lay.legend.empty());
        CHECK(viz::timeline_svg({t}, o).find("no events in iteration 5") != std::string::npos);
    }
}

TEST_CASE("Timeline rows are ordered by rank and lane", "[timeline]")
{
    const Timeline t = timeline(Mode::task, 2,
                                {event(1, Lane::compute, Phase::local, 0, 1),
                                 event(0, Lane::gpu, Phase::local, 0, 1),
                                 event(0, Lane::compute, Phase::wait, 0, 1),
                                 event(1, Lane::comm, Phase::exchange, 0, 1)});

    const auto lay = viz::timeline_layout({t});

    std::vector<std::string> labels;
    for (const auto& r : lay.rows) labels.push_back(r.label);
    CHECK(labels == std::vector<std::string>{"rank 0 compute", "rank 0 GPU", "rank 1 compute",
                                             "rank 1 comm"});
    for (std::size_t i = 1; i < lay.rows.size(); ++i) CHECK(lay.rows[i].y > lay.rows[i - 1].y);
}

TEST_CASE("The timeline layout rejects a picture too narrow for its labels", "[timeline]")
{
    viz::TimelineSvgOptions o;
    o.width_px = 100.0;

    CHECK_THROWS_AS(viz::timeline_layout({task_mode_gpu_rank()}, o), InvalidArgument);
}
