// Row ranges of the generators (spmv/generator_rows.hpp): generate_rows over any cut of the rows
// is the whole generator, bit for bit; row lengths and nonzero counts match it; and the 64-bit
// counts of pde1100 (1.33e9 rows, 9.3e9 nonzeros) against closed forms computed here
// independently.
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/error.hpp>
#include <spmv/generator_rows.hpp>
#include <spmv/generators.hpp>

using namespace spmv;

namespace {

using Matrix = Csr<double, std::int32_t>;

/// Every generator, with sizes whose row counts do not divide evenly (blocks5: ranges that
/// start inside a block row), seeds other than the default, fill < 1 and = 1.
const std::vector<std::string> specs = {
    "gen:pde:size=1",
    "gen:pde:size=7",
    "gen:laplace2d:nx=13,ny=7",
    "gen:laplace2d:nx=1,ny=5",
    "gen:powerlaw:rows=3001,min-len=2,max-len=300,exponent=1.5,seed=9",
    "gen:powerlaw:rows=40,max-len=40,exponent=0,seed=2",
    "gen:onefull:n=77,seed=5",
    "gen:blocks5:block-rows=37,blocks=5,seed=4",
    "gen:blocks5:block-rows=9,blocks=9,seed=11",
    "gen:banded:n=1000,fill=0.5,seed=3",
    "gen:banded:n=333,bandwidth=0,offdiags=7,seed=8",
    "gen:random:rows=201,cols=31,nnz-per-row=30,seed=3",
    "gen:random:rows=20,cols=5,nnz-per-row=0",
};

/// Runs check(spec, a, n) for every spec of `specs` with its whole matrix `a` of n rows; a
/// failure names the spec.
template <typename Check>
void for_every_spec(const Check& check)
{
    for (const auto& text : specs) {
        INFO(text);
        const auto spec = gen::parse_spec(text);
        const Matrix a = gen::generate(spec);
        check(spec, a, static_cast<std::int64_t>(a.num_rows));
    }
}

/// The rows [first, end) of the whole matrix, in the same form.
dist::GlobalRows<double> whole_rows(const Matrix& a, std::int64_t first, std::int64_t end)
{
    dist::GlobalRows<double> g;
    g.num_rows = a.num_rows;
    g.num_cols = a.num_cols;
    for (auto i = first; i < end; ++i) {
        g.rows.push_back(i);
        for (auto k = a.row_ptrs[static_cast<std::size_t>(i)];
             k < a.row_ptrs[static_cast<std::size_t>(i) + 1]; ++k) {
            g.col_idxs.push_back(a.col_idxs[static_cast<std::size_t>(k)]);
            g.values.push_back(a.values[static_cast<std::size_t>(k)]);
        }
        g.row_ptrs.push_back(static_cast<std::int64_t>(g.values.size()));
    }
    return g;
}

bool same(const dist::GlobalRows<double>& x, const dist::GlobalRows<double>& y)
{
    return x.num_rows == y.num_rows && x.num_cols == y.num_cols && x.rows == y.rows &&
           x.row_ptrs == y.row_ptrs && x.col_idxs == y.col_idxs && x.values == y.values;
}

/// pde(k)'s row length at grid point i, written out: 1 + one per neighbour inside the grid.
std::int64_t pde_length(std::int64_t k, std::int64_t i)
{
    const std::int64_t x = i % k;
    const std::int64_t y = (i / k) % k;
    const std::int64_t z = i / (k * k);
    std::int64_t len = 1;
    for (const auto c : {x, y, z}) {
        len += (c > 0 ? 1 : 0) + (c < k - 1 ? 1 : 0);
    }
    return len;
}

/// Nonzeros of pde(k)'s rows [0, b), counted plane by plane, then line by line, then point by
/// point (not by the library's digit counts): an interior plane holds k^2 diagonal entries,
/// 4k(k-1) in-plane neighbour entries and k^2 per neighbouring plane.
std::int64_t pde_prefix(std::int64_t k, std::int64_t b)
{
    const std::int64_t plane = k * k;
    auto planes_out = [k](std::int64_t z) { return (z > 0 ? 1 : 0) + (z < k - 1 ? 1 : 0); };
    auto lines_out = [k](std::int64_t y) { return (y > 0 ? 1 : 0) + (y < k - 1 ? 1 : 0); };
    std::int64_t sum = 0;
    const std::int64_t z_full = b / plane;
    for (std::int64_t z = 0; z < z_full; ++z) {
        sum += plane + 4 * k * (k - 1) + plane * planes_out(z);
    }
    const std::int64_t rest = b - z_full * plane;
    const std::int64_t y_full = rest / k;
    for (std::int64_t y = 0; y < y_full; ++y) {  // a line: k points, 2(k-1) x-neighbours
        sum += k + 2 * (k - 1) + k * lines_out(y) + k * planes_out(z_full);
    }
    for (std::int64_t i = z_full * plane + y_full * k; i < b; ++i) {
        sum += pde_length(k, i);
    }
    return sum;
}

}  // namespace

