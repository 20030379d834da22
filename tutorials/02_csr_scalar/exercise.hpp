#pragma once
// Lesson 02: the two functions that the exercise asks you to write. The lesson around them
// (main.cpp: the output and the self-check) is compiled once and linked with either file that
// defines them: solution.cpp -> tutorial_02_csr_scalar, exercise.cpp (the TODOs, yours to
// fill in) -> tutorial_02_csr_scalar_exercise.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <spmv/formats/csr.hpp>

/// y = A x with one (virtual) GPU thread per row: thread i computes y[i] from row i.
std::vector<double> csr_scalar_spmv(const spmv::Csr<double, std::int32_t>& a,
                                    const std::vector<double>& x);

/// N_iter (PELLR eq. 1): cut the row `lengths` into warps of `warp_size` consecutive rows (the
/// last may be shorter) and add up the longest row of every warp.
std::int64_t warp_iterations(const std::vector<std::int32_t>& lengths, std::size_t warp_size);
