// The coalescing model (spmv::viz::AccessModel): hand-checked addresses and sector counts of
// the CSR scalar / vector, ELLPACK, ELLPACK-R, SELL-C-σ and pJDS kernels' loads.
#include <algorithm>
#include <atomic>
#include <numeric>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/error.hpp>
#include <spmv/viz/coalescing.hpp>

#include "test_matrices.hpp"

using namespace spmv;
using viz::AccessedArray;
using viz::AccessKernel;
using viz::AccessModel;

namespace {

using Matrix = Csr<double, std::int32_t>;

/// rows x cols, row i holding the columns cols_of(i) (ascending), values 1.
template <typename F>
Matrix matrix_of(std::int32_t rows, std::int32_t cols, F cols_of)
{
    Matrix a;
    a.num_rows = rows;
    a.num_cols = cols;
    for (std::int32_t i = 0; i < rows; ++i) {
        for (const std::int32_t c : cols_of(i)) {
            a.col_idxs.push_back(c);
            a.values.push_back(1.0);
        }
        a.row_ptrs.push_back(static_cast<std::int32_t>(a.col_idxs.size()));
    }
    return a;
}

/// 32 rows of 16 entries: row i holds columns i .. i+15 (a band 16 wide, 47 columns).
Matrix band16()
{
    return matrix_of(32, 47, [](std::int32_t i) {
        std::vector<std::int32_t> c(16);
        std::iota(c.begin(), c.end(), i);
        return c;
    });
}

FormatParams warp_of(int w)
{
    FormatParams p;
    p.warp_size = w;
    return p;
}

const viz::ArrayReads& load(const viz::WarpTrip& t, const std::string& label_start)
{
    for (const auto& a : t.arrays) {
        if (a.label.rfind(label_start, 0) == 0) return a;
    }
    FAIL("no load labelled " << label_start);
    throw;  // unreachable: FAIL throws
}

std::vector<std::int64_t> offsets(const viz::ArrayReads& a)
{
    std::vector<std::int64_t> o;
    for (const auto& r : a.reads) o.push_back(r.offset);
    return o;
}

using V = std::vector<std::int64_t>;

}  // namespace

TEST_CASE("CSR scalar on the canonical 4x4: lanes read slots row_ptrs[row] + t", "[coalescing]")
{
    const AccessModel m(test::canonical4(), AccessKernel::csr_scalar, warp_of(4));

    const auto t0 = m.warp_trip(0, 0, 8);
    const auto t1 = m.warp_trip(0, 1, 8);

    REQUIRE(m.warps() == 1);
    CHECK(t0.trips == 3);
    CHECK(t0.lane_rows == V{0, 1, 2, 3});
    // before the loop: row_ptrs[row + 1] then row_ptrs[row], 4 bytes each
    CHECK(offsets(load(t0, "row_ptrs[row + 1]")) == V{4, 8, 12, 16});
    CHECK(offsets(load(t0, "row_ptrs[row]")) == V{0, 4, 8, 12});
    CHECK(load(t0, "row_ptrs[row]").array == "row_ptrs");
    const auto& values = load(t0, "values");
    CHECK(offsets(values) == V{0, 24, 32, 56});  // slots 0, 3, 4, 7
    CHECK(values.sectors == V{0, 1});
    CHECK(values.ideal_sectors == 1);
    CHECK(offsets(load(t0, "col_idxs")) == V{0, 12, 16, 28});
    CHECK(load(t0, "col_idxs").sectors == V{0});
    CHECK(offsets(load(t0, "x")) == V{0, 8, 0, 8});  // columns 0, 1, 0, 1
    CHECK(load(t0, "x").requested_bytes == 16);      // x[0] and x[1], each once
    CHECK(t0.active_lanes == 4);
    // trip 1: row 1 (length 1) is done; no loads before the loop any more
    CHECK(t1.active_lanes == 3);
    CHECK(t1.sectors(AccessedArray::row_info) == 0);
    CHECK(offsets(load(t1, "values")) == V{8, 40, 64});  // slots 1, 5, 8
    CHECK(load(t1, "values").reads[1].lane == 2);
    CHECK(t1.sectors(AccessedArray::values) == 3);
    CHECK(t1.ideal_sectors(AccessedArray::values) == 1);
}

