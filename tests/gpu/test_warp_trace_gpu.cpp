// [gpu] The GPU's own warps, measured (issue 34; spmv/gpu/warp_trace.hpp): a traced product
// records every warp of every launch, with sane times and SM ids, leaves y correct, and on a
// power law shows ELLPACK-R's long-row warp.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/analysis/warps.hpp>
#include <spmv/generators.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/gpu/warp_trace.hpp>
#include <spmv/registry.hpp>

#include "gpu_test_matrices.hpp"
#include "skip.hpp"

using namespace spmv;
using namespace spmv::gpu;

#define SKIP_WITHOUT_RECORDER()                                                             \
    do {                                                                                   \
        if (!spmv::gpu::warp_recorder_compiled())                                          \
            SPMV_SKIP("the kernels have no warp recorder: configure with -DSPMV_WARP_TRACE=ON"); \
    } while (false)

namespace {

struct Traced {
    WarpTrace trace;
    std::vector<double> y;
};

// One traced product y = A x (beta = 0) of `variant` on `a`, after two untraced ones.
Traced traced_product(const std::string& variant, const Csr<double, std::int32_t>& a,
                      const std::vector<double>& x, const FormatParams& params = {})
{
    const auto m = prepare(variant, a, params);
    auto dx = DeviceBuffer<double>::from_host(x);
    DeviceBuffer<double> dy(static_cast<std::size_t>(a.num_rows));
    const Stream s;
    const auto product = [&] {
        m.spmv(1.0, dx.data(), 0.0, dy.data(), RowOrder::original, s);
    };
    product();
    product();
    s.synchronize();
    Traced t;
    t.trace = trace_warps(product, s, 64);  // a small buffer: the body runs again, larger
    t.y = dy.to_host();
    return t;
}

std::vector<double> reference(const Csr<double, std::int32_t>& a, const std::vector<double>& x)
{
    std::vector<double> y(static_cast<std::size_t>(a.num_rows));
    spmv_reference(a, 1.0, std::span<const double>(x), 0.0, std::span<double>(y));
    return y;
}

void check_complete(const WarpTrace& t, int multiprocessors)
{
    for (const auto& l : t.launches) {
        INFO(l.kernel << ": " << l.blocks << " blocks of " << l.threads_per_block);
        CHECK(static_cast<std::int64_t>(l.warps.size()) == l.expected_warps);
        std::set<std::pair<int, int>> seen;
        for (const auto& w : l.warps) {
            CHECK(seen.insert({w.block, w.warp}).second);  // each warp once
            CHECK(w.block < l.blocks);
            CHECK(w.warp < (l.threads_per_block + 31) / 32);
            CHECK(w.sm >= 0);
            CHECK(w.sm < multiprocessors);
            CHECK(w.end_ns >= w.start_ns);
            CHECK(w.start_ns >= l.first_start_ns);
            CHECK(w.end_cycle >= w.start_cycle);
        }
    }
}

}  // namespace

TEST_CASE("A traced ELLPACK-R product records every warp and leaves y correct", "[gpu][trace]")
{
    SKIP_WITHOUT_RECORDER();
    const auto a = test::power_law(5000, 5000, 3);
    std::vector<double> x(static_cast<std::size_t>(a.num_cols));
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = 1.0 + static_cast<double>(i % 7);

    const auto t = traced_product("ellr", a, x);

    REQUIRE(t.trace.launches.size() == 1);
    const auto& l = t.trace.launches[0];
    CHECK(l.kernel == "ellr_spmv_kernel");
    CHECK(t.trace.runs == 2);  // 64 records were too few
    CHECK(l.blocks * l.threads_per_block >= a.num_rows);
    check_complete(t.trace, device_info().multiprocessors);
    // one thread per row: warp w of block b holds rows (b * threads + 32 w) ... + 31
    for (const auto& w : l.warps) {
        const std::int64_t first = std::int64_t{w.block} * l.threads_per_block + 32 * w.warp;
        if (first >= a.num_rows) {
            CHECK(w.row_begin == -1);
            continue;
        }
        CHECK(w.row_begin == first);
        CHECK(w.row_end == std::min<std::int64_t>(first + 32, a.num_rows));
    }
    CHECK(test::relative_error(t.y, reference(a, x)) < 1e-14);
}

