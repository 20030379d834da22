#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <random>

#include <catch2/catch.hpp>

#include <spmv/any_matrix.hpp>
#include <spmv/error.hpp>
#include <spmv/registry.hpp>
#include <spmv/viz/construction.hpp>
#include <spmv/viz/warp_grid.hpp>

#include <spmv/io/matrix_market.hpp>

#include "skip.hpp"
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
    CHECK_FALSE(c.windowed);
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

static ConstructionWindow everything()
{
    return {0, 1 << 20, 0, 1 << 20};
}

static FormatParams params_all(int n)
{
    FormatParams prm;
    prm.block_rows = n;
    prm.slice_height = n;
    prm.sort_window = 2 * n;
    prm.warp_size = n;
    prm.diag_pad = n;
    prm.pitch_bytes = 8 * n;
    return prm;
}

TEST_CASE("Every format has construction steps", "[viz][construction]")
{
    const auto names = construction_formats();
    for (const auto& f : formats()) {
        INFO(f.name);
        CHECK(std::find(names.begin(), names.end(), f.name) != names.end());
    }
}

TEST_CASE("Every step shows every nonzero once and the format's own padding count",
          "[viz][construction]")
{
    for (const auto& m : test::zoo()) {
        if (m.a.num_rows > 400) continue;  // walked through windows in the next test
        for (auto fmt : construction_formats()) {
            for (int n : {2, 4, 32}) {
                INFO(m.name << " " << fmt << " b_r=C=W=" << n);
                const auto prm = params_all(n);

                const auto c = construction(m.a, fmt, prm, everything());

                CHECK_FALSE(c.windowed);
                const auto fp = footprint(build<double>(fmt, m.a, prm));
                CHECK(c.steps.back().stored == fp.stored_entries);
                for (const auto& s : c.steps) {
                    INFO(s.name);
                    std::map<std::int64_t, int> seen;
                    std::int64_t pad = 0;
                    for (const auto& x : s.cells) {
                        if (x.kind == CellKind::nonzero) {
                            ++seen[x.nz];
                            CHECK(x.value == m.a.values[static_cast<std::size_t>(x.nz)]);
                        }
                        if (x.kind == CellKind::padding) ++pad;
                    }
                    CHECK(static_cast<std::int64_t>(seen.size()) == nnz(m.a));
                    for (const auto& [k, cnt] : seen) CHECK(cnt == 1);
                    if (s.stored >= 0) CHECK(s.padding == pad);
                    for (const auto& a : s.arrays) {
                        INFO(a.name);
                        if (a.key == ArrayKey::slot || a.key == ArrayKey::grid_row) {
                            CHECK(a.complete());
                        }
                    }
                }
                CHECK(c.steps.back().padding == fp.padding_entries);
            }
        }
    }
}

TEST_CASE("Walking a window over a matrix shows every nonzero of the last step once",
          "[viz][construction]")
{
    const auto a = test::random_csr(300, 20, 0, 9, 11);
    for (auto fmt : construction_formats()) {
        INFO(fmt);
        const auto prm = params_all(4);
        const auto src = prepare_construction(
            std::shared_ptr<const Csr<double, std::int32_t>>(
                std::shared_ptr<const Csr<double, std::int32_t>>{}, &a),
            fmt, prm);
        const auto full = construction(*src, everything());
        const auto& last = full.steps.back();
        std::map<std::int64_t, int> seen;

        for (std::int64_t first = 0; first < last.total_rows; first += 32) {
            const auto c = construction(*src, {first, 32, 0, 1 << 20});
            const auto& s = c.steps.back();
            REQUIRE(s.row_offset == first);
            CHECK(s.rows == std::min<std::int64_t>(32, s.total_rows - first));
            for (int r = 0; r < s.rows; ++r) {
                for (int col = 0; col < s.cols; ++col) {
                    const auto& x = s.at(r, col);
                    const auto& y = last.at(static_cast<int>(first) + r, col);
                    CHECK(x.kind == y.kind);
                    CHECK(x.slot == y.slot);
                    if (x.kind == CellKind::nonzero) ++seen[x.nz];
                }
            }
            // every array entry shown is the full array's entry at its index
            for (std::size_t i = 0; i < s.arrays.size(); ++i) {
                const auto& w = s.arrays[i];
                const auto& f = last.arrays[i];
                REQUIRE(w.name == f.name);
                CHECK(w.total == f.total);
                for (std::size_t p = 0; p < w.entries.size(); ++p) {
                    CHECK(w.entries[p] == f.entries[static_cast<std::size_t>(w.index[p])]);
                }
            }
        }

        CHECK(static_cast<std::int64_t>(seen.size()) == nnz(a));
        for (const auto& [k, n] : seen) CHECK(n == 1);
    }
}

