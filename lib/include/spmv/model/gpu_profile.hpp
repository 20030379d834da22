#pragma once
/// The hardware numbers the performance model needs: device memory bandwidth B_GPU, PCIe
/// bandwidth B_PCI and the peak flop rates. Every built-in profile is an ASSUMPTION whose
/// source is given in `note`; units are decimal (1 GB/s = 1e9 bytes/s, 1 GF/s = 1e9 flop/s).
///
/// Built-in profiles (B_GPU is the ATTAINABLE streaming bandwidth, as in Kreutzer §I.B, not the
/// nominal one):
///   name        B_GPU   B_PCI  peak DP  peak SP   source
///   C2050       120     6      515      1030      Kreutzer §I.B: 120 GB/s streaming, ECC off
///   C2070       120     6      515      1030      (same GF100 chip and memory as C2050)
///   C2050-ECC    91     6      515      1030      Kreutzer §I.B: 91 GB/s streaming, ECC on
///   C2070-ECC    91     6      515      1030
///   H100       3000    55    34000     67000      H100 80GB HBM3 SXM: ~3.0 TB/s measured copy
///   H200       4250    55    34000     67000      H200 141GB HBM3e SXM: 4.25 TB/s measured copy
///   A100       1800    25     9700     19500      A100 80GB SXM4 HBM2e: 2.04 TB/s nominal x 0.88
/// See each note for the details (nominal numbers, what is measured and what is assumed).
#include <span>
#include <string>
#include <string_view>

namespace spmv::model {

struct GpuProfile {
    std::string name;
    double memory_bandwidth_gbs = 0.0;  ///< B_GPU: attainable device-memory bandwidth, GB/s
    double pcie_bandwidth_gbs = 0.0;    ///< B_PCI: host <-> device, one direction, GB/s
    double peak_gflops_dp = 0.0;        ///< double-precision peak, GF/s (0: unknown)
    double peak_gflops_sp = 0.0;        ///< single-precision peak, GF/s (0: unknown)
    std::string note;                   ///< where the numbers come from; what is assumed
};

/// The built-in profiles, in the order of the table above.
std::span<const GpuProfile> profiles();

/// Looks a built-in profile up by name, ignoring case ("h100" finds "H100").
/// Throws InvalidArgument listing the known names.
const GpuProfile& find_profile(std::string_view name);

/// The built-in profile a CUDA device name denotes, or nullptr: the profile whose name occurs in
/// `device_name` as a whole word, ignoring case ("NVIDIA H200" -> H200, "NVIDIA H100 80GB HBM3"
/// -> H100, "Tesla C2050" -> C2050, "NVIDIA A100-SXM4-80GB" -> A100; "Tesla V100-SXM2-32GB" ->
/// nullptr). The -ECC profiles are
/// never chosen: a device name does not say whether ECC is on.
const GpuProfile* profile_for_device(std::string_view device_name) noexcept;

/// What a --device option names: a profile by name, or "auto": profile_for_device of
/// `device_name`, and H100 when no profile matches it (*assumed is then set to true, so the
/// caller can say so). Throws InvalidArgument for an unknown name.
const GpuProfile& resolve_profile(std::string_view option, std::string_view device_name,
                                  bool* assumed = nullptr);

/// A user-supplied profile (e.g. bandwidths measured on the machine at hand). Peaks may be 0
/// (unknown). Throws InvalidArgument for a non-positive bandwidth or a negative peak.
GpuProfile custom(std::string name, double memory_bandwidth_gbs, double pcie_bandwidth_gbs,
                  double peak_gflops_dp = 0.0, double peak_gflops_sp = 0.0);

}  // namespace spmv::model
