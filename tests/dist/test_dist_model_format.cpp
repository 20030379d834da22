// The distributed model with the per-format model pricing each rank's kernels (issue 37, item 4):
// a hand-checked case, the light block path against the blocks DistMatrix builds, and the
// model against the committed multi-GPU records.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <spmv/dist/model.hpp>
#include <spmv/dist/partition_stats.hpp>
#include <spmv/error.hpp>
#include <spmv/generators.hpp>
#include <spmv/model/format_model.hpp>

#include "test_matrices.hpp"

using namespace spmv;
using namespace spmv::dist;

namespace {

constexpr auto dp = model::Precision::double_precision;

/// The 1-D Laplacian: rows (-1, 2, -1), n rows.
Csr<double, std::int32_t> tridiagonal(std::int32_t n)
{
    Csr<double, std::int32_t> a;
    a.num_rows = a.num_cols = n;
    for (std::int32_t i = 0; i < n; ++i) {
        for (std::int32_t j = std::max(0, i - 1); j <= std::min(n - 1, i + 1); ++j) {
            a.col_idxs.push_back(j);
            a.values.push_back(i == j ? 2.0 : -1.0);
        }
        a.row_ptrs.push_back(static_cast<std::int32_t>(a.col_idxs.size()));
    }
    return a;
}

/// Constants of a made-up GPU: F = 5 us and c = 50 ns for csr, B_GPU 100 GB/s, B_L2 1000 GB/s,
/// tau 47 ps.
model::FormatModelConstants test_constants()
{
    model::FormatModelConstants c;
    c.profile = "test-gpu";
    c.bandwidth_gbs = 100.0;
    c.l2_gbs = 1000.0;
    c.issue_ps = 47.0;
    c.kernels = {{"csr", 5.0, 50.0}, {"sell", 4.0, 100.0}};
    c.source = "test";
    return c;
}

/// The blocks DistMatrix builds for one rank, written out here from the LocalMatrix that
/// distribute() gives (the rule of distributed/src/blocks.cpp, restated independently).
struct Blocks {
    Csr<double, std::int32_t> first, second, merged;
    bool by_rows = false;
};

Blocks blocks_of(const LocalMatrix<double>& m, bool merged_block)
{
    const auto& L = m.local;
    const auto& N = m.nonlocal;
    std::vector<bool> boundary(static_cast<std::size_t>(L.num_rows), false);
    std::int64_t nb = 0;
    for (std::int32_t i = 0; i < N.num_rows; ++i) {
        boundary[static_cast<std::size_t>(i)] = N.row_ptrs[i + 1] > N.row_ptrs[i];
        nb += boundary[static_cast<std::size_t>(i)] ? 1 : 0;
    }
    Blocks b;
    const bool halo = !m.halo_cols.empty();
    b.by_rows = halo && 3 * nb <= L.num_rows;
    auto merged_row = [&](Csr<double, std::int32_t>& c, std::int32_t i) {
        for (auto k = L.row_ptrs[i]; k < L.row_ptrs[i + 1]; ++k) {
            c.col_idxs.push_back(L.col_idxs[static_cast<std::size_t>(k)]);
            c.values.push_back(L.values[static_cast<std::size_t>(k)]);
        }
        for (auto k = N.row_ptrs[i]; k < N.row_ptrs[i + 1]; ++k) {
            c.col_idxs.push_back(L.num_cols + N.col_idxs[static_cast<std::size_t>(k)]);
            c.values.push_back(N.values[static_cast<std::size_t>(k)]);
        }
        c.row_ptrs.push_back(static_cast<std::int32_t>(c.col_idxs.size()));
        ++c.num_rows;
    };
    b.second.num_cols = b.merged.num_cols = L.num_cols + N.num_cols;
    if (merged_block && halo) {
        for (std::int32_t i = 0; i < L.num_rows; ++i) merged_row(b.merged, i);
    }
    if (b.by_rows) {
        for (std::int32_t i = 0; i < L.num_rows; ++i) {
            if (boundary[static_cast<std::size_t>(i)]) merged_row(b.second, i);
        }
        b.first.num_rows = L.num_rows;
        b.first.num_cols = L.num_cols;
        for (std::int32_t i = 0; i < L.num_rows; ++i) {
            if (!boundary[static_cast<std::size_t>(i)]) {
                for (auto k = L.row_ptrs[i]; k < L.row_ptrs[i + 1]; ++k) {
                    b.first.col_idxs.push_back(L.col_idxs[static_cast<std::size_t>(k)]);
                    b.first.values.push_back(L.values[static_cast<std::size_t>(k)]);
                }
            }
            b.first.row_ptrs.push_back(static_cast<std::int32_t>(b.first.col_idxs.size()));
        }
    } else {
        b.first = L;
        if (halo) b.second = N;
    }
    return b;
}

void check_shape(const model::KernelShape& light, const Csr<double, std::int32_t>& block,
                 std::string_view variant, const FormatParams& params, double extra_y)
{
    if (block.num_rows == 0) {
        CHECK(light.rows == 0);
        return;
    }
    CHECK(light.rows == block.num_rows);
    CHECK(light.cols == block.num_cols);
    CHECK(light.nnz == static_cast<std::int64_t>(block.col_idxs.size()));
    if (block.col_idxs.empty()) {
        CHECK(light.loaded_slots == 0.0);
        CHECK(light.critical_trips == 0);
        return;
    }
    const std::string_view one[] = {variant};
    const auto ref = model::kernel_shapes(block, params, one).front();
    CHECK(light.variant == ref.variant);
    CHECK(light.loaded_slots == ref.loaded_slots);
    CHECK(light.stored_slots == ref.stored_slots);
    CHECK(light.row_info_bytes == ref.row_info_bytes);
    CHECK(light.x_sectors_dp == ref.x_sectors_dp);
    CHECK(light.x_sectors_sp == ref.x_sectors_sp);
    CHECK(light.matrix_sector_factor == ref.matrix_sector_factor);
    CHECK(light.critical_trips == ref.critical_trips);
    CHECK(light.warp_trips == ref.warp_trips);
    CHECK(light.params.sort_window == ref.params.sort_window);
    CHECK(light.temp_value_traffic == ref.temp_value_traffic + extra_y);
}

}  // namespace

