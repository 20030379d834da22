// 64-bit global indices under MPI (issue 36), run by CTest on 1 to 4 ranks: Comm's splitting of
// messages past its limit (lowered to a few elements, so that small arrays take every path),
// the exchange plan of a matrix of P * 2e9 + 3 columns built with MPI (global columns past
// 2^31 and, on 3 and 4 ranks, 2^32) and applied by hand, and a DistMatrix of 6e9 rows applied
// in every mode. The matrices hold a few rows per rank: a rank passes the rows it has (the
// others are empty), so nothing of the size of the matrix is ever allocated. Expected values
// come from closed forms over the matrices' definitions, not from the code under test.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <span>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/dist/comm.hpp>
#include <spmv/dist/dist_matrix.hpp>
#include <spmv/dist/exchange_plan.hpp>
#include <spmv/dist/local_matrix.hpp>
#include <spmv/dist/partition.hpp>
#include <spmv/error.hpp>

#include "mpi_test_support.hpp"

using namespace spmv;
using namespace spmv::dist;
using spmv::test::world;
using Catch::Matchers::Contains;

namespace {

/// Lowers Comm's message limit for one scope (the same on every rank: each rank runs it).
class MessageLimit {
public:
    explicit MessageLimit(std::int64_t n) : old_(spmv::dist::detail::set_max_message_elements(n)) {}
    ~MessageLimit() { spmv::dist::detail::set_max_message_elements(old_); }
    MessageLimit(const MessageLimit&) = delete;
    MessageLimit& operator=(const MessageLimit&) = delete;

private:
    std::int64_t old_;
};

constexpr global_index two31 = global_index{1} << 31;
constexpr global_index two32 = global_index{1} << 32;

/// x of the hand-applied products: small integers, so that every sum is exact.
double x_of(global_index g) { return static_cast<double>(g % 1009) + 1.0; }

/// Comm's calls with their results checked; `limit` elements per message.
void check_comm_calls(const Comm& comm, std::int64_t limit)
{
    MessageLimit lim(limit);
    const int P = comm.size();
    const int r = comm.rank();
    const auto Pz = static_cast<std::size_t>(P);
    INFO("limit " << limit << ", rank " << r << " of " << P);

    // isend / irecv around a ring (to itself on one rank): 10 elements, and an empty message
    // (a build without MPI has no point-to-point calls: one rank of one never needs them)
    std::vector<std::int64_t> out(10), in(10, -1);
    for (std::size_t i = 0; i < out.size(); ++i) {
        out[i] = two32 + 100 * r + static_cast<std::int64_t>(i);
    }
    const int next = (r + 1) % P;
    const int prev = (r + P - 1) % P;
    std::int64_t empty_in = 0;
    if (has_mpi()) {
        Requests reqs;
        comm.irecv(in.data(), 10, Datatype::i64, prev, 7301, reqs);
        comm.irecv(&empty_in, 0, Datatype::i64, prev, 7302, reqs);
        comm.isend(out.data(), 10, Datatype::i64, next, 7301, reqs);
        comm.isend(out.data(), 0, Datatype::i64, next, 7302, reqs);
        comm.wait_all(reqs);
        for (std::size_t i = 0; i < in.size(); ++i) {
            CHECK(in[i] == two32 + 100 * prev + static_cast<std::int64_t>(i));
        }
    }

    // blocking send / recv: rank 0 to rank P - 1 (7 doubles)
    if (P > 1 && (r == 0 || r == P - 1)) {
        std::vector<double> v(7);
        if (r == 0) {
            for (std::size_t i = 0; i < v.size(); ++i) v[i] = 0.5 + static_cast<double>(i);
            comm.send(v.data(), 7, Datatype::f64, P - 1, 7303);
        } else {
            comm.recv(v.data(), 7, Datatype::f64, 0, 7303);
            for (std::size_t i = 0; i < v.size(); ++i) CHECK(v[i] == 0.5 + static_cast<double>(i));
        }
    }

    // broadcast of 11 int32 from the last rank; a string from rank 0
    std::vector<std::int32_t> b(11, 0);
    if (r == P - 1) {
        for (std::size_t i = 0; i < b.size(); ++i) b[i] = 1000 + static_cast<std::int32_t>(i);
    }
    comm.broadcast(b.data(), 11, Datatype::i32, P - 1);
    for (std::size_t i = 0; i < b.size(); ++i) CHECK(b[i] == 1000 + static_cast<std::int32_t>(i));
    std::string s = r == 0 ? "sixteen elements" : "";
    comm.broadcast(s, 0);
    CHECK(s == "sixteen elements");

    // allreduce of 7 doubles: rank r adds r + i, the sum is P (P - 1) / 2 + P i
    std::vector<double> sum(7);
    for (std::size_t i = 0; i < sum.size(); ++i) sum[i] = r + static_cast<double>(i);
    comm.allreduce_sum(sum);
    for (std::size_t i = 0; i < sum.size(); ++i) {
        CHECK(sum[i] == P * (P - 1) / 2.0 + P * static_cast<double>(i));
    }

    // alltoallv: rank s sends (s + 2 d) % 5 + 1 elements s * 10^6 + d * 10^3 + k to rank d
    auto count = [](int from, int d) { return static_cast<std::int64_t>((from + 2 * d) % 5 + 1); };
    std::vector<std::int64_t> sc(Pz), rc(Pz), send, recv;
    for (int d = 0; d < P; ++d) {
        sc[static_cast<std::size_t>(d)] = count(r, d);
        for (std::int64_t k = 0; k < count(r, d); ++k) send.push_back(r * 1'000'000 + d * 1'000 + k);
    }
    for (int s2 = 0; s2 < P; ++s2) rc[static_cast<std::size_t>(s2)] = count(s2, r);
    std::int64_t total = 0;
    for (auto c : rc) total += c;
    recv.assign(static_cast<std::size_t>(total), -1);
    comm.alltoallv(send, sc, recv, rc);
    std::size_t pos = 0;
    for (int s2 = 0; s2 < P; ++s2) {
        for (std::int64_t k = 0; k < count(s2, r); ++k) {
            CHECK(recv[pos++] == s2 * 1'000'000 + r * 1'000 + k);
        }
    }

    // gatherv on rank 0 (rank q gives 2q + 1 doubles q * 100 + k) and scatterv back
    std::vector<double> mine(static_cast<std::size_t>(2 * r + 1));
    for (std::size_t k = 0; k < mine.size(); ++k) mine[k] = r * 100.0 + static_cast<double>(k);
    std::vector<std::int64_t> counts;
    std::vector<double> all;
    if (r == 0) {
        for (int q = 0; q < P; ++q) counts.push_back(2 * q + 1);
        all.assign(static_cast<std::size_t>(P * P), -1.0);  // sum of 2q + 1 over q < P
    }
    comm.gatherv(mine.data(), static_cast<std::int64_t>(mine.size()), all.data(), counts,
                 Datatype::f64);
    if (r == 0) {
        std::size_t at = 0;
        for (int q = 0; q < P; ++q) {
            for (int k = 0; k < 2 * q + 1; ++k) CHECK(all[at++] == q * 100.0 + k);
        }
        for (auto& v : all) v += 0.25;
    }
    std::vector<double> back(mine.size(), -1.0);
    comm.scatterv(all.data(), counts, back.data(), static_cast<std::int64_t>(back.size()),
                  Datatype::f64);
    for (std::size_t k = 0; k < back.size(); ++k) CHECK(back[k] == mine[k] + 0.25);
}

}  // namespace

TEST_CASE("Comm splits every message past its limit and keeps the results", "[mpi][global]")
{
    const auto& comm = world();

    // 2^30 by default: every call in one message; 3 and 1: the pieces and, for the
    // v-collectives, the point-to-point stand-ins
    for (std::int64_t limit : {std::int64_t{1} << 30, std::int64_t{3}, std::int64_t{1}}) {
        check_comm_calls(comm, limit);
    }
    CHECK(spmv::dist::detail::max_message_elements() == std::int64_t{1} << 30);
    CHECK_THROWS_AS(spmv::dist::detail::set_max_message_elements(0), InvalidArgument);
    CHECK_THROWS_AS(spmv::dist::detail::set_max_message_elements(std::int64_t{1} << 31), InvalidArgument);
}

namespace {

/// First global index of rank r in partition_rows(n, P), in closed form.
global_index first_of(global_index n, int P, int r)
{
    return r * (n / P) + std::min<global_index>(r, n % P);
}

/// Rank r's two rows of the square matrix of n = P * 2e9 + 3 rows and columns (hand_rows):
///   row A = first_r: for every rank s, columns first_s + 1 and last_s (weights 1 + c % 7)
///   row B = last_r:  columns first_r, and (P > 1) first_n and last_n of the next rank n
///                    (weights 2; last_n is also in row A: one halo entry for both)
GlobalRows<double> hand_rows(global_index n, int P, int r)
{
    GlobalRows<double> g;
    g.num_rows = g.num_cols = n;
    const auto first = [&](int s) { return first_of(n, P, s); };
    const auto last = [&](int s) { return first_of(n, P, s + 1) - 1; };
    g.rows = {first(r), last(r)};
    for (int s = 0; s < P; ++s) {
        for (global_index c : {first(s) + 1, last(s)}) {
            g.col_idxs.push_back(c);
            g.values.push_back(1.0 + static_cast<double>(c % 7));
        }
    }
    g.row_ptrs = {0, static_cast<std::int64_t>(g.col_idxs.size())};
    std::vector<global_index> b{first(r)};
    if (P > 1) {
        const int nx = (r + 1) % P;
        b.push_back(first(nx));
        b.push_back(last(nx));
    }
    std::sort(b.begin(), b.end());
    for (auto c : b) {
        g.col_idxs.push_back(c);
        g.values.push_back(2.0);
    }
    g.row_ptrs.push_back(static_cast<std::int64_t>(g.col_idxs.size()));
    return g;
}

}  // namespace

TEST_CASE("The exchange plan of a matrix of P * 2e9 + 3 columns is built under MPI and applied",
          "[mpi][global]")
{
    const auto& comm = world();
    const int P = comm.size();
    const int r = comm.rank();
    const global_index n = P * global_index{2'000'000'000} + 3;
    const auto first = [&](int s) { return first_of(n, P, s); };
    const auto last = [&](int s) { return first_of(n, P, s + 1) - 1; };
    const int next = (r + 1) % P;
    const int prev = (r + P - 1) % P;
    MessageLimit lim(2);  // the plan's all-to-all and the halo messages in pieces of 2
    const auto rows = partition_rows(n, P);
    const auto cols = column_partition(rows, n);

    LocalMatrix<double> m;
    collective(comm, [&] { m = split(hand_rows(n, P, r), rows, cols, r); });
    const auto plan = exchange_plan(comm, m.halo_cols, m.halo_owner, cols);
    // the halo by hand-applied exchange: x entries are x_of(global column)
    std::vector<double> send(plan.send_idx.size()), halo(static_cast<std::size_t>(plan.halo_size()));
    for (std::size_t k = 0; k < send.size(); ++k) send[k] = x_of(first(r) + plan.send_idx[k]);
    Requests reqs;
    for (const auto& nb : plan.recv) {
        comm.irecv(halo.data() + nb.offset, nb.count, Datatype::f64, nb.rank, 7310, reqs);
    }
    for (const auto& nb : plan.send) {
        comm.isend(send.data() + nb.offset, nb.count, Datatype::f64, nb.rank, 7310, reqs);
    }
    comm.wait_all(reqs);
    // y = A_local x_own + A_nonlocal halo, x_own read as x_of(first + local column)
    std::vector<double> y(2, 0.0);
    for (std::size_t i = 0; i < 2; ++i) {
        for (auto k = m.local.row_ptrs[i]; k < m.local.row_ptrs[i + 1]; ++k) {
            const auto kz = static_cast<std::size_t>(k);
            y[i] += m.local.values[kz] * x_of(first(r) + m.local.col_idxs[kz]);
        }
        for (auto k = m.nonlocal.row_ptrs[i]; k < m.nonlocal.row_ptrs[i + 1]; ++k) {
            const auto kz = static_cast<std::size_t>(k);
            y[i] += m.nonlocal.values[kz] * halo[static_cast<std::size_t>(m.nonlocal.col_idxs[kz])];
        }
    }

    INFO("rank " << r << " of " << P << ", n = " << n);
    // halo: 2 entries from every other rank, 3 from the next (its first column too)
    REQUIRE(plan.recv.size() == static_cast<std::size_t>(P - 1));
    std::int64_t offset = 0;
    for (const auto& nb : plan.recv) {
        CHECK(nb.count == (nb.rank == next ? 3 : 2));
        CHECK(nb.offset == offset);
        offset += nb.count;
    }
    CHECK(plan.halo_size() == (P > 1 ? 2 * (P - 1) + 1 : 0));
    // every other rank asks for first_r + 1 and last_r (local 1 and count - 1, about 2e9);
    // the previous rank also for first_r (local 0)
    const auto own = cols.count(r);
    std::int64_t sent = 0;
    for (const auto& nb : plan.send) {
        const auto idx = std::span(plan.send_idx).subspan(static_cast<std::size_t>(nb.offset),
                                                          static_cast<std::size_t>(nb.count));
        const auto want = nb.rank == prev ? std::vector<std::int32_t>{0, 1, static_cast<std::int32_t>(own - 1)}
                                          : std::vector<std::int32_t>{1, static_cast<std::int32_t>(own - 1)};
        CHECK(std::vector<std::int32_t>(idx.begin(), idx.end()) == want);
        sent += nb.count;
    }
    CHECK(sent == plan.send_size());
    CHECK(plan.send.size() == static_cast<std::size_t>(P - 1));
    for (std::size_t i = 0; i < halo.size(); ++i) {
        CHECK(halo[i] == x_of(m.halo_cols[i]));
    }
    // the products in closed form over the rows' definition
    double ya = 0.0;
    for (int s = 0; s < P; ++s) {
        for (global_index c : {first(s) + 1, last(s)}) {
            ya += (1.0 + static_cast<double>(c % 7)) * x_of(c);
        }
    }
    double yb = 2.0 * x_of(first(r));
    if (P > 1) {
        yb += 2.0 * x_of(first(next)) + 2.0 * x_of(last(next));
    }
    CHECK(y[0] == ya);
    CHECK(y[1] == yb);
    if (P >= 3) {  // n = 6e9 + 3 or 8e9 + 3: the last rank's columns lie past 2^32
        CHECK(last(P - 1) > two32);
    }
}

TEST_CASE("A share of x past 2^31 - 1 fails every rank with the first rank's count",
          "[mpi][global]")
{
    const auto& comm = world();
    const int P = comm.size();
    const global_index n = P * global_index{3'000'000'000};  // 3e9 x entries on every rank
    const auto rows = partition_rows(n, P);
    const auto cols = column_partition(rows, n);
    GlobalRows<double> g;
    g.num_rows = g.num_cols = n;

    CHECK_THROWS_WITH(collective(comm, [&] { split(g, rows, cols, comm.rank()); }),
                      Contains("rank 0 of " + std::to_string(P) + " failed") &&
                          Contains("rank 0's share of x") && Contains("(3000000000)"));
}

namespace {

/// Rank r's rows of a 6e9 x 8P matrix over P ranks by rows (rows [first_r, first_{r+1}),
/// columns [8r, 8r + 8)): first_r, first_r + 1, last_r and whichever of 2^31 - 1, 2^31 and 2^32
/// lie between. Row g has one entry in every rank's columns, column 8s + (g + s) % 8, weight
/// 1 + (column % 3).
GlobalRows<double> tall_rows(int P, int r)
{
    const global_index n = 6'000'000'000;
    const global_index first = r * (n / P);
    const global_index end = (r + 1) * (n / P);
    GlobalRows<double> g;
    g.num_rows = n;
    g.num_cols = 8 * P;
    g.rows = {first, first + 1, end - 1};
    for (global_index c : {two31 - 1, two31, two32}) {
        if (c > first + 1 && c < end - 1) g.rows.push_back(c);
    }
    std::sort(g.rows.begin(), g.rows.end());
    for (auto row : g.rows) {
        for (int s = 0; s < P; ++s) {
            const global_index c = 8 * s + (row + s) % 8;
            g.col_idxs.push_back(c);
            g.values.push_back(1.0 + static_cast<double>(c % 3));
        }
        g.row_ptrs.push_back(static_cast<std::int64_t>(g.col_idxs.size()));
    }
    return g;
}

}  // namespace

TEST_CASE("A DistMatrix of 6e9 rows computes the hand product in every mode", "[mpi][global]")
{
    const auto& comm = world();
    const int P = comm.size();
    const int r = comm.rank();
    MessageLimit lim(2);  // halo messages of up to 8 entries go in pieces
    const auto rows = partition_rows(6'000'000'000, P);  // 6e9 / P: whole for P = 1..4
    const auto mine = tall_rows(P, r);
    // x_c = c + 1 on the 8P columns; this rank owns [8r, 8r + 8)
    std::vector<double> x(8);
    for (int i = 0; i < 8; ++i) x[static_cast<std::size_t>(i)] = 8.0 * r + i + 1.0;
    std::vector<double> want;
    for (auto row : mine.rows) {
        double v = 0.0;
        for (int s = 0; s < P; ++s) {
            const global_index c = 8 * s + (row + s) % 8;
            v += (1.0 + static_cast<double>(c % 3)) * static_cast<double>(c + 1);
        }
        want.push_back(v);
    }

    auto m = DistMatrix<double>::from_rows(comm, mine, rows, DistOptions{});

    INFO("rank " << r << " of " << P);
    CHECK(m.col_partition().offsets[static_cast<std::size_t>(r)] == 8 * r);
    CHECK(m.part().row_ids == mine.rows);
    CHECK(m.own_rows() == static_cast<std::int64_t>(mine.rows.size()));
    // halo: in every other rank's columns one per distinct row % 8
    std::set<global_index> residues;
    for (auto row : mine.rows) residues.insert(row % 8);
    CHECK(m.plan().halo_size() == (P - 1) * static_cast<std::int64_t>(residues.size()));
    for (auto mode : all_modes) {
        std::vector<double> y(mine.rows.size(), -1.0);
        m.apply(mode, x, y);
        CHECK(y == want);
    }
}
