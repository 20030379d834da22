// Symmetric reorderings (analysis/reorder.hpp): the symmetrised graph, the metrics on
// hand-checked matrices, P A P^T against a dense reference, and RCM / nested dissection when
// this build has Boost.Graph / METIS (otherwise those tests say SKIPPED and are counted so).
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include <spmv/analysis/estimate.hpp>
#include <spmv/analysis/reorder.hpp>
#include <spmv/error.hpp>
#include <spmv/generators.hpp>

#include "skip.hpp"
#include "test_matrices.hpp"

using namespace spmv;
using namespace spmv::analysis;
using Matrix = Csr<double, std::int32_t>;

namespace {

Matrix from_triplets(std::int32_t rows, std::int32_t cols, const std::vector<std::int32_t>& r,
                     const std::vector<std::int32_t>& c, const std::vector<double>& v)
{
    return csr_from_triplets<double, std::int32_t>(rows, cols, r, c, v);
}

/// The path 0-1-...-(n-1) (tridiagonal, stencil 2, -1) with vertex v stored as row pos[v].
Matrix shuffled_path(const std::vector<std::int32_t>& pos)
{
    const auto n = static_cast<std::int32_t>(pos.size());
    std::vector<std::int32_t> r;
    std::vector<std::int32_t> c;
    std::vector<double> v;
    for (std::int32_t i = 0; i < n; ++i) {
        r.push_back(pos[static_cast<std::size_t>(i)]);
        c.push_back(pos[static_cast<std::size_t>(i)]);
        v.push_back(2.0);
        if (i + 1 < n) {
            for (auto [x, y] : {std::pair{i, i + 1}, std::pair{i + 1, i}}) {
                r.push_back(pos[static_cast<std::size_t>(x)]);
                c.push_back(pos[static_cast<std::size_t>(y)]);
                v.push_back(-1.0);
            }
        }
    }
    return from_triplets(n, n, r, c, v);
}

std::vector<std::int32_t> random_permutation(std::int32_t n, std::uint32_t seed)
{
    std::vector<std::int32_t> p(static_cast<std::size_t>(n));
    std::iota(p.begin(), p.end(), 0);
    std::mt19937 rng(seed);
    std::shuffle(p.begin(), p.end(), rng);
    return p;
}

/// Arrow matrix: row 0 and column 0 full, plus the diagonal (the graph is a star, hub 0).
Matrix arrow(std::int32_t n)
{
    std::vector<std::int32_t> r;
    std::vector<std::int32_t> c;
    std::vector<double> v;
    for (std::int32_t i = 0; i < n; ++i) {
        r.push_back(i), c.push_back(i), v.push_back(10.0 + i);
        if (i > 0) {
            r.push_back(0), c.push_back(i), v.push_back(1.0);
            r.push_back(i), c.push_back(0), v.push_back(1.0);
        }
    }
    return from_triplets(n, n, r, c, v);
}

std::vector<double> dense(const Matrix& a)
{
    std::vector<double> d(static_cast<std::size_t>(a.num_rows) *
                          static_cast<std::size_t>(a.num_cols));
    for (std::int32_t i = 0; i < a.num_rows; ++i) {
        for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
            d[static_cast<std::size_t>(i) * static_cast<std::size_t>(a.num_cols) +
              static_cast<std::size_t>(a.col_idxs[k])] = a.values[k];
        }
    }
    return d;
}

std::vector<double> sorted_values(const Matrix& a)
{
    auto v = a.values;
    std::sort(v.begin(), v.end());
    return v;
}

bool is_permutation_of_n(const std::vector<std::int32_t>& p, std::int32_t n)
{
    auto s = p;
    std::sort(s.begin(), s.end());
    std::vector<std::int32_t> id(static_cast<std::size_t>(n));
    std::iota(id.begin(), id.end(), 0);
    return s == id;
}

}  // namespace

