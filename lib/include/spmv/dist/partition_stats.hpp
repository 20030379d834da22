#pragma once
/// What a partition costs: per rank the rows, nonzeros (local / non-local), halo, neighbours and
/// bytes sent and received per SpMV, the rank x rank communication matrix and the load
/// imbalance; and, when asked for (add_kernel_shapes), what the per-format model counts for
/// the kernels each GPU rank runs on its blocks. Computed in one process, without MPI (dist
/// plan, the GUI's Distribution view, the distributed model).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <spmv/dist/exchange_plan.hpp>
#include <spmv/dist/local_matrix.hpp>
#include <spmv/dist/partition.hpp>
#include <spmv/formats/csr.hpp>
#include <spmv/model/kernel_shape.hpp>
#include <spmv/registry.hpp>

namespace spmv::dist {

struct RankStats {
    int rank = 0;
    global_index rows = 0;
    global_index own_cols = 0;        ///< entries of x held
    std::int64_t nnz = 0;             ///< local + non-local
    std::int64_t local_nnz = 0;
    std::int64_t nonlocal_nnz = 0;
    std::int64_t nonlocal_rows = 0;   ///< rows with at least one non-local entry ("boundary")
    std::int64_t boundary_local_nnz = 0;  ///< local nonzeros of those rows
    std::int64_t halo = 0;            ///< x entries received per SpMV
    std::int64_t sent = 0;            ///< x entries sent per SpMV
    int recv_neighbours = 0;
    int send_neighbours = 0;
    double bytes_received = 0.0;      ///< halo * value bytes
    double bytes_sent = 0.0;
};

/// The per-format model's counts (model::KernelShape, spmv/model/format_model.hpp) of the
/// kernels one GPU rank runs per product, each on its block exactly as DistMatrix builds it
/// (distributed/src/blocks.hpp; the same rule as the model's compressed_nonlocal):
///   split by rows (boundary rows, those with non-local entries, at most a third):
///     first   the local block with the boundary rows left empty (every row's y written)
///     second  the boundary rows whole, local and non-local entries, over [x_own | halo]
///             (one product per boundary row; the scatter into y is priced apart)
///   split by columns (more boundary rows):
///     first   the local block over every row, over x_own
///     second  the full-row non-local block over the halo; it adds into y (beta = 1), so
///             its shape reads y once more than y = A x (temp_value_traffic = rows)
///   merged    vector mode's single step, [local | non-local] over [x_own | halo], every row
/// A kernel that does not run has rows = 0 (second without halo; merged without halo or with
/// merged_block off, when vector mode runs the two passes). A block without nonzeros keeps its
/// rows and the y it writes (loaded slots, trips and x sectors 0). Columns are numbered as in
/// LocalMatrix (own columns in the column partition's order, the halo by owner, then column),
/// so the x sectors the model counts are the ones the ranks' kernels gather.
struct RankKernels {
    model::KernelShape first;
    model::KernelShape second;
    model::KernelShape merged;
};

/// The kernel shapes of every rank for one GPU kernel variant (add_kernel_shapes).
struct PartitionKernels {
    std::string variant;       ///< the modelled variant ("csr", "sell", ...); empty: none
    FormatParams params;       ///< as given (sigma 0 = auto, resolved per block as spmv::build)
    bool merged_block = true;  ///< merged shapes counted (DistOptions::merged_block)
    std::vector<RankKernels> ranks;  ///< one per rank
};

struct PartitionStats {
    PartitionKind kind = PartitionKind::rows;
    int num_ranks = 1;
    global_index num_rows = 0;
    global_index num_cols = 0;
    std::int64_t nnz = 0;
    int value_bytes = 8;
    std::vector<RankStats> ranks;
    /// comm[s * P + d]: x entries rank s sends to rank d per SpMV.
    std::vector<std::int64_t> comm;
    std::int64_t total_halo = 0;       ///< sum of halos = entries moved per SpMV
    double row_imbalance = 1.0;        ///< max rows / mean rows
    double nnz_imbalance = 1.0;        ///< max nnz / mean nnz (1 = perfect)
    double max_bytes_received = 0.0;
    int max_neighbours = 0;
    /// What the per-format model counts for each rank's kernels; empty (variant "") unless
    /// add_kernel_shapes filled it. The distributed model then prices GPU ranks' kernels with
    /// the per-format model (spmv/dist/model.hpp).
    PartitionKernels kernels;
};

/// Fills s.kernels for GPU kernel `variant` (a name of model::modelled_variants(), e.g. the
/// format's default model::format_variant("sell")->name) with `params`: per rank the blocks of
/// RankKernels, built as column patterns only (values are not needed by the model: 4 bytes per
/// nonzero, one rank and one block at a time) and counted by model::kernel_shapes. Cost O(nnz
/// + N log N) per rank count (the x sector passes and sigma sorts of the format model), memory
/// about twice one rank's nonzeros in 32-bit indices beside `a`. Throws InvalidArgument for a
/// variant the model does not know, a partition that does not match `a` or statistics of
/// another partition.
template <typename ValueType>
void add_kernel_shapes(PartitionStats& s, const Csr<ValueType, std::int32_t>& a,
                       const Partition& rows, std::string_view variant,
                       const FormatParams& params, bool merged_block = true);

/// Fills the totals of `s` (nnz, total_halo, max_bytes_received, max_neighbours and the
/// imbalances) from its per-rank entries, summed in rank order: analyse() and the model's
/// fast partition_stats() share it, so both give the same doubles.
void finish_totals(PartitionStats& s);

/// Everything a distributed run needs, for all ranks, built in one process.
template <typename ValueType>
struct Distribution {
    Partition rows;
    Partition cols;
    std::vector<LocalMatrix<ValueType>> parts;  ///< one per rank
    std::vector<ExchangePlan> plans;            ///< one per rank
};

template <typename ValueType>
Distribution<ValueType> distribute(const Csr<ValueType, std::int32_t>& a, const Partition& rows);

/// Statistics of a distribution; `value_bytes` (8 double, 4 float) converts entries to bytes.
template <typename ValueType>
PartitionStats analyse(const Distribution<ValueType>& d, int value_bytes = 8);

}  // namespace spmv::dist
