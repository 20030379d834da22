#pragma once
// The CUDA device a panel runs its work on, if any.
#include <exception>
#include <optional>

#include <spmv/gpu/device.hpp>

/// The device's properties when this build has CUDA kernels and a device answers; nullopt
/// otherwise (no CUDA in the build, no device, or the query failed): run on the host then.
inline std::optional<spmv::gpu::DeviceInfo> usableDevice()
{
    if (!spmv::gpu::is_available()) return std::nullopt;
    try {
        return spmv::gpu::device_info();
    } catch (const std::exception&) {
        return std::nullopt;
    }
}
