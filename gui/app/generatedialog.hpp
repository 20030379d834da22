#pragma once
// Generate a matrix with one of the core generators (spmv::gen::generators()): the parameter
// form is built from each generator's schema (name, description, default, range, integer).
#include <QDialog>

#include <spmv/generators.hpp>

class QComboBox;
class QFormLayout;
class QLabel;
class QSpinBox;
class QDoubleSpinBox;

class GenerateDialog : public QDialog {
    Q_OBJECT
public:
    explicit GenerateDialog(QWidget* parent = nullptr);

    QString generator() const;
    spmv::gen::GeneratorParams params() const;
    quint64 seed() const;

private:
    void rebuildForm();

    QComboBox* m_generator;
    QLabel* m_description;
    QFormLayout* m_form;
    QSpinBox* m_seed;
    QList<QPair<QString, QDoubleSpinBox*>> m_fields;
};
