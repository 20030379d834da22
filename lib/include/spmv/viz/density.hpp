#pragma once
/// Sparsity pictures of any size: the nonzeros of a CSR matrix binned into the pixels of a
/// ViewTransform in ONE pass over the CSR arrays (no per-pixel search), so a 1M-row matrix with
/// 10M nonzeros rasterises in well under a second.
///
/// Centre sampling: zoomed in (scale >= 1) pixel p shows the cell that contains the pixel's
/// centre, so a nonzero fills its whole cell square and each pixel counts 1 (exact picture);
/// zoomed out (scale < 1) a nonzero lands in the one pixel that contains the centre of its cell
/// and counts accumulate (density). Only the visible rows are visited, and the visible
/// columns of a row are found by binary search (CSR columns are sorted).
///
/// Row order: by default display row k is matrix row k. Given `row_order` (e.g. a format's
/// row_perm), display row k shows matrix row row_order[k]: the permuted picture.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/viz/geometry.hpp>

namespace spmv::viz {

/// Pixels [begin, end) that show the matrix interval [lo, hi) (its pixel edges), clipped to
/// [0, limit). Centre sampling: a pixel shows the cell containing the pixel's centre
/// (lo <= p + 0.5 < hi up to rounding at exact ties); a cell narrower than a pixel lands in the
/// one pixel containing the cell's centre. Both rules give one pixel per cell at scale < 1.
/// Shared by every rasteriser of a pattern (density.cpp, rank_pattern.cpp).
struct PixelSpan {
    std::int64_t begin;
    std::int64_t end;
};
PixelSpan pixel_span(double lo, double hi, std::int64_t limit) noexcept;

/// What a pixel's colour says. density: nonzeros per pixel (log scale). sign: blue for
/// positive values, vermillion for negative ones, mixed in proportion where a pixel holds both,
/// lighter where it holds few. magnitude: the largest |value| of the pixel on a log scale
/// between the matrix's smallest and largest nonzero |value| (viridis: dark small, yellow
/// large; stored zeros grey).
enum class PatternColouring { density, sign, magnitude };

struct DensityRaster {
    int width = 0;
    int height = 0;
    std::vector<std::int32_t> counts;   ///< height x width, row-major: counts[y * width + x]
    std::int32_t max_count = 0;         ///< fullest pixel (0: nothing visible)
    std::int64_t nonzeros_visited = 0;  ///< nonzeros that fell inside the viewport
    std::vector<std::int32_t> negatives;  ///< sign colouring: negative values per pixel
    std::vector<float> max_abs;           ///< magnitude colouring: largest |value| per pixel

    std::int32_t at(int x, int y) const noexcept
    {
        return counts[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                      static_cast<std::size_t>(x)];
    }
};

/// Bins the nonzeros of `a` into the pixels of `view` (see above).
/// Throws InvalidArgument when row_order is given with a size other than a.num_rows.
template <typename ValueType>
DensityRaster rasterize(const Csr<ValueType, std::int32_t>& a, const ViewTransform& view,
                        std::span<const std::int32_t> row_order = {},
                        PatternColouring colouring = PatternColouring::density);

/// 0xAARRGGBB pixels (QImage::Format_ARGB32 layout) of a raster, coloured with
/// density_colour(count, max_count); pixels outside the matrix area get `outside`, empty
/// pixels inside it the palette background.
/// With sign / magnitude colouring the raster must come from rasterize with that colouring;
/// [abs_min, abs_max] is the magnitude scale (the whole matrix's, so that zooming does not
/// change the colours; analysis::pattern_facts gives it).
std::vector<std::uint32_t> to_argb(const DensityRaster& raster, const ViewTransform& view,
                                   std::uint32_t outside,
                                   PatternColouring colouring = PatternColouring::density,
                                   double abs_min = 0.0, double abs_max = 0.0);

/// Row or column counts drawn beside the pattern (SparseViz's margins): for every pixel of one
/// axis, the mean and the largest count over the matrix indices that the pixel shows. Index i
/// occupies pixels [origin + i scale, origin + (i + 1) scale) with the centre sampling of
/// pixel_span, so the margin lines up with the raster at any zoom. With `order` (display
/// index k shows index order[k], as rasterize's row_order), counts[order[k]] is used.
/// Example: counts [1 3 2 6], origin 0, scale 0.5, 2 pixels -> pixel 0 shows indices 0, 1
/// (mean 2, max 3), pixel 1 shows 2, 3 (mean 4, max 6).
struct MarginProfile {
    std::vector<double> mean;
    std::vector<std::int32_t> max;
    std::int32_t peak = 0;  ///< largest max over the pixels
};
MarginProfile margin_profile(std::span<const std::int32_t> counts, double origin, double scale,
                             int pixels, std::span<const std::int32_t> order = {});

/// Index k of entry (row, col) in the CSR arrays (binary search in the sorted row), or nothing
/// when the entry is not stored or the position is outside the matrix. For the status bar.
template <typename ValueType>
std::optional<std::int64_t> find_entry(const Csr<ValueType, std::int32_t>& a, std::int64_t row,
                                       std::int64_t col);

}  // namespace spmv::viz
