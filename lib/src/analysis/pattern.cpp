#include <algorithm>
#include <cmath>
#include <limits>

#include <spmv/analysis/pattern.hpp>

namespace spmv::analysis {

template <typename ValueType>
PatternFacts pattern_facts(const Csr<ValueType, std::int32_t>& a)
{
    PatternFacts f;
    f.square = a.num_rows == a.num_cols;
    double lo = std::numeric_limits<double>::infinity();
    double hi = 0.0;
    // binary exponents of the finite nonzero |values|: frexp gives e in [-1073, 1024]
    constexpr int min_exp = -1100;
    std::vector<std::int64_t> exponents(2200, 0);
    std::int64_t counted = 0;
    const auto* ptr = a.row_ptrs.data();
    const auto* col = a.col_idxs.data();
    const auto* val = a.values.data();
    for (std::int64_t i = 0; i < a.num_rows; ++i) {
        for (auto k = ptr[i]; k < ptr[i + 1]; ++k) {
            const double v = static_cast<double>(val[k]);
            if (!std::isfinite(v)) {
                f.finite = false;
            } else if (v == 0.0) {
                ++f.zeros;
            } else {
                lo = std::min(lo, std::abs(v));
                hi = std::max(hi, std::abs(v));
                int e = 0;
                std::frexp(v, &e);  // |v| in [2^(e-1), 2^e)
                ++exponents[static_cast<std::size_t>(e - min_exp)];
                ++counted;
            }
            if (v < 0.0) ++f.negatives;
            const std::int64_t j = col[k];
            if (j == i) continue;
            ++f.off_diagonal;
            if (!f.square) continue;
            // is (j, i) stored? row j's columns are sorted
            const auto* first = col + ptr[j];
            const auto* last = col + ptr[j + 1];
            const auto* it = std::lower_bound(first, last, static_cast<std::int32_t>(i));
            if (it != last && *it == i) {
                ++f.mirrored;
                if (val[it - col] == val[k]) ++f.mirrored_equal;
            }
        }
    }
    f.abs_min = hi > 0.0 ? lo : 0.0;
    f.abs_max = hi;
    f.abs_low = f.abs_min;
    f.abs_high = f.abs_max;
    if (counted > 0) {
        // the bins holding the 1st and 99th percentile, clamped to the true extremes
        const auto low_rank = counted / 100;        // values below it: at most 1 %
        const auto high_rank = counted - 1 - counted / 100;
        std::int64_t seen = 0;
        bool low_done = false;
        for (std::size_t b = 0; b < exponents.size(); ++b) {
            if (exponents[b] == 0) continue;
            const int e = static_cast<int>(b) + min_exp;
            if (!low_done && seen + exponents[b] > low_rank) {
                f.abs_low = std::max(f.abs_min, std::ldexp(1.0, e - 1));
                low_done = true;
            }
            if (seen + exponents[b] > high_rank) {
                f.abs_high = std::min(f.abs_max, std::ldexp(1.0, e));
                break;
            }
            seen += exponents[b];
        }
    }
    return f;
}

template <typename ValueType>
std::vector<std::int32_t> column_counts(const Csr<ValueType, std::int32_t>& a)
{
    std::vector<std::int32_t> counts(static_cast<std::size_t>(std::max<std::int64_t>(a.num_cols, 0)), 0);
    for (const auto c : a.col_idxs) ++counts[static_cast<std::size_t>(c)];
    return counts;
}

template PatternFacts pattern_facts<double>(const Csr<double, std::int32_t>&);
template PatternFacts pattern_facts<float>(const Csr<float, std::int32_t>&);
template std::vector<std::int32_t> column_counts<double>(const Csr<double, std::int32_t>&);
template std::vector<std::int32_t> column_counts<float>(const Csr<float, std::int32_t>&);

}  // namespace spmv::analysis
