#include <spmv/formats/pjds.hpp>

#include <algorithm>
#include <limits>
#include <string>

#include <spmv/detail/slots.hpp>
#include <spmv/error.hpp>

namespace spmv {
namespace {

/// Longest row of the block that layout row i belongs to (rows are sorted: the block's first).
template <typename IndexType>
IndexType block_max(const std::vector<IndexType>& row_lengths, IndexType block_rows, IndexType i)
{
    return row_lengths[static_cast<std::size_t>(i / block_rows * block_rows)];
}

/// Height of column j: the rows of every block whose longest row is longer than j. Those
/// blocks form a prefix because the rows are sorted.
template <typename IndexType>
IndexType column_height(const std::vector<IndexType>& row_lengths, IndexType block_rows,
                        IndexType j)
{
    const auto rows = static_cast<std::int64_t>(row_lengths.size());
    std::int64_t h = 0;
    while (h < rows && row_lengths[static_cast<std::size_t>(h)] > j) {
        h = std::min(rows, h + block_rows);
    }
    return static_cast<IndexType>(h);
}

}  // namespace

template <typename ValueType, typename IndexType>
Pjds<ValueType, IndexType> to_pjds(const Csr<ValueType, IndexType>& a, const PjdsOptions& opts)
{
    SPMV_EXPECTS(opts.block_rows >= 1, "pJDS: block_rows (b_r) must be at least 1");
    Pjds<ValueType, IndexType> p;
    p.num_rows = a.num_rows;
    p.num_cols = a.num_cols;
    p.block_rows = static_cast<IndexType>(opts.block_rows);
    const std::int64_t padded =
        opts.pad_rows_to_block
            ? (std::int64_t{a.num_rows} + p.block_rows - 1) / p.block_rows * p.block_rows
            : std::int64_t{a.num_rows};
    SPMV_EXPECTS(padded <= std::int64_t{std::numeric_limits<IndexType>::max()},
                 "pJDS: rows rounded up to b_r do not fit the index type");
    p.padded_rows = static_cast<IndexType>(padded);
    const auto len = row_lengths(a);
    p.row_perm = sort_by_length_desc(std::span<const IndexType>(len));
    p.row_lengths.assign(static_cast<std::size_t>(p.padded_rows), 0);
    for (std::size_t k = 0; k < p.row_perm.size(); ++k) {
        p.row_lengths[k] = len[static_cast<std::size_t>(p.row_perm[k])];
    }
    // "compress" and "sort" are done; "pad": column j spans the blocks longer than j
    const IndexType width = p.row_lengths.empty() ? 0 : p.row_lengths.front();
    std::int64_t slots = 0;
    for (IndexType j = 0; j < width; ++j) {
        slots += column_height(p.row_lengths, p.block_rows, j);
    }
    slots = detail::checked_slots(slots, sizeof(ValueType) + sizeof(IndexType), "pJDS");
    for (IndexType j = 0; j < width; ++j) {
        p.col_start.push_back(p.col_start.back() +
                              column_height(p.row_lengths, p.block_rows, j));
    }
    p.col_idxs.assign(static_cast<std::size_t>(slots), padding_index<IndexType>);
    p.values.assign(static_cast<std::size_t>(slots), ValueType{0});
    for (IndexType i = 0; i < p.num_rows; ++i) {
        const auto src = static_cast<std::size_t>(p.row_perm[static_cast<std::size_t>(i)]);
        for (auto k = a.row_ptrs[src]; k < a.row_ptrs[src + 1]; ++k) {
            const auto j = static_cast<std::size_t>(k - a.row_ptrs[src]);
            const auto slot = static_cast<std::size_t>(p.col_start[j] + i);
            p.col_idxs[slot] = a.col_idxs[static_cast<std::size_t>(k)];
            p.values[slot] = a.values[static_cast<std::size_t>(k)];
        }
    }
    return p;
}

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const Pjds<ValueType, IndexType>& p)
{
    Csr<ValueType, IndexType> a;
    a.num_rows = p.num_rows;
    a.num_cols = p.num_cols;
    a.row_ptrs.assign(static_cast<std::size_t>(p.num_rows) + 1, 0);
    for (std::size_t i = 0; i < p.row_perm.size(); ++i) {
        a.row_ptrs[static_cast<std::size_t>(p.row_perm[i]) + 1] = p.row_lengths[i];
    }
    for (std::size_t i = 0; i + 1 < a.row_ptrs.size(); ++i) {
        a.row_ptrs[i + 1] += a.row_ptrs[i];
    }
    a.col_idxs.resize(static_cast<std::size_t>(a.row_ptrs.back()));
    a.values.resize(static_cast<std::size_t>(a.row_ptrs.back()));
    for (std::size_t i = 0; i < p.row_perm.size(); ++i) {
        auto dst = static_cast<std::size_t>(a.row_ptrs[static_cast<std::size_t>(p.row_perm[i])]);
        for (IndexType j = 0; j < p.row_lengths[i]; ++j, ++dst) {
            const auto slot =
                static_cast<std::size_t>(p.col_start[static_cast<std::size_t>(j)]) + i;
            a.col_idxs[dst] = p.col_idxs[slot];
            a.values[dst] = p.values[slot];
        }
    }
    return a;
}

