// The spmvlab CLI end to end: exit codes, error messages and the --json contracts of issue 2
// (info, formats, generate, convert, model, verify, bench, solve). The rest of the test_cli
// executable: test_cli_limits.cpp (huge inputs, memory budget, write errors, interrupts),
// test_cli_advisor.cpp (reorder, bench/solve --format auto, recommend, calibrate) and
// test_cli_replicate.cpp (replicate on hand-made records).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
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

TEST_CASE("spmvlab info --json reports the canonical 4x4", "[cli]")
{
    const auto j = json_of("info " + sample("canonical4.mtx") + " --json");

    CHECK(j["rows"] == 4);
    CHECK(j["cols"] == 4);
    CHECK(j["nnz"] == 9);
    CHECK(j["explicit_zeros"] == 0);
    CHECK(j["row_length"]["ave"].get<double>() == Approx(2.25));
    CHECK(j["row_length"]["min"] == 1);
    CHECK(j["row_length"]["max"] == 3);
    // lengths 3,1,3,2: mean 2.25, population variance (0.5625+1.5625+0.5625+0.0625)/4
    CHECK(j["row_length"]["sigma"].get<double>() == Approx(std::sqrt(2.75 / 4)));
    CHECK(j["histogram"]["counts"] == nlohmann::json::array({0, 1, 1, 2}));
}

TEST_CASE("spmvlab info states its histogram bins: width 1 up to 40 lengths, else wider",
          "[cli]")
{
    // canonical 4x4: lengths 0..3 in bins of width 1 (Kreutzer Fig. 3)
    const auto c = spmvlab("info " + sample("canonical4.mtx"));
    INFO(c.out);
    REQUIRE(c.status == 0);
    CHECK(c.out.find("bins of width 1 (lengths 0..3)") != std::string::npos);
    CHECK(c.out.find("span at most 40 values") != std::string::npos);
    // onefull 256: lengths 1..256 span 256 values > 40: width ceil(256 / 40) = 7, 37 bins
    const auto f = spmvlab("info " + sample("onefull_256.mtx"));
    INFO(f.out);
    CHECK(f.out.find("bins of width 7 (lengths 1..256 span 256 values, more than 40)") !=
          std::string::npos);
    CHECK(f.out.find("     1-7 | ") != std::string::npos);
    const auto j = json_of("info " + sample("onefull_256.mtx") + " --json")["histogram"];
    CHECK(j["bin_width"] == 7);
    CHECK(j["max_bins"] == 40);
    CHECK(j["counts"].size() == 37);
    CHECK(j["edges"][0] == 1);
    CHECK(j["rule"].get<std::string>().find("width 1") != std::string::npos);
    // --bins 300: 0..256 fits, width 1 from 0
    const auto w = json_of("info " + sample("onefull_256.mtx") + " --bins 300 --json")["histogram"];
    CHECK(w["bin_width"] == 1);
    CHECK(w["edges"][0] == 0);
    CHECK(w["counts"].size() == 257);
    CHECK(w["counts"][1] == 255);
    CHECK(w["counts"][256] == 1);
    // --bins 100 of lengths 1..256: width 3
    CHECK(json_of("info " + sample("onefull_256.mtx") + " --bins 100 --json")["histogram"]
              ["bin_width"] == 3);
}

TEST_CASE("spmvlab formats --json lists every format with PELLR's worked example", "[cli]")
{
    const auto j = json_of("formats " + sample("pellr_fig5.mtx") + " --warp 8 --br 8 --json")["formats"];

    // every registered format, in the registry's order (spmv::formats(), not a list kept here)
    const auto registered = spmv::formats();
    REQUIRE(j.size() == registered.size());
    for (std::size_t k = 0; k < registered.size(); ++k) {
        CHECK(j[k]["format"] == std::string(registered[k].name));
        for (const char* key : {"stored_entries", "padding_entries", "bytes", "n_iter", "n_p",
                                "idle_slots"}) {
            CHECK(j[k].contains(key));
        }
    }
    CHECK(by_format(j, "ellr")["n_iter"] == 18);
    CHECK(by_format(j, "pellr")["n_iter"] == 15);
    CHECK(by_format(j, "ellr")["n_p"] == by_format(j, "pellr")["n_p"]);
    CHECK(by_format(j, "ell")["stored_entries"] == 26 * 7);  // N x max
    // sorted lengths per block of 8: max 7, 3, 3, 2 (last block has 2 rows) -> 56+24+24+4
    CHECK(by_format(j, "pjds")["stored_entries"] == 108);
    CHECK(by_format(j, "csr")["padding_entries"] == 0);
}

