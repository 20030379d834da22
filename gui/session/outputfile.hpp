#pragma once
// OutputFile: where the explorer writes what it exports (--screenshot, --record, File > Export).
//  - A path that does not exist yet, or a regular file: written through QSaveFile (a temporary
//    file beside it, renamed over it on commit), so a failed or interrupted export never leaves
//    a half-written file in place of an earlier one.
//  - A symbolic link: followed; its target is written as above, and the link stays a link.
//  - Anything else that exists (a character device such as /dev/null, a FIFO, a socket):
//    written in place with QFile, never replaced by a rename (the explorer run as root once
//    replaced /dev/full with a PNG). A write or flush that fails there (/dev/full) is an error.
// The CLI's spmv::io::AtomicFile follows the same rules.
#include <QFile>
#include <QSaveFile>
#include <QString>

#include <memory>

class OutputFile {
public:
    explicit OutputFile(const QString& path);
    /// Opens for writing; false with *error set ("cannot write PATH: reason").
    bool open(QString* error);
    QIODevice* device();
    /// Flushes and, for a regular file, renames into place; false with *error set.
    bool commit(QString* error);
    /// The file actually written: the link's target for a symbolic link.
    const QString& target() const { return m_target; }
    bool inPlace() const { return m_inPlace; }

private:
    QString m_path;
    QString m_target;
    bool m_inPlace = false;
    std::unique_ptr<QSaveFile> m_save;
    std::unique_ptr<QFile> m_file;
};
