#include <map>

#include <catch2/catch.hpp>

#include <spmv/any_matrix.hpp>
#include <spmv/error.hpp>
#include <spmv/registry.hpp>
#include <spmv/viz/construction.hpp>
#include <spmv/viz/warp_grid.hpp>

#include "test_matrices.hpp"

using namespace spmv;
using namespace spmv::viz;

namespace {

const ConstructionStep& step(const Construction& c, std::string_view name)
{
    for (const auto& s : c.steps) {
        if (s.name == name) return s;
    }
    FAIL("no step " << name);
    return c.steps.front();
}

const StorageArray& array(const ConstructionStep& s, std::string_view name)
{
    for (const auto& a : s.arrays) {
        if (a.name == name) return a;
    }
    FAIL("no array " << name);
    return s.arrays.front();
}

/// "1 4 P ." notation of a grid row: value of a nonzero, P padding, . empty
std::string row_text(const ConstructionStep& s, const Csr<double, std::int32_t>& a, int r)
{
    std::string t;
    for (int c = 0; c < s.cols; ++c) {
        const auto& x = s.at(r, c);
        if (!t.empty()) t += ' ';
        if (x.kind == CellKind::nonzero) {
            t += std::to_string(static_cast<int>(a.values[static_cast<std::size_t>(x.nz)]));
        } else {
            t += x.kind == CellKind::padding ? "P" : ".";
        }
    }
    return t;
}

FormatParams params_br(int br)
{
    FormatParams p;
    p.block_rows = br;
    return p;
}

}  // namespace

TEST_CASE("pJDS construction of the canonical 4x4 follows Kreutzer Fig. 1", "[viz][construction]")
{
    const auto a = test::canonical4();

    const auto c = construction(a, "pjds", params_br(2));

    REQUIRE(c.steps.size() == 4);
    CHECK_FALSE(c.clipped);
    const auto& m = step(c, "matrix");
    CHECK(row_text(m, a, 0) == "1 . 2 3");
    CHECK(row_text(m, a, 3) == ". 8 . 9");
    const auto& e = step(c, "compress");
    CHECK(e.cols == 3);
    CHECK(row_text(e, a, 1) == "4 P P");
    CHECK(row_text(e, a, 3) == "8 9 P");
    CHECK(e.stored == 12);
    CHECK(e.padding == 3);
    const auto& s = step(c, "sort");
    CHECK(s.row_source == std::vector<std::int32_t>{0, 2, 3, 1});
    CHECK(row_text(s, a, 1) == "5 6 7");
    CHECK(row_text(s, a, 3) == "4 . .");
    const auto& p = step(c, "pad");
    CHECK(p.block_rows == 2);
    CHECK(row_text(p, a, 0) == "1 2 3");
    CHECK(row_text(p, a, 2) == "8 9 .");
    CHECK(row_text(p, a, 3) == "4 P .");
    CHECK(p.stored == 10);
    CHECK(p.padding == 1);
    CHECK(array(p, "col_start").entries == std::vector<double>{0, 4, 8, 10});
    CHECK(array(p, "col_idxs").entries == std::vector<double>{0, 0, 1, 1, 2, 2, 3, -1, 3, 3});
    CHECK(array(p, "values").padding == std::vector<std::uint8_t>{0, 0, 0, 0, 0, 0, 0, 1, 0, 0});
    CHECK(array(p, "values").group_starts == std::vector<std::int64_t>{4, 8});
}

