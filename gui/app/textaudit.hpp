#pragma once
// Finds text that a window shows cut short: the bar "no elided label, value or axis text" of
// the lecture screenshots, checked by the program rather than by eye. What it inspects:
//  - QLabel (single line): the text's width against the label's contents width;
//  - buttons, check boxes and combo boxes: their size hint's width against their width;
//  - table views: every visible cell and header whose text is wider than its section;
//  - tab bars: a tab narrower than its size hint (Qt elides its title);
//  - dock widgets: a title wider than the title bar;
//  - Qt Charts: every text item of the chart's scene that Qt Charts elided ("..." or "…");
//  - custom-painted views: every string they elided through elideText() since the last
//    resetElisions() (widgets/elidedtext.hpp, below the views that call it).
// Hidden widgets (another tab) are skipped; call it per view with that view shown.
#include <QStringList>

#include "widgets/elidedtext.hpp"

class QWidget;

/// One line per text that does not fit: "<widget kind> '<text>': needs N px, has M".
QStringList auditText(QWidget* root);
