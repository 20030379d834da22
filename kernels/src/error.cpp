// Host-only part of the GPU errors (built with and without CUDA).
#include <cstdio>
#include <string>

#include <spmv/gpu/error.hpp>

namespace spmv::gpu {

CudaError::CudaError(const char* file, int line, const char* call, int code, const char* name,
                     const char* description)
    : Error(file, line, std::string(call) + " failed: " + name + " (" + description + ")"),
      code_(code)
{}

CusparseError::CusparseError(const char* file, int line, const char* call, int status,
                             const char* name, const char* description)
    : Error(file, line, std::string(call) + " failed: " + name + " (" + description + ")"),
      status_(status)
{}

OutOfDeviceMemory::OutOfDeviceMemory(const char* file, int line, const std::string& what_needs,
                                     std::size_t needed_bytes, std::size_t free_bytes)
    : Error(file, line,
            what_needs + " needs " + format_bytes(needed_bytes) + " on the device, " +
                format_bytes(free_bytes) + " free (" + std::to_string(needed_bytes) +
                " bytes needed, " + std::to_string(free_bytes) + " free)"),
      needed_(needed_bytes),
      free_(free_bytes)
{}

std::string format_bytes(std::size_t bytes)
{
    const double b = static_cast<double>(bytes);
    char buf[64];
    if (b >= 1024.0 * 1024.0 * 1024.0) {
        std::snprintf(buf, sizeof buf, "%.1f GiB", b / (1024.0 * 1024.0 * 1024.0));
    } else if (b >= 1024.0 * 1024.0) {
        std::snprintf(buf, sizeof buf, "%.1f MiB", b / (1024.0 * 1024.0));
    } else if (b >= 1024.0) {
        std::snprintf(buf, sizeof buf, "%.1f KiB", b / 1024.0);
    } else {
        std::snprintf(buf, sizeof buf, "%zu bytes", bytes);
    }
    return buf;
}

}  // namespace spmv::gpu
