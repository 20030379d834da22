// The link measured (link_bench.hpp): the halo exchange's pattern on host buffers and, with a
// GPU, the pinned copies and the host-staged step. Plain C++ over Comm and the kernels' public
// API (no CUDA header: in a build without CUDA the GPU calls throw NotCompiled).
#include <spmv/dist/link_bench.hpp>

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <spmv/dist/link_fit.hpp>
#include <spmv/error.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::dist {

namespace {

constexpr int tag_link = 7120;

using Clock = std::chrono::steady_clock;

LinkTimes summary(std::vector<double> ts)
{
    std::sort(ts.begin(), ts.end());
    return {ts[ts.size() / 2], ts.front()};
}

/// `warmup` untimed runs of f, then `repeat` timed ones, each after a barrier, each the
/// slowest rank's time (us).
LinkTimes timed(const Comm& comm, const LinkBenchOptions& o, const std::function<void()>& f)
{
    for (int i = 0; i < o.warmup; ++i) {
        comm.barrier();
        f();
    }
    std::vector<double> ts;
    ts.reserve(static_cast<std::size_t>(o.repeat));
    for (int i = 0; i < o.repeat; ++i) {
        comm.barrier();
        const auto t0 = Clock::now();
        f();
        const double us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
        ts.push_back(comm.allreduce_max(us));
    }
    return summary(std::move(ts));
}

/// This rank's neighbours on the chain, rank - 1 first.
std::vector<int> neighbours(const Comm& comm)
{
    std::vector<int> n;
    if (comm.rank() > 0) n.push_back(comm.rank() - 1);
    if (comm.rank() + 1 < comm.size()) n.push_back(comm.rank() + 1);
    return n;
}

/// One exchange of `count` doubles with each neighbour, the product's order: every receive
/// posted, then every send, then one wait for all (HostExchange / CudaAwareExchange).
void exchange(const Comm& comm, const std::vector<int>& nb, const double* send, double* recv,
              std::int64_t count)
{
    Requests reqs;
    for (std::size_t i = 0; i < nb.size(); ++i) {
        comm.irecv(recv + static_cast<std::int64_t>(i) * count, count, Datatype::f64, nb[i],
                   tag_link, reqs);
    }
    for (std::size_t i = 0; i < nb.size(); ++i) {
        comm.isend(send + static_cast<std::int64_t>(i) * count, count, Datatype::f64, nb[i],
                   tag_link, reqs);
    }
    comm.wait_all(reqs);
}

std::string distinct_joined(std::vector<std::string> v)
{
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
}

/// The GPU side: this rank's device, its buffers and stream.
struct DeviceSide {
    gpu::DeviceBuffer<double> device;
    gpu::PinnedBuffer<double> pinned_send, pinned_recv;
    /// made with the device (a build without CUDA or a host without a device has none); the
    /// comm stream's priority, as the product's exchange
    std::optional<gpu::Stream> stream;

    void copy(void* dst, const void* src, std::int64_t bytes, gpu::detail::CopyKind kind)
    {
        gpu::detail::copy_bytes_async(dst, src, static_cast<std::size_t>(bytes), kind, *stream);
        stream->synchronize();
    }
};

}  // namespace

std::vector<std::int64_t> default_link_sizes()
{
    return {8, 64, 512, 4 << 10, 32 << 10, 256 << 10, 1 << 20, 2 << 20, 4 << 20, 8 << 20};
}

