#include "outputfile.hpp"

#include <QFileInfo>

#include <filesystem>
#include <system_error>

OutputFile::OutputFile(const QString& path) : m_path(path), m_target(path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path p = fs::path(path.toStdString());
    if (fs::is_symlink(fs::symlink_status(p, ec))) {
        // the whole chain of links, resolved as far as it exists (a dangling link's target is
        // created through the same path)
        const fs::path resolved = fs::weakly_canonical(p, ec);
        if (!ec) m_target = QString::fromStdString(resolved.string());
    }
    ec.clear();
    const auto st = fs::status(fs::path(m_target.toStdString()), ec);
    m_inPlace = !ec && fs::exists(st) && !fs::is_regular_file(st) && !fs::is_directory(st);
}

bool OutputFile::open(QString* error)
{
    QIODevice* dev = nullptr;
    if (m_inPlace) {
        m_file = std::make_unique<QFile>(m_target);
        dev = m_file.get();
    } else {
        m_save = std::make_unique<QSaveFile>(m_target);
        dev = m_save.get();
    }
    if (!dev->open(QIODevice::WriteOnly)) {
        if (error) *error = QStringLiteral("cannot write %1: %2").arg(m_path, dev->errorString());
        return false;
    }
    return true;
}

QIODevice* OutputFile::device()
{
    return m_inPlace ? static_cast<QIODevice*>(m_file.get()) : m_save.get();
}

bool OutputFile::commit(QString* error)
{
    if (m_inPlace) {
        const bool ok = m_file && m_file->error() == QFileDevice::NoError && m_file->flush() &&
                        m_file->error() == QFileDevice::NoError;
        const QString why = m_file ? m_file->errorString() : QStringLiteral("not open");
        if (m_file) m_file->close();
        if (!ok && error) *error = QStringLiteral("cannot write %1: %2").arg(m_path, why);
        return ok;
    }
    if (!m_save || !m_save->commit()) {
        if (error) {
            *error = QStringLiteral("cannot write %1: %2")
                         .arg(m_path, m_save ? m_save->errorString() : QStringLiteral("not open"));
        }
        return false;
    }
    return true;
}
