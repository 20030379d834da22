#include <algorithm>
#include <string>
#include <utility>

#include <spmv/dist/model.hpp>
#include <spmv/dist/partition_stats.hpp>
#include <spmv/error.hpp>
#include <spmv/model/format_model.hpp>

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

// ---------------------------------------------------------------------------------------------
// The kernel shapes of every rank (add_kernel_shapes): each rank's blocks as column patterns,
// numbered as split() numbers them (local_matrix.cpp), cut into the passes as split_blocks does
// (distributed/src/blocks.cpp), each counted by the per-format model.

namespace {

/// A block's pattern: values are left empty, the format model reads row_ptrs and col_idxs only.
using Pattern = Csr<double, std::int32_t>;

/// The model's counts of one block of `variant`: rows = 0 for a kernel that does not run; a
/// block without nonzeros keeps its rows and the y it writes (model::kernel_shapes needs
/// nonzeros).
model::KernelShape block_shape(const Pattern& b, const model::ModelledVariant& v,
                               const FormatParams& params)
{
    if (b.num_rows > 0 && !b.col_idxs.empty()) {
        const std::string_view one[] = {v.name};
        return std::move(model::kernel_shapes(b, params, one).front());
    }
    model::KernelShape s;
    s.variant = std::string(v.name);
    s.format = std::string(v.format);
    s.permuted = v.permuted;
    s.params = params;
    s.loaded_slots = s.stored_slots = 0.0;
    if (b.num_rows > 0) {
        s.rows = b.num_rows;
        s.cols = b.num_cols;
        s.x_cols = 0;  // no nonzero reads x
        s.row_info_bytes = 4.0 * static_cast<double>(b.num_rows + 1);
    }
    return s;
}

/// The listed rows (all when `rows` is null) of [L | N] over [x_own | halo] (blocks.cpp's
/// merged_rows: the local columns, then the halo's shifted by L's columns).
Pattern merged_rows(const Pattern& L, const Pattern& N, const std::vector<std::int32_t>* rows)
{
    Pattern m;
    m.num_rows = rows != nullptr ? static_cast<std::int32_t>(rows->size()) : L.num_rows;
    m.num_cols = L.num_cols + N.num_cols;
    m.row_ptrs.assign(1, 0);
    m.row_ptrs.reserve(static_cast<std::size_t>(m.num_rows) + 1);
    auto add = [&](std::int32_t i) {
        const auto u = static_cast<std::size_t>(i);
        m.col_idxs.insert(m.col_idxs.end(), L.col_idxs.begin() + L.row_ptrs[u],
                          L.col_idxs.begin() + L.row_ptrs[u + 1]);
        for (auto k = N.row_ptrs[u]; k < N.row_ptrs[u + 1]; ++k) {
            m.col_idxs.push_back(L.num_cols + N.col_idxs[static_cast<std::size_t>(k)]);
        }
        m.row_ptrs.push_back(static_cast<std::int32_t>(m.col_idxs.size()));
    };
    if (rows != nullptr) {
        for (auto i : *rows) add(i);
    } else {
        for (std::int32_t i = 0; i < L.num_rows; ++i) add(i);
    }
    return m;
}

/// Empties the listed rows (ascending) of `L` in place (blocks.cpp's without_rows).
void empty_rows(Pattern& L, const std::vector<std::int32_t>& rows)
{
    std::size_t next = 0;
    std::int32_t out = 0;
    std::int32_t begin = 0;
    for (std::int32_t i = 0; i < L.num_rows; ++i) {
        const auto u = static_cast<std::size_t>(i);
        const std::int32_t end = L.row_ptrs[u + 1];
        if (next < rows.size() && rows[next] == i) {
            ++next;
        } else {
            for (auto k = begin; k < end; ++k) {
                L.col_idxs[static_cast<std::size_t>(out++)] = L.col_idxs[static_cast<std::size_t>(k)];
            }
        }
        begin = end;
        L.row_ptrs[u + 1] = out;
    }
    L.col_idxs.resize(static_cast<std::size_t>(out));
}

}  // namespace