LinkMeasurement measure_link(const Comm& comm, const LinkBenchOptions& o)
{
    SPMV_EXPECTS(!o.sizes.empty(), "dist link: no message size to measure");
    for (auto s : o.sizes) {
        SPMV_EXPECTS(s > 0 && s % 8 == 0,
                     "dist link: a message of " + std::to_string(s) +
                         " bytes: sizes are positive multiples of 8 bytes (the messages carry "
                         "doubles, as a DP halo does)");
    }
    SPMV_EXPECTS(o.repeat >= 1, "dist link: --repeat " + std::to_string(o.repeat) + " (>= 1)");
    SPMV_EXPECTS(o.warmup >= 0, "dist link: " + std::to_string(o.warmup) + " warm-ups (>= 0)");
    SPMV_EXPECTS(comm.size() >= 2 || o.gpu,
                 "dist link needs at least 2 ranks (run it as mpiexec -n 2 or more spmvlab dist "
                 "link): with " + std::to_string(comm.size()) +
                     " rank there is no exchange to measure (--gpu alone measures the pinned "
                     "copies of one rank)");
    if (o.gpu && !gpu::is_compiled()) {
        SPMV_THROW(NotCompiled, "dist link --gpu: this spmvlab was built without CUDA; rebuild "
                                "on a machine with the CUDA toolkit (the MPI exchange is "
                                "measured without --gpu)");
    }

    LinkMeasurement m;
    m.ranks = comm.size();
    m.hosts = comm.allgather(comm.processor_name());
    m.distinct_hosts = static_cast<int>([&] {
        auto h = m.hosts;
        std::sort(h.begin(), h.end());
        return std::unique(h.begin(), h.end()) - h.begin();
    }());
    m.messages = chain_messages(comm.size());
    m.repeat = o.repeat;
    m.warmup = o.warmup;
    m.gpu = o.gpu;

    const auto nb = neighbours(comm);
    const std::int64_t largest = *std::max_element(o.sizes.begin(), o.sizes.end()) / 8;
    const auto slots = static_cast<std::size_t>(std::max<std::int64_t>(1, 2 * largest));
    std::vector<double> send, recv;
    DeviceSide gpu_side;
    std::string device;
    // a failed allocation or a rank without a device ends every rank (no rank is left waiting
    // in the first exchange)
    collective(comm, [&] {
        if (comm.size() >= 2) {
            send.assign(slots, 1.0);
            recv.assign(slots, 0.0);
        }
        if (o.gpu) {
            if (gpu::device_count() == 0) {
                SPMV_THROW(Error, "dist link --gpu: no CUDA device is present on " +
                                      comm.processor_name());
            }
            gpu::set_device(comm.node_rank() % gpu::device_count());
            gpu_side.stream.emplace(gpu::Stream::Priority::high);
            gpu_side.device = gpu::DeviceBuffer<double>(slots, "dist link's device buffer");
            gpu_side.device.fill(1.0);
            gpu_side.pinned_send = gpu::PinnedBuffer<double>(slots);
            gpu_side.pinned_recv = gpu::PinnedBuffer<double>(slots);
            device = gpu::device_info().name;
        }
    });
    if (o.gpu) {
        m.devices = distinct_joined(comm.allgather(device));
    }

    using gpu::detail::CopyKind;
    for (auto bytes : o.sizes) {
        const std::int64_t count = bytes / 8;
        LinkSizeResult r;
        r.message_bytes = bytes;
        if (comm.size() >= 2) {
            r.exchange = timed(comm, o, [&] { exchange(comm, nb, send.data(), recv.data(), count); });
        }
        if (o.gpu) {
            auto& g = gpu_side;
            r.d2h = timed(comm, o, [&] {
                g.copy(g.pinned_send.data(), g.device.data(), bytes, CopyKind::device_to_host);
            });
            r.h2d = timed(comm, o, [&] {
                g.copy(g.device.data(), g.pinned_recv.data(), bytes, CopyKind::host_to_device);
            });
            if (comm.size() >= 2) {
                // HostStagedExchange's order: receives posted (start), the send buffer to the
                // host and the host waits (send), sends posted, one wait, the halo to the device
                const std::int64_t staged = static_cast<std::int64_t>(nb.size()) * bytes;
                r.staged = timed(comm, o, [&] {
                    Requests reqs;
                    for (std::size_t i = 0; i < nb.size(); ++i) {
                        comm.irecv(g.pinned_recv.data() + static_cast<std::int64_t>(i) * count,
                                   count, Datatype::f64, nb[i], tag_link, reqs);
                    }
                    g.copy(g.pinned_send.data(), g.device.data(), staged,
                           CopyKind::device_to_host);
                    for (std::size_t i = 0; i < nb.size(); ++i) {
                        comm.isend(g.pinned_send.data() + static_cast<std::int64_t>(i) * count,
                                   count, Datatype::f64, nb[i], tag_link, reqs);
                    }
                    comm.wait_all(reqs);
                    g.copy(g.device.data(), g.pinned_recv.data(), staged,
                           CopyKind::host_to_device);
                });
            }
        }
        m.sizes.push_back(r);
    }
    return m;
}

}  // namespace spmv::dist
