// spmvlab reorder, bench and solve with --format auto, recommend and calibrate end to end (part
// of the test_cli executable; see test_cli.cpp).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <spmv/model/format_model.hpp>
#include <spmv/registry.hpp>

#include "test_cli_common.hpp"

namespace {

using spmv::test::by_format;
using spmv::test::json_of;
using spmv::test::measured;
using spmv::test::Run;
using spmv::test::sample;
using spmv::test::shell;
using spmv::test::spmvlab;
using spmv::test::tmp;

}  // namespace

namespace {

/// The path 0-1-...-(n-1) (stencil 2, -1) with vertex v stored as row (7 v) mod n (n prime to
/// 7): bandwidth far from 1 until RCM finds the path again.
std::string write_shuffled_path(const char* name, int n)
{
    const auto path = tmp(name);
    std::ofstream f(path);
    f << "%%MatrixMarket matrix coordinate real general\n"
      << n << " " << n << " " << (3 * n - 2) << "\n";
    auto pos = [n](int v) { return (7 * v) % n + 1; };
    for (int v = 0; v < n; ++v) {
        f << pos(v) << " " << pos(v) << " 2\n";
        if (v + 1 < n) {
            f << pos(v) << " " << pos(v + 1) << " -1\n" << pos(v + 1) << " " << pos(v) << " -1\n";
        }
    }
    return path;
}

const nlohmann::json& by_ordering(const nlohmann::json& j, const std::string& name)
{
    for (const auto& r : j["orderings"]) {
        if (r["ordering"] == name) return r;
    }
    FAIL("ordering " << name << " missing");
    return j;
}

}  // namespace

TEST_CASE("spmvlab reorder --json compares the orderings of a shuffled path", "[cli][reorder]")
{
    const auto file = write_shuffled_path("path40.mtx", 40);

    const auto j = json_of("reorder " + file + " --json");

    REQUIRE(j["orderings"].size() == 3);
    CHECK(j["method"] == "rcm");
    const auto& orig = by_ordering(j, "none");
    CHECK(orig["ok"] == true);
    CHECK(orig["bandwidth"] == 33);  // rows 7v mod 40 and 7(v+1) mod 40: |7| or |7 - 40|
    CHECK(orig["padding"].size() == spmv::formats().size());  // every registered format
    const auto& rcm = by_ordering(j, "rcm");
    if (rcm["ok"] == true) {
        CHECK(rcm["bandwidth"] == 1);
        CHECK(rcm["profile"] == 39);
        // a symmetric reordering keeps the row lengths: ELLPACK stores 40 x 3 either way
        CHECK(by_format(rcm["padding"], "ell")["stored_entries"] == 120);
        CHECK(by_format(orig["padding"], "ell")["stored_entries"] == 120);
    } else {
        WARN("SKIPPED (RCM part): this build has no Boost.Graph: " << rcm["error"]);
        CHECK_THAT(rcm["error"].get<std::string>(), Catch::Contains("libboost-graph-dev"));
    }
    const auto& nd = by_ordering(j, "nd");
    if (nd["ok"] == true) {
        CHECK(nd["bandwidth"].get<int>() >= 1);
        CHECK(nd["padding"].size() == spmv::formats().size());
    } else {
        WARN("SKIPPED (nested dissection part): this build has no METIS: " << nd["error"]);
        CHECK_THAT(nd["error"].get<std::string>(), Catch::Contains("libmetis-dev"));
    }
}

