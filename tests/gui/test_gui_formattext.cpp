// What the explorer writes about a format comes from the registry (session/formattext.hpp):
// titles, layout names with their parameters, the sweep's labels and titles.
#include <catch2/catch.hpp>

#include <spmv/analysis/sweep.hpp>
#include <spmv/registry.hpp>

#include "session/formattext.hpp"

namespace {

QString fromView(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

}  // namespace

TEST_CASE("Format titles come from the registry", "[gui][formattext]")
{
    for (const auto& f : spmv::formats()) {
        CHECK(formatTitle(f.name) == fromView(f.title));
    }
    CHECK(formatTitle("sell") == QStringLiteral("SELL-C-\u03c3"));
    CHECK(formatTitle("nope") == QStringLiteral("nope"));  // unknown: the name itself
}

TEST_CASE("A layout's name puts its parameter values into the title", "[gui][formattext]")
{
    spmv::FormatParams p;
    p.slice_height = 32;
    p.sort_window = 4;
    p.block_rows = 16;

    CHECK(layoutTitle("sell", p) == QStringLiteral("SELL-32-4"));
    CHECK(layoutTitle("pjds", p) == QStringLiteral("pJDS"));       // no symbol in the title
    CHECK(layoutTitle("ellr", p) == QStringLiteral("ELLPACK-R"));  // "R" is no parameter
    CHECK(layoutTitle("jds_csr", p) == QStringLiteral("JDS CSR-like"));
    CHECK(layoutTitle("nope", p) == QStringLiteral("nope"));
    // every other format keeps its title: only SELL-C-σ names its parameters in it
    for (const auto& f : spmv::formats()) {
        if (f.name != "sell") CHECK(layoutTitle(f.name, p) == fromView(f.title));
    }
}

TEST_CASE("Only a format that reads sigma sorts within sigma, and only for sigma above 1",
          "[gui][formattext]")
{
    spmv::FormatParams p;
    p.sort_window = 4;
    spmv::FormatParams unsorted;
    unsorted.sort_window = 1;

    CHECK(readsParam("sell", spmv::Param::sort_window));
    CHECK_FALSE(readsParam("pjds", spmv::Param::sort_window));
    CHECK(readsParam("pjds", spmv::Param::block_rows));
    CHECK_FALSE(readsParam("nope", spmv::Param::block_rows));
    CHECK(sortsWithinSigma("sell", p));
    CHECK_FALSE(sortsWithinSigma("sell", unsorted));
    CHECK_FALSE(sortsWithinSigma("pjds", p));
}

TEST_CASE("The sweep names its parameter and the fixed ones by the registry's titles",
          "[gui][formattext]")
{
    spmv::analysis::SweepResult r;
    r.format = "sell";
    r.param = spmv::Param::sort_window;
    r.base.slice_height = 8;
    r.base.sort_window = 0;

    CHECK(sweepParamLabel(spmv::Param::sort_window) == QStringLiteral("\u03c3 of SELL-C-\u03c3"));
    CHECK(sweepParamLabel(spmv::Param::slice_height) == QStringLiteral("C of SELL-C-\u03c3"));
    CHECK(sweepParamLabel(spmv::Param::block_rows) == QStringLiteral("b_r of pJDS"));
    CHECK(sweepParamLabel(spmv::Param::hyb_width) == QStringLiteral("K of HYB"));
    CHECK(sweepTitle(r) == QStringLiteral("SELL-C-\u03c3, C = 8"));
    r.param = spmv::Param::slice_height;
    CHECK(sweepTitle(r) == QStringLiteral("SELL-C-\u03c3, \u03c3 automatic per C"));
    r.base.sort_window = 64;
    CHECK(sweepTitle(r) == QStringLiteral("SELL-C-\u03c3, \u03c3 = 64"));
    r.format = "pjds";
    r.param = spmv::Param::block_rows;
    CHECK(sweepTitle(r) == QStringLiteral("pJDS"));  // pjds_pad is not swept
    r.format = "hyb";
    r.param = spmv::Param::hyb_width;
    CHECK(sweepTitle(r) == QStringLiteral("HYB"));
}