TEST_CASE("the per-format model prices each rank's blocks, hand-checked on a tridiagonal matrix",
          "[dist_model]")
{
    // 64 rows of (-1, 2, -1) over 2 ranks by rows, CSR scalar, DP; made-up GPU: B = 100 GB/s,
    // B_PCI = 10 GB/s, csr F = 5 us and c = 50 ns per trip, B_L2 1000 GB/s; link 5 GB/s, 2 us.
    // Rank 0 owns rows 0..31; row 31 needs x_32 (halo 1): 1 boundary row <= 32 / 3, so split
    // by rows:
    //   first   rows 0..31 with row 31 emptied: lengths 2, 3 x 30, 0 (92 nonzeros); the
    //           longest row is 3 trips: c * 3 = 150 ns, against DRAM (92*12 + 4*33 + 8*32 +
    //           8*32) / 1e11 = 1748 / 1e11 = 17.5 ns, L2 (< 100 sectors) < 3.2 ns and issue
    //           3 trips * 47 ps: latency-bound, T = 5 us + 150 ns = 5.15 us
    //   second  row 31 whole over [x_own | halo]: 3 nonzeros, 3 trips: 5.15 us; scatter
    //           1 * (3*8 + 4) / 1e11 = 0.28 ns: T_nonlocal = 5.15028 us
    //   merged  32 rows, lengths 2, 3 x 31: 5.15 us
    //   comm    pack 1 * 20 / 1e11 = 0.2 ns, d2h and h2d 8 / 1e10 = 0.8 ns each, exchange
    //           2 us + 8 / 5e9 = 2.0016 us: 2.0034 us
    //   vector  2.0034 + 5.15 = 7.1534 us; task = overlap max(5.15, 2.0034) + 5.15028 =
    //           10.30028 us; naive 2.0034 + 5.15 + 5.15028 = 12.30368 us
    // Rank 1 mirrors it (row 32 emptied; its last row has 2 entries). The fixed cost of the
    // second kernel makes the split slower than vector mode here, which Kreutzer's eq. 2
    // cannot say: its T_local is (92*20 + 32*16) / 1e11 = 23.52 ns.
    const auto a = tridiagonal(64);
    const auto part = partition_rows(64, 2);
    auto s = partition_stats(a, part, 8);
    add_kernel_shapes(s, a, part, "csr", FormatParams{});
    const auto gpu = model::custom("test-gpu", 100.0, 10.0);
    const auto link = custom_link("test-link", 5.0, 2.0);
    ModelOptions o;
    o.variant = "csr";
    o.constants = test_constants();

    const auto p = predict_distributed(s, gpu, link, o);
    auto paper = o;
    paper.variant.clear();
    const auto k = predict_distributed(s, gpu, link, paper);

    REQUIRE(s.kernels.ranks.size() == 2);
    const auto& k0 = s.kernels.ranks[0];
    CHECK(k0.first.rows == 32);
    CHECK(k0.first.nnz == 92);
    CHECK(k0.first.critical_trips == 3);
    CHECK(k0.second.rows == 1);
    CHECK(k0.second.nnz == 3);
    CHECK(k0.second.cols == 33);
    // x read: the columns that hold a nonzero, x_30, x_31 and the halo's x_32, not all 33
    // (KernelShape::x_cols); the first block's rows 0..30 touch all 32 own columns
    CHECK(k0.second.x_cols == 3);
    CHECK(k0.first.x_cols == 32);
    CHECK(k0.merged.rows == 32);
    CHECK(k0.merged.nnz == 95);
    CHECK(model::predict(k0.first, test_constants(), dp).bound == "latency");
    for (const auto& r : p.ranks) {
        INFO("rank " << r.rank);
        CHECK(r.local_s == Approx(5.15e-6));
        CHECK(r.nonlocal_s == Approx(5.15028e-6));
        CHECK(r.merged_s == Approx(5.15e-6));
        CHECK(r.comm_s == Approx(2.0034e-6));
        CHECK(r.time_s.vector == Approx(7.1534e-6));
        CHECK(r.time_s.naive == Approx(12.30368e-6));
        CHECK(r.time_s.overlap == Approx(10.30028e-6));
        CHECK(r.time_s.task == Approx(10.30028e-6));
    }
    CHECK(p.time_s.vector == Approx(7.1534e-6));
    CHECK(p.kernel_model.find("per-format model (csr on test-gpu") == 0);
    CHECK(k.ranks[0].local_s == Approx(23.52e-9));
    CHECK(k.kernel_model.find("Kreutzer eq. 2") == 0);
}

