// The per-rank reader's assembly and budget (spmv/dist/parallel_mm.hpp, steps 5 and the
// per-rank memory check) under mpiexec -n 1..4: entries arriving in pieces, one per round and
// from every rank's range, become the serial reader's rows bit for bit -- duplicates summed in
// file order where the order changes the sum, long rows (the std::sort path) and short ones
// (insertion sort) in column order -- and ReadOptions::memory is held against one rank's share
// with a message naming the rank.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/dist/comm.hpp>
#include <spmv/dist/local_matrix.hpp>
#include <spmv/dist/parallel_mm.hpp>
#include <spmv/dist/partition.hpp>
#include <spmv/error.hpp>
#include <spmv/io/matrix_market.hpp>

#include "mpi_test_support.hpp"

using namespace spmv;
using namespace spmv::dist;
using spmv::test::shared_file;
using spmv::test::world;

namespace {

/// Every rank's rows against the serial reader's matrix cut by make_partition + extract_rows.
void check_same(const std::filesystem::path& path, PartitionKind kind, std::int64_t round_bytes)
{
    const auto a = io::read_matrix_market(path);
    const auto p = make_partition(a, kind, world().size());
    const auto want = extract_rows(a, p, world().rank());
    ParallelReadOptions opt;
    opt.partition = kind;
    opt.round_bytes = round_bytes;
    opt.round_entries = 7;  // step 6 in many rounds too
    const auto got = read_matrix_market_parallel<double>(world(), path, opt);
    INFO(path.filename().string() << ", " << to_string(kind) << ", round_bytes " << round_bytes
                                  << ", rank " << world().rank() << " of " << world().size());
    CHECK(got.partition.offsets == p.offsets);
    CHECK(got.rows.rows == want.rows);
    CHECK(got.rows.row_ptrs == want.row_ptrs);
    CHECK(got.rows.col_idxs == want.col_idxs);
    CHECK(got.rows.values == want.values);  // bit for bit
}

}  // namespace

TEST_CASE("Entries that arrive in pieces become the serial reader's rows, duplicates in file order",
          "[mpi][parallel_mm]")
{
    // Row 2 holds 60 copies of (2, 5) spread through the file (a long row: the std::sort path),
    // row 6 12 copies of (6, 9) (a short one: insertion sort), with values whose sum depends on
    // the order they are added in (1e16 + 1 - 1e16 ...), and row 4 50 columns in shuffled order;
    // the other rows short and out of order.
    std::mt19937 rng(36);
    std::vector<std::string> lines;
    const double dup_values[] = {1e16, 1.0, -1e16, 3.0, 0.5, 7e15, -2.5, 1e-3};
    for (int k = 0; k < 60; ++k) {
        std::ostringstream l;
        l.precision(17);
        l << "2 5 " << dup_values[k % 8] * (1 + k / 8);
        lines.push_back(l.str());
    }
    for (int k = 0; k < 12; ++k) {  // and a short row's duplicates (the insertion sort path)
        std::ostringstream l;
        l.precision(17);
        l << "6 9 " << dup_values[(k + 3) % 8] * (1 + k);
        lines.push_back(l.str());
    }
    std::vector<int> cols(50);
    for (int c = 0; c < 50; ++c) {
        cols[static_cast<std::size_t>(c)] = c + 1;
    }
    std::shuffle(cols.begin(), cols.end(), rng);
    for (const int c : cols) {
        lines.push_back("4 " + std::to_string(c) + " " + std::to_string(c) + ".25");
    }
    for (int r = 1; r <= 60; ++r) {
        for (const int c : {(r * 7) % 60 + 1, (r * 13) % 60 + 1, r}) {
            lines.push_back(std::to_string(r) + " " + std::to_string(c) + " " +
                            std::to_string(r - c) + ".5");
        }
    }
    std::shuffle(lines.begin(), lines.end(), rng);
    std::string text = "%%MatrixMarket matrix coordinate real general\n60 60 " +
                       std::to_string(lines.size()) + "\n";
    for (const auto& l : lines) {
        text += l + "\n";
    }
    const auto path = shared_file("pieces.mtx", text);
    for (auto kind : {PartitionKind::rows, PartitionKind::nnz}) {
        for (const std::int64_t round_bytes : {std::int64_t{11}, std::int64_t{97},
                                               std::int64_t{1} << 20}) {
            check_same(path, kind, round_bytes);
        }
    }
    // the duplicates' sum is the serial reader's, which adds them in file order: not the same
    // double as the sum in another order (so the test above would catch a wrong order)
    const auto a = io::read_matrix_market(path);
    double forward = 0.0;
    double backward = 0.0;
    std::vector<double> in_file;
    for (const auto& l : lines) {
        if (l.rfind("2 5 ", 0) == 0) {
            in_file.push_back(std::stod(l.substr(4)));
        }
    }
    for (const double v : in_file) {
        forward += v;
    }
    for (auto it = in_file.rbegin(); it != in_file.rend(); ++it) {
        backward += *it;
    }
    double stored = 0.0;
    for (auto k = a.row_ptrs[1]; k < a.row_ptrs[2]; ++k) {
        if (a.col_idxs[static_cast<std::size_t>(k)] == 4) {
            stored = a.values[static_cast<std::size_t>(k)];
        }
    }
    CHECK(stored == forward);
    CHECK(forward != backward);
    std::vector<double> row6;
    for (const auto& l : lines) {
        if (l.rfind("6 9 ", 0) == 0) {
            row6.push_back(std::stod(l.substr(4)));
        }
    }
    double f6 = 0.0;
    double b6 = 0.0;
    for (const double v : row6) {
        f6 += v;
    }
    for (auto it = row6.rbegin(); it != row6.rend(); ++it) {
        b6 += *it;
    }
    CHECK(f6 != b6);
}

