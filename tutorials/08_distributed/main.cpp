// Lesson 08: distributed SpMV, the three modes of Kreutzer et al. §III.A.
// The rows of A are spread over MPI ranks (by rows or, as Cevahir et al. §3.3 do, by nonzeros).
// Each rank splits its rows into a LOCAL block (the columns whose x entries it owns) and a
// NON-LOCAL block (the columns it must receive, its "halo"), and an exchange plan, built once,
// says who sends which x entries to whom. y = A x then runs in one of three modes: vector (all
// of the exchange, then the whole SpMV), overlap (non-blocking exchange around the local part)
// and task (a communication thread drives the exchange while the local part runs).
// Run it under mpiexec with 2 ranks; only rank 0 prints.
// The exercise is the send side of the exchange, pack_send_buffer (exercise.hpp), which this
// program calls: solution.cpp holds it, exercise.cpp has it as a TODO.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <span>
#include <string>
#include <vector>

#include <spmv/dist/comm.hpp>
#include <spmv/dist/dist_matrix.hpp>
#include <spmv/dist/exchange_plan.hpp>
#include <spmv/dist/local_matrix.hpp>
#include <spmv/dist/model.hpp>
#include <spmv/dist/partition.hpp>
#include <spmv/dist/partition_stats.hpp>
#include <spmv/dist/timeline.hpp>
#include <spmv/generators.hpp>
#include <spmv/model/gpu_profile.hpp>
#include <spmv/viz/timeline_svg.hpp>

#include "exercise.hpp"
#include "lesson.hpp"