TEST_CASE("spmvlab generate writes the ELLG paper's pde05 and the pJDS worst case", "[cli]")
{
    const auto pde = tmp("pde05.mtx");
    REQUIRE(spmvlab("generate pde --size 5 -o " + pde).status == 0);
    const auto info = json_of("info " + pde + " --json");
    CHECK(info["rows"] == 125);
    CHECK(info["nnz"] == 725);

    const auto of = tmp("onefull64.mtx");
    REQUIRE(spmvlab("generate onefull --n 64 -o " + of).status == 0);
    const auto f = json_of("formats " + of + " --br 32 --json")["formats"];
    CHECK(by_format(f, "ell")["stored_entries"] == 64 * 64);
    CHECK(by_format(f, "pjds")["stored_entries"] == 33 * 64 - 32);  // (b_r + 1) N - b_r
}

TEST_CASE("spmvlab --pjds-pad 1 rounds pJDS's rows up to b_r (Kreutzer footnote 2)", "[cli]")
{
    // pellr_fig5, b_r = 8: blocks of 8, 8, 8 and 2 rows (108 slots); padded, the last block
    // has 8 rows, 6 of them empty, which add 6 slots to each of its 2 columns: 120
    const auto plain = json_of("formats " + sample("pellr_fig5.mtx") + " --br 8 --json")["formats"];
    const auto padded =
        json_of("formats " + sample("pellr_fig5.mtx") + " --br 8 --pjds-pad 1 --json")["formats"];
    CHECK(by_format(plain, "pjds")["stored_entries"] == 108);
    CHECK(by_format(padded, "pjds")["stored_entries"] == 120);
    CHECK(by_format(padded, "pjds")["padding_entries"] ==
          by_format(plain, "pjds")["padding_entries"].get<int>() + 12);
    CHECK(by_format(padded, "ell")["stored_entries"] == by_format(plain, "ell")["stored_entries"]);
    const auto v = spmvlab("verify " + sample("pellr_fig5.mtx") +
                           " --formats pjds --br 8 --pjds-pad 1");
    INFO(v.out);
    CHECK(v.status == 0);
    const auto bad = spmvlab("formats " + sample("canonical4.mtx") + " --pjds-pad 2");
    CHECK(bad.status != 0);
    CHECK(bad.out.find("pjds-pad") != std::string::npos);
}

TEST_CASE("spmvlab convert round-trips a matrix", "[cli]")
{
    const auto out = tmp("fig5_copy.mtx");
    REQUIRE(spmvlab("convert " + sample("pellr_fig5.mtx") + " " + out).status == 0);
    CHECK(json_of("info " + out + " --json")["row_length"] ==
          json_of("info " + sample("pellr_fig5.mtx") + " --json")["row_length"]);
}

TEST_CASE("spmvlab model --json follows Kreutzer's code balance", "[cli]")
{
    const auto j = json_of("model " + sample("pde05.mtx") + " --gpu H100 --alpha 1 --json")["predictions"];

    REQUIRE(j.size() == 1);
    const double n_nzr = 725.0 / 125.0;
    CHECK(j[0]["code_balance_bytes_per_flop"].get<double>() ==
          Approx((8 + 4 + 8 + 16 / n_nzr) / 2));
    CHECK(j[0]["predicted_gflops"].get<double>() > 0);
}

