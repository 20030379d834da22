#pragma once
// Qt-free geometry of the coalescing view's strips (CoalescingView): for one warp and loop trip
// (spmv::viz::WarpTrip) where the title, the lane boxes, each load's caption and its strip of
// 32-byte sectors (with the breaks between runs of sectors) and the legend go, and which lane or
// byte lies under a point. The widget measures its texts with its fonts (CoalescingTexts) and
// paints what this returns. Tested with Catch2 in tests/gui/test_gui_coalescing_geometry.cpp.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include <spmv/viz/coalescing.hpp>

#include "layout_geometry.hpp"

/// The widget's width and its fonts' line heights.
struct CoalescingMetrics {
    double width = 900;           ///< the canvas's width
    double scale = 1;             ///< Appearance::scale(): 1, or 1.6 in presentation mode
    double lineHeight = 16;       ///< a line of the normal font
    double smallLineHeight = 13;  ///< a line of the small font (lane, row and sector numbers)

    /// The margin round all content: 8 px scaled, rounded.
    double pad() const;
    /// The width that texts and strips fill: width - 2 pad, at least 200.
    double available() const;
};

/// The texts' sizes, measured by the widget; wrapped heights are taken at
/// CoalescingMetrics::available().
struct CoalescingTexts {
    double titleHeight = 0;   ///< the kernel's title (wrapped)
    double headerHeight = 0;  ///< "Warp w of W, trip t of T: ..." (wrapped)
    /// The lanes' caption (wrapped) in its two wordings: without the row numbers under the
    /// boxes, and with them (used when every row number fits under its box).
    double lanesCaptionHeight = 0;
    double lanesCaptionWithRowsHeight = 0;
    struct Load {
        double captionWidth = 0;   ///< the load's caption on one line
        double captionHeight = 0;  ///< the caption wrapped
        double countWidth = 0;     ///< "N sectors (ideal M)" on one line (bold)
    };
    std::vector<Load> loads;  ///< one per WarpTrip::arrays entry
    double legendHeight = 0;  ///< the legend (wrapped)
    /// Width of a row number printed under a lane box (small font).
    std::function<double(std::int64_t row)> rowNumberWidth;
    /// Width of the label "#k" printed under sector k (small font).
    std::function<double(std::int64_t sector)> sectorLabelWidth;
};

struct CoalescingGeometry {
    struct Sector {
        std::int64_t sector = 0;  ///< byte offset / 32 in the array
        LayoutRect rect;
        bool touched = false;   ///< a lane reads a byte of it (else it lies between such)
        bool labelled = false;  ///< its "#k" is drawn under it (where there is room)
    };
    /// "⋯ n ⋯" between two runs of sectors: n sectors that are not read.
    struct Break {
        LayoutRect rect;
        std::int64_t skipped = 0;
    };
    struct Load {
        LayoutRect caption;
        LayoutRect count;  ///< right of the caption, or under it when the line is too narrow
        int elementBytes = 8;
        int cellsPerSector = 4;  ///< 32 / elementBytes
        std::vector<Sector> sectors;
        std::vector<Break> breaks;

        /// The element holding byte `offset`, where it is drawn (nullopt: not on the strip).
        std::optional<LayoutRect> byteRect(std::int64_t offset) const;
        /// (sector index, byte offset of the element) under (x, y); edges count as inside.
        std::optional<std::pair<std::size_t, std::int64_t>> byteAt(double x, double y) const;
    };

    LayoutRect title;
    LayoutRect header;
    LayoutRect lanesCaption;
    bool showRows = false;  ///< the row numbers go under the lane boxes
    std::vector<LayoutRect> lanes;
    std::vector<Load> loads;
    LayoutRect legend;
    double height = 0;  ///< the canvas's minimum height

    /// The lane whose box holds (x, y); edges count as inside (QRectF::contains).
    std::optional<int> laneAt(double x, double y) const;
    /// Load `load`'s element holding byte `offset` (nullopt: no such load or not on the strip).
    std::optional<LayoutRect> byteRect(int load, std::int64_t offset) const;
};

/// Lays out one warp and trip, top to bottom: the title, the header, the lanes' caption, the
/// lane boxes (at most 34 px each, scaled, at least 4; wrapped when the warp is wider than the
/// view), then per load its caption and count and its strip: the touched sectors grouped into
/// runs (spmv::viz::strip_runs, bridging 2 untouched sectors), each sector as wide as the line
/// allows between 5 px per element and 90 px (scaled), wrapped onto further lines; last the
/// legend. `texts.loads` must hold one entry per `trip.arrays`.
CoalescingGeometry coalescingGeometry(const spmv::viz::WarpTrip& trip, const CoalescingMetrics& m,
                                      const CoalescingTexts& texts);

/// The canvas's height when it shows a message (wrapped to `messageHeight`) instead of a trip.
double coalescingMessageHeight(const CoalescingMetrics& m, double messageHeight);
