// NCCL as the GPU ranks' engine (issue 36): exchange path "nccl" (ncclSend / ncclRecv queued on
// the GPU's stream) against host-staged MPI, CG with its reductions on the device (ncclAllReduce)
// against CG with MPI_Allreduce, the communicator's lifetime, and the clear error where NCCL
// cannot run. The [gpu] tests are run by the lead on a GPU machine:
//   mpirun -n 2 build/tests/test_mpi "[nccl]"
// and skip with a visible line without a GPU or without NCCL in the build.
#include <cmath>
#include <optional>
#include <string>

#include <catch2/catch.hpp>

#include <spmv/dist/comm.hpp>
#include <spmv/dist/dist_matrix.hpp>
#include <spmv/dist/dist_solve.hpp>
#include <spmv/generators.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/solvers/solve.hpp>

#include "mpi_test_support.hpp"
#include "test_matrices.hpp"

using namespace spmv;
using namespace spmv::dist;
using spmv::test::distributed_y;
using spmv::test::on_root;
using spmv::test::world;

namespace {

/// 600 rows: rows 0-199 a 1-D Laplacian (2 on the diagonal, -1 beside) plus -0.5 in column
/// i + 200; rows 200-599 a diagonal (3, 4, 5, ...). With the rows partition the exchange is
/// one-sided: the ranks of the first rows receive but send nothing, those holding rows 200-399
/// send but receive nothing, and on 3 or 4 ranks the last rank does neither (an empty group
/// beside full ones).
Csr<double, std::int32_t> one_sided()
{
    constexpr std::int32_t n = 600;
    constexpr std::int32_t coupled = 200;
    Csr<double, std::int32_t> a;  // row_ptrs starts as {0}
    a.num_rows = n;
    a.num_cols = n;
    for (std::int32_t i = 0; i < n; ++i) {
        if (i < coupled) {
            if (i > 0) {
                a.col_idxs.push_back(i - 1);
                a.values.push_back(-1.0);
            }
            a.col_idxs.push_back(i);
            a.values.push_back(2.0);
            if (i + 1 < coupled) {
                a.col_idxs.push_back(i + 1);
                a.values.push_back(-1.0);
            }
            a.col_idxs.push_back(i + coupled);
            a.values.push_back(-0.5);
        } else {
            a.col_idxs.push_back(i);
            a.values.push_back(3.0 + (i - coupled));
        }
        a.row_ptrs.push_back(static_cast<std::int32_t>(a.col_idxs.size()));
    }
    return a;
}

/// The matrices of the nccl-against-host-staged comparison.
struct Case {
    std::string name;
    Csr<double, std::int32_t> a;
    PartitionKind partition;
};
std::vector<Case> comparison_cases()
{
    return {
        {"pde16", gen::pde(16), PartitionKind::nnz},
        {"power law", gen::power_law(2000, 1, 2.0, 300, 7), PartitionKind::nnz},
        {"one-sided (ranks with empty halos)", one_sided(), PartitionKind::rows},
    };
}

/// The matrix with exchange path nccl, or nullopt after a visible line saying why it cannot run
/// here (no GPU; a build without NCCL; more ranks than GPUs on a host). Collective.
std::optional<DistMatrix<double>> nccl_matrix(const Csr<double, std::int32_t>& a,
                                              DistOptions opt)
{
    if (!spmv::gpu::is_available()) {
        WARN("SKIPPED: no GPU on this host (exchange path nccl needs GPU ranks)");
        return std::nullopt;
    }
    opt.gpu = true;
    opt.exchange = "nccl";
    try {
        return DistMatrix<double>::create(world(), on_root(a), opt);
    } catch (const RemoteError& e) {
        const std::string what = e.what();
        if (what.find("no NCCL") != std::string::npos ||
            what.find("NCCL needs a GPU of its own per rank") != std::string::npos) {
            if (world().rank() == 0) WARN("SKIPPED: " << e.what());
            return std::nullopt;
        }
        throw;
    }
}

}  // namespace

TEST_CASE("Exchange path nccl on host ranks fails every rank with a sentence", "[mpi][nccl]")
{
    // runs everywhere (no GPU needed): NCCL moves data between GPUs, and a build without NCCL
    // says so before anything else
    DistOptions opt;
    opt.exchange = "nccl";
    try {
        (void)DistMatrix<double>::create(world(), on_root(gen::pde(6)), opt);
        FAIL("exchange nccl on host ranks was accepted");
    } catch (const RemoteError& e) {
        const std::string what = e.what();
        INFO(what);
        CHECK(what.find("exchange path nccl") != std::string::npos);
        const bool no_gpu_ranks = what.find("needs GPU ranks (--gpu") != std::string::npos;
        const bool no_nccl = what.find("this build has no NCCL") != std::string::npos;
        CHECK((no_gpu_ranks || no_nccl));
    }
}

TEST_CASE("An exchange path other than the five is refused naming nccl among them",
          "[mpi][nccl]")
{
    DistOptions opt;
    opt.exchange = "nvshmem";
    CHECK_THROWS_WITH(DistMatrix<double>::create(world(), on_root(gen::pde(6)), opt),
                      Catch::Contains("auto, nccl, host-staged, cuda-ipc or cuda-aware"));
}

