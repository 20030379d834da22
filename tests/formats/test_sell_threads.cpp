// SELL-C-sigma built on several threads (spmv/parallel.hpp, issue 36): every array is the same
// bit for bit as on one thread and as a plain serial builder written out here (one window
// sort, one slice, one row after the other), for matrices large enough to be cut into many
// blocks of work, with empty rows, sigma in {1, 4, 32, N} and C in {1, 4, 32}.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <spmv/error.hpp>
#include <spmv/formats/sell.hpp>
#include <spmv/parallel.hpp>

#include "test_matrices.hpp"

using namespace spmv;

namespace {

using Sell = SellCSigma<double, std::int32_t>;

/// Restores the default thread count when a test ends, however it ends.
struct DefaultThreadsAfter {
    DefaultThreadsAfter() = default;
    DefaultThreadsAfter(const DefaultThreadsAfter&) = delete;
    DefaultThreadsAfter& operator=(const DefaultThreadsAfter&) = delete;
    ~DefaultThreadsAfter() { set_build_threads(0); }
};

/// SELL-C-sigma by its definition, serially: a stable sort by length (longest first) inside
/// each window of sigma rows, slices of C rows padded to their longest row, slot (row r,
/// column j) of slice s at slice_ptrs[s] + j * C + r.
Sell serial_sell(const Csr<double, std::int32_t>& a, std::int64_t c, std::int64_t sigma)
{
    Sell s;
    s.num_rows = a.num_rows;
    s.num_cols = a.num_cols;
    s.slice_height = static_cast<std::int32_t>(c);
    s.sort_window = static_cast<std::int32_t>(sigma);
    const std::int64_t n = a.num_rows;
    auto length = [&a](std::int32_t row) {
        const auto r = static_cast<std::size_t>(row);
        return a.row_ptrs[r + 1] - a.row_ptrs[r];
    };
    s.row_perm.resize(static_cast<std::size_t>(n));
    std::iota(s.row_perm.begin(), s.row_perm.end(), 0);
    for (std::int64_t first = 0; first < n; first += sigma) {
        const auto window = s.row_perm.begin() + first;
        std::stable_sort(window, window + std::min(sigma, n - first),
                         [&](std::int32_t l, std::int32_t r) { return length(l) > length(r); });
    }
    s.slice_ptrs = {0};
    for (std::int64_t first = 0; first < n; first += c) {
        std::int32_t width = 0;
        for (auto k = first; k < std::min(n, first + c); ++k) {
            width = std::max(width, length(s.row_perm[static_cast<std::size_t>(k)]));
        }
        s.slice_widths.push_back(width);
        s.slice_ptrs.push_back(s.slice_ptrs.back() + static_cast<std::int32_t>(c) * width);
    }
    s.col_idxs.assign(static_cast<std::size_t>(s.slice_ptrs.back()), padding_index<std::int32_t>);
    s.values.assign(static_cast<std::size_t>(s.slice_ptrs.back()), 0.0);
    for (std::int64_t k = 0; k < n; ++k) {
        const auto row = s.row_perm[static_cast<std::size_t>(k)];
        const auto base = s.slice_ptrs[static_cast<std::size_t>(k / c)] + k % c;
        for (std::int32_t j = 0; j < length(row); ++j) {
            const auto e = static_cast<std::size_t>(a.row_ptrs[static_cast<std::size_t>(row)] + j);
            s.col_idxs[static_cast<std::size_t>(base + j * c)] = a.col_idxs[e];
            s.values[static_cast<std::size_t>(base + j * c)] = a.values[e];
        }
    }
    return s;
}

void require_same(const Sell& x, const Sell& y)
{
    REQUIRE(x.num_rows == y.num_rows);
    REQUIRE(x.num_cols == y.num_cols);
    REQUIRE(x.slice_height == y.slice_height);
    REQUIRE(x.sort_window == y.sort_window);
    REQUIRE(x.row_perm == y.row_perm);
    REQUIRE(x.slice_widths == y.slice_widths);
    REQUIRE(x.slice_ptrs == y.slice_ptrs);
    REQUIRE(x.col_idxs == y.col_idxs);
    REQUIRE(x.values == y.values);  // exact: the same doubles in the same slots
}

}  // namespace

