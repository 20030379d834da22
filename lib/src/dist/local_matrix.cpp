#include <algorithm>
#include <exception>
#include <limits>
#include <numeric>
#include <string>
#include <utility>

#include <spmv/dist/local_matrix.hpp>
#include <spmv/error.hpp>
#include <spmv/parallel.hpp>

namespace spmv::dist {

namespace {

constexpr global_index max_i32 = std::numeric_limits<std::int32_t>::max();

void check_index(global_index n, const std::string& what, int rank)
{
    if (n > max_i32) {
        SPMV_THROW(DimensionMismatch,
                   "rank " + std::to_string(rank) + "'s " + what + " (" + std::to_string(n) +
                       ") does not fit the 32-bit local indices of a rank's blocks (at most "
                       "2^31 - 1 = 2147483647): use more ranks");
    }
}

}  // namespace

global_index check_local_block(const LocalBlockSizes& s, int rank, global_index max_chunk_nnz)
{
    SPMV_EXPECTS(s.rows >= 0 && s.own_cols >= 0 && s.local_nnz >= 0 && s.nonlocal_nnz >= 0 &&
                     s.halo >= 0 && s.halo <= s.nonlocal_nnz && s.max_row_nnz >= 0 &&
                     s.max_row_nnz <= s.local_nnz + s.nonlocal_nnz,
                 "rank " + std::to_string(rank) + ": negative or inconsistent block sizes");
    SPMV_EXPECTS(max_chunk_nnz >= 1 && max_chunk_nnz <= max_chunk_entries,
                 "the chunk limit (" + std::to_string(max_chunk_nnz) +
                     " nonzeros) must lie in [1, 2^31 - 1]");
    check_index(s.rows, "row count", rank);
    check_index(s.own_cols, "share of x (entries it owns)", rank);
    if (s.halo > max_i32) {
        SPMV_THROW(DimensionMismatch,
                   "rank " + std::to_string(rank) + "'s halo (" + std::to_string(s.halo) +
                       " x entries it receives) does not fit the 32-bit column indices of its "
                       "non-local block (at most 2^31 - 1 = 2147483647; local column indices "
                       "stay 32-bit, only the rows are cut into chunks): use more ranks or a "
                       "partition with a smaller halo");
    }
    if (s.max_row_nnz > max_i32) {
        SPMV_THROW(DimensionMismatch,
                   "rank " + std::to_string(rank) + " has a row of " +
                       std::to_string(s.max_row_nnz) + " nonzeros, more than one 32-bit block "
                       "addresses (at most 2^31 - 1 = 2147483647): row chunks cannot cut a row, "
                       "and more ranks do not either");
    }
    const global_index total = s.local_nnz + s.nonlocal_nnz;
    return std::max<global_index>(1, (total + max_chunk_nnz - 1) / max_chunk_nnz);
}

void check_ghosted_block(GhostedBlock which, global_index cols, int rank)
{
    const bool merged = which == GhostedBlock::merged;
    const std::string what = merged ? "merged block [local | non-local] (vector mode's single step)"
                                    : "second pass (its boundary rows, local and non-local "
                                      "entries)";
    const std::string way_out =
        merged ? "run vector mode on the two blocks (DistOptions::merged_block = false, "
                 "`spmvlab dist --split-blocks`) or use more ranks"
               : "use more ranks";
    if (cols > max_i32) {
        SPMV_THROW(DimensionMismatch,
                   "rank " + std::to_string(rank) + "'s " + what + " spans " +
                       std::to_string(cols) + " columns (own x entries and halo), more than "
                       "32-bit local column indices number (at most 2^31 - 1 = 2147483647): " +
                       way_out);
    }
}

std::vector<std::int32_t> row_chunks(std::span<const std::int64_t> row_ptrs,
                                     global_index max_chunk_nnz, int rank)
{
    SPMV_EXPECTS(!row_ptrs.empty(), "row offsets need at least one entry");
    SPMV_EXPECTS(max_chunk_nnz >= 1 && max_chunk_nnz <= max_chunk_entries,
                 "the chunk limit (" + std::to_string(max_chunk_nnz) +
                     " nonzeros) must lie in [1, 2^31 - 1]");
    const auto n = row_ptrs.size() - 1;
    check_index(static_cast<global_index>(n), "row count", rank);
    std::vector<std::int32_t> cuts{0};
    std::int64_t in_chunk = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t len = row_ptrs[i + 1] - row_ptrs[i];
        SPMV_EXPECTS(len >= 0, "row offsets must not decrease");
        if (len > max_i32) {
            SPMV_THROW(DimensionMismatch,
                       "rank " + std::to_string(rank) + "'s row " + std::to_string(i) + " has " +
                           std::to_string(len) + " nonzeros, more than one 32-bit block "
                           "addresses (at most 2^31 - 1 = 2147483647): row chunks cannot cut a "
                           "row, and more ranks do not either");
        }
        if (in_chunk > 0 && in_chunk + len > max_chunk_nnz) {
            cuts.push_back(static_cast<std::int32_t>(i));
            in_chunk = 0;
        }
        in_chunk += len;
    }
    cuts.push_back(static_cast<std::int32_t>(n));  // no rows: one empty chunk
    return cuts;
}

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
                             const Partition& col_part, int rank, global_index max_chunk_nnz)
{
    SPMV_EXPECTS(row_part.size == in.num_rows && col_part.size == in.num_cols,
                 "the partitions do not match the matrix's size");
    SPMV_EXPECTS(in.row_ptrs.size() == in.rows.size() + 1 &&
                     in.col_idxs.size() == in.values.size() &&
                     static_cast<std::size_t>(in.row_ptrs.back()) == in.values.size(),
                 "inconsistent row arrays");
    const auto n_rows = static_cast<global_index>(in.rows.size());
    const global_index own_cols = col_part.count(rank);
    // a contiguous column partition: the rank's own columns are one range, checked without the
    // binary search of owner_of (the split's hot loop: once per nonzero, twice)
    const global_index own_first =
        col_part.contiguous() ? col_part.offsets[static_cast<std::size_t>(rank)] : -1;
    const auto owns = [&](global_index c) {
        return own_first >= 0 && c >= own_first && c < own_first + own_cols;
    };
    check_index(n_rows, "row count", rank);
    check_index(own_cols, "share of x (entries it owns)", rank);
    // where the rows are cut (ours, issue 36): from the row offsets alone, before any pass;
    // refuses a row no 32-bit block can hold
    const auto cuts = row_chunks(in.row_ptrs, max_chunk_nnz, rank);
    const std::size_t n_chunks = cuts.size() - 1;

    LocalMatrix<ValueType> m;
    m.rank = rank;
    m.global_rows = in.num_rows;
    m.global_cols = in.num_cols;
    m.row_ids = in.rows;
    m.num_own_cols = static_cast<std::int32_t>(own_cols);

    // The rows of each chunk are cut into pieces, one per build thread (spmv/parallel.hpp),
    // that both passes walk on their own: a piece counts, then writes, only its own rows'
    // entries at offsets known from the pieces before it, so the blocks are the same bit for
    // bit on any number of threads (ours, issue 36: a pde1100 rank splits 2.3 billion
    // nonzeros). Where several pieces find bad input, the first piece's error is the one
    // thrown: the first bad row, as one thread walking the rows would find it.
    using HaloPair = std::pair<std::int32_t, global_index>;  // (owner, global column)
    struct Piece {
        std::size_t chunk = 0, r0 = 0, r1 = 0;  // rows [r0, r1) of the rank, in chunk `chunk`
        std::int64_t local = 0;                 // its local nonzeros (pass 1)
        std::int64_t max_row = 0;
        std::vector<HaloPair> halo;             // its distinct (owner, column) pairs
        std::int64_t local_at = 0, nonlocal_at = 0;  // where its entries start in the chunk
    };
    std::vector<Piece> pieces;
    for (std::size_t k = 0; k < n_chunks; ++k) {
        const auto r0 = static_cast<std::size_t>(cuts[k]);
        const auto bounds = range_bounds(static_cast<std::size_t>(cuts[k + 1]) - r0, 1 << 14);
        for (std::size_t b = 0; b + 1 < bounds.size(); ++b) {
            Piece piece;
            piece.chunk = k;
            piece.r0 = r0 + bounds[b];
            piece.r1 = r0 + bounds[b + 1];
            pieces.push_back(std::move(piece));
        }
    }
    const auto each_piece = [&](auto&& fn) {
        std::vector<std::exception_ptr> errors(pieces.size());
        parallel_for(pieces.size(), build_threads(), [&](std::size_t q) {
            try {
                fn(pieces[q]);
            } catch (...) {
                errors[q] = std::current_exception();
            }
        });
        for (const auto& e : errors) {
            if (e) {
                std::rethrow_exception(e);
            }
        }
    };
    const auto compact = [](std::vector<HaloPair>& halo) {
        std::sort(halo.begin(), halo.end());
        halo.erase(std::unique(halo.begin(), halo.end()), halo.end());
    };

    // Pass 1: the local nonzeros of each piece, and its distinct (owner, column) pairs of the
    // halo. The owner of each entry is looked up again in pass 2 rather than kept (4 bytes per
    // nonzero), and the pairs are deduplicated whenever they double, so that the transient
    // memory stays about twice the distinct halo per piece (a pde1100 rank: 2.4 million pairs,
    // not its 2.3 billion nonzeros' owners and tens of millions of repeated pairs).
    each_piece([&](Piece& p) {
        std::size_t compact_at = std::size_t{1} << 20;
        for (std::size_t i = p.r0; i < p.r1; ++i) {
            const auto row = in.rows[i];
            if (row < 0 || row >= in.num_rows || row_part.owner_of(row) != rank) {
                SPMV_THROW(InvalidArgument, "row " + std::to_string(row) +
                                                " is not owned by rank " + std::to_string(rank));
            }
            if (i > 0 && row <= in.rows[i - 1]) {
                SPMV_THROW(InvalidArgument, "rows must be ascending (row " + std::to_string(row) +
                                                " after " + std::to_string(in.rows[i - 1]) + ")");
            }
            p.max_row = std::max(p.max_row, in.row_ptrs[i + 1] - in.row_ptrs[i]);
            for (auto k = in.row_ptrs[i]; k < in.row_ptrs[i + 1]; ++k) {
                const auto c = in.col_idxs[static_cast<std::size_t>(k)];
                if (c < 0 || c >= in.num_cols) {
                    SPMV_THROW(InvalidArgument, "column " + std::to_string(c) + " of row " +
                                                    std::to_string(row) + " outside [0, " +
                                                    std::to_string(in.num_cols) + ")");
                }
                const int o = owns(c) ? rank : col_part.owner_of(c);
                if (o == rank) {
                    ++p.local;
                } else {
                    p.halo.emplace_back(o, c);
                    if (p.halo.size() >= compact_at) {
                        compact(p.halo);
                        compact_at = std::max(compact_at, 2 * p.halo.size());
                    }
                }
            }
        }
        compact(p.halo);
    });
    std::vector<std::int64_t> chunk_local(n_chunks, 0);
    std::vector<std::int64_t> chunk_nonlocal(n_chunks, 0);
    std::int64_t local_nnz = 0;
    std::int64_t max_row = 0;
    std::vector<HaloPair> halo;
    for (auto& p : pieces) {
        const auto nonlocal = in.row_ptrs[p.r1] - in.row_ptrs[p.r0] - p.local;
        p.local_at = chunk_local[p.chunk];
        p.nonlocal_at = chunk_nonlocal[p.chunk];
        chunk_local[p.chunk] += p.local;
        chunk_nonlocal[p.chunk] += nonlocal;
        local_nnz += p.local;
        max_row = std::max(max_row, p.max_row);
        halo.insert(halo.end(), p.halo.begin(), p.halo.end());
        p.halo = {};
        if (halo.size() >= (std::size_t{1} << 20)) {
            compact(halo);
        }
    }
    compact(halo);
    halo.shrink_to_fit();
    check_local_block({n_rows, own_cols, local_nnz,
                       static_cast<global_index>(in.values.size()) - local_nnz,
                       static_cast<global_index>(halo.size()), max_row},
                      rank, max_chunk_nnz);
    m.halo_cols.reserve(halo.size());
    m.halo_owner.reserve(halo.size());
    for (const auto& [o, c] : halo) {
        m.halo_owner.push_back(o);
        m.halo_cols.push_back(c);
    }

    // Pass 2: the two CSR blocks of each chunk. Local columns keep the global order (local
    // indices ascend with the global ones in both partition kinds); halo indices are sorted
    // per row.
    if (n_chunks > 1) {
        m.chunks.resize(n_chunks);
    }
    const auto local_of = [&](std::size_t k) -> Csr<ValueType, std::int32_t>& {
        return n_chunks > 1 ? m.chunks[k].local : m.local;
    };
    const auto nonlocal_of = [&](std::size_t k) -> Csr<ValueType, std::int32_t>& {
        return n_chunks > 1 ? m.chunks[k].nonlocal : m.nonlocal;
    };
    for (std::size_t k = 0; k < n_chunks; ++k) {
        auto& L = local_of(k);
        auto& N = nonlocal_of(k);
        if (n_chunks > 1) {
            m.chunks[k].first_row = cuts[k];
        }
        const auto rows = static_cast<std::size_t>(cuts[k + 1] - cuts[k]);
        L.num_rows = N.num_rows = static_cast<std::int32_t>(rows);
        L.num_cols = static_cast<std::int32_t>(own_cols);
        N.num_cols = static_cast<std::int32_t>(halo.size());
        L.row_ptrs.assign(rows + 1, 0);
        N.row_ptrs.assign(rows + 1, 0);
        L.col_idxs.resize(static_cast<std::size_t>(chunk_local[k]));
        L.values.resize(static_cast<std::size_t>(chunk_local[k]));
        N.col_idxs.resize(static_cast<std::size_t>(chunk_nonlocal[k]));
        N.values.resize(static_cast<std::size_t>(chunk_nonlocal[k]));
    }
    each_piece([&](Piece& p) {
        auto& L = local_of(p.chunk);
        auto& N = nonlocal_of(p.chunk);
        const auto first = static_cast<std::size_t>(cuts[p.chunk]);
        auto l = static_cast<std::size_t>(p.local_at);
        auto n = static_cast<std::size_t>(p.nonlocal_at);
        std::vector<std::pair<std::int32_t, ValueType>> row_halo;
        for (std::size_t i = p.r0; i < p.r1; ++i) {
            row_halo.clear();
            for (auto e = in.row_ptrs[i]; e < in.row_ptrs[i + 1]; ++e) {
                const auto es = static_cast<std::size_t>(e);
                const auto c = in.col_idxs[es];
                const int o = owns(c) ? rank : col_part.owner_of(c);
                if (o == rank) {
                    L.col_idxs[l] = static_cast<std::int32_t>(
                        own_first >= 0 ? c - own_first : col_part.local_index_of(c));
                    L.values[l++] = in.values[es];
                } else {
                    const auto it = std::lower_bound(halo.begin(), halo.end(),
                                                     std::make_pair(o, c));
                    row_halo.emplace_back(static_cast<std::int32_t>(it - halo.begin()),
                                          in.values[es]);
                }
            }
            std::sort(row_halo.begin(), row_halo.end(),
                      [](const auto& x, const auto& y) { return x.first < y.first; });
            for (const auto& [h, v] : row_halo) {
                N.col_idxs[n] = h;
                N.values[n++] = v;
            }
            L.row_ptrs[i - first + 1] = static_cast<std::int32_t>(l);
            N.row_ptrs[i - first + 1] = static_cast<std::int32_t>(n);
        }
    });
    return m;
}