TEST_CASE("The per-rank reader holds the memory budget against one rank's share",
          "[mpi][parallel_mm]")
{
    // a symmetric 2000 x 2000 tridiagonal file: 3999 lines, 5998 entries after expansion
    std::string text = "%%MatrixMarket matrix coordinate real symmetric\n2000 2000 3999\n";
    for (int i = 1; i <= 2000; ++i) {
        text += std::to_string(i) + " " + std::to_string(i) + " 2\n";
        if (i < 2000) {
            text += std::to_string(i + 1) + " " + std::to_string(i) + " -1\n";
        }
    }
    const auto path = shared_file("budget.mtx", text);
    const int P = world().size();
    ParallelReadOptions opt;
    opt.partition = PartitionKind::rows;
    opt.read.memory.bytes = 4096;  // too small for any rank's share
    opt.read.memory.origin = "test";
    try {
        (void)read_matrix_market_parallel<double>(world(), path, opt);
        FAIL("no error");
    } catch (const RemoteError& e) {
        // the lowest failing rank, its rows and its share of the entries (1/P of 7998 lines
        // doubled, rounded up)
        const auto share = (std::int64_t{3999} * 2 + P - 1) / P;
        const auto rows = partition_rows(2000, P);
        CHECK_THAT(e.what(), Catch::Contains("rank 0 of " + std::to_string(P) +
                                             ": reading its share of " + path.string() +
                                             " (2000 x 2000, 3999 entries: rows 0 to " +
                                             std::to_string(rows.count(0) - 1) + ", about " +
                                             std::to_string(share) +
                                             " entries after symmetric expansion) would need"));
        CHECK_THAT(e.what(), Catch::Contains("the memory limit is 4.00 KiB (test)"));
    }
    // 1 MiB holds every rank's share of this file (one rank: 7998 entries at 56 bytes, one
    // round's buffers at 84, 2000 rows at 24: 0.93 MiB)
    opt.read.memory.bytes = 1 << 20;  // 1 MiB: every rank's share of this file fits
    const auto got = read_matrix_market_parallel<double>(world(), path, opt);
    CHECK(got.info.nnz == 5998);
}
