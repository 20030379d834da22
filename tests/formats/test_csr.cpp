#include <algorithm>
#include <numeric>
#include <random>

#include <catch2/catch.hpp>

#include <spmv/error.hpp>
#include <spmv/formats/csr.hpp>

#include "test_matrices.hpp"

using namespace spmv;

TEST_CASE("CSR reference SpMV on the canonical 4x4", "[formats][csr]")
{
    const auto a = test::canonical4();
    REQUIRE_NOTHROW(validate(a));
    std::vector<double> x{1, 2, 3, 4}, y{1, 1, 1, 1};
    spmv_reference(a, 1.0, std::span<const double>(x), 0.0, std::span<double>(y));
    CHECK(y == std::vector<double>{19, 8, 51, 52});
    y = {1, 1, 1, 1};
    spmv_reference(a, 2.0, std::span<const double>(x), 3.0, std::span<double>(y));
    CHECK(y == std::vector<double>{41, 19, 105, 107});
    std::vector<double> short_x{1, 2};
    CHECK_THROWS_AS(
        spmv_reference(a, 1.0, std::span<const double>(short_x), 0.0, std::span<double>(y)),
        DimensionMismatch);
    const auto f = footprint(a);
    CHECK(f.total_bytes() == 9 * 8 + 9 * 4 + 5 * 4);
}

TEST_CASE("csr_from_triplets sorts and sums duplicates", "[formats][csr]")
{
    std::vector<int> r{2, 0, 0, 2, 0};
    std::vector<int> c{1, 2, 0, 1, 2};
    std::vector<double> v{1, 2, 3, 4, 5};
    const auto a = csr_from_triplets<double, int>(3, 3, r, c, v);
    CHECK(a.row_ptrs == std::vector<int>{0, 2, 2, 3});
    CHECK(a.col_idxs == std::vector<int>{0, 2, 1});
    CHECK(a.values == std::vector<double>{3, 7, 5});
    std::vector<int> bad{5};
    std::vector<int> zero{0};
    std::vector<double> one{1};
    CHECK_THROWS_AS((csr_from_triplets<double, int>(3, 3, bad, zero, one)), InvalidArgument);
}

TEST_CASE("CSR validate and permutations", "[formats][csr]")
{
    auto a = test::canonical4();
    auto b = a;
    b.col_idxs[1] = 0;  // row 0: 0, 0, 3 not increasing
    CHECK_THROWS_AS(validate(b), InvalidLayout);
    b = a;
    b.row_ptrs[2] = 2;
    b.row_ptrs[1] = 4;
    CHECK_THROWS_AS(validate(b), InvalidLayout);

    const std::vector<int> perm{2, 0, 3, 1};
    const auto p = permute_rows(a, std::span<const int>(perm));
    CHECK(p.row_ptrs == std::vector<int>{0, 3, 6, 8, 9});
    CHECK(p.values == std::vector<double>{5, 6, 7, 1, 2, 3, 8, 9, 4});
    const auto s = permute_symmetric(a, std::span<const int>(perm));
    // B(k,l) = A(perm[k], perm[l]); B(0,0) = A(2,2) = 6, B(0,1) = A(2,0) = 5
    CHECK(s.col_idxs[0] == 0);
    CHECK(s.values[0] == 6);
    CHECK(s.values[1] == 5);
    REQUIRE_NOTHROW(validate(s));
    const std::vector<int> len{3, 1, 3, 2};
    CHECK(sort_by_length_desc(std::span<const int>(len)) == std::vector<int>{0, 2, 3, 1});
    const std::vector<int> notperm{0, 0, 1, 2};
    CHECK_THROWS_AS(permute_rows(a, std::span<const int>(notperm)), InvalidLayout);
}

TEST_CASE("sort_by_length_desc counts long length arrays into the stable sort's order",
          "[csr]")
{
    // 5000 rows with lengths 0..40 (many ties): the counting path (>= 1024 rows) must give
    // exactly std::stable_sort's order, ties in row order
    std::mt19937 rng(34);
    std::uniform_int_distribution<int> length(0, 40);
    std::vector<int> len(5000);
    for (auto& l : len) l = length(rng);
    std::vector<int> expected(len.size());
    std::iota(expected.begin(), expected.end(), 0);
    std::stable_sort(expected.begin(), expected.end(),
                     [&](int l, int r) { return len[static_cast<std::size_t>(l)] >
                                                len[static_cast<std::size_t>(r)]; });

    const auto perm = sort_by_length_desc(std::span<const int>(len));

    CHECK(perm == expected);
    CHECK(len[static_cast<std::size_t>(perm.front())] == 40);
    CHECK(len[static_cast<std::size_t>(perm.back())] == 0);
}
