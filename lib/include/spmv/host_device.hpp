#pragma once
/// The one name of the device that SpMV Lab's host reference SpMV runs on (the CPU, one
/// thread): what `spmvlab bench` and `spmvlab solve` write as "device" without --gpu, what the
/// explorer's Timing view shows without a CUDA device, and what `spmvlab plot` and
/// `spmvlab report` print for a CPU record. Every writer asks host_device_name(); nothing spells
/// the name out.
///
/// Records written before the name was one (three spellings, kept here so that they stay
/// readable) are recognised by is_host_device_name(), and readers that combine or compare
/// devices (plot) put host_device_name() in their place.
///
/// Example: is_host_device_name("CPU (host reference, 1 thread)") is true (bench's per-result
/// name before), is_host_device_name("NVIDIA H100 80GB HBM3") is false.
#include <array>
#include <string>
#include <string_view>

namespace spmv {

/// "CPU (host reference SpMV, 1 thread)".
inline std::string host_device_name() { return "CPU (host reference SpMV, 1 thread)"; }

/// True for host_device_name() and for the names earlier versions wrote for the same device:
/// "CPU (host reference, 1 thread)" (bench's results, solve), "CPU (host reference SpMV, one
/// thread; not a GPU measurement)" (bench's record head) and "CPU reference (1 thread)" (the
/// explorer's Timing view).
inline bool is_host_device_name(std::string_view name) noexcept
{
    constexpr std::array<std::string_view, 4> names = {
        "CPU (host reference SpMV, 1 thread)", "CPU (host reference, 1 thread)",
        "CPU (host reference SpMV, one thread; not a GPU measurement)",
        "CPU reference (1 thread)"};
    for (const auto n : names) {
        if (name == n) return true;
    }
    return false;
}

}  // namespace spmv
