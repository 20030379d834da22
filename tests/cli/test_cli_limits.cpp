// spmvlab end to end at its limits: files claiming 2e9 rows, the --max-memory budget over every
// format, formats estimated rather than built, write errors, and bench interrupted at random
// moments (part of the test_cli executable; see test_cli.cpp).
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>

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

TEST_CASE("A file claiming 2e9 rows or columns with one entry: every command refuses it "
          "before allocating for it", "[cli][memory]")
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
            CHECK(m.seconds < 30.0);  // a guard against a hang, not a speed target
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
    REQUIRE(j.size() == spmv::formats().size());  // every registered format
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
    REQUIRE(j["results"].size() == spmv::formats().size());  // every registered format
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
    const auto before = spmv::test::slurp(target);
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
    const auto after = spmv::test::slurp(target);
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
