#include "commandline.hpp"

#include <cstdio>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QLabel>
#include <QSpinBox>
#include <QTabWidget>
#include <QTimer>

#include <spmv/build_info.hpp>
#include <spmv/dist/model.hpp>
#include <spmv/dist/partition.hpp>
#include <spmv/error.hpp>
#include <spmv/generators.hpp>
#include <spmv/model/gpu_profile.hpp>
#include <spmv/registry.hpp>
#include <spmv/version.hpp>
#include <spmv/viz/construction.hpp>

#include "mainwindow.hpp"
#include "session/outputfile.hpp"
#include "textaudit.hpp"
#include "widgets/advisorview.hpp"
#include "widgets/appearance.hpp"
#include "widgets/constructionpanel.hpp"
#include "widgets/distributionpanel.hpp"
#include "widgets/layoutview.hpp"
#include "widgets/modelpanel.hpp"
#include "widgets/rowhistogramview.hpp"
#include "widgets/solverpanel.hpp"
#include "widgets/sparsityview.hpp"
#include "widgets/timingpanel.hpp"
#include "widgets/warptimelineview.hpp"  // issue 34: --warp-timeline
#include "widgets/warpwastepanel.hpp"

namespace {

void fail(const QString& message)
{
    std::fprintf(stderr, "spmvlab-gui: %s\n", message.toLocal8Bit().constData());
}

bool parseInt(const QCommandLineParser& p, const QString& name, int lo, int hi, int* value)
{
    if (!p.isSet(name)) return true;
    bool ok = false;
    const int v = p.value(name).toInt(&ok);
    if (!ok || v < lo || v > hi) {
        fail(QStringLiteral("--%1 must be an integer in [%2, %3], got '%4'")
                 .arg(name)
                 .arg(lo)
                 .arg(hi)
                 .arg(p.value(name)));
        return false;
    }
    *value = v;
    return true;
}

}  // namespace

