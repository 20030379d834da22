// Row chunks of a rank's blocks (ours, issue 36; DistOptions::max_chunk_nnz): a rank whose rows
// pass the chunk limit keeps and runs its blocks as consecutive row chunks. Here the limit is
// set tiny so that small matrices are cut into several chunks on every rank (1 to 4 ranks under
// CTest), and the product must equal the unchunked one to the last bit (every row is summed by
// one launch in the same order either way) and the single-process reference.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/dist/comm.hpp>
#include <spmv/dist/dist_matrix.hpp>
#include <spmv/dist/dist_solve.hpp>
#include <spmv/generators.hpp>
#include <spmv/parallel.hpp>
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

/// A tridiagonal n x n matrix with a far entry in every 40th row: on 2 to 4 ranks few rows
/// have non-local entries (the second pass runs the boundary rows whole) and they lie in
/// several of a rank's chunks, not only at its ends.
Csr<double, std::int32_t> banded_with_far_entries(std::int32_t n)
{
    Csr<double, std::int32_t> a;
    a.num_rows = a.num_cols = n;
    a.row_ptrs.assign(1, 0);
    for (std::int32_t i = 0; i < n; ++i) {
        std::vector<std::int32_t> cols;
        for (auto c : {i - 1, i, i + 1}) {
            if (c >= 0 && c < n) cols.push_back(c);
        }
        if (i % 40 == 7) cols.push_back((i + n / 2) % n);
        std::sort(cols.begin(), cols.end());
        cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
        for (auto c : cols) {
            a.col_idxs.push_back(c);
            a.values.push_back(c == i ? 4.0 + 0.001 * i : -1.0 / (1.0 + 0.37 * (c % 11)));
        }
        a.row_ptrs.push_back(static_cast<std::int32_t>(a.col_idxs.size()));
    }
    return a;
}

struct ChunkCase {
    std::string name;
    Csr<double, std::int32_t> a;
};

std::vector<ChunkCase> chunk_cases()
{
    return {{"banded + far entries (boundary rows split by rows)", banded_with_far_entries(600)},
            {"pde8", gen::pde(8)},
            {"powerlaw (many boundary rows: split by columns)",
             gen::power_law(700, 1, 2.0, 120, 3)}};
}

/// About five chunks per rank on 4 ranks, more on fewer.
std::int64_t tiny_limit(const Csr<double, std::int32_t>& a)
{
    return std::max<std::int64_t>(8, nnz(a) / 20);
}

/// Checks this rank's chunks against the limit: as many as its nonzeros need at least, the
/// LocalMatrix cut too, its chunks covering its rows in order.
void check_chunks(const DistMatrix<double>& m, std::int64_t limit)
{
    const auto info = m.info();
    const auto& part = m.part();
    INFO("rank " << info.rank << ": " << info.rows << " rows, " << info.nnz << " nonzeros, "
                 << info.chunks << " chunks, limit " << limit);
    CHECK(info.chunks >= (info.nnz + limit - 1) / limit);
    CHECK(static_cast<std::size_t>(info.chunks) >= std::max<std::size_t>(1, part.chunks.size()));
    if (info.nnz > 2 * limit) {
        CHECK(info.chunks >= 2);
        CHECK(info.chunks <= info.rows / 2);  // chunks of several rows, not one row each
        CHECK(part.chunks.size() >= 2);
        CHECK(part.local.num_rows == 0);
    }
    std::int64_t next = 0;
    std::int64_t stored = 0;
    for (const auto& c : chunk_views(part)) {
        CHECK(c.first_row == next);
        CHECK(nnz(*c.local) + nnz(*c.nonlocal) <= std::max<std::int64_t>(limit, 120));
        next += c.local->num_rows;
        stored += nnz(*c.local) + nnz(*c.nonlocal);
    }
    CHECK(next == info.rows);
    CHECK(stored == info.nnz);
}