template <typename ValueType>
void spmv_reference(const LocalMatrix<ValueType>& m, std::span<const ValueType> x_own,
                    std::span<const ValueType> halo, std::span<ValueType> y)
{
    SPMV_EXPECTS(static_cast<global_index>(y.size()) == local_rows(m),
                 "y has " + std::to_string(y.size()) + " entries for " +
                     std::to_string(local_rows(m)) + " rows");
    for (const auto& c : chunk_views(m)) {
        const auto ys = y.subspan(static_cast<std::size_t>(c.first_row),
                                  static_cast<std::size_t>(c.local->num_rows));
        spmv_reference(*c.local, ValueType{1}, x_own, ValueType{0}, ys);
        spmv_reference(*c.nonlocal, ValueType{1}, halo, ValueType{1}, ys);
    }
}

#define SPMV_INSTANTIATE_LOCAL(V)                                                            \
    template GlobalRows<V> extract_rows<V>(const Csr<V, std::int32_t>&, const Partition&, int); \
    template LocalMatrix<V> split<V>(const GlobalRows<V>&, const Partition&, const Partition&,  \
                                     int, global_index);                                        \
    template void spmv_reference<V>(const LocalMatrix<V>&, std::span<const V>,                  \
                                    std::span<const V>, std::span<V>);
SPMV_INSTANTIATE_LOCAL(double)
SPMV_INSTANTIATE_LOCAL(float)

}  // namespace spmv::dist
