// Main of the MPI test executable: initialises MPI (unless Catch2 is only listing tests), runs
// the tests on every rank, and ends with the same exit status on every rank (a failure on any
// rank fails all of them), so mpiexec's status is the verdict.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>

#include <spmv/dist/comm.hpp>

int main(int argc, char** argv)
{
    Catch::Session session;
    if (int rc = session.applyCommandLine(argc, argv); rc != 0) {
        return rc;
    }
    const auto& c = session.configData();
    if (c.listTests || c.listTestNamesOnly || c.listTags || c.listReporters || c.showHelp) {
        return session.run();
    }
    spmv::dist::Environment env(&argc, &argv);
    const auto comm = spmv::dist::Comm::world();
    const int failed = session.run();
    const double any = comm.allreduce_max(failed != 0 ? 1.0 : 0.0);
    if (comm.rank() == 0) {
        std::printf("spmv mpi tests: %d rank(s), %s\n", comm.size(),
                    any != 0.0 ? "FAILED on some rank" : "passed on every rank");
    }
    return any != 0.0 ? 1 : 0;
}
