// Main of the MPI test executable: initialises MPI (unless Catch2 is only listing tests), runs
// the tests on every rank, and ends with the same exit status on every rank (a failure on any
// rank fails all of them), so mpiexec's status is the verdict.
#include <cstdio>

#include <spmv/dist/comm.hpp>

#include "catch_session.hpp"

int main(int argc, char** argv)
{
    spmv::test::CatchSession session;
    if (int rc = session.apply_command_line(argc, argv); rc != 0) {
        return rc;
    }
    if (session.only_lists()) {
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
