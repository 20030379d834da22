#include "warptimelineview.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QVBoxLayout>

#include <spmv/error.hpp>

#include "appearance.hpp"
#include "elidedtext.hpp"

namespace {

using spmv::analysis::TimelineVariant;

// One drawn line: a warp of a launch, at its time on the variant's axis.
struct Line {
    std::size_t launch = 0;
    std::size_t warp = 0;
    int sm = 0;
    double start = 0.0;
    double end = 0.0;
    std::int64_t model = -1;  // the paired model warp, -1: none
};

struct Band {
    const TimelineVariant* variant = nullptr;
    std::vector<Line> lines;  // drawn top to bottom
    std::size_t longest = 0;  // index into lines
    double span = 0.0;        // ns
    std::int64_t max_iterations = 0;
    std::optional<spmv::analysis::TimelinePairing> pairing;
    double median = 0.0;
};

Band makeBand(const TimelineVariant& v)
{
    Band b;
    b.variant = &v;
    b.pairing = spmv::analysis::best_pairing(v);
    for (std::size_t l = 0; l < v.launches.size(); ++l) {
        const auto& launch = v.launches[l];
        for (std::size_t w = 0; w < launch.warps.size(); ++w) {
            const auto& mw = launch.warps[w];
            Line line{l, w, mw.sm, launch.offset_ns + mw.start_ns, launch.offset_ns + mw.end_ns,
                      -1};
            if (b.pairing && b.pairing->launch == l) line.model = b.pairing->pairs[w].model;
            b.lines.push_back(line);
        }
    }
    // grouped by launch, then SM, then start: the SMs' rows of resident warps
    std::stable_sort(b.lines.begin(), b.lines.end(), [](const Line& p, const Line& q) {
        return std::tie(p.launch, p.sm, p.start) < std::tie(q.launch, q.sm, q.start);
    });
    std::vector<double> durations;
    for (std::size_t i = 0; i < b.lines.size(); ++i) {
        const auto& li = b.lines[i];
        durations.push_back(li.end - li.start);
        if (li.end - li.start > b.lines[b.longest].end - b.lines[b.longest].start) b.longest = i;
        b.span = std::max(b.span, li.end);
        if (li.model >= 0) {
            b.max_iterations =
                std::max(b.max_iterations, v.model[static_cast<std::size_t>(li.model)].max_iterations);
        }
    }
    if (!durations.empty()) {
        std::nth_element(durations.begin(), durations.begin() + durations.size() / 2,
                         durations.end());
        b.median = durations[durations.size() / 2];
    }
    return b;
}

// A round step for about `target` ticks over [0, max].
double niceStep(double max, int target)
{
    if (max <= 0) return 1.0;
    const double raw = max / std::max(1, target);
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * p >= raw) return m * p;
    }
    return 10.0 * p;
}

QString micro(double ns)
{
    return ns >= 1e5 ? QString::number(ns / 1e3, 'f', 0) : ns >= 1e4
                                                               ? QString::number(ns / 1e3, 'f', 1)
                                                               : QString::number(ns / 1e3, 'f', 2);
}


// Phrases joined by `sep` into lines no wider than `width` (a phrase wider than a line gets a
// line of its own, which the caller elides).
QStringList wrapPhrases(const QFontMetrics& fm, const QStringList& phrases, int width,
                        const QString& sep)
{
    QStringList lines;
    QString line;
    for (int i = 0; i < phrases.size(); ++i) {
        const QString piece = phrases[i] + (i + 1 < phrases.size() ? sep.trimmed() : QString());
        const QString joined = line.isEmpty() ? piece : line + QLatin1Char(' ') + piece;
        if (!line.isEmpty() && fm.horizontalAdvance(joined) > width) {
            lines << line;
            line = piece;
        } else {
            line = joined;
        }
    }
    if (!line.isEmpty()) lines << line;
    return lines;
}

