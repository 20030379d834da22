#pragma once
/// Coalescing: which bytes one warp's loads read in every array, and how many 32-byte sectors
/// the memory system fetches for them -- the reason column-major ELLPACK beats scalar CSR on a
/// GPU (Kreutzer §II.A: "consecutive threads access consecutive memory locations").
///
/// The model follows the project's kernels (kernels/src/*.cu) load by load:
///   csr_scalar  csr_spmv_scalar_kernel  one thread per row: row_ptrs[row + 1], row_ptrs[row]
///               before the loop; trip t reads slot row_ptrs[row] + t
///   csr_vector  csr_spmv_vector_kernel  a sub-warp of tpr lanes per row (tpr = the kernel's
///               choice from the mean row length, gpu::csr_vector_threads_per_row, at most the
///               warp size); lane l of the sub-warp reads slot row_ptrs[row] + l + t * tpr
///   ell         ell_spmv_kernel         one thread per row, `width` trips for every thread
///               (padding multiplied); slot t * stride + row; padding skips the x gather
///   ellr        ellr_spmv_kernel        row_lengths[row] first; the warp loops to its longest
///               row, a lane loads only while t < its length
///   sell        sell_spmv_kernel        thread k < num_rows: row_perm[k] (when the sort moved a
///               row), slice_widths[s], slice_ptrs[s]; slot slice_ptrs[s] + t * C + r, slice
///               width trips (padding loaded, x gather skipped)
///   pjds        pjds_spmv_kernel        row_perm[i] (when sorted), row_lengths[i]; slot
///               col_start[t] + i for t < length; col_start comes from the kernel's parameter
///               table up to 4096 columns, from global memory beyond (one broadcast load)
/// A warp is `warp_size` consecutive threads of the launch; a trip is one iteration of the
/// kernel's row loop, and each array's load of that trip is one request of the warp. The
/// kernels unroll the loop by 4: that groups four trips' loads together but issues the same
/// per-trip requests, so the sectors per trip are what the hardware fetches. Loads before the
/// loop (row pointers, lengths, slice headers, the permutation) belong to trip 0.
///
/// Addresses are byte offsets into the real arrays of the registry's layout (spmv::build):
/// value k of `values` is at k * value_bytes, column indices are 4 bytes, x[c] is at
/// c * value_bytes. cudaMalloc aligns every array to 256 bytes, so sector = offset / 32 is the
/// sector the hardware fetches. The layout does not depend on the precision: a float run
/// stores the same slots at half the bytes, so the model builds the double layout once and
/// takes the value size per query.
///
/// Canonical 4x4 A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], row_ptrs [0 3 4 7 9], double,
/// warp size 4:
///   CSR scalar trip 0: values of slots 0, 3, 4, 7 at bytes 0, 24, 32, 56: sectors {0, 1}
///                      (ideal 1: 32 bytes); col_idxs bytes 0, 12, 16, 28: sector {0};
///                      x[0], x[1], x[0], x[1]: sector {0}
///   CSR scalar trip 1: lane 1 (row length 1) idle; slots 1, 5, 8 at 8, 40, 64: 3 sectors,
///                      ideal 1 (24 bytes)
///   ELLPACK trip 1:    slots 4..7 = bytes 32..63: sector {1}, ideal 1; lane 1 loads padding
///                      (col -1): 3 x gathers
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <spmv/any_matrix.hpp>
#include <spmv/formats/csr.hpp>
#include <spmv/memory.hpp>
#include <spmv/registry.hpp>

namespace spmv::viz {

/// Bytes of one memory sector: the unit a load request fetches from L2 / DRAM.
inline constexpr int sector_bytes = 32;

/// The kernels whose loads are modelled (see above).
enum class AccessKernel : std::uint8_t { csr_scalar, csr_vector, ell, ellr, sell, pjds };

struct AccessKernelInfo {
    AccessKernel kernel;
    std::string_view name;         ///< "csr_scalar"
    std::string_view title;        ///< "CSR scalar"
    std::string_view format;       ///< registry format the kernel runs on, e.g. "csr"
    std::string_view kernel_name;  ///< "csr_spmv_scalar_kernel"
    std::string_view mapping;      ///< "one thread per row"
};

/// Every modelled kernel, in teaching order.
std::span<const AccessKernelInfo> access_kernels();
const AccessKernelInfo& access_kernel_info(AccessKernel kernel);
/// By name; throws InvalidArgument listing the valid names.
const AccessKernelInfo& find_access_kernel(std::string_view name);

/// What a load reads.
enum class AccessedArray : std::uint8_t {
    values,    ///< the matrix values (value_bytes each)
    col_idxs,  ///< the column indices (4 bytes)
    x,         ///< the gathered right-hand side (value_bytes)
    row_info,  ///< row pointers, lengths, slice headers, col_start, the permutation (4 bytes)
};

/// One lane's read: `offset` bytes into the array, element_bytes long.
struct LaneRead {
    int lane = 0;
    std::int64_t offset = 0;
    bool padding = false;  ///< the slot holds padding (padding_index, value 0)
};

/// One load instruction of the warp on one trip.
struct ArrayReads {
    AccessedArray role = AccessedArray::values;
    std::string array;  ///< the array's name in the layout: "values", "x", "row_ptrs", ...
    std::string label;  ///< what is read, e.g. "values[row_ptrs[row] + t]"
    int element_bytes = 0;
    std::int64_t array_bytes = 0;       ///< size of the whole array
    std::vector<LaneRead> reads;        ///< lanes that issue the load, in lane order
    std::vector<std::int64_t> sectors;  ///< distinct sectors touched (offset / 32), ascending
    std::int64_t requested_bytes = 0;   ///< distinct bytes the lanes read
    std::int64_t ideal_sectors = 0;     ///< ceil(requested_bytes / 32): the same bytes packed
};

/// The loads of warp `warp` on loop trip `trip`.
struct WarpTrip {
    AccessKernel kernel = AccessKernel::csr_scalar;
    std::int64_t warp = 0;
    std::int64_t trip = 0;
    std::int64_t trips = 0;  ///< loop trips this warp runs (its busiest lane)
    std::int64_t warps = 0;  ///< warps of the launch
    int warp_size = 32;
    int value_bytes = 8;
    int threads_per_row = 1;              ///< CSR vector's sub-warp, 1 for the others
    int active_lanes = 0;                 ///< lanes that run the loop body on this trip
    int useful_lanes = 0;                 ///< of them, lanes whose slot holds a real nonzero
    std::vector<std::int64_t> lane_rows;  ///< per lane: matrix row (original numbering), -1: none
    std::vector<ArrayReads> arrays;       ///< loads before the loop (trip 0), then the loop's

