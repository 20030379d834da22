// spmvlab dist verify / bench / solve with per-rank input (issue 36): a Matrix Market file is
// read by every rank for its own rows (spmv::dist::read_matrix_market_parallel), the reference
// of dist verify taken per rank; a bad line near the end of the file ends every rank with the
// file and the line, within seconds; the memory budget applies to one rank's share. Under
// mpiexec -n 1..4 (skipped, visibly, in a build without MPI).
#include <fstream>
#include <regex>
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
using spmv::test::run;
using spmv::test::tmp;

namespace {

/// spmvlab (one process) that must succeed, e.g. to write a test matrix.
void make(const std::string& args)
{
    const auto r = run("", args);
    INFO(args << "\n" << r.out);
    REQUIRE(r.status == 0);
}

/// tmp(name), written by spmvlab generate pde --size `size` (which must succeed): the path.
std::string pde_file(const std::string& name, int size)
{
    const auto path = tmp(name);
    make("generate pde --size " + std::to_string(size) + " -o " + path);
    return path;
}

/// The relative errors of a dist verify record, one per mode.
std::vector<double> errors_of(const std::string& json)
{
    std::vector<double> e;
    const auto j = read_json(json);  // kept: a range-for over a temporary's member dangles
    for (const auto& m : j["modes"]) {
        CHECK(m["ok"] == true);
        e.push_back(m["relative_error"].get<double>());
    }
    return e;
}

}  // namespace

namespace {

/// One file, written by `write` (a spmvlab command that must succeed) as tmp(name + ".mtx"):
/// dist verify reads it per rank on 1 to 4 ranks, nnz and rows partitions, and agrees with the
/// root path; `spec`, when given, is the same matrix generated per rank. One test case per file
/// kind, so that CTest runs them side by side (each is ~30 runs of spmvlab under mpiexec).
void per_rank_agrees_with_root(const std::string& name, const std::string& spec,
                               const std::string& write)
{
    if (mpiexec(1).empty()) {
        SPMV_SKIP("this build has no MPI");
    }
    make(write);
    const auto file = tmp(name + ".mtx");
    // the root path for the same file: rank 0 reads it whole, takes the reference of the
    // whole matrix and sends each rank its rows (as before per-rank input)
    const auto root_json = tmp(name + "_root.json");
    const auto root =
        run(mpiexec(3), "dist verify " + file + " --load root --json-out " + root_json);
    INFO(name << " root path:\n" << root.out);
    REQUIRE(root.status == 0);
    CHECK(root.out.find("input: rank 0 reads " + name + ".mtx whole and sends each "
                        "rank its rows (--load root)") != std::string::npos);
    const auto root_err = errors_of(root_json);
    for (int n = 1; n <= 4; ++n) {
        for (const char* partition : {"nnz", "rows"}) {
            const auto json = tmp(name + "_" + std::to_string(n) + partition + ".json");
            const auto r = run(mpiexec(n), "dist verify " + file + " --partition " + partition +
                                               " --mode all --json-out " + json);
            INFO(name << " on " << n << " rank(s), " << partition << ":\n" << r.out);
            REQUIRE(r.status == 0);
            CHECK(r.out.find("read per rank (" + std::to_string(n) + " rank(s)") !=
                  std::string::npos);
            const auto j = read_json(json);
            CHECK(j["ranks"] == n);
            CHECK(j["partition"] == partition);
            const auto err = errors_of(json);
            REQUIRE(err.size() == 4);
            for (const double e : err) {
                // the same magnitude as the root path's: both rounding noise of a double
                // product, far below the tolerance (a wrong row, column or expansion gives an
                // error of order 1)
                CHECK(e < 1e-14);
                CHECK(e <= std::max(100 * root_err.front(), 1e-15));
            }
        }
    }
    if (!spec.empty()) {  // and the generated matrix itself, each rank its rows
        const auto json = tmp(name + "_spec.json");
        const auto r = run(mpiexec(3), "dist verify " + spec + " --json-out " + json);
        INFO(r.out);
        REQUIRE(r.status == 0);
        CHECK(r.out.find("generated per rank (3 rank(s)") != std::string::npos);
        for (const double e : errors_of(json)) {
            CHECK(e < 1e-14);
        }
    }
}

}  // namespace

