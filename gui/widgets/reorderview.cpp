#include "reorderview.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <new>

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QThreadPool>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <spmv/error.hpp>
#include <spmv/viz/density.hpp>
#include <spmv/viz/geometry.hpp>

#include "appearance.hpp"

namespace {

QThreadPool* reorderPool()
{
    // two threads: the original order and RCM appear while nested dissection still runs
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setMaxThreadCount(2);
        return p;
    }();
    return pool;
}

QString titleOf(spmv::analysis::Ordering o)
{
    const auto t = spmv::analysis::title(o);
    return QString::fromUtf8(t.data(), static_cast<int>(t.size()));
}

constexpr int panelMargin = 8;

}  // namespace

// ---------------------------------------------------------------------------------------------
// ReorderPatternPanel

ReorderPatternPanel::ReorderPatternPanel(const QString& title, QWidget* parent)
    : QWidget(parent), m_title(title)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    connect(&Appearance::instance(), &Appearance::changed, this, [this] {
        updateGeometry();
        update();
    });
}

void ReorderPatternPanel::setImage(const QImage& image, const QString& caption)
{
    m_image = image;
    m_caption = caption;
    m_message.clear();
    update();
}

void ReorderPatternPanel::setMessage(const QString& message)
{
    m_image = QImage();
    m_caption.clear();
    m_message = message;
    update();
}

QSize ReorderPatternPanel::sizeHint() const
{
    const QFontMetrics fm(Appearance::instance().font());
    return {360, 360 + 4 * fm.height()};
}

QSize ReorderPatternPanel::minimumSizeHint() const
{
    // the title and two caption lines must fit without eliding, beside a usable picture
    const QFontMetrics bold(Appearance::instance().font(1.0, true));
    const int titleWidth = bold.horizontalAdvance(m_title) + 2 * panelMargin;
    return {qMax(200, titleWidth), 160 + 4 * bold.height()};
}

QRect ReorderPatternPanel::pictureRect() const
{
    const QFontMetrics title(Appearance::instance().font(1.0, true));
    const QFontMetrics caption(Appearance::instance().font(0.9));
    const int top = title.height() + 2 * panelMargin;
    // the caption's lines as wrapped at this width (two, or more where the panel is narrow,
    // as beside a lesson or in presentation mode): the picture gives way, the caption is whole
    const int lines = m_caption.isEmpty()
                          ? 2 * caption.height()
                          : qMax(2 * caption.height(),
                                 caption
                                     .boundingRect(QRect(0, 0, qMax(1, width() - 2 * panelMargin),
                                                         1 << 20),
                                                   Qt::AlignHCenter | Qt::AlignTop |
                                                       Qt::TextWordWrap,
                                                   m_caption)
                                     .height());
    const int bottom = lines + 2 * panelMargin;
    const int side = qMax(0, qMin(width() - 2 * panelMargin, height() - top - bottom));
    return {(width() - side) / 2, top, side, side};
}

void ReorderPatternPanel::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const auto& pal = Appearance::palette();
    p.fillRect(rect(), palette().color(QPalette::Window));
    p.setPen(Appearance::colour(pal.text));
    p.setFont(Appearance::instance().font(1.0, true));
    const QFontMetrics titleFm(p.font());
    p.drawText(QRect(panelMargin, panelMargin, width() - 2 * panelMargin, titleFm.height()),
               Qt::AlignHCenter | Qt::AlignVCenter, m_title);

    const QRect pic = pictureRect();
    if (!m_image.isNull()) {
        // a density picture shrunk: smooth; exact cells blown up: keep the cell edges sharp
        p.setRenderHint(QPainter::SmoothPixmapTransform, pic.width() < m_image.width());
        p.drawImage(pic, m_image);
        p.setPen(QPen(Appearance::colour(pal.grid), Appearance::instance().lineWidth()));
        p.setBrush(Qt::NoBrush);
        p.drawRect(pic.adjusted(0, 0, -1, -1));
    } else {
        // words, never an empty box: computing, not compiled in, or not square
        p.setPen(QPen(Appearance::colour(pal.grid), Appearance::instance().lineWidth(),
                      Qt::DashLine));
        p.setBrush(Appearance::colour(pal.empty));
        p.drawRect(pic.adjusted(0, 0, -1, -1));
        p.setPen(Appearance::colour(pal.text));
        p.setFont(Appearance::instance().font());
        p.drawText(pic.adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap,
                   m_message);
    }
    if (!m_caption.isEmpty()) {
        p.setPen(Appearance::colour(pal.text));
        p.setFont(Appearance::instance().font(0.9));
        const QRect below(panelMargin, pic.bottom() + panelMargin / 2, width() - 2 * panelMargin,
                          height() - pic.bottom() - panelMargin);
        p.drawText(below, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, m_caption);
    }
}

