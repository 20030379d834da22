// spmvlab dist end to end: plan without MPI, verify / bench / solve as one rank and under
// mpiexec, and the failures that must end every rank with a message, never a hang.
#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_run.hpp"
#include "skip.hpp"
#include "test_files.hpp"

using spmv::test::mpiexec;
using spmv::test::read_json;
using spmv::test::Run;
using spmv::test::run;
using spmv::test::sample;
using spmv::test::tmp;

namespace {

/// spmvlab as one process, with the 60 s limit.
Run spmvlab(const std::string& args) { return run("", args); }

const std::string canonical = sample("canonical4.mtx");

/// Every event of a timeline file names a rank of the run, a lane and a phase, and ends after
/// it begins (a recorder reading freed memory wrote garbage ranks once).
void check_timeline_file(const std::string& path, int ranks)
{
    const auto j = read_json(path);
    REQUIRE(j.is_array());
    for (const auto& t : j) {
        CHECK(t["num_ranks"] == ranks);
        REQUIRE(!t["events"].empty());
        for (const auto& e : t["events"]) {
            INFO(e.dump());
            CHECK(e["rank"].get<int>() >= 0);
            CHECK(e["rank"].get<int>() < ranks);
            const auto lane = e["lane"].get<std::string>();
            CHECK((lane == "compute" || lane == "comm" || lane == "gpu"));
            CHECK(e["phase"].get<std::string>() != "unknown");
            CHECK(e["iteration"].get<int>() >= 0);
            CHECK(e["end_us"].get<double>() >= e["begin_us"].get<double>());
        }
    }
}

}  // namespace

TEST_CASE("dist plan gives the canonical matrix's halo, communication matrix and prediction", "[cli_dist]")
{
    const auto out = tmp("plan.json");

    const auto r = spmvlab("dist plan " + canonical + " --ranks 2 --partition rows --scaling 1,2 --json-out " + out);

    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("MODEL, no run") != std::string::npos);
    const auto j = read_json(out);
    CHECK(j["model"] == true);
    CHECK(j["comm"] == nlohmann::json::array({0, 2, 2, 0}));
    CHECK(j["per_rank"][0]["halo"] == 2);
    CHECK(j["per_rank"][1]["nnz"] == 5);
    CHECK(j["per_rank"][0]["predicted_us"]["task"].get<double>() > 0.0);
    CHECK(j["scaling"].size() == 2);
    CHECK(j["meta"].contains("commit"));  // schema spmvlab/1: provenance in meta
    CHECK(j["meta"].contains("date"));
}

TEST_CASE("dist plan prices the fixed costs of the exchange path on GPU ranks", "[cli_dist]")
{
    // pde16 over 2 GPU ranks (H200 profile, CUDA IPC over nvlink4): the exchange's fixed cost
    // is the built-in cuda-ipc one (model.cpp's table), added to vector mode as it is; off
    // gives the model without it; five numbers give custom ones; host ranks have none.
    const std::string base = "dist plan gen:pde:size=16 --gpu --format csr --ranks 2 --partition "
                             "rows --exchange cuda-ipc --link nvlink4 --device H200 --scaling none";
    auto plan = [&](const std::string& extra, const std::string& name) {
        const auto out = tmp(name);
        const auto r = spmvlab(base + " " + extra + " --json-out " + out);
        INFO(r.out);
        REQUIRE(r.status == 0);
        return read_json(out);
    };
    const auto on = plan("", "plan_fixed_on.json");
    const auto off = plan("--fixed-costs off", "plan_fixed_off.json");
    const auto custom = plan("--fixed-costs 1,0,2,0,0", "plan_fixed_custom.json");
    // the built-in cuda-ipc constants (model.cpp), as the rank's terms show them
    const double exchange_us = on["per_rank"][0]["phases_us"]["fixed_exchange"].get<double>();
    const double sync_us = on["per_rank"][0]["phases_us"]["sync"].get<double>();
    CHECK(exchange_us == Approx(26.5));
    CHECK(sync_us == Approx(10.7));
    CHECK(off["fixed_costs"] == "none");
    CHECK(on["fixed_costs"].get<std::string>().find("cuda-ipc (exchange ") == 0);
    // one neighbour each: vector mode pays exchange_us, naive exchange_us + sync_us
    CHECK(on["predicted_us"]["vector"].get<double>() -
              off["predicted_us"]["vector"].get<double>() ==
          Approx(exchange_us));
    CHECK(on["predicted_us"]["naive"].get<double>() - off["predicted_us"]["naive"].get<double>() ==
          Approx(exchange_us + sync_us));
    CHECK(on["predicted_fixed_us"]["vector"].get<double>() == Approx(exchange_us));
    CHECK(off["predicted_fixed_us"]["naive"].get<double>() == 0.0);
    CHECK(custom["predicted_us"]["naive"].get<double>() -
              off["predicted_us"]["naive"].get<double>() ==
          Approx(3.0));
    // Kreutzer's eq. 2 beside it keeps the paper's terms only
    CHECK(on["predicted_kreutzer_us"] == off["predicted_kreutzer_us"]);
    // host ranks: none
    const auto host = spmvlab("dist plan gen:pde:size=16 --ranks 2 --scaling none");
    CHECK(host.out.find("fixed costs: none") != std::string::npos);
    for (const char* bad : {"--fixed-costs sometimes", "--fixed-costs 1,2,3",
                            "--fixed-costs 1,2,x,4,5", "--fixed-costs 1,-2,3,4,5",
                            "--fixed-costs 1,2,nan,4,5", "--fixed-costs 1,2,3,4,5e999"}) {
        const auto r = spmvlab(base + " " + bad);
        INFO(bad << "\n" << r.out);
        CHECK(r.status != 0);
        CHECK(r.out.find("fixed") != std::string::npos);
    }
}

