// The whole window offscreen: opening the built-in example, staged results reaching every view,
// stale results dropped, errors reported (never a crash), export to PNG and SVG.
#include <QDir>
#include <QFile>
#include <QImage>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QtCharts/QChart>
#include <QtCharts/QLogValueAxis>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <catch2/catch.hpp>

#include <spmv/generators.hpp>
#include <spmv/registry.hpp>
#include <spmv/viz/construction.hpp>
#include <spmv/viz/glossary.hpp>

#include "app/generatedialog.hpp"
#include "app/mainwindow.hpp"
#include "app/textaudit.hpp"
#include "gui_test_support.hpp"
#include "models/formatsummarymodel.hpp"
#include "models/matrixstatsmodel.hpp"
#include "models/timingmodel.hpp"
#include "widgets/appearance.hpp"
#include "widgets/constructionpanel.hpp"
#include "widgets/layoutview.hpp"
#include "widgets/memoryview.hpp"
#include "widgets/modelpanel.hpp"
#include "widgets/parameterbar.hpp"
#include "widgets/rowhistogramview.hpp"
#include "widgets/sparsityview.hpp"
#include "widgets/timingpanel.hpp"

TEST_CASE("The window opens the built-in example and fills every view", "[gui][window]")
{
    guitest::app();
    MainWindow w(false);
    w.resize(1000, 700);
    w.show();

    w.openBuiltInExample();
    REQUIRE(w.waitUntilIdle(60000));

    REQUIRE(w.controller()->document());
    CHECK(w.errors().isEmpty());
    const auto& s = w.controller()->document()->stats;
    CHECK(s.rows == 8);
    CHECK(s.nnz == 24);
    CHECK(s.max == 6);
    CHECK(w.statsModel()->rowCount() > 8);
    REQUIRE(w.histogramView()->chartData());
    CHECK(w.histogramView()->chartData()->row_counts ==
          std::vector<std::int64_t>{0, 2, 2, 1, 1, 1, 1});  // lengths 2 5 1 3 4 1 6 2
    CHECK(w.memoryView()->model()->rowCount() > 10);
    auto* layout = w.constructionPanel()->layoutView();
    REQUIRE(layout->construction());
    CHECK(layout->construction()->format == "pjds");
    // pJDS b_r = 4 (the window's blackboard default): 32 slots, 8 padding (pjds_fig1.mtx header)
    const auto& pad = layout->construction()->steps.back();
    CHECK(pad.stored == 32);
    CHECK(pad.padding == 8);
}

TEST_CASE("A parameter changed twice in a row yields only the newest result", "[gui][window]")
{
    guitest::app();
    MainWindow w(false);
    w.openBuiltInExample();
    REQUIRE(w.waitUntilIdle(60000));
    QSignalSpy spy(w.controller(), &AnalysisController::constructionAvailable);

    w.controller()->setBlockRows(2);
    w.controller()->setBlockRows(8);  // before the first job could report back
    REQUIRE(w.waitUntilIdle(60000));

    REQUIRE(spy.count() == 1);
    const auto c = spy.takeFirst().at(0).value<ConstructionPtr>();
    CHECK(c->title == "pJDS (b_r = 8)");
}

TEST_CASE("A bad Matrix Market file is reported with its file and line", "[gui][window]")
{
    guitest::app();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.mtx"));
    QFile f(path);
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1.0\n9 1 2.0\n");
    f.close();
    MainWindow w(false);
    w.openBuiltInExample();
    REQUIRE(w.waitUntilIdle(60000));

    w.openFile(path);
    REQUIRE(w.waitUntilIdle(60000));

    REQUIRE(w.errors().size() == 1);
    CHECK(w.errors().first().contains(QStringLiteral("broken.mtx:4")));
    CHECK(w.controller()->document()->stats.rows == 8);  // the example stays loaded
    w.openFile(dir.filePath(QStringLiteral("missing.mtx")));
    REQUIRE(w.waitUntilIdle(60000));
    CHECK(w.errors().size() == 2);
}

