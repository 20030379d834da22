// The versioned output schema (issue 22, docs/output-schema.md): every command's JSON output,
// run on real inputs (sample_matrices/, generator specs), validated against schemas/ by
// tests/cli/validate_json.py with python3-jsonschema; the contract is exact (issue 35): every
// object level of every schema is closed ("unevaluatedProperties": false), and each output is
// validated again with an undeclared key added to each of its objects in turn, which must fail;
// the failed inputs of multi-input runs; the upgrade of unversioned records (the committed ones
// under docs/benchmarks/) to the current schema; and `report` on CPU, GPU and incomplete bench
// records.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <sys/wait.h>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <spmv/registry.hpp>

#include "meta.hpp"
#include "cli_run.hpp"
#include "skip.hpp"
#include "test_files.hpp"

namespace {

using spmv::test::Run;
using spmv::test::sample;
using spmv::test::shell;
using spmv::test::slurp;
using spmv::test::tmp;

/// Runs spmvlab; its standard output goes to `out` (when given), stderr is returned.
Run run_spmvlab(const std::string& args, const std::string& out = "")
{
    return shell(std::string(SPMVLAB_EXE) + " " + args +
                 (out.empty() ? " 2>&1" : " > " + out + " 2>/dev/null"));
}

/// A Python interpreter that can import jsonschema: $SPMV_PYTHON, /usr/bin/python3 (Debian's
/// python3-jsonschema), then python3 on PATH (which may be a pyenv one without it). Empty when
/// none can: the schema tests then skip, saying so.
const std::string& python()
{
    static const std::string found = [] {
        std::vector<std::string> candidates;
        if (const char* e = std::getenv("SPMV_PYTHON"); e != nullptr && *e != '\0') {
            candidates.emplace_back(e);
        }
        candidates.emplace_back("/usr/bin/python3");
        candidates.emplace_back("python3");
        for (const auto& c : candidates) {
            if (shell(c + " -c 'import jsonschema' 2>/dev/null").status == 0) {
                return c;
            }
        }
        return std::string();
    }();
    return found;
}

/// validate_json.py with `args` (stdout and stderr together).
Run validate_json(const std::string& args)
{
    return shell(python() + " " + SPMV_SOURCE_DIR + "/tests/cli/validate_json.py " + args +
                 " 2>&1");
}

/// Validates `files` against schemas/`schema`; the violations are the failure message.
/// `closed` (the outputs of the commands run here): also each file with an undeclared key added
/// to each of its objects in turn must fail, which proves every object level declares exactly
/// what is emitted. Off for the large committed records (quadratic in their size).
void validate(const std::string& schema, const std::vector<std::string>& files,
              bool closed = true)
{
    std::string cmd = std::string(closed ? "--closed " : "") + SPMV_SOURCE_DIR + "/schemas " +
                      schema;
    for (const auto& f : files) cmd += " " + f;
    const auto r = validate_json(cmd);
    INFO(schema << ":\n" << r.out);
    CHECK(r.status == 0);
}

/// `spmvlab ARGS` must exit 0, writing `file`; then its JSON is validated against `schema`.
void check_output(const std::string& schema, const std::string& args, const std::string& file)
{
    const auto r = run_spmvlab(args, file);
    INFO("spmvlab " << args << "\n" << r.out);
    REQUIRE(r.status == 0);
    validate(schema, {file});
}

nlohmann::json read(const std::string& path)
{
    std::ifstream in(path);
    REQUIRE(in.good());
    return nlohmann::json::parse(in);
}

/// A `bench --gpu`-shaped record whose times are the built-in model's predictions for
/// `inputs` (both precisions, every candidate variant) times `factor`, written to `file`:
/// calibrate's input where no GPU is.
void model_record(const std::string& inputs, const std::string& file, double factor = 1.0)
{
    const auto out = file + ".recommend.json";
    REQUIRE(run_spmvlab("recommend " + inputs + " --precision both --json", out).status == 0);
    const auto j = read(out);
    nlohmann::json rec = {{"device", "model"},
                          {"block_rows", 32},
                          {"slice_height", 32},
                          {"sigma", "auto"},
                          {"results", nlohmann::json::array()}};
    for (const auto& m : j["results"]) {
        for (const auto& r : m["ranking"]) {
            if (!r["candidate"].get<bool>()) continue;
            rec["results"].push_back(
                {{"matrix", m["matrix"]},
                 {"precision", m["precision"]},
                 {"format", r["variant"]},
                 {"median_ms", factor * r["predicted_us"].get<double>() / 1000.0},
                 {"error", ""}});
        }
    }
    std::ofstream(file) << rec.dump();
}

/// validate(), where a Python with jsonschema is (the tests calling it check more than that)
void validate_if_possible(const std::string& schema, const std::vector<std::string>& files)
{
    if (!python().empty()) validate(schema, files);
}

}  // namespace

#define SPMV_NEEDS_JSONSCHEMA()                                                             \
    if (python().empty())                                                                   \
    SPMV_SKIP(                                                                              \
        "no Python with the jsonschema module (apt-get install python3-jsonschema, or set " \
        "SPMV_PYTHON): the outputs are not validated against schemas/")

