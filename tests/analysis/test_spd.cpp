// The SPD screen (spmv/analysis/spd.hpp): hand-checked small cases and the generators.
#include <catch2/catch.hpp>

#include <spmv/analysis/spd.hpp>
#include <spmv/generators.hpp>

#include "test_matrices.hpp"

using spmv::analysis::screen_spd;

namespace {

spmv::Csr<double, std::int32_t> dense(int n, std::initializer_list<double> v)
{
    spmv::Csr<double, std::int32_t> a;
    a.num_rows = n;
    a.num_cols = n;
    a.row_ptrs.assign(1, 0);
    auto it = v.begin();
    for (int r = 0; r < n; ++r) {
        for (int c = 0; c < n; ++c, ++it) {
            if (*it != 0.0) {
                a.col_idxs.push_back(c);
                a.values.push_back(*it);
            }
        }
        a.row_ptrs.push_back(static_cast<std::int32_t>(a.col_idxs.size()));
    }
    return a;
}

}  // namespace

TEST_CASE("The SPD screen names the first asymmetric pair", "[spd]")
{
    const auto s = screen_spd(dense(2, {2, 1, 0, 2}));
    CHECK_FALSE(s.passes());
    CHECK_FALSE(s.symmetric);
    CHECK(s.row == 0);
    CHECK(s.col == 1);
    CHECK(s.a_rc == 1.0);
    CHECK(s.a_cr == 0.0);
    CHECK(s.reason() == "not symmetric: a(0, 1) = 1 but a(1, 0) = 0");
}

TEST_CASE("The SPD screen finds a missing or non-positive diagonal", "[spd]")
{
    auto s = screen_spd(dense(2, {-1, 0, 0, -1}));
    CHECK(s.symmetric);
    CHECK_FALSE(s.positive_diagonal);
    CHECK(s.diag_row == 0);
    CHECK(s.reason() == "not positive definite: the diagonal entry a(0, 0) = -1 is not positive");
    s = screen_spd(dense(3, {1, 0, 0, 0, 0, 2, 0, 2, 1}));  // row 1 has no diagonal
    CHECK(s.symmetric);
    CHECK(s.diag_row == 1);
    CHECK(s.diag_value == 0.0);
}

TEST_CASE("The SPD screen passes the SPD generators and refuses rectangles", "[spd]")
{
    CHECK(screen_spd(spmv::gen::pde(6)).passes());
    CHECK(screen_spd(spmv::gen::laplace2d(7, 5)).passes());
    CHECK(screen_spd(dense(2, {4, 1, 1, 3})).reason().empty());
    // within the relative tolerance
    CHECK(screen_spd(dense(2, {4, 1.0, 1.0 + 1e-15, 3})).passes());
    CHECK_FALSE(screen_spd(dense(2, {4, 1.0, 1.0 + 1e-9, 3})).passes());
    auto r = spmv::test::canonical4();
    r.num_cols = 5;
    CHECK(screen_spd(r).reason() == "not square");
}