template <typename ValueType>
void add_kernel_shapes(PartitionStats& s, const Csr<ValueType, std::int32_t>& a,
                       const Partition& rows, std::string_view variant,
                       const FormatParams& params, bool merged_block)
{
    validate(rows);
    SPMV_EXPECTS(rows.size == a.num_rows, "the partition does not match the matrix's rows");
    const int P = rows.num_ranks;
    const auto Pz = static_cast<std::size_t>(P);
    SPMV_EXPECTS(s.num_ranks == P && s.ranks.size() == Pz && s.num_rows == a.num_rows,
                 "the statistics are not those of this partition of this matrix");
    const auto* v = model::find_modelled_variant(variant);
    if (v == nullptr) {
        std::string names;
        for (const auto& m : model::modelled_variants()) {
            names += (names.empty() ? "" : ", ") + std::string(m.name);
        }
        SPMV_THROW(InvalidArgument, "no per-format model for GPU variant '" +
                                        std::string(variant) + "'; modelled: " + names);
    }
    const Partition cols = column_partition(rows, a.num_cols);
    const std::vector<std::int32_t> col_owner = cols.owners();
    std::vector<std::int32_t> col_local(col_owner.size());
    for (std::size_t c = 0; c < col_owner.size(); ++c) {
        col_local[c] = static_cast<std::int32_t>(
            cols.contiguous()
                ? static_cast<global_index>(c) - cols.offsets[static_cast<std::size_t>(col_owner[c])]
                : cols.local[c]);
    }
    // Rows grouped by rank, ascending within a rank (a counting sort of the owners).
    std::vector<std::size_t> first(Pz + 1, 0);
    std::vector<std::int32_t> order;
    if (rows.contiguous()) {
        for (std::size_t r = 0; r <= Pz; ++r) first[r] = static_cast<std::size_t>(rows.offsets[r]);
    } else {
        for (auto o : rows.owner) ++first[static_cast<std::size_t>(o) + 1];
        for (std::size_t r = 0; r < Pz; ++r) first[r + 1] += first[r];
        order.resize(rows.owner.size());
        std::vector<std::size_t> next(first.begin(), first.end() - 1);
        for (std::size_t g = 0; g < rows.owner.size(); ++g) {
            order[next[static_cast<std::size_t>(rows.owner[g])]++] = static_cast<std::int32_t>(g);
        }
    }

    PartitionKernels out;
    out.variant = std::string(v->name);
    out.params = params;
    out.merged_block = merged_block;
    out.ranks.resize(Pz);
    std::vector<std::int32_t> stamp(static_cast<std::size_t>(a.num_cols), -1);
    std::vector<std::int32_t> halo_index(static_cast<std::size_t>(a.num_cols), 0);
    std::vector<std::pair<std::int32_t, std::int32_t>> halo;  // (owner, column)
    for (int r = 0; r < P; ++r) {
        const auto rz = static_cast<std::size_t>(r);
        auto row_of = [&](std::size_t k) {
            return static_cast<std::size_t>(order.empty() ? k : order[k]);
        };
        // the halo: distinct non-local columns ordered by owner, then column (split())
        halo.clear();
        for (auto k = first[rz]; k < first[rz + 1]; ++k) {
            const auto row = row_of(k);
            for (auto e = a.row_ptrs[row]; e < a.row_ptrs[row + 1]; ++e) {
                const auto c = a.col_idxs[static_cast<std::size_t>(e)];
                SPMV_EXPECTS(c >= 0 && c < a.num_cols, "column " + std::to_string(c) +
                                                           " of row " + std::to_string(row) +
                                                           " out of range");
                const auto cz = static_cast<std::size_t>(c);
                if (col_owner[cz] != r && stamp[cz] != r) {
                    stamp[cz] = r;
                    halo.emplace_back(col_owner[cz], c);
                }
            }
        }
        SPMV_EXPECTS(static_cast<std::int64_t>(halo.size()) == s.ranks[rz].halo,
                     "the statistics are not those of this partition (rank " +
                         std::to_string(r) + "'s halo)");
        std::sort(halo.begin(), halo.end());
        for (std::size_t h = 0; h < halo.size(); ++h) {
            halo_index[static_cast<std::size_t>(halo[h].second)] = static_cast<std::int32_t>(h);
        }
        // the local and non-local blocks (split()): own columns in the column partition's
        // order, halo indices ascending within a row
        Pattern L;
        Pattern N;
        L.num_rows = N.num_rows = static_cast<std::int32_t>(first[rz + 1] - first[rz]);
        L.num_cols = static_cast<std::int32_t>(cols.count(r));
        N.num_cols = static_cast<std::int32_t>(halo.size());
        L.row_ptrs.assign(1, 0);
        N.row_ptrs.assign(1, 0);
        L.row_ptrs.reserve(static_cast<std::size_t>(L.num_rows) + 1);
        N.row_ptrs.reserve(static_cast<std::size_t>(N.num_rows) + 1);
        L.col_idxs.reserve(static_cast<std::size_t>(s.ranks[rz].local_nnz));
        N.col_idxs.reserve(static_cast<std::size_t>(s.ranks[rz].nonlocal_nnz));
        std::vector<std::int32_t> boundary;
        for (auto k = first[rz]; k < first[rz + 1]; ++k) {
            const auto row = row_of(k);
            const auto n0 = N.col_idxs.size();
            for (auto e = a.row_ptrs[row]; e < a.row_ptrs[row + 1]; ++e) {
                const auto cz = static_cast<std::size_t>(a.col_idxs[static_cast<std::size_t>(e)]);
                if (col_owner[cz] == r) {
                    L.col_idxs.push_back(col_local[cz]);
                } else {
                    N.col_idxs.push_back(halo_index[cz]);
                }
            }
            std::sort(N.col_idxs.begin() + static_cast<std::ptrdiff_t>(n0), N.col_idxs.end());
            if (N.col_idxs.size() > n0) {
                boundary.push_back(static_cast<std::int32_t>(L.row_ptrs.size() - 1));
            }
            L.row_ptrs.push_back(static_cast<std::int32_t>(L.col_idxs.size()));
            N.row_ptrs.push_back(static_cast<std::int32_t>(N.col_idxs.size()));
        }
        // the passes (split_blocks), one block alive at a time beside L and N
        auto& rk = out.ranks[rz];
        const bool any_halo = !halo.empty();
        const bool by_rows =
            any_halo && compressed_nonlocal(static_cast<std::int64_t>(boundary.size()), L.num_rows);
        rk.merged = block_shape(merged_block && any_halo ? merged_rows(L, N, nullptr) : Pattern{},
                                *v, params);
        if (by_rows) {
            rk.second = block_shape(merged_rows(L, N, &boundary), *v, params);
            empty_rows(L, boundary);
        } else if (any_halo) {
            rk.second = block_shape(N, *v, params);
            rk.second.temp_value_traffic += static_cast<double>(N.num_rows);  // beta = 1: y read
        } else {
            rk.second = block_shape(Pattern{}, *v, params);
        }
        rk.first = block_shape(L, *v, params);
    }
    s.kernels = std::move(out);
}

#define SPMV_INSTANTIATE_STATS(V)                                                          \
    template Distribution<V> distribute<V>(const Csr<V, std::int32_t>&, const Partition&);   \
    template PartitionStats analyse<V>(const Distribution<V>&, int);                         \
    template void add_kernel_shapes<V>(PartitionStats&, const Csr<V, std::int32_t>&,         \
                                       const Partition&, std::string_view, const FormatParams&, \
                                       bool);
SPMV_INSTANTIATE_STATS(double)
SPMV_INSTANTIATE_STATS(float)

}  // namespace spmv::dist
