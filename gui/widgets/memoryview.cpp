#include "memoryview.hpp"

#include <algorithm>
#include <array>

#include <QHeaderView>
#include <QSplitter>
#include <QTableView>
#include <QLabel>
#include <QVBoxLayout>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarLegendMarker>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QStackedBarSeries>
#include <QtCharts/QValueAxis>

#include <spmv/analysis/summary.hpp>
#include <spmv/viz/units.hpp>

#include "appearance.hpp"
#include "chart_support.hpp"
#include "models/formatsummarymodel.hpp"

MemoryView::MemoryView(QWidget* parent) : QWidget(parent)
{
    m_chartView = new QChartView;
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumHeight(260);
    m_model = new FormatSummaryModel(this);
    m_table = new QTableView;
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setAlternatingRowColors(true);
    // the legend below the chart wraps (Qt Charts' own would elide "auxiliary arrays" and the
    // estimate's entry at a projector's font)
    m_legend = new ChartLegend;
    m_notBuilt = new QLabel;
    m_notBuilt->setWordWrap(true);
    m_notBuilt->setContentsMargins(6, 0, 6, 2);
    m_notBuilt->hide();
    // the note goes above the table (the chart and its legend keep their splitter pane)
    auto* lower = new QWidget;
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->setSpacing(0);
    lowerLayout->addWidget(m_notBuilt);
    lowerLayout->addWidget(m_table, 1);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(chartWithLegend(m_chartView, m_legend));
    split->addWidget(lower);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
    connect(&Appearance::instance(), &Appearance::changed, this, &MemoryView::rebuild);
    rebuild();
}

QString MemoryView::notBuiltNote() const
{
    return m_notBuilt->isHidden() ? QString() : m_notBuilt->text();
}

void MemoryView::setError(const QString& message)
{
    m_error = message;
    setSummaries(nullptr, m_params);
}

void MemoryView::setSummaries(SummariesPtr summaries, const spmv::FormatParams& params,
                              quint64 limit)
{
    m_limit = limit;
    if (summaries) {
        m_error.clear();
    }
    m_summaries = std::move(summaries);
    m_params = params;
    m_model->resetData(m_summaries);
    rebuild();
}

