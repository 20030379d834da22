// Exercise for lesson 02 (solution: solution.cpp). Fill in the two TODOs below, rebuild, and
// run tutorial_02_csr_scalar_exercise until its self-check prints PASSED.
//
// This file holds only the functions you write (declared in exercise.hpp). The rest of the
// lesson, main.cpp, prints the results and checks them; it is the same program that runs the
// solution, linked with this file instead of solution.cpp.
#include <algorithm>  // std::max_element, std::min
#include <cstddef>
#include <cstdint>
#include <vector>

#include <spmv/formats/csr.hpp>

#include "exercise.hpp"

// y = A x with one thread per row: thread i walks its row from row_ptrs[i] to row_ptrs[i + 1].
std::vector<double> csr_scalar_spmv(const spmv::Csr<double, std::int32_t>& a,
                                    const std::vector<double>& x)
{
    // TODO: for every row i, sum a.values[k] * x[a.col_idxs[k]] over the entries k of row i,
    //       k = a.row_ptrs[i] .. a.row_ptrs[i + 1] - 1, and store the sum in y[i].
    static_cast<void>(x);
    return std::vector<double>(a.num_rows, 0.0);  // stub: every y[i] = 0
}

// The 32 threads of a warp run in lock step, so a warp makes as many loop trips as its longest
// row. N_iter = sum over the warps of that maximum (PELLR eq. 1).
std::int64_t warp_iterations(const std::vector<std::int32_t>& lengths, std::size_t warp_size)
{
    // TODO: cut `lengths` into warps of warp_size consecutive rows (the last warp may be
    //       shorter) and add up the longest row of every warp (std::max_element helps).
    static_cast<void>(lengths);
    static_cast<void>(warp_size);
    return 0;  // stub
}
