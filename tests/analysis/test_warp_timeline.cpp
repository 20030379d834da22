// The warp timeline file (spmvlab bench --gpu --warp-timeline): reader, validator, summary and
// the pairing of measured warps with the model's warps, on hand-made files.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include <spmv/analysis/warp_timeline.hpp>
#include <spmv/analysis/warps.hpp>
#include <spmv/error.hpp>
#include <spmv/registry.hpp>

using namespace spmv;
using namespace spmv::analysis;

namespace {

// 3 warps of one launch of 2 blocks x 64 threads (the second block's second warp did not
// exist: 70 rows), rows [0,32) [32,64) [64,70); the model's warps of 32, 32 and 6 threads.
const std::string hand_made = R"({
  "schema": "spmvlab.warp-timeline/1",
  "device": "hand-made", "precision": "double", "matrix": "hand", "date": "2026-12-01T00:00:00Z",
  "commit": "abc", "rows": 70, "cols": 70, "nnz": 300, "multiprocessors": 4, "synthetic": true,
  "variants": [{
    "variant": "ellr", "format": "ellr",
    "launches": [{
      "kernel": "ellr_spmv_kernel", "blocks": 2, "threads_per_block": 64, "expected_warps": 4,
      "warps": [
        {"block": 0, "warp": 0, "sm": 1, "start_ns": 0, "end_ns": 100, "row_begin": 0, "row_end": 32},
        {"block": 0, "warp": 1, "sm": 1, "start_ns": 10, "end_ns": 910, "cycles": 1700,
         "row_begin": 32, "row_end": 64},
        {"block": 1, "warp": 0, "sm": 3, "start_ns": 20, "end_ns": 140, "row_begin": 64, "row_end": 70}
      ]}],
    "model": {"warp_size": 32, "warps": [
      {"first_thread": 0, "threads": 32, "max_iterations": 2, "useful": 40, "idle_slots": 24, "stored_padding": 0},
      {"first_thread": 32, "threads": 32, "max_iterations": 40, "useful": 70, "idle_slots": 1210, "stored_padding": 0},
      {"first_thread": 64, "threads": 6, "max_iterations": 3, "useful": 12, "idle_slots": 6, "stored_padding": 0}]}
  }]
})";

std::string replaced(std::string s, const std::string& from, const std::string& to)
{
    const auto at = s.find(from);
    REQUIRE(at != std::string::npos);
    return s.replace(at, from.size(), to);
}

std::string error_of(const std::string& text)
{
    try {
        read_warp_timeline(text, "t.json");
    } catch (const InvalidArgument& e) {
        return user_message(e.what());
    }
    return "no error";
}

}  // namespace

TEST_CASE("A hand-made warp timeline reads back with every field")
{
    const auto t = read_warp_timeline(hand_made, "t.json");

    REQUIRE(t.variants.size() == 1);
    CHECK(t.synthetic);
    CHECK(t.multiprocessors == 4);
    CHECK(t.rows == 70);
    const auto& v = t.variants[0];
    CHECK(v.variant == "ellr");
    REQUIRE(v.launches.size() == 1);
    const auto& l = v.launches[0];
    CHECK(l.kernel == "ellr_spmv_kernel");
    CHECK(l.expected_warps == 4);
    REQUIRE(l.warps.size() == 3);
    CHECK(l.warps[1].duration_ns() == 900.0);
    CHECK(l.warps[1].cycles == 1700.0);
    CHECK(l.warps[0].cycles == -1.0);
    CHECK(l.warps[2].row_begin == 64);
    CHECK(l.warps[2].row_end == 70);
    CHECK(l.span_ns() == 910.0);
    REQUIRE(v.model.size() == 3);
    CHECK(v.model[1].max_iterations == 40);
}

TEST_CASE("The summary of a launch names the long warp and its ratio to the median")
{
    const auto t = read_warp_timeline(hand_made, "t.json");

    const auto s = summarize(t.variants[0].launches[0]);

    // durations 100, 900, 120: median 120, longest warp 1 (900 ns = 7.5 x 120), which also
    // ends last (910 ns); SMs 1 and 3
    CHECK(s.warps == 3);
    CHECK(s.median_duration_ns == 120.0);
    CHECK(s.max_duration_ns == 900.0);
    CHECK(s.longest == 1);
    CHECK(s.last_end == 1);
    CHECK(s.longest_over_median == Approx(7.5));
    CHECK(s.span_ns == 910.0);
    CHECK(s.sms_used == 2);
}