TEST_CASE("A window of a large matrix reads the whole matrix's layout", "[viz][construction]")
{
    const auto a = test::random_csr(500, 400, 1, 9, 5);

    const auto c = construction(a, "pjds", params_br(4), {64, 16, 0, 12});
    const auto full = construction(a, "pjds", params_br(4), everything());

    CHECK(c.windowed);
    CHECK(c.matrix_rows == 500);
    CHECK(c.max_total_rows == 500);
    CHECK(c.max_total_cols == 400);
    const auto& m = step(c, "matrix");
    CHECK(m.rows == 16);
    CHECK(m.cols == 12);
    CHECK(m.window_label() == "rows 64\u201379 of 500, columns 0\u201311 of 400");
    // the padded step shows sorted positions whose labels are other rows: it says so
    const auto& sorted = step(c, "pad");
    bool moved = false;
    for (int k = 0; k < sorted.rows; ++k) {
        moved = moved || sorted.row_source[static_cast<std::size_t>(k)] != 64 + k;
    }
    REQUIRE(moved);
    CHECK(sorted.window_label().rfind("sorted positions 64\u2013", 0) == 0);
    // row_ptrs shows the pointers of rows 64..79: entries 64..80
    const auto& rp = array(m, "row_ptrs");
    CHECK(rp.index.front() == 64);
    CHECK(rp.index.back() == 80);
    CHECK(rp.entries.front() == a.row_ptrs[64]);
    const auto& p = step(c, "pad");
    const auto& fp = step(full, "pad");
    CHECK(p.row_source ==
          std::vector<std::int32_t>(fp.row_source.begin() + 64, fp.row_source.begin() + 80));
    CHECK(p.boundary_rows() == std::vector<int>{4, 8, 12});  // blocks of 4 from row 64
    // the selected cell's slot is found in the windowed values array at its full position
    const auto& vals = array(p, "values");
    const auto& x = p.at(5, 1);
    REQUIRE(x.kind == CellKind::nonzero);
    const auto rel = p.related_entries(vals, 5, 1);
    REQUIRE(rel.size() == 1);
    CHECK(vals.index[rel[0]] == x.slot);
    CHECK(vals.entries[rel[0]] == x.value);
    CHECK(x.slot == fp.at(69, 1).slot);
    // col_start: columns 0..11 and the end of column 11
    CHECK(array(p, "col_start").entries.size() == 10);  // width 9: all 10 entries
    // a window past the end shows the last rows
    const auto tail = construction(a, "pjds", params_br(4), {10000, 16, 0, 12});
    CHECK(step(tail, "pad").row_offset == 500 - 16);
    CHECK_THROWS_AS(construction(a, "nope", {}), InvalidArgument);
}

TEST_CASE("A layout beyond the memory limit is refused before it is built", "[viz][construction]")
{
    // one full row of 300 and one entry elsewhere: ELLPACK 300 x 300, pJDS (b_r + 1) N - b_r
    const auto a = test::one_full_row(300);
    const std::size_t limit = 200000;  // ELLPACK: 90000 * 12 = 1 080 000 bytes

    CHECK_THROWS_WITH(construction(a, "ell", {}, {}, limit),
                      Catch::Contains("would need 1.03 MiB") && Catch::Contains("not built"));

    const auto c = construction(a, "pjds", params_br(4), {}, limit);
    const auto& e = step(c, "compress");
    CHECK(e.stored == -1);  // no ELLPACK: the rows compressed left, nothing padded
    CHECK(e.caption.find("ELLPACK of this matrix would need") != std::string::npos);
    CHECK(step(c, "pad").stored == 5 * 300 - 4);
}

