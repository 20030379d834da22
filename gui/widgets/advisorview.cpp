#include "advisorview.hpp"

#include <cmath>
#include <new>

#include <QComboBox>
#include <QFontInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QThreadPool>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <spmv/error.hpp>

#include "appearance.hpp"
#include "models/advisormodel.hpp"
#include "session/formattext.hpp"

namespace {

QThreadPool* advisorPool()
{
    // one dedicated thread: rankings queue behind each other, never behind other analyses, and
    // a queued one that became stale is skipped when its turn comes (see recompute)
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setMaxThreadCount(1);
        return p;
    }();
    return pool;
}

struct AdviceOutcome {
    AdvicePtr advice;
    QString error;
    bool stale = false;
};

QString fromStd(const std::string& s)
{
    return QString::fromStdString(s);
}

QString html(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

QString us(double seconds)
{
    return AdvisorModel::micro(seconds) + QStringLiteral("\u00a0\u00b5s");
}

QString precisionWord(spmv::model::Precision p)
{
    return p == spmv::model::Precision::double_precision ? QObject::tr("double precision")
                                                         : QObject::tr("single precision");
}

}  // namespace

AdvisorView::AdvisorView(QWidget* parent) : QWidget(parent)
{
    m_params.sort_window = 0;  // alone (tests): sigma chosen per matrix, as spmvlab recommend
    m_profile = makeProfileBox(QStringLiteral("H100"));
    m_precision = new QComboBox;
    m_precision->addItem(tr("double"), 0);  // the items of the Timing's box, linked with it
    m_precision->addItem(tr("single"), 1);
    m_iterations = new QSpinBox;
    m_iterations->setRange(0, 1000000000);
    m_iterations->setSingleStep(100);
    m_iterations->setGroupSeparatorShown(true);
    m_iterations->setSpecialValueText(tr("0: per SpMV"));
    m_iterations->setKeyboardTracking(false);
    m_iterations->setToolTip(
        tr("N, the SpMVs the layout will serve (a solver's iterations): with N > 0 the ranking "
           "is by setup + N \u00d7 SpMV time, so a row sort must pay for itself; 0 ranks by the "
           "time of one SpMV"));

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("GPU profile")));
    bar->addWidget(m_profile);
    bar->addSpacing(8);
    bar->addWidget(new QLabel(tr("Precision")));
    bar->addWidget(m_precision);
    bar->addSpacing(8);
    bar->addWidget(new QLabel(tr("SpMVs N")));
    bar->addWidget(m_iterations);
    bar->addStretch(1);

    m_note = new QLabel;
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::RichText);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_model = new AdvisorModel(this);
    m_table = new QTableView;
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);  // one line per variant, also after resizeRowsToContents (F5)
    // rows as high as their line (every variant in view at 1280 x 720, as after F5)
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setResizeContentsPrecision(-1);  // rows out of view count too
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_details = new QTextBrowser;
    m_details->setOpenLinks(false);
    m_splitter = new QSplitter(Qt::Vertical);
    m_splitter->addWidget(m_table);
    m_splitter->addWidget(m_details);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    m_splitter->setChildrenCollapsible(false);

    m_message = new QLabel;
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_stack = new QStackedWidget;
    m_stack->addWidget(m_splitter);
    m_stack->addWidget(m_message);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_note);
    layout->addWidget(m_summary);
    layout->addWidget(m_stack, 1);

    connect(m_profile, &QComboBox::currentIndexChanged, this, &AdvisorView::recompute);
    connect(m_precision, &QComboBox::currentIndexChanged, this, &AdvisorView::recompute);
    connect(m_iterations, &QSpinBox::valueChanged, this, &AdvisorView::recompute);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &AdvisorView::showDetails);
    connect(&Appearance::instance(), &Appearance::changed, this, [this] {
        m_message->setFont(Appearance::instance().font(1.15));
        m_details->setFont(Appearance::instance().font());
        updateNote();  // subscripts sized for the mode
        showNoteColumn();
        showDetails();
    });
    showNoteColumn();
    m_message->setFont(Appearance::instance().font(1.15));
    recompute();
}

