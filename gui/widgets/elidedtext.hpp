#pragma once
// Text that a custom-painted view shortens to fit ("…"): elideText() shortens it as
// QFontMetrics::elidedText does and records every cut, so that the text audit of the lecture
// screenshots (app/textaudit.hpp: auditText) reports painted text cut short along with labels,
// buttons and cells. The views call elideText(); the audit reads paintedElisions().
#include <QFont>
#include <QFontMetrics>
#include <QString>
#include <QStringList>

/// fm.elidedText(text, mode, width), recording the elision (for auditText) when it cut.
QString elideText(const QFontMetrics& fm, const QString& text, Qt::TextElideMode mode, int width);
/// Forgets the recorded elisions (before rendering a view anew).
void resetElisions();
/// One line per painted text cut since the last resetElisions(): "painted text '<text>': needs
/// N px, has M".
QStringList paintedElisions();
/// `text` on one line, cut to 60 characters: how the audit quotes a text in its report.
QString auditQuote(QString text);

/// Height of `text` word-wrapped into `width` pixels (at least 1), as QPainter::drawText with
/// Qt::TextWordWrap lays it out: what a custom-painted view reserves for a wrapped line so that
/// nothing it paints is cut (the views with painted captions share this one definition).
double wrappedHeight(const QFontMetricsF& fm, const QString& text, double width);
double wrappedHeight(const QFont& font, const QString& text, double width);