TEST_CASE("dist verify reads a general Matrix Market file per rank and agrees with the root path",
          "[cli_dist_input]")
{
    // values with 17 digits: the file holds the generated matrix exactly
    per_rank_agrees_with_root("general", "gen:powerlaw:rows=3000,max-len=60",
                              "convert gen:powerlaw:rows=3000,max-len=60 " + tmp("general.mtx"));
}

TEST_CASE("dist verify reads a symmetric Matrix Market file per rank and agrees with the root "
          "path", "[cli_dist_input]")
{
    // pde: the lower triangle, expanded by every rank on the way
    per_rank_agrees_with_root("symmetric", "gen:pde:size=14",
                              "generate pde --size 14 -o " + tmp("symmetric.mtx"));
}

TEST_CASE("dist verify reads a pattern Matrix Market file per rank and agrees with the root path",
          "[cli_dist_input]")
{
    // pattern: every value 1
    per_rank_agrees_with_root("pattern", "", "convert gen:banded --pattern " + tmp("pattern.mtx"));
}

TEST_CASE("dist verify --precision float per rank is within float rounding", "[cli_dist_input]")
{
    if (mpiexec(3).empty()) {
        SPMV_SKIP("this build has no MPI");
    }
    const auto file = pde_file("f32.mtx", 12);
    const auto json = tmp("f32.json");
    const auto r = run(mpiexec(3), "dist verify " + file +
                                       " --precision float --format sell --json-out " + json);
    INFO(r.out);
    REQUIRE(r.status == 0);
    for (const double e : errors_of(json)) {
        CHECK(e > 0.0);   // float values: not the double product
        CHECK(e < 1e-6);  // but one rounding of each value and sum
    }
}

TEST_CASE("A bad line near the end of the file ends every rank with the file and the line",
          "[cli_dist_input]")
{
    if (mpiexec(3).empty()) {
        SPMV_SKIP("this build has no MPI");
    }
    // issue 36's bar: a generated pde with one corrupt line in the last 1 % of the file
    const auto good = pde_file("good_pde.mtx", 30);
    std::vector<std::string> lines;
    {
        std::ifstream in(good);
        for (std::string l; std::getline(in, l);) {
            lines.push_back(l);
        }
    }
    REQUIRE(lines.size() > 50000);
    const std::size_t bad = lines.size() - lines.size() / 200;  // 0-based: line bad + 1
    INFO("corrupt line " << bad + 1 << " of " << lines.size() << ": " << lines[bad]);
    lines[bad] = lines[bad].substr(0, lines[bad].rfind(' ')) + " 1.0e+x";
    const auto path = tmp("BAD.mtx");
    {
        std::ofstream out(path);
        for (const auto& l : lines) {
            out << l << '\n';
        }
    }
    const auto r = run(mpiexec(3), "dist verify " + path);
    INFO(r.out);
    CHECK(r.status != 0);
    CHECK(r.status != 124);  // not the timeout
    CHECK(r.seconds < 30.0);
    CHECK(r.out.find("BAD.mtx:" + std::to_string(bad + 1) + ": value '1.0e+x' is not a number") !=
          std::string::npos);
    CHECK(r.out.find("rank 2 of 3 failed") != std::string::npos);  // the last range's reader
    // ranks 1 and 2 name it too, each in its own line (rank 0 printed it whole)
    for (int k = 1; k < 3; ++k) {
        const std::string line = "spmvlab: rank " + std::to_string(k) + " of 3 stops: ";
        const auto at = r.out.find(line);
        REQUIRE(at != std::string::npos);
        const auto eol = r.out.find('\n', at);
        CHECK(r.out.substr(at, eol - at).find("BAD.mtx:" + std::to_string(bad + 1) + ":") !=
              std::string::npos);
    }
    // every rank's own exit status, each printed by a shell around it (which then exits 0, so
    // that mpiexec does not end the others before they print theirs)
    const std::string each =
        "sh -c '\"$0\" \"$@\"; echo \"rank $OMPI_COMM_WORLD_RANK exit $?\"'";
    const auto w = run(mpiexec(3) + " " + each, "dist verify " + path);
    INFO(w.out);
    CHECK(w.seconds < 30.0);
    for (int k = 0; k < 3; ++k) {
        const std::regex exit_line("rank " + std::to_string(k) + " exit ([0-9]+)");
        std::smatch m;
        REQUIRE(std::regex_search(w.out, m, exit_line));
        CHECK(std::stoi(m[1]) != 0);
    }
}

