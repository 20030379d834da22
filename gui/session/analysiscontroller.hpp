#pragma once
// Runs every computation the views show off the GUI thread (QtConcurrent::run(...).then) and
// hands the results out as staged signals. Each kind of job has a generation counter: a result
// that arrives after the user changed the matrix or a parameter is dropped (hotspot's
// JobTracker idea). Exceptions stop at the worker boundary and become errorOccurred(QString).
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <vector>

#include <QFuture>
#include <QObject>
#include <QString>

#include <spmv/analysis/summary.hpp>
#include <spmv/registry.hpp>
#include <spmv/viz/construction.hpp>
#include <spmv/viz/histogram.hpp>
#include <spmv/viz/warp_grid.hpp>

#include "matrixdocument.hpp"

using ConstructionPtr = std::shared_ptr<const spmv::viz::Construction>;
using ConstructionSourcePtr = std::shared_ptr<const spmv::viz::ConstructionSource>;
using HistogramChartPtr = std::shared_ptr<const spmv::viz::HistogramChart>;
using WarpWastePtr = std::shared_ptr<const spmv::viz::WarpWaste>;
using SummariesPtr = std::shared_ptr<const std::vector<spmv::analysis::FormatSummary>>;
using RowOrderPtr = std::shared_ptr<const std::vector<std::int32_t>>;
/// The construction format's work per thread over the whole matrix (the layout overview).
using LayoutWorkPtr = std::shared_ptr<const spmv::ThreadWork>;

class AnalysisController : public QObject {
    Q_OBJECT
public:
    explicit AnalysisController(QObject* parent = nullptr);
    ~AnalysisController() override;

    MatrixDocumentPtr document() const { return m_document; }
    const spmv::FormatParams& params() const { return m_params; }
    QString constructionFormat() const { return m_constructionFormat; }
    QString wasteFormat(int side) const
    {
        return m_wasteFormats.at(static_cast<std::size_t>(side));
    }
    QString rowOrderFormat() const { return m_rowOrderFormat; }
    int wasteFirstWarp() const { return m_wasteFirstWarp; }
    const spmv::viz::ConstructionWindow& constructionWindow() const { return m_window; }
    /// Bytes one format may take: larger ones are not built (the memory view shows their
    /// estimate, the other views say why). Default: formatMemoryLimit(csrBytes(matrix),
    /// formatMemoryLimit()) (memoryguard.hpp: half the memory available, at most
    /// max(1.5 GiB, 4 x the matrix)); once setFormatMemoryLimit() was called, that value.
    quint64 formatMemoryLimit() const;
    void setFormatMemoryLimit(quint64 bytes)
    {
        m_formatLimit = bytes;
        m_formatLimitSet = true;
    }

    /// The analyses of stage 2 (after the histogram), by the view that shows them.
    enum Analysis : unsigned {
        PatternFacts = 1,       ///< pattern view: symmetry, bandwidth, column counts
        ConstructionSteps = 2,  ///< construction view: the format built for the whole matrix
        WarpWaste = 4,          ///< waste view: both formats built, their warps
        FormatSummaries = 8,    ///< memory view: every format built (the heaviest)
        AllAnalyses = 15,
    };
    /// Above this many stored entries the stage-2 analyses of views not on screen wait until
    /// their view is shown (setShownAnalyses): on a 10M-nonzero power law they cost ~12 s of
    /// CPU together, which would hold up whichever view the user looks at on 2 cores. Up to it,
    /// every analysis runs as soon as the matrix is in.
    static constexpr std::int64_t lazyNonzeros = 2'000'000;
    /// The analyses the view on screen needs (Analysis flags; default AllAnalyses, e.g. for a
    /// controller without a window). Starts those that waited for it.
    void setShownAnalyses(unsigned analyses);
    unsigned shownAnalyses() const { return m_shownAnalyses; }

    /// Jobs started and not yet finished (stale ones included).
    int pendingJobs() const { return m_pending; }
    bool isBusy() const { return m_pending > 0; }

    /// Maximum number of warps drawn per format in the waste view.
    static constexpr int maxWarpPictures = 48;
    /// Up to this many rows a matrix gets the blackboard parameters (warp 4, b_r 4, SELL-4-8),
    /// above it the hardware's (warp 32, b_r 32, C 32: suitedParams) with the advisor's sigma
    /// for the matrix (sortWindowAdvised).
    static constexpr std::int64_t blackboardRows = 1024;
    /// The parameters a newly loaded matrix of `rows` rows gets, each while the user has not
    /// set it (the other fields keep FormatParams' defaults).
    static spmv::FormatParams suitedParams(std::int64_t rows);
    /// True once the user set a parameter: later matrices keep the user's values of those
    /// (the others still suit each matrix).
    bool userParams() const { return !m_userSet.empty(); }
    bool userSet(spmv::Param id) const { return m_userSet.contains(id); }
    /// True while sigma is the advisor's choice for the matrix (a matrix above blackboardRows
    /// whose sigma the user has not set): the smallest sigma within 2 % of the least padding
    /// at the current C, the rule of SELL-C-sigma's "sigma = auto" (advisedSortWindow).
    bool sortWindowAdvised() const { return m_sigmaAdvised; }
    /// The advisor's sigma for `a` at C = sliceHeight: the registry's "sigma = auto" resolved
    /// (SELL-C-sigma's story file holds the rule; nothing is re-implemented here).
    static int advisedSortWindow(const spmv::Csr<double, std::int32_t>& a, int sliceHeight);

public slots:
    void openFile(const QString& path);
    void generate(const QString& generator, const spmv::gen::GeneratorParams& params, quint64 seed);
    void setDocument(MatrixDocumentPtr document);

