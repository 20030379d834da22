#pragma once
/// The distributed model's link (model.hpp's LinkProfile) fitted to measured exchanges: what
/// `spmvlab dist link` measures and how it turns the times into `--link BW,LAT`. MPI-free: the
/// measurement itself is spmv/dist/link_bench.hpp's (distributed/), this is its arithmetic.
///
/// The pattern measured is the halo exchange's on a chain of ranks: every rank exchanges at
/// once with rank - 1 and rank + 1 (those that exist), one message of `message_bytes` each way
/// to each neighbour. The model prices one rank's exchange as (model.hpp, T_exchange)
///   T = lat * max(send neighbours, recv neighbours) + max(bytes sent, received) / B_L
/// and a repetition takes the slowest rank's time, i.e. that of a rank with the most neighbours:
///   m = chain_messages(P) = 1 for P = 2 (each rank one neighbour), 2 for P >= 3 (the middle
///   ranks), 0 for P = 1 (nothing to exchange)
///   T(s) = m lat + m s / B_L      bytes counted: m s, what that rank sends (= what it receives)
/// Worked example (tests/dist/test_link_fit.cpp): 4 ranks, 4 KiB messages: rank 1 sends 2
/// messages, 8192 bytes, and receives as many; with lat = 2 us and B_L = 5 GB/s (5000 bytes per
/// us) T = 4 + 8192 / 5000 = 5.6384 us.
///
/// The fit: least squares of T(s) = m lat + (m s) / B_L over the sizes measured, on RELATIVE
/// residuals (each size weighted by 1 / T_i^2): the sizes span 8 B to 8 MiB, and on absolute
/// residuals the largest sizes alone decide the latency (a few us of noise on an 800 us message
/// outweighs the whole of an 8-byte one); relative residuals let the small sizes set the
/// latency and the large ones the bandwidth, which is what the model needs of both. Two sizes
/// give the line through them, whatever the weights.
#include <cstdint>
#include <span>
#include <vector>

namespace spmv::dist {

/// What one rank moves in one exchange of the chain pattern.
struct ChainTraffic {
    int messages = 0;                ///< sent (= received): one per neighbour
    std::int64_t bytes_sent = 0;     ///< messages * message_bytes
    std::int64_t bytes_received = 0;
};

/// Rank `rank` of `num_ranks` on the chain, each message `message_bytes`. Throws
/// InvalidArgument for a rank outside [0, num_ranks) or a negative size.
ChainTraffic chain_traffic(int rank, int num_ranks, std::int64_t message_bytes);

/// The most neighbours any rank of `num_ranks` has on the chain: 0, 1 or 2.
int chain_messages(int num_ranks);

/// One size's measured time (the median over the repetitions, each the slowest rank's).
struct LinkSample {
    std::int64_t message_bytes = 0;
    double time_us = 0.0;
};

/// The fitted link: time(s) = messages * latency_us + messages * s / (bandwidth_gbs * 1e3) us.
struct LinkFit {
    int messages = 1;            ///< per exchange of the busiest rank (chain_messages)
    double latency_us = 0.0;     ///< per message; may come out <= 0 from noisy times
    double bandwidth_gbs = 0.0;  ///< 1e9 bytes/s; <= 0 when the times do not grow with the size
    /// Per sample, in its order: measured - fitted (us), and that over the measured time.
    std::vector<double> residual_us;
    std::vector<double> residual_fraction;
    /// Both fitted numbers positive and finite: usable as a model link (`--link BW,LAT`).
    bool usable() const noexcept;
    /// The fitted time of one exchange of `message_bytes` per message (us).
    double time_us(std::int64_t message_bytes) const noexcept;
};

/// Fits the link to `samples` (see the top of this file). `messages` >= 1. Throws
/// InvalidArgument for fewer than two distinct sizes, a size < 1 byte, or a time that is not
/// positive and finite.
LinkFit fit_link(std::span<const LinkSample> samples, int messages);

}  // namespace spmv::dist
