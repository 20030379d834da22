#include <algorithm>
#include <string>

#include <spmv/dist/partition_stats.hpp>
#include <spmv/error.hpp>

namespace spmv::dist {

template <typename ValueType>
Distribution<ValueType> distribute(const Csr<ValueType, std::int32_t>& a, const Partition& rows)
{
    validate(rows);
    SPMV_EXPECTS(rows.size == a.num_rows, "the partition does not match the matrix's rows");
    Distribution<ValueType> d;
    d.rows = rows;
    d.cols = column_partition(rows, a.num_cols);
    const auto P = static_cast<std::size_t>(rows.num_ranks);
    d.parts.reserve(P);
    std::vector<std::vector<global_index>> halo_cols(P);
    std::vector<std::vector<std::int32_t>> halo_owner(P);
    for (std::size_t r = 0; r < P; ++r) {
        d.parts.push_back(split(extract_rows(a, rows, static_cast<int>(r)), rows, d.cols,
                                static_cast<int>(r)));
        halo_cols[r] = d.parts.back().halo_cols;
        halo_owner[r] = d.parts.back().halo_owner;
    }
    d.plans = plan_all(halo_cols, halo_owner, d.cols);
    return d;
}

void finish_totals(PartitionStats& s)
{
    s.nnz = 0;
    s.total_halo = 0;
    s.max_bytes_received = 0.0;
    s.max_neighbours = 0;
    double max_rows = 0.0;
    double max_nnz = 0.0;
    for (const auto& r : s.ranks) {
        s.nnz += r.nnz;
        s.total_halo += r.halo;
        max_rows = std::max(max_rows, static_cast<double>(r.rows));
        max_nnz = std::max(max_nnz, static_cast<double>(r.nnz));
        s.max_bytes_received = std::max(s.max_bytes_received, r.bytes_received);
        s.max_neighbours = std::max({s.max_neighbours, r.recv_neighbours, r.send_neighbours});
    }
    const double mean_rows = static_cast<double>(s.num_rows) / s.num_ranks;
    const double mean_nnz = static_cast<double>(s.nnz) / s.num_ranks;
    s.row_imbalance = mean_rows > 0 ? max_rows / mean_rows : 1.0;
    s.nnz_imbalance = mean_nnz > 0 ? max_nnz / mean_nnz : 1.0;
}

template <typename ValueType>
PartitionStats analyse(const Distribution<ValueType>& d, int value_bytes)
{
    PartitionStats s;
    const int P = d.rows.num_ranks;
    s.kind = d.rows.kind;
    s.num_ranks = P;
    s.num_rows = d.rows.size;
    s.num_cols = d.cols.size;
    s.value_bytes = value_bytes;
    s.comm.assign(static_cast<std::size_t>(P) * static_cast<std::size_t>(P), 0);
    for (int r = 0; r < P; ++r) {
        const auto& m = d.parts[static_cast<std::size_t>(r)];
        const auto& pl = d.plans[static_cast<std::size_t>(r)];
        RankStats rs;
        rs.rank = r;
        rs.rows = m.local.num_rows;
        rs.own_cols = m.num_own_cols;
        rs.local_nnz = nnz(m.local);
        rs.nonlocal_nnz = nnz(m.nonlocal);
        rs.nnz = rs.local_nnz + rs.nonlocal_nnz;
        for (std::int32_t i = 0; i < m.nonlocal.num_rows; ++i) {
            if (m.nonlocal.row_ptrs[i + 1] > m.nonlocal.row_ptrs[i]) {
                ++rs.nonlocal_rows;
                rs.boundary_local_nnz += m.local.row_ptrs[i + 1] - m.local.row_ptrs[i];
            }
        }
        rs.halo = pl.halo_size();
        rs.sent = pl.send_size();
        rs.recv_neighbours = static_cast<int>(pl.recv.size());
        rs.send_neighbours = static_cast<int>(pl.send.size());
        rs.bytes_received = static_cast<double>(rs.halo) * value_bytes;
        rs.bytes_sent = static_cast<double>(rs.sent) * value_bytes;
        for (const auto& n : pl.send) {
            s.comm[static_cast<std::size_t>(r) * P + static_cast<std::size_t>(n.rank)] = n.count;
        }
        s.ranks.push_back(rs);
    }
    finish_totals(s);
    return s;
}

#define SPMV_INSTANTIATE_STATS(V)                                                        \
    template Distribution<V> distribute<V>(const Csr<V, std::int32_t>&, const Partition&); \
    template PartitionStats analyse<V>(const Distribution<V>&, int);
SPMV_INSTANTIATE_STATS(double)
SPMV_INSTANTIATE_STATS(float)

}  // namespace spmv::dist
