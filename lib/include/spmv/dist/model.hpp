#pragma once
/// The performance model of ONE distributed SpMV y = A x over P ranks: each rank's kernels
/// priced by a single-GPU model, plus the halo path of Kreutzer et al. §III.A (Fig. 4),
/// combined for the four modes of timeline.hpp (Kreutzer's vector, naive overlap and task
/// mode, and the GPU-era explicit overlap). MPI-free: it needs only the PartitionStats of a
/// partition, which partition_stats() computes straight from the CSR matrix.
///
/// Which single-GPU model prices a rank's kernels (the first pass, the second pass and vector
/// mode's merged block; DistPrediction::kernel_model says which was used):
///   - THE PER-FORMAT MODEL (the project's, the advisor's; spmv/model/format_model.hpp) when
///     ModelOptions::variant names the GPU kernel variant the ranks run and the ranks are GPUs:
///     each block, built as DistMatrix builds it (add_kernel_shapes), counted by
///     model::kernel_shapes and priced by model::predict with the profile's constants
///     (model::builtin_constants(gpu), or ModelOptions::constants from `spmvlab calibrate`):
///       T_block = F_v + (L^q + M^q)^(1/q),  L = c_v critical trips,
///                 M = max(DRAM bytes / B_GPU, L2 sectors 32 / B_L2, tau warp trips, heaviest warp)
///       (q fitted per card, 1.0 on the H100 and the H200: L + M)
///     so the format's padding, index width, x gather and fixed cost count, and SELL-C-sigma
///     and CSR get different times on the same block. The boundary rows' scatter, the gather
///     of the send buffer and the copies keep the bandwidth terms below (no fitted constants
///     exist for them). alpha does not apply: the per-format model counts the x gather.
///   - KREUTZER'S eq. 2 (the paper's, format-agnostic; model/performance.hpp) otherwise: with
///     an empty ModelOptions::variant (the default), on host ranks (HostProfile), and beside
///     the per-format prediction in `spmvlab dist plan` / `dist bench` as the paper's number.
///     Its terms are listed here; the per-format model replaces T_local, T_nonlocal and
///     T_merged only (the scatter term stays).
/// Why (docs/distributed.md, "The model against the measurements, per format", the table and
/// its records): on 2 H200, pde400 in SELL was predicted 1,160 us by eq. 2 and measured 770 us:
/// eq. 2 charges 20 bytes per nonzero whatever the format; the per-format model charges the
/// 12 bytes SELL streams plus the L2 gather of x (856 us with the H100's constants scaled to
/// the H200; 1,002 us, 1.30x slow, with the H200's own fit: docs/distributed.md says why).
///
/// Per rank (s_v = 8 (DP) or 4 (SP) value bytes, s_i = 4 index bytes, B the rank's memory
/// bandwidth (GPU: B_GPU, host rank: HostProfile), B_PCI the GPU's PCIe bandwidth, B_L and
/// lat the link's bandwidth and per-message latency):
///   The first and second pass of naive, overlap and task mode, as DistMatrix runs them:
///   - Kreutzer's split by columns (boundary rows, those with non-local entries, more than a
///     third of the rows):
///     T_local    = [local_nnz (s_v + s_i + s_v alpha) + 2 s_v rows] / B
///                = model::t_mvm_seconds(rows, local_nnz / rows, alpha, B)
///     T_nonlocal = [nonlocal_nnz (s_v + s_i + s_v alpha) + 2 s_v rows] / B   (0 without halo)
///                  the full-row non-local block loads and stores y again: per flop
///                  2 s_v / (2 N_nzr) more, Kreutzer's "+8/N_nzt bytes/flop" in DP.
///   - the split by rows (nonlocal_rows <= rows / 3, compressed_nonlocal): the interior rows
///     first, then the boundary rows whole (local and non-local entries) into one product
///     per row, scattered into y; every row is summed once, so the result does not depend on
///     the mode (the same y as vector mode to the last bit):
///     T_local    = [(local_nnz - boundary_local_nnz) (s_v + s_i + s_v alpha) + 2 s_v rows] / B
///     T_nonlocal = [(boundary_local_nnz + nonlocal_nnz) (s_v + s_i + s_v alpha)
///                   + 2 s_v nonlocal_rows] / B  +  nonlocal_rows (3 s_v + s_i) / B (scatter)
///   T_merged   = [nnz (s_v + s_i + s_v alpha) + 2 s_v rows] / B   vector mode's single step
///                over [local | non-local] (DistOptions::merged_block); T_local without halo
///   T_pack     = sent (s_i + 2 s_v) / B     gather: read an index and an x entry, write it
///   T_d2h      = sent s_v / B_PCI           send buffer to the host (GPU ranks only)
///   T_exchange = lat max(send_neighbours, recv_neighbours) + max(sent, halo) s_v / B_L
///                Sends and receives proceed at once (full duplex): one latency per message of
///                the longer list, the larger of the two volumes.
///   T_h2d      = halo s_v / B_PCI           received halo to the device (GPU ranks only)
///   T_comm     = T_pack + T_d2h + T_exchange + T_h2d
/// x and y stay on the device between products (a solver's setting): unlike model::predict's
/// T_PCI, only the halo crosses PCIe. alpha (x reuse, 1 = none) is clamped to
/// [1/N_nzr, 1] of each block, since no block can reuse x better than perfectly.
///
/// Modes (mode.hpp's Mode), each by what it really overlaps:
///   vector  = T_comm + T_merged               Kreutzer's vector mode: exchange first, then
///             the whole SpMV at once; nothing overlaps.
///   naive   = T_pack + T_d2h + T_local + T_exchange + T_h2d + T_nonlocal
///           = T_comm + T_local + T_nonlocal   Kreutzer's naive overlap, as run: the send buffer
///             is packed (GPU ranks: and copied to the host) before the sends are posted, the
///             host is busy in (GPU ranks: blocked on) the local SpMV, and the messages move
///             only inside MPI calls, i.e. in MPI_Waitall after it. Nothing is hidden, and the
///             split's second pass over y costs extra: naive >= vector (the paper: "no
///             advantage even over vector mode"; Open MPI 4.1, `ompi_info`: "OMPI progress:
///             no"). With ModelOptions::async_progress (a library that progresses messages in
///             the background) T_local + T_exchange becomes max(T_local, T_exchange).
///   overlap = GPU ranks: max(T_local, T_comm) + T_nonlocal   explicit overlap, the GPU-era
///             schedule (the project's, not the paper's): gather and copy queued before the
///             local kernel, the host drives the exchange (its MPI_Waitall progresses the
///             messages) while the GPU computes. Host ranks: = naive (their one thread cannot
///             compute and sit in MPI at once).
///   task    = max(T_local, T_comm) + T_nonlocal   Kreutzer's task mode: a communication
///             thread drives the whole halo path while the GPU or the host runs the local
///             block. At most 2x faster than vector (Kreutzer §III: "at most a factor of two").
/// On GPU ranks explicit overlap and task mode get the same bandwidth terms (both hide the halo
/// path behind the local kernel); they differ by task mode's two thread hand-offs, which only
/// the fixed costs below count (ModelOptions::fixed_costs; without them the two are equal).
/// T(mode) = max over ranks: the exchange synchronises neighbouring ranks once per product (a
/// rank without messages waits for none), and the bench times each product after a barrier.
///
/// Worked example (tests/dist/test_dist_model.cpp): B = 100 GB/s, B_PCI = 10 GB/s, link 5 GB/s
/// and 2 us, DP, alpha = 1; a rank with 1000 rows, 6000 local and 1000 non-local nonzeros in
/// 500 rows, halo 800 and sent 600 entries to and from one neighbour:
///   T_local = (6000*20 + 16*1000)/1e11 = 1.36 us   T_nonlocal = (1000*20 + 16*1000)/1e11 = 0.36
///   T_merged = (7000*20 + 16*1000)/1e11 = 1.56 us
///   T_pack = 600*20/1e11 = 0.12   T_d2h = 4800/1e10 = 0.48   T_h2d = 6400/1e10 = 0.64
///   T_exchange = 2 + 6400/5e9 = 3.28 us   T_comm = 4.52 us
///   vector = 4.52 + 1.56 = 6.08 us   naive = 4.52 + 1.36 + 0.36 = 6.24 us
///   overlap (GPU) = task = max(1.36, 4.52) + 0.36 = 4.88 us
/// The per-format model's worked example (tests/dist/test_dist_model_format.cpp): 64 rows of
/// (-1, 2, -1) over 2 ranks, csr with F = 5 us and c = 50 ns per trip: every kernel is
/// latency-bound at 3 trips, 5.15 us; with the halo path (2.0034 us) vector = 7.1534 us and
/// task = 5.15 + 5.15028 = 10.30 us: the second kernel's fixed cost, which eq. 2 (T_local
/// 23.5 ns) cannot see.
///
/// THE DISTRIBUTED PRODUCT'S FIXED COSTS (ours, not Kreutzer's; ModelOptions::fixed_costs, off
/// in the library by default, on in `spmvlab dist plan / bench / chart` for GPU ranks:
/// `--fixed-costs`).
/// The terms above price bytes and one link latency per message; the product as
/// distributed/src runs it also waits on the host, hands tokens between ranks and launches
/// again after every wait. Per product, on a GPU rank that exchanges (nb = max(send, recv)
/// neighbours; schedule.cpp run_schedule, halo_exchange.cpp, blocks.cpp DeviceBlocks):
///   path         events of ONE halo exchange (start + send + finish)
///   host-staged  launches: gather, copy d2h, (after the MPI wait) copy h2d; host syncs: 1
///                (send(): the host waits for gather + copy, DeviceExchange::send); MPI: irecv
///                + isend per neighbour, one MPI_Waitall (CudaAwareExchange::complete)
///   cuda-ipc     launches: gather, one peer copy per neighbour (after the "packed" tokens);
///                host syncs: 2 (send(); after the peer copies, CudaIpcExchange::complete);
///                token handshakes: 2 rounds per neighbour ("packed", "consumed": irecv, isend,
///                MPI_Waitall each)
///   nccl         launches: gather, one ncclGroup (ncclSend/ncclRecv, NcclExchange::post_sends);
///                host syncs: 0 (everything queued on the stream)
///   mode     where the exchange sits     extra on the kernel path
///   vector   before the merged SpMV      none (the merged SpMV is queued behind the halo)
///   naive    before the first pass       1 host round trip: wait_local (the host blocks on
///                                        the first pass, blocks.cpp), then the second pass's
///                                        launch
///   overlap  beside the first pass       the first pass's delay: start() (receives posted,
///                                        the gather launched on the comm stream) goes first;
///                                        1 host round trip when the halo path ends after the
///                                        first pass (the second pass is launched after
///                                        finish(), behind the halo_ready event)
///   task     beside, on the comm thread  as overlap, and 2 thread hand-offs (CommThread run,
///                                        join: comm_thread.hpp) on the halo path
/// The single-GPU product's own launch and final synchronisation are not counted: the
/// per-format model's F_v (and a rank without halo) already hold them. The records cannot
/// price the events one by one (the timelines' GPU gap after a host wait, 7.8-9.1 us on the
/// H200 host, is inflated by their own event records; the bench medians carry no phases), so
/// they are priced per exchange path by five MEASURED constants (FixedCosts; the table in
/// model.cpp with the records, derived by docs/benchmarks/dist_model_2026-11-28/fixed_costs.py):
///   T_fixed_exchange = exchange_us + neighbour_us (nb - 1)   on the halo path: T_comm grows
///   T_sync           = sync_us                               one extra host round trip
///   T_handoff        = handoff_us                            one thread hand-off (task)
///   T_first          = first_pass_us                         overlap / task: first pass delay
/// and the modes become (T_comm including T_fixed_exchange; [c] = 1 if c else 0;
/// L = T_first + T_local):
///   vector  = T_comm + T_merged
///   naive   = T_comm + T_local + T_sync + T_nonlocal     (async_progress: as before + T_sync)
///   overlap = max(L, T_comm) + [T_comm > L] T_sync + T_nonlocal
///   task    = max(L, T_comm + 2 T_handoff) + [T_comm + 2 T_handoff > L] T_sync + T_nonlocal
/// Which ranks pay them (schedule.cpp run_schedule, halo_exchange.cpp make_halo_exchange): once
/// ANY rank receives or sends (DistMatrix's any_halo), EVERY rank runs its mode's schedule with
/// an exchange, but the exchange is point to point, not collective: a rank posts, gathers,
/// copies, hands tokens and waits for its own messages only (no barrier, no collective; NCCL's
/// group is skipped when a rank has no peer), and the second pass runs only over a halo. So,
/// per GPU rank:
///   term             charged when                       why
///   T_fixed_exchange the rank receives or sends         its own tokens, launches, host waits
///   T_first          the rank receives or sends         start() posts and launches its own
///   T_sync           the rank receives (halo > 0)       the second pass launched after a wait
///   T_handoff        any rank receives or sends         task mode's thread runs on every rank
/// A rank with neither halo nor sent entries in a product where others exchange: vector, naive,
/// overlap = T_local; task = max(T_local, 2 T_handoff) (it waits for the thread's empty job,
/// not for the other ranks: no message reaches it, and the bench times each product after a
/// barrier as the slowest rank's time). No rank exchanging (any_halo false): no exchange at
/// all, no fixed cost. A rank that only sends pays no T_sync (it has no second pass). Host
/// ranks and ModelOptions::fixed_costs empty: all zero, the numbers above to the last bit.
/// Worked example with fixed costs (test_dist_model.cpp): rank 0 of
/// the worked example above, exchange_us 10, neighbour_us 4 (nb = 1: not charged), sync_us 8,
/// handoff_us 3, first_pass_us 5: T_comm = 4.52 + 10 = 14.52 us; vector = 14.52 + 1.56 =
/// 16.08 us; naive = 14.52 + 1.36 + 8 + 0.36 = 24.24 us; L = 6.36 us, so overlap = 14.52 + 8 +
/// 0.36 = 22.88 us and task = 14.52 + 6 + 8 + 0.36 = 28.88 us. Its rank 1 (T_local =
/// 154 us) hides the halo path: overlap = task = 5 + 154 + 4.2 = 163.2 us.
///
/// Every built-in profile below is an ASSUMPTION with its source in `note`; measure the
/// machine at hand and use custom_link / custom_host / model::custom where it matters.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <spmv/dist/partition.hpp>
#include <spmv/dist/partition_stats.hpp>
#include <spmv/dist/timeline.hpp>
#include <spmv/formats/csr.hpp>
#include <spmv/model/format_model.hpp>
#include <spmv/model/gpu_profile.hpp>
#include <spmv/model/performance.hpp>
#include <spmv/registry.hpp>

