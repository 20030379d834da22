// Widgets rendered offscreen on tiny matrices, with pixels checked against the palette.
#include <QSignalSpy>
#include <QTest>
#include <catch2/catch.hpp>

#include <spmv/registry.hpp>
#include <spmv/viz/construction.hpp>
#include <spmv/viz/warp_grid.hpp>

#include "gui_test_support.hpp"
#include "session/matrixdocument.hpp"
#include "test_matrices.hpp"
#include "widgets/appearance.hpp"
#include "widgets/distribution_geometry.hpp"
#include "widgets/flowlayout.hpp"
#include "widgets/layoutview.hpp"
#include "widgets/sparsityview.hpp"
#include "widgets/warpwasteview.hpp"

using spmv::viz::palette;
using spmv::viz::Rgb;

namespace {

QPointF centre(QRectF r)
{
    return r.center();
}

/// A point inside the box but away from its centre (where a value's digits are drawn) and
/// from its border and the selection outline.
QPointF corner(QRectF r, double inset = 4)
{
    return r.topLeft() + QPointF(inset, inset);
}

}  // namespace

TEST_CASE("The sparsity view draws nonzeros in the nonzero colour and zeros white",
          "[gui][widgets]")
{
    guitest::app();
    SparsityView view;
    view.resize(300, 300);
    QSignalSpy rendered(&view, &SparsityView::renderFinished);
    const auto doc =
        makeDocument(spmv::test::canonical4(), QStringLiteral("canonical"), QStringLiteral("test"));

    view.setDocument(doc);
    REQUIRE(rendered.wait(5000));
    const QImage img = guitest::render(view);

    const auto& t = view.viewTransform();
    REQUIRE(t.exact());
    auto at = [&](double row, double col) {
        return guitest::pixel(img, QPointF(t.x_of_col(col + 0.5), t.y_of_row(row + 0.5)));
    };
    CHECK(at(0, 0) == palette().nonzero);     // A(0,0) = 1
    CHECK(at(0, 1) == palette().background);  // A(0,1) = 0
    CHECK(at(3, 3) == palette().nonzero);     // A(3,3) = 9
    CHECK(at(1, 0) == palette().background);
    // axes: the row numbers left of the matrix and the column numbers above it are drawn in
    // the text colour next to row 0 / column 0, inside the widget
    auto inkIn = [&](QRectF r) {
        int ink = 0;
        for (int y = static_cast<int>(r.top()); y < static_cast<int>(r.bottom()); ++y)
            for (int x = static_cast<int>(r.left()); x < static_cast<int>(r.right()); ++x)
                if (qGray(img.pixel(x, y)) < 100) ++ink;
        return ink;
    };
    const double left = t.x_of_col(0);
    const double top = t.y_of_row(0);
    REQUIRE(left > 20);
    REQUIRE(top > 20);
    CHECK(inkIn(QRectF(left - 20, t.y_of_row(0.5) - 6, 14, 12)) > 0);  // "0" of the rows
    CHECK(inkIn(QRectF(t.x_of_col(0.5) - 6, top - 20, 12, 14)) > 0);  // "0" of the columns
    CHECK(inkIn(QRectF(left - 20, t.y_of_row(1.5) - 4, 14, 8)) > 0);  // "1": step 1 here

    // permuted order of pJDS / SELL: display row 1 is row 2 = [5 0 6 7]
    rendered.clear();
    view.setRowOrder(
        std::make_shared<const std::vector<std::int32_t>>(std::vector<std::int32_t>{0, 2, 3, 1}),
        QStringLiteral("pJDS"));
    REQUIRE(rendered.wait(5000));
    const QImage perm = guitest::render(view);
    CHECK(guitest::pixel(perm, QPointF(t.x_of_col(0.5), t.y_of_row(1.5))) == palette().nonzero);
    CHECK(guitest::pixel(perm, QPointF(t.x_of_col(1.5), t.y_of_row(1.5))) == palette().background);
    CHECK(guitest::pixel(perm, QPointF(t.x_of_col(1.5), t.y_of_row(3.5))) == palette().nonzero);
}

