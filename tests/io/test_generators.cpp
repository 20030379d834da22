#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include <spmv/error.hpp>
#include <spmv/formats/csr.hpp>
#include <spmv/generators.hpp>
#include <spmv/io/matrix_market.hpp>

using namespace spmv;
namespace fs = std::filesystem;

namespace {

using Matrix = Csr<double, std::int32_t>;

std::vector<std::int32_t> row_cols(const Matrix& a, std::int32_t i)
{
    return {a.col_idxs.begin() + a.row_ptrs[i], a.col_idxs.begin() + a.row_ptrs[i + 1]};
}

std::vector<double> row_vals(const Matrix& a, std::int32_t i)
{
    return {a.values.begin() + a.row_ptrs[i], a.values.begin() + a.row_ptrs[i + 1]};
}

Matrix transpose(const Matrix& a)
{
    std::vector<std::int32_t> r, c;
    for (std::int32_t i = 0; i < a.num_rows; ++i) {
        for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
            r.push_back(a.col_idxs[k]);
            c.push_back(i);
        }
    }
    return csr_from_triplets<double, std::int32_t>(a.num_cols, a.num_rows, r, c, a.values);
}

std::vector<double> times_ones(const Matrix& a)
{
    std::vector<double> x(static_cast<std::size_t>(a.num_cols), 1.0);
    std::vector<double> y(static_cast<std::size_t>(a.num_rows));
    spmv_reference(a, 1.0, std::span<const double>(x), 0.0, std::span<double>(y));
    return y;
}

bool has_diagonal_everywhere(const Matrix& a)
{
    for (std::int32_t i = 0; i < a.num_rows; ++i) {
        const auto c = row_cols(a, i);
        if (!std::binary_search(c.begin(), c.end(), i)) {
            return false;
        }
    }
    return true;
}

bool random_values_ok(const Matrix& a)
{
    return std::all_of(a.values.begin(), a.values.end(),
                       [](double v) { return v != 0.0 && v > -1.0 && v < 1.0; });
}

}  // namespace

TEST_CASE("pde(5) is the 7-point Laplacian pde05: N = 125, NZ = 725", "[generators]")
{
    const auto a = gen::pde(5);

    REQUIRE_NOTHROW(validate(a));
    CHECK(a.num_rows == 125);
    CHECK(a.num_cols == 125);
    CHECK(nnz(a) == 725);
    CHECK(row_cols(a, 0) == std::vector<std::int32_t>{0, 1, 5, 25});
    CHECK(row_vals(a, 0) == std::vector<double>{6, -1, -1, -1});
    // interior point (2, 2, 2) = row 2 + 5*2 + 25*2 = 62
    CHECK(row_cols(a, 62) == std::vector<std::int32_t>{37, 57, 61, 62, 63, 67, 87});
    CHECK(row_vals(a, 62) == std::vector<double>{-1, -1, -1, 6, -1, -1, -1});
    CHECK(row_cols(a, 124) == std::vector<std::int32_t>{99, 119, 123, 124});
    CHECK(transpose(a) == a);
    const auto y = times_ones(a);  // 6 minus the number of neighbours: missing faces
    CHECK(y[62] == 0.0);
    CHECK(y[0] == 3.0);
    CHECK(std::accumulate(y.begin(), y.end(), 0.0) == 6.0 * 25);
}

TEST_CASE("pde(100) is pde100 of the ELLG paper: N = 1,000,000, NZ = 6,940,000", "[generators]")
{
    const auto a = gen::pde(100);

    CHECK(a.num_rows == 1'000'000);
    CHECK(nnz(a) == 6'940'000);
    CHECK(a.row_ptrs.back() == 6'940'000);
    CHECK(row_cols(a, 0) == std::vector<std::int32_t>{0, 1, 100, 10000});
    const auto y = times_ones(a);
    CHECK(std::accumulate(y.begin(), y.end(), 0.0) == 6.0 * 100 * 100);
}

TEST_CASE("laplace2d is the 5-point Laplacian", "[generators]")
{
    const auto a = gen::laplace2d(3, 2);
    const auto big = gen::laplace2d(40, 25);

    REQUIRE_NOTHROW(validate(a));
    CHECK(a.num_rows == 6);
    CHECK(nnz(a) == 5 * 6 - 2 * 3 - 2 * 2);
    CHECK(row_cols(a, 0) == std::vector<std::int32_t>{0, 1, 3});
    CHECK(row_vals(a, 0) == std::vector<double>{4, -1, -1});
    CHECK(row_cols(a, 4) == std::vector<std::int32_t>{1, 3, 4, 5});
    CHECK(nnz(big) == 5 * 1000 - 80 - 50);
    CHECK(transpose(big) == big);
}