namespace spmv::dist {

/// Whether DistMatrix keeps a rank's non-local block compressed to its rows with non-local
/// entries (then a scatter adds the products into y) rather than full-row (beta = 1 over every
/// y entry): when those rows are at most a third of the rank's rows. In DP the full-row pass
/// moves 16 bytes of y per row; the compressed one 16 + 28 bytes per row with entries: even at
/// 16/44 = 0.36.
constexpr bool compressed_nonlocal(std::int64_t nonlocal_rows, std::int64_t rows)
{
    return 3 * nonlocal_rows <= rows;
}


/// The network (or bus) between two ranks, as one bandwidth and one latency per message.
///   name      GB/s  latency  what
///   pcie4     25    2 us     PCIe 4.0 x16 peer-to-peer (31.5 GB/s nominal per direction)
///   pcie5     50    2 us     PCIe 5.0 x16 peer-to-peer (63 GB/s nominal per direction)
///   nvlink4   300   3 us     H100 NVLink 4 via NVSwitch, CUDA-aware MPI (450 nominal)
///   ib-hdr    25    1.5 us   InfiniBand HDR 4x, 200 Gb/s
///   ib-ndr    50    1.5 us   InfiniBand NDR 4x, 400 Gb/s
///   host-shm  4.8   0.9 us   ranks of one node through shared memory (measured, H200 host)
struct LinkProfile {
    std::string name;
    double bandwidth_gbs = 0.0;  ///< one direction, GB/s (1e9 bytes/s)
    double latency_us = 0.0;     ///< per message
    std::string note;            ///< where the numbers come from; what is assumed
};

/// The built-in links, in the order of the table above.
std::span<const LinkProfile> links();

/// Looks a built-in link up by name, ignoring case. Throws InvalidArgument listing the names.
const LinkProfile& find_link(std::string_view name);

/// A user-supplied link. Throws InvalidArgument for a non-positive bandwidth or a negative
/// latency.
LinkProfile custom_link(std::string name, double bandwidth_gbs, double latency_us);

/// The fixed costs of one distributed product on GPU ranks for one exchange path (see "THE
/// DISTRIBUTED PRODUCT'S FIXED COSTS" above), in us. Built in: "host-staged", "cuda-ipc",
/// "nccl" (MEASURED on the H200 host, their notes name the records), and "cuda-aware" (=
/// host-staged's, ASSUMED: no record).
struct FixedCosts {
    std::string name;           ///< the exchange path
    double exchange_us = 0.0;   ///< one halo exchange with one neighbour, on the halo path
    double neighbour_us = 0.0;  ///< each further neighbour
    double sync_us = 0.0;       ///< one extra host round trip on the kernel path
    double handoff_us = 0.0;    ///< one hand-off to or from task mode's communication thread
    /// overlap and task mode: how much later the first pass starts than in a product without
    /// exchange (the host's start() and the gather's launch go first, blocks.cpp begin())
    double first_pass_us = 0.0;
    std::string note;           ///< where the numbers come from
};

/// The built-in fixed costs, one per exchange path.
std::span<const FixedCosts> fixed_costs();
/// The built-in fixed costs of an exchange path (host-staged, cuda-ipc, nccl, cuda-aware),
/// ignoring case; throws InvalidArgument listing the names.
const FixedCosts& find_fixed_costs(std::string_view path);
/// User-supplied fixed costs; throws InvalidArgument for a negative or non-finite value.
FixedCosts custom_fixed_costs(std::string name, double exchange_us, double neighbour_us,
                              double sync_us, double handoff_us, double first_pass_us);

/// A CPU rank: the SpMV and the gather stream through host memory at `memory_bandwidth_gbs`,
/// and nothing crosses PCIe. Built in: "cpu-core", 10 GB/s per rank (see its note).
struct HostProfile {
    std::string name;
    double memory_bandwidth_gbs = 0.0;  ///< what ONE rank attains, GB/s
    std::string note;
};

std::span<const HostProfile> hosts();
/// Looks a built-in host profile up by name, ignoring case; throws InvalidArgument.
const HostProfile& find_host(std::string_view name);
/// Throws InvalidArgument for a non-positive bandwidth.
HostProfile custom_host(std::string name, double memory_bandwidth_gbs);

/// What every rank runs on: one GPU per rank, or a CPU rank.
using RankDevice = std::variant<model::GpuProfile, HostProfile>;
std::string device_name(const RankDevice& d);
bool is_gpu(const RankDevice& d) noexcept;

struct ModelOptions {
    model::Precision precision = model::Precision::double_precision;
    double alpha = 1.0;           ///< x reuse, (0, 1]; clamped per block (see above)
    /// The MPI library progresses messages in the background (a progress thread): naive mode
    /// (and overlap on host ranks, which is naive) then hides the exchange behind the local
    /// SpMV. Default false, as Open MPI 4.1 ("OMPI progress: no"). Explicit overlap and task
    /// mode drive the exchange themselves and do not depend on it.
    bool async_progress = false;
    /// GPU ranks copy the send buffer to the host and the halo back (T_d2h, T_h2d). false: a
    /// CUDA-aware MPI moves device buffers itself (the link, e.g. nvlink4, carries them).
    bool stage_through_host = true;
    /// Fixed cost of every GPU operation that has work (the two kernels, the gather and the
    /// copies): launch plus synchronisation, ASSUMED a few us on current GPUs. 0 (default)
    /// keeps Kreutzer's pure bandwidth model. Host ranks ignore it. The per-format model's
    /// kernels carry their own fitted fixed cost (F_v) and do not add it. The distributed
    /// product's MEASURED fixed costs are `fixed_costs` below (per product and mode, not per
    /// operation); `spmvlab` leaves this one at 0.
    double launch_latency_us = 0.0;
    /// The GPU kernel variant the ranks run (a name of model::modelled_variants(); the
    /// format's default kernel is model::format_variant(format)->name, "csr", "sell", ...):
    /// GPU ranks' kernels are then priced by the per-format model on their blocks, whose
    /// shapes the statistics must carry for this variant (add_kernel_shapes; predict_scaling
    /// and predict_weak_scaling add them themselves). Empty (default): Kreutzer's eq. 2.
    std::string variant;
    /// The variant's parameters (predict_scaling / predict_weak_scaling pass them to
    /// add_kernel_shapes; sigma 0 = auto, resolved per block as spmv::build does).
    FormatParams params;
    /// Vector mode runs one merged block (DistOptions::merged_block; `dist --split-blocks`
    /// turns it off): with the per-format model, false prices vector mode as the two passes.
    bool merged_block = true;
    /// The per-format model's constants; empty: model::builtin_constants(the GPU profile).
    std::optional<model::FormatModelConstants> constants;
    /// The distributed product's fixed costs on GPU ranks (see above); empty (default): none,
    /// Kreutzer's terms only. Host ranks ignore them.
    std::optional<FixedCosts> fixed_costs;
};

/// Whether the per-format model prices the kernels of `device` under `options`: a GPU rank
/// and a variant named.
bool uses_format_model(const RankDevice& device, const ModelOptions& options) noexcept;

/// One number per mode (times in seconds, speedups, efficiencies).
struct PerMode {
    double vector = 0.0;
    double naive = 0.0;
    double overlap = 0.0;
    double task = 0.0;
    double operator[](Mode m) const noexcept;
    double& operator[](Mode m) noexcept;
};

/// The model's breakdown for one rank, in seconds.
struct RankTimes {
    int rank = 0;
    double local_s = 0.0;
    double nonlocal_s = 0.0;
    /// Vector mode's single-step SpMV of the merged [local | non-local] block (one pass over
    /// y; DistOptions::merged_block); local_s when the rank has no halo.
    double merged_s = 0.0;
    double pack_s = 0.0;
    double copy_d2h_s = 0.0;
    double exchange_s = 0.0;
    double copy_h2d_s = 0.0;
    /// The exchange's fixed cost (ModelOptions::fixed_costs: exchange_us + neighbour_us (nb-1);
    /// 0 without them, on host ranks and on a rank that neither receives nor sends).
    double fixed_exchange_s = 0.0;
    /// one extra host round trip (FixedCosts::sync_us) before the second pass; 0 without halo
    double sync_s = 0.0;
    /// one thread hand-off (FixedCosts::handoff_us) on every GPU rank once any rank exchanges
    /// (task mode's thread runs everywhere), or 0
    double handoff_s = 0.0;
    /// overlap / task: the first pass's delay on a rank that receives or sends, or 0
    double first_pass_s = 0.0;
    double comm_s = 0.0;  ///< pack + copy_d2h + exchange + copy_h2d + fixed_exchange
    PerMode time_s;       ///< this rank's time of one SpMV in each mode
    /// The fixed costs' share of time_s in each mode (0 without them).
    PerMode fixed_s;
};

/// The model's prediction for one partition.
struct DistPrediction {
    std::string device;  ///< profile name
    /// What priced the kernels: "per-format model (sell on H200; constants: ...)" or
    /// "Kreutzer eq. 2 (alpha = 1)".
    std::string kernel_model;
    /// "none", or "<path> (exchange E us, +N us per further neighbour, sync S us, hand-off H
    /// us)" when ModelOptions::fixed_costs priced GPU ranks.
    std::string fixed_costs = "none";
    bool gpu = true;
    std::string link;
    PartitionKind kind = PartitionKind::rows;
    ModelOptions options;
    int num_ranks = 1;
    std::int64_t nnz = 0;
    std::vector<RankTimes> ranks;
    PerMode time_s;  ///< one SpMV: the slowest rank's time in each mode

