#include <algorithm>

#include <spmv/any_matrix.hpp>
#include <spmv/error.hpp>
#include <spmv/formats/hyb.hpp>
#include <spmv/viz/histogram.hpp>

namespace spmv::viz {

std::int64_t Bins::bin_of(std::int64_t value) const noexcept
{
    if (count <= 0) {
        return 0;
    }
    const std::int64_t b = value < lo ? 0 : (value - lo) / width;
    return std::clamp<std::int64_t>(b, 0, count - 1);
}

std::string Bins::label(std::int64_t b) const
{
    if (width == 1) {
        return std::to_string(first_value(b));
    }
    return std::to_string(first_value(b)) + "-" + std::to_string(last_value(b));
}

std::vector<ChartPoint> bar_outline(const Bins& bins, std::span<const std::int64_t> counts,
                                    double offset, double share)
{
    SPMV_EXPECTS(static_cast<std::int64_t>(counts.size()) == bins.count,
                 "one count per bin expected");
    std::vector<ChartPoint> pts;
    pts.reserve(counts.size() * 4);
    const auto w = static_cast<double>(bins.width);
    for (std::int64_t b = 0; b < bins.count; ++b) {
        const double left = static_cast<double>(bins.first_value(b)) - 0.5;
        const double x0 = left + offset * w;
        const double x1 = left + (offset + share) * w;
        const auto c = static_cast<double>(counts[static_cast<std::size_t>(b)]);
        pts.push_back({x0, 0.0});
        pts.push_back({x0, c});
        pts.push_back({x1, c});
        pts.push_back({x1, 0.0});
    }
    return pts;
}

double bin_centre(const Bins& bins, std::int64_t b)
{
    return (static_cast<double>(bins.first_value(b)) + static_cast<double>(bins.last_value(b))) /
           2.0;
}

ChartPoint x_range(const Bins& bins)
{
    if (bins.count <= 0) {
        return {-0.5, 0.5};
    }
    return {static_cast<double>(bins.first_value(0)) - 0.5,
            static_cast<double>(bins.last_value(bins.count - 1)) + 0.5};
}

Bins bins_for(std::int64_t max_value, int max_bars)
{
    SPMV_EXPECTS(max_bars >= 1, "a histogram needs at least one bar");
    Bins b;
    if (max_value < 0) {
        return b;
    }
    const std::int64_t range = max_value + 1;
    b.width = range <= max_bars ? 1 : (range + max_bars - 1) / max_bars;
    b.count = (range + b.width - 1) / b.width;
    return b;
}

template <typename T>
std::vector<std::int64_t> bin_counts(std::span<const T> values, const Bins& bins)
{
    std::vector<std::int64_t> counts(
        static_cast<std::size_t>(std::max<std::int64_t>(bins.count, 0)), 0);
    if (counts.empty()) {
        return counts;
    }
    for (const T v : values) {
        ++counts[static_cast<std::size_t>(bins.bin_of(static_cast<std::int64_t>(v)))];
    }
    return counts;
}

template std::vector<std::int64_t> bin_counts<std::int32_t>(std::span<const std::int32_t>,
                                                            const Bins&);
template std::vector<std::int64_t> bin_counts<std::int64_t>(std::span<const std::int64_t>,
                                                            const Bins&);

HistogramChart histogram_chart(std::span<const std::int32_t> lengths,
                               std::span<const std::int64_t> padded_lengths,
                               std::span<const std::int64_t> block_max, std::vector<Marker> markers,
                               int max_bars)
{
    std::int64_t max_value = -1;
    for (const auto v : lengths) max_value = std::max<std::int64_t>(max_value, v);
    for (const auto v : padded_lengths) max_value = std::max(max_value, v);
    for (const auto v : block_max) max_value = std::max(max_value, v);
    for (const auto& m : markers) {
        if (max_value >= 0) max_value = std::max(max_value, m.value);
    }
    HistogramChart c;
    c.bins = bins_for(max_value, max_bars);
    c.row_counts = bin_counts(lengths, c.bins);
    if (!padded_lengths.empty()) c.padded_counts = bin_counts(padded_lengths, c.bins);
    if (!block_max.empty()) c.block_maxima = bin_counts(block_max, c.bins);
    for (const auto* s : {&c.row_counts, &c.padded_counts, &c.block_maxima}) {
        for (const auto v : *s) c.max_count = std::max(c.max_count, v);
    }
    c.markers = std::move(markers);
    return c;
}

HistogramChart row_length_chart(const Csr<double, std::int32_t>& a,
                                std::span<const std::int32_t> lengths, const FormatParams& params,
                                int max_bars)
{
    SPMV_EXPECTS(lengths.size() == static_cast<std::size_t>(a.num_rows),
                 "one length per row expected");
    std::vector<Marker> markers;
    std::vector<std::int64_t> padded;
    std::vector<std::int64_t> block_max;
    if (a.num_rows > 0) {
        const std::int64_t longest = *std::max_element(lengths.begin(), lengths.end());
        markers.push_back({"ELLPACK width", longest});
        const std::int64_t k = params.hyb_width < 0
                                   ? std::int64_t{hyb_auto_width(lengths)}
                                   : std::min<std::int64_t>(params.hyb_width, longest);
        markers.push_back({"HYB K", k});
        const ThreadWork w = thread_work(build<double>("pjds", a, params));
        padded.assign(w.stored.begin(), w.stored.begin() + a.num_rows);
        const auto br = static_cast<std::size_t>(std::max(params.block_rows, 1));
        for (std::size_t i = 0; i < static_cast<std::size_t>(a.num_rows); i += br) {
            block_max.push_back(w.stored[i]);
        }
    }
    return histogram_chart(lengths, padded, block_max, std::move(markers), max_bars);
}

}  // namespace spmv::viz
