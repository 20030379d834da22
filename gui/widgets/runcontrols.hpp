#pragma once
// The Start / Cancel / progress row of a panel whose work runs in a BackgroundJob (timing,
// solver), and its states: idle (Start enabled, Cancel disabled), running (the other way
// round), progress "done of total".
class QBoxLayout;
class QProgressBar;
class QPushButton;

class RunControls {
public:
    /// Creates the widgets, idle, progress 0 of 1; addTo() gives them a parent.
    RunControls();

    QPushButton* startButton() const { return m_start; }
    QPushButton* cancelButton() const { return m_cancel; }
    QProgressBar* progressBar() const { return m_progress; }
    /// Appends Start, Cancel and the progress bar (which takes the rest of the row).
    void addTo(QBoxLayout* layout) const;

    /// A run was requested: Start disabled, Cancel enabled.
    void setRunning();
    /// The run ended: Start enabled, Cancel disabled; the progress shows how far it got.
    void setIdle();
    /// The panel's results were dropped (e.g. a new matrix): idle, progress back to 0 of 1.
    void reset();
    /// The worker started a run of `total` steps.
    void showStarted(int total);
    void showProgress(int done);

private:
    QPushButton* m_start;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
};