    int slowest_rank(Mode m) const;  ///< the first rank with time_s[m]
    double gflops(Mode m) const;     ///< 2 nnz / time / 1e9 (0 for time 0)
    /// The fixed costs' share of time_s[m] on the slowest rank (RankTimes::fixed_s; 0 without).
    double fixed_time(Mode m) const;
};

/// The model for one rank, its kernels by Kreutzer's eq. 2, or by the per-format model with
/// `constants` when `kernels` is given (a GPU device only). `any_exchange`: some rank of the
/// partition receives or sends, so this one runs the exchange too, even without messages of
/// its own (its task-mode hand-offs count: "Which ranks pay them" above); a rank with halo or
/// sent entries exchanges whatever it says (predict_distributed sets it from the statistics).
/// Throws InvalidArgument for alpha outside (0, 1], a non-positive bandwidth, a negative
/// latency, or a block the variant cannot run (the shape's why_not).
RankTimes predict_rank(const RankStats& r, int value_bytes, const RankDevice& device,
                       const LinkProfile& link, const ModelOptions& options = {},
                       const RankKernels* kernels = nullptr,
                       const model::FormatModelConstants* constants = nullptr,
                       bool any_exchange = false);

/// The model for every rank and the four mode times. Throws InvalidArgument as predict_rank,
/// when stats.value_bytes does not match options.precision or the ranks are inconsistent, and
/// when the per-format model is to be used (uses_format_model) but stats.kernels holds no
/// shapes of options.variant (or of another merged_block).
DistPrediction predict_distributed(const PartitionStats& stats, const RankDevice& device,
                                   const LinkProfile& link, const ModelOptions& options = {});

/// The events of `iterations` products of `mode` as the implementation runs them (Kreutzer
/// Fig. 4), times in us, predicted = true. Product i starts at i * time_s[mode] on every rank.
/// Kernels (local, nonlocal) sit on the gpu lane of GPU ranks, on the compute lane of host
/// ranks; the halo path sits on the lane of the thread that drives it:
///   vector   compute: pack, copy_d2h, wait (the exchange), copy_h2d; then the merged SpMV
///   naive    compute: pack, copy_d2h; local (GPU ranks: compute idle beside it, the host
///            blocked on the kernel); compute: wait, copy_h2d; nonlocal. With async_progress
///            the exchange sits on the comm lane (the library's progress engine) from the
///            local SpMV's start, and the wait holds what is left of it.
///   overlap  GPU ranks: compute: pack, copy_d2h, wait (the exchange), copy_h2d from the
///            start, beside local; nonlocal at max(local, comm). Host ranks: as naive.
///   task     comm: pack, copy_d2h, exchange, copy_h2d   from the start, beside local;
///            nonlocal at max(local, comm).
/// With fixed costs (ModelOptions::fixed_costs), each as an event of its own: the exchange's
/// (Phase::post, on the driver's lane, right after copy_h2d: the tokens, the launches and the
/// host's waits of the path), the extra host round trip (Phase::idle on the compute lane,
/// before nonlocal, where the mode pays it), task mode's two hand-offs (Phase::idle on the
/// comm lane, one before pack and one after the exchange's fixed cost) and, in overlap and
/// task mode, the first pass's delay (Phase::idle on the kernels' lane before local).
/// Phases of zero duration are left out. device is the profile's name; matrix, format, date
/// and commit are left empty for the caller (kernel_model says what priced the kernels; the
/// link is not recorded). Throws InvalidArgument for iterations < 1.
Timeline predicted_timeline(const DistPrediction& p, Mode mode, int iterations = 2);

/// The statistics of splitting `a` by `rows`, computed straight from the CSR arrays in
/// O(nnz + P^2) time and O(num_cols + P^2) memory, without building the blocks: IDENTICAL to
/// analyse(distribute(a, rows), value_bytes) (tests/dist/test_dist_model.cpp checks it), which
/// needs P LocalMatrix copies and P^2 request lists. Throws InvalidArgument when the partition
/// does not match the rows or a column is out of range.
template <typename ValueType>
PartitionStats partition_stats(const Csr<ValueType, std::int32_t>& a, const Partition& rows,
                               int value_bytes = 8);

/// One point of a scaling study.
struct ScalingPoint {
    int num_ranks = 1;
    global_index num_rows = 0;  ///< of the whole matrix at this point
    std::int64_t nnz = 0;
    std::int64_t total_halo = 0;
    double max_bytes_received = 0.0;
    int max_neighbours = 0;
    double nnz_imbalance = 1.0;
    DistPrediction prediction;
    /// Throughput relative to one rank: (nnz / T_P) / (nnz_1 / T_1). Strong scaling (same
    /// matrix): T_1 / T_P. efficiency = speedup / P; strong scaling: T_1 / (P T_P).
    PerMode speedup;
    PerMode efficiency;
};

struct ScalingResult {
    PartitionKind kind = PartitionKind::rows;
    std::string device;
    std::string link;
    ModelOptions options;
    DistPrediction baseline;           ///< P = 1: no halo, every mode = the single-GPU T_MVM
    std::vector<ScalingPoint> points;  ///< in the order of `ranks`
};

/// Strong scaling of `a`: for each P in `ranks`, make_partition(a, kind, P), partition_stats
/// (and add_kernel_shapes when uses_format_model) and the model, compared with P = 1. 1M rows up to P = 1024 take seconds. Throws
/// InvalidArgument for an empty list or P < 1 (NotCompiled for metis without METIS).
ScalingResult predict_scaling(const Csr<double, std::int32_t>& a, PartitionKind kind,
                              const std::vector<int>& ranks, const RankDevice& device,
                              const LinkProfile& link, const ModelOptions& options = {});

/// Weak scaling on the 7-point Laplacian (gen::pde) with about k^3 rows per rank: P ranks get
/// the K x K x K grid with K = round(k P^(1/3)), i.e. exactly k^3 rows per rank when P is a
/// cube (1, 8, 64, 512, ...), the nearest cube to P k^3 rows otherwise; speedup and
/// efficiency are throughput ratios (see ScalingPoint), so the rounding cancels. The matrix
/// of the largest P is built: k = 32 and P = 1024 is 33.6M rows, about 3 GB.
ScalingResult predict_weak_scaling(std::int32_t k, PartitionKind kind,
                                   const std::vector<int>& ranks, const RankDevice& device,
                                   const LinkProfile& link, const ModelOptions& options = {});

}  // namespace spmv::dist
