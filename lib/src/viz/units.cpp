#include <cmath>

#include <spmv/viz/units.hpp>

namespace spmv::viz {

ByteUnit byte_unit(double max_bytes) noexcept
{
    constexpr ByteUnit units[] = {
        {1024.0 * 1024.0 * 1024.0, "GiB"}, {1024.0 * 1024.0, "MiB"}, {1024.0, "KiB"}};
    for (const auto& u : units) {
        if (max_bytes >= u.divisor) {
            return u;
        }
    }
    return {};
}

double nice_step(double span, int max_ticks) noexcept
{
    if (!(span > 0) || max_ticks < 1) return 1.0;
    for (double decade = 1.0;; decade *= 10.0) {
        for (double m : {1.0, 2.0, 5.0}) {
            if (span / (m * decade) <= max_ticks) return m * decade;
        }
    }
}

Decades decades(double lo, double hi) noexcept
{
    if (!(lo > 0) || !(hi > 0) || hi < lo) return {};
    Decades d{std::pow(10.0, std::floor(std::log10(lo))),
              std::pow(10.0, std::ceil(std::log10(hi)))};
    if (d.hi <= d.lo) d.hi = d.lo * 10.0;
    return d;
}

}  // namespace spmv::viz
