// The sweep view: its series hold the library's numbers (spmv::analysis::sweep; the predicted
// time spmv::model::predict_sweep), switching the parameter or the quantity redraws, an empty
// matrix gets a message instead of an empty chart,
// stale results are dropped, and a render at 1280x720 (normal and presentation mode) has ink.
#include <QComboBox>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtCharts/QLineSeries>
#include <catch2/catch.hpp>

#include <spmv/analysis/sweep.hpp>
#include <spmv/model/format_model.hpp>
#include <spmv/model/gpu_profile.hpp>

#include "gui_test_support.hpp"
#include "session/matrixdocument.hpp"
#include "test_matrices.hpp"
#include "widgets/appearance.hpp"
#include "widgets/sweepview.hpp"

using spmv::Param;
using Q = SweepView::Quantity;

namespace {

MatrixDocumentPtr randomDocument(std::int32_t rows, std::uint32_t seed)
{
    return makeDocument(spmv::test::random_csr(rows, rows, 0, 20, seed),
                        QStringLiteral("random %1").arg(rows), QStringLiteral("test"));
}

/// Waits until the view shows the result of its latest request.
void waitForSweep(SweepView& view)
{
    if (!view.isComputing()) return;
    QSignalSpy done(&view, &SweepView::finished);
    REQUIRE(done.wait(30000));
    REQUIRE_FALSE(view.isComputing());
}

/// The library's sweep for what the view shows: default values plus the current setting.
spmv::analysis::SweepResult expected(const MatrixDocument& doc, Param param,
                                     const spmv::FormatParams& p, const QString& profile,
                                     spmv::model::Precision precision)
{
    const auto format = spmv::analysis::sweep_format(param);
    auto values = spmv::analysis::default_sweep_values(doc.csr, param);
    values.push_back(spmv::analysis::resolved_value(doc.csr, format, param, p));
    spmv::analysis::SweepOptions o;
    o.gpu = spmv::model::find_profile(profile.toStdString());
    o.precision = precision;
    return spmv::analysis::sweep(doc.csr, format, param, p, values, o);
}

int inkPixels(const QImage& img)
{
    int ink = 0;
    for (int y = 0; y < img.height(); y += 2)
        for (int x = 0; x < img.width(); x += 2)
            if (qGray(img.pixel(x, y)) < 200) ++ink;
    return ink;
}

}  // namespace

TEST_CASE("The sweep view's series equal the library's sweep", "[gui][sweep]")
{
    guitest::app();
    SweepView view;
    view.resize(1280, 720);
    spmv::FormatParams p;
    p.slice_height = 4;
    p.sort_window = 8;
    p.warp_size = 32;
    const auto doc = randomDocument(300, 4);
    view.setParams(p);
    REQUIRE(view.setSweptParameter(Param::sort_window));
    REQUIRE(view.selectProfile(QStringLiteral("h100")));
    view.setPrecision(spmv::model::Precision::single_precision);

    view.setDocument(doc);
    waitForSweep(view);
    const auto want = expected(*doc, Param::sort_window, p, QStringLiteral("H100"),
                               spmv::model::Precision::single_precision);

    REQUIRE(view.result());
    CHECK(view.message().isEmpty());
    const auto& pts = want.points;
    CHECK(view.result()->current_value == 8);
    view.setQuantity(Q::All);
    std::vector<int> values;
    for (const auto& pt : pts) values.push_back(pt.value);
    const auto model = spmv::model::predict_sweep(doc->csr, "sell", Param::sort_window, p, values,
                                                  spmv::model::find_profile("H100"),
                                                  spmv::model::Precision::single_precision);
    for (const Q q : {Q::PaddingShare, Q::Iterations, Q::PredictedTime}) {
        const QLineSeries* s = view.series(q);
        REQUIRE(s);
        REQUIRE(s->count() == static_cast<int>(pts.size()));
        for (int i = 0; i < s->count(); ++i) {
            const auto& pt = pts[static_cast<std::size_t>(i)];
            const QPointF at = s->at(i);
            CHECK(at.x() == pt.value);
            if (q == Q::PaddingShare) CHECK(at.y() == Approx(100.0 * pt.padding_share));
            if (q == Q::Iterations) CHECK(at.y() == static_cast<double>(pt.n_iter));
            if (q == Q::PredictedTime) {  // the per-format fitted model, not the bytes alone
                CHECK(at.y() * view.timeUnitSeconds() ==
                      Approx(model[static_cast<std::size_t>(i)].model.prediction.time_s));
            }
        }
    }
    // σ sweep of 300 rows: 1, 2, ..., 256, 300 (8 is the current value, already on the list)
    CHECK(view.series(Q::PaddingShare)->at(0).x() == 1);
    CHECK(view.series(Q::PaddingShare)->at(static_cast<int>(pts.size()) - 1).x() == 300);
    CHECK(view.table()->rowCount() == static_cast<int>(pts.size()));
    // more sorting never pads more for this C: the curve does not rise
    CHECK(pts.back().padding_share <= pts.front().padding_share);
}