TEST_CASE("The symmetrised graph holds A + A^T without self loops, sorted", "[reorder]")
{
    // A = [1 1 0; 0 1 0; 0 1 1] (the header's example)
    const auto a = from_triplets(3, 3, {0, 0, 1, 2, 2}, {0, 1, 1, 1, 2}, {1, 1, 1, 1, 1});

    const auto g = symmetrised_graph(a);

    CHECK(g.offsets == std::vector<std::int64_t>{0, 1, 3, 4});
    CHECK(g.neighbours == std::vector<std::int32_t>{1, 0, 2, 1});
    CHECK(g.num_vertices() == 3);
    CHECK(g.num_edges() == 2);
}

TEST_CASE("A symmetric entry pair gives one edge, a diagonal entry none", "[reorder]")
{
    const auto a = test::canonical4();  // (0,2)+(2,0), (0,3), (1,3)+(3,1), (2,3)

    const auto g = symmetrised_graph(a);

    CHECK(g.offsets == std::vector<std::int64_t>{0, 2, 3, 5, 8});
    CHECK(g.neighbours == std::vector<std::int32_t>{2, 3, 3, 0, 3, 0, 1, 2});
}

TEST_CASE("Bandwidth, profile and mean distance of the canonical 4x4", "[reorder]")
{
    const auto a = test::canonical4();

    CHECK(bandwidth(a) == 3);
    CHECK(profile(a) == 4);  // rows: 0-0, 1-1, 2-0, 3-1
    CHECK(mean_distance(a) == Approx(10.0 / 9.0));
    CHECK(bandwidth(Matrix{}) == 0);
    CHECK(profile(Matrix{}) == 0);
    CHECK(mean_distance(Matrix{}) == 0.0);
}

TEST_CASE("Profile skips empty rows and counts 0 for a row starting right of the diagonal",
          "[reorder]")
{
    // row 0: (0,2); row 1: empty; row 2: (2,0) (2,1)
    const auto a = from_triplets(3, 3, {0, 2, 2}, {2, 0, 1}, {1, 1, 1});

    CHECK(profile(a) == 2);
    CHECK(bandwidth(a) == 2);
}

TEST_CASE("x locality counts the distinct sectors of one warp trip (hand example)", "[reorder]")
{
    // warp of 4 rows: r0 (0, 9), r1 (1), r2 (2, 3), r3 (12, 13, 14); sectors of 4 doubles
    const auto a = from_triplets(4, 15, {0, 0, 1, 2, 2, 3, 3, 3}, {0, 9, 1, 2, 3, 12, 13, 14},
                                 {1, 1, 1, 1, 1, 1, 1, 1});

    const auto x = x_locality(a, 4);

    // trip 0: x[0 1 2 12] -> {0, 3}; trip 1: x[9 3 13] -> {2, 0, 3}; trip 2: x[14] -> {3}
    CHECK(x.trips == 3);
    CHECK(x.sectors == 6);
    CHECK(x.sectors_per_trip == Approx(2.0));
    CHECK(x.ideal_sectors_per_trip == Approx(1.0));  // ceil(4/4), ceil(3/4), ceil(1/4)
}

TEST_CASE("x locality of the identity is ideal, one warp per 32 rows", "[reorder]")
{
    std::vector<std::int32_t> idx(40);
    std::iota(idx.begin(), idx.end(), 0);
    const auto a = from_triplets(40, 40, idx, idx, std::vector<double>(40, 1.0));

    const auto x = x_locality(a);  // warp 32, 32-byte sectors, 8-byte values

    // warp 0 reads x[0..31]: 8 sectors; warp 1 reads x[32..39]: 2 sectors
    CHECK(x.trips == 2);
    CHECK(x.sectors == 10);
    CHECK(x.sectors_per_trip == Approx(5.0));
    CHECK(x.ideal_sectors_per_trip == Approx(5.0));
    CHECK_THROWS_AS(x_locality(a, 0), InvalidArgument);
}

