// The coalescing view (CoalescingView): it shows spmv::viz::AccessModel's numbers, redraws for
// another trip, renders legibly, and explains an empty matrix instead of drawing nothing.
#include <numeric>
#include <set>

#include <QDir>
#include <QSignalSpy>
#include <QTest>
#include <catch2/catch.hpp>

#include <spmv/viz/coalescing.hpp>

#include "gui_test_support.hpp"
#include "session/matrixdocument.hpp"
#include "test_matrices.hpp"
#include "widgets/appearance.hpp"
#include "widgets/coalescingview.hpp"

using spmv::viz::AccessedArray;
using spmv::viz::AccessKernel;

namespace {

/// 32 rows of 16 entries, row i holding columns i .. i+15: CSR scalar reads one sector per lane
/// per trip, ELLPACK 8 sectors of doubles.
spmv::Csr<double, std::int32_t> band16()
{
    spmv::Csr<double, std::int32_t> a;
    a.num_rows = 32;
    a.num_cols = 47;
    for (std::int32_t i = 0; i < 32; ++i) {
        for (std::int32_t j = 0; j < 16; ++j) {
            a.col_idxs.push_back(i + j);
            a.values.push_back(1.0);
        }
        a.row_ptrs.push_back(static_cast<std::int32_t>(a.col_idxs.size()));
    }
    return a;
}

/// Waits until the view computes nothing any more.
void settle(CoalescingView& view)
{
    QSignalSpy done(&view, &CoalescingView::finished);
    if (view.isComputing()) {
        REQUIRE(done.wait(20000));
    }
    QCoreApplication::processEvents();
    REQUIRE_FALSE(view.isComputing());
}

int loadIndex(const CoalescingView& view, const std::string& array)
{
    const auto& arrays = view.warpTrip()->arrays;
    for (std::size_t i = 0; i < arrays.size(); ++i) {
        if (arrays[i].array == array) return static_cast<int>(i);
    }
    FAIL("no load of " << array);
    return -1;
}

/// Distinct colours of an image (a blank or single-colour render has one or two).
std::size_t colours(const QImage& img)
{
    std::set<QRgb> seen;
    for (int y = 0; y < img.height(); y += 2) {
        for (int x = 0; x < img.width(); x += 2) seen.insert(img.pixel(x, y));
    }
    return seen.size();
}

spmv::FormatParams warp32()
{
    spmv::FormatParams p;
    p.warp_size = 32;
    return p;
}

}  // namespace

TEST_CASE("The coalescing view shows the library's sectors for a known matrix", "[gui][coalescing]")
{
    guitest::app();
    CoalescingView view;
    view.resize(1280, 720);
    view.show();
    const auto doc = makeDocument(band16(), QStringLiteral("band16"), QStringLiteral("test"));
    view.setParams(warp32());
    view.setKernel(AccessKernel::csr_scalar);

    view.setDocument(doc);
    settle(view);
    const auto expected =
        spmv::viz::AccessModel(band16(), AccessKernel::csr_scalar, warp32()).warp_trip(0, 0, 8);

    REQUIRE(view.warpTrip().has_value());
    CHECK(view.message().isEmpty());
    CHECK(view.warpTrip()->sectors(AccessedArray::values) ==
          expected.sectors(AccessedArray::values));
    CHECK(view.warpTrip()->sectors(AccessedArray::values) == 32);
    const int values = loadIndex(view, "values");
    CHECK(view.sectorCaption(values) == QStringLiteral("32 sectors (ideal 8)"));
    CHECK(view.sectorCaption(loadIndex(view, "col_idxs")) ==
          QStringLiteral("32 sectors (ideal 4)"));
    // the whole-matrix comparison: CSR scalar 1164 / 512 sectors per nonzero, ELLPACK 332 / 512
    REQUIRE(view.summary().size() == spmv::viz::access_kernels().size());
    for (const auto& row : view.summary()) {
        INFO(row.title.toStdString() << ": " << row.error.toStdString());
        REQUIRE(row.totals.has_value());
        if (row.kernel == AccessKernel::csr_scalar) {
            CHECK(row.totals->sectors_per_nonzero() == Approx(1164.0 / 512.0));
        }
        if (row.kernel == AccessKernel::ell) {
            CHECK(row.totals->sectors_per_nonzero() == Approx(332.0 / 512.0));
        }
    }
    // lane 0 reads slot 0 of values (byte 0), lane 1 slot 16 (byte 128): drawn in their colours
    const QImage img = guitest::render(view);
    const QRectF lane0 = view.byteRect(values, 0);
    const QRectF lane1 = view.byteRect(values, 128);
    REQUIRE_FALSE(lane0.isEmpty());
    REQUIRE_FALSE(lane1.isEmpty());
    CHECK(img.pixel(lane0.center().toPoint()) == CoalescingView::laneColour(0, 32).rgb());
    CHECK(img.pixel(lane1.center().toPoint()) == CoalescingView::laneColour(1, 32).rgb());
    CHECK(view.byteRect(values, 8).isValid());  // the rest of lane 0's sector is on the strip
}

