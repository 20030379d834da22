#include "analysiscontroller.hpp"

#include <cstdio>
#include <new>
#include <optional>
#include <sys/resource.h>

#include <QElapsedTimer>

#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <spmv/analysis/estimate.hpp>
#include <spmv/any_matrix.hpp>
#include <spmv/error.hpp>

#include "memoryguard.hpp"

namespace {

QThreadPool* analysisPool()
{
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setMaxThreadCount(qMax(2, QThread::idealThreadCount()));
        return p;
    }();
    return pool;
}

QString describeException(const std::exception& e)
{
    return QString::fromStdString(spmv::user_message(e.what()));  // no C++ source locations
}

constexpr int histogramMaxBars = 160;

/// SPMVLAB_JOB_TIMES=1: every analysis job prints its name, wall time and the process's peak
/// resident memory so far to stderr when it ends (scripts/bench_gui.sh reads them).
class JobClock {
public:
    explicit JobClock(const QString& what) : m_what(what)
    {
        if (enabled()) m_timer.start();
    }
    ~JobClock()
    {
        if (!m_timer.isValid()) return;
        rusage u{};
        getrusage(RUSAGE_SELF, &u);
        std::fprintf(stderr, "spmvlab job %s: %.3f s, peak RSS %.0f MiB\n",
                     m_what.toLocal8Bit().constData(),
                     static_cast<double>(m_timer.nsecsElapsed()) * 1e-9,
                     static_cast<double>(u.ru_maxrss) / 1024.0);
    }
    JobClock(const JobClock&) = delete;
    JobClock& operator=(const JobClock&) = delete;
    static bool enabled()
    {
        static const bool on = qEnvironmentVariableIntValue("SPMVLAB_JOB_TIMES") != 0;
        return on;
    }

private:
    QString m_what;
    QElapsedTimer m_timer;
};

/// spmv::build, refused with a message (before any allocation) when the format would take
/// more than `limit` bytes: e.g. ELLPACK-R of a power-law matrix in the waste view.
spmv::AnyMatrix<double> buildWithinLimit(const std::string& format,
                                         const spmv::Csr<double, std::int32_t>& a,
                                         const spmv::FormatParams& params, quint64 limit)
{
    if (spmv::analysis::has_footprint_estimate(format)) {
        const auto need = spmv::analysis::estimate_footprint(a, format, params).total_bytes();
        if (need > limit) {
            SPMV_THROW(spmv::InvalidArgument,
                       std::string(spmv::find_format(format).title) +
                           " of this matrix would need " +
                           spmv::analysis::format_bytes(static_cast<double>(need)) +
                           " (limit " + spmv::analysis::format_bytes(static_cast<double>(limit)) +
                           "): not built");
        }
    }
    return spmv::build<double>(format, a, params);
}

}  // namespace

spmv::FormatParams AnalysisController::suitedParams(std::int64_t rows)
{
    spmv::FormatParams p;
    if (rows <= blackboardRows) {
        // the blackboard: warps of 4 threads, pJDS blocks of 4 rows, SELL-4-8, so that a few
        // warps and blocks fit on a slide
        p.block_rows = 4;
        p.warp_size = 4;
        p.slice_height = 4;
        p.sort_window = 8;
    } else {
        // the hardware: 32-thread warps, b_r = 32, SELL-32-1 (the CLI's defaults); setDocument
        // replaces sigma = 1 by the advisor's sigma for the matrix (adviseSortWindow)
        p.block_rows = 32;
        p.warp_size = 32;
        p.slice_height = 32;
        p.sort_window = 1;
    }
    return p;
}

int AnalysisController::advisedSortWindow(const spmv::Csr<double, std::int32_t>& a,
                                          int sliceHeight)
{
    spmv::FormatParams p;
    p.slice_height = sliceHeight;
    p.sort_window = 0;  // "auto", resolved by the format that reads sigma (its story file)
    return spmv::resolve_all_params(a.row_ptrs, p).sort_window;
}

bool AnalysisController::adviseSortWindow()
{
    // sigma = 1 (the CLI's default) makes SELL a padding tower on a power law (1.8 GiB on a
    // 1M-row one): above the blackboard a matrix gets the advisor's sigma until the user sets one
    m_sigmaAdvised = m_document && !m_userSet.contains(spmv::Param::sort_window) &&
                     m_document->stats.rows > blackboardRows;
    if (!m_sigmaAdvised) return false;
    auto& a = m_advisedSigma;
    if (a.document.lock() != m_document || a.sliceHeight != m_params.slice_height || a.sigma < 1) {
        a = {m_document, m_params.slice_height,
             advisedSortWindow(m_document->csr, m_params.slice_height)};
    }
    if (a.sigma == m_params.sort_window) return false;
    m_params.sort_window = a.sigma;
    return true;
}