// ---------------------------------------------------------------------------------------------
// ReorderView

struct ReorderView::Outcome {
    OrderingReportPtr report;
    QImage image;
    QString error;
    bool cancelled = false;
};

std::int64_t ReorderView::defaultAutomaticNonzeros(Ordering o)
{
    switch (o) {
        case Ordering::original:
            break;
        case Ordering::rcm:
            return 3'000'000;
        case Ordering::nested_dissection:
            return 1'000'000;
    }
    return std::numeric_limits<std::int64_t>::max();
}

double ReorderView::secondsPerMillionNonzeros(Ordering o)
{
    switch (o) {
        case Ordering::original:
            break;
        case Ordering::rcm:
            return 0.65;
        case Ordering::nested_dissection:
            return 3.2;
    }
    return 0.0;
}

std::size_t ReorderView::index(Ordering o)
{
    for (std::size_t k = 0; k < orderings.size(); ++k) {
        if (orderings[k] == o) return k;
    }
    return 0;
}

ReorderView::ReorderView(QWidget* parent) : QWidget(parent)
{
    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setContentsMargins(panelMargin, panelMargin, panelMargin, 0);

    auto* pictures = new QWidget;
    auto* row = new QHBoxLayout(pictures);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(panelMargin);
    for (std::size_t k = 0; k < orderings.size(); ++k) {
        m_automatic[k] = defaultAutomaticNonzeros(orderings[k]);
        auto* column = new QVBoxLayout;
        column->setContentsMargins(0, 0, 0, 0);
        column->setSpacing(2);
        m_panels[k] = new ReorderPatternPanel(titleOf(orderings[k]));
        column->addWidget(m_panels[k], 1);
        m_buttons[k] = new QPushButton;
        m_buttons[k]->setVisible(false);
        m_buttons[k]->setObjectName(QStringLiteral("reorderButton%1").arg(k));
        column->addWidget(m_buttons[k], 0, Qt::AlignHCenter);
        row->addLayout(column, 1);
        connect(m_buttons[k], &QPushButton::clicked, this, [this, k] {
            if (m_slots[k].state == State::computing) {
                cancel(orderings[k]);
            } else {
                compute(orderings[k]);
            }
        });
    }
    m_progressTimer = new QTimer(this);
    m_progressTimer->setInterval(250);
    connect(m_progressTimer, &QTimer::timeout, this, &ReorderView::updateProgress);

    m_model = new ReorderModel(this);
    m_table = new QTableView;
    m_table->setModel(m_model);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setFocusPolicy(Qt::NoFocus);  // read-only numbers; keys stay with the tab bar
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setMinimumHeight(5 * m_table->verticalHeader()->defaultSectionSize() + 8);

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(pictures);
    split->addWidget(m_table);
    // as much room for the table (19 rows) as for the pictures: at 1280 x 720 the pictures
    // are still 280 pixels square and the formats' padding rows are visible without scrolling
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({1000, 1000});  // proportions: half each, whatever the panels' size hints
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);

    connect(&Appearance::instance(), &Appearance::changed, this, [this] {
        m_summary->setFont(Appearance::instance().font());
        m_table->setFont(Appearance::instance().font());
        for (auto* b : m_buttons) b->setFont(Appearance::instance().font());
    });
    setDocument(nullptr);
}

ReorderView::~ReorderView()
{
    // the jobs only touch what they captured by value; cancelled ones skip their remaining
    // steps, but a Boost or METIS call in progress runs to its end: wait for it, so that no
    // job outlives the process (the library's statics)
    for (auto& slot : m_slots) {
        if (slot.control) slot.control->cancel.store(true);
    }
    for (auto& f : m_futures) f.waitForFinished();
}

void ReorderView::setDocument(MatrixDocumentPtr document)
{
    m_document = std::move(document);
    for (auto& slot : m_slots) {  // the permutations belong to the previous matrix
        slot.perm.reset();
        slot.permSeconds = 0.0;
    }
    start();
}

void ReorderView::setParams(const spmv::FormatParams& params)
{
    const auto& o = m_params;
    if (params.warp_size == o.warp_size && params.block_rows == o.block_rows &&
        params.slice_height == o.slice_height && params.sort_window == o.sort_window &&
        params.pitch_bytes == o.pitch_bytes && params.hyb_width == o.hyb_width &&
        params.diag_pad == o.diag_pad) {
        return;
    }
    m_params = params;
    if (m_document) start();
}