TEST_CASE("power_law row lengths follow P(l) ~ l^-exponent", "[generators]")
{
    const auto a = gen::power_law(20000, 1, 2.0, 500, 3);
    const auto uniform = gen::power_law(9000, 3, 0.0, 5, 4);
    const auto full = gen::power_law(40, 40, 2.0, 40, 5);

    REQUIRE_NOTHROW(validate(a));
    const auto len = row_lengths(a);
    const auto ones = std::count(len.begin(), len.end(), 1);
    // P(1) = 1 / sum_{l=1}^{500} l^-2 = 0.6087; the standard error on 20000 rows is 0.0035.
    CHECK(static_cast<double>(ones) / 20000.0 == Approx(0.6087).margin(0.015));
    CHECK(gen::power_law_mean(1, 2.0, 500) == Approx(4.1346).epsilon(1e-4));
    CHECK(gen::power_law_mean(1, 2.0, 1000) == Approx(4.5534).epsilon(1e-4));
    CHECK(static_cast<double>(nnz(a)) / 20000.0 == Approx(4.1346).margin(0.5));
    CHECK(*std::max_element(len.begin(), len.end()) > 100);  // the heavy tail
    CHECK(*std::min_element(len.begin(), len.end()) == 1);
    CHECK(has_diagonal_everywhere(a));
    CHECK(random_values_ok(a));
    const auto ulen = row_lengths(uniform);
    for (int l = 3; l <= 5; ++l) {
        CHECK(static_cast<double>(std::count(ulen.begin(), ulen.end(), l)) / 9000.0 ==
              Approx(1.0 / 3.0).margin(0.03));
    }
    CHECK(nnz(full) == 40 * 40);
    CHECK(gen::power_law(300, 1, 2.0, 100, 9) == gen::power_law(300, 1, 2.0, 100, 9));
    CHECK(gen::power_law(300, 1, 2.0, 100, 9) != gen::power_law(300, 1, 2.0, 100, 10));
}

TEST_CASE("onefull has one full row and the diagonal", "[generators]")
{
    const auto a = gen::onefull(6, 1);

    REQUIRE_NOTHROW(validate(a));
    CHECK(nnz(a) == 2 * 6 - 1);
    CHECK(row_lengths(a) == std::vector<std::int32_t>{6, 1, 1, 1, 1, 1});
    CHECK(row_cols(a, 0) == std::vector<std::int32_t>{0, 1, 2, 3, 4, 5});
    CHECK(row_cols(a, 4) == std::vector<std::int32_t>{4});
    CHECK(random_values_ok(a));
}

TEST_CASE("blocks5 is made of dense 5x5 blocks with irregular block counts", "[generators]")
{
    const std::int32_t nb = 200;
    const std::int32_t b = 4;
    const auto a = gen::blocks5(nb, b, 7);

    REQUIRE_NOTHROW(validate(a));
    CHECK(a.num_rows == 5 * nb);
    std::set<std::int32_t> counts;
    for (std::int32_t bi = 0; bi < nb; ++bi) {
        const auto cols = row_cols(a, 5 * bi);
        for (int r = 1; r < 5; ++r) {
            CHECK(row_cols(a, 5 * bi + r) == cols);  // the 5 rows of a block row share columns
        }
        REQUIRE(cols.size() % 5 == 0);
        std::set<std::int32_t> blocks;
        for (std::size_t k = 0; k < cols.size(); k += 5) {
            const auto bc = cols[k] / 5;
            CHECK(cols[k] == 5 * bc);  // whole blocks: 5 consecutive columns
            CHECK(cols[k + 4] == 5 * bc + 4);
            CHECK(std::abs(bc - bi) <= 4 * b);  // near the diagonal
            blocks.insert(bc);
        }
        CHECK(blocks.count(bi) == 1);  // the diagonal block
        counts.insert(static_cast<std::int32_t>(blocks.size()));
    }
    CHECK(counts == std::set<std::int32_t>{1, 2, 3, 4});
    CHECK(random_values_ok(a));
    CHECK(nnz(gen::blocks5(3, 3, 1)) <= 3 * 5 * 15);
    CHECK(gen::blocks5(30, 5, 2) == gen::blocks5(30, 5, 2));
}

