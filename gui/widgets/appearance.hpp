#pragma once
// Colours (from spmv::viz::palette(), colour-blind safe) and the presentation mode (large fonts,
// thick lines) shared by every view.
//
// Presentation mode is designed for the lecture hall, not scaled: its text sizes are fixed
// fractions of the window's height, so that a view laid out at 1280 x 720 looks the same at
// 1920 x 1080, only 1.5 times larger, and so that the smallest text is readable from the back
// of a hall on a projector:
//   body text  20 px at 720 px of height (1/36 of the height: 30 px at 1080),
//   smallest   18 px at 720 px of height (1/40 of the height: 27 px at 1080; axis ticks,
//              legends, table headers, the numbers in a heat map).
// Outside presentation mode (a desktop at arm's length) the smallest text is 8 px (a
// subscript of 12 px body text).
// The text audit (app/textaudit.hpp) reports any text smaller than minimumTextPixels().
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

    /// The window height presentation mode's sizes are stated for, and the text sizes there.
    static constexpr int referenceHeight = 720;
    static constexpr double presentationBodyPixels = 20.0;     ///< at referenceHeight
    static constexpr double presentationMinimumPixels = 18.0;  ///< at referenceHeight
    static constexpr double normalMinimumPixels = 8.0;

    bool presentationMode() const { return m_presentation; }
    /// The window height presentation mode designs for (referenceHeight until told).
    int presentationHeight() const { return m_height; }
    /// 1 normally; in presentation mode the body text's size over the normal one (about 1.7
    /// at 720 px of height, 2.5 at 1080): multiply sizes of painted things by it.
    double scale() const;
    qreal lineWidth(qreal base = 1.0) const { return base * (m_presentation ? 1.5 * scale() : 1.0); }
    /// The application font scaled for the current mode (body size * factor), never below
    /// minimumTextPixels().
    QFont font(double factor = 1.0, bool bold = false) const;
    /// The smallest text the mode allows, in pixels (the font's em size): 18 px at 720 px of
    /// height in presentation mode (27 px at 1080), 8 px otherwise.
    double minimumTextPixels() const;
    /// `text` as a rich-text subscript whose letters are never below minimumTextPixels(): Qt
    /// draws <sub> at 2/3 of the text around it (13 px beside 20 px body text in presentation
    /// mode, below its 18 px minimum), so there the subscript's own size is raised to make 2/3
    /// of it the minimum.
    QString legibleSubscript(const QString& text) const;
    /// Font pixel size <-> point size on the screen (logical dpi, 96 offscreen).
    static double pixelsPerPoint();

    static QColor colour(spmv::viz::Rgb c) { return toQColor(c); }
    static const spmv::viz::Palette& palette() { return spmv::viz::palette(); }

public slots:
    void setPresentationMode(bool on);
    /// The height of the window shown in presentation mode: the sizes above follow it (a
    /// change emits changed() in presentation mode).
    void setPresentationHeight(int height);

signals:
    void changed();

private:
    Appearance() = default;
    void applyApplicationFont();
    double normalPixels() const;

    bool m_presentation = false;
    int m_height = referenceHeight;
    double m_basePointSize = 0.0;
};
