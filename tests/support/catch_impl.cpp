// Catch2 v2's implementation, compiled once for every test binary (spmv_catch_impl): the single
// header's implementation part costs 20-40 s per file. CATCH_CONFIG_RUNNER compiles it without a
// main; the binaries' mains (catch_main.cpp, gpu_main.cpp, mpi/mpi_main.cpp) run it through
// spmv::test::CatchSession.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "catch_session.hpp"

namespace spmv::test {

CatchSession::CatchSession() : session_(std::make_unique<Catch::Session>()) {}

CatchSession::~CatchSession() = default;

int CatchSession::apply_command_line(int argc, char** argv)
{
    return session_->applyCommandLine(argc, argv);
}

bool CatchSession::only_lists() const
{
    const auto& c = session_->configData();
    return c.listTests || c.listTestNamesOnly || c.listTags || c.listReporters || c.showHelp;
}

int CatchSession::run()
{
    return session_->run();
}

}  // namespace spmv::test