template <typename ValueType, typename IndexType>
void validate(const Pjds<ValueType, IndexType>& p)
{
    SPMV_ENSURE_LAYOUT(p.num_rows >= 0 && p.num_cols >= 0, "pjds: negative dimension");
    SPMV_ENSURE_LAYOUT(p.block_rows >= 1, "pjds: block_rows must be at least 1");
    const auto rounded =
        (std::int64_t{p.num_rows} + p.block_rows - 1) / p.block_rows * p.block_rows;
    SPMV_ENSURE_LAYOUT(p.padded_rows == p.num_rows || p.padded_rows == rounded,
                       "pjds: padded_rows must be num_rows or num_rows rounded up to block_rows");
    validate_permutation(std::span<const IndexType>(p.row_perm), p.num_rows, "pjds: row_perm");
    SPMV_ENSURE_LAYOUT(p.row_lengths.size() == static_cast<std::size_t>(p.padded_rows),
                       "pjds: row_lengths must have padded_rows entries");
    for (std::size_t i = 0; i < p.row_lengths.size(); ++i) {
        SPMV_ENSURE_LAYOUT(
            p.row_lengths[i] >= 0 && (i == 0 || p.row_lengths[i] <= p.row_lengths[i - 1]),
            "pjds: row_lengths not sorted non-increasing at sorted row " + std::to_string(i));
        SPMV_ENSURE_LAYOUT(i < static_cast<std::size_t>(p.num_rows) || p.row_lengths[i] == 0,
                           "pjds: a padding row must have length 0");
    }
    const IndexType width = p.row_lengths.empty() ? 0 : p.row_lengths.front();
    SPMV_ENSURE_LAYOUT(p.col_start.size() == static_cast<std::size_t>(width) + 1,
                       "pjds: col_start must have width + 1 entries");
    SPMV_ENSURE_LAYOUT(p.col_start.front() == 0, "pjds: col_start[0] must be 0");
    for (IndexType j = 0; j < width; ++j) {
        const auto jj = static_cast<std::size_t>(j);
        SPMV_ENSURE_LAYOUT(p.col_start[jj + 1] - p.col_start[jj] ==
                               column_height(p.row_lengths, p.block_rows, j),
                           "pjds: column " + std::to_string(j) +
                               " must span exactly the blocks longer than " + std::to_string(j));
    }
    SPMV_ENSURE_LAYOUT(p.col_idxs.size() == p.values.size(),
                       "pjds: col_idxs and values differ in length");
    SPMV_ENSURE_LAYOUT(static_cast<std::size_t>(p.col_start.back()) == p.values.size(),
                       "pjds: col_start[width] must equal the number of slots");
    for (IndexType i = 0; i < p.padded_rows; ++i) {
        const auto len = p.row_lengths[static_cast<std::size_t>(i)];
        IndexType prev = -1;
        for (IndexType j = 0; j < block_max(p.row_lengths, p.block_rows, i); ++j) {
            const auto slot =
                static_cast<std::size_t>(p.col_start[static_cast<std::size_t>(j)] + i);
            const auto c = p.col_idxs[slot];
            if (j >= len) {
                SPMV_ENSURE_LAYOUT(c == padding_index<IndexType> && p.values[slot] == ValueType{0},
                                   "pjds: padding slot of sorted row " + std::to_string(i) +
                                       " must hold padding_index and value 0");
                continue;
            }
            SPMV_ENSURE_LAYOUT(c >= 0 && c < p.num_cols,
                               "pjds: column index out of range in sorted row " +
                                   std::to_string(i));
            SPMV_ENSURE_LAYOUT(c > prev,
                               "pjds: columns not increasing in sorted row " + std::to_string(i));
            prev = c;
        }
    }
}

