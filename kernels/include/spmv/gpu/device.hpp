#pragma once
/// Device discovery. Plain C++: callable from code compiled without nvcc.
#include <cstddef>
#include <string>

namespace spmv::gpu {

/// True when this build has CUDA kernels (false for the stub build).
bool is_compiled() noexcept;

/// Number of usable CUDA devices; 0 without a driver or a device (never throws).
int device_count() noexcept;

/// True when kernels are compiled and at least one device is present.
inline bool is_available() noexcept
{
    return is_compiled() && device_count() > 0;
}

struct DeviceInfo {
    std::string name;
    int compute_capability_major = 0;
    int compute_capability_minor = 0;
    std::size_t global_memory_bytes = 0;
    std::size_t l2_cache_bytes = 0;
    int multiprocessors = 0;
    int threads_per_multiprocessor = 0;  ///< resident threads per multiprocessor (2048 on sm_90)
    bool ecc_enabled = false;
    double peak_bandwidth_gbs = 0.0;  ///< from memory clock and bus width (theoretical)
    /// Versions for the output records' meta block, CUDA's encoding (12040 = 12.4; cuSPARSE
    /// major*1000 + minor*100 + patch); 0 where unknown.
    int cuda_runtime_version = 0;  ///< cudaRuntimeGetVersion
    int cuda_driver_version = 0;   ///< cudaDriverGetVersion (the newest CUDA the driver runs)
    int cusparse_version = 0;      ///< cusparseGetProperty (the library linked)
};

/// Makes device `ordinal` the current one of the calling host thread (cudaSetDevice): one MPI
/// rank per GPU picks its GPU by its node-local rank. Throws CudaError for an invalid ordinal,
/// NotCompiled in a build without CUDA.
void set_device(int ordinal);
/// The calling thread's current device (cudaGetDevice).
int current_device();

/// Properties of the current device; throws spmv::NotCompiled in a build without CUDA and
/// spmv::gpu::CudaError when no device is present.
DeviceInfo device_info();

}  // namespace spmv::gpu
