#pragma once
// Helpers of the test_mpi sources, in one place: the world communicator, the root's matrix,
// a product scattered from and gathered to the root, and a file written by rank 0 that every
// rank reads (the ranks of these tests share one host). Header-only: every function is
// inline, so the static locals below are one object in the whole executable.
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include <unistd.h>

#include <spmv/dist/comm.hpp>
#include <spmv/dist/dist_matrix.hpp>
#include <spmv/formats/csr.hpp>

namespace spmv::test {

/// MPI_COMM_WORLD (made once, after mpi_main's Environment).
inline const dist::Comm& world()
{
    static const dist::Comm c = dist::Comm::world();
    return c;
}

/// The root's matrix, or an empty one elsewhere (only the root reads).
inline Csr<double, std::int32_t> on_root(const Csr<double, std::int32_t>& a)
{
    return world().rank() == 0 ? a : Csr<double, std::int32_t>{};
}

/// y = A x distributed in `mode`, x scattered from the root, y gathered on the root (empty
/// elsewhere).
inline std::vector<double> distributed_y(dist::DistMatrix<double>& m,
                                         const std::vector<double>& x_global, dist::Mode mode)
{
    const auto x = dist::scatter_from_root<double>(world(), m.col_partition(), x_global);
    std::vector<double> y(static_cast<std::size_t>(m.own_rows()));
    m.apply(mode, x, y);
    return dist::gather_to_root<double>(world(), m.row_partition(), y);
}

/// Rank 0 writes `text` to `name` in a directory every rank sees (made by rank 0 on first use,
/// named after its process id, removed at exit: after the last test, as mpi_main agrees on the
/// verdict first, so no rank still reads it); every rank gets the path. Collective.
inline std::filesystem::path shared_file(const std::string& name, const std::string& text)
{
    struct RemoveAtExit {
        std::filesystem::path dir;
        ~RemoveAtExit()
        {
            std::error_code ec;
            if (!dir.empty()) {
                std::filesystem::remove_all(dir, ec);
            }
        }
    };
    static RemoveAtExit cleanup;
    static const std::filesystem::path dir = [] {
        std::string where;
        if (world().rank() == 0) {
            auto d = std::filesystem::temp_directory_path() /
                     ("spmv_mpi_tests_" + std::to_string(::getpid()));
            std::filesystem::create_directories(d);
            cleanup.dir = d;
            where = d.string();
        }
        world().broadcast(where);
        return std::filesystem::path(where);
    }();
    const auto path = dir / name;
    if (world().rank() == 0) {
        std::ofstream(path, std::ios::binary) << text;
    }
    world().barrier();
    return path;
}

}  // namespace spmv::test
