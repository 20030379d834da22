#pragma once
// Catch2's session for the mains of the test binaries (catch_main.cpp, gpu_main.cpp,
// mpi/mpi_main.cpp). Catch2 v2 declares Catch::Session only inside its implementation, which
// costs 20-40 s to compile; it is compiled once, in catch_impl.cpp, and the mains reach it
// through this class.
#include <memory>

namespace Catch {
class Session;
}

namespace spmv::test {

class CatchSession {
public:
    CatchSession();
    ~CatchSession();
    CatchSession(const CatchSession&) = delete;
    CatchSession& operator=(const CatchSession&) = delete;

    /// Parses Catch2's command line: 0, or Catch2's exit status for a bad one.
    int apply_command_line(int argc, char** argv);
    /// Whether the command line only lists tests, tags or reporters, or asks for help (as
    /// catch_discover_tests does at build time): no test case will run.
    bool only_lists() const;
    /// Runs the selected test cases: Catch2's exit status (the number of failed ones).
    int run();

private:
    std::unique_ptr<Catch::Session> session_;
};

}  // namespace spmv::test