TEST_CASE("info, formats, reorder and model --json follow their schemas", "[cli][schema]")
{
    SPMV_NEEDS_JSONSCHEMA();
    check_output("info.schema.json", "info " + sample("canonical4.mtx") + " --json",
                 tmp("info.json"));
    check_output("info.schema.json", "info gen:pde:size=5 --json", tmp("info_gen.json"));
    check_output("formats.schema.json", "formats " + sample("pellr_fig5.mtx") + " --json",
                 tmp("formats.json"));
    check_output("reorder.schema.json", "reorder gen:pde:size=5 --json", tmp("reorder.json"));
    check_output("model.schema.json", "model " + sample("canonical4.mtx") + " --json",
                 tmp("model.json"));
    check_output("model.schema.json", "model --thresholds --precision both --json",
                 tmp("model_th.json"));
    check_output("model.schema.json", "model gen:pde:size=5 --thresholds --json",
                 tmp("model_both.json"));
    check_output("info.schema.json", "info gen:pde:size=3 " + sample("canonical4.mtx") + " --json",
                 tmp("info_two.json"));
    check_output("generate.schema.json", "generate pde --size 4 -o " + tmp("gen.mtx") + " --json",
                 tmp("generate.json"));
    check_output("convert.schema.json",
                 "convert " + tmp("gen.mtx") + " " + tmp("gen2.mtx") + " --json",
                 tmp("convert.json"));
    check_output("model.schema.json",
                 "model " + sample("pellr_fig5.mtx") +
                     " --format sell,csr_vector --gpu H100 --json",
                 tmp("model_format.json"));
    check_output("reorder.schema.json",
                 "reorder " + sample("banded_1k.mtx") + " --method nd --out " + tmp("nd.mtx") +
                     " --json",
                 tmp("reorder_nd.json"));
    // the values the schema pins
    const auto two = read(tmp("info_two.json"));  // several inputs: one object, "results"
    REQUIRE(two["results"].size() == 2);
    CHECK(two["meta"]["inputs"].size() == 2);
    const auto g = read(tmp("generate.json"));
    CHECK(g["matrix"] == "gen:pde:size=4");  // a spec that regenerates the file
    CHECK(read(tmp("convert.json"))["output"]["bytes"] ==
          std::filesystem::file_size(tmp("gen2.mtx")));
    const auto info = read(tmp("info.json"));
    CHECK(info["matrix"] == "canonical4.mtx");
    CHECK(info["meta"]["command"] == "info");
    CHECK(info["meta"]["inputs"][0]["bytes"] ==
          std::filesystem::file_size(sample("canonical4.mtx")));
    const auto gen = read(tmp("info_gen.json"));
    CHECK(gen["meta"]["inputs"][0]["spec"] == "gen:pde:size=5");
    CHECK(gen["meta"]["inputs"][0]["sha256"].is_null());
    const auto model = read(tmp("model_th.json"));
    CHECK(model["thresholds"][0]["precision"] == "double");
}

TEST_CASE("verify, bench and recommend --json follow their schemas", "[cli][schema]")
{
    SPMV_NEEDS_JSONSCHEMA();
    check_output(
        "verify.schema.json",
        "verify " + sample("canonical4.mtx") + " gen:pde:size=4 --formats csr,ell,sell --json",
        tmp("verify.json"));
    const auto rec = tmp("bench_rec.json");
    check_output("bench.schema.json",
                 "bench " + sample("canonical4.mtx") +
                     " gen:blocks5:block-rows=3,blocks=2 "
                     "--formats csr,ell --precision both --min-time 1 --json --json-out " +
                     rec,
                 tmp("bench.json"));
    validate("bench.schema.json", {rec});
    check_output("bench.schema.json", "bench gen:pde:size=5 --formats auto --min-time 1 --json",
                 tmp("bench_auto.json"));
    check_output("recommend.schema.json",
                 "recommend gen:pde:size=6 " + sample("canonical4.mtx") +
                     " --precision both --json --bench " + rec,
                 tmp("recommend.json"));
    const auto b = read(rec);
    CHECK(b["complete"] == true);
    CHECK(b["matrices"] == nlohmann::json({"canonical4.mtx", "gen:blocks5:block-rows=3,blocks=2"}));
    CHECK(b["results"][0]["precision"] == "double");
    CHECK(b["results"][1]["precision"] == "single");
    // the record lists what it read, with size and content hash where this build hashes
    const auto& in = b["meta"]["inputs"][0];
    CHECK(in["path"] == sample("canonical4.mtx"));
    if (in["sha256"].is_null()) {
        CHECK(in["sha256_note"].get<std::string>().find("OpenSSL") != std::string::npos);
    } else {
        CHECK(in["sha256"].get<std::string>().size() == 64);
    }
    CHECK(b["meta"]["command_line"][1] == "bench");
}

TEST_CASE("bench CSV is RFC 4180 with its header first, the meta in a sidecar", "[cli][schema]")
{
    const auto csv = tmp("schema.csv");
    std::filesystem::remove(csv);
    const auto r = run_spmvlab(
        "bench gen:blocks5:block-rows=3,blocks=2 --formats csr --min-time 1 "
        "--csv-out " +
        csv);
    INFO(r.out);
    REQUIRE(r.status == 0);
    std::ifstream f(csv, std::ios::binary);
    std::string header;
    std::getline(f, header);
    CHECK(header.rfind("matrix,rows,cols,nnz,format,precision,", 0) == 0);
    CHECK(header.back() == '\r');  // CRLF line ends (RFC 4180 section 2.1)
    std::string row;
    std::getline(f, row);
    CHECK(row.rfind("\"gen:blocks5:block-rows=3,blocks=2\",", 0) == 0);
    CHECK(row.find(",double,") != std::string::npos);
    const auto meta = read(csv + ".meta.json");
    CHECK(meta["meta"]["schema"] == "spmvlab/1");
    CHECK_FALSE(meta.contains("results"));
    if (python().empty()) {
        SPMV_SKIP("no Python with the jsonschema module: the sidecar is not validated");
    }
    validate("bench-csv-meta.schema.json", {csv + ".meta.json"});
    // the sidecar is not a bench record (no results), and a bench record is not a sidecar
    const auto as_record = validate_json(std::string(SPMV_SOURCE_DIR) +
                                         "/schemas bench.schema.json " + csv + ".meta.json");
    CHECK(as_record.status == 1);
    CHECK(as_record.out.find("'results' is a required property") != std::string::npos);
    const auto rec = tmp("schema_csv_rec.json");
    REQUIRE(run_spmvlab("bench gen:pde:size=3 --formats csr --min-time 1 --json-out " + rec,
                        "/dev/null")
                .status == 0);
    const auto as_sidecar =
        validate_json(std::string(SPMV_SOURCE_DIR) + "/schemas bench-csv-meta.schema.json " + rec);
    CHECK(as_sidecar.status == 1);
    CHECK(as_sidecar.out.find("'results' was unexpected") != std::string::npos);
}

