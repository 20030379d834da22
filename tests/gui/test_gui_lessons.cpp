// The guided tour (Lessons menu): every tutorial lesson has an explorer.json that the explorer
// reads from its resources, and opening a lesson loads its matrix, view, format and parameters
// with the lesson's text beside them. Also the pattern view's value colouring and margins.
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <catch2/catch.hpp>

#include "app/lessons.hpp"
#include "app/mainwindow.hpp"
#include "app/textaudit.hpp"
#include "gui_test_support.hpp"
#include "widgets/constructionpanel.hpp"
#include "widgets/layoutoverview.hpp"
#include "widgets/layoutview.hpp"
#include "widgets/sparsityview.hpp"
#include "widgets/warpwastepanel.hpp"

TEST_CASE("Every tutorial lesson is in the guided tour, and each one parses", "[gui][lessons]")
{
    guitest::app();
    // the source tree's lessons: every directory with a README is a lesson and must have an
    // explorer.json (a new lesson without one would silently miss the tour)
    const QDir tutorials(QStringLiteral(SPMV_TUTORIAL_DIR));
    REQUIRE(tutorials.exists());
    QStringList expected;
    for (const QString& d : tutorials.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        if (QFile::exists(tutorials.filePath(d + QStringLiteral("/README.md")))) expected << d;
    }
    REQUIRE(expected.size() >= 8);
    const QList<Lesson> lessons = loadLessons();
    QStringList ids;
    for (const Lesson& l : lessons) {
        ids << l.id;
        INFO(l.id.toStdString() << ": " << l.error.toStdString());
        CHECK(l.error.isEmpty());
        CHECK(l.title.startsWith(l.id.left(2)));  // "05 · Sort and pad ..."
        CHECK(l.markdown.contains(QStringLiteral("## What you will learn")));
        CHECK(MainWindow::viewNames().contains(l.view));
        CHECK_FALSE(l.lookAt.isEmpty());
    }
    CHECK(ids == expected);
}

TEST_CASE("A malformed explorer.json gives a lesson that says what is wrong", "[gui][lessons]")
{
    guitest::app();
    QTemporaryDir root;
    REQUIRE(root.isValid());
    auto write = [&](const QString& dir, const QByteArray& json) {
        QDir(root.path()).mkpath(dir);
        QFile readme(root.filePath(dir + QStringLiteral("/README.md")));
        REQUIRE(readme.open(QIODevice::WriteOnly));
        readme.write("# " + dir.toUtf8() + " title\n\n## What you will learn\n");
        readme.close();
        QFile f(root.filePath(dir + QStringLiteral("/explorer.json")));
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write(json);
    };
    write(QStringLiteral("01_ok"), R"({"matrix": "gen:pde:size=4", "view": "pattern"})");
    write(QStringLiteral("02_syntax"), R"({"matrix": )");
    write(QStringLiteral("03_view"), R"({"matrix": "canonical4.mtx", "view": "nowhere"})");
    write(QStringLiteral("04_matrix"), R"({"matrix": "nosuch.mtx", "view": "pattern"})");
    write(QStringLiteral("05_key"), R"({"matrix": "canonical4.mtx", "view": "pattern", "colour": 1})");
    QDir(root.path()).mkpath(QStringLiteral("06_no_json"));  // not a lesson
    const auto lessons = loadLessons(root.path());
    REQUIRE(lessons.size() == 5);
    CHECK(lessons[0].error.isEmpty());
    CHECK(lessons[0].title == QStringLiteral("01_ok title"));
    CHECK(lessons[1].error.contains(QStringLiteral("02_syntax/explorer.json: not a JSON object")));
    CHECK(lessons[2].error.contains(QStringLiteral("unknown view 'nowhere'")));
    CHECK(lessons[3].error.contains(QStringLiteral("nosuch.mtx is not a built-in example")));
    CHECK(lessons[4].error.contains(QStringLiteral("unknown key 'colour'")));
}

