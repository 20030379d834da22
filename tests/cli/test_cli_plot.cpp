// spmvlab plot end to end: the figures of the committed H100 records (PNG signature and size,
// well-formed SVG with one row or point per matrix, the speedups against the JSON), a CPU
// record, and bad input with its message.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_run.hpp"
#include "test_files.hpp"

namespace {

namespace fs = std::filesystem;

using spmv::test::Run;
using spmv::test::slurp;
using spmv::test::spmvlab;

/// An empty directory for one test case's figures.
std::string tmp(const std::string& name)
{
    return spmv::test::fresh_dir(name).string();
}

std::string h100(const char* part)
{
    return std::string(SPMV_SOURCE_DIR) + "/docs/benchmarks/h100_2026-11-26/" + part +
           "/bench.json";
}

/// Width and height from a PNG's IHDR chunk (after the 8-byte signature and the chunk head).
std::pair<unsigned, unsigned> png_size(const std::string& bytes)
{
    REQUIRE(bytes.size() > 33);
    REQUIRE(bytes.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
    REQUIRE(bytes.substr(12, 4) == "IHDR");
    auto be32 = [&](std::size_t at) {
        unsigned v = 0;
        for (std::size_t k = 0; k < 4; ++k) v = (v << 8) | static_cast<unsigned char>(bytes[at + k]);
        return v;
    };
    return {be32(16), be32(20)};
}

/// A small XML well-formedness check: every tag closes in order, attributes are quoted, '&'
/// starts an entity. Returns the first problem, or "".
std::string xml_problem(const std::string& s)
{
    std::vector<std::string> open;
    std::size_t i = s.find("<svg");
    if (i == std::string::npos) return "no <svg>";
    const std::regex tag(R"(^<(/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(/?)>)");
    while (i < s.size()) {
        if (s[i] == '&') {
            const auto semi = s.find(';', i);
            const auto ent = s.substr(i, semi == std::string::npos ? 0 : semi - i + 1);
            if (ent != "&amp;" && ent != "&lt;" && ent != "&gt;" && ent != "&quot;" &&
                ent != "&apos;") {
                return "bad entity at " + std::to_string(i);
            }
        }
        if (s[i] != '<') {
            ++i;
            continue;
        }
        std::smatch m;
        const std::string rest = s.substr(i, 2000);
        if (!std::regex_search(rest, m, tag)) return "bad tag at " + std::to_string(i);
        if (m[1].length() > 0) {
            if (open.empty() || open.back() != m[2].str()) return "unbalanced </" + m[2].str() + ">";
            open.pop_back();
        } else if (m[4].length() == 0) {
            open.push_back(m[2].str());
        }
        i += static_cast<std::size_t>(m[0].length());
    }
    return open.empty() ? "" : "unclosed <" + open.back() + ">";
}

std::size_t count(const std::string& s, const std::string& what)
{
    std::size_t n = 0;
    for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
    return n;
}

/// The <title> texts of the elements of class `role`.
std::vector<std::string> tips(const std::string& svg, const std::string& role)
{
    std::vector<std::string> out;
    const std::regex re("class=\"" + role + "\"[^>]*><title>([^<]*)</title>");
    for (std::sregex_iterator it(svg.begin(), svg.end(), re), end; it != end; ++it) {
        out.push_back((*it)[1].str());
    }
    return out;
}

/// The committed records of a/ and b/ as the test reads them itself: matrix -> variant -> the
/// recorded "gflops" of the double-precision results measured without error.
std::map<std::string, std::map<std::string, double>> recorded_dp_gflops()
{
    std::map<std::string, std::map<std::string, double>> g;
    for (const char* part : {"a", "b"}) {
        const auto j = nlohmann::json::parse(slurp(h100(part)));
        for (const auto& r : j["results"]) {
            if (r["precision"] != "dp" || !r["error"].get<std::string>().empty() ||
                !r["gflops"].is_number()) {
                continue;
            }
            g[r["matrix"]].emplace(r["format"].get<std::string>(), r["gflops"].get<double>());
        }
    }
    return g;
}

}  // namespace

TEST_CASE("spmvlab plot draws the committed H100 records as PNG and SVG", "[cli][plot]")
{
    const auto dir = tmp("h100");
    const std::string formats = SPMVLAB_HAVE_PNG ? "png,svg" : "svg";

    const auto r = spmvlab("plot " + h100("a") + " " + h100("b") + " -o " + dir +
                           " --format " + formats +
                           " --figures gflops_variants,gflops_matrices,bandwidth,speedup_cusparse");

    INFO(r.out);
    REQUIRE(r.status == 0);
    const auto g = recorded_dp_gflops();
    std::set<std::string> variants;
    for (const auto& [m, v] : g) {
        for (const auto& [name, x] : v) variants.insert(name);
    }
    for (const char* p : {"dp", "sp"}) {
        for (const char* f : {"gflops_variants", "gflops_matrices", "bandwidth", "speedup_cusparse"}) {
            const auto base = dir + "/" + f + "_" + p;
            const auto svg = slurp(base + ".svg");
            INFO(base);
            CHECK(xml_problem(svg).empty());
            CHECK(svg.find("NVIDIA H100 80GB HBM3") != std::string::npos);  // provenance
            CHECK(svg.find("commit 7aa03ad") != std::string::npos);
            std::smatch m;
            REQUIRE(std::regex_search(svg, m, std::regex(R"re(<svg[^>]* width="(\d+)" height="(\d+)")re")));
            if (SPMVLAB_HAVE_PNG) {
                const auto [w, h] = png_size(slurp(base + ".png"));
                CHECK(w == std::stoul(m[1].str()));
                CHECK(h == std::stoul(m[2].str()));
                CHECK(r.out.find("wrote " + base + ".png (" + std::to_string(w) + " x " +
                                 std::to_string(h) + ")") != std::string::npos);
            }
        }
    }
    const auto per_matrix = slurp(dir + "/gflops_matrices_dp.svg");
    CHECK(count(per_matrix, "class=\"row-label\"") == g.size());
    CHECK(g.size() == 98);  // 49 + 49 matrices measured in a/ and b/
    const auto per_variant = slurp(dir + "/gflops_variants_dp.svg");
    CHECK(count(per_variant, "class=\"row-label\"") == variants.size());  // 22 own + cuSPARSE
    CHECK(count(per_variant, "class=\"strip\"") ==
          [&] { std::size_t n = 0; for (const auto& [m, v] : g) n += v.size(); return n; }());
    CHECK(per_variant.find("GF/s = 2 nnz / median SpMV time") != std::string::npos);

    // one point per matrix: the only cuSPARSE variant is CSR ALG1, so one series
    const auto speedup = slurp(dir + "/speedup_cusparse_dp.svg");
    const auto points = tips(speedup, "point");
    CHECK(points.size() == g.size());
    CHECK(speedup.find("also the fastest cuSPARSE variant") != std::string::npos);
    for (const std::string matrix : {"1138_bus.mtx", "bcsstk13.mtx"}) {
        REQUIRE(g.count(matrix));
        double best = 0;
        for (const auto& [name, x] : g.at(matrix)) {
            if (name.rfind("cusparse_", 0) != 0) best = std::max(best, x);
        }
        const double expected = best / g.at(matrix).at("cusparse_csr_alg1");
        const auto tip = std::find_if(points.begin(), points.end(), [&](const std::string& t) {
            return t.rfind(matrix + ":", 0) == 0;
        });
        REQUIRE(tip != points.end());
        INFO(*tip);
        std::smatch m;
        REQUIRE(std::regex_search(*tip, m, std::regex(R"(= ([0-9.]+)x$)")));
        CHECK(std::stod(m[1].str()) == Approx(expected).epsilon(0.006));  // printed to 3 digits
    }
    // every matrix has a bandwidth point for its fastest own variant and one for cuSPARSE
    CHECK(tips(slurp(dir + "/bandwidth_dp.svg"), "point").size() == 2 * g.size());
}

TEST_CASE("spmvlab plot compares model and measurement on the generated H100 matrices",
          "[cli][plot]")
{
    const auto dir = tmp("model");

    const auto r = spmvlab("plot " + h100("large") + " -o " + dir +
                           " --format svg --figures model --precision dp");

    INFO(r.out);
    REQUIRE(r.status == 0);
    const auto svg = slurp(dir + "/model_dp.svg");
    CHECK(xml_problem(svg).empty());
    const auto j = nlohmann::json::parse(slurp(h100("large")));
    std::size_t own = 0;
    for (const auto& e : j["results"]) {
        own += e["precision"] == "dp" && e["error"] == "" &&
               e["format"].get<std::string>().rfind("cusparse_", 0) != 0;
    }
    // every own variant the model knows has a point (all 22 are modelled, cuSPARSE is not)
    CHECK(tips(svg, "point").size() == own);
    CHECK(own == 6 * 22 - 21);  // ELLPACK-like layouts of the power laws not built: 21
    CHECK(svg.find("predicted = measured") != std::string::npos);
    CHECK(svg.find("measured median time per SpMV, us") != std::string::npos);
    CHECK_FALSE(fs::exists(dir + "/model_sp.svg"));
}

TEST_CASE("spmvlab plot draws a CPU record and skips the GPU figures with a note",
          "[cli][plot]")
{
    const auto dir = tmp("cpu");
    const auto rec = dir + "/cpu.json";
    const auto sample = std::string(SPMV_SOURCE_DIR) + "/sample_matrices/";
    REQUIRE(spmvlab("bench " + sample + "banded_1k.mtx " + sample + "powerlaw_2k.mtx " + sample +
                    "pde05.mtx --formats csr,ell,sell --precision both --min-time 1 --json-out " +
                    rec).status == 0);

    const auto r = spmvlab("plot " + rec + " -o " + dir + " --format svg");

    INFO(r.out);
    REQUIRE(r.status == 0);
    const auto svg = slurp(dir + "/gflops_matrices_dp.svg");
    CHECK(xml_problem(svg).empty());
    CHECK(count(svg, "class=\"row-label\"") == 3);
    CHECK(svg.find("CPU (host reference") != std::string::npos);
    CHECK(count(slurp(dir + "/gflops_variants_sp.svg"), "class=\"row-label\"") == 3);
    CHECK(r.out.find("note: bandwidth_dp skipped: the records hold no measured copy bandwidth") !=
          std::string::npos);
    CHECK(r.out.find("note: speedup_cusparse_dp skipped: the records hold no cuSPARSE baseline") !=
          std::string::npos);
    CHECK(r.out.find("note: model_dp skipped: the per-format model predicts GPU kernel times") !=
          std::string::npos);
    CHECK_FALSE(fs::exists(dir + "/bandwidth_dp.svg"));
    CHECK_FALSE(fs::exists(dir + "/speedup_cusparse_dp.svg"));
}

TEST_CASE("spmvlab plot rejects bad input with a message, never a raw JSON error",
          "[cli][plot]")
{
    const auto dir = tmp("bad");
    auto write = [&](const std::string& name, const std::string& text) {
        std::ofstream(dir + "/" + name) << text;
        return dir + "/" + name;
    };
    const auto good = nlohmann::json::parse(slurp(h100("large")));
    auto incomplete = good;
    incomplete["complete"] = false;
    incomplete["matrices_done"] = 2;
    auto no_matrix = good;
    no_matrix["results"][3].erase("matrix");
    auto empty = good;
    empty["results"] = nlohmann::json::array();
    const std::vector<std::pair<std::string, std::string>> cases = {
        {write("text.json", "this is not json"), "not a JSON file"},
        {write("other.json", R"({"matrix": "x", "rows": 4})"), "no \"results\" array"},
        {write("empty.json", empty.dump()), "the record holds no results"},
        {write("incomplete.json", incomplete.dump()),
         "an incomplete record (\"complete\": false, 2 of 6 matrices)"},
        {write("no_matrix.json", no_matrix.dump()), "results[3]: no \"matrix\" string"},
    };
    for (const auto& [file, message] : cases) {
        const auto r = spmvlab("plot " + file + " -o " + dir + "/out --format svg");
        INFO(r.out);
        CHECK(r.status != 0);
        CHECK(r.out.find(message) != std::string::npos);
        if (message != "not a JSON file") {  // there the parser's reason follows, as it says
            CHECK(r.out.find("json.exception") == std::string::npos);
        }
    }
    const auto allowed = spmvlab("plot " + dir + "/incomplete.json -o " + dir +
                                 "/out --format svg --figures gflops_matrices --allow-incomplete");
    CHECK(allowed.status == 0);
    const auto unknown = spmvlab("plot " + h100("large") + " -o " + dir +
                                 "/out --format svg --variants sell,nosuch");
    CHECK(unknown.status != 0);
    CHECK(unknown.out.find("--variants nosuch: not in the records (they hold") != std::string::npos);
}

TEST_CASE("spmvlab plot filters variants and says so when it cannot write PNG", "[cli][plot]")
{
    const auto dir = tmp("filter");

    const auto r = spmvlab("plot " + h100("large") + " -o " + dir +
                           " --figures gflops_variants --precision sp --variants sell,csr");

    INFO(r.out);
    if (SPMVLAB_HAVE_PNG) {
        REQUIRE(r.status == 0);
        CHECK(png_size(slurp(dir + "/gflops_variants_sp.png")).first > 0);
        // sell, csr and the cuSPARSE baseline kept as the reference
        CHECK(count(slurp(dir + "/gflops_variants_sp.svg"), "class=\"row-label\"") == 3);
    } else {
        CHECK(r.status != 0);
        CHECK(r.out.find("built without cairo") != std::string::npos);
        CHECK_FALSE(fs::exists(dir + "/gflops_variants_sp.svg"));
    }
}

TEST_CASE("spmvlab plot gives every marker of every figure a <title> with its numbers",
          "[cli][plot]")
{
    const auto dir = tmp("titles");

    const auto r = spmvlab("plot " + h100("a") + " " + h100("b") + " -o " + dir +
                           " --format svg --precision dp");
    const auto model = spmvlab("plot " + h100("large") + " -o " + dir +
                               "/large --format svg --figures model --precision dp");

    INFO(r.out << model.out);
    REQUIRE(r.status == 0);
    REQUIRE(model.status == 0);
    std::size_t all = 0;
    for (const std::string f : {"gflops_variants_dp", "gflops_matrices_dp", "bandwidth_dp",
                                "speedup_cusparse_dp", "large/model_dp"}) {
        const auto svg = slurp(dir + "/" + f + ".svg");
        INFO(f);
        for (const std::string role : {"strip", "point", "box"}) {
            // every marker element of the role, and those of them with a <title> child
            CHECK(tips(svg, role).size() == count(svg, "class=\"" + role + "\""));
            all += count(svg, "class=\"" + role + "\"");
        }
    }
    // gflops_variants_dp: one dot per (matrix, variant) measured in a/ and b/ (2,253)
    const auto variants = slurp(dir + "/gflops_variants_dp.svg");
    const auto dots = tips(variants, "strip");
    CHECK(dots.size() == [] {
        std::size_t n = 0;
        for (const auto& [m, v] : recorded_dp_gflops()) n += v.size();
        return n;
    }());
    CHECK(dots.size() == 2253);
    CHECK(all > dots.size());
    // a dot names its matrix, variant, value and unit: 1138_bus.mtx's cuSPARSE CSR ALG1
    const auto g = recorded_dp_gflops();
    const auto dot = std::find_if(dots.begin(), dots.end(), [](const std::string& t) {
        return t.rfind("1138_bus.mtx: cusparse_csr_alg1 ", 0) == 0;
    });
    REQUIRE(dot != dots.end());
    std::smatch v;
    REQUIRE(std::regex_search(*dot, v, std::regex(R"(cusparse_csr_alg1 ([0-9.]+) GF/s)")));
    CHECK(std::stod(v[1].str()) ==
          Approx(g.at("1138_bus.mtx").at("cusparse_csr_alg1")).epsilon(0.006));
}

TEST_CASE("spmvlab plot and report word a CPU record as formats and name one fastest",
          "[cli][plot][report]")
{
    const auto dir = tmp("cpu_words");
    const auto rec = dir + "/cpu.json";
    const auto sample = std::string(SPMV_SOURCE_DIR) + "/sample_matrices/";
    REQUIRE(spmvlab("bench " + sample + "banded_1k.mtx --formats csr,ell,sell --min-time 1 "
                    "--json-out " + rec).status == 0);
    // the same record with csr and sell tied (equal times), sell first: the rule names csr
    auto tie = nlohmann::json::parse(slurp(rec));
    nlohmann::json csr, sell;
    for (const auto& e : tie["results"]) {
        if (e["format"] == "csr") csr = e;
        if (e["format"] == "sell") sell = e;
    }
    sell["median_ms"] = csr["median_ms"];
    sell["gflops"] = csr["gflops"];
    tie["results"] = {sell, csr};
    std::ofstream(dir + "/tie.json") << tie.dump(2);

    const auto p = spmvlab("plot " + rec + " -o " + dir + " --format svg");
    const auto rep = spmvlab("report " + rec);
    const auto pt = spmvlab("plot " + dir + "/tie.json -o " + dir + "/tie --format svg");
    const auto rt = spmvlab("report " + dir + "/tie.json");

    INFO(p.out << rep.out << pt.out << rt.out);
    REQUIRE(p.status == 0);
    REQUIRE(rep.status == 0);
    REQUIRE(pt.status == 0);
    REQUIRE(rt.status == 0);
    const auto variants = slurp(dir + "/gflops_variants_dp.svg");
    const auto matrices = slurp(dir + "/gflops_matrices_dp.svg");
    CHECK(variants.find(">GF/s of every format over 1 matrix (double precision)<") !=
          std::string::npos);
    CHECK(matrices.find(">Fastest format per matrix, 1 matrix (double precision)<") !=
          std::string::npos);
    for (const auto* svg : {&variants, &matrices}) {
        CHECK(svg->find("kernel") == std::string::npos);
        CHECK(svg->find("variant") == std::string::npos);
        CHECK(svg->find("1 matrices") == std::string::npos);
        CHECK(svg->find("CPU (host reference SpMV, 1 thread)") != std::string::npos);
    }
    // the fastest format: the plot's note right of the matrix's row is the report's column
    auto plot_fastest = [](const std::string& svg) {
        std::smatch m;
        REQUIRE(std::regex_search(svg, m, std::regex(R"(class="row-note"[^>]*>([a-z0-9_]+)<)")));
        return m[1].str();
    };
    auto report_fastest = [](const std::string& out) {
        std::smatch m;
        const std::regex row(R"(\n\| banded_1k\.mtx \| [^|]+\| [^|]+\| ([a-z0-9_]+) \|)");
        REQUIRE(std::regex_search(out, m, row));
        return m[1].str();
    };
    CHECK(plot_fastest(matrices) == report_fastest(rep.out));
    CHECK(plot_fastest(slurp(dir + "/tie/gflops_matrices_dp.svg")) == "csr");
    CHECK(report_fastest(rt.out) == "csr");
    CHECK(rt.out.find("fastest format per matrix: csr 1\n") != std::string::npos);
    CHECK(rep.out.find("## CPU (host reference SpMV, 1 thread), double") != std::string::npos);
    CHECK(rep.out.find("over 1 matrix\n") != std::string::npos);
}

TEST_CASE("bench names the commit once, the CPU one way, and writes whole numbers as such",
          "[cli][bench]")
{
    const auto dir = tmp("bench_text");
    const auto sample = std::string(SPMV_SOURCE_DIR) + "/sample_matrices/banded_1k.mtx";

    const auto r = spmvlab("bench " + sample + " --formats csr,sell --min-time 1 --json-out " +
                           dir + "/b.json --csv-out " + dir + "/b.csv");

    INFO(r.out);
    REQUIRE(r.status == 0);
    const auto at = r.out.find("# spmvlab ");  // after the progress line on stderr
    REQUIRE(at != std::string::npos);
    const auto head = r.out.substr(at, r.out.find('\n', at) - at);
    CHECK(count(head, "commit") == 1);
    CHECK(r.out.find("# device: CPU (host reference SpMV, 1 thread)\n") != std::string::npos);
    const auto j = nlohmann::json::parse(slurp(dir + "/b.json"));
    CHECK(j["device"] == "CPU (host reference SpMV, 1 thread)");
    const auto csv = slurp(dir + "/b.csv");
    std::vector<std::vector<std::string>> rows{{}};  // RFC 4180: quoted fields, "" inside
    std::string field;
    bool quoted = false;
    for (std::size_t k = 0; k < csv.size(); ++k) {
        const char c = csv[k];
        if (quoted) {
            if (c == '"' && k + 1 < csv.size() && csv[k + 1] == '"') {
                field += '"';
                ++k;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            rows.back().push_back(std::exchange(field, {}));
        } else if (c == '\r' && k + 1 < csv.size() && csv[k + 1] == '\n') {
            rows.back().push_back(std::exchange(field, {}));
            if (k + 2 < csv.size()) rows.emplace_back();
            ++k;
        } else {
            field += c;
        }
    }
    REQUIRE(rows.size() == 3);  // the header and csr, sell
    const auto col = [&](const std::string& name) {
        return static_cast<std::size_t>(
            std::find(rows[0].begin(), rows[0].end(), name) - rows[0].begin());
    };
    for (std::size_t k = 1; k < rows.size(); ++k) {
        const auto& e = j["results"][k - 1];
        INFO(csv);
        CHECK(rows[k][col("device")] == "CPU (host reference SpMV, 1 thread)");
        CHECK(e["device"] == "CPU (host reference SpMV, 1 thread)");
        // format_bytes: an integer, as many bytes as the JSON says
        CHECK(std::regex_match(rows[k][col("format_bytes")], std::regex("[0-9]+")));
        CHECK(std::stod(rows[k][col("format_bytes")]) == e["format_bytes"].get<double>());
        // a time reads back as the JSON's number, to the last digit
        CHECK(std::stod(rows[k][col("median_ms")]) == e["median_ms"].get<double>());
    }
}