TEST_CASE("Views export to PNG and to SVG at 96 dpi", "[gui][window]")
{
    guitest::app();
    QTemporaryDir dir;
    MainWindow w(false);
    w.resize(900, 600);
    w.show();
    w.openBuiltInExample();
    REQUIRE(w.waitUntilIdle(60000));
    w.setCurrentView(QStringLiteral("construction"));
    QWidget* page = w.viewPage(QStringLiteral("construction"));

    const QString png = dir.filePath(QStringLiteral("c.png"));
    const QString svg = dir.filePath(QStringLiteral("c.svg"));
    REQUIRE(MainWindow::exportWidget(page, png));
    REQUIRE(MainWindow::exportWidget(page, svg));

    const QImage img(png);
    CHECK(img.size() == page->size());
    QFile s(svg);
    REQUIRE(s.open(QIODevice::ReadOnly));
    const QByteArray text = s.readAll();
    CHECK(text.contains("<svg"));
    // 96 dpi: the physical size equals the pixel size (width in mm = px * 25.4 / 96)
    const QRegularExpression width(QStringLiteral("<svg width=\"([0-9.]+)mm\""));
    const auto match = width.match(QString::fromUtf8(text));
    REQUIRE(match.hasMatch());
    CHECK(match.captured(1).toDouble() == Approx(page->width() * 25.4 / 96.0));
    QString error;
    CHECK_FALSE(MainWindow::exportWidget(page, QStringLiteral("/nonexistent/dir/x.png"), &error));
    CHECK_FALSE(error.isEmpty());

    // File > Export writes the content only: the construction's layout at its full size, which
    // a short window shows scrolled; the pattern without its row-order bar
    w.controller()->setDocument(makeDocument(spmv::gen::pde(5), QStringLiteral("pde05"), {}));
    w.resize(900, 420);
    REQUIRE(w.waitUntilIdle(60000));
    QWidget* content = w.viewContent(QStringLiteral("construction"));
    REQUIRE(content == w.constructionPanel()->layoutView());
    CHECK(content->height() > content->parentWidget()->height());  // scrolled in the window
    const QString full = dir.filePath(QStringLiteral("full.png"));
    REQUIRE(MainWindow::exportWidget(content, full));
    CHECK(QImage(full).height() == content->height());
    CHECK(w.viewContent(QStringLiteral("pattern")) == w.sparsityView());
    CHECK(w.viewContent(QStringLiteral("memory")) == w.viewPage(QStringLiteral("memory")));
}

TEST_CASE("Every view name maps to a page", "[gui][window]")
{
    guitest::app();
    MainWindow w(false);

    for (const auto& name : MainWindow::viewNames()) {
        INFO(name.toStdString());
        CHECK(w.viewPage(name) != nullptr);
        CHECK(w.setCurrentView(name));
        CHECK(w.currentViewName() == name);
    }
    CHECK_FALSE(w.setCurrentView(QStringLiteral("spiral")));
}

TEST_CASE("Without a CUDA device the timing view says so and times the CPU reference",
          "[gui][window]")
{
    guitest::app();
    MainWindow w(false);
    w.openBuiltInExample();
    REQUIRE(w.waitUntilIdle(60000));
    auto* timing = w.timingPanel();
    if (timing->gpuAvailable()) {
        WARN("a CUDA device is present: the CPU fallback is not exercised");
        return;
    }
    CHECK(timing->deviceLabel()->text().contains(QStringLiteral("GPU timing is not possible")));
    REQUIRE(timing->selectProfile(QStringLiteral("C2050")));

    timing->start();
    REQUIRE(w.waitUntilIdle(120000));

    const auto& rows = timing->model()->rows();
    REQUIRE(rows.size() == static_cast<int>(spmv::formats().size()));
    for (const auto& r : rows) {
        INFO(r.variant);
        CHECK(r.error.empty());
        CHECK_FALSE(r.gpu);
        CHECK(r.gflops > 0);
        // the CPU's bandwidth from the same bytes as the GPU rows: 8 x 8, 24 nonzeros, double,
        // beta = 0: values + indices 24 x 12, row pointers 9 x 4, x and y 8 x 8 each = 452 B
        CHECK(r.effective_gbs == Approx(452.0 / (r.median_ms * 1e6)));
        // C2050, DP, alpha = 1/N_nzr (the Timing view's default), N_nzr = 3:
        // 120 GB/s / ((8 + 4 + 8/3 + 16/3) / 2 B/flop) = 12 GF/s
        CHECK(r.predicted_gflops == Approx(120.0 / ((8 + 4 + 8.0 / 3 + 16.0 / 3) / 2)));
    }
}

