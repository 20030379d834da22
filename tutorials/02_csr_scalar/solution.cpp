// Lesson 02, solution: the two functions of exercise.hpp as the lesson runs them
// (tutorial_02_csr_scalar). exercise.cpp holds the same two as TODOs; main.cpp calls them.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <spmv/formats/csr.hpp>

#include "exercise.hpp"

// [section: csr-scalar]
// y = A x with one thread per row: thread i walks its row from row_ptrs[i] to row_ptrs[i + 1].
std::vector<double> csr_scalar_spmv(const spmv::Csr<double, std::int32_t>& a,
                                    const std::vector<double>& x)
{
    std::vector<double> y(a.num_rows, 0.0);
    for (std::int32_t i = 0; i < a.num_rows; ++i) {  // on the GPU: i = global thread index
        double sum = 0.0;
        for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
            sum += a.values[k] * x[a.col_idxs[k]];
        }
        y[i] = sum;
    }
    return y;
}
// [section: warp-iterations]
// The 32 threads of a warp run in lock step, so a warp makes as many loop trips as its longest
// row. N_iter = sum over the warps of that maximum (PELLR eq. 1).
std::int64_t warp_iterations(const std::vector<std::int32_t>& lengths, std::size_t warp_size)
{
    std::int64_t n_iter = 0;
    for (std::size_t first = 0; first < lengths.size(); first += warp_size) {
        const auto last = std::min(lengths.size(), first + warp_size);
        n_iter += *std::max_element(lengths.begin() + first, lengths.begin() + last);
    }
    return n_iter;
}
// [section: end]