void ReorderView::setAutomaticNonzeros(Ordering o, std::int64_t nonzeros)
{
    m_automatic[index(o)] = nonzeros;
}

std::int64_t ReorderView::automaticNonzeros(Ordering o) const
{
    return m_automatic[index(o)];
}

bool ReorderView::isComputing() const
{
    return std::any_of(m_slots.begin(), m_slots.end(),
                       [](const Slot& s) { return s.state == State::computing; });
}

int ReorderView::progress(Ordering o) const
{
    const auto& slot = m_slots[index(o)];
    return slot.state == State::computing && slot.control ? slot.control->step.load() : 0;
}

OrderingReportPtr ReorderView::report(Ordering o) const
{
    return m_slots[index(o)].report;
}

ReorderPatternPanel* ReorderView::panel(Ordering o) const
{
    return m_panels[index(o)];
}

QString ReorderView::onDemandMessage(std::size_t k) const
{
    const auto o = orderings[k];
    const double nnz = m_document ? static_cast<double>(spmv::nnz(m_document->csr)) : 0.0;
    const double seconds = secondsPerMillionNonzeros(o) * nnz * 1e-6;
    QString text =
        tr("Computed on demand above %1 nonzeros: the %2 order of these %3 nonzeros takes "
           "about %4 s on 2 cores.")
            .arg(groupDigits(m_automatic[k]), titleOf(o), groupDigits(static_cast<qint64>(nnz)))
            .arg(seconds < 10 ? QString::number(seconds, 'f', 1) : QString::number(qRound(seconds)));
    if (o == Ordering::nested_dissection) {
        text += QLatin1Char(' ') + tr("METIS cannot be interrupted: Cancel drops its result.");
    }
    return text;
}

QString ReorderView::computingMessage(std::size_t k) const
{
    const auto o = orderings[k];
    const auto& slot = m_slots[k];
    const int step = slot.control ? slot.control->step.load() : 0;
    QString what;
    switch (step) {
        case 0:
            what = tr("queued (both workers busy)");
            break;
        case 1:
            what = slot.perm ? tr("the permutation (kept)")
                   : o == Ordering::nested_dissection
                       ? tr("the ordering (METIS_NodeND, not interruptible)")
                   : o == Ordering::rcm ? tr("the ordering (Boost.Graph, not interruptible)")
                                        : tr("the metrics");
            break;
        case 2:
            what = tr("P A P\u1d40 and its metrics");
            break;
        default:
            what = tr("the picture");
            break;
    }
    return tr("Computing the %1 order \u2026 step %2 of %3: %4")
        .arg(titleOf(o))
        .arg(qMax(step, 1))
        .arg(jobSteps)
        .arg(what);
}

void ReorderView::start()
{
    for (auto& slot : m_slots) {  // whatever is in flight is stale now
        if (slot.control) slot.control->cancel.store(true);
        slot.control.reset();
        ++slot.generation;
        slot.report.reset();
        slot.message.clear();
        slot.state = State::idle;
    }
    m_finishDue = true;
    if (!m_document) {
        for (std::size_t k = 0; k < orderings.size(); ++k) {
            m_slots[k].message = tr("No matrix loaded");
            m_panels[k]->setMessage(m_slots[k].message);
        }
        updateButtons();
        updateSummary();
        updateTable();
        finishIfIdle();
        return;
    }
    const auto nnz = spmv::nnz(m_document->csr);
    // every due job is marked computing before the first starts (their results arrive through
    // the event loop, never inside this loop)
    for (std::size_t k = 0; k < orderings.size(); ++k) {
        auto& slot = m_slots[k];
        if (nnz <= m_automatic[k] || slot.perm) {
            slot.state = State::computing;
            slot.control = std::make_shared<JobControl>();
            slot.message = computingMessage(k);
        } else {
            slot.state = State::onDemand;
            slot.message = onDemandMessage(k);
        }
        m_panels[k]->setMessage(slot.message);
    }
    updateButtons();
    updateSummary();
    updateTable();
    for (std::size_t k = 0; k < orderings.size(); ++k) {
        if (m_slots[k].state == State::computing) startJob(k);
    }
    finishIfIdle();
}

void ReorderView::compute(Ordering o)
{
    const auto k = index(o);
    auto& slot = m_slots[k];
    if (!m_document || slot.state == State::computing || slot.state == State::done) return;
    ++slot.generation;
    slot.state = State::computing;
    slot.control = std::make_shared<JobControl>();
    slot.message = computingMessage(k);
    m_panels[k]->setMessage(slot.message);
    m_finishDue = true;
    updateButtons();
    updateTable();
    startJob(k);
}

