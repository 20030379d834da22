#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include <spmv/analysis/sweep.hpp>
#include <spmv/analysis/warps.hpp>
#include <spmv/any_matrix.hpp>
#include <spmv/error.hpp>
#include <spmv/formats/sell.hpp>
#include <spmv/generators.hpp>
#include <spmv/model/format_model.hpp>
#include <spmv/model/gpu_profile.hpp>
#include <spmv/model/performance.hpp>
#include <spmv/registry.hpp>

#include "test_matrices.hpp"

using namespace spmv;
using namespace spmv::analysis;
using Catch::Matchers::Contains;

namespace {

/// A square matrix whose row i holds columns 0 .. lengths[i]-1 (values 1).
Csr<double, std::int32_t> with_lengths(const std::vector<std::int32_t>& lengths)
{
    Csr<double, std::int32_t> a;
    a.num_rows = static_cast<std::int32_t>(lengths.size());
    a.num_cols = a.num_rows;
    for (const auto l : lengths) {
        for (std::int32_t j = 0; j < l; ++j) {
            a.col_idxs.push_back(j);
            a.values.push_back(1.0);
        }
        a.row_ptrs.push_back(static_cast<std::int32_t>(a.col_idxs.size()));
    }
    return a;
}

/// Row lengths {1,5,2,8,3,3,0,6}: nnz 28, longest 8.
Csr<double, std::int32_t> eight_rows()
{
    return with_lengths({1, 5, 2, 8, 3, 3, 0, 6});
}

const SweepPoint& at(const SweepResult& r, int value)
{
    for (const auto& p : r.points) {
        if (p.value == value) return p;
    }
    FAIL("no sweep point for value " << value);
    return r.points.front();
}

std::int64_t sum_iterations(const ThreadWork& w)
{
    return std::accumulate(w.iterations.begin(), w.iterations.end(), std::int64_t{0});
}

}  // namespace

TEST_CASE("A sigma sweep of the canonical 4x4 gives the header's numbers", "[sweep]")
{
    const auto a = test::canonical4();
    FormatParams p;
    p.slice_height = 2;
    p.warp_size = 2;
    SweepOptions o;
    o.gpu = model::find_profile("C2050");  // 120 GB/s
    const std::vector<int> sigmas{4, 1, 2, 4};

    const auto r = sweep(a, "sell", Param::sort_window, p, sigmas, o);

    REQUIRE(r.points.size() == 3);  // sorted, duplicate 4 dropped
    CHECK(r.points[0].value == 1);
    CHECK(r.points[2].value == 4);
    CHECK(at(r, 1).stored_slots == 12);
    CHECK(at(r, 1).padding_slots == 3);
    CHECK(at(r, 1).padding_share == Approx(0.25));
    CHECK(at(r, 1).n_iter == 6);
    CHECK(at(r, 1).warp_efficiency == Approx(0.75));
    CHECK(at(r, 1).bytes_moved == Approx(280));
    CHECK(at(r, 2).stored_slots == 12);
    CHECK(at(r, 4).stored_slots == 10);
    CHECK(at(r, 4).padding_slots == 1);
    CHECK(at(r, 4).padding_share == Approx(0.1));
    CHECK(at(r, 4).n_iter == 5);
    CHECK(at(r, 4).warp_efficiency == Approx(0.9));
    CHECK(at(r, 4).bytes_moved == Approx(256));
    CHECK(at(r, 4).predicted_seconds == Approx(256 / 120e9));
    CHECK(r.current_value == 1);
    CHECK_FALSE(r.log_scale);  // 1 .. 4 spans less than a factor of 8
}