AdvisorView::~AdvisorView()
{
    ++m_generation;  // a ranking still queued is skipped (its continuation dies with `this`)
    if (m_latest) m_latest->store(m_generation);
}

void AdvisorView::setDocument(MatrixDocumentPtr document)
{
    m_document = std::move(document);
    recompute();
}

bool AdvisorView::selectProfile(const QString& name)
{
    const int i = m_profile->findText(name, Qt::MatchFixedString);
    if (i < 0) return false;
    m_profile->setCurrentIndex(i);
    return true;
}

spmv::model::GpuProfile AdvisorView::profile() const
{
    return spmv::model::find_profile(m_profile->currentText().toStdString());
}

void AdvisorView::setPrecision(spmv::model::Precision precision)
{
    m_precision->setCurrentIndex(precision == spmv::model::Precision::double_precision ? 0 : 1);
}

spmv::model::Precision AdvisorView::precision() const
{
    return m_precision->currentIndex() == 0 ? spmv::model::Precision::double_precision
                                            : spmv::model::Precision::single_precision;
}

void AdvisorView::setIterations(int iterations)
{
    m_iterations->setValue(iterations);
}

void AdvisorView::setFormatMemoryLimit(quint64 bytes)
{
    if (bytes == m_formatLimit) return;
    m_formatLimit = bytes;
    recompute();
}

void AdvisorView::setParams(const spmv::FormatParams& params, bool sigmaAdvised)
{
    bool same = sigmaAdvised == m_sigmaAdvised;
    for (const auto& info : spmv::parameters()) {
        same = same && spmv::get(params, info.id) == spmv::get(m_params, info.id);
    }
    if (same) return;
    m_params = params;
    m_sigmaAdvised = sigmaAdvised;
    recompute();
}

void AdvisorView::setConstants(std::optional<spmv::model::FormatModelConstants> constants)
{
    m_constants = std::move(constants);
    recompute();
}

spmv::model::AdvisorOptions AdvisorView::options() const
{
    spmv::model::AdvisorOptions o;
    o.params = m_params;      // the shared parameters ...
    o.params.warp_size = 32;  // ... on the GPU's warps (the bar's 4 is the blackboard's)
    o.precision = precision();
    o.iterations = m_iterations->value();
    o.max_format_bytes = static_cast<double>(m_formatLimit);
    return o;
}

QString AdvisorView::message() const
{
    return m_stack->currentWidget() == m_message ? m_message->text() : QString();
}

bool AdvisorView::selectVariant(const QString& variant)
{
    const auto& rows = m_model->rows();
    for (int r = 0; r < rows.size(); ++r) {
        if (fromStd(rows[r].variant) == variant) {
            m_table->selectRow(r);
            m_table->setCurrentIndex(m_model->index(r, 0));
            return true;
        }
    }
    return false;
}

QString AdvisorView::selectedVariant() const
{
    const int r = m_table->currentIndex().row();
    const auto& rows = m_model->rows();
    return r >= 0 && r < rows.size() ? fromStd(rows[r].variant) : QString();
}

void AdvisorView::recompute()
{
    const quint64 generation = ++m_generation;
    if (!m_latest) m_latest = std::make_shared<std::atomic<quint64>>(0);
    m_latest->store(generation);
    updateNote();
    const auto* doc = m_document.get();
    if (!doc || doc->csr.num_rows == 0 || doc->csr.row_ptrs.back() == 0) {
        m_computing = false;
        m_advice.reset();
        showMessage(!doc ? tr("Open or generate a matrix to rank the GPU kernels for it.")
                    : doc->csr.num_rows == 0
                        ? tr("%1 has no rows: there is nothing to rank.").arg(doc->name)
                        : tr("%1 has no nonzeros: every kernel does no work, so there is "
                             "nothing to rank.")
                              .arg(doc->name));
        emit finished();
        return;
    }
    m_computing = true;
    auto job = [doc = m_document, gpu = profile(), options = options(), constants = m_constants,
                latest = m_latest, generation]() {
        AdviceOutcome o;
        if (latest->load() != generation) {  // superseded while it waited for the thread
            o.stale = true;
            return o;
        }
        try {
            o.advice = std::make_shared<const spmv::model::Advice>(
                spmv::model::advise(doc->csr, gpu, options, constants ? &*constants : nullptr));
        } catch (const std::bad_alloc&) {
            o.error = tr("Out of memory: the matrix is too large for the advisor.");
        } catch (const std::exception& e) {
            o.error = QString::fromStdString(spmv::user_message(e.what()));
        }
        return o;
    };
    QtConcurrent::run(advisorPool(), std::move(job))
        .then(this, [this, generation](AdviceOutcome o) {
            if (o.stale || generation != m_generation) return;  // a newer request is on its way
            m_computing = false;
            if (o.advice) {
                m_advice = std::move(o.advice);
                showAdvice();
            } else {
                m_advice.reset();
                showMessage(tr("The advisor failed: %1").arg(o.error));
                emit errorOccurred(o.error);
            }
            emit finished();
        });
    // keep the old ranking until the new one arrives, but say it is being replaced
    m_summary->setText(tr("<i>Ranking the GPU kernels\u2026</i>"));
}

