// The timing harness (host logic over the public RAII layer: events, streams, buffers).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <spmv/error.hpp>
#include <spmv/gpu/bench.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {
namespace {

constexpr int batch = 32;  // repetitions recorded before the host waits for their events
constexpr double gate_timeout_ms = 10000.0;

// Runs `between` (untimed) and `body` (timed by its own pair of events) until the stopping
// rule of BenchOptions is met.
//
// Every timed repetition is queued behind the launch gate (detail::launch_gate, nvbench's
// "blocking kernel"), which the host opens only after it has queued the whole repetition: the
// GPU then finds the flush, the events and every launch of the body already in its queue, and
// the time between the events is the GPU's. Without the gate a body of many launches (plain
// JDS: one per jagged diagonal, 27 on bayer10) is timed at the host's launch rate, which
// depends on the CPU and what else runs on it: the explorer's process measured JDS on bayer10
// at 110 us where `spmvlab bench` measured 73 us (docs/benchmarks/gui_timing_2026-11-25).
//
// The gate must never wait on the host while the host waits on the GPU: the device's queue of
// pending work is finite (about a thousand launches), and a repetition of more launches than
// that blocks the host inside a launch while the gate still holds the GPU, so nothing moves
// until the gate's timeout (plain JDS on a circuit matrix with a 1,300-entry row; the first
// version of this harness, issue 32). A CUDA graph does not lift that limit: its nodes still
// fill the same queue (measured on an H200: a gated graph of 5,000 launches waited for the
// gate's 10 s as well). So the body is first recorded once into a CUDA graph
// (detail::CapturedWork, nothing runs while recording) to count its launches:
//  - at most max_gated_launches: it fits the queue with room to spare; the repetitions launch
//    the body itself behind the gate, as before ("gated");
//  - more: the repetitions launch the captured graph without the gate ("graph ... ungated"):
//    one call submits every launch, far faster than the GPU runs them (the host's submission
//    time per repetition is measured and reported beside the GPU's), so the events time the
//    GPU, never a deadlock;
//  - not capturable (a synchronous call inside the body): the repetitions run ungated and time
//    the host's launch rate where it is the slower; TimingStats::method says so.
// The gate's timeout flag is read after every queued repetition, so a gate that timed out is
// reported at once, not after a batch.
constexpr std::size_t max_gated_launches = 128;

template <typename Body, typename Between>
TimingStats time_reps(const BenchOptions& o, const Stream& s, Body body, Between between)
{
    for (int i = 0; i < o.warmup; ++i) {
        between();
        body();
    }
    s.synchronize();
    detail::CapturedWork graph = detail::CapturedWork::capture(s, [&] { body(); });
    std::string method;
    static const bool gate_on = parse_bench_gate(std::getenv(bench_gate_variable));
    bool gated = true;
    if (!gate_on) {
        gated = false;
        graph = detail::CapturedWork{};
        method = std::string("ungated (") + bench_gate_variable +
                 "=off): may include the host's launch time";
    } else if (!graph) {
        gated = false;
        method = "ungated (" + graph.error() + "): may include the host's launch time";
    } else if (graph.nodes() <= max_gated_launches) {
        method = "gated: " + std::to_string(graph.nodes()) + " launch(es) per repetition";
        graph = detail::CapturedWork{};
    } else {
        gated = false;
        method = "graph: " + std::to_string(graph.nodes()) +
                 " launches per repetition captured into one CUDA graph, ungated";
    }
    std::vector<double> submit_ms;  // the host's time to queue each repetition (graph path)
    const auto run_body = [&] {
        if (graph) {
            graph.launch(s);
        } else {
            body();
        }
    };
    PinnedBuffer<int> gate(2);  // [0]: the host's token, [1]: the gate timed out
    std::atomic_ref<int> opened(gate.data()[0]);
    std::atomic_ref<int> timed_out(gate.data()[1]);
    opened.store(0);
    timed_out.store(0);
    const auto check_gate = [&] {
        if (timed_out.load(std::memory_order_acquire) != 0) {
            SPMV_THROW(Error, "timing harness: the launch gate waited " +
                                  std::to_string(static_cast<int>(gate_timeout_ms / 1000.0)) +
                                  " s for the host to queue one repetition (" + method +
                                  "); under a profiler that runs one launch at a time (Nsight "
                                  "Compute) set " + bench_gate_variable + "=off");
        }
    };
    int token = 0;
    std::vector<Event> start(batch);
    std::vector<Event> stop(batch);
    std::vector<double> times;
    double total_ms = 0.0;
    const auto t0 = std::chrono::steady_clock::now();
    const int max_reps = std::max(1, o.max_reps);
    while (true) {
        const int n = std::min(batch, max_reps - static_cast<int>(times.size()));
        for (int i = 0; i < n; ++i) {
            if (gated) {
                detail::launch_gate(gate.data(), ++token, gate.data() + 1, gate_timeout_ms, s);
            }
            between();
            start[i].record(s);
            const auto q0 = std::chrono::steady_clock::now();
            run_body();
            if (graph) {
                submit_ms.push_back(std::chrono::duration<double, std::milli>(
                                        std::chrono::steady_clock::now() - q0)
                                        .count());
            }
            stop[i].record(s);
            opened.store(token, std::memory_order_release);  // the repetition is queued
            check_gate();
        }
        stop[n - 1].synchronize();
        check_gate();
        for (int i = 0; i < n; ++i) {
            const double t = Event::elapsed_ms(start[i], stop[i]);
            times.push_back(t);
            total_ms += t;
        }
        const auto reps = static_cast<int>(times.size());
        const double wall_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
        if (reps >= max_reps || (reps >= o.min_reps && total_ms >= o.min_time_ms) ||
            wall_ms >= o.max_wall_ms) {
            break;
        }
    }
    TimingStats stats = timing_stats(std::move(times));
    if (!submit_ms.empty()) {
        // the GPU time is the GPU's only while the host queues faster than it runs
        const double submit = timing_stats(std::move(submit_ms)).median_ms;
        char buf[160];
        std::snprintf(buf, sizeof buf, " (the host queues one in %.3f ms, the GPU runs it in %.3f ms%s)",
                      submit, stats.median_ms,
                      submit > 0.5 * stats.median_ms ? ": host-bound, the time includes the host's" : "");
        method += buf;
    }
    stats.method = std::move(method);
    return stats;
}

template <typename V>
std::vector<V> random_values(std::size_t n, std::mt19937& rng)
{
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    std::vector<V> v(n);
    for (auto& e : v) {
        e = static_cast<V>(d(rng));
    }
    return v;
}

double cached_copy_bandwidth()
{
    static const double gbs = measure_copy_bandwidth().gbs;
    return gbs;
}

}  // namespace