AnalysisController::AnalysisController(QObject* parent) : QObject(parent)
{
    m_params = suitedParams(0);
    m_formatLimit = ::formatMemoryLimit();
}

quint64 AnalysisController::formatMemoryLimit() const
{
    if (m_formatLimitSet || !m_document) return m_formatLimit;
    return ::formatMemoryLimit(csrBytes(m_document->csr), m_formatLimit);
}

AnalysisController::~AnalysisController()
{
    // the workers only touch what they captured by value; wait so none outlives the process
    for (auto& f : m_futures) {
        f.waitForFinished();
    }
}

template <typename T>
void AnalysisController::runJob(const QString& what, quint64& generation, std::function<T()> work,
                                std::function<void(T)> done, std::function<void()> finally)
{
    struct Outcome {
        std::optional<T> value;
        QString error;
    };
    const quint64 gen = ++generation;
    quint64* counter = &generation;
    jobStarted();
    QFuture<Outcome> running = QtConcurrent::run(analysisPool(), [what, work = std::move(work)]() {
        Outcome o;
        const JobClock clock(what);
        try {
            o.value = work();
        } catch (const std::bad_alloc&) {
            o.error = tr("Out of memory: the matrix is too large for this computation.");
        } catch (const std::exception& e) {
            o.error = describeException(e);
        }
        return o;
    });
    running.then(this, [this, what, gen, counter, done = std::move(done),
                        finally = std::move(finally)](Outcome o) mutable {
        // then() runs the continuation at once when the job already finished, i.e. possibly
        // inside the setter that started it: hop through the event loop so that a result
        // always arrives after the caller returned (and a newer request can make it stale).
        QMetaObject::invokeMethod(
            this,
            [this, what, gen, counter, done = std::move(done), finally = std::move(finally),
             o = std::move(o)]() mutable {
                if (gen == *counter) {
                    if (o.value) {
                        done(std::move(*o.value));
                    } else {
                        emit analysisFailed(what, o.error);
                        emit errorOccurred(o.error);
                    }
                    if (finally) finally();
                }
                jobFinished();
            },
            Qt::QueuedConnection);
    });
    std::erase_if(m_futures, [](const QFuture<void>& f) { return f.isFinished(); });
    m_futures.push_back(QFuture<void>(running));
}

void AnalysisController::jobStarted()
{
    if (m_pending++ == 0) {
        emit busyChanged(true);
    }
}

void AnalysisController::jobFinished()
{
    if (--m_pending == 0) {
        emit busyChanged(false);
    }
}

namespace {
/// A loaded matrix with the advisor's sigma for it (0: not computed), worked out off the GUI
/// thread: ~0.25 s for a 1M-row power law.
using Loaded = std::pair<MatrixDocumentPtr, int>;
}  // namespace

void AnalysisController::openFile(const QString& path)
{
    emit loadingStarted(tr("Reading %1 ...").arg(path));
    const int c = m_userSet.contains(spmv::Param::slice_height)
                      ? m_params.slice_height
                      : suitedParams(blackboardRows + 1).slice_height;
    runJob<Loaded>(
        QStringLiteral("load"), m_loadGeneration,
        [path, c] {
            auto doc = loadMatrixMarket(path);
            return Loaded{doc, doc->stats.rows > blackboardRows ? advisedSortWindow(doc->csr, c) : 0};
        },
        [this, c](Loaded loaded) {
            m_advisedSigma = {loaded.first, c, loaded.second};
            setDocument(std::move(loaded.first));
        });
}

void AnalysisController::generate(const QString& generator,
                                  const spmv::gen::GeneratorParams& params, quint64 seed)
{
    emit loadingStarted(tr("Generating %1 ...").arg(generator));
    const int c = m_userSet.contains(spmv::Param::slice_height)
                      ? m_params.slice_height
                      : suitedParams(blackboardRows + 1).slice_height;
    runJob<Loaded>(
        QStringLiteral("load"), m_loadGeneration,
        [generator, params, seed, c] {
            auto doc = generateMatrix(generator, params, seed);
            return Loaded{doc, doc->stats.rows > blackboardRows ? advisedSortWindow(doc->csr, c) : 0};
        },
        [this, c](Loaded loaded) {
            m_advisedSigma = {loaded.first, c, loaded.second};
            setDocument(std::move(loaded.first));
        });
}