TEST_CASE("spmvlab model --thresholds prints Kreutzer eq. 3 and 4's worked numbers", "[cli][model]")
{
    const auto r = spmvlab("model --thresholds");
    INFO(r.out);
    REQUIRE(r.status == 0);
    // one line per case: r = 10, alpha = 1: eq. 3 7.2 (paper 7), eq. 4 79.2 (paper 80);
    // r = 20, alpha = 1/N_nzr -> 0: 25.3 (paper 25), 265.3 (paper 266)
    auto line_with = [&r](const std::string& key) {
        const auto at = r.out.find(key);
        if (at == std::string::npos) return std::string();
        const auto begin = r.out.rfind('\n', at) + 1;
        return r.out.substr(begin, r.out.find('\n', at) - begin);
    };
    const auto l79 = line_with(" 79.2 ");
    const auto l265 = line_with(" 265.3 ");
    CHECK(l79.find("DP    10             1             7.2        7") == 0);
    CHECK(l79.substr(l79.size() - 2) == "80");
    CHECK(l265.find("1/N_nzr -> 0            25.3       25") != std::string::npos);
    CHECK(l265.substr(l265.size() - 3) == "266");
    CHECK(r.out.find("264.7") != std::string::npos);  // exact alpha = 1/N_nzr
    CHECK(r.out.find("71.2") == std::string::npos);   // a 10 % share is not eq. 4

    const auto j = json_of("model --thresholds --json")["thresholds"];
    REQUIRE(j.size() == 6);
    CHECK(j[0]["bandwidth_ratio"] == 10.0);
    CHECK(j[0]["alpha"] == "1");
    CHECK(j[0]["eq3_n_nzr"].get<double>() == Approx(7.2));
    CHECK(j[0]["eq4_n_nzr"].get<double>() == Approx(79.2));
    CHECK(j[0]["paper_eq4"] == 80.0);
    CHECK(j[5]["alpha"] == "1/N_nzr -> 0");
    CHECK(j[5]["eq4_n_nzr"].get<double>() == Approx(398.0 / 1.5));
    CHECK(j[5]["paper_eq4"] == 266.0);
    // other ratios, and those of a GPU profile (C2070: 120 / 6 = 20)
    const auto c = json_of("model --thresholds --gpu C2070 --json")["thresholds"];
    REQUIRE(c.size() == 3);
    CHECK(c[2]["eq4_n_nzr"].get<double>() == Approx(398.0 / 1.5));
    const auto q = json_of("model --thresholds --ratio 15 --precision sp --json")["thresholds"];
    REQUIRE(q.size() == 3);
    CHECK(q[0]["precision"] == "single");
    CHECK(q[0]["eq4_n_nzr"].get<double>() == Approx(298.0 / 3.0));  // (20 r - 2) / (1 + 2)
}

