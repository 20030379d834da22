// bench_viz: the Qt-free part of opening and drawing a large matrix in the explorer, i.e. what
// the pattern and histogram views compute off the GUI thread (a benchmark, not a test):
//   read the .mtx (or generate), row statistics, the density raster of the pattern view
//   (spmv::viz::rasterize + to_argb, one pass over CSR) and the histogram data
//   (spmv::viz::row_length_chart: lengths, pJDS padding, markers).
// Useful where Qt is not installed (e.g. to measure on a quiet machine pinned to 2 cores with
// taskset -c 0,1). bench_gui measures the same inside the real window.
// Usage: bench_viz [--rows N] [--per-row K] [--file PATH] [--repeat R]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include <spmv/analysis/row_stats.hpp>
#include <spmv/generators.hpp>
#include <spmv/io/matrix_market.hpp>
#include <spmv/viz/density.hpp>
#include <spmv/viz/histogram.hpp>

namespace {
using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t0)
{
    return std::chrono::duration<double>(clock_type::now() - t0).count();
}
}  // namespace

int main(int argc, char** argv)
{
    std::int32_t rows = 1000000;
    std::int32_t per_row = 10;
    int repeat = 3;
    std::string path = "/tmp/spmvlab_bench_1M_10M.mtx";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--rows"))
            rows = std::stoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--per-row"))
            per_row = std::stoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--file"))
            path = argv[i + 1];
        else if (!std::strcmp(argv[i], "--repeat"))
            repeat = std::stoi(argv[i + 1]);
    }
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    if (!std::filesystem::exists(path)) {
        std::printf("writing %s (not timed) ...\n", path.c_str());
        spmv::io::WriteOptions o;
        o.precision = 0;
        spmv::io::write_matrix_market(path, spmv::gen::random_uniform(rows, rows, per_row, 42), o);
    }
    double read = 1e9, gen = 1e9, stats = 1e9, raster = 1e9, hist = 1e9;
    for (int r = 0; r < repeat; ++r) {
        auto t0 = clock_type::now();
        const auto a = spmv::io::read_matrix_market(path);
        read = std::min(read, since(t0));
        t0 = clock_type::now();
        const auto g = spmv::gen::random_uniform(rows, rows, per_row, 42);
        gen = std::min(gen, since(t0));
        t0 = clock_type::now();
        const auto len = spmv::row_lengths(g);
        const auto s = spmv::analysis::row_stats(len, g.num_cols);
        stats = std::min(stats, since(t0));
        t0 = clock_type::now();
        const auto view = spmv::viz::ViewTransform::fit(g.num_rows, g.num_cols, 1184, 700, 8);
        const auto rs = spmv::viz::rasterize(g, view);
        const auto px = spmv::viz::to_argb(rs, view, 0xffefefefu);
        raster = std::min(raster, since(t0));
        t0 = clock_type::now();
        spmv::FormatParams p;
        p.block_rows = 4;
        const auto chart = spmv::viz::row_length_chart(g, len, p, 160);
        hist = std::min(hist, since(t0));
        if (a.values.size() != g.values.size() || px.empty() || chart.row_counts.empty() ||
            s.nnz != spmv::nnz(g)) {
            std::printf("unexpected result\n");
            return 1;
        }
    }
    std::printf("bench_viz: %d rows, %lld nonzeros, best of %d\n", rows,
                static_cast<long long>(rows) * per_row, repeat);
    std::printf("  read .mtx        %.3f s\n", read);
    std::printf("  generate         %.3f s\n", gen);
    std::printf("  row statistics   %.3f s\n", stats);
    std::printf("  pattern raster   %.3f s (1184 x 700)\n", raster);
    std::printf("  histogram data   %.3f s (pJDS b_r = 4)\n", hist);
    std::printf(
        "RESULT file: %.3f s, generated: %.3f s (read|generate + stats + raster + histogram)\n",
        read + stats + raster + hist, gen + stats + raster + hist);
    return 0;
}