TEST_CASE("The generate dialog offers every generator with its schema defaults", "[gui][window]")
{
    guitest::app();
    GenerateDialog dialog;

    const auto params = dialog.params();

    CHECK(dialog.generator() ==
          QString::fromUtf8(spmv::gen::generators().front().name.data(),
                            static_cast<int>(spmv::gen::generators().front().name.size())));
    const auto& info = spmv::gen::generators().front();
    REQUIRE(params.size() == info.params.size());
    for (const auto& p : info.params) {
        CHECK(params.at(std::string(p.name)) == p.default_value);
    }
    // what the dialog returns is accepted by the generator
    CHECK_NOTHROW(spmv::gen::generate(dialog.generator().toStdString(), params, dialog.seed()));
}

TEST_CASE("A failed first load leaves every view saying so and the run buttons off", "[gui][window]")
{
    guitest::app();
    QTemporaryDir dir;
    MainWindow w(false);
    w.resize(1000, 700);
    w.show();
    auto runButtons = [&w] { return w.findChildren<QPushButton*>(QStringLiteral("runButton")); };
    REQUIRE(runButtons().size() == 3);  // construction Play, Time, Run
    for (auto* b : runButtons()) CHECK_FALSE(b->isEnabled());

    w.openFile(dir.filePath(QStringLiteral("missing.mtx")));
    REQUIRE(w.waitUntilIdle(60000));

    REQUIRE(w.errors().size() == 1);
    CHECK_FALSE(w.controller()->document());
    for (const QString& e : {w.memoryView()->error(), w.histogramView()->error(),
                             w.constructionPanel()->layoutView()->error()}) {
        CHECK(e.startsWith(QStringLiteral("no matrix loaded")));
        CHECK(e.contains(QStringLiteral("missing.mtx")));
    }
    for (auto* b : runButtons()) {
        CHECK_FALSE(b->isEnabled());
        CHECK(b->toolTip().contains(QStringLiteral("matrix first")));
    }

    w.openBuiltInExample();
    REQUIRE(w.waitUntilIdle(60000));
    for (auto* b : runButtons()) CHECK(b->isEnabled());
    CHECK(w.memoryView()->error().isEmpty());
    CHECK(w.constructionPanel()->layoutView()->error().isEmpty());
}

