#pragma once
/// Helpers shared by the format units (not part of the public vocabulary).
#include <cstdint>
#include <limits>
#include <string>

#include <spmv/error.hpp>

namespace spmv::detail {

/// Every format addresses its value slots with 32-bit indices (on the host and in the kernels),
/// so a layout with more than 2^31-1 slots cannot be built. Throws NotApplicable naming the
/// format, the slot count and the bytes it would need, instead of failing inside an allocation.
inline std::int64_t checked_slots(std::int64_t slots, std::size_t bytes_per_slot,
                                  const char* format)
{
    if (slots > std::numeric_limits<std::int32_t>::max()) {
        const double gib = static_cast<double>(slots) * static_cast<double>(bytes_per_slot) /
                           (1024.0 * 1024.0 * 1024.0);
        throw NotApplicable(__FILE__, __LINE__,
                              std::string(format) + " would store " + std::to_string(slots) +
                                  " slots (" + std::to_string(gib) +
                                  " GiB), more than 32-bit indices can address");
    }
    return slots;
}

/// Nonzeros of a format that stores each row's length (ELLPACK-R, ELLG, pJDS, PELLR): the sum of
/// f.row_lengths (their padding slots are not counted).
template <typename F>
std::int64_t sum_of_row_lengths(const F& f)
{
    std::int64_t n = 0;
    for (auto len : f.row_lengths) {
        n += len;
    }
    return n;
}

}  // namespace spmv::detail
