#pragma once
/// The sparsity pattern of a distributed matrix, coloured by owning rank (the Distribution
/// view's first panel), Qt-free so that tests can check it without a display.
///
/// A row partition gives every row an owning rank; the matching column partition
/// (dist::column_partition) gives every column, i.e. every entry of x, an owner. An entry
/// (i, j) is LOCAL when the rank owning row i also owns column j (Kreutzer §III.A: it is
/// multiplied without communication) and NON-LOCAL otherwise (its x_j is a halo entry that
/// rank receives every SpMV). This is exactly the split of dist::partition_stats.
///
/// Display order: with `group_by_rank` (the default) the rows are shown rank by rank (rank 0's
/// rows first, each rank's rows ascending), and so are the columns; the local blocks are then
/// the diagonal blocks and rank r's rows are the band [row_bounds[r], row_bounds[r+1]). For
/// contiguous partitions (rows, nnz) this is the original order. A METIS partition owns
/// scattered rows; grouped, its pattern shows the blocks the partition made. Without grouping a
/// scattered partition has no bands (row_bounds is empty).
///
/// Binning follows density.hpp's rasterize exactly (centre sampling through a ViewTransform),
/// but every pixel counts its local and its non-local entries separately, and every pixel row
/// records which rank owns the rows there (the rank of the display row under the pixel row's
/// centre), every pixel column which rank owns the columns.
///
/// Example: the canonical 4x4 A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9] over 2 ranks by rows
/// (rows 0-1 rank 0, rows 2-3 rank 1; the columns alike). Local: (0,0) (1,1) (2,2) (2,3)
/// (3,3); non-local: (0,2) (0,3) (2,0) (3,1). Fitted into 4 x 4 pixels (one per cell) each
/// pixel holds one entry; fitted into 2 x 2 pixels (two rows and two columns per pixel) the
/// counts are local 2 | non-local 2 over non-local 2 | local 3, row owners (0, 1).
#include <cstdint>
#include <vector>

#include <spmv/dist/partition.hpp>
#include <spmv/formats/csr.hpp>
#include <spmv/viz/colour.hpp>
#include <spmv/viz/geometry.hpp>

namespace spmv::viz {

/// Colour of rank r: the Okabe-Ito colours without black, in the order blue, orange, bluish
/// green, reddish purple, sky blue, vermillion, yellow, repeated for r >= 7 (neighbouring
/// ranks always differ). Negative r (no owner) gives the palette's background.
Rgb rank_colour(int rank) noexcept;
/// The light tint of rank r's row band: rank_colour mixed 82 % with white.
Rgb rank_band_colour(int rank) noexcept;
/// A non-local entry of rank r's rows: rank_colour mixed 55 % with black (dark, so the
/// entries that need communication stand out against the local ones).
Rgb rank_nonlocal_colour(int rank) noexcept;
/// Outline of a non-local entry drawn in cells of at least rank_outline_min_scale pixels.
inline constexpr Rgb rank_outline_colour = okabe_ito::black;
/// From this many pixels per cell on, cells get a 1-pixel border: black around non-local
/// entries, the band colour around local ones (a gap that separates neighbouring cells).
inline constexpr double rank_outline_min_scale = 6.0;

struct RankPatternOptions {
    /// Show rows and columns grouped rank by rank (see the header comment).
    bool group_by_rank = true;
};

/// The display order of rows and columns.
struct RankOrder {
    int num_ranks = 1;
    /// Display row k shows matrix row rows[k]; empty: the original order.
    std::vector<std::int32_t> rows;
    /// Display column k shows matrix column cols[k]; empty: the original order.
    std::vector<std::int32_t> cols;
    /// num_ranks + 1 display rows: rank r's rows are [row_bounds[r], row_bounds[r + 1]).
    /// Empty when the display order does not keep every rank's rows together.
    std::vector<std::int64_t> row_bounds;
    /// The same for the columns (the entries of x each rank owns).
    std::vector<std::int64_t> col_bounds;
};

/// The display order of the rows of `rows` and of the columns of `cols` (rows' column
/// partition). Throws InvalidLayout for an inconsistent partition and InvalidArgument when the
/// two have different rank counts.
RankOrder rank_order(const dist::Partition& rows, const dist::Partition& cols,
                     const RankPatternOptions& options = {});

struct RankRaster {
    int width = 0;
    int height = 0;
    int num_ranks = 1;
    std::vector<std::int32_t> local;     ///< height x width, row-major: local entries per pixel
    std::vector<std::int32_t> nonlocal;  ///< the same for non-local entries
    /// Per pixel row: the rank owning the display row under the row's centre; -1 outside the
    /// matrix.
    std::vector<std::int32_t> row_owner;
    /// Per pixel column: the rank owning the display column under its centre; -1 outside.
    std::vector<std::int32_t> col_owner;
    std::vector<std::int64_t> row_bounds;  ///< RankOrder::row_bounds (display rows)
    std::vector<std::int64_t> col_bounds;  ///< RankOrder::col_bounds (display columns)
    std::int64_t local_visited = 0;        ///< local entries that fell inside the viewport
    std::int64_t nonlocal_visited = 0;     ///< non-local entries that fell inside it
    std::int32_t max_count = 0;            ///< fullest pixel, local + non-local

    std::size_t index(int x, int y) const noexcept
    {
        return static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
               static_cast<std::size_t>(x);
    }
    std::int32_t local_at(int x, int y) const noexcept { return local[index(x, y)]; }
    std::int32_t nonlocal_at(int x, int y) const noexcept { return nonlocal[index(x, y)]; }
    /// The rank owning the rows at pixel (x, y): row_owner[y].
    std::int32_t owner_at(int /*x*/, int y) const noexcept
    {
        return row_owner[static_cast<std::size_t>(y)];
    }
};

/// Bins the entries of `a` into the pixels of `view` (whole matrix or zoomed), split into local
/// and non-local by the row partition `rows` and its column partition. Throws InvalidArgument
/// when `rows` does not partition a's rows (and InvalidLayout when it is inconsistent).
template <typename ValueType>
RankRaster rasterize_ranks(const Csr<ValueType, std::int32_t>& a, const dist::Partition& rows,
                           const ViewTransform& view, const RankPatternOptions& options = {});

/// 0xAARRGGBB pixels (QImage::Format_ARGB32 / RGB32 layout) of a rank raster; pixels outside
/// the matrix get `outside`. Inside, by the owner o of the pixel row:
///   a pixel with a non-local entry   rank_nonlocal_colour(o) (wins over local entries, so the
///                                    coupling never disappears when zoomed out)
///   a pixel with local entries only  rank_colour(o)
///   an empty pixel                   rank_band_colour(o)
/// From rank_outline_min_scale pixels per cell on, the pixels within one pixel of a cell's
/// edge are the cell's border: rank_outline_colour for a non-local entry, the band colour
/// otherwise. Zoomed out (view.scale < 1) non-local entries are highlighted: every pixel
/// within `highlight` pixels of a non-local pixel (inside the matrix) that holds no non-local
/// entry itself takes that pixel's dark colour too, so that a single non-local entry among
/// thousands of local ones stays visible (the counts are unchanged).
std::vector<std::uint32_t> rank_argb(const RankRaster& raster, const ViewTransform& view,
                                     std::uint32_t outside, int highlight = 1);

}  // namespace spmv::viz