TEST_CASE("SELL-2-1 against SELL-2-4 and SELL-2-8 pads as computed by hand", "[sweep]")
{
    // lengths 1 5 2 8 3 3 0 6
    // sigma 1: slices (1,5) (2,8) (3,3) (0,6), widths 5 8 3 6: 2*22 = 44 slots, 16 padding
    // sigma 4: windows sorted (8,5,2,1) (6,3,3,0), widths 8 2 6 3: 38 slots, 10 padding
    // sigma 8: sorted 8 6 5 3 3 2 1 0, widths 8 5 3 1: 34 slots, 6 padding
    // warp size 2 = C: N_iter is the sum of the widths
    const auto a = eight_rows();
    FormatParams p;
    p.slice_height = 2;
    p.warp_size = 2;
    const std::vector<int> sigmas{1, 4, 8};

    const auto r = sweep(a, "sell", Param::sort_window, p, sigmas);

    CHECK(at(r, 1).stored_slots == 44);
    CHECK(at(r, 1).padding_slots == 16);
    CHECK(at(r, 1).padding_share == Approx(16.0 / 44.0));
    CHECK(at(r, 1).n_iter == 22);
    CHECK(at(r, 1).warp_efficiency == Approx(28.0 / 44.0));
    CHECK(at(r, 4).stored_slots == 38);
    CHECK(at(r, 4).padding_slots == 10);
    CHECK(at(r, 4).n_iter == 19);
    CHECK(at(r, 8).stored_slots == 34);
    CHECK(at(r, 8).padding_slots == 6);
    CHECK(at(r, 8).n_iter == 17);
    CHECK(at(r, 8).slots_read == 34);  // the SELL kernel walks the padding
    CHECK(r.log_scale);
}

TEST_CASE("pJDS with b_r = 1 has no padding, and b_r changes storage but not traffic",
          "[sweep]")
{
    // sorted 8 6 5 3 3 2 1 0; b_r 2: blocks (8,6) (5,3) (3,2) (1,0): 16 + 10 + 6 + 2 = 34;
    // b_r 8: one block of width 8: 64 slots. pJDS threads stop at their own row length, so
    // N_iter (warp size 2: 8 + 5 + 3 + 1 = 17) and the bytes are those of b_r = 1.
    const auto a = eight_rows();
    FormatParams p;
    p.warp_size = 2;
    const std::vector<int> brs{1, 2, 8};
    SweepOptions o;
    o.precision = model::Precision::double_precision;

    const auto r = sweep(a, "pjds", Param::block_rows, p, brs, o);

    CHECK(at(r, 1).stored_slots == 28);
    CHECK(at(r, 1).padding_slots == 0);
    CHECK(at(r, 1).padding_share == 0.0);
    CHECK(at(r, 2).stored_slots == 34);
    CHECK(at(r, 8).stored_slots == 64);
    CHECK(at(r, 8).padding_slots == 36);
    for (const auto& pt : r.points) {
        CHECK(pt.n_iter == 17);
        CHECK(pt.slots_read == 28);
        // no padding read, no COO: Kreutzer eq. 2's traffic, 8 (3.5 * 20 + 16) = 688 bytes
        CHECK(pt.bytes_moved == Approx(model::device_bytes(8, 3.5, 1.0, o.precision)));
        CHECK(pt.bytes_moved == Approx(688));
    }
}

TEST_CASE("A HYB K sweep moves the nonzeros beyond K into COO", "[sweep]")
{
    // K 0: all 28 in COO; K 2: ELL min(len, 2) = 13 real of 16 slots, 15 in COO;
    // K 8: ELL only, 64 slots; K 20 is clamped to the longest row, 8.
    // Warp size 2, K = 2: ELL 8 threads x 2 trips = 4 warps of 2, COO 15 threads = 8 warps of
    // 1: N_iter 16, efficiency 28 / 32; bytes 31*12 + 28*8 + 8*16 + 15*(4 + 16) = 1024.
    const auto a = eight_rows();
    FormatParams p;
    p.warp_size = 2;
    p.hyb_width = -1;  // the one-third rule: 3 rows (8, 6, 5) have >= 5 entries -> K = 5
    const std::vector<int> ks{0, 2, 8, 20};

    const auto r = sweep(a, "hyb", Param::hyb_width, p, ks);

    CHECK(r.current_value == 5);
    CHECK(at(r, 0).coo_entries == 28);
    CHECK(at(r, 0).stored_slots == 28);
    CHECK(at(r, 0).padding_slots == 0);
    CHECK(at(r, 0).n_iter == 14);
    CHECK(at(r, 2).coo_entries == 15);
    CHECK(at(r, 2).stored_slots == 31);
    CHECK(at(r, 2).padding_slots == 3);
    CHECK(at(r, 2).threads == 23);
    CHECK(at(r, 2).n_iter == 16);
    CHECK(at(r, 2).warp_efficiency == Approx(28.0 / 32.0));
    CHECK(at(r, 2).bytes_moved == Approx(1024));
    CHECK(at(r, 8).coo_entries == 0);
    CHECK(at(r, 8).stored_slots == 64);
    CHECK(at(r, 20).effective_value == 8);
    CHECK(at(r, 20).stored_slots == 64);
}

