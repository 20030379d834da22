#include <spmv/formats/pjds.hpp>

#include <algorithm>
#include <limits>
#include <string>

#include <spmv/detail/slots.hpp>
#include <spmv/error.hpp>

#include "sorted_layout.hpp"

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

/// Column j of the layout starts at col_start[j].
template <typename ValueType, typename IndexType>
auto column_offsets(const Pjds<ValueType, IndexType>& p)
{
    return [&p](std::size_t j) { return static_cast<std::size_t>(p.col_start[j]); };
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
    detail::sorted::sort_rows(p, a, static_cast<std::size_t>(p.padded_rows));
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
    detail::sorted::scatter_rows(p, a, slots, column_offsets(p));
    return p;
}

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const Pjds<ValueType, IndexType>& p)
{
    return detail::sorted::to_csr(p, column_offsets(p));
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
    detail::sorted::validate_sorted_lengths(p, "pjds");
    for (auto i = static_cast<std::size_t>(p.num_rows); i < p.row_lengths.size(); ++i) {
        SPMV_ENSURE_LAYOUT(p.row_lengths[i] == 0, "pjds: a padding row must have length 0");
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
    detail::sorted::validate_rows(
        p, p.padded_rows,
        [&](std::size_t i) { return block_max(p.row_lengths, p.block_rows, IndexType(i)); },
        column_offsets(p), "pjds");
}

template <typename ValueType, typename IndexType>
std::int64_t nnz(const Pjds<ValueType, IndexType>& p)
{
    return detail::sum_of_row_lengths(p);
}

template <typename ValueType, typename IndexType>
Footprint footprint(const Pjds<ValueType, IndexType>& p)
{
    return detail::sorted::footprint(p,
                                     p.row_perm.size() + p.row_lengths.size() + p.col_start.size());
}

template <typename ValueType, typename IndexType>
ThreadWork thread_work(const Pjds<ValueType, IndexType>& p)
{
    // padded_rows threads; stored = the longest row of the thread's block
    return detail::sorted::thread_work(
        p, [&](std::size_t i) { return block_max(p.row_lengths, p.block_rows, IndexType(i)); });
}

template <typename ValueType, typename IndexType>
void spmv_reference(const Pjds<ValueType, IndexType>& p, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order)
{
    // Listing 2: thread i sums val[col_start[j] + i] * rhs[col_idx[col_start[j] + i]] for
    // j < rowmax[i]
    detail::sorted::spmv_reference(p, column_offsets(p), alpha, x, beta, y, order);
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
