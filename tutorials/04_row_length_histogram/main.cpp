// Lesson 04: row statistics and the row-length histogram.
// Before choosing a format, look at the rows: how many entries they hold on average (N_nzr),
// how much they vary (sigma, max - min), and the histogram with bin size 1 (Kreutzer Fig. 3).
// The longest row sets ELLPACK's width; the spread says how much padding a format will need.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <spmv/analysis/row_stats.hpp>
#include <spmv/formats/csr.hpp>

#include "lesson.hpp"

namespace {

void print_stats(const char* name, const spmv::analysis::RowLengthStats& s)
{
    std::printf("%s: N = %lld, nnz = %lld, ave = %.3f, sigma = %.3f\n"
                "  min = %lld, max = %lld, max - min = %lld, empty rows = %lld\n",
                name, static_cast<long long>(s.rows), static_cast<long long>(s.nnz), s.ave,
                s.sigma, static_cast<long long>(s.min), static_cast<long long>(s.max),
                static_cast<long long>(s.spread), static_cast<long long>(s.empty_rows));
}

/// One text bar per bin: `count` scaled so that the largest count gets `width` characters.
void print_bar(const std::string& label, std::int64_t count, std::int64_t largest, int width)
{
    const auto n = count == 0 ? 0 : std::max<std::int64_t>(1, count * width / largest);
    std::printf("  %-9s %5lld%s%s\n", label.c_str(), static_cast<long long>(count), n ? " " : "",
                std::string(static_cast<std::size_t>(n), '#').c_str());
}

}  // namespace

int main()
{
    tutorial::SelfCheck check;

    for (const char* name : {"pjds_fig1.mtx", "powerlaw_2k.mtx"}) {
        const auto a = tutorial::read_sample(name);
        // [section: stats]
        const auto stats = spmv::analysis::row_stats(a);            // N, nnz, ave, sigma, ...
        const auto hist = spmv::analysis::row_length_histogram(a);  // counts[len], len = 0..max
        // [section: end]
        print_stats(name, stats);
        const std::int64_t largest = *std::max_element(hist.counts.begin(), hist.counts.end());
        const std::size_t shown = std::min<std::size_t>(hist.counts.size(), 16);
        std::printf("  length    rows\n");
        for (std::size_t len = 0; len < shown; ++len) {
            print_bar(std::to_string(len), hist.counts[len], largest, 50);
        }
        // The long tail, folded into ranges of doubling length [lo, 2 lo).
        for (std::size_t lo = shown; lo < hist.counts.size(); lo *= 2) {
            const auto hi = std::min(2 * lo, hist.counts.size());  // one past the range
            std::int64_t rows = 0;
            for (std::size_t len = lo; len < hi; ++len) rows += hist.counts[len];
            print_bar(std::to_string(lo) + "-" + std::to_string(hi - 1), rows, largest, 50);
        }

        // [section: by-hand]
        // The same numbers by hand: count every row's length, then sum over the bins.
        std::vector<std::int64_t> counts(static_cast<std::size_t>(stats.max) + 1, 0);
        for (auto len : spmv::row_lengths(a)) ++counts[static_cast<std::size_t>(len)];
        std::int64_t rows = 0, nnz = 0;
        double squares = 0.0;
        for (std::size_t len = 0; len < counts.size(); ++len) {
            rows += counts[len];
            nnz += counts[len] * static_cast<std::int64_t>(len);
            squares += double(counts[len]) * (double(len) - stats.ave) * (double(len) - stats.ave);
        }
        const double sigma = std::sqrt(squares / double(rows));  // population sigma: divide by N
        // [section: end]
        const std::string n = name;
        check.expect(counts == hist.counts, n + ": histogram == counting the row lengths by hand");
        check.expect(rows == stats.rows && nnz == stats.nnz,
                     n + ": sum of counts = N, sum of length x count = nnz");
        check.expect(std::abs(stats.ave - double(nnz) / double(rows)) < 1e-15 &&
                         std::abs(sigma - stats.sigma) <= 1e-12 * stats.sigma,
                     n + ": ave = nnz / N, sigma = sqrt(sum count (len - ave)^2 / N)");
        std::printf("  ELLPACK would pad every row to %lld: %lld slots for %lld nonzeros\n\n",
                    static_cast<long long>(stats.max),
                    static_cast<long long>(stats.rows * stats.max),
                    static_cast<long long>(stats.nnz));
    }

    // The row lengths of pjds_fig1.mtx are given in its header: [2 5 1 3 4 1 6 2].
    const auto fig1 = spmv::analysis::row_length_histogram(tutorial::read_sample("pjds_fig1.mtx"));
    check.expect(fig1.counts == std::vector<std::int64_t>{0, 2, 2, 1, 1, 1, 1},
                 "pjds_fig1: lengths [2 5 1 3 4 1 6 2] give counts 0 2 2 1 1 1 1");
    return check.finish();
}
