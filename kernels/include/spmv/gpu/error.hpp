#pragma once
/// Errors raised by the GPU layer (STYLE.md 5.4). Plain C++: the CUDA status travels as an int
/// plus its name and description, so code compiled without nvcc can catch and print it.
#include <cstddef>
#include <string>

#include <spmv/error.hpp>

namespace spmv::gpu {

/// A CUDA runtime call failed. what() reads
/// "file.cu:42: cudaMalloc(&p, bytes) failed: cudaErrorMemoryAllocation (out of memory)".
class CudaError : public Error {
public:
    CudaError(const char* file, int line, const char* call, int code, const char* name,
              const char* description);
    /// The cudaError_t value (0 is cudaSuccess, never thrown).
    int code() const noexcept { return code_; }

private:
    int code_;
};

/// A cuSPARSE call failed; what() names the call and the cusparseStatus_t.
class CusparseError : public Error {
public:
    CusparseError(const char* file, int line, const char* call, int status, const char* name,
                  const char* description);
    int status() const noexcept { return status_; }

private:
    int status_;
};

/// Not enough free device memory for a matrix or buffer, detected before allocating.
/// what() reads "pjds needs 12.3 GiB on the device, 9.1 GiB free (13207024435 bytes needed,
/// 9771050598 free)".
class OutOfDeviceMemory : public Error {
public:
    OutOfDeviceMemory(const char* file, int line, const std::string& what_needs,
                      std::size_t needed_bytes, std::size_t free_bytes);
    std::size_t needed_bytes() const noexcept { return needed_; }
    std::size_t free_bytes() const noexcept { return free_; }

private:
    std::size_t needed_;
    std::size_t free_;
};

/// "12.3 GiB", "512.0 MiB", "3.0 KiB", "17 bytes".
std::string format_bytes(std::size_t bytes);

}  // namespace spmv::gpu