TEST_CASE("CSR scalar on long rows touches one sector per lane, ELLPACK coalesces", "[coalescing]")
{
    const auto a = band16();
    const AccessModel csr(a, AccessKernel::csr_scalar, warp_of(32));
    const AccessModel ell(a, AccessKernel::ell, warp_of(32));

    const auto c = csr.warp_trip(0, 0, 8);
    const auto e = ell.warp_trip(0, 0, 8);
    const auto ef = ell.warp_trip(0, 0, 4);

    // CSR scalar: lane l reads slot 16 l (128 bytes apart): 32 sectors where 8 would do
    CHECK(c.sectors(AccessedArray::values) == 32);
    CHECK(c.ideal_sectors(AccessedArray::values) == 8);
    CHECK(c.sectors(AccessedArray::col_idxs) == 32);
    CHECK(c.ideal_sectors(AccessedArray::col_idxs) == 4);
    // ELLPACK column-major: slot t * 32 + l, 32 consecutive doubles = ceil(32*8/32) = 8 sectors
    CHECK(e.sectors(AccessedArray::values) == 8);
    CHECK(e.ideal_sectors(AccessedArray::values) == 8);
    CHECK(load(e, "values").sectors == V{0, 1, 2, 3, 4, 5, 6, 7});
    CHECK(e.sectors(AccessedArray::col_idxs) == 4);
    CHECK(e.sectors(AccessedArray::row_info) == 0);  // ELLPACK reads no row information
    // float halves the value (and x) sectors; the indices stay 4 bytes
    CHECK(ef.sectors(AccessedArray::values) == 4);
    CHECK(ef.sectors(AccessedArray::col_idxs) == 4);
    CHECK(ef.sectors(AccessedArray::x) == 4);
    CHECK(e.trips == 16);
    CHECK(c.trips == 16);
}

TEST_CASE("Idle lanes of a short last warp issue no loads", "[coalescing]")
{
    // 20 rows of one entry (the diagonal): one warp of 32 lanes, 12 without a row
    const auto a = matrix_of(20, 20, [](std::int32_t i) { return std::vector<std::int32_t>{i}; });
    const AccessModel ell(a, AccessKernel::ell, warp_of(32));

    const auto t = ell.warp_trip(0, 0, 8);

    CHECK(t.active_lanes == 20);
    CHECK(t.useful_lanes == 20);
    CHECK(t.lane_rows[19] == 19);
    CHECK(t.lane_rows[20] == -1);
    CHECK(t.lane_rows[31] == -1);
    CHECK(load(t, "values").reads.size() == 20);
    CHECK(t.sectors(AccessedArray::values) == 5);    // 160 bytes
    CHECK(t.sectors(AccessedArray::col_idxs) == 3);  // 80 bytes
}

TEST_CASE("A banded matrix gathers x from few sectors, random columns from one sector per lane",
          "[coalescing]")
{
    // tridiagonal 32 x 32: ELLPACK trip 0 reads x[i - 1] (x[0] for row 0): 31 doubles, 8 sectors
    const auto band = matrix_of(32, 32, [](std::int32_t i) {
        std::vector<std::int32_t> c;
        for (std::int32_t j = std::max(0, i - 1); j <= std::min(31, i + 1); ++j) c.push_back(j);
        return c;
    });
    // one entry per row in column 64 i: every x read lands in its own sector
    const auto scattered =
        matrix_of(32, 32 * 64, [](std::int32_t i) { return std::vector<std::int32_t>{64 * i}; });

    const auto b = AccessModel(band, AccessKernel::ell, warp_of(32)).warp_trip(0, 0, 8);
    const auto s = AccessModel(scattered, AccessKernel::ell, warp_of(32)).warp_trip(0, 0, 8);

    CHECK(load(b, "x").requested_bytes == 31 * 8);
    CHECK(b.sectors(AccessedArray::x) == 8);
    CHECK(s.sectors(AccessedArray::x) == 32);
    CHECK(s.ideal_sectors(AccessedArray::x) == 8);
    // the matrix arrays are coalesced in both
    CHECK(s.sectors(AccessedArray::values) == 8);
}

