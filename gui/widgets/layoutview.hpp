#pragma once
// One step of a format's construction (Kreutzer Fig. 1): the grid of cells (nonzero / padding /
// empty) with the original row of every grid row, b_r-block or slice boundaries as thick lines,
// and below it the step's storage arrays. Large matrices arrive as a window of the grid
// (spmv::viz::ConstructionWindow): rows, columns and array entries keep their whole-matrix
// numbers; the panel moves the window. Clicking a cell (or an array entry) selects it; the
// entries of every array that belong to the selection are highlighted. The selection is kept
// as the CSR nonzero index, so it follows the nonzero from step to step.
#include <QWidget>

#include "layout_geometry.hpp"
#include "session/analysiscontroller.hpp"

class LayoutView : public QWidget {
    Q_OBJECT
public:
    explicit LayoutView(QWidget* parent = nullptr);

    void setConstruction(ConstructionPtr construction);
    /// Shows why there is no construction (clears the current one).
    void setError(const QString& message);
    /// What setError said (empty once data arrived).
    QString error() const { return m_error; }
    ConstructionPtr construction() const { return m_construction; }
    int stepCount() const;
    int currentStep() const { return m_step; }
    const spmv::viz::ConstructionStep* step() const;

    /// Selected grid cell of the current step (-1, -1: none).
    QPair<int, int> selectedCell() const { return m_selected; }
    /// CSR index of the nonzero the selection follows from step to step (-1: none).
    qint64 selectedNonzero() const { return m_selectedNonzero; }
    /// What a cell `maxChars` characters wide shows of `value` (spmv::viz::cell_value_text):
    /// every cell and array entry by this one rule; the tooltip gives the full value.
    static QString valueText(double value, int maxChars);
    /// Characters of a value that fit in a cell of the current step (0: values not shown).
    int cellChars() const;
    /// The tooltip at widget position `pos`: the full value of the cell or array entry there.
    QString toolTipAt(const QPointF& pos) const;
    void selectCell(int row, int col);
    /// Widget rectangle of grid cell (r, c) of the current step (for tests).
    QRectF cellRect(int row, int col) const;
    /// Widget rectangle of entry i of the current step's array `name` (empty if not shown).
    QRectF entryRect(const QString& arrayName, int entry) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return {200, 150}; }
    /// Cell size, label widths and spacing for the current font and construction.
    LayoutMetrics metrics() const;

public slots:
    void setStep(int step);
    void nextStep();
    void previousStep();

signals:
    void stepChanged(int step, int count);
    void selectionDescribed(const QString& text);
    /// The user selected a nonzero (nz >= 0) for the stepper to follow, or cleared it (-1).
    void nonzeroSelected(qint64 nz);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void moveEvent(QMoveEvent* event) override;

private:
    QRectF shownRect(const QPaintEvent* event) const;
    void relayout();
    double headerHeight() const;
    double titleBlockHeight() const;  ///< the tallest step's wrapped title and caption
    QString stepTitle(const spmv::viz::ConstructionStep& step) const;
    std::vector<std::pair<int, QString>> legendItems() const;
    std::vector<int> legendRows(double width) const;  ///< the row of each legend entry
    void describeSelection();

    ConstructionPtr m_construction;
    QString m_error;
    int m_step = 0;
    QPair<int, int> m_selected{-1, -1};
    std::int64_t m_selectedNonzero = -1;
    LayoutGeometry m_geometry;
};