TEST_CASE("spmvlab reorder prints the table and --out writes P A P^T", "[cli][reorder]")
{
    const auto file = write_shuffled_path("path30.mtx", 30);
    const auto out = tmp("path30_rcm.mtx");
    const auto same = tmp("path30_none.mtx");
    std::filesystem::remove(out);
    const bool rcm = json_of("reorder " + file + " --json")["orderings"][1]["ok"] == true;

    const auto text = spmvlab("reorder " + file);
    const auto written = spmvlab("reorder " + file + " --method rcm --out " + out);
    const auto identity = spmvlab("reorder " + file + " --method none --out " + same);

    INFO(text.out);
    CHECK(text.status == 0);
    CHECK(text.out.find("bandwidth") != std::string::npos);
    CHECK(text.out.find("nested dissection (METIS)") != std::string::npos);
    CHECK(text.out.find("stored slots (padding share)") != std::string::npos);
    CHECK(identity.status == 0);
    CHECK(json_of("info " + same + " --json")["nnz"] == 88);
    if (rcm) {
        INFO(written.out);
        CHECK(written.status == 0);
        const auto back = json_of("reorder " + out + " --json --method none");
        CHECK(back["nnz"] == 88);
        CHECK(by_ordering(back, "none")["bandwidth"] == 1);
    } else {
        WARN("SKIPPED (RCM part): this build has no Boost.Graph");
        CHECK(written.status == 1);
        CHECK(written.out.find("libboost-graph-dev") != std::string::npos);
        CHECK(!std::filesystem::exists(out));
    }
}

TEST_CASE("spmvlab reorder refuses a missing file, a rectangular matrix and a bad method",
          "[cli][reorder]")
{
    const auto rect = tmp("rect34.mtx");
    std::ofstream(rect) << "%%MatrixMarket matrix coordinate real general\n3 4 3\n1 1 1\n2 2 1\n"
                           "3 4 1\n";

    const auto missing = spmvlab("reorder /nonexistent/file.mtx");
    const auto wide = spmvlab("reorder " + rect + " --json");
    const auto bad = spmvlab("reorder " + sample("canonical4.mtx") + " --method amd");

    CHECK(missing.status == 1);
    CHECK(missing.out.find("/nonexistent/file.mtx") != std::string::npos);
    INFO(wide.out);
    CHECK(wide.status == 1);
    CHECK(wide.out.find("rect34.mtx is 3 x 4") != std::string::npos);
    CHECK(wide.out.find("square") != std::string::npos);
    CHECK(wide.out.find(".cpp:") == std::string::npos);  // no C++ source location
    CHECK(bad.status != 0);
    CHECK(bad.out.find("amd") != std::string::npos);
}

TEST_CASE("bench --formats auto times only the advisor's choice per matrix and precision, "
          "says what it picked and records it",
          "[cli][auto]")
{
    // text: one "# format auto: ..." line per precision before the one-row-per-precision table
    const auto out = tmp("bench_auto.json");
    std::filesystem::remove(out);
    const auto t = spmvlab("bench gen:pde:size=20 " + sample("canonical4.mtx") +
                           " --formats auto --precision both --min-time 1 --json-out " + out);
    INFO(t.out);
    REQUIRE(t.status == 0);
    CHECK(spmv::test::occurrences(t.out, "# format auto: ") == 4);  // 2 matrices x 2 precisions
    CHECK(t.out.find("the choice is made for a GPU") != std::string::npos);
    std::ifstream f(out);
    const auto j = nlohmann::json::parse(f);
    CHECK(j["formats"] == "auto");
    REQUIRE(j["results"].size() == 4);
    std::set<std::string> seen;  // matrix|precision: exactly one record each
    for (const auto& r : j["results"]) {
        INFO(r.dump());
        CHECK(seen.insert(r["matrix"].get<std::string>() + "|" + r["precision"].get<std::string>())
                  .second);
        CHECK(r["error"] == "");
        CHECK(r["gflops"].get<double>() > 0);
        REQUIRE(r.contains("auto_choice"));
        const auto& c = r["auto_choice"];
        CHECK(c["format"] == r["format"]);  // the CPU times the choice's host format
        CHECK(c["timed"] == r["format"]);
        CHECK(c["precision"] == r["precision"]);
        CHECK(!c["variant"].get<std::string>().empty());
        CHECK(c["note"].get<std::string>().rfind("format auto: " + c["variant"].get<std::string>(),
                                                 0) == 0);
        // without --sigma the advisor evaluates sigma auto (resolved, as recommend does)
        const auto m = r["matrix"].get<std::string>();
        const auto rj = json_of("recommend " + (m.rfind("gen:", 0) == 0 ? m : sample(m.c_str())) +
                                " --json --precision " + (r["precision"] == "single" ? "sp" : "dp"));
        CHECK(c["params"]["sigma"] == by_format(rj["results"][0]["ranking"], "sell")["sigma"]);
        CHECK(c["params"]["sigma"].get<int>() >= 1);
    }
    CHECK(seen.size() == 4);

    // --json: standard output stays one JSON document; the user's --sigma is honoured
    const auto js = json_of("bench gen:pde:size=20 --formats auto --precision dp --sigma 4 "
                            "--min-time 1 --json");
    REQUIRE(js["results"].size() == 1);
    CHECK(js["results"][0]["auto_choice"]["params"]["sigma"] == 4);
    CHECK(js["results"][0]["format"] == js["results"][0]["auto_choice"]["format"]);

    // auto is a choice of its own, not one name among others
    const auto bad = spmvlab("bench gen:pde:size=5 --formats auto,csr --min-time 1");
    CHECK(bad.status != 0);
    CHECK(bad.out.find("--formats auto") != std::string::npos);
}

