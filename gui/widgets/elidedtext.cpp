#include "elidedtext.hpp"

#include <QRectF>

#include <algorithm>

namespace {

QStringList& elisions()
{
    static QStringList list;
    return list;
}

}  // namespace

QString auditQuote(QString t)
{
    t.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return t.size() > 60 ? t.left(57) + QStringLiteral("...") : t;
}

QString elideText(const QFontMetrics& fm, const QString& text, Qt::TextElideMode mode, int width)
{
    const QString e = fm.elidedText(text, mode, width);
    if (e != text) {
        elisions() << QStringLiteral("painted text '%1': needs %2 px, has %3")
                          .arg(auditQuote(text))
                          .arg(fm.horizontalAdvance(text))
                          .arg(width);
    }
    return e;
}

void resetElisions()
{
    elisions().clear();
}

QStringList paintedElisions()
{
    return elisions();
}

double wrappedHeight(const QFontMetricsF& fm, const QString& text, double width)
{
    return fm.boundingRect(QRectF(0, 0, std::max(width, 1.0), 1e6),
                           Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, text)
        .height();
}

double wrappedHeight(const QFont& font, const QString& text, double width)
{
    return wrappedHeight(QFontMetricsF(font), text, width);
}