TEST_CASE("report_permutation measures P A P^T, which matches a dense reference", "[reorder]")
{
    const auto a = test::random_csr(7, 7, 0, 4, 11);  // unsymmetric, with empty rows
    const std::vector<std::int32_t> perm{3, 6, 0, 5, 1, 2, 4};
    Matrix b;

    const auto r = report_permutation(a, Ordering::original, perm, FormatParams{}, &b);

    REQUIRE_NOTHROW(validate(b));  // columns sorted within rows
    const auto da = dense(a);
    const auto db = dense(b);
    for (std::size_t k = 0; k < 7; ++k) {
        for (std::size_t l = 0; l < 7; ++l) {
            INFO("B(" << k << ", " << l << ")");
            CHECK(db[k * 7 + l] == da[static_cast<std::size_t>(perm[k]) * 7 +
                                      static_cast<std::size_t>(perm[l])]);
        }
    }
    CHECK(r.perm == perm);
    CHECK(r.nnz == nnz(a));
    CHECK(r.bandwidth == bandwidth(b));
    CHECK(r.profile == profile(b));
}

TEST_CASE("Padding under an ordering: SELL-2-1 changes, ELLPACK does not", "[reorder]")
{
    const auto a = test::canonical4();  // lengths (3,1,3,2)
    FormatParams p;
    p.slice_height = 2;
    p.sort_window = 1;
    const std::vector<std::int32_t> identity{0, 1, 2, 3};
    const std::vector<std::int32_t> pairs{0, 2, 1, 3};  // lengths (3,3,1,2)

    const auto before = report_permutation(a, Ordering::original, identity, p);
    const auto after = report_permutation(a, Ordering::original, pairs, p);

    auto find = [](const OrderingReport& r, const char* name) {
        const auto it = std::find_if(r.padding.begin(), r.padding.end(),
                                     [&](const FormatPadding& f) { return f.name == name; });
        REQUIRE(it != r.padding.end());
        return *it;
    };
    // SELL-2-1: slices {3,1} {3,2} -> 6 + 6 = 12 slots, 3 padding (the sell.hpp header);
    // reordered: {3,3} {1,2} -> 6 + 4 = 10 slots, 1 padding
    CHECK(find(before, "sell").stored_entries == 12);
    CHECK(find(before, "sell").padding_entries == 3);
    CHECK(find(after, "sell").stored_entries == 10);
    CHECK(find(after, "sell").padding_entries == 1);
    CHECK(find(after, "sell").padding_share == Approx(0.1));
    CHECK(find(before, "ell").stored_entries == 12);
    CHECK(find(after, "ell").stored_entries == 12);
    CHECK(find(after, "csr").padding_entries == 0);
    CHECK(before.padding.size() == formats().size());
}

TEST_CASE("Reordering refuses a rectangular matrix and a non-permutation", "[reorder]")
{
    const auto rect = from_triplets(3, 4, {0, 1, 2}, {0, 1, 3}, {1, 1, 1});
    const std::vector<std::int32_t> perm{0, 1, 2};
    const auto a = test::canonical4();
    const std::vector<std::int32_t> twice{0, 1, 1, 3};

    CHECK_THROWS_AS(symmetrised_graph(rect), InvalidArgument);
    CHECK_THROWS_AS(report_permutation(rect, Ordering::original, perm, FormatParams{}),
                    InvalidArgument);
    CHECK_THROWS_AS(reverse_cuthill_mckee(rect), Error);  // InvalidArgument, or NotCompiled
    CHECK_THROWS_AS(nested_dissection(rect), Error);
    CHECK_THROWS_AS(report_permutation(a, Ordering::original, twice, FormatParams{}),
                    InvalidLayout);
    try {
        symmetrised_graph(rect);
    } catch (const InvalidArgument& e) {
        CHECK_THAT(e.what(), Catch::Contains("needs a square matrix, this one is 3 x 4"));
    }
}

TEST_CASE("compare_orderings of a rectangular matrix measures it and says why not more",
          "[reorder]")
{
    const auto rect = from_triplets(3, 4, {0, 1, 2}, {0, 1, 3}, {1, 1, 1});

    const auto r = compare_orderings(rect, FormatParams{});

    REQUIRE(r.size() == 3);
    CHECK(r[0].ok());
    CHECK(r[0].bandwidth == 1);
    CHECK(r[1].ordering == Ordering::rcm);
    CHECK_THAT(r[1].error, Catch::Contains("square"));
    CHECK_THAT(r[2].error, Catch::Contains("square"));
}

