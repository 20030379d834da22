// bench_gui: how long the explorer takes to open and draw a large matrix (a benchmark, not a
// test). Default: 1,000,000 rows with exactly 10 random nonzeros each (10M nonzeros), written
// once as a Matrix Market file, then
//   1. the parts on their own: reading the file, row statistics, the density raster of the
//      pattern view (1 pass over CSR) and the histogram data (row lengths + pJDS padding);
//   2. the real window: File > Open until the pattern raster and the histogram chart are on
//      screen (painted into a pixmap), with the other analyses starting in the background as
//      they do for a user;
//   3. the same with the matrix generated instead of read (no text parsing).
// Usage: bench_gui [--rows N] [--per-row K] [--file PATH] [--repeat R]
//
// bench_gui --views SPEC [--skip V,V,...]: one window, the matrix of the generator SPEC (e.g.
// powerlaw:rows=1000000), then every view in turn: shown, its analyses waited for, its page
// grabbed; prints per view the seconds its own analyses took after the switch, the process's
// peak resident memory so far and whether the picture has content (more than a handful of
// colours). Exit 1 if a view stays busy past 300 s or draws nothing: CTest's functional
// "every view non-empty" run (no time limits asserted; scripts/bench_gui.sh asserts the bar).
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <sys/resource.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QPixmap>

#include <spmv/generators.hpp>
#include <spmv/io/matrix_market.hpp>
#include <spmv/viz/density.hpp>
#include <spmv/viz/histogram.hpp>

#include "app/mainwindow.hpp"
#include "session/memoryguard.hpp"
#include "widgets/rowhistogramview.hpp"
#include "widgets/sparsityview.hpp"

namespace {

double cpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

double seconds(const QElapsedTimer& t)
{
    return static_cast<double>(t.nsecsElapsed()) * 1e-9;
}

/// Opens (or generates) in a fresh window; returns seconds until pattern + histogram are drawn.
double openAndDraw(const QString& path, std::int32_t rows, std::int32_t perRow, bool generate)
{
    MainWindow w(false);
    w.resize(1200, 800);
    w.show();
    w.setCurrentView(QStringLiteral("pattern"));
    QApplication::processEvents();
    bool histogram = false;
    QElapsedTimer t;
    double documentAt = 0, histogramAt = 0;
    QObject::connect(w.controller(), &AnalysisController::histogramAvailable, &w,
                     [&histogram, &histogramAt, &t] {
                         histogram = true;
                         histogramAt = seconds(t);
                     });
    QObject::connect(w.controller(), &AnalysisController::documentAvailable, &w,
                     [&documentAt, &t] { documentAt = seconds(t); });
    const double cpu0 = cpuSeconds();
    t.start();
    if (generate) {
        w.controller()->generate(QStringLiteral("random"),
                                 {{"rows", rows}, {"nnz-per-row", perRow}}, 42);
    } else {
        w.openFile(path);
    }
    // until the document is in, the raster of the pattern is done and the histogram arrived
    while (!(w.controller()->document() && histogram && !w.sparsityView()->isRendering())) {
        QApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 5);
        if (!w.errors().isEmpty()) {
            std::fprintf(stderr, "error: %s\n", w.errors().last().toLocal8Bit().constData());
            return -1;
        }
    }
    const QPixmap pattern = w.sparsityView()->grab();
    const QPixmap hist = w.histogramView()->grab();
    const double s = seconds(t);
    const double cpu = cpuSeconds() - cpu0;
    std::printf("    cpu time of the process meanwhile %.3f s (all threads)\n", cpu);
    std::printf(
        "    matrix in after %.3f s, histogram after %.3f s, raster took %.3f s; "
        "images %dx%d and %dx%d\n",
        documentAt, histogramAt, w.sparsityView()->lastRenderSeconds(), pattern.width(),
        pattern.height(), hist.width(), hist.height());
    // the background analyses (construction, warp waste, every format's footprint): until
    // the window is idle, and the process's peak resident memory so far
    const bool idle = w.waitUntilIdle(600000);
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    std::printf("    all analyses done after %.3f s%s; peak resident memory of the process %.2f GiB\n",
                seconds(t), idle ? "" : " (NOT idle after 600 s)",
                static_cast<double>(u.ru_maxrss) / (1024.0 * 1024.0));
    return s;
}

/// Distinct colours in a grab of `w` (a view that draws nothing has 2 or 3: its background,
/// a frame, a line of text at most).
int colourCount(QWidget* w)
{
    const QImage img = w->grab().toImage();
    std::set<QRgb> seen;
    for (int y = 0; y < img.height(); y += 2) {
        for (int x = 0; x < img.width(); x += 2) {
            seen.insert(img.pixel(x, y));
            if (seen.size() > 64) return static_cast<int>(seen.size());
        }
    }
    return static_cast<int>(seen.size());
}

double peakGiB()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / (1024.0 * 1024.0);
}

