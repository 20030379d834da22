#pragma once
// The footprint estimate's kit (lib-internal): the accounting every padded layout shares and the
// sorts of the sorted formats, on row lengths alone. The formats' estimates are in their story
// files (lib/src/formats/<name>_story.cpp, FormatInfo::estimate); the engine is estimate.cpp.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <span>
#include <vector>

#include <spmv/types.hpp>

namespace spmv::analysis::detail {

inline constexpr std::size_t value_size = sizeof(double);
inline constexpr std::size_t index_size = sizeof(std::int32_t);

/// A layout of `stored` value slots of which `real` hold the nonzeros, with `aux` auxiliary
/// integers: the accounting every padded format unit uses (value + index bytes of the real
/// entries, value + index bytes of every padding slot in padding_bytes).
inline Footprint padded(std::int64_t stored, std::int64_t real, std::int64_t aux)
{
    Footprint f;
    f.stored_entries = stored;
    f.padding_entries = stored - real;
    f.value_bytes = static_cast<std::size_t>(real) * value_size;
    f.index_bytes = static_cast<std::size_t>(real) * index_size;
    f.aux_bytes = static_cast<std::size_t>(aux) * index_size;
    f.padding_bytes = static_cast<std::size_t>(f.padding_entries) * (value_size + index_size);
    return f;
}

inline std::int64_t round_up(std::int64_t v, std::int64_t m)
{
    return (v + m - 1) / m * m;
}

inline std::int64_t longest(std::span<const std::int32_t> len)
{
    return len.empty() ? 0 : *std::max_element(len.begin(), len.end());
}

/// Sorts the lengths [first, last) longest first. A long range of short lengths (the windows
/// of pJDS, of SELL-C-sigma with a large sigma) is counted, O(range): the same values in the
/// same order as std::sort, ~10x faster for the 2.4M rows of a 10M-nonzero power law, which
/// the sweep sorts twice per point.
template <typename It>
inline void sort_lengths_desc(It first, It last)
{
    const auto n = last - first;
    if (n < 1024) {
        std::sort(first, last, std::greater<>());
        return;
    }
    const auto [lo, hi] = std::minmax_element(first, last);
    const auto shortest = static_cast<std::int64_t>(*lo);
    const auto longest = static_cast<std::int64_t>(*hi);
    if (shortest < 0 || longest - shortest > static_cast<std::int64_t>(n)) {
        std::sort(first, last, std::greater<>());
        return;
    }
    std::vector<std::int64_t> count(static_cast<std::size_t>(longest - shortest) + 1, 0);
    for (auto it = first; it != last; ++it) {
        ++count[static_cast<std::size_t>(static_cast<std::int64_t>(*it) - shortest)];
    }
    auto out = first;
    for (auto l = longest; l >= shortest; --l) {
        const auto c = count[static_cast<std::size_t>(l - shortest)];
        out = std::fill_n(out, c, static_cast<typename std::iterator_traits<It>::value_type>(l));
    }
}

/// Lengths sorted longest first inside consecutive windows of `window` rows (the lengths the
/// stable sorts of pJDS, SELL-C-sigma, BiELL and BiJAD leave in storage order).
inline std::vector<std::int64_t> sorted_in_windows(std::span<const std::int32_t> len,
                                                   std::int64_t window)
{
    std::vector<std::int64_t> s(len.begin(), len.end());
    const auto n = static_cast<std::int64_t>(s.size());
    for (std::int64_t first = 0; first < n; first += window) {
        const auto last = std::min(n, first + window);
        sort_lengths_desc(s.begin() + first, s.begin() + last);
    }
    return s;
}

}  // namespace spmv::analysis::detail
