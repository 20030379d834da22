#include "modelpanel.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <spmv/model/gpu_profile.hpp>
#include <spmv/model/performance.hpp>
#include <spmv/viz/model_chart.hpp>

#include "appearance.hpp"
#include "chart_support.hpp"

namespace {

QDoubleSpinBox* spinBox(double lo, double hi, double value, int decimals, const QString& suffix)
{
    auto* s = new QDoubleSpinBox;
    s->setRange(lo, hi);
    s->setDecimals(decimals);
    s->setValue(value);
    s->setSuffix(suffix);
    s->setKeyboardTracking(false);
    return s;
}

QString seconds(double s)
{
    if (s >= 1) return QStringLiteral("%1 s").arg(s, 0, 'g', 4);
    if (s >= 1e-3) return QStringLiteral("%1 ms").arg(s * 1e3, 0, 'g', 4);
    return QStringLiteral("%1 \u00b5s").arg(s * 1e6, 0, 'g', 4);
}

}  // namespace

std::vector<ModelThresholdLine> modelThresholdLines(double half, double tenth, double eq4)
{
    namespace oi = spmv::viz::okabe_ito;
    return {
        {half, ModelPanel::tr("50 % (eq. 3): %1").arg(half, 0, 'f', 1), oi::vermillion,
         Qt::DashLine},
        {tenth, ModelPanel::tr("10 % exact: %1").arg(tenth, 0, 'f', 1),
         oi::bluish_green, Qt::DashDotLine},
        {eq4, ModelPanel::tr("10 % by eq. 4: %1").arg(eq4, 0, 'f', 1),
         oi::reddish_purple, Qt::DotLine},
    };
}

ModelPanel::ModelPanel(QWidget* parent) : QWidget(parent)
{
    m_profile = makeProfileBox();
    m_precision = new QComboBox;
    m_precision->addItem(tr("double (8-byte values)"));
    m_precision->addItem(tr("single (4-byte values)"));
    m_bGpu = spinBox(0.1, 1e5, 120, 1, tr(" GB/s"));
    m_bPci = spinBox(0.1, 1e4, 6, 1, tr(" GB/s"));
    m_alpha = spinBox(0.0001, 1.0, 1.0, 4, QString());
    m_alpha->setSingleStep(0.05);
    m_alpha->setToolTip(
        tr("Fraction of x loads that go to memory: 1 = no reuse, 1/N_nzr = "
           "perfect reuse (the lower bound)"));
    m_nnzr = spinBox(0.01, 1e6, 7, 2, QString());
    m_rows = spinBox(1, 1e10, 1e6, 0, QString());
    m_results = new QLabel;
    m_results->setTextFormat(Qt::RichText);
    m_results->setWordWrap(true);
    m_results->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* form = new QFormLayout;
    form->addRow(tr("GPU profile"), m_profile);
    form->addRow(tr("Precision"), m_precision);
    form->addRow(tr("B_GPU (device memory)"), m_bGpu);
    form->addRow(tr("B_PCI (PCIe, one way)"), m_bPci);
    form->addRow(tr("\u03b1 (x reuse)"), m_alpha);
    form->addRow(tr("N_nzr (nonzeros per row)"), m_nnzr);
    form->addRow(tr("N (rows)"), m_rows);
    auto* left = new QVBoxLayout;
    left->addLayout(form);
    left->addWidget(m_results);
    left->addStretch(1);
    auto* leftWidget = new QWidget;
    leftWidget->setLayout(left);
    // the inputs and results column: its width grows with presentation mode's larger fonts
    leftWidget->setMaximumWidth(static_cast<int>(460 * Appearance::instance().scale()));
    connect(&Appearance::instance(), &Appearance::changed, leftWidget, [leftWidget] {
        leftWidget->setMaximumWidth(static_cast<int>(460 * Appearance::instance().scale()));
    });

    m_chartView = new QChartView;
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumSize(320, 260);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(leftWidget);
    // the legend below the chart wraps (Qt Charts' own elides the thresholds' names)
    m_legend = new ChartLegend;
    layout->addWidget(chartWithLegend(m_chartView, m_legend), 1);

    connect(m_profile, &QComboBox::currentIndexChanged, this, &ModelPanel::applyProfile);
    for (auto* s : {m_bGpu, m_bPci, m_alpha, m_nnzr, m_rows}) {
        connect(s, &QDoubleSpinBox::valueChanged, this, &ModelPanel::recompute);
    }
    connect(m_precision, &QComboBox::currentIndexChanged, this, &ModelPanel::recompute);
    connect(&Appearance::instance(), &Appearance::changed, this, &ModelPanel::recompute);
    m_profile->setCurrentIndex(0);
    applyProfile();
}