TEST_CASE("Page Down, Right and Space step the construction, Page Up and Left step back",
          "[gui][window]")
{
    guitest::app();
    MainWindow w(false);
    w.resize(1000, 700);
    w.show();
    w.openBuiltInExample();
    REQUIRE(w.waitUntilIdle(60000));
    REQUIRE(w.setCurrentView(QStringLiteral("construction")));
    w.activateWindow();
    REQUIRE(QTest::qWaitForWindowActive(&w));
    auto* view = w.constructionPanel()->layoutView();
    REQUIRE(view->stepCount() >= 4);
    view->setStep(0);
    QWidget* target = w.focusWidget() ? w.focusWidget() : &w;

    QTest::keyClick(target, Qt::Key_PageDown);
    CHECK(view->currentStep() == 1);
    QTest::keyClick(target, Qt::Key_Right);
    CHECK(view->currentStep() == 2);
    QTest::keyClick(target, Qt::Key_Space);
    CHECK(view->currentStep() == 3);
    QTest::keyClick(target, Qt::Key_PageUp);
    CHECK(view->currentStep() == 2);
    QTest::keyClick(target, Qt::Key_Left);
    CHECK(view->currentStep() == 1);
    QTest::keyClick(target, Qt::Key_End);
    CHECK(view->currentStep() == view->stepCount() - 1);
    QTest::keyClick(target, Qt::Key_PageDown);  // stays at the last step
    CHECK(view->currentStep() == view->stepCount() - 1);
    QTest::keyClick(target, Qt::Key_Home);
    CHECK(view->currentStep() == 0);

    // on another view the keys are not taken
    REQUIRE(w.setCurrentView(QStringLiteral("memory")));
    QTest::keyClick(w.focusWidget() ? w.focusWidget() : &w, Qt::Key_PageDown);
    CHECK(view->currentStep() == 0);
}

TEST_CASE("A large matrix gets the hardware's parameters until the user sets one", "[gui][window]")
{
    guitest::app();
    MainWindow w(false);
    auto* c = w.controller();
    CHECK(c->params().warp_size == 4);  // the blackboard before anything is loaded

    c->setDocument(makeDocument(spmv::gen::pde(16), QStringLiteral("pde16"), {}));  // 4096 rows
    REQUIRE(w.waitUntilIdle(60000));
    CHECK(c->params().warp_size == 32);
    CHECK(c->params().block_rows == 32);
    CHECK(c->params().slice_height == 32);
    // sigma: the advisor's for the matrix (SELL's sigma = auto at C = 32), not the CLI's 1
    CHECK(c->params().sort_window == AnalysisController::advisedSortWindow(c->document()->csr, 32));
    CHECK(c->sortWindowAdvised());
    CHECK(w.constructionPanel()->blockRowsBox()->value() == 32);

    w.openBuiltInExample();  // 8 rows: back to the blackboard
    REQUIRE(w.waitUntilIdle(60000));
    CHECK(c->params().warp_size == 4);
    CHECK(c->params().block_rows == 4);

    w.constructionPanel()->blockRowsBox()->setValue(8);  // the user's choice stays
    REQUIRE(w.waitUntilIdle(60000));
    c->setDocument(makeDocument(spmv::gen::pde(16), QStringLiteral("pde16"), {}));
    REQUIRE(w.waitUntilIdle(60000));
    CHECK(c->userParams());
    CHECK(c->userSet(spmv::Param::block_rows));
    CHECK(c->params().block_rows == 8);   // the user's
    CHECK(c->params().warp_size == 32);   // still suits the matrix
}

TEST_CASE("The histogram puts a power law's lengths on a logarithmic axis on request", "[gui][window]")
{
    guitest::app();
    MainWindow w(false);
    w.controller()->setDocument(makeDocument(
        spmv::gen::power_law(3000, 1, 2.0, 400, 7),
        QStringLiteral("pl"), {}));
    REQUIRE(w.waitUntilIdle(60000));
    auto horizontal = [&w] {
        const auto axes = w.histogramView()->chart()->axes(Qt::Horizontal);
        return axes.isEmpty() ? nullptr : axes.front();
    };
    REQUIRE(horizontal());
    CHECK(horizontal()->type() == QAbstractAxis::AxisTypeValue);

    w.logLengthsBox()->setChecked(true);

    REQUIRE(horizontal());
    REQUIRE(horizontal()->type() == QAbstractAxis::AxisTypeLogValue);
    const auto* log = static_cast<QLogValueAxis*>(horizontal());
    CHECK(log->min() >= 0.5);
    CHECK(log->max() >= static_cast<double>(w.controller()->document()->stats.max));
    CHECK(w.histogramView()->logLengths());
}

