// spmvlab dist plan: partition statistics and the model's prediction for N ranks, its strong
// (and, with --weak, weak) scaling and predicted timelines (Kreutzer et al. 2012 §III,
// Fig. 4/5). One process, no MPI.
#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <spmv/dist/model.hpp>
#include <spmv/dist/partition_stats.hpp>
#include <spmv/model/format_model.hpp>
#include <spmv/model/gpu_profile.hpp>
#include <spmv/viz/timeline_svg.hpp>

#include "common.hpp"
#include "dist_cli.hpp"
#include "meta.hpp"

namespace spmvlab::dist_cli {

using namespace spmv::dist;

int run_plan(const DistCli& o)
{
    const auto params = apply_format_params(o.params);  // bad values are refused
    const auto link = parse_link("--link", o.link);  // a bad link is refused before the load
    const auto a = load_matrix(o.input);
    const auto kind = parse_partition_kind(o.partition);
    const auto part = make_partition(a, kind, o.ranks);
    const int vb = o.precision == "float" ? 4 : 8;
    auto stats = partition_stats(a, part, vb);
    const RankDevice dev = o.gpu ? RankDevice{spmv::model::find_profile(o.device)}
                                 : RankDevice{find_host(o.device == "H100" ? "cpu-core" : o.device)};
    ModelOptions mo;
    mo.precision = vb == 4 ? spmv::model::Precision::single_precision
                           : spmv::model::Precision::double_precision;
    mo.alpha = parse_alpha(o.alpha);
    // GPU ranks that copy device to device (CUDA IPC, CUDA-aware MPI, NCCL) stage nothing
    // through the host; host-staged and auto keep the two PCIe copies
    mo.stage_through_host =
        !(o.exchange == "cuda-ipc" || o.exchange == "cuda-aware" || o.exchange == "nccl");
    mo.variant = model_variant(o);
    mo.params = params;
    mo.merged_block = !o.split_blocks;
    mo.fixed_costs = fixed_costs_for(o.fixed_costs, o.exchange, o.gpu);
    if (!mo.variant.empty()) {
        add_kernel_shapes(stats, a, part, mo.variant, mo.params, mo.merged_block);
    }
    const auto pred = predict_distributed(stats, dev, link, mo);
    ModelOptions paper = mo;  // Kreutzer's eq. 2 beside it, whatever the format
    paper.variant.clear();
    paper.fixed_costs.reset();  // the paper's terms only
    const auto kreutzer = predict_distributed(stats, dev, link, paper);

    std::printf("%s: %d x %d, %lld nonzeros; %s partition over %d ranks (MODEL, no run)\n",
                input_name(o.input).c_str(), a.num_rows, a.num_cols,
                static_cast<long long>(stats.nnz), o.partition.c_str(), o.ranks);
    Table t({"rank", "rows", "nnz", "local", "non-local", "halo", "sent", "neighbours",
             "recv bytes", "vector us", "naive us", "overlap us", "task us"});
    for (std::size_t r = 0; r < stats.ranks.size(); ++r) {
        const auto& s = stats.ranks[r];
        const auto& p = pred.ranks[r];
        t.add({std::to_string(r), std::to_string(s.rows), std::to_string(s.nnz),
               std::to_string(s.local_nnz), std::to_string(s.nonlocal_nnz), std::to_string(s.halo),
               std::to_string(s.sent), std::to_string(std::max(s.recv_neighbours, s.send_neighbours)),
               fmt_bytes(s.bytes_received), fmt(p.time_s.vector * 1e6, 2),
               fmt(p.time_s.naive * 1e6, 2), fmt(p.time_s.overlap * 1e6, 2),
               fmt(p.time_s.task * 1e6, 2)});
    }
    std::printf("%s", t.str().c_str());
    std::printf("imbalance: rows %.3f, nnz %.3f; halo total %lld entries; max neighbours %d\n",
                stats.row_imbalance, stats.nnz_imbalance,
                static_cast<long long>(stats.total_halo), stats.max_neighbours);
    std::printf("predicted SpMV on %s ranks over %s%s: vector %.2f us, naive %.2f us, overlap "
                "%.2f us, task %.2f us\n  kernels: %s\n",
                pred.device.c_str(), pred.link.c_str(),
                mo.stage_through_host ? "" : " (no host staging)", pred.time_s.vector * 1e6,
                pred.time_s.naive * 1e6, pred.time_s.overlap * 1e6, pred.time_s.task * 1e6,
                pred.kernel_model.c_str());
    std::printf("  fixed costs: %s\n", pred.fixed_costs.c_str());
    if (mo.fixed_costs) {
        std::printf("  of which fixed costs: vector %.2f us, naive %.2f us, overlap %.2f us, "
                    "task %.2f us (slowest rank; --fixed-costs off drops them)\n",
                    pred.fixed_time(Mode::vector) * 1e6, pred.fixed_time(Mode::naive) * 1e6,
                    pred.fixed_time(Mode::overlap) * 1e6, pred.fixed_time(Mode::task) * 1e6);
    }
    if (!mo.variant.empty()) {
        std::printf("Kreutzer eq. 2 (the paper's, format-agnostic): vector %.2f us, naive %.2f us, "
                    "overlap %.2f us, task %.2f us\n",
                    kreutzer.time_s.vector * 1e6, kreutzer.time_s.naive * 1e6,
                    kreutzer.time_s.overlap * 1e6, kreutzer.time_s.task * 1e6);
    }

    nlohmann::json j = {{"meta", make_meta("dist plan", {o.input})},
                        {"matrix", input_name(o.input)}, {"ranks", o.ranks},
                        {"partition", o.partition},      {"precision", precision_name(o.precision)},
                        {"model", true},                 {"device_profile", pred.device},
                        {"link", pred.link},             {"format", o.format},
                        {"variant", mo.variant},         {"kernel_model", pred.kernel_model},
                        {"stage_through_host", mo.stage_through_host},
                        {"fixed_costs", pred.fixed_costs}};
    j["predicted_fixed_us"] = {{"vector", pred.fixed_time(Mode::vector) * 1e6},
                               {"naive", pred.fixed_time(Mode::naive) * 1e6},
                               {"overlap", pred.fixed_time(Mode::overlap) * 1e6},
                               {"task", pred.fixed_time(Mode::task) * 1e6}};
    j["predicted_us"] = {{"vector", pred.time_s.vector * 1e6},
                         {"naive", pred.time_s.naive * 1e6},
                         {"overlap", pred.time_s.overlap * 1e6},
                         {"task", pred.time_s.task * 1e6}};
    j["predicted_kreutzer_us"] = {{"vector", kreutzer.time_s.vector * 1e6},
                                  {"naive", kreutzer.time_s.naive * 1e6},
                                  {"overlap", kreutzer.time_s.overlap * 1e6},
                                  {"task", kreutzer.time_s.task * 1e6}};
    j["imbalance"] = {{"rows", stats.row_imbalance}, {"nnz", stats.nnz_imbalance}};
    j["comm"] = stats.comm;
    for (std::size_t r = 0; r < stats.ranks.size(); ++r) {
        const auto& s = stats.ranks[r];
        const auto& p = pred.ranks[r];
        j["per_rank"].push_back({{"rank", r},
                                 {"rows", s.rows},
                                 {"nnz", s.nnz},
                                 {"local_nnz", s.local_nnz},
                                 {"nonlocal_nnz", s.nonlocal_nnz},
                                 {"halo", s.halo},
                                 {"sent", s.sent},
                                 {"bytes_received", s.bytes_received},
                                 {"bytes_sent", s.bytes_sent},
                                 {"phases_us",
                                  {{"local", p.local_s * 1e6},
                                   {"nonlocal", p.nonlocal_s * 1e6},
                                   {"merged", p.merged_s * 1e6},
                                   {"comm", p.comm_s * 1e6},
                                   {"fixed_exchange", p.fixed_exchange_s * 1e6},
                                   {"sync", p.sync_s * 1e6},
                                   {"handoff", p.handoff_s * 1e6},
                                   {"first_pass", p.first_pass_s * 1e6}}},
                                 {"predicted_us",
                                  {{"vector", p.time_s.vector * 1e6},
                                   {"naive", p.time_s.naive * 1e6},
                                   {"overlap", p.time_s.overlap * 1e6},
                                   {"task", p.time_s.task * 1e6}}}});
    }
    if (!o.scaling.empty() && o.scaling != "none") {
        const auto sc = predict_scaling(a, kind, int_list(o.scaling), dev, link, mo);
        Table st({"ranks", "halo", "nnz imbalance", "vector us", "task us", "task speedup",
                  "task efficiency"});
        for (const auto& p : sc.points) {
            st.add({std::to_string(p.num_ranks), std::to_string(p.total_halo),
                    fmt(p.nnz_imbalance, 3), fmt(p.prediction.time_s.vector * 1e6, 2),
                    fmt(p.prediction.time_s.task * 1e6, 2), fmt(p.speedup.task, 2),
                    fmt(p.efficiency.task, 3)});
        }
        j["scaling"] = scaling_json(sc);
        std::printf("predicted strong scaling (MODEL):\n%s", st.str().c_str());
    }
    if (o.weak_k > 0) {
        const auto ws = predict_weak_scaling(o.weak_k, kind, int_list(o.scaling), dev, link, mo);
        Table wt({"ranks", "rows", "halo", "vector us", "task us", "task efficiency"});
        for (const auto& p : ws.points) {
            wt.add({std::to_string(p.num_ranks), std::to_string(p.num_rows),
                    std::to_string(p.total_halo), fmt(p.prediction.time_s.vector * 1e6, 2),
                    fmt(p.prediction.time_s.task * 1e6, 2), fmt(p.efficiency.task, 3)});
            j["weak_scaling"].push_back({{"ranks", p.num_ranks},
                                         {"rows", p.num_rows},
                                         {"vector_us", p.prediction.time_s.vector * 1e6},
                                         {"naive_us", p.prediction.time_s.naive * 1e6},
                                         {"overlap_us", p.prediction.time_s.overlap * 1e6},
                                         {"task_us", p.prediction.time_s.task * 1e6},
                                         {"efficiency_task", p.efficiency.task}});
        }
        std::printf("predicted weak scaling, pde with about %d^3 rows per rank (MODEL):\n%s",
                    o.weak_k, wt.str().c_str());
    }
    if (!o.timeline.empty()) {
        std::vector<Timeline> tls;
        for (auto m : all_modes) {
            auto tl = predicted_timeline(pred, m);
            tl.matrix = input_name(o.input);
            tl.partition = o.partition;
            tl.precision = o.precision;
            tl.date = utc_now();
            tl.commit = git_commit();
            tls.push_back(std::move(tl));
        }
        write_file(o.timeline + ".json", to_json(tls));
        write_file(o.timeline + ".svg", spmv::viz::timeline_svg(tls));
        std::printf("predicted timelines: %s.json, %s.svg\n", o.timeline.c_str(), o.timeline.c_str());
    }
    if (!o.json_out.empty()) {
        write_json(o.json_out, j);
    }
    return 0;
}
}  // namespace spmvlab::dist_cli