TEST_CASE("solve and calibrate --constants-out follow their schemas", "[cli][schema]")
{
    SPMV_NEEDS_JSONSCHEMA();
    check_output("solve.schema.json", "solve " + sample("pde05.mtx") + " --json",
                 tmp("solve.json"));
    check_output("solve.schema.json", "solve gen:pde:size=5 --method mpir-cg --format auto --json",
                 tmp("solve_mpir.json"));
    check_output("solve.schema.json",
                 "solve gen:pde:size=5 --method mpir-cg --outer pcg --inner-maxit 8 --json",
                 tmp("solve_mpir_pcg.json"));
    check_output("solve.schema.json", "solve gen:pde:size=5 --method jacobi-cg --history --json",
                 tmp("solve_history.json"));
    CHECK(read(tmp("solve_history.json"))["residual_history"].size() > 1);
    // calibrate on records made from the model (as test_cli's calibrate test)
    const auto fit = tmp("schema_fit.json");
    const auto val = tmp("schema_val.json");
    model_record("gen:pde:size=14 gen:onefull:n=300", fit);
    model_record("gen:pde:size=11", val);
    const auto consts = tmp("schema_constants.json");
    const auto r = run_spmvlab("calibrate --fit " + fit + " --validate " + val + " --matrices " +
                               SPMV_TEST_TMP + " --constants-out " + consts);
    INFO(r.out);
    REQUIRE(r.status == 0);
    validate("calibrate.schema.json", {consts});
}

TEST_CASE("dist plan, verify, bench, solve, chart and link --json-out follow their schemas",
          "[cli][schema]")
{
    SPMV_NEEDS_JSONSCHEMA();
    auto run = [](const std::string& args) {
        const auto r = run_spmvlab(args, "/dev/null");
        INFO("spmvlab " << args << "\n" << r.out);
        REQUIRE(r.status == 0);
    };
    run("dist plan gen:pde:size=6 --ranks 2 --json-out " + tmp("dplan.json"));
    validate("dist-plan.schema.json", {tmp("dplan.json")});
    // GPU ranks: the per-format model and the fixed costs (kernel_model, fixed_costs,
    // predicted_fixed_us, per_rank phases_us)
    run("dist plan gen:pde:size=6 --ranks 2 --gpu --exchange cuda-ipc --json-out " +
        tmp("dplan_gpu.json"));
    validate("dist-plan.schema.json", {tmp("dplan_gpu.json")});
    run("dist plan gen:pde:size=6 --ranks 2 --format sell --scaling 1,2,4 --weak 4 --json-out " +
        tmp("dplan_weak.json"));
    validate("dist-plan.schema.json", {tmp("dplan_weak.json")});
    const auto plan = read(tmp("dplan_weak.json"));
    CHECK(plan["comm"].size() == 4);  // ranks x ranks
    CHECK(plan["scaling"].size() == 3);
    CHECK(plan["weak_scaling"].size() == 3);
    run("dist verify gen:pde:size=6 --json-out " + tmp("dverify.json"));
    validate("dist-verify.schema.json", {tmp("dverify.json")});
    run("dist bench gen:pde:size=6 --repeat 3 --precision float --json-out " + tmp("dbench.json"));
    validate("dist-bench.schema.json", {tmp("dbench.json")});
    run("dist solve gen:pde:size=6 --json-out " + tmp("dsolve.json"));
    validate("dist-solve.schema.json", {tmp("dsolve.json")});
    run("dist chart " + tmp("dbench.json") + " --scaling 1,2 --json-out " + tmp("dchart.json"));
    validate("dist-chart.schema.json", {tmp("dchart.json")});
    CHECK(read(tmp("dbench.json"))["precision"] == "single");
    run("dist solve gen:pde:size=6 --method mpir-cg --outer pcg --json-out " +
        tmp("dsolve_mpir.json"));
    validate("dist-solve.schema.json", {tmp("dsolve_mpir.json")});
    // the same under mpiexec -n 2 (as tests/cli/test_cli_dist.cpp runs them)
    const std::string exe = MPIEXEC;
    if (exe.empty()) {
        SPMV_SKIP("no MPI in this build: dist under mpiexec -n 2 is not validated");
    }
    const std::string mpi =
        "env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 " + exe +
        " -n 2 --oversubscribe " + SPMVLAB_EXE + " ";
    for (const auto& [args, file, schema] : std::vector<std::array<std::string, 3>>{
             {"dist verify gen:pde:size=8 --mode all", "mverify.json", "dist-verify.schema.json"},
             {"dist bench gen:pde:size=8 --repeat 3 --scaling 1,2", "mbench.json",
              "dist-bench.schema.json"},
             {"dist solve gen:pde:size=8 --method mpir-cg", "msolve.json",
              "dist-solve.schema.json"},
             {"dist link --sizes 8,4K,64K --repeat 3", "mlink.json", "dist-link.schema.json"}}) {
        const auto r = shell(mpi + args + " --json-out " + tmp(file) + " 2>&1");
        INFO("mpiexec -n 2 spmvlab " << args << "\n" << r.out);
        REQUIRE(r.status == 0);
        validate(schema, {tmp(file)});
        CHECK(read(tmp(file))["ranks"] == 2);
    }
    run("dist chart " + tmp("mbench.json") + " " + tmp("dbench.json") +
        " --scaling 1,2 --json-out " + tmp("mchart.json"));
    validate("dist-chart.schema.json", {tmp("mchart.json")});
}

TEST_CASE("GPU outputs follow their schemas", "[cli][schema][gpu]")
{
    SPMV_NEEDS_JSONSCHEMA();
    const auto bench = tmp("gpu_bench.json");
    const auto r = run_spmvlab("bench gen:pde:size=20 " + sample("powerlaw_2k.mtx") +
                                   " --gpu --formats csr_vector,sell,cusparse_csr_alg1 "
                                   "--precision both --basis both --min-time 1 --json",
                               bench);
    const auto why = run_spmvlab("bench gen:pde:size=4 --gpu --formats csr_vector --json");
    if (r.status != 0 && (why.out.find("no CUDA device") != std::string::npos ||
                          why.out.find("built without CUDA") != std::string::npos)) {
        SPMV_SKIP("no GPU here: the --gpu outputs are not validated");
    }
    REQUIRE(r.status == 0);
    validate("bench.schema.json", {bench});
    CHECK_FALSE(read(bench)["meta"]["gpu"].is_null());
    check_output("bench.schema.json",
                 "bench gen:pde:size=12 --gpu --formats auto --min-time 1 --json",
                 tmp("gpu_bench_auto.json"));
    check_output("verify.schema.json",
                 "verify gen:pde:size=10 --gpu --formats csr,sell,cusparse_csr_alg1 --json",
                 tmp("gpu_verify.json"));
    check_output("solve.schema.json", "solve gen:pde:size=10 --gpu --json", tmp("gpu_solve.json"));
    check_output("solve.schema.json",
                 "solve gen:pde:size=10 --gpu --method mpir-cg --format auto --variant auto "
                 "--history --json",
                 tmp("gpu_solve_auto.json"));
    check_output("recommend.schema.json", "recommend gen:pde:size=10 --bench " + bench + " --json",
                 tmp("gpu_recommend.json"));
    for (const auto& [args, file, schema] : std::vector<std::array<std::string, 3>>{
             {"dist verify gen:pde:size=8 --gpu --mode all", "gpu_dverify.json",
              "dist-verify.schema.json"},
             {"dist bench gen:pde:size=8 --gpu --repeat 3", "gpu_dbench.json",
              "dist-bench.schema.json"},
             {"dist solve gen:pde:size=8 --gpu --method mpir-cg", "gpu_dsolve.json",
              "dist-solve.schema.json"},
             {"dist link --gpu --sizes 4K,1M --repeat 3", "gpu_dlink.json",
              "dist-link.schema.json"}}) {
        const auto d = run_spmvlab(args + " --json-out " + tmp(file), "/dev/null");
        INFO("spmvlab " << args);
        REQUIRE(d.status == 0);
        validate(schema, {tmp(file)});
    }
}

