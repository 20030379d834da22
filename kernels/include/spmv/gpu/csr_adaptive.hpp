#pragma once
/// CSR-adaptive SpMV (after Greathouse & Daga, "Efficient sparse matrix-vector multiplication on
/// GPUs using the CSR storage format", SC'14): the plain CSR arrays plus a partition of the rows
/// into groups, computed once on the host, so that every thread block has a bounded, known share
/// of nonzeros and issues all its loads at once. The GPU variant "csr_adaptive" runs it.
///
/// Written for the matrices where the other kernels wait on memory latency rather than on
/// bandwidth: small matrices (a few thousand rows, 5-9 us per SpMV on an H100, where every
/// dependent DRAM round trip is a visible share) and matrices with long rows, where a thread or
/// a warp per row walks the row in many dependent steps. One block of 256 threads per group:
///  - **stream group**: up to 255 consecutive rows holding at most `stream_nnz` nonzeros. The
///    block loads the rows' row_ptrs and all their columns and values at once (each thread at
///    most stream_nnz / 256 of them, all in flight together), gathers x, puts the products in
///    shared memory and sums each row with tpr = min(32, 256 / rows) threads (a power of two;
///    each thread adds at most `serial` products, then a shuffle tree).
///  - **row group**: one row, too long for a stream group, with at most `piece_nnz` nonzeros:
///    the whole block strides over it (piece_nnz / 256 loads per thread in flight) and reduces.
///  - **piece group**: a piece of piece_nnz nonzeros of a longer row (e.g. a dense row). Each
///    piece stores its partial sum; the piece that arrives last (one atomic counter per row)
///    adds the pieces in piece order and writes y: deterministic, one kernel, no atomics on y.
/// The group table (first row and first nonzero of each group) is passed in the kernel's
/// parameters when it has at most `param_groups` groups: a block then knows its share without a
/// load, so its first DRAM round trip already fetches the matrix (row_ptrs, columns, values) and
/// the second the x entries; otherwise it lives in device memory (one round trip more). The
/// launch sends the smallest of four table sizes that holds the plan (7, 31, 127 or 255 groups).
/// Every group's rows and nonzeros are fixed by the matrix and the configuration, and every sum
/// is taken in a fixed order: the result is bitwise reproducible.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/gpu/csr.hpp>
#include <spmv/gpu/declare.hpp>
#include <spmv/gpu/memory.hpp>

namespace spmv::gpu {

/// Threads per block of the csr_adaptive kernel (fixed: the plan's limits follow from it).
inline constexpr int csr_adaptive_block = 256;
/// At most this many rows per stream group (row_ptrs of rows + 1 entries: one per thread).
inline constexpr int csr_adaptive_max_rows = csr_adaptive_block - 1;
/// Groups that fit in the kernel parameters (two int32 arrays of 256 entries: 2 KiB).
inline constexpr int csr_adaptive_param_groups = 255;

struct CsrAdaptiveConfig {
    /// Most nonzeros of a stream group: 256, 512 or 1024 (at most 4 loads per thread); 0 = as
    /// many as spread the matrix over about two blocks per multiprocessor, clamped to
    /// [256, 1024].
    int stream_nnz = 0;
    /// Most products one thread adds serially in a stream group's row sums (>= 1).
    int serial = 8;
    /// Most nonzeros of a row group or piece: a multiple of 256, at most 256 * 8 (one load of
    /// each kind per thread and step, 8 steps in flight). Longer rows are cut into pieces.
    int piece_nnz = 2048;
    /// Largest group count passed in the kernel parameters (0 <= p <= 255; 0 = always the
    /// device table). Tests set 0 to run the device-table path.
    int param_groups = csr_adaptive_param_groups;
};

/// The partition of the rows into groups (host side, plain C++; see the file comment).
/// Group g covers nonzeros [group_nnz[g], group_nnz[g+1]). group_row[g] >= 0: a stream or row
/// group of rows [group_row[g], first row of g+1); group_row[g] < 0: a piece of row
/// ~group_row[g] (all pieces of a row are consecutive groups of piece_nnz nonzeros, the last
/// one shorter). The last entry of each array is the sentinel (num_rows, nnz).
struct CsrAdaptivePlan {
    int stream_nnz = 0;
    int serial = 0;
    int piece_nnz = 0;
    std::vector<std::int32_t> group_row;
    std::vector<std::int32_t> group_nnz;

