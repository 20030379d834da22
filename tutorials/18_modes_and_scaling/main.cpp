// Lesson 18: Kreutzer et al. 2012 §III on today's GPUs. The four modes of spmv::dist::Mode and
// their measured timelines (Kreutzer Fig. 4), their times on two H200s, strong scaling against
// the model's band (Kreutzer Fig. 5) and multi-GPU CG (Cevahir Fig. 5). Everything is read from
// COMMITTED records under docs/benchmarks/ (2 x H200, 2 x H100, 4 x H200), so the lesson needs no
// GPU and prints the same on every machine; a missing or malformed record ends it with FAIL.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include <spmv/dist/timeline.hpp>
#include <spmv/model/gpu_profile.hpp>

#include "dist_records.hpp"
#include "lesson.hpp"

namespace {

using Json = nlohmann::json;
using spmv::dist::Lane;
using spmv::dist::Mode;
using spmv::dist::Phase;
using spmv::dist::Timeline;
using spmv::dist::TimelineEvent;
using tutorial::median_us;
using tutorial::mode_entry;

/// The events of one rank in one product (iteration) of a timeline, and where that product starts.
std::vector<TimelineEvent> product(const Timeline& t, int rank, int iteration, double* t0)
{
    std::vector<TimelineEvent> out;
    *t0 = INFINITY;
    for (const auto& e : t.events)
        if (e.rank == rank && e.iteration == iteration) {
            out.push_back(e);
            *t0 = std::min(*t0, e.begin_us);
        }
    if (out.empty())
        throw std::runtime_error("timeline without rank " + std::to_string(rank) + " product " +
                                 std::to_string(iteration));
    return out;
}
const Timeline& of_mode(const std::vector<Timeline>& timelines, Mode mode)
{
    for (const auto& t : timelines)
        if (t.mode == mode) return t;
    throw std::runtime_error("no timeline of mode " + std::string(to_string(mode)));
}
/// Microseconds during which events of (lane a, phase pa) overlap events of (lane b, phase pb).
double overlap_us(const std::vector<TimelineEvent>& ev, Lane a, Phase pa, Lane b, Phase pb)
{
    double sum = 0.0;
    for (const auto& x : ev)
        for (const auto& y : ev)
            if (x.lane == a && x.phase == pa && y.lane == b && y.phase == pb)
                sum +=
                    std::max(0.0, std::min(x.end_us, y.end_us) - std::max(x.begin_us, y.begin_us));
    return sum;
}
double total_us(const std::vector<TimelineEvent>& ev, Lane lane, Phase phase)
{
    double sum = 0.0;
    for (const auto& e : ev)
        sum += e.lane == lane && e.phase == phase ? e.end_us - e.begin_us : 0.0;
    return sum;
}
const TimelineEvent& first_of(const std::vector<TimelineEvent>& ev, Lane lane, Phase phase)
{
    for (const auto& e : ev)
        if (e.lane == lane && e.phase == phase) return e;
    throw std::runtime_error("timeline product without " + std::string(to_string(phase)));
}

// [section: draw]
// One product of one rank as text, in the manner of Kreutzer Fig. 4: a row per lane (the host
// thread, task mode's communication thread, the GPU's kernels, its copies), one character per
// `us_per_char` microseconds from the product's first event. Posts (1-3 us) and task mode's
// "exchange" (the span of the comm thread's own events) are not drawn.
char glyph(const TimelineEvent& e)
{
    switch (e.phase) {
        case Phase::local:
            return 'L';  // the local SpMV (vector mode: the whole SpMV)
        case Phase::nonlocal:
            return 'N';  // the non-local SpMV, after the halo arrived
        case Phase::pack:
            return e.lane == Lane::gpu ? 'g' : 'p';  // gather kernel / host waits for it
        case Phase::copy_d2h:
            return 'd';
        case Phase::copy_h2d:
            return 'h';
        case Phase::copy_peer:
            return 'c';  // CUDA IPC: the halo pulled from the other GPU
        case Phase::wait:
            return 'w';  // MPI_Waitall: the messages move here
        case Phase::idle:
            return '~';  // blocked on the local kernel (naive) or the join (task)
        default:
            return 0;
    }
}
void draw(const std::vector<TimelineEvent>& ev, double t0, double us_per_char)
{
    std::string rows[4];  // host, comm thread, gpu kernels, gpu copies
    for (const auto& e : ev) {
        const char c = glyph(e);
        if (c == 0) continue;
        const bool copy =
            e.phase == Phase::copy_d2h || e.phase == Phase::copy_h2d || e.phase == Phase::copy_peer;
        auto& row = rows[e.lane == Lane::compute ? 0 : e.lane == Lane::comm ? 1 : copy ? 3 : 2];
        const auto first = static_cast<std::size_t>((e.begin_us - t0) / us_per_char);
        const auto last =
            static_cast<std::size_t>((std::max(e.begin_us, e.end_us - 1e-6) - t0) / us_per_char);
        if (row.size() <= last) row.resize(last + 1, ' ');
        std::fill(row.begin() + static_cast<std::ptrdiff_t>(first),
                  row.begin() + static_cast<std::ptrdiff_t>(last) + 1, c);
    }
    const char* names[] = {"host", "comm thread", "gpu kernels", "gpu copies"};
    for (int r = 0; r < 4; ++r)
        if (!rows[r].empty()) std::printf("    %-11s |%s\n", names[r], rows[r].c_str());
}
// [section: end]

struct Path {
    const char* label;  // matrix and exchange path
    const char* stem;   // modes2_<stem>.json, tl_modes2_<stem>.json
};
const Path paths[] = {{"pde400 host-staged", "pde400_host-staged"},
                      {"pde400 cuda-ipc", "pde400_cuda-ipc"},
                      {"powerlaw host-staged", "powerlaw_host-staged"},
                      {"powerlaw cuda-ipc", "powerlaw_cuda-ipc"}};
const char* const mode_names[] = {"vector", "naive", "overlap", "task"};

}  // namespace