TEST_CASE("dist plan predicts weak scaling with about k^3 rows per rank", "[cli_dist]")
{
    const auto out = tmp("weak.json");

    const auto r = spmvlab("dist plan gen:pde:size=8 --ranks 2 --scaling 1,8 --weak 6 --json-out " + out);

    INFO(r.out);
    REQUIRE(r.status == 0);
    const auto j = read_json(out);
    REQUIRE(j["weak_scaling"].size() == 2);
    CHECK(j["weak_scaling"][0]["rows"] == 216);   // 6^3
    CHECK(j["weak_scaling"][1]["rows"] == 1728);  // 8 ranks: a 12^3 grid
    CHECK(j["weak_scaling"][0]["efficiency_task"] == 1.0);
}

TEST_CASE("dist plan with more ranks than rows leaves the extra ranks empty", "[cli_dist]")
{
    const auto out = tmp("plan7.json");

    const auto r = spmvlab("dist plan " + canonical + " --ranks 7 --partition rows --scaling none --json-out " + out);

    INFO(r.out);
    REQUIRE(r.status == 0);
    const auto j = read_json(out);
    REQUIRE(j["per_rank"].size() == 7);
    CHECK(j["per_rank"][6]["rows"] == 0);
}

TEST_CASE("dist verify, bench and solve run as one rank without mpiexec", "[cli_dist]")
{
    const auto tl = tmp("bench_timeline");

    const auto v = spmvlab("dist verify gen:pde:size=10 --format sell --sigma 8");
    const auto bj = tmp("bench1.json");
    const auto b = spmvlab("dist bench gen:pde:size=10 --repeat 5 --timeline " + tl + " --json-out " + bj);
    const auto s = spmvlab("dist solve gen:pde:size=8 --method jacobi-cg");

    INFO(v.out << b.out << s.out);
    CHECK(v.status == 0);
    CHECK(v.out.find("task") != std::string::npos);
    CHECK(v.out.find("MISMATCH") == std::string::npos);
    CHECK(b.status == 0);
    CHECK(std::filesystem::exists(tl + ".svg"));
    CHECK(read_json(tl + ".json").size() == 4);  // one timeline per mode
    check_timeline_file(tl + ".json", 1);
    const auto j = read_json(bj);
    CHECK(j["model"]["link"] == "host-shm");
    REQUIRE(j["modes"].size() == 4);
    for (const auto& m : j["modes"]) {
        CHECK(m["median_us"].get<double>() > 0.0);
        CHECK(m["predicted_us"].get<double>() > 0.0);  // the model next to the measurement
    }
    CHECK(j["ranks"] == 1);
    CHECK(j["meta"].contains("commit"));
    CHECK(s.status == 0);
    CHECK(s.out.find("status converged") != std::string::npos);
}

TEST_CASE("dist refuses a bad mode and GPU ranks without a GPU with a message", "[cli_dist]")
{
    const auto m = spmvlab("dist verify gen:pde:size=6 --mode sideways");
    const auto g = spmvlab("dist verify gen:pde:size=6 --gpu");

    CHECK(m.status != 0);
    CHECK(m.out.find("sideways") != std::string::npos);
    if (g.status == 0) {
        SPMV_SKIP("the no-GPU check: this machine has a GPU");
    } else {
        CHECK(g.out.find("--gpu") != std::string::npos);
    }
}

