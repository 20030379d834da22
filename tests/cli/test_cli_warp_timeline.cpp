// spmvlab bench --gpu --warp-timeline FILE (issue 34): the clear error without --gpu, CUDA or a
// GPU; with a GPU, the file it writes read back by the explorer's reader and validated against
// schemas/warp-timeline.schema.json; the committed synthetic sample validated likewise.
#include <cstdlib>
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

#include <spmv/analysis/warp_timeline.hpp>

#include "cli_run.hpp"
#include "skip.hpp"
#include "test_files.hpp"

namespace {

using spmv::test::shell;
using spmv::test::spmvlab;
using spmv::test::tmp;

bool have_jsonschema()
{
    return shell("/usr/bin/python3 -c 'import jsonschema' 2>/dev/null").status == 0;
}

std::string validate(const std::string& file)
{
    const auto r = shell("/usr/bin/python3 " + std::string(SPMV_SOURCE_DIR) +
                         "/tests/cli/validate_json.py " + SPMV_SOURCE_DIR +
                         "/schemas warp-timeline.schema.json " + file + " 2>&1");
    return r.status == 0 ? std::string() : r.out;
}

const std::string sample =
    std::string(SPMV_SOURCE_DIR) + "/tests/gui/data/warp_timeline_synthetic.json";

}  // namespace

TEST_CASE("bench --warp-timeline needs --gpu, one matrix and one precision", "[cli]")
{
    const auto out = tmp("warps.json");
    std::filesystem::remove(out);

    const auto no_gpu = spmvlab("bench gen:powerlaw:rows=1000 --warp-timeline " + out);
    const auto both = spmvlab("bench gen:powerlaw:rows=1000 --gpu --precision both "
                              "--warp-timeline " + out);
    const auto two = spmvlab("bench gen:pde:size=4 gen:pde:size=5 --gpu --warp-timeline " + out);

    CHECK(no_gpu.status == 1);
    CHECK(no_gpu.out.find("--warp-timeline records the GPU's own warps: add --gpu") !=
          std::string::npos);
    CHECK(both.status == 1);
    CHECK(both.out.find("one precision") != std::string::npos);
    CHECK(two.status == 1);
    CHECK(two.out.find("traces one matrix; got 2 inputs") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(out));
}

TEST_CASE("bench --gpu --warp-timeline writes a timeline the explorer reads, or says why not",
          "[cli]")
{
    const auto out = tmp("warps_gpu.json");
    std::filesystem::remove(out);

    const auto r = spmvlab("bench gen:powerlaw:rows=20000,seed=3 --gpu --formats ellr,pjds "
                           "--warp-timeline " + out);

    INFO(r.out);
    if (r.out.find("no CUDA device") != std::string::npos ||
        r.out.find("built without CUDA") != std::string::npos) {
        // this machine: a clear error, a non-zero exit, no file
        CHECK(r.status == 1);
        CHECK_FALSE(std::filesystem::exists(out));
        SPMV_SKIP("no GPU here: only the error path of --warp-timeline was checked");
    }
    if (r.out.find("no warp recorder") != std::string::npos) {
        // a GPU, but kernels built without the recorder (the default): said, non-zero, no file
        CHECK(r.status != 0);
        CHECK_FALSE(std::filesystem::exists(out));
        SPMV_SKIP("the kernels have no warp recorder (-DSPMV_WARP_TRACE=OFF, the default): "
                  "only the error path of --warp-timeline was checked");
    }
    REQUIRE(r.status == 0);
    const auto t = spmv::analysis::load_warp_timeline(out);
    REQUIRE(t.variants.size() == 2);
    CHECK(t.variants[0].variant == "ellr");
    CHECK(t.variants[1].variant == "pjds");
    for (const auto& v : t.variants) {
        REQUIRE_FALSE(v.launches.empty());
        CHECK(static_cast<std::int64_t>(v.launches[0].warps.size()) ==
              v.launches[0].expected_warps);
        const auto p = spmv::analysis::best_pairing(v);
        REQUIRE(p.has_value());
        CHECK(p->exact > 0);
    }
    CHECK(r.out.find("longest warp") != std::string::npos);
    if (have_jsonschema()) CHECK(validate(out).empty());
    // cuSPARSE's kernels cannot be instrumented: naming one is an error that says so
    const auto c = spmvlab("bench gen:pde:size=5 --gpu --formats cusparse_csr_alg1 "
                           "--warp-timeline " + tmp("c.json"));
    CHECK(c.status == 1);
    CHECK(c.out.find("cannot be instrumented") != std::string::npos);
}

TEST_CASE("The committed synthetic warp timeline follows the schema and says it is synthetic",
          "[cli]")
{
    const auto t = spmv::analysis::load_warp_timeline(sample);

    CHECK(t.synthetic);
    CHECK(t.variants.size() == 2);
    if (!have_jsonschema()) SPMV_SKIP("python3-jsonschema missing: schema not checked");
    CHECK(validate(sample).empty());
}