// A band's heading: the variant and its launches; the long warp, stated (phrases).
std::pair<QStringList, QStringList> bandText(const Band& b)
{
    const TimelineVariant& v = *b.variant;
    const std::size_t n = b.lines.size();
    std::vector<int> sms;
    for (const auto& l : b.lines) sms.push_back(l.sm);
    std::sort(sms.begin(), sms.end());
    const auto used = static_cast<int>(std::unique(sms.begin(), sms.end()) - sms.begin());
    QStringList title{
        QStringLiteral("%1 (%2): %3 warps in %4 launch(es)")
            .arg(QString::fromStdString(v.variant),
                 QString::fromStdString(v.launches.empty() ? std::string("no launch")
                                                           : v.launches.front().kernel),
                 groupDigits(static_cast<qint64>(n)))
            .arg(v.launches.size()),
        QStringLiteral("on %1 SMs").arg(used),
        QStringLiteral("%1 \u00b5s").arg(micro(b.span))};
    if (n == 0) {
        return {title, {QStringLiteral("no instrumented launch (cuSPARSE's kernels cannot be "
                                       "traced)")}};
    }
    const Line& lw = b.lines[b.longest];
    const auto& mw = v.launches[lw.launch].warps[lw.warp];
    QStringList s{QStringLiteral("longest warp %1 \u00b5s = %2\u00d7 the median %3 \u00b5s")
                      .arg(micro(lw.end - lw.start))
                      .arg(b.median > 0 ? (lw.end - lw.start) / b.median : 0.0, 0, 'f', 1)
                      .arg(micro(b.median)),
                  QStringLiteral("SM %1").arg(lw.sm)};
    if (mw.has_rows()) {
        s << QStringLiteral("rows %1\u2013%2").arg(mw.row_begin).arg(mw.row_end - 1);
    }
    if (lw.model >= 0) {
        const auto& m = v.model[static_cast<std::size_t>(lw.model)];
        s << QStringLiteral("N_iter %1 (%2% of lane trips idle)")
                 .arg(groupDigits(m.max_iterations))
                 .arg(m.max_iterations > 0 ? 100.0 * static_cast<double>(m.idle_slots) /
                                                 static_cast<double>(m.threads * m.max_iterations)
                                           : 0.0,
                      0, 'f', 0);
    }
    if (b.pairing && !std::isnan(b.pairing->correlation)) {
        s << QStringLiteral("duration vs N_iter r = %1").arg(b.pairing->correlation, 0, 'f', 2);
    }
    return {title, s};
}

}  // namespace

WarpTimelineCanvas::WarpTimelineCanvas(QWidget* parent) : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    connect(&Appearance::instance(), &Appearance::changed, this, [this] { update(); });
}

void WarpTimelineCanvas::setTimeline(const spmv::analysis::WarpTimeline* timeline, int variant)
{
    m_timeline = timeline;
    m_variant = variant;
    update();
}

void WarpTimelineCanvas::setMessage(const QString& message)
{
    m_message = message;
    update();
}

void WarpTimelineCanvas::setCaption(const QString& caption)
{
    m_caption = caption;
    update();
}

