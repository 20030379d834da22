#include "matrixdocument.hpp"

#include <sstream>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

#include <spmv/analysis/reorder.hpp>
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

PatternInfoPtr makePatternInfo(MatrixDocumentPtr document)
{
    auto info = std::make_shared<PatternInfo>();
    info->columnCounts = spmv::analysis::column_counts(document->csr);
    info->facts = spmv::analysis::pattern_facts(document->csr);
    info->bandwidth = spmv::analysis::bandwidth(document->csr);
    info->document = std::move(document);
    return info;
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

std::optional<GeneratorSpec> parseGeneratorSpec(const QString& text, QString* error)
{
    // The CLI's syntax, parsed by the same core function: gen:NAME[:key=value,...] with the
    // random stream as the key seed. The older NAME[:key=value,...][@seed] of this program is
    // rewritten into it first (an alias: "gen:" may be left out, "@3" means "seed=3").
    QString spec = text.startsWith(QLatin1String("gen:")) ? text.mid(4) : text;
    if (const auto at = spec.lastIndexOf(QLatin1Char('@')); at >= 0) {
        const QString seed = spec.mid(at + 1);
        spec.truncate(at);
        spec += (spec.contains(QLatin1Char(':')) ? QLatin1Char(',') : QLatin1Char(':')) +
                QStringLiteral("seed=") + seed;
    }
    spec.prepend(QStringLiteral("gen:"));
    GeneratorSpec g;
    try {
        const auto parsed = spmv::gen::parse_spec(spec.toStdString());
        spmv::gen::find_generator(parsed.name);
        g.generator = QString::fromStdString(parsed.name);
        g.params = parsed.params;
        g.seed = parsed.seed;
    } catch (const spmv::Error& e) {
        *error = QString::fromStdString(spmv::user_message(e.what()));
        if (spec != text) {  // the message quotes the rewritten spec: name the one given too
            *error += QStringLiteral(" (given as '%1')").arg(text);
        }
        return std::nullopt;
    }
    return g;
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
