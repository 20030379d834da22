// Main of the [gpu] test executable: exits with 77 (CTest's SKIP_RETURN_CODE) and a visible line
// when there is no CUDA device or the build has no kernels. Listing (used by catch_discover_tests
// at build time) always works.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>

#include <spmv/gpu/device.hpp>

int main(int argc, char** argv)
{
    Catch::Session session;
    if (int rc = session.applyCommandLine(argc, argv); rc != 0) {
        return rc;
    }
    const auto& c = session.configData();
    const bool listing =
        c.listTests || c.listTestNamesOnly || c.listTags || c.listReporters || c.showHelp;
    if (!listing && !spmv::gpu::is_available()) {
        std::printf("SKIPPED: %s\n", spmv::gpu::is_compiled()
                                         ? "no CUDA device present, GPU test not run"
                                         : "built without CUDA, GPU test not run");
        return 77;
    }
    return session.run();
}
