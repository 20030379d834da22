// The per-rank Matrix Market reader (spmv/dist/parallel_mm.hpp) under mpiexec -n 1..4: every
// rank's rows, the partition and the counts equal the serial reader's matrix cut by
// make_partition + extract_rows (what DistMatrix::create scatters from the root), for general,
// symmetric, skew-symmetric, pattern and integer files, CRLF, comments and blank lines among
// the entries, duplicates, more ranks than rows, rounds that cut every line; and a bad line on
// any rank ends every rank with the serial reader's message (file and line).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/dist/comm.hpp>
#include <spmv/dist/dist_matrix.hpp>
#include <spmv/dist/local_matrix.hpp>
#include <spmv/dist/parallel_mm.hpp>
#include <spmv/dist/partition.hpp>
#include <spmv/error.hpp>
#include <spmv/generators.hpp>
#include <spmv/io/matrix_market.hpp>

#include "mpi_test_support.hpp"

using namespace spmv;
using namespace spmv::dist;
using spmv::test::on_root;
using spmv::test::shared_file;
using spmv::test::world;

namespace {

std::string crlf(const std::string& s)
{
    std::string out;
    for (char c : s) {
        if (c == '\n') {
            out += '\r';
        }
        out += c;
    }
    return out;
}

/// Every rank's rows, partition and counts against the serial reader cut by make_partition.
void check_same(const std::filesystem::path& path, PartitionKind kind,
                std::int64_t round_bytes, std::int64_t round_entries)
{
    io::MatrixMarketInfo want_info;
    const auto a = io::read_matrix_market(path, &want_info);
    const auto p = make_partition(a, kind, world().size());
    const auto want = extract_rows(a, p, world().rank());

    ParallelReadOptions opt;
    opt.partition = kind;
    opt.round_bytes = round_bytes;
    opt.round_entries = round_entries;
    const auto got = read_matrix_market_parallel<double>(world(), path, opt);

    INFO(path.filename().string() << ", partition " << to_string(kind) << ", round_bytes "
                                  << round_bytes << ", rank " << world().rank() << " of "
                                  << world().size());
    CHECK(got.per_rank);
    CHECK(got.partition.kind == p.kind);
    CHECK(got.partition.offsets == p.offsets);
    CHECK(got.rows.num_rows == a.num_rows);
    CHECK(got.rows.num_cols == a.num_cols);
    CHECK(got.rows.rows == want.rows);
    CHECK(got.rows.row_ptrs == want.row_ptrs);
    CHECK(got.rows.col_idxs == want.col_idxs);
    CHECK(got.rows.values == want.values);  // bit for bit: duplicates summed in file order
    CHECK(got.info.entries == want_info.entries);
    CHECK(got.info.diagonal_entries == want_info.diagonal_entries);
    CHECK(got.info.expanded_entries == want_info.expanded_entries);
    CHECK(got.info.duplicates_summed == want_info.duplicates_summed);
    CHECK(got.info.explicit_zeros == want_info.explicit_zeros);
    CHECK(got.info.nnz == want_info.nnz);
    CHECK(got.info.symmetry == want_info.symmetry);
    CHECK(got.info.field == want_info.field);
}

void check_all_ways(const std::filesystem::path& path)
{
    for (auto kind : {PartitionKind::rows, PartitionKind::nnz}) {
        // 1 byte: every round one line; 7: rounds cut lines anywhere; large: one round
        for (std::int64_t rb : {std::int64_t{1}, std::int64_t{7}, std::int64_t{1} << 20}) {
            check_same(path, kind, rb, rb == 1 ? 1 : 5);
        }
    }
}

/// The serial reader's message for a bad file (what every rank must end with).
std::string serial_error(const std::filesystem::path& path)
{
    try {
        (void)io::read_matrix_market(path);
    } catch (const MatrixMarketError& e) {
        return e.what();
    }
    return "no error";
}

void check_error(const std::filesystem::path& path, const std::string& where)
{
    const auto want = serial_error(path);
    REQUIRE_THAT(want, Catch::Contains(where));
    const auto t0 = std::chrono::steady_clock::now();
    ParallelReadOptions opt;
    opt.round_bytes = 9;
    try {
        (void)read_matrix_market_parallel<double>(world(), path, opt);
        FAIL("no error");
    } catch (const RemoteError& e) {
        CHECK_THAT(e.what(), Catch::Contains(want));
    }
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10));
}

