// The distributed SpMV model (see model.hpp): profiles, per-rank times, mode times, predicted
// timelines, the light statistics path and the scaling studies.
#include <spmv/dist/model.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>
#include <utility>

#include <spmv/error.hpp>
#include <spmv/generators.hpp>

#include "../model/find_named.hpp"

namespace spmv::dist {

namespace {

// ---------------------------------------------------------------------------------------------
// Profiles

const std::vector<LinkProfile>& link_table()
{
    static const std::vector<LinkProfile> t = {
        {"pcie4", 25.0, 2.0,
         "PCIe 4.0 x16 between two GPUs (peer-to-peer, no host staging): 16 GT/s x 16 lanes x "
         "128/130 / 8 = 31.5 GB/s per direction nominal; 25 GB/s is an ASSUMED attained "
         "~80 %, the usual share for large DMA transfers. Latency 2 us ASSUMED (DMA set-up and "
         "completion of a small message). When ranks stage the halo through the host, the PCIe "
         "crossings are the copy phases (GpuProfile::pcie_bandwidth_gbs) and the link is the "
         "host-to-host path (host-shm or a network)."},
        {"pcie5", 50.0, 2.0,
         "PCIe 5.0 x16 between two GPUs (peer-to-peer): 32 GT/s x 16 lanes x 128/130 / 8 = "
         "63 GB/s per direction nominal; 50 GB/s ASSUMED attained (~80 %). Latency 2 us "
         "ASSUMED. See pcie4 about host staging."},
        {"nvlink4", 300.0, 3.0,
         "H100 SXM NVLink 4: 18 links x 25 GB/s = 450 GB/s per direction nominal (NVIDIA's "
         "'900 GB/s' counts both directions), reached by one GPU pair through the NVSwitches "
         "of an HGX board. A point-to-point MPI message does not attain the aggregate: 300 "
         "GB/s is ASSUMED (two thirds of nominal; not measured here), latency 3 us ASSUMED "
         "(CUDA-aware MPI on device buffers, e.g. UCX cuda_ipc). Only meaningful with "
         "ModelOptions::stage_through_host = false: a halo staged through the host never "
         "touches NVLink (use host-shm for the host-to-host step then)."},
        {"ib-hdr", 25.0, 1.5,
         "InfiniBand HDR 4x: 200 Gb/s = 25 GB/s per direction, the nominal data rate used as "
         "is (an optimistic bound: MPI attains somewhat less). Latency 1.5 us ASSUMED: a "
         "typical MPI small-message half round trip through one switch (the adapters alone "
         "are specified below 1 us)."},
        {"ib-ndr", 50.0, 1.5,
         "InfiniBand NDR 4x: 400 Gb/s = 50 GB/s per direction, nominal data rate used as is "
         "(optimistic bound). Latency 1.5 us ASSUMED, as for HDR."},
        {"host-shm", 4.8, 0.9,
         "Ranks of one node exchanging through shared memory (Open MPI's vader/sm), also the "
         "host-to-host step of GPU ranks on one node that stage the halo through the host. "
         "MEASURED by `mpirun -n 4 spmvlab dist link` on the H200 host (Open MPI 4.1.6, every "
         "rank exchanging with its chain neighbours at once, 8 B to 8 MiB; "
         "docs/benchmarks/link_2026-11-29): 4.84 GB/s and 0.90 us per message (2 ranks: 4.99 "
         "GB/s, 0.98 us). It was 10 GB/s and 0.5 us ASSUMED (one core's memcpy) before, which "
         "priced the host-staged exchange on 4 GPUs 1.5x too fast. Another host: measure it "
         "with dist link and pass --link BW,LAT."},
    };
    return t;
}

// The fixed costs per exchange path (model.hpp, "THE DISTRIBUTED PRODUCT'S FIXED COSTS"), from
// measured medians, the kernels as the measured 1-GPU time over P (not the kernel model); the
// kernel model enters only through the difference of two of its modes (the second pass's
// cost) in sync_us and first_pass_us. Held out: pde400.
const std::vector<FixedCosts>& fixed_table()
{
    // Derived by docs/benchmarks/dist_model_2026-11-28/fixed_costs.py from the FIT records
    // (pde150 on 2 and 4 H200, 2026-11-28: dist_model_2026-11-28/ and its x4/, nccl_2026-11-28/
    // and its README's table), with T1 = the measured 1-GPU time of the same format (the 1-GPU
    // dist bench median; x4: the record's single-process baseline) and the model's halo terms
    // (comm with --fixed-costs off):
    //   exchange_us  = vector - T1 / 2 - comm                     (2 GPUs: one neighbour)
    //   neighbour_us = (vector - T1 / 4 - comm on 4 GPUs) - exchange_us   (two neighbours)
    //   sync_us      = (naive - vector) - the model's (naive - vector) with --fixed-costs off
    //   first_pass_us = overlap - T1 / 2 - (the model's overlap - vector + comm), 2 GPUs, where
    //                  the halo path is hidden (cuda-ipc and nccl)
    //   handoff_us   = (task - overlap) / 2 on 4 GPUs, where the halo path is critical, from
    //                  the records of the current task mode (the spin-then-sleep hand-offs of
    //                  1c4f1dd: nccl_2026-11-28/x4_spin_1c4f1dd); the sleeping hand-offs before
    //                  them (x4/, 373cb08) cost 7.0-7.4 us
    // Last run 2026-11-29 (session 25) with the H200 kernel constants of
    // docs/benchmarks/h200_tiled_2026-11-29 and the host-shm link measured by dist link
    // (docs/benchmarks/link_2026-11-29): host-staged's exchange_us 48.7 -> 28.8 (the link's
    // share had been counted in it), sync_us 7.6 -> 8.0 and first_pass_us 15.0 -> 15.8 (the
    // refitted kernel constants move the model's second pass). Re-derived 2026-11-30 (session
    // 36) with the H200's kernel constants refitted on the current kernels
    // (docs/benchmarks/h200_refit_2026-11-30): sync_us 8.0 -> 7.6, first_pass_us 15.8 -> 15.5,
    // the others unchanged. Re-derived 2026-11-30 (session 37) after the per-format model
    // stopped charging a block x's every column (KernelShape::x_cols): the second pass's
    // kernel, priced at all of the rank's columns before, shrinks (pde150: ~6 us, pde400:
    // 70 -> 10 us), and the host's share moves into sync_us 7.6 -> 10.7 and first_pass_us
    // 15.5 -> 18.6; the others unchanged (docs/benchmarks/h200_final_2026-11-30).
    static const std::vector<FixedCosts> t = {
        {"host-staged", 28.8, 6.7, 10.7, 3.0, 18.6,
         "MEASURED on the H200 host (Open MPI 4.1 through shared memory, pinned copies; "
         "docs/benchmarks/nccl_2026-11-28, pde150, 2 GPUs): exchange_us 30.5 (CSR) and 27.1 "
         "(SELL) beside the host-shm link as measured by dist link (4.8 GB/s, 0.9 us; 50.4 and "
         "47.0 beside the 10 GB/s assumed before it); neighbour_us, sync_us, handoff_us and "
         "first_pass_us are cuda-ipc's (no 4-GPU pde150 record of this path; its first pass "
         "has two launches ahead, the gather and the copy: ASSUMED the same)"},
        {"cuda-ipc", 26.5, 6.7, 10.7, 3.0, 18.6,
         "MEASURED on the H200 host (pde150; docs/benchmarks/dist_model_2026-11-28 and x4/, "
         "nccl_2026-11-28): exchange_us 27.1, 20.1, 32.7, 26.0 on 2 GPUs (mean); neighbour_us "
         "from 4 GPUs (37.9, 28.5) less exchange_us; sync_us the median of 10 (9.0-14.3, one "
         "25.4) over every path, a little above the timelines' GPU gap after a host wait "
         "(7.8-9.1 us with their event records, modes_2026-11-28/h200x*/tl_*); first_pass_us "
         "the median of 6 (10.3-22.4) over cuda-ipc and nccl; handoff_us 3.0 (4 GPUs, SELL, "
         "nccl_2026-11-28/x4_spin_1c4f1dd: the spinning hand-offs; 7.4 and 7.0 before them)"},
        {"nccl", 23.9, 6.7, 10.7, 0.9, 18.6,
         "MEASURED on the H200 host (NCCL 2.28; docs/benchmarks/nccl_2026-11-28, its README's "
         "table, pde150, 2 GPUs): exchange_us 18.8 (SELL) and 29.0 (CSR); handoff_us 0.9 (4 GPUs, "
         "SELL, nccl_2026-11-28/x4_spin_1c4f1dd); neighbour_us is cuda-ipc's; sync_us and "
         "first_pass_us shared"},
        {"cuda-aware", 28.8, 6.7, 10.7, 3.0, 18.6,
         "ASSUMED: host-staged's (a CUDA-aware MPI's path has not been measured here)"},
    };
    return t;
}

const std::vector<HostProfile>& host_table()
{
    static const std::vector<HostProfile> t = {
        {"cpu-core", 10.0,
         "One MPI rank per CPU core. 10 GB/s per rank is an ASSUMPTION: one core alone streams "
         "~10-20 GB/s on current servers, but ranks on every core share the socket's bandwidth "
         "(e.g. 8 DDR5-4800 channels = 307 GB/s nominal over 48+ cores: ~5-6 GB/s each). "
         "Measure with STREAM at the intended ranks per node and use custom_host."},
    };
    return t;
}


std::string num(double v)
{
    std::ostringstream s;
    s.precision(6);
    s << v;
    return s.str();
}


void check_positive(double v, const std::string& what)
{
    SPMV_EXPECTS(std::isfinite(v) && v > 0.0, what + " must be positive, got " + num(v));
}

// ---------------------------------------------------------------------------------------------
// Per-rank model

// Memory bytes of one kernel over a block of `rows` rows holding `nnz` nonzeros (model.hpp).
double block_bytes(std::int64_t rows, std::int64_t nnz, double alpha, model::Precision p)
{
    if (rows == 0) {
        return 0.0;
    }
    const auto n = static_cast<double>(rows);
    if (nnz == 0) {
        return n * 2.0 * model::value_bytes(p);  // the kernel still loads and stores y
    }
    const double n_nzr = static_cast<double>(nnz) / n;
    const double a = std::clamp(alpha, model::min_alpha(n_nzr), 1.0);
    return model::device_bytes(n, n_nzr, a, p);
}

// A GPU operation: its bytes at `gbs`, plus the launch latency when it has work at all.
double operation_s(double bytes, double gbs, double latency_s)
{
    return bytes > 0.0 ? bytes / (gbs * 1e9) + latency_s : 0.0;
}

struct Rates {
    bool gpu = true;
    double memory_gbs = 0.0;
    double pcie_gbs = 0.0;
};

Rates rates_of(const RankDevice& d)
{
    Rates r;
    if (const auto* g = std::get_if<model::GpuProfile>(&d)) {
        r.gpu = true;
        r.memory_gbs = g->memory_bandwidth_gbs;
        r.pcie_gbs = g->pcie_bandwidth_gbs;
        check_positive(r.memory_gbs, "device memory bandwidth (GB/s) of " + g->name);
        check_positive(r.pcie_gbs, "PCIe bandwidth (GB/s) of " + g->name);
    } else {
        const auto& h = std::get<HostProfile>(d);
        r.gpu = false;
        r.memory_gbs = h.memory_bandwidth_gbs;
        check_positive(r.memory_gbs, "host memory bandwidth (GB/s) of " + h.name);
    }
    return r;
}

void check_options(const ModelOptions& o, const LinkProfile& link)
{
    SPMV_EXPECTS(std::isfinite(o.alpha) && o.alpha > 0.0 && o.alpha <= 1.0,
                 "alpha = " + num(o.alpha) + " is outside (0, 1]");
    SPMV_EXPECTS(std::isfinite(o.launch_latency_us) && o.launch_latency_us >= 0.0,
                 "launch latency must be >= 0 us, got " + num(o.launch_latency_us));
    if (o.fixed_costs) {
        const auto& f = *o.fixed_costs;
        SPMV_EXPECTS(std::isfinite(f.exchange_us) && f.exchange_us >= 0.0 &&
                         std::isfinite(f.neighbour_us) && f.neighbour_us >= 0.0 &&
                         std::isfinite(f.sync_us) && f.sync_us >= 0.0 &&
                         std::isfinite(f.handoff_us) && f.handoff_us >= 0.0 &&
                         std::isfinite(f.first_pass_us) && f.first_pass_us >= 0.0,
                     "the fixed costs of " + f.name + " must be >= 0 us");
    }
    check_positive(link.bandwidth_gbs, "link bandwidth (GB/s) of " + link.name);
    SPMV_EXPECTS(std::isfinite(link.latency_us) && link.latency_us >= 0.0,
                 "link latency must be >= 0 us, got " + num(link.latency_us));
}

// Each mode's time by what it really overlaps (model.hpp, "Modes"), with the fixed costs
// where ModelOptions::fixed_costs gives them (fixed_exchange_s, sync_s, handoff_s; else 0,
// and every sum below is the one without them to the last bit).
void finish_modes(RankTimes& t, const ModelOptions& o, bool gpu)
{
    const double data_s = t.pack_s + t.copy_d2h_s + t.exchange_s + t.copy_h2d_s;
    t.comm_s = data_s + t.fixed_exchange_s;
    t.time_s.vector = t.comm_s + t.merged_s;
    // naive: the send buffer is packed (and on GPU ranks copied to the host) before the sends
    // are posted; the messages move only inside MPI calls, i.e. in MPI_Waitall after the local
    // SpMV, unless the library progresses them in the background; then the host round trip of
    // wait_local before the second pass
    t.time_s.naive = o.async_progress
                         ? t.pack_s + t.copy_d2h_s + std::max(t.local_s, t.exchange_s) +
                               t.copy_h2d_s + t.fixed_exchange_s + t.sync_s + t.nonlocal_s
                         : t.comm_s + t.local_s + t.sync_s + t.nonlocal_s;
    // task: the halo path behind two thread hand-offs; the second pass is launched after the
    // join, a host round trip when the halo path ends last
    // (first_pass_s: the first pass starts after the host's start() and the gather's launch)
    const double first = t.first_pass_s + t.local_s;
    const double task_comm = t.comm_s + 2.0 * t.handoff_s;
    t.time_s.task =
        std::max(first, task_comm) + (task_comm > first ? t.sync_s : 0.0) + t.nonlocal_s;
    // explicit overlap: the host drives the whole halo path while the GPU runs the local
    // kernel; a host rank's one thread cannot, so there it is the naive schedule
    t.time_s.overlap =
        gpu ? std::max(first, t.comm_s) + (t.comm_s > first ? t.sync_s : 0.0) + t.nonlocal_s
            : t.time_s.naive;
    if (t.fixed_exchange_s > 0.0 || t.sync_s > 0.0 || t.handoff_s > 0.0 || t.first_pass_s > 0.0) {
        // the fixed costs' share: each mode against the same sums without them
        RankTimes bare = t;
        bare.fixed_exchange_s = bare.sync_s = bare.handoff_s = bare.first_pass_s = 0.0;
        finish_modes(bare, o, gpu);
        for (auto m : all_modes) {
            t.fixed_s[m] = t.time_s[m] - bare.time_s[m];
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Timeline layout

struct Layout {
    Timeline* t;
    int rank;
    int iteration;
    // Appends [begin, begin + dur) (seconds) unless empty; returns the end.
    double add(Lane lane, Phase phase, double begin_s, double dur_s) const
    {
        if (dur_s > 0.0) {
            t->events.push_back(
                {rank, lane, phase, iteration, begin_s * 1e6, (begin_s + dur_s) * 1e6});
        }
        return begin_s + dur_s;
    }
};

void lay_out(const Layout& l, const RankTimes& r, bool gpu, Mode mode, bool async, double t0)
{
    const Lane kernels = gpu ? Lane::gpu : Lane::compute;
    double t = t0;
    if (mode == Mode::task || (mode == Mode::overlap && gpu)) {
        // The whole halo path beside the local kernel, driven by the communication thread (task
        // mode) or by the host thread while the GPU computes (explicit overlap); the fixed
        // costs: the hand-offs (task), the exchange's, the host round trip before nonlocal.
        const Lane driver = mode == Mode::task ? Lane::comm : Lane::compute;
        const Phase moving = mode == Mode::task ? Phase::exchange : Phase::wait;
        const double handoff = mode == Mode::task ? r.handoff_s : 0.0;
        t = l.add(driver, Phase::idle, t, handoff);
        t = l.add(driver, Phase::pack, t, r.pack_s);
        t = l.add(driver, Phase::copy_d2h, t, r.copy_d2h_s);
        t = l.add(driver, moving, t, r.exchange_s);
        t = l.add(driver, Phase::copy_h2d, t, r.copy_h2d_s);
        t = l.add(driver, Phase::post, t, r.fixed_exchange_s);
        l.add(driver, Phase::idle, t, handoff);
        // the first pass after the host's start() (the GPU waiting for its launch)
        const double first = l.add(kernels, Phase::idle, t0, r.first_pass_s);
        l.add(kernels, Phase::local, first, r.local_s);
        const double path = r.comm_s + 2.0 * handoff;
        double second = t0 + std::max(r.first_pass_s + r.local_s, path);
        if (path > r.first_pass_s + r.local_s) {
            second = l.add(Lane::compute, Phase::idle, second, r.sync_s);
        }
        l.add(kernels, Phase::nonlocal, second, r.nonlocal_s);
        return;
    }
    t = l.add(Lane::compute, Phase::pack, t, r.pack_s);
    t = l.add(Lane::compute, Phase::copy_d2h, t, r.copy_d2h_s);
    if (mode == Mode::vector) {
        t = l.add(Lane::compute, Phase::wait, t, r.exchange_s);
        t = l.add(Lane::compute, Phase::copy_h2d, t, r.copy_h2d_s);
        t = l.add(Lane::compute, Phase::post, t, r.fixed_exchange_s);
        l.add(kernels, Phase::local, t, r.merged_s);  // the whole SpMV in one step
        return;
    }
    // naive (and overlap on host ranks): the local SpMV, during which the host is busy
    // (GPU ranks: blocked on the kernel, drawn as idle); then the wait. With asynchronous
    // progress the library's engine moves the messages during the local SpMV (comm lane) and
    // the wait holds only what is left of them.
    const double local_end = l.add(kernels, Phase::local, t, r.local_s);
    if (gpu) {
        l.add(Lane::compute, Phase::idle, t, r.local_s);
    }
    if (async) {
        l.add(Lane::comm, Phase::exchange, t, r.exchange_s);
        t = l.add(Lane::compute, Phase::wait, local_end,
                  std::max(0.0, t + r.exchange_s - local_end));
    } else {
        t = l.add(Lane::compute, Phase::wait, local_end, r.exchange_s);
    }
    t = l.add(Lane::compute, Phase::copy_h2d, t, r.copy_h2d_s);
    t = l.add(Lane::compute, Phase::post, t, r.fixed_exchange_s);
    t = l.add(Lane::compute, Phase::idle, t, r.sync_s);  // wait_local's round trip
    l.add(kernels, Phase::nonlocal, t, r.nonlocal_s);
}

// ---------------------------------------------------------------------------------------------
// Light statistics

// The owning rank of every index of a partition (what owner_of returns, in O(1)).

ScalingPoint make_point(const PartitionStats& s, DistPrediction p, const DistPrediction& base)
{
    ScalingPoint pt;
    pt.num_ranks = s.num_ranks;
    pt.num_rows = s.num_rows;
    pt.nnz = s.nnz;
    pt.total_halo = s.total_halo;
    pt.max_bytes_received = s.max_bytes_received;
    pt.max_neighbours = s.max_neighbours;
    pt.nnz_imbalance = s.nnz_imbalance;
    pt.prediction = std::move(p);
    for (auto m : all_modes) {
        const double t = pt.prediction.time_s[m];
        const double t1 = base.time_s[m];
        const double work =
            base.nnz > 0 ? static_cast<double>(pt.nnz) / static_cast<double>(base.nnz) : 1.0;
        pt.speedup[m] = t > 0.0 ? work * t1 / t : 0.0;
        pt.efficiency[m] = pt.speedup[m] / pt.num_ranks;
    }
    return pt;
}

void check_ranks(const std::vector<int>& ranks)
{
    SPMV_EXPECTS(!ranks.empty(), "a scaling study needs at least one rank count");
    for (int p : ranks) {
        SPMV_EXPECTS(p >= 1, "rank counts must be >= 1, got " + std::to_string(p));
    }
}

// The statistics of one point of a scaling study, with the kernel shapes the per-format model
// needs when it prices the ranks.
PartitionStats stats_for(const Csr<double, std::int32_t>& a, const Partition& rows, int vb,
                         const RankDevice& device, const ModelOptions& options);

ScalingResult empty_result(PartitionKind kind, const RankDevice& device, const LinkProfile& link,
                           const ModelOptions& options)
{
    ScalingResult r;
    r.kind = kind;
    r.device = device_name(device);
    r.link = link.name;
    r.options = options;
    return r;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Profiles

std::span<const LinkProfile> links()
{
    return link_table();
}

const LinkProfile& find_link(std::string_view name)
{
    return model::detail::find_named(link_table(), name, "link");
}

LinkProfile custom_link(std::string name, double bandwidth_gbs, double latency_us)
{
    check_positive(bandwidth_gbs, "link bandwidth (GB/s)");
    SPMV_EXPECTS(std::isfinite(latency_us) && latency_us >= 0.0,
                 "link latency must be >= 0 us, got " + num(latency_us));
    return {std::move(name), bandwidth_gbs, latency_us, "user-supplied link (custom)"};
}

std::span<const FixedCosts> fixed_costs()
{
    return fixed_table();
}

const FixedCosts& find_fixed_costs(std::string_view path)
{
    return model::detail::find_named(fixed_table(), path, "exchange path's fixed costs");
}

FixedCosts custom_fixed_costs(std::string name, double exchange_us, double neighbour_us,
                              double sync_us, double handoff_us, double first_pass_us)
{
    for (const auto& [v, what] : {std::pair{exchange_us, "exchange_us"},
                                  std::pair{neighbour_us, "neighbour_us"},
                                  std::pair{sync_us, "sync_us"},
                                  std::pair{handoff_us, "handoff_us"},
                                  std::pair{first_pass_us, "first_pass_us"}}) {
        SPMV_EXPECTS(std::isfinite(v) && v >= 0.0, std::string("fixed cost ") + what +
                                                       " must be >= 0 us, got " + num(v));
    }
    return {std::move(name), exchange_us, neighbour_us, sync_us, handoff_us, first_pass_us,
            "user-supplied fixed costs (custom)"};
}

std::span<const HostProfile> hosts()
{
    return host_table();
}

const HostProfile& find_host(std::string_view name)
{
    return model::detail::find_named(host_table(), name, "host profile");
}

HostProfile custom_host(std::string name, double memory_bandwidth_gbs)
{
    check_positive(memory_bandwidth_gbs, "host memory bandwidth (GB/s)");
    return {std::move(name), memory_bandwidth_gbs, "user-supplied host bandwidth (custom)"};
}

std::string device_name(const RankDevice& d)
{
    return std::visit([](const auto& p) { return p.name; }, d);
}

bool is_gpu(const RankDevice& d) noexcept
{
    return std::holds_alternative<model::GpuProfile>(d);
}

double PerMode::operator[](Mode m) const noexcept
{
    return const_cast<PerMode&>(*this)[m];
}

double& PerMode::operator[](Mode m) noexcept
{
    switch (m) {
    case Mode::vector:
        return vector;
    case Mode::naive:
        return naive;
    case Mode::overlap:
        return overlap;
    case Mode::task:
        break;
    }
    return task;
}

int DistPrediction::slowest_rank(Mode m) const
{
    for (const auto& r : ranks) {
        if (r.time_s[m] == time_s[m]) {
            return r.rank;
        }
    }
    return 0;
}

double DistPrediction::fixed_time(Mode m) const
{
    const int slow = slowest_rank(m);
    for (const auto& r : ranks) {
        if (r.rank == slow) {
            return r.fixed_s[m];
        }
    }
    return 0.0;
}

double DistPrediction::gflops(Mode m) const
{
    const double t = time_s[m];
    return t > 0.0 ? 2.0 * static_cast<double>(nnz) / t / 1e9 : 0.0;
}

// ---------------------------------------------------------------------------------------------
// The model

bool uses_format_model(const RankDevice& device, const ModelOptions& options) noexcept
{
    return is_gpu(device) && !options.variant.empty();
}

RankTimes predict_rank(const RankStats& r, int value_bytes, const RankDevice& device,
                       const LinkProfile& link, const ModelOptions& options,
                       const RankKernels* kernels, const model::FormatModelConstants* constants,
                       bool any_exchange)
{
    check_options(options, link);
    const Rates rates = rates_of(device);
    const double sv = model::value_bytes(options.precision);
    SPMV_EXPECTS(value_bytes == static_cast<int>(sv),
                 "the statistics count " + std::to_string(value_bytes) +
                     " bytes per value but the model runs in " +
                     std::string(model::to_string(options.precision)));
    SPMV_EXPECTS(r.rows >= 0 && r.local_nnz >= 0 && r.nonlocal_nnz >= 0 && r.halo >= 0 &&
                     r.sent >= 0 && r.nonlocal_rows >= 0 && r.nonlocal_rows <= r.rows &&
                     r.boundary_local_nnz >= 0 && r.boundary_local_nnz <= r.local_nnz,
                 "rank " + std::to_string(r.rank) + " has negative or inconsistent counts");
    SPMV_EXPECTS(kernels == nullptr || (rates.gpu && constants != nullptr),
                 "the per-format model prices GPU ranks only, with a GPU's constants");
    const double launch_s = rates.gpu ? options.launch_latency_us * 1e-6 : 0.0;
    const double sent_bytes = static_cast<double>(r.sent) * sv;
    const double halo_bytes = static_cast<double>(r.halo) * sv;
    // The per-format model's time of one kernel (0 for one that does not run).
    auto kernel_s = [&](const model::KernelShape& k) {
        if (k.rows == 0) {
            return 0.0;
        }
        if (!k.feasible) {
            SPMV_THROW(InvalidArgument, "rank " + std::to_string(r.rank) + ": " + k.variant +
                                            " cannot run its block: " + k.why_not);
        }
        return model::predict(k, *constants, options.precision).time_s;
    };

    RankTimes t;
    t.rank = r.rank;
    // The two passes of overlap and task mode (none without halo). When the boundary rows (with
    // non-local entries) are at most a third of the rows (compressed_nonlocal), DistMatrix
    // runs the interior rows first (every row's y written, the boundary rows' as 0) and then
    // the boundary rows whole, local and non-local entries, into one product per row that a
    // scatter adds into y (reads it, its row index, y, writes y: 3 s_v + s_i); otherwise the
    // local block over every row, then the full-row non-local block adding into y (beta = 1).
    const bool row_split = r.halo > 0 && compressed_nonlocal(r.nonlocal_rows, r.rows);
    const std::int64_t first_nnz = row_split ? r.local_nnz - r.boundary_local_nnz : r.local_nnz;
    const double scatter_s =
        row_split ? operation_s(static_cast<double>(r.nonlocal_rows) * (3.0 * sv + model::index_bytes),
                                rates.memory_gbs, launch_s)
                  : 0.0;
    if (kernels != nullptr) {
        // the per-format model on the blocks as built (add_kernel_shapes)
        t.local_s = kernel_s(kernels->first);
        if (r.halo > 0) {
            t.nonlocal_s = kernel_s(kernels->second) + scatter_s;
            t.merged_s = kernels->merged.rows > 0 ? kernel_s(kernels->merged)
                                                  : t.local_s + t.nonlocal_s;
        } else {
            t.merged_s = t.local_s;  // no halo: the local block is the whole SpMV
        }
    } else {
        t.local_s = operation_s(block_bytes(r.rows, first_nnz, options.alpha, options.precision),
                                rates.memory_gbs, launch_s);
        if (r.halo > 0) {
            if (row_split) {
                t.nonlocal_s =
                    operation_s(block_bytes(r.nonlocal_rows, r.boundary_local_nnz + r.nonlocal_nnz,
                                            options.alpha, options.precision),
                                rates.memory_gbs, launch_s) +
                    scatter_s;
            } else {
                t.nonlocal_s = operation_s(
                    block_bytes(r.rows, r.nonlocal_nnz, options.alpha, options.precision),
                    rates.memory_gbs, launch_s);
            }
            // vector mode's single step: [local | non-local] in one pass over y
            t.merged_s = operation_s(block_bytes(r.rows, r.local_nnz + r.nonlocal_nnz,
                                                 options.alpha, options.precision),
                                     rates.memory_gbs, launch_s);
        } else {
            t.merged_s = t.local_s;  // no halo: the local block is the whole SpMV
        }
    }
    t.pack_s = operation_s(static_cast<double>(r.sent) * (model::index_bytes + 2.0 * sv),
                           rates.memory_gbs, launch_s);
    if (rates.gpu && options.stage_through_host) {
        t.copy_d2h_s = operation_s(sent_bytes, rates.pcie_gbs, launch_s);
        t.copy_h2d_s = operation_s(halo_bytes, rates.pcie_gbs, launch_s);
    }
    const int messages = std::max(r.send_neighbours, r.recv_neighbours);
    if (messages > 0 || sent_bytes > 0.0 || halo_bytes > 0.0) {
        t.exchange_s = link.latency_us * 1e-6 * messages +
                       std::max(sent_bytes, halo_bytes) / (link.bandwidth_gbs * 1e9);
    }
    // The fixed costs where the code pays them (model.hpp, "Which ranks pay them"): once some
    // rank exchanges, every rank runs its mode's schedule with an exchange (DistMatrix's
    // any_halo), but a rank's exchange posts, launches and waits for its own messages only.
    const bool exchanges = r.halo + r.sent > 0;
    if (options.fixed_costs && rates.gpu && (exchanges || any_exchange)) {
        const auto& f = *options.fixed_costs;
        if (exchanges) {
            t.fixed_exchange_s =
                (f.exchange_us + f.neighbour_us * std::max(0, messages - 1)) * 1e-6;
            t.first_pass_s = f.first_pass_us * 1e-6;
        }
        if (r.halo > 0) {  // a second pass to launch after the host's wait
            t.sync_s = f.sync_us * 1e-6;
        }
        t.handoff_s = f.handoff_us * 1e-6;  // task mode's thread runs on every rank
    }
    finish_modes(t, options, rates.gpu);
    return t;
}

DistPrediction predict_distributed(const PartitionStats& stats, const RankDevice& device,
                                   const LinkProfile& link, const ModelOptions& options)
{
    SPMV_EXPECTS(
        stats.num_ranks >= 1 && stats.ranks.size() == static_cast<std::size_t>(stats.num_ranks),
        "the statistics must hold one entry per rank (" + std::to_string(stats.ranks.size()) +
            " for " + std::to_string(stats.num_ranks) + " ranks)");
    DistPrediction p;
    p.device = device_name(device);
    p.gpu = is_gpu(device);
    p.link = link.name;
    p.kind = stats.kind;
    p.options = options;
    p.num_ranks = stats.num_ranks;
    p.nnz = stats.nnz;
    p.ranks.reserve(stats.ranks.size());
    const bool per_format = uses_format_model(device, options);
    std::optional<model::FormatModelConstants> constants;
    if (per_format) {
        const auto& k = stats.kernels;
        SPMV_EXPECTS(k.variant == options.variant && k.ranks.size() == stats.ranks.size() &&
                         k.merged_block == options.merged_block,
                     "the per-format model needs the statistics' kernel shapes of variant '" +
                         options.variant + "' (merged block " +
                         (options.merged_block ? "on" : "off") + "): call add_kernel_shapes" +
                         (k.variant.empty() ? "" : " (they hold '" + k.variant + "')"));
        constants = options.constants ? *options.constants
                                      : model::builtin_constants(std::get<model::GpuProfile>(device));
        p.kernel_model = "per-format model (" + options.variant + " on " + p.device +
                         "; constants: " + constants->source + ")";
    } else {
        p.kernel_model = "Kreutzer eq. 2 (alpha = " + num(options.alpha) + ")";
    }
    if (options.fixed_costs && p.gpu) {
        const auto& f = *options.fixed_costs;
        p.fixed_costs = f.name + " (exchange " + num(f.exchange_us) + " us, +" +
                        num(f.neighbour_us) + " us per further neighbour, sync " +
                        num(f.sync_us) + " us, hand-off " + num(f.handoff_us) +
                        " us, first pass " + num(f.first_pass_us) + " us)";
    }
    // DistMatrix's any_halo: some rank receives or sends, so every rank runs the exchange
    const bool any_exchange = std::any_of(stats.ranks.begin(), stats.ranks.end(),
                                          [](const RankStats& r) { return r.halo + r.sent > 0; });
    for (std::size_t i = 0; i < stats.ranks.size(); ++i) {
        p.ranks.push_back(predict_rank(stats.ranks[i], stats.value_bytes, device, link, options,
                                       per_format ? &stats.kernels.ranks[i] : nullptr,
                                       per_format ? &*constants : nullptr, any_exchange));
        for (auto m : all_modes) {
            p.time_s[m] = std::max(p.time_s[m], p.ranks.back().time_s[m]);
        }
    }
    return p;
}

Timeline predicted_timeline(const DistPrediction& p, Mode mode, int iterations)
{
    SPMV_EXPECTS(iterations >= 1,
                 "a timeline needs at least one iteration, got " + std::to_string(iterations));
    Timeline t;
    t.mode = mode;
    t.num_ranks = p.num_ranks;
    t.partition = std::string(to_string(p.kind));
    t.device = p.device;
    t.precision = p.options.precision == model::Precision::single_precision ? "float" : "double";
    t.predicted = true;
    for (int i = 0; i < iterations; ++i) {
        const double t0 = i * p.time_s[mode];
        for (const auto& r : p.ranks) {
            lay_out(Layout{&t, r.rank, i}, r, p.gpu, mode, p.options.async_progress, t0);
        }
    }
    return t;
}

// ---------------------------------------------------------------------------------------------
// Light statistics: the numbers analyse(distribute(a, rows)) gives, from the CSR arrays alone.
// A column c of a row of rank r is local when the column partition gives it to r; otherwise it
// is a halo entry of r owned by o, counted once per (r, c) with the stamp seen[c] == r, and it
// adds one entry to comm[o * P + r]. A rank's rows are visited together (all rows of rank 0,
// then rank 1, ...), so one stamp array serves every rank.

template <typename ValueType>
PartitionStats partition_stats(const Csr<ValueType, std::int32_t>& a, const Partition& rows,
                               int value_bytes)
{
    validate(rows);
    SPMV_EXPECTS(rows.size == a.num_rows, "the partition does not match the matrix's rows");
    SPMV_EXPECTS(value_bytes > 0, "value_bytes must be positive");
    const Partition cols = column_partition(rows, a.num_cols);
    const int P = rows.num_ranks;
    const auto Pz = static_cast<std::size_t>(P);
    const std::vector<std::int32_t> col_owner = cols.owners();
    std::vector<global_index> own_cols(Pz, 0);
    for (auto o : col_owner) {
        ++own_cols[static_cast<std::size_t>(o)];
    }
    // Rows grouped by rank, ascending within a rank (a counting sort of the owners).
    std::vector<std::size_t> first(Pz + 1, 0);
    std::vector<std::int32_t> order;
    if (rows.contiguous()) {
        for (std::size_t r = 0; r <= Pz; ++r) {
            first[r] = static_cast<std::size_t>(rows.offsets[r]);
        }
    } else {
        for (auto o : rows.owner) {
            ++first[static_cast<std::size_t>(o) + 1];
        }
        for (std::size_t r = 0; r < Pz; ++r) {
            first[r + 1] += first[r];
        }
        order.resize(rows.owner.size());
        std::vector<std::size_t> next(first.begin(), first.end() - 1);
        for (std::size_t g = 0; g < rows.owner.size(); ++g) {
            order[next[static_cast<std::size_t>(rows.owner[g])]++] = static_cast<std::int32_t>(g);
        }
    }

    PartitionStats s;
    s.kind = rows.kind;
    s.num_ranks = P;
    s.num_rows = rows.size;
    s.num_cols = cols.size;
    s.value_bytes = value_bytes;
    s.comm.assign(Pz * Pz, 0);
    std::vector<RankStats> rs(Pz);
    std::vector<std::int32_t> seen(static_cast<std::size_t>(a.num_cols), -1);
    std::vector<std::int32_t> neighbour(Pz, -1);
    for (int r = 0; r < P; ++r) {
        auto& st = rs[static_cast<std::size_t>(r)];
        st.rank = r;
        st.own_cols = own_cols[static_cast<std::size_t>(r)];
        for (auto k = first[static_cast<std::size_t>(r)];
             k < first[static_cast<std::size_t>(r) + 1]; ++k) {
            const auto row = static_cast<std::size_t>(order.empty() ? k : order[k]);
            bool has_nonlocal = false;
            std::int64_t row_local = 0;
            for (auto e = a.row_ptrs[row]; e < a.row_ptrs[row + 1]; ++e) {
                const auto c = a.col_idxs[static_cast<std::size_t>(e)];
                if (c < 0 || c >= a.num_cols) {
                    SPMV_THROW(InvalidArgument, "column " + std::to_string(c) + " of row " +
                                                    std::to_string(row) + " outside [0, " +
                                                    std::to_string(a.num_cols) + ")");
                }
                const auto cz = static_cast<std::size_t>(c);
                const int o = col_owner[cz];
                if (o == r) {
                    ++st.local_nnz;
                    ++row_local;
                    continue;
                }
                ++st.nonlocal_nnz;
                has_nonlocal = true;
                if (seen[cz] != r) {
                    seen[cz] = r;
                    ++st.halo;
                    ++s.comm[static_cast<std::size_t>(o) * Pz + static_cast<std::size_t>(r)];
                    if (neighbour[static_cast<std::size_t>(o)] != r) {
                        neighbour[static_cast<std::size_t>(o)] = r;
                        ++st.recv_neighbours;
                    }
                }
            }
            if (has_nonlocal) {
                ++st.nonlocal_rows;
                st.boundary_local_nnz += row_local;
            }
            ++st.rows;
        }
        st.nnz = st.local_nnz + st.nonlocal_nnz;
    }
    // The send side; the totals by finish_totals, as analyse() forms them (the same doubles).
    for (std::size_t r = 0; r < Pz; ++r) {
        auto& st = rs[r];
        for (std::size_t d = 0; d < Pz; ++d) {
            const auto n = s.comm[r * Pz + d];
            st.sent += n;
            st.send_neighbours += n > 0 ? 1 : 0;
        }
        st.bytes_received = static_cast<double>(st.halo) * value_bytes;
        st.bytes_sent = static_cast<double>(st.sent) * value_bytes;
    }
    s.ranks = std::move(rs);
    finish_totals(s);
    return s;
}

template PartitionStats partition_stats<double>(const Csr<double, std::int32_t>&, const Partition&,
                                                int);
template PartitionStats partition_stats<float>(const Csr<float, std::int32_t>&, const Partition&,
                                               int);

// ---------------------------------------------------------------------------------------------
// Scaling studies

namespace {

PartitionStats stats_for(const Csr<double, std::int32_t>& a, const Partition& rows, int vb,
                         const RankDevice& device, const ModelOptions& options)
{
    auto s = partition_stats(a, rows, vb);
    if (uses_format_model(device, options)) {
        add_kernel_shapes(s, a, rows, options.variant, options.params, options.merged_block);
    }
    return s;
}

}  // namespace

ScalingResult predict_scaling(const Csr<double, std::int32_t>& a, PartitionKind kind,
                              const std::vector<int>& ranks, const RankDevice& device,
                              const LinkProfile& link, const ModelOptions& options)
{
    check_ranks(ranks);
    const int vb = model::value_bytes(options.precision);
    auto result = empty_result(kind, device, link, options);
    // P = 1 needs no partitioner (nor METIS): the whole matrix is rank 0's local block.
    const auto one = stats_for(a, partition_rows(a.num_rows, 1), vb, device, options);
    result.baseline = predict_distributed(one, device, link, options);
    result.baseline.kind = kind;
    for (int P : ranks) {
        const auto s = P == 1 ? one : stats_for(a, make_partition(a, kind, P), vb, device, options);
        auto p = predict_distributed(s, device, link, options);
        p.kind = kind;
        result.points.push_back(make_point(s, std::move(p), result.baseline));
    }
    return result;
}

ScalingResult predict_weak_scaling(std::int32_t k, PartitionKind kind,
                                   const std::vector<int>& ranks, const RankDevice& device,
                                   const LinkProfile& link, const ModelOptions& options)
{
    check_ranks(ranks);
    SPMV_EXPECTS(k >= 1,
                 "k (grid points per rank and direction) must be >= 1, got " + std::to_string(k));
    const int vb = model::value_bytes(options.precision);
    auto result = empty_result(kind, device, link, options);
    const auto one = gen::pde(k);
    result.baseline = predict_distributed(
        stats_for(one, partition_rows(one.num_rows, 1), vb, device, options), device, link,
        options);
    result.baseline.kind = kind;
    for (int P : ranks) {
        const auto K = static_cast<std::int32_t>(
            std::max(1L, std::lround(k * std::cbrt(static_cast<double>(P)))));
        const auto a = gen::pde(K);
        const auto s = stats_for(
            a, P == 1 ? partition_rows(a.num_rows, 1) : make_partition(a, kind, P), vb, device,
            options);
        auto p = predict_distributed(s, device, link, options);
        p.kind = kind;
        result.points.push_back(make_point(s, std::move(p), result.baseline));
    }
    return result;
}

}  // namespace spmv::dist