bool parse_bench_gate(const char* value)
{
    if (value == nullptr) {
        return true;
    }
    const std::string_view v(value);
    if (v == "on") {
        return true;
    }
    if (v == "off") {
        return false;
    }
    SPMV_THROW(InvalidArgument, std::string(bench_gate_variable) + "='" + std::string(v) +
                                    "': expected on or off");
}

TimingStats timing_stats(std::vector<double> t)
{
    TimingStats s;
    s.reps = static_cast<int>(t.size());
    if (t.empty()) {
        return s;
    }
    std::sort(t.begin(), t.end());
    const auto quantile = [&](double p) {
        const double pos = p * static_cast<double>(t.size() - 1);
        const auto lo = static_cast<std::size_t>(std::floor(pos));
        const auto hi = std::min(lo + 1, t.size() - 1);
        return t[lo] + (pos - static_cast<double>(lo)) * (t[hi] - t[lo]);
    };
    s.min_ms = t.front();
    s.max_ms = t.back();
    s.median_ms = quantile(0.5);
    s.p10_ms = quantile(0.1);
    s.p90_ms = quantile(0.9);
    return s;
}

std::size_t spmv_min_bytes(std::int32_t num_rows, std::int32_t num_cols, std::int64_t nnz,
                           std::size_t value_size, bool beta_nonzero)
{
    const auto n = static_cast<std::size_t>(num_rows);
    return static_cast<std::size_t>(nnz) * (value_size + sizeof(std::int32_t)) +
           (n + 1) * sizeof(std::int32_t) + static_cast<std::size_t>(num_cols) * value_size +
           n * value_size * (beta_nonzero ? 2 : 1);
}

CopyBandwidth measure_copy_bandwidth(std::size_t bytes, int reps)
{
    if (bytes == 0) {
        bytes = std::min<std::size_t>(std::size_t{1} << 30, memory_info().free_bytes / 4);
    }
    bytes = std::max<std::size_t>(bytes / 256 * 256, 256);
    DeviceBuffer<std::byte> src(bytes, "copy bandwidth buffer");
    DeviceBuffer<std::byte> dst(bytes, "copy bandwidth buffer");
    detail::memset_bytes(src.data(), 1, bytes);
    const Stream s;
    BenchOptions o;
    o.warmup = 2;
    o.min_reps = reps;
    o.max_reps = reps;
    o.min_time_ms = 0.0;
    const auto t = time_reps(
        o, s,
        [&] {
            detail::copy_bytes_async(dst.data(), src.data(), bytes,
                                     detail::CopyKind::device_to_device, s);
        },
        [] {});
    CopyBandwidth c;
    c.bytes = bytes;
    c.reps = t.reps;
    c.median_ms = t.median_ms;
    c.gbs = 2.0 * static_cast<double>(bytes) / (t.median_ms * 1e-3) / 1e9;
    return c;
}

