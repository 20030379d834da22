#include "runcontrols.hpp"

#include <QBoxLayout>
#include <QCoreApplication>
#include <QProgressBar>
#include <QPushButton>

RunControls::RunControls()
    : m_start(new QPushButton), m_cancel(new QPushButton), m_progress(new QProgressBar)
{
    m_cancel->setText(QCoreApplication::translate("RunControls", "Cancel"));
    m_start->setObjectName(QStringLiteral("runButton"));  // MainWindow::setRunnable finds it
    reset();
}

void RunControls::addTo(QBoxLayout* layout) const
{
    layout->addWidget(m_start);
    layout->addWidget(m_cancel);
    layout->addWidget(m_progress, 1);
}

void RunControls::setRunning()
{
    m_start->setEnabled(false);
    m_cancel->setEnabled(true);
}

void RunControls::setIdle()
{
    m_start->setEnabled(true);
    m_cancel->setEnabled(false);
}

void RunControls::reset()
{
    setIdle();
    showStarted(1);
}

void RunControls::showStarted(int total)
{
    m_progress->setRange(0, total > 1 ? total : 1);
    m_progress->setValue(0);
}

void RunControls::showProgress(int done)
{
    m_progress->setValue(done);
}