bool ModelPanel::selectProfile(const QString& name)
{
    const int i = m_profile->findText(name, Qt::MatchFixedString);
    if (i < 0) return false;
    m_profile->setCurrentIndex(i);
    return true;
}

void ModelPanel::setDocument(MatrixDocumentPtr document)
{
    m_document = std::move(document);
    if (m_document && m_document->stats.rows > 0) {
        const QSignalBlocker b1(m_nnzr), b2(m_rows);
        m_nnzr->setValue(m_document->stats.ave);
        m_rows->setValue(static_cast<double>(m_document->stats.rows));
    }
    recompute();
}

void ModelPanel::applyProfile()
{
    const auto& p = spmv::model::find_profile(m_profile->currentText().toStdString());
    {
        const QSignalBlocker b1(m_bGpu), b2(m_bPci);
        m_bGpu->setValue(p.memory_bandwidth_gbs);
        m_bPci->setValue(p.pcie_bandwidth_gbs);
    }
    recompute();
}

void ModelPanel::recompute()
{
    const auto& app = Appearance::instance();
    const auto& pal = Appearance::palette();
    const auto precision = m_precision->currentIndex() == 0
                               ? spmv::model::Precision::double_precision
                               : spmv::model::Precision::single_precision;
    const double nnzr = m_nnzr->value();
    const double alphaMin = spmv::model::min_alpha(nnzr);
    if (m_alpha->value() < alphaMin) {
        const QSignalBlocker b(m_alpha);
        m_alpha->setValue(alphaMin);
    }
    const double alpha = m_alpha->value();
    QString html;
    double shareHere = -1.0;  // PCIe share of the matrix (or the inputs), percent
    try {
        spmv::analysis::RowLengthStats stats;
        stats.rows = static_cast<std::int64_t>(m_rows->value());
        stats.cols = stats.rows;
        stats.ave = nnzr;
        stats.nnz = static_cast<std::int64_t>(std::llround(nnzr * m_rows->value()));
        const auto gpu = spmv::model::custom(m_profile->currentText().toStdString(),
                                             m_bGpu->value(), m_bPci->value());
        const auto p = spmv::model::predict(stats, gpu, precision, alpha);
        shareHere = 100.0 * p.pcie_share;
        const QString sv = precision == spmv::model::Precision::double_precision ? "8" : "4";
        html =
            tr("<p><b>Code balance</b> B = (s<sub>v</sub> + s<sub>i</sub> + s<sub>v</sub>\u03b1 + "
               "2s<sub>v</sub>/N<sub>nzr</sub>) / 2 = <b>%1 bytes/flop</b> (s<sub>v</sub> = %2)</p>"
               "<p>T<sub>MVM</sub> = bytes / B<sub>GPU</sub> = %3 (%4 of traffic)<br>"
               "T<sub>PCI</sub> = s<sub>v</sub>(N<sub>cols</sub> + N<sub>rows</sub>) / "
               "B<sub>PCI</sub> = %5</p>"
               "<p>Predicted: <b>%6 GFLOP/s</b> (kernel), %7 GFLOP/s with the PCIe transfer; "
               "PCIe share <b>%8 %</b></p>")
                .arg(p.code_balance, 0, 'f', 3)
                .arg(sv)
                .arg(seconds(p.t_mvm_s))
                .arg(QStringLiteral("%1 MB").arg(p.device_bytes / 1e6, 0, 'f', 3))
                .arg(seconds(p.t_pci_s))
                .arg(p.gflops, 0, 'f', 2)
                .arg(p.gflops_with_pcie, 0, 'f', 2)
                .arg(100.0 * p.pcie_share, 0, 'f', 1);
        // presentation mode: the thresholds are read off the chart's legend, which names each
        // with its value ("50 % (eq. 3): 42.8", "10 % exact", "10 % by eq. 4"); spelled out
        // here too they would run the column past the view's height beside a lesson's text
        if (!app.presentationMode()) {
            html += tr("<p>PCIe takes more than 50 % for N<sub>nzr</sub> \u2264 <b>%1</b> (eq. "
                       "3), less than 10 % for N<sub>nzr</sub> \u2265 <b>%2</b>; eq. 4 "
                       "(T<sub>MVM</sub> \u2265 10 T<sub>PCI</sub>): N<sub>nzr</sub> \u2265 "
                       "%3.</p>")
                        .arg(p.n_nzr_pcie_over_half, 0, 'f', 1)
                        .arg(p.n_nzr_pcie_under_tenth, 0, 'f', 1)
                        .arg(p.n_nzr_paper_eq4, 0, 'f', 1);
        }
        if (m_document && !app.presentationMode()) {  // F5: the legend's "this matrix"
            html += tr("<p>Inputs N and N<sub>nzr</sub> taken from <i>%1</i>.</p>")
                        .arg(m_document->name.toHtmlEscaped());
        }
    } catch (const std::exception& e) {
        html = tr("<p>The model cannot be applied: %1</p>")
                   .arg(QString::fromStdString(e.what()).toHtmlEscaped());
    }
    if (Appearance::instance().presentationMode()) {
        // Qt draws a subscript at 2/3 of its font (13 px of the 20 px body, under the 18 px
        // minimum): in presentation mode subscripts are written as the inputs' labels write
        // them, T_MVM, B_GPU, N_nzr, at the body's size
        html.replace(QStringLiteral("<sub>"), QStringLiteral("_"));
        html.replace(QStringLiteral("</sub>"), QString());
    }
    m_results->setText(html);

    auto* chart = newStyledChart();
    const QString fullTitle =
        tr("PCIe share of SpMV + transfer vs nonzeros per row (\u03b1 = %1)").arg(alpha, 0, 'g', 3);
    // presentation mode: the chart beside the inputs is about 370 px wide at 1280 x 720, so the
    // title takes two short lines and the x axis is named by its symbol (the input box beside
    // says "N_nzr (nonzeros per row)"); the full title on hover
    const bool f5 = app.presentationMode();
    chart->setTitle(f5 ? tr("PCIe share vs N_nzr<br>(\u03b1 = %1)").arg(alpha, 0, 'g', 3)
                       : fullTitle);
    m_chartView->setToolTip(fullTitle);
    try {
        const auto c = spmv::viz::model_curves(m_bGpu->value(), m_bPci->value(), alpha, precision,
                                               1.0, 1000.0, 200);
        auto* x = new QLogValueAxis;
        x->setBase(10);
        x->setRange(1, 1000);
        x->setLabelFormat(QStringLiteral("%g"));
        x->setTitleText(f5 ? tr("N_nzr") : tr("N_nzr (nonzeros per row)"));
        x->setMinorTickCount(8);
        auto* y = new QValueAxis;
        y->setRange(0, 100);
        y->setLabelFormat(QStringLiteral("%.0f %%"));
        // presentation mode: the plot's height is too short for the formula (the title and the
        // results beside it say what the share is)
        y->setTitleText(f5 ? tr("PCIe share") : tr("T_PCI / (T_MVM + T_PCI)"));
        for (auto* a : {static_cast<QAbstractAxis*>(x), static_cast<QAbstractAxis*>(y)}) {
            a->setTitleFont(app.font());
            a->setLabelsFont(app.font(0.9));
        }
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        auto* share = new QLineSeries;
        share->setName(tr("PCIe share"));
        for (const auto& pt : c.pcie_share_percent) share->append(pt.x, pt.y);
        QPen sp(toQColor(pal.measured));
        sp.setWidthF(app.lineWidth(2.5));
        share->setPen(sp);
        chart->addSeries(share);
        share->attachAxis(x);
        share->attachAxis(y);
        auto vertical = [&](double at, const QString& name, spmv::viz::Rgb colour,
                            Qt::PenStyle style) {
            if (!(at >= 1.0 && at <= 1000.0)) return;
            auto* l = new QLineSeries;
            l->append(at, 0);
            l->append(at, 100);
            l->setName(name);
            QPen pen(toQColor(colour));
            pen.setWidthF(app.lineWidth(2.0));
            pen.setStyle(style);
            l->setPen(pen);
            chart->addSeries(l);
            l->attachAxis(x);
            l->attachAxis(y);
        };
        // three thresholds, told apart by colour (what the legend's swatches show) and by
        // style (for print and colour-blind readers): 50 % vermillion dashed, the exact 10 %
        // bluish green dash-dot, the paper's eq. 4 (its approximation of 10 %) reddish purple
        // dotted; the two 10 % lines often lie close together
        for (const auto& t : modelThresholdLines(c.n_nzr_half, c.n_nzr_tenth, c.n_nzr_paper_eq4)) {
            vertical(t.at, t.name, t.colour, t.style);
        }
        if (shareHere >= 0 && nnzr >= 1.0 && nnzr <= 1000.0) {
            auto* here = new QScatterSeries;
            here->setName(m_document ? tr("this matrix (N_nzr = %1)").arg(nnzr, 0, 'f', 2)
                                     : tr("N_nzr = %1").arg(nnzr, 0, 'f', 2));
            here->append(nnzr, shareHere);
            here->setColor(toQColor(pal.text));
            here->setMarkerSize(12 * app.scale());
            chart->addSeries(here);
            here->attachAxis(x);
            here->attachAxis(y);
        }
    } catch (const std::exception& e) {
        chart->setTitle(QString::fromStdString(e.what()));
    }
    m_legend->showLegendOf(chart);
    replaceChart(m_chartView, chart);
}
