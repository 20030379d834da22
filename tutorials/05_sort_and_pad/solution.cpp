// Lesson 05, solution: the two counting functions of exercise.hpp as the lesson runs them
// (tutorial_05_sort_and_pad). exercise.cpp holds the same two as TODOs; main.cpp calls them.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>

#include "exercise.hpp"

// [section: count-pjds]
// pJDS: sort the lengths (longest first), cut them into blocks of b_r rows and pad every block
// to its first, longest, row. The last block may hold fewer than b_r rows.
std::int64_t pjds_stored_entries(Lengths lengths, std::size_t block_rows)
{
    std::stable_sort(lengths.begin(), lengths.end(), std::greater<>());
    std::int64_t stored = 0;
    for (std::size_t first = 0; first < lengths.size(); first += block_rows) {
        const auto rows = std::min(block_rows, lengths.size() - first);
        stored += static_cast<std::int64_t>(rows) * lengths[first];
    }
    return stored;
}
// [section: count-sell]
// SELL-C-sigma: sort only inside each window of sigma rows, cut into slices of C rows, pad every
// slice to its longest row. The last slice is completed to C rows.
std::int64_t sell_stored_entries(Lengths lengths, std::size_t c, std::size_t sigma)
{
    for (std::size_t first = 0; first < lengths.size(); first += sigma) {
        const auto last = lengths.begin() + std::min(lengths.size(), first + sigma);
        std::stable_sort(lengths.begin() + first, last, std::greater<>());
    }
    std::int64_t stored = 0;
    for (std::size_t first = 0; first < lengths.size(); first += c) {
        const auto last = lengths.begin() + std::min(lengths.size(), first + c);
        stored += static_cast<std::int64_t>(c) * *std::max_element(lengths.begin() + first, last);
    }
    return stored;
}
// [section: end]
