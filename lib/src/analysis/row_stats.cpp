#include <spmv/analysis/row_stats.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>

#include <spmv/error.hpp>

namespace spmv::analysis {

RowLengthStats row_stats(std::span<const std::int32_t> lengths, std::int64_t num_cols)
{
    SPMV_EXPECTS(num_cols >= 0, "row_stats: negative column count " + std::to_string(num_cols));
    RowLengthStats s;
    s.rows = static_cast<std::int64_t>(lengths.size());
    s.cols = num_cols;
    if (lengths.empty()) {
        return s;
    }
    s.min = lengths[0];
    s.max = lengths[0];
    for (const std::int64_t len : lengths) {
        SPMV_EXPECTS(len >= 0, "row_stats: negative row length " + std::to_string(len));
        s.nnz += len;
        s.min = std::min(s.min, len);
        s.max = std::max(s.max, len);
        s.empty_rows += len == 0 ? 1 : 0;
    }
    s.spread = s.max - s.min;
    const auto n = static_cast<double>(s.rows);
    s.ave = static_cast<double>(s.nnz) / n;
    // Two passes (mean first) avoid the cancellation of sum(l^2) - n * ave^2.
    double sum_sq = 0.0;
    for (const std::int64_t len : lengths) {
        const double d = static_cast<double>(len) - s.ave;
        sum_sq += d * d;
    }
    s.sigma = std::sqrt(sum_sq / n);  // population: divide by N (see the header)
    return s;
}

template <typename ValueType, typename IndexType>
RowLengthStats row_stats(const Csr<ValueType, IndexType>& a)
{
    const auto len = row_lengths(a);
    if constexpr (std::is_same_v<IndexType, std::int32_t>) {
        return row_stats(std::span<const std::int32_t>(len), std::int64_t{a.num_cols});
    } else {
        const std::vector<std::int32_t> len32(len.begin(), len.end());
        return row_stats(std::span<const std::int32_t>(len32), std::int64_t{a.num_cols});
    }
}

template <typename ValueType, typename IndexType>
Histogram row_length_histogram(const Csr<ValueType, IndexType>& a)
{
    Histogram h;
    h.bin_width = 1;
    h.edges.assign(1, 0);
    const auto len = row_lengths(a);
    if (len.empty()) {
        return h;
    }
    const auto max = static_cast<std::size_t>(*std::max_element(len.begin(), len.end()));
    h.counts.assign(max + 1, 0);
    for (const auto l : len) {
        ++h.counts[static_cast<std::size_t>(l)];
    }
    h.edges.resize(max + 2);
    for (std::size_t b = 0; b < h.edges.size(); ++b) {
        h.edges[b] = static_cast<std::int64_t>(b);
    }
    return h;
}

template <typename T>
Histogram histogram(std::span<const T> values, int num_bins)
{
    SPMV_EXPECTS(num_bins >= 1,
                 "histogram: num_bins must be >= 1, got " + std::to_string(num_bins));
    Histogram h;
    h.edges.assign(1, 0);
    if (values.empty()) {
        return h;
    }
    const auto [lo_it, hi_it] = std::minmax_element(values.begin(), values.end());
    const auto lo = static_cast<std::int64_t>(*lo_it);
    const auto hi = static_cast<std::int64_t>(*hi_it);
    // hi - lo in unsigned arithmetic (exact for any hi >= lo); beyond 2^61 distinct values the
    // bin arithmetic below (span + num_bins, lo + bins * width) could overflow int64.
    const std::uint64_t diff = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
    SPMV_EXPECTS(diff < (std::uint64_t{1} << 61),
                 "histogram: the values span [" + std::to_string(lo) + ", " + std::to_string(hi) +
                     "], more than 2^61 distinct integers");
    const auto span = static_cast<std::int64_t>(diff) + 1;  // distinct integer values in [lo, hi]
    h.bin_width = (span + num_bins - 1) / num_bins;
    const std::int64_t bins = (span + h.bin_width - 1) / h.bin_width;
    h.counts.assign(static_cast<std::size_t>(bins), 0);
    h.edges.resize(static_cast<std::size_t>(bins) + 1);
    for (std::int64_t b = 0; b <= bins; ++b) {
        h.edges[static_cast<std::size_t>(b)] = lo + b * h.bin_width;
    }
    for (const auto v : values) {
        ++h.counts[static_cast<std::size_t>((static_cast<std::int64_t>(v) - lo) / h.bin_width)];
    }
    return h;
}

#define SPMV_INSTANTIATE_ROW_STATS(V, I)                       \
    template RowLengthStats row_stats<V, I>(const Csr<V, I>&); \
    template Histogram row_length_histogram<V, I>(const Csr<V, I>&);

SPMV_INSTANTIATE_ROW_STATS(float, std::int32_t)
SPMV_INSTANTIATE_ROW_STATS(double, std::int32_t)
template Histogram histogram<std::int32_t>(std::span<const std::int32_t>, int);
template Histogram histogram<std::int64_t>(std::span<const std::int64_t>, int);

}  // namespace spmv::analysis