TEST_CASE("The nccl comparison's matrices are valid and multiply right on host ranks",
          "[mpi][nccl]")
{
    // runs everywhere: a broken test matrix fails here, with the format's own words, rather
    // than only on GPU ranks (one_sided() once pushed a second row_ptrs[0] and failed CSR's
    // validation on every rank count)
    for (const auto& c : comparison_cases()) {
        INFO(c.name);
        REQUIRE_NOTHROW(validate(c.a));
        const auto x = test::random_vector(static_cast<std::size_t>(c.a.num_cols), 41);
        std::vector<double> ref;
        if (world().rank() == 0) {
            ref.resize(x.size());
            spmv_reference(c.a, 1.0, std::span<const double>(x), 0.0, std::span<double>(ref));
        }
        for (const char* format : {"csr", "sell"}) {
            DistOptions opt;
            opt.format = format;
            opt.partition = c.partition;
            auto m = DistMatrix<double>::create(world(), on_root(c.a), opt);
            for (auto mode : all_modes) {
                const auto y = distributed_y(m, x, mode);
                if (world().rank() == 0) {
                    INFO(format << ", " << to_string(mode) << ", " << world().size() << " ranks");
                    CHECK(test::relative_error(y, ref) < 1e-14);
                }
            }
        }
    }
}

TEST_CASE("GPU ranks: the nccl exchange gives host-staged's product to the last bit in every "
          "mode",
          "[mpi][gpu][nccl]")
{
    for (const auto& c : comparison_cases()) {
        for (const char* format : {"csr", "sell"}) {
            DistOptions opt;
            opt.format = format;
            opt.partition = c.partition;
            auto nccl = nccl_matrix(c.a, opt);
            if (!nccl) {
                return;
            }
            opt.gpu = true;
            opt.exchange = "host-staged";
            auto staged = DistMatrix<double>::create(world(), on_root(c.a), opt);
            if (world().size() > 1) {
                CHECK(nccl->exchange_path() == "nccl");
                CHECK(staged.exchange_path() == "host-staged");
            }
            const auto x = test::random_vector(static_cast<std::size_t>(c.a.num_cols), 41);
            std::vector<double> ref;
            if (world().rank() == 0) {
                ref.resize(x.size());
                spmv_reference(c.a, 1.0, std::span<const double>(x), 0.0, std::span<double>(ref));
            }
            for (auto mode : all_modes) {
                // twice: the second exchange reuses the send buffer the first one sent from
                for (int rep = 0; rep < 2; ++rep) {
                    const auto y_nccl = distributed_y(*nccl, x, mode);
                    const auto y_staged = distributed_y(staged, x, mode);
                    if (world().rank() == 0) {
                        INFO(c.name << ", " << format << ", " << to_string(mode) << ", "
                                    << world().size() << " ranks, repetition " << rep);
                        CHECK(y_nccl == y_staged);  // the same halo, the same kernels: bits
                        CHECK(test::relative_error(y_nccl, ref) < 1e-14);
                    }
                }
            }
        }
    }
}

TEST_CASE("GPU ranks: the nccl exchange is recorded in the timeline", "[mpi][gpu][nccl]")
{
    auto m = nccl_matrix(gen::pde(16), {});
    if (!m || world().size() == 1) {
        return;
    }
    std::vector<double> xo(static_cast<std::size_t>(m->own_cols()), 1.0);
    std::vector<double> yo(static_cast<std::size_t>(m->own_rows()));
    for (auto mode : all_modes) {
        Timeline t;
        m->start_clock();
        m->apply(mode, xo, yo, &t, 0);
        int nccl_spans = 0;
        double nccl_end = -1.0;
        double nonlocal_begin = -1.0;
        for (const auto& e : t.events) {
            if (e.lane == Lane::gpu && e.phase == Phase::copy_peer) {
                ++nccl_spans;
                nccl_end = e.end_us;
            }
            if (e.lane == Lane::gpu && e.phase == Phase::nonlocal) nonlocal_begin = e.begin_us;
            CHECK(e.phase != Phase::copy_d2h);  // nothing staged through the host
            CHECK(e.phase != Phase::copy_h2d);
        }
        INFO(to_string(mode) << ", rank " << world().rank());
        CHECK(nccl_spans == 1);  // one NCCL group per product, on the GPU lane
        if (mode != Mode::vector && nonlocal_begin >= 0.0) {
            CHECK(nccl_end <= nonlocal_begin + 1.0);  // the second pass waited for the halo
        }
    }
}

