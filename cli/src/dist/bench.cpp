// spmvlab dist bench: the distributed SpMV timed in each mode (wall clock per product, the
// slowest rank), the exchange hidden in a recorded timeline, the single-process baseline on
// the root's GPU and the model's prediction beside each mode. Runs under mpiexec, or as one
// rank without it. The input is loaded per rank where it can be (run_bench says what that
// leaves out).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <spmv/dist/comm.hpp>
#include <spmv/dist/dist_matrix.hpp>
#include <spmv/dist/model.hpp>
#include <spmv/dist/partition_stats.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/gpu/device_matrix.hpp>
#include <spmv/gpu/memory.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/model/gpu_profile.hpp>

#include "common.hpp"
#include "dist_cli.hpp"
#include "meta.hpp"

namespace spmvlab::dist_cli {

using namespace spmv::dist;
using Clock = std::chrono::steady_clock;

namespace {

/// The partition statistics the model takes (what analyse() counts from the whole matrix),
/// from every rank's own blocks and exchange plan, on every rank: for input read per rank,
/// where no rank holds the matrix. Collective.
template <typename V>
PartitionStats gathered_stats(const Comm& comm, const DistMatrix<V>& m)
{
    const int P = comm.size();
    const auto& part = m.part();
    const auto& plan = m.plan();
    std::vector<std::int64_t> mine(10 + static_cast<std::size_t>(P), 0);
    mine[0] = local_rows(part);
    mine[1] = part.num_own_cols;
    mine[2] = local_nnz(part);
    mine[3] = nonlocal_nnz(part);
    for (const auto& c : chunk_views(part)) {  // the rank's rows, in one chunk or several
        const auto& l = *c.local;
        const auto& n = *c.nonlocal;
        for (std::int32_t i = 0; i < n.num_rows; ++i) {
            if (n.row_ptrs[i + 1] > n.row_ptrs[i]) {
                ++mine[4];
                mine[5] += l.row_ptrs[i + 1] - l.row_ptrs[i];
            }
        }
    }
    mine[6] = plan.halo_size();
    mine[7] = plan.send_size();
    mine[8] = static_cast<std::int64_t>(plan.recv.size());
    mine[9] = static_cast<std::int64_t>(plan.send.size());
    for (const auto& n : plan.send) {
        mine[10 + static_cast<std::size_t>(n.rank)] = n.count;
    }
    const auto all = comm.allgather(std::string(reinterpret_cast<const char*>(mine.data()),
                                                mine.size() * sizeof(std::int64_t)));
    PartitionStats s;
    s.kind = m.row_partition().kind;
    s.num_ranks = P;
    s.num_rows = m.row_partition().size;
    s.num_cols = m.col_partition().size;
    s.value_bytes = static_cast<int>(sizeof(V));
    s.comm.assign(static_cast<std::size_t>(P) * static_cast<std::size_t>(P), 0);
    for (int r = 0; r < P; ++r) {
        std::vector<std::int64_t> v(mine.size());
        std::memcpy(v.data(), all[static_cast<std::size_t>(r)].data(),
                    v.size() * sizeof(std::int64_t));
        RankStats rs;
        rs.rank = r;
        rs.rows = v[0];
        rs.own_cols = v[1];
        rs.local_nnz = v[2];
        rs.nonlocal_nnz = v[3];
        rs.nnz = v[2] + v[3];
        rs.nonlocal_rows = v[4];
        rs.boundary_local_nnz = v[5];
        rs.halo = v[6];
        rs.sent = v[7];
        rs.recv_neighbours = static_cast<int>(v[8]);
        rs.send_neighbours = static_cast<int>(v[9]);
        rs.bytes_received = static_cast<double>(rs.halo) * s.value_bytes;
        rs.bytes_sent = static_cast<double>(rs.sent) * s.value_bytes;
        for (int d = 0; d < P; ++d) {
            s.comm[static_cast<std::size_t>(r) * static_cast<std::size_t>(P) +
                   static_cast<std::size_t>(d)] = v[10 + static_cast<std::size_t>(d)];
        }
        s.ranks.push_back(rs);
    }
    finish_totals(s);
    return s;
}

}  // namespace

template <typename V>
int run_bench(const Comm& comm, const DistCli& options)
{
    // Input loaded per rank (no rank holds the matrix): no single-process baseline, the model
    // from the ranks' gathered statistics with Kreutzer's eq. 2 only and no predicted scaling
    // (those need the whole matrix; --load root keeps them).
    const bool per_rank = root_reason(options).empty();
    spmv::Csr<double, std::int32_t> a;  // the root path: the whole matrix on the root
    RankRows in;
    DistCli o = options;
    SetupClock clock(comm);
    if (per_rank) {
        in = load_per_rank(comm, options);
        clock.input_done();
    } else {
        print_root_reason(comm, options);
        a = load_on_root(comm, options.input);
        clock.input_done();
        // ranked per SpMV: the timed products come after the setup, which is not timed
        o = resolve_auto(comm, options, a, advisor_precision(options), 0);
    }
    // Single-process baseline on the root's device (the same format, kernel and timing: warm,
    // back to back, each product synchronised), before the distributed run.
    double base_us = 0.0;
    std::string base_device;
    if (o.gpu && per_rank && comm.rank() == 0) {
        std::printf("no single-process baseline: %s was loaded per rank and no rank holds the "
                    "whole matrix (--load root measures it)\n",
                    input_name(o.input).c_str());
    }
    if (o.gpu && !per_rank) {
        collective(comm, [&] {
            if (comm.rank() == 0 && spmv::gpu::is_available()) {
                spmv::gpu::set_device(comm.node_rank() % spmv::gpu::device_count());
                const auto av = spmv::convert_values<V>(a);
                auto host = spmv::build<V>(o.format, av, apply_format_params(o.params));
                auto dm = o.variant.empty() ? spmv::gpu::assemble(host)
                                            : spmv::gpu::assemble(spmv::gpu::find_variant(o.variant), host);
                spmv::gpu::DeviceBuffer<V> x(static_cast<std::size_t>(a.num_cols));
                spmv::gpu::DeviceBuffer<V> y(static_cast<std::size_t>(a.num_rows));
                x.fill(V{1});
                spmv::gpu::Stream s;
                std::vector<double> ts;
                for (int i = 0; i < o.repeat + 10; ++i) {
                    const auto t0 = Clock::now();
                    dm.spmv(V{1}, x.data(), V{0}, y.data(), spmv::RowOrder::original, s);
                    s.synchronize();
                    if (i >= 10) {
                        ts.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
                    }
                }
                base_us = median(ts);
                base_device = spmv::gpu::device_info().name;
            }
        });
    }
    clock.build_begin();  // after the single-process baseline
    auto m = per_rank ? build_from_rows<V>(comm, o, std::move(in.rows), in.partition)
                      : distribute_input<V>(comm, o, a);
    clock.build_done();
    const auto setup = clock.report(comm);
    const auto devices = rank_devices(comm, m.info().device);
    nlohmann::json j = record_head(o, comm, "dist bench");
    j["devices"] = devices;
    j["row_chunks"] = static_cast<int>(comm.allreduce_max(static_cast<double>(m.info().chunks)));
    j["setup"] = setup;
    j["exchange_path"] = m.exchange_path();
    if (!m.exchange_note().empty()) {
        j["exchange_note"] = m.exchange_note();
    }
    j["task_poll_us"] = m.task_poll_interval_us();
    j["repeat"] = o.repeat;
    j["timing"] = "wall clock per SpMV (after a barrier), back to back, each product complete "
                  "on every rank before the next; median over repeats of the slowest rank";
    std::vector<Timeline> tls;
    // ghosted x on the device (GPU ranks) or the host
    spmv::gpu::DeviceBuffer<V> dx, dy;
    std::vector<V> hx, hy;
    if (o.gpu) {
        dx = spmv::gpu::DeviceBuffer<V>(static_cast<std::size_t>(m.ghosted_size()));
        dy = spmv::gpu::DeviceBuffer<V>(static_cast<std::size_t>(m.own_rows()));
        dx.fill(V{1});
    } else {
        hx.assign(static_cast<std::size_t>(m.ghosted_size()), V{1});
        hy.assign(static_cast<std::size_t>(m.own_rows()), V{0});
    }
    auto apply = [&](Mode mode, Timeline* tl, int it) {
        if (o.gpu) {
            m.apply_device_ghosted(mode, dx.data(), dy.data(), tl, it);
        } else {
            m.apply_ghosted(mode, hx, hy, tl, it);
        }
    };
    const auto total_nnz = comm.allreduce_sum(static_cast<std::int64_t>(m.info().nnz));
    // The model's prediction for this very partition, printed next to each measured mode (the
    // root holds the matrix, or the ranks' statistics gathered; labelled MODEL with the
    // profiles it assumed).
    std::optional<DistPrediction> pred;
    std::optional<DistPrediction> kreutzer;  // the paper's eq. 2, format-agnostic
    std::optional<PartitionStats> gathered;
    if (per_rank && o.bench_link != "none") {
        gathered = gathered_stats(comm, m);
    }
    collective(comm, [&] {
        if (comm.rank() == 0 && o.bench_link != "none") {
            bool assumed = false;
            const auto& profile =
                spmv::model::resolve_profile(o.bench_device, m.info().device, &assumed);
            if (o.gpu && assumed) {
                std::printf("model: no GPU profile for '%s': H100's assumed (--device NAME "
                            "picks one)\n",
                            m.info().device.c_str());
            }
            const RankDevice dev = o.gpu ? RankDevice{profile} : RankDevice{find_host("cpu-core")};
            ModelOptions mo;
            mo.precision = std::is_same_v<V, float> ? spmv::model::Precision::single_precision
                                                    : spmv::model::Precision::double_precision;
            mo.alpha = parse_alpha(o.alpha);
            const auto [link, staged] = link_for_path(o.bench_link, m.exchange_path());
            mo.stage_through_host = staged;
            // the kernels priced by the per-format model of the variant the ranks run (the
            // advisor's), Kreutzer's eq. 2 beside it
            mo.variant = model_variant(o);
            mo.params = apply_format_params(o.params);
            mo.merged_block = !o.split_blocks;
            mo.fixed_costs = fixed_costs_for(o.fixed_costs, m.exchange_path(), o.gpu);
            if (per_rank && !mo.variant.empty()) {
                std::printf("model: Kreutzer's eq. 2 for the kernels, not the per-format model "
                            "of %s (its kernel shapes need the whole matrix, which was loaded "
                            "per rank; --load root gives them)\n",
                            mo.variant.c_str());
                mo.variant.clear();
            }
            auto stats = per_rank ? *gathered
                                  : partition_stats(a, m.row_partition(),
                                                    static_cast<int>(sizeof(V)));
            if (!mo.variant.empty()) {
                add_kernel_shapes(stats, a, m.row_partition(), mo.variant, mo.params,
                                  mo.merged_block);
            }
            pred = predict_distributed(stats, dev, link, mo);
            auto paper = mo;
            paper.variant.clear();
            paper.fixed_costs.reset();  // the paper's terms only
            kreutzer = predict_distributed(stats, dev, link, paper);
            j["model"] = {{"device_profile", pred->device}, {"link", pred->link},
                          {"alpha", o.alpha},           {"stage_through_host", staged},
                          {"variant", mo.variant},      {"kernel_model", pred->kernel_model},
                          {"fixed_costs", pred->fixed_costs}};
            j["partition_stats"] = {{"total_halo", stats.total_halo},
                                    {"max_neighbours", stats.max_neighbours},
                                    {"row_imbalance", stats.row_imbalance},
                                    {"nnz_imbalance", stats.nnz_imbalance}};
            if (per_rank && !o.bench_scaling.empty() && o.bench_scaling != "none") {
                std::printf("model: no predicted scaling (--scaling %s): it partitions the whole "
                            "matrix, which was loaded per rank (--load root, or spmvlab dist "
                            "plan, gives it)\n",
                            o.bench_scaling.c_str());
            } else if (!o.bench_scaling.empty() && o.bench_scaling != "none") {
                // the model's curve for this matrix, partition kind and precision, which
                // `spmvlab dist chart` draws through the measured points
                j["predicted_scaling"] =
                    scaling_json(predict_scaling(a, parse_partition_kind(o.partition),
                                                 int_list(o.bench_scaling), dev, link, mo));
            }
        }
    });
    if (comm.rank() == 0) {
        std::printf("%s: %lld rows, %lld nonzeros on %d rank(s) (%s), %s partition, format %s, "
                    "%s, exchange %s, task mode %s\n",
                    input_name(o.input).c_str(), static_cast<long long>(m.part().global_rows),
                    static_cast<long long>(total_nnz), comm.size(), devices.c_str(),
                    o.partition.c_str(), o.format.c_str(), o.precision.c_str(),
                    m.exchange_path().c_str(),
                    m.task_poll_interval_us() > 0
                        ? ("polls every " + std::to_string(m.task_poll_interval_us()) + " us").c_str()
                        : "waits in MPI_Waitall");
        if (!m.exchange_note().empty()) {
            std::printf("  (%s)\n", m.exchange_note().c_str());
        }
    }
    for (auto mode : o.modes) {
        for (int i = 0; i < 10; ++i) {  // warm-up
            apply(mode, nullptr, i);
        }
        std::vector<double> ts;
        for (int i = 0; i < o.repeat; ++i) {
            comm.barrier();
            const auto t0 = Clock::now();
            apply(mode, nullptr, i);
            ts.push_back(comm.allreduce_max(
                std::chrono::duration<double, std::micro>(Clock::now() - t0).count()));
        }
        const double med = median(ts);
        // three more products recorded into a timeline: the share of the exchange hidden
        // behind computation in the last of them
        double hidden = 0.0;
        {
            Timeline t;
            t.mode = mode;
            t.num_ranks = comm.size();
            t.matrix = input_name(o.input);
            t.format = o.format;
            t.partition = o.partition;
            t.device = devices;
            t.precision = o.precision;
            t.date = utc_now();
            t.commit = git_commit();
            m.start_clock();
            for (int it = 0; it < 3; ++it) {
                comm.barrier();
                apply(mode, &t, it);
            }
            // overlapped fraction over every rank's events of the last recorded product
            tls.push_back(merged_timeline(comm, t));
            hidden = overlapped_fraction(tls.back(), -1, 2);
        }
        if (comm.rank() == 0) {
            const double gflops = 2.0 * static_cast<double>(total_nnz) / (med * 1e3);
            std::printf("%-8s median %9.2f us  min %9.2f us  %7.2f GF/s  exchange hidden %5.1f %%",
                        std::string(to_string(mode)).c_str(), med,
                        *std::min_element(ts.begin(), ts.end()), gflops, 100.0 * hidden);
            if (base_us > 0.0) {
                std::printf("  vs single process %.2f us (%+.1f %%)", base_us,
                            100.0 * (med / base_us - 1.0));
            }
            if (pred) {
                std::printf("  model %.2f us", pred->time_s[mode] * 1e6);
                if (!pred->options.variant.empty()) {
                    std::printf(" (Kreutzer eq. 2 %.2f us)", kreutzer->time_s[mode] * 1e6);
                }
            }
            std::printf("\n");
            nlohmann::json r = {{"mode", to_string(mode)},
                                {"median_us", med},
                                {"min_us", *std::min_element(ts.begin(), ts.end())},
                                {"gflops", gflops},
                                {"overlapped_fraction", hidden}};
            if (pred) {
                r["predicted_us"] = pred->time_s[mode] * 1e6;
                r["predicted_kreutzer_us"] = kreutzer->time_s[mode] * 1e6;
                r["predicted_fixed_us"] = pred->fixed_time(mode) * 1e6;
            }
            if (base_us > 0.0) {
                r["single_process_us"] = base_us;
                r["single_process_device"] = base_device;
                r["overhead"] = med / base_us - 1.0;
            }
            j["modes"].push_back(r);
        }
    }
    if (comm.rank() == 0 && pred) {
        std::printf("model: %s ranks over %s, kernels by the %s, fixed costs %s (MODEL, "
                    "profiles assumed: spmvlab dist plan shows them; --link none drops it, "
                    "--fixed-costs off the fixed costs)\n",
                    pred->device.c_str(), pred->link.c_str(), pred->kernel_model.c_str(),
                    pred->fixed_costs.c_str());
    }
    if (!o.timeline.empty()) {
        write_timelines(comm, tls, o.timeline);
    }
    collective(comm, [&] {
        if (comm.rank() == 0 && !o.json_out.empty()) {
            write_json(o.json_out, j);
        }
    });
    return 0;
}
template int run_bench<float>(const Comm& comm, const DistCli& options);
template int run_bench<double>(const Comm& comm, const DistCli& options);

}  // namespace spmvlab::dist_cli
