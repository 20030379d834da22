#pragma once
/// What a partition costs: per rank the rows, nonzeros (local / non-local), halo, neighbours and
/// bytes sent and received per SpMV, the rank x rank communication matrix and the load
/// imbalance. Computed in one process, without MPI (dist plan, the GUI's Distribution view,
/// the distributed model).
#include <cstdint>
#include <vector>

#include <spmv/dist/exchange_plan.hpp>
#include <spmv/dist/local_matrix.hpp>
#include <spmv/dist/partition.hpp>
#include <spmv/formats/csr.hpp>

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
};

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
