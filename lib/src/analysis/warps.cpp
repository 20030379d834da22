#include <spmv/analysis/warps.hpp>

#include <algorithm>
#include <string>

#include <spmv/error.hpp>

namespace spmv::analysis {
namespace {

double fraction(std::int64_t useful, std::int64_t slots)
{
    // No lane slot at all: nothing is wasted (see the header).
    return slots == 0 ? 1.0 : static_cast<double>(useful) / static_cast<double>(slots);
}

}  // namespace

WarpAnalysis analyze_warps(const ThreadWork& work, int warp_size)
{
    SPMV_EXPECTS(warp_size >= 1,
                 "analyze_warps: warp size must be >= 1, got " + std::to_string(warp_size));
    SPMV_EXPECTS(work.iterations.size() == work.useful.size() &&
                     work.iterations.size() == work.stored.size(),
                 "analyze_warps: ThreadWork arrays differ in size (iterations " +
                     std::to_string(work.iterations.size()) + ", useful " +
                     std::to_string(work.useful.size()) + ", stored " +
                     std::to_string(work.stored.size()) + ")");
    WarpAnalysis r;
    r.warp_size = warp_size;
    const auto threads = static_cast<std::int64_t>(work.iterations.size());
    const std::int64_t ws = warp_size;
    for (std::int64_t first = 0; first < threads; first += ws) {
        WarpStats w;
        w.first_thread = first;
        w.threads = std::min(ws, threads - first);
        for (std::int64_t t = first; t < first + w.threads; ++t) {
            const auto k = static_cast<std::size_t>(t);
            const auto it = work.iterations[k];
            const auto use = work.useful[k];
            // per thread at most 2^30 (a billion trips): every sum below then stays under
            // 2^62 for any number of threads an index can count, never wrapping to negative
            constexpr std::int64_t most = std::int64_t{1} << 30;
            SPMV_EXPECTS(use >= 0 && it >= use && work.stored[k] >= 0 && it <= most &&
                             work.stored[k] <= most,
                         "analyze_warps: thread " + std::to_string(t) + " has iterations " +
                             std::to_string(it) + ", useful " + std::to_string(use) + ", stored " +
                             std::to_string(work.stored[k]) +
                             " (need 0 <= useful <= iterations <= 2^30, 0 <= stored <= 2^30)");
            w.max_iterations = std::max(w.max_iterations, it);
            w.useful += use;
            w.stored += work.stored[k];
            w.n_p += use > 0 ? 2 * use - 1 : 0;
        }
        w.idle_slots = w.threads * w.max_iterations - w.useful;
        w.phantom_slots = (ws - w.threads) * w.max_iterations;
        w.stored_padding = w.stored - w.useful;
        w.useful_fraction = fraction(w.useful, ws * w.max_iterations);

        r.add(w);
        r.warps.push_back(w);
    }
    return r;
}

void WarpAnalysis::add(const WarpStats& w, std::int64_t count)
{
    SPMV_EXPECTS(count >= 0, "WarpAnalysis::add: count must be >= 0");
    threads += count * w.threads;
    n_iter += count * w.max_iterations;
    n_p += count * w.n_p;
    useful += count * w.useful;
    idle_slots += count * w.idle_slots;
    phantom_slots += count * w.phantom_slots;
    stored += count * w.stored;
    stored_padding += count * w.stored_padding;
    useful_fraction = fraction(useful, std::int64_t{warp_size} * n_iter);
}

}  // namespace spmv::analysis