TEST_CASE("Every one of our variants can be traced, each launch complete, y still correct",
          "[gpu][trace]")
{
    SKIP_WITHOUT_RECORDER();
    const auto a = test::power_law(3000, 3000, 5);
    std::vector<double> x(static_cast<std::size_t>(a.num_cols));
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = 0.5 + static_cast<double>(i % 5);
    const auto expected = reference(a, x);
    const int sms = device_info().multiprocessors;
    for (const auto& v : kernel_variants()) {
        if (v.baseline) continue;  // cuSPARSE's kernels are not ours to instrument
        INFO(v.name);

        const auto t = traced_product(std::string(v.name), a, x);

        CHECK_FALSE(t.trace.launches.empty());
        check_complete(t.trace, sms);
        CHECK(test::relative_error(t.y, expected) < 1e-12);
    }
}

TEST_CASE("HYB is traced launch by launch: the ELL kernel, then the COO kernels", "[gpu][trace]")
{
    SKIP_WITHOUT_RECORDER();
    const auto a = test::power_law(4000, 4000, 9);
    std::vector<double> x(static_cast<std::size_t>(a.num_cols), 1.0);

    const auto t = traced_product("hyb", a, x);

    REQUIRE(t.trace.launches.size() >= 2);
    CHECK(t.trace.launches[0].kernel == "ell_spmv_kernel");
    CHECK(t.trace.launches[1].kernel == "coo_spmv_kernel");
    CHECK(t.trace.launches[0].first_start_ns <= t.trace.launches[1].first_start_ns);
    CHECK(test::relative_error(t.y, reference(a, x)) < 1e-14);
}

TEST_CASE("ELLPACK-R on a power law has a warp far longer than the median: the long row's",
          "[gpu][trace]")
{
    SKIP_WITHOUT_RECORDER();
    // 200,000 rows, lengths 1..5,000 (exponent 2): a few rows of thousands of entries, most of 1-3
    const auto a = spmv::gen::power_law(200000, 1, 2.0, 5000, 11);
    std::vector<double> x(static_cast<std::size_t>(a.num_cols), 1.0);
    std::int32_t longest_row = 0;
    for (std::int32_t i = 0; i < a.num_rows; ++i) {
        if (a.row_ptrs[i + 1] - a.row_ptrs[i] > a.row_ptrs[longest_row + 1] - a.row_ptrs[longest_row])
            longest_row = i;
    }

    const auto t = traced_product("ellr", a, x);

    REQUIRE(t.trace.launches.size() == 1);
    const auto& warps = t.trace.launches[0].warps;
    std::vector<std::uint64_t> cycles;
    for (const auto& w : warps) cycles.push_back(w.end_cycle - w.start_cycle);
    auto sorted = cycles;
    std::sort(sorted.begin(), sorted.end());
    const auto median = sorted[sorted.size() / 2];
    const auto longest = static_cast<std::size_t>(
        std::max_element(cycles.begin(), cycles.end()) - cycles.begin());
    INFO("median " << median << " cycles, longest " << cycles[longest] << " cycles");
    CHECK(cycles[longest] > 20 * median);
    // the longest warp holds the longest row (or one as long: the model's N_iter says so)
    const auto model = spmv::analysis::analyze_warps(build<double>("ellr", a, {}), 32);
    const auto& w = warps[longest];
    REQUIRE(w.row_begin >= 0);
    const auto& mw = model.warps[static_cast<std::size_t>(w.row_begin / 32)];
    CHECK(mw.max_iterations * 2 >= model.warps[static_cast<std::size_t>(longest_row / 32)].max_iterations);
    CHECK(test::relative_error(t.y, reference(a, x)) < 1e-14);
}

TEST_CASE("A trace of nothing holds no launch, and the kernels run untraced afterwards",
          "[gpu][trace]")
{
    SKIP_WITHOUT_RECORDER();
    const Stream s;

    const auto t = trace_warps([] {}, s);
    const auto a = test::power_law(1000, 1000, 1);
    std::vector<double> x(1000, 2.0);
    const auto m = prepare("ellr", a, {});
    auto dx = DeviceBuffer<double>::from_host(x);
    DeviceBuffer<double> dy(1000);
    m.spmv(1.0, dx.data(), 0.0, dy.data(), RowOrder::original, s);
    s.synchronize();

    CHECK(t.launches.empty());
    CHECK(t.multiprocessors == device_info().multiprocessors);
    CHECK(t.sm_clock_khz > 0);
    CHECK(test::relative_error(dy.to_host(), reference(a, x)) < 1e-14);
}