TEST_CASE("dist verify under mpiexec agrees with the single-process product", "[cli_dist]")
{
    if (mpiexec(2).empty()) {
        SPMV_SKIP("this build has no MPI");
    }
    const auto out = tmp("verify3.json");

    const auto r = run(mpiexec(3), "dist verify gen:pde:size=12 --format pjds --br 4 --json-out " + out);

    INFO(r.out);
    CHECK(r.status == 0);
    const auto j = read_json(out);
    CHECK(j["ranks"] == 3);
    CHECK(j["exchange_path"] == "host");
    for (const auto& m : j["modes"]) {
        CHECK(m["ok"] == true);
        CHECK(m["relative_error"].get<double>() < 1e-12);
    }
}

TEST_CASE("dist verify --mode all checks Kreutzer's three modes and explicit overlap", "[cli_dist]")
{
    // issue 31's bar: mpiexec -n 2 spmvlab dist verify gen:pde:size=20 --mode all (CPU ranks)
    if (mpiexec(2).empty()) {
        SPMV_SKIP("this build has no MPI");
    }
    const auto out = tmp("verify_modes.json");

    const auto r = run(mpiexec(2), "dist verify gen:pde:size=20 --mode all --json-out " + out);

    INFO(r.out);
    CHECK(r.status == 0);
    CHECK(r.out.find("naive ") != std::string::npos);
    CHECK(r.out.find("MISMATCH") == std::string::npos);
    const auto j = read_json(out);
    CHECK(j["ranks"] == 2);
    CHECK(j["exchange_path"] == "host");
    REQUIRE(j["modes"].size() == 4);
    const std::vector<std::string> names{"vector", "naive", "overlap", "task"};
    for (std::size_t i = 0; i < names.size(); ++i) {
        CHECK(j["modes"][i]["mode"] == names[i]);
        CHECK(j["modes"][i]["ok"] == true);
        CHECK(j["modes"][i]["relative_error"].get<double>() < 1e-12);
    }
    // one mode by name, and a name that is not a mode
    const auto n = run(mpiexec(2), "dist verify gen:pde:size=8 --mode naive");
    INFO(n.out);
    CHECK(n.status == 0);
    CHECK(n.out.find("naive ") != std::string::npos);
    CHECK(n.out.find("task ") == std::string::npos);
}

TEST_CASE("dist --help says which mode is the paper's and which is the GPU era's", "[cli_dist]")
{
    const auto h = spmvlab("dist --help");
    const auto b = spmvlab("dist bench --help");

    INFO(h.out << b.out);
    CHECK(h.status == 0);
    for (const auto* text : {&h.out, &b.out}) {
        CHECK(text->find("naive overlap") != std::string::npos);
        CHECK(text->find("explicit overlap") != std::string::npos);
        CHECK(text->find("task mode") != std::string::npos);
        CHECK(text->find("84 %") != std::string::npos);  // Kreutzer Fig. 5b
        CHECK(text->find("host-staged") != std::string::npos);
    }
}

TEST_CASE("dist bench under mpiexec writes every rank's timeline events", "[cli_dist]")
{
    if (mpiexec(2).empty()) {
        SPMV_SKIP("this build has no MPI");
    }
    const auto tl = tmp("bench2_timeline");

    const auto r = run(mpiexec(2), "dist bench gen:pde:size=16 --repeat 5 --timeline " + tl);

    INFO(r.out);
    REQUIRE(r.status == 0);
    check_timeline_file(tl + ".json", 2);
    const auto j = read_json(tl + ".json");
    for (const auto& t : j) {
        int rank1 = 0;
        for (const auto& e : t["events"]) {
            rank1 += e["rank"] == 1 ? 1 : 0;
        }
        CHECK(rank1 > 0);  // the root merged the other rank's events
    }
}

TEST_CASE("A missing file under mpiexec ends every rank with the root's message, within seconds", "[cli_dist]")
{
    if (mpiexec(3).empty()) {
        SPMV_SKIP("this build has no MPI");
    }

    const auto r = run(mpiexec(3), "dist verify /nonexistent/matrix.mtx");

    INFO(r.out);
    CHECK(r.status != 0);
    CHECK(r.status != 124);  // not the timeout
    CHECK(r.out.find("rank 0 of 3 failed") != std::string::npos);
    CHECK(r.seconds < 30.0);
}

TEST_CASE("Distributed MPIR-CG under mpiexec converges and reports its record", "[cli_dist]")
{
    if (mpiexec(2).empty()) {
        SPMV_SKIP("this build has no MPI");
    }
    const auto out = tmp("solve2.json");

    const auto r = run(mpiexec(2), "dist solve gen:pde:size=10 --method mpir-cg --mode overlap --json-out " + out);

    INFO(r.out);
    CHECK(r.status == 0);
    const auto j = read_json(out);
    CHECK(j["status"] == "converged");
    CHECK(j["ranks"] == 2);
    CHECK(j["final_relative_residual"].get<double>() <= 1e-10);
    CHECK(j["outer_iterations"].get<int>() >= 2);
}