TEST_CASE("A selected nonzero finds its entry in every array", "[viz][construction]")
{
    const auto a = test::canonical4();
    const auto c = construction(a, "pjds", params_br(2));
    const auto& p = step(c, "pad");
    // the value 4 is A(1,1), CSR nonzero 3; after sorting, row 1 is the last row
    const auto pos = p.find_nonzero(3);
    REQUIRE(pos.has_value());
    CHECK(*pos == std::pair<int, int>{3, 0});

    auto rel = [&](std::string_view name) {
        return p.related_entries(array(p, name), pos->first, pos->second);
    };

    CHECK(rel("values") == std::vector<std::size_t>{3});  // col_start[0] + 3
    CHECK(rel("col_idxs") == std::vector<std::size_t>{3});
    CHECK(rel("col_start") == std::vector<std::size_t>{0});
    CHECK(rel("row_lengths") == std::vector<std::size_t>{3});
    CHECK(rel("row_perm") == std::vector<std::size_t>{3});
    CHECK(array(p, "values").entries[3] == 4.0);
    // the padding cell next to it is slot col_start[1] + 3 = 7
    CHECK(p.related_entries(array(p, "values"), 3, 1) == std::vector<std::size_t>{7});
    // in the CSR step the same nonzero is slot 3 and row 1 spans row_ptrs[1..2]
    const auto& m = step(c, "matrix");
    const auto mp = m.find_nonzero(3);
    REQUIRE(mp.has_value());
    CHECK(m.related_entries(array(m, "row_ptrs"), mp->first, mp->second) ==
          std::vector<std::size_t>{1, 2});
    CHECK(m.related_entries(array(m, "values"), mp->first, mp->second) ==
          std::vector<std::size_t>{3});
}

TEST_CASE("SELL-2-4 construction of the canonical 4x4 matches the header", "[viz][construction]")
{
    const auto a = test::canonical4();
    FormatParams prm;
    prm.slice_height = 2;
    prm.sort_window = 4;

    const auto c = construction(a, "sell", prm);

    CHECK(c.title == "SELL-2-4");
    const auto& p = step(c, "pad");
    CHECK(p.rows == 4);
    CHECK(row_text(p, a, 2) == "8 9 .");
    CHECK(row_text(p, a, 3) == "4 P .");
    CHECK(array(p, "slice_ptrs").entries == std::vector<double>{0, 6, 10});
    CHECK(array(p, "col_idxs").entries == std::vector<double>{0, 0, 2, 2, 3, 3, 1, 1, 3, -1});
    // slice 1 holds grid rows 2 and 3
    CHECK(p.related_entries(array(p, "slice_widths"), 3, 0) == std::vector<std::size_t>{1});
}

TEST_CASE("SELL pads the last slice with empty rows", "[viz][construction]")
{
    const auto a = test::canonical4();
    FormatParams prm;
    prm.slice_height = 3;
    prm.sort_window = 1;

    const auto c = construction(a, "sell", prm);

    const auto& p = step(c, "pad");
    CHECK(p.rows == 6);
    CHECK(p.row_source == std::vector<std::int32_t>{0, 1, 2, 3, -1, -1});
    CHECK(row_text(p, a, 4) == "P P .");  // slice 1 has width 2 (row 3 = [8 9])
    CHECK(p.padding ==
          static_cast<std::int64_t>(footprint(build<double>("sell", a, prm)).padding_entries));
}

TEST_CASE("Every step shows every nonzero once and the format's own padding count",
          "[viz][construction]")
{
    for (const auto& m : test::zoo()) {
        for (auto fmt : construction_formats()) {
            for (int br : {2, 4, 32}) {
                INFO(m.name << " " << fmt << " b_r=C=" << br);
                FormatParams prm;
                prm.block_rows = br;
                prm.slice_height = br;
                prm.sort_window = 2 * br;

                const auto sub = leading_submatrix(m.a, 400, 400);

                const auto c = construction(m.a, fmt, prm, 400, 400);

                CHECK(c.clipped == (m.a.num_rows > 400 || m.a.num_cols > 400));
                const auto fp = footprint(build<double>(fmt, sub, prm));
                for (const auto& s : c.steps) {
                    std::map<std::int64_t, int> seen;
                    std::int64_t pad = 0;
                    for (const auto& x : s.cells) {
                        if (x.kind == CellKind::nonzero) ++seen[x.nz];
                        if (x.kind == CellKind::padding) ++pad;
                    }
                    CHECK(static_cast<std::int64_t>(seen.size()) == nnz(sub));
                    for (const auto& [k, n] : seen) CHECK(n == 1);
                    if (s.name == "pad") CHECK(pad == fp.padding_entries);
                    if (s.stored >= 0) CHECK(s.padding == pad);
                }
            }
        }
    }
}

