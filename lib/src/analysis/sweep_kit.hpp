#pragma once
// The parameter sweep's kit (lib-internal): what a format's sweep_warps (its story file) uses to
// count its kernel's warps at one parameter setting from the row lengths alone, without the
// layout; the engine is sweep.cpp (spmv/analysis/sweep.hpp).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include <spmv/analysis/warps.hpp>
#include <spmv/types.hpp>

#include "estimate_kit.hpp"

namespace spmv::analysis {

/// A format's kernel at one sweep point: its warps, the slots it reads, its COO entries (HYB).
struct SweepWarps {
    WarpAnalysis warps;
    std::int64_t slots_read = 0;
    std::int64_t coo_entries = 0;
};

/// The row lengths of the swept matrix, and their sorts: the last window sorted is kept, so
/// that pJDS (one global sort) and a C sweep of SELL-C-sigma (sigma fixed) sort once, a sigma
/// sweep once per point.
class SweepRows {
public:
    explicit SweepRows(std::vector<std::int32_t> lengths) : lengths_(std::move(lengths)) {}

    const std::vector<std::int32_t>& lengths() const noexcept { return lengths_; }
    std::int64_t num_rows() const noexcept { return static_cast<std::int64_t>(lengths_.size()); }

    /// Row lengths sorted longest first inside consecutive windows of `window` rows: the order
    /// in which SELL-C-sigma (window sigma) and pJDS (window N) store their rows.
    const std::vector<std::int32_t>& sorted(std::int64_t window)
    {
        if (window != window_) {
            sorted_ = lengths_;
            const auto n = num_rows();
            if (window > 1) {
                for (std::int64_t first = 0; first < n; first += window) {
                    detail::sort_lengths_desc(sorted_.begin() + first,
                                              sorted_.begin() + std::min(n, first + window));
                }
            }
            window_ = window;
        }
        return sorted_;
    }

private:
    std::vector<std::int32_t> lengths_;
    std::vector<std::int32_t> sorted_;
    std::int64_t window_ = -1;
};

namespace detail {

/// Threads of a kernel, fed in launch order, grouped into warps by analyze_warps a chunk at a
/// time: the real thread_work of a 10^6-row matrix would hold three vectors of 10^6 entries
/// per point, and HYB's COO part one thread per entry. Chunks end on warp boundaries, so only
/// the last warp of the last chunk can be short, exactly as in one analyze_warps call.
class WarpStream {
public:
    explicit WarpStream(int warp_size)
        : warp_size_(warp_size),
          chunk_(static_cast<std::size_t>(warp_size) *
                 static_cast<std::size_t>(std::max(1, 65536 / warp_size)))
    {
        work_.iterations.reserve(chunk_);
        work_.useful.reserve(chunk_);
        work_.stored.reserve(chunk_);
    }

    void add(std::int64_t iterations, std::int64_t useful, std::int64_t stored)
    {
        work_.iterations.push_back(iterations);
        work_.useful.push_back(useful);
        work_.stored.push_back(stored);
        slots_read_ += iterations;
        if (work_.iterations.size() == chunk_) flush();
    }

    /// `count` threads of one trip each on one real entry (COO). Past the current warp they
    /// form full warps of one trip, useful warp_size, which are added in closed form, so HYB's
    /// cost does not grow with nnz.
    void add_unit_threads(std::int64_t count)
    {
        const std::int64_t ws = warp_size_;
        while (count > 0 && static_cast<std::int64_t>(work_.iterations.size()) % ws != 0) {
            add(1, 1, 1);
            --count;
        }
        const std::int64_t full = count / ws;
        total_.n_iter += full;
        total_.useful += full * ws;
        total_.n_p += full * ws;  // 2 * 1 - 1 flops per thread
        total_.stored += full * ws;
        total_.threads += full * ws;
        slots_read_ += full * ws;
        for (std::int64_t k = 0; k < count % ws; ++k) add(1, 1, 1);
    }

    WarpAnalysis finish()
    {
        flush();
        total_.warp_size = warp_size_;
        const double slots = static_cast<double>(warp_size_) * static_cast<double>(total_.n_iter);
        // same convention as analyze_warps: no lane slot at all wastes nothing
        total_.useful_fraction =
            total_.n_iter == 0 ? 1.0 : static_cast<double>(total_.useful) / slots;
        return total_;
    }

    std::int64_t slots_read() const { return slots_read_; }

private:
    void flush()
    {
        if (work_.iterations.empty()) return;
        const auto part = analyze_warps(work_, warp_size_);
        total_.threads += part.threads;
        total_.n_iter += part.n_iter;
        total_.n_p += part.n_p;
        total_.useful += part.useful;
        total_.idle_slots += part.idle_slots;
        total_.phantom_slots += part.phantom_slots;
        total_.stored += part.stored;
        total_.stored_padding += part.stored_padding;
        work_.iterations.clear();
        work_.useful.clear();
        work_.stored.clear();
    }

    int warp_size_;
    std::size_t chunk_;
    ThreadWork work_;
    WarpAnalysis total_;  // warps stay empty: only the totals are summed
    std::int64_t slots_read_ = 0;
};

}  // namespace detail
}  // namespace spmv::analysis