TEST_CASE("dist chart puts a bench record next to the model's strong scaling", "[cli_dist]")
{
    const int n = mpiexec(2).empty() ? 1 : 2;
    const auto rec = tmp("chart_bench.json");
    const auto plan = tmp("chart_plan.json");
    const auto svg = tmp("chart.svg");
    const auto table = tmp("chart_table.json");

    const auto b = run(n == 2 ? mpiexec(2) : std::string(),
                       "dist bench gen:pde:size=16 --repeat 5 --json-out " + rec);
    const auto p = spmvlab("dist plan gen:pde:size=16 --ranks " + std::to_string(n) +
                           " --link host-shm --scaling 1,2 --json-out " + plan);
    const auto c = spmvlab("dist chart " + rec + " --scaling 1,2,4 --svg " + svg + " --json-out " + table);

    INFO(b.out << p.out << c.out);
    REQUIRE(b.status == 0);
    REQUIRE(p.status == 0);
    REQUIRE(c.status == 0);
    const auto r = read_json(rec);
    const auto pl = read_json(plan);
    const auto t = read_json(table);
    double model_task = 0.0;
    for (const auto& s : pl["scaling"]) {
        if (s["ranks"] == n) model_task = s["task_us"];
    }
    REQUIRE(model_task > 0.0);
    int matched = 0;
    for (const auto& pt : t["points"]) {
        if (pt["mode"] != "task") continue;
        CHECK(pt["ranks"] == n);
        REQUIRE(r["modes"][3]["mode"] == "task");
        CHECK(pt["measured_us"].get<double>() == r["modes"][3]["median_us"].get<double>());
        // the chart's model (alpha = 1, host ranks over host-shm) is dist plan's
        CHECK(pt["model_alpha1_us"].get<double>() == Approx(model_task).epsilon(1e-9));
        CHECK(pt["model_alpha_min_us"].get<double>() < pt["model_alpha1_us"].get<double>());
        ++matched;
    }
    CHECK(matched == 1);
    std::ifstream f(svg);
    const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    CHECK(text.find("gen:pde:size=16") != std::string::npos);
    CHECK(text.find("<circle") != std::string::npos);

    // the model's GPU profile follows the recorded device (--device auto): H200 for an H200
    // record, H100 (said to be assumed) for a device without a profile, a name where given
    for (const auto& [device, expect] :
         std::vector<std::pair<std::string, std::string>>{
             {"NVIDIA H200", "model: H200 GPU profile"},
             {"Tesla V100-SXM2-32GB", "H100 (assumed: no profile for Tesla V100-SXM2-32GB)"}}) {
        auto g = r;
        g["devices"] = device;
        const auto gpu_rec = tmp("chart_gpu_rec.json");
        std::ofstream(gpu_rec) << g.dump();
        const auto a = spmvlab("dist chart " + gpu_rec);
        INFO(a.out);
        CHECK(a.status == 0);
        CHECK(a.out.find(expect) != std::string::npos);
        const auto named = spmvlab("dist chart " + gpu_rec + " --device C2050");
        CHECK(named.out.find("model: C2050 GPU profile (--device C2050)") != std::string::npos);
    }

    // a file that is not a bench record is refused with its name
    const auto bad = spmvlab("dist chart " + plan);
    CHECK(bad.status != 0);
    CHECK(bad.out.find("not a record of spmvlab dist bench") != std::string::npos);
}