const char* general_text =
    "%%MatrixMarket matrix coordinate real general\n"
    "% the canonical 4x4 of STYLE.md, with a duplicate, an explicit zero and comments\n"
    "% A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9]\n"
    "4 4 15\n"
    "1 2 1\n"
    "3 1 5\n"
    "1 1 1\n"
    "1 2 1e16\n"
    "% a comment among the entries\n"
    "1 3 2\n"
    "\n"
    "1 4 3.0e0\n"
    "2 2 1.5\n"
    "3 3 6\n"
    "2 2 2.5\n"
    "   3    4    7   \n"
    "4 2 8\n"
    "4 4 9\n"
    "4 3 0.1\n"
    "4 3 -0.1\n"
    "1 2 -1e16\n";  // (1 + 1e16) - 1e16 = 0 in file order, 1 backwards

}  // namespace

TEST_CASE("Per-rank reading gives every rank the serial reader's rows", "[mpi][parallel_mm]")
{
    SECTION("general, duplicates, comments and blank lines among the entries")
    {
        check_all_ways(shared_file("general.mtx", general_text));
    }
    SECTION("CRLF line ends")
    {
        check_all_ways(shared_file("general_crlf.mtx", crlf(general_text)));
    }
    SECTION("symmetric, expanded on the way (pde 8x8 grid, written as one triangle)")
    {
        std::ostringstream s;
        io::WriteOptions w;
        w.symmetric = true;
        w.comment = "pde8";
        io::write_matrix_market(s, gen::pde(8), w);
        check_all_ways(shared_file("pde8_sym.mtx", s.str()));
    }
    SECTION("general pde with long lines (17 digits)")
    {
        std::ostringstream s;
        auto a = gen::pde(6);
        for (std::size_t k = 0; k < a.values.size(); ++k) {
            a.values[k] += 1.0 / 3.0 * static_cast<double>(k % 7);
        }
        io::write_matrix_market(s, a);
        check_all_ways(shared_file("pde6_general.mtx", s.str()));
    }
    SECTION("skew-symmetric")
    {
        check_all_ways(shared_file("skew.mtx", "%%MatrixMarket matrix coordinate real "
                                               "skew-symmetric\n5 5 4\n2 1 1.5\n3 1 -2\n5 4 "
                                               "3.25\n4 2 7\n"));
    }
    SECTION("pattern symmetric and integer")
    {
        check_all_ways(shared_file("pattern.mtx", "%%MatrixMarket matrix coordinate pattern "
                                                  "symmetric\n6 6 6\n1 1\n2 1\n3 2\n6 1\n6 6\n5 "
                                                  "4\n"));
        check_all_ways(shared_file("integer.mtx", "%%MatrixMarket matrix coordinate integer "
                                                  "general\n3 5 4\n1 5 -7\n3 1 12\n2 2 0\n1 5 "
                                                  "9\n"));
    }
    SECTION("real matrices of the shared set (general and symmetric)")
    {
        const std::filesystem::path shared = SPMV_SHARED_MATRICES;
        for (const char* f : {"west0479.mtx", "494_bus.mtx"}) {
            if (!std::filesystem::exists(shared / f)) {
                WARN("SKIPPED real matrix " << f << ": not found in " << shared.string());
                continue;
            }
            for (auto kind : {PartitionKind::rows, PartitionKind::nnz}) {
                check_same(shared / f, kind, 1000, 100);
            }
        }
    }
    SECTION("more ranks than rows, and no entries at all")
    {
        check_all_ways(shared_file("two.mtx", "%%MatrixMarket matrix coordinate real "
                                              "general\n2 3 3\n2 3 1\n1 1 2\n2 1 3\n"));
        check_all_ways(shared_file("none.mtx", "%%MatrixMarket matrix coordinate real "
                                               "general\n3 3 0\n"));
        check_all_ways(shared_file("one_no_eol.mtx", "%%MatrixMarket matrix coordinate real "
                                                     "general\n1 1 1\n1 1 4"));
    }
}

