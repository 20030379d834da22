#pragma once
// The guided tour: every tutorial lesson (tutorials/NN_name/) that has an explorer.json is a
// Lessons menu entry that opens the lesson's matrix, view and parameters with the lesson's
// README beside them. Both files travel inside the binary (Qt resources under :/lessons), so
// the tour works from any directory. explorer.json:
//   { "matrix": "pjds_fig1.mtx" | "gen:pde:size=30",   a built-in example or a generator spec
//     "view": "construction",                          MainWindow::viewNames()
//     "format": "pjds",                                optional, registry name
//     "params": {"warp": 4, "br": 4, "slice": 2, "sigma": 4},   optional
//     "profile": "H100", "ranks": 4,                   optional (model/timing, distribution)
//     "look_at": "what to look at in the view",
//     "text": "right" | "bottom" }                     optional: where the lesson's text docks
//                                                      (bottom for views that need the width)
#include <QList>
#include <QMap>
#include <QString>

struct Lesson {
    QString id;        ///< directory name, e.g. "05_sort_and_pad"
    QString title;     ///< the README's first heading, e.g. "05 · Sort and pad: pJDS and SELL-C-σ"
    QString markdown;  ///< the README
    QString matrix;    ///< resource path of a built-in example, or "gen:..."
    QString view;
    QString format;
    QMap<QString, int> params;  ///< warp, br, slice, sigma
    QString profile;
    int ranks = 0;
    QString lookAt;
    bool textBelow = false;  ///< "text": "bottom"
    QString error;  ///< why the lesson cannot be opened (a malformed explorer.json)
};

/// The lessons found under `root` (default: the built-in ":/lessons"), in directory order.
/// A lesson directory without explorer.json is skipped; a malformed one gives a Lesson whose
/// error says what is wrong (file and key).
QList<Lesson> loadLessons(const QString& root = QStringLiteral(":/lessons"));
