// [gpu][xs] The "_xs" kernels (x staged in shared memory by every block): both sides of the
// size limit (detail::xs_max_cols: 6144 columns in double, 12288 in single; above it the plain
// kernel runs), rows longer than the 8 prefetched slots, a row count that is no multiple of the
// block, SELL with sorting (output through row_perm). Tagged [xs] for the racecheck run.
#include <string>

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
    };
    for (const auto& [name, m] : cases) {
        for (const FormatParams& p : {FormatParams{}, sorted}) {
            INFO(name << ", sigma " << p.sort_window);
            check_xs<double>(m, p);
            check_xs<float>(m, p);
        }
    }
}
