#pragma once
// Colours (from spmv::viz::palette(), colour-blind safe) and the presentation mode (large fonts,
// thick lines) shared by every view.
#include <QColor>
#include <QFont>
#include <QObject>

#include <spmv/viz/colour.hpp>

/// An integer with its thousands grouped by thin spaces ("1 000 000"), as every view prints
/// row, nonzero and slot counts.
QString groupDigits(qint64 v);

class QComboBox;

/// A combo box of the model's GPU profiles (spmv::model::profiles()), each with its note as the
/// tooltip, set to `current` when it is one of them: the box of the Model, Timing, Sweep and
/// Advisor views.
QComboBox* makeProfileBox(const QString& current = QString());

inline QColor toQColor(spmv::viz::Rgb c)
{
    return QColor(c.r, c.g, c.b);
}

class Appearance : public QObject {
    Q_OBJECT
public:
    static Appearance& instance();

    bool presentationMode() const { return m_presentation; }
    /// 1 normally, 1.6 in presentation mode: multiply font sizes and line widths by it.
    double scale() const { return m_presentation ? 1.6 : 1.0; }
    qreal lineWidth(qreal base = 1.0) const { return base * (m_presentation ? 2.5 : 1.0); }
    /// The application font scaled for the current mode (pointSize * scale() * factor).
    QFont font(double factor = 1.0, bool bold = false) const;

    static QColor colour(spmv::viz::Rgb c) { return toQColor(c); }
    static const spmv::viz::Palette& palette() { return spmv::viz::palette(); }

public slots:
    void setPresentationMode(bool on);

signals:
    void changed();

private:
    Appearance() = default;
    bool m_presentation = false;
    double m_basePointSize = 0.0;
};
