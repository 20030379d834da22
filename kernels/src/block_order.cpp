// The widest-first launch order of sell / sell_i16's blocks (spmv/gpu/block_order.hpp). Host
// code, built with and without CUDA, so that its tests run in the build without CUDA too.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <functional>
#include <string>

#include <spmv/error.hpp>
#include <spmv/gpu/block_order.hpp>
#include <spmv/gpu/launch_log.hpp>

namespace spmv::gpu {

std::vector<std::int32_t> widest_first_block_order(std::span<const std::int32_t> slice_widths,
                                                   std::int32_t slices_per_block)
{
    SPMV_EXPECTS(slices_per_block >= 1,
                 "widest_first_block_order: slices_per_block must be at least 1, got " +
                     std::to_string(slices_per_block));
    const auto per = static_cast<std::size_t>(slices_per_block);
    const std::size_t blocks = (slice_widths.size() + per - 1) / per;
    // class floor(log2(width)) + 1 of each block's widest slice; 0 for an empty block
    std::vector<int> width_class(blocks, 0);
    for (std::size_t s = 0; s < slice_widths.size(); ++s) {
        const std::int32_t w = slice_widths[s];
        SPMV_EXPECTS(w >= 0, "widest_first_block_order: slice " + std::to_string(s) +
                                 " has the negative width " + std::to_string(w));
        const int c = std::bit_width(static_cast<std::uint32_t>(w));  // 0 for 0, 1 + floor(log2)
        width_class[s / per] = std::max(width_class[s / per], c);
    }
    if (std::is_sorted(width_class.begin(), width_class.end(), std::greater<>{})) {
        return {};  // already widest class first: launch in blockIdx order
    }
    std::vector<std::int32_t> order(blocks);
    for (std::size_t b = 0; b < blocks; ++b) {
        order[b] = static_cast<std::int32_t>(b);
    }
    std::stable_sort(order.begin(), order.end(), [&](std::int32_t l, std::int32_t r) {
        return width_class[static_cast<std::size_t>(l)] > width_class[static_cast<std::size_t>(r)];
    });
    return order;
}

std::int64_t resident_blocks(int block_threads, int multiprocessors, int threads_per_multiprocessor)
{
    SPMV_EXPECTS(block_threads >= 1 && multiprocessors >= 1 && threads_per_multiprocessor >= 1,
                 "resident_blocks: block threads " + std::to_string(block_threads) +
                     ", multiprocessors " + std::to_string(multiprocessors) +
                     ", threads per multiprocessor " + std::to_string(threads_per_multiprocessor) +
                     " (counts must be positive)");
    return std::int64_t{std::max(1, threads_per_multiprocessor / block_threads)} * multiprocessors;
}

bool block_order_pays(std::int64_t blocks, int block_threads, int multiprocessors,
                      int threads_per_multiprocessor)
{
    SPMV_EXPECTS(blocks >= 0,
                 "block_order_pays: blocks " + std::to_string(blocks) + " (must not be negative)");
    return blocks > resident_blocks(block_threads, multiprocessors, threads_per_multiprocessor);
}

void note_block_order(const BlockOrderDecision& d) noexcept
{
    detail::LaunchLog<BlockOrderDecision>::note(d);
}

std::optional<BlockOrderDecision> take_block_order() noexcept
{
    return detail::LaunchLog<BlockOrderDecision>::take();
}

std::string describe_block_order(const BlockOrderDecision& d)
{
    const bool waves = d.blocks > d.resident_blocks;
    std::string s = d.widest_first ? "widest first: " : "index order: ";
    s += std::to_string(d.blocks) + " blocks of " + std::to_string(d.block_threads) +
         (waves ? " > " : " <= ") + std::to_string(d.resident_blocks) + " resident";
    if (!d.widest_first && waves) {
        s += d.whole_slices ? ", width classes already in order"
                            : ", blocks do not hold whole slices";
    }
    return s;
}

}  // namespace spmv::gpu
