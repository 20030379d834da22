#include <spmv/model/gpu_profile.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <spmv/error.hpp>

#include "find_named.hpp"

namespace spmv::model {
namespace {

// Fermi (GF100, Tesla C2050 3 GB / C2070 6 GB): Kreutzer §I.B: 14 MPs x 32 ALUs = 896 SP
// flops/cycle "above 1 GHz", DP half; the boards run at 1.15 GHz: 1030 SP, 515 DP GF/s.
constexpr const char* fermi_common =
    " Peak 515 GF/s DP / 1030 GF/s SP (448 cores x 1.15 GHz x 2 flops; Kreutzer §I.B: 896 SP "
    "flops/cycle, DP half). Nominal memory bandwidth 144 GB/s. B_PCI = 6 GB/s is an "
    "ASSUMPTION (PCIe 2.0 x16: 8 GB/s per direction in theory, ~6 GB/s attained); the paper "
    "gives no PCIe number, only B_GPU/B_PCI ~ 10..20, and 120/6 = 20, 91/6 = 15 lie there.";

std::string fermi_note(const char* board, bool ecc)
{
    return std::string(board) +
           (ecc ? ": B_GPU = 91 GB/s, the streaming bandwidth with ECC enabled that Kreutzer "
                  "et al. §I.B report (Tesla C2070 used for their Table I)."
                : ": B_GPU = 120 GB/s, the streaming bandwidth with ECC disabled that Kreutzer "
                  "et al. §I.B report (Tesla C2070 used for their Table I).") +
           fermi_common;
}

const std::vector<GpuProfile>& table()
{
    static const std::vector<GpuProfile> t = {
        {"C2050", 120.0, 6.0, 515.0, 1030.0, fermi_note("Tesla C2050 (Fermi, 3 GB)", false)},
        {"C2070", 120.0, 6.0, 515.0, 1030.0, fermi_note("Tesla C2070 (Fermi, 6 GB)", false)},
        {"C2050-ECC", 91.0, 6.0, 515.0, 1030.0, fermi_note("Tesla C2050 (Fermi, 3 GB)", true)},
        {"C2070-ECC", 91.0, 6.0, 515.0, 1030.0, fermi_note("Tesla C2070 (Fermi, 6 GB)", true)},
        {"H100", 3000.0, 55.0, 34000.0, 67000.0,
         "H100 80GB HBM3 SXM5. B_GPU = 3000 GB/s: ASSUMED attainable copy bandwidth (the project "
         "measured ~3.0 TB/s on its H100); nominal 3.35 TB/s. "
         "B_PCI = 55 GB/s: ASSUMED attained PCIe Gen5 x16 (~63 GB/s per direction in theory). "
         "Peak 34 TF/s FP64 (67 with tensor cores) / 67 TF/s FP32: NVIDIA datasheet."},
        {"H200", 4250.0, 55.0, 34000.0, 67000.0,
         "H200 141GB HBM3e SXM. B_GPU = 4250 GB/s: MEASURED, the copy bandwidth `spmvlab bench "
         "--gpu` measured on four H200 (4252 GB/s, ECC on, driver 580, 2026-11-28, "
         "docs/benchmarks/h200_calib_2026-11-28); nominal 4.8 TB/s. B_PCI = 55 GB/s: ASSUMED "
         "attained PCIe Gen5 x16. Peak 34 TF/s FP64 / 67 TF/s FP32: NVIDIA datasheet."},
        {"A100", 1800.0, 25.0, 9700.0, 19500.0,
         "A100 80GB SXM4 (HBM2e). B_GPU = 1800 GB/s: ASSUMED, 88 % of the nominal 2039 GB/s (a "
         "typical attained copy rate); not measured here. B_PCI = 25 GB/s: ASSUMED attained PCIe "
         "Gen4 x16 (~32 GB/s per direction in theory). Peak 9.7 TF/s FP64 (19.5 with tensor "
         "cores) / 19.5 TF/s FP32: NVIDIA datasheet. The 40 GB A100 has 1555 GB/s nominal: give "
         "a custom profile for it."},
    };
    return t;
}


}  // namespace

std::span<const GpuProfile> profiles()
{
    return table();
}

const GpuProfile& find_profile(std::string_view name)
{
    return detail::find_named(table(), name, "GPU profile");
}

const GpuProfile* profile_for_device(std::string_view device_name) noexcept
{
    auto lower = [](char c) {
        return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    };
    auto is_word = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    };
    std::string dev(device_name);
    for (auto& c : dev) c = lower(c);
    for (const auto& p : table()) {
        if (p.name.find("-ECC") != std::string::npos) continue;
        std::string name = p.name;
        for (auto& c : name) c = lower(c);
        for (auto at = dev.find(name); at != std::string::npos; at = dev.find(name, at + 1)) {
            const bool left = at == 0 || !is_word(dev[at - 1]);
            const auto end = at + name.size();
            const bool right = end == dev.size() || !is_word(dev[end]);
            if (left && right) return &p;
        }
    }
    return nullptr;
}

const GpuProfile& resolve_profile(std::string_view option, std::string_view device_name,
                                  bool* assumed)
{
    if (assumed) *assumed = false;
    if (option != "auto") return find_profile(option);
    if (const auto* p = profile_for_device(device_name)) return *p;
    if (assumed) *assumed = true;
    return find_profile("H100");
}

GpuProfile custom(std::string name, double memory_bandwidth_gbs, double pcie_bandwidth_gbs,
                  double peak_gflops_dp, double peak_gflops_sp)
{
    SPMV_EXPECTS(std::isfinite(memory_bandwidth_gbs) && memory_bandwidth_gbs > 0.0,
                 "device memory bandwidth must be positive (GB/s), got " +
                     std::to_string(memory_bandwidth_gbs));
    SPMV_EXPECTS(
        std::isfinite(pcie_bandwidth_gbs) && pcie_bandwidth_gbs > 0.0,
        "PCIe bandwidth must be positive (GB/s), got " + std::to_string(pcie_bandwidth_gbs));
    SPMV_EXPECTS(peak_gflops_dp >= 0.0 && peak_gflops_sp >= 0.0,
                 "peak GF/s must be >= 0 (0: unknown)");
    GpuProfile p;
    p.name = std::move(name);
    p.memory_bandwidth_gbs = memory_bandwidth_gbs;
    p.pcie_bandwidth_gbs = pcie_bandwidth_gbs;
    p.peak_gflops_dp = peak_gflops_dp;
    p.peak_gflops_sp = peak_gflops_sp;
    p.note = "user-supplied bandwidths (custom profile)";
    return p;
}

}  // namespace spmv::model