TEST_CASE("A large matrix is drawn as a density raster", "[gui][widgets]")
{
    guitest::app();
    SparsityView view;
    view.resize(220, 220);
    QSignalSpy rendered(&view, &SparsityView::renderFinished);
    // 200 random nonzeros in each of 2000 rows: about 16 per pixel at this size
    const auto doc = makeDocument(spmv::test::random_csr(2000, 2000, 200, 200, 9),
                                  QStringLiteral("random"), QStringLiteral("test"));

    view.setDocument(doc);
    REQUIRE(rendered.wait(5000));
    const QImage img = guitest::render(view);

    const auto& t = view.viewTransform();
    CHECK_FALSE(t.exact());
    const Rgb mid = guitest::pixel(img, QPointF(t.x_of_col(1000), t.y_of_row(1000)));
    CHECK(mid != palette().background);
    CHECK(mid != palette().nonzero);  // a density colour, not the exact-mode colour
}

TEST_CASE("The construction view colours padding and highlights the selection in the arrays",
          "[gui][widgets]")
{
    guitest::app();
    LayoutView view;
    view.resize(900, 700);
    spmv::FormatParams p;
    p.block_rows = 2;
    const auto c = std::make_shared<const spmv::viz::Construction>(
        spmv::viz::construction(spmv::test::canonical4(), "pjds", p));

    view.setConstruction(c);
    view.setStep(3);  // pad: blocks {0,2} | {3,1}; grid row 3 = matrix row 1 = [4 P .]
    view.selectCell(3, 0);
    view.resize(900, qMax(700, view.minimumHeight()));
    const QImage img = guitest::render(view);

    REQUIRE(view.step()->name == "pad");
    CHECK(guitest::pixel(img, corner(view.cellRect(3, 1))) == palette().padding);
    CHECK(guitest::pixel(img, corner(view.cellRect(3, 0))) == palette().nonzero);
    CHECK(guitest::pixel(img, corner(view.cellRect(3, 2))) == palette().empty);
    // the value 4 sits in slot col_start[0] + 3 = 3 of values and col_idxs: highlighted
    const QRectF v3 = view.entryRect(QStringLiteral("values"), 3);
    const QRectF v2 = view.entryRect(QStringLiteral("values"), 2);
    REQUIRE_FALSE(v3.isEmpty());
    CHECK(guitest::pixel(img, corner(v3, 2)) == palette().selection);
    CHECK(guitest::pixel(img, corner(v2, 2)) == palette().background);
    CHECK(guitest::pixel(img, corner(view.entryRect(QStringLiteral("col_start"), 0), 2)) ==
          palette().selection);
    CHECK(guitest::pixel(img, corner(view.entryRect(QStringLiteral("row_perm"), 3), 2)) ==
          palette().selection);
    // the padding slot 7 is drawn as padding in the values array
    CHECK(guitest::pixel(img, corner(view.entryRect(QStringLiteral("values"), 7), 2)) !=
          palette().background);
}

TEST_CASE("The selection follows its nonzero from step to step", "[gui][widgets]")
{
    guitest::app();
    LayoutView view;
    view.resize(900, 700);
    spmv::FormatParams p;
    p.block_rows = 2;
    view.setConstruction(std::make_shared<const spmv::viz::Construction>(
        spmv::viz::construction(spmv::test::canonical4(), "pjds", p)));
    view.setStep(0);

    view.selectCell(1, 1);  // A(1,1) = 4, nonzero 3
    view.setStep(1);        // ELLPACK: row 1 = [4 P P]
    const auto inEll = view.selectedCell();
    view.setStep(3);

    CHECK(inEll == QPair<int, int>{1, 0});
    CHECK(view.selectedCell() == QPair<int, int>{3, 0});
}

