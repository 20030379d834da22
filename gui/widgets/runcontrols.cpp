#include "runcontrols.hpp"

#include <QBoxLayout>
#include <QCoreApplication>
#include <QProgressBar>
#include <QPushButton>

RunControls::RunControls()
    : m_start(new QPushButton),
      m_cancel(new QPushButton),
      m_progress(new QProgressBar),
      m_format(QStringLiteral("%v of %m"))
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

void RunControls::setProgressFormat(const QString& format)
{
    m_format = format;
    if (!m_idle) m_progress->setFormat(m_format);
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
    if (!m_idle) m_progress->setFormat(m_format);  // not a step's "solving with ..." any more
}

void RunControls::reset()
{
    setIdle();
    // no run to report: not "0 of 1", which reads as a run that is stuck
    m_idle = true;
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(QCoreApplication::translate("RunControls", "idle"));
}

void RunControls::showStarted(int total)
{
    m_idle = false;
    m_progress->setRange(0, total > 1 ? total : 1);
    m_progress->setValue(0);
    m_progress->setFormat(m_format);
}

void RunControls::showProgress(int done, const QString& text)
{
    m_progress->setValue(done);
    if (!m_idle) m_progress->setFormat(text.isEmpty() ? m_format : text);
}