template <typename ValueType, typename IndexType>
std::int64_t nnz(const Pjds<ValueType, IndexType>& p)
{
    std::int64_t n = 0;
    for (auto len : p.row_lengths) {
        n += len;
    }
    return n;
}

template <typename ValueType, typename IndexType>
Footprint footprint(const Pjds<ValueType, IndexType>& p)
{
    Footprint f;
    const auto real = nnz(p);
    f.stored_entries = static_cast<std::int64_t>(p.values.size());
    f.padding_entries = f.stored_entries - real;
    f.value_bytes = static_cast<std::size_t>(real) * sizeof(ValueType);
    f.index_bytes = static_cast<std::size_t>(real) * sizeof(IndexType);
    f.aux_bytes =
        (p.row_perm.size() + p.row_lengths.size() + p.col_start.size()) * sizeof(IndexType);
    f.padding_bytes = static_cast<std::size_t>(f.padding_entries) *
                      (sizeof(ValueType) + sizeof(IndexType));
    return f;
}

template <typename ValueType, typename IndexType>
ThreadWork thread_work(const Pjds<ValueType, IndexType>& p)
{
    ThreadWork w;
    for (IndexType i = 0; i < p.padded_rows; ++i) {
        const auto len = p.row_lengths[static_cast<std::size_t>(i)];
        w.iterations.push_back(len);
        w.useful.push_back(len);
        w.stored.push_back(block_max(p.row_lengths, p.block_rows, i));
    }
    return w;
}

template <typename ValueType, typename IndexType>
void spmv_reference(const Pjds<ValueType, IndexType>& p, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order)
{
    check_spmv_dims(p.num_rows, p.num_cols, x.size(), y.size());
    for (IndexType i = 0; i < p.num_rows; ++i) {  // Listing 2: one GPU thread per sorted row
        ValueType c{0};
        for (IndexType j = 0; j < p.row_lengths[static_cast<std::size_t>(i)]; ++j) {
            const auto col_offset = p.col_start[static_cast<std::size_t>(j)];
            const auto slot = static_cast<std::size_t>(col_offset + i);
            c += p.values[slot] * x[static_cast<std::size_t>(p.col_idxs[slot])];
        }
        auto& out = y[static_cast<std::size_t>(
            order == RowOrder::permuted ? i : p.row_perm[static_cast<std::size_t>(i)])];
        out = beta == ValueType{0} ? alpha * c : alpha * c + beta * out;
    }
}

#define SPMV_INSTANTIATE_PJDS(V, I)                                                         \
    template Pjds<V, I> to_pjds<V, I>(const Csr<V, I>&, const PjdsOptions&);               \
    template Csr<V, I> to_csr<V, I>(const Pjds<V, I>&);                                    \
    template void validate<V, I>(const Pjds<V, I>&);                                       \
    template std::int64_t nnz<V, I>(const Pjds<V, I>&);                                    \
    template Footprint footprint<V, I>(const Pjds<V, I>&);                                 \
    template ThreadWork thread_work<V, I>(const Pjds<V, I>&);                              \
    template void spmv_reference<V, I>(const Pjds<V, I>&, V, std::span<const V>, V,        \
                                       std::span<V>, RowOrder);

SPMV_INSTANTIATE_PJDS(float, std::int32_t)
SPMV_INSTANTIATE_PJDS(double, std::int32_t)

}  // namespace spmv