TEST_CASE("Presentation mode switched on at run time resizes every table to its new font", "[gui][window]")
{
    guitest::app();
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    w.openBuiltInExample();
    REQUIRE(w.waitUntilIdle(60000));

    w.setPresentationMode(true);
    REQUIRE(w.waitUntilIdle(60000));

    const auto tables = w.findChildren<QTableView*>();
    REQUIRE(tables.size() >= 3);
    for (auto* t : tables) {
        if (!t->model() || t->model()->columnCount() == 0) continue;
        CHECK(t->font().pointSizeF() == Approx(Appearance::instance().font().pointSizeF()));
        for (int c = 0; c < t->model()->columnCount(); ++c) {
            if (t->isColumnHidden(c)) continue;
            INFO(t->objectName().toStdString() << " column " << c);
            // no cell or header text is cut: each column is as wide as its widest content
            CHECK(t->columnWidth(c) >= static_cast<QAbstractItemView*>(t)->sizeHintForColumn(c));
            CHECK(t->columnWidth(c) >= t->horizontalHeader()->sectionSizeHint(c));
        }
    }
    w.setPresentationMode(false);
}

TEST_CASE("The construction bar sets HYB K, the ELLG pitch and the JDS padding, and one GPU profile serves Model and Timing",
          "[gui][window]")
{
    guitest::app();
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    w.openBuiltInExample();
    REQUIRE(w.waitUntilIdle(60000));
    auto* panel = w.constructionPanel();
    REQUIRE(panel->paramBox(spmv::Param::hyb_width));
    REQUIRE(panel->paramBox(spmv::Param::pitch_bytes));
    REQUIRE(panel->paramBox(spmv::Param::diag_pad));
    REQUIRE(w.setCurrentView(QStringLiteral("construction")));

    REQUIRE(panel->formatBox()->findData(QStringLiteral("hyb")) >= 0);
    panel->formatBox()->setCurrentIndex(panel->formatBox()->findData(QStringLiteral("hyb")));
    REQUIRE(w.waitUntilIdle(60000));
    // in the window the shared bar has the boxes; the panel's own stay hidden
    CHECK_FALSE(panel->paramBox(spmv::Param::hyb_width)->isVisible());
    auto* k = w.parameterBar()->box(spmv::Param::hyb_width);
    REQUIRE(k);
    CHECK(k->isVisible());
    CHECK(k->text() == QStringLiteral("auto"));

    k->setValue(2);
    REQUIRE(w.waitUntilIdle(60000));
    CHECK(w.controller()->params().hyb_width == 2);
    CHECK(w.controller()->userParams());
    const auto c = panel->layoutView()->construction();
    REQUIRE(c);
    CHECK(c->format == "hyb");

    // the Model view follows the Timing view's profile and back
    CHECK(w.modelPanel()->profileBox()->currentText() == w.timingPanel()->profileBox()->currentText());
    REQUIRE(w.timingPanel()->selectProfile(QStringLiteral("C2050")));
    CHECK(w.modelPanel()->profileBox()->currentText() == QStringLiteral("C2050"));
    REQUIRE(w.modelPanel()->selectProfile(QStringLiteral("H200")));
    CHECK(w.timingPanel()->profileBox()->currentText() == QStringLiteral("H200"));
}

TEST_CASE("The glossary explains the papers' symbols in Help and in the headers that print them",
          "[gui][window]")
{
    guitest::app();
    const QString html = MainWindow::glossaryHtml();
    for (const auto& e : spmv::viz::glossary()) {
        CHECK(html.contains(QString::fromUtf8(e.term.data(), static_cast<int>(e.term.size()))
                                .toHtmlEscaped()));
    }
    MainWindow w(false);
    w.openBuiltInExample();
    REQUIRE(w.waitUntilIdle(60000));
    const QString tip = w.memoryView()->model()->headerData(FormatSummaryModel::NIter,
                                                            Qt::Horizontal, Qt::ToolTipRole)
                            .toString();
    CHECK(tip.startsWith(QStringLiteral("N_iter: ")));
    CHECK(tip.contains(QStringLiteral("PELLR")));
    bool helpHasGlossary = false;
    for (auto* a : w.findChildren<QAction*>()) {
        helpHasGlossary = helpHasGlossary || a->text().contains(QStringLiteral("Glossary"));
    }
    CHECK(helpHasGlossary);
}