void AnalysisController::setDocument(MatrixDocumentPtr document)
{
    if (!document) {
        return;
    }
    ++m_loadGeneration;  // a load still running would replace this document: drop it
    m_document = std::move(document);
    const bool wasAdvised = m_sigmaAdvised;
    // a real matrix rarely has its story in the top-left corner: the construction opens where
    // the entries are (bayer10: rows 0-63 hold columns 13,317 on only)
    m_window = spmv::viz::ConstructionWindow::following(m_window.rows, m_window.cols);
    {
        // parameters that suit the matrix, each until the user sets it
        const auto p = suitedParams(m_document->stats.rows);
        bool changed = false;
        for (auto id : {spmv::Param::warp_size, spmv::Param::block_rows,
                        spmv::Param::slice_height, spmv::Param::sort_window}) {
            if (!m_userSet.contains(id) && spmv::get(m_params, id) != spmv::get(p, id)) {
                spmv::set(m_params, id, spmv::get(p, id));
                changed = true;
            }
        }
        changed = adviseSortWindow() || changed;  // the load job's, if it worked it out
        if (changed || wasAdvised != m_sigmaAdvised) emit paramsChanged(m_params);
    }
    m_patternDue = true;
    ++m_patternGeneration;  // the facts of the previous matrix are stale
    emit documentAvailable(m_document);
    startAllAnalyses();
}

void AnalysisController::startAllAnalyses()
{
    if (!m_document) {
        return;
    }
    // Stage 1, what the user sees first: the histogram and the row order (the pattern raster
    // runs in SparsityView's own thread meanwhile). Stage 2 starts once the histogram is in, so
    // that it does not compete with the first picture for the CPU: first the construction
    // steps (the format built for the whole matrix, e.g. pJDS: ~0.3 s CPU for 1M x 10M), then
    // warp waste and every format's footprint (the heavy part for large matrices).
    m_backgroundDue = true;
    deferConstruction();
    startHistogram();
    startRowOrder();
}

void AnalysisController::deferConstruction()
{
    // what the previous matrix or parameters built is stale from now on, also while the new
    // construction waits for the histogram: drop a result (or window) still on its way
    m_constructionDue = true;
    ++m_constructionGeneration;
    ++m_windowGeneration;
    m_constructionSource.reset();
}

bool AnalysisController::deferred(Analysis analysis) const
{
    return m_document && spmv::nnz(m_document->csr) > lazyNonzeros &&
           (m_shownAnalyses & analysis) == 0;
}

void AnalysisController::setShownAnalyses(unsigned analyses)
{
    m_shownAnalyses = analyses;
    if (!m_document || m_backgroundDue) return;  // stage 2 not reached: it starts them
    if (m_constructionDue && !deferred(ConstructionSteps)) startConstruction();
    if (m_patternDue && !deferred(PatternFacts)) startPatternInfo();
    for (int side = 0; side < 2; ++side) {
        if (m_wasteDue.at(static_cast<std::size_t>(side)) && !deferred(WarpWaste)) {
            startWaste(side);
        }
    }
    if (m_summariesDue && !deferred(FormatSummaries)) startSummaries();
}

void AnalysisController::startPatternInfo()
{
    if (!m_document) return;
    if (deferred(PatternFacts)) {
        m_patternDue = true;
        return;
    }
    m_patternDue = false;
    runJob<PatternInfoPtr>(
        QStringLiteral("pattern"), m_patternGeneration,
        [doc = m_document] { return makePatternInfo(doc); },
        [this](PatternInfoPtr info) { emit patternInfoAvailable(std::move(info)); });
}

void AnalysisController::startBackgroundAnalyses()
{
    if (m_constructionDue) {
        startConstruction();
    }
    if (m_patternDue) {
        startPatternInfo();
    }
    if (!m_backgroundDue) {
        return;
    }
    m_backgroundDue = false;
    startWaste(0);
    startWaste(1);
    startSummaries();
}

void AnalysisController::setParams(const spmv::FormatParams& params)
{
    for (const auto& info : spmv::parameters()) {  // the user's: those that change
        if (spmv::get(params, info.id) != spmv::get(m_params, info.id)) m_userSet.insert(info.id);
    }
    m_params = params;
    adviseSortWindow();  // a new C, sigma still the advisor's: chosen again for it
    emit paramsChanged(m_params);
    startAllAnalyses();
}

