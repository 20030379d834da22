// The spmvlab CLI end to end: exit codes, error messages and the --json contracts of issue 2.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>
#include <sys/wait.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <thread>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_run.hpp"

namespace {

using spmv::test::json_of;
using spmv::test::measured;
using spmv::test::Run;
using spmv::test::shell;
using spmv::test::spmvlab;

std::string sample(const char* name)
{
    return std::string(SPMV_SOURCE_DIR) + "/sample_matrices/" + name;
}

std::string tmp(const char* name)
{
    std::filesystem::create_directories(SPMV_TEST_TMP);
    return std::string(SPMV_TEST_TMP) + "/" + name;
}

const nlohmann::json& by_format(const nlohmann::json& rows, const std::string& name)
{
    for (const auto& r : rows) {
        if (r["format"] == name) {
            return r;
        }
    }
    FAIL("format " << name << " missing");
    return rows;
}

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

    const char* order[] = {"coo", "csr",  "csc",  "ell",   "ellr",  "ellg", "jds",
                           "jds_csr", "pjds", "pellr", "biell", "bijad", "hyb", "sell"};
    REQUIRE(j.size() == 14);
    for (std::size_t k = 0; k < 14; ++k) {
        CHECK(j[k]["format"] == order[k]);
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

TEST_CASE("spmvlab solve: CG and MPIR-CG converge, breakdown and the limit exit with 2", "[cli]")
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
    CHECK(r.status == 2);
    CHECK(r.out.find("breakdown_indefinite") != std::string::npos);
    CHECK(r.out.find("converged") == std::string::npos);

    r = spmvlab("solve gen:pde:size=6 --maxit 3");
    CHECK(r.status == 2);
    CHECK(r.out.find("max_iterations") != std::string::npos);

    r = spmvlab("solve gen:pde:size=6 --phase-times sometimes");
    CHECK(r.status != 0);
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

namespace {

// measured(): cli_run.hpp (wall time and peak memory of one run; one heavy run per case)

std::string huge_file(const char* name, const char* size_line)
{
    const auto path = tmp(name);
    std::ofstream(path) << "%%MatrixMarket matrix coordinate real general\n"
                        << size_line << "\n1 1 1.0\n";
    return path;
}

}  // namespace

TEST_CASE("A file claiming 2e9 rows or columns with one entry: every command refuses it fast "
          "and small", "[cli][memory]")
{
    const auto rows = huge_file("rows2e9.mtx", "2000000000 2000000000 1");
    const auto cols = huge_file("cols2e9.mtx", "1 2000000000 1");
    const auto out = tmp("never.mtx");
    for (const auto& file : {rows, cols}) {
        for (const std::string cmd : {"info", "formats", "verify", "model", "bench --min-time 1",
                                      "solve", "dist plan", "convert"}) {
            const auto args = cmd + " " + file + (cmd == "convert" ? " " + out : "");
            const auto m = measured(args);
            INFO(args << "\n" << m.run.out);
            CHECK(m.run.status == 1);
            CHECK(m.run.out.find(file + ":2: the size line declares") != std::string::npos);
            CHECK(m.run.out.find("16 per entry, are read; give --max-memory SIZE to change it") !=
                  std::string::npos);
            CHECK(m.seconds < 2.0);
            CHECK(m.peak_mib < 200.0);
        }
    }
    CHECK_FALSE(std::filesystem::exists(out));
    // an explicit --max-memory lifts the dimension limit; the byte limit then refuses it
    const auto m = measured("formats " + rows + " --max-memory 1G");
    INFO(m.run.out);
    CHECK(m.run.status == 1);
    CHECK(m.run.out.find("would need at least 7.45 GiB (entries and CSR); the memory limit is "
                         "1.00 GiB (--max-memory 1G)") != std::string::npos);
    CHECK(m.peak_mib < 200.0);
}

TEST_CASE("The option --max-memory takes sizes with units and refuses anything else", "[cli][memory]")
{
    for (const char* bad : {"0", "-3G", "lots", "12Q"}) {
        const auto r = spmvlab(std::string("info ") + sample("canonical4.mtx") + " --max-memory " + bad);
        INFO(r.out);
        CHECK(r.status != 0);
        CHECK(r.out.find("is not a size such as 8G, 512M or 65536") != std::string::npos);
    }
    // before or after the subcommand
    CHECK(spmvlab("--max-memory 64M info " + sample("canonical4.mtx")).status == 0);
    CHECK(spmvlab("info " + sample("canonical4.mtx") + " --max-memory 64M").status == 0);
    // a generator spec over the limit is refused before it is built
    const auto r = spmvlab("info gen:onefull:n=1000000 --max-memory 1M");
    INFO(r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find("generating gen:onefull:n=1000000 (its CSR) would need 26.7 MiB; the memory "
                     "limit is 1.00 MiB (--max-memory 1M)") != std::string::npos);
}

TEST_CASE("formats on onefull n = 46,340: the ELLPACK family is estimated, not built, the rest "
          "is all there", "[cli][memory]")
{
    // ELLPACK, ELLPACK-R, ELLG and PELLR need 24 GiB each: over a 1.5 GiB limit they are not
    // built, their sizes are the exact estimate; every other format is built and analysed
    const auto m = measured("formats gen:onefull:n=46340 --json --max-memory 1536M");
    INFO(m.run.out.substr(0, 4000));
    REQUIRE(m.run.status == 0);
    const auto j = nlohmann::json::parse(m.run.out.substr(m.run.out.find('{')))["formats"];
    REQUIRE(j.size() == 14);
    int estimated = 0;
    for (const auto& r : j) {
        const std::string f = r["format"];
        const bool ell_family = f == "ell" || f == "ellr" || f == "ellg" || f == "pellr";
        CHECK(r["estimated"] == ell_family);
        CHECK(r["built"] == !ell_family);
        if (ell_family) {
            ++estimated;
            CHECK(r["stored_entries"].get<std::int64_t>() >= std::int64_t{46340} * 46340);
            CHECK(r["error"].get<std::string>().find("not built") != std::string::npos);
        } else {
            CHECK(r["error"] == "");
            CHECK(r["n_iter"].get<std::int64_t>() > 0);
        }
    }
    CHECK(estimated == 4);
    CHECK(m.seconds < 30.0);
    CHECK(m.peak_mib < 2048.0);
}

TEST_CASE("CPU bench on onefull n = 200,000 keeps every format's record within 2 GB",
          "[cli][memory]")
{
    const auto out = tmp("onefull200k.json");
    std::filesystem::remove(out);
    const auto m = measured("bench gen:onefull:n=200000 --min-time 1 --min-reps 1 --max-memory "
                            "1536M --json-out " + out);
    INFO(m.run.out.substr(0, 4000));
    REQUIRE(m.run.status == 0);
    std::ifstream f(out);
    const auto j = nlohmann::json::parse(f);
    REQUIRE(j["results"].size() == 14);
    for (const auto& r : j["results"]) {
        const std::string fmt = r["format"];
        const bool ell_family = fmt == "ell" || fmt == "ellr" || fmt == "ellg" || fmt == "pellr";
        INFO(fmt);
        if (ell_family) {
            CHECK(r["error"].get<std::string>().find("not built: " + fmt + " would need 447 GiB "
                                                     "(estimated); the memory limit is 1.50 GiB "
                                                     "(--max-memory 1536M)") == 0);
            CHECK(r["median_ms"].is_null());
        } else {
            CHECK(r["error"] == "");
            CHECK(r["median_ms"].get<double>() > 0.0);
        }
    }
    CHECK(m.peak_mib < 2048.0);
}

TEST_CASE("verify reports a format that cannot hold the matrix as n/a, not a mismatch",
          "[cli][memory]")
{
    // ELLPACK of onefull n = 50,000 has 2.5e9 slots: beyond 32-bit indices (NotApplicable)
    // with a budget that allows it, over the budget with the default one
    for (const char* limit : {"--max-memory 100G", "--max-memory 1G"}) {
        const auto r = spmvlab(std::string("verify gen:onefull:n=50000 --formats csr,ell --json ") +
                                   limit, false);
        INFO(limit << "\n" << r.out);
        CHECK(r.status == 0);
        const auto j = nlohmann::json::parse(r.out)["results"];
        REQUIRE(j.size() == 4);
        for (const auto& e : j) {
            if (e["format"] == "csr") {
                CHECK(e["verdict"] == "ok");
                CHECK(e["pass"] == true);
            } else {
                CHECK(e["verdict"] == "n/a");
                CHECK(e["pass"].is_null());
                CHECK(e["error"].get<std::string>().find(
                          std::string(limit) == "--max-memory 1G"
                              ? "not built: ell would need"
                              : "more than 32-bit indices can address") != std::string::npos);
            }
        }
    }
    const auto text = spmvlab("verify gen:onefull:n=50000 --formats csr,ell --max-memory 1G");
    INFO(text.out);
    CHECK(text.status == 0);
    CHECK(text.out.find("2 check(s) not applicable") != std::string::npos);
}

TEST_CASE("convert, generate and a full standard output report write errors with exit 1",
          "[cli]")
{
    const auto target = tmp("kept.mtx");
    REQUIRE(spmvlab("convert " + sample("canonical4.mtx") + " " + target).status == 0);
    std::ifstream in(target);
    const std::string before((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // a failed write leaves the earlier file whole
    for (const std::string& args :
         {"convert " + sample("canonical4.mtx") + " /dev/full", std::string("generate pde --size 5 -o /dev/full")}) {
        const auto r = spmvlab(args);
        INFO(args << "\n" << r.out);
        CHECK(r.status == 1);
        CHECK(r.out.find("cannot write /dev/full") != std::string::npos);
        CHECK(r.out.find("No space left on device") != std::string::npos);
    }
    const auto r = spmvlab("convert " + sample("canonical4.mtx") + " " + tmp("nodir") + "/x.mtx");
    CHECK(r.status == 1);
    CHECK(r.out.find("x.mtx (open): No such file or directory") != std::string::npos);
    std::ifstream again(target);
    const std::string after((std::istreambuf_iterator<char>(again)), std::istreambuf_iterator<char>());
    CHECK(after == before);
    // stdout on a full disk: the report is lost, so the run is an error
    const auto full = shell(std::string(SPMVLAB_EXE) + " info " + sample("powerlaw_2k.mtx") +
                            " 2>&1 >/dev/full");
    CHECK(full.status == 1);
    CHECK(full.out.find("cannot write the standard output: No space left on device") !=
          std::string::npos);
}

TEST_CASE("bench interrupted at random moments leaves a readable JSON or none, and no temporary "
          "file", "[cli]")
{
    const auto dir = tmp("interrupted");
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const auto json = dir + "/b.json";
    auto start = [&] {
        const pid_t pid = fork();
        REQUIRE(pid >= 0);
        if (pid == 0) {
            const int null = open("/dev/null", O_WRONLY);
            dup2(null, 1);
            dup2(null, 2);
            execl(SPMVLAB_EXE, SPMVLAB_EXE, "bench", "gen:pde:size=30", "gen:powerlaw:rows=30000",
                  "gen:banded:n=60000", "--formats", "csr,ell,sell", "--min-time", "30",
                  "--json-out", json.c_str(), static_cast<char*>(nullptr));
            _exit(127);
        }
        return pid;
    };
    // the interrupts fall anywhere in a whole run, however long a run takes on this machine
    // (about 0.6 s on 2 idle cores; several times that under a sanitizer on a loaded machine)
    const auto t0 = std::chrono::steady_clock::now();
    {
        const pid_t pid = start();
        int st = 0;
        waitpid(pid, &st, 0);
        REQUIRE((WIFEXITED(st) && WEXITSTATUS(st) == 0));
    }
    const auto run_us = std::chrono::duration_cast<std::chrono::microseconds>(
                            std::chrono::steady_clock::now() - t0)
                            .count();
    std::mt19937 rng(2026);
    std::uniform_int_distribution<long long> wait_us(0, run_us * 13 / 10);
    int complete = 0;
    int partial = 0;
    int absent = 0;
    for (int trial = 0; trial < 20; ++trial) {
        if (trial % 2 == 0) {
            std::filesystem::remove(json);  // odd trials start from an earlier run's file
        }
        const pid_t pid = start();
        std::this_thread::sleep_for(std::chrono::microseconds(wait_us(rng)));
        kill(pid, SIGINT);
        int st = 0;
        waitpid(pid, &st, 0);
        INFO("trial " << trial);
        CHECK((WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st) == 0)));
        for (const auto& e : std::filesystem::directory_iterator(dir)) {
            CHECK(e.path().filename().string().find(".tmp-") == std::string::npos);
        }
        // progress goes to b.json.partial; b.json is only ever a complete run (a run stopped
        // half-way never replaces an earlier complete record with less)
        if (std::filesystem::exists(json + ".partial")) {
            std::ifstream f(json + ".partial");
            nlohmann::json j;
            REQUIRE_NOTHROW(j = nlohmann::json::parse(f));  // never a truncated file
            CHECK(j["results"].is_array());
            CHECK(j["complete"] == false);
            ++partial;
        }
        if (!std::filesystem::exists(json)) {
            ++absent;
            continue;
        }
        std::ifstream f(json);
        nlohmann::json j;
        REQUIRE_NOTHROW(j = nlohmann::json::parse(f));  // never a truncated file
        CHECK(j["results"].is_array());
        CHECK(j["complete"] == true);
        CHECK(j["matrices_done"] == 3);
        ++complete;
    }
    // the trials stopped runs before their first write, between matrices and at the end
    INFO("absent " << absent << ", partial " << partial << ", complete " << complete);
    CHECK(absent + complete == 20);
    CHECK(partial + complete > 0);
    CHECK(absent > 0);
}

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
    CHECK(orig["padding"].size() == 14);
    const auto& rcm = by_ordering(j, "rcm");
    if (rcm["ok"] == true) {
        CHECK(rcm["bandwidth"] == 1);
        CHECK(rcm["profile"] == 39);
        // a symmetric reordering keeps the row lengths: ELLPACK stores 40 x 3 either way
        CHECK(rcm["padding"][3]["format"] == "ell");
        CHECK(rcm["padding"][3]["stored_entries"] == 120);
        CHECK(orig["padding"][3]["stored_entries"] == 120);
    } else {
        WARN("SKIPPED (RCM part): this build has no Boost.Graph: " << rcm["error"]);
        CHECK_THAT(rcm["error"].get<std::string>(), Catch::Contains("libboost-graph-dev"));
    }
    const auto& nd = by_ordering(j, "nd");
    if (nd["ok"] == true) {
        CHECK(nd["bandwidth"].get<int>() >= 1);
        CHECK(nd["padding"].size() == 14);
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

namespace {

std::size_t occurrences(const std::string& text, const std::string& what)
{
    std::size_t n = 0;
    for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + what.size())) {
        ++n;
    }
    return n;
}

}  // namespace

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
    CHECK(occurrences(t.out, "# format auto: ") == 4);  // 2 matrices x 2 precisions
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
}  // namespace