TEST_CASE("Single precision halves the value bytes of the traffic", "[sweep]")
{
    // SELL-2-4 of the canonical 4x4 in SP: 10 * (4 + 4) + 9 * 4 + 4 * 2 * 4 = 148 bytes
    const auto a = test::canonical4();
    FormatParams p;
    p.slice_height = 2;
    SweepOptions o;
    o.precision = model::Precision::single_precision;
    const std::vector<int> sigmas{4};

    const auto r = sweep(a, "sell", Param::sort_window, p, sigmas, o);

    CHECK(r.points.at(0).bytes_moved == Approx(148));
}

TEST_CASE("Every sweep point stores what the registry's builder stores", "[sweep]")
{
    std::vector<test::NamedMatrix> matrices = test::zoo();
    matrices.push_back({"random 300 rows", test::random_csr(300, 200, 0, 40, 7)});
    matrices.push_back({"one full row of 500", test::one_full_row(500)});
    // more threads than one chunk of the warp stream (65536), HYB's COO tail in closed form
    matrices.push_back({"random 70000 rows", test::random_csr(70000, 64, 0, 12, 3)});
    struct Case {
        std::string_view format;
        Param param;
    };
    const Case cases[] = {{"sell", Param::sort_window},
                          {"sell", Param::slice_height},
                          {"pjds", Param::block_rows},
                          {"hyb", Param::hyb_width}};
    for (const auto& m : matrices) {
        for (const int warp : {1, 3, 32}) {
            for (const auto& c : cases) {
                for (const int pad : {0, 1}) {  // pjds_pad (footnote 2); others ignore it
                    FormatParams base;
                    base.pjds_pad = pad;
                    base.warp_size = warp;
                    base.slice_height = 4;
                    base.sort_window = c.param == Param::slice_height ? 0 : 8;  // σ auto per C
                    SweepOptions o;
                    o.precision = model::Precision::single_precision;
                    const auto r = sweep(m.a, c.format, c.param, base, {}, o);
                    REQUIRE_FALSE(r.points.empty());
                    for (const auto& pt : r.points) {
                        INFO(m.name << ", " << c.format << " parameter "
                                    << static_cast<int>(c.param) << " = " << pt.value
                                    << ", warp " << warp << ", pjds_pad " << pad);
                        FormatParams p = base;
                        set(p, c.param, pt.value);
                        const auto built = build<double>(c.format, m.a, p);
                        const auto built_sp =
                            build<float>(c.format, convert_values<float>(m.a), p);
                        const auto f = footprint(built);
                        const auto w = analyze_warps(built, warp);
                        const auto work = thread_work(built);

                        CHECK(pt.stored_slots == f.stored_entries);
                        CHECK(pt.padding_slots == f.padding_entries);
                        CHECK(pt.storage_bytes == footprint(built_sp).total_bytes());
                        CHECK(pt.threads == w.threads);
                        CHECK(pt.n_iter == w.n_iter);
                        CHECK(pt.idle_slots == w.idle_slots);
                        CHECK(pt.warp_efficiency == Approx(w.useful_fraction));
                        CHECK(pt.slots_read == sum_iterations(work));
                    }
                }
            }
        }
    }
}

TEST_CASE("Default sweep values are geometric and inside the schema", "[sweep]")
{
    const auto a = test::random_csr(1000, 1000, 0, 50, 5);

    const auto sigma = default_sweep_values(a, Param::sort_window);
    const auto c = default_sweep_values(a, Param::slice_height);
    const auto k = default_sweep_values(a, Param::hyb_width);
    const auto k_short = default_sweep_values(test::canonical4(), Param::hyb_width);

    CHECK(sigma == std::vector<int>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1000});
    CHECK(c == std::vector<int>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024});
    CHECK(k.front() == 1);
    CHECK(k.back() == 50);
    CHECK(k_short == std::vector<int>{0, 1, 2, 3});
    CHECK(default_sweep_values(Csr<double, std::int32_t>{}, Param::block_rows) ==
          std::vector<int>{1});
}