TEST_CASE("Measured warps pair with the model's warps of the same rows")
{
    const auto t = read_warp_timeline(hand_made, "t.json");

    const auto p = pair_warps(t.variants[0], 0);
    const auto best = best_pairing(t.variants[0]);

    REQUIRE(p.pairs.size() == 3);
    CHECK(p.paired == 3);
    CHECK(p.exact == 3);
    CHECK(p.pairs[0].model == 0);
    CHECK(p.pairs[1].model == 1);
    CHECK(p.pairs[2].model == 2);
    // durations (100, 900, 120) against max_iterations (2, 40, 3), by hand:
    // means 373.33 and 15; r = 18806.67 / sqrt(394866.67 * 896) = 0.9999993
    CHECK(p.correlation == Approx(0.9999993).epsilon(1e-6));
    REQUIRE(best.has_value());
    CHECK(best->launch == 0);
}

TEST_CASE("A kernel of another thread mapping pairs by its first row, not exactly")
{
    // csr_vector-like: a warp of 8 rows (4 threads a row) against the model's warps of 32 rows
    auto t = read_warp_timeline(hand_made, "t.json");
    auto& w = t.variants[0].launches[0].warps;
    w[0].row_begin = 8;
    w[0].row_end = 16;  // inside model warp 0
    w[1].row_begin = 40;
    w[1].row_end = 48;  // inside model warp 1
    w[2].row_begin = -1;
    w[2].row_end = -1;  // unknown rows: not paired

    const auto p = pair_warps(t.variants[0], 0);

    CHECK(p.paired == 2);
    CHECK(p.exact == 0);
    CHECK(p.pairs[0].model == 0);
    CHECK(p.pairs[1].model == 1);
    CHECK(p.pairs[2].model == -1);
    CHECK(std::isnan(p.correlation) == false);
}

TEST_CASE("Rows past the model's last warp stay unpaired, and a file without a model pairs nothing")
{
    auto t = read_warp_timeline(hand_made, "t.json");
    t.variants[0].launches[0].warps[2].row_begin = 70;
    t.variants[0].launches[0].warps[2].row_end = 80;

    const auto p = pair_warps(t.variants[0], 0);
    t.variants[0].model.clear();

    CHECK(p.pairs[2].model == -1);
    CHECK(p.paired == 2);
    CHECK_FALSE(best_pairing(t.variants[0]).has_value());
    CHECK_THROWS_AS(pair_warps(t.variants[0], 1), InvalidArgument);
}

TEST_CASE("A warp timeline survives the round trip through to_json")
{
    const auto t = read_warp_timeline(hand_made, "t.json");

    const std::string text = to_json(t);
    const auto back = read_warp_timeline(text, "back.json");

    CHECK(text.find(R"({"block":0,"warp":1,"sm":1,"start_ns":10.0,"end_ns":910.0,"cycles":1700.0,)"
                    R"("row_begin":32,"row_end":64})") != std::string::npos);  // one per line
    REQUIRE(back.variants.size() == 1);
    const auto& a = t.variants[0].launches[0].warps;
    const auto& b = back.variants[0].launches[0].warps;
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        CHECK(a[i].start_ns == b[i].start_ns);
        CHECK(a[i].end_ns == b[i].end_ns);
        CHECK(a[i].sm == b[i].sm);
        CHECK(a[i].row_begin == b[i].row_begin);
        CHECK(a[i].cycles == b[i].cycles);
    }
    CHECK(back.variants[0].model.size() == 3);
    CHECK(back.synthetic);
    CHECK(back.device == "hand-made");
}