TEST_CASE("GPU outputs recorded on an H200 follow the closed schemas", "[cli][schema]")
{
    // what the GPU paths emit, recorded on 2 x H200 (docs/benchmarks/gpu_json_2026-11-28,
    // scripts/experiments/s20.sh): validated on every run, so that a schema change rejecting a
    // GPU-only key fails on machines without a GPU too
    SPMV_NEEDS_JSONSCHEMA();
    const std::string dir = std::string(SPMV_SOURCE_DIR) + "/docs/benchmarks/gpu_json_2026-11-28/";
    const std::vector<std::pair<std::string, std::vector<std::string>>> records = {
        {"bench.schema.json", {"bench.json", "bench_auto.json"}},
        {"verify.schema.json", {"verify.json"}},
        {"solve.schema.json", {"solve.json", "solve_mpir.json"}},
        {"recommend.schema.json", {"recommend.json"}},
        {"dist-verify.schema.json", {"dist_verify.json", "dist2_verify.json"}},
        {"dist-bench.schema.json", {"dist_bench.json", "dist2_bench.json"}},
        {"dist-solve.schema.json", {"dist_solve.json", "dist2_solve.json"}}};
    for (const auto& [schema, names] : records) {
        std::vector<std::string> files;
        for (const auto& n : names) {
            REQUIRE(std::filesystem::exists(dir + n));  // missing data fails, never skips
            files.push_back(dir + n);
        }
        validate(schema, files);
    }
    // they are GPU records: a device that is not the host
    CHECK(read(dir + "bench.json")["device"].get<std::string>().find("H200") != std::string::npos);
}

TEST_CASE("bench's launch choices (launch_rules, matrix_loads, block_order) follow the closed "
          "schema",
          "[cli][schema]")
{
    // The keys `bench --gpu` adds since 2026-11-30 (cli/src/gpu_bridge.cpp: launch_rules_json,
    // matrix_loads_json), in their shapes, on a bench record of an H200: a GPU run validates what
    // the code emits ("GPU outputs follow their schemas"); this checks the schema without one.
    SPMV_NEEDS_JSONSCHEMA();
    const std::string dir = std::string(SPMV_SOURCE_DIR) + "/docs/benchmarks/gpu_json_2026-11-28/";
    REQUIRE(std::filesystem::exists(dir + "bench.json"));  // missing data fails, never skips
    auto doc = read(dir + "bench.json");
    REQUIRE(doc["results"].size() >= 2);
    doc["launch_rules"] = {{"l2_bytes", 62914560},
                           {"multiprocessors", 132},
                           {"threads_per_multiprocessor", 2048},
                           {"stream_loads", "auto"}};
    doc["results"][0]["matrix_loads"] = {{"streaming", true},
                                         {"setting", "auto"},
                                         {"matrix_bytes", 83800000},
                                         {"vector_bytes", 16000000},
                                         {"l2_bytes", 62914560},
                                         {"reason", "streaming: arrays + x + y 95.2 MiB > L2 60.0 MiB"}};
    doc["results"][1]["matrix_loads"] = {{"streaming", false},
                                         {"setting", "never"},
                                         {"matrix_bytes", 59280},
                                         {"vector_bytes", 7904},
                                         {"l2_bytes", nullptr},
                                         {"reason", "read-only: SPMV_STREAM_LOADS=never"}};
    doc["results"][0]["block_order"] = {{"widest_first", true},
                                        {"blocks", 3907},
                                        {"block_threads", 128},
                                        {"resident_blocks", 2112},
                                        {"reason", "widest first: 3907 blocks of 128 > 2112 resident"}};
    const auto good = tmp("launch_choices.json");
    std::ofstream(good) << doc.dump();
    validate("bench.schema.json", {good}, false);
    // a setting SPMV_STREAM_LOADS does not have, and a key the object does not declare, fail
    for (const auto& [where, key, value] :
         std::vector<std::tuple<std::string, std::string, nlohmann::json>>{
             {"/launch_rules", "stream_loads", "sometimes"},
             {"/results/0/matrix_loads", "setting", "ALWAYS"},
             {"/results/0/matrix_loads", "undeclared", 1},
             {"/results/0/block_order", "widest_first", "yes"},
             {"/results/0/block_order", "undeclared", 1},
             {"/launch_rules", "threads_per_multiprocessor", "2048"}}) {
        auto bad = doc;
        bad[nlohmann::json::json_pointer(where)][key] = value;
        const auto file = tmp("launch_choices_bad.json");
        std::ofstream(file) << bad.dump();
        const auto r = validate_json(std::string(SPMV_SOURCE_DIR) + "/schemas bench.schema.json " +
                                     file);
        INFO(where << "/" << key << "\n" << r.out);
        CHECK(r.status == 1);
    }
}