TEST_CASE("solve --format auto converges with the advisor's host format and names its choice",
          "[cli][auto]")
{
    const auto j = json_of("solve gen:pde:size=10 --format auto --json");
    INFO(j.dump());
    CHECK(j["status"] == "converged");
    CHECK(j["final_relative_residual"].get<double>() <= 1e-10);
    REQUIRE(j.contains("auto_choice"));
    const auto& c = j["auto_choice"];
    CHECK(j["format"] == c["format"]);
    CHECK(c["format"] != "auto");
    CHECK(c["variant"] == c["format"]);  // a host format, not a GPU-only variant
    CHECK(c["precision"] == "double");
    CHECK(c["iterations"] == 10000);  // setup amortised over --maxit SpMVs
    CHECK(c["note"].get<std::string>().find("format auto: ") == 0);

    // text: the note, and the method line with the chosen format
    const auto t = spmvlab("solve gen:pde:size=10 --format auto");
    INFO(t.out);
    CHECK(t.status == 0);
    CHECK(t.out.find("format auto: ") != std::string::npos);
    CHECK(t.out.find("format " + c["format"].get<std::string>() + ", tol") != std::string::npos);
    CHECK(t.out.find("status") != std::string::npos);

    // MPIR-CG: its SpMVs are mostly the inner float ones
    const auto mp = json_of("solve gen:pde:size=10 --method mpir-cg --format auto --maxit 500 --json");
    CHECK(mp["status"] == "converged");
    CHECK(mp["auto_choice"]["precision"] == "single");
    CHECK(mp["auto_choice"]["iterations"] == 500);
    CHECK(mp["format"] == mp["auto_choice"]["format"]);

    // bad combinations say why
    auto r = spmvlab("solve gen:pde:size=6 --variant auto");
    CHECK(r.status != 0);
    CHECK(r.out.find("--variant auto") != std::string::npos);
    CHECK(r.out.find("--gpu") != std::string::npos);
    r = spmvlab("solve gen:pde:size=6 --format auto --variant csr_vector");
    CHECK(r.status != 0);
    CHECK(r.out.find("--variant auto") != std::string::npos);
    r = spmvlab("solve gen:pde:size=6 --format nope");
    CHECK(r.status != 0);
    CHECK(r.out.find("unknown format 'nope'") != std::string::npos);
}