void AnalysisController::setWarpSize(int warpSize)
{
    if (warpSize == m_params.warp_size) return;
    m_userSet.insert(spmv::Param::warp_size);
    m_params.warp_size = warpSize;
    emit paramsChanged(m_params);
    if (!m_document) return;
    startWaste(0);
    startWaste(1);
    startSummaries();
}

void AnalysisController::setBlockRows(int blockRows)
{
    if (blockRows == m_params.block_rows) return;
    m_userSet.insert(spmv::Param::block_rows);
    m_params.block_rows = blockRows;
    emit paramsChanged(m_params);
    startAllAnalyses();
}

void AnalysisController::setSliceHeight(int sliceHeight)
{
    if (sliceHeight == m_params.slice_height) return;
    m_userSet.insert(spmv::Param::slice_height);
    m_params.slice_height = sliceHeight;
    adviseSortWindow();
    emit paramsChanged(m_params);
    startAllAnalyses();
}

void AnalysisController::setSortWindow(int sortWindow)
{
    if (sortWindow == m_params.sort_window) return;
    m_userSet.insert(spmv::Param::sort_window);
    m_params.sort_window = sortWindow;
    m_sigmaAdvised = false;
    emit paramsChanged(m_params);
    startAllAnalyses();
}

void AnalysisController::setParam(spmv::Param id, int value)
{
    if (spmv::get(m_params, id) == value) return;
    spmv::set(m_params, id, value);
    m_userSet.insert(id);
    adviseSortWindow();  // sigma set: no longer the advisor's; C set: sigma chosen for it
    emit paramsChanged(m_params);
    startAllAnalyses();
}

void AnalysisController::setConstructionFormat(const QString& format)
{
    if (format == m_constructionFormat) return;
    m_constructionFormat = format;
    startConstruction();
}

void AnalysisController::setWasteFormat(int side, const QString& format)
{
    auto& current = m_wasteFormats.at(static_cast<std::size_t>(side));
    if (format == current) return;
    current = format;
    startWaste(side);
}

void AnalysisController::setWasteFirstWarp(int firstWarp)
{
    if (firstWarp == m_wasteFirstWarp) return;
    m_wasteFirstWarp = firstWarp;
    startWaste(0);
    startWaste(1);
}

void AnalysisController::setRowOrderFormat(const QString& format)
{
    if (format == m_rowOrderFormat) return;
    m_rowOrderFormat = format;
    startRowOrder();
}

void AnalysisController::startHistogram()
{
    if (!m_document) return;
    runJob<HistogramChartPtr>(
        QStringLiteral("histogram"), m_histogramGeneration,
        [doc = m_document, params = m_params] {
            return std::make_shared<const spmv::viz::HistogramChart>(
                spmv::viz::row_length_chart(doc->csr, doc->rowLengths, params, histogramMaxBars));
        },
        [this](HistogramChartPtr c) { emit histogramAvailable(std::move(c)); },
        [this] { startBackgroundAnalyses(); });
}

void AnalysisController::startSummaries()
{
    if (!m_document) return;
    if (deferred(FormatSummaries)) {  // a large matrix: when the memory view is shown
        m_summariesDue = true;
        ++m_summaryGeneration;  // one still running is for older parameters
        return;
    }
    m_summariesDue = false;
    runJob<SummariesPtr>(
        QStringLiteral("summaries"), m_summaryGeneration,
        [doc = m_document, params = m_params, limit = formatMemoryLimit()] {
            return std::make_shared<const std::vector<spmv::analysis::FormatSummary>>(
                spmv::analysis::summarize_all(doc->csr, params, static_cast<std::size_t>(limit)));
        },
        [this](SummariesPtr s) { emit summariesAvailable(std::move(s)); });
}

