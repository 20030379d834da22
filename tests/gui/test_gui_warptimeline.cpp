// The "Warps (measured)" view (issue 34) on the committed SYNTHETIC sample
// (tests/gui/data/warp_timeline_synthetic.json, made by make_warp_timeline_synthetic.py, not
// measured): it loads, lists the variants, draws the long warp in the selection colour, and a
// bad file is refused with the reader's message naming it.
#include <fstream>

#include <QComboBox>

#include <catch2/catch.hpp>

#include <spmv/viz/colour.hpp>

#include "gui_test_support.hpp"
#include "widgets/warptimelineview.hpp"

namespace {

const QString sample =
    QStringLiteral(SPMV_SOURCE_DIR "/tests/gui/data/warp_timeline_synthetic.json");

int countColour(const QImage& img, spmv::viz::Rgb c)
{
    int n = 0;
    for (int y = 0; y < img.height(); ++y) {
        for (int x = 0; x < img.width(); ++x) {
            if (guitest::pixel(img, QPointF(x, y)) == c) ++n;
        }
    }
    return n;
}

}  // namespace

TEST_CASE("The warps view draws a synthetic timeline with its long warp highlighted",
          "[gui][warps]")
{
    guitest::app();
    WarpTimelineView view;
    view.resize(1200, 700);

    QString error;
    const bool ok = view.loadTimeline(sample, &error);
    view.show();
    const QImage img = guitest::render(*view.canvas());

    INFO(error.toStdString());
    REQUIRE(ok);
    CHECK(view.timeline().synthetic);
    REQUIRE(view.variantBox()->count() == 3);  // all variants, ellr, pjds
    CHECK(view.variantBox()->itemText(1) == QStringLiteral("ellr"));
    const auto& pal = spmv::viz::palette();
    // the long warp of each band, across the timeline and the model side
    CHECK(countColour(img, pal.selection) > 40);
    CHECK(countColour(img, pal.idle) > 100);    // the model's idle lane trips
    CHECK(countColour(img, pal.useful) > 100);  // and its useful ones

    view.variantBox()->setCurrentIndex(2);  // pjds alone
    const QImage one = guitest::render(*view.canvas());
    CHECK(countColour(one, pal.selection) > 20);
    CHECK(one != img);
}

TEST_CASE("The warps view refuses a bad file naming it, and keeps what it showed", "[gui][warps]")
{
    guitest::app();
    WarpTimelineView view;
    const QString bad = QStringLiteral(SPMV_GUI_TEST_DIR "/bad_warps.json");
    std::ofstream(bad.toStdString()) << R"({"schema": "spmvlab.warp-timeline/1", "variants": []})";

    QString error;
    const bool ok = view.loadTimeline(bad, &error);

    CHECK_FALSE(ok);
    CHECK(error.contains(QStringLiteral("bad_warps.json")));
    CHECK(error.contains(QStringLiteral("no variant was traced")));
    CHECK_FALSE(view.hasTimeline());
    REQUIRE(view.loadTimeline(sample));
    CHECK_FALSE(view.loadTimeline(bad));
    CHECK(view.hasTimeline());  // the good one stays
}
