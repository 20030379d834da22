// spmvlab-gui: the SpMV Lab explorer (see app/commandline.hpp for the options).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <QApplication>

#include <spmv/version.hpp>

#include "commandline.hpp"
#include "session/memoryguard.hpp"

namespace {

bool set(const char* name)
{
    const char* v = std::getenv(name);
    return v != nullptr && *v != '\0';
}

/// Options that need no window: help, the version, and rendering a view to a file.
bool rendersOnly(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        for (const char* o : {"-h", "--help", "--help-all", "-?", "-v", "--version"}) {
            if (std::strcmp(argv[i], o) == 0) {
                return true;
            }
        }
        // --screenshot FILE and --screenshot=FILE
        if (std::strncmp(argv[i], "--screenshot", 12) == 0 &&
            (argv[i][12] == '\0' || argv[i][12] == '=')) {
            return true;
        }
    }
    return false;
}

}  // namespace

int main(int argc, char** argv)
{
    // Without a display Qt's default platform aborts with a plugin error. --help, --version
    // and --screenshot need no window: they run offscreen; a window says what to do instead,
    // on one line, and exits 1.
    if (!set("DISPLAY") && !set("WAYLAND_DISPLAY") && !set("QT_QPA_PLATFORM")) {
        if (!rendersOnly(argc, argv)) {
            std::fprintf(stderr,
                         "spmvlab-gui: no display (neither DISPLAY nor WAYLAND_DISPLAY is set); "
                         "render a view to a file with --screenshot FILE.png [--view NAME], "
                         "or run `spmvlab tour` in a terminal\n");
            return 1;
        }
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    }
    QApplication app(argc, argv);
    installMemoryGuard();  // a matrix too large for this machine fails with a message, no crash
    QApplication::setApplicationName(QStringLiteral("spmvlab-gui"));
    QApplication::setApplicationVersion(QStringLiteral(SPMV_VERSION_STRING));
    QApplication::setOrganizationName(QStringLiteral("SpMV Lab"));
    return runSpmvLab(app, QApplication::arguments());
}
