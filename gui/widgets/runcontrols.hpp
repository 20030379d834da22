#pragma once
// The Start / Cancel / progress row of a panel whose work runs in a BackgroundJob (timing,
// solver), and its states: idle (Start enabled, Cancel disabled, the bar says "idle" until a
// run started), running (the other way round, progress "done of total" in the panel's
// format), finished (idle again, the bar keeps how far the run got).
#include <QString>

class QBoxLayout;
class QProgressBar;
class QPushButton;

class RunControls {
public:
    /// Creates the widgets, idle (the bar reads "idle"); addTo() gives them a parent.
    RunControls();

    QPushButton* startButton() const { return m_start; }
    QPushButton* cancelButton() const { return m_cancel; }
    QProgressBar* progressBar() const { return m_progress; }
    /// Appends Start, Cancel and the progress bar (which takes the rest of the row).
    void addTo(QBoxLayout* layout) const;
    /// The bar's text while a run goes on and after it ended (QProgressBar::format, e.g.
    /// "%v of %m solves"); default "%v of %m".
    void setProgressFormat(const QString& format);

    /// A run was requested: Start disabled, Cancel enabled.
    void setRunning();
    /// The run ended: Start enabled, Cancel disabled; the progress shows how far it got.
    void setIdle();
    /// The panel's results were dropped (e.g. a new matrix), or nothing ran yet: idle, an
    /// empty bar that reads "idle".
    void reset();
    /// The worker started a run of `total` steps.
    void showStarted(int total);
    /// `done` steps are finished; `text` (if not empty) replaces the format for now, e.g.
    /// "solving with CG (1 of 2)".
    void showProgress(int done, const QString& text = QString());
    /// True while the bar shows no run (reset, before the first showStarted).
    bool progressIdle() const { return m_idle; }

private:
    QPushButton* m_start;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QString m_format;
    bool m_idle = true;
};