TEST_CASE("One parameter bar above every view sets what the views read", "[gui][window]")
{
    guitest::app();
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    w.openBuiltInExample();
    REQUIRE(w.waitUntilIdle(60000));
    auto* bar = w.parameterBar();
    REQUIRE(bar);
    for (const auto& info : spmv::parameters()) {
        INFO(std::string(info.name));
        REQUIRE(bar->box(info.id));
        CHECK(bar->box(info.id)->value() == spmv::get(w.controller()->params(), info.id));
    }
    // visible on a view that has no parameter controls of its own
    REQUIRE(w.setCurrentView(QStringLiteral("histogram")));
    CHECK(bar->isVisible());
    CHECK_FALSE(w.constructionPanel()->blockRowsBox()->isVisible());  // the panel's are hidden

    bar->box(spmv::Param::block_rows)->setValue(2);
    REQUIRE(w.waitUntilIdle(60000));
    CHECK(w.controller()->params().block_rows == 2);
    CHECK(w.constructionPanel()->blockRowsBox()->value() == 2);  // kept in step
    REQUIRE(w.histogramView()->chartData());

    // a value set elsewhere shows in the bar
    w.controller()->setSliceHeight(8);
    CHECK(bar->box(spmv::Param::slice_height)->value() == 8);
}

TEST_CASE("Presentation mode at 1280x720 keeps the window's size, every tab and label, and a larger picture",
          "[gui][window][presentation]")
{
    guitest::app();
    MainWindow w(false);
    w.resize(1280, 720);
    w.setPresentationMode(true);
    w.show();
    w.openBuiltInExample();
    REQUIRE(w.waitUntilIdle(60000));
    w.setCurrentView(QStringLiteral("pattern"));
    REQUIRE(w.waitUntilIdle(60000));
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QCoreApplication::processEvents();

    // the window is what --size asked for: nothing's minimum size widened it
    CHECK(w.size() == QSize(1280, 720));
    CHECK(layoutOverflow(&w, QSize(1280, 720)).isEmpty());
    // fifteen titles of 20 px text do not fit along the top: the tabs go down the side, all of
    // them inside the bar (no scroll arrows), their text horizontal and whole
    auto* tabs = qobject_cast<QTabWidget*>(w.viewPage(QStringLiteral("pattern"))->parentWidget()->parentWidget());
    REQUIRE(tabs);
    CHECK(tabs->tabPosition() == QTabWidget::West);
    for (int i = 0; i < tabs->count(); ++i) {
        INFO(tabs->tabText(i).toStdString());
        CHECK(tabs->tabBar()->rect().contains(tabs->tabBar()->tabRect(i)));
        CHECK(tabs->tabBar()->tabRect(i).width() >
              tabs->tabBar()->fontMetrics().horizontalAdvance(tabs->tabText(i)));
    }
    // the parameter bar on one line, no label cut ("JDS diag p"), nothing below 18 px
    resetElisions();  // what earlier tests' views elided
    const QStringList bar = auditText(w.parameterBar(), Appearance::instance().minimumTextPixels());
    INFO(bar.join(QLatin1Char('\n')).toStdString());
    CHECK(bar.isEmpty());
    CHECK(w.parameterBar()->height() < 2 * w.parameterBar()->box(spmv::Param::warp_size)->height());
    // the picture: 325 px before presentation mode was designed, 425 px at a desk then
    const QRect plot = w.sparsityView()->plotRect();
    CHECK(std::min(plot.width(), plot.height()) >= 440);
    // and the whole window passes the audit: clipped, cut or undersized text
    const QStringList all = auditText(&w, Appearance::instance().minimumTextPixels());
    INFO(all.join(QLatin1Char('\n')).toStdString());
    CHECK(all.isEmpty());
    w.setPresentationMode(false);
    CHECK(tabs->tabPosition() == QTabWidget::North);  // at a desk the titles fit the top
}

