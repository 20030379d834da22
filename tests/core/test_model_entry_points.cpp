// The one per-format model call (spmv::model::predict_variants) and what is built on it: the
// advisor's ranking, the sweep's predictions, the chart lines (model_bounds), and HYB's K as
// the builder takes it. The GUI and CLI sides are compared in tests/gui/test_gui_one_model.cpp.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include <spmv/error.hpp>
#include <spmv/model/advisor.hpp>
#include <spmv/model/format_model.hpp>
#include <spmv/model/gpu_profile.hpp>
#include <spmv/model/performance.hpp>

#include "test_matrices.hpp"

using spmv::model::FormatPrediction;
using spmv::model::Precision;

namespace {

FormatPrediction made(const char* variant, bool feasible, double time_s, double dram_s)
{
    FormatPrediction p;
    p.variant = variant;
    p.feasible = feasible;
    p.time_s = time_s;
    p.dram_s = dram_s;
    return p;
}

}  // namespace

TEST_CASE("predict_variants is kernel_shapes priced by predict, and advise ranks by it",
          "[model][one-model]")
{
    const auto a = spmv::test::random_csr(700, 700, 1, 40, 11);
    const auto& gpu = spmv::model::find_profile("H100");
    spmv::FormatParams params;
    params.sort_window = 0;  // auto, as recommend and the Advisor take it
    const auto constants = spmv::model::builtin_constants(gpu);

    const auto all = spmv::model::predict_variants(a, params, gpu, Precision::double_precision);
    spmv::model::AdvisorOptions o;
    o.params = params;
    const auto advice = spmv::model::advise(a, gpu, o);

    REQUIRE(all.size() == spmv::model::modelled_variants().size());
    REQUIRE(advice.ranked.size() == all.size());
    for (const auto& [shape, prediction] : all) {
        INFO(shape.variant);
        const auto expected = spmv::model::predict(shape, constants, Precision::double_precision);
        CHECK(prediction.time_s == expected.time_s);
        CHECK(prediction.dram_s <= prediction.time_s);  // the traffic bound is below it
        const auto one = spmv::model::predict_variant(a, shape.variant, params, gpu,
                                                      Precision::double_precision);
        CHECK(one.prediction.time_s == prediction.time_s);
        for (const auto& r : advice.ranked) {
            if (r.variant == shape.variant) CHECK(r.prediction.time_s == prediction.time_s);
        }
    }
    CHECK_THROWS_AS(spmv::model::predict_variant(a, "nope", params, gpu,
                                                 Precision::double_precision),
                    spmv::InvalidArgument);
}

TEST_CASE("A format stands for the GPU kernel of its own name", "[model][one-model]")
{
    for (const char* f : {"sell", "pjds", "hyb", "csr", "ell", "coo", "jds"}) {
        const auto* v = spmv::model::format_variant(f);
        REQUIRE(v != nullptr);
        CHECK(v->name == f);
        CHECK(v->format == f);
    }
    CHECK(spmv::model::format_variant("csc") == nullptr);       // no GPU kernel
    CHECK(spmv::model::format_variant("sell_i16") == nullptr);  // a variant, not a format
}

TEST_CASE("predict_sweep is predict_variant at every swept value", "[model][one-model]")
{
    const auto a = spmv::test::random_csr(500, 500, 0, 30, 3);
    const auto& gpu = spmv::model::find_profile("H100");
    spmv::FormatParams base;  // C 32, sigma 1
    const std::vector<int> sigmas{1, 4, 64, 500};

    const auto sweep = spmv::model::predict_sweep(a, "sell", spmv::Param::sort_window, base,
                                                  sigmas, gpu, Precision::single_precision);

    REQUIRE(sweep.size() == sigmas.size());
    for (std::size_t i = 0; i < sigmas.size(); ++i) {
        auto p = base;
        p.sort_window = sigmas[i];
        const auto want =
            spmv::model::predict_variant(a, "sell", p, gpu, Precision::single_precision);
        CHECK(sweep[i].value == sigmas[i]);
        CHECK(sweep[i].params.sort_window == sigmas[i]);
        CHECK(sweep[i].model.shape.variant == "sell");
        CHECK(sweep[i].model.prediction.time_s == want.prediction.time_s);
    }
    // sorting more never loads more padding slots here
    CHECK(sweep.back().model.shape.loaded_slots <= sweep.front().model.shape.loaded_slots);
    CHECK_THROWS_AS(spmv::model::predict_sweep(a, "csc", spmv::Param::sort_window, base, sigmas,
                                               gpu, Precision::double_precision),
                    spmv::InvalidArgument);
    const std::vector<int> bad{0};  // C = 0 is outside the schema's range
    CHECK_THROWS_AS(spmv::model::predict_sweep(a, "sell", spmv::Param::slice_height, base, bad,
                                               gpu, Precision::double_precision),
                    spmv::InvalidArgument);
}