TEST_CASE("ELLPACK loads the padding but skips its x gather, ELLPACK-R stops at the row length",
          "[coalescing]")
{
    // canonical 4x4, warp 4, trip 1: slots 4..7, slot 5 (row 1) is padding
    const AccessModel ell(test::canonical4(), AccessKernel::ell, warp_of(4));
    const AccessModel ellr(test::canonical4(), AccessKernel::ellr, warp_of(4));

    const auto e = ell.warp_trip(0, 1, 8);
    const auto r0 = ellr.warp_trip(0, 0, 8);
    const auto r1 = ellr.warp_trip(0, 1, 8);

    CHECK(offsets(load(e, "values")) == V{32, 40, 48, 56});
    CHECK(load(e, "values").reads[1].padding);
    CHECK(e.active_lanes == 4);
    CHECK(e.useful_lanes == 3);
    CHECK(offsets(load(e, "x")) == V{16, 16, 24});  // columns 2, 2, 3
    CHECK(load(e, "x").reads[1].lane == 2);
    // ELLPACK-R: row_lengths[row] before the loop; lane 1 (length 1) idle on trip 1
    CHECK(offsets(load(r0, "row_lengths")) == V{0, 4, 8, 12});
    CHECK(r1.active_lanes == 3);
    CHECK(offsets(load(r1, "values")) == V{32, 48, 56});
    CHECK(r1.trips == 3);
}

TEST_CASE("CSR vector: the lanes of a sub-warp stride one row", "[coalescing]")
{
    // one row of 64 entries; the kernel's choice for a mean of 64 is 32 threads per row
    const auto a = matrix_of(1, 64, [](std::int32_t) {
        std::vector<std::int32_t> c(64);
        std::iota(c.begin(), c.end(), 0);
        return c;
    });
    const AccessModel v(a, AccessKernel::csr_vector, warp_of(32));
    const AccessModel v4(a, AccessKernel::csr_vector, warp_of(32), {}, 4);

    const auto t1 = v.warp_trip(0, 1, 8);

    CHECK(v.threads_per_row() == 32);
    CHECK(v.warps() == 1);
    CHECK(v.trips(0) == 2);
    CHECK(load(t1, "values").reads.front().offset == 32 * 8);  // slot 32 = lane 0 + 1 * 32
    CHECK(t1.sectors(AccessedArray::values) == 8);
    // every lane of the row reads the same row pointer: one sector, 4 requested bytes
    const auto t0 = v.warp_trip(0, 0, 8);
    CHECK(load(t0, "row_ptrs[row]").reads.size() == 32);
    CHECK(load(t0, "row_ptrs[row]").sectors == V{0});
    CHECK(load(t0, "row_ptrs[row]").requested_bytes == 4);
    // 4 lanes per row: a warp of 32 holds the row's 4 lanes and 28 lanes past the last row
    CHECK(v4.warps() == 1);
    CHECK(v4.trips(0) == 16);
    CHECK(v4.warp_trip(0, 3, 8).active_lanes == 4);
    CHECK(offsets(load(v4.warp_trip(0, 3, 8), "values")) == V{96, 104, 112, 120});
    // the kernel's heuristic (kernels/include/spmv/gpu/csr.hpp): power of two >= mean / 2
    CHECK(csr_vector_threads_per_row(6.9) == 4);
    CHECK(csr_vector_threads_per_row(1.0) == 2);
    CHECK(csr_vector_threads_per_row(16.0) == 8);
    CHECK(csr_vector_threads_per_row(128.0) == 32);
    // a teaching warp of 4 caps the sub-warp
    CHECK(AccessModel(a, AccessKernel::csr_vector, warp_of(4)).threads_per_row() == 4);
}