    void setParams(const spmv::FormatParams& params);
    void setWarpSize(int warpSize);
    void setBlockRows(int blockRows);
    void setSliceHeight(int sliceHeight);
    void setSortWindow(int sortWindow);
    /// Any format parameter of the registry's schema (ELLG pitch, HYB K, JDS diagonal padding,
    /// ...): the user's from now on. Throws InvalidArgument outside the schema's range.
    void setParam(spmv::Param id, int value);
    void setConstructionFormat(const QString& format);
    /// First grid row / column of the construction view's window (64 x 64 cells), for every
    /// step; the window no longer follows the entries or a selected nonzero.
    void setConstructionWindow(qint64 firstRow, qint64 firstCol);
    /// The construction view's window as given (following the entries, a focused nonzero:
    /// spmv::viz::ConstructionWindow). A new matrix opens on ConstructionWindow::following().
    void setConstructionWindow(const spmv::viz::ConstructionWindow& window);
    void setWasteFormat(int side, const QString& format);
    void setWasteFirstWarp(int firstWarp);
    /// Registry name whose row_perm the pattern view uses; empty: original order.
    void setRowOrderFormat(const QString& format);

signals:
    void loadingStarted(const QString& what);
    void documentAvailable(MatrixDocumentPtr document);
    void histogramAvailable(HistogramChartPtr chart);
    void summariesAvailable(SummariesPtr summaries);
    void constructionAvailable(ConstructionPtr construction);
    /// The construction format's stored and useful slots per thread (whole matrix), with the
    /// format's display title; arrives before the first window of that layout.
    void layoutWorkAvailable(LayoutWorkPtr work, const QString& title);
    void wasteAvailable(int side, WarpWastePtr waste);
    void rowOrderAvailable(RowOrderPtr order);  ///< nullptr: original order
    /// The pattern's facts and column counts (once per matrix, after the first picture).
    void patternInfoAvailable(PatternInfoPtr info);
    void paramsChanged(const spmv::FormatParams& params);
    void errorOccurred(const QString& message);
    /// A job failed: what = load, histogram, construction, waste0, waste1, summaries or order.
    void analysisFailed(const QString& what, const QString& message);
    void busyChanged(bool busy);

private:
    /// Runs `work` on the analysis pool; `done` gets its result unless a newer job of the same
    /// kind (generation) was started meanwhile. An exception becomes errorOccurred and
    /// analysisFailed(what, message). `finally` runs after either, for fresh jobs only.
    template <typename T>
    void runJob(const QString& what, quint64& generation, std::function<T()> work,
                std::function<void(T)> done, std::function<void()> finally = {});
    void jobStarted();
    void jobFinished();

    void startHistogram();
    void startSummaries();
    void startConstruction();
    void startConstructionWindow();
    void startWaste(int side);
    void startRowOrder();
    void startAllAnalyses();
    /// Marks the construction as due once the histogram is in; drops the current one.
    void deferConstruction();
    void startBackgroundAnalyses();
    void startPatternInfo();
    /// True when `analysis` waits for its view (a large matrix, the view not shown).
    bool deferred(Analysis analysis) const;
    /// Sets sigma to the advisor's choice where it is due (see sortWindowAdvised); true if
    /// sigma changed.
    bool adviseSortWindow();

    MatrixDocumentPtr m_document;
    spmv::FormatParams m_params;
    std::set<spmv::Param> m_userSet;  ///< parameters the user set
    bool m_sigmaAdvised = false;
    /// the advisor's sigma last worked out (by the load job, off the GUI thread, or here)
    struct AdvisedSigma {
        std::weak_ptr<const MatrixDocument> document;
        int sliceHeight = 0;
        int sigma = 0;
    } m_advisedSigma;
    QString m_constructionFormat = QStringLiteral("pjds");
    std::array<QString, 2> m_wasteFormats{QStringLiteral("ellr"), QStringLiteral("pjds")};
    QString m_rowOrderFormat;
    int m_wasteFirstWarp = 0;

    quint64 m_loadGeneration = 0;
    quint64 m_histogramGeneration = 0;
    quint64 m_summaryGeneration = 0;
    quint64 m_constructionGeneration = 0;
    quint64 m_windowGeneration = 0;
    ConstructionSourcePtr m_constructionSource;
    spmv::viz::ConstructionWindow m_window;
    quint64 m_formatLimit = 0;     ///< the machine's (or the one set)
    bool m_formatLimitSet = false;  ///< setFormatMemoryLimit() was called: no matrix cap
    std::array<quint64, 2> m_wasteGeneration{0, 0};
    quint64 m_orderGeneration = 0;
    quint64 m_patternGeneration = 0;
    bool m_patternDue = false;  ///< the pattern facts of a new matrix wait for stage 2
    int m_pending = 0;
    bool m_backgroundDue = false;    ///< waste + summaries wait for the first picture
    bool m_constructionDue = false;  ///< the construction waits for the histogram (or its view)
    bool m_summariesDue = false;     ///< the footprints wait for the memory view
    std::array<bool, 2> m_wasteDue{false, false};  ///< warp waste waits for its view
    unsigned m_shownAnalyses = AllAnalyses;
    std::vector<QFuture<void>> m_futures;
};
