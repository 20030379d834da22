#pragma once
// Running the real spmvlab binary from a CLI test: its exit status, its output and wall time,
// (for the memory bars) its peak resident memory, under a time limit and mpiexec for the dist
// tests, and a JSON file it wrote. SPMVLAB_EXE comes from CMake, and MPIEXEC (the dist tests:
// empty in a build without MPI) too.
#include <sys/resource.h>
#include <sys/wait.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace spmv::test {

struct Run {
    int status;
    std::string out;       // stdout (and stderr when asked)
    double seconds = 0.0;  // wall time of the command
};

inline Run shell(const std::string& cmd)
{
    const auto t0 = std::chrono::steady_clock::now();
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p != nullptr);
    std::string out;
    std::array<char, 4096> buf{};
    while (auto n = std::fread(buf.data(), 1, buf.size(), p)) {
        out.append(buf.data(), n);
    }
    const int st = pclose(p);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out, s};
}

/// spmvlab with `args` (a shell fragment: redirections allowed); stderr joins stdout unless
/// `with_stderr` is false.
inline Run spmvlab(const std::string& args, bool with_stderr = true)
{
    return shell(std::string(SPMVLAB_EXE) + " " + args + (with_stderr ? " 2>&1" : " 2>/dev/null"));
}

/// `launcher spmvlab args` (stderr joined) with a 60 s limit, so that a hang fails the test
/// instead of CI; `launcher` is mpiexec(n) or empty (one process).
inline Run run(const std::string& launcher, const std::string& args)
{
    return shell("timeout 60 " + launcher + " " + SPMVLAB_EXE + " " + args + " 2>&1");
}

#ifdef MPIEXEC
/// mpiexec -n N --oversubscribe (empty when this build has no MPI: the caller skips visibly).
/// CI runs as root, which Open MPI's mpiexec refuses unless told.
inline std::string mpiexec(int n)
{
    const std::string exe = MPIEXEC;
    if (exe.empty()) {
        return {};
    }
    return "env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " + exe + " -n " +
           std::to_string(n) + " --oversubscribe";
}
#endif

/// The JSON file at `path` (fails the test when it cannot be opened).
inline nlohmann::json read_json(const std::string& path)
{
    std::ifstream f(path);
    REQUIRE(f.good());
    return nlohmann::json::parse(f);
}

/// The --json output of a run that must succeed.
inline nlohmann::json json_of(const std::string& args)
{
    const auto r = spmvlab(args, false);
    INFO("spmvlab " << args << "\n" << r.out);
    REQUIRE(r.status == 0);
    return nlohmann::json::parse(r.out);
}

struct Measured {
    Run run;
    double seconds;
    double peak_mib;  ///< the largest resident set of any child so far (getrusage)
};

/// A run with its wall time and peak memory. The peak is over every child this process has
/// waited for, so a test that checks it runs one command per test case (CTest runs each test
/// case in a process of its own).
inline Measured measured(const std::string& args)
{
    Measured m{spmvlab(args), 0, 0};
    m.seconds = m.run.seconds;
    rusage ru{};
    getrusage(RUSAGE_CHILDREN, &ru);
    m.peak_mib = static_cast<double>(ru.ru_maxrss) / 1024.0;  // Linux: KiB
    return m;
}

/// How often `what` occurs in `text` (non-overlapping).
inline std::size_t occurrences(const std::string& text, const std::string& what)
{
    std::size_t n = 0;
    for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + what.size())) {
        ++n;
    }
    return n;
}

}  // namespace spmv::test