namespace {
const nlohmann::json& by_variant(const nlohmann::json& rows, const std::string& name)
{
    for (const auto& r : rows) {
        if (r["variant"] == name) {
            return r;
        }
    }
    FAIL("variant " << name << " missing");
    return rows;
}

/// Writes a `bench --gpu` record whose times are the model's own predictions (recommend
/// INPUTS ARGS --precision both) times `factor`: records on which the model is known exactly.
void write_model_record(const std::string& file, const std::string& inputs, double factor,
                        const std::string& args = "")
{
    const auto j = json_of("recommend " + inputs + " " + args + " --precision both --json")["results"];
    nlohmann::json rec = {{"device", "model"}, {"commit", "test"}, {"date", "today"},
                          {"block_rows", 32}, {"slice_height", 32}, {"sigma", "auto"}};
    for (const auto& m : j) {
        for (const auto& r : m["ranking"]) {
            if (!r["candidate"].get<bool>()) continue;
            rec["results"].push_back({{"matrix", m["matrix"]},
                                      {"precision", m["precision"] == "single" ? "sp" : "dp"},
                                      {"format", r["variant"]},
                                      {"median_ms", factor * r["predicted_us"].get<double>() / 1000.0},
                                      {"error", ""}});
        }
    }
    std::ofstream(file) << rec.dump();
}
}  // namespace

TEST_CASE("recommend ranks every GPU kernel variant with reasons, as text and JSON", "[cli][advisor]")
{
    const auto j = json_of("recommend gen:onefull:n=600 --precision both --json")["results"];
    REQUIRE(j.size() == 2);  // one entry per precision
    for (const auto& m : j) {
        CHECK(m["gpu_profile"] == "H100");
        CHECK(m["nnz"] == 2 * 600 - 1);
        const auto& rank = m["ranking"];
        // every own GPU kernel variant the model knows (the registry's model_variants())
        REQUIRE(rank.size() == spmv::model::modelled_variants().size());
        double last = 0;
        int expect = 1;
        for (const auto& r : rank) {
            if (!r["candidate"].get<bool>()) continue;
            CHECK(r["rank"] == expect++);
            CHECK(r["spmv_us"].get<double>() >= last);
            last = r["spmv_us"].get<double>();
            CHECK(!r["reasons"].empty());
        }
        const auto& ell = by_variant(rank, "ell");
        CHECK(ell["padding_share"].get<double>() > 0.99);  // 600 x 600 slots for 1199 entries
        CHECK(ell["rank"].get<int>() > 1);
        CHECK(rank[0]["variant"] != "ell");
    }
    // text: the table, the reasons of the first three, the first choice in words
    const auto t = spmvlab("recommend gen:pde:size=12 --top 4");
    INFO(t.out);
    REQUIRE(t.status == 0);
    CHECK(t.out.find("predicted by the per-format model") != std::string::npos);
    CHECK(t.out.find("first choice: ") != std::string::npos);
    CHECK(t.out.find("  1. ") != std::string::npos);
    CHECK(t.out.find("\n4 ") != std::string::npos);  // --top 4: ranks 1..4
    CHECK(t.out.find("\n5 ") == std::string::npos);
}

