// [gpu][xs] The "_xs" kernels (x staged in shared memory by every block): both sides of the
// size limit (detail::xs_max_cols: 6144 columns in double, 12288 in single; above it the plain
// kernel runs), rows at the edges of the 8 and 16 slots requested before the barrier
// (detail::row_unroll, detail::xs_row_prefetch), x at the edges of a staging step (512 entries: 128
// threads, 4 each), a row count that is no multiple of the block, SELL with sorting (output
// through row_perm). Tagged [xs] for the racecheck run.
#include <span>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/gpu/variants.hpp>
#include <spmv/gpu/verify.hpp>
#include <spmv/registry.hpp>

#include "gpu_test_matrices.hpp"

using namespace spmv;
using namespace spmv::gpu;

namespace {

template <typename V>
void check_xs(const Csr<double, std::int32_t>& m, const FormatParams& p)
{
    const auto a = convert_values<V>(m);
    for (const char* name : {"ell_xs", "sell_xs"}) {
        const auto r = verify(find_variant(name), a, p);
        INFO(name << ": " << r.message);
        CHECK(r.passed);
        CHECK(r.error_beta_zero <= r.tolerance);
    }
}

}  // namespace

TEST_CASE("ell_xs and sell_xs match the reference on both sides of the shared-memory limit",
          "[gpu][xs]")
{
    FormatParams sorted;
    sorted.sort_window = 64;
    const std::vector<std::pair<std::string, Csr<double, std::int32_t>>> cases = {
        {"1001 x 1001, rows of 0..30", test::random_csr(1001, 1001, 0, 30, 41)},
        {"777 x 6144 (DP limit exactly)", test::random_csr(777, 6144, 1, 20, 42)},
        {"500 x 6145 (DP: plain kernel; SP: staged)", test::random_csr(500, 6145, 1, 12, 43)},
        {"300 x 12289 (plain kernel in both)", test::random_csr(300, 12289, 1, 12, 44)},
        {"one long row 2000 x 2000", test::one_long_row(2000, 1500, 45)},
        // column counts that are no multiple of a 16-byte vector (the vector staging tried in
        // docs/benchmarks/h200_xs_stage_2026-11-29 had tails; kept as cases)
        {"40 x 3", test::random_csr(40, 3, 0, 3, 46)},
        {"300 x 4099", test::random_csr(300, 4099, 1, 12, 47)},
        {"200 x 12287 (SP: staged)", test::random_csr(200, 12287, 1, 12, 48)},
        // the longest row at the edges of the prefetch (8: the 8 slots; 9 and 16: all 16
        // requested; 17: ell_xs 16, then a round for 1, sell_xs 8, then 8 and 1) and x at the
        // edges of a staging step
        {"129 x 511, rows of 8", test::random_csr(129, 511, 8, 8, 52)},
        {"257 x 513, rows of 9", test::random_csr(257, 513, 9, 9, 53)},
        {"130 x 512, rows of 16", test::random_csr(130, 512, 16, 16, 54)},
        {"130 x 1025, rows of 17", test::random_csr(130, 1025, 17, 17, 55)},
        {"1000 x 2049, rows of 0..16", test::random_csr(1000, 2049, 0, 16, 56)},
    };
    for (const auto& [name, m] : cases) {
        for (const FormatParams& p : {FormatParams{}, sorted}) {
            INFO(name << ", sigma " << p.sort_window);
            check_xs<double>(m, p);
            check_xs<float>(m, p);
        }
    }
}

// x not 16-byte aligned (a pointer one entry into a larger buffer, as a vector of a larger
// buffer may be)
template <typename V>
void check_unaligned(const Csr<double, std::int32_t>& m)
{
    const auto a = convert_values<V>(m);
    const auto xd = test::random_vector(static_cast<std::size_t>(m.num_cols) + 1, 49);
    const std::vector<V> x(xd.begin(), xd.end());
    const std::vector<double> x_used(xd.begin() + 1, xd.end());
    std::vector<double> expected(static_cast<std::size_t>(m.num_rows), 0.0);
    spmv_reference(m, 1.0, std::span<const double>(x_used), 0.0, std::span<double>(expected));
    auto dx = DeviceBuffer<V>::from_host(x);
    for (const char* name : {"ell_xs", "sell_xs"}) {
        INFO(name << (sizeof(V) == 8 ? " DP" : " SP"));
        const auto d = prepare<V>(name, a);
        auto dy = DeviceBuffer<V>(static_cast<std::size_t>(m.num_rows));
        d.spmv(V{1}, dx.data() + 1, V{0}, dy.data());
        const auto got = dy.to_host();
        const std::vector<double> y(got.begin(), got.end());
        CHECK(test::relative_error(y, expected) < (sizeof(V) == 8 ? 1e-13 : 1e-5));
    }
}

TEST_CASE("ell_xs and sell_xs stage an x that is not 16-byte aligned", "[gpu][xs]")
{
    for (const auto& m : {test::random_csr(300, 1001, 1, 20, 50), test::random_csr(64, 5, 1, 5, 51)}) {
        check_unaligned<double>(m);
        check_unaligned<float>(m);
    }
}
