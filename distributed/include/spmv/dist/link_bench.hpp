#pragma once
/// `spmvlab dist link`: the link of the distributed model (spmv/dist/model.hpp, LinkProfile)
/// measured on the machine at hand instead of assumed (issue 37: host-shm's 10 GB/s and 0.5 us
/// are assumptions, and the host-staged exchange on 4 H200 was predicted too fast).
///
/// What is measured, per message size, `repeat` times after `warmup` untimed runs:
///   exchange  the halo exchange's pattern on host buffers: every rank at once exchanges one
///             message with rank - 1 and one with rank + 1 (those that exist), as the product's
///             exchange does it: the receives posted (irecv), then the sends (isend), then one
///             wait for all. Each repetition starts after a barrier, and its time is the slowest
///             rank's (a max reduction), as `dist bench` times a product.
///   --gpu     each rank's own device (its node-local rank picks it, as DistOptions::gpu does):
///   d2h, h2d  one copy of `size` bytes between device memory and page-locked host memory
///             (cudaMemcpyAsync on a stream, then the host waits), every rank copying at once,
///             the slowest rank's time;
///   staged    the whole host-staged step of one exchange (HostStagedExchange): receives posted,
///             the rank's send buffer (one message per neighbour, one copy) to pinned memory,
///             the host waits, sends posted, wait for all, the halo (as many bytes) back to the
///             device, the host waits. With one rank only d2h and h2d are measured.
/// The times are reduced over the ranks inside the measurement, so every rank returns the same
/// LinkMeasurement. spmv/dist/link_fit.hpp turns the exchange times into a link.
#include <cstdint>
#include <string>
#include <vector>

#include <spmv/dist/comm.hpp>

namespace spmv::dist {

/// 8 B, 64 B, 512 B, 4 KiB, 32 KiB, 256 KiB, 1 MiB, 2 MiB, 4 MiB, 8 MiB: from a few halo
/// entries to pde400's halo on 4 ranks (1.28 MB each way) and beyond.
std::vector<std::int64_t> default_link_sizes();

struct LinkBenchOptions {
    /// Message sizes in bytes: each a positive multiple of 8 (the messages carry doubles, as a
    /// DP halo does).
    std::vector<std::int64_t> sizes = default_link_sizes();
    int repeat = 50;
    int warmup = 5;
    /// Also the pinned copies of each rank's device and the host-staged step (see above).
    bool gpu = false;
};

/// The median (the upper one of an even count, as `dist bench`) and the least of some times.
struct LinkTimes {
    double median_us = 0.0;
    double min_us = 0.0;
};

struct LinkSizeResult {
    std::int64_t message_bytes = 0;
    LinkTimes exchange;  ///< the MPI exchange on host buffers (0 with one rank: not measured)
    LinkTimes d2h;       ///< --gpu: one pinned copy of message_bytes, device to host
    LinkTimes h2d;       ///< --gpu: host to device
    LinkTimes staged;    ///< --gpu and >= 2 ranks: D2H + MPI + H2D (0 otherwise)
};

struct LinkMeasurement {
    int ranks = 1;
    std::vector<std::string> hosts;  ///< every rank's processor name, in rank order
    int distinct_hosts = 1;
    /// Messages per exchange of the busiest rank (chain_messages(ranks)): 1 on 2 ranks, 2 on 3+.
    int messages = 0;
    int repeat = 0;
    int warmup = 0;
    bool gpu = false;
    std::string devices;  ///< --gpu: the ranks' distinct device names, sorted, joined with ", "
    std::vector<LinkSizeResult> sizes;
};

/// Measures the link (see above). Collective: every rank passes the same options. Throws
/// InvalidArgument on every rank for one rank without `gpu` ("needs at least 2 ranks"), a
/// size that is not a positive multiple of 8, no size, repeat < 1 or warmup < 0;
/// NotCompiled for `gpu` in a build without CUDA; RemoteError on every rank when a rank has
/// no device or an allocation fails.
LinkMeasurement measure_link(const Comm& comm, const LinkBenchOptions& options);

}  // namespace spmv::dist
