// The memory budget covers every layout, parameters resolved first (issue 32): SELL-C-sigma
// with sigma = auto was built past --max-memory because its estimate refused sigma = 0 and the
// guard built anyway (544 MiB against 100M on gen:onefull:n=46340 with C = 1024).
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_run.hpp"

using spmv::test::measured;

namespace {

const std::string onefull = "gen:onefull:n=46340";
const std::string sell_auto = " --slice 1024 --sigma auto --max-memory 100M";

}  // namespace

TEST_CASE("formats skips SELL with sigma = auto by its estimate, without building it",
          "[cli][memory]")
{
    const auto m = measured("formats " + onefull + sell_auto + " --json");

    INFO(m.run.out);
    REQUIRE(m.run.status == 0);
    const auto j = nlohmann::json::parse(m.run.out.substr(m.run.out.find('{')));
    bool seen = false;
    for (const auto& f : j["formats"]) {
        if (f.value("format", "") == "sell") {
            seen = true;
            CHECK_THAT(f.value("error", ""), Catch::Contains("not built"));
            CHECK(f.value("estimated", false));
            CHECK(f["bytes"].get<double>() > 400e6);  // 1024 x 46340 slots of 12 bytes
        }
    }
    CHECK(seen);
    // the peak resident set shows that nothing was built; the time is only a guard against a
    // hang (a speed target would belong in a benchmark: this also runs under ASan on 2 cores)
    CHECK(m.seconds < 30.0);
    CHECK(m.peak_mib < 200.0);
}

TEST_CASE("verify skips SELL with sigma = auto by its estimate", "[cli][memory]")
{
    const auto m = measured("verify " + onefull + " --formats sell" + sell_auto);

    INFO(m.run.out);
    CHECK_THAT(m.run.out, Catch::Contains("not built") && Catch::Contains("100M"));
    CHECK(m.peak_mib < 200.0);
}

TEST_CASE("solve refuses SELL with sigma = auto by its estimate", "[cli][memory]")
{
    const auto m = measured("solve " + onefull + " --format sell" + sell_auto);

    INFO(m.run.out);
    CHECK(m.run.status != 0);
    CHECK_THAT(m.run.out, Catch::Contains("not built") || Catch::Contains("would need"));
    CHECK(m.peak_mib < 200.0);
}

TEST_CASE("bench skips SELL with sigma = auto by its estimate", "[cli][memory]")
{
    const auto m = measured("bench " + onefull + " --formats sell --min-time 1" + sell_auto);

    INFO(m.run.out);
    CHECK_THAT(m.run.out, Catch::Contains("not built"));
    CHECK(m.peak_mib < 200.0);
}

TEST_CASE("convert X - writes the matrix to the standard output, not to a file named -",
          "[cli]")
{
    const std::string dir = SPMV_TEST_TMP;
    spmv::test::shell("mkdir -p " + dir + " && rm -f " + dir + "/-");

    const auto r = spmv::test::shell("cd " + dir + " && " + SPMVLAB_EXE +
                                     " convert gen:pde:size=2 - 2>/dev/null");
    const auto both = spmv::test::shell("cd " + dir + " && " + SPMVLAB_EXE +
                                        " convert gen:pde:size=2 - --json 2>&1");

    REQUIRE(r.status == 0);
    CHECK(r.out.rfind("%%MatrixMarket matrix coordinate real general", 0) == 0);
    CHECK_THAT(r.out, Catch::Contains("8 8 32"));  // 2^3 rows, 8 + 2 * 12 entries
    CHECK(spmv::test::shell("test -e " + dir + "/- && echo yes || echo no").out == "no\n");
    CHECK(both.status != 0);
    CHECK_THAT(both.out, Catch::Contains("standard output"));
}

TEST_CASE("verify of a directory with an unreadable file exits 1, not the mismatch code 3",
          "[cli]")
{
    const std::string dir = std::string(SPMV_TEST_TMP) + "/verify_unreadable";
    spmv::test::shell("rm -rf " + dir + " && mkdir -p " + dir);
    spmv::test::shell("printf '%%%%MatrixMarket matrix coordinate real general\\n2 2 1\\n1 1 4\\n' > " +
                      dir + "/good.mtx");
    spmv::test::shell("printf '%%%%MatrixMarket matrix coordinate real general\\n2 2 1\\n9 1 4\\n' > " +
                      dir + "/bad.mtx");

    const auto r = spmv::test::spmvlab("verify " + dir + " --formats csr,ell");

    INFO(r.out);
    CHECK(r.status == 1);
    CHECK_THAT(r.out, Catch::Contains("bad.mtx"));
    CHECK_THAT(r.out, Catch::Contains("1 unreadable file(s)"));
}

TEST_CASE("bench --csv-out onto a path it cannot write leaves no sidecar behind", "[cli]")
{
    const std::string dir = std::string(SPMV_TEST_TMP) + "/csv_unwritable";
    spmv::test::shell("rm -rf " + dir + " && mkdir -p " + dir + "/x.csv");  // a directory

    const auto r = spmv::test::spmvlab("bench gen:pde:size=3 --formats csr --csv-out " + dir +
                                       "/x.csv");

    INFO(r.out);
    CHECK(r.status != 0);
    CHECK_THAT(r.out, Catch::Contains("x.csv"));
    CHECK(spmv::test::shell("ls " + dir).out == "x.csv\n");  // no x.csv.meta.json, no .partial
}

TEST_CASE("bench writes progress to FILE.partial and FILE only when complete, an unreadable "
          "input makes the record incomplete and is named",
          "[cli]")
{
    const std::string dir = std::string(SPMV_TEST_TMP) + "/bench_partial";
    spmv::test::shell("rm -rf " + dir + " && mkdir -p " + dir);
    spmv::test::shell("printf '%%%%MatrixMarket matrix coordinate real general\\n2 2 1\\n9 1 4\\n' > " +
                      dir + "/bad.mtx");

    const auto r = spmv::test::spmvlab("bench gen:pde:size=3 " + dir + "/bad.mtx --formats csr "
                                       "--min-time 1 --json-out " + dir + "/b.json");

    INFO(r.out);
    CHECK(r.status == 1);
    const auto files = spmv::test::shell("ls " + dir).out;
    CHECK(files == "b.json\nbad.mtx\n");  // the progress file is gone
    const auto j = nlohmann::json::parse(spmv::test::shell("cat " + dir + "/b.json").out);
    CHECK(j["complete"] == false);
    CHECK(j["matrices_done"] == 1);
    CHECK(j["matrices_total"] == 2);
    REQUIRE(j["matrices_unreadable"].size() == 1);
    CHECK_THAT(j["matrices_unreadable"][0].get<std::string>(), Catch::Contains("bad.mtx"));
}