TEST_CASE("the per-format model separates SELL from CSR where eq. 2 cannot", "[dist_model]")
{
    // The same partition priced for two variants: eq. 2 gives one time whatever the format;
    // the per-format model gives each variant the time the advisor gives its blocks, and on one
    // rank exactly predict_variant's time of the whole matrix.
    const auto a = gen::pde(24);  // 13,824 rows
    const auto& h200 = model::find_profile("H200");
    const auto& link = find_link("nvlink4");
    for (std::string variant : {"csr", "sell", "sell_i16", "pjds"}) {
        ModelOptions o;
        o.variant = variant;
        o.stage_through_host = false;

        const auto one = predict_scaling(a, PartitionKind::nnz, {1, 2, 4}, h200, link, o);

        const auto whole = model::predict_variant(a, variant, FormatParams{}, h200, dp);
        INFO(variant);
        for (auto m : all_modes) {
            CHECK(one.baseline.time_s[m] == Approx(whole.prediction.time_s).epsilon(1e-12));
        }
        for (const auto& pt : one.points) {
            CHECK(pt.prediction.time_s.task <= pt.prediction.time_s.naive);
            CHECK(pt.prediction.kernel_model.find(variant) != std::string::npos);
        }
    }
    ModelOptions csr;
    csr.variant = "csr";
    ModelOptions sell;
    sell.variant = "sell";
    const auto tc = predict_scaling(a, PartitionKind::nnz, {2}, h200, link, csr);
    const auto ts = predict_scaling(a, PartitionKind::nnz, {2}, h200, link, sell);
    CHECK(tc.points[0].prediction.time_s.task != ts.points[0].prediction.time_s.task);
}