TEST_CASE("spmvlab model: the eq. 4 column and --alpha min", "[cli][model]")
{
    // r = 60 / 6 = 10, alpha = 1: eq. 4 gives 79.2 (it printed the 10 % share, 71.2, before)
    const auto r10 = spmvlab("model " + sample("pde05.mtx") + " --bandwidth 60 --pcie 6");
    INFO(r10.out);
    REQUIRE(r10.status == 0);
    CHECK(r10.out.find("eq.4 N_nzr>=") != std::string::npos);
    CHECK(r10.out.find(" 79.2\n") != std::string::npos);
    CHECK(r10.out.find("71.2") == std::string::npos);
    const auto j10 =
        json_of("model " + sample("pde05.mtx") + " --bandwidth 60 --pcie 6 --json")["predictions"][0];
    CHECK(j10["n_nzr_eq3"].get<double>() == Approx(7.2));
    CHECK(j10["n_nzr_eq4"].get<double>() == Approx(79.2));
    CHECK(j10["n_nzr_pcie_under_tenth"].get<double>() == Approx(71.2));  // still in the JSON
    CHECK(j10["alpha_min"] == false);

    // --alpha min: alpha = 1/N_nzr = 125 / 725 for the matrix's traffic; the thresholds with
    // alpha = 1/N_nzr of their own N_nzr (C2070: r = 20, 24.7 and 264.7)
    const auto m = json_of("model " + sample("pde05.mtx") + " --gpu C2070 --alpha min --json")["predictions"][0];
    CHECK(m["alpha"].get<double>() == Approx(125.0 / 725.0));
    CHECK(m["alpha_min"] == true);
    CHECK(m["code_balance_bytes_per_flop"].get<double>() ==
          Approx((8 + 4 + 8 * 125.0 / 725.0 + 16 * 125.0 / 725.0) / 2));
    CHECK(m["n_nzr_eq3"].get<double>() == Approx(37.0 / 1.5));
    CHECK(m["n_nzr_eq4"].get<double>() == Approx(397.0 / 1.5));
    const auto text = spmvlab("model " + sample("pde05.mtx") + " --gpu C2070 --alpha min");
    CHECK(text.status == 0);
    CHECK(text.out.find("264.7") != std::string::npos);
    CHECK(text.out.find("--alpha min") != std::string::npos);

    const auto bad = spmvlab("model " + sample("pde05.mtx") + " --alpha most");
    CHECK(bad.status != 0);
    CHECK(bad.out.find("'min'") != std::string::npos);
    const auto low = spmvlab("model " + sample("pde05.mtx") + " --alpha 0.01");
    CHECK(low.status != 0);
    CHECK(low.out.find("[0.172414, 1]") != std::string::npos);
    const auto none = spmvlab("model");
    CHECK(none.status != 0);
    CHECK(none.out.find("--thresholds") != std::string::npos);
}

TEST_CASE("spmvlab verify passes on the sample matrices", "[cli]")
{
    const auto r = spmvlab("verify " + std::string(SPMV_SOURCE_DIR) + "/sample_matrices");
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK(r.out.find("all formats agree") != std::string::npos);
}

TEST_CASE("spmvlab verify --gpu --formats accepts GPU-only variant names", "[cli]")
{
    // csr_vector and sell_xs are GPU kernels of the host formats csr and sell: the host check
    // runs csr and sell, the GPU check those two kernels (or, without a GPU, says so).
    const auto r = spmvlab("verify " + sample("canonical4.mtx") +
                           " --gpu --formats csr_vector,sell_xs --json");
    INFO(r.out);
    CHECK(r.out.find("unknown") == std::string::npos);
    if (r.status == 0) {
        const auto rows = nlohmann::json::parse(r.out.substr(r.out.find('[')));
        CHECK(by_format(rows, "csr")["where"] == "host");
        CHECK(by_format(rows, "sell")["where"] == "host");
        CHECK(by_format(rows, "csr_vector")["where"] == "gpu");
        CHECK(by_format(rows, "sell_xs")["where"] == "gpu");
    } else {
        // no CUDA build or no device: said so
        CHECK((r.out.find("without CUDA") != std::string::npos ||
               r.out.find("GPU") != std::string::npos || r.out.find("CUDA") != std::string::npos));
    }
    const auto bad = spmvlab("verify " + sample("canonical4.mtx") + " --gpu --formats nosuch");
    CHECK(bad.status != 0);
    CHECK(bad.out.find("nosuch") != std::string::npos);
}

TEST_CASE("spmvlab bench prints labelled CPU timings", "[cli]")
{
    const auto j = json_of("bench " + sample("canonical4.mtx") +
                           " --formats csr,sell --precision both --min-time 1 --json");

    CHECK(j["device"].get<std::string>().find("CPU") != std::string::npos);
    CHECK(j["meta"]["schema"] == "spmvlab/1");  // commit and date live in meta
    CHECK(j["meta"].contains("commit"));
    CHECK(j["meta"].contains("date"));
    REQUIRE(j["results"].size() == 4);
    for (const auto& r : j["results"]) {
        CHECK(r["gflops"].get<double>() > 0);
        CHECK(r["matrix"] == "canonical4.mtx");
    }
}

