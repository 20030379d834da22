#include <cstdint>
#include <limits>
#include <string>

#include <spmv/dist/exchange_plan.hpp>
#include <spmv/error.hpp>

namespace spmv::dist {

std::int64_t ExchangePlan::halo_size() const noexcept
{
    return recv.empty() ? 0 : recv.back().offset + recv.back().count;
}

ExchangePlan receive_side(int rank, std::span<const std::int32_t> halo_owner)
{
    ExchangePlan p;
    p.rank = rank;
    std::size_t i = 0;
    while (i < halo_owner.size()) {
        std::size_t j = i;
        while (j < halo_owner.size() && halo_owner[j] == halo_owner[i]) {
            ++j;
        }
        SPMV_EXPECTS(halo_owner[i] != rank, "a rank cannot receive from itself");
        SPMV_EXPECTS(p.recv.empty() || p.recv.back().rank < halo_owner[i],
                     "halo owners must be ascending");
        p.recv.push_back({halo_owner[i], static_cast<std::int64_t>(j - i),
                          static_cast<std::int64_t>(i)});
        i = j;
    }
    return p;
}

void fill_send_side(ExchangePlan& plan, const std::vector<std::vector<global_index>>& requests,
                    const Partition& cols)
{
    plan.send.clear();
    plan.send_idx.clear();
    // send_idx holds local (32-bit) indices of this rank's x entries: its share must fit them
    // (split() refuses the same share; plan_all() gets here without a split of this rank)
    if (cols.count(plan.rank) > std::numeric_limits<std::int32_t>::max()) {
        SPMV_THROW(DimensionMismatch,
                   "rank " + std::to_string(plan.rank) + "'s share of x (" +
                       std::to_string(cols.count(plan.rank)) +
                       " entries) does not fit the 32-bit local indices of its send list (at "
                       "most 2^31 - 1 = 2147483647): use more ranks");
    }
    for (std::size_t s = 0; s < requests.size(); ++s) {
        if (requests[s].empty()) {
            continue;
        }
        SPMV_EXPECTS(static_cast<int>(s) != plan.rank, "a rank cannot send to itself");
        plan.send.push_back({static_cast<int>(s), static_cast<std::int64_t>(requests[s].size()),
                             static_cast<std::int64_t>(plan.send_idx.size())});
        for (auto g : requests[s]) {
            if (g < 0 || g >= cols.size || cols.owner_of(g) != plan.rank) {
                SPMV_THROW(InvalidArgument, "rank " + std::to_string(s) + " asked rank " +
                                                std::to_string(plan.rank) + " for x entry " +
                                                std::to_string(g) + ", which it does not own");
            }
            plan.send_idx.push_back(static_cast<std::int32_t>(cols.local_index_of(g)));
        }
    }
}

std::vector<ExchangePlan> plan_all(const std::vector<std::vector<global_index>>& halo_cols,
                                   const std::vector<std::vector<std::int32_t>>& halo_owner,
                                   const Partition& cols)
{
    const auto P = halo_cols.size();
    SPMV_EXPECTS(halo_owner.size() == P && static_cast<int>(P) == cols.num_ranks,
                 "one halo per rank");
    std::vector<ExchangePlan> plans;
    plans.reserve(P);
    // requests[d][s]: what rank s wants from rank d
    std::vector<std::vector<std::vector<global_index>>> requests(
        P, std::vector<std::vector<global_index>>(P));
    for (std::size_t s = 0; s < P; ++s) {
        plans.push_back(receive_side(static_cast<int>(s), halo_owner[s]));
        for (const auto& n : plans.back().recv) {
            auto& req = requests[static_cast<std::size_t>(n.rank)][s];
            req.assign(halo_cols[s].begin() + n.offset, halo_cols[s].begin() + n.offset + n.count);
        }
    }
    for (std::size_t d = 0; d < P; ++d) {
        fill_send_side(plans[d], requests[d], cols);
    }
    return plans;
}

void validate(const ExchangePlan& plan, std::int64_t own_cols)
{
    auto check = [&](const std::vector<Neighbour>& list, const char* what) {
        std::int64_t next = 0;
        int last = -1;
        for (const auto& n : list) {
            SPMV_ENSURE_LAYOUT(n.rank != plan.rank, std::string(what) + ": a rank is its own neighbour");
            SPMV_ENSURE_LAYOUT(n.rank > last, std::string(what) + ": neighbours must ascend");
            SPMV_ENSURE_LAYOUT(n.count > 0, std::string(what) + ": a neighbour with no entries");
            SPMV_ENSURE_LAYOUT(n.offset == next, std::string(what) + ": offsets not contiguous");
            next += n.count;
            last = n.rank;
        }
        return next;
    };
    check(plan.recv, "recv");
    SPMV_ENSURE_LAYOUT(check(plan.send, "send") == plan.send_size(),
                       "send counts do not add up to send_idx");
    for (auto i : plan.send_idx) {
        SPMV_ENSURE_LAYOUT(i >= 0 && i < own_cols, "send index outside the rank's x entries");
    }
}

}  // namespace spmv::dist