TEST_CASE("COO construction stores triplets in row order", "[viz][construction]")
{
    const auto a = test::canonical4();

    const auto c = construction(a, "coo", {});

    REQUIRE(c.steps.size() == 2);
    const auto& t = step(c, "triplets");
    CHECK(row_text(t, a, 1) == ". 4 . .");
    CHECK(array(t, "row_idxs").entries == std::vector<double>{0, 0, 0, 1, 2, 2, 2, 3, 3});
    CHECK(array(t, "col_idxs").entries == std::vector<double>{0, 2, 3, 1, 0, 2, 3, 1, 3});
    CHECK(array(t, "row_idxs").group_starts == std::vector<std::int64_t>{3, 4, 7});
    CHECK(t.at(3, 3).slot == 8);
    CHECK(t.related_entries(array(t, "row_idxs"), 1, 1) == std::vector<std::size_t>{3});
    CHECK(t.stored == 9);
    CHECK(t.padding == 0);
}

TEST_CASE("CSR construction compresses the rows and shows row_ptrs", "[viz][construction]")
{
    const auto a = test::canonical4();

    const auto c = construction(a, "csr", {});

    const auto& s = c.steps.back();
    CHECK(s.name == "compress");
    CHECK(s.cols == 3);
    CHECK(row_text(s, a, 0) == "1 2 3");
    CHECK(row_text(s, a, 1) == "4 . .");
    CHECK(row_text(s, a, 3) == "8 9 .");
    CHECK(array(s, "row_ptrs").entries == std::vector<double>{0, 3, 4, 7, 9});
    CHECK(s.at(2, 1).slot == 5);  // the 6: row_ptrs[2] + 1
    CHECK(s.related_entries(array(s, "row_ptrs"), 2, 1) == std::vector<std::size_t>{2, 3});
    CHECK(s.related_entries(array(s, "values"), 2, 1) == std::vector<std::size_t>{5});
}

TEST_CASE("CSC construction compresses the columns upward", "[viz][construction]")
{
    const auto a = test::canonical4();

    const auto c = construction(a, "csc", {});

    const auto& s = c.steps.back();
    CHECK(s.rows == 3);  // column 3 holds 3 entries
    CHECK(s.row_axis == "entry");
    CHECK(row_text(s, a, 0) == "1 4 2 3");
    CHECK(row_text(s, a, 1) == "5 8 6 7");
    CHECK(row_text(s, a, 2) == ". . . 9");
    CHECK(array(s, "col_ptrs").entries == std::vector<double>{0, 2, 4, 6, 9});
    CHECK(array(s, "row_idxs").entries == std::vector<double>{0, 2, 1, 3, 0, 2, 0, 2, 3});
    CHECK(array(s, "values").entries == std::vector<double>{1, 5, 4, 8, 2, 6, 3, 7, 9});
    CHECK(s.at(2, 3).row == 3);
    CHECK(s.related_entries(array(s, "col_ptrs"), 2, 3) == std::vector<std::size_t>{3, 4});
    CHECK(s.related_entries(array(s, "row_idxs"), 2, 3) == std::vector<std::size_t>{8});
    CHECK(s.window_label() == "entry rows 0\u20132 of 3, columns 0\u20133 of 4");
}