TEST_CASE("recommend uses measured times from a bench record and amortises setup over iterations", "[cli][advisor]")
{
    const auto rec = tmp("recommend_bench.json");
    {
        std::ofstream f(rec);
        f << R"({"results": [
          {"matrix": "gen:pde:size=12", "precision": "dp", "format": "jds", "median_ms": 0.000001, "error": ""},
          {"matrix": "gen:pde:size=12", "precision": "dp", "format": "csr", "median_ms": 9.0, "error": ""},
          {"matrix": "gen:pde:size=12", "precision": "sp", "format": "csr", "median_ms": 0.000001, "error": ""}]})";
    }
    const auto j = json_of("recommend gen:pde:size=12 --bench " + rec + " --json")["results"];
    REQUIRE(j.size() == 1);
    const auto& rank = j[0]["ranking"];
    CHECK(rank[0]["variant"] == "jds");  // measured 1 ns beats every prediction
    CHECK(rank[0]["measured_us"].get<double>() == Approx(0.001));
    CHECK(by_variant(rank, "csr")["measured_us"].get<double>() == Approx(9000.0));  // dp only
    CHECK(by_variant(rank, "ell")["measured_us"].is_null());
    // with 1000 SpMVs: total = setup + 1000 x SpMV for every variant
    const auto k = json_of("recommend gen:pde:size=12 --iterations 1000 --json")["results"];
    for (const auto& r : k[0]["ranking"]) {
        CHECK(r["total_us"].get<double>() ==
              Approx(r["setup_us"].get<double>() + 1000.0 * r["spmv_us"].get<double>()));
    }
    // bad records and constants name the file; bad options say what is wrong
    auto bad = spmvlab("recommend gen:pde:size=5 --bench /nonexistent/rec.json");
    CHECK(bad.status != 0);
    CHECK(bad.out.find("/nonexistent/rec.json") != std::string::npos);
    bad = spmvlab("recommend gen:pde:size=5 --constants " + rec);
    CHECK(bad.status != 0);
    CHECK(bad.out.find("not a constants file") != std::string::npos);
    bad = spmvlab("recommend gen:pde:size=5 --gpu nosuchgpu");
    CHECK(bad.status != 0);
    CHECK(bad.out.find("H100") != std::string::npos);  // lists the known profiles
}