TEST_CASE("the light block path counts what the format model counts on DistMatrix's blocks",
          "[dist_model]")
{
    auto matrices = test::zoo();
    matrices.push_back({"pde 9", gen::pde(9)});
    matrices.push_back({"power law 3000", gen::power_law(3000, 1, 2.0, 400, 5)});
    matrices.push_back({"laplace2d 40x23", gen::laplace2d(40, 23)});
    std::vector<PartitionKind> kinds = {PartitionKind::rows, PartitionKind::nnz};
    if (has_metis()) {
        kinds.push_back(PartitionKind::metis);
    }
    FormatParams sorted;
    sorted.sort_window = 0;  // auto, resolved per block

    for (const auto& m : matrices) {
        if (m.a.num_rows == 0 || m.a.col_idxs.empty()) continue;
        for (auto kind : kinds) {
            if (kind == PartitionKind::metis && m.a.num_rows != m.a.num_cols) continue;
            for (int P : {1, 2, 3, 7}) {
                const auto part = make_partition(m.a, kind, P);
                const auto d = distribute(m.a, part);
                for (const auto& [variant, params] :
                     std::vector<std::pair<std::string, FormatParams>>{
                         {"csr", {}}, {"sell", {}}, {"sell", sorted}, {"pjds", {}}}) {
                    for (bool merged : {true, false}) {
                        auto s = partition_stats(m.a, part, 8);
                        add_kernel_shapes(s, m.a, part, variant, params, merged);
                        REQUIRE(s.kernels.ranks.size() == static_cast<std::size_t>(P));
                        for (int r = 0; r < P; ++r) {
                            INFO(m.name << ", " << to_string(kind) << ", P = " << P << ", "
                                        << variant << " sigma " << params.sort_window
                                        << (merged ? ", merged" : "") << ", rank " << r);
                            const auto b = blocks_of(d.parts[static_cast<std::size_t>(r)], merged);
                            const auto& k = s.kernels.ranks[static_cast<std::size_t>(r)];
                            check_shape(k.first, b.first, variant, params, 0.0);
                            check_shape(k.second, b.second, variant, params,
                                        b.by_rows ? 0.0 : b.second.num_rows);
                            check_shape(k.merged, b.merged, variant, params, 0.0);
                        }
                    }
                }
            }
        }
    }
}

TEST_CASE("the per-format path refuses what it cannot price", "[dist_model]")
{
    const auto a = gen::pde(6);
    const auto part = partition_rows(a.num_rows, 2);
    auto s = partition_stats(a, part, 8);
    ModelOptions o;
    o.variant = "sell";

    CHECK_THROWS_AS(add_kernel_shapes(s, a, part, "no_such_kernel", FormatParams{}),
                    InvalidArgument);
    CHECK_THROWS_AS(add_kernel_shapes(s, a, partition_rows(a.num_rows, 3), "sell", FormatParams{}),
                    InvalidArgument);
    // no shapes, or the shapes of another variant
    CHECK_THROWS_AS(predict_distributed(s, model::find_profile("H100"), find_link("nvlink4"), o),
                    InvalidArgument);
    add_kernel_shapes(s, a, part, "csr", FormatParams{});
    CHECK_THROWS_AS(predict_distributed(s, model::find_profile("H100"), find_link("nvlink4"), o),
                    InvalidArgument);
    // host ranks keep Kreutzer's eq. 2 (the per-format model is a GPU model)
    const auto host = predict_distributed(s, find_host("cpu-core"), find_link("host-shm"), o);
    CHECK(host.kernel_model.find("Kreutzer") == 0);
}