TEST_CASE("the schemas are closed: an undeclared key anywhere is a violation", "[cli][schema]")
{
    SPMV_NEEDS_JSONSCHEMA();
    const std::string dir = std::string(SPMV_SOURCE_DIR) + "/schemas";
    const auto lint = validate_json("--lint " + dir);
    INFO(lint.out);
    CHECK(lint.status == 0);
    // a schema with one object level left open is caught by the lint, by its path
    const auto open_dir = tmp("open_schemas");
    std::filesystem::create_directories(open_dir);
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        std::filesystem::copy_file(e.path(), open_dir + "/" + e.path().filename().string(),
                                   std::filesystem::copy_options::overwrite_existing);
    }
    auto info_schema = read(open_dir + "/info.schema.json");
    REQUIRE(info_schema["$defs"]["one"]["properties"]["row_length"].erase(
                "unevaluatedProperties") == 1);
    std::ofstream(open_dir + "/info.schema.json") << info_schema.dump(2);
    const auto open = validate_json("--lint " + open_dir);
    CHECK(open.status == 1);
    CHECK(open.out.find("info.schema.json: #/$defs/one/properties/row_length") !=
          std::string::npos);
    // an output with one key added, at the top, in meta, in an input and in a nested object
    REQUIRE(run_spmvlab("info " + sample("canonical4.mtx") + " --json", tmp("closed_info.json"))
                .status == 0);
    const auto good = read(tmp("closed_info.json"));
    for (const auto& where : {"", "/meta", "/meta/inputs/0", "/meta/host", "/histogram"}) {
        auto bad = good;
        bad[nlohmann::json::json_pointer(where)]["undeclared"] = 1;
        const auto file = tmp("closed_bad.json");
        std::ofstream(file) << bad.dump();
        const auto r = validate_json(dir + " info.schema.json " + file);
        INFO("a key added at '" << where << "'\n" << r.out);
        CHECK(r.status == 1);
        CHECK(r.out.find("'undeclared' was unexpected") != std::string::npos);
    }
    // --closed finds an open level of a schema that its lint would not see from the file alone
    const auto c = validate_json("--closed " + open_dir + " info.schema.json " +
                                 tmp("closed_info.json"));
    CHECK(c.status == 1);
    CHECK(c.out.find("at row_length: an undeclared key") != std::string::npos);
    // the format parameters declared are exactly the registry's (spmv::parameters())
    const auto meta_schema = read(dir + "/meta.schema.json");
    std::vector<std::string> declared, registry;
    for (const auto& [k, v] : meta_schema["$defs"]["params"]["properties"].items()) {
        declared.push_back(k);
    }
    for (const auto& p : spmv::parameters()) registry.emplace_back(p.name);
    std::sort(declared.begin(), declared.end());
    std::sort(registry.begin(), registry.end());
    CHECK(declared == registry);
}

TEST_CASE("a multi-input run lists each input it could not read, with the reason",
          "[cli][schema]")
{
    SPMV_NEEDS_JSONSCHEMA();
    const auto bad = tmp("unreadable.mtx");  // an entry outside the 3 x 3 matrix
    std::ofstream(bad) << "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n"
                          "9 9 2.0\n";
    auto check_failed = [&](const nlohmann::json& failed) {
        REQUIRE(failed.size() == 1);
        CHECK(failed[0]["input"] == bad);
        CHECK(failed[0]["matrix"] == "unreadable.mtx");
        CHECK(failed[0]["reason"].get<std::string>().find("row index 9 is out of range") !=
              std::string::npos);
    };
    struct Case {
        std::string args, schema, file;
    };
    const auto rec = tmp("failed_bench_rec.json");
    const auto csv = tmp("failed_bench.csv");
    for (const auto& c : std::vector<Case>{
             {"info gen:pde:size=4 " + bad + " --json", "info.schema.json", "failed_info.json"},
             {"bench gen:pde:size=4 " + bad + " --formats csr --min-time 1 --json --json-out " +
                  rec + " --csv-out " + csv,
              "bench.schema.json", "failed_bench.json"},
             {"recommend gen:pde:size=4 " + bad + " --json", "recommend.schema.json",
              "failed_recommend.json"},
             {"verify gen:pde:size=4 " + bad + " --formats csr --json", "verify.schema.json",
              "failed_verify.json"}}) {
        const auto r = run_spmvlab(c.args, tmp(c.file));
        INFO("spmvlab " << c.args);
        CHECK(r.status == 1);  // an input could not be read; the others' results are written
        validate(c.schema, {tmp(c.file)});
        const auto j = read(tmp(c.file));
        check_failed(j["failed"]);
        REQUIRE(!j["results"].empty());
        CHECK(j["results"][0]["matrix"] == "gen:pde:size=4");
    }
    validate("bench.schema.json", {rec});
    check_failed(read(rec)["failed"]);
    CHECK(read(rec)["matrices_unreadable"] == nlohmann::json({"unreadable.mtx"}));
    validate("bench-csv-meta.schema.json", {csv + ".meta.json"});
    check_failed(read(csv + ".meta.json")["failed"]);
    // nothing readable: info's results are empty, both inputs are in failed
    const auto r = run_spmvlab("info " + bad + " " + bad + " --json", tmp("failed_all.json"));
    CHECK(r.status == 1);
    validate("info.schema.json", {tmp("failed_all.json")});
    const auto all = read(tmp("failed_all.json"));
    CHECK(all["results"].empty());
    CHECK(all["failed"].size() == 2);
    // every input read: an empty list
    REQUIRE(run_spmvlab("info gen:pde:size=3 " + sample("canonical4.mtx") + " --json",
                        tmp("failed_none.json"))
                .status == 0);
    CHECK(read(tmp("failed_none.json"))["failed"] == nlohmann::json::array());
}

