#pragma once
// CUDA inter-process memory (cudaIpcGetMemHandle / cudaIpcOpenMemHandle): a process exports a
// device allocation as a 64-byte handle, a process of the same host opens it and reads the
// memory with ordinary device copies, over NVLink or PCIe peer-to-peer where the two GPUs
// differ. The distributed SpMV's "cuda-ipc" exchange path pulls each neighbour's halo entries
// this way when the MPI library is not CUDA-aware (spmv/dist/dist_matrix.hpp).
#include <array>
#include <cstdint>

namespace spmv::gpu {

inline constexpr std::size_t ipc_handle_bytes = 64;
using IpcHandle = std::array<unsigned char, ipc_handle_bytes>;

/// The handle of a whole device allocation (`allocation` as cudaMalloc returned it, e.g. a
/// DeviceBuffer's data()). Throws CudaError.
IpcHandle ipc_export(const void* allocation);

/// Another process's allocation opened in this one (on the current device; peer access is
/// enabled as needed). Closed by the destructor.
class IpcMapping {
public:
    IpcMapping() = default;
    /// Throws CudaError when the handle cannot be opened (another host, no peer access, a
    /// sandbox without CUDA IPC).
    explicit IpcMapping(const IpcHandle& handle);
    ~IpcMapping();  // never throws
    IpcMapping(IpcMapping&& o) noexcept;
    IpcMapping& operator=(IpcMapping&& o) noexcept;
    IpcMapping(const IpcMapping&) = delete;
    IpcMapping& operator=(const IpcMapping&) = delete;

    const void* data() const noexcept { return ptr_; }

private:
    void* ptr_ = nullptr;
};

/// True when the current device can read `peer_device`'s memory directly
/// (cudaDeviceCanAccessPeer; true for the device itself).
bool can_access_peer(int peer_device);

}  // namespace spmv::gpu