TEST_CASE("dist verify, bench and solve --format auto run the advisor's choice as one rank",
          "[cli_dist][auto]")
{
    const auto vj = tmp("verify_auto.json");
    const auto v = spmvlab("dist verify gen:pde:size=10 --format auto --json-out " + vj);
    INFO(v.out);
    REQUIRE(v.status == 0);
    CHECK(spmv::test::occurrences(v.out, "format auto: ") == 1);
    CHECK(v.out.find("for the global matrix") != std::string::npos);
    CHECK(v.out.find("MISMATCH") == std::string::npos);
    const auto j = read_json(vj);
    REQUIRE(j.contains("auto_choice"));
    CHECK(j["format"] != "auto");
    CHECK(j["format"] == j["auto_choice"]["format"]);
    CHECK(j["auto_choice"]["precision"] == "double");
    CHECK(v.out.find("format " + j["format"].get<std::string>() + ", exchange") !=
          std::string::npos);
    REQUIRE(j["modes"].size() == 4);
    for (const auto& m : j["modes"]) {
        CHECK(m["ok"] == true);
    }

    const auto bj = tmp("bench_auto1.json");
    const auto b = spmvlab("dist bench gen:pde:size=10 --format auto --precision float --repeat 3 "
                           "--mode vector --json-out " + bj);
    INFO(b.out);
    CHECK(b.status == 0);
    CHECK(spmv::test::occurrences(b.out, "format auto: ") == 1);
    const auto jb = read_json(bj);
    CHECK(jb["format"] == jb["auto_choice"]["format"]);
    CHECK(jb["auto_choice"]["precision"] == "single");

    const auto sj = tmp("solve_auto1.json");
    const auto s = spmvlab("dist solve gen:pde:size=8 --format auto --json-out " + sj);
    INFO(s.out);
    CHECK(s.status == 0);
    CHECK(s.out.find("status converged") != std::string::npos);
    const auto js = read_json(sj);
    CHECK(js["format"] == js["auto_choice"]["format"]);

    // --variant auto picks a GPU kernel: host ranks refuse it with the reason
    const auto g = spmvlab("dist verify gen:pde:size=6 --variant auto");
    CHECK(g.status != 0);
    CHECK(g.out.find("--gpu") != std::string::npos);
}

TEST_CASE("dist verify --format auto under mpiexec: the root's one choice, printed once, agrees",
          "[cli_dist][auto]")
{
    if (mpiexec(2).empty()) {
        SPMV_SKIP("this build has no MPI");
    }
    const auto out = tmp("verify_auto2.json");

    const auto r = run(mpiexec(2), "dist verify gen:pde:size=12 --format auto --json-out " + out);

    INFO(r.out);
    CHECK(r.status == 0);
    CHECK(spmv::test::occurrences(r.out, "format auto: ") == 1);  // the root prints it, once
    const auto j = read_json(out);
    CHECK(j["ranks"] == 2);
    CHECK(j["format"] == j["auto_choice"]["format"]);
    for (const auto& m : j["modes"]) {
        CHECK(m["ok"] == true);
    }
}

TEST_CASE("Ranks started with different modes end at once with one message, never a hang",
          "[cli_dist]")
{
    if (mpiexec(2).empty()) {
        SPMV_SKIP("this build has no MPI");
    }
    // MPMD: rank 0 runs --mode vector, rank 1 --mode naive (before: both waited for ever in
    // different collectives)
    const std::string exe = MPIEXEC;
    const std::string prefix = "env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " +
                               exe + " --oversubscribe -n 1";

    const auto r = run(prefix, "dist verify gen:pde:size=8 --mode vector : -n 1 " +
                                   std::string(SPMVLAB_EXE) +
                                   " dist verify gen:pde:size=8 --mode naive");

    INFO(r.out);
    CHECK(r.status != 0);
    CHECK(r.status != 124);  // not the timeout
    CHECK(r.out.find("rank 1 of 2 failed: the ranks were started with different options: "
                     "--mode is 'naive' here and 'vector' on rank 0") != std::string::npos);
    std::size_t printed = 0;
    for (auto at = r.out.find("spmvlab: error"); at != std::string::npos;
         at = r.out.find("spmvlab: error", at + 1)) {
        ++printed;
    }
    CHECK(printed == 1);  // rank 0 prints what every rank agreed on
    CHECK(r.seconds < 30.0);
}

TEST_CASE("Every rank's blocks are estimated against --max-memory before they are built",
          "[cli_dist][memory]")
{
    if (mpiexec(2).empty()) {
        SPMV_SKIP("this build has no MPI");
    }
    // SELL-1024-1 of one full row: each rank's first slice is padded to the full row's length
    // (before: 1.17 GB built past a 100M limit, exit 0); sigma auto resolves first the same way
    for (const char* sigma : {"1", "auto"}) {
        INFO("sigma " << sigma);
        const auto r = run(mpiexec(2), std::string("--max-memory 100M dist verify ") +
                                           "gen:onefull:n=46340 --mode vector --format sell "
                                           "--slice 1024 --sigma " + sigma);
        rusage ru{};
        getrusage(RUSAGE_CHILDREN, &ru);

        INFO(r.out);
        CHECK(r.status == 1);
        CHECK(r.out.find("sell blocks") != std::string::npos);
        CHECK(r.out.find("the memory limit is 100") != std::string::npos);
        CHECK(r.seconds < 30.0);
        CHECK(static_cast<double>(ru.ru_maxrss) / 1024.0 < 400.0);  // MiB, per process
    }
}