TEST_CASE("spmvlab reports bad input with file and line and a non-zero exit", "[cli]")
{
    const auto bad = tmp("bad.mtx");
    {
        FILE* f = std::fopen(bad.c_str(), "w");
        std::fputs("%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n4 1 2.0\n", f);
        std::fclose(f);
    }
    auto r = spmvlab("info " + bad);
    CHECK(r.status == 1);
    CHECK(r.out.find("bad.mtx:4") != std::string::npos);

    r = spmvlab("info /nonexistent/file.mtx");
    CHECK(r.status == 1);
    CHECK(r.out.find("/nonexistent/file.mtx") != std::string::npos);

    r = spmvlab("formats " + sample("canonical4.mtx") + " --br 0");
    CHECK(r.status != 0);
    CHECK(r.out.find("br") != std::string::npos);

    r = spmvlab("verify " + sample("canonical4.mtx") + " --formats nope");
    CHECK(r.status != 0);
    CHECK(r.out.find("unknown format 'nope'") != std::string::npos);

    r = spmvlab("bogus");
    CHECK(r.status != 0);
}

TEST_CASE("spmvlab solve: CG and MPIR-CG converge, breakdown and the limit exit with 4", "[cli]")
{
    // 7-point Laplacian on a 6^3 grid (216 rows), host reference.
    const auto cg = json_of("solve gen:pde:size=6 --json");
    CHECK(cg["status"] == "converged");
    CHECK(cg["rows"] == 216);
    CHECK(cg["iterations"].get<int>() > 5);
    CHECK(cg["iterations"].get<int>() <= 216);  // CG in at most n steps (it takes ~20)
    CHECK(cg["final_relative_residual"].get<double>() <= 1e-10);
    CHECK(cg["phase_times"] == "inline");  // the host reference times its phases
    CHECK(cg["times_ms"]["spmv"].get<double>() > 0.0);

    const auto mp = json_of("solve gen:pde:size=6 --method mpir-cg --inner-reduction 1e-2 --json");
    CHECK(mp["status"] == "converged");
    CHECK(mp["final_relative_residual"].get<double>() <= 1e-10);
    CHECK(mp["outer_iterations"].get<int>() >= 2);  // float alone cannot reach 1e-10
    CHECK(mp["inner_iterations"].get<int>() == mp["iterations"].get<int>());
    int inner_sum = 0;
    for (const auto& k : mp["inner_iteration_counts"]) {
        inner_sum += k.get<int>();
    }
    CHECK(inner_sum == mp["inner_iterations"].get<int>());

    // diag(1, -1), b = (1, 1): p = r = b and p^T A p = 0, CG's first step breaks down
    const auto indefinite = tmp("indefinite2.mtx");
    {
        FILE* f = std::fopen(indefinite.c_str(), "w");
        std::fputs("%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 1.0\n2 2 -1.0\n",
                   f);
        std::fclose(f);
    }
    auto r = spmvlab("solve " + indefinite);
    INFO(r.out);
    CHECK(r.status == 4);  // exit_status::no_convergence (2 is a usage error)
    CHECK(r.out.find("breakdown_indefinite") != std::string::npos);
    CHECK(r.out.find("converged") == std::string::npos);

    r = spmvlab("solve gen:pde:size=6 --maxit 3");
    CHECK(r.status == 4);
    CHECK(r.out.find("max_iterations") != std::string::npos);

    r = spmvlab("solve gen:pde:size=6 --phase-times sometimes");
    CHECK(r.status == 2);  // a usage error (CLI::IsMember)
    CHECK(r.out.find("phase-times") != std::string::npos);
}