    /// Sectors of all loads of `role` on this trip.
    std::int64_t sectors(AccessedArray role) const noexcept;
    std::int64_t ideal_sectors(AccessedArray role) const noexcept;
};

/// Sectors a whole SpMV reads, summed over every warp and trip.
struct SectorTotals {
    AccessKernel kernel = AccessKernel::csr_scalar;
    int value_bytes = 8;
    int threads_per_row = 1;
    std::int64_t nnz = 0;
    std::int64_t warps = 0;
    std::int64_t trips = 0;  ///< sum over warps of their trips (N_iter of the launch)
    std::int64_t values = 0;
    std::int64_t col_idxs = 0;
    std::int64_t x = 0;
    std::int64_t row_info = 0;
    std::int64_t ideal = 0;  ///< sum of the per-trip ideal sectors of values, col_idxs and x
    bool complete = true;    ///< false when cancelled part-way (the sums are partial)

    std::int64_t matrix_sectors() const noexcept { return values + col_idxs + x; }
    /// (values + col_idxs + x sectors) / nnz; 0 for a matrix without nonzeros.
    double sectors_per_nonzero() const noexcept;
    double ideal_per_nonzero() const noexcept;
};

/// The loads of one kernel on one matrix: the registry's layout, built once, queried per warp
/// and trip (cheap) or summed over the whole launch (streamed, no per-access storage).
/// Copies share the layout.
class AccessModel {
public:
    /// Builds the layout of `kernel`'s format from `a` with `params` (warp_size; block_rows of
    /// pJDS; slice_height and sort_window of SELL-C-σ). The format's footprint is estimated
    /// first and checked against `budget` (MemoryLimitExceeded). csr_vector_threads_per_row: 0
    /// for the kernel's own choice, else 1..warp_size. Throws InvalidArgument for a warp size
    /// below 1 or a sub-warp out of range.
    AccessModel(const Csr<double, std::int32_t>& a, AccessKernel kernel, const FormatParams& params,
                const MemoryBudget& budget = {}, int csr_vector_threads_per_row = 0);

    AccessKernel kernel() const noexcept { return kernel_; }
    int warp_size() const noexcept { return warp_size_; }
    int threads_per_row() const noexcept { return threads_per_row_; }
    std::int64_t num_rows() const noexcept;
    std::int64_t nnz() const noexcept;
    /// Warps of the launch: ceil(threads / warp_size), 0 for a matrix without rows.
    std::int64_t warps() const noexcept { return warps_; }
    /// Loop trips of `warp`; throws InvalidArgument for a warp out of range.
    std::int64_t trips(std::int64_t warp) const;

    /// The loads of `warp` on trip `trip`. Trip 0 exists for every warp (its loads before the
    /// loop), even one whose rows are all empty; otherwise 0 <= trip < trips(warp).
    /// value_bytes: 8 (double) or 4 (float). Throws InvalidArgument naming the valid range.
    WarpTrip warp_trip(std::int64_t warp, std::int64_t trip, int value_bytes) const;

    /// Sums over every warp and trip (the same per-trip sectors warp_trip reports), streamed
    /// warp by warp. `cancel` (may be null) is polled between warps; a cancelled sum returns
    /// with complete = false.
    SectorTotals totals(int value_bytes, const std::atomic<bool>* cancel = nullptr) const;

    struct Layout;  ///< the built format and its kernel's constants (coalescing.cpp)

private:
    AccessKernel kernel_;
    int warp_size_ = 32;
    int threads_per_row_ = 1;
    std::int64_t warps_ = 0;
    std::shared_ptr<const Layout> layout_;
};

/// AccessModel(a, kernel, params, budget).totals(value_bytes, cancel): one row of the
/// whole-matrix comparison; the layout is freed when it returns.
SectorTotals sector_totals(const Csr<double, std::int32_t>& a, AccessKernel kernel,
                           const FormatParams& params, int value_bytes,
                           const MemoryBudget& budget = {},
                           const std::atomic<bool>* cancel = nullptr);

/// A run of consecutive sectors drawn as one piece of a memory strip.
struct StripRun {
    std::int64_t first_sector = 0;
    std::int64_t sectors = 0;  ///< touched sectors plus the untouched gaps bridged inside
};

/// The touched sectors of a load grouped into runs for drawing: sectors at most `bridge`
/// untouched sectors apart share a run (the gap is drawn), farther ones start a new run (the
/// gap is drawn as a break). Example: sectors {3, 4, 6, 40}, bridge 1: runs [3, 6] and [40].
/// Throws InvalidArgument for bridge < 0.
std::vector<StripRun> strip_runs(std::span<const std::int64_t> sectors, int bridge);

}  // namespace spmv::viz