TEST_CASE("banded_offdiag is a band plus far off-diagonals", "[generators]")
{
    const std::vector<std::int64_t> offsets{4, -6};
    const auto a = gen::banded_offdiag(10, 1, offsets, 3);
    const auto spread = gen::spread_offsets(1000, 4);
    const auto full = gen::banded_offdiag(1000, 2, spread, 5);
    const auto half = gen::banded_offdiag(1000, 2, spread, 5, 0.5);

    REQUIRE_NOTHROW(validate(a));
    CHECK(row_cols(a, 0) == std::vector<std::int32_t>{0, 1, 4});
    CHECK(row_cols(a, 6) == std::vector<std::int32_t>{0, 5, 6, 7});
    CHECK(row_cols(a, 9) == std::vector<std::int32_t>{3, 8, 9});
    CHECK(nnz(a) == 28 + 6 + 4);  // band 3*10-2, +4 in rows 0..5, -6 in rows 6..9
    CHECK(spread == std::vector<std::int64_t>{200, -400, 600, -800});
    const std::int64_t band = 5 * 1000 - 2 - 4;
    const std::int64_t far = 800 + 600 + 400 + 200;
    CHECK(nnz(full) == band + far);
    CHECK(static_cast<double>(nnz(half) - band) == Approx(far / 2.0).margin(far * 0.08));
    CHECK(random_values_ok(full));
    const std::vector<std::int64_t> in_band{1};
    const std::vector<std::int64_t> twice{4, 4};
    const std::vector<std::int64_t> too_far{10};
    CHECK_THROWS_WITH(gen::banded_offdiag(10, 1, in_band, 1), Catch::Contains("bandwidth <"));
    CHECK_THROWS_WITH(gen::banded_offdiag(10, 1, twice, 1), Catch::Contains("given twice"));
    CHECK_THROWS_AS(gen::banded_offdiag(10, 1, too_far, 1), InvalidArgument);
    CHECK_THROWS_AS(gen::banded_offdiag(10, 1, offsets, 1, 0.0), InvalidArgument);
}

TEST_CASE("random_uniform has exactly nnz_per_row distinct uniform columns per row", "[generators]")
{
    const auto a = gen::random_uniform(50, 30, 7, 5);
    const auto dense = gen::random_uniform(5, 6, 6, 1);
    const auto none = gen::random_uniform(4, 9, 0, 1);
    const auto one = gen::random_uniform(4000, 10, 1, 9);

    REQUIRE_NOTHROW(validate(a));
    CHECK(row_lengths(a) == std::vector<std::int32_t>(50, 7));
    CHECK(nnz(dense) == 30);
    CHECK(nnz(none) == 0);
    CHECK(none.row_ptrs == std::vector<std::int32_t>{0, 0, 0, 0, 0});
    std::vector<int> per_col(10, 0);
    for (auto c : one.col_idxs) {
        ++per_col[static_cast<std::size_t>(c)];
    }
    for (int count : per_col) {  // expected 400 each, standard deviation 19
        CHECK(count > 320);
        CHECK(count < 480);
    }
    CHECK(random_values_ok(a));
    CHECK(gen::random_uniform(50, 30, 7, 5) == a);
    CHECK(gen::random_uniform(50, 30, 7, 6) != a);
    CHECK_THROWS_AS(gen::random_uniform(4, 9, 10, 1), InvalidArgument);
}

TEST_CASE("Generators reject bad parameters with InvalidArgument", "[generators]")
{
    CHECK_THROWS_WITH(gen::pde(0), Catch::Contains("pde: grid size k must be >= 1"));
    CHECK_THROWS_WITH(gen::pde(700), Catch::Contains("exceed 2147483647"));
    CHECK_THROWS_AS(gen::laplace2d(0, 3), InvalidArgument);
    CHECK_THROWS_AS(gen::laplace2d(100000, 100000), InvalidArgument);
    CHECK_THROWS_WITH(gen::power_law(10, 1, 2.0, 11, 1), Catch::Contains("max_len <= rows"));
    CHECK_THROWS_AS(gen::power_law(10, 0, 2.0, 5, 1), InvalidArgument);
    CHECK_THROWS_AS(gen::power_law(10, 1, -1.0, 5, 1), InvalidArgument);
    CHECK_THROWS_AS(gen::onefull(0, 1), InvalidArgument);
    CHECK_THROWS_AS(gen::blocks5(3, 4, 1), InvalidArgument);
    CHECK_THROWS_AS(gen::blocks5(500'000'000, 1, 1), InvalidArgument);
}

