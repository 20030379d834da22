#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include <spmv/viz/colour.hpp>

namespace spmv::viz {
namespace {

// matplotlib viridis at t = 0, 1/8, ..., 1
constexpr std::array<Rgb, 9> viridis_points{{{68, 1, 84},
                                             {71, 44, 122},
                                             {59, 81, 139},
                                             {44, 113, 142},
                                             {33, 144, 141},
                                             {39, 173, 129},
                                             {92, 200, 99},
                                             {170, 220, 50},
                                             {253, 231, 37}}};

double linearise(std::uint8_t c) noexcept
{
    const double s = c / 255.0;
    return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
}

}  // namespace

const Palette& palette() noexcept
{
    static const Palette p{};
    return p;
}

Rgb mix(Rgb a, Rgb b, double t) noexcept
{
    t = std::clamp(t, 0.0, 1.0);
    auto ch = [t](std::uint8_t x, std::uint8_t y) {
        return static_cast<std::uint8_t>(std::lround(x + t * (static_cast<double>(y) - x)));
    };
    return {ch(a.r, b.r), ch(a.g, b.g), ch(a.b, b.b)};
}

Rgb viridis(double t) noexcept
{
    if (!(t > 0.0)) {  // also catches NaN
        return viridis_points.front();
    }
    if (t >= 1.0) {
        return viridis_points.back();
    }
    const double pos = t * static_cast<double>(viridis_points.size() - 1);
    const auto i = static_cast<std::size_t>(pos);
    return mix(viridis_points[i], viridis_points[i + 1], pos - static_cast<double>(i));
}

double luminance(Rgb c) noexcept
{
    return 0.2126 * linearise(c.r) + 0.7152 * linearise(c.g) + 0.0722 * linearise(c.b);
}

Rgb text_colour_on(Rgb background) noexcept
{
    // contrast ratio against black (L + 0.05) / 0.05 vs against white 1.05 / (L + 0.05)
    const double l = luminance(background);
    return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? Rgb{0, 0, 0} : Rgb{255, 255, 255};
}

Rgb density_colour(std::int64_t count, std::int64_t max_count) noexcept
{
    if (count <= 0) {
        return palette().background;
    }
    if (max_count <= 1) {
        return palette().nonzero;
    }
    const double t = std::log1p(static_cast<double>(std::min(count, max_count))) /
                     std::log1p(static_cast<double>(max_count));
    return viridis(0.85 * (1.0 - t));
}

std::vector<Rgb> density_ramp(std::int64_t max_count, int steps)
{
    std::vector<Rgb> ramp;
    if (steps < 1) return ramp;
    const double top = std::log1p(static_cast<double>(std::max<std::int64_t>(max_count, 1)));
    for (int i = 0; i < steps; ++i) {
        const double t = steps == 1 ? 1.0 : static_cast<double>(i) / (steps - 1);
        const auto count = static_cast<std::int64_t>(std::llround(std::expm1(t * top)));
        ramp.push_back(density_colour(std::max<std::int64_t>(count, 1), max_count));
    }
    return ramp;
}

Rgb sign_colour(std::int64_t count, std::int64_t negatives, std::int64_t max_count) noexcept
{
    if (count <= 0) return palette().background;
    const double share = static_cast<double>(std::clamp<std::int64_t>(negatives, 0, count)) /
                         static_cast<double>(count);
    const Rgb pos = okabe_ito::blue;
    const Rgb neg = okabe_ito::vermillion;
    // fullness: 0.35 for one entry in a picture of many, 1 for the fullest pixel
    const double t =
        max_count <= 1 ? 1.0
                       : 0.35 + 0.65 * std::log1p(static_cast<double>(std::min(count, max_count))) /
                                    std::log1p(static_cast<double>(max_count));
    const Rgb bg = palette().background;
    // blue -> reddish purple -> vermillion: a straight blend of blue and vermillion is a
    // muddy grey that reads as "no value"
    const Rgb mid = okabe_ito::reddish_purple;
    const Rgb from = share <= 0.5 ? pos : mid;
    const Rgb to = share <= 0.5 ? mid : neg;
    const double u = share <= 0.5 ? 2.0 * share : 2.0 * share - 1.0;
    auto mix = [&](std::uint8_t f, std::uint8_t e, std::uint8_t b) {
        const double c = (1.0 - u) * f + u * e;
        return static_cast<std::uint8_t>(std::lround(t * c + (1.0 - t) * b));
    };
    return {mix(from.r, to.r, bg.r), mix(from.g, to.g, bg.g), mix(from.b, to.b, bg.b)};
}

Rgb magnitude_colour(double abs_value, double lo, double hi) noexcept
{
    if (!(abs_value > 0.0)) return palette().phantom;
    if (!(hi > lo) || !(lo > 0.0)) return viridis(1.0);
    const double t = std::log(std::clamp(abs_value, lo, hi) / lo) / std::log(hi / lo);
    return viridis(t);
}

std::string hex(Rgb c)
{
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
    return buf;
}

}  // namespace spmv::viz