void WarpTimelineCanvas::paintEvent(QPaintEvent*)
{
    const auto& app = Appearance::instance();
    const auto& pal = Appearance::palette();
    QPainter p(this);
    p.fillRect(rect(), Appearance::colour(pal.background));
    const QFont body = app.font();
    const QFont small = app.font(0.9);
    p.setFont(body);
    const QFontMetrics fm(body);
    const QFontMetrics sfm(small);
    if (!m_timeline || m_timeline->variants.empty()) {
        p.setPen(Appearance::colour(pal.text));
        const QString text =
            m_message.isEmpty()
                ? tr("No warp timeline loaded. Record one on a GPU with\n"
                     "  spmvlab bench MATRIX --gpu --formats ellr,pjds --warp-timeline warps.json\n"
                     "then open it here (File > Open warp timeline ..., or spmvlab-gui "
                     "--warp-timeline warps.json).")
                : m_message;
        p.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                   text);
        return;
    }
    std::vector<Band> bands;
    for (std::size_t i = 0; i < m_timeline->variants.size(); ++i) {
        if (m_variant >= 0 && static_cast<std::size_t>(m_variant) != i) continue;
        bands.push_back(makeBand(m_timeline->variants[i]));
    }
    // one time axis and one N_iter axis for every band, so that the variants compare
    double tmax = 0.0;
    std::int64_t imax = 0;
    for (const auto& b : bands) {
        tmax = std::max(tmax, b.span);
        imax = std::max(imax, b.max_iterations);
    }
    const int pad = fm.height() / 2;
    const int textW = width() - 2 * pad;
    // the caption (what was measured where) and each band's heading, wrapped at their phrases
    // so that a projector's large text is never cut
    const QStringList caption = wrapPhrases(sfm, m_caption.split(QStringLiteral("; ")), textW,
                                            QStringLiteral("; "));
    const QFont bold = app.font(1.0, true);
    const QFontMetrics bfm(bold);
    std::vector<QStringList> titles, statements;
    int headLines = 1;
    for (const auto& b : bands) {
        const auto [title, statement] = bandText(b);
        titles.push_back(wrapPhrases(bfm, title, textW, QStringLiteral(", ")));
        statements.push_back(wrapPhrases(fm, statement, textW, QStringLiteral(", ")));
        headLines = std::max(headLines, static_cast<int>(titles.back().size()) +
                                            static_cast<int>(statements.back().size()));
    }
    p.setPen(Appearance::colour(pal.text));
    p.setFont(small);
    for (int i = 0; i < caption.size(); ++i) {
        p.drawText(QRect(pad, i * sfm.height(), textW, sfm.height()), Qt::AlignLeft,
                   elideText(sfm, caption[i], Qt::ElideRight, textW));
    }
    p.setFont(body);
    const int captionH = static_cast<int>(caption.size()) * sfm.height() + pad / 2;
    const int headH = headLines * fm.height() + sfm.height() / 3;
    const int axisH = sfm.height() + 6;
    const int left = pad + sfm.horizontalAdvance(QStringLiteral("SMs")) + pad;
    const int total = width() - left - pad;
    const int modelW = imax > 0 ? total * 28 / 100 : 0;
    const int gap = imax > 0 ? pad * 2 : 0;
    const int timeW = total - modelW - gap;
    const int bandH = (height() - pad - captionH) / static_cast<int>(bands.size());
    const QColor selection = Appearance::colour(pal.selection);
    const QColor useful = Appearance::colour(pal.useful);
    const QColor idle = Appearance::colour(pal.idle);
    const QColor text = Appearance::colour(pal.text);
    const QColor grid = Appearance::colour(pal.grid);
    const QColor shade = Appearance::colour(pal.empty).darker(104);
    const QColor lineColour = useful.darker(120);

    for (std::size_t bi = 0; bi < bands.size(); ++bi) {
        const Band& b = bands[bi];
        const TimelineVariant& v = *b.variant;
        const int top = captionH + pad / 2 + static_cast<int>(bi) * bandH;
        const QRect plot(left, top + headH, timeW, bandH - headH - axisH - pad / 2);
        const QRect model(left + timeW + gap, plot.top(), modelW, plot.height());
        const std::size_t n = b.lines.size();
        // heading: the variant, its launches; the long warp, stated
        int headY = top;
        p.setPen(text);
        p.setFont(bold);
        for (const QString& line : titles[bi]) {
            p.drawText(QRect(pad, headY, textW, bfm.height()), Qt::AlignLeft,
                       elideText(bfm, line, Qt::ElideRight, textW));
            headY += fm.height();
        }
        p.setFont(body);
        p.setPen(n == 0 ? text : selection.darker(115));
        for (const QString& line : statements[bi]) {
            p.drawText(QRect(pad, headY, textW, fm.height()), Qt::AlignLeft,
                       elideText(fm, line, Qt::ElideRight, textW));
            headY += fm.height();
        }
        if (n == 0) continue;
        const Line& lw = b.lines[b.longest];

        // SM groups: alternate shading behind the lines of every other SM
        // rows inside the frame, the first and last (the long warp's highlight) clear of it
        const double inset = 2.0 * app.lineWidth();
        const double rowH = (plot.height() - 2 * inset) / static_cast<double>(n);
        const auto yOf = [&](std::size_t i) {
            return plot.top() + inset + (static_cast<double>(i) + 0.5) * rowH;
        };
        bool odd = false;
        for (std::size_t i = 0; i < n;) {
            std::size_t j = i;
            while (j < n && b.lines[j].sm == b.lines[i].sm && b.lines[j].launch == b.lines[i].launch) ++j;
            if (odd) {
                const double y0 = plot.top() + inset + static_cast<double>(i) * rowH;
                const double y1 = plot.top() + inset + static_cast<double>(j) * rowH;
                p.fillRect(QRectF(plot.left(), y0, plot.width(), y1 - y0), shade);
                if (modelW > 0) p.fillRect(QRectF(model.left(), y0, model.width(), y1 - y0), shade);
            }
            odd = !odd;
            i = j;
        }
        // the warps
        const double xs = tmax > 0 ? plot.width() / tmax : 0.0;
        const double is = imax > 0 ? model.width() / static_cast<double>(imax) : 0.0;
        QPen pen(lineColour);
        pen.setWidthF(std::max(1.0, rowH * 0.8));
        pen.setCapStyle(Qt::FlatCap);
        p.setPen(pen);
        for (std::size_t i = 0; i < n; ++i) {
            const Line& li = b.lines[i];
            const double y = yOf(i);
            // a line at least one pixel long: a warp shorter than a pixel still shows
            const double x0 = plot.left() + li.start * xs;
            p.drawLine(QPointF(x0, y), QPointF(std::max(x0 + 1.0, plot.left() + li.end * xs), y));
        }
        if (modelW > 0) {
            QPen idlePen(idle);
            idlePen.setWidthF(pen.widthF());
            idlePen.setCapStyle(Qt::FlatCap);
            QPen usefulPen(useful);
            usefulPen.setWidthF(pen.widthF());
            usefulPen.setCapStyle(Qt::FlatCap);
            for (std::size_t i = 0; i < n; ++i) {
                const Line& li = b.lines[i];
                if (li.model < 0) continue;
                const auto& m = v.model[static_cast<std::size_t>(li.model)];
                const double y = yOf(i);
                const double mean = m.threads > 0 ? static_cast<double>(m.useful) /
                                                        static_cast<double>(m.threads)
                                                  : 0.0;
                p.setPen(idlePen);
                p.drawLine(QPointF(model.left(), y),
                           QPointF(model.left() + std::max(1.0, static_cast<double>(m.max_iterations) * is), y));
                p.setPen(usefulPen);
                p.drawLine(QPointF(model.left(), y), QPointF(model.left() + mean * is, y));
            }
        }
        // the long warp, across both sides, at least 3 px thick
        QPen sel(selection);
        sel.setWidthF(std::max(3.0 * app.lineWidth(), rowH));
        sel.setCapStyle(Qt::FlatCap);
        p.setPen(sel);
        const double ly = yOf(b.longest);
        p.drawLine(QPointF(plot.left() + lw.start * xs, ly), QPointF(plot.left() + lw.end * xs, ly));
        if (lw.model >= 0 && modelW > 0) {
            const auto& m = v.model[static_cast<std::size_t>(lw.model)];
            p.drawLine(QPointF(model.left(), ly),
                       QPointF(model.left() + std::max(2.0, static_cast<double>(m.max_iterations) * is), ly));
        }
        // marker in the left margin
        QPolygonF marker;
        const double ms = fm.height() * 0.35;
        marker << QPointF(left - 2, ly) << QPointF(left - 2 - ms, ly - ms) << QPointF(left - 2 - ms, ly + ms);
        p.setPen(Qt::NoPen);
        p.setBrush(selection);
        p.drawPolygon(marker);
        p.setBrush(Qt::NoBrush);

        // frames, axes
        p.setPen(QPen(grid, app.lineWidth()));
        p.drawRect(plot);
        if (modelW > 0) p.drawRect(model);
        p.setFont(small);
        p.setPen(text);
        p.save();
        p.translate(pad / 2, plot.center().y());
        p.rotate(-90);
        p.drawText(QRect(-plot.height() / 2, 0, plot.height(), sfm.height()), Qt::AlignCenter,
                   elideText(sfm, tr("warps by SM"), Qt::ElideRight, plot.height()));
        p.restore();
        const int ay = plot.bottom() + 3;
        const double step = niceStep(tmax, std::max(2, timeW / (sfm.horizontalAdvance(QStringLiteral("0000 \u00b5s")) * 2)));
        for (double t = 0; t <= tmax + 1e-9 && step > 0; t += step) {
            const int x = plot.left() + static_cast<int>(t * xs);
            p.setPen(grid);
            p.drawLine(x, plot.bottom(), x, plot.bottom() + 3);
            p.setPen(text);
            const QString label = micro(t);
            const int w = sfm.horizontalAdvance(label);
            if (x + w / 2 < plot.right() - sfm.horizontalAdvance(QStringLiteral(" \u00b5s since launch")))
                p.drawText(QRect(x - w / 2, ay, w + 2, sfm.height()), Qt::AlignLeft, label);
        }
        const QString tAxis = tr("\u00b5s since launch");
        p.drawText(QRect(plot.right() - sfm.horizontalAdvance(tAxis), ay,
                         sfm.horizontalAdvance(tAxis) + 2, sfm.height()),
                   Qt::AlignLeft, tAxis);
        if (modelW > 0) {
            const QString mAxis = tr("model: N_iter (%1 max)").arg(groupDigits(imax));
            p.drawText(QRect(model.left(), ay, model.width(), sfm.height()), Qt::AlignLeft,
                       elideText(sfm, mAxis, Qt::ElideRight, model.width()));
        }
        p.setFont(body);
    }
}

