#pragma once
/// The per-format performance model: what each GPU kernel variant of the project moves and waits
/// for on one matrix, and the time that predicts on a GPU. Host only; the kernels' launch
/// geometry is restated here from kernels/src/*.cu (each rule names its kernel) and
/// tests/analysis/test_format_model.cpp checks it against hand-counted cases.
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
///                  scalar CSR: per warp and trip the distinct sectors its lanes touch) plus the
///                  x gather, counted exactly: per warp and loop trip the distinct sectors of x
///                  the lanes read (row-parallel kernels: the 32 rows of a warp, in the kernel's
///                  row order, at trip t; nonzero-parallel kernels: 32 consecutive nonzeros);
///   critical trips serial loop trips of the busiest warp (the latency path of a small matrix):
///                  the longest row for one-thread-per-row kernels, ceil(len / lanes) for the
///                  warp-per-row kernels, the split kernels' column share, the fixed chunk of
///                  COO, merge-path and CSR-adaptive, one launch per jagged diagonal for JDS;
///   warp trips     N_iter (PELLR eq. 1): loop trips summed over the warps.
/// The time on a GPU (FormatModelConstants: B_GPU from the profile, the rest fitted on measured
/// records, lib/src/model/format_constants.cpp says which):
///   T_v = F_v + max( c_v * critical trips,  DRAM bytes / B_GPU,  L2 sectors * 32 / B_L2,
///                    tau * warp trips )
/// F_v is the kernel's fixed cost (launches, the latency floor of a tiny matrix), c_v its cost
/// per serial trip, tau the device-wide cost of one warp loop trip (idle lanes cost as much as
/// busy ones: the warp-waste of PELLR eq. 1). The max says that a small matrix waits on its
/// longest chain of dependent loads and a large one on memory or on issuing its warps,
/// whichever is longest; Kreutzer's eq. 2 is the special case F = 0, c = 0, tau = 0, no
/// padding, no gather traffic beyond alpha.
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
#include <spmv/model/performance.hpp>
#include <spmv/registry.hpp>

namespace spmv::model {

/// One modelled GPU kernel variant (names as in kernels/src/variant_list.inc).
struct ModelledVariant {
    std::string_view name;       ///< "sell_i16"
    std::string_view format;     ///< host registry format, "sell"
    bool permuted;               ///< rows are reordered (the layout stores a permutation)
    std::string_view equivalent; ///< the nearest kernel of cuSPARSE / Ginkgo / PETSc / MAGMA
};

/// Every own kernel variant the model knows, in variant_list.inc's order.
std::span<const ModelledVariant> modelled_variants();
/// By name, or nullptr.
const ModelledVariant* find_modelled_variant(std::string_view name) noexcept;

/// What one variant does on one matrix (precision-independent counts; x sectors per precision).
struct KernelShape {
    std::string variant;
    std::string format;
    FormatParams params;       ///< the layout's parameters (sigma resolved)
    bool feasible = true;      ///< false: the variant cannot run this matrix (see why_not)
    std::string why_not;
    bool permuted = false;
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    std::int64_t nnz = 0;
    int launches = 1;
    double loaded_slots = 0;   ///< value/index pairs read (padding the kernel loads included)
    double stored_slots = 0;   ///< slots of the layout (padding included)
    double index_bytes = 4;    ///< per slot
    double extra_index_slots = 0;  ///< COO's row index per nonzero, HYB's COO part
    double row_info_bytes = 0;     ///< row pointers, lengths, slice headers, permutation
    double vector_passes = 1;      ///< times y is written (JDS: y_temp per diagonal + gather)
    double temp_value_traffic = 0; ///< value-sized loads+stores of a temporary (JDS y_temp)
    double x_sectors_dp = 0;       ///< x sectors requested, double precision
    double x_sectors_sp = 0;       ///< the same in single precision
    double matrix_sector_factor = 1; ///< L2 sectors of the matrix arrays / (bytes / 32)
    double x_staged = 0;           ///< ELL/SELL x-in-shared: blocks x cols values staged (0: no)
    std::int64_t critical_trips = 0;
    std::int64_t warp_trips = 0;
    double useful_fraction = 1;    ///< nnz / (32 * warp_trips) where lanes are rows
};

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
};
struct FormatModelConstants {
    std::string profile;        ///< GpuProfile name these belong to
    double bandwidth_gbs = 0;   ///< B_GPU (the profile's attainable bandwidth)
    double l2_gbs = 0;          ///< B_L2: sector bandwidth of the gather
    double issue_ps = 0;        ///< tau: device-wide time per warp loop trip, picoseconds
    std::vector<KernelConstants> kernels;
    std::string source;         ///< where they come from (records, commit, command)
    const KernelConstants* find(std::string_view variant) const noexcept;
};

/// The built-in constants for a profile: H100's are fitted on the committed H100 records
/// (docs/benchmarks/h100_2026-11-26); any other profile takes them with its own B_GPU and B_L2
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
    double l2_s = 0;         ///< L2 sectors * 32 / B_L2
    double issue_s = 0;      ///< warp trips * tau
    double dram_bytes = 0;
    double l2_sectors = 0;
    std::string bound;       ///< "latency", "DRAM bandwidth", "L2 gather" or "warp issue"
};

FormatPrediction predict(const KernelShape& s, const FormatModelConstants& c, Precision p);

/// Bytes moved per SpMV by the shape in precision p (the DRAM term's numerator).
double dram_bytes(const KernelShape& s, Precision p);
/// L2 sectors requested per SpMV (the L2 term's numerator).
double l2_sectors(const KernelShape& s, Precision p);

}  // namespace spmv::model
