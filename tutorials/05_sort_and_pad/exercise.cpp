// Exercise for lesson 05 (solution: solution.cpp). Fill in the two TODOs below, rebuild, and
// run tutorial_05_sort_and_pad_exercise until its self-check prints PASSED.
//
// This file holds only the functions you write (declared in exercise.hpp). The rest of the
// lesson, main.cpp, prints the results and checks them; it is the same program that runs the
// solution, linked with this file instead of solution.cpp.
#include <algorithm>   // std::stable_sort, std::max_element, std::min
#include <cstddef>
#include <cstdint>
#include <functional>  // std::greater

#include "exercise.hpp"

// pJDS: sort the lengths (longest first), cut them into blocks of b_r rows and pad every block
// to its first, longest, row. The last block may hold fewer than b_r rows.
std::int64_t pjds_stored_entries(Lengths lengths, std::size_t block_rows)
{
    // TODO: sort `lengths` longest first (std::stable_sort with std::greater<>()), then add,
    //       for every block of block_rows consecutive sorted rows, (rows in the block) x (the
    //       block's longest row). Remember that the last block may be shorter.
    static_cast<void>(lengths);
    static_cast<void>(block_rows);
    return 0;  // stub
}

// SELL-C-sigma: sort only inside each window of sigma rows, cut into slices of C rows, pad every
// slice to its longest row. The last slice is completed to C rows.
std::int64_t sell_stored_entries(Lengths lengths, std::size_t c, std::size_t sigma)
{
    // TODO: sort each window of sigma consecutive rows longest first (only inside the window),
    //       then add, for every slice of c consecutive rows, c x (the slice's longest row):
    //       the last slice counts c rows even when fewer are left.
    static_cast<void>(lengths);
    static_cast<void>(c);
    static_cast<void>(sigma);
    return 0;  // stub
}
