// Host-only build of spmv::kernels: every entry point reports that CUDA was not compiled in.
#include <spmv/error.hpp>
#include <spmv/gpu/device.hpp>

namespace spmv::gpu {

bool is_compiled() noexcept
{
    return false;
}

int device_count() noexcept
{
    return 0;
}

DeviceInfo device_info()
{
    SPMV_THROW(NotCompiled, "SpMV Lab was built without CUDA (SPMV_ENABLE_CUDA=OFF or no nvcc)");
}

}  // namespace spmv::gpu
