#pragma once
// Lesson 05: the two counting functions that the exercise asks you to write. The lesson around
// them (main.cpp: the output and the self-check) is compiled once and linked with either file
// that defines them: solution.cpp -> tutorial_05_sort_and_pad, exercise.cpp (the TODOs, yours
// to fill in) -> tutorial_05_sort_and_pad_exercise.
#include <cstddef>
#include <cstdint>
#include <vector>

/// Row lengths, one per row in row order (spmv::row_lengths).
using Lengths = std::vector<std::int32_t>;

/// Slots pJDS stores for rows of these `lengths`: sorted longest first, then every block of
/// `block_rows` rows padded to its longest row (the last block may hold fewer rows).
std::int64_t pjds_stored_entries(Lengths lengths, std::size_t block_rows);

/// Slots SELL-C-sigma stores: rows sorted longest first inside each window of `sigma` rows,
/// then every slice of `c` rows padded to its longest row (the last slice completed to c rows).
std::int64_t sell_stored_entries(Lengths lengths, std::size_t c, std::size_t sigma);