TEST_CASE("spmvlab solve --outer pcg: Cevahir as written, inner CG in float throughout", "[cli]")
{
    const auto j = json_of("solve gen:pde:size=6 --method mpir-cg --outer pcg --inner-maxit 8 "
                           "--json");
    CHECK(j["status"] == "converged");
    CHECK(j["final_relative_residual"].get<double>() <= 1e-10);
    CHECK(j["mpir_outer"] == "pcg");
    CHECK(j["inner_sums"] == "float");
    CHECK(j["inner_double_sums"] == false);
    CHECK(j["inner_float_reductions"] == true);
    CHECK(j["inner_iterations"].get<int>() == 8 * j["outer_iterations"].get<int>());
    // the project's refinement (default) keeps double sums and double reductions
    const auto refine = json_of("solve gen:pde:size=6 --method mpir-cg --json");
    CHECK(refine["mpir_outer"] == "richardson");
    CHECK(refine["inner_double_sums"] == true);
    CHECK(refine["inner_float_reductions"] == false);

    const auto r = spmvlab("solve gen:pde:size=6 --method mpir-cg --outer pcg --inner-sums double");
    CHECK(r.status != 0);
    CHECK(r.out.find("float throughout") != std::string::npos);
}

TEST_CASE("spmvlab solve --gpu times runs without phase events and measures phases apart",
          "[cli]")
{
    const auto r = spmvlab("solve gen:pde:size=6 --gpu --repeat 2 --json", false);
    if (r.status != 0) {
        // no CUDA build or no device: said so on stderr, with a non-zero exit
        const auto e = spmvlab("solve gen:pde:size=6 --gpu");
        INFO(e.out);
        CHECK(e.status != 0);
        CHECK((e.out.find("CUDA") != std::string::npos || e.out.find("GPU") != std::string::npos));
        WARN("no CUDA device: the --gpu solve checks did not run");
        return;
    }
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["status"] == "converged");
    CHECK(j["gpu"] == true);
    CHECK(j["phase_times"] == "separate");
    CHECK(j["run_totals_ms"].size() == 2);
    CHECK(j["times_ms"]["phase_run_total"].get<double>() > 0.0);
    CHECK(j["times_ms"]["spmv"].get<double>() > 0.0);

    const auto off = json_of("solve gen:pde:size=6 --gpu --phase-times off --json");
    CHECK(off["phase_times"] == "off");
    CHECK(off["times_ms"]["spmv"].is_null());
    CHECK(off["iterations"] == j["iterations"]);  // the same solve, without events
}

TEST_CASE("bench reports a failed write with the reason and a non-zero exit", "[cli]")
{
    const auto r = spmvlab("bench " + sample("canonical4.mtx") + " --formats csr --json-out /dev/full");

    INFO(r.out);
    CHECK(r.status != 0);
    CHECK(r.out.find("cannot write /dev/full") != std::string::npos);
    CHECK(r.out.find("No space left on device") != std::string::npos);
}

TEST_CASE("bench writes its JSON and CSV whole, leaving no temporary file", "[cli]")
{
    const auto dir = tmp("atomic");
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);

    const auto r = spmvlab("bench " + sample("canonical4.mtx") + " --formats csr,ell --json-out " +
                           dir + "/b.json --csv-out " + dir + "/b.csv");

    INFO(r.out);
    REQUIRE(r.status == 0);
    int files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        ++files;
        CHECK(e.path().filename().string().find(".tmp-") == std::string::npos);
    }
    CHECK(files == 3);  // b.json, b.csv and its sidecar b.csv.meta.json
    std::ifstream f(dir + "/b.json");
    const auto j = nlohmann::json::parse(f);
    CHECK(j["results"].size() == 2);
}