WarpTimelineView::WarpTimelineView(QWidget* parent) : QWidget(parent)
{
    m_source = new QLabel(tr("No warp timeline loaded"));
    m_source->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_variantBox = new QComboBox;
    m_variantBox->setObjectName(QStringLiteral("warpTimelineVariant"));
    m_variantBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_openButton = new QPushButton(tr("Open timeline ..."));
    m_canvas = new WarpTimelineCanvas;
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_openButton);
    bar->addWidget(new QLabel(tr("Show")));
    bar->addWidget(m_variantBox);
    bar->addWidget(m_source, 1);
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(4, 4, 4, 4);
    column->addLayout(bar);
    column->addWidget(m_canvas, 1);
    connect(m_openButton, &QPushButton::clicked, this, &WarpTimelineView::openTimeline);
    connect(m_variantBox, &QComboBox::currentIndexChanged, this, [this] { showVariant(); });
    m_variantBox->setEnabled(false);
}

bool WarpTimelineView::loadTimeline(const QString& path, QString* error)
{
    try {
        auto t = spmv::analysis::load_warp_timeline(path.toStdString());
        setTimeline(std::move(t), path);
        return true;
    } catch (const spmv::Error& e) {
        const QString message = QString::fromStdString(spmv::user_message(e.what()));
        if (error) *error = message;
        if (!m_loaded) m_canvas->setMessage(message);
        emit statusMessage(message);
        return false;
    }
}

