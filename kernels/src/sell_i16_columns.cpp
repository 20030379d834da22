// sell_i16's column encoding (host code, built with and without CUDA, so that its CPU tests run
// in the build without CUDA too): one base column per slice, one 16-bit offset per slot.
#include <algorithm>
#include <cstddef>
#include <limits>
#include <string>

#include <spmv/error.hpp>
#include <spmv/gpu/sell_i16.hpp>
#include <spmv/types.hpp>

namespace spmv::gpu {
namespace {

/// 69999 -> "69,999" (the limit 65,535 reads better grouped).
std::string grouped(std::int64_t n)
{
    std::string digits = std::to_string(n);
    for (auto i = static_cast<std::ptrdiff_t>(digits.size()) - 3; i > 0; i -= 3) {
        digits.insert(static_cast<std::size_t>(i), ",");
    }
    return digits;
}

}  // namespace

SellI16Columns encode_sell_i16_columns(std::int32_t slice_height,
                                       std::span<const std::int32_t> slice_ptrs,
                                       std::span<const std::int32_t> col_idxs)
{
    SPMV_EXPECTS(slice_height >= 1, "sell_i16: slice_height must be at least 1");
    SPMV_EXPECTS(
        !slice_ptrs.empty() && static_cast<std::size_t>(slice_ptrs.back()) == col_idxs.size(),
        "sell_i16: slice_ptrs must end at the number of slots");
    constexpr std::uint16_t pad = padding_index<std::uint16_t>;
    static_assert(sell_i16_max_span == pad, "real offsets are 0 .. sell_i16_max_span - 1");
    const std::size_t num_slices = slice_ptrs.size() - 1;
    SellI16Columns out;
    out.bases.resize(num_slices);
    out.offsets.resize(col_idxs.size());
    for (std::size_t s = 0; s < num_slices; ++s) {
        const auto slots =
            col_idxs.subspan(static_cast<std::size_t>(slice_ptrs[s]),
                             static_cast<std::size_t>(slice_ptrs[s + 1] - slice_ptrs[s]));
        std::int32_t lo = std::numeric_limits<std::int32_t>::max();
        std::int32_t hi = -1;
        for (const auto c : slots) {
            if (c != padding_index<std::int32_t>) {
                lo = std::min(lo, c);
                hi = std::max(hi, c);
            }
        }
        if (hi < 0) {  // no real slot (a slice of empty rows has no slots at all)
            lo = 0;
            hi = 0;
        }
        const std::int64_t span = std::int64_t{hi} - lo + 1;
        if (span > sell_i16_max_span) {
            const std::int64_t first_row = static_cast<std::int64_t>(s) * slice_height;
            SPMV_THROW(NotApplicable, "sell_i16: slice " + std::to_string(s) + " (stored rows " +
                                            std::to_string(first_row) + ".." +
                                            std::to_string(first_row + slice_height - 1) +
                                            ") spans columns " + std::to_string(lo) + ".." +
                                            std::to_string(hi) + " (" + grouped(span) + " > " +
                                            grouped(sell_i16_max_span) + " wide); use sell");
        }
        out.bases[s] = lo;
        auto* offset = out.offsets.data() + slice_ptrs[s];
        for (const auto c : slots) {
            *offset++ = c == padding_index<std::int32_t> ? pad : static_cast<std::uint16_t>(c - lo);
        }
    }
    return out;
}

}  // namespace spmv::gpu
