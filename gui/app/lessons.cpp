#include "lessons.hpp"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include "mainwindow.hpp"

namespace {

QString readText(const QString& path, QString* error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1").arg(path);
        return {};
    }
    return QString::fromUtf8(f.readAll());
}

Lesson parseLesson(const QDir& dir)
{
    Lesson l;
    l.id = dir.dirName();
    l.title = l.id;
    const QString jsonPath = dir.filePath(QStringLiteral("explorer.json"));
    l.markdown = readText(dir.filePath(QStringLiteral("README.md")), &l.error);
    for (const QString& line : l.markdown.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("# "))) {
            l.title = line.mid(2).trimmed();
            break;
        }
    }
    QString jsonError;
    const QString json = readText(jsonPath, &jsonError);
    if (!jsonError.isEmpty()) {
        l.error = jsonError;
        return l;
    }
    QJsonParseError parse{};
    const QJsonDocument doc = QJsonDocument::fromJson(json.toUtf8(), &parse);
    if (parse.error != QJsonParseError::NoError || !doc.isObject()) {
        l.error = QStringLiteral("%1: not a JSON object (%2 at offset %3)")
                      .arg(jsonPath, parse.errorString())
                      .arg(parse.offset);
        return l;
    }
    const QJsonObject o = doc.object();
    auto bad = [&](const QString& what) {
        l.error = QStringLiteral("%1: %2").arg(jsonPath, what);
        return l;
    };
    static const QStringList known{QStringLiteral("matrix"), QStringLiteral("view"),
                                   QStringLiteral("format"),  QStringLiteral("params"),
                                   QStringLiteral("profile"), QStringLiteral("ranks"),
                                   QStringLiteral("look_at"), QStringLiteral("text")};
    for (const QString& key : o.keys()) {
        if (!known.contains(key)) return bad(QStringLiteral("unknown key '%1'").arg(key));
    }
    l.matrix = o.value(QStringLiteral("matrix")).toString();
    if (l.matrix.isEmpty()) return bad(QStringLiteral("'matrix' is missing"));
    if (!l.matrix.startsWith(QLatin1String("gen:"))) {
        // a built-in example by its file name
        const QString path = QStringLiteral(":/examples/%1").arg(l.matrix);
        if (!QFile::exists(path)) {
            return bad(QStringLiteral("'matrix': %1 is not a built-in example").arg(l.matrix));
        }
        l.matrix = path;
    }
    l.view = o.value(QStringLiteral("view")).toString();
    if (!MainWindow::viewNames().contains(l.view)) {
        return bad(QStringLiteral("'view': unknown view '%1'").arg(l.view));
    }
    l.format = o.value(QStringLiteral("format")).toString();
    const QJsonObject params = o.value(QStringLiteral("params")).toObject();
    for (const QString& key : params.keys()) {
        static const QStringList names{QStringLiteral("warp"), QStringLiteral("br"),
                                       QStringLiteral("slice"), QStringLiteral("sigma")};
        if (!names.contains(key) || !params.value(key).isDouble()) {
            return bad(QStringLiteral("'params': want warp, br, slice or sigma as numbers, got "
                                      "'%1'")
                           .arg(key));
        }
        l.params[key] = params.value(key).toInt();
    }
    l.profile = o.value(QStringLiteral("profile")).toString();
    l.ranks = o.value(QStringLiteral("ranks")).toInt(0);
    l.lookAt = o.value(QStringLiteral("look_at")).toString();
    const QString text = o.value(QStringLiteral("text")).toString(QStringLiteral("right"));
    if (text != QLatin1String("right") && text != QLatin1String("bottom")) {
        return bad(QStringLiteral("'text': want right or bottom, got '%1'").arg(text));
    }
    l.textBelow = text == QLatin1String("bottom");
    return l;
}

}  // namespace

QList<Lesson> loadLessons(const QString& root)
{
    QList<Lesson> lessons;
    const QDir base(root);
    for (const QString& name : base.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        const QDir dir(base.filePath(name));
        if (!dir.exists(QStringLiteral("explorer.json"))) continue;
        lessons.append(parseLesson(dir));
    }
    return lessons;
}