TEST_CASE("Per-rank reading in float rounds the serial reader's values once",
          "[mpi][parallel_mm]")
{
    const auto path = shared_file("general_f.mtx", general_text);
    const auto a = io::read_matrix_market(path);
    const auto p = make_partition(a, PartitionKind::nnz, world().size());
    const auto want = extract_rows(a, p, world().rank());
    const auto got = read_matrix_market_parallel<float>(world(), path);
    REQUIRE(got.rows.values.size() == want.values.size());
    for (std::size_t k = 0; k < want.values.size(); ++k) {
        CHECK(got.rows.values[k] == static_cast<float>(want.values[k]));
    }
    CHECK(got.rows.col_idxs == want.col_idxs);
}

TEST_CASE("A bad line on any rank ends every rank with the serial reader's file and line",
          "[mpi][parallel_mm]")
{
    std::string lines;
    for (int k = 1; k <= 40; ++k) {
        lines += std::to_string(k) + " " + std::to_string(41 - k) + " " + std::to_string(k) +
                 ".5\n";
    }
    const std::string head = "%%MatrixMarket matrix coordinate real general\n% c\n40 40 40\n";
    SECTION("a bad value near the end (line 41)")
    {
        auto text = head + lines;
        text.replace(text.find("38 3 38.5"), 9, "38 3 x8.5");
        check_error(shared_file("bad_end.mtx", text), "bad_end.mtx:41:");
    }
    SECTION("a bad index at the start and another near the end: the first is named (line 4)")
    {
        auto text = head + lines;
        text.replace(text.find("1 40 1.5"), 8, "1 99 1.5");
        text.replace(text.find("38 3 38.5"), 9, "38 3 x8.5");
        check_error(shared_file("bad_two.mtx", text), "bad_two.mtx:4:");
    }
    SECTION("CRLF, error on line 23")
    {
        auto text = head + lines;
        text.replace(text.find("20 21 20.5"), 10, "20 21");
        check_error(shared_file("bad_crlf.mtx", crlf(text)), "bad_crlf.mtx:23:");
    }
    SECTION("more entries than declared: the first extra line")
    {
        auto text = "%%MatrixMarket matrix coordinate real general\n40 40 37\n" + lines;
        check_error(shared_file("extra.mtx", text), "extra.mtx:40:");
    }
    SECTION("fewer entries than declared")
    {
        auto text = "%%MatrixMarket matrix coordinate real general\n40 40 45\n" + lines;
        check_error(shared_file("short.mtx", text), "file ends at line 42 after 40 of 45");
    }
    SECTION("a symmetric file with both triangles, far apart")
    {
        auto text = "%%MatrixMarket matrix coordinate real symmetric\n40 40 40\n" + lines;
        check_error(shared_file("both.mtx", text), "both.mtx:23:");
    }
}

TEST_CASE("A compressed file is read by rank 0 and spread like a range", "[mpi][parallel_mm]")
{
    if (!io::have_compressed_input()) {
        WARN("SKIPPED: this build reads no compressed input");
        return;
    }
    const auto path = shared_file("gz.mtx", general_text);
    int rc = 0;
    if (world().rank() == 0) {
        rc = std::system(("gzip -kf '" + path.string() + "'").c_str());
    }
    if (world().allreduce_max(static_cast<double>(rc)) != 0.0) {
        WARN("SKIPPED: gzip did not run");
        return;
    }
    const auto gz = path.string() + ".gz";
    const auto a = io::read_matrix_market(gz);
    const auto p = make_partition(a, PartitionKind::nnz, world().size());
    const auto want = extract_rows(a, p, world().rank());
    ParallelReadOptions opt;
    opt.round_entries = 2;
    const auto got = read_matrix_market_parallel<double>(world(), gz, opt);
    CHECK_FALSE(got.per_rank);
    CHECK_THAT(got.note, Catch::Contains("gzip"));
    CHECK(got.partition.offsets == p.offsets);
    CHECK(got.rows.rows == want.rows);
    CHECK(got.rows.row_ptrs == want.row_ptrs);
    CHECK(got.rows.col_idxs == want.col_idxs);
    CHECK(got.rows.values == want.values);
    CHECK(got.info.compression == "gzip");
}

