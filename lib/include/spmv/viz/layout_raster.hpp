#pragma once
/// The storage layout of a whole matrix in one picture, where the construction view shows a
/// 64 x 64 window: every thread of the format's kernel is a line (in kernel order: ELLPACK's
/// rows as given, pJDS's and SELL-C-sigma's sorted rows, ...), its stored slots a bar, the
/// slots holding a real nonzero in the "useful" colour and the padding in the "padding" colour
/// (Kreutzer Fig. 1 at scale). Read from the format's ThreadWork (useful and stored slots per
/// thread), so it is exact for every format and costs O(threads + pixels).
///
/// Pixels aggregate: pixel row y shows the threads of one bin (threads / height of them when
/// there are more threads than pixel rows, otherwise one thread over several pixel rows), pixel
/// column x the slots of one bin the same way, and the pixel holds the SHARE of its cells that
/// are useful and padding (the rest is empty: nothing is stored there).
///
/// Example, ThreadWork useful (3, 1, 3, 2), stored (3, 3, 3, 3) (ELLPACK of the canonical 4x4):
/// 4 threads x 3 slots; a 4 x 3 raster has one cell per pixel: thread 1 = [useful, padding,
/// padding]; a 2 x 1 raster: pixel row 0 = threads 0, 1: 4 useful and 2 padding of 6 cells.
#include <cstdint>
#include <vector>

#include <spmv/types.hpp>

namespace spmv::viz {

struct LayoutRaster {
    int width = 0;
    int height = 0;
    std::int64_t threads = 0;  ///< lines of the layout
    std::int64_t slot_columns = 0;  ///< the longest thread's stored slots (the layout's width)
    std::int64_t useful_total = 0;
    std::int64_t stored_total = 0;
    std::vector<float> useful;   ///< height x width, row-major: share of useful cells
    std::vector<float> padding;  ///< share of padding cells

    /// Threads shown by pixel row y: [first, last).
    std::pair<std::int64_t, std::int64_t> threads_of_row(int y) const noexcept;
};

/// The raster of `work` in width x height pixels (see above). A layout with no stored slot
/// gives an empty picture of that size. Throws InvalidArgument for width or height < 1, arrays
/// of different sizes, or a thread with more useful than stored slots.
LayoutRaster layout_raster(const ThreadWork& work, int width, int height);

/// 0xAARRGGBB pixels: the palette's useful and padding colours mixed with its empty colour in
/// proportion to the shares.
std::vector<std::uint32_t> to_argb(const LayoutRaster& raster);

}  // namespace spmv::viz
