// Lesson 08, solution: pack_send_buffer (exercise.hpp) as the lesson runs it
// (tutorial_08_distributed). exercise.cpp holds it as a TODO; main.cpp calls it from
// exchange_by_hand.
#include <cstddef>
#include <span>
#include <vector>

#include <spmv/dist/exchange_plan.hpp>

#include "exercise.hpp"

// [section: pack]
// The send side of the exchange: the own x entries that the neighbours asked for, neighbour
// after neighbour (plan.send), in the order they want them. DistMatrix packs exactly this
// buffer before its MPI_Isend calls: Kreutzer's "local gather" (Fig. 4).
std::vector<double> pack_send_buffer(const spmv::dist::ExchangePlan& plan,
                                     std::span<const double> x_own)
{
    std::vector<double> send(plan.send_idx.size());
    for (std::size_t i = 0; i < send.size(); ++i) {
        send[i] = x_own[static_cast<std::size_t>(plan.send_idx[i])];
    }
    return send;
}
// [section: end]