TEST_CASE("dist chart finds the matrix of a record made elsewhere with --matrices DIR",
          "[cli_dist]")
{
    // the record names its matrix by file name, as dist bench was given it in its directory
    const auto made = tmp("chart_elsewhere");
    std::filesystem::create_directories(made);
    std::filesystem::copy_file(sample("banded_1k.mtx"), made + "/chart_elsewhere_band.mtx",
                               std::filesystem::copy_options::overwrite_existing);
    const auto rec = tmp("chart_elsewhere.json");
    const auto table = tmp("chart_elsewhere_table.json");
    const auto b = spmvlab("dist bench " + made + "/chart_elsewhere_band.mtx --repeat 3 "
                           "--json-out " + rec);
    INFO(b.out);
    REQUIRE(b.status == 0);
    REQUIRE(read_json(rec)["matrix"] == "chart_elsewhere_band.mtx");

    const auto lost = spmvlab("dist chart " + rec);
    const auto found = spmvlab("dist chart " + rec + " --matrices " + tmp("no_such_dir") +
                               " --matrices " + made + " --json-out " + table);

    INFO(lost.out << found.out);
    CHECK(lost.status != 0);
    CHECK(lost.out.find(rec + ": matrix 'chart_elsewhere_band.mtx' not found in the working "
                        "directory; give the directory that holds it with --matrices DIR") !=
          std::string::npos);
    REQUIRE(found.status == 0);
    const auto t = read_json(table);
    REQUIRE_FALSE(t["points"].empty());
    for (const auto& p : t["points"]) {
        CHECK(p["matrix"] == "chart_elsewhere_band.mtx");
        CHECK(p["model_alpha1_us"].get<double>() > 0);
    }
}

TEST_CASE("dist chart's model is dist plan's for the same settings, fixed costs included",
          "[cli_dist]")
{
    // A bench record (one rank, host: any will do for the measured side) relabelled as 2 H200
    // ranks of SELL over CUDA IPC, rows partition; the chart's model at 2 ranks must then be
    // dist plan's prediction for gen:pde:size=16 --gpu --format sell --ranks 2 --partition rows
    // --exchange cuda-ipc --link nvlink4 (what --link auto takes for cuda-ipc) --device H200:
    // the per-format model of sell and cuda-ipc's fixed costs, mode by mode; --fixed-costs off
    // and custom values alike.
    const auto made = tmp("chart_plan_rec.json");
    const auto b = spmvlab("dist bench gen:pde:size=16 --format sell --partition rows --repeat 3 "
                           "--json-out " + made);
    INFO(b.out);
    REQUIRE(b.status == 0);
    auto rec = read_json(made);
    REQUIRE(rec["modes"].size() == 4);
    rec["ranks"] = 2;
    rec["devices"] = "NVIDIA H200";
    rec["exchange_path"] = "cuda-ipc";
    const auto gpu_rec = tmp("chart_plan_gpu_rec.json");
    std::ofstream(gpu_rec) << rec.dump();

    for (const std::string fixed : {"auto", "off", "1,2,3,4,5"}) {
        INFO("--fixed-costs " << fixed);
        const auto plan_json = tmp("chart_plan_plan.json");
        const auto chart_json = tmp("chart_plan_chart.json");
        const auto p = spmvlab("dist plan gen:pde:size=16 --gpu --format sell --ranks 2 "
                               "--partition rows --exchange cuda-ipc --link nvlink4 --device H200 "
                               "--scaling none --fixed-costs " + fixed + " --json-out " +
                               plan_json);
        const auto c = spmvlab("dist chart " + gpu_rec + " --scaling 1,2 --fixed-costs " + fixed +
                               " --json-out " + chart_json);
        INFO(p.out << c.out);
        REQUIRE(p.status == 0);
        REQUIRE(c.status == 0);
        const auto pl = read_json(plan_json);
        const auto ch = read_json(chart_json);
        CHECK(ch["fixed_costs_option"] == fixed);
        int matched = 0;
        for (const auto& pt : ch["points"]) {
            const auto mode = pt["mode"].get<std::string>();
            CHECK(pt["ranks"] == 2);
            CHECK(pt["exchange_path"] == "cuda-ipc");
            CHECK(pt["kernel_model"] == pl["kernel_model"]);
            CHECK(pt["fixed_costs"] == pl["fixed_costs"]);
            const double planned = pl["predicted_us"][mode].get<double>();
            CHECK(pt["model_alpha1_us"].get<double>() == Approx(planned).epsilon(1e-12));
            // the per-format model counts the gather of x itself: no band
            CHECK(pt["model_alpha_min_us"].get<double>() == pt["model_alpha1_us"].get<double>());
            ++matched;
        }
        CHECK(matched == 4);
        if (fixed == "auto") {
            CHECK(pl["fixed_costs"].get<std::string>().find("cuda-ipc (exchange 26.5 us") == 0);
            CHECK(pl["predicted_fixed_us"]["vector"].get<double>() > 0.0);
            CHECK(c.out.find("fixed costs cuda-ipc (exchange") != std::string::npos);
        } else if (fixed == "off") {
            CHECK(pl["fixed_costs"] == "none");
        }
    }
    // a bad value is refused before anything is charted
    const auto bad = spmvlab("dist chart " + gpu_rec + " --fixed-costs sometimes");
    CHECK(bad.status != 0);
    CHECK(bad.out.find("fixed") != std::string::npos);
}