int lesson()
{
    tutorial::SelfCheck check;
    const std::string modes_dir = "modes_2026-11-28/h200x2/";
    std::vector<Json> rec;
    std::vector<std::vector<Timeline>> tls;
    for (const auto& p : paths) {
        rec.push_back(tutorial::read_record(modes_dir + "modes2_" + p.stem + ".json"));
        tls.push_back(spmv::dist::timelines_from_json(
            tutorial::read_record_text(modes_dir + "tl_modes2_" + p.stem + ".json")));
        if (tls.back().size() != 4)
            throw std::runtime_error(std::string(p.stem) + ": want 4 timelines");
    }
    const auto& meta = rec[0].at("meta");
    std::printf(
        "Records: docs/benchmarks/modes_2026-11-28/h200x2 (commit %s, %s): 2 x %s\n"
        "(NVLink), %s, double, CSR, nnz partition, %d products per mode\n",
        meta.at("commit").get<std::string>().c_str(),
        meta.at("date").get<std::string>().substr(0, 10).c_str(),
        rec[0].at("devices").get<std::string>().c_str(),
        rec[0].at("mpi").get<std::string>().c_str(), rec[0].at("repeat").get<int>());

    // 1. Kreutzer Fig. 4: the four modes' timelines, pde400 host-staged, rank 0, product 1.
    std::printf(
        "\n1. The four modes (spmv::dist::Mode), measured, in the manner of Kreutzer Fig. 4:\n"
        "   pde400, host-staged exchange, rank 0, product 1; one character = 25 us\n");
    const char* whose[] = {"Kreutzer: vector mode without overlap",
                           "Kreutzer: vector mode with naive overlap, as the paper ran it",
                           "ours: explicit overlap, the GPU-era schedule",
                           "Kreutzer: task mode, a communication thread"};
    bool naive_serial = false, overlap_hides = false, task_hides = false, vector_serial = false;
    for (const auto& t : tls[0]) {
        double t0 = 0.0;
        const auto ev = product(t, 0, 1, &t0);
        const auto m = static_cast<std::size_t>(t.mode);
        std::printf("  %-8s %s; exchange hidden %.0f %%\n", mode_names[m], whose[m],
                    100.0 * spmv::dist::overlapped_fraction(t, 0, 1));
        draw(ev, t0, 25.0);
        const auto& local = first_of(ev, Lane::gpu, Phase::local);
        // [section: modes-checked]
        // vector: the host's wait (the exchange) ends before the SpMV begins.
        if (t.mode == Mode::vector)
            vector_serial = first_of(ev, Lane::compute, Phase::wait).end_us <= local.begin_us;
        // naive: the host is blocked on the local kernel (idle), then waits in MPI_Waitall,
        // where the messages move: the wait overlaps no GPU work.
        if (t.mode == Mode::naive)
            naive_serial = first_of(ev, Lane::compute, Phase::idle).end_us <=
                               first_of(ev, Lane::compute, Phase::wait).begin_us &&
                           overlap_us(ev, Lane::compute, Phase::wait, Lane::gpu, Phase::local) < 1;
        // overlap: the host's MPI_Waitall runs while the GPU computes the local part.
        if (t.mode == Mode::overlap)
            overlap_hides = overlap_us(ev, Lane::compute, Phase::wait, Lane::gpu, Phase::local) >
                            0.5 * total_us(ev, Lane::compute, Phase::wait);
        // task: the communication thread's exchange runs while the GPU computes.
        if (t.mode == Mode::task)
            task_hides = overlap_us(ev, Lane::comm, Phase::exchange, Lane::gpu, Phase::local) >
                         0.5 * total_us(ev, Lane::comm, Phase::exchange);
        // [section: end]
    }
    std::printf(
        "    (g gather kernel, d / h copy to host / device, p host waits for gather + copy,\n"
        "     w MPI_Waitall, ~ host blocked on the local kernel (naive) or on the comm thread\n"
        "     (task), L local SpMV (vector: the whole SpMV), N non-local SpMV)\n");
    check.expect(vector_serial, "vector: the exchange ends before the SpMV begins");
    check.expect(naive_serial,
                 "naive: the host blocked in the local SpMV, then MPI_Waitall, which "
                 "overlaps no GPU work");
    check.expect(overlap_hides,
                 "overlap: most of the host's MPI_Waitall runs under the local SpMV");
    check.expect(task_hides, "task: most of the comm thread's exchange runs under the local SpMV");

    // 2. The measured times of the four modes, and the best any overlap can do.
    std::printf(
        "\n2. Time per SpMV (us, median of the slowest rank) and relative to vector mode;\n"
        "   bound = max(X, L) / (X + L): X the exchange, L the SpMV of vector mode (product 1)\n");
    std::printf("  %-21s %7s %7s %7s %7s   %6s %6s %6s  %5s\n", "matrix, exchange", "vector",
                "naive", "overlap", "task", "naive", "overl.", "task", "bound");
    bool naive_no_better = true, within_bound = true;
    double task_ratio[4]{}, xl_ratio[4]{}, spread[4]{}, x_us[4]{}, peer_us[4]{};
    for (std::size_t i = 0; i < 4; ++i) {
        // [section: bound]
        double t0 = 0.0;
        const auto ev = product(of_mode(tls[i], Mode::vector), 0, 1, &t0);  // exchange, SpMV
        const auto& spmv = first_of(ev, Lane::gpu, Phase::local);
        const double x = spmv.begin_us - t0, l = spmv.end_us - spmv.begin_us;
        // Overlap can at best hide the shorter of the two: max(x, l) of vector's x + l, and
        // never less than half of it (x = l): Kreutzer's "at most a factor of two".
        const double bound = std::max(x, l) / (x + l);
        // [section: end]
        x_us[i] = x;
        xl_ratio[i] = x / l;
        if (i == 1) peer_us[i] = total_us(ev, Lane::gpu, Phase::copy_peer);
        double t[4];
        for (int m = 0; m < 4; ++m) t[m] = median_us(rec[i], mode_names[m]);
        std::printf("  %-21s %7.1f %7.1f %7.1f %7.1f   %6.3f %6.3f %6.3f  %5.3f\n", paths[i].label,
                    t[0], t[1], t[2], t[3], t[1] / t[0], t[2] / t[0], t[3] / t[0], bound);
        naive_no_better = naive_no_better && t[1] / t[0] >= 0.97;
        for (int m = 1; m < 4; ++m) within_bound = within_bound && t[m] / t[0] >= bound;
        task_ratio[i] = t[3] / t[0];
        spread[i] = *std::max_element(t, t + 4) / *std::min_element(t, t + 4);
    }
    std::printf(
        "  X / L: pde400 host-staged %.2f, cuda-ipc %.2f; power law host-staged %.2f, "
        "cuda-ipc %.2f\n",
        xl_ratio[0], xl_ratio[1], xl_ratio[2], xl_ratio[3]);
    check.expect(naive_no_better,
                 "Kreutzer: naive overlap no better than vector mode "
                 "(naive / vector >= 0.97 on every path)");
    check.expect(task_ratio[0] < 0.9,
                 "task beats vector where the halo is host-staged (pde400: "
                 "task / vector < 0.9)");
    check.expect(within_bound,
                 "no mode beats the bound, so no gain exceeds 2x (Kreutzer: \"at "
                 "most a factor of two\")");
    check.expect(xl_ratio[2] > 4.0 && task_ratio[2] > 0.9,
                 "weak where the exchange dwarfs the SpMV: power law host-staged, X > 4 L, task "
                 "gains < 10 %");
    check.expect(xl_ratio[1] < 0.1 && spread[1] < 1.05,
                 "weak where there is nothing to hide: pde400 cuda-ipc, X < 0.1 L, the four "
                 "modes within 5 %");

    // 3a. Kreutzer Fig. 5 on two GPUs: parallel efficiency per mode.
    std::printf(
        "\n3. Strong scaling. Parallel efficiency T1 / (n Tn), T1 the same run's "
        "single-process SpMV\n  Kreutzer Fig. 5b (UHBR, 32 nodes of one C2050 each): "
        "task mode 84 %%, naive overlap about 70 %%\n");
    std::printf("  2 x H200 %-20s %8s %8s %8s %8s   T1 us\n", "", "vector", "naive", "overlap",
                "task");
    double eff[4][4]{};
    for (std::size_t i = 0; i < 4; ++i) {
        const double t1 = mode_entry(rec[i], "vector").at("single_process_us").get<double>();
        std::printf("  %-29s", paths[i].label);
        // [section: efficiency]
        for (int m = 0; m < 4; ++m) {
            eff[i][m] = t1 / (2.0 * median_us(rec[i], mode_names[m]));  // T1 / (n Tn), n = 2
            std::printf(" %6.1f %%", 100.0 * eff[i][m]);
        }
        // [section: end]
        std::printf("   %.1f\n", t1);
    }
    check.expect(eff[0][3] - eff[0][1] >= 0.14,
                 "pde400 host-staged: task mode's efficiency "
                 "exceeds naive's by at least Fig. 5b's 14 points");
    check.expect(std::fabs(eff[1][3] - eff[1][1]) < 0.05,
                 "pde400 cuda-ipc: task and naive within 5 points (little left to hide)");

    // 3b. 1, 2 and 4 GPUs against the model's band (`spmvlab dist chart`: a = 1 .. a = 1/N_nzr).
    struct Run {
        const char* dir;    // under docs/benchmarks
        const char* model;  // the chart's model_vs_measured json
        const char* record;
        const char* label;
    };
    const Run runs[] = {
        {"h100x2_2026-11-25/run_b", "h100x2_2026-11-25/model_vs_measured_double.json",
         "bench2_pde150_csr_nnz_double_ipc.json", "pde150, 2 x H100"},
        {"h100x2_2026-11-25/run_b", "h100x2_2026-11-25/model_vs_measured_double.json",
         "bench2_pde400_csr_nnz_double_ipc.json", "pde400, 2 x H100"},
        {"h100x2_2026-11-25/run_c", "h100x2_2026-11-25/model_vs_measured_double.json",
         "bench2_pde500_csr_nnz_double.json", "pde500, 2 x H100"},
        {"h100x4_2026-11-25/run_d/records", "h100x4_2026-11-25/model_vs_measured.json",
         "bench2_pde500_csr_nnz_double_ipc.json", "pde500, 4 x H200"},
        {"h100x4_2026-11-25/run_d/records", "h100x4_2026-11-25/model_vs_measured.json",
         "bench4_pde500_csr_nnz_double_ipc.json", "pde500, 4 x H200"}};
    std::printf(
        "\n  1, 2 and 4 GPUs (records of 2026-11-25/26, cuda-ipc; their \"overlap\" is today's "
        "explicit\n  overlap, they predate naive). Model band: x read once per nonzero "
        "(a = 1) .. once (a = 1/N_nzr)\n");
    std::printf("  %-17s %4s %-8s %9s  %-20s %7s  %s\n", "matrix, GPUs", "n", "mode", "us",
                "model band us", "eff.", "model eff.");
    bool large_in_band = true, pde150_above = true, pde150_one_in = true, eff_near_model = true;
    double task4_eff = 0.0;
    for (const auto& r : runs) {
        const Json record = tutorial::read_record(std::string(r.dir) + "/" + r.record);
        const Json model = tutorial::read_record(r.model);
        const int n = record.at("ranks").get<int>();
        const bool pde150 = std::string(r.label).rfind("pde150", 0) == 0;
        auto band = [&](const std::string& mode, double* lo, double* hi) {
            for (const auto& p : model.at("points"))  // "single": the matrix's one-GPU point
                if (p.at("mode") == mode &&
                    (mode == "single" ? p.at("matrix") == record.at("matrix")
                                      : p.at("record") == r.record)) {
                    *lo = p.at("model_alpha_min_us").get<double>();
                    *hi = p.at("model_alpha1_us").get<double>();
                    return;
                }
            throw std::runtime_error(std::string(r.model) + ": no point " + r.record + " " + mode);
        };
        double t1_lo = 0.0, t1_hi = 0.0;
        band("single", &t1_lo, &t1_hi);
        const double t1 = mode_entry(record, "vector").at("single_process_us").get<double>();
        if (n == 2) {
            const bool in = t1 >= t1_lo && t1 <= t1_hi;
            std::printf("  %-17s %4d %-8s %9.1f  %8.1f .. %8.1f %7s\n", r.label, 1, "single", t1,
                        t1_lo, t1_hi, in ? "in" : "out");
            if (pde150) pde150_one_in = in;
            if (!pde150) large_in_band = large_in_band && in;
        }
        for (const char* mode : {"vector", "overlap", "task"}) {
            double lo = 0.0, hi = 0.0;
            band(mode, &lo, &hi);
            const double t = median_us(record, mode), e = t1 / (n * t);
            const double e_lo = t1_lo / (n * lo), e_hi = t1_hi / (n * hi);
            const bool in = t >= lo && t <= hi;
            std::printf("  %-17s %4d %-8s %9.1f  %8.1f .. %8.1f %7s %5.1f %%  %4.1f-%4.1f %%\n", "",
                        n, mode, t, lo, hi,
                        in       ? "in"
                        : t > hi ? "above"
                                 : "below",
                        100.0 * e, 100.0 * std::min(e_lo, e_hi), 100.0 * std::max(e_lo, e_hi));
            if (pde150) pde150_above = pde150_above && t > hi;
            if (!pde150) {
                large_in_band = large_in_band && in;
                eff_near_model = eff_near_model && std::max(e_lo, e_hi) - e < 0.05;
            }
            if (n == 4 && std::string(mode) == "task") task4_eff = e;
        }
    }
    check.expect(large_in_band,
                 "pde400 and pde500 (1, 2 and 4 GPUs, every mode): measured "
                 "inside the model's band");
    check.expect(pde150_one_in && pde150_above,
                 "pde150: one GPU inside the band, two GPUs above it (fixed costs per product)");
    check.expect(eff_near_model, "pde400 / pde500: efficiency within 5 points of the model's");
    check.expect(task4_eff >= 0.84, "4 x H200, pde500, task mode: efficiency >= Kreutzer's 84 %");

    // 3c. Cevahir Fig. 5: CG on 1, 2 and 4 GPUs.
    std::printf(
        "\n  Cevahir Fig. 5 (inner float CG; 4 x GeForce 8800 GTS 512 on one board, the halo "
        "through\n  the host; mean over matrices >= 5 M nonzeros): 5.01, 8.62, 13.85 Gflop/s "
        "on 1, 2, 4 GPUs,\n  mean speedups 1.73x, 2.83x (the ratios of the means: %.2fx, "
        "%.2fx)\n",
        8.62 / 5.01, 13.85 / 5.01);
    struct Cg {
        const char* path;
        const char* gpu;
    };
    const Cg cgs[] = {{"h100x2_2026-11-25/run_b/cg1_pde400.json", "H100"},
                      {"h100x2_2026-11-25/run_b/cg2_pde400_ipc.json", "H100"},
                      {"h100x4_2026-11-25/run_d/records/cg1_pde400.json", "H200"},
                      {"h100x4_2026-11-25/run_d/records/cg2_pde400_ipc.json", "H200"},
                      {"h100x4_2026-11-25/run_d/records/cg4_pde400_ipc.json", "H200"}};
    std::printf("  CG in double on pde400, task mode, to 1e-10:\n  %-5s %4s %10s %9s %8s %7s\n",
                "GPU", "n", "iterations", "ms", "speedup", "eff.");
    bool same_iterations = true;
    double one_gpu_ms = 0.0, speedup[5]{};
    int iterations = -1;
    for (std::size_t i = 0; i < 5; ++i) {
        const Json r = tutorial::read_record(cgs[i].path);
        const int n = r.at("ranks").get<int>(), it = r.at("iterations").get<int>();
        const double ms = r.at("total_ms").get<double>();
        if (n == 1) one_gpu_ms = ms;
        speedup[i] = one_gpu_ms / ms;
        same_iterations = same_iterations && r.at("status") == "converged" &&
                          (iterations < 0 || it == iterations);
        iterations = it;
        std::printf("  %-5s %4d %10d %9.1f %7.2fx %5.1f %%\n", cgs[i].gpu, n, it, ms, speedup[i],
                    100.0 * speedup[i] / n);
    }
    check.expect(same_iterations, "CG converges in the same iterations on 1, 2 and 4 GPUs");
    check.expect(speedup[3] > 1.73 && speedup[4] > 2.83,
                 "4 x H200: CG speedups above Cevahir's 1.73x (2 GPUs) and 2.83x (4 GPUs)");

    // 4. What changed since 2011.
    const auto& c2050 = spmv::model::find_profile("C2050-ECC");
    const auto& h200 = spmv::model::find_profile("H200");
    std::printf(
        "\n4. Since 2011. Memory / PCIe bandwidth (model profiles): C2050 with ECC %.0f / %.0f "
        "GB/s,\n   H200 %.0f / %.0f GB/s; Cevahir's 8800 GTS 512: 64 GB/s (its paper)\n",
        c2050.memory_bandwidth_gbs, c2050.pcie_bandwidth_gbs, h200.memory_bandwidth_gbs,
        h200.pcie_bandwidth_gbs);
    const double halo_mb =
        rec[0].at("partition_stats").at("total_halo").get<double>() / 2 * 8 / 1e6;
    std::printf(
        "  - The exchange (pde400, %.2f MB each way), vector mode, product 1: host-staged "
        "%.1f us\n    (gather, PCIe, MPI shared memory, PCIe); CUDA IPC %.1f us, of it one "
        "device copy over\n    NVLink %.1f us (%.0f GB/s)\n",
        halo_mb, x_us[0], x_us[1], peer_us[1], halo_mb * 1e3 / peer_us[1]);
    check.expect(x_us[1] < 0.25 * x_us[0],
                 "CUDA IPC: the exchange under a quarter of the "
                 "host-staged one");
    bool overlap_like_task = true;
    double worst = 0.0;
    for (std::size_t i = 0; i < 4; ++i) {
        const double r = median_us(rec[i], "overlap") / median_us(rec[i], "task");
        worst = std::max(worst, r);
        overlap_like_task = overlap_like_task && r <= 1.01;
    }
    std::printf(
        "  - Asynchronous kernel launches: one host thread (overlap) as fast as a comm thread "
        "(task):\n    overlap / task at most %.3f on the four paths\n",
        worst);
    check.expect(overlap_like_task,
                 "overlap (ours, no extra thread) within 1 % of task mode or "
                 "faster, on every path");
    const std::string env = tutorial::read_record_text(modes_dir + "env.txt");
    const bool no_progress = env.find("OMPI progress: no") != std::string::npos;
    double naive_hidden = 0.0;
    for (const auto& r : rec)
        naive_hidden =
            std::max(naive_hidden, mode_entry(r, "naive").at("overlapped_fraction").get<double>());
    std::printf(
        "  - MPI still has no asynchronous progress: env.txt says \"OMPI progress: %s\"; naive "
        "mode\n    hides at most %.1f %% of the exchange\n",
        no_progress ? "no" : "?", 100.0 * naive_hidden);
    check.expect(no_progress && naive_hidden < 0.01,
                 "Open MPI without asynchronous progress: naive hides < 1 % on every path");
    return check.finish();
}

int main()
{
    try {
        return lesson();
    } catch (const std::exception& e) {  // a missing or malformed record fails visibly
        std::printf("FAIL: %s\n", e.what());
        return 1;
    }
}