TEST_CASE("Large matrices are shown through their leading block", "[viz][construction]")
{
    const auto a = test::random_csr(500, 400, 1, 9, 5);

    const auto c = construction(a, "pjds", params_br(4), 16, 12);

    CHECK(c.clipped);
    CHECK(c.matrix_rows == 500);
    CHECK(c.steps.front().rows == 16);
    CHECK(c.steps.front().cols == 12);
    const auto sub = leading_submatrix(a, 16, 12);
    for (int r = 0; r < 16; ++r) {
        for (int k = sub.row_ptrs[r]; k < sub.row_ptrs[r + 1]; ++k) {
            CHECK(sub.col_idxs[k] < 12);
        }
    }
    CHECK_THROWS_AS(construction(a, "coo", {}), InvalidArgument);
}

TEST_CASE("Warp pictures of ELLPACK and pJDS show Kreutzer Fig. 2's boxes", "[viz][warps]")
{
    const auto a = test::canonical4();
    using K = SlotKind;

    const auto ell = warp_waste(build<double>("ell", a), 2);
    const auto pjds = warp_waste(build<double>("pjds", a, params_br(2)), 2);

    REQUIRE(ell.pictures.size() == 2);
    const auto& w0 = ell.pictures[0];
    CHECK(w0.columns == 3);
    CHECK(std::vector<K>(w0.kinds.begin(), w0.kinds.end()) ==
          std::vector<K>{K::useful, K::useful, K::useful, K::useful, K::idle_padding,
                         K::idle_padding});
    CHECK(ell.pictures[1].at(1, 2) == K::idle_padding);
    CHECK(ell.analysis.n_iter == 6);
    CHECK(ell.padding_bytes == 3 * 12);
    const auto& p1 = pjds.pictures[1];  // sorted rows 3 (len 2) and 1 (len 1)
    CHECK(p1.columns == 2);
    CHECK(p1.at(0, 1) == K::useful);
    CHECK(p1.at(1, 1) == K::idle_padding);
    CHECK(pjds.analysis.n_iter == 5);
    CHECK(pjds.idle_percent() == Approx(100.0 * 1 / 10));
}

TEST_CASE("ELLPACK-R leaves padding beyond a warp's longest row untouched", "[viz][warps]")
{
    // rows 0,1 short, row 2 long: with warp size 2 warp 0 runs 1 trip but stores width 3
    const auto a = test::canonical4();
    const auto w = warp_waste(build<double>("ellr", a), 4);
    // warp size 4: one warp, longest row 3 -> lane 1 (row 1) is idle on stored padding
    REQUIRE(w.pictures.size() == 1);
    CHECK(w.pictures[0].at(1, 1) == SlotKind::idle_padding);

    ThreadWork t;
    t.iterations = {1, 1};
    t.useful = {1, 1};
    t.stored = {3, 3};
    const auto v = warp_waste(t, 4);

    REQUIRE(v.pictures.size() == 1);
    const auto& p = v.pictures[0];
    CHECK(p.columns == 3);
    CHECK(p.at(0, 0) == SlotKind::useful);
    CHECK(p.at(0, 1) == SlotKind::padding);
    CHECK(p.at(2, 0) == SlotKind::phantom);
    CHECK(p.at(2, 1) == SlotKind::none);
}

TEST_CASE("Warp pictures add up to the analysis totals for every format", "[viz][warps]")
{
    FormatParams prm;
    prm.block_rows = 4;
    prm.slice_height = 4;
    prm.sort_window = 8;
    prm.warp_size = 4;
    for (const auto& m : test::zoo()) {
        for (const auto& f : formats()) {
            INFO(m.name << " " << f.name);
            const auto built = f.build_double(m.a, prm);

            const auto w = warp_waste(built, 4, 0, 1 << 20, 1 << 20);

            std::int64_t useful = 0, idle = 0, phantom = 0;
            for (const auto& p : w.pictures) {
                for (auto k : p.kinds) {
                    useful += k == SlotKind::useful;
                    idle += k == SlotKind::idle || k == SlotKind::idle_padding;
                    phantom += k == SlotKind::phantom;
                }
            }
            CHECK(w.pictures.size() == w.analysis.warps.size());
            CHECK(useful == w.analysis.useful);
            CHECK(idle == w.analysis.idle_slots);
            CHECK(phantom == w.analysis.phantom_slots);
        }
    }
}