/// Every mode, chunked and not, on host or GPU ranks: the same y to the last bit (`exact`), and
/// the single-process reference.
void check_formats(const std::vector<const char*>& formats, bool gpu, bool exact_hyb)
{
    const auto& comm = world();
    for (const auto& [name, a] : chunk_cases()) {
        const auto x = test::random_vector(static_cast<std::size_t>(a.num_cols), 41);
        std::vector<double> ref(static_cast<std::size_t>(a.num_rows));
        spmv_reference(a, 1.0, std::span<const double>(x), 0.0, std::span<double>(ref));
        const auto limit = tiny_limit(a);
        for (auto kind : {PartitionKind::nnz, PartitionKind::rows}) {
            for (const char* format : formats) {
                for (bool merged : {true, false}) {
                    DistOptions opt;
                    opt.partition = kind;
                    opt.format = format;
                    opt.gpu = gpu;
                    // SELL-4-8 (a permuted SELL), pJDS b_r = 4, ELLG rows padded to 4: slices
                    // and blocks small enough that a chunk holds several of them under the
                    // tiny limit (with 32 rows each, every chunk would be one row)
                    opt.params.slice_height = 4;
                    opt.params.sort_window = 8;
                    opt.params.block_rows = 4;
                    opt.params.pitch_bytes = 32;
                    // HYB's ELL width fixed: the one-third rule picks it per block, and another
                    // width in a chunk would change where a row's sum passes to the COO part
                    opt.params.hyb_width = 3;
                    opt.merged_block = merged;
                    auto whole = DistMatrix<double>::create(comm, on_root(a), opt);
                    opt.max_chunk_nnz = limit;
                    auto chunked = DistMatrix<double>::create(comm, on_root(a), opt);
                    REQUIRE(whole.info().chunks == 1);
                    check_chunks(chunked, limit);
                    const bool exact = exact_hyb || std::string(format) != "hyb";
                    for (auto mode : all_modes) {
                        const auto y_whole = distributed_y(whole, x, mode);
                        const auto y = distributed_y(chunked, x, mode);
                        if (comm.rank() == 0) {
                            INFO(name << ", " << to_string(kind) << ", " << format << ", "
                                      << to_string(mode) << (merged ? "" : ", split blocks")
                                      << ", " << comm.size() << " ranks, "
                                      << (gpu ? "GPU" : "host"));
                            if (exact) {
                                CHECK(y == y_whole);
                            } else {  // GPU HYB: its COO part's sums may come in any order
                                CHECK(test::relative_error(y, y_whole) < 1e-15);
                            }
                            CHECK(test::relative_error(y, ref) < 1e-14);
                        }
                    }
                }
            }
        }
    }
}

}  // namespace

TEST_CASE("Row chunks: every mode and format gives the unchunked product to the last bit",
          "[mpi][chunks]")
{
    check_formats({"csr", "sell", "ell", "jds", "hyb", "coo", "pjds", "ellg"}, false, true);
}

TEST_CASE("Build threads: blocks built on 1 and on 6 threads give the same product to the last "
          "bit", "[mpi][chunks]")
{
    // large enough that each rank's rows are cut into several pieces (spmv/parallel.hpp: at
    // least 16,384 rows each) on 1 to 4 ranks: the split, the passes' copies (boundary rows
    // whole for the pde, split by columns for the power law) and the merged block
    const auto& comm = world();
    const std::vector<ChunkCase> cases = {{"pde64", gen::pde(64)},
                                          {"powerlaw", gen::power_law(300000, 1, 2.0, 200, 5)}};
    for (const auto& [name, a] : cases) {
        const auto x = test::random_vector(static_cast<std::size_t>(a.num_cols), 43);
        for (const char* format : {"csr", "sell"}) {
            for (const bool chunked : {false, true}) {
                DistOptions opt;
                opt.format = format;
                if (chunked) {
                    opt.max_chunk_nnz = nnz(a) / (3 * comm.size()) + 1;
                }
                set_build_threads(1);
                auto one = DistMatrix<double>::create(comm, on_root(a), opt);
                set_build_threads(6);
                auto six = DistMatrix<double>::create(comm, on_root(a), opt);
                set_build_threads(0);
                CHECK(six.info().chunks == one.info().chunks);
                for (auto mode : all_modes) {
                    const auto y1 = distributed_y(one, x, mode);
                    const auto y6 = distributed_y(six, x, mode);
                    if (comm.rank() == 0) {
                        INFO(name << ", " << format << (chunked ? ", chunked" : "") << ", "
                                  << to_string(mode) << ", " << comm.size() << " ranks");
                        CHECK(y6 == y1);
                    }
                }
            }
        }
    }
}