TEST_CASE("The warp view shows useful, idle and padding slots in their colours", "[gui][widgets]")
{
    guitest::app();
    // rows of lengths 1, 1, 3, 3 (ELLPACK-R width 3), warp size 2:
    // warp 0 runs 1 trip but stores 3 slots per lane -> slots 1, 2 are pure stored padding
    auto a = spmv::test::canonical4();
    a.row_ptrs = {0, 1, 2, 5, 8};
    a.col_idxs = {0, 1, 0, 1, 2, 1, 2, 3};
    a.values = {1, 2, 3, 4, 5, 6, 7, 8};
    WarpWasteView view;
    view.resize(700, 500);

    view.setWaste(std::make_shared<const spmv::viz::WarpWaste>(
                      spmv::viz::warp_waste(spmv::build<double>("ellr", a), 2)),
                  QStringLiteral("ELLPACK-R"));
    const QImage ellr = guitest::render(view);

    CHECK(guitest::pixel(ellr, centre(view.slotRect(0, 0, 0))) == palette().useful);
    CHECK(guitest::pixel(ellr, centre(view.slotRect(0, 0, 1))) == palette().padding);
    CHECK(guitest::pixel(ellr, centre(view.slotRect(0, 1, 2))) == palette().padding);
    CHECK(guitest::pixel(ellr, centre(view.slotRect(1, 1, 2))) == palette().useful);

    // CSR scalar, one warp of 4: rows 0 and 1 wait 2 trips for rows 2 and 3 (nothing stored)
    view.setWaste(std::make_shared<const spmv::viz::WarpWaste>(
                      spmv::viz::warp_waste(spmv::build<double>("csr", a), 4)),
                  QStringLiteral("CSR"));
    const QImage csr = guitest::render(view);

    CHECK(guitest::pixel(csr, centre(view.slotRect(0, 0, 1))) == palette().idle);
    CHECK(guitest::pixel(csr, centre(view.slotRect(0, 2, 1))) == palette().useful);
    // the whole-matrix strip: the one warp reserves 4 x 3 = 12 lane slots, 8 useful: the
    // bottom two thirds of the strip useful, the top third idle
    const QRectF strip = view.stripRect();
    REQUIRE(strip.height() > 6);
    const double x = strip.center().x();
    CHECK(guitest::pixel(csr, QPointF(x, strip.bottom() - 0.2 * strip.height())) == palette().useful);
    CHECK(guitest::pixel(csr, QPointF(x, strip.bottom() - 0.6 * strip.height())) == palette().useful);
    CHECK(guitest::pixel(csr, QPointF(x, strip.top() + 0.15 * strip.height())) == palette().idle);
    // the header leaves room for the strip: the first warp grid starts below it
    CHECK(view.slotRect(0, 0, 0).top() > strip.bottom());
}

TEST_CASE("Clicking a cell of the construction view selects it", "[gui][widgets]")
{
    guitest::app();
    LayoutView view;
    view.resize(900, 700);
    spmv::FormatParams p;
    p.block_rows = 2;
    view.setConstruction(std::make_shared<const spmv::viz::Construction>(
        spmv::viz::construction(spmv::test::canonical4(), "pjds", p)));
    view.setStep(3);
    QSignalSpy described(&view, &LayoutView::selectionDescribed);

    QTest::mouseClick(&view, Qt::LeftButton, {}, view.cellRect(3, 1).center().toPoint());

    CHECK(view.selectedCell() == QPair<int, int>{3, 1});
    REQUIRE(described.count() == 1);
    CHECK(described.first().at(0).toString() ==
          QStringLiteral("Padding slot of row 1, storage slot 7"));
    // clicking an entry of values selects the cell stored there (slot 3 = the value 4)
    QTest::mouseClick(&view, Qt::LeftButton, {},
                      view.entryRect(QStringLiteral("values"), 3).center().toPoint());
    CHECK(view.selectedCell() == QPair<int, int>{3, 0});
}

TEST_CASE("The mouse wheel zooms the pattern around the cursor", "[gui][widgets]")
{
    guitest::app();
    SparsityView view;
    view.resize(300, 300);
    view.setDocument(makeDocument(spmv::test::random_csr(500, 500, 1, 5, 3), QStringLiteral("r"),
                                  QStringLiteral("test")));
    const auto before = view.viewTransform();
    const QPointF at(150, 120);

    view.zoomAt(2.0, at);

    const auto& after = view.viewTransform();
    CHECK(after.scale == Approx(before.scale * 2));
    CHECK(after.col_at(at.x()) == Approx(before.col_at(at.x())));
    CHECK(after.row_at(at.y()) == Approx(before.row_at(at.y())));
    view.resetView();
    CHECK(view.viewTransform().scale == Approx(before.scale));
}

