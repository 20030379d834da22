#pragma once
/// What the format model counts for one GPU kernel variant on one matrix (KernelShape), and the
/// rule that counts it (VariantRule). The rules live with their formats: each registry entry's
/// model_variants() (lib/src/formats/<name>_story.cpp) lists its kernels, each with the rule
/// restating that kernel's launch geometry from kernels/src/<name>.cu. The passes the rules
/// share (x sectors per warp trip in a row order, sorted orders) are computed once per matrix by
/// a ShapeContext (lib/src/model/shape_kit.hpp). spmv/model/format_model.hpp turns shapes into
/// times.
#include <cstdint>
#include <string>
#include <string_view>

#include <spmv/registry.hpp>

namespace spmv::model {

class ShapeContext;

/// One modelled GPU kernel variant (names as in kernels/src/variant_list.inc).
struct ModelledVariant {
    std::string_view name;       ///< "sell_i16"
    std::string_view format;     ///< host registry format, "sell"
    bool permuted;               ///< rows are reordered (the layout stores a permutation)
    std::string_view equivalent; ///< the nearest kernel of cuSPARSE / Ginkgo / PETSc / MAGMA
};

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
    /// x's entries read from DRAM: the columns that hold a nonzero (-1: all `cols`). A whole
    /// matrix touches nearly every column; a distributed rank's boundary block (its few rows
    /// over the rank's columns and the halo, lib/src/dist/partition_stats.cpp) touches a
    /// sliver of them, and charging all `cols` priced pde400's 160,000 boundary rows on 2 H200
    /// at 70 us instead of about 10 (docs/benchmarks/h200_final_2026-11-30).
    std::int64_t x_cols = -1;
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
    /// The latency path: the longest thread's (or warp's) loop trips, each a dependent read.
    std::int64_t critical_trips = 0;
    /// The "_xs" kernels' latency path when x is staged (x_staged > 0 and x fits, a precision's
    /// question: latency_trips): rounds of dependent matrix reads (shape_kit.hpp, ell_xs_row_rounds, sell_xs_row_rounds),
    /// beside the serial steps of staging x (extra_stage_steps, from cols).
    std::int64_t staged_trips = 0;
    /// The variant whose kernel runs when x does not fit in shared memory (the "_xs" kernels
    /// launch the plain one: kernels/src/ell.cu, sell.cu); empty: none. Predicted with that
    /// variant's constants (format_model.cpp, predict).
    std::string plain_variant;
    /// The warps' trips that load, summed over the warps: each a step of a warp's lanes over
    /// matrix entries (global memory, or shared memory where a kernel sums a row from there:
    /// CSR-adaptive). A sum by shuffles loads nothing and is on the latency path only
    /// (critical_trips): CSR vector's log2(lanes per row) steps, the split kernels' combine.
    /// The issue term is tau x warp_trips (format_model.cpp, predict).
    std::int64_t warp_trips = 0;
    /// The heaviest warp's L2 sectors, double / single precision: its x gather (as x_sectors_*)
    /// plus its nonzeros' values and 4-byte indices, times the share of a full GPU the launch
    /// keeps resident (lib/src/model/shape_kit.hpp, heaviest_warp). 0: not counted (kernels
    /// whose warps take equal shares of the nonzeros: COO, CSR vector, merge, adaptive, JDS).
    double warp_sectors_dp = 0;
    double warp_sectors_sp = 0;
    double useful_fraction = 1;    ///< nnz / (32 * warp_trips) where lanes are rows
};

/// A format's kernel variant and the rule that fills its KernelShape. The engine
/// (kernel_shapes) sets variant, format, params, permuted, rows, cols, nnz, loaded_slots =
/// stored_slots = nnz and row_info_bytes = 4 (N + 1) before calling `shape`, and
/// useful_fraction after it.
struct VariantRule {
    ModelledVariant variant;
    void (*shape)(ShapeContext& context, KernelShape& s);
};

}  // namespace spmv::model
