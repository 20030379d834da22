// Main of the [gpu] test executable: exits with 77 (CTest's SKIP_RETURN_CODE) and a visible line
// when there is no CUDA device or the build has no kernels. Listing (used by catch_discover_tests
// at build time) always works.
#include <cstdio>

#include <spmv/gpu/device.hpp>

#include "catch_session.hpp"

int main(int argc, char** argv)
{
    spmv::test::CatchSession session;
    if (int rc = session.apply_command_line(argc, argv); rc != 0) {
        return rc;
    }
    if (!session.only_lists() && !spmv::gpu::is_available()) {
        std::printf("SKIPPED: %s\n", spmv::gpu::is_compiled()
                                         ? "no CUDA device present, GPU test not run"
                                         : "built without CUDA, GPU test not run");
        return 77;
    }
    return session.run();
}