TEST_CASE("Row chunks: a limit outside [1, 2^31 - 1] is refused on every rank", "[mpi][chunks]")
{
    const auto a = gen::pde(4);
    for (std::int64_t bad : {std::int64_t{0}, std::int64_t{1} << 31}) {
        DistOptions opt;
        opt.max_chunk_nnz = bad;
        CHECK_THROWS_WITH(DistMatrix<double>::create(world(), on_root(a), opt),
                          Catch::Contains("[1, 2^31 - 1]"));
    }
}

TEST_CASE("Row chunks: the budget counts every chunk's blocks", "[mpi][chunks]")
{
    // the chunks' estimates add up to about the unchunked blocks' (the same rows): a budget
    // that the unchunked blocks pass with room to spare passes chunked too, and a budget of a
    // few bytes is refused naming the chunks
    const auto& comm = world();
    const auto a = gen::pde(8);
    DistOptions opt;
    opt.format = "csr";
    opt.max_chunk_nnz = tiny_limit(a);
    opt.budget.bytes = std::uint64_t{64} << 20;
    CHECK_NOTHROW(DistMatrix<double>::create(comm, on_root(a), opt));
    opt.budget.bytes = 64;
    CHECK_THROWS_WITH(DistMatrix<double>::create(comm, on_root(a), opt),
                      Catch::Contains("row chunks"));
}

namespace {

/// CG (plain or Jacobi) and MPIR-CG (its inner solve on a float copy of the blocks, chunks
/// included) with and without chunks: the same iterations, residual and x (`exact`: to the
/// last bit).
void check_solves(bool gpu, bool exact)
{
    const auto& comm = world();
    const auto a = gen::pde(10);  // 1000 rows
    std::vector<double> b(static_cast<std::size_t>(a.num_rows));
    for (std::size_t i = 0; i < b.size(); ++i) {
        b[i] = 1.0 + static_cast<double>(i % 13) / 13.0;
    }
    for (auto method : {solvers::Method::cg, solvers::Method::mpir_cg}) {
        for (bool jacobi : {false, true}) {
            for (auto mode : {Mode::task, Mode::vector}) {
                solvers::SolveOptions so;
                so.jacobi = jacobi;
                DistOptions opt;
                opt.format = "sell";
                opt.gpu = gpu;
                auto whole = DistMatrix<double>::create(comm, on_root(a), opt);
                opt.max_chunk_nnz = tiny_limit(a);
                auto chunked = DistMatrix<double>::create(comm, on_root(a), opt);
                check_chunks(chunked, opt.max_chunk_nnz);
                DistSolveOptions dso;
                dso.mode = mode;
                const auto bo = scatter_from_root<double>(comm, whole.row_partition(), b);
                std::vector<double> x_whole(bo.size(), 0.0), x_chunked(bo.size(), 0.0);
                const auto r_whole = solve(whole, bo, x_whole, method, so, dso);
                const auto r = solve(chunked, bo, x_chunked, method, so, dso);
                INFO(solvers::to_string(method) << (jacobi ? " jacobi" : "") << ", "
                                                << to_string(mode) << ", " << comm.size()
                                                << " ranks, " << (gpu ? "GPU" : "host") << ": "
                                                << r.iterations << " vs " << r_whole.iterations);
                CHECK(r_whole.status == solvers::Status::converged);
                CHECK(r.status == solvers::Status::converged);
                CHECK(r.iterations == r_whole.iterations);
                CHECK(r.inner_iterations == r_whole.inner_iterations);
                if (exact) {
                    CHECK(r.final_relative_residual == r_whole.final_relative_residual);
                    CHECK(x_chunked == x_whole);
                } else {
                    CHECK(test::relative_error(x_chunked, x_whole) < 1e-12);
                }
            }
        }
    }
}

}  // namespace

TEST_CASE("Row chunks: CG, Jacobi-CG and MPIR-CG take the same iterations and x as unchunked",
          "[mpi][chunks]")
{
    check_solves(false, true);
}

TEST_CASE("GPU ranks: row chunks give the unchunked product in every mode and format",
          "[mpi][gpu][chunks]")
{
    // The lead's GPU run: mpiexec -n 2 build/tests/test_mpi "[chunks][gpu]" (and -n 1, -n 4)
    if (!spmv::gpu::is_available()) {
        WARN("SKIPPED: no GPU on this host");
        return;
    }
    check_formats({"csr", "sell", "ell", "jds", "hyb", "pjds"}, true, false);
    // the same iterations; x to 1e-12 (the device reductions' order is the library's)
    check_solves(true, false);
}