// ---------------------------------------------------------------------------------------------
// The model against the committed records. Each point names its record; the model is run as
// `spmvlab dist bench` runs it beside the measurement (nnz partition, DP, --link auto: nvlink4
// without host staging for cuda-ipc, host-shm with the two PCIe copies for host-staged; the
// GPU profile the device's name denotes; merged block on; the format's default kernel;
// --fixed-costs auto: the exchange path's built-in fixed costs on more than one rank) with the
// built-in constants (model::builtin_constants: no kernel constant here is fitted to a record;
// the fixed costs are fitted to the H200's pde150 records, the FIT set, and held out on pde400
// and on the H100).

namespace {

struct RecordPoint {
    const char* record;  ///< where the measured number is
    int ranks;           ///< 1: the single-process baseline of the same run
    const char* path;    ///< exchange path
    Mode mode;
    double measured_us;
};

struct RecordCase {
    std::int32_t pde;     ///< gen:pde:size=
    const char* gpu;      ///< profile
    const char* variant;  ///< the format's default kernel
    std::vector<RecordPoint> points;
    /// the bar: |model / measured - 1| <= 25 % (0); the points documented as outside
    /// (docs/distributed.md, "The model against the measurements"): predicted too fast (-1,
    /// model / measured in (0.5, 0.75)) or too slow (+1, in (1.25, 1.5))
    int gap = 0;
};

/// The partition's statistics and the variant's kernel shapes on `ranks` ranks: what the model
/// reads of the matrix (every point of a case on the same rank count shares them).
PartitionStats record_stats(const Csr<double, std::int32_t>& a, const RecordCase& c, int ranks)
{
    const auto part = ranks == 1 ? partition_rows(a.num_rows, 1)
                                 : make_partition(a, PartitionKind::nnz, ranks);
    auto s = partition_stats(a, part, 8);
    add_kernel_shapes(s, a, part, c.variant, FormatParams{}, true);
    return s;
}

double model_us(const PartitionStats& s, const RecordCase& c, const RecordPoint& p)
{
    ModelOptions o;
    o.variant = c.variant;
    o.stage_through_host = std::string(p.path) == "host-staged";
    if (p.ranks > 1) {
        o.fixed_costs = find_fixed_costs(p.path);
    }
    const auto& link = find_link(o.stage_through_host ? "host-shm" : "nvlink4");
    return predict_distributed(s, model::find_profile(c.gpu), link, o).time_s[p.mode] * 1e6;
}

void check_case(const RecordCase& c)
{
    const auto a = gen::pde(c.pde);
    std::map<int, PartitionStats> stats;  // by rank count
    for (const auto& p : c.points) {
        auto at = stats.find(p.ranks);
        if (at == stats.end()) {
            at = stats.emplace(p.ranks, record_stats(a, c, p.ranks)).first;
        }
        const double model = model_us(at->second, c, p);
        const double ratio = p.measured_us / model;
        INFO("pde" << c.pde << " " << c.variant << " on " << p.ranks << " " << c.gpu << " "
                   << p.path << " " << to_string(p.mode) << ": measured " << p.measured_us
                   << " us (" << p.record << "), model " << model << " us, measured / model "
                   << ratio);
        // the bar as calibration.hpp states it: |predicted / measured - 1| <= 0.25
        if (c.gap == 0) {
            CHECK(std::abs(1.0 / ratio - 1.0) <= 0.25);
        } else if (c.gap < 0) {
            // the known gap, predicted too fast (see docs/distributed.md): kept where it was
            // found, so that a change of the model or of the measurements is seen
            CHECK(1.0 / ratio < 0.75);
            CHECK(1.0 / ratio > 0.5);
        } else {
            // the known gap, predicted too slow
            CHECK(1.0 / ratio > 1.25);
            CHECK(1.0 / ratio < 1.5);
        }
    }
}

constexpr const char* h100x2_pde150_ipc =
    "docs/benchmarks/h100x2_2026-11-25/run_b/bench2_pde150_csr_nnz_double_ipc.json";
constexpr const char* h100x2_pde150_host =
    "docs/benchmarks/h100x2_2026-11-25/run_b/bench2_pde150_csr_nnz_double_host.json";
constexpr const char* h100_pde150_sell = "docs/benchmarks/h100_2026-11-25/dist/bench1_sell.json";

}  // namespace