TEST_CASE("dist chart charts the records it can read and lists each bad one with its reason",
          "[cli][schema]")
{
    const auto good = tmp("chart_ok_bench.json");
    REQUIRE(run_spmvlab("dist bench gen:pde:size=8 --repeat 3 --json-out " + good, "/dev/null")
                .status == 0);
    const auto not_json = tmp("chart_bad_not_json.json");
    std::ofstream(not_json) << "ranks: 2\n";
    const auto other = tmp("chart_bad_info.json");  // another command's record
    REQUIRE(run_spmvlab("info gen:pde:size=4 --json", other).status == 0);
    const auto no_modes = tmp("chart_bad_no_modes.json");  // a dist bench record less "modes"
    auto cut = read(good);
    cut.erase("modes");
    std::ofstream(no_modes) << cut.dump();
    const auto lost = tmp("chart_bad_lost.json");  // a record whose matrix is nowhere
    auto moved = read(good);
    moved["matrix"] = "chart_nowhere.mtx";
    std::ofstream(lost) << moved.dump();
    const auto alone = tmp("chart_ok_alone.json");
    REQUIRE(run_spmvlab("dist chart " + good + " --scaling 1,2 --json-out " + alone, "/dev/null")
                .status == 0);

    const auto mixed = tmp("chart_mixed.json");
    const auto r = run_spmvlab("dist chart " + lost + " " + not_json + " " + good + " " + other +
                               " " + no_modes + " --scaling 1,2 --json-out " + mixed);

    INFO(r.out);
    CHECK(r.status == 1);  // spmvlab::exit_status::error: an input failed, the rest is charted
    CHECK(r.out.find("spmvlab: skipped " + not_json + ": not JSON") != std::string::npos);
    CHECK(r.out.find("spmvlab: skipped " + other + ": not a record of spmvlab dist bench "
                     "--json-out (a record of spmvlab info)") != std::string::npos);
    CHECK(r.out.find("spmvlab: skipped " + lost + ": matrix 'chart_nowhere.mtx' not found in the "
                     "working directory") != std::string::npos);
    CHECK(r.out.find("spmvlab dist chart: 4 record(s) could not be charted") != std::string::npos);
    validate_if_possible("dist-chart.schema.json", {mixed});
    const auto j = read(mixed);
    // the good record's points, exactly as when it is charted alone
    CHECK(j["points"] == read(alone)["points"]);
    REQUIRE(j["points"].size() == 4);  // one rank: its four modes
    for (const auto& p : j["points"]) CHECK(p["record"] == "chart_ok_bench.json");
    const auto& failed = j["failed"];
    REQUIRE(failed.size() == 4);  // in the order given
    CHECK(failed[0]["input"] == lost);
    CHECK(failed[0]["matrix"] == "chart_nowhere.mtx");
    CHECK(failed[0]["reason"] == "matrix 'chart_nowhere.mtx' not found in the working directory; "
                                 "give the directory that holds it with --matrices DIR");
    CHECK(failed[1]["input"] == not_json);
    CHECK(failed[1]["matrix"] == "chart_bad_not_json.json");  // no matrix named: the file's
    CHECK(failed[1]["reason"].get<std::string>().rfind("not JSON: ", 0) == 0);
    CHECK(failed[2]["input"] == other);
    CHECK(failed[2]["reason"] ==
          "not a record of spmvlab dist bench --json-out (a record of spmvlab info)");
    CHECK(failed[3]["input"] == no_modes);
    CHECK(failed[3]["matrix"] == "gen:pde:size=8");  // the record names its matrix
    CHECK(failed[3]["reason"] == "no \"modes\": not a record of spmvlab dist bench --json-out");
    CHECK(read(alone)["failed"] == nlohmann::json::array());

    // nothing to chart: a clear error, nothing written
    const auto none = tmp("chart_none.json");
    std::filesystem::remove(none);
    const auto n = run_spmvlab("dist chart " + not_json + " " + other + " --json-out " + none);
    INFO(n.out);
    CHECK(n.status == 1);
    CHECK(n.out.find("spmvlab: error: dist chart: none of the 2 record(s) could be charted") !=
          std::string::npos);
    CHECK_FALSE(std::filesystem::exists(none));
}

TEST_CASE("calibrate fits on the records it can read and lists each bad one with its reason",
          "[cli][schema]")
{
    const auto fit = tmp("cal_ok_fit.json");
    const auto val = tmp("cal_ok_val.json");
    model_record("gen:pde:size=14 gen:onefull:n=300", fit, 1.5);
    model_record("gen:pde:size=11", val, 1.5);
    const auto not_json = tmp("cal_bad_not_json.json");
    std::ofstream(not_json) << "{\"results\": [";
    const auto nowhere = tmp("cal_bad_nowhere.json");  // a matrix that is in no directory
    std::ofstream(nowhere) << R"({"results": [{"matrix": "nowhere.mtx", "precision": "dp", )"
                              R"("format": "csr", "median_ms": 1, "error": ""}]})";
    const auto no_time = tmp("cal_bad_no_time.json");  // a row without its time
    std::ofstream(no_time) << R"({"results": [{"matrix": "gen:pde:size=9", "precision": "dp", )"
                              R"("format": "csr", "error": ""}]})";
    const auto other = tmp("cal_bad_verify.json");  // another command's record
    REQUIRE(run_spmvlab("verify gen:pde:size=4 --formats csr --json", other).status == 0);
    const std::string dirs = std::string(" --matrices ") + SPMV_TEST_TMP;
    const auto alone = tmp("cal_ok_constants.json");
    REQUIRE(run_spmvlab("calibrate --fit " + fit + " --validate " + val + dirs +
                            " --constants-out " + alone, "/dev/null")
                .status == 0);

    const auto mixed = tmp("cal_mixed_constants.json");
    const auto table = tmp("cal_mixed.md");
    const auto r = run_spmvlab("calibrate --fit " + fit + " " + not_json + " " + nowhere +
                               " --validate " + no_time + " " + val + " " + other + dirs +
                               " --constants-out " + mixed + " --table-out " + table);

    INFO(r.out);
    CHECK(r.status == 1);  // spmvlab::exit_status::error: inputs skipped, the rest fitted
    CHECK(r.out.find("validation set (held out): 2 matrix x precision cases") != std::string::npos);
    CHECK(r.out.find("spmvlab: skipped " + nowhere + " (matrix nowhere.mtx): matrix "
                     "'nowhere.mtx' not found") != std::string::npos);
    CHECK(r.out.find("spmvlab calibrate: 4 input(s) skipped") != std::string::npos);
    validate_if_possible("calibrate.schema.json", {mixed});
    const auto j = read(mixed);
    const auto a = read(alone);
    // the constants of the good records alone
    for (const char* key : {"profile", "bandwidth_gbs", "l2_gbs", "issue_ps", "kernels"}) {
        INFO(key);
        CHECK(j[key] == a[key]);
    }
    CHECK(j["source"].get<std::string>().find("calibrate") != std::string::npos);
    const auto& failed = j["failed"];
    REQUIRE(failed.size() == 4);  // --fit's, then --validate's, each in order
    CHECK(failed[0]["input"] == not_json);
    CHECK(failed[0]["reason"].get<std::string>().rfind("not a JSON file", 0) == 0);
    CHECK(failed[1]["input"] == nowhere);
    CHECK(failed[1]["matrix"] == "nowhere.mtx");
    CHECK(failed[1]["reason"] == "matrix 'nowhere.mtx' not found in --matrices directories");
    CHECK(failed[2]["input"] == no_time);
    CHECK(failed[2]["reason"] == "results[0] (csr): no number \"median_ms\": not a record of "
                                 "spmvlab bench --gpu --json-out");
    CHECK(failed[3]["input"] == other);
    CHECK(failed[3]["reason"] ==
          "not a record of spmvlab bench --gpu --json-out (a record of spmvlab verify)");
    CHECK(a["failed"] == nlohmann::json::array());
    const auto md = slurp(table);
    CHECK(md.find("## Skipped inputs") != std::string::npos);
    CHECK(md.find("| " + nowhere + " | nowhere.mtx | matrix 'nowhere.mtx' not found") !=
          std::string::npos);

    // no --fit record readable: a clear error, nothing written
    const auto none = tmp("cal_none_constants.json");
    std::filesystem::remove(none);
    const auto n = run_spmvlab("calibrate --fit " + not_json + " " + nowhere + " --validate " +
                               val + dirs + " --constants-out " + none);
    INFO(n.out);
    CHECK(n.status == 1);
    CHECK(n.out.find("spmvlab: error: calibrate: no sample of a modelled variant in the 2 --fit "
                     "record(s) (2 input(s) skipped: the reasons are above); nothing written") !=
          std::string::npos);
    CHECK_FALSE(std::filesystem::exists(none));
}

