// spmvlab-gui: the SpMV Lab explorer (see app/commandline.hpp for the options).
#include <QApplication>

#include "commandline.hpp"
#include "memoryguard.hpp"

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    installMemoryGuard();  // a matrix too large for this machine fails with a message, no crash
    QApplication::setApplicationName(QStringLiteral("spmvlab-gui"));
    QApplication::setOrganizationName(QStringLiteral("SpMV Lab"));
    return runSpmvLab(app, QApplication::arguments());
}