TEST_CASE("the model against the pde150 records on one and two H100", "[dist_model]")
{
    using enum Mode;
    // Within the bar in every mode and path with the fixed costs (measured on the H200 host,
    // held out here: a record of another card and host; model / measured 0.81-0.94). Without
    // them vector mode and every host-staged mode were 0.60-0.67, where a 68 us local SpMV
    // carries the IPC tokens, the host synchronisations and the pinned copies.
    check_case({150, "H100", "csr",
                {{h100x2_pde150_ipc, 1, "none", vector, 136.25},
                 {h100x2_pde150_ipc, 2, "cuda-ipc", vector, 106.37},
                 {h100x2_pde150_ipc, 2, "cuda-ipc", overlap, 93.89},
                 {h100x2_pde150_ipc, 2, "cuda-ipc", task, 95.97},
                 {h100x2_pde150_host, 2, "host-staged", vector, 148.22},
                 {h100x2_pde150_host, 2, "host-staged", overlap, 109.05},
                 {h100x2_pde150_host, 2, "host-staged", task, 116.92}}});
    check_case({150, "H100", "sell", {{h100_pde150_sell, 1, "none", vector, 123.463}}});
}

TEST_CASE("the fixed costs bring the pde150 records on 2 and 4 H200 within the bar",
          "[dist_model]")
{
    using enum Mode;
    // The FIT set of the fixed costs (model.cpp's table; the constants come from these medians
    // with the kernels as the measured 1-GPU time over P, so the bar checks the model's
    // kernels and the fixed costs together). CUDA IPC, nnz partition, DP.
    const char* x2c = "docs/benchmarks/dist_model_2026-11-28/bench2_pde150_csr_cuda-ipc.json";
    const char* x2s = "docs/benchmarks/dist_model_2026-11-28/bench2_pde150_sell_cuda-ipc.json";
    const char* x4c = "docs/benchmarks/dist_model_2026-11-28/x4/bench4_pde150_csr_cuda-ipc.json";
    const char* x4s = "docs/benchmarks/dist_model_2026-11-28/x4/bench4_pde150_sell_cuda-ipc.json";
    check_case({150, "H200", "csr",
                {{x2c, 2, "cuda-ipc", vector, 87.23},
                 {x2c, 2, "cuda-ipc", naive, 103.45},
                 {x2c, 2, "cuda-ipc", overlap, 78.39},
                 {x2c, 2, "cuda-ipc", task, 80.99},
                 {x4c, 4, "cuda-ipc", vector, 73.67},
                 {x4c, 4, "cuda-ipc", naive, 90.12},
                 {x4c, 4, "cuda-ipc", overlap, 62.17},
                 {x4c, 4, "cuda-ipc", task, 77.02}}});
    check_case({150, "H200", "sell",
                {{x2s, 2, "cuda-ipc", vector, 69.29},
                 {x2s, 2, "cuda-ipc", naive, 84.98},
                 {x2s, 2, "cuda-ipc", overlap, 60.75},
                 {x2s, 2, "cuda-ipc", task, 62.29},
                 {x4s, 4, "cuda-ipc", vector, 58.44},
                 {x4s, 4, "cuda-ipc", naive, 72.69},
                 {x4s, 4, "cuda-ipc", overlap, 52.02},
                 {x4s, 4, "cuda-ipc", task, 65.93}}});
}