/// --views: every view of one window in turn (see the usage above).
int runViews(const QString& spec, const QStringList& skip)
{
    QString error;
    const auto g = parseGeneratorSpec(spec, &error);
    if (!g) {
        std::fprintf(stderr, "bench_gui: %s\n", error.toLocal8Bit().constData());
        return 2;
    }
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    QElapsedTimer total;
    total.start();
    w.controller()->generate(g->generator, g->params, g->seed);
    if (!w.waitUntilIdle(300000) || !w.controller()->document()) {
        std::fprintf(stderr, "bench_gui: the matrix did not load\n");
        return 1;
    }
    const auto& doc = *w.controller()->document();
    std::printf("%s: %lld x %lld, %lld nonzeros; loaded and first analyses after %.2f s, "
                "peak %.2f GiB\n",
                spec.toLocal8Bit().constData(), static_cast<long long>(doc.csr.num_rows),
                static_cast<long long>(doc.csr.num_cols),
                static_cast<long long>(spmv::nnz(doc.csr)), seconds(total), peakGiB());
    std::printf("%-14s %10s %10s %8s  %s\n", "view", "seconds", "peak GiB", "colours",
                "verdict");
    int failures = 0;
    for (const QString& view : MainWindow::viewNames()) {
        if (skip.contains(view)) continue;
        QElapsedTimer t;
        t.start();
        w.setCurrentView(view);
        const bool idle = w.waitUntilIdle(300000);
        const double s = seconds(t);
        const int colours = colourCount(w.viewPage(view));
        const bool ok = idle && colours > 8;
        failures += ok ? 0 : 1;
        std::printf("%-14s %10.2f %10.2f %8d  %s\n", view.toLocal8Bit().constData(), s,
                    peakGiB(), colours,
                    !idle ? "BUSY past 300 s" : ok ? "ok" : "EMPTY (no content drawn)");
    }
    std::printf("RESULT %d views, %d failed; %.2f s in all, peak %.2f GiB\n",
                static_cast<int>(MainWindow::viewNames().size() - skip.size()), failures,
                seconds(total), peakGiB());
    return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    installMemoryGuard();
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    for (int i = 1; i + 1 < argc; ++i) {
        if (!std::strcmp(argv[i], "--views")) {
            QStringList skip;
            for (int j = 1; j + 1 < argc; ++j) {
                if (!std::strcmp(argv[j], "--skip")) {
                    skip = QString::fromLocal8Bit(argv[j + 1]).split(QLatin1Char(','));
                }
            }
            return runViews(QString::fromLocal8Bit(argv[i + 1]), skip);
        }
    }
    std::int32_t rows = 1000000;
    std::int32_t perRow = 10;
    int repeat = 3;
    QString path = QStringLiteral("/tmp/spmvlab_bench_1M_10M.mtx");
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--rows"))
            rows = std::stoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--per-row"))
            perRow = std::stoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--file"))
            path = QString::fromLocal8Bit(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--repeat"))
            repeat = std::stoi(argv[i + 1]);
    }
    std::printf("bench_gui: %d rows x %d nonzeros per row (%lld nonzeros), %d repetitions\n", rows,
                perRow, static_cast<long long>(rows) * perRow, repeat);
    if (!QFile::exists(path)) {
        std::printf("  writing %s (not timed) ...\n", path.toLocal8Bit().constData());
        const auto a = spmv::gen::random_uniform(rows, rows, perRow, 42);
        spmv::io::WriteOptions o;
        o.precision = 0;
        spmv::io::write_matrix_market(path.toStdString(), a, o);
    }

    std::printf("  parts on their own (best of %d):\n", repeat);
    double read = 1e9, gen = 1e9, stats = 1e9, raster = 1e9, hist = 1e9;
    for (int r = 0; r < repeat; ++r) {
        QElapsedTimer t;
        t.start();
        auto a = spmv::io::read_matrix_market(path.toStdString());
        read = std::min(read, seconds(t));
        t.restart();
        auto g = spmv::gen::random_uniform(rows, rows, perRow, 42);
        gen = std::min(gen, seconds(t));
        t.restart();
        auto doc = makeDocument(std::move(a), QStringLiteral("bench"), path);
        stats = std::min(stats, seconds(t));
        t.restart();
        const auto view =
            spmv::viz::ViewTransform::fit(doc->csr.num_rows, doc->csr.num_cols, 1184, 700, 8);
        const auto rs = spmv::viz::rasterize(doc->csr, view);
        const auto px = spmv::viz::to_argb(rs, view, 0xffefefefu);
        QImage img(rs.width, rs.height, QImage::Format_RGB32);
        std::memcpy(img.bits(), px.data(), px.size() * 4);
        raster = std::min(raster, seconds(t));
        t.restart();
        spmv::FormatParams p;
        p.block_rows = 32;
        const auto chart = spmv::viz::row_length_chart(doc->csr, doc->rowLengths, p, 160);
        hist = std::min(hist, seconds(t));
        (void)g;
        (void)chart;
    }
    std::printf("    read .mtx          %.3f s\n", read);
    std::printf("    generate (random)  %.3f s\n", gen);
    std::printf("    row statistics     %.3f s\n", stats);
    std::printf("    pattern raster     %.3f s  (1184 x 700 pixels, one pass over CSR)\n", raster);
    std::printf("    histogram data     %.3f s  (lengths, pJDS b_r = 32 padding, markers)\n", hist);

    std::printf("  the window (File > Open until pattern + histogram are drawn):\n");
    double best = 1e9;
    for (int r = 0; r < repeat; ++r) {
        const double s = openAndDraw(path, rows, perRow, false);
        if (s < 0) return 1;
        std::printf("    run %d: %.3f s\n", r + 1, s);
        best = std::min(best, s);
    }
    std::printf("  the window (Generate until pattern + histogram are drawn):\n");
    double bestGen = 1e9;
    for (int r = 0; r < repeat; ++r) {
        const double s = openAndDraw(path, rows, perRow, true);
        if (s < 0) return 1;
        std::printf("    run %d: %.3f s\n", r + 1, s);
        bestGen = std::min(bestGen, s);
    }
    std::printf("RESULT open+draw from file: %.3f s (best of %d); generated: %.3f s\n", best,
                repeat, bestGen);
    return 0;
}