int runSpmvLab(QApplication& app, const QStringList& arguments)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "SpMV Lab explorer: sparse matrix formats built step by step, their padding, warp waste, "
        "memory and speed."));
    p.addHelpOption();
    // not addVersionOption(): the version line also names the commit and Qt, as the About box
    const QCommandLineOption versionOption(
        {QStringLiteral("v"), QStringLiteral("version")},
        QStringLiteral("Print the version (and commit) and exit."));
    p.addOption(versionOption);
    p.addPositionalArgument(QStringLiteral("matrix"), QStringLiteral("Matrix Market file to open"),
                            QStringLiteral("[matrix.mtx]"));
    const QList<QCommandLineOption> options = {
        {QStringLiteral("screenshot"),
         QStringLiteral("Render a view to FILE (.png or .svg) and exit."), QStringLiteral("FILE")},
        {QStringLiteral("view"),
         QStringLiteral("View: %1.").arg(MainWindow::viewNames().join(QStringLiteral(", "))),
         QStringLiteral("NAME"), QStringLiteral("pattern")},
        {QStringLiteral("matrix"),
         QStringLiteral("Matrix Market file (default: the built-in example), or a generator "
                        "spec gen:NAME[:param=value,...] as the CLI takes it, e.g. "
                        "gen:pde:size=30 or gen:powerlaw:rows=2000,seed=3."),
         QStringLiteral("FILE")},
        {QStringLiteral("generate"),
         QStringLiteral("Generate the matrix instead, from a generator spec as the CLI takes "
                        "it: gen:NAME[:param=value,...], the random stream as the key seed, e.g. "
                        "gen:powerlaw:rows=2000,max-len=200,seed=3 (the same as --matrix "
                        "gen:...; the older powerlaw:rows=2000,max-len=200@3 is still taken)."),
         QStringLiteral("SPEC")},
        {QStringLiteral("format"),
         QStringLiteral("Format of the construction / waste / permuted pattern view."),
         QStringLiteral("NAME")},
        {QStringLiteral("warp"), QStringLiteral("Warp size (2..64)."), QStringLiteral("W")},
        {QStringLiteral("br"), QStringLiteral("pJDS b_r (2..64)."), QStringLiteral("B")},
        {QStringLiteral("slice"), QStringLiteral("SELL-C-sigma C (2..64)."), QStringLiteral("C")},
        {QStringLiteral("sigma"), QStringLiteral("SELL-C-sigma sigma (1..2^20)."),
         QStringLiteral("S")},
        {QStringLiteral("step"),
         QStringLiteral("Construction step to show, 1-based (default: last)."),
         QStringLiteral("K")},
        {QStringLiteral("profile"), QStringLiteral("GPU profile of the model (e.g. H100, C2050)."),
         QStringLiteral("NAME")},
        {QStringLiteral("precision"),
         QStringLiteral("Timing and Advisor: precision, double (default) or single."),
         QStringLiteral("P")},
        {QStringLiteral("iterations"),
         QStringLiteral("Advisor: rank by setup + N SpMVs (default 0: by the time of one SpMV)."),
         QStringLiteral("N")},
        {QStringLiteral("record"),
         QStringLiteral("Timing: also write the timed rows as JSON (device, matrix, commit, "
                        "date; median, GF/s, GB/s per variant) to FILE."),
         QStringLiteral("FILE.json")},
        {QStringLiteral("size"), QStringLiteral("Window size WxH (default 1200x800)."),
         QStringLiteral("WxH")},
        {QStringLiteral("presentation"),
         QStringLiteral("Presentation mode (F5): text sizes for a lecture hall, fractions of "
                        "the window's height (body 20 px, nothing below 18 px at 720 px of "
                        "height; 30 and 27 px at 1080), thick lines.")},
        {QStringLiteral("view-only"),
         QStringLiteral("With --screenshot: write only the view's page, without the menu, "
                        "parameter bar, tab bar and status bar around it (default: the whole "
                        "window, exactly --size).")},
        {QStringLiteral("colour"),
         QStringLiteral("Pattern: colour the nonzeros by density (default), sign or magnitude."),
         QStringLiteral("BY")},
        {QStringLiteral("log"), QStringLiteral("Histogram: logarithmic counts.")},
        {QStringLiteral("log-lengths"),
         QStringLiteral("Histogram: row lengths on a logarithmic axis (power-law tails).")},
        {QStringLiteral("select"),
         QStringLiteral("Construction: select grid cell ROW,COL of the shown step."),
         QStringLiteral("ROW,COL")},
        {QStringLiteral("window"),
         QStringLiteral("Construction: first row and first column of the 64 x 64 window shown "
                        "of a larger matrix."),
         QStringLiteral("ROW,COL")},
        {QStringLiteral("ranks"),
         QStringLiteral("Distribution: number of ranks (1..1024, default 4)."),
         QStringLiteral("N")},
        {QStringLiteral("partition"),
         QStringLiteral("Distribution: partition rows, nnz (default) or metis."),
         QStringLiteral("KIND")},
        {QStringLiteral("link"),
         QStringLiteral("Distribution: link profile (pcie4, pcie5, nvlink4, ib-hdr (default), "
                        "ib-ndr, host-shm)."),
         QStringLiteral("NAME")},
        {QStringLiteral("panel"),
         QStringLiteral("Distribution in presentation mode: show panel N (1 pattern, 2 "
                        "communication, 3 balance, 4 timelines, 5 scaling; one a page there)."),
         QStringLiteral("N")},
        {QStringLiteral("modes"),
         QStringLiteral("Distribution: the modes whose timelines are drawn, all (default), "
                        "vector, naive, overlap or task."),
         QStringLiteral("MODE")},
        {QStringLiteral("timeline"),
         QStringLiteral("Distribution: a recorded timeline (spmvlab dist bench --timeline) to "
                        "show instead of the model's prediction."),
         QStringLiteral("FILE.json")},
        {QStringLiteral("warp-timeline"),
         QStringLiteral("Warps (measured): a warp timeline recorded on a GPU by spmvlab bench "
                        "--gpu --warp-timeline FILE, shown beside the model's per-warp work "
                        "(--view warps; exit 3 when it cannot be read)."),
         QStringLiteral("FILE.json")},
        {QStringLiteral("lesson"),
         QStringLiteral("Open a lesson of the guided tour (Lessons menu) by its number or "
                        "directory, e.g. 05 or 05_sort_and_pad; with --screenshot the whole "
                        "window is written, the lesson's text beside its view."),
         QStringLiteral("ID")},
        {QStringLiteral("audit-text"),
         QStringLiteral("With --screenshot: list every text the window shows cut short (labels, "
                        "buttons, table cells, tabs, chart labels, painted text, text clipped "
                        "by its parents) or smaller than the mode's minimum (18 px at 720 px of "
                        "height in presentation mode, 8 px otherwise) on stderr and exit 5 if "
                        "there is one.")},
        {QStringLiteral("quit-after"), QStringLiteral("Close the window after MS milliseconds."),
         QStringLiteral("MS")},
    };
    p.addOptions(options);
    p.process(arguments);
    if (p.isSet(versionOption)) {
        std::fprintf(stdout, "spmvlab-gui %s (commit %s; Qt %s)\n", SPMV_VERSION_STRING,
                     SPMV_GIT_COMMIT, qVersion());
        return 0;
    }

    const bool screenshot = p.isSet(QStringLiteral("screenshot"));
    const QString view = p.value(QStringLiteral("view"));
    if (!MainWindow::viewNames().contains(view)) {
        fail(QStringLiteral("unknown view '%1'; known: %2")
                 .arg(view, MainWindow::viewNames().join(QStringLiteral(" "))));
        return 2;
    }
    QString format = p.value(QStringLiteral("format"));
    if (!format.isEmpty()) {
        try {
            spmv::find_format(format.toStdString());
        } catch (const spmv::Error& e) {
            fail(QString::fromStdString(spmv::user_message(e.what())));
            return 2;
        }
        if (view == QLatin1String("construction")) {
            QStringList known;
            for (auto n : spmv::viz::construction_formats()) {
                known << QString::fromUtf8(n.data(), static_cast<int>(n.size()));
            }
            if (!known.contains(format)) {
                fail(QStringLiteral("the construction view shows %1, not '%2'")
                         .arg(known.join(QStringLiteral(", ")), format));
                return 2;
            }
        }
    }
    int warp = -1, br = -1, slice = -1, sigma = -1, step = 0, quitAfter = -1, ranks = -1,
        iterations = -1;
    if (!parseInt(p, QStringLiteral("warp"), 2, 64, &warp) ||
        !parseInt(p, QStringLiteral("br"), 2, 64, &br) ||
        !parseInt(p, QStringLiteral("slice"), 2, 64, &slice) ||
        !parseInt(p, QStringLiteral("sigma"), 1, 1 << 20, &sigma) ||
        !parseInt(p, QStringLiteral("step"), 1, 16, &step) ||
        !parseInt(p, QStringLiteral("quit-after"), 0, 1 << 30, &quitAfter) ||
        !parseInt(p, QStringLiteral("ranks"), 1, 1024, &ranks) ||
        !parseInt(p, QStringLiteral("iterations"), 0, 1000000000, &iterations)) {
        return 2;
    }
    const QString profile = p.value(QStringLiteral("profile"));
    if (!profile.isEmpty()) {
        try {
            spmv::model::find_profile(profile.toStdString());
        } catch (const spmv::Error& e) {
            fail(QString::fromStdString(spmv::user_message(e.what())));
            return 2;
        }
    }
    const QString precision = p.value(QStringLiteral("precision")).toLower();
    if (!precision.isEmpty() && precision != QLatin1String("double") &&
        precision != QLatin1String("single") && precision != QLatin1String("dp") &&
        precision != QLatin1String("sp")) {
        fail(QStringLiteral("--precision wants double or single, got '%1'").arg(precision));
        return 2;
    }
    if (p.isSet(QStringLiteral("record")) && view != QLatin1String("timing")) {
        fail(QStringLiteral("--record writes the Timing view's rows: use it with --view timing"));
        return 2;
    }
    const QString partition = p.value(QStringLiteral("partition")).toLower();
    if (!partition.isEmpty()) {
        try {
            const auto kind = spmv::dist::parse_partition_kind(partition.toStdString());
            if (kind == spmv::dist::PartitionKind::metis && !spmv::dist::has_metis()) {
                fail(QStringLiteral("--partition metis: this build has no METIS (libmetis-dev)"));
                return 2;
            }
        } catch (const spmv::Error& e) {
            fail(QString::fromStdString(spmv::user_message(e.what())));
            return 2;
        }
    }
    const QString link = p.value(QStringLiteral("link"));
    if (!link.isEmpty()) {
        try {
            spmv::dist::find_link(link.toStdString());
        } catch (const spmv::Error& e) {
            fail(QString::fromStdString(spmv::user_message(e.what())));
            return 2;
        }
    }
    QSize size(1200, 800);
    if (p.isSet(QStringLiteral("size"))) {
        const QStringList wh = p.value(QStringLiteral("size")).split(QLatin1Char('x'));
        bool okW = false, okH = false;
        if (wh.size() == 2) size = QSize(wh[0].toInt(&okW), wh[1].toInt(&okH));
        if (!okW || !okH || size.width() < 200 || size.height() < 150 || size.width() > 8000 ||
            size.height() > 8000) {
            fail(QStringLiteral("--size must be WxH between 200x150 and 8000x8000"));
            return 2;
        }
    }
    QString matrix = p.value(QStringLiteral("matrix"));
    if (matrix.isEmpty() && !p.positionalArguments().isEmpty()) {
        matrix = p.positionalArguments().first();
    }
    QString generateSpec = p.value(QStringLiteral("generate"));
    if (generateSpec.isEmpty() && matrix.startsWith(QLatin1String("gen:"))) {
        generateSpec = matrix;  // --matrix gen:pde:size=30, as spmvlab takes it
        matrix.clear();
    }
    // --generate gen:NAME[:k=v,...], checked against the generator's schema before starting
    QString generator;
    spmv::gen::GeneratorParams generatorParams;
    quint64 seed = 1;
    if (!generateSpec.isEmpty()) {
        QString error;
        const auto parsed = parseGeneratorSpec(generateSpec, &error);
        if (!parsed) {
            fail(error);
            return 2;
        }
        generator = parsed->generator;
        generatorParams = parsed->params;
        seed = parsed->seed;
    }

    MainWindow window(!screenshot);
    window.resize(size);
    if (p.isSet(QStringLiteral("presentation"))) {
        window.setPresentationMode(true);
    }
    auto* controller = window.controller();
    // parameters first, so the analyses of the loaded matrix use them; only those given (the
    // others suit the matrix: AnalysisController::suitedParams)
    if (warp > 0 || br > 0 || slice > 0 || sigma > 0) {
        spmv::FormatParams params = controller->params();
        if (warp > 0) params.warp_size = warp;
        if (br > 0) params.block_rows = br;
        if (slice > 0) params.slice_height = slice;
        if (sigma > 0) params.sort_window = sigma;
        controller->setParams(params);
    }
    if (!format.isEmpty() && !window.selectFormat(view, format) &&
        view == QLatin1String("pattern")) {
        fail(QStringLiteral("format '%1' keeps the row order; the pattern is unchanged")
                 .arg(format));
    }
    auto* distribution = window.distributionPanel();
    if (!profile.isEmpty()) {
        window.timingPanel()->selectProfile(profile);
        window.modelPanel()->selectProfile(profile);
        distribution->selectDevice(profile);
    }
    if (!precision.isEmpty()) window.timingPanel()->selectPrecision(precision);  // + Advisor's
    if (iterations >= 0) window.advisorView()->setIterations(iterations);
    if (ranks > 0) distribution->ranksBox()->setValue(ranks);
    if (!partition.isEmpty()) distribution->selectPartition(partition);
    if (!link.isEmpty()) distribution->selectLink(link);
    if (p.isSet(QStringLiteral("panel"))) {
        int panel = 0;
        if (!parseInt(p, QStringLiteral("panel"), 1, 5, &panel)) return 2;
        if (!Appearance::instance().presentationMode()) {
            fail(QStringLiteral("--panel picks a page of the Distribution view in presentation "
                                "mode (--presentation); at a desk all five are shown"));
            return 2;
        }
        distribution->panelPages()->setCurrentIndex(panel - 1);
    }
    if (p.isSet(QStringLiteral("modes"))) {
        const QString m = p.value(QStringLiteral("modes")).toLower();
        const QStringList known = {QStringLiteral("all"), QStringLiteral("vector"),
                                   QStringLiteral("naive"), QStringLiteral("overlap"),
                                   QStringLiteral("task")};
        if (!known.contains(m)) {
            fail(QStringLiteral("--modes wants %1, got '%2'")
                     .arg(known.join(QStringLiteral(", ")), m));
            return 2;
        }
        distribution->timelineModesBox()->setCurrentIndex(static_cast<int>(known.indexOf(m)));
    }
    if (p.isSet(QStringLiteral("timeline"))) {
        QString error;
        if (!distribution->loadTimeline(p.value(QStringLiteral("timeline")), &error)) {
            fail(error);
            if (screenshot) return 3;
        }
    }
    if (p.isSet(QStringLiteral("warp-timeline"))) {  // issue 34: the GPU's own warps
        QString error;
        if (!window.warpTimelineView()->loadTimeline(p.value(QStringLiteral("warp-timeline")),
                                                     &error)) {
            fail(error);
            if (screenshot) return 3;
        }
    }
    const Lesson* lesson = nullptr;
    if (p.isSet(QStringLiteral("lesson"))) {
        const QString id = p.value(QStringLiteral("lesson"));
        QStringList known;
        for (const Lesson& l : window.lessons()) {
            known << l.id;
            if (l.id == id || l.id.startsWith(id + QLatin1Char('_'))) lesson = &l;
        }
        if (!lesson) {
            fail(QStringLiteral("unknown lesson '%1'; known: %2").arg(id, known.join(", ")));
            return 2;
        }
        if (!window.openLesson(*lesson)) {  // its matrix, view, format and parameters
            fail(lesson->error);
            return 2;
        }
    } else {
        if (!generator.isEmpty()) {
            controller->generate(generator, generatorParams, seed);
        } else if (!matrix.isEmpty()) {
            window.openFile(matrix);
        } else {
            window.openBuiltInExample();
        }
        window.setCurrentView(view);
    }

    if (!screenshot) {
        // below this the combo boxes and tables shrink to a letter; a 1280 x 720 projector fits
        // (--screenshot keeps the size it was asked for)
        window.setMinimumSize(960, 600);
        window.show();
        if (quitAfter >= 0) {
            QTimer::singleShot(quitAfter, &window, &QWidget::close);
        }
        return app.exec();
    }

    // screenshot mode: lay the window out, wait for every job, render, exit
    window.show();
    if (!window.waitUntilIdle()) {
        fail(QStringLiteral("timed out waiting for the analyses"));
        return 3;
    }
    // the picture is exactly --size: a window whose widgets need more room fails, naming them,
    // rather than growing past the projector's edge unseen
    auto checkSize = [&]() {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
        const QStringList overflow = layoutOverflow(&window, size);
        for (const QString& o : overflow) {
            fail(QStringLiteral("does not fit %1x%2: %3").arg(size.width()).arg(size.height()).arg(o));
        }
        return overflow.isEmpty();
    };
    if (!checkSize()) return 6;
    if (!controller->document()) {
        fail(window.errors().isEmpty() ? QStringLiteral("no matrix loaded")
                                       : window.errors().last());
        return 3;
    }
    if (view == QLatin1String("timing")) {
        if (!precision.isEmpty()) window.timingPanel()->selectPrecision(precision);
        window.timingPanel()->start();
        if (!window.waitUntilIdle(300000)) {
            fail(QStringLiteral("timed out waiting for the timing run"));
            return 3;
        }
    }
    if (view == QLatin1String("solver")) {
        // CG and MPIR-CG on the loaded matrix (a failed solve is shown in the view)
        window.solverPanel()->start();
        if (!window.waitUntilIdle(300000)) {
            fail(QStringLiteral("timed out waiting for the solves"));
            return 3;
        }
    }
    if (view == QLatin1String("construction")) {
        auto* panel = window.constructionPanel();
        if (p.isSet(QStringLiteral("window"))) {
            const QStringList rc = p.value(QStringLiteral("window")).split(QLatin1Char(','));
            bool okR = false, okC = false;
            const int r = rc.value(0).toInt(&okR);
            const int c = rc.value(1).toInt(&okC);
            auto* rows = panel->firstRowBox();
            auto* cols = panel->firstColumnBox();
            if (rc.size() != 2 || !okR || !okC || r < 0 || c < 0 || r > rows->maximum() ||
                c > cols->maximum()) {
                fail(QStringLiteral("--window wants ROW,COL with ROW in 0..%1 and COL in 0..%2")
                         .arg(rows->maximum())
                         .arg(cols->maximum()));
                return 2;
            }
            rows->setValue(r);  // each move rebuilds the window off the UI thread
            cols->setValue(c);
            if (!window.waitUntilIdle()) {
                fail(QStringLiteral("timed out waiting for the construction window"));
                return 3;
            }
        }
        auto* layout = panel->layoutView();
        layout->setStep(step > 0 ? step - 1 : layout->stepCount() - 1);
        if (p.isSet(QStringLiteral("select"))) {
            const QStringList rc = p.value(QStringLiteral("select")).split(QLatin1Char(','));
            bool okR = false, okC = false;
            const int r = rc.value(0).toInt(&okR);
            const int c = rc.value(1).toInt(&okC);
            const auto* shown = layout->step();
            if (rc.size() != 2 || !okR || !okC || !shown || r < 0 || c < 0 || r >= shown->rows ||
                c >= shown->cols) {
                fail(QStringLiteral("--select wants ROW,COL inside the %1 x %2 grid of the step")
                         .arg(shown ? shown->rows : 0)
                         .arg(shown ? shown->cols : 0));
                return 2;
            }
            layout->selectCell(r, c);
        }
    }
    if (p.isSet(QStringLiteral("colour"))) {
        auto* box = window.patternColourBox();
        const int i = box->findText(p.value(QStringLiteral("colour")), Qt::MatchFixedString);
        if (i < 0) {
            fail(QStringLiteral("--colour wants density, sign or magnitude, got '%1'")
                     .arg(p.value(QStringLiteral("colour"))));
            return 2;
        }
        box->setCurrentIndex(i);
    }
    if (p.isSet(QStringLiteral("log"))) {
        window.histogramView()->setLogScale(true);
        window.logScaleBox()->setChecked(true);
    }
    if (p.isSet(QStringLiteral("log-lengths"))) {
        window.logLengthsBox()->setChecked(true);
    }
    window.waitUntilIdle();
    // the matrix is in: a failed analysis (e.g. a format too large for this machine) is shown
    // in its view; report it, but still write the picture
    for (const QString& e : window.errors()) {
        fail(QStringLiteral("warning: %1").arg(e));
    }
    const QString out = p.value(QStringLiteral("screenshot"));
    QString error;
    if (p.isSet(QStringLiteral("record"))) {  // before the audit, which may end the run
        const QString recordPath = p.value(QStringLiteral("record"));
        OutputFile record(recordPath);  // a device or link target is written in place
        const QByteArray json = window.timingPanel()->recordJson(
            controller->document()->name, QStringLiteral(SPMV_GIT_COMMIT));
        QString why;
        if (!record.open(&why)) {
            fail(why);
            return 4;
        }
        if (record.device()->write(json) != json.size()) {
            fail(QStringLiteral("cannot write %1: %2").arg(recordPath, record.device()->errorString()));
            return 4;
        }
        if (!record.commit(&why)) {
            fail(why);
            return 4;
        }
    }
    window.waitUntilIdle();
    if (!checkSize()) return 6;  // the matrix's analyses may have asked for more room
    QWidget* shown = p.isSet(QStringLiteral("view-only")) && !lesson
                         ? window.viewPage(view)
                         : static_cast<QWidget*>(&window);
    resetElisions();  // what the painted views cut while rendering the picture
    if (!MainWindow::exportWidget(shown, out, &error)) {
        fail(error);
        return 4;
    }
    if (p.isSet(QStringLiteral("audit-text"))) {
        // the parameter bar and tab bar are part of what a lecture shows too
        // the whole window as a projector shows it: the menu, the parameter bar, the tabs, the
        // view and the status bar, each text as large as the mode demands
        QStringList cut = auditText(&window, Appearance::instance().minimumTextPixels());
        cut.removeDuplicates();
        for (const QString& c : cut) {
            fail((c.startsWith(QLatin1String("undersized")) ? QStringLiteral("too small: %1")
                                                            : QStringLiteral("cut short: %1"))
                     .arg(c));
        }
        if (!cut.isEmpty()) return 5;
    }
    QString where =
        view == QLatin1String("construction")
            ? QStringLiteral(" (%1)").arg(window.constructionPanel()->windowLabel()->text())
            : QString();
    if (view == QLatin1String("pattern") && !lesson) {  // how large the picture came out
        const QRect plot = window.sparsityView()->plotRect();
        where = QStringLiteral(" (plot %1 x %2 px)").arg(plot.width()).arg(plot.height());
    }
    std::fprintf(stdout, "%s: view '%s' of %s%s\n", out.toLocal8Bit().constData(),
                 (lesson ? lesson->view : view).toLocal8Bit().constData(),
                 controller->document()->name.toLocal8Bit().constData(),
                 where.toLocal8Bit().constData());
    return 0;
}
