#pragma once
// The "Warps (measured)" view: the GPU's own warps of one SpMV, as `spmvlab bench --gpu
// --warp-timeline FILE` recorded them (spmv::analysis::WarpTimeline), beside the model's
// per-warp work for the same matrix and format.
//
// One band per traced variant (ELLPACK-R above pJDS, ...), all on one time axis so that the
// variants compare: on the left every warp is a line from its start to its end (ns since the
// launch's first warp started), one line a warp, grouped by SM (alternate SMs shaded) and, in an
// SM, by start; on the right, on the same line, the model's work of that warp
// (spmv::analysis::pair_warps: the model's warp of the same rows): its loop trips N_iter (the
// busiest lane's), the darker part the mean useful trips of its lanes, the rest idle lanes.
// The warp with the longest duration, the one the launch waits for, is drawn in the selection
// colour across both sides, and the band's heading states it: its time, its ratio to the
// median, its SM, rows and N_iter.
#include <QString>
#include <QWidget>

#include <spmv/analysis/warp_timeline.hpp>

class QComboBox;
class QLabel;
class QPushButton;

class WarpTimelineCanvas : public QWidget {
    Q_OBJECT
public:
    explicit WarpTimelineCanvas(QWidget* parent = nullptr);
    /// Shows `timeline`; `variant` < 0 draws every variant, else that one.
    void setTimeline(const spmv::analysis::WarpTimeline* timeline, int variant);
    void setMessage(const QString& message);
    /// The line above the bands: the matrix, precision, device, date and commit.
    void setCaption(const QString& caption);

    QSize minimumSizeHint() const override { return {480, 320}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    const spmv::analysis::WarpTimeline* m_timeline = nullptr;
    int m_variant = -1;
    QString m_message;
    QString m_caption;
};

class WarpTimelineView : public QWidget {
    Q_OBJECT
public:
    explicit WarpTimelineView(QWidget* parent = nullptr);

    /// Reads a warp timeline file (spmv::analysis::load_warp_timeline); false with the reader's
    /// message (naming the file and the line or key) in `error`, the view then says so.
    bool loadTimeline(const QString& path, QString* error = nullptr);
    /// Shows an already read timeline (tests).
    void setTimeline(spmv::analysis::WarpTimeline timeline, const QString& source);
    const spmv::analysis::WarpTimeline& timeline() const { return m_timeline; }
    bool hasTimeline() const { return m_loaded; }
    QComboBox* variantBox() const { return m_variantBox; }
    WarpTimelineCanvas* canvas() const { return m_canvas; }

public slots:
    /// File dialog, then loadTimeline.
    void openTimeline();

signals:
    void statusMessage(const QString& message);

private:
    void showVariant();

    spmv::analysis::WarpTimeline m_timeline;
    bool m_loaded = false;
    QLabel* m_source;
    QComboBox* m_variantBox;
    QPushButton* m_openButton;
    WarpTimelineCanvas* m_canvas;
};