TEST_CASE("calibrate fits constants on one record, validates on another, and recommend reads them", "[cli][advisor]")
{
    // records made from the built-in model itself, times x 1.5: the refit must absorb the
    // factor (every variant's fixed and trip cost scale) and choose as well as before
    const auto a = tmp("cal_fit.json");
    const auto b = tmp("cal_val.json");
    write_model_record(a, "gen:pde:size=14 gen:onefull:n=300", 1.5);
    write_model_record(b, "gen:pde:size=11", 1.5);
    const auto table = tmp("cal_table.md");
    const auto consts = tmp("cal_constants.json");
    const auto r = spmvlab("calibrate --fit " + a + " --validate " + b + " --matrices " +
                           SPMV_TEST_TMP + " --table-out " + table + " --constants-out " + consts);
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("validation set (held out): 2 matrix x precision cases") != std::string::npos);
    CHECK(r.out.find("within 10 % of the fastest measured own variant: 2 of 2") != std::string::npos);
    const auto md = spmv::test::slurp(table);
    CHECK(md.find("| gen:pde:size=11 |") != std::string::npos);
    const auto c = json_of("recommend gen:pde:size=11 --constants " + consts + " --json");
    CHECK(c["results"][0]["constants"].get<std::string>().find(consts) != std::string::npos);
    // e_v round trip: every kernel of --constants-out carries l2_efficiency in (0, 1] (these
    // small matrices never wait on L2, so every e_v stays near 1, where the fit's pull leaves
    // it); a file without the field (written before e_v) loads with e_v = 1, and an e_v read
    // back divides that variant's x gather part of the L2 term only
    auto cj = nlohmann::json::parse(spmv::test::slurp(consts));
    double e_max = 0;
    for (const auto& k : cj["kernels"]) {
        const double e = k.at("l2_efficiency").get<double>();
        CHECK(e > 0);
        CHECK(e <= 1);
        e_max = std::max(e_max, e);
    }
    CHECK(e_max > 0.99);
    auto old_file = cj;
    for (auto& k : old_file["kernels"]) k.erase("l2_efficiency");
    auto unit = cj;
    for (auto& k : unit["kernels"]) k["l2_efficiency"] = 1.0;
    auto half = unit;
    for (auto& k : half["kernels"]) {
        if (k["variant"] == "csr") k["l2_efficiency"] = 0.5;
    }
    std::ofstream(tmp("cal_old.json")) << old_file.dump();
    std::ofstream(tmp("cal_unit.json")) << unit.dump();
    std::ofstream(tmp("cal_half.json")) << half.dump();
    const auto ranking = [&](const std::string& f) {
        return json_of("recommend gen:pde:size=11 --constants " + f + " --json")["results"][0]
                      ["ranking"];
    };
    const auto r_old = ranking(tmp("cal_old.json"));
    const auto r_unit = ranking(tmp("cal_unit.json"));
    const auto r_half = ranking(tmp("cal_half.json"));
    for (const auto& row : r_unit) {
        const auto v = row["variant"].get<std::string>();
        CHECK(by_variant(r_old, v)["predicted_us"] == row["predicted_us"]);
        const double l2_half = by_variant(r_half, v)["l2_us"].get<double>();
        const double l2_unit = row["l2_us"].get<double>();
        if (v == "csr") {  // only its x gather's part doubles
            CHECK(l2_half > l2_unit);
            CHECK(l2_half < 2.0 * l2_unit);
        } else {
            CHECK(l2_half == l2_unit);
        }
        CHECK(by_variant(r_half, v)["dram_us"] == row["dram_us"]);
    }
    auto bad_e = unit;
    bad_e["kernels"][0]["l2_efficiency"] = 1.5;
    std::ofstream(tmp("cal_bad_e.json")) << bad_e.dump();
    const auto bad = spmvlab("recommend gen:pde:size=11 --constants " + tmp("cal_bad_e.json"));
    CHECK(bad.status != 0);
    CHECK(bad.out.find("l2_efficiency") != std::string::npos);
    // q round trip: --constants-out carries overlap_q in [1, 64]; a file without it (written
    // before q) loads as q = 0, the max of latency and memory; q = 1 adds them, so no variant is
    // predicted faster than under the max and one whose paths are both nonzero is slower; a q
    // between 0 and 1 is refused with its name
    const double q = cj.at("overlap_q").get<double>();
    CHECK(q >= 1.0);
    CHECK(q <= 64.0);
    auto no_q = unit;
    no_q.erase("overlap_q");
    auto sum_q = unit;
    sum_q["overlap_q"] = 1.0;
    std::ofstream(tmp("cal_no_q.json")) << no_q.dump();
    std::ofstream(tmp("cal_sum_q.json")) << sum_q.dump();
    const auto r_max = ranking(tmp("cal_no_q.json"));
    const auto r_sum = ranking(tmp("cal_sum_q.json"));
    int slower = 0;
    for (const auto& row : r_max) {
        const auto v = row["variant"].get<std::string>();
        const double t_max = row["predicted_us"].get<double>();
        const double t_sum = by_variant(r_sum, v)["predicted_us"].get<double>();
        const double lat = row["latency_us"].get<double>();
        const double mem = std::max({row["dram_us"].get<double>(), row["l2_us"].get<double>(),
                                     row["issue_us"].get<double>(), row["warp_us"].get<double>()});
        CHECK(t_max == Approx(row["floor_us"].get<double>() + std::max(lat, mem)));
        CHECK(t_sum == Approx(row["floor_us"].get<double>() + lat + mem));
        slower += t_sum > t_max ? 1 : 0;
    }
    CHECK(slower > 0);
    auto bad_q = unit;
    bad_q["overlap_q"] = 0.5;
    std::ofstream(tmp("cal_bad_q.json")) << bad_q.dump();
    const auto bq = spmvlab("recommend gen:pde:size=11 --constants " + tmp("cal_bad_q.json"));
    CHECK(bq.status != 0);
    CHECK(bq.out.find("overlap_q") != std::string::npos);
    // a record naming a matrix that is nowhere says which
    std::ofstream(tmp("cal_missing.json"))
        << R"({"results": [{"matrix": "nowhere.mtx", "precision": "dp", "format": "csr", "median_ms": 1, "error": ""}]})";
    const auto miss = spmvlab("calibrate --fit " + tmp("cal_missing.json") + " --validate " + b +
                              " --matrices " + SPMV_TEST_TMP);
    CHECK(miss.status != 0);
    CHECK(miss.out.find("nowhere.mtx") != std::string::npos);
}


