#include "reorderview.hpp"

#include <cstring>
#include <new>

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QSplitter>
#include <QTableView>
#include <QThreadPool>
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
    const int bottom = 2 * caption.height() + 2 * panelMargin;  // two caption lines
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
};

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
        m_panels[k] = new ReorderPatternPanel(titleOf(orderings[k]));
        row->addWidget(m_panels[k], 1);
    }

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
    });
    setDocument(nullptr);
}

ReorderView::~ReorderView()
{
    // the jobs only touch what they captured by value; wait so that none outlives the process
    for (auto& f : m_futures) f.waitForFinished();
}

void ReorderView::setDocument(MatrixDocumentPtr document)
{
    m_document = std::move(document);
    m_perms = {};  // the permutations belong to the previous matrix
    m_permSeconds = {};
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

OrderingReportPtr ReorderView::report(Ordering o) const
{
    for (std::size_t k = 0; k < orderings.size(); ++k) {
        if (orderings[k] == o) return m_reports[k];
    }
    return nullptr;
}

ReorderPatternPanel* ReorderView::panel(Ordering o) const
{
    for (std::size_t k = 0; k < orderings.size(); ++k) {
        if (orderings[k] == o) return m_panels[k];
    }
    return nullptr;
}

void ReorderView::start()
{
    const quint64 generation = ++m_generation;  // whatever is in flight is stale now
    m_reports = {};
    m_pending = 0;
    if (!m_document) {
        for (std::size_t k = 0; k < orderings.size(); ++k) {
            m_messages[k] = tr("No matrix loaded");
            m_panels[k]->setMessage(m_messages[k]);
        }
        updateSummary();
        updateTable();
        emit finished();
        return;
    }
    // every job counts as pending before the first starts: then() runs the continuation at
    // once, inside this loop, when a job (a tiny matrix) has already finished
    m_pending = static_cast<int>(orderings.size());
    for (std::size_t k = 0; k < orderings.size(); ++k) {
        m_messages[k] = tr("Computing the %1 order \u2026").arg(titleOf(orderings[k]));
        m_panels[k]->setMessage(m_messages[k]);
    }
    updateSummary();
    updateTable();
    const QRgb outside = palette().color(QPalette::Window).rgb();
    for (std::size_t k = 0; k < orderings.size(); ++k) {
        const auto o = orderings[k];
        auto job = [doc = m_document, params = m_params, o, perm = m_perms[k],
                    seconds = m_permSeconds[k], outside]() {
            Outcome out;
            try {
                const auto& a = doc->csr;
                spmv::Csr<double, std::int32_t> permuted;
                std::shared_ptr<spmv::analysis::OrderingReport> r;
                if (o == Ordering::original) {
                    r = std::make_shared<spmv::analysis::OrderingReport>(
                        spmv::analysis::report_as_given(a, params));
                } else if (perm) {  // same matrix, new parameters: only measure again
                    r = std::make_shared<spmv::analysis::OrderingReport>(
                        spmv::analysis::report_permutation(a, o, *perm, params, &permuted));
                    r->seconds = seconds;
                } else {
                    r = std::make_shared<spmv::analysis::OrderingReport>(
                        spmv::analysis::report_ordering(a, o, params, &permuted));
                }
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
            if (generation == m_generation) deliver(k, std::move(out));
        });
        // the job itself, not its continuation: that one needs this thread's event loop, so the
        // destructor waiting for it would never return
        std::erase_if(m_futures, [](const QFuture<void>& f) { return f.isFinished(); });
        m_futures.push_back(QFuture<void>(running));
    }
}

void ReorderView::deliver(std::size_t k, Outcome out)
{
    --m_pending;
    if (out.report) {
        const auto& r = *out.report;
        m_reports[k] = out.report;
        // the permutation stays valid for new parameters: keep it (shares the report's memory)
        m_perms[k] = std::shared_ptr<const std::vector<std::int32_t>>(out.report, &r.perm);
        m_permSeconds[k] = r.seconds;
        m_messages[k].clear();
        m_panels[k]->setImage(out.image,
                              tr("bandwidth %1 \u00b7 profile %2\nx: %3 sectors per warp trip "
                                 "(ideal %4)")
                                  .arg(groupDigits(r.bandwidth), groupDigits(r.profile),
                                       QString::number(r.x.sectors_per_trip, 'f', 2),
                                       QString::number(r.x.ideal_sectors_per_trip, 'f', 2)));
    } else {
        m_messages[k] = out.error;
        m_panels[k]->setMessage(out.error);
    }
    updateTable();
    if (m_pending == 0) emit finished();
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
        columns[k] = {titleOf(orderings[k]), m_reports[k], m_messages[k]};
    }
    m_model->resetData(columns);
}