TEST_CASE("generate_rows over any cut of the rows is the whole generator, bit for bit",
          "[generators][row-range]")
{
    for_every_spec([](const gen::Spec& spec, const Matrix& a, std::int64_t n) {
        REQUIRE(gen::has_row_range(spec.name));
        CHECK(gen::shape(spec).num_rows == n);
        CHECK(gen::shape(spec).num_cols == a.num_cols);

        // the whole range, and cuts into 2, 3 and 7 pieces (some of them empty)
        for (const int pieces : {1, 2, 3, 7}) {
            std::int64_t first = 0;
            for (int p = 0; p < pieces; ++p) {
                const std::int64_t end = n * (p + 1) / pieces;
                const auto g = gen::generate_rows(spec, first, end);
                CHECK(same(g, whole_rows(a, first, end)));
                first = end;
            }
        }
        // single rows everywhere (blocks5: every position inside a block row)
        for (std::int64_t i = 0; i < n; i += 1 + n / 17) {
            CHECK(same(gen::generate_rows(spec, i, i + 1), whole_rows(a, i, i + 1)));
        }
    });
}

TEST_CASE("Row lengths and nonzero counts of a row range match the whole generator",
          "[generators][row-range]")
{
    for_every_spec([](const gen::Spec& spec, const Matrix& a, std::int64_t n) {
        const auto len = gen::row_lengths(spec, 0, n);

        REQUIRE(static_cast<std::int64_t>(len.size()) == n);
        for (std::int64_t i = 0; i < n; ++i) {
            REQUIRE(len[static_cast<std::size_t>(i)] ==
                    a.row_ptrs[static_cast<std::size_t>(i) + 1] -
                        a.row_ptrs[static_cast<std::size_t>(i)]);
        }
        for (std::int64_t first = 0; first <= n; first += 1 + n / 5) {
            for (std::int64_t end = first; end <= n; end += 1 + n / 3) {
                CHECK(gen::count_nonzeros(spec, first, end) ==
                      a.row_ptrs[static_cast<std::size_t>(end)] -
                          a.row_ptrs[static_cast<std::size_t>(first)]);
                CHECK(gen::rows_bytes(spec, first, end) ==
                      static_cast<std::uint64_t>(16 * (end - first) + 8 +
                                                 16 * gen::count_nonzeros(spec, first, end)));
            }
            CHECK(gen::count_nonzeros(spec, first, n) ==
                  static_cast<std::int64_t>(a.values.size()) -
                      a.row_ptrs[static_cast<std::size_t>(first)]);
        }
    });
    CHECK(gen::nnz_closed_form(gen::parse_spec("gen:pde")));
    CHECK(gen::nnz_closed_form(gen::parse_spec("gen:banded:fill=1")));
    CHECK_FALSE(gen::nnz_closed_form(gen::parse_spec("gen:banded:fill=0.5")));
    CHECK_FALSE(gen::nnz_closed_form(gen::parse_spec("gen:powerlaw")));
}

TEST_CASE("generate_rows of pde size 2 is the hand-checked 2x2x2 grid", "[generators][row-range]")
{
    // rows 3 = (x 1, y 1, z 0) and 4 = (0, 0, 1): three neighbours each, in column order
    const auto g = gen::generate_rows(gen::parse_spec("gen:pde:size=2"), 3, 5);

    CHECK(g.num_rows == 8);
    CHECK(g.rows == std::vector<std::int64_t>{3, 4});
    CHECK(g.row_ptrs == std::vector<std::int64_t>{0, 4, 8});
    CHECK(g.col_idxs == std::vector<std::int64_t>{1, 2, 3, 7, 0, 4, 5, 6});
    CHECK(g.values == std::vector<double>{-1, -1, 6, -1, -1, 6, -1, -1});
}

