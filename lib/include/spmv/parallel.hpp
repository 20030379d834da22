#pragma once
/// Threads for the host-side builders (issue 36: a rank of pde1100 builds 2.3 billion nonzeros
/// of blocks; one thread per rank made the build the set-up's bottleneck). Two loops:
///   parallel_for(count, threads, fn)   fn(k) for every item k, handed out one at a time;
///   parallel_ranges(n, fn)             fn(begin, end) over contiguous ranges of [0, n), one per
///                                      thread, for loops whose items are too small to hand
///                                      out one by one (rows, slices, entries);
///   parallel_blocks(first, end, block, fn)
///                                      fn(b, begin, end) over blocks of `block` items, handed
///                                      out one at a time, where items cost unevenly.
/// Every use writes disjoint parts of its output, so the result is the same bit for bit on any
/// number of threads (the tests build on 1 and on several and compare).
///
/// How many: build_threads(), which is set_build_threads(n) if called, else the environment
/// variable SPMV_BUILD_THREADS, else std::thread::hardware_concurrency(). `spmvlab dist` sets it
/// to the host's hardware threads divided by its ranks on that host.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace spmv {

/// The threads builders use (>= 1).
unsigned build_threads() noexcept;
/// Sets build_threads(); 0 restores the default (SPMV_BUILD_THREADS, else the hardware's).
void set_build_threads(unsigned threads) noexcept;

/// Calls fn(k) for every k in [0, count) on up to `threads` threads, the calling thread being
/// one of them; the items are handed out in order, one at a time. The first exception stops
/// the handing out and is rethrown once every thread has finished. If the system refuses a
/// thread, the others do its share.
template <typename Fn>
void parallel_for(std::size_t count, unsigned threads, Fn&& fn)
{
    std::atomic<std::size_t> next{0};
    std::mutex mutex;
    std::exception_ptr error;
    const auto work = [&] {
        for (;;) {
            const std::size_t k = next.fetch_add(1, std::memory_order_relaxed);
            if (k >= count) {
                return;
            }
            try {
                fn(k);
            } catch (...) {
                const std::lock_guard<std::mutex> lock(mutex);
                if (!error) {
                    error = std::current_exception();
                }
                next.store(count, std::memory_order_relaxed);
                return;
            }
        }
    };
    {
        std::vector<std::jthread> pool;
        const std::size_t extra = std::min<std::size_t>(threads, count);
        for (std::size_t t = 1; t < extra; ++t) {
            try {
                pool.emplace_back(work);
            } catch (const std::system_error&) {
                break;
            }
        }
        work();
    }  // joins
    if (error) {
        std::rethrow_exception(error);
    }
}

/// The number of blocks of `block` items that [first, end) holds (the last may be shorter).
inline std::size_t block_count(std::int64_t first, std::int64_t end, std::int64_t block)
{
    return end > first ? static_cast<std::size_t>((end - first + block - 1) / block) : 0;
}

/// fn(b, begin, end) for the blocks [begin, end) of `block` consecutive items of [first, end)
/// (b counts them from 0; block_count() of them), handed out one block at a time to
/// build_threads() threads: blocks, not one range per thread, so that blocks of long rows do
/// not leave the other threads waiting. Exceptions as parallel_for.
template <typename Fn>
void parallel_blocks(std::int64_t first, std::int64_t end, std::int64_t block, Fn&& fn)
{
    parallel_for(block_count(first, end, block), build_threads(), [&](std::size_t b) {
        const auto begin = first + static_cast<std::int64_t>(b) * block;
        fn(b, begin, std::min(end, begin + block));
    });
}

/// The ranges parallel_ranges cuts [0, n) into: at most build_threads() (one when n is below
/// `min_per_range` items per range), as even as possible; bounds[r] .. bounds[r + 1] is range r.
inline std::vector<std::size_t> range_bounds(std::size_t n, std::size_t min_per_range,
                                             unsigned threads = build_threads())
{
    const std::size_t by_size =
        std::max<std::size_t>(1, n / std::max<std::size_t>(1, min_per_range));
    const std::size_t ranges = std::max<std::size_t>(1, std::min<std::size_t>(threads, by_size));
    std::vector<std::size_t> bounds(ranges + 1);
    for (std::size_t r = 0; r <= ranges; ++r) {
        bounds[r] = n / ranges * r + std::min(r, n % ranges);
    }
    return bounds;
}

/// fn(begin, end) for contiguous ranges covering [0, n), each on its own thread (the calling
/// thread takes one); at most build_threads() ranges, none shorter than `min_per_range` items
/// unless n itself is. Exceptions as parallel_for.
template <typename Fn>
void parallel_ranges(std::size_t n, Fn&& fn, std::size_t min_per_range = 1 << 16)
{
    const auto b = range_bounds(n, min_per_range);
    parallel_for(b.size() - 1, static_cast<unsigned>(b.size() - 1),
                 [&](std::size_t r) { fn(b[r], b[r + 1]); });
}

}  // namespace spmv