    std::int32_t num_groups() const noexcept
    {
        return group_row.empty() ? 0 : static_cast<std::int32_t>(group_row.size() - 1);
    }
};

/// First row of group_row entry e (also for a piece: its row).
constexpr std::int32_t csr_adaptive_row(std::int32_t e) noexcept
{
    return e >= 0 ? e : ~e;
}

/// Threads per row of a stream group of `rows` rows: min(32, the largest power of two <= 256 /
/// rows).
constexpr int csr_adaptive_threads_per_row(int rows) noexcept
{
    int t = 32;
    while (t > 1 && t * rows > csr_adaptive_block) {
        t /= 2;
    }
    return t;
}

/// Builds the partition of a CSR matrix's rows (row_ptrs: num_rows + 1 entries). Throws
/// InvalidArgument for a configuration outside the documented ranges. `multiprocessors` picks
/// the automatic stream_nnz (ignored when config.stream_nnz > 0).
CsrAdaptivePlan plan_csr_adaptive(std::span<const std::int32_t> row_ptrs,
                                  const CsrAdaptiveConfig& config = {}, int multiprocessors = 132);

/// A group table for plans of up to MaxGroups groups (first row and first nonzero of each group,
/// and the end), as the kernel parameters carry it.
template <int MaxGroups>
struct CsrAdaptiveTableOf {
    std::int32_t row[MaxGroups + 1];
    std::int32_t nnz[MaxGroups + 1];
};
/// The group table of a plan of up to csr_adaptive_param_groups groups, on the host; the launch
/// copies its first num_groups + 1 entries into the smallest CsrAdaptiveTableOf that holds them.
using CsrAdaptiveTable = CsrAdaptiveTableOf<csr_adaptive_param_groups>;

template <typename ValueType>
struct DeviceCsrAdaptive {
    DeviceCsr<ValueType> csr;
    int piece_nnz = 0;
    std::int32_t num_groups = 0;
    bool param_table = false;  ///< the group table travels in the kernel parameters (`table`)
    CsrAdaptiveTable table{};
    /// num_groups + 1 entries each; only on the device-table path (empty when param_table).
    DeviceBuffer<std::int32_t> group_row;
    DeviceBuffer<std::int32_t> group_nnz;
    /// Scratch of the piece groups: a partial sum per group, an arrival counter per group (the
    /// row's first piece counts), zero between SpMVs. Empty when no row is cut.
    mutable DeviceBuffer<double> partials;  // double: also the float kernel with double sums
    mutable DeviceBuffer<std::uint32_t> arrivals;

    std::size_t device_bytes() const noexcept
    {
        return csr.device_bytes() + group_row.bytes() + group_nnz.bytes() + partials.bytes() +
               arrivals.bytes();
    }
};

/// Plans and uploads. Throws InvalidArgument (configuration) or OutOfDeviceMemory
/// ("csr_adaptive needs ...").
#define SPMV_GPU_DECLARE_UPLOAD_CSR_ADAPTIVE(V, D)                          \
    DeviceCsrAdaptive<V> upload_csr_adaptive(const Csr<V, std::int32_t>& a, \
                                             const CsrAdaptiveConfig& config D(= {}))
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_UPLOAD_CSR_ADAPTIVE, "upload_csr_adaptive");

/// y = alpha A x + beta y (beta == 0 does not read y); `double_sums`: a float matrix's products
/// are added in double (Sums::double_precision). x, y are device pointers.
#define SPMV_GPU_DECLARE_CSR_ADAPTIVE_SPMV(V, D)                                \
    void spmv(const DeviceCsrAdaptive<V>& a, V alpha, const V* x, V beta, V* y, \
              StreamRef stream D(= {}), bool double_sums D(= false))
SPMV_GPU_DECLARE_TEMPLATE(SPMV_GPU_DECLARE_CSR_ADAPTIVE_SPMV, "csr_adaptive");

}  // namespace spmv::gpu