TEST_CASE("SELL-C-σ and pJDS read through their slice and column offsets", "[coalescing]")
{
    // SELL-2-4 of the canonical 4x4 (sell.hpp): row_perm [0 2 3 1], slice_ptrs [0 6 10],
    // slot (row r of slice s, column j) = slice_ptrs[s] + 2 j + r
    FormatParams p = warp_of(4);
    p.slice_height = 2;
    p.sort_window = 4;
    const AccessModel sell(test::canonical4(), AccessKernel::sell, p);
    FormatParams q = warp_of(4);
    q.block_rows = 2;
    const AccessModel pjds(test::canonical4(), AccessKernel::pjds, q);

    const auto s0 = sell.warp_trip(0, 0, 8);
    const auto s2 = sell.warp_trip(0, 2, 8);
    const auto p0 = pjds.warp_trip(0, 0, 8);
    const auto p2 = pjds.warp_trip(0, 2, 8);

    CHECK(s0.lane_rows == V{0, 2, 3, 1});
    CHECK(offsets(load(s0, "row_perm")) == V{0, 4, 8, 12});
    CHECK(offsets(load(s0, "slice_widths")) == V{0, 0, 4, 4});
    CHECK(offsets(load(s0, "slice_ptrs")) == V{0, 0, 4, 4});
    CHECK(offsets(load(s0, "values")) == V{0, 8, 48, 56});  // slots 0, 1, 6, 7
    // trip 2: slice 1 has width 2, its lanes are done
    CHECK(s2.trips == 3);
    CHECK(offsets(load(s2, "values")) == V{32, 40});  // slots 4, 5
    // pJDS b_r = 2: row_lengths [3 3 2 1], col_start [0 4 8 10]: trip 2 reads slots 8, 9
    CHECK(p0.lane_rows == V{0, 2, 3, 1});
    CHECK(offsets(load(p0, "row_lengths")) == V{0, 4, 8, 12});
    CHECK(offsets(load(p0, "values")) == V{0, 8, 16, 24});
    CHECK(offsets(load(p2, "values")) == V{64, 72});
    CHECK(p2.active_lanes == 2);
    // σ = 1 keeps the rows in place: the kernel loads no permutation
    FormatParams unsorted = p;
    unsorted.sort_window = 1;
    const auto u = AccessModel(test::canonical4(), AccessKernel::sell, unsorted).warp_trip(0, 0, 8);
    for (const auto& a : u.arrays) CHECK(a.array != "row_perm");
}

TEST_CASE("Warps and trips out of range are refused with the valid range", "[coalescing]")
{
    const AccessModel m(test::canonical4(), AccessKernel::ell, warp_of(2));
    const AccessModel empty(Matrix{}, AccessKernel::csr_scalar, warp_of(32));

    CHECK(m.warps() == 2);
    CHECK_THROWS_WITH(m.warp_trip(2, 0, 8),
                      Catch::Contains("warp 2 is out of range") && Catch::Contains("warps 0..1"));
    CHECK_THROWS_AS(m.warp_trip(-1, 0, 8), InvalidArgument);
    CHECK_THROWS_WITH(m.warp_trip(0, 3, 8),
                      Catch::Contains("trip 3 is out of range") && Catch::Contains("trips 0..2"));
    CHECK_THROWS_AS(m.warp_trip(0, -1, 8), InvalidArgument);
    CHECK_THROWS_WITH(m.warp_trip(0, 0, 6), Catch::Contains("8 (double) or 4 (float)"));
    CHECK(empty.warps() == 0);
    CHECK_THROWS_WITH(empty.warp_trip(0, 0, 8), Catch::Contains("without rows"));
    CHECK(empty.totals(8).sectors_per_nonzero() == 0.0);
    CHECK_THROWS_AS(AccessModel(test::canonical4(), AccessKernel::ell, warp_of(0)),
                    InvalidArgument);
    CHECK_THROWS_AS(AccessModel(test::canonical4(), AccessKernel::csr_vector, warp_of(4), {}, 8),
                    InvalidArgument);
    CHECK_THROWS_WITH(viz::find_access_kernel("coo"), Catch::Contains("csr_scalar"));
}

TEST_CASE("A warp whose rows are all empty has only its loads before the loop", "[coalescing]")
{
    // rows 0..3 empty, row 4 has one entry; warp size 4: warp 0 runs no trip
    const auto a = matrix_of(5, 5, [](std::int32_t i) {
        return i == 4 ? std::vector<std::int32_t>{0} : std::vector<std::int32_t>{};
    });
    const AccessModel m(a, AccessKernel::csr_scalar, warp_of(4));

    const auto t = m.warp_trip(0, 0, 8);

    CHECK(t.trips == 0);
    CHECK(t.active_lanes == 0);
    CHECK(t.sectors(AccessedArray::values) == 0);
    CHECK(t.sectors(AccessedArray::row_info) == 2);  // row_ptrs[row + 1] and row_ptrs[row]
    CHECK_THROWS_AS(m.warp_trip(0, 1, 8), InvalidArgument);
}