TEST_CASE("Switching the swept parameter and the quantity changes the series", "[gui][sweep]")
{
    guitest::app();
    SweepView view;
    view.resize(1280, 720);
    spmv::FormatParams p;
    p.block_rows = 32;
    p.hyb_width = -1;
    const auto doc = randomDocument(500, 9);
    view.setParams(p);
    view.setQuantity(Q::PaddingShare);
    view.setDocument(doc);
    waitForSweep(view);
    REQUIRE(view.series(Q::PaddingShare));
    const QLineSeries* sigma = view.series(Q::PaddingShare);
    const double sigmaLast = sigma->at(sigma->count() - 1).x();  // σ = N = 500

    REQUIRE(view.setSweptParameter(Param::block_rows));
    waitForSweep(view);
    const auto want = expected(*doc, Param::block_rows, p, view.profileBox()->currentText(),
                               spmv::model::Precision::double_precision);

    CHECK_FALSE(view.setSweptParameter(Param::pitch_bytes));  // not a sweep
    CHECK(view.sweptParameter() == Param::block_rows);
    const QLineSeries* s = view.series(Q::PaddingShare);
    REQUIRE(s);
    CHECK(view.series(Q::Iterations) == nullptr);  // one quantity on screen
    REQUIRE(s->count() == static_cast<int>(want.points.size()));
    CHECK(sigmaLast == 500);
    CHECK(s->at(0).x() == 1);
    CHECK(s->at(0).y() == 0.0);  // pJDS b_r = 1 has no padding
    CHECK(s->at(s->count() - 1).x() == 512);
    CHECK(s->at(s->count() - 1).y() == Approx(100.0 * want.points.back().padding_share));

    // HYB: the current K is the one-third rule's, marked on the curve
    REQUIRE(view.setSweptParameter(Param::hyb_width));
    waitForSweep(view);
    view.setQuantity(Q::Iterations);
    REQUIRE(view.series(Q::Iterations));
    CHECK(view.series(Q::PaddingShare) == nullptr);
    CHECK(view.result()->current_value ==
          spmv::analysis::resolved_value(doc->csr, "hyb", Param::hyb_width, p));
    CHECK(view.series(Q::Iterations)->at(0).x() == 0);  // longest row 20: K = 0 .. 20
    CHECK(view.table()->columnCount() == 9);             // with the COO entries
    CHECK(view.grab().toImage().save(QStringLiteral(SPMV_GUI_TEST_DIR "/sweep_hyb.png")));
}

TEST_CASE("The sweep view shows a message for a missing or empty matrix", "[gui][sweep]")
{
    guitest::app();
    SweepView view;
    view.resize(800, 500);
    CHECK(view.message().contains(QStringLiteral("Open or generate")));
    spmv::Csr<double, std::int32_t> zeros;
    zeros.num_rows = 5;
    zeros.num_cols = 5;
    zeros.row_ptrs.assign(6, 0);
    QSignalSpy done(&view, &SweepView::finished);

    view.setDocument(makeDocument(zeros, QStringLiteral("zeros"), QStringLiteral("test")));

    CHECK(done.count() == 1);
    CHECK_FALSE(view.isComputing());
    CHECK(view.message().contains(QStringLiteral("no nonzeros")));
    CHECK(view.result() == nullptr);
    CHECK(view.series(Q::PaddingShare) == nullptr);
}

TEST_CASE("The sweep view drops the result of a superseded matrix", "[gui][sweep]")
{
    guitest::app();
    SweepView view;
    const auto first = randomDocument(2000, 1);
    const auto second = randomDocument(700, 2);

    view.setDocument(first);
    view.setDocument(second);
    waitForSweep(view);

    REQUIRE(view.result());
    CHECK(view.result()->rows == 700);
}

TEST_CASE("The sweep view renders a legible chart at 1280x720", "[gui][sweep]")
{
    // 1260 x 600: what a tab of the 1280 x 720 window leaves for the view
    guitest::app();
    SweepView view;
    view.resize(1260, 600);
    spmv::FormatParams p;
    p.slice_height = 32;
    p.sort_window = 64;
    view.setParams(p);
    view.setDocument(makeDocument(spmv::test::random_csr(5000, 5000, 1, 60, 8),
                                  QStringLiteral("random 5000"), QStringLiteral("test")));
    waitForSweep(view);
    auto& app = Appearance::instance();
    auto grab = [&] {
        QCoreApplication::processEvents();  // the relayout after a font or quantity change
        return view.grab().toImage();
    };

    const QImage single = grab();
    view.setQuantity(Q::All);
    const QImage all = grab();
    app.setPresentationMode(true);
    const QImage presentation = grab();
    view.setQuantity(Q::PaddingShare);
    const QImage presentationSingle = grab();
    app.setPresentationMode(false);

    for (const auto* img : {&single, &all, &presentation, &presentationSingle}) {
        CHECK(inkPixels(*img) > 2000);
    }
    CHECK(single.save(QStringLiteral(SPMV_GUI_TEST_DIR "/sweep.png")));
    CHECK(all.save(QStringLiteral(SPMV_GUI_TEST_DIR "/sweep_all.png")));
    CHECK(presentation.save(QStringLiteral(SPMV_GUI_TEST_DIR "/sweep_presentation.png")));
    CHECK(presentationSingle.save(
        QStringLiteral(SPMV_GUI_TEST_DIR "/sweep_presentation_single.png")));
}