template <typename V>
BenchResult bench(const DeviceMatrix<V>& m, const BenchOptions& o)
{
    SPMV_EXPECTS(static_cast<bool>(m), "bench: empty DeviceMatrix");
    BenchResult r;
    r.variant = m.variant();
    r.format = m.format();
    r.precision = sizeof(V) == 8 ? "double" : "float";
    r.num_rows = m.num_rows();
    r.num_cols = m.num_cols();
    r.nnz = m.nnz();
    r.alpha = o.alpha;
    r.beta = o.beta;
    r.format_bytes = m.device_bytes();
    r.copy_gbs = o.copy_bandwidth_gbs > 0.0 ? o.copy_bandwidth_gbs : cached_copy_bandwidth();

    const auto rows = static_cast<std::size_t>(m.num_rows());
    const auto cols = static_cast<std::size_t>(m.num_cols());
    const auto alpha = static_cast<V>(o.alpha);
    const auto beta = static_cast<V>(o.beta);
    std::mt19937 rng(o.seed);
    const auto x_host = random_values<V>(cols, rng);
    const auto y_host = random_values<V>(rows, rng);
    auto x = DeviceBuffer<V>::from_host(x_host, "bench x");
    auto y = DeviceBuffer<V>::from_host(y_host, "bench y");

    const Stream s;
    DeviceBuffer<std::byte> flush;
    if (o.cache == CachePolicy::flush_l2) {
        const std::size_t l2 = std::max<std::size_t>(device_info().l2_cache_bytes, 1 << 20);
        flush = DeviceBuffer<std::byte>(2 * l2, "L2 flush buffer");
        detail::memset_bytes(flush.data(), 0, flush.bytes(), s);
        // A read pass, not a memset: a memset leaves up to a whole L2 of dirty lines whose
        // write-back would land inside the next timed kernel (~9 us on an H100).
        r.cache_policy = "cold: L2 flushed before every repetition by an untimed read of " +
                         std::to_string(2 * l2 / (1024 * 1024)) + " MiB (2 x L2)";
    } else {
        r.cache_policy = "warm: back-to-back repetitions on the same x and y, L2 keeps what fits";
    }
    const auto between = [&] {
        if (!flush.empty()) {
            detail::read_bytes(flush.data(), flush.bytes(), s);
        }
    };

    (void)take_stream_decision();  // a decision of an earlier launch is not this variant's
    (void)take_block_order();
    r.kernel = time_reps(
        o, s, [&] { m.spmv(alpha, x.data(), beta, y.data(), o.order, s); }, between);
    r.matrix_loads = take_stream_decision();
    r.block_order = take_block_order();
    const double t = r.kernel.median_ms * 1e-3;
    r.gflops = t > 0.0 ? 2.0 * static_cast<double>(r.nnz) / t / 1e9 : 0.0;
    r.min_bytes = spmv_min_bytes(r.num_rows, r.num_cols, r.nnz, sizeof(V), o.beta != 0.0);
    r.effective_gbs = t > 0.0 ? static_cast<double>(r.min_bytes) / t / 1e9 : 0.0;
    r.fraction_of_copy = r.copy_gbs > 0.0 ? r.effective_gbs / r.copy_gbs : 0.0;

    if (o.xgpu) {
        PinnedBuffer<V> x_pinned(cols);
        PinnedBuffer<V> y_pinned(rows);
        std::copy(x_host.begin(), x_host.end(), x_pinned.data());
        std::copy(y_host.begin(), y_host.end(), y_pinned.data());
        r.xgpu = time_reps(
            o, s,
            [&] {
                if (cols > 0) {
                    detail::copy_bytes_async(x.data(), x_pinned.data(), cols * sizeof(V),
                                             detail::CopyKind::host_to_device, s);
                }
                if (beta != V{0} && rows > 0) {
                    detail::copy_bytes_async(y.data(), y_pinned.data(), rows * sizeof(V),
                                             detail::CopyKind::host_to_device, s);
                }
                m.spmv(alpha, x.data(), beta, y.data(), o.order, s);
                if (rows > 0) {
                    detail::copy_bytes_async(y_pinned.data(), y.data(), rows * sizeof(V),
                                             detail::CopyKind::device_to_host, s);
                }
            },
            between);
        const double tx = r.xgpu.median_ms * 1e-3;
        r.xgpu_gflops = tx > 0.0 ? 2.0 * static_cast<double>(r.nnz) / tx / 1e9 : 0.0;
    }

    if (m.permuted()) {
        DeviceBuffer<V> y_orig(rows, "bench y");
        r.unpermute = time_reps(
            o, s, [&] { m.unpermute(y.data(), y_orig.data(), s); }, between);
    }
    s.synchronize();
    return r;
}

template BenchResult bench<float>(const DeviceMatrix<float>&, const BenchOptions&);
template BenchResult bench<double>(const DeviceMatrix<double>&, const BenchOptions&);

}  // namespace spmv::gpu