TEST_CASE("The memory budget of dist verify applies to one rank's share of the file",
          "[cli_dist_input]")
{
    if (mpiexec(4).empty()) {
        SPMV_SKIP("this build has no MPI");
    }
    // 64,000 rows, 251,200 lines, 438,400 nonzeros
    const auto file = pde_file("budget_pde.mtx", 40);
    // one rank's share is the whole file: its estimate (28.5 MiB: the entries as they arrive
    // and sorted into rows, the rows' pointers, one round's buffers) is over 20 MiB ...
    const auto one = run(mpiexec(1), "dist verify " + file + " --max-memory 20M --mode vector");
    INFO(one.out);
    CHECK(one.status != 0);
    CHECK(one.out.find("rank 0 of 1: reading its share of " + file) != std::string::npos);
    CHECK(one.out.find("about 502400 entries after symmetric expansion") != std::string::npos);
    // ... a quarter of it fits (15.0 MiB), and so do the rank's blocks
    const auto four = run(mpiexec(4), "dist verify " + file + " --max-memory 20M --mode vector");
    INFO(four.out);
    CHECK(four.status == 0);
    CHECK(four.out.find("OK") != std::string::npos);
    // a budget too small for a rank's share names the rank, its rows and its estimate
    const auto tiny = run(mpiexec(2), "dist verify " + file + " --max-memory 1M");
    INFO(tiny.out);
    CHECK(tiny.status != 0);
    CHECK(tiny.out.find("rank 0 of 2 failed: rank 0 of 2: reading its share of " + file +
                        " (64000 x 64000, 251200 entries: rows 0 to 31999, about 251200 "
                        "entries after symmetric expansion) would need ") != std::string::npos);
    CHECK(tiny.out.find("the memory limit is 1.00 MiB (--max-memory 1M)") != std::string::npos);
}

TEST_CASE("dist solve and bench read a file per rank, as the root path solves and models it",
          "[cli_dist_input]")
{
    if (mpiexec(2).empty()) {
        SPMV_SKIP("this build has no MPI");
    }
    const auto file = pde_file("solve_pde.mtx", 12);
    const auto sj = tmp("solve.json");
    const auto s = run(mpiexec(3), "dist solve " + file + " --json-out " + sj);
    INFO(s.out);
    REQUIRE(s.status == 0);
    CHECK(s.out.find("read per rank") != std::string::npos);
    const auto j = read_json(sj);
    CHECK(j["status"] == "converged");
    // the same solve through the root path takes the same iterations (same matrix, same b)
    const auto root =
        run(mpiexec(3), "dist solve " + file + " --load root --json-out " + tmp("solve_root.json"));
    INFO(root.out);
    REQUIRE(root.status == 0);
    CHECK(read_json(tmp("solve_root.json"))["iterations"] == j["iterations"]);

    const auto bj = tmp("bench.json");
    const auto b = run(mpiexec(2), "dist bench " + file + " --repeat 3 --json-out " + bj);
    INFO(b.out);
    REQUIRE(b.status == 0);
    CHECK(b.out.find("no predicted scaling") != std::string::npos);
    const auto bench = read_json(bj);
    // the model's statistics gathered from the ranks equal dist bench's root path's
    const auto rb = run(mpiexec(2), "dist bench " + file + " --load root --repeat 3 --json-out " +
                                        tmp("bench_root.json"));
    INFO(rb.out);
    REQUIRE(rb.status == 0);
    const auto root_bench = read_json(tmp("bench_root.json"));
    CHECK(bench["partition_stats"] == root_bench["partition_stats"]);
    CHECK(!bench.contains("predicted_scaling"));
    CHECK(root_bench.contains("predicted_scaling"));
    REQUIRE(bench["modes"].size() == root_bench["modes"].size());
    for (std::size_t k = 0; k < bench["modes"].size(); ++k) {
        CHECK(bench["modes"][k]["predicted_us"] == root_bench["modes"][k]["predicted_us"]);
    }
}