TEST_CASE("Row ranges refuse bad ranges and parameters", "[generators][row-range]")
{
    const auto spec = gen::parse_spec("gen:pde:size=4");

    CHECK_THROWS_WITH(gen::generate_rows(spec, 3, 65),
                      Catch::Contains("row range [3, 65) is not within the generator's 64 rows"));
    CHECK_THROWS_AS(gen::generate_rows(spec, 5, 4), InvalidArgument);
    CHECK_THROWS_AS(gen::count_nonzeros(spec, -1, 4), InvalidArgument);
    CHECK_THROWS_WITH(gen::shape(gen::parse_spec("gen:pde:size=1000001")),
                      Catch::Contains("outside"));
    CHECK_THROWS_WITH(gen::shape(gen::parse_spec("gen:pde:sise=4")),
                      Catch::Contains("no parameter 'sise'"));
    CHECK_THROWS_AS(gen::has_row_range("nope"), InvalidArgument);
}

TEST_CASE("pde1100 is refused whole with its size and counted per range in 64 bits",
          "[generators][row-range]")
{
    const std::int64_t k = 1100;
    const auto spec = gen::parse_spec("gen:pde:size=1100");
    const std::int64_t n = k * k * k;              // 1,331,000,000 rows
    const std::int64_t total = 7 * n - 6 * k * k;  // 9,309,740,000 nonzeros
    REQUIRE(n == 1'331'000'000);
    REQUIRE(total == 9'309'740'000);

    // the whole-matrix path refuses it, naming the spec and its size
    CHECK_THROWS_WITH(gen::generate(spec), Catch::Contains("gen:pde:size=1100 has 1331000000 rows "
                                                           "and 9309740000 nonzeros") &&
                                               Catch::Contains("32-bit"));
    MemoryBudget budget;
    budget.bytes = std::uint64_t{1} << 40;
    CHECK_THROWS_WITH(gen::generate(spec, budget), Catch::Contains("9309740000 nonzeros"));
    CHECK_THROWS_WITH(gen::generate("pde", {{"size", 700}}), Catch::Contains("gen:pde:size=700"));

    // the row-range path takes it: shape, and counts past 2^31 against the closed forms above
    CHECK(gen::shape(spec).num_rows == n);
    CHECK(gen::count_nonzeros(spec, 0, n) == total);
    for (const std::int64_t b :
         {std::int64_t{0}, std::int64_t{1}, k - 1, k * k + 17, std::int64_t{1'100'000'007},
          n / 3 + 5, n - k * k - 1, n - k - 3, n - 1, n}) {
        INFO("b = " << b);
        CHECK(gen::count_nonzeros(spec, 0, b) == pde_prefix(k, b));
    }
    // rows near the end (the last plane: z = k - 1): lengths, their sum, the generated rows
    const std::int64_t first = n - k * k - 2 * k - 5;
    const std::int64_t end = n - k * k + 3 * k + 2;
    const auto len = gen::row_lengths(spec, first, end);
    std::int64_t sum = 0;
    for (std::int64_t i = first; i < end; ++i) {
        REQUIRE(len[static_cast<std::size_t>(i - first)] == pde_length(k, i));
        sum += pde_length(k, i);
    }
    CHECK(gen::count_nonzeros(spec, first, end) == sum);
    CHECK(gen::count_nonzeros(spec, first, end) == pde_prefix(k, end) - pde_prefix(k, first));
    CHECK(pde_prefix(k, end) > (std::int64_t{1} << 33));
    const auto g = gen::generate_rows(spec, n - 2, n);
    CHECK(g.rows == std::vector<std::int64_t>{n - 2, n - 1});
    // row n-1 = (k-1, k-1, k-1): neighbours z-1, y-1, x-1 only
    CHECK(g.row_ptrs == std::vector<std::int64_t>{0, 5, 9});
    CHECK(g.col_idxs == std::vector<std::int64_t>{n - 2 - k * k, n - 2 - k, n - 3, n - 2, n - 1,
                                                  n - 1 - k * k, n - 1 - k, n - 2, n - 1});
    CHECK(g.values == std::vector<double>{-1, -1, -1, 6, -1, -1, -1, -1, 6});
    CHECK(gen::rows_bytes(spec, 0, n) ==
          static_cast<std::uint64_t>(16 * n + 8 + 16 * total));  // 170 GB: per rank only
}
