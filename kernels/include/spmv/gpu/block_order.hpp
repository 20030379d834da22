#pragma once
/// The launch order of a one-thread-per-row slice kernel's blocks: widest first (sell and
/// sell_i16's plain SpMV launch, kernels/src/sell.cu). Not part of any paper's format: Kreutzer
/// et al.'s SELL-C-σ fixes the slices and their order; which block a GPU runs first is ours.
///
/// Why (issue 37, measured on an H200, docs/benchmarks/h200_order_2026-11-30): on blocks5
/// (500,000 rows of 5-40 nonzeros) SELL-32 with σ auto is 3,907 blocks of 128 threads, 1.85
/// resident waves. The sort windows mix wide and narrow blocks along the matrix, so the last wave
/// ends on wide blocks while most multiprocessors sit idle: Nsight Compute saw 75 % of sell_i16's
/// warps active, against 90 % for pJDS, whose global sort runs the longest rows first. Launching
/// the blocks widest first took sell_i16 in double from 38.9 to 35.0 µs (88 % -> 98 % of the copy
/// roof). Where the blocks are of one width (pde100: 7-point rows) a full sort by width only
/// scatters the blocks that share x: 1.5-4 % slower there. So blocks are ordered by width
/// *class*, floor(log2(width)), stable inside a class: pde's blocks (widths 4-7) stay in their
/// order and get no order at all, and blocks5's sell_i16 runs 39.05 -> 36.61 µs (87 % -> 93 %).
/// A grid that fits in one resident wave gets none either: all
/// its blocks start at once, so the order could only add its load to each block's first
/// requests (block_order_pays).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace spmv::gpu {

/// Block b of the launch computes slices b * slices_per_block ... + slices_per_block - 1 (the
/// last block may hold fewer); its width is its widest slice's. Returns the blocks in launch
/// order, widest class first (class floor(log2(width)); an empty block, width 0, is the last
/// class), stable inside a class: order[i] is the block the i-th launched block computes. Empty
/// when that order is the identity (the launch needs none). Plain host code, built with and
/// without CUDA. Throws InvalidArgument when slices_per_block < 1 or a width is negative.
std::vector<std::int32_t> widest_first_block_order(std::span<const std::int32_t> slice_widths,
                                                   std::int32_t slices_per_block);

/// Whether a launch of `blocks` blocks of `block_threads` threads needs more than one resident
/// wave on a device of `multiprocessors` multiprocessors holding `threads_per_multiprocessor`
/// threads each (the kernels it is for use 32 registers per thread, so threads, not registers,
/// bound their residency): only then does the order of the blocks decide which run last. On an
/// H100 or H200 (132 x 2048 threads) a launch of 128-thread blocks needs more than 2,112 blocks,
/// i.e. more than 270,336 rows. Throws InvalidArgument when a count is not positive.
bool block_order_pays(std::int64_t blocks, int block_threads, int multiprocessors,
                      int threads_per_multiprocessor);

/// Blocks of `block_threads` threads a device holds at once: multiprocessors x
/// max(1, threads_per_multiprocessor / block_threads) (2,112 of 128 on an H100 or H200).
/// Throws InvalidArgument when a count is not positive.
std::int64_t resident_blocks(int block_threads, int multiprocessors,
                             int threads_per_multiprocessor);

/// One launch's order, as sell / sell_i16's plain launch took it (kernels/src/sell.cu): the
/// choice made from the device's multiprocessors, which `spmvlab bench` prints.
struct BlockOrderDecision {
    bool widest_first = false;         ///< the launch ran block_order[blockIdx.x]
    std::int64_t blocks = 0;           ///< the launch's blocks
    int block_threads = 0;             ///< threads (= rows) per block
    std::int64_t resident_blocks = 0;  ///< resident_blocks(block_threads, ...) of the device
    /// block_threads a multiple of the slice height C: otherwise a block cuts slices and no
    /// order is built for it (upload_shared in kernels/src/sell.cu)
    bool whole_slices = true;
};

/// The order log of the calling thread, like the stream-loads log (stream_loads.hpp): the plain
/// SELL launches note their order (the last one stays); take_block_order returns it and empties
/// the log (std::nullopt: no such launch since the last take). `spmvlab bench` takes it before
/// and after each variant's timing.
void note_block_order(const BlockOrderDecision& d) noexcept;
std::optional<BlockOrderDecision> take_block_order() noexcept;

/// The order in words: "widest first: 3907 blocks of 128 > 2112 resident", "index order: 782
/// blocks of 128 <= 2112 resident" (one wave: every block starts at once), "index order: 7813
/// blocks of 128 > 2112 resident, width classes already in order" (e.g. one width class),
/// "index order: 3907 blocks of 128 > 2112 resident, blocks do not hold whole slices" (a slice
/// height C that does not divide the block's rows: no order is built).
std::string describe_block_order(const BlockOrderDecision& d);

}  // namespace spmv::gpu