TEST_CASE("Ordering names parse and print", "[reorder]")
{
    CHECK(parse_ordering("rcm") == Ordering::rcm);
    CHECK(parse_ordering("nd") == Ordering::nested_dissection);
    CHECK(parse_ordering("none") == Ordering::original);
    CHECK(to_string(Ordering::nested_dissection) == "nd");
    CHECK(title(Ordering::nested_dissection) == "nested dissection (METIS)");
    CHECK_THROWS_AS(parse_ordering("amd"), InvalidArgument);
    CHECK(is_available(Ordering::original));
    CHECK(ordering_permutation(test::canonical4(), Ordering::original) ==
          std::vector<std::int32_t>{0, 1, 2, 3});
}

TEST_CASE("Without Boost or METIS the orderings say which package to install", "[reorder]")
{
    const auto a = test::canonical4();

    const auto r = compare_orderings(a, FormatParams{});

    REQUIRE(r.size() == 3);
    CHECK(r[0].ok());
    CHECK(r[1].ok() == has_rcm());
    CHECK(r[2].ok() == has_nested_dissection());
    if (!has_rcm()) CHECK_THAT(r[1].error, Catch::Contains("libboost-graph-dev"));
    if (!has_nested_dissection()) CHECK_THAT(r[2].error, Catch::Contains("libmetis-dev"));
}

TEST_CASE("RCM recovers a shuffled path: bandwidth 1", "[reorder][rcm]")
{
    if (!has_rcm()) SPMV_SKIP("this build has no Boost.Graph (libboost-graph-dev): no RCM");
    const auto a = shuffled_path(random_permutation(50, 7));
    REQUIRE(bandwidth(a) > 10);
    Matrix b;

    const auto r = report_ordering(a, Ordering::rcm, FormatParams{}, &b);

    CHECK(is_permutation_of_n(r.perm, 50));
    CHECK(r.bandwidth == 1);
    CHECK(bandwidth(b) == 1);
    CHECK(r.profile == 49);
    CHECK(nnz(b) == nnz(a));
    CHECK(sorted_values(b) == sorted_values(a));
    const auto orig = report_permutation(a, Ordering::original, ordering_permutation(a,
                                         Ordering::original), FormatParams{});
    CHECK(r.x.sectors_per_trip < orig.x.sectors_per_trip);  // neighbours read together
}

TEST_CASE("RCM numbers the hub of an arrow matrix second to last", "[reorder][rcm]")
{
    if (!has_rcm()) SPMV_SKIP("this build has no Boost.Graph (libboost-graph-dev): no RCM");
    const auto a = arrow(7);

    const auto perm = reverse_cuthill_mckee(a);

    // Cuthill-McKee starts at a leaf (pseudo-peripheral), the hub follows, then the other
    // leaves; reversed, the hub is second to last and the bandwidth is n - 2
    REQUIRE(is_permutation_of_n(perm, 7));
    CHECK(perm[5] == 0);
    CHECK(bandwidth(permute_symmetric(a, std::span<const std::int32_t>(perm))) == 5);
}

TEST_CASE("RCM handles components and empty rows", "[reorder][rcm]")
{
    if (!has_rcm()) SPMV_SKIP("this build has no Boost.Graph (libboost-graph-dev): no RCM");
    // two paths of 5 (shuffled together) plus an empty row 10 and a diagonal-only row 11
    const auto pos = random_permutation(12, 3);
    std::vector<std::int32_t> r;
    std::vector<std::int32_t> c;
    for (std::int32_t start : {0, 5}) {
        for (std::int32_t i = start; i < start + 4; ++i) {
            r.push_back(pos[static_cast<std::size_t>(i)]), c.push_back(pos[static_cast<std::size_t>(i + 1)]);
            r.push_back(pos[static_cast<std::size_t>(i + 1)]), c.push_back(pos[static_cast<std::size_t>(i)]);
        }
    }
    r.push_back(pos[11]), c.push_back(pos[11]);
    const auto a = from_triplets(12, 12, r, c, std::vector<double>(r.size(), 1.0));

    const auto perm = reverse_cuthill_mckee(a);
    const auto b = permute_symmetric(a, std::span<const std::int32_t>(perm));

    REQUIRE(is_permutation_of_n(perm, 12));
    CHECK(bandwidth(b) == 1);
    CHECK(nnz(b) == nnz(a));
}

