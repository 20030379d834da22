#include <catch2/catch.hpp>

#include <climits>
#include <cmath>
#include <cstdint>
#include <span>
#include <numeric>
#include <string>
#include <vector>

#include <spmv/analysis/row_stats.hpp>
#include <spmv/error.hpp>

#include "test_matrices.hpp"

using namespace spmv;
using namespace spmv::analysis;

namespace {

// A matrix whose row i has lengths[i] entries in columns 0 .. lengths[i]-1.
Csr<double, std::int32_t> with_lengths(const std::vector<std::int32_t>& lengths, std::int32_t cols)
{
    Csr<double, std::int32_t> a;
    a.num_rows = static_cast<std::int32_t>(lengths.size());
    a.num_cols = cols;
    for (const auto len : lengths) {
        for (std::int32_t j = 0; j < len; ++j) {
            a.col_idxs.push_back(j);
            a.values.push_back(1.0);
        }
        a.row_ptrs.push_back(static_cast<std::int32_t>(a.values.size()));
    }
    return a;
}

}  // namespace

TEST_CASE("row_stats of the canonical 4x4 matches the header comment", "[analysis]")
{
    const auto a = test::canonical4();

    const auto s = row_stats(a);

    CHECK(s.rows == 4);
    CHECK(s.cols == 4);
    CHECK(s.nnz == 9);
    CHECK(s.ave == 2.25);
    // lengths (3,1,3,2), mean 2.25: squared deviations 0.5625 + 1.5625 + 0.5625 + 0.0625 = 2.75;
    // population sigma sqrt(2.75 / 4) = 0.8291562
    CHECK(s.sigma == Approx(std::sqrt(2.75 / 4.0)).epsilon(1e-14));
    CHECK(s.sigma == Approx(0.8291562).epsilon(1e-7));
    CHECK(s.min == 1);
    CHECK(s.max == 3);
    CHECK(s.spread == 2);
    CHECK(s.empty_rows == 0);
}

TEST_CASE("row_stats sigma is the population standard deviation", "[analysis]")
{
    // lengths 2 4 4 4 5 5 7 9: mean 40/8 = 5, squared deviations 9+1+1+1+0+0+4+16 = 32;
    // population sigma sqrt(32/8) = 2 exactly, the sample one would be sqrt(32/7) = 2.138
    const auto a = with_lengths({2, 4, 4, 4, 5, 5, 7, 9}, 10);

    const auto s = row_stats(a);

    CHECK(s.ave == 5.0);
    CHECK(s.sigma == Approx(2.0).epsilon(1e-14));
    CHECK(s.spread == 7);
}

TEST_CASE("row_stats counts empty rows and handles matrices without rows", "[analysis]")
{
    const auto a = with_lengths({0, 3, 0, 0, 1}, 4);
    const Csr<double, std::int32_t> none;

    const auto s = row_stats(a);
    const auto z = row_stats(none);

    CHECK(s.empty_rows == 3);
    CHECK(s.min == 0);
    CHECK(s.max == 3);
    CHECK(s.nnz == 4);
    CHECK(s.ave == 0.8);
    // mean 0.8: 3 * 0.64 + 4.84 + 0.04 = 6.8, sigma sqrt(6.8 / 5) = 1.16619
    CHECK(s.sigma == Approx(std::sqrt(1.36)).epsilon(1e-14));
    CHECK(z.rows == 0);
    CHECK(z.nnz == 0);
    CHECK(z.ave == 0.0);
    CHECK(z.sigma == 0.0);
    CHECK(z.spread == 0);
}

TEST_CASE("row_stats reproduces the computable columns of PELLR Table 1", "[analysis]")
{
    // None of the Table 1 matrices is in the collection, so sigma cannot be recomputed. The
    // other columns follow from N, nnz and the extreme lengths: build lengths with the table's
    // N and nnz, one row of length lo, one of lo + (max-min), the rest as even as possible.
    struct Row {
        const char* name;
        std::int32_t n;
        std::int64_t nnz;
        double ave;  // as printed
        std::int32_t lo;
        std::int32_t spread;
    };
    const Row table[] = {
        {"memplus", 17758, 126150, 7.1, 1, 572},    // 126150 / 17758 = 7.1039
        {"dw2048", 2048, 10114, 4.9, 1, 5},         // 10114 / 2048 = 4.9385
        {"s3dkt3m2", 90449, 1921955, 21.2, 6, 38},  // 1921955 / 90449 = 21.249
        {"bcsstk24", 3562, 159910, 45.0, 24, 42},   // 159910 / 3562 = 44.893, printed 45.0
    };
    for (const auto& t : table) {
        INFO(t.name);
        std::vector<std::int32_t> len(static_cast<std::size_t>(t.n), 0);
        len[0] = t.lo;
        len[1] = t.lo + t.spread;
        std::int64_t left = t.nnz - len[0] - len[1];
        for (std::size_t i = 2; i < len.size(); ++i) {
            const auto rows_left = static_cast<std::int64_t>(len.size() - i);
            len[i] = static_cast<std::int32_t>(left / rows_left);
            left -= len[i];
        }

        const auto s = row_stats(std::span<const std::int32_t>(len), t.n);

        CHECK(s.nnz == t.nnz);
        CHECK(s.spread == t.spread);
        CHECK(s.ave == Approx(static_cast<double>(t.nnz) / t.n).epsilon(1e-15));
        // one printed decimal; bcsstk24's 44.893 is printed as 45.0 (rounded to 2 digits)
        CHECK(std::abs(s.ave - t.ave) <= (std::string(t.name) == "bcsstk24" ? 0.11 : 0.05));
    }
}