TEST_CASE("A sweep of an empty matrix gives zero padding and zero work", "[sweep]")
{
    const Csr<double, std::int32_t> empty;

    const auto r = sweep(empty, "sell", Param::sort_window, FormatParams{});

    REQUIRE(r.points.size() == 1);
    CHECK(r.points[0].stored_slots == 0);
    CHECK(r.points[0].padding_share == 0.0);
    CHECK(r.points[0].n_iter == 0);
    CHECK(r.points[0].warp_efficiency == 1.0);
}

TEST_CASE("Sweeps reject unknown formats, foreign parameters and values outside the range",
          "[sweep]")
{
    const auto a = test::canonical4();
    const FormatParams p;
    const std::vector<int> zero{0};
    const std::vector<int> huge_c{2000};
    const std::vector<int> auto_k{-1};
    SweepOptions no_bandwidth;
    no_bandwidth.gpu.memory_bandwidth_gbs = 0.0;
    SweepOptions bad_alpha;
    bad_alpha.alpha = 0.01;  // below 1/N_nzr = 1/2.25

    CHECK_THROWS_AS(sweep(a, "nope", Param::sort_window, p), InvalidArgument);
    CHECK_THROWS_WITH(sweep(a, "hyb", Param::block_rows, p),
                      Contains("has no parameter br") && Contains("sweepable"));
    CHECK_THROWS_WITH(sweep(a, "biell", Param::warp_size, p),
                      Contains("no sweep of parameter warp"));
    CHECK_THROWS_WITH(sweep(a, "sell", Param::sort_window, p, zero),
                      Contains("sigma") && Contains("outside [1, 1073741824]"));
    CHECK_THROWS_WITH(sweep(a, "sell", Param::slice_height, p, huge_c),
                      Contains("slice") && Contains("outside [1, 1024]"));
    CHECK_THROWS_WITH(sweep(a, "hyb", Param::hyb_width, p, auto_k),
                      Contains("hyb-width") && Contains("[0, 1073741824]"));
    CHECK_THROWS_WITH(sweep(a, "sell", Param::sort_window, p, {}, no_bandwidth),
                      Contains("bandwidth"));
    CHECK_THROWS_WITH(sweep(a, "sell", Param::sort_window, p, {}, bad_alpha), Contains("alpha"));
    CHECK_THROWS_AS(sweep_format(Param::pitch_bytes), InvalidArgument);
}

namespace {

/// Every count of a shape and its priced time, compared exactly (the sweep's one context must
/// give what a fresh one gives, bit for bit).
void check_same(const spmv::model::VariantPrediction& got,
                const spmv::model::VariantPrediction& want)
{
    const auto& g = got.shape;
    const auto& w = want.shape;
    CHECK(g.variant == w.variant);
    CHECK(g.params.slice_height == w.params.slice_height);
    CHECK(g.params.sort_window == w.params.sort_window);
    CHECK(g.params.block_rows == w.params.block_rows);
    CHECK(g.params.hyb_width == w.params.hyb_width);
    CHECK(g.feasible == w.feasible);
    CHECK(g.loaded_slots == w.loaded_slots);
    CHECK(g.stored_slots == w.stored_slots);
    CHECK(g.extra_index_slots == w.extra_index_slots);
    CHECK(g.row_info_bytes == w.row_info_bytes);
    CHECK(g.x_sectors_dp == w.x_sectors_dp);
    CHECK(g.x_sectors_sp == w.x_sectors_sp);
    CHECK(g.matrix_sector_factor == w.matrix_sector_factor);
    CHECK(g.x_staged == w.x_staged);
    CHECK(g.critical_trips == w.critical_trips);
    CHECK(g.warp_trips == w.warp_trips);
    CHECK(g.useful_fraction == w.useful_fraction);
    CHECK(got.prediction.time_s == want.prediction.time_s);
    CHECK(got.prediction.dram_bytes == want.prediction.dram_bytes);
    CHECK(got.prediction.l2_sectors == want.prediction.l2_sectors);
    CHECK(got.prediction.bound == want.prediction.bound);
}

/// A power law of 3,001 rows (not a multiple of a warp): lengths 1..200, random columns.
Csr<double, std::int32_t> small_power_law()
{
    return gen::generate("powerlaw", {{"rows", 3001}, {"max-len", 200}}, 5);
}

}  // namespace