TEST_CASE("held out: the pde150 records on 1 and 2 H200 at the current kernels", "[dist_model]")
{
    using enum Mode;
    // Measured after the H200's refit (docs/benchmarks/h200_final_2026-11-30/x2, commit
    // c690ef1, one host of 2 H200, CUDA IPC, nnz partition, DP, 100 products per mode): neither
    // the kernel constants (fitted on h200_refit_2026-11-30) nor the fixed costs (fitted on the
    // dist_model_2026-11-28 records) saw it. Model / measured 0.81-1.03.
    const char* c = "docs/benchmarks/h200_final_2026-11-30/x2/bench2_pde150_csr_cuda-ipc.json";
    const char* s = "docs/benchmarks/h200_final_2026-11-30/x2/bench2_pde150_sell_cuda-ipc.json";
    const char* c1 = "docs/benchmarks/h200_final_2026-11-30/x2/bench1_pde150_csr_cuda-ipc.json";
    const char* s1 = "docs/benchmarks/h200_final_2026-11-30/x2/bench1_pde150_sell_cuda-ipc.json";
    check_case({150, "H200", "csr",
                {{c1, 1, "none", vector, 115.43},
                 {c, 2, "cuda-ipc", vector, 93.29},
                 {c, 2, "cuda-ipc", naive, 110.86},
                 {c, 2, "cuda-ipc", overlap, 82.45},
                 {c, 2, "cuda-ipc", task, 83.88}}});
    check_case({150, "H200", "sell",
                {{s1, 1, "none", vector, 94.62},
                 {s, 2, "cuda-ipc", vector, 76.72},
                 {s, 2, "cuda-ipc", naive, 95.82},
                 {s, 2, "cuda-ipc", overlap, 66.82},
                 {s, 2, "cuda-ipc", task, 67.70}}});
}

namespace {

constexpr const char* h200x2_ipc = "docs/benchmarks/modes_2026-11-28/h200x2/summary.txt "
                                   "(modes2_pde400_cuda-ipc.json)";
constexpr const char* h200x2_host = "docs/benchmarks/modes_2026-11-28/h200x2/summary.txt "
                                    "(modes2_pde400_host-staged.json)";
constexpr const char* h200x4_ipc = "docs/benchmarks/modes_2026-11-28/h200x4/summary.txt "
                                   "(modes4_pde400_cuda-ipc.json)";
constexpr const char* h200x4_host = "docs/benchmarks/modes_2026-11-28/h200x4/summary.txt "
                                    "(modes4_pde400_host-staged.json)";
/// SELL on 2 and 4 H200 is in the issue only (measured at f97e24d; no record committed): its
/// model numbers 1,160 / 583 us are the overlap = task predictions of eq. 2, so the measured
/// 770 / 398 us are held against task mode; exchange auto, i.e. CUDA IPC on one host.
/// scripts/experiments/dist_model.sh measures it again with the records.
constexpr const char* issue37_sell = "issue 37, item 4 (pde400 in SELL on 4 x H200)";

}  // namespace