void AdvisorView::updateNote()
{
    const auto gpu = profile();
    QString order = m_iterations->value() > 0
                        ? tr("ranked by estimated setup + N \u00d7 SpMV time (N = %1)")
                              .arg(groupDigits(m_iterations->value()))
                        : tr("ranked by the time of one SpMV");
    // the parameters the layouts were ranked with: the shared ones, as the bar shows them
    const auto& p = m_params;
    QString sigma = m_sigmaAdvised ? tr("\u03c3 = %1 (the advisor's choice for this matrix)")
                                         .arg(p.sort_window)
                                   : tr("\u03c3 = %1").arg(p.sort_window);
    if (p.sort_window == 0) sigma = tr("\u03c3 chosen per matrix");
    m_note->setText(
        tr("<b>Model predictions, not measurements</b>, for the <b>%1</b> profile (%2 GB/s), "
           "%3, with <b>L2 flushed before every SpMV</b>; %4. Layouts at the parameter bar's "
           "b%8 = %5, C = %6, %7, on warps of 32 threads.")
            .arg(QString::fromStdString(gpu.name).toHtmlEscaped())
            .arg(gpu.memory_bandwidth_gbs, 0, 'g', 4)
            .arg(precisionWord(precision()), order)
            .arg(p.block_rows)
            .arg(p.slice_height)
            .arg(sigma, Appearance::instance().legibleSubscript(QStringLiteral("r"))));
    m_note->setToolTip(m_advice ? tr("Model constants: %1").arg(fromStd(m_advice->constants_source))
                                : QString());
}

void AdvisorView::showNoteColumn()
{
    // presentation mode has no room for the Note column at legible sizes ("not a candidate:
    // slice 117 spans 199996 columns, ..."): the selected row's note is in the details below
    m_table->setColumnHidden(AdvisorModel::Note, Appearance::instance().presentationMode());
}

void AdvisorView::showMessage(const QString& text)
{
    m_message->setText(text);
    m_summary->clear();
    m_model->resetData();
    m_details->clear();
    m_stack->setCurrentWidget(m_message);
}

void AdvisorView::showAdvice()
{
    const auto& a = *m_advice;
    const QString keep = selectedVariant();
    m_model->resetAdvice(a);
    m_table->setColumnHidden(AdvisorModel::Total, a.iterations == 0);
    updateNote();
    bool any = false;
    for (const auto& r : a.ranked) any = any || r.candidate;
    if (any) {
        m_summary->setText(tr("<b>First choice:</b> %1").arg(html(a.summary())));
    } else {
        m_summary->setText(
            tr("<b>No variant can serve this matrix</b> within the limits: see why below."));
    }
    m_stack->setCurrentWidget(m_splitter);
    if (keep.isEmpty() || !selectVariant(keep)) {
        if (!a.ranked.empty()) selectVariant(fromStd(a.ranked.front().variant));
    }
    showDetails();
}