TEST_CASE("Every point of a model sweep is the single-point prediction at that value",
          "[sweep][model]")
{
    // predict_sweep keeps one ShapeContext for the whole sweep (row lengths and the passes
    // that do not depend on the swept value computed once): each point must still be what
    // predict_variant computes from scratch, in every field, bit for bit
    const auto a = small_power_law();
    REQUIRE(a.col_idxs.size() > 10000);
    const auto& gpu = model::find_profile("H100");
    struct Case {
        Param param;
        const char* format;
        int base_sigma;  // 0: auto, resolved per point (it depends on C)
        std::vector<int> values;
    };
    const std::vector<Case> cases{
        {Param::sort_window, "sell", 1, {1, 2, 8, 32, 64, 100, 1024, 3001, 8192, 16}},
        {Param::slice_height, "sell", 256, {1, 4, 32, 64, 128, 7}},
        {Param::slice_height, "sell", 0, {8, 32, 128}},
        {Param::block_rows, "pjds", 1, {1, 2, 32, 64, 1000}},
        {Param::hyb_width, "hyb", 1, {0, 1, 3, 17, 200, -1}},
    };
    for (const auto& c : cases) {
        for (const auto precision :
             {model::Precision::double_precision, model::Precision::single_precision}) {
            FormatParams base;
            base.sort_window = c.base_sigma;
            const auto sweep =
                model::predict_sweep(a, c.format, c.param, base, c.values, gpu, precision);
            REQUIRE(sweep.size() == c.values.size());
            for (std::size_t i = 0; i < c.values.size(); ++i) {
                INFO(c.format << " parameter " << static_cast<int>(c.param) << " = " << c.values[i]);
                auto p = base;
                set(p, c.param, c.values[i]);
                const auto want = model::predict_variant(a, c.format, p, gpu, precision);
                CHECK(sweep[i].value == c.values[i]);
                check_same(sweep[i].model, want);
            }
        }
    }
}

TEST_CASE("The SELL model's x sectors are its warps' gathers counted warp by warp",
          "[sweep][model]")
{
    // an independent count: the rows of the built SELL-32-sigma in row_perm order, warps of
    // 32 of them, the distinct 32-byte sectors of x (4 doubles, 8 floats) of each warp over all
    // its trips, by a set (shape_kit.hpp: L1 serves a warp's repeats). Covers the model's
    // shortcuts: sigma dividing 32 (the identity pass), sigma >= N (the global pass), and the
    // sector stamps
    const auto a = small_power_law();
    const auto& gpu = model::find_profile("H100");
    for (const int sigma : {1, 2, 16, 32, 64, 96, 3001, 5000}) {
        INFO("sigma = " << sigma);
        const auto sell = to_sell_c_sigma(a, SellCSigmaOptions{32, sigma});
        double dp = 0, sp = 0;
        const auto n = static_cast<std::size_t>(a.num_rows);
        for (std::size_t first = 0; first < n; first += 32) {
            const auto last = std::min(n, first + 32);
            std::set<std::int32_t> d, s;
            for (std::size_t k = first; k < last; ++k) {
                const auto row = static_cast<std::size_t>(sell.row_perm[k]);
                for (auto j = a.row_ptrs[row]; j < a.row_ptrs[row + 1]; ++j) {
                    d.insert(a.col_idxs[static_cast<std::size_t>(j)] / 4);
                    s.insert(a.col_idxs[static_cast<std::size_t>(j)] / 8);
                }
            }
            dp += static_cast<double>(d.size());
            sp += static_cast<double>(s.size());
        }
        FormatParams p;
        p.sort_window = sigma;
        const auto m = model::predict_variant(a, "sell", p, gpu, model::Precision::double_precision);
        CHECK(m.shape.x_sectors_dp == dp);
        CHECK(m.shape.x_sectors_sp == sp);
    }
}

