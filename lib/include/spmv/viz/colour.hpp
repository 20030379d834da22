#pragma once
/// Colours of every SpMV Lab picture, Qt-free so that tests can check them without a display.
///
/// Categorical colours come from the Okabe-Ito palette (Okabe & Ito 2008, "Color Universal
/// Design"), whose eight colours stay distinguishable under the common forms of colour-vision
/// deficiency. The density scale is a viridis-like ramp (matplotlib's viridis sampled at nine
/// points, linearly interpolated): monotone in lightness, so it reads correctly in grey scale too.
///
/// The roles are fixed across views so that a colour means one thing everywhere:
///   nonzero / useful work       blue        (0, 114, 178)
///   stored padding              vermillion  (213, 94, 0)
///   idle reserved lane slot     yellow      (240, 228, 66)
///   selection                   reddish purple (204, 121, 167)
#include <cstdint>
#include <string>
#include <vector>

namespace spmv::viz {

/// An opaque 8-bit sRGB colour.
struct Rgb {
    std::uint8_t r = 0;
    std::uint8_t g = 0;
    std::uint8_t b = 0;

    /// 0xAARRGGBB with alpha 255 (the layout of QImage::Format_ARGB32 and QRgb).
    constexpr std::uint32_t argb() const noexcept
    {
        return 0xff000000u | (std::uint32_t{r} << 16) | (std::uint32_t{g} << 8) | std::uint32_t{b};
    }
    static constexpr Rgb from_argb(std::uint32_t v) noexcept
    {
        return {static_cast<std::uint8_t>((v >> 16) & 0xffu),
                static_cast<std::uint8_t>((v >> 8) & 0xffu), static_cast<std::uint8_t>(v & 0xffu)};
    }
    friend constexpr bool operator==(Rgb, Rgb) = default;
};

/// The eight Okabe-Ito colours.
namespace okabe_ito {
inline constexpr Rgb black{0, 0, 0};
inline constexpr Rgb orange{230, 159, 0};
inline constexpr Rgb sky_blue{86, 180, 233};
inline constexpr Rgb bluish_green{0, 158, 115};
inline constexpr Rgb yellow{240, 228, 66};
inline constexpr Rgb blue{0, 114, 178};
inline constexpr Rgb vermillion{213, 94, 0};
inline constexpr Rgb reddish_purple{204, 121, 167};
}  // namespace okabe_ito

/// The fixed colour of every role in the pictures.
struct Palette {
    Rgb background{255, 255, 255};
    Rgb text{20, 20, 20};
    Rgb grid{190, 190, 190};   ///< cell borders, axes
    Rgb empty{246, 246, 246};  ///< a cell that stores nothing
    Rgb nonzero = okabe_ito::blue;
    Rgb padding = okabe_ito::vermillion;
    Rgb useful = okabe_ito::blue;
    Rgb idle = okabe_ito::yellow;
    Rgb phantom{215, 215, 215};  ///< lanes of a short last warp that have no thread
    Rgb selection = okabe_ito::reddish_purple;
    Rgb block_line = okabe_ito::black;  ///< boundaries of b_r blocks / slices
    // memory bars
    Rgb values = okabe_ito::blue;
    Rgb indices = okabe_ito::sky_blue;
    Rgb aux = okabe_ito::bluish_green;
    // timing / model
    Rgb measured = okabe_ito::blue;
    Rgb predicted = okabe_ito::orange;
    Rgb baseline = okabe_ito::reddish_purple;
    Rgb marker_ell = okabe_ito::black;
    Rgb marker_hyb = okabe_ito::bluish_green;
};

/// The palette every view uses.
const Palette& palette() noexcept;

/// "#rrggbb" (SVG and CSS colours).
std::string hex(Rgb c);

/// Linear interpolation a + t (b - a) per channel, t clamped to [0, 1], rounded.
Rgb mix(Rgb a, Rgb b, double t) noexcept;

/// Viridis-like ramp: t = 0 dark purple (68, 1, 84), t = 1 yellow (253, 231, 37); t is clamped.
Rgb viridis(double t) noexcept;

/// Relative luminance in [0, 1] (ITU-R BT.709 weights on linearised sRGB).
double luminance(Rgb c) noexcept;

/// Black or white, whichever reads better on `background`.
Rgb text_colour_on(Rgb background) noexcept;

/// Colour of a density bin holding `count` nonzeros when the fullest bin holds `max_count`.
/// 0 is the background. Otherwise t = log(1 + count) / log(1 + max_count) in (0, 1], mapped to
/// the REVERSED viridis range [0.85, 0]: a bin with one nonzero is light green, the fullest is
/// dark purple, so dense regions are dark on the white background as in a classic spy plot.
/// When max_count is 1 (every bin is one cell or one nonzero), every occupied bin gets the
/// categorical nonzero colour, so an exact picture and a density picture agree.
Rgb density_colour(std::int64_t count, std::int64_t max_count) noexcept;

/// `steps` colours of the density legend, from 1 nonzero per pixel to max_count, sampled
/// evenly on the same log scale as density_colour (so the legend shows exactly the colours
/// the picture uses). Empty for steps < 1.
std::vector<Rgb> density_ramp(std::int64_t max_count, int steps);

/// Sign colouring of a pixel holding `count` entries of which `negatives` are negative: blue
/// (all positive) through reddish purple (half) to vermillion (all negative), by the negative
/// share; lighter (mixed
/// with the background) the fewer entries the pixel holds, on density_colour's log scale.
Rgb sign_colour(std::int64_t count, std::int64_t negatives, std::int64_t max_count) noexcept;

/// Magnitude colouring: |value| on a log scale between lo and hi (viridis, dark to yellow);
/// 0 gives the phantom grey of a stored zero. lo == hi gives the top colour.
Rgb magnitude_colour(double abs_value, double lo, double hi) noexcept;

}  // namespace spmv::viz