void AdvisorView::showDetails()
{
    const int row = m_table->currentIndex().row();
    const auto& rows = m_model->rows();
    if (!m_advice || row < 0 || row >= rows.size()) {
        m_details->clear();
        return;
    }
    const auto& r = rows[row];
    const auto& p = r.prediction;
    QString h;
    h += QStringLiteral("<p><b>%1</b> &nbsp; %2 %3</p>")
             .arg(r.rank > 0 ? tr("#%1 %2").arg(r.rank).arg(html(r.variant))
                             : tr("%1 (not a candidate)").arg(html(r.variant)),
                  AdvisorModel::layoutText(r).toHtmlEscaped(),
                  r.why_not.empty() ? QString() : tr("&mdash; %1").arg(html(r.why_not)));
    if (p.feasible && p.time_s > 0) {
        // the model's formula with this row's terms (format_model.hpp):
        // T = F + (L^q + M^q)^(1/q), L = c critical trips, M = max(DRAM bytes / B_GPU, L2
        // sectors 32 / B_L2, tau warp trips, the heaviest warp's sectors 32 / B_w); q = 0: the
        // max of L and M, q = 1 (both fitted cards): L + M
        const double q = m_advice->overlap_q;
        const QString combine =
            q <= 0 ? tr("max(latency, max(DRAM, L2 gather, warp issue, heaviest warp))")
            : std::abs(q - 1.0) < 1e-3
                ? tr("latency + max(DRAM, L2 gather, warp issue, heaviest warp)")
                : tr("(latency<sup>q</sup> + max(DRAM, L2 gather, warp issue, heaviest "
                     "warp)<sup>q</sup>)<sup>1/q</sup>, q = %1")
                      .arg(q, 0, 'f', 2);
        h += tr("<p>Predicted <b>%1</b> per SpMV (%2 GFLOP/s) on %3, L2 flushed before every "
                "SpMV; bound by <b>%4</b>: T = F + %12; F = %5, latency %6, DRAM %7, L2 gather "
                "%8, warp issue %9, heaviest warp %10. The per-format fitted model: "
                "the same number as the Timing view, the Sweep and <tt>spmvlab recommend</tt>; "
                "its traffic bound (DRAM bytes / B%11) is the DRAM term, %7.</p>")
                 .arg(us(p.time_s))
                 .arg(p.gflops, 0, 'f', 1)
                 .arg(html(m_advice->profile), html(p.bound), us(p.floor_s), us(p.latency_s),
                      us(p.dram_s), us(p.l2_s), us(p.issue_s), us(p.warp_s))
                 .arg(Appearance::instance().legibleSubscript(QStringLiteral("GPU")))
                 .arg(combine);
    }
    // the table's Note column (hidden in presentation mode), for a candidate: whether its row
    // sort pays off (a variant that is not one says why in the heading above)
    const QString note = m_model->index(row, AdvisorModel::Note).data().toString();
    if (r.candidate && !note.isEmpty()) {
        h += tr("<p><b>Note:</b> %1.</p>").arg(note.toHtmlEscaped());
    }
    if (!r.reasons.empty()) {
        h += tr("<p><b>Why:</b></p><ul>");
        for (const auto& reason : r.reasons) h += QStringLiteral("<li>%1</li>").arg(html(reason));
        h += QStringLiteral("</ul>");
    }
    h += tr("<p><b>Library equivalent:</b> %1</p>")
             .arg(r.equivalent.empty() ? tr("none named") : html(r.equivalent));
    h += tr("<p><b>Setup</b> (estimated, not measured: conversion from CSR%1 and the upload "
            "over PCIe): %2")
             .arg(r.breakeven_iterations != 0 || sortsWithinSigma(r.format, r.params)
                      ? tr(", a row sort")
                      : QString(),
                  us(r.setup_s));
    if (m_advice->iterations > 0 && r.candidate) {
        h += tr("; with N = %1 SpMVs: %2 in all")
                 .arg(groupDigits(m_advice->iterations), us(r.total_s));
    }
    h += QStringLiteral(".</p>");
    // small print, except in presentation mode, where nothing is below the minimum size
    const QString constants = tr("Model constants: %1").arg(html(m_advice->constants_source));
    h += Appearance::instance().presentationMode()
             ? QStringLiteral("<p>%1</p>").arg(constants)
             : QStringLiteral("<p><small>%1</small></p>").arg(constants);
    m_details->setHtml(h);
}