TEST_CASE("bench records a format that runs out of memory and keeps the others' results", "[cli]")
{
    // ELLPACK of onefull with n = 40000 needs 40000^2 slots (19 GB in double): under a 3 GB
    // address-space limit building it throws std::bad_alloc, which once ended the whole run
    // without its JSON. --max-memory 100G lets it past the memory budget's estimate, so that
    // the allocation itself fails.
    const auto out = tmp("oom.json");
    std::filesystem::remove(out);
    const auto r = shell("sh -c 'ulimit -v 3000000 && exec " + std::string(SPMVLAB_EXE) +
                         " bench gen:onefull:n=40000 --precision dp --formats csr,ell --max-memory 100G"
                         " --json-out " + out + "' 2>&1");

    INFO(r.out);
    CHECK(r.status >= 0);  // exited (not killed)
    std::ifstream f(out);
    REQUIRE(f.good());
    const auto j = nlohmann::json::parse(f);
    REQUIRE(j["results"].size() == 2);
    CHECK(j["results"][0]["format"] == "csr");
    CHECK(j["results"][0]["error"] == "");
    CHECK(j["results"][0]["median_ms"].get<double>() > 0.0);
    CHECK(j["results"][1]["format"] == "ell");
    CHECK(j["results"][1]["error"].get<std::string>().find("out of host memory") !=
          std::string::npos);
}

TEST_CASE("Options that would check nothing or wrap around are refused with a plain message", "[cli]")
{
    const auto v = spmvlab("verify " + sample("canonical4.mtx") + " --formats ,,,");
    const auto b = spmvlab("info " + sample("canonical4.mtx") + " --bins -3");
    const auto r = spmvlab("solve " + sample("pde05.mtx") + " --repeat 0");
    const auto g = spmvlab("generate random --rows 10 --cols 10 --nnz-per-row 2 --seed -1 -o " +
                           tmp("never.mtx"));
    const auto m = spmvlab("model " + sample("pde05.mtx") + " --bandwidth 0 --pcie 0");

    for (const auto* run : {&v, &b, &r, &g, &m}) {
        INFO(run->out);
        CHECK(run->status != 0);
        CHECK(run->out.size() < 400);  // no 309-digit bound
    }
    CHECK(v.out.find("names no format") != std::string::npos);
    CHECK(b.out.find("--bins") != std::string::npos);
    CHECK(r.out.find("--repeat") != std::string::npos);
    CHECK(g.out.find("whole number") != std::string::npos);
    CHECK(m.out.find("is not a number > 0") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(tmp("never.mtx")));
}

TEST_CASE("Error messages name the file and line, not the C++ source, unless SPMVLAB_DEBUG=1", "[cli]")
{
    const auto bad = tmp("bad_index.mtx");
    {
        std::ofstream f(bad);
        f << "%%MatrixMarket matrix coordinate real general\n3 3 1\n4 1 1.0\n";
    }

    const auto plain = spmvlab("info " + bad);
    const auto dbg = shell("SPMVLAB_DEBUG=1 " + std::string(SPMVLAB_EXE) + " info " + bad + " 2>&1").out;

    INFO(plain.out << dbg);
    CHECK(plain.status != 0);
    CHECK(plain.out.find("bad_index.mtx:3: row index 4") != std::string::npos);
    CHECK(plain.out.find(".cpp:") == std::string::npos);
    CHECK(dbg.find("matrix_market.cpp:") != std::string::npos);
}

TEST_CASE("bench CSV quotes fields with commas, and --basis needs --gpu", "[cli]")
{
    // a generator spec with two keys holds a comma: the CSV must still have 20 columns a row
    const auto csv = tmp("quoted.csv");
    const auto r = spmvlab("bench gen:blocks5:block-rows=3,blocks=2 --formats csr --precision dp "
                           "--min-time 1 --csv-out " + csv);
    INFO(r.out);
    REQUIRE(r.status == 0);
    std::ifstream f(csv);
    std::string line;
    std::getline(f, line);  // header (RFC 4180: the first line; CRLF line ends)
    CHECK(line.substr(line.size() - 13) == ",error,basis\r");
    std::getline(f, line);
    CHECK(line.rfind("\"gen:blocks5:block-rows=3,blocks=2\",", 0) == 0);
    int fields = 1;
    bool quoted = false;
    for (const char c : line) {
        if (c == '"') quoted = !quoted;
        if (c == ',' && !quoted) ++fields;
    }
    CHECK(fields == 20);
    const auto b = spmvlab("bench gen:pde:size=4 --basis permuted");
    CHECK(b.status != 0);
    CHECK(b.out.find("add --gpu") != std::string::npos);
}
