#pragma once
// Kreutzer Fig. 2 for one format: every warp as lanes x loop slots, coloured useful (nonzero
// multiplied), idle (lane reserved while the warp's longest row finishes), stored padding, and
// idle on stored padding (hatched: both at once), plus the totals N_iter, N_p, idle %, padding.
#include <QWidget>

#include "layout_geometry.hpp"
#include "session/analysiscontroller.hpp"

class WarpWasteView : public QWidget {
    Q_OBJECT
public:
    explicit WarpWasteView(QWidget* parent = nullptr);

    void setWaste(WarpWastePtr waste, const QString& formatTitle);
    /// Shows why there is no analysis (clears the current one).
    void setError(const QString& message);
    WarpWastePtr waste() const { return m_waste; }
    /// Widget rectangle of (picture, lane, slot), for tests.
    /// Where the last paint drew the whole-matrix waste strip (empty before one).
    QRectF stripRect() const { return m_stripRect; }
    QRectF slotRect(int picture, int lane, int column) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return {200, 160}; }

signals:
    void statusMessage(const QString& text);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void moveEvent(QMoveEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    QRectF shownRect(const QPaintEvent* event) const;
    void relayout();
    double headerHeight() const;
    double footerHeight() const;
    // the header's text, word-wrapped to the view's width by paintEvent and headerHeight alike
    QString titleText() const;
    static QString captionOf(const spmv::viz::WarpPicture& picture);
    QStringList numberLines() const;
    std::vector<std::pair<spmv::viz::SlotKind, QString>> legendItems() const;
    std::vector<int> legendRows(double width) const;  ///< the row of each legend entry
    QString stripCaption(double stripWidth) const;
    double stripHeight() const;  ///< the whole-matrix waste strip (spmv::viz::waste_strip)
    QRectF m_stripRect;

    WarpWastePtr m_waste;
    QString m_title;
    QString m_error;
    WarpLayout m_layout;
};
