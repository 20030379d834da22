#pragma once
// Lesson 08: the function that the exercise asks you to write. The lesson around it (main.cpp:
// partitions, the exchange by hand that calls it, the MPI run, timelines, the model and the
// self-check) is compiled once and linked with either file that defines it: solution.cpp ->
// tutorial_08_distributed, exercise.cpp (the TODO, yours to fill in) ->
// tutorial_08_distributed_exercise.
#include <span>
#include <vector>

#include <spmv/dist/exchange_plan.hpp>

/// The send buffer of one rank: for every plan.send_idx[i], the own x entry it names, in that
/// order (neighbour after neighbour, as plan.send lists them).
std::vector<double> pack_send_buffer(const spmv::dist::ExchangePlan& plan,
                                     std::span<const double> x_own);