void ReorderView::cancel(Ordering o)
{
    const auto k = index(o);
    auto& slot = m_slots[k];
    if (slot.state != State::computing) return;
    const bool inLibrary = slot.control && slot.control->step.load() == 1 && !slot.perm &&
                           o != Ordering::original;
    if (slot.control) slot.control->cancel.store(true);
    slot.control.reset();
    ++slot.generation;  // whatever it still delivers is dropped
    slot.state = State::cancelled;
    slot.message = tr("The %1 order was cancelled.").arg(titleOf(o));
    if (inLibrary) {
        slot.message += QLatin1Char(' ') +
                        tr("The %1 call already running cannot be interrupted: it ends on its "
                           "worker thread and its result is dropped.")
                            .arg(o == Ordering::nested_dissection ? QStringLiteral("METIS")
                                                                  : QStringLiteral("Boost"));
    }
    m_panels[k]->setMessage(slot.message);
    updateButtons();
    updateTable();
    finishIfIdle();
}

void ReorderView::startJob(std::size_t k)
{
    auto& slot = m_slots[k];
    const quint64 generation = slot.generation;
    const auto o = orderings[k];
    const QRgb outside = palette().color(QPalette::Window).rgb();
    auto job = [doc = m_document, params = m_params, o, perm = slot.perm,
                seconds = slot.permSeconds, outside, control = slot.control]() {
        Outcome out;
        try {
            const auto& a = doc->csr;
            spmv::Csr<double, std::int32_t> permuted;
            std::shared_ptr<spmv::analysis::OrderingReport> r;
            control->step.store(1);
            if (o == Ordering::original) {
                r = std::make_shared<spmv::analysis::OrderingReport>(
                    spmv::analysis::report_as_given(a, params));
            } else {
                std::vector<std::int32_t> computed;
                double took = seconds;
                if (!perm) {  // the only step that cannot stop half-way (Boost / METIS)
                    const auto t0 = std::chrono::steady_clock::now();
                    computed = spmv::analysis::ordering_permutation(a, o);
                    took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
                               .count();
                }
                if (control->cancel.load()) {
                    out.cancelled = true;
                    return out;
                }
                control->step.store(2);
                const std::span<const std::int32_t> p =
                    perm ? std::span<const std::int32_t>(*perm)
                         : std::span<const std::int32_t>(computed);
                r = std::make_shared<spmv::analysis::OrderingReport>(
                    spmv::analysis::report_permutation(a, o, p, params, &permuted));
                r->seconds = took;
            }
            if (control->cancel.load()) {
                out.cancelled = true;
                return out;
            }
            control->step.store(3);
            const auto& shown = o == Ordering::original ? a : permuted;
            const auto view = spmv::viz::ViewTransform::fit(shown.num_rows, shown.num_cols,
                                                            rasterSize, rasterSize, 0);
            const auto raster = spmv::viz::rasterize(shown, view);
            const auto px = spmv::viz::to_argb(raster, view, outside);
            QImage img(raster.width, raster.height, QImage::Format_RGB32);
            for (int y = 0; y < raster.height; ++y) {
                std::memcpy(img.scanLine(y),
                            px.data() + static_cast<std::size_t>(y) *
                                            static_cast<std::size_t>(raster.width),
                            static_cast<std::size_t>(raster.width) * 4);
            }
            out.image = std::move(img);
            out.report = std::move(r);
        } catch (const std::bad_alloc&) {
            out.error = tr("Out of memory: the matrix is too large for this ordering.");
        } catch (const std::exception& e) {
            out.error = QString::fromStdString(spmv::user_message(e.what()));
        }
        return out;
    };
    auto running = QtConcurrent::run(reorderPool(), std::move(job));
    running.then(this, [this, generation, k](Outcome out) {
        // then() runs at once when the job is already done, i.e. possibly inside compute():
        // hop through the event loop, so that a run is "computing" until the caller returned
        QMetaObject::invokeMethod(
            this,
            [this, generation, k, out = std::move(out)]() mutable {
                if (generation == m_slots[k].generation) deliver(k, std::move(out));
            },
            Qt::QueuedConnection);
    });
    // the job itself, not its continuation: that one needs this thread's event loop, so the
    // destructor waiting for it would never return
    std::erase_if(m_futures, [](const QFuture<void>& f) { return f.isFinished(); });
    m_futures.push_back(QFuture<void>(running));
    if (!m_progressTimer->isActive()) m_progressTimer->start();
}