namespace {

using Matrix = spmv::Csr<double, std::int32_t>;
using spmv::dist::Lane;
using spmv::dist::Mode;
using spmv::dist::PartitionKind;

constexpr Mode modes[] = {Mode::vector, Mode::overlap, Mode::task};

/// y = A x over the ranks of `d`, all in this process: pack every rank's send buffer, copy each
/// neighbour's part into the receiver's halo (what MPI does), then y_r = local x_r +
/// non-local halo_r on every rank. Returns y in global order (contiguous partitions).
std::vector<double> exchange_by_hand(const spmv::dist::Distribution<double>& d,
                                     std::span<const double> x,
                                     std::vector<std::vector<double>>* halos = nullptr)
{
    const auto P = static_cast<std::size_t>(d.rows.num_ranks);
    std::vector<std::vector<double>> x_own(P), send(P), halo(P);
    for (std::size_t r = 0; r < P; ++r) {
        const auto first = static_cast<std::size_t>(d.cols.offsets[r]);
        x_own[r].assign(x.begin() + static_cast<std::ptrdiff_t>(first),
                        x.begin() + static_cast<std::ptrdiff_t>(first + d.parts[r].num_own_cols));
        send[r] = pack_send_buffer(d.plans[r], x_own[r]);
        halo[r].assign(static_cast<std::size_t>(d.plans[r].halo_size()), 0.0);
    }
    for (std::size_t s = 0; s < P; ++s) {  // the "network": rank s's message to rank n.rank
        for (const auto& n : d.plans[s].send) {
            const auto& to = d.plans[static_cast<std::size_t>(n.rank)];
            const auto from = std::find_if(to.recv.begin(), to.recv.end(),
                                           [&](const auto& m) { return m.rank == int(s); });
            std::copy_n(send[s].begin() + n.offset, n.count,
                        halo[static_cast<std::size_t>(n.rank)].begin() + from->offset);
        }
    }
    std::vector<double> y;
    for (std::size_t r = 0; r < P; ++r) {
        std::vector<double> y_r(static_cast<std::size_t>(d.parts[r].local.num_rows));
        spmv::dist::spmv_reference(d.parts[r], std::span<const double>(x_own[r]),
                                   std::span<const double>(halo[r]), std::span<double>(y_r));
        y.insert(y.end(), y_r.begin(), y_r.end());
    }
    if (halos != nullptr) *halos = halo;
    return y;
}

std::vector<double> reference(const Matrix& a, std::span<const double> x)
{
    std::vector<double> y(static_cast<std::size_t>(a.num_rows));
    spmv::spmv_reference(a, 1.0, x, 0.0, std::span<double>(y));
    return y;
}

/// "[1 0; 0 4]": a small block, dense.
std::string dense(const Matrix& m)
{
    std::string s = "[";
    for (std::int32_t i = 0; i < m.num_rows; ++i) {
        std::vector<double> row(static_cast<std::size_t>(m.num_cols), 0.0);
        for (auto k = m.row_ptrs[i]; k < m.row_ptrs[i + 1]; ++k) {
            row[static_cast<std::size_t>(m.col_idxs[static_cast<std::size_t>(k)])] =
                m.values[static_cast<std::size_t>(k)];
        }
        for (std::size_t j = 0; j < row.size(); ++j) {
            s += (j == 0 ? "" : " ") + std::to_string(static_cast<int>(row[j]));
        }
        s += i + 1 < m.num_rows ? "; " : "";
    }
    return s + "]";
}

template <typename T>
std::string list(const std::vector<T>& v)
{
    std::string s;
    for (const auto& e : v) s += (s.empty() ? "" : " ") + std::to_string(static_cast<long long>(e));
    return s;
}

/// One rank per row: rows, nonzeros split local / non-local, halo and neighbours.
void print_stats(const spmv::dist::Distribution<double>& d, const spmv::dist::PartitionStats& stats)
{
    std::printf("  rank  rows        nnz  local  non-local  halo  neighbours\n");
    for (const auto& r : stats.ranks) {
        // contiguous partitions: first..last row; metis: how many rows
        const auto first =
            d.rows.contiguous() ? d.rows.offsets[static_cast<std::size_t>(r.rank)] : -1;
        std::printf("  %4d  %-10s %4lld  %5lld  %9lld  %4lld  %10d\n", r.rank,
                    (first < 0 ? std::to_string(r.rows)
                               : std::to_string(first) + ".." + std::to_string(first + r.rows - 1))
                        .c_str(),
                    static_cast<long long>(r.nnz), static_cast<long long>(r.local_nnz),
                    static_cast<long long>(r.nonlocal_nnz), static_cast<long long>(r.halo),
                    r.recv_neighbours);
    }
}

void print_recv(const spmv::dist::ExchangePlan& plan, const spmv::dist::Neighbour& n)
{
    std::printf("  rank %d receives %lld entries from rank %d into halo[%lld..%lld)\n", plan.rank,
                static_cast<long long>(n.count), n.rank, static_cast<long long>(n.offset),
                static_cast<long long>(n.offset + n.count));
}

void print_send(const spmv::dist::ExchangePlan& plan, const spmv::dist::Neighbour& n)
{
    const auto first = plan.send_idx.begin() + n.offset;
    std::printf("  rank %d sends    %lld entries to   rank %d: its x_own[%s]\n", plan.rank,
                static_cast<long long>(n.count), n.rank,
                list(std::vector<std::int32_t>(first, first + n.count)).c_str());
}

/// Every rank's events of one timeline, on the root (the other ranks get theirs back).
spmv::dist::Timeline merge_on_root(const spmv::dist::Comm& comm, const spmv::dist::Timeline& t)
{
    const auto all = comm.allgather(spmv::dist::to_json({t}));
    auto merged = t;
    merged.events.clear();
    for (const auto& s : all) {
        const auto events = spmv::dist::timelines_from_json(s).front().events;
        merged.events.insert(merged.events.end(), events.begin(), events.end());
    }
    return merged;
}

/// The phases one rank recorded on one lane in one product, in the order they ended.
std::string phases(const spmv::dist::Timeline& t, spmv::dist::Lane lane, int iteration)
{
    std::string s;
    for (const auto& e : t.events) {
        if (e.rank == 0 && e.lane == lane && e.iteration == iteration) {
            s += (s.empty() ? "" : " ") + std::string(spmv::dist::to_string(e.phase));
        }
    }
    return s;
}

bool write_text(const char* path, const std::string& text)
{
    std::ofstream f(path);
    return static_cast<bool>(f << text);
}

std::string name(Mode m)
{
    return std::string(spmv::dist::to_string(m));
}

}  // namespace

