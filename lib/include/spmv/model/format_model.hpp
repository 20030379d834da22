#pragma once
/// The per-format performance model: what each GPU kernel variant of the project moves and waits
/// for on one matrix, and the time that predicts on a GPU. Host only; each kernel's launch
/// geometry is restated from kernels/src/<name>.cu by its rule in the format's story file
/// (lib/src/formats/<name>_story.cpp, model_variants(); each rule names its kernel) and
/// tests/analysis/test_format_model.cpp checks them against hand-counted cases.
///
/// For a variant v on a matrix A the model counts, from the row lengths and column indices only
/// (no layout is allocated, so ELLPACK of a power law is modelled without its 11 GiB):
///   loaded slots   value + index pairs the kernel reads, padding included where the kernel loads
///                  it (ELLPACK, ELLG, SELL, BiELL, HYB's ELL part) and not where it stops at the
///                  row length (CSR, ELLPACK-R, pJDS, PELLR, JDS);
///   index bytes    4, or 2 for sell_i16 (16-bit offsets from a per-slice base);
///   row info       row pointers / lengths / slice headers / the permutation read per SpMV;
///   DRAM bytes     loaded slots x (value + index bytes) + row info + x once + y once (+ JDS's
///                  y_temp, written and re-read per diagonal);
///   L2 sectors     32-byte sectors the warps request: the matrix arrays (coalesced: bytes / 32;
///                  scalar CSR: the distinct sectors a warp touches over its loop) plus the x
///                  gather, counted exactly through L1: per warp the sectors of x its lanes
///                  read over all its loop trips, a repeat served by L1 (its last 128 sectors,
///                  4 KiB) not counted again (row-parallel kernels: the 32 rows of a warp, in
///                  the kernel's row order; nonzero-parallel kernels: the range of nonzeros a
///                  warp walks, or a block where its warps take turns over one range; JDS, a
///                  launch per diagonal: per warp and trip). lib/src/model/shape_kit.hpp says
///                  why; the count per trip (before 2026-11-28) priced SELL on the 3-D stencils
///                  1.2x slow;
///   critical trips serial loop trips of the busiest warp (the latency path of a small matrix):
///                  the longest row for one-thread-per-row kernels, ceil(len / lanes) for the
///                  warp-per-row kernels, the split kernels' column share, the fixed chunk of
///                  COO, merge-path and CSR-adaptive, one launch per jagged diagonal for JDS;
///   warp trips     N_iter (PELLR eq. 1): loop trips summed over the warps;
///   heaviest warp  the most L2 sectors one warp moves (its x gather and its nonzeros' value
///                  and index) in the kernels where a warp runs its own rows (one thread per
///                  row, BiELL/BiJAD, the split kernels' share of a group), times the launch's
///                  share of a full GPU's resident warps (shape_kit.hpp, heaviest_warp).
/// The time on a GPU (FormatModelConstants: B_GPU from the profile, the rest fitted on measured
/// records, lib/src/model/format_constants.cpp says which):
///   L   = c_v * critical trips (+ lambda per extra staging step of an "_xs" kernel)
///   M   = max( DRAM bytes / B_GPU,  (streamed L2 sectors + x gather sectors / e_v) * 32 / B_L2,
///              tau * warp trips,  heaviest warp's sectors * 32 / B_w )
///   T_v = F_v + (L^q + M^q)^(1/q)   (overlap_time; q fitted 1.0 on the H100 and the H200: L + M)
/// F_v is the kernel's fixed cost (launches, the latency floor of a tiny matrix), c_v its cost
/// per serial trip, tau the device-wide cost of one warp loop trip (idle lanes cost as much as
/// busy ones: the warp-waste of PELLR eq. 1), B_w one warp's sector rate at full occupancy
/// (a warp of 32 rows of 1000 entries, sorted longest first, runs alone long after the rest
/// of the GPU is done: docs/benchmarks/model_longrows_2026-11-29), e_v in (0, 1] the share of
/// B_L2 at which the kernel's x gather runs (its loads in flight: Nsight Compute on an H200
/// power law measured L2 busy 52.9-77.9 % between kernels). B_L2 prices the streamed sectors (matrix, row info, y)
/// of every kernel alike, so it and e_v are both identifiable; e_v = 1 everywhere is the model
/// before e_v (docs/benchmarks/model_refit_2026-11-28/l2_efficiency: e_v on the whole L2 term
/// was tried and priced CSR scalar 1.2-1.5x slow on the 3-D stencils). A small matrix waits on its
/// longest chain of dependent loads and a large one on memory or on issuing its warps, whichever
/// is longest; q says how far the two overlap (the max until docs/benchmarks/
/// model_overlap_2026-11-29, where the fit chose their sum); Kreutzer's eq. 2 is the special case F = 0, c = 0,
/// tau = 0, no padding, no gather traffic beyond alpha.
///
/// What it leaves out (said so, not hidden): x beyond L2 (the gather is priced at L2 rates;
/// x of more than ~40 MB misses), clocks and contention between concurrent kernels, and L2
/// reuse of the matrix between repetitions (the records it is fitted on flush L2 before
/// every repetition, `spmvlab bench`'s default).
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/model/gpu_profile.hpp>
#include <spmv/model/kernel_shape.hpp>
#include <spmv/model/performance.hpp>
#include <spmv/registry.hpp>