void MemoryView::rebuild()
{
    const auto& app = Appearance::instance();
    const auto& pal = Appearance::palette();
    auto* chart = newStyledChart();
    m_notBuilt->clear();
    m_notBuilt->hide();
    if (!m_summaries || m_summaries->empty()) {
        chart->setTitle(m_error.isEmpty() ? tr("Memory per format (computing ...)")
                                          : tr("No memory summary: %1").arg(m_error));
    } else {
        // Formats too large to build (FormatSummary::estimated) get their exact estimated
        // footprint as hatched bars; the axis follows the formats that were built, so a
        // 24 GiB ELLPACK does not flatten the others (its bar runs off the top, its label says
        // how much it would need).
        double maxBuilt = 0;
        double maxAll = 0;
        for (const auto& s : *m_summaries) {
            if (s.ok()) maxBuilt = qMax(maxBuilt, static_cast<double>(s.bytes));
            if (s.ok() || s.estimated) maxAll = qMax(maxAll, static_cast<double>(s.bytes));
        }
        const double maxBytes = maxBuilt > 0 ? qMin(maxAll, 1.5 * maxBuilt) : maxAll;
        const auto unit = spmv::viz::byte_unit(maxBytes);
        const QString unitName =
            QString::fromLatin1(unit.name.data(), static_cast<int>(unit.name.size()));
        // the parameters on lines of their own below the title: two lines at the desk, three
        // in presentation mode (beside a lesson's text one line of them is wider than the chart)
        chart->setTitle(tr("Memory per format<br><span style=\"font-weight:normal\">double "
                           "values, 32-bit indices%5pJDS b_r = %1, SELL-%2-%3, ELLG pitch %4 "
                           "B</span>")
                            .arg(m_params.block_rows)
                            .arg(m_params.slice_height)
                            .arg(m_params.sort_window)
                            .arg(m_params.pitch_bytes)
                            .arg(app.presentationMode() ? QStringLiteral("<br>")
                                                        : QStringLiteral("; ")));
        auto* values = new QBarSet(tr("values"));
        auto* indices = new QBarSet(tr("indices"));
        auto* aux = new QBarSet(tr("auxiliary arrays"));
        auto* padding = new QBarSet(tr("padding"));
        values->setColor(toQColor(pal.values));
        indices->setColor(toQColor(pal.indices));
        aux->setColor(toQColor(pal.aux));
        padding->setColor(toQColor(pal.padding));
        std::array<QBarSet*, 4> estimates{};
        const std::array<spmv::viz::Rgb, 4> colours{pal.values, pal.indices, pal.aux, pal.padding};
        for (std::size_t i = 0; i < estimates.size(); ++i) {
            // unnamed: the legend names only the last of the four, and only when a format
            // was not built (below)
            estimates[i] = new QBarSet(QString());
            const QColor c = toQColor(colours[i]);
            estimates[i]->setBrush(QBrush(c, Qt::BDiagPattern));
            estimates[i]->setBorderColor(c);
        }
        QStringList categories;
        QStringList notBuilt;
        bool anyEstimate = false;
        for (const auto& s : *m_summaries) {
            const QString title = QString::fromUtf8(s.title.data(), static_cast<int>(s.title.size()));
            categories << (s.ok() ? title : s.estimated ? title + QLatin1Char('*')
                                                        : tr("%1 (not built)").arg(title));
            if (s.estimated) {
                notBuilt << tr("%1 would need %2")
                                .arg(title, QString::fromStdString(spmv::analysis::format_bytes(
                                                static_cast<double>(s.bytes))));
            }
            const auto& f = s.footprint;
            const std::array<double, 4> parts{static_cast<double>(f.value_bytes) / unit.divisor,
                                              static_cast<double>(f.index_bytes) / unit.divisor,
                                              static_cast<double>(f.aux_bytes) / unit.divisor,
                                              static_cast<double>(f.padding_bytes) / unit.divisor};
            const std::array<QBarSet*, 4> real{values, indices, aux, padding};
            for (std::size_t i = 0; i < 4; ++i) {
                *real[i] << (s.estimated ? 0.0 : parts[i]);
                *estimates[i] << (s.estimated ? parts[i] : 0.0);
            }
            anyEstimate = anyEstimate || s.estimated;
        }
        if (anyEstimate) {
            estimates[3]->setLabel(tr("not built (estimate)"));
            // the reason below the legend, wrapped over as many lines as it needs: in the
            // chart's title Qt Charts elides it when several formats are over the limit, and
            // rotated category labels would be cut
            m_notBuilt->setFont(app.font());
            m_notBuilt->setText(tr("* not built (limit %2), hatched = exact estimate: %1.")
                                    .arg(notBuilt.join(QStringLiteral(", ")),
                                         QString::fromStdString(spmv::analysis::format_bytes(
                                             static_cast<double>(m_limit)))));
            m_notBuilt->show();
        }
        auto* series = new QStackedBarSeries;
        for (auto* set : {values, indices, aux, padding}) {
            set->setBorderColor(set->color().darker(140));
            series->append(set);
        }
        for (auto* set : estimates) {
            series->append(set);
        }
        series->setBarWidth(0.7);
        chart->addSeries(series);
        auto* x = new QBarCategoryAxis;
        x->append(categories);
        x->setLabelsFont(app.font(0.85));
        // many formats: vertical names, which Qt Charts cuts only by the chart's height (at -45
        // degrees it cuts them to the bar's width: "ELL...", "JDS CS..." beside a lesson's text)
        x->setLabelsAngle(categories.size() > 8 ? -90 : 0);
        auto* y = new QValueAxis;
        y->setTitleText(unitName);
        y->setTitleFont(app.font());
        y->setLabelsFont(app.font(0.9));
        y->setMin(0);
        y->setMax(maxBytes / unit.divisor * 1.05);
        y->applyNiceNumbers();
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        series->attachAxis(x);
        series->attachAxis(y);
        // one legend entry for the four hatched sets (none when every format was built)
        for (auto* marker : chart->legend()->markers(series)) {
            auto* bar = qobject_cast<QBarLegendMarker*>(marker);
            if (bar && std::find(estimates.begin(), estimates.end(), bar->barset()) !=
                           estimates.end()) {
                marker->setVisible(anyEstimate && bar->barset() == estimates[3]);
            }
        }
    }
    m_legend->showLegendOf(chart);
    replaceChart(m_chartView, chart);
}