TEST_CASE("ELLG construction shows the rows of the pitch gap", "[viz][construction]")
{
    const auto a = test::canonical4();
    FormatParams prm;  // pitch 128 B, doubles and int32 indices: stride 32

    const auto c = construction(a, "ellg", prm);

    REQUIRE(c.steps.size() == 3);
    const auto& s = step(c, "pitch");
    CHECK(s.rows == 32);
    CHECK(s.cols == 3);
    CHECK(row_text(s, a, 1) == "4 P P");
    CHECK(row_text(s, a, 4) == "P P P");
    CHECK(s.row_source[4] == -1);
    CHECK(s.boundary_rows() == std::vector<int>{4});
    CHECK(s.stored == 96);
    CHECK(s.padding == 87);
    CHECK(s.at(3, 1).slot == 35);  // the 9: 1 * stride + 3
    CHECK(array(s, "values").entries[35] == 9.0);
    CHECK(array(s, "values").group_starts == std::vector<std::int64_t>{32, 64});
    CHECK(array(s, "row_lengths").entries == std::vector<double>{3, 1, 3, 2});
}

TEST_CASE("JDS construction stores the jagged diagonals", "[viz][construction]")
{
    const auto a = test::canonical4();

    const auto c = construction(a, "jds", {});

    REQUIRE(c.steps.size() == 4);
    CHECK(c.steps[1].stored == -1);  // compress: nothing stored
    const auto& s = step(c, "diagonals");
    CHECK(s.row_source == std::vector<std::int32_t>{0, 2, 3, 1});
    CHECK(row_text(s, a, 2) == "8 9 .");
    CHECK(row_text(s, a, 3) == "4 . .");
    CHECK(array(s, "jd_ptrs").entries == std::vector<double>{0, 4, 7, 9});
    CHECK(array(s, "values").entries == std::vector<double>{1, 5, 8, 4, 2, 6, 9, 3, 7});
    CHECK(s.at(2, 1).slot == 6);  // jd_ptrs[1] + 2
    CHECK(s.related_entries(array(s, "jd_ptrs"), 2, 1) == std::vector<std::size_t>{1});
    CHECK(s.padding == 0);
}

TEST_CASE("JDS CSR-like construction pads every diagonal", "[viz][construction]")
{
    const auto a = test::canonical4();
    FormatParams prm;
    prm.diag_pad = 4;

    const auto c4 = construction(a, "jds_csr", prm);
    prm.diag_pad = 16;
    const auto c16 = construction(a, "jds_csr", prm);

    const auto& s = step(c4, "diagonals");
    CHECK(s.rows == 4);
    CHECK(row_text(s, a, 2) == "8 9 P");
    CHECK(row_text(s, a, 3) == "4 P P");
    CHECK(array(s, "jd_ptrs").entries == std::vector<double>{0, 4, 8, 12});
    CHECK(array(s, "nz_count").entries == std::vector<double>{3, 3, 2, 1});
    CHECK(s.stored == 12);
    CHECK(s.padding == 3);
    const auto& t = step(c16, "diagonals");
    CHECK(t.rows == 16);  // diagonals of 16 slots reach past the 4 rows
    CHECK(row_text(t, a, 9) == "P P P");
    CHECK(t.stored == 48);
    CHECK(t.padding == 39);
}

TEST_CASE("BiELL construction shows the bisection groups", "[viz][construction]")
{
    const auto a = test::canonical4();
    FormatParams prm;
    prm.warp_size = 4;  // row_perm [0 2 3 1], widths [2 1 0], group_ptrs [0 8 12 12]

    const auto c = construction(a, "biell", prm);

    const auto& s = step(c, "groups");
    CHECK(s.row_source == std::vector<std::int32_t>{0, 2, 3, 1});
    CHECK(s.cols == 4);  // row 0: 2 slots in group 0 + 2 lanes x 1 in group 1
    CHECK(row_text(s, a, 0) == "1 2 3 P");
    CHECK(row_text(s, a, 1) == "5 6 7 P");
    CHECK(row_text(s, a, 2) == "8 9 . .");
    CHECK(row_text(s, a, 3) == "4 P . .");
    CHECK(s.at(0, 1).slot == 4);   // group 0: 0 + p + e*4
    CHECK(s.at(0, 2).slot == 8);   // group 1: 8 + p + e*2
    CHECK(s.at(1, 3).slot == 11);  // sorted row 1's second lane in group 1: padding
    CHECK(s.padding == 3);
    REQUIRE(s.column_marks.size() == 1);  // group 0 | group 1 for the rows p < 2
    CHECK(s.column_marks[0].first_row == 0);
    CHECK(s.column_marks[0].last_row == 2);
    CHECK(s.column_marks[0].col == 2);
    CHECK(array(s, "group_ptrs").entries == std::vector<double>{0, 8, 12, 12});
    CHECK(s.related_entries(array(s, "group_ptrs"), 0, 2) == std::vector<std::size_t>{1});
    CHECK(s.related_entries(array(s, "group_ptrs"), 3, 0) == std::vector<std::size_t>{0});
}

