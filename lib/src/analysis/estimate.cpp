#include <spmv/analysis/estimate.hpp>

#include <algorithm>
#include <array>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include <spmv/error.hpp>
#include <spmv/formats/ellg.hpp>
#include <spmv/formats/hyb.hpp>

#include "../formats/bisection_layout.hpp"

namespace spmv::analysis {
namespace {

using I = std::int32_t;
constexpr std::size_t value_size = sizeof(double);
constexpr std::size_t index_size = sizeof(I);

constexpr std::array<std::string_view, 14> known = {"coo",  "csr",     "csc",  "ell",   "ellr",
                                                    "ellg", "jds",     "jds_csr", "pjds", "pellr",
                                                    "biell", "bijad", "hyb",  "sell"};

/// A layout of `stored` value slots of which `real` hold the nonzeros, with `aux` auxiliary
/// integers: the accounting every padded format unit uses (value + index bytes of the real
/// entries, value + index bytes of every padding slot in padding_bytes).
Footprint padded(std::int64_t stored, std::int64_t real, std::int64_t aux)
{
    Footprint f;
    f.stored_entries = stored;
    f.padding_entries = stored - real;
    f.value_bytes = static_cast<std::size_t>(real) * value_size;
    f.index_bytes = static_cast<std::size_t>(real) * index_size;
    f.aux_bytes = static_cast<std::size_t>(aux) * index_size;
    f.padding_bytes = static_cast<std::size_t>(f.padding_entries) * (value_size + index_size);
    return f;
}

std::int64_t round_up(std::int64_t v, std::int64_t m)
{
    return (v + m - 1) / m * m;
}

/// Lengths sorted longest first inside consecutive windows of `window` rows (the lengths the
/// stable sorts of pJDS, SELL-C-sigma, BiELL and BiJAD leave in storage order).
std::vector<std::int64_t> sorted_in_windows(const std::vector<I>& len, std::int64_t window)
{
    std::vector<std::int64_t> s(len.begin(), len.end());
    const auto n = static_cast<std::int64_t>(s.size());
    for (std::int64_t first = 0; first < n; first += window) {
        const auto last = std::min(n, first + window);
        std::sort(s.begin() + first, s.begin() + last, std::greater<>());
    }
    return s;
}

/// BiELL / BiJAD: W x width_g slots per group and warp (bisection rule of biell.hpp).
Footprint bisection(const std::vector<I>& len, std::int64_t nnz_count, int warp_size,
                    bool global_sort)
{
    SPMV_EXPECTS(warp_size >= 1, "BiELL/BiJAD: warp size must be >= 1");
    const std::int64_t w = warp_size;
    const auto n = static_cast<std::int64_t>(len.size());
    const auto sorted = sorted_in_windows(len, global_sort ? std::max<std::int64_t>(n, 1) : w);
    const auto heights = detail::bisection::group_heights(w);
    const auto warps = detail::bisection::num_warps(n, w);
    std::int64_t stored = 0;
    for (std::int64_t k = 0; k < warps; ++k) {
        const auto first = static_cast<std::size_t>(k * w);
        const auto count = static_cast<std::size_t>(std::min(w, n - k * w));
        const auto widths = detail::bisection::widths_of_warp(
            std::span<const std::int64_t>(sorted).subspan(first, count), heights);
        stored += w * std::accumulate(widths.begin(), widths.end(), std::int64_t{0});
    }
    return padded(stored, nnz_count,
                  n + warps * static_cast<std::int64_t>(heights.size()) + 1);
}

}  // namespace

bool has_footprint_estimate(std::string_view format)
{
    return std::find(known.begin(), known.end(), format) != known.end();
}

Footprint estimate_footprint(const Csr<double, std::int32_t>& a, std::string_view format,
                             const FormatParams& given)
{
    // InvalidArgument for an unknown name; sigma = auto resolved as the builder resolves it
    const FormatParams params = resolve_params(format, a, given);
    if (!has_footprint_estimate(format)) {
        SPMV_THROW(InvalidArgument,
                   "no footprint estimate for format '" + std::string(format) + "'");
    }
    const std::int64_t n = a.num_rows;
    const std::int64_t real = nnz(a);
    const auto len = row_lengths(a);
    const std::int64_t width = len.empty() ? 0 : *std::max_element(len.begin(), len.end());

    if (format == "coo") {
        Footprint f;
        f.stored_entries = real;
        f.value_bytes = static_cast<std::size_t>(real) * value_size;
        f.index_bytes = static_cast<std::size_t>(2 * real) * index_size;
        return f;
    }
    if (format == "csr" || format == "csc") {
        Footprint f = padded(real, real, (format == "csr" ? n : a.num_cols) + 1);
        return f;
    }
    if (format == "jds") {
        return padded(real, real, n + width + 1);  // row_perm, jd_ptrs (one per diagonal + 1)
    }
    if (format == "ell") return padded(n * width, real, 0);
    if (format == "ellr") return padded(n * width, real, n);
    if (format == "pellr") return padded(n * width, real, 2 * n);
    if (format == "ellg") {
        return padded(ellg_stride(n, params.pitch_bytes, value_size, sizeof(I)) * width, real, n);
    }
    if (format == "hyb") {
        SPMV_EXPECTS(params.hyb_width >= -1, "HYB width must be -1 (automatic) or >= 0");
        const std::int64_t k =
            params.hyb_width < 0 ? hyb_auto_width(std::span<const I>(len))
                                 : std::min<std::int64_t>(params.hyb_width, width);
        std::int64_t ell_real = 0;
        for (auto l : len) ell_real += std::min<std::int64_t>(l, k);
        const auto coo = real - ell_real;
        Footprint f;
        f.stored_entries = n * k + coo;
        f.padding_entries = n * k - ell_real;
        f.value_bytes = static_cast<std::size_t>(real) * value_size;
        f.index_bytes = static_cast<std::size_t>(ell_real + 2 * coo) * index_size;
        f.padding_bytes = static_cast<std::size_t>(f.padding_entries) * (value_size + index_size);
        return f;
    }
    if (format == "jds_csr") {
        SPMV_EXPECTS(params.diag_pad >= 1, "JDS CSR-like: diag_pad must be at least 1");
        // diagonal d holds the rows longer than d: count lengths, then accumulate from the top
        std::vector<std::int64_t> longer(static_cast<std::size_t>(width) + 1, 0);
        for (auto l : len) ++longer[static_cast<std::size_t>(l)];
        std::int64_t rows_longer = 0;
        std::int64_t stored = 0;
        for (std::int64_t d = width - 1; d >= 0; --d) {
            rows_longer += longer[static_cast<std::size_t>(d) + 1];
            stored += round_up(rows_longer, params.diag_pad);
        }
        return padded(stored, real, n + (width + 1) + n);  // row_perm, jd_ptrs, nz_count
    }
    if (format == "pjds") {
        SPMV_EXPECTS(params.block_rows >= 1, "pJDS: b_r must be >= 1");
        const auto s = sorted_in_windows(len, std::max<std::int64_t>(n, 1));
        // pjds_pad (footnote 2): the layout has round_up(N, b_r) rows, the extra ones empty,
        // so the last block is full too
        const std::int64_t rows = params.pjds_pad != 0 ? round_up(n, params.block_rows) : n;
        std::int64_t stored = 0;
        for (std::int64_t b = 0; b < n; b += params.block_rows) {
            stored += s[static_cast<std::size_t>(b)] * std::min<std::int64_t>(params.block_rows,
                                                                              rows - b);
        }
        return padded(stored, real, n + rows + width + 1);  // row_perm, row_lengths, col_start
    }
    if (format == "sell") {
        SPMV_EXPECTS(params.slice_height >= 1 && params.sort_window >= 1,
                     "SELL-C-sigma needs C >= 1 and sigma >= 1");
        const std::int64_t c = params.slice_height;
        const auto s = sorted_in_windows(len, params.sort_window);
        std::int64_t stored = 0;
        std::int64_t slices = 0;
        for (std::int64_t first = 0; first < n; first += c, ++slices) {
            const auto last = std::min(n, first + c);
            stored += c * *std::max_element(s.begin() + first, s.begin() + last);
        }
        return padded(stored, real, (slices + 1) + slices + n);
    }
    // biell, bijad
    return bisection(len, real, params.warp_size, format == "bijad");
}

}  // namespace spmv::analysis