TEST_CASE("A link given as bandwidth and latency prices as the named link with the same numbers",
          "[cli_dist][link]")
{
    // host-shm is 4.8 GB/s and 0.9 us (model.cpp); 4.8,0.9 must price every rank and mode the same
    const auto named = tmp("link_named.json");
    const auto custom = tmp("link_custom.json");
    const std::string plan = "dist plan gen:pde:size=10 --ranks 3 --scaling 1,2,4 --gpu --device H200";

    const auto a = spmvlab(plan + " --link host-shm --json-out " + named);
    const auto b = spmvlab(plan + " --link 4.8,0.9 --json-out " + custom);
    const auto other = spmvlab(plan + " --link 5,0.5 --json-out " + tmp("link_other.json"));

    INFO(a.out << b.out);
    REQUIRE(a.status == 0);
    REQUIRE(b.status == 0);
    REQUIRE(other.status == 0);
    const auto jn = read_json(named);
    const auto jc = read_json(custom);
    CHECK(jn["link"] == "host-shm");
    CHECK(jc["link"] == "custom (4.8 GB/s, 0.9 us)");
    CHECK(b.out.find("over custom (4.8 GB/s, 0.9 us)") != std::string::npos);
    CHECK(jc["predicted_us"] == jn["predicted_us"]);
    CHECK(jc["per_rank"] == jn["per_rank"]);
    CHECK(jc["scaling"] == jn["scaling"]);
    // and another bandwidth is another prediction (the comparison above can fail)
    CHECK(read_json(tmp("link_other.json"))["predicted_us"] != jn["predicted_us"]);

    // dist chart and dist bench take it too: the same model as the named link
    const auto rec = tmp("link_bench.json");
    const auto r = spmvlab("dist bench gen:pde:size=8 --repeat 3 --link 4.8,0.9 --json-out " + rec);
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(read_json(rec)["model"]["link"] == "custom (4.8 GB/s, 0.9 us)");
    const auto cn = spmvlab("dist chart " + rec + " --scaling 1,2 --link host-shm --json-out " +
                            tmp("link_chart_named.json"));
    const auto cc = spmvlab("dist chart " + rec + " --scaling 1,2 --link 4.8,0.9 --json-out " +
                            tmp("link_chart_custom.json"));
    REQUIRE(cn.status == 0);
    REQUIRE(cc.status == 0);
    const auto pn = read_json(tmp("link_chart_named.json"))["points"];
    const auto pc = read_json(tmp("link_chart_custom.json"))["points"];
    REQUIRE(pn.size() == pc.size());
    REQUIRE(!pn.empty());
    for (std::size_t i = 0; i < pn.size(); ++i) {
        CHECK(pc[i]["model_alpha1_us"] == pn[i]["model_alpha1_us"]);
        CHECK(pc[i]["model_alpha_min_us"] == pn[i]["model_alpha_min_us"]);
    }
}

TEST_CASE("A bad --link is refused with the option and the text, by plan, bench and chart",
          "[cli_dist][link]")
{
    for (const std::string cmd : {"dist plan gen:pde:size=6 --ranks 2", "dist bench gen:pde:size=6",
                                  "dist chart no_such_record.json"}) {
        for (const std::string bad : {"0,1", "x,1", "5", "10,-1", "10,inf", "10,"}) {
            const auto r = spmvlab(cmd + " --link " + bad);
            INFO(cmd << " --link " << bad << "\n" << r.out);
            CHECK(r.status != 0);
            CHECK(r.out.find("--link " + bad + ":") != std::string::npos);
            CHECK(r.out.find("BW,LAT") != std::string::npos);
        }
    }
    CHECK(spmvlab("dist plan gen:pde:size=6 --ranks 2 --link 0,1").out.find(
              "the bandwidth '0' is not a positive number") != std::string::npos);
    CHECK(spmvlab("dist plan gen:pde:size=6 --ranks 2 --link 5").out.find(
              "unknown link '5'") != std::string::npos);
}