TEST_CASE("SELL-C-sigma is the same bit for bit on 1, 4 and 7 threads and as a serial builder",
          "[formats][sell][threads]")
{
    const DefaultThreadsAfter restore;
    // 70,000 rows: blocks of 2^14 rows, so 5 blocks of rows, windows and slices and more;
    // lengths 0..40 (empty rows), 0..1 (mostly empty) and one long row among short ones
    std::vector<test::NamedMatrix> matrices = test::zoo();
    matrices.push_back({"irregular 70000x500", test::random_csr(70000, 500, 0, 40, 21)});
    matrices.push_back({"mostly empty 50001x300", test::random_csr(50001, 300, 0, 1, 22)});
    auto spike = test::random_csr(40000, 2000, 1, 3, 23);
    {
        // row 33333 made 1999 long: the slice holding it dominates its block of work
        Csr<double, std::int32_t> b;
        b.num_rows = spike.num_rows;
        b.num_cols = spike.num_cols;
        for (std::int32_t i = 0; i < spike.num_rows; ++i) {
            if (i == 33333) {
                for (std::int32_t c = 0; c < 1999; ++c) {
                    b.col_idxs.push_back(c);
                    b.values.push_back(0.5 + c);
                }
            } else {
                for (auto e = spike.row_ptrs[static_cast<std::size_t>(i)];
                     e < spike.row_ptrs[static_cast<std::size_t>(i) + 1]; ++e) {
                    b.col_idxs.push_back(spike.col_idxs[static_cast<std::size_t>(e)]);
                    b.values.push_back(spike.values[static_cast<std::size_t>(e)]);
                }
            }
            b.row_ptrs.push_back(static_cast<std::int32_t>(b.values.size()));
        }
        matrices.push_back({"one long row 40000x2000", std::move(b)});
    }

    for (const auto& [name, a] : matrices) {
        const std::int64_t n = std::max(1, a.num_rows);
        for (const std::int64_t c : {1, 4, 32}) {
            for (const std::int64_t sigma : {std::int64_t{1}, std::int64_t{4}, std::int64_t{32},
                                             n}) {
                INFO(name << ", C = " << c << ", sigma = " << sigma);
                const auto expected = serial_sell(a, c, sigma);
                const SellCSigmaOptions options{static_cast<int>(c), static_cast<int>(sigma)};

                for (const unsigned threads : {1u, 4u, 7u}) {
                    INFO("threads = " << threads);
                    set_build_threads(threads);
                    const auto s = to_sell_c_sigma(a, options);

                    require_same(s, expected);
                }
                set_build_threads(7);
                validate(to_sell_c_sigma(a, options));
            }
        }
    }
}

TEST_CASE("SELL-C-sigma past 2^31 slots names the slice where 32 bits end, on any threads",
          "[formats][sell][threads]")
{
    const DefaultThreadsAfter restore;
    // three slices of C = 1024 rows, each with one row of 2^20 + 1 entries: 1024 * 1048577 =
    // 1073742848 slots a slice, so 32-bit slot indices end in the second slice, at 2147485696
    // slots (all three: 3221228544); the builder throws before it allocates any slot
    constexpr std::int32_t wide = (1 << 20) + 1;
    Csr<double, std::int32_t> a;
    a.num_rows = 3 * 1024;
    a.num_cols = wide;
    for (std::int32_t i = 0; i < a.num_rows; ++i) {
        if (i % 1024 == 0) {
            for (std::int32_t c = 0; c < wide; ++c) {
                a.col_idxs.push_back(c);
                a.values.push_back(1.0);
            }
        }
        a.row_ptrs.push_back(static_cast<std::int32_t>(a.values.size()));
    }

    for (const unsigned threads : {1u, 2u, 7u}) {
        set_build_threads(threads);
        try {
            (void)to_sell_c_sigma(a, SellCSigmaOptions{1024, 1});
            FAIL("no NotApplicable for 3221228544 slots");
        } catch (const NotApplicable& e) {
            const std::string what = e.what();
            INFO(what);
            CHECK(what.find("SELL-C-sigma would store 2147485696 slots") != std::string::npos);
            CHECK(what.find("more than 32-bit indices can address") != std::string::npos);
        }
    }
}