TEST_CASE("calibrate --constants validates given constants without fitting", "[cli][advisor]")
{
    // records made from the built-in H100 model itself (times x 1) and x 1.5: the built-in
    // constants predict the first exactly and the second at 1 / 1.5 of every time
    const auto same = tmp("calv_same.json");
    const auto slow = tmp("calv_slow.json");
    write_model_record(same, "gen:pde:size=11 gen:onefull:n=300", 1.0, "--gpu H100");
    write_model_record(slow, "gen:pde:size=11 gen:onefull:n=300", 1.5, "--gpu H100");
    const auto table = tmp("calv_table.md");
    const auto r = spmvlab("calibrate --constants builtin --gpu H100 --validate " + same +
                           " --matrices " + SPMV_TEST_TMP + " --table-out " + table);
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("fitting set") == std::string::npos);  // nothing fitted
    CHECK(r.out.find("validation set (held out): 4 matrix x precision cases") != std::string::npos);
    CHECK(r.out.find("within 10 % of the fastest measured own variant: 4 of 4") != std::string::npos);
    CHECK(r.out.find("within 25 % of its measured time: 4 of 4") != std::string::npos);
    CHECK(r.out.find("median predicted/measured 1.000") != std::string::npos);
    const auto md = spmv::test::slurp(table);
    CHECK(md.find("# Format model: given constants, validated") != std::string::npos);
    CHECK(md.find("Constants: the built-in ones of H100, fitted by") != std::string::npos);
    const auto s = spmvlab("calibrate --constants builtin --gpu H100 --validate " + slow +
                           " --matrices " + SPMV_TEST_TMP);
    INFO(s.out);
    REQUIRE(s.status == 0);
    CHECK(s.out.find("median predicted/measured 0.667") != std::string::npos);
    CHECK(s.out.find("within 25 % of its measured time: 0 of 4") != std::string::npos);
    CHECK(s.out.find("within 10 % of the fastest measured own variant: 4 of 4") != std::string::npos);
    // a --constants-out file is read as recommend reads it: fitted on the slow records, it
    // predicts them
    const auto consts = tmp("calv_constants.json");
    REQUIRE(spmvlab("calibrate --fit " + slow + " --validate " + same + " --matrices " +
                    SPMV_TEST_TMP + " --gpu H100 --constants-out " + consts).status == 0);
    const auto f = spmvlab("calibrate --constants " + consts + " --gpu H100 --validate " + slow +
                           " --matrices " + SPMV_TEST_TMP);
    INFO(f.out);
    REQUIRE(f.status == 0);
    CHECK(f.out.find("within 25 % of its measured time: 4 of 4") != std::string::npos);
    // --fit and --constants exclude each other, one of them is needed, and with nothing fitted
    // there are no constants to write: usage errors (exit 2) naming the options
    auto bad = spmvlab("calibrate --constants builtin --fit " + slow + " --validate " + same +
                       " --matrices " + SPMV_TEST_TMP);
    CHECK(bad.status == 2);
    CHECK(bad.out.find("--constants") != std::string::npos);
    CHECK(bad.out.find("excludes") != std::string::npos);
    bad = spmvlab("calibrate --validate " + same + " --matrices " + SPMV_TEST_TMP);
    CHECK(bad.status == 2);
    CHECK(bad.out.find("--fit RECORDS (fit and validate) or --constants") != std::string::npos);
    for (const char* out : {" --constants-out ", " --cxx-out "}) {
        bad = spmvlab("calibrate --constants builtin --validate " + same + " --matrices " +
                      SPMV_TEST_TMP + out + tmp("calv_no.out"));
        CHECK(bad.status == 2);
        CHECK(bad.out.find("excludes") != std::string::npos);
    }
    bad = spmvlab("calibrate --constants " + same + " --validate " + same + " --matrices " +
                  SPMV_TEST_TMP);
    CHECK(bad.status == 1);  // bad input, not a usage error
    CHECK(bad.out.find("not a constants file") != std::string::npos);
}
