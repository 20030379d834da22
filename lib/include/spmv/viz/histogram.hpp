#pragma once
/// Bars of the row-length histogram view (Kreutzer Fig. 3): bin size 1 as long as the range of
/// lengths fits in `max_bars` bars, otherwise bins of one integer width w (the smallest that
/// fits), always starting at 0 so that the bars of several series line up. Also the
/// positions of the markers drawn over the bars (ELLPACK width, HYB split K, pJDS block maxima).
///
/// Example: lengths (3, 1, 3, 2) with max_bars 64 give bin width 1, edges 0..4,
/// counts [0 1 1 2]; the ELLPACK width 3 is bin 3.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/registry.hpp>

namespace spmv::viz {

/// Bins [lo + b w, lo + (b + 1) w) for b = 0 .. num_bins - 1.
struct Bins {
    std::int64_t lo = 0;
    std::int64_t width = 1;
    std::int64_t count = 0;

    /// Bin holding `value`, clamped to [0, count - 1] (count must be > 0).
    std::int64_t bin_of(std::int64_t value) const noexcept;
    /// Inclusive value range of bin b: [lo + b w, lo + (b + 1) w - 1].
    std::int64_t first_value(std::int64_t b) const noexcept { return lo + b * width; }
    std::int64_t last_value(std::int64_t b) const noexcept { return lo + (b + 1) * width - 1; }
    /// "3" for width 1, "12-15" otherwise.
    std::string label(std::int64_t b) const;
};

/// Bins for values in [0, max_value]: width 1 if max_value + 1 <= max_bars, otherwise
/// w = ceil((max_value + 1) / max_bars) and ceil((max_value + 1) / w) bins.
/// max_value < 0 (no values) gives no bins. Throws InvalidArgument for max_bars < 1.
Bins bins_for(std::int64_t max_value, int max_bars);

/// Number of values per bin (values outside [lo, lo + count w) are clamped to the end bins).
template <typename T>
std::vector<std::int64_t> bin_counts(std::span<const T> values, const Bins& bins);

/// A point of a chart, in data units (x: row length, y: count).
struct ChartPoint {
    double x = 0.0;
    double y = 0.0;
    friend bool operator==(const ChartPoint&, const ChartPoint&) = default;
};

/// Bar b covers the row lengths [first_value(b) - 0.5, last_value(b) + 0.5] on the x axis (so a
/// bar of bin width 1 is centred on its length). With several series side by side, a series
/// draws the part [offset, offset + share) of that interval (fractions of the bin width).
/// Returns the outline (x0, 0) (x0, c) (x1, c) (x1, 0) of every bar, left to right, for an area
/// series. counts.size() must equal bins.count.
std::vector<ChartPoint> bar_outline(const Bins& bins, std::span<const std::int64_t> counts,
                                    double offset, double share);

/// Centre of bin b on the x axis: (first_value(b) + last_value(b)) / 2.
double bin_centre(const Bins& bins, std::int64_t b);

/// x range [first_value(0) - 0.5, last_value(count - 1) + 0.5] showing every bar.
ChartPoint x_range(const Bins& bins);

/// A vertical marker at a row length (drawn at the centre of its bin).
struct Marker {
    std::string label;
    std::int64_t value = 0;
};

/// Everything the histogram chart draws.
struct HistogramChart {
    Bins bins;
    std::vector<std::int64_t> row_counts;     ///< rows per length bin
    std::vector<std::int64_t> padded_counts;  ///< rows per padded-length bin (pJDS), may be empty
    std::vector<std::int64_t> block_maxima;   ///< blocks per maximum-length bin, may be empty
    std::vector<Marker> markers;
    std::int64_t max_count = 0;  ///< tallest bar of any series
};

/// Builds the chart data. `lengths` are the row lengths; `padded_lengths` (optional, one per
/// row of a padded layout) the lengths after padding; `block_max` (optional) one entry per
/// block: its longest row. Bins cover 0 .. the largest value of any series.
HistogramChart histogram_chart(std::span<const std::int32_t> lengths,
                               std::span<const std::int64_t> padded_lengths,
                               std::span<const std::int64_t> block_max, std::vector<Marker> markers,
                               int max_bars);

/// The chart of the histogram view for a matrix with row lengths `lengths`:
///  - row_counts: its row lengths (Kreutzer Fig. 3);
///  - padded_counts: the length every row is padded to by pJDS with b_r = params.block_rows,
///    and block_maxima: the longest row of every block (both read from the built pJDS's
///    thread_work: `stored` is the longest row of the thread's block);
///  - markers "ELLPACK width" (longest row) and "HYB K" (spmv::hyb_auto_width for
///    params.hyb_width = -1, else the given K clamped to the longest row, as to_hyb does).
HistogramChart row_length_chart(const Csr<double, std::int32_t>& a,
                                std::span<const std::int32_t> lengths, const FormatParams& params,
                                int max_bars);

}  // namespace spmv::viz
