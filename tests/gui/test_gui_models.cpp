// Every table model under QAbstractItemModelTester (Fatal), with the values checked.
#include <QAbstractItemModelTester>
#include <catch2/catch.hpp>

#include <spmv/analysis/summary.hpp>
#include <spmv/registry.hpp>
#include <spmv/viz/warp_grid.hpp>

#include "gui_test_support.hpp"
#include "models/formatsummarymodel.hpp"
#include "models/matrixstatsmodel.hpp"
#include "models/timingmodel.hpp"
#include "models/wastecomparisonmodel.hpp"
#include "session/matrixdocument.hpp"
#include "test_matrices.hpp"

using Tester = QAbstractItemModelTester;

namespace {

QString cell(const QAbstractItemModel& m, int row, int col)
{
    return m.data(m.index(row, col)).toString();
}

int rowOf(const QAbstractItemModel& m, const QString& first)
{
    for (int r = 0; r < m.rowCount(); ++r) {
        if (cell(m, r, 0) == first) return r;
    }
    return -1;
}

}  // namespace

TEST_CASE("Matrix statistics model shows SPEC section 2 numbers of the canonical 4x4",
          "[gui][models]")
{
    guitest::app();
    MatrixStatsModel model;
    Tester tester(&model, Tester::FailureReportingMode::Fatal);
    const auto doc =
        makeDocument(spmv::test::canonical4(), QStringLiteral("canonical"), QStringLiteral("test"));

    model.resetData(doc);

    CHECK(model.columnCount() == 3);
    CHECK(cell(model, rowOf(model, QStringLiteral("N (rows)")), 1) == QStringLiteral("4"));
    CHECK(cell(model, rowOf(model, QStringLiteral("nnz")), 1) == QStringLiteral("9"));
    CHECK(cell(model, rowOf(model, QStringLiteral("ave = nnz / N")), 1) == QStringLiteral("2.25"));
    CHECK(cell(model, rowOf(model, QStringLiteral("\u03c3 of the row lengths")), 1) ==
          QStringLiteral("0.83"));
    CHECK(cell(model, rowOf(model, QStringLiteral("max \u2212 min")), 1) == QStringLiteral("2"));
    model.resetData(nullptr);
    CHECK(model.rowCount() == 0);
}

TEST_CASE("Format summary model lists every registered format with its footprint", "[gui][models]")
{
    guitest::app();
    FormatSummaryModel model;
    Tester tester(&model, Tester::FailureReportingMode::Fatal);
    spmv::FormatParams p;
    p.warp_size = 2;
    auto s = std::make_shared<const std::vector<spmv::analysis::FormatSummary>>(
        spmv::analysis::summarize_all(spmv::test::canonical4(), p));

    model.resetData(s);

    REQUIRE(model.rowCount() == static_cast<int>(spmv::formats().size()));
    const int ell = rowOf(model, QStringLiteral("ELLPACK"));
    REQUIRE(ell >= 0);
    CHECK(cell(model, ell, FormatSummaryModel::Stored) == QStringLiteral("12"));
    CHECK(cell(model, ell, FormatSummaryModel::Padding) == QStringLiteral("3"));
    CHECK(cell(model, ell, FormatSummaryModel::TotalBytes) == QStringLiteral("144"));
    const int csr = rowOf(model, QStringLiteral("CSR"));
    CHECK(cell(model, csr, FormatSummaryModel::TotalBytes) == QStringLiteral("128"));
    CHECK(cell(model, csr, FormatSummaryModel::ReductionVsEll) == QStringLiteral("25.0 %"));
    CHECK(cell(model, csr, FormatSummaryModel::NIter) == QStringLiteral("6"));
    CHECK(cell(model, csr, FormatSummaryModel::NP) == QStringLiteral("14"));
}

TEST_CASE("Waste comparison model puts two formats side by side", "[gui][models]")
{
    guitest::app();
    WasteComparisonModel model;
    Tester tester(&model, Tester::FailureReportingMode::Fatal);
    const auto a = spmv::test::canonical4();
    spmv::FormatParams p;
    p.block_rows = 2;

    model.resetData(0,
                    std::make_shared<const spmv::viz::WarpWaste>(
                        spmv::viz::warp_waste(spmv::build<double>("ell", a), 2)),
                    QStringLiteral("ELLPACK"));
    model.resetData(1,
                    std::make_shared<const spmv::viz::WarpWaste>(
                        spmv::viz::warp_waste(spmv::build<double>("pjds", a, p), 2)),
                    QStringLiteral("pJDS"));

    CHECK(model.headerData(0, Qt::Horizontal).toString() == QStringLiteral("ELLPACK"));
    CHECK(cell(model, 1, 0) == QStringLiteral("6"));  // N_iter ELLPACK
    CHECK(cell(model, 1, 1) == QStringLiteral("5"));  // N_iter pJDS b_r = 2
    CHECK(cell(model, 5, 1) == QStringLiteral("10.0 %"));
    CHECK(cell(model, 6, 0) == QStringLiteral("3"));   // stored padding slots
    CHECK(cell(model, 7, 0) == QStringLiteral("36"));  // 3 * (8 + 4) bytes
}

TEST_CASE("Timing model streams rows in and shows the model next to them", "[gui][models]")
{
    guitest::app();
    TimingModel model;
    Tester tester(&model, Tester::FailureReportingMode::Fatal);
    TimingRow r;
    r.variant = "pjds";
    r.precision = "double";
    r.median_ms = 0.5;
    r.gflops = 4.0;
    r.predicted_gflops = 16.0;
    r.fraction_of_prediction = 0.25;
    r.device = "CPU reference (1 thread)";
    TimingRow bad = r;
    bad.variant = "ell";
    bad.error = "ell needs 12.3 GiB on the device, 9.1 GiB free";

    model.appendRow(r);
    model.appendRow(bad);

    REQUIRE(model.rowCount() == 2);
    CHECK(cell(model, 0, TimingModel::Median) == QStringLiteral("500.00"));  // microseconds
    CHECK(cell(model, 0, TimingModel::GFlops) == QStringLiteral("4.00"));
    CHECK(cell(model, 0, TimingModel::Predicted) == QStringLiteral("16.00"));
    CHECK(cell(model, 0, TimingModel::OfPrediction) == QStringLiteral("25.0 %"));
    CHECK(cell(model, 0, TimingModel::OfCopy) == QStringLiteral("\u2014"));  // CPU row
    CHECK(cell(model, 1, TimingModel::GFlops) == QStringLiteral("\u2014"));
    CHECK(cell(model, 1, TimingModel::Note).contains(QStringLiteral("GiB on the device")));
    model.resetData();
    CHECK(model.rowCount() == 0);
}