TEST_CASE("The generator table lists every generator and builds them by name", "[generators]")
{
    std::vector<std::string> names;
    for (const auto& g : gen::generators()) {
        names.emplace_back(g.name);
        CHECK(!g.description.empty());
        for (const auto& p : g.params) {
            CHECK(p.default_value >= p.min_value);
            CHECK(p.default_value <= p.max_value);
        }
        const auto a = gen::generate(g.name);  // defaults build a valid matrix
        CHECK_NOTHROW(validate(a));
        CHECK(nnz(a) > 0);
    }

    CHECK(names == std::vector<std::string>{"pde", "laplace2d", "powerlaw", "onefull", "blocks5",
                                            "banded", "random"});
    CHECK(gen::generate("pde", {{"size", 5}}) == gen::pde(5));
    CHECK(gen::generate("laplace2d", {{"nx", 4}, {"ny", 3}}) == gen::laplace2d(4, 3));
    CHECK(gen::generate("powerlaw", {{"rows", 300}, {"max-len", 50}}, 8) ==
          gen::power_law(300, 1, 2.0, 50, 8));
    CHECK(gen::generate("random", {{"rows", 10}, {"nnz-per-row", 3}}, 4) ==
          gen::random_uniform(10, 10, 3, 4));
    CHECK(gen::generate("banded", {}, 2) ==
          gen::banded_offdiag(1000, 2, gen::spread_offsets(1000, 4), 2));
    CHECK(gen::generate("onefull", {{"n", 9}}, 3) == gen::onefull(9, 3));
    CHECK(gen::generate("blocks5", {{"block-rows", 9}, {"blocks", 2}}, 3) == gen::blocks5(9, 2, 3));
    CHECK(gen::find_generator("pde").uses_seed == false);
    CHECK_THROWS_WITH(gen::generate("nope"),
                      Catch::Contains("unknown generator 'nope' (valid: pde, laplace2d, powerlaw, "
                                      "onefull, blocks5, banded, random)"));
    CHECK_THROWS_WITH(gen::generate("pde", {{"sise", 5}}),
                      Catch::Contains("no parameter 'sise' (valid: size)"));
    CHECK_THROWS_WITH(gen::generate("pde", {{"size", 5.5}}), Catch::Contains("whole number"));
    CHECK_THROWS_WITH(gen::generate("pde", {{"size", 0}}), Catch::Contains("outside"));
    CHECK_THROWS_AS(gen::generate("banded", {{"n", 10}}), InvalidArgument);
}

TEST_CASE("The generated sample matrices are what the generators produce", "[generators]")
{
    const fs::path dir = fs::path(SPMV_SOURCE_DIR) / "sample_matrices";
    const std::map<std::string, Matrix> expected = {
        {"pde05.mtx", gen::generate("pde", {{"size", 5}})},
        {"powerlaw_2k.mtx", gen::generate("powerlaw", {{"rows", 2000}}, 1)},
        {"onefull_256.mtx", gen::generate("onefull", {{"n", 256}}, 1)},
        {"banded_1k.mtx", gen::generate("banded", {{"n", 1000}, {"fill", 0.5}}, 1)},
    };

    for (const auto& [file, a] : expected) {
        INFO(file);
        REQUIRE(fs::exists(dir / file));
        CHECK(io::read_matrix_market(dir / file) == a);
    }
}

TEST_CASE("The hand-built sample matrices have the structure their README promises", "[generators]")
{
    const fs::path dir = fs::path(SPMV_SOURCE_DIR) / "sample_matrices";
    const std::vector<std::int32_t> fig5{2, 3, 3, 4, 4, 4, 2, 4, 2, 3, 2, 3, 2,
                                         3, 2, 2, 2, 2, 7, 3, 3, 3, 3, 3, 4, 3};

    const auto c4 = io::read_matrix_market(dir / "canonical4.mtx");
    const auto pellr = io::read_matrix_market(dir / "pellr_fig5.mtx");
    const auto pjds = io::read_matrix_market(dir / "pjds_fig1.mtx");
    const auto empty = io::read_matrix_market(dir / "empty_rows_40.mtx");

    CHECK(c4.row_ptrs == std::vector<std::int32_t>{0, 3, 4, 7, 9});
    CHECK(c4.col_idxs == std::vector<std::int32_t>{0, 2, 3, 1, 0, 2, 3, 1, 3});
    CHECK(c4.values == std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9});
    CHECK(row_lengths(pellr) == fig5);
    CHECK(has_diagonal_everywhere(pellr));
    CHECK(row_cols(pellr, 18) == std::vector<std::int32_t>{15, 16, 17, 18, 19, 20, 21});
    CHECK(pellr.values.back() == 78.0);
    CHECK(row_lengths(pjds) == std::vector<std::int32_t>{2, 5, 1, 3, 4, 1, 6, 2});
    CHECK(row_cols(pjds, 6) == std::vector<std::int32_t>{2, 3, 4, 5, 6, 7});
    CHECK(has_diagonal_everywhere(pjds));
    const auto random = gen::generate("random", {{"rows", 40}, {"nnz-per-row", 3}}, 1);
    for (std::int32_t i = 0; i < 40; ++i) {
        const bool emptied = i % 4 == 1 || i >= 36;
        CHECK(row_cols(empty, i) == (emptied ? std::vector<std::int32_t>{} : row_cols(random, i)));
    }
}