void WarpTimelineView::setTimeline(spmv::analysis::WarpTimeline timeline, const QString& source)
{
    m_timeline = std::move(timeline);
    m_loaded = true;
    const QSignalBlocker block(m_variantBox);
    m_variantBox->clear();
    if (m_timeline.variants.size() > 1) m_variantBox->addItem(tr("all variants"), -1);
    for (std::size_t i = 0; i < m_timeline.variants.size(); ++i) {
        m_variantBox->addItem(QString::fromStdString(m_timeline.variants[i].variant),
                              static_cast<int>(i));
    }
    m_variantBox->setEnabled(m_variantBox->count() > 1);
    m_source->setText(m_timeline.synthetic ? tr("%1 (synthetic)").arg(QFileInfo(source).fileName())
                                           : QFileInfo(source).fileName());
    m_source->setToolTip(source);
    m_canvas->setCaption(
        tr("%1%2; %3 precision; %4; %5, commit %6")
            .arg(m_timeline.synthetic ? tr("SYNTHETIC (not measured): ") : QString(),
                 QString::fromStdString(m_timeline.matrix),
                 QString::fromStdString(m_timeline.precision),
                 QString::fromStdString(m_timeline.device),
                 QString::fromStdString(m_timeline.date.substr(0, 10)),
                 QString::fromStdString(m_timeline.commit.substr(0, 12))));
    m_canvas->setMessage(QString());
    showVariant();
}

void WarpTimelineView::showVariant()
{
    m_canvas->setTimeline(m_loaded ? &m_timeline : nullptr,
                          m_variantBox->count() > 0 ? m_variantBox->currentData().toInt() : -1);
}

void WarpTimelineView::openTimeline()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open warp timeline"), QString(),
        tr("Warp timeline (spmvlab bench --gpu --warp-timeline) (*.json);;All files (*)"));
    if (path.isEmpty()) return;
    QString error;
    if (!loadTimeline(path, &error)) emit statusMessage(error);
}