TEST_CASE("A bad warp timeline is refused naming the file and the place")
{
    CHECK(error_of(replaced(hand_made, R"("end_ns": 910)", R"("end_ns": 5)")) ==
          "warp timeline t.json: variants[0].launches[0].warps[1]: key 'end_ns': 5 is before "
          "start_ns 10");
    CHECK(error_of(replaced(hand_made, R"("sm": 3)", R"("sm": 4)")) ==
          "warp timeline t.json: variants[0].launches[0].warps[2]: key 'sm': 4 is not below the "
          "device's 4 multiprocessors");
    CHECK(error_of(replaced(hand_made, R"("block": 1)", R"("block": 2)")) ==
          "warp timeline t.json: variants[0].launches[0].warps[2]: key 'block': 2 is not below "
          "the launch's 2 blocks");
    CHECK(error_of(replaced(hand_made, R"("warp": 1)", R"("warp": 2)")) ==
          "warp timeline t.json: variants[0].launches[0].warps[1]: key 'warp': 2 is not below "
          "the 2 warps of a block of 64 threads");
    CHECK(error_of(replaced(hand_made, R"(, "row_end": 70)", "")) ==
          "warp timeline t.json: variants[0].launches[0].warps[2]: key 'row_end' missing: give "
          "both row_begin and row_end or neither");
    CHECK(error_of(replaced(hand_made, "spmvlab.warp-timeline/1", "spmvlab.warp-timeline/2")) ==
          "warp timeline t.json: key 'schema': 'spmvlab.warp-timeline/2' is not "
          "spmvlab.warp-timeline/1");
    CHECK(error_of(replaced(hand_made, R"("kernel": "ellr_spmv_kernel", )", "")) ==
          "warp timeline t.json: variants[0].launches[0]: missing key 'kernel'");
    CHECK(error_of(replaced(hand_made, R"("first_thread": 32,)", R"("first_thread": 30,)")) ==
          "warp timeline t.json: variants[0].model.warps[1]: key 'first_thread': 30 overlaps the "
          "warp before (threads from 32 on expected)");
    CHECK(error_of(R"({"schema": "spmvlab.warp-timeline/1", "variants": []})") ==
          "warp timeline t.json: key 'variants': empty (no variant was traced)");
    // a syntax error names the line and column: line 3 of the text, where the comma is missing
    const auto broken = replaced(hand_made, R"("matrix": "hand",)", R"("matrix": "hand")");
    const auto message = error_of(broken);
    INFO(message);
    CHECK(message.rfind("warp timeline t.json: line 3, column 71: ", 0) == 0);
    CHECK(message.find("not valid JSON") != std::string::npos);
    CHECK_THROWS_WITH(load_warp_timeline("/nonexistent/warps.json"),
                      Catch::Contains("/nonexistent/warps.json: cannot open the file"));
}

TEST_CASE("The model's warps of ELLPACK-R are the kernel's warps: thread i is stored row i")
{
    // 40 rows: one long row (row 33, 50 entries) among rows of 1 entry; warps of 32
    Csr<double, std::int32_t> a;
    a.num_rows = 40;
    a.num_cols = 64;
    a.row_ptrs.push_back(0);
    for (int i = 0; i < 40; ++i) {
        const int len = i == 33 ? 50 : 1;
        for (int j = 0; j < len; ++j) {
            a.col_idxs.push_back(j);
            a.values.push_back(1.0);
        }
        a.row_ptrs.push_back(static_cast<std::int32_t>(a.values.size()));
    }
    const auto analysis = analyze_warps(build<double>("ellr", a, {}), 32);
    TimelineVariant v;
    v.variant = v.format = "ellr";
    for (const auto& w : analysis.warps) {
        v.model.push_back({w.first_thread, w.threads, w.max_iterations, w.useful, w.idle_slots,
                           w.stored_padding});
    }
    MeasuredLaunch l;
    l.blocks = 1;
    l.threads_per_block = 64;
    l.warps = {{0, 0, 0, 0.0, 100.0, -1.0, 0, 32}, {0, 1, 0, 0.0, 2000.0, -1.0, 32, 40}};
    v.launches = {l};

    const auto p = pair_warps(v, 0);

    REQUIRE(v.model.size() == 2);
    CHECK(v.model[0].max_iterations == 1);
    CHECK(v.model[1].max_iterations == 50);    // the long row's warp
    CHECK(v.model[1].idle_slots == 7 * 49);    // 7 short rows wait 49 trips each
    CHECK(p.exact == 2);
    CHECK(p.correlation == Approx(1.0));
}