TEST_CASE("Opening a lesson loads its matrix, view, format and parameters beside its text",
          "[gui][lessons]")
{
    guitest::app();
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    const Lesson* sortAndPad = nullptr;
    const Lesson* waste = nullptr;
    for (const Lesson& l : w.lessons()) {
        if (l.id.startsWith(QStringLiteral("05_"))) sortAndPad = &l;
        if (l.id.startsWith(QStringLiteral("06_"))) waste = &l;
    }
    REQUIRE(sortAndPad);
    REQUIRE(waste);
    // the menu lists every lesson
    QMenu* menu = nullptr;
    for (QAction* a : w.menuBar()->actions()) {
        if (a->text() == QStringLiteral("&Lessons")) menu = a->menu();
    }
    REQUIRE(menu);
    CHECK(menu->actions().size() == w.lessons().size());

    REQUIRE(w.openLesson(*sortAndPad));
    REQUIRE(w.waitUntilIdle(60000));
    CHECK(w.errors().isEmpty());
    REQUIRE(w.controller()->document());
    CHECK(w.controller()->document()->name == QStringLiteral("pjds_fig1.mtx"));
    CHECK(w.currentViewName() == QStringLiteral("construction"));
    CHECK(w.controller()->params().block_rows == 4);
    auto* layout = w.constructionPanel()->layoutView();
    REQUIRE(layout->construction());
    CHECK(layout->construction()->format == "pjds");
    CHECK(layout->construction()->steps.back().stored == 32);  // Kreutzer Fig. 1, b_r = 4
    REQUIRE(w.lessonDock());
    CHECK(w.lessonDock()->isVisible());
    CHECK(w.lessonDock()->windowTitle() == QStringLiteral("Lesson 05"));
    CHECK(w.lessonText()->toPlainText().contains(sortAndPad->title));
    CHECK(w.lessonText()->toPlainText().contains(QStringLiteral("In the explorer:")));
    CHECK(w.lessonText()->toPlainText().contains(QStringLiteral("What you will learn")));

    // the next lesson replaces matrix, view, warp size and text
    REQUIRE(w.openLesson(*waste));
    REQUIRE(w.waitUntilIdle(60000));
    CHECK(w.controller()->document()->name == QStringLiteral("pellr_fig5.mtx"));
    CHECK(w.currentViewName() == QStringLiteral("waste"));
    CHECK(w.controller()->params().warp_size == 8);
    CHECK(w.wastePanel()->formatBox(0)->currentData().toString() == QStringLiteral("ellr"));
    CHECK(w.lessonDock()->windowTitle() == QStringLiteral("Lesson 06"));

    // every lesson opens without an error (a format its view has no box for, a bad spec)
    for (const Lesson& l : w.lessons()) {
        w.clearErrors();
        INFO(l.id.toStdString());
        REQUIRE(w.openLesson(l));
        REQUIRE(w.waitUntilIdle(120000));
        CHECK(w.errors().isEmpty());
        CHECK(w.currentViewName() == l.view);
    }
}

TEST_CASE("The pattern view colours by sign and draws the row and column counts beside it",
          "[gui][lessons][pattern]")
{
    guitest::app();
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    w.openFile(QStringLiteral(":/examples/canonical4.mtx"));  // rows 3 1 3 2, columns 2 2 2 3
    REQUIRE(w.waitUntilIdle(60000));
    w.setCurrentView(QStringLiteral("pattern"));
    auto* view = w.sparsityView();
    REQUIRE(w.waitUntilIdle(60000));
    CHECK(view->marginsShown());
    CHECK(view->rowMarginPeak() == 3);
    CHECK(view->columnMarginPeak() == 3);
    // both strips lie right of / below the matrix, next to it
    const auto& v = view->viewTransform();
    CHECK(view->rowMarginRect().left() >= v.x_of_col(4));
    CHECK(view->rowMarginRect().left() <= v.x_of_col(4) + 12);
    CHECK(view->columnMarginRect().top() >= v.y_of_row(4));
    CHECK(view->columnMarginRect().top() <= v.y_of_row(4) + 12);
    REQUIRE(view->patternInfo());
    CHECK(view->patternInfo()->document == w.controller()->document());
    CHECK(view->patternInfo()->facts.structural_symmetry() == Approx(0.4));  // 2 of 5 mirrored
    CHECK(view->patternInfo()->bandwidth == 3);

    // colour by sign: every value of canonical4 is positive -> the (0,0) cell is pure blue
    w.patternColourBox()->setCurrentIndex(w.patternColourBox()->findText(QStringLiteral("sign")));
    REQUIRE(w.waitUntilIdle(60000));
    CHECK(view->colouring() == spmv::viz::PatternColouring::sign);
    const auto& t = view->viewTransform();
    const QImage img = guitest::render(*view);
    CHECK(guitest::pixel(img, {t.x_of_col(0.5), t.y_of_row(0.5)}) == spmv::viz::okabe_ito::blue);
    // the margins switch off and give their room back to the plot
    const int before = view->plotRect().width();
    w.patternMarginsBox()->setChecked(false);
    CHECK(view->rowMarginRect().isEmpty());
    CHECK(view->plotRect().width() > before);
}

