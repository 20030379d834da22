// Exercise for lesson 08 (solution: solution.cpp). Fill in the TODO in pack_send_buffer below,
// rebuild, and run tutorial_08_distributed_exercise (under mpiexec -n 2, or as one process)
// until its self-check prints PASSED.
//
// This file holds only the function you write (declared in exercise.hpp). The rest of the
// lesson, main.cpp, runs it and checks it; it is the same program that runs the solution,
// linked with this file instead of solution.cpp.
#include <cstddef>
#include <span>
#include <vector>

#include <spmv/dist/exchange_plan.hpp>

#include "exercise.hpp"

// The send side of the exchange: the own x entries that the neighbours asked for, neighbour
// after neighbour (plan.send), in the order they want them. DistMatrix packs exactly this
// buffer before its MPI_Isend calls: Kreutzer's "local gather" (Fig. 4).
std::vector<double> pack_send_buffer(const spmv::dist::ExchangePlan& plan,
                                     std::span<const double> x_own)
{
    // TODO: one entry per plan.send_idx[i]: send[i] is the own x entry that it names. Every
    //       neighbour's part of the buffer is then plan.send[k].offset .. + count, which
    //       exchange_by_hand copies into that neighbour's halo (MPI_Isend in DistMatrix).
    static_cast<void>(x_own);
    return std::vector<double>(plan.send_idx.size(), 0.0);  // stub: a buffer of zeros
}