TEST_CASE("recommend ranks every GPU kernel variant with reasons, as text and JSON", "[cli][advisor]")
{
    const auto j = json_of("recommend gen:onefull:n=600 --precision both --json")["results"];
    REQUIRE(j.size() == 2);  // one entry per precision
    for (const auto& m : j) {
        CHECK(m["gpu_profile"] == "H100");
        CHECK(m["nnz"] == 2 * 600 - 1);
        const auto& rank = m["ranking"];
        REQUIRE(rank.size() == 22);
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
    for (const auto& [file, inputs] :
         std::vector<std::pair<std::string, std::string>>{{a, "gen:pde:size=14 gen:onefull:n=300"},
                                                          {b, "gen:pde:size=11"}}) {
        const auto j = json_of("recommend " + inputs + " --precision both --json")["results"];
        nlohmann::json rec = {{"device", "model"}, {"commit", "test"}, {"date", "today"},
                              {"block_rows", 32}, {"slice_height", 32}, {"sigma", "auto"}};
        for (const auto& m : j) {
            for (const auto& r : m["ranking"]) {
                if (!r["candidate"].get<bool>()) continue;
                rec["results"].push_back({{"matrix", m["matrix"]},
                                          {"precision", m["precision"] == "single" ? "sp" : "dp"},
                                          {"format", r["variant"]},
                                          {"median_ms", 1.5 * r["predicted_us"].get<double>() / 1000.0},
                                          {"error", ""}});
            }
        }
        std::ofstream(file) << rec.dump();
    }
    const auto table = tmp("cal_table.md");
    const auto consts = tmp("cal_constants.json");
    const auto r = spmvlab("calibrate --fit " + a + " --validate " + b + " --matrices " +
                           SPMV_TEST_TMP + " --table-out " + table + " --constants-out " + consts);
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("validation set (held out): 2 matrix x precision cases") != std::string::npos);
    CHECK(r.out.find("within 10 % of the fastest measured own variant: 2 of 2") != std::string::npos);
    std::ifstream t(table);
    const std::string md((std::istreambuf_iterator<char>(t)), std::istreambuf_iterator<char>());
    CHECK(md.find("| gen:pde:size=11 |") != std::string::npos);
    const auto c = json_of("recommend gen:pde:size=11 --constants " + consts + " --json");
    CHECK(c["results"][0]["constants"].get<std::string>().find(consts) != std::string::npos);
    // a record naming a matrix that is nowhere says which
    std::ofstream(tmp("cal_missing.json"))
        << R"({"results": [{"matrix": "nowhere.mtx", "precision": "dp", "format": "csr", "median_ms": 1, "error": ""}]})";
    const auto miss = spmvlab("calibrate --fit " + tmp("cal_missing.json") + " --validate " + b +
                              " --matrices " + SPMV_TEST_TMP);
    CHECK(miss.status != 0);
    CHECK(miss.out.find("nowhere.mtx") != std::string::npos);
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

namespace {

/// One row of a hand-made `bench --gpu --json-out` record: GF/s and the time that gives it.
nlohmann::json replicate_row(const std::string& matrix, double rows, double nnz, double min_bytes,
                             const std::string& format, double gflops, double format_bytes)
{
    const double ms = 2.0 * nnz / (gflops * 1e9) * 1e3;
    return {{"matrix", matrix}, {"rows", rows}, {"cols", rows}, {"nnz", nnz}, {"precision", "dp"},
            {"format", format}, {"gflops", gflops}, {"median_ms", ms}, {"format_bytes", format_bytes},
            {"min_bytes", min_bytes}, {"xgpu_ms", 3.0 * ms}, {"permutation_ms", nullptr},
            {"fraction_of_copy_bandwidth", min_bytes / (ms * 1e-3) / 1e12}, {"error", ""}};
}

/// The line of the verdict table that starts with "| ID |".
std::string claim_row(const std::string& md, const std::string& id)
{
    const auto at = md.find("\n| " + id + " |");
    if (at == std::string::npos) return "";
    return md.substr(at + 1, md.find('\n', at + 1) - at - 1);
}

}  // namespace

TEST_CASE("replicate turns a hand-made bench record into claim rows with measured numbers and verdicts",
          "[cli][replicate]")
{
    // two small matrices and pde100; pJDS exactly 1.2x ELLPACK-R, PELLR 1.5x ELLPACK-R and the
    // fastest of Wang's Fig. 12 set, ELLG half as fast as cuSPARSE CSR on pde100
    nlohmann::json results = nlohmann::json::array();
    for (const auto& [m, rows, nnz, bytes] :
         std::vector<std::tuple<std::string, double, double, double>>{
             {"a.mtx", 1000, 5000, 1e5}, {"b.mtx", 2000, 10000, 2e5}, {"gen:pde:size=100", 1e6, 6.94e6, 1.0328e8}}) {
        const bool pde = m == "gen:pde:size=100";
        const double ell_bytes = rows * (nnz / rows) * 2 * 12;  // ELLPACK pads 2 slots per nonzero
        for (const auto& [format, gf, fb] : std::vector<std::tuple<std::string, double, double>>{
                 {"ellr", 10, ell_bytes}, {"pjds", 12, 0.6 * ell_bytes}, {"ell", 10, ell_bytes},
                 {"pellr", 15, ell_bytes}, {"biell", 10, ell_bytes}, {"bijad", 10, ell_bytes},
                 {"hyb", 5, ell_bytes}, {"csr_vector", 8, ell_bytes}, {"jds_csr", 9, ell_bytes},
                 {"jds", 3, ell_bytes}, {"csr", 9, ell_bytes}, {"cusparse_csr_alg1", pde ? 18.0 : 6.0, ell_bytes},
                 {"ellg", 9, ell_bytes}}) {
            results.push_back(replicate_row(m, rows, nnz, bytes, format, gf, fb));
        }
    }
    const auto record = tmp("replicate_bench.json");
    std::ofstream(record) << nlohmann::json{{"device", "Test GPU"}, {"commit", "abc1234"},
                                            {"date", "2026-01-02T03:04:05Z"}, {"copy_bandwidth_gbs", 1000.0},
                                            {"results", results}}.dump(2);
    const auto out = tmp("replication.md");
    std::filesystem::remove(out);

    const auto r = spmvlab("replicate " + record + " --out " + out);

    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("34 claims") != std::string::npos);
    std::ifstream f(out);
    const std::string md((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    INFO(md.substr(0, 3000));
    CHECK(md.find("spmvlab replicate " + record + " --out " + out) != std::string::npos);
    CHECK(md.find("## The verdict rule") != std::string::npos);  // stated before the rows
    CHECK(md.find("| Test GPU | `abc1234` | 2026-01-02T03:04:05Z | DP | 3 | 1000 GB/s |") != std::string::npos);
    const auto k1 = claim_row(md, "K1");
    CHECK(k1.find("DP, 3 matrices: 1.20 on every matrix") != std::string::npos);
    CHECK(k1.find("≥ 0.91 on 3 of 3 (100 %), > 1.30 on 0") != std::string::npos);
    CHECK(k1.find("**holds**") != std::string::npos);
    const auto k3 = claim_row(md, "K3");  // slots, as Table I counts them: needs the matrices
    CHECK(k3.find("**not measured (give --matrices DIR)**") != std::string::npos);
    const auto w1 = claim_row(md, "W1");
    CHECK(w1.find("faster on 3 of 3 (100 %)") != std::string::npos);
    CHECK(w1.find("1.50 on every matrix") != std::string::npos);
    CHECK(w1.find("**holds**") != std::string::npos);
    const auto w3 = claim_row(md, "W3");
    CHECK(w3.find("fastest on 2 of 2 (100 %)") == std::string::npos);  // pde100: cuSPARSE is fastest
    CHECK(w3.find("fastest on 2 of 3 (67 %)") != std::string::npos);
    const auto b1 = claim_row(md, "B1");
    CHECK(b1.find("pde100 0.50 (paper: C2050 2.34, GTX 285 4.93; 0.21× the C2050's)") !=
          std::string::npos);
    CHECK(b1.find("**does not hold**") != std::string::npos);
    const auto c1 = claim_row(md, "C1");  // 9 / 3 GF/s on every matrix
    CHECK(c1.find("ratio of the mean GF/s 3.00") != std::string::npos);
    CHECK(c1.find("**holds**") != std::string::npos);
    CHECK(claim_row(md, "W2").find("give --matrices DIR") != std::string::npos);
    CHECK(claim_row(md, "C4").find("not measured (pass --solver-records)") != std::string::npos);
    CHECK(claim_row(md, "C4").find("**ours:**") != std::string::npos);
    CHECK(claim_row(md, "K9").find("not measured (pass --dist-records)") != std::string::npos);
}

TEST_CASE("replicate applies one verdict rule: both bounds of a range, reconstructions named, "
          "absent records not measured, slots counted as Kreutzer counts them",
          "[cli][replicate]")
{
    // every case large (--l2-mb, --latency-mb), the paper's kind of every claim here; pJDS 2.0x
    // ELLPACK-R on every matrix: above K1's 1.30 (+10 %), though far above its 0.91
    nlohmann::json results = nlohmann::json::array();
    for (const auto& [m, rows, nnz] : std::vector<std::tuple<std::string, double, double>>{
             {"gen:onefull:n=1000", 1000, 1999}, {"gen:pde:size=20", 8000, 53600}}) {
        const double bytes = 12 * nnz + 20 * rows;
        for (const auto& [format, gf] : std::vector<std::pair<std::string, double>>{
                 {"ellr", 10}, {"pjds", 20}, {"ell", 10}, {"pellr", 15}, {"hyb", 5}, {"biell", 10},
                 {"bijad", 10}, {"jds_csr", 9}, {"jds", 3}, {"csr", 9}, {"ellg", 9},
                 {"cusparse_csr_alg1", 6}, {"csr_vector", 8}}) {
            results.push_back(replicate_row(m, rows, nnz, bytes, format, gf, 2 * bytes));
        }
    }
    const auto record = tmp("replicate_rule_bench.json");
    std::ofstream(record) << nlohmann::json{{"device", "Test GPU"}, {"commit", "abc1234"},
                                            {"date", "2026-01-02T03:04:05Z"}, {"copy_bandwidth_gbs", 1000.0},
                                            {"results", results}}.dump(2);
    auto solve = [](const std::string& name, const std::string& method, double ms, double residual,
                    const nlohmann::json& extra) {
        nlohmann::json j = {{"method", method}, {"matrix", "gen:pde:size=20"}, {"device", "Test GPU"},
                            {"commit", "abc1234"}, {"converged", true}, {"median_total_ms", ms},
                            {"iterations", 100}, {"final_relative_residual", residual},
                            {"rows", 8000}, {"nnz", 53600}, {"variant", "csr"}};
        j.update(extra);
        const auto path = tmp(name.c_str());
        std::ofstream(path) << j.dump(2);
        return path;
    };
    const auto dir = tmp("replicate_rule_solves");
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    solve("replicate_rule_solves/cg.json", "cg", 10.0, 1e-10, nlohmann::json::object());
    solve("replicate_rule_solves/rich.json", "mpir-cg", 8.0, 5e-11, {{"mpir_outer", "richardson"}});
    solve("replicate_rule_solves/pcg_old.json", "mpir-cg", 9.0, 5e-11,
          {{"mpir_outer", "pcg"}, {"inner_double_sums", true}, {"inner_sums", "double"}});
    const auto dist = tmp("replicate_rule_dist.json");
    std::ofstream(dist) << nlohmann::json{
        {"matrix", "gen:pde:size=20"}, {"ranks", 2}, {"exchange_path", "host-staged"},
        {"precision", "double"}, {"partition", "nnz"}, {"format", "csr"}, {"devices", "Test GPU"},
        {"commit", "abc1234"}, {"date", "2026-01-02T03:04:05Z"},
        {"modes", {{{"mode", "vector"}, {"median_us", 100.0}, {"single_process_us", 150.0}, {"gflops", 1.0}},
                   {{"mode", "overlap"}, {"median_us", 80.0}, {"single_process_us", 150.0}, {"gflops", 1.0}},
                   {{"mode", "task"}, {"median_us", 90.0}, {"single_process_us", 150.0}, {"gflops", 1.0}}}}}.dump(2);
    const auto out = tmp("replication_rule.md");
    const std::string args = "replicate " + record + " --matrices " + dir + " --solver-records " + dir +
                             " --dist-records " + dist + " --l2-mb 0.001 --latency-mb 0.0001 --out " + out;

    const auto r = spmvlab(args);

    INFO(r.out);
    REQUIRE(r.status == 0);
    std::ifstream f(out);
    const std::string md((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    INFO(md.substr(0, 4000));
    const auto k1 = claim_row(md, "K1");  // lower bound met, upper bound not: not "holds"
    CHECK(k1.find("≥ 0.91 on 2 of 2 (100 %), > 1.30 on 2") != std::string::npos);
    CHECK(k1.find("**does not hold**") != std::string::npos);
    // K3 in slots: onefull n = 1000: ELLPACK 10^6, pJDS 33 x 1000 - 32 = 32968: 96.7 %
    CHECK(claim_row(md, "K3").find("slots: up to 96.7 % (gen:onefull:n=1000)") != std::string::npos);
    const auto k7 = claim_row(md, "K7");  // the closed form, attained exactly
    CHECK(k7.find("gen:onefull:n=1000: pJDS 32968 = 1.00 × (b_r + 1) N − b_r") != std::string::npos);
    CHECK(k7.find("**holds**") != std::string::npos);
    CHECK(claim_row(md, "W4").find("(against our HYB reconstruction)**") != std::string::npos);
    CHECK(claim_row(md, "W6").find("(against our BiELL reconstruction)**") != std::string::npos);
    const auto c4 = claim_row(md, "C4");  // the project's refinement: 0.8x CG's time
    CHECK(c4.find("**ours:**") != std::string::npos);
    CHECK(c4.find("**holds**") != std::string::npos);
    // Cevahir as written: only old-code records (double inner sums) -> not measured
    CHECK(claim_row(md, "C4b").find("**not measured (awaiting re-measurement with float inner CG)**") !=
          std::string::npos);
    CHECK(md.find("old code (double inner sums)") != std::string::npos);
    CHECK(claim_row(md, "C6").find("**holds**") != std::string::npos);  // 5e-11 against 1e-10
    CHECK(claim_row(md, "K9").find("**holds**") != std::string::npos);  // task 90 µs, vector 100
    CHECK(claim_row(md, "K10").find("**not measured (no records with mode \"naive\"") !=
          std::string::npos);
    CHECK(claim_row(md, "K11").find("**not measured") != std::string::npos);

    // a float-inner record of Cevahir's algorithm, 1.2x CG's time: now measured, and slower
    solve("replicate_rule_solves/pcg_new.json", "mpir-cg", 12.0, 5e-11,
          {{"mpir_outer", "pcg"}, {"inner_double_sums", false}, {"inner_reductions", "float"}});
    REQUIRE(spmvlab(args).status == 0);
    std::ifstream f2(out);
    const std::string md2((std::istreambuf_iterator<char>(f2)), std::istreambuf_iterator<char>());
    CHECK(claim_row(md2, "C4b").find("**does not hold**") != std::string::npos);
}

TEST_CASE("replicate names a record file that does not exist or is not JSON", "[cli][replicate]")
{
    const auto bad = tmp("replicate_not_json.json");
    std::ofstream(bad) << "matrix,format\n";
    const auto empty = tmp("replicate_empty.json");
    std::ofstream(empty) << R"({"results": []})";

    const auto missing = spmvlab("replicate " + tmp("replicate_nowhere.json"));
    const auto garbled = spmvlab("replicate " + bad);
    const auto solver = spmvlab("replicate " + empty + " --solver-records " + bad);

    CHECK(missing.status == 1);
    CHECK(missing.out.find("replicate_nowhere.json: cannot open") != std::string::npos);
    CHECK(garbled.status == 1);
    CHECK(garbled.out.find("replicate_not_json.json: not a JSON file") != std::string::npos);
    CHECK(solver.status == 1);
    CHECK(solver.out.find("replicate_not_json.json") != std::string::npos);
}
