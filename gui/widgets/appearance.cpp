#include "appearance.hpp"

#include <QComboBox>

#include <spmv/model/gpu_profile.hpp>

#include <QLocale>

#include <QApplication>

Appearance& Appearance::instance()
{
    static Appearance a;
    return a;
}

QFont Appearance::font(double factor, bool bold) const
{
    QFont f = QApplication::font();
    // the application font is already enlarged in presentation mode; start from the normal size
    const double base = m_basePointSize > 0 ? m_basePointSize : f.pointSizeF();
    f.setPointSizeF(qMax(4.0, base * scale() * factor));
    f.setBold(bold);
    return f;
}

void Appearance::setPresentationMode(bool on)
{
    if (on == m_presentation) {
        return;
    }
    if (m_basePointSize <= 0) {
        m_basePointSize = QApplication::font().pointSizeF();
    }
    m_presentation = on;
    QFont f = QApplication::font();
    f.setPointSizeF(m_basePointSize * scale());
    QApplication::setFont(f);
    emit changed();
}

QString groupDigits(qint64 v)
{
    return QLocale::c().toString(v).replace(QLatin1Char(','), QChar(0x2009));
}

QComboBox* makeProfileBox(const QString& current)
{
    auto* box = new QComboBox;
    for (const auto& p : spmv::model::profiles()) {
        box->addItem(QString::fromStdString(p.name));
        box->setItemData(box->count() - 1, QString::fromStdString(p.note), Qt::ToolTipRole);
    }
    if (!current.isEmpty()) {
        box->setCurrentIndex(qMax(0, box->findText(current)));
    }
    return box;
}