// Hidden ([.]): pde400 needs ~9 GB of host memory and about 2 minutes per rank count. Run
// `build/tests/test_core "[dist_model_records]"` (scripts/experiments/dist_model.sh does).
TEST_CASE("the model against the pde400 records on 2 and 4 H200 and 2 H100", "[.][dist_model_records]")
{
    using enum Mode;
    check_case({400, "H200", "csr",
                {{h200x2_ipc, 2, "cuda-ipc", vector, 1045.1},
                 {h200x2_ipc, 2, "cuda-ipc", naive, 1063.7},
                 {h200x2_ipc, 2, "cuda-ipc", overlap, 1024.63},
                 {h200x2_ipc, 2, "cuda-ipc", task, 1025.62},
                 {h200x2_host, 2, "host-staged", overlap, 1032.85},
                 {h200x2_host, 2, "host-staged", task, 1035.46},
                 {h200x4_ipc, 4, "cuda-ipc", vector, 548.99},
                 {h200x4_ipc, 4, "cuda-ipc", naive, 575.52},
                 {h200x4_ipc, 4, "cuda-ipc", overlap, 527.92},
                 {h200x4_ipc, 4, "cuda-ipc", task, 531.35}}});
    // SELL: predicted too slow (1.30x / 1.27x) with the H200's first fit
    // (docs/benchmarks/h200_calib_2026-11-28); with the refitted kernel constants
    // (docs/benchmarks/model_refit_2026-11-28) and the fixed costs, 1.19x / 1.24x: inside, the
    // 4-GPU point near the edge (the fixed costs add 15 us of the first pass's delay to it);
    // with latency and memory added (docs/benchmarks/model_overlap_2026-11-29) 1.11x / 1.11x.
    // With the second pass charged the x it reads (KernelShape::x_cols) 1.02x / 1.03x.
    check_case({400, "H200", "sell",
                {{issue37_sell, 2, "cuda-ipc", task, 770.0},
                 {issue37_sell, 4, "cuda-ipc", task, 398.0}}});
    // The same on 1 and 2 H200 at c690ef1, after the refit, with committed records
    // (docs/benchmarks/h200_final_2026-11-30/x2): SELL 1.01-1.04, CSR 0.82-0.84 in every mode
    // (SELL 1.08-1.11 in naive / overlap / task while the second pass was charged every one of
    // the rank's columns of x, before KernelShape::x_cols).
    const char* c1 = "docs/benchmarks/h200_final_2026-11-30/x2/bench1_pde400_csr_cuda-ipc.json";
    const char* c2 = "docs/benchmarks/h200_final_2026-11-30/x2/bench2_pde400_csr_cuda-ipc.json";
    const char* s1 = "docs/benchmarks/h200_final_2026-11-30/x2/bench1_pde400_sell_cuda-ipc.json";
    const char* s2 = "docs/benchmarks/h200_final_2026-11-30/x2/bench2_pde400_sell_cuda-ipc.json";
    check_case({400, "H200", "csr",
                {{c1, 1, "none", vector, 1987.21},
                 {c2, 2, "cuda-ipc", vector, 1053.30},
                 {c2, 2, "cuda-ipc", naive, 1073.13},
                 {c2, 2, "cuda-ipc", overlap, 1035.90},
                 {c2, 2, "cuda-ipc", task, 1031.96}}});
    check_case({400, "H200", "sell",
                {{s1, 1, "none", vector, 1468.88},
                 {s2, 2, "cuda-ipc", vector, 788.36},
                 {s2, 2, "cuda-ipc", naive, 808.23},
                 {s2, 2, "cuda-ipc", overlap, 762.07},
                 {s2, 2, "cuda-ipc", task, 761.97}}});
    const char* h100_ipc = "docs/benchmarks/h100x2_2026-11-25/run_b/bench2_pde400_csr_nnz_double_ipc.json";
    const char* h100_host =
        "docs/benchmarks/h100x2_2026-11-25/run_b/bench2_pde400_csr_nnz_double_host.json";
    check_case({400, "H100", "csr",
                {{h100_ipc, 1, "none", vector, 2663.59},
                 {h100_ipc, 2, "cuda-ipc", vector, 1347.98},
                 {h100_ipc, 2, "cuda-ipc", overlap, 1333.20},
                 {h100_ipc, 2, "cuda-ipc", task, 1337.53},
                 {h100_host, 2, "host-staged", vector, 1734.19},
                 {h100_host, 2, "host-staged", overlap, 1340.70},
                 {h100_host, 2, "host-staged", task, 1339.72}}});
    // The host-staged exchange: outside on 4 GPUs in every mode (model / measured 0.64-0.70)
    // while host-shm ASSUMED 10 GB/s through Open MPI's shared memory; the link as `dist link`
    // MEASURED it on the H200 host (4.8 GB/s, 0.9 us: docs/benchmarks/link_2026-11-29, not
    // fitted to these records) brings every mode inside (0.87-0.90), and 2 GPUs' vector and
    // naive from 0.81 / 0.85 to about 0.9.
    check_case({400, "H200", "csr",
                {{h200x2_host, 2, "host-staged", vector, 1403.4},
                 {h200x2_host, 2, "host-staged", naive, 1436.3},
                 {h200x4_host, 4, "host-staged", vector, 1277.57},
                 {h200x4_host, 4, "host-staged", naive, 1306.46},
                 {h200x4_host, 4, "host-staged", overlap, 798.71},
                 {h200x4_host, 4, "host-staged", task, 802.90}}});
}