TEST_CASE("A DistMatrix built from the per-rank rows computes the root-read matrix's product",
          "[mpi][parallel_mm]")
{
    std::ostringstream s;
    io::WriteOptions w;
    w.symmetric = true;
    io::write_matrix_market(s, gen::pde(9), w);
    const auto path = shared_file("pde9_sym.mtx", s.str());
    const auto a = io::read_matrix_market(path);
    DistOptions opt;
    opt.partition = PartitionKind::nnz;
    auto from_root =
        DistMatrix<double>::create(world(), on_root(a),
                                   opt);
    ParallelReadOptions ro;
    ro.round_bytes = 64;
    const auto got = read_matrix_market_parallel<double>(world(), path, ro);
    auto per_rank = DistMatrix<double>::from_rows(world(), got.rows, got.partition, opt);
    REQUIRE(per_rank.own_rows() == from_root.own_rows());
    REQUIRE(per_rank.own_cols() == from_root.own_cols());
    std::vector<double> x_global(static_cast<std::size_t>(a.num_cols));
    for (std::size_t k = 0; k < x_global.size(); ++k) {
        x_global[k] = 1.0 + 0.25 * static_cast<double>(k % 5);
    }
    const auto x = scatter_from_root<double>(world(), from_root.col_partition(),
                                             world().rank() == 0 ? x_global
                                                                : std::vector<double>{});
    std::vector<double> y1(static_cast<std::size_t>(from_root.own_rows()));
    std::vector<double> y2(y1.size());
    from_root.apply(Mode::vector, x, y1);
    per_rank.apply(Mode::vector, x, y2);
    CHECK(y1 == y2);
    // and against the serial product on the root
    const auto y = gather_to_root<double>(world(), per_rank.row_partition(), y2);
    if (world().rank() == 0) {
        std::vector<double> want(static_cast<std::size_t>(a.num_rows), 0.0);
        for (std::int32_t i = 0; i < a.num_rows; ++i) {
            for (auto k = a.row_ptrs[static_cast<std::size_t>(i)];
                 k < a.row_ptrs[static_cast<std::size_t>(i) + 1]; ++k) {
                want[static_cast<std::size_t>(i)] +=
                    a.values[static_cast<std::size_t>(k)] *
                    x_global[static_cast<std::size_t>(a.col_idxs[static_cast<std::size_t>(k)])];
            }
        }
        REQUIRE(y.size() == want.size());
        for (std::size_t i = 0; i < y.size(); ++i) {
            CHECK(y[i] == Approx(want[i]).margin(1e-12));
        }
    }
}

// Hidden (run by name): SPMV_PMM_FILE=big.mtx mpiexec -n 4 test_mpi "[.parallel_mm_file]"
// compares the per-rank read of any file with the serial reader's rows and prints both times.
TEST_CASE("Per-rank reading of SPMV_PMM_FILE matches the serial reader", "[.parallel_mm_file]")
{
    const char* file = std::getenv("SPMV_PMM_FILE");
    if (file == nullptr) {
        WARN("SKIPPED: set SPMV_PMM_FILE");
        return;
    }
    world().barrier();
    auto t0 = std::chrono::steady_clock::now();
    const auto got = read_matrix_market_parallel<double>(world(), file);
    world().barrier();
    const double t_parallel =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    t0 = std::chrono::steady_clock::now();
    const auto a = io::read_matrix_market(file);
    const double t_serial =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto p = make_partition(a, PartitionKind::nnz, world().size());
    const auto want = extract_rows(a, p, world().rank());
    CHECK(got.partition.offsets == p.offsets);
    CHECK(got.rows.row_ptrs == want.row_ptrs);
    CHECK(got.rows.col_idxs == want.col_idxs);
    CHECK(got.rows.values == want.values);
    if (world().rank() == 0) {
        std::printf("%s: %lld nonzeros, per-rank read on %d rank(s) %.3f s, serial read "
                    "(one process, its threads) %.3f s\n",
                    file, static_cast<long long>(got.info.nnz), world().size(), t_parallel,
                    t_serial);
    }
}
