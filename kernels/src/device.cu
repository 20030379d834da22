#include <cuda_runtime.h>

#include <cstdlib>
#include <string>
#include <string_view>

#include <spmv/error.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/gpu/stream_loads.hpp>

#include "cuda_check.cuh"
#include "launch.cuh"

namespace spmv::gpu {

bool is_compiled() noexcept
{
    return true;
}

int device_count() noexcept
{
    int n = 0;
    // Without a driver this returns cudaErrorInsufficientDriver (35) or cudaErrorStubLibrary (34)
    // and leaves n untouched (TOOLCHAIN.md §4): any failure means "no device".
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return n;
}

void set_device(int ordinal)
{
    SPMV_CUDA_CHECK(cudaSetDevice(ordinal));
}

int current_device()
{
    int d = 0;
    SPMV_CUDA_CHECK(cudaGetDevice(&d));
    return d;
}

DeviceInfo device_info()
{
    int dev = 0;
    SPMV_CUDA_CHECK(cudaGetDevice(&dev));  // CudaError when there is no driver or device
    cudaDeviceProp p{};
    SPMV_CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
    DeviceInfo d;
    d.name = p.name;
    d.compute_capability_major = p.major;
    d.compute_capability_minor = p.minor;
    d.global_memory_bytes = p.totalGlobalMem;
    d.l2_cache_bytes = static_cast<std::size_t>(p.l2CacheSize);
    d.multiprocessors = p.multiProcessorCount;
    d.threads_per_multiprocessor = p.maxThreadsPerMultiProcessor;
    d.ecc_enabled = p.ECCEnabled != 0;
    int mem_clock_khz = 0;
    int bus_width = 0;
    SPMV_CUDA_CHECK(cudaDeviceGetAttribute(&mem_clock_khz, cudaDevAttrMemoryClockRate, dev));
    SPMV_CUDA_CHECK(cudaDeviceGetAttribute(&bus_width, cudaDevAttrGlobalMemoryBusWidth, dev));
    d.peak_bandwidth_gbs = 2.0 * mem_clock_khz * 1e3 * (bus_width / 8.0) / 1e9;
    // versions for records (0 when a query fails: a record is still written)
    if (cudaRuntimeGetVersion(&d.cuda_runtime_version) != cudaSuccess) d.cuda_runtime_version = 0;
    if (cudaDriverGetVersion(&d.cuda_driver_version) != cudaSuccess) d.cuda_driver_version = 0;
    int sp_major = 0, sp_minor = 0, sp_patch = 0;
    if (cusparseGetProperty(MAJOR_VERSION, &sp_major) == CUSPARSE_STATUS_SUCCESS &&
        cusparseGetProperty(MINOR_VERSION, &sp_minor) == CUSPARSE_STATUS_SUCCESS &&
        cusparseGetProperty(PATCH_LEVEL, &sp_patch) == CUSPARSE_STATUS_SUCCESS) {
        d.cusparse_version = sp_major * 1000 + sp_minor * 100 + sp_patch;
    }
    cudaGetLastError();
    return d;
}

namespace detail {

bool chained_launches()
{
    static const bool on = [] {
        const char* e = std::getenv("SPMV_CG_CHAINED");
        if (e != nullptr && std::string_view(e) == "off") {
            return false;
        }
        int dev = 0;
        int major = 0;
        SPMV_CUDA_CHECK(cudaGetDevice(&dev));
        SPMV_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
        return major >= 9;
    }();
    return on;
}

std::size_t l2_cache_bytes()
{
    static const std::size_t bytes = [] {
        int dev = 0;
        int n = 0;
        SPMV_CUDA_CHECK(cudaGetDevice(&dev));
        SPMV_CUDA_CHECK(cudaDeviceGetAttribute(&n, cudaDevAttrL2CacheSize, dev));
        return static_cast<std::size_t>(n);
    }();
    return bytes;
}

bool stream_matrix_loads(std::size_t matrix_bytes, std::size_t vector_bytes)
{
    const StreamLoads mode = stream_loads();  // SPMV_STREAM_LOADS, read once, or the override
    StreamDecision d{false, mode, matrix_bytes, vector_bytes, 0};
    if (mode != StreamLoads::automatic) {
        d.streaming = mode == StreamLoads::always;  // no need to ask the device
    } else {
        d.l2_bytes = l2_cache_bytes();
        d.streaming = choose_stream_loads(mode, matrix_bytes, vector_bytes, d.l2_bytes);
    }
    note_stream_decision(d);  // what `spmvlab bench` prints per variant (take_stream_decision)
    return d.streaming;
}

}  // namespace detail
}  // namespace spmv::gpu