void ReorderView::deliver(std::size_t k, Outcome out)
{
    auto& slot = m_slots[k];
    slot.control.reset();
    if (out.report) {
        const auto& r = *out.report;
        slot.state = State::done;
        slot.report = out.report;
        // the permutation stays valid for new parameters: keep it (shares the report's memory)
        slot.perm = std::shared_ptr<const std::vector<std::int32_t>>(out.report, &r.perm);
        slot.permSeconds = r.seconds;
        slot.message.clear();
        m_panels[k]->setImage(out.image,
                              tr("bandwidth %1 \u00b7 profile %2\nx: %3 sectors per warp trip "
                                 "(ideal\u00a0%4)")
                                  .arg(groupDigits(r.bandwidth), groupDigits(r.profile),
                                       QString::number(r.x.sectors_per_trip, 'f', 2),
                                       QString::number(r.x.ideal_sectors_per_trip, 'f', 2)));
    } else if (out.cancelled) {  // cancelled, and the cancel was not seen here (cannot happen)
        slot.state = State::cancelled;
        slot.message = tr("The %1 order was cancelled.").arg(titleOf(orderings[k]));
        m_panels[k]->setMessage(slot.message);
    } else {
        slot.state = State::failed;
        slot.message = out.error;
        m_panels[k]->setMessage(out.error);
    }
    updateButtons();
    updateTable();
    finishIfIdle();
}

void ReorderView::finishIfIdle()
{
    if (isComputing()) return;
    m_progressTimer->stop();
    if (m_finishDue) {
        m_finishDue = false;
        emit finished();
    }
}

void ReorderView::updateProgress()
{
    bool changed = false;
    for (std::size_t k = 0; k < orderings.size(); ++k) {
        auto& slot = m_slots[k];
        if (slot.state != State::computing) continue;
        const QString text = computingMessage(k);
        if (text != slot.message) {
            slot.message = text;
            m_panels[k]->setMessage(text);
            changed = true;
        }
    }
    if (changed) updateTable();
}

void ReorderView::updateButtons()
{
    for (std::size_t k = 0; k < orderings.size(); ++k) {
        auto* b = m_buttons[k];
        const auto& slot = m_slots[k];
        const bool canOrder = orderings[k] != Ordering::original;
        switch (slot.state) {
            case State::computing:
                b->setText(tr("Cancel"));
                b->setToolTip(orderings[k] == Ordering::original
                                  ? QString()
                                  : tr("Drops this run: it stops before its next step; a Boost "
                                       "or METIS call already running ends in the background "
                                       "and its result is thrown away."));
                b->setVisible(canOrder);
                break;
            case State::onDemand:
            case State::cancelled:
                b->setText(tr("Compute %1").arg(titleOf(orderings[k])));
                b->setToolTip(onDemandMessage(k));
                b->setVisible(canOrder);
                break;
            default:
                b->setVisible(false);
                break;
        }
    }
}

void ReorderView::updateSummary()
{
    if (!m_document) {
        m_summary->setText(tr("<b>Reorderings</b>: no matrix loaded."));
        return;
    }
    const auto& a = m_document->csr;
    m_summary->setText(
        tr("<b>%1</b>: %2 \u00d7 %3, %4 nonzeros. A symmetric reordering P A P\u1d40 moves "
           "the entries, not the row lengths: it changes where x is read (sectors per trip of a "
           "warp of %5 rows) and the padding of formats that pad consecutive rows (SELL-C-\u03c3, "
           "BiELL), while ELLPACK and the globally sorted formats store the same.")
            .arg(m_document->name.toHtmlEscaped(), groupDigits(a.num_rows),
                 groupDigits(a.num_cols), groupDigits(spmv::nnz(a)))
            .arg(m_params.warp_size));
}

void ReorderView::updateTable()
{
    std::array<ReorderColumn, ReorderModel::columnsShown> columns;
    for (std::size_t k = 0; k < orderings.size(); ++k) {
        const auto& slot = m_slots[k];
        QString status;
        switch (slot.state) {
            case State::computing:
                status = tr("computing \u2026 %1/%2")
                             .arg(slot.control ? qMax(1, slot.control->step.load()) : 1)
                             .arg(jobSteps);
                break;
            case State::onDemand:
                status = tr("on demand");
                break;
            case State::cancelled:
                status = tr("cancelled");
                break;
            default:
                break;
        }
        columns[k] = {titleOf(orderings[k]), slot.report, slot.message, status};
    }
    m_model->resetData(columns);
}
