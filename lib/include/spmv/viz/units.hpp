#pragma once
/// Axis units of the charts (Qt-free): bytes in B / KiB / MiB / GiB so that the largest bar
/// reads between 1 and 1024 units.
///
/// Example: byte_unit(144) is {1, "B"}; byte_unit(3 << 20) is {1048576, "MiB"}.
#include <string_view>

namespace spmv::viz {

struct ByteUnit {
    double divisor = 1.0;
    std::string_view name = "B";
};

/// The largest binary unit not above `max_bytes` (B for anything below 1 KiB).
ByteUnit byte_unit(double max_bytes) noexcept;

/// Tick interval for a linear axis spanning `span` units: the smallest of 1, 2, 5, 10, 20,
/// 50, ... giving at most max_ticks intervals (span 55, 12 ticks: 5).
double nice_step(double span, int max_ticks) noexcept;

/// Whole decades [10^floor(log10 lo), 10^ceil(log10 hi)] around [lo, hi] for a log axis
/// (lo, hi > 0; otherwise [1, 10]). Example: (0.2, 268) -> (0.1, 1000).
struct Decades {
    double lo = 1.0;
    double hi = 10.0;
};
Decades decades(double lo, double hi) noexcept;

}  // namespace spmv::viz
