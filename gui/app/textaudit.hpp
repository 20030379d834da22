#pragma once
// Finds text that a window shows cut short or too small: the bar "no elided label, value or
// axis text, nothing below the lecture hall's size" of the lecture screenshots, checked by the
// program rather than by eye. What it inspects:
//  - QLabel (single line): the text's width against the label's contents width;
//  - buttons, check boxes and combo boxes: their size hint's width against their width;
//  - table views: every visible cell and header whose text is wider than its section;
//  - tab bars: a tab narrower than its size hint (Qt elides its title), or a tab outside the
//    bar's visible part (behind the scroll arrows: not reachable at a glance);
//  - dock widgets: a title wider than the title bar;
//  - Qt Charts: every text item of the chart's scene that Qt Charts elided ("..." or "…");
//  - custom-painted views: every string they elided through elideText() since the last
//    resetElisions() (widgets/elidedtext.hpp, below the views that call it);
//  - what is visible: the root is rendered into a recording paint device, and every text any
//    widget paints (labels, buttons, tabs, charts, painted views) is measured where it lands:
//      "clipped": a text partly outside what its widget's clip leaves visible (its own rect,
//      its parents' rects, a scroll area's viewport, a clip the view set) counts as cut; a
//      text wholly outside (scrolled away) does not;
//      "undersized": a text whose font is smaller than minPixelSize on the screen (the font's
//      pixel size times the painter's scale) is reported with its size.
// Hidden widgets (another tab) are skipped; call it per view with that view shown.
#include <QSize>
#include <QStringList>

#include "widgets/elidedtext.hpp"

class QWidget;

/// One line per text that does not fit or is too small: "<widget kind> '<text>': needs N px,
/// has M", "clipped text '<text>' in <widget>: ...", "undersized text '<text>' in <widget>:
/// N px, the minimum is M px". minPixelSize 0: no size check.
QStringList auditText(QWidget* root, double minPixelSize = 0.0);

/// The widgets that keep `window` from being laid out at `size`: one line per innermost
/// widget whose minimum width or height (its layout's, its size hint's where its size policy
/// does not let it shrink, or an explicit minimum) exceeds the room it can have, naming its
/// class, object name and text. Empty when the window's minimum size fits `size`.
QStringList layoutOverflow(QWidget* window, QSize size);