int main(int argc, char** argv)
{
    spmv::dist::Environment env(&argc, &argv);  // MPI_Init_thread; MPI_Finalize at the end
    const auto comm = spmv::dist::Comm::world();
    const bool root = comm.rank() == 0;  // only the root prints
    tutorial::SelfCheck check;
    if (root) {
        std::printf("spmv::dist on %d rank%s\n", comm.size(), comm.size() == 1 ? "" : "s");
    }

    // Sections 1 and 2 need no MPI: distribute() builds every rank's blocks and plan in this
    // process, for any number of ranks. The root does them alone.
    const auto a = tutorial::read_sample("canonical4.mtx");  // [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9]
    const auto pde = spmv::gen::pde(6);  // 6 x 6 x 6 grid: 216 rows, 1296 nonzeros
    const auto powerlaw = tutorial::read_sample("powerlaw_2k.mtx");  // rows of 1 to 500 entries
    if (root) {
        std::printf("\n1. Partition the rows (in one process: distribute + analyse)\n");
        bool nnz_never_worse = true;
        struct Case {
            const char* name;
            const Matrix& m;
            int ranks;
        };
        for (const auto& [what, m, ranks] : {Case{"canonical 4x4", a, 2}, Case{"pde6", pde, 2},
                                             Case{"powerlaw_2k", powerlaw, 4}}) {
            std::printf("\n%s: %d rows, %lld nonzeros, on %d ranks\n", what, m.num_rows,
                        static_cast<long long>(spmv::nnz(m)), ranks);
            std::vector<spmv::dist::global_index> previous;
            double rows_imbalance = 0.0;
            for (auto kind : {PartitionKind::rows, PartitionKind::nnz}) {
                // [section: partition]
                const auto rows = spmv::dist::make_partition(m, kind, ranks);  // who owns what
                const auto d = spmv::dist::distribute(m, rows);  // every rank's blocks and plan
                const auto stats = spmv::dist::analyse(d);       // rows, nnz, halo per rank
                // [section: end]
                const auto k = std::string(spmv::dist::to_string(kind));
                std::printf("  by %-5s offsets [%s], nnz imbalance %.3f%s\n", (k + ":").c_str(),
                            list(rows.offsets).c_str(), stats.nnz_imbalance,
                            rows.offsets == previous ? ": the same rows" : "");
                if (rows.offsets != previous) print_stats(d, stats);
                previous = rows.offsets;
                if (kind == PartitionKind::rows) rows_imbalance = stats.nnz_imbalance;
                nnz_never_worse = nnz_never_worse && stats.nnz_imbalance <= rows_imbalance;
                std::int64_t nnz = 0, received = 0, sent = 0;
                for (const auto& r : stats.ranks) {
                    nnz += r.local_nnz + r.nonlocal_nnz;
                    received += r.halo;
                    sent += r.sent;
                }
                check.expect(nnz == spmv::nnz(m) && received == sent,
                             std::string(what) + " by " + k +
                                 ": local + non-local = nnz; entries sent = entries received");
                if (m.num_rows != 4 || kind != PartitionKind::rows) continue;
                for (const auto& p : d.parts) {
                    std::printf("  rank %d: local %s  non-local %s  halo = x{%s}\n", p.rank,
                                dense(p.local).c_str(), dense(p.nonlocal).c_str(),
                                list(p.halo_cols).c_str());
                }
                check.expect(dense(d.parts[0].local) == "[1 0; 0 4]" &&
                                 dense(d.parts[0].nonlocal) == "[2 3; 0 0]" &&
                                 dense(d.parts[1].local) == "[6 7; 0 9]" &&
                                 dense(d.parts[1].nonlocal) == "[5 0; 0 8]",
                             "canonical: local and non-local blocks as in local_matrix.hpp");
            }
        }
        check.expect(nnz_never_worse, "by nnz, the nonzeros are never less balanced than by rows");

        std::printf("\n2. The exchange plan (canonical 4x4 by rows)\n");
        // [section: plan]
        const auto d = spmv::dist::distribute(a, spmv::dist::partition_rows(4, 2));
        for (const auto& plan : d.plans) {
            for (const auto& n : plan.recv) {  // n.count entries from n.rank: halo[n.offset ..)
                print_recv(plan, n);
            }
            for (const auto& n : plan.send) {  // x_own[send_idx[n.offset + k]] to n.rank
                print_send(plan, n);
            }
        }
        // [section: end]
        const std::vector<double> x4 = {1, 2, 3, 4};
        std::vector<std::vector<double>> halos;
        const auto y4 = exchange_by_hand(d, x4, &halos);
        std::printf("  by hand, x = (1 2 3 4): rank 0 halo (%s), rank 1 halo (%s)\n",
                    list(halos[0]).c_str(), list(halos[1]).c_str());
        std::printf("  y = local x_own + non-local halo = (%s)\n", list(y4).c_str());
        check.expect(y4 == std::vector<double>{19, 8, 51, 52},
                     "canonical: exchange by hand gives A x = (19 8 51 52)");
        bool all_equal = true;
        std::vector<double> xp(static_cast<std::size_t>(pde.num_cols));
        for (std::size_t i = 0; i < xp.size(); ++i) xp[i] = static_cast<double>(i % 7) - 3.0;
        for (int ranks : {2, 3, 4}) {
            const auto dp = spmv::dist::distribute(pde, spmv::dist::partition_nnz(pde, ranks));
            all_equal = all_equal && exchange_by_hand(dp, xp) == reference(pde, xp);
        }
        check.expect(all_equal, "pde6 on 2, 3 and 4 ranks: exchange by hand gives A x");
    }

    // Section 3: the real thing, under MPI. create() is collective: the root partitions its
    // matrix (the other ranks' copy is not read) and sends every rank its rows.
    // [section: modes]
    const auto grid = spmv::gen::pde(30);  // 27,000 rows, 183,600 nonzeros
    spmv::dist::DistOptions options;
    options.partition = PartitionKind::nnz;  // Cevahir's rule (the default)
    options.format = "csr";                  // both blocks; any registered format works
    auto A = spmv::dist::DistMatrix<double>::create(comm, grid, options);
    std::vector<double> x(static_cast<std::size_t>(grid.num_cols));
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i % 7) - 3.0;
    const auto x_own = spmv::dist::scatter_from_root<double>(comm, A.col_partition(), x);
    std::vector<double> y_own(static_cast<std::size_t>(A.own_rows()));
    std::vector<bool> same;
    for (Mode mode : modes) {
        A.apply(mode, x_own, y_own);  // collective: every rank, the same mode
        const auto y = spmv::dist::gather_to_root<double>(comm, A.row_partition(), y_own);
        same.push_back(root && y == reference(grid, x));  // exact: small integers, no rounding
    }
    // [section: end]
    // Does every rank hold what analyse() computes for it in one process (section 1)?
    const auto predicted = spmv::dist::analyse(spmv::dist::distribute(grid, A.row_partition()))
                               .ranks[static_cast<std::size_t>(comm.rank())];
    const auto info = A.info();
    const bool as_predicted = info.rows == predicted.rows && info.nnz == predicted.nnz &&
                              info.halo == predicted.halo &&
                              info.neighbours == predicted.recv_neighbours;
    const auto mismatches = comm.allreduce_sum(std::int64_t{as_predicted ? 0 : 1});
    const auto lines = comm.allgather(
        "  rank " + std::to_string(info.rank) + ": " + std::to_string(info.rows) + " rows, " +
        std::to_string(info.nnz) + " nnz, halo " + std::to_string(info.halo) + " from " +
        std::to_string(info.neighbours) + " neighbour(s), on the " + info.device);
    if (root) {
        std::printf("\n3. y = A x on %d rank(s): pde30 by nnz, %s blocks, exchange path \"%s\"\n",
                    comm.size(), options.format.c_str(), A.exchange_path().c_str());
        for (const auto& l : lines) std::printf("%s\n", l.c_str());
        for (std::size_t m = 0; m < same.size(); ++m) {
            std::printf("  %-8s same as one process: %s\n", name(modes[m]).c_str(),
                        same[m] ? "yes" : "no");
        }
        check.expect(mismatches == 0,
                     "every rank holds the rows, nonzeros and halo that analyse() predicted");
        check.expect(std::all_of(same.begin(), same.end(), [](bool s) { return s; }),
                     "vector, overlap and task mode give the one-process y = A x");
    }

    // Section 4: timelines. Every rank records its own events; the root merges them.
    // [section: timelines]
    std::vector<spmv::dist::Timeline> timelines;
    for (Mode mode : modes) {
        spmv::dist::Timeline t;
        t.mode = mode;
        t.num_ranks = comm.size();
        t.matrix = "pde30";
        t.format = options.format;
        t.partition = "nnz";
        t.device = "host";
        t.precision = "double";
        A.start_clock();  // a barrier, then time 0 on every rank
        for (int it = 0; it < 5; ++it) {
            A.apply(mode, x_own, y_own, &t, it);  // appends this rank's events, iteration it
        }
        timelines.push_back(merge_on_root(comm, t));
    }
    // [section: end]
    const bool halo = A.exchange_path() != "none";
    if (root) {
        const bool written = write_text("08_timelines.json", spmv::dist::to_json(timelines)) &&
                             write_text("08_timelines.svg", spmv::viz::timeline_svg(timelines));
        std::printf("\n4. Timelines of 5 products per mode: 08_timelines.json, 08_timelines.svg\n");
        std::printf("   (in the current directory). Rank 0's phases in one product, per lane:\n");
        for (const auto& t : timelines) {
            const auto on_comm = phases(t, Lane::comm, 4);
            std::printf("  %-8s compute: %s%s\n", name(t.mode).c_str(),
                        phases(t, Lane::compute, 4).c_str(),
                        on_comm.empty() ? "" : ("\n           comm:    " + on_comm).c_str());
        }
        // [section: overlap]
        const double hidden_vector = spmv::dist::overlapped_fraction(timelines[0]);
        const double hidden_overlap = spmv::dist::overlapped_fraction(timelines[1]);
        const double hidden_task = spmv::dist::overlapped_fraction(timelines[2]);
        // [section: end]
        if (halo) {
            std::printf(
                "  vector, overlap: one lane, the exchange cannot hide: %.0f %% and %.0f %%"
                " hidden\n",
                100 * hidden_vector, 100 * hidden_overlap);
            std::printf(
                "  task: the exchange runs on the comm lane beside the local SpMV; how"
                " much of it hides\n        depends on the timing (the SVG's panel"
                " titles say)\n");
        } else {
            std::printf("  one rank: no halo, every mode is the local SpMV alone\n");
        }
        bool comm_lane = false;
        for (const auto& e : timelines[2].events) comm_lane = comm_lane || e.lane == Lane::comm;
        check.expect(written, "wrote 08_timelines.json and 08_timelines.svg");
        check.expect(hidden_vector == 0.0 && hidden_overlap == 0.0,
                     "vector and overlap mode hide nothing (one lane, one thread)");
        check.expect(comm_lane == halo && hidden_task >= 0.0 && hidden_task <= 1.0,
                     "task mode has comm-lane events exactly when there is a halo");
    }

    // Section 5: the model (spmv/dist/model.hpp), one GPU per rank, for a bigger problem.
    if (root) {
        std::printf("\n5. The model: pde100 (10^6 rows) by nnz, H100 per rank, InfiniBand HDR\n");
        std::printf(
            "     P  rows/rank  T_local  T_comm   vector    naive     task   task/vector\n");
        bool ordered = true, formulas = true;
        std::vector<double> ratios;  // task / vector
        // [section: model]
        const auto big = spmv::gen::pde(100);
        const auto& h100 = spmv::model::find_profile("H100");
        const auto& link = spmv::dist::find_link("ib-hdr");  // 25 GB/s, 1.5 us per message
        for (int p : {2, 8, 64, 512}) {
            const auto stats = spmv::dist::partition_stats(big, spmv::dist::partition_nnz(big, p));
            const auto pred = spmv::dist::predict_distributed(stats, h100, link);
            // [section: end]
            const auto& slow =
                pred.ranks[static_cast<std::size_t>(pred.slowest_rank(Mode::vector))];
            std::printf("  %4d  %9lld  %6.1f   %6.1f   %6.1f   %6.1f   %6.1f   %.2f\n", p,
                        static_cast<long long>(big.num_rows / p), slow.local_s * 1e6,
                        slow.comm_s * 1e6, pred.time_s.vector * 1e6, pred.time_s.naive * 1e6,
                        pred.time_s.task * 1e6, pred.time_s.task / pred.time_s.vector);
            ordered = ordered && pred.time_s.task <= pred.time_s.vector &&
                      pred.time_s.vector <= pred.time_s.naive;
            for (const auto& r : pred.ranks) {
                formulas = formulas && r.time_s.vector == r.comm_s + r.merged_s &&
                           r.time_s.task == std::max(r.local_s, r.comm_s) + r.nonlocal_s &&
                           r.time_s.naive == r.comm_s + r.local_s + r.nonlocal_s;
            }
            ratios.push_back(pred.time_s.task / pred.time_s.vector);
        }
        std::printf(
            "  (us per SpMV; T_local, T_comm: the slowest rank's.) Task hides about"
            " min(T_local, T_comm);\n  as P grows T_local shrinks like 1/P, T_comm"
            " far less (surfaces, latencies): task -> vector.\n");
        check.expect(ordered, "P = 2 .. 512: task <= vector <= naive");
        check.expect(formulas,
                     "every rank: vector = T_comm + T_merged, task = max(T_local, T_comm)"
                     " + T_nonlocal");
        check.expect(ratios.back() > 0.95 && ratios.back() > ratios[1],
                     "at P = 512 task and vector converge (task / vector > 0.95)");
    }
    return root ? check.finish() : 0;
}