TEST_CASE("RCM of a shuffled 2-D Laplacian has bandwidth at most nx", "[reorder][rcm]")
{
    if (!has_rcm()) SPMV_SKIP("this build has no Boost.Graph (libboost-graph-dev): no RCM");
    const auto grid = gen::laplace2d(9, 14);  // natural order: bandwidth nx = 9
    const auto a = permute_symmetric(grid, std::span<const std::int32_t>(
                                               random_permutation(grid.num_rows, 5)));
    REQUIRE(bandwidth(a) > 50);

    const auto r = report_ordering(a, Ordering::rcm, FormatParams{});

    CHECK(r.bandwidth <= 9);
    CHECK(r.nnz == nnz(a));
}

TEST_CASE("Nested dissection returns a permutation that keeps every entry", "[reorder][nd]")
{
    if (!has_nested_dissection()) {
        SPMV_SKIP("this build has no METIS (libmetis-dev): no nested dissection");
    }
    const auto a = gen::laplace2d(12, 10);
    Matrix b;

    const auto r = report_ordering(a, Ordering::nested_dissection, FormatParams{}, &b);

    REQUIRE(is_permutation_of_n(r.perm, 120));
    CHECK(r.perm != ordering_permutation(a, Ordering::original));
    CHECK(nnz(b) == nnz(a));
    CHECK(sorted_values(b) == sorted_values(a));
    REQUIRE_NOTHROW(validate(b));
    const auto db = dense(b);  // still symmetric
    for (std::size_t k = 0; k < 120; ++k) {
        for (std::size_t l = 0; l < k; ++l) CHECK(db[k * 120 + l] == db[l * 120 + k]);
    }
}

TEST_CASE("Nested dissection numbers the separator of a star (its hub) last", "[reorder][nd]")
{
    if (!has_nested_dissection()) {
        SPMV_SKIP("this build has no METIS (libmetis-dev): no nested dissection");
    }
    // hub 0 joined to every leaf, and the leaves 1-2 and 3-4 joined: removing the hub leaves
    // several components, so the hub is the separator; perm[new] = old puts it last (a swapped
    // perm/iperm would put another vertex there)
    const auto star = arrow(7);
    const auto extra = from_triplets(7, 7, {1, 2, 3, 4}, {2, 1, 4, 3}, {1, 1, 1, 1});
    std::vector<std::int32_t> r;
    std::vector<std::int32_t> c;
    for (const Matrix* m : {&star, &extra}) {
        for (std::int32_t i = 0; i < 7; ++i) {
            for (auto k = m->row_ptrs[i]; k < m->row_ptrs[i + 1]; ++k) {
                r.push_back(i), c.push_back(m->col_idxs[k]);
            }
        }
    }
    const auto a = from_triplets(7, 7, r, c, std::vector<double>(r.size(), 1.0));

    const auto perm = nested_dissection(a);

    REQUIRE(is_permutation_of_n(perm, 7));
    CHECK(perm.back() == 0);
}

TEST_CASE("Nested dissection of a diagonal matrix keeps the order", "[reorder][nd]")
{
    if (!has_nested_dissection()) {
        SPMV_SKIP("this build has no METIS (libmetis-dev): no nested dissection");
    }
    const auto a = from_triplets(3, 3, {0, 1, 2}, {0, 1, 2}, {1, 2, 3});

    CHECK(nested_dissection(a) == std::vector<std::int32_t>{0, 1, 2});
    CHECK(nested_dissection(Matrix{}).empty());
}