TEST_CASE("The HYB model takes K as the builder does", "[model][one-model]")
{
    // canonical 4x4, row lengths (3, 1, 3, 2)
    const auto a = spmv::test::canonical4();
    const std::string_view hyb[] = {"hyb"};
    spmv::FormatParams p;

    p.hyb_width = 1;  // ELL part 4 x 1, COO the rest: 2 + 0 + 2 + 1 = 5 entries
    const auto k1 = spmv::model::kernel_shapes(a, p, hyb).at(0);
    p.hyb_width = 10;  // clamped to the longest row, 3: 12 ELL slots, no COO
    const auto k10 = spmv::model::kernel_shapes(a, p, hyb).at(0);

    CHECK(k1.loaded_slots == 4 + 5);
    CHECK(k1.extra_index_slots == 5);
    CHECK(k1.launches == 3);
    CHECK(k10.loaded_slots == 12);
    CHECK(k10.extra_index_slots == 0);
    CHECK(k10.launches == 1);
}

TEST_CASE("model_bounds: the traffic bound is the fewest bytes, Kreutzer's is eq. 1, checked "
          "against the predictions",
          "[model][one-model]")
{
    const auto& h100 = spmv::model::find_profile("H100");  // 3000 GB/s
    // canonical 4x4: N = 4, nnz = 9, DP alpha = 1: N [N_nzr (8 + 4 + 8) + 16] = 244 bytes
    const double eq1 = 244.0 / 3000e9;
    const std::vector<FormatPrediction> slow{made("a", true, 1e-6, 2e-7),
                                             made("b", true, 5e-7, 3e-7),
                                             made("c", false, 1e-12, 1e-13)};  // skipped

    const auto b = spmv::model::model_bounds(slow, 4, 9, h100, Precision::double_precision, 1.0);

    CHECK(b.traffic_bound_s == 2e-7);
    CHECK(b.traffic_bound_variant == "a");
    CHECK(b.fastest_prediction_s == 5e-7);
    CHECK(b.kreutzer_eq1_s == Approx(eq1).epsilon(1e-12));
    CHECK(b.kreutzer_is_bound);

    // a prediction faster than eq. 1's time: the line is no bound for that chart
    const std::vector<FormatPrediction> fast{made("d", true, eq1 / 2, eq1 / 4)};
    const auto f = spmv::model::model_bounds(fast, 4, 9, h100, Precision::double_precision, 1.0);
    CHECK_FALSE(f.kreutzer_is_bound);
    CHECK(f.traffic_bound_s == eq1 / 4);

    // alpha = 1/N_nzr: x read once, 4 [2.25 (12 + 8/2.25) + 16] = 4 (27 + 8 + 16) = 204 bytes
    const auto m = spmv::model::model_bounds(slow, 4, 9, h100, Precision::double_precision,
                                             1.0 / 2.25);
    CHECK(m.kreutzer_eq1_s == Approx(204.0 / 3000e9).epsilon(1e-12));
    CHECK_THROWS_AS(spmv::model::model_bounds(slow, 4, 9, h100, Precision::double_precision, 0.1),
                    spmv::InvalidArgument);  // alpha below 1/N_nzr
    CHECK_THROWS_AS(spmv::model::model_bounds(slow, 0, 0, h100, Precision::double_precision, 1.0),
                    spmv::InvalidArgument);
}