TEST_CASE("Presentation mode sizes its text from the window's height, never below 18 px at 720",
          "[gui][widgets]")
{
    guitest::app();
    auto& a = Appearance::instance();
    const double ppp = Appearance::pixelsPerPoint();
    auto pixels = [ppp](const QFont& f) { return f.pointSizeF() * ppp; };
    const double normal = a.font().pointSizeF();
    const double line = a.lineWidth(2.0);

    a.setPresentationHeight(720);
    a.setPresentationMode(true);
    const double body720 = pixels(a.font());
    const double small720 = pixels(a.font(0.7));
    const double min720 = a.minimumTextPixels();
    const double thick = a.lineWidth(2.0);
    const double app720 = QApplication::font().pointSizeF() * ppp;
    a.setPresentationHeight(1080);
    const double body1080 = pixels(a.font());
    const double small1080 = pixels(a.font(0.7));
    const double min1080 = a.minimumTextPixels();
    a.setPresentationMode(false);
    a.setPresentationHeight(720);

    // body 20 px (1/36 of the height), smallest 18 px (1/40): 30 and 27 px at 1080
    CHECK(body720 == Approx(20.0));
    CHECK(app720 == Approx(20.0));
    CHECK(min720 == 18.0);
    CHECK(small720 == Approx(18.0));  // 0.7 x 20 = 14 px is lifted to the minimum
    CHECK(body1080 == Approx(30.0));
    CHECK(min1080 == 27.0);
    CHECK(small1080 == Approx(27.0));
    CHECK(thick > line);
    CHECK(a.minimumTextPixels() == Appearance::normalMinimumPixels);
    CHECK(a.font().pointSizeF() == Approx(normal));
}

TEST_CASE("A count is abbreviated the same way in every heat-map cell", "[gui][widgets]")
{
    CHECK(abbreviatedCount(0) == "0");
    CHECK(abbreviatedCount(999) == "999");
    CHECK(abbreviatedCount(1000) == "1.0k");
    CHECK(abbreviatedCount(1234) == "1.2k");
    CHECK(abbreviatedCount(9949) == "9.9k");
    CHECK(abbreviatedCount(9951) == "10k");
    CHECK(abbreviatedCount(35400) == "35k");
    CHECK(abbreviatedCount(999499) == "999k");
    CHECK(abbreviatedCount(999500) == "1.0M");  // not "1000k": carried
    CHECK(abbreviatedCount(1234567) == "1.2M");
    CHECK(abbreviatedCount(-2500) == "-2.5k");
    CHECK(abbreviatedCount(3000000000LL) == "3.0G");
}

TEST_CASE("A flow layout wraps its items onto the lines its width needs", "[gui][widgets]")
{
    guitest::app();
    QWidget bar;
    auto* flow = new FlowLayout(&bar);
    flow->setContentsMargins(0, 0, 0, 0);
    flow->setSpacing(10);
    QList<QWidget*> items;
    for (int i = 0; i < 4; ++i) {
        auto* w = new QWidget;
        w->setFixedSize(100, 20);
        flow->addWidget(w);
        items << w;
    }

    // one line needs 4 x 100 + 3 x 10 = 430 px; 300 px hold two items a line
    CHECK(flow->sizeHint().width() == 430);
    CHECK(flow->heightForWidth(430) == 20);
    CHECK(flow->heightForWidth(300) == 50);
    CHECK(flow->heightForWidth(100) == 110);
    CHECK(flow->minimumSize().width() == 100);
    flow->setGeometry(QRect(0, 0, 300, 50));
    CHECK(items[1]->geometry() == QRect(110, 0, 100, 20));
    CHECK(items[2]->geometry() == QRect(0, 30, 100, 20));
    items[0]->hide();  // a hidden item takes no room
    flow->setGeometry(QRect(0, 0, 300, 50));
    CHECK(items[1]->geometry().topLeft() == QPoint(0, 0));
    CHECK(flow->heightForWidth(430) == 20);
}
