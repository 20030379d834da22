// CUDA IPC: the CUDA side of spmv/gpu/ipc.hpp.
#include <cstring>
#include <cuda_runtime.h>
#include <utility>

#include <spmv/gpu/ipc.hpp>

#include "cuda_check.cuh"

namespace spmv::gpu {

static_assert(sizeof(cudaIpcMemHandle_t) == ipc_handle_bytes);

IpcHandle ipc_export(const void* allocation)
{
    cudaIpcMemHandle_t h{};
    SPMV_CUDA_CHECK(cudaIpcGetMemHandle(&h, const_cast<void*>(allocation)));
    IpcHandle out{};
    std::memcpy(out.data(), &h, sizeof(h));
    return out;
}

IpcMapping::IpcMapping(const IpcHandle& handle)
{
    cudaIpcMemHandle_t h{};
    std::memcpy(&h, handle.data(), sizeof(h));
    SPMV_CUDA_CHECK(cudaIpcOpenMemHandle(&ptr_, h, cudaIpcMemLazyEnablePeerAccess));
}

IpcMapping::~IpcMapping()
{
    if (ptr_ != nullptr) {
        cudaIpcCloseMemHandle(ptr_);
    }
}

IpcMapping::IpcMapping(IpcMapping&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)) {}

IpcMapping& IpcMapping::operator=(IpcMapping&& o) noexcept
{
    if (this != &o) {
        if (ptr_ != nullptr) {
            cudaIpcCloseMemHandle(ptr_);
        }
        ptr_ = std::exchange(o.ptr_, nullptr);
    }
    return *this;
}

bool can_access_peer(int peer_device)
{
    int dev = 0;
    SPMV_CUDA_CHECK(cudaGetDevice(&dev));
    if (dev == peer_device) {
        return true;
    }
    int can = 0;
    SPMV_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, dev, peer_device));
    return can != 0;
}

}  // namespace spmv::gpu