namespace spmv::model {

/// Every own kernel variant the model knows: each registry format's model_variants(), in
/// registry order (within a format, in variant_list.inc's order).
std::span<const ModelledVariant> modelled_variants();
/// By name, or nullptr.
const ModelledVariant* find_modelled_variant(std::string_view name) noexcept;

/// Counts every modelled variant (or the ones named) on `a` with `params` (sigma 0 = auto is
/// resolved as `bench --sigma auto` does; b_r and C as given: the split kernels need 32).
/// Cost O(nnz + N log N) per sorted order, shared between the variants.
std::vector<KernelShape> kernel_shapes(const Csr<double, std::int32_t>& a,
                                       const FormatParams& params,
                                       std::span<const std::string_view> variants = {});

/// The fitted constants of one GPU.
struct KernelConstants {
    std::string variant;
    double floor_us = 5.0;   ///< F_v
    double trip_ns = 50.0;   ///< c_v
    double l2_efficiency = 1.0;  ///< e_v in (0, 1]: the x gather's share of B_L2
};
/// The kernel's time beyond F_v from its latency path L and its memory path M: max(L, M) for
/// q = 0, else (L^q + M^q)^(1/q), from L + M (q = 1: a warp's dependent trips and the traffic
/// do not overlap) towards max(L, M) (q large: the other warps hide the latency). Fitted
/// device-wide (FormatModelConstants::overlap_q); docs/benchmarks/model_overlap_2026-11-29.
double overlap_time(double latency, double memory, double q) noexcept;

struct FormatModelConstants {
    std::string profile;        ///< GpuProfile name these belong to
    double bandwidth_gbs = 0;   ///< B_GPU (the profile's attainable bandwidth)
    double l2_gbs = 0;          ///< B_L2: sector bandwidth of the gather
    double issue_ps = 0;        ///< tau: device-wide time per warp loop trip, picoseconds
    double warp_gbs = 0;        ///< B_w: one warp's sector rate at full occupancy (0: no term)
    double stage_ns = 0;        ///< lambda: one step of an "_xs" kernel's x staging (0: no term)
    /// q: the latency path L and the memory path M combine as (L^q + M^q)^(1/q) (0: max(L, M),
    /// the model before docs/benchmarks/model_overlap_2026-11-29; overlap_time)
    double overlap_q = 0;
    std::vector<KernelConstants> kernels;
    std::string source;         ///< where they come from (records, commit, command)
    const KernelConstants* find(std::string_view variant) const noexcept;
};

/// The built-in constants for a profile: a card the model was fitted on has its own (H100: the
/// records of docs/benchmarks/h100_2026-11-26, H200: docs/benchmarks/h200_calib_2026-11-28,
/// both fitted as docs/benchmarks/model_refit_2026-11-28 says),
/// chosen by the profile's name; any other profile takes the H100's with its own B_GPU and B_L2
/// scaled by the bandwidth ratio (an assumption, said in `source`).
FormatModelConstants builtin_constants(const GpuProfile& gpu);

/// The prediction for one variant.
struct FormatPrediction {
    std::string variant;
    bool feasible = true;
    std::string why_not;
    double time_s = 0;
    double gflops = 0;
    double floor_s = 0;      ///< F_v
    double latency_s = 0;    ///< c_v * critical trips
    double dram_s = 0;       ///< DRAM bytes / B_GPU
    double l2_s = 0;         ///< (streamed + gather sectors / e_v) * 32 / B_L2
    double issue_s = 0;      ///< warp trips * tau
    double warp_s = 0;      ///< the heaviest warp's sectors * 32 / B_w
    double dram_bytes = 0;
    double l2_sectors = 0;
    std::string bound;       ///< "latency", "DRAM bandwidth", "L2 gather", "warp issue" or
                             ///< "heaviest warp"
};

FormatPrediction predict(const KernelShape& s, const FormatModelConstants& c, Precision p);

/// One variant's counts on a matrix and the time they predict.
struct VariantPrediction {
    KernelShape shape;
    FormatPrediction prediction;
};

/// THE per-format fitted model of the project: kernel_shapes(a, params, variants) priced by
/// predict(shape, constants, p), with constants = builtin_constants(gpu) unless given. Every
/// entry point that shows a per-format predicted time calls this (or predict_variant /
/// predict_sweep, which call it): advise() and so `spmvlab recommend` and the GUI's Advisor,
/// `spmvlab model --format`, the GUI's Timing table and Sweep, and the Python module. So the
/// same matrix, variant, parameters, precision and profile give the same number everywhere
/// (tests/gui/test_gui_one_model.cpp compares them). Throws as kernel_shapes and predict do.
std::vector<VariantPrediction> predict_variants(const Csr<double, std::int32_t>& a,
                                                const FormatParams& params, const GpuProfile& gpu,
                                                Precision p,
                                                std::span<const std::string_view> variants = {},
                                                const FormatModelConstants* constants = nullptr);

/// predict_variants for one variant (InvalidArgument for a name the model does not know).
VariantPrediction predict_variant(const Csr<double, std::int32_t>& a, std::string_view variant,
                                  const FormatParams& params, const GpuProfile& gpu, Precision p,
                                  const FormatModelConstants* constants = nullptr);

/// The variant that stands for a host registry format in the per-format views: its default GPU
/// kernel, which carries the format's name ("sell" -> sell, "pjds" -> pjds); nullptr when the
/// model has none (e.g. "csc", which has no GPU kernel).
const ModelledVariant* format_variant(std::string_view format) noexcept;

/// One point of a parameter sweep priced by the per-format model.
struct SweepPrediction {
    int value = 0;          ///< the swept parameter's value
    FormatParams params;    ///< base with the value set (sigma 0 still means auto here)
    VariantPrediction model;  ///< format_variant(format) with these parameters
};

/// The per-format model along a sweep of `param` (σ or C of SELL, b_r of pJDS, K of HYB, or
/// any other registry parameter): predict_variant(a, format_variant(format), base with the
/// value) for every value, in the order given, bit for bit. This is what the Sweep view draws
/// as its predicted time. One model context serves the whole sweep: the row lengths and the
/// passes over the nonzeros that do not depend on the swept value are computed once (for C,
/// b_r and K every pass; for sigma the identity and global ones, which sigma dividing 32 and
/// sigma >= N reuse). Throws InvalidArgument for a format without a modelled variant or a value
/// spmv::set rejects.
std::vector<SweepPrediction> predict_sweep(const Csr<double, std::int32_t>& a,
                                           std::string_view format, Param param,
                                           const FormatParams& base, std::span<const int> values,
                                           const GpuProfile& gpu, Precision p,
                                           const FormatModelConstants* constants = nullptr);

/// The reference lines a chart of per-format predictions can draw beside them, each named for
/// what it is (docs/advisor.md, "Three lines"):
///   traffic bound         the fewest DRAM bytes any of the chart's variants moves / B_GPU: a
///                         lower bound on time (an upper bound on GF/s) that no per-format
///                         prediction crosses, since T_v >= F_v + DRAM bytes / B_GPU
///   Kreutzer eq. 1        B_GPU / code balance (performance.hpp): the paper's format-agnostic
///                         traffic, N [N_nzr (s_v + s_i + s_v alpha) + 2 s_v] bytes, which reads
///                         x alpha N_nzr times per row from DRAM and reads and writes y. At alpha
///                         = 1 it charges every x load to DRAM where the fitted model charges x
///                         once to DRAM and the gather to L2, and it reads y, which the kernels
///                         (y = A x) only write: it can lie below the fitted predictions, and is
///                         then no bound for them (kreutzer_is_bound = false)
struct ModelBounds {
    double traffic_bound_s = 0;        ///< min over the predictions of dram_s
    std::string traffic_bound_variant; ///< the variant with the fewest DRAM bytes
    double kreutzer_eq1_s = 0;         ///< T_MVM of Kreutzer eq. 1 / 2 at `alpha`
    double alpha = 1;
    double fastest_prediction_s = 0;   ///< min over the predictions of time_s
    bool kreutzer_is_bound = false;    ///< kreutzer_eq1_s <= fastest_prediction_s
};

/// The lines for `predictions` (infeasible ones and zero times are skipped) of a matrix with
/// `rows` rows and `nnz` nonzeros on `gpu`, Kreutzer's at `alpha` (range [1/N_nzr, 1], checked).
ModelBounds model_bounds(std::span<const FormatPrediction> predictions, std::int64_t rows,
                         std::int64_t nnz, const GpuProfile& gpu, Precision p, double alpha);

/// Bytes moved per SpMV by the shape in precision p (the DRAM term's numerator).
double dram_bytes(const KernelShape& s, Precision p);
/// L2 sectors requested per SpMV (the L2 term's numerator at e_v = 1).
double l2_sectors(const KernelShape& s, Precision p);
/// The x gather's part of l2_sectors: the sectors e_v divides.
double l2_gather_sectors(const KernelShape& s, Precision p);
/// The latency path's dependent reads in precision p: KernelShape::staged_trips where the kernel
/// stages x in shared memory (it fits: 48 KiB), otherwise critical_trips (the plain kernel).
std::int64_t latency_trips(const KernelShape& s, Precision p);
/// The staging steps of x beyond the first (which overlaps the row's first reads), each priced
/// at FormatModelConstants::stage_ns; 0 where x is not staged in precision p.
std::int64_t extra_stage_steps(const KernelShape& s, Precision p);
/// The variant whose kernel and constants time the shape in precision p: the shape's own, or
/// KernelShape::plain_variant where an "_xs" kernel's x does not fit and it runs the plain one.
const std::string& timed_variant(const KernelShape& s, Precision p);
/// The heaviest warp's L2 sectors in precision p (KernelShape::warp_sectors_dp / _sp).
double warp_sectors(const KernelShape& s, Precision p);

}  // namespace spmv::model
