#include "matrixdocument.hpp"

#include <sstream>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

#include <spmv/error.hpp>

#include "memoryguard.hpp"

std::shared_ptr<MatrixDocument> makeDocument(spmv::Csr<double, std::int32_t> csr, QString name,
                                             QString source)
{
    auto doc = std::make_shared<MatrixDocument>();
    doc->name = std::move(name);
    doc->source = std::move(source);
    doc->csr = std::move(csr);
    doc->rowLengths = spmv::row_lengths(doc->csr);
    doc->stats = spmv::analysis::row_stats(doc->rowLengths, doc->csr.num_cols);
    return doc;
}

MatrixDocumentPtr loadMatrixMarket(const QString& path)
{
    QElapsedTimer timer;
    timer.start();
    spmv::io::MatrixMarketInfo info;
    spmv::Csr<double, std::int32_t> csr;
    const QString name = QFileInfo(path).fileName();
    spmv::io::ReadOptions options;
    options.memory = explorerMemoryBudget();
    if (path.startsWith(QLatin1String(":/"))) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            SPMV_THROW(spmv::Error, "cannot open resource " + path.toStdString());
        }
        std::istringstream in(file.readAll().toStdString());
        csr = spmv::io::read_matrix_market(in, name.toStdString(), &info, options);
    } else {
        csr = spmv::io::read_matrix_market(QFile::encodeName(path).toStdString(), &info, options);
    }
    auto doc = makeDocument(std::move(csr), name, path);
    doc->fileInfo = info;
    doc->loadSeconds = static_cast<double>(timer.nsecsElapsed()) * 1e-9;
    return doc;
}

MatrixDocumentPtr generateMatrix(const QString& generator, const spmv::gen::GeneratorParams& params,
                                 std::uint64_t seed)
{
    QElapsedTimer timer;
    timer.start();
    auto csr = spmv::gen::generate(spmv::gen::Spec{generator.toStdString(), params, seed},
                                   explorerMemoryBudget());
    QString description = QStringLiteral("generated: %1").arg(generator);
    for (const auto& [key, value] : params) {
        description += QStringLiteral(" %1=%2").arg(QString::fromStdString(key)).arg(value);
    }
    if (spmv::gen::find_generator(generator.toStdString()).uses_seed) {
        description += QStringLiteral(" seed=%1").arg(seed);
    }
    auto doc = makeDocument(std::move(csr), generator, description);
    doc->loadSeconds = static_cast<double>(timer.nsecsElapsed()) * 1e-9;
    return doc;
}

QString builtInExamplePath()
{
    return QStringLiteral(":/examples/pjds_fig1.mtx");
}

QList<QPair<QString, QString>> sampleMatrices()
{
    QList<QPair<QString, QString>> list;
    const QDir examples(QStringLiteral(":/examples"));
    for (const QString& f :
         examples.entryList({QStringLiteral("*.mtx")}, QDir::Files, QDir::Name)) {
        list.append({QStringLiteral("%1 (built in)").arg(f), examples.filePath(f)});
    }
#ifdef SPMV_SAMPLE_DIR
    // the project's sample directory, without the files that are built in as well
    const QStringList builtIn =
        examples.entryList({QStringLiteral("*.mtx")}, QDir::Files, QDir::Name);
    const QDir samples(QStringLiteral(SPMV_SAMPLE_DIR));
    for (const QString& f : samples.entryList({QStringLiteral("*.mtx")}, QDir::Files, QDir::Name)) {
        if (!builtIn.contains(f)) {
            list.append({f, samples.filePath(f)});
        }
    }
#endif
    return list;
}