TEST_CASE("row_length_histogram has bin size 1 from length 0 to max", "[analysis]")
{
    const auto a = with_lengths({0, 3, 0, 0, 1, 3, 3}, 4);

    const auto h = row_length_histogram(a);
    const auto c = row_length_histogram(test::canonical4());
    const auto none = row_length_histogram(Csr<double, std::int32_t>{});

    CHECK(h.bin_width == 1);
    CHECK(h.counts == std::vector<std::int64_t>{3, 1, 0, 3});
    CHECK(h.edges == std::vector<std::int64_t>{0, 1, 2, 3, 4});
    CHECK(c.counts == std::vector<std::int64_t>{0, 1, 1, 2});
    CHECK(none.counts.empty());
    CHECK(none.edges == std::vector<std::int64_t>{0});
}

TEST_CASE("histogram uses equal integer-width bins covering min to max", "[analysis]")
{
    std::vector<std::int32_t> v(11);
    std::iota(v.begin(), v.end(), 0);  // 0 .. 10

    // 11 values in at most 4 bins: width ceil(11/4) = 3, ceil(11/3) = 4 bins
    const auto h4 = histogram(std::span<const std::int32_t>(v), 4);
    // at most 5 bins: width ceil(11/5) = 3 again, still only 4 bins needed
    const auto h5 = histogram(std::span<const std::int32_t>(v), 5);
    // at least as many bins as values: bin size 1
    const auto h20 = histogram(std::span<const std::int32_t>(v), 20);

    CHECK(h4.bin_width == 3);
    CHECK(h4.edges == std::vector<std::int64_t>{0, 3, 6, 9, 12});
    CHECK(h4.counts == std::vector<std::int64_t>{3, 3, 3, 2});
    CHECK(h5 == h4);
    CHECK(h20.bin_width == 1);
    CHECK(h20.counts == std::vector<std::int64_t>(11, 1));
    CHECK(h20.edges.front() == 0);
    CHECK(h20.edges.back() == 11);
}

TEST_CASE("histogram of memplus-like lengths 1..573 in 50 bins", "[analysis]")
{
    std::vector<std::int64_t> v;
    for (std::int64_t len = 1; len <= 573; ++len) {
        v.push_back(len);
    }
    v.push_back(7);

    const auto h = histogram(std::span<const std::int64_t>(v), 50);

    // 573 values: width ceil(573/50) = 12, bins ceil(573/12) = 48, edges 1, 13, ..., 577
    CHECK(h.bin_width == 12);
    CHECK(h.counts.size() == 48);
    CHECK(h.edges.front() == 1);
    CHECK(h.edges.back() == 577);
    CHECK(h.counts.front() == 13);  // 1..12 plus the extra 7
    CHECK(h.counts.back() == 9);    // 565..573
    CHECK(std::accumulate(h.counts.begin(), h.counts.end(), std::int64_t{0}) == 574);
}

TEST_CASE("histogram rejects fewer than one bin and handles no values", "[analysis]")
{
    const std::vector<std::int32_t> v{1, 2};
    const std::vector<std::int32_t> none;

    CHECK_THROWS_AS(histogram(std::span<const std::int32_t>(v), 0), InvalidArgument);
    CHECK(histogram(std::span<const std::int32_t>(none), 3).counts.empty());
}

TEST_CASE("histogram refuses a value range whose bin arithmetic would overflow", "[analysis]")
{
    // hi - lo + 1 = 2^63 + 1 does not fit in int64 (the Python module died with SIGFPE here)
    const std::vector<std::int64_t> wide{-(std::int64_t{1} << 62), std::int64_t{1} << 62};
    const std::vector<std::int64_t> extremes{INT64_MIN, INT64_MAX};
    const std::vector<std::int64_t> fits{-(std::int64_t{1} << 59), std::int64_t{1} << 59};

    CHECK_THROWS_AS(histogram(std::span<const std::int64_t>(wide), 1), InvalidArgument);
    CHECK_THROWS_AS(histogram(std::span<const std::int64_t>(extremes), 7), InvalidArgument);
    const auto h = histogram(std::span<const std::int64_t>(fits), 2);
    CHECK(h.counts == std::vector<std::int64_t>{1, 1});
    CHECK(h.edges.front() == -(std::int64_t{1} << 59));
    CHECK(h.edges.back() > (std::int64_t{1} << 59));
}

TEST_CASE("row statistics and histograms agree on the test zoo", "[analysis]")
{
    for (const auto& m : test::zoo()) {
        INFO(m.name);
        const auto s = row_stats(m.a);
        const auto h = row_length_histogram(m.a);

        std::int64_t rows = 0, entries = 0;
        for (std::size_t len = 0; len < h.counts.size(); ++len) {
            rows += h.counts[len];
            entries += static_cast<std::int64_t>(len) * h.counts[len];
        }
        CHECK(rows == s.rows);
        CHECK(entries == s.nnz);
        CHECK(s.nnz == nnz(m.a));
        if (s.rows > 0) {
            CHECK(h.counts[0] == s.empty_rows);
            CHECK(h.counts.size() == static_cast<std::size_t>(s.max) + 1);
            CHECK(h.counts[static_cast<std::size_t>(s.min)] > 0);
            CHECK(s.ave * static_cast<double>(s.rows) == Approx(static_cast<double>(s.nnz)));
        }
    }
}
