#include <algorithm>
#include <limits>
#include <numeric>
#include <string>
#include <utility>

#include <spmv/dist/local_matrix.hpp>
#include <spmv/error.hpp>

namespace spmv::dist {

namespace {

constexpr global_index max_i32 = std::numeric_limits<std::int32_t>::max();

void check_fits(global_index n, const char* what, int rank)
{
    if (n > max_i32) {
        SPMV_THROW(DimensionMismatch,
                   std::string("rank ") + std::to_string(rank) + "'s " + what + " (" +
                       std::to_string(n) + ") does not fit the 32-bit indices of a rank's "
                       "formats (at most 2^31 - 1): use more ranks");
    }
}

}  // namespace

template <typename ValueType>
GlobalRows<ValueType> extract_rows(const Csr<ValueType, std::int32_t>& a, const Partition& rows,
                                   int rank)
{
    SPMV_EXPECTS(rows.size == a.num_rows, "the partition does not match the matrix's rows");
    GlobalRows<ValueType> g;
    g.num_rows = a.num_rows;
    g.num_cols = a.num_cols;
    g.rows = rows.indices_of(rank);
    std::int64_t count = 0;
    for (auto r : g.rows) {
        count += a.row_ptrs[static_cast<std::size_t>(r) + 1] - a.row_ptrs[static_cast<std::size_t>(r)];
    }
    g.row_ptrs.reserve(g.rows.size() + 1);
    g.col_idxs.reserve(static_cast<std::size_t>(count));
    g.values.reserve(static_cast<std::size_t>(count));
    for (auto r : g.rows) {
        const auto b = static_cast<std::size_t>(a.row_ptrs[static_cast<std::size_t>(r)]);
        const auto e = static_cast<std::size_t>(a.row_ptrs[static_cast<std::size_t>(r) + 1]);
        g.col_idxs.insert(g.col_idxs.end(), a.col_idxs.begin() + static_cast<std::ptrdiff_t>(b),
                          a.col_idxs.begin() + static_cast<std::ptrdiff_t>(e));
        g.values.insert(g.values.end(), a.values.begin() + static_cast<std::ptrdiff_t>(b),
                        a.values.begin() + static_cast<std::ptrdiff_t>(e));
        g.row_ptrs.push_back(static_cast<std::int64_t>(g.col_idxs.size()));
    }
    return g;
}

template <typename ValueType>
LocalMatrix<ValueType> split(const GlobalRows<ValueType>& in, const Partition& row_part,
                             const Partition& col_part, int rank)
{
    SPMV_EXPECTS(row_part.size == in.num_rows && col_part.size == in.num_cols,
                 "the partitions do not match the matrix's size");
    SPMV_EXPECTS(in.row_ptrs.size() == in.rows.size() + 1 &&
                     in.col_idxs.size() == in.values.size() &&
                     static_cast<std::size_t>(in.row_ptrs.back()) == in.values.size(),
                 "inconsistent row arrays");
    const auto n_rows = static_cast<global_index>(in.rows.size());
    const global_index own_cols = col_part.count(rank);
    check_fits(n_rows, "row count", rank);
    check_fits(own_cols, "share of x", rank);

    LocalMatrix<ValueType> m;
    m.rank = rank;
    m.global_rows = in.num_rows;
    m.global_cols = in.num_cols;
    m.row_ids = in.rows;
    m.num_own_cols = static_cast<std::int32_t>(own_cols);

    // Pass 1: which entries are local, and the distinct (owner, column) pairs of the halo.
    std::vector<std::int32_t> owner(in.col_idxs.size());
    std::vector<std::pair<std::int32_t, global_index>> halo;
    std::int64_t local_nnz = 0;
    for (std::size_t i = 0; i < in.rows.size(); ++i) {
        const auto row = in.rows[i];
        if (row < 0 || row >= in.num_rows || row_part.owner_of(row) != rank) {
            SPMV_THROW(InvalidArgument, "row " + std::to_string(row) + " is not owned by rank " +
                                            std::to_string(rank));
        }
        if (i > 0 && row <= in.rows[i - 1]) {
            SPMV_THROW(InvalidArgument, "rows must be ascending (row " + std::to_string(row) +
                                            " after " + std::to_string(in.rows[i - 1]) + ")");
        }
        for (auto k = in.row_ptrs[i]; k < in.row_ptrs[i + 1]; ++k) {
            const auto c = in.col_idxs[static_cast<std::size_t>(k)];
            if (c < 0 || c >= in.num_cols) {
                SPMV_THROW(InvalidArgument, "column " + std::to_string(c) + " of row " +
                                                std::to_string(row) + " outside [0, " +
                                                std::to_string(in.num_cols) + ")");
            }
            const int o = col_part.owner_of(c);
            owner[static_cast<std::size_t>(k)] = o;
            if (o == rank) {
                ++local_nnz;
            } else {
                halo.emplace_back(o, c);
            }
        }
    }
    std::sort(halo.begin(), halo.end());
    halo.erase(std::unique(halo.begin(), halo.end()), halo.end());
    check_fits(static_cast<global_index>(halo.size()), "halo", rank);
    check_fits(local_nnz, "local nonzeros", rank);
    check_fits(static_cast<global_index>(in.values.size()) - local_nnz, "non-local nonzeros",
               rank);
    m.halo_cols.reserve(halo.size());
    m.halo_owner.reserve(halo.size());
    for (const auto& [o, c] : halo) {
        m.halo_owner.push_back(o);
        m.halo_cols.push_back(c);
    }

    // Pass 2: the two CSR blocks. Local columns keep the global order (local indices ascend
    // with the global ones in both partition kinds); halo indices are sorted per row.
    auto& L = m.local;
    auto& N = m.nonlocal;
    L.num_rows = N.num_rows = static_cast<std::int32_t>(n_rows);
    L.num_cols = static_cast<std::int32_t>(own_cols);
    N.num_cols = static_cast<std::int32_t>(halo.size());
    L.row_ptrs.assign(1, 0);
    N.row_ptrs.assign(1, 0);
    L.col_idxs.reserve(static_cast<std::size_t>(local_nnz));
    L.values.reserve(static_cast<std::size_t>(local_nnz));
    N.col_idxs.reserve(in.values.size() - static_cast<std::size_t>(local_nnz));
    N.values.reserve(in.values.size() - static_cast<std::size_t>(local_nnz));
    std::vector<std::pair<std::int32_t, ValueType>> row_halo;
    for (std::size_t i = 0; i < in.rows.size(); ++i) {
        row_halo.clear();
        for (auto k = in.row_ptrs[i]; k < in.row_ptrs[i + 1]; ++k) {
            const auto ks = static_cast<std::size_t>(k);
            const auto c = in.col_idxs[ks];
            if (owner[ks] == rank) {
                L.col_idxs.push_back(static_cast<std::int32_t>(col_part.local_index_of(c)));
                L.values.push_back(in.values[ks]);
            } else {
                const auto it = std::lower_bound(halo.begin(), halo.end(),
                                                 std::make_pair(owner[ks], c));
                row_halo.emplace_back(static_cast<std::int32_t>(it - halo.begin()), in.values[ks]);
            }
        }
        std::sort(row_halo.begin(), row_halo.end(),
                  [](const auto& x, const auto& y) { return x.first < y.first; });
        for (const auto& [h, v] : row_halo) {
            N.col_idxs.push_back(h);
            N.values.push_back(v);
        }
        L.row_ptrs.push_back(static_cast<std::int32_t>(L.col_idxs.size()));
        N.row_ptrs.push_back(static_cast<std::int32_t>(N.col_idxs.size()));
    }
    return m;
}

template <typename ValueType>
void spmv_reference(const LocalMatrix<ValueType>& m, std::span<const ValueType> x_own,
                    std::span<const ValueType> halo, std::span<ValueType> y)
{
    spmv_reference(m.local, ValueType{1}, x_own, ValueType{0}, y);
    spmv_reference(m.nonlocal, ValueType{1}, halo, ValueType{1}, y);
}

#define SPMV_INSTANTIATE_LOCAL(V)                                                            \
    template GlobalRows<V> extract_rows<V>(const Csr<V, std::int32_t>&, const Partition&, int); \
    template LocalMatrix<V> split<V>(const GlobalRows<V>&, const Partition&, const Partition&,  \
                                     int);                                                      \
    template void spmv_reference<V>(const LocalMatrix<V>&, std::span<const V>,                  \
                                    std::span<const V>, std::span<V>);
SPMV_INSTANTIATE_LOCAL(double)
SPMV_INSTANTIATE_LOCAL(float)

}  // namespace spmv::dist