void AnalysisController::startConstruction()
{
    if (!m_document) return;
    if (deferred(ConstructionSteps)) {  // a large matrix: when the construction is shown
        m_constructionDue = true;
        ++m_constructionGeneration;
        ++m_windowGeneration;
        m_constructionSource.reset();
        return;
    }
    m_constructionDue = false;  // started now (e.g. a new format before the histogram arrived)
    // build the format once for the whole matrix (the heavy part) ...
    ++m_windowGeneration;  // a window of the previous layout must not arrive after this one
    m_constructionSource.reset();
    using Prepared = std::pair<ConstructionSourcePtr, LayoutWorkPtr>;
    runJob<Prepared>(
        QStringLiteral("construction"), m_constructionGeneration,
        [doc = m_document, params = m_params, format = m_constructionFormat.toStdString(),
         limit = formatMemoryLimit()] {
            const auto csr = std::shared_ptr<const spmv::Csr<double, std::int32_t>>(doc, &doc->csr);
            auto src = spmv::viz::prepare_construction(csr, format, params,
                                                       static_cast<std::size_t>(limit));
            auto work = std::make_shared<const spmv::ThreadWork>(
                spmv::viz::construction_thread_work(*src));
            return Prepared{std::move(src), std::move(work)};
        },
        [this](Prepared prepared) {
            m_constructionSource = std::move(prepared.first);
            QString title = m_constructionFormat;
            for (const auto& f : spmv::formats()) {
                if (QLatin1String(f.name.data(), static_cast<qsizetype>(f.name.size())) ==
                    m_constructionFormat) {
                    title = QString::fromUtf8(f.title.data(), static_cast<qsizetype>(f.title.size()));
                }
            }
            emit layoutWorkAvailable(std::move(prepared.second), title);
            startConstructionWindow();
        });
}

void AnalysisController::setConstructionWindow(qint64 firstRow, qint64 firstCol)
{
    auto w = m_window;
    w.first_row = qMax<qint64>(0, firstRow);
    w.first_col = qMax<qint64>(0, firstCol);
    w.follow_rows = w.follow_cols = false;
    w.focus = -1;
    setConstructionWindow(w);
}

void AnalysisController::setConstructionWindow(const spmv::viz::ConstructionWindow& window)
{
    const auto& o = m_window;
    if (window.first_row == o.first_row && window.first_col == o.first_col &&
        window.rows == o.rows && window.cols == o.cols && window.follow_rows == o.follow_rows &&
        window.follow_cols == o.follow_cols && window.focus == o.focus) {
        return;
    }
    m_window = window;
    m_window.first_row = qMax<qint64>(0, m_window.first_row);
    m_window.first_col = qMax<qint64>(0, m_window.first_col);
    startConstructionWindow();
}

void AnalysisController::startConstructionWindow()
{
    // ... then cut the window shown out of it (cheap, but still off the UI thread)
    if (!m_constructionSource) return;
    runJob<ConstructionPtr>(
        QStringLiteral("construction"), m_windowGeneration,
        [src = m_constructionSource, window = m_window] {
            return std::make_shared<const spmv::viz::Construction>(
                spmv::viz::construction(*src, window));
        },
        [this](ConstructionPtr c) { emit constructionAvailable(std::move(c)); });
}

void AnalysisController::startWaste(int side)
{
    if (!m_document) return;
    if (deferred(WarpWaste)) {  // a large matrix: when the waste view is shown
        m_wasteDue.at(static_cast<std::size_t>(side)) = true;
        ++m_wasteGeneration.at(static_cast<std::size_t>(side));
        return;
    }
    m_wasteDue.at(static_cast<std::size_t>(side)) = false;
    runJob<WarpWastePtr>(
        QStringLiteral("waste%1").arg(side), m_wasteGeneration.at(static_cast<std::size_t>(side)),
        [doc = m_document, params = m_params, first = m_wasteFirstWarp,
         format = wasteFormat(side).toStdString(), limit = formatMemoryLimit()] {
            const auto m = buildWithinLimit(format, doc->csr, params, limit);
            return std::make_shared<const spmv::viz::WarpWaste>(
                spmv::viz::warp_waste(m, params.warp_size, first, maxWarpPictures));
        },
        [this, side](WarpWastePtr w) { emit wasteAvailable(side, std::move(w)); });
}

void AnalysisController::startRowOrder()
{
    if (!m_document) return;
    if (m_rowOrderFormat.isEmpty()) {
        ++m_orderGeneration;
        emit rowOrderAvailable(nullptr);
        return;
    }
    runJob<RowOrderPtr>(
        QStringLiteral("order"), m_orderGeneration,
        [doc = m_document, params = m_params, format = m_rowOrderFormat.toStdString(),
         limit = formatMemoryLimit()] {
            const auto m = buildWithinLimit(format, doc->csr, params, limit);
            const auto perm = spmv::row_permutation(m);
            if (perm.empty()) {
                return RowOrderPtr{};
            }
            // SELL-C-sigma and pJDS may list padding rows past num_rows: keep real rows only
            auto order = std::make_shared<std::vector<std::int32_t>>(
                perm.begin(),
                perm.begin() + std::min<std::ptrdiff_t>(std::ssize(perm), doc->csr.num_rows));
            return RowOrderPtr(std::move(order));
        },
        [this](RowOrderPtr o) { emit rowOrderAvailable(std::move(o)); });
}