TEST_CASE("Sectors per nonzero of the whole matrix: CSR scalar 2.27, ELLPACK 0.65", "[coalescing]")
{
    // band16: 32 rows of 16, one warp, 16 trips. CSR scalar: values and indices one sector per
    // lane per trip (32 * 16 each); ELLPACK: 8 + 4 per trip. x on trip t: x[t .. t + 31],
    // bytes 8t .. 8t + 255: 8, 9, 9, 9 sectors for t = 0, 1, 2, 3 (mod 4), 140 in all.
    const auto a = band16();

    const auto csr = viz::sector_totals(a, AccessKernel::csr_scalar, warp_of(32), 8);
    const auto ell = viz::sector_totals(a, AccessKernel::ell, warp_of(32), 8);

    CHECK(csr.values == 512);
    CHECK(csr.col_idxs == 512);
    CHECK(csr.x == 140);
    CHECK(csr.row_info == 9);  // row_ptrs[1..32]: bytes 4..131, 5 sectors; [0..31]: 4
    CHECK(csr.sectors_per_nonzero() == Approx(1164.0 / 512.0));
    CHECK(ell.values == 128);
    CHECK(ell.col_idxs == 64);
    CHECK(ell.x == 140);
    CHECK(ell.sectors_per_nonzero() == Approx(332.0 / 512.0));
    CHECK(ell.trips == 16);
    CHECK(ell.complete);
}

TEST_CASE("The whole-matrix sums equal the per-trip sectors of every warp", "[coalescing]")
{
    const auto a = test::random_csr(150, 90, 0, 12, 7);
    FormatParams p = warp_of(32);
    p.slice_height = 8;
    p.sort_window = 32;
    p.block_rows = 32;
    for (const auto& info : viz::access_kernels()) {
        for (const int bytes : {8, 4}) {
            DYNAMIC_SECTION(info.name << " with " << bytes << "-byte values")
            {
                const AccessModel m(a, info.kernel, p);
                std::int64_t values = 0, cols = 0, x = 0, row_info = 0, ideal = 0, trips = 0;
                for (std::int64_t w = 0; w < m.warps(); ++w) {
                    trips += m.trips(w);
                    for (std::int64_t t = 0; t < std::max<std::int64_t>(m.trips(w), 1); ++t) {
                        const auto wt = m.warp_trip(w, t, bytes);
                        values += wt.sectors(AccessedArray::values);
                        cols += wt.sectors(AccessedArray::col_idxs);
                        x += wt.sectors(AccessedArray::x);
                        row_info += wt.sectors(AccessedArray::row_info);
                        ideal += wt.ideal_sectors(AccessedArray::values) +
                                 wt.ideal_sectors(AccessedArray::col_idxs) +
                                 wt.ideal_sectors(AccessedArray::x);
                    }
                }

                const auto s = m.totals(bytes);

                CHECK(s.values == values);
                CHECK(s.col_idxs == cols);
                CHECK(s.x == x);
                CHECK(s.row_info == row_info);
                CHECK(s.ideal == ideal);
                CHECK(s.trips == trips);
                CHECK(s.nnz == nnz(a));
                CHECK(s.sectors_per_nonzero() >= s.ideal_per_nonzero());
            }
        }
    }
}

TEST_CASE(
    "The coalescing model refuses a layout over the memory budget, and stops when "
    "cancelled",
    "[coalescing]")
{
    // one full row of 2000 and the diagonal: ELLPACK stores 2000 x 2000 slots (48 MB)
    const auto a = test::one_full_row(2000);
    MemoryBudget small;
    small.bytes = 1 << 20;
    std::atomic<bool> cancel{true};

    CHECK_THROWS_AS(AccessModel(a, AccessKernel::ell, warp_of(32), small), MemoryLimitExceeded);
    CHECK_NOTHROW(AccessModel(a, AccessKernel::pjds, warp_of(32), small));
    const auto s = AccessModel(a, AccessKernel::csr_scalar, warp_of(32)).totals(8, &cancel);
    CHECK_FALSE(s.complete);
}

TEST_CASE("Strip runs bridge small gaps between touched sectors", "[coalescing]")
{
    const std::vector<std::int64_t> sectors{3, 4, 6, 40};

    const auto runs = viz::strip_runs(sectors, 1);
    const auto tight = viz::strip_runs(sectors, 0);

    REQUIRE(runs.size() == 2);
    CHECK(runs[0].first_sector == 3);
    CHECK(runs[0].sectors == 4);  // 3, 4, (5), 6
    CHECK(runs[1].first_sector == 40);
    CHECK(runs[1].sectors == 1);
    CHECK(tight.size() == 3);
    CHECK(viz::strip_runs({}, 2).empty());
    CHECK_THROWS_AS(viz::strip_runs(sectors, -1), InvalidArgument);
}