TEST_CASE("dist link needs two ranks and refuses bad --sizes", "[cli_dist][link]")
{
    const auto one = spmvlab("dist link --sizes 8,64 --repeat 2");
    const auto bad = spmvlab("dist link --sizes 8,x");
    const auto frac = spmvlab("dist link --sizes 1.5K");
    const auto odd = spmvlab("dist link --sizes 12");

    INFO(one.out << bad.out << frac.out << odd.out);
    CHECK(one.status != 0);
    CHECK(one.out.find("needs at least 2 ranks") != std::string::npos);
    CHECK(bad.status != 0);
    CHECK(bad.out.find("--sizes 8,x: 'x' is not a size in bytes") != std::string::npos);
    CHECK(frac.status != 0);
    CHECK(frac.out.find("'1.5K'") != std::string::npos);
    CHECK(odd.status != 0);
    CHECK(odd.out.find("multiples of 8") != std::string::npos);
    if (!mpiexec(1).empty()) {
        const auto m1 = run(mpiexec(1), "dist link --sizes 8,64");
        CHECK(m1.status != 0);
        CHECK(m1.out.find("needs at least 2 ranks") != std::string::npos);
    }
}

TEST_CASE("dist link under mpiexec measures the chain, fits the link and plan takes its line",
          "[cli_dist][link]")
{
    if (mpiexec(3).empty()) {
        SPMV_SKIP("this build has no MPI");
    }
    const auto out = tmp("link3.json");

    const auto r = run(mpiexec(3), "dist link --sizes 8,4K,256K,1M --repeat 5 --json-out " + out);

    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("3 rank(s) on 1 host(s)") != std::string::npos);
    CHECK(r.out.find("host-shm link") != std::string::npos);
    const auto j = read_json(out);
    CHECK(j["meta"]["command"] == "dist link");
    CHECK(j["ranks"] == 3);
    CHECK(j["hosts"].size() == 3);
    CHECK(j["distinct_hosts"] == 1);
    CHECK(j["messages"] == 2);  // a middle rank: two neighbours
    REQUIRE(j["sizes"].size() == 4);
    CHECK(j["sizes"][1]["message_bytes"] == 4096);
    CHECK(j["sizes"][1]["bytes_counted"] == 8192);
    for (const auto& s : j["sizes"]) {
        CHECK(s["min_us"].get<double>() > 0.0);
        CHECK(s["median_us"].get<double>() >= s["min_us"].get<double>());
        CHECK(s["effective_gbs"].get<double>() ==
              Approx(s["bytes_counted"].get<double>() / (s["median_us"].get<double>() * 1e3)));
    }
    REQUIRE(j["fit"].is_object());
    CHECK(j["gpu"].is_null());
    if (j["fit"]["link_option"].is_string()) {
        // the printed line is what plan takes
        const auto line = j["fit"]["link_option"].get<std::string>();
        CHECK(r.out.find("use: " + line) != std::string::npos);
        const auto p = spmvlab("dist plan gen:pde:size=8 --ranks 3 " + line);
        INFO(p.out);
        CHECK(p.status == 0);
        CHECK(p.out.find("over custom (") != std::string::npos);
    } else {
        CHECK(r.out.find("no --link line") != std::string::npos);
    }
}

TEST_CASE("dist link --gpu measures the copies of one rank, or says why it cannot",
          "[cli_dist][link][gpu]")
{
    const auto out = tmp("link_gpu.json");

    const auto r = spmvlab("dist link --gpu --sizes 4K,1M --repeat 3 --json-out " + out);

    INFO(r.out);
    if (r.status != 0) {
        // no device here, or a build without CUDA: a clear error naming --gpu
        CHECK(r.out.find("dist link --gpu") != std::string::npos);
        CHECK((r.out.find("no CUDA device") != std::string::npos ||
               r.out.find("built without CUDA") != std::string::npos));
        SPMV_SKIP("no GPU here: dist link --gpu's pinned copies are not measured");
    }
    CHECK(r.out.find("pinned copies") != std::string::npos);
    CHECK(r.out.find("B_PCI") != std::string::npos);
    const auto j = read_json(out);
    REQUIRE(j["gpu"].is_object());
    REQUIRE(j["gpu"]["sizes"].size() == 2);
    CHECK(j["gpu"]["sizes"][0]["d2h"]["min_us"].get<double>() > 0.0);
    CHECK(j["gpu"]["sizes"][0]["staged"].is_null());  // one rank: the copies only
    CHECK(j["fit"].is_null());
}