TEST_CASE("The construction shows the whole layout beside its window, and a click moves the "
          "window", "[gui][lessons][overview]")
{
    guitest::app();
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    w.setCurrentView(QStringLiteral("construction"));
    w.openFile(QStringLiteral(":/examples/powerlaw_2k.mtx"));  // 2000 rows: windowed
    REQUIRE(w.waitUntilIdle(60000));
    REQUIRE(w.selectFormat(QStringLiteral("construction"), QStringLiteral("pjds")));
    REQUIRE(w.waitUntilIdle(60000));
    auto* panel = w.constructionPanel();
    auto* overview = panel->overview();
    REQUIRE(panel->layoutView()->construction());
    const auto& last = panel->layoutView()->construction()->steps.back();
    CHECK(overview->isVisible());
    const auto& r = overview->raster();
    CHECK(r.threads == 2000);
    // the raster counts exactly what the construction's pad step stores
    CHECK(r.stored_total == last.stored);
    CHECK(r.stored_total - r.useful_total == last.padding);
    CHECK(r.useful_total == w.controller()->document()->stats.nnz);
    const QRectF frame = overview->windowRect();
    REQUIRE_FALSE(frame.isEmpty());
    CHECK(frame.top() == Approx(overview->rasterRect().top()));  // the window starts at row 0
    // a click near the bottom of the raster moves the window there (centred on the click)
    const QRect area = overview->rasterRect();
    QTest::mouseClick(overview, Qt::LeftButton, {}, QPoint(area.left() + 2, area.bottom() - 2));
    REQUIRE(w.waitUntilIdle(60000));
    CHECK(w.controller()->constructionWindow().first_row > 1800);
    CHECK(overview->windowRect().top() > area.top() + area.height() / 2);
    // a matrix the window shows whole needs no overview
    w.openFile(QStringLiteral(":/examples/pjds_fig1.mtx"));
    REQUIRE(w.waitUntilIdle(60000));
    CHECK_FALSE(overview->isVisible());
}

TEST_CASE("The text audit finds labels, cells, buttons and painted text cut short",
          "[gui][lessons][audit]")
{
    guitest::app();
    QWidget root;
    auto* label = new QLabel(QStringLiteral("a label far wider than thirty pixels"), &root);
    label->setGeometry(0, 0, 30, 20);
    auto* fits = new QLabel(QStringLiteral("ok"), &root);
    fits->setGeometry(0, 30, 200, 20);
    auto* button = new QPushButton(QStringLiteral("A button with a long title"), &root);
    button->setGeometry(0, 60, 40, 24);
    QStandardItemModel model(1, 2);
    model.setItem(0, 0, new QStandardItem(QStringLiteral("1234567890123456")));
    model.setItem(0, 1, new QStandardItem(QStringLiteral("7")));
    auto* table = new QTableView(&root);
    table->setModel(&model);
    table->setGeometry(0, 100, 300, 100);
    table->setColumnWidth(0, 30);
    table->setColumnWidth(1, 80);
    root.resize(320, 220);
    root.show();
    resetElisions();
    const QFontMetrics fm(root.font());
    CHECK(elideText(fm, QStringLiteral("short"), Qt::ElideRight, 500) == QStringLiteral("short"));
    CHECK(elideText(fm, QStringLiteral("a painted title that does not fit"), Qt::ElideRight, 40) !=
          QStringLiteral("a painted title that does not fit"));
    const QString report = auditText(&root).join(QLatin1Char('\n'));
    INFO(report.toStdString());
    CHECK(report.contains(QStringLiteral("label 'a label far wider")));
    CHECK_FALSE(report.contains(QStringLiteral("label 'ok'")));
    CHECK(report.contains(QStringLiteral("button 'A button with a long title'")));
    CHECK(report.contains(QStringLiteral("table cell (0, 0) '1234567890123456'")));
    CHECK_FALSE(report.contains(QStringLiteral("table cell (0, 1)")));
    CHECK(report.contains(QStringLiteral("painted text 'a painted title that does not fit'")));
    CHECK_FALSE(report.contains(QStringLiteral("painted text 'short'")));
    // hidden widgets (another tab) are not on the screen: not reported
    label->hide();
    resetElisions();
    CHECK_FALSE(auditText(&root).join(QLatin1Char('\n')).contains(QStringLiteral("label 'a label")));
}
