// --format auto: the format advisor's first choice (auto_format.hpp).
#include "auto_format.hpp"

#include <spmv/error.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/model/gpu_profile.hpp>

namespace spmvlab {

AutoChoice choose_format(const spmv::Csr<double, std::int32_t>& a, const std::string& precision,
                         const spmv::FormatParams& params, const std::string& gpu_option,
                         std::int64_t iterations, double max_format_bytes, bool host_formats_only)
{
    using namespace spmv::model;
    std::string device;
    if (spmv::gpu::is_available()) {
        device = spmv::gpu::device_info().name;
    }
    bool assumed = false;
    const auto& gpu = resolve_profile(gpu_option, device, &assumed);
    AdvisorOptions o;
    if (precision == "sp" || precision == "single") {
        o.precision = Precision::single_precision;
    } else if (precision == "dp" || precision == "double") {
        o.precision = Precision::double_precision;
    } else {
        SPMV_THROW(spmv::InvalidArgument, "precision must be sp or dp, not '" + precision + "'");
    }
    o.params = params;
    o.iterations = iterations;
    o.max_format_bytes = max_format_bytes;
    if (host_formats_only) {
        for (const auto& v : modelled_variants()) {
            if (v.name == v.format) o.variants.emplace_back(v.name);
        }
    }
    const auto advice = advise(a, gpu, o);
    const auto& best = advice.best();
    AutoChoice c;
    c.variant = best.variant;
    c.format = best.format;
    c.params = best.params;
    c.profile = gpu.name;
    c.note = "format auto: " + advice.summary() + " (the advisor's first choice" +
             (assumed ? (device.empty() ? std::string("; H100 profile assumed: no GPU here")
                                        : "; H100 profile assumed: no profile matches '" + device + "'")
                      : std::string()) +
             ")";
    return c;
}

}  // namespace spmvlab
