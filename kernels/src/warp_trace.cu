// Traced runs (spmv/gpu/warp_trace.hpp): the registry of every file's sink setter
// (warp_trace.cuh), the run with the sink set, and the records turned into launches.
#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <spmv/error.hpp>
#include <spmv/gpu/warp_trace.hpp>

#include "launch.cuh"
#include "warp_trace.cuh"

namespace spmv::gpu {
namespace detail {
namespace {

std::vector<WarpTraceSetter>& setters()
{
    static std::vector<WarpTraceSetter> s;
    return s;
}

std::mutex& trace_mutex()
{
    static std::mutex m;
    return m;
}

void set_all(const WarpTraceSink& s)
{
    for (const auto set : setters()) {
        set(s);
    }
}

// Clears every file's sink when a traced run ends, also by an exception (never throws: a
// device in an error state keeps the error, which the caller already reports).
struct ClearSinks {
    ~ClearSinks()
    {
        try {
            cudaDeviceSynchronize();
            set_all({});
        } catch (...) {
        }
    }
};

constexpr int name_width = 128;

// One thread per distinct kernel name: copies __func__ of the kernel (a device address the
// records hold) into a host-readable table.
__global__ void copy_kernel_names_kernel(const unsigned long long* names, int n, char* out)
{
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) {
        return;
    }
    const char* s = reinterpret_cast<const char*>(names[i]);
    int k = 0;
    for (; s != nullptr && k < name_width - 1 && s[k] != '\0'; ++k) {
        out[i * name_width + k] = s[k];
    }
    out[i * name_width + k] = '\0';
}

std::map<unsigned long long, std::string> kernel_names(const std::vector<WarpRecord>& records)
{
    std::vector<unsigned long long> ptrs;
    for (const auto& r : records) {
        ptrs.push_back(r.kernel);
    }
    std::sort(ptrs.begin(), ptrs.end());
    ptrs.erase(std::unique(ptrs.begin(), ptrs.end()), ptrs.end());
    std::map<unsigned long long, std::string> out;
    if (ptrs.empty()) {
        return out;
    }
    const int n = static_cast<int>(ptrs.size());
    auto d_ptrs = DeviceBuffer<unsigned long long>::from_host(ptrs, "warp trace kernel names");
    DeviceBuffer<char> d_names(static_cast<std::size_t>(n) * name_width, "warp trace names");
    copy_kernel_names_kernel<<<ceil_div(n, 128), 128>>>(d_ptrs.data(), n, d_names.data());
    SPMV_CUDA_CHECK(cudaGetLastError());
    SPMV_CUDA_CHECK(cudaDeviceSynchronize());
    const auto names = d_names.to_host();
    for (int i = 0; i < n; ++i) {
        out[ptrs[static_cast<std::size_t>(i)]] =
            std::string(names.data() + static_cast<std::size_t>(i) * name_width);
    }
    return out;
}

}  // namespace

bool register_warp_trace_setter(WarpTraceSetter set)
{
    setters().push_back(set);
    return true;
}

}  // namespace detail

bool warp_recorder_compiled() noexcept
{
#ifdef SPMV_NO_WARP_TRACE
    return false;
#else
    return true;
#endif
}

WarpTrace trace_warps(const std::function<void()>& body, StreamRef stream,
                      std::size_t capacity_hint)
{
    using detail::WarpRecord;
#ifdef SPMV_NO_WARP_TRACE
    (void)body, (void)stream, (void)capacity_hint;
    SPMV_THROW(NotCompiled, "trace_warps: this build's kernels have no warp recorder "
                            "(the default); configure with -DSPMV_WARP_TRACE=ON");
#endif
    std::lock_guard<std::mutex> lock(detail::trace_mutex());
    WarpTrace out;
    int device = 0;
    SPMV_CUDA_CHECK(cudaGetDevice(&device));
    SPMV_CUDA_CHECK(
        cudaDeviceGetAttribute(&out.multiprocessors, cudaDevAttrMultiProcessorCount, device));
    int clock_khz = 0;
    SPMV_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
    out.sm_clock_khz = clock_khz;

    std::size_t capacity = capacity_hint > 0 ? capacity_hint : std::size_t{1} << 16;
    std::vector<WarpRecord> records;
    for (int run = 1;; ++run) {
        DeviceBuffer<WarpRecord> d_records(capacity, "warp trace records");
        DeviceBuffer<unsigned long long> d_count(1, "warp trace counter");
        SPMV_CUDA_CHECK(cudaMemset(d_records.data(), 0, capacity * sizeof(WarpRecord)));
        SPMV_CUDA_CHECK(cudaMemset(d_count.data(), 0, sizeof(unsigned long long)));
        SPMV_CUDA_CHECK(cudaDeviceSynchronize());
        {
            detail::ClearSinks clear;
            detail::set_all({d_records.data(), capacity, d_count.data()});
            body();
            SPMV_CUDA_CHECK(cudaGetLastError());
            SPMV_CUDA_CHECK(cudaStreamSynchronize(detail::native(stream)));
        }
        SPMV_CUDA_CHECK(cudaGetLastError());
        const auto count = static_cast<std::size_t>(d_count.to_host().at(0));
        if (count > capacity) {
            if (run > 1) {
                SPMV_THROW(Error, "trace_warps: the body launched " + std::to_string(count) +
                                      " warps where the run before launched at most " +
                                      std::to_string(capacity) + ": it is not repeatable");
            }
            capacity = count;
            continue;
        }
        records = d_records.to_host();
        records.resize(count);
        out.buffer_records = capacity;
        out.runs = run;
        break;
    }

    const auto names = detail::kernel_names(records);
    std::map<unsigned long long, TracedLaunch> launches;
    for (const auto& r : records) {
        auto& l = launches[r.grid_id];
        if (l.warps.empty()) {
            l.grid_id = r.grid_id;
            l.kernel = names.at(r.kernel);
            l.blocks = r.grid_blocks;
            l.threads_per_block = static_cast<int>(r.block_threads);
            l.expected_warps = l.blocks * ((r.block_threads + 31) / 32);
            l.first_start_ns = r.start_ns;
        }
        TracedWarp w;
        w.block = static_cast<int>(r.block);
        w.warp = static_cast<int>(r.warp);
        w.sm = static_cast<int>(r.sm);
        w.start_ns = r.start_ns;
        w.end_ns = r.end_ns;
        w.start_cycle = r.start_cycle;
        w.end_cycle = r.end_cycle;
        if (r.rows_end > 0) {
            w.row_begin = static_cast<std::int64_t>(~r.rows_first_inv);
            w.row_end = static_cast<std::int64_t>(r.rows_end);
        }
        l.first_start_ns = std::min<std::uint64_t>(l.first_start_ns, r.start_ns);
        l.warps.push_back(w);
    }
    for (auto& [id, l] : launches) {
        out.launches.push_back(std::move(l));
    }
    std::stable_sort(out.launches.begin(), out.launches.end(),
                     [](const TracedLaunch& a, const TracedLaunch& b) {
                         return a.first_start_ns < b.first_start_ns;
                     });
    return out;
}

}  // namespace spmv::gpu