TEST_CASE("info --json carries the collection's name and id, as its text does", "[cli][schema]")
{
    SPMV_NEEDS_JSONSCHEMA();
    const auto file = tmp("collection.mtx");
    std::ofstream(file) << "%%MatrixMarket matrix coordinate real general\n"
                           "%-------------------------------------------------------------\n"
                           "% UF Sparse Matrix Collection, Tim Davis\n"
                           "% name: HB/test3\n"
                           "% id: 35\n"
                           "%-------------------------------------------------------------\n"
                           "3 3 3\n1 1 1.0\n2 2 2.0\n3 3 3.0\n";
    check_output("info.schema.json", "info " + file + " --json", tmp("collection.json"));
    const auto j = read(tmp("collection.json"));
    CHECK(j["collection"] == nlohmann::json({{"name", "HB/test3"}, {"id", 35}}));
    CHECK(j["compression"].is_null());
    CHECK(j["archive_member"].is_null());
    const auto text = run_spmvlab("info " + file);
    CHECK(text.out.find("SuiteSparse HB/test3 (id 35)") != std::string::npos);
    // not from the collection: null
    check_output("info.schema.json", "info " + sample("canonical4.mtx") + " --json",
                 tmp("no_collection.json"));
    CHECK(read(tmp("no_collection.json"))["collection"].is_null());
}

TEST_CASE("committed unversioned records upgrade to the current schema", "[cli][schema]")
{
    SPMV_NEEDS_JSONSCHEMA();
    const std::string root = std::string(SPMV_SOURCE_DIR) + "/docs/benchmarks/";
    struct Case {
        std::string path, command, schema;
    };
    const std::vector<Case> cases = {
        {"h100_2026-11-26/b/bench.json", "bench", "bench.schema.json"},
        {"h100_2026-11-26/large/bench.json", "bench", "bench.schema.json"},
        {"h100_2026-11-22/solver_breakdown/pde100_cg_base.json", "solve", "solve.schema.json"},
        {"cpu_2026-11-25/bench2_pde80_poll0.json", "dist bench", "dist-bench.schema.json"},
    };
    for (const auto& c : cases) {
        const auto path = root + c.path;
        if (!std::filesystem::exists(path)) {
            WARN("not in this checkout: " << path);
            continue;
        }
        std::ifstream in(path);
        const auto old = nlohmann::json::parse(in);
        REQUIRE_FALSE(old.contains("meta"));
        // the schema bites: the record as written (no meta, "dp", top-level commit) fails
        const auto raw = shell(python() + " " + SPMV_SOURCE_DIR + "/tests/cli/validate_json.py " +
                               SPMV_SOURCE_DIR + "/schemas " + c.schema + " " + path + " 2>&1");
        CHECK(raw.status == 1);
        CHECK(raw.out.find("'meta' is a required property") != std::string::npos);
        const auto up = spmvlab::upgrade_record(old, c.command);
        CHECK(up["meta"]["schema"] == "spmvlab/1");
        CHECK(up["meta"]["upgraded_from"] == "unversioned");
        CHECK(up["meta"]["commit"] == old["commit"]);
        CHECK(spmvlab::upgrade_record(up, c.command) == up);  // the current version as it is
        const auto out =
            tmp("upgraded_" + std::filesystem::path(c.path).parent_path().filename().string() +
                "_" + std::filesystem::path(c.path).filename().string());
        std::ofstream(out) << up.dump();
        validate(c.schema, {out}, false);
    }
    // every committed record of those kinds, by its shape (bench: "results"; solve: "method";
    // dist solve: "method" and "ranks"; dist bench / verify: "modes"; dist chart: "points")
    std::map<std::string, std::vector<std::string>> by_schema;
    int n = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
        if (e.path().extension() != ".json") continue;
        std::ifstream in(e.path());
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(in);
        } catch (const std::exception&) {
            continue;  // e.g. an empty record of a failed run
        }
        if (!j.is_object() || j.contains("meta")) continue;
        std::string command, schema;
        if (j.contains("results")) {
            command = "bench", schema = "bench.schema.json";
        } else if (j.contains("method")) {
            command = j.contains("ranks") ? "dist solve" : "solve";
            schema = j.contains("ranks") ? "dist-solve.schema.json" : "solve.schema.json";
        } else if (j.contains("modes") && j["modes"].is_array() && !j["modes"].empty()) {
            const bool bench = j["modes"][0].contains("median_us");
            command = bench ? "dist bench" : "dist verify";
            schema = bench ? "dist-bench.schema.json" : "dist-verify.schema.json";
        } else if (j.contains("points")) {
            command = "dist chart", schema = "dist-chart.schema.json";
        } else {
            continue;  // timelines, lists of other tools: not records of this schema
        }
        const auto out = tmp("committed_" + std::to_string(n++) + ".json");
        std::ofstream(out) << spmvlab::upgrade_record(j, command).dump();
        by_schema[schema].push_back(out);
    }
    CHECK(n > 100);
    for (const auto& [schema, files] : by_schema) validate(schema, files, false);
    // precision names and the time fields renamed by schema 1
    const auto up =
        spmvlab::upgrade_record({{"version", "spmvlab 0.1.0 (commit abc)"},
                                 {"timestamp", "2026-01-01T00:00:00Z"},
                                 {"total_ms_median", 2.5},
                                 {"results", {{{"precision", "sp"}}, {{"precision", "DP"}}}}},
                                "solve");
    CHECK(up["meta"]["tool_version"] == "0.1.0");
    CHECK(up["meta"]["date"] == "2026-01-01T00:00:00Z");
    CHECK(up["median_total_ms"] == 2.5);
    CHECK_FALSE(up.contains("total_ms_median"));
    CHECK(up["results"][0]["precision"] == "single");
    CHECK(up["results"][1]["precision"] == "double");
    // an array output of before (formats) becomes an object
    const auto arr =
        spmvlab::upgrade_record(nlohmann::json::array({{{"format", "csr"}}}), "formats");
    CHECK(arr["formats"][0]["format"] == "csr");
    // a newer schema is refused with a clear message
    nlohmann::json newer = {{"meta", {{"schema_version", 99}}}};
    CHECK_THROWS_WITH(spmvlab::upgrade_record(newer, "bench"), Catch::Contains("newer"));
}