TEST_CASE("The nonzero-parallel kernels' x sectors are their units' gathers counted one by one",
          "[sweep][model]")
{
    // an independent count of shape_kit.hpp's units: each nonzero is given its unit by a rule
    // restated here (COO: nonzero / 256; CSR-adaptive: nonzero / 256; CSR vector: row / (32 /
    // tpr); merge path: (nonzero + its row) / tile, the merge item cut into tiles of 128 x 6
    // items in DP and 128 x 12 in SP), and the distinct sectors of each unit are collected by a
    // set. The power law's long rows cut merge tiles inside rows and leave tiles of row ends
    const auto a = small_power_law();
    const auto n = static_cast<std::size_t>(a.num_rows);
    const int tpr = csr_vector_threads_per_row(static_cast<double>(a.col_idxs.size()) /
                                               static_cast<double>(a.num_rows));
    auto count = [&](auto unit_of, int per_sector) {
        std::set<std::pair<std::int64_t, std::int32_t>> seen;  // (unit, sector)
        for (std::size_t r = 0; r < n; ++r) {
            for (auto j = a.row_ptrs[r]; j < a.row_ptrs[r + 1]; ++j) {
                seen.insert({unit_of(static_cast<std::int64_t>(r), std::int64_t{j}),
                             a.col_idxs[static_cast<std::size_t>(j)] / per_sector});
            }
        }
        return static_cast<double>(seen.size());
    };
    const auto chunk = [](std::int64_t, std::int64_t j) { return j / 256; };
    const auto rows = [&](std::int64_t r, std::int64_t) { return r / (32 / tpr); };
    const auto tile_dp = [](std::int64_t r, std::int64_t j) { return (j + r) / 768; };
    const auto tile_sp = [](std::int64_t r, std::int64_t j) { return (j + r) / 1536; };
    const auto shapes = model::kernel_shapes(a, FormatParams{});
    auto shape = [&](const char* v) {
        return *std::find_if(shapes.begin(), shapes.end(),
                             [&](const model::KernelShape& s) { return s.variant == v; });
    };
    CHECK(shape("coo").x_sectors_dp == count(chunk, 4));
    CHECK(shape("coo").x_sectors_sp == count(chunk, 8));
    CHECK(shape("csr_adaptive").x_sectors_dp == count(chunk, 4));
    CHECK(shape("csr_vector").x_sectors_dp == count(rows, 4));
    CHECK(shape("csr_vector").x_sectors_sp == count(rows, 8));
    CHECK(shape("csr_merge").x_sectors_dp == count(tile_dp, 4));
    CHECK(shape("csr_merge").x_sectors_sp == count(tile_sp, 8));
    // the reuse is real on this matrix: fewer sectors than one per 32 nonzeros' chunk would give
    const auto per_32 = [](std::int64_t, std::int64_t j) { return j / 32; };
    CHECK(shape("csr_merge").x_sectors_dp < count(per_32, 4));
}

TEST_CASE("x sectors do not depend on how many columns the matrix has", "[sweep][model]")
{
    // the model counts sectors by stamps up to 2^24 columns and by sorting above: the same
    // columns in a matrix 2^24 + 100 columns wide give the same counts
    const auto narrow = small_power_law();
    auto wide = narrow;
    wide.num_cols = (1 << 24) + 100;
    const auto& gpu = model::find_profile("H100");
    FormatParams p;
    p.sort_window = 64;
    const auto x = model::predict_variants(narrow, p, gpu, model::Precision::double_precision);
    const auto y = model::predict_variants(wide, p, gpu, model::Precision::double_precision);
    REQUIRE(x.size() == y.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        INFO(x[i].shape.variant);
        CHECK(x[i].shape.x_sectors_dp == y[i].shape.x_sectors_dp);
        CHECK(x[i].shape.x_sectors_sp == y[i].shape.x_sectors_sp);
        CHECK(x[i].shape.warp_trips == y[i].shape.warp_trips);
    }
}

TEST_CASE("SELL's slot count from the row lengths is the built layout's, long windows included",
          "[sweep][model]")
{
    // sell_stored_slots (behind sigma = auto) sorts windows of >= 1024 rows by counting: the
    // slots must be those the builder stores, for short and long windows and a last window
    // that is cut short
    const auto a = small_power_law();
    const auto lens = row_lengths(a);
    const std::vector<std::int32_t> lengths(lens.begin(), lens.end());
    for (const int c : {1, 8, 32}) {
        for (const int sigma : {1, 2, 64, 1000, 1024, 2000, 3001, 4096}) {
            INFO("C = " << c << ", sigma = " << sigma);
            const auto sell = to_sell_c_sigma(a, SellCSigmaOptions{c, sigma});
            CHECK(sell_stored_slots(lengths, c, sigma) == sell.slice_ptrs.back());
        }
    }
}