TEST_CASE("The status bar drops the pattern's position text when the zoom changes",
          "[gui][window]")
{
    guitest::app();
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    QString error;
    const auto spec = parseGeneratorSpec(QStringLiteral("gen:pde:size=30"), &error);  // 27,000 rows
    REQUIRE(spec);
    w.controller()->generate(spec->generator, spec->params, spec->seed);
    REQUIRE(w.waitUntilIdle(60000));
    w.setCurrentView(QStringLiteral("pattern"));
    REQUIRE(w.waitUntilIdle(60000));
    auto* view = w.sparsityView();
    const QPoint centre = view->plotRect().center();

    QTest::mouseMove(view, centre);
    QCoreApplication::processEvents();
    const QString before = w.statusBar()->currentMessage();
    view->zoomAt(2.0, centre);
    QCoreApplication::processEvents();
    const QString after = w.statusBar()->currentMessage();

    // "Row r, column c (one pixel = k x k cells)": the status bar names the new zoom
    INFO(before.toStdString() << " / " << after.toStdString());
    CHECK(before.contains(QStringLiteral("one pixel =")));
    CHECK(after.contains(QStringLiteral("one pixel =")));
    CHECK(after != before);
}

TEST_CASE("The text audit counts text clipped by its parents and text below the minimum size",
          "[gui][window]")
{
    guitest::app();
    QWidget root;
    root.resize(300, 200);
    auto* frame = new QWidget(&root);
    frame->setGeometry(0, 0, 120, 100);
    // a label wide enough for its text, but reaching past its parent's right edge
    auto* label = new QLabel(QStringLiteral("a label its parent cuts off"), frame);
    label->adjustSize();
    label->move(60, 10);
    auto* inside = new QLabel(QStringLiteral("ok"), frame);
    inside->move(4, 40);
    auto* tiny = new QLabel(QStringLiteral("tiny"), &root);
    QFont f = tiny->font();
    f.setPixelSize(7);
    tiny->setFont(f);
    tiny->move(150, 150);
    tiny->adjustSize();
    root.show();

    const QString report = auditText(&root, 9.0).join(QLatin1Char('\n'));

    INFO(report.toStdString());
    CHECK(report.contains(QStringLiteral("clipped text 'a label its parent cuts off'")));
    CHECK_FALSE(report.contains(QStringLiteral("'ok'")));
    CHECK(report.contains(QStringLiteral("undersized text 'tiny' in QLabel: 7.0 px, the minimum is 9 px")));
    CHECK_FALSE(auditText(&root, 0.0).join(QLatin1Char('\n')).contains(QStringLiteral("undersized")));
    // wholly outside (scrolled away) is not cut
    label->move(200, 10);
    CHECK_FALSE(auditText(&root, 9.0).join(QLatin1Char('\n')).contains(QStringLiteral("a label its parent")));
}

TEST_CASE("A window whose widgets need more room than --size names them", "[gui][window]")
{
    guitest::app();
    QWidget window;
    auto* row = new QHBoxLayout(&window);
    auto* wide = new QLabel(QStringLiteral("a label far wider than the window it is in"));
    wide->setObjectName(QStringLiteral("wideLabel"));
    row->addWidget(wide);
    window.resize(100, 40);
    window.show();
    QCoreApplication::processEvents();

    const QStringList out = layoutOverflow(&window, QSize(100, 40));

    INFO(out.join(QLatin1Char('\n')).toStdString());
    REQUIRE_FALSE(out.isEmpty());
    CHECK(out.join(QLatin1Char('\n')).contains(QStringLiteral("QLabel#wideLabel 'a label far wider")));
    CHECK(layoutOverflow(&window, QSize(1000, 100)).isEmpty() == (window.size() == QSize(1000, 100)));
}