TEST_CASE("report reads CPU bench records: fastest format vs CSR, no GPU numbers", "[cli][report]")
{
    const auto rec = tmp("report_cpu.json");
    REQUIRE(run_spmvlab("bench " + sample("canonical4.mtx") +
                            " gen:pde:size=5 --formats csr,ell,sell "
                            "--precision both --min-time 1 --json-out " +
                            rec,
                        "/dev/null")
                .status == 0);
    const auto r = run_spmvlab("report " + rec);
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("CPU record") != std::string::npos);
    CHECK(r.out.find("copy bandwidth 0") == std::string::npos);
    CHECK(r.out.find("json.exception") == std::string::npos);
    CHECK(r.out.find("### Double precision") != std::string::npos);
    CHECK(r.out.find("### Single precision") != std::string::npos);
    CHECK(r.out.find("| gen:pde:size=5 | 125 | 725 |") != std::string::npos);
    CHECK(r.out.find("INCOMPLETE") == std::string::npos);
    // a CPU record of before the schema (precision "dp", no meta): read the same way
    auto old = read(rec);
    old.erase("meta");
    old["tool"] = "spmvlab 0.1.0 (commit old)";
    old["date"] = "2026-11-25T00:00:00Z";
    old["commit"] = "old";
    old["precision"] = "both";
    for (auto& row : old["results"]) row["precision"] = row["precision"] == "double" ? "dp" : "sp";
    std::ofstream(tmp("report_cpu_old.json")) << old.dump();
    const auto o = run_spmvlab("report " + tmp("report_cpu_old.json"));
    INFO(o.out);
    REQUIRE(o.status == 0);
    CHECK(o.out.find("commit `old`") != std::string::npos);
    CHECK(o.out.find("unversioned") != std::string::npos);
    CHECK(o.out.find("| gen:pde:size=5 | 125 | 725 |") != std::string::npos);
}

TEST_CASE("report says what an incomplete record lacks, and survives missing fields",
          "[cli][report]")
{
    const auto rec = tmp("report_incomplete.json");
    REQUIRE(run_spmvlab("bench " + sample("canonical4.mtx") +
                            " gen:pde:size=4 --formats csr,ell "
                            "--min-time 1 --json-out " +
                            rec,
                        "/dev/null")
                .status == 0);
    auto j = read(rec);
    // as a run stopped after its first matrix, and one row of it lost
    j["complete"] = false;
    j["matrices_done"] = 1;
    nlohmann::json kept = nlohmann::json::array();
    for (const auto& row : j["results"]) {
        if (row["matrix"] == "canonical4.mtx" && row["format"] == "csr") kept.push_back(row);
    }
    kept[0].erase("gflops");  // a field missing: "-" or left out, never an exception
    kept[0].erase("rows");
    j["results"] = kept;
    std::ofstream(rec) << j.dump();
    const auto r = run_spmvlab("report " + rec);
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("INCOMPLETE record") != std::string::npos);
    CHECK(r.out.find("1 of 2 matrices done") != std::string::npos);
    CHECK(r.out.find("matrices missing: gen:pde:size=4") != std::string::npos);
    CHECK(r.out.find("json.exception") == std::string::npos);
    // no "matrices" list (a record of before the schema): it says it cannot tell which
    j.erase("matrices");
    std::ofstream(rec) << j.dump();
    const auto o = run_spmvlab("report " + rec);
    INFO(o.out);
    REQUIRE(o.status == 0);
    CHECK(o.out.find("which matrices are missing is not recorded") != std::string::npos);
    // not a bench record at all: a plain error, exit 1
    std::ofstream(tmp("report_not.json")) << R"({"rows": 3})";
    const auto n = run_spmvlab("report " + tmp("report_not.json"));
    CHECK(n.status == 1);
    CHECK(n.out.find("no \"results\" array") != std::string::npos);
}

TEST_CASE("report on committed GPU records keeps its comparisons", "[cli][report]")
{
    const auto path =
        std::string(SPMV_SOURCE_DIR) + "/docs/benchmarks/h100_2026-11-26/b/bench.json";
    if (!std::filesystem::exists(path)) {
        SPMV_SKIP("not in this checkout: " << path);
    }
    const auto r = run_spmvlab("report " + path);
    INFO(r.out.substr(0, 3000));
    REQUIRE(r.status == 0);
    CHECK(r.out.find("## NVIDIA H100") != std::string::npos);
    CHECK(r.out.find("measured device copy bandwidth 3012 GB/s") != std::string::npos);
    CHECK(r.out.find("read from an unversioned record") != std::string::npos);
    CHECK(r.out.find("| gent113.mtx | 113 | 655 | csr_adaptive | 0.3 |") != std::string::npos);
    CHECK(r.out.find("median speedup of the fastest own kernel over cuSPARSE CSR_ALG1") !=
          std::string::npos);
    CHECK(r.out.find("INCOMPLETE") == std::string::npos);
}
