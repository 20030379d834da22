#include "appearance.hpp"

#include <cmath>

#include <QApplication>
#include <QComboBox>
#include <QFontInfo>
#include <QLocale>
#include <QScreen>

#include <spmv/model/gpu_profile.hpp>

Appearance& Appearance::instance()
{
    static Appearance a;
    return a;
}

double Appearance::pixelsPerPoint()
{
    const QScreen* screen = QGuiApplication::primaryScreen();
    const double dpi = screen ? screen->logicalDotsPerInchY() : 96.0;
    return (dpi > 0 ? dpi : 96.0) / 72.0;
}

double Appearance::normalPixels() const
{
    const double points = m_basePointSize > 0 ? m_basePointSize : QApplication::font().pointSizeF();
    return points * pixelsPerPoint();
}

double Appearance::scale() const
{
    if (!m_presentation) return 1.0;
    const double body = presentationBodyPixels * m_height / referenceHeight;
    return body / qMax(1.0, normalPixels());
}

double Appearance::minimumTextPixels() const
{
    return m_presentation ? presentationMinimumPixels * m_height / referenceHeight
                          : normalMinimumPixels;
}

QString Appearance::legibleSubscript(const QString& text) const
{
    const double body = QFontInfo(font()).pixelSize();
    const double minimum = minimumTextPixels();
    if (body * 2.0 / 3.0 >= minimum) return QStringLiteral("<sub>%1</sub>").arg(text);
    return QStringLiteral("<span style=\"font-size:%1px; vertical-align:sub\">%2</span>")
        .arg(static_cast<int>(std::ceil(minimum * 1.5)))
        .arg(text);
}

QFont Appearance::font(double factor, bool bold) const
{
    QFont f = QApplication::font();
    // the application font is already enlarged in presentation mode; start from the normal size
    const double pixels = qMax(minimumTextPixels(), normalPixels() * scale() * factor);
    f.setPointSizeF(pixels / pixelsPerPoint());
    f.setBold(bold);
    return f;
}

void Appearance::applyApplicationFont()
{
    if (m_basePointSize <= 0) {
        m_basePointSize = QApplication::font().pointSizeF();
    }
    QFont f = QApplication::font();
    f.setPointSizeF(m_basePointSize * scale());
    QApplication::setFont(f);
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
    applyApplicationFont();
    emit changed();
}

void Appearance::setPresentationHeight(int height)
{
    height = qMax(360, height);  // below that nothing is a lecture any more
    if (height == m_height) return;
    m_height = height;
    if (m_presentation) {
        applyApplicationFont();
        emit changed();
    }
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