TEST_CASE("GPU ranks: CG with its reductions on the device takes the MPI reductions' iterations",
          "[mpi][gpu][nccl]")
{
    const auto a = gen::pde(14);  // 2744 rows
    std::vector<double> b(static_cast<std::size_t>(a.num_rows));
    for (std::size_t i = 0; i < b.size(); ++i) {
        b[i] = 1.0 + static_cast<double>(i % 7) / 7.0;
    }
    DistOptions opt;
    opt.format = "sell";
    auto m = nccl_matrix(a, opt);
    if (!m) {
        return;
    }
    const auto bo = scatter_from_root<double>(world(), m->row_partition(), b);
    for (auto method : {solvers::Method::cg, solvers::Method::mpir_cg}) {
        for (bool jacobi : {false, true}) {
            for (auto mode : {Mode::vector, Mode::task}) {
                solvers::SolveOptions so;
                so.jacobi = jacobi;
                so.tol = 1e-10;
                DistSolveOptions device;
                device.mode = mode;
                DistSolveOptions host = device;
                host.device_reductions = false;
                std::vector<double> x_dev(bo.size(), 0.0);
                std::vector<double> x_mpi(bo.size(), 0.0);
                const auto r_dev = solve(*m, bo, x_dev, method, so, device);
                const auto r_mpi = solve(*m, bo, x_mpi, method, so, host);
                INFO(solvers::to_string(method) << (jacobi ? " jacobi" : "") << ", "
                                                << to_string(mode) << ", " << world().size()
                                                << " ranks: " << r_dev.iterations
                                                << " iterations on the device, "
                                                << r_mpi.iterations << " with MPI");
                CHECK(r_dev.status == solvers::Status::converged);
                CHECK(r_mpi.status == solvers::Status::converged);
                CHECK(r_dev.final_relative_residual <= so.tol);
                // the rank-local sums have the same bits (DotEngine's arithmetic and grid);
                // two ranks add a + b either way: the same iterations and the same x. More
                // ranks may add in another order: one iteration either way
                if (world().size() <= 2) {
                    CHECK(r_dev.iterations == r_mpi.iterations);
                    CHECK(r_dev.residual_history == r_mpi.residual_history);
                    CHECK(x_dev == x_mpi);
                } else {
                    CHECK(std::abs(r_dev.iterations - r_mpi.iterations) <= 1);
                }
                // the count is the iteration that met the tolerance, not the one queued after
                // it: the recursive residual of the last iteration met it, the one before not
                if (method == solvers::Method::cg && r_dev.restarts == 0) {
                    REQUIRE(r_dev.residual_history.size() ==
                            static_cast<std::size_t>(r_dev.iterations) + 1);
                    CHECK(r_dev.residual_history[r_dev.residual_history.size() - 2] > so.tol);
                }
            }
        }
    }
}

TEST_CASE("GPU ranks: NCCL's connections are made when the matrix is, not in the first solve",
          "[mpi][gpu][nccl]")
{
    // NCCL connects lazily (~100 ms or more per first send / receive to a peer and per first
    // collective): the first run on two H200 spent it inside CG (420 ms against 68 ms with
    // CUDA IPC). The matrix's creation makes every connection now (connect_nccl), so the first
    // solve takes about the second's time; 50 ms of slack covers CUDA's lazy loading of the
    // solver's kernels on their first launch, not one NCCL connection
    const auto a = gen::pde(14);
    const std::vector<double> b_global(static_cast<std::size_t>(a.num_rows), 1.0);
    DistOptions opt;
    opt.format = "sell";
    auto m = nccl_matrix(a, opt);
    if (!m) {
        return;
    }
    const auto b = scatter_from_root<double>(world(), m->row_partition(), b_global);
    for (auto method : {solvers::Method::cg, solvers::Method::mpir_cg}) {
        solvers::SolveOptions so;
        so.tol = 1e-10;
        DistSolveOptions dso;
        dso.mode = Mode::task;
        std::vector<double> x1(b.size(), 0.0), x2(b.size(), 0.0);
        const auto first = solve(*m, b, x1, method, so, dso);
        const auto second = solve(*m, b, x2, method, so, dso);
        INFO(solvers::to_string(method) << ", " << world().size() << " ranks: first solve "
                                        << first.total_ms << " ms, second " << second.total_ms
                                        << " ms, " << first.iterations << " iterations");
        CHECK(first.status == solvers::Status::converged);
        CHECK(first.iterations == second.iterations);
        CHECK(x1 == x2);
        CHECK(first.total_ms < second.total_ms + 50.0);
    }
}

TEST_CASE("GPU ranks: matrices with NCCL communicators can be destroyed and rebuilt",
          "[mpi][gpu][nccl]")
{
    const auto a = gen::pde(12);
    const auto x = test::random_vector(static_cast<std::size_t>(a.num_cols), 5);
    std::vector<double> first;
    for (int round = 0; round < 3; ++round) {
        auto m = nccl_matrix(a, {});
        if (!m) {
            return;
        }
        // a second one alive beside it: two communicators over the same ranks
        auto other = nccl_matrix(a, {});
        REQUIRE(other);
        const auto y = distributed_y(*m, x, Mode::task);
        const auto y2 = distributed_y(*other, x, Mode::overlap);
        auto moved = std::move(*m);  // the communicator moves with the matrix
        const auto y3 = distributed_y(moved, x, Mode::naive);
        if (world().rank() == 0) {
            INFO("round " << round);
            CHECK(y == y2);
            CHECK(y == y3);
            if (round == 0) {
                first = y;
            } else {
                CHECK(y == first);
            }
        }
    }
}