TEST_CASE("Another trip moves the coloured bytes of the coalescing view", "[gui][coalescing]")
{
    guitest::app();
    CoalescingView view;
    view.resize(1280, 720);
    view.show();
    view.setParams(warp32());
    view.setKernel(AccessKernel::ell);
    view.setDocument(makeDocument(band16(), QStringLiteral("band16"), QStringLiteral("test")));
    settle(view);
    const int values = loadIndex(view, "values");
    const QImage trip0 = guitest::render(view);

    view.setTrip(1);
    const QImage trip1 = guitest::render(view);

    trip1.save(
        QDir(QStringLiteral(SPMV_GUI_TEST_DIR)).filePath(QStringLiteral("coalescing_trip1.png")));
    CHECK(view.trip() == 1);
    CHECK(view.warpTrip()->trip == 1);
    CHECK(trip0 != trip1);
    // ELLPACK trip 1: lane 0 reads slot 32 (byte 256), sectors 8..15
    CHECK(view.sectorCaption(values) == QStringLiteral("8 sectors (ideal 8)"));
    const QRectF lane0 = view.byteRect(values, 256);
    REQUIRE_FALSE(lane0.isEmpty());
    CHECK(trip1.pixel(lane0.center().toPoint()) == CoalescingView::laneColour(0, 32).rgb());
    CHECK(view.byteRect(values, 0).isEmpty());  // trip 0's sector is no longer drawn
    // float: the same 32 values fill 4 sectors
    view.setValueBytes(4);
    settle(view);
    CHECK(view.sectorCaption(values) == QStringLiteral("4 sectors (ideal 4)"));
}

TEST_CASE("The coalescing view renders to a non-blank PNG, also in presentation mode",
          "[gui][coalescing]")
{
    guitest::app();
    for (const bool presentation : {false, true}) {
        Appearance::instance().setPresentationMode(presentation);
        CoalescingView view;
        view.resize(1280, 720);
        view.show();
        view.setParams(warp32());
        view.setKernel(AccessKernel::csr_scalar);
        view.setDocument(makeDocument(spmv::test::random_csr(200, 300, 2, 12, 3),
                                      QStringLiteral("random"), QStringLiteral("test")));
        settle(view);
        const QString file = QDir(QStringLiteral(SPMV_GUI_TEST_DIR))
                                 .filePath(presentation ? QStringLiteral("coalescing_large.png")
                                                        : QStringLiteral("coalescing.png"));

        REQUIRE(view.grab().save(file));
        const QImage back(file);

        REQUIRE_FALSE(back.isNull());
        CHECK(back.width() >= 1280);
        CHECK(colours(back) > 20);  // lanes, sectors, bars and text, not a blank box
    }
    Appearance::instance().setPresentationMode(false);
}

TEST_CASE("The coalescing view explains a matrix without rows instead of drawing nothing",
          "[gui][coalescing]")
{
    guitest::app();
    CoalescingView view;
    view.resize(800, 500);
    view.show();
    spmv::Csr<double, std::int32_t> empty;

    view.setDocument(makeDocument(empty, QStringLiteral("empty.mtx"), QStringLiteral("test")));
    settle(view);

    CHECK_FALSE(view.warpTrip().has_value());
    CHECK(view.message().contains(QStringLiteral("has no rows")));
    CHECK(view.summary().empty());
    CHECK(colours(guitest::render(view)) > 2);  // the message is drawn
}

TEST_CASE("A newer document replaces a coalescing computation still running", "[gui][coalescing]")
{
    guitest::app();
    CoalescingView view;
    view.resize(1000, 600);
    view.show();
    const auto first = makeDocument(spmv::test::random_csr(3000, 3000, 1, 40, 5),
                                    QStringLiteral("first"), QStringLiteral("test"));
    const auto second =
        makeDocument(spmv::test::canonical4(), QStringLiteral("canonical"), QStringLiteral("test"));

    view.setDocument(first);
    view.setDocument(second);
    settle(view);

    REQUIRE(view.warpTrip().has_value());
    CHECK(view.warpTrip()->warps == 1);
    REQUIRE_FALSE(view.summary().empty());
    for (const auto& row : view.summary()) {
        REQUIRE(row.totals.has_value());
        CHECK(row.totals->nnz == 9);
    }
}

TEST_CASE("With the blackboard's warp of 4 the coalescing view follows the permuted rows of pJDS",
          "[gui][coalescing]")
{
    guitest::app();
    CoalescingView view;
    view.resize(1280, 720);
    view.show();
    spmv::FormatParams p;
    p.warp_size = 4;
    p.block_rows = 2;
    view.setParams(p);
    view.setKernel(AccessKernel::pjds);

    view.setDocument(makeDocument(spmv::test::canonical4(), QStringLiteral("canonical"),
                                  QStringLiteral("test")));
    settle(view);
    view.setTrip(2);
    const QImage img = guitest::render(view);
    img.save(
        QDir(QStringLiteral(SPMV_GUI_TEST_DIR)).filePath(QStringLiteral("coalescing_pjds.png")));

    // pJDS b_r = 2 of the canonical 4x4 (pjds.hpp): trip 2 reads slots col_start[2] + i = 8, 9
    REQUIRE(view.warpTrip().has_value());
    CHECK(view.warpTrip()->lane_rows == std::vector<std::int64_t>{0, 2, 3, 1});
    const int values = loadIndex(view, "values");
    CHECK(view.sectorCaption(values) == QStringLiteral("1 sector (ideal 1)"));
    const QRectF lane1 = view.byteRect(values, 72);
    REQUIRE_FALSE(lane1.isEmpty());
    CHECK(img.pixel(lane1.center().toPoint()) == CoalescingView::laneColour(1, 4).rgb());
}
