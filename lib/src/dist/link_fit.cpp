// The link fitted to measured exchanges (link_fit.hpp).
#include <spmv/dist/link_fit.hpp>

#include <cmath>
#include <string>

#include <spmv/error.hpp>

namespace spmv::dist {

ChainTraffic chain_traffic(int rank, int num_ranks, std::int64_t message_bytes)
{
    SPMV_EXPECTS(num_ranks >= 1 && rank >= 0 && rank < num_ranks,
                 "chain_traffic: rank " + std::to_string(rank) + " is not one of " +
                     std::to_string(num_ranks) + " ranks");
    SPMV_EXPECTS(message_bytes >= 0, "chain_traffic: a message of " +
                                         std::to_string(message_bytes) + " bytes");
    ChainTraffic t;
    t.messages = (rank > 0 ? 1 : 0) + (rank + 1 < num_ranks ? 1 : 0);
    t.bytes_sent = t.messages * message_bytes;
    t.bytes_received = t.bytes_sent;
    return t;
}

int chain_messages(int num_ranks)
{
    return num_ranks >= 3 ? 2 : (num_ranks == 2 ? 1 : 0);
}

bool LinkFit::usable() const noexcept
{
    return std::isfinite(latency_us) && latency_us > 0.0 && std::isfinite(bandwidth_gbs) &&
           bandwidth_gbs > 0.0;
}

double LinkFit::time_us(std::int64_t message_bytes) const noexcept
{
    // bandwidth_gbs GB/s = bandwidth_gbs * 1e3 bytes per us
    return messages * latency_us +
           static_cast<double>(messages) * static_cast<double>(message_bytes) /
               (bandwidth_gbs * 1e3);
}

LinkFit fit_link(std::span<const LinkSample> samples, int messages)
{
    SPMV_EXPECTS(messages >= 1, "fit_link: " + std::to_string(messages) +
                                    " messages per exchange (at least 1)");
    bool distinct = false;
    for (const auto& s : samples) {
        SPMV_EXPECTS(s.message_bytes >= 1,
                     "fit_link: a message of " + std::to_string(s.message_bytes) + " bytes");
        SPMV_EXPECTS(std::isfinite(s.time_us) && s.time_us > 0.0,
                     "fit_link: the time of " + std::to_string(s.message_bytes) +
                         " bytes is not a positive number of us");
        distinct = distinct || s.message_bytes != samples.front().message_bytes;
    }
    SPMV_EXPECTS(distinct, "fit_link: the link needs at least two different message sizes");
    // T = a + b x with x = messages * size (bytes), a = messages * latency, b = 1 / B (us per
    // byte); weighted least squares with w = 1 / T^2 (relative residuals): the normal equations
    //   [S  Sx ] [a]   [Sy ]
    //   [Sx Sxx] [b] = [Sxy]
    double s = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
    for (const auto& p : samples) {
        const double x = static_cast<double>(messages) * static_cast<double>(p.message_bytes);
        const double w = 1.0 / (p.time_us * p.time_us);
        s += w;
        sx += w * x;
        sy += w * p.time_us;
        sxx += w * x * x;
        sxy += w * x * p.time_us;
    }
    const double det = s * sxx - sx * sx;
    const double b = (s * sxy - sx * sy) / det;
    const double a = (sxx * sy - sx * sxy) / det;
    LinkFit f;
    f.messages = messages;
    f.latency_us = a / messages;
    f.bandwidth_gbs = 1e-3 / b;  // 1 / b bytes per us = 1e-3 / b GB/s
    for (const auto& p : samples) {
        const double fitted =
            a + b * static_cast<double>(messages) * static_cast<double>(p.message_bytes);
        f.residual_us.push_back(p.time_us - fitted);
        f.residual_fraction.push_back((p.time_us - fitted) / p.time_us);
    }
    return f;
}

}  // namespace spmv::dist