TEST_CASE("BiJAD construction bisects warps of globally sorted rows", "[viz][construction]")
{
    const auto a = test::canonical4();
    FormatParams prm;
    prm.warp_size = 2;  // group_ptrs [0 6 6 8 10]

    const auto c = construction(a, "bijad", prm);

    const auto& s = step(c, "groups");
    CHECK(s.cols == 3);
    CHECK(row_text(s, a, 0) == "1 2 3");
    CHECK(row_text(s, a, 2) == "8 9 P");  // row 3: group 0 slot 6, group 1 slots 8 and 9
    CHECK(row_text(s, a, 3) == "4 . .");
    CHECK(s.at(2, 1).slot == 8);
    CHECK(s.boundary_rows() == std::vector<int>{2});
    REQUIRE(s.column_marks.size() == 1);
    CHECK(s.column_marks[0].first_row == 2);
    CHECK(s.column_marks[0].last_row == 3);
    CHECK(s.column_marks[0].col == 1);
    CHECK(array(s, "values").entries == std::vector<double>{1, 5, 2, 6, 3, 7, 8, 4, 9, 0});
}

TEST_CASE("HYB construction splits rows into an ELL part and a COO tail", "[viz][construction]")
{
    const auto a = test::canonical4();
    FormatParams prm;
    prm.hyb_width = 2;

    const auto c = construction(a, "hyb", prm);

    CHECK(c.title == "HYB (K = 2)");
    const auto& s = step(c, "split");
    CHECK(row_text(s, a, 0) == "1 2 3");
    CHECK(row_text(s, a, 1) == "4 P .");
    CHECK(s.at(0, 2).part == 1);  // the 3 is COO entry 0
    CHECK(s.at(0, 2).slot == 0);
    CHECK(s.at(2, 2).slot == 1);
    CHECK(s.at(1, 1).slot == 5);  // ELL padding slot 1 * stride + 1
    CHECK(s.stored == 10);
    CHECK(s.padding == 1);
    REQUIRE(s.column_marks.size() == 1);
    CHECK(s.column_marks[0].col == 2);
    CHECK(array(s, "ell_values").entries == std::vector<double>{1, 4, 5, 8, 2, 0, 6, 9});
    CHECK(array(s, "coo_values").entries == std::vector<double>{3, 7});
    CHECK(array(s, "coo_row_idxs").entries == std::vector<double>{0, 2});
    CHECK(s.related_entries(array(s, "coo_values"), 2, 2) == std::vector<std::size_t>{1});
    CHECK(s.related_entries(array(s, "ell_values"), 2, 2).empty());
    CHECK(s.related_entries(array(s, "ell_values"), 2, 1) == std::vector<std::size_t>{6});
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

// ------------------------------------------------ windows that follow the entries and a nonzero

namespace {

std::int64_t nonzero_cells(const ConstructionStep& s)
{
    return std::count_if(s.cells.begin(), s.cells.end(),
                         [](const Cell& x) { return x.kind == CellKind::nonzero; });
}

/// rows 0..69 empty, row r >= 70 holds one entry in column 80 + r % 20 (value r)
Csr<double, std::int32_t> bottom_right_corner()
{
    Csr<double, std::int32_t> a;
    a.num_rows = a.num_cols = 100;
    a.row_ptrs.assign(1, 0);
    for (int r = 0; r < 100; ++r) {
        if (r >= 70) {
            a.col_idxs.push_back(80 + r % 20);
            a.values.push_back(r);
        }
        a.row_ptrs.push_back(static_cast<std::int32_t>(a.col_idxs.size()));
    }
    return a;
}

}  // namespace

TEST_CASE("A following window opens where the entries are, in every step", "[viz][construction]")
{
    const auto a = bottom_right_corner();

    const auto plain = construction(a, "ell", FormatParams{});
    const auto c = construction(a, "ell", FormatParams{}, ConstructionWindow::following());

    // the top-left 64 x 64 corner holds nothing
    CHECK(nonzero_cells(step(plain, "matrix")) == 0);
    const auto& m = step(c, "matrix");
    // rows from 70 and columns from 80 on, moved back to show 64 of the 100: 36..99
    CHECK(m.row_offset == 36);
    CHECK(m.col_offset == 36);
    CHECK(m.rows == 64);
    CHECK(m.cols == 64);
    CHECK(nonzero_cells(m) == 30);  // all of them
    // ELLPACK (width 1): rows follow the entries too, its single column stays column 0
    const auto& e = step(c, "compress");
    CHECK(e.row_offset == 36);
    CHECK(e.col_offset == 0);
    CHECK(nonzero_cells(e) == 30);
    // a matrix that fits the window is shown whole, as before
    const auto small = construction(test::canonical4(), "pjds", params_br(2),
                                    ConstructionWindow::following());
    for (const auto& s : small.steps) {
        CHECK(s.row_offset == 0);
        CHECK(s.col_offset == 0);
    }
}

TEST_CASE("A focused nonzero is in view in every step of every format", "[viz][construction]")
{
    const auto a = test::random_csr(700, 500, 0, 14, 23);
    const auto prm = params_all(4);
    for (auto fmt : construction_formats()) {
        const auto src = prepare_construction(
            std::shared_ptr<const Csr<double, std::int32_t>>(
                std::shared_ptr<const Csr<double, std::int32_t>>{}, &a),
            fmt, prm);
        for (std::int64_t nz : {std::int64_t{0}, nnz(a) / 2, nnz(a) - 1}) {
            INFO(fmt << ", nonzero " << nz);
            auto w = ConstructionWindow::following(32, 16);
            w.focus = nz;

            const auto c = construction(*src, w);

            for (const auto& s : c.steps) {
                INFO(s.name << ": " << s.window_label());
                const auto pos = s.find_nonzero(nz);
                REQUIRE(pos);
                CHECK(s.at(pos->first, pos->second).value ==
                      a.values[static_cast<std::size_t>(nz)]);
            }
        }
    }
}

TEST_CASE("bayer10's SELL and pJDS constructions open on windows that show entries",
          "[viz][construction]")
{
    const auto path = std::filesystem::path(SPMV_SHARED_MATRICES) / "bayer10.mtx";
    if (!std::filesystem::exists(path)) {
        SPMV_SKIP(path.string() << " not found (no shared matrices beside the clone)");
    }
    const auto a = io::read_matrix_market(path);
    REQUIRE(a.num_rows == 13436);
    // the columns of rows 0..63, found here without the engine: column 13,317 of the file's
    // 1-based numbering, 13,316 here
    std::int32_t first_col = a.num_cols;
    for (std::int32_t r = 0; r < 64; ++r) {
        if (a.row_ptrs[r] < a.row_ptrs[r + 1]) first_col = std::min(first_col, a.col_idxs[a.row_ptrs[r]]);
    }
    REQUIRE(first_col >= 13316);
    FormatParams prm;  // the explorer's for a large matrix: warp 32, b_r 32, C 32
    for (int sigma : {1, 0}) {  // sigma = 1 and sigma chosen for the matrix
        prm.sort_window = sigma;
        for (const char* fmt : {"sell", "pjds"}) {
            INFO(fmt << " sigma " << sigma);

            const auto before = construction(a, fmt, prm);  // the corner: what it opened on
            const auto c = construction(a, fmt, prm, ConstructionWindow::following());

            CHECK(nonzero_cells(before.steps.front()) == 0);
            const auto& m = c.steps.front();
            CHECK(m.row_offset == 0);
            CHECK(m.col_offset == first_col);
            for (const auto& s : c.steps) {
                INFO(s.name << ": " << s.window_label());
                CHECK(nonzero_cells(s) > 0);
            }
            // and a nonzero of row 5 stays in view while it moves through the arrays
            auto w = ConstructionWindow::following();
            w.focus = a.row_ptrs[5] + 1;
            const auto f = construction(a, fmt, prm, w);
            for (const auto& s : f.steps) {
                INFO(s.name << ": " << s.window_label());
                CHECK(s.find_nonzero(w.focus));
            }
        }
    }
}

// ------------------------------------------------------------------ values written in cells

TEST_CASE("Values are written in full or cut with an ellipsis, by one rule", "[viz][construction]")
{
    const std::string e = "\u2026";
    // in full where they fit
    CHECK(cell_value_text(0, 4) == "0");
    CHECK(cell_value_text(117, 4) == "117");
    CHECK(cell_value_text(-1.4, 4) == "-1.4");
    CHECK(cell_value_text(0.01, 4) == "0.01");
    CHECK(cell_value_text(1.5e-7, 6) == "1.5e-7");
    CHECK(cell_value_text(1e20, 4) == "1e20");
    CHECK(cell_value_text(123456, 6) == "123456");
    // cut, never rounded: bayer10's -564.2036607119013, 4.745108542571984, 1.221712296762661
    CHECK(cell_value_text(-564.2036607119013, 7) == "-564.2" + e);
    CHECK(cell_value_text(-564.2036607119013, 5) == "-564" + e);  // integer part complete
    CHECK(cell_value_text(-564.2036607119013, 4) == e);  // "-5…e2" needs 5
    CHECK(cell_value_text(4.745108542571984, 4) == "4.7" + e);
    CHECK(cell_value_text(1.221712296762661, 5) == "1.22" + e);
    CHECK(cell_value_text(2.999, 4) == "2.9" + e);  // rounded would read "3.0"
    CHECK(cell_value_text(2.999, 3) == "2" + e);
    CHECK(cell_value_text(-0.0123, 6) == "-0.01" + e);  // tie with "-1…e-2": fixed
    // scientific where it keeps more digits
    CHECK(cell_value_text(123456, 5) == "1" + e + "e5");
    CHECK(cell_value_text(1234567, 6) == "1.2" + e + "e6");
    CHECK(cell_value_text(1.2345e-7, 6) == "1" + e + "e-7");
    CHECK(cell_value_text(1.2345e-7, 7) == "1.2" + e + "e-7");
    // nothing fits
    CHECK(cell_value_text(-2.5, 1) == e);
    CHECK(cell_value_text(2.5, 0).empty());
    // the full value for a tooltip, and characters as read
    CHECK(full_value_text(-564.2036607119013) == "-564.2036607119013");
    CHECK(full_value_text(0.1) == "0.1");
    CHECK(full_value_text(1e-20) == "1e-20");
    CHECK(text_chars("-564.2" + e) == 7);

    // any value, any width: never wider than the cell; without "…" it reads back exactly;
    // with it, what is left is the value's leading digits (same sign, at most the value, more
    // than a tenth of it)
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> mant(-10.0, 10.0);
    std::uniform_int_distribution<int> ex(-12, 12);
    for (int i = 0; i < 2000; ++i) {
        const double v = mant(rng) * std::pow(10.0, ex(rng));
        for (int width = 3; width <= 12; ++width) {
            const auto t = cell_value_text(v, width);
            INFO(full_value_text(v) << " in " << width << ": " << t);
            CHECK(text_chars(t) <= width);
            const auto cut = t.find(e);
            if (cut == std::string::npos) {
                CHECK(std::strtod(t.c_str(), nullptr) == v);
            } else if (t != e) {
                const auto kept = t.substr(0, cut) + t.substr(cut + e.size());
                const double p = std::strtod(kept.c_str(), nullptr);
                CHECK(std::signbit(p) == std::signbit(v));
                CHECK(std::abs(p) <= std::abs(v));
                CHECK(std::abs(p) > std::abs(v) / 10);
            }
        }
    }
}
