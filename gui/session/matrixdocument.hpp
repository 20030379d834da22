#pragma once
// A loaded or generated matrix with what every view needs about it; shared read-only between
// the GUI thread and the workers (std::shared_ptr<const MatrixDocument>).
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <QString>

#include <spmv/analysis/pattern.hpp>
#include <spmv/analysis/row_stats.hpp>
#include <spmv/formats/csr.hpp>
#include <spmv/generators.hpp>
#include <spmv/io/matrix_market.hpp>

struct MatrixDocument {
    QString name;    ///< short display name, e.g. "pjds_fig1.mtx"
    QString source;  ///< file path, resource path or "generated: pde size=10 seed=1"
    spmv::Csr<double, std::int32_t> csr;
    std::vector<std::int32_t> rowLengths;
    spmv::analysis::RowLengthStats stats;
    std::optional<spmv::io::MatrixMarketInfo> fileInfo;  ///< for files only
    double loadSeconds = 0.0;                            ///< reading / generating
};

using MatrixDocumentPtr = std::shared_ptr<const MatrixDocument>;

/// What the pattern view prints and draws besides the raster, computed after the matrix is
/// shown (the symmetry test is a binary search per entry: ~1 s for 1M x 10M random, which must
/// not delay the first picture).
struct PatternInfo {
    MatrixDocumentPtr document;              ///< the matrix these facts belong to
    std::vector<std::int32_t> columnCounts;  ///< stored entries per column (pattern margins)
    spmv::analysis::PatternFacts facts;      ///< symmetry, signs, |value| range
    std::int64_t bandwidth = 0;              ///< max |i - j| over the stored entries
};
using PatternInfoPtr = std::shared_ptr<const PatternInfo>;

/// Computes the PatternInfo of a document (O(nnz log)).
PatternInfoPtr makePatternInfo(MatrixDocumentPtr document);

/// Wraps a matrix (computes its row lengths and statistics). Throws spmv::Error.
std::shared_ptr<MatrixDocument> makeDocument(spmv::Csr<double, std::int32_t> csr, QString name,
                                             QString source);

/// Reads a Matrix Market file; ":/..." paths are read from the Qt resources. Throws
/// spmv::MatrixMarketError ("file:line: problem") or spmv::Error.
MatrixDocumentPtr loadMatrixMarket(const QString& path);

/// Runs a core generator (spmv::gen::generate). Throws spmv::InvalidArgument.
MatrixDocumentPtr generateMatrix(const QString& generator, const spmv::gen::GeneratorParams& params,
                                 std::uint64_t seed);

/// A generator spec as the CLI takes it: gen:NAME[:param=value,...] with the random stream as
/// the key seed, e.g. "gen:pde:size=30" or "gen:powerlaw:rows=2000,max-len=200,seed=3"
/// (spmv::gen::parse_spec). Also taken: the same without "gen:", and the older
/// NAME[:param=value,...]@SEED ("powerlaw:rows=2000@3").
struct GeneratorSpec {
    QString generator;
    spmv::gen::GeneratorParams params;
    quint64 seed = 1;
};
/// Parses a spec and checks the generator's name; nothing, with *error set to what is wrong
/// (the core's message, quoting the spec), for a bad spec.
std::optional<GeneratorSpec> parseGeneratorSpec(const QString& spec, QString* error);

/// The built-in example shown at start-up (a resource, so it works from any directory).
QString builtInExamplePath();

/// Sample matrices: the built-in examples plus every .mtx in the source tree's
/// sample_matrices/ directory (if it exists), as (display name, path) pairs.
QList<QPair<QString, QString>> sampleMatrices();
