// [gpu] The pJDS ladder of lesson 10 (spmv/gpu/pjds_ladder.hpp): every step from Kreutzer's
// Listing 2 to the production kernel computes the same y, in both result bases, with beta != 0
// and beta == 0 on a NaN-poisoned y (verify), for b_r = 1, 4 and 32, on the zoo of kernel-breaking
// shapes, on a matrix whose rows are longer than the 4096 constant-bank offsets (the global
// col_start path), and on one past the 50 MB L2 (the streaming loads of steps 4..6).
#include <cstdint>
#include <string>

#include <catch2/catch.hpp>

#include <spmv/error.hpp>
#include <spmv/formats/pjds.hpp>
#include <spmv/generators.hpp>
#include <spmv/gpu/pjds_ladder.hpp>
#include <spmv/gpu/verify.hpp>

#include "gpu_test_matrices.hpp"

using namespace spmv;
using namespace spmv::gpu;

namespace {

template <typename V>
void check_ladder(const Csr<double, std::int32_t>& a64, std::int32_t block_rows,
                  const std::string& name)
{
    const auto a = convert_values<V>(a64);
    const auto p = to_pjds(a, {.block_rows = block_rows});
    for (const auto& s : pjds_ladder_steps()) {
        const auto m = assemble_pjds_step(p, s.step);
        CHECK(m.variant() == "pjds_step" + std::to_string(s.step));
        CHECK(m.permuted() == (a.num_rows > 0));  // an empty row_perm has no device copy
        const auto r = verify(m, a);
        INFO(name << ", b_r = " << block_rows << ", step " << s.step << " (" << s.name
                  << "): " << r.message);
        CHECK(r.passed);
    }
}

}  // namespace

TEST_CASE("pJDS ladder: every step gives the reference y on the zoo", "[gpu][pjds][ladder]")
{
    REQUIRE(pjds_ladder_steps().size() == 7);
    for (const auto& [name, a] : test::gpu_zoo()) {
        for (const std::int32_t br : {1, 4, 32}) {
            check_ladder<double>(a, br, name);
            check_ladder<float>(a, br, name);
        }
    }
}

TEST_CASE("pJDS ladder: col_start in global memory beyond 4096 columns", "[gpu][pjds][ladder]")
{
    // row 17 holds all 6000 columns: 6000 jagged columns, more than the largest constant table
    const auto a = test::one_long_row(6000, 17, 26);
    REQUIRE(row_lengths(a)[17] > 4096);
    check_ladder<double>(a, 32, "one full row of 6000");
}

TEST_CASE("pJDS ladder: streaming loads past the L2", "[gpu][pjds][ladder]")
{
    check_ladder<double>(gen::pde(100), 32, "pde100 (91 MB)");  // > 50 MB: streaming path
}

TEST_CASE("pJDS ladder: a step out of range is refused", "[gpu][pjds][ladder]")
{
    const auto p = to_pjds(test::pde7(4), {.block_rows = 32});
    CHECK_THROWS_AS(assemble_pjds_step(p, 7), InvalidArgument);
    CHECK_THROWS_AS(assemble_pjds_step(p, -1), InvalidArgument);
}
