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
        total_.warp_size = warp_size;
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
        WarpStats unit;  // a full warp of one-trip threads on one entry each
        unit.threads = ws;
        unit.max_iterations = 1;
        unit.useful = ws;
        unit.n_p = ws;  // 2 * 1 - 1 flops per thread
        unit.stored = ws;
        total_.add(unit, full);
        slots_read_ += full * ws;
        for (std::int64_t k = 0; k < count % ws; ++k) add(1, 1, 1);
    }

    WarpAnalysis finish()
    {
        flush();
        return total_;  // useful_fraction as analyze_warps has it (WarpAnalysis::add)
    }

    std::int64_t slots_read() const { return slots_read_; }

private:
    void flush()
    {
        if (work_.iterations.empty()) return;
        for (const auto& w : analyze_warps(work_, warp_size_).warps) total_.add(w);
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
