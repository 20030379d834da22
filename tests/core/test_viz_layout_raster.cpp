// The whole-matrix storage layout raster (spmv::viz::layout_raster) on hand-checked layouts and
// against the built formats' own padding counts.
#include <numeric>

#include <catch2/catch.hpp>

#include <spmv/any_matrix.hpp>
#include <spmv/error.hpp>
#include <spmv/registry.hpp>
#include <spmv/viz/colour.hpp>
#include <spmv/viz/layout_raster.hpp>

#include "test_matrices.hpp"

using namespace spmv;
using namespace spmv::viz;

namespace {

ThreadWork work_of(std::vector<std::int64_t> useful, std::vector<std::int64_t> stored)
{
    ThreadWork w;
    w.iterations = stored;
    w.useful = std::move(useful);
    w.stored = std::move(stored);
    return w;
}

}  // namespace

TEST_CASE("layout_raster: one pixel per cell shows every slot of ELLPACK's canonical 4x4",
          "[viz][layout_raster]")
{
    const auto r = layout_raster(work_of({3, 1, 3, 2}, {3, 3, 3, 3}), 3, 4);
    CHECK(r.threads == 4);
    CHECK(r.slot_columns == 3);
    CHECK(r.useful_total == 9);
    CHECK(r.stored_total == 12);
    // thread 1: [useful, padding, padding]; thread 3: [useful, useful, padding]
    CHECK(r.useful[3] == 1.0F);
    CHECK(r.padding[4] == 1.0F);
    CHECK(r.padding[5] == 1.0F);
    CHECK(r.useful[10] == 1.0F);
    CHECK(r.padding[11] == 1.0F);
    const auto px = to_argb(r);
    CHECK(px[3] == palette().useful.argb());
    CHECK(px[4] == palette().padding.argb());
}

TEST_CASE("layout_raster: pixels aggregate shares, jagged layouts leave cells empty",
          "[viz][layout_raster]")
{
    // the header's 2 x 1 example: threads 0, 1 = 4 useful + 2 padding of 6 cells
    const auto r = layout_raster(work_of({3, 1, 3, 2}, {3, 3, 3, 3}), 1, 2);
    CHECK(r.useful[0] == Approx(4.0 / 6.0));
    CHECK(r.padding[0] == Approx(2.0 / 6.0));
    CHECK(r.useful[1] == Approx(5.0 / 6.0));
    // pJDS-like: sorted (4, 3 | 2, 1), padded per block of 2 to (4, 4 | 2, 2); 2 x 2 pixels,
    // each pixel = 2 threads x 2 slots
    const auto p = layout_raster(work_of({4, 3, 2, 1}, {4, 4, 2, 2}), 2, 2);
    CHECK(p.slot_columns == 4);
    CHECK(p.useful[0] == 1.0F);                 // slots 0-1 of threads 0, 1
    CHECK(p.useful[1] == Approx(3.0 / 4.0));    // slots 2-3: 2 + 1 useful
    CHECK(p.padding[1] == Approx(1.0 / 4.0));   // thread 1's slot 3
    CHECK(p.useful[2] == Approx(3.0 / 4.0));    // threads 2, 3 slots 0-1: 2 + 1
    CHECK(p.padding[2] == Approx(1.0 / 4.0));
    CHECK(p.useful[3] == 0.0F);                 // nothing stored right of slot 1
    CHECK(p.padding[3] == 0.0F);
    // more pixels than threads and slots: every cell spans several pixels
    const auto big = layout_raster(work_of({1, 2}, {2, 2}), 4, 4);
    CHECK(big.useful[0] == 1.0F);   // thread 0, slot 0
    CHECK(big.padding[2] == 1.0F);  // thread 0, slot 1
    CHECK(big.useful[10] == 1.0F);  // thread 1, slot 1
    CHECK(big.threads_of_row(3) == std::pair<std::int64_t, std::int64_t>{1, 2});
}

TEST_CASE("layout_raster: uneven bins still count every stored slot exactly once",
          "[viz][layout_raster]")
{
    // the shares times the cells of each pixel's bin add up to the layout's totals, for a
    // raster whose bins do not divide the threads and slots evenly, on real formats
    const auto a = test::random_csr(997, 500, 0, 37, 5);
    for (const char* name : {"ell", "pjds", "sell", "ellr", "hyb", "jds_csr"}) {
        FormatParams params;
        params.block_rows = 32;
        params.slice_height = 32;
        params.sort_window = 64;
        const auto m = build<double>(name, a, params);
        const auto work = thread_work(m);
        const int w = 13, h = 29;
        const auto r = layout_raster(work, w, h);
        double useful = 0.0, stored = 0.0;
        // sum over distinct bins: pixel rows/columns that map to the same bin repeat it, so
        // pick the first pixel of every bin
        for (int y = 0; y < h; ++y) {
            const auto [t0, t1] = r.threads_of_row(y);
            if (y > 0 && r.threads_of_row(y - 1).first == t0) continue;
            const std::int64_t cols = std::min<std::int64_t>(r.slot_columns, w);
            std::int64_t prev = -1;
            for (int x = 0; x < w; ++x) {
                const std::int64_t c = static_cast<std::int64_t>(x) * cols / w;
                if (c == prev) continue;
                prev = c;
                const double cells = static_cast<double>(t1 - t0) *
                                     static_cast<double>((c + 1) * r.slot_columns / cols - c * r.slot_columns / cols);
                const std::size_t i = static_cast<std::size_t>(y * w + x);
                useful += r.useful[i] * cells;
                stored += (r.useful[i] + r.padding[i]) * cells;
            }
        }
        INFO(name);
        CHECK(useful == Approx(static_cast<double>(r.useful_total)).epsilon(1e-5));
        CHECK(stored == Approx(static_cast<double>(r.stored_total)).epsilon(1e-5));
        CHECK(r.stored_total ==
              std::accumulate(work.stored.begin(), work.stored.end(), std::int64_t{0}));
    }
}

TEST_CASE("layout_raster rejects bad sizes and inconsistent work", "[viz][layout_raster]")
{
    CHECK_THROWS_AS(layout_raster(work_of({1}, {1}), 0, 4), InvalidArgument);
    CHECK_THROWS_AS(layout_raster(work_of({2}, {1}), 4, 4), InvalidArgument);
    ThreadWork odd;
    odd.useful = {1, 1};
    odd.stored = {1};
    CHECK_THROWS_AS(layout_raster(odd, 4, 4), InvalidArgument);
    const auto empty = layout_raster(work_of({}, {}), 5, 5);
    CHECK(empty.useful.size() == 25);
    CHECK(empty.slot_columns == 0);
}
