#include "generatedialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace {
QString fromView(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<int>(s.size()));
}
}  // namespace

GenerateDialog::GenerateDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Generate a matrix"));
    m_generator = new QComboBox;
    for (const auto& g : spmv::gen::generators()) {
        m_generator->addItem(fromView(g.title), fromView(g.name));
    }
    m_description = new QLabel;
    m_description->setWordWrap(true);
    m_form = new QFormLayout;
    m_seed = new QSpinBox;
    m_seed->setRange(0, 1 << 30);
    m_seed->setValue(1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* top = new QFormLayout;
    top->addRow(tr("Generator"), m_generator);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_description);
    layout->addLayout(m_form);
    layout->addWidget(buttons);
    connect(m_generator, &QComboBox::currentIndexChanged, this, &GenerateDialog::rebuildForm);
    rebuildForm();
}

void GenerateDialog::rebuildForm()
{
    while (m_form->rowCount() > 0) {
        m_form->removeRow(0);  // deletes the widgets of the row (the seed box is re-created)
    }
    m_fields.clear();
    const auto& g = spmv::gen::find_generator(generator().toStdString());
    m_description->setText(
        QStringLiteral("%1<br><i>%2</i>")
            .arg(fromView(g.description).toHtmlEscaped(), fromView(g.source).toHtmlEscaped()));
    for (const auto& p : g.params) {
        auto* box = new QDoubleSpinBox;
        box->setDecimals(p.integer ? 0 : 3);
        box->setRange(p.min_value, p.max_value);
        box->setValue(p.default_value);
        box->setToolTip(fromView(p.description));
        m_form->addRow(fromView(p.name), box);
        m_fields.append({fromView(p.name), box});
    }
    m_seed = new QSpinBox;
    m_seed->setRange(0, 1 << 30);
    m_seed->setValue(1);
    m_seed->setEnabled(g.uses_seed);
    m_form->addRow(tr("seed"), m_seed);
}

QString GenerateDialog::generator() const
{
    return m_generator->currentData().toString();
}

spmv::gen::GeneratorParams GenerateDialog::params() const
{
    spmv::gen::GeneratorParams p;
    for (const auto& [name, box] : m_fields) {
        p[name.toStdString()] = box->value();
    }
    return p;
}

quint64 GenerateDialog::seed() const
{
    return static_cast<quint64>(m_seed->value());
}
