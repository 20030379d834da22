#pragma once
/// Private to lib/src/formats: the sorted-row layout shared by PELLR and pJDS. Both sort all rows
/// by length, longest first (stable: row_perm[k] = original row stored k-th, row_lengths[k] its
/// length), and store entry j of sorted row k at slot col_offset(j) + k, column after column.
/// They differ only in where column j starts: PELLR at j * stride (an ELLPACK-R rectangle),
/// pJDS at col_start[j] (a column only spans the blocks of b_r rows that reach it), and in the
/// number of layout rows (PELLR: stride, pJDS: padded_rows). F is Pellr<V, I> or Pjds<V, I>;
/// ColOffset is callable as col_offset(std::size_t j) -> std::size_t.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <spmv/detail/slots.hpp>
#include <spmv/error.hpp>
#include <spmv/formats/csr.hpp>
#include <spmv/types.hpp>

namespace spmv::detail::sorted {

/// Sets f.row_perm (stable sort by length, longest first) and f.row_lengths (the sorted lengths,
/// then zeros up to `rows` >= a.num_rows entries for rows of the layout that hold no matrix row).
template <typename F, typename ValueType, typename IndexType>
void sort_rows(F& f, const Csr<ValueType, IndexType>& a, std::size_t rows)
{
    const auto len = row_lengths(a);
    f.row_perm = sort_by_length_desc(std::span<const IndexType>(len));
    f.row_lengths.assign(rows, 0);
    for (std::size_t k = 0; k < f.row_perm.size(); ++k) {
        f.row_lengths[k] = len[static_cast<std::size_t>(f.row_perm[k])];
    }
}

/// Fills `slots` slots with padding (padding_index, value 0), then writes entry j of sorted row
/// k (original row row_perm[k] of `a`) to col_offset(j) + k. `slots` was checked by the caller.
template <typename F, typename ValueType, typename IndexType, typename ColOffset>
void scatter_rows(F& f, const Csr<ValueType, IndexType>& a, std::int64_t slots,
                  ColOffset col_offset)
{
    f.col_idxs.assign(static_cast<std::size_t>(slots), padding_index<IndexType>);
    f.values.assign(static_cast<std::size_t>(slots), ValueType{0});
    for (std::size_t k = 0; k < f.row_perm.size(); ++k) {
        const auto src = static_cast<std::size_t>(f.row_perm[k]);
        for (auto e = a.row_ptrs[src]; e < a.row_ptrs[src + 1]; ++e) {
            const auto slot = col_offset(static_cast<std::size_t>(e - a.row_ptrs[src])) + k;
            f.col_idxs[slot] = a.col_idxs[static_cast<std::size_t>(e)];
            f.values[slot] = a.values[static_cast<std::size_t>(e)];
        }
    }
}

/// Reads the first row_lengths[k] slots of every sorted row back into CSR, in original order.
template <typename F, typename ColOffset>
Csr<typename F::value_type, typename F::index_type> to_csr(const F& f, ColOffset col_offset)
{
    using IndexType = typename F::index_type;
    Csr<typename F::value_type, IndexType> a;
    a.num_rows = f.num_rows;
    a.num_cols = f.num_cols;
    a.row_ptrs.assign(static_cast<std::size_t>(f.num_rows) + 1, 0);
    for (std::size_t k = 0; k < f.row_perm.size(); ++k) {
        a.row_ptrs[static_cast<std::size_t>(f.row_perm[k]) + 1] = f.row_lengths[k];
    }
    for (std::size_t i = 0; i + 1 < a.row_ptrs.size(); ++i) {
        a.row_ptrs[i + 1] += a.row_ptrs[i];
    }
    a.col_idxs.resize(static_cast<std::size_t>(a.row_ptrs.back()));
    a.values.resize(static_cast<std::size_t>(a.row_ptrs.back()));
    for (std::size_t k = 0; k < f.row_perm.size(); ++k) {
        auto dst = static_cast<std::size_t>(a.row_ptrs[static_cast<std::size_t>(f.row_perm[k])]);
        for (IndexType j = 0; j < f.row_lengths[k]; ++j, ++dst) {
            const auto slot = col_offset(static_cast<std::size_t>(j)) + k;
            a.col_idxs[dst] = f.col_idxs[slot];
            a.values[dst] = f.values[slot];
        }
    }
    return a;
}

/// row_lengths is non-negative and non-increasing.
template <typename F>
void validate_sorted_lengths(const F& f, const std::string& name)
{
    for (std::size_t k = 0; k < f.row_lengths.size(); ++k) {
        SPMV_ENSURE_LAYOUT(
            f.row_lengths[k] >= 0 && (k == 0 || f.row_lengths[k] <= f.row_lengths[k - 1]),
            name + ": row_lengths not sorted non-increasing at sorted row " + std::to_string(k));
    }
}

/// The slots of layout rows k < rows, columns j < row_width(k): the first row_lengths[k] (0 for
/// k >= row_lengths.size()) hold real columns, in range and strictly increasing; the rest hold
/// padding_index and value 0. The caller has checked the array sizes.
template <typename F, typename RowWidth, typename ColOffset>
void validate_rows(const F& f, std::int64_t rows, RowWidth row_width, ColOffset col_offset,
                   const std::string& name)
{
    using IndexType = typename F::index_type;
    using ValueType = typename F::value_type;
    for (std::int64_t k = 0; k < rows; ++k) {
        const auto kk = static_cast<std::size_t>(k);
        const IndexType len = kk < f.row_lengths.size() ? f.row_lengths[kk] : IndexType{0};
        const IndexType width = row_width(kk);
        IndexType prev = -1;
        for (IndexType j = 0; j < width; ++j) {
            const auto slot = col_offset(static_cast<std::size_t>(j)) + kk;
            const auto c = f.col_idxs[slot];
            if (j >= len) {
                SPMV_ENSURE_LAYOUT(c == padding_index<IndexType> && f.values[slot] == ValueType{0},
                                   name + ": slot past the length of sorted row " +
                                       std::to_string(k) + " must hold padding_index and value 0");
                continue;
            }
            SPMV_ENSURE_LAYOUT(c >= 0 && c < f.num_cols,
                               name + ": column index out of range in sorted row " +
                                   std::to_string(k));
            SPMV_ENSURE_LAYOUT(
                c > prev, name + ": columns not increasing in sorted row " + std::to_string(k));
            prev = c;
        }
    }
}

/// Real entries: value + column index bytes; `aux_entries` index-sized auxiliary entries;
/// every other slot is padding (its value + index bytes).
template <typename F>
Footprint footprint(const F& f, std::size_t aux_entries)
{
    using IndexType = typename F::index_type;
    using ValueType = typename F::value_type;
    Footprint fp;
    const auto real = sum_of_row_lengths(f);
    fp.stored_entries = static_cast<std::int64_t>(f.values.size());
    fp.padding_entries = fp.stored_entries - real;
    fp.value_bytes = static_cast<std::size_t>(real) * sizeof(ValueType);
    fp.index_bytes = static_cast<std::size_t>(real) * sizeof(IndexType);
    fp.aux_bytes = aux_entries * sizeof(IndexType);
    fp.padding_bytes = static_cast<std::size_t>(fp.padding_entries) *
                       (sizeof(ValueType) + sizeof(IndexType));
    return fp;
}

/// One thread per entry of row_lengths: iterations = useful = its length (the thread stops at
/// its own row length), stored = stored(k), the slots its part of the layout reserves.
template <typename F, typename Stored>
ThreadWork thread_work(const F& f, Stored stored)
{
    ThreadWork w;
    for (std::size_t k = 0; k < f.row_lengths.size(); ++k) {
        w.iterations.push_back(f.row_lengths[k]);
        w.useful.push_back(f.row_lengths[k]);
        w.stored.push_back(stored(k));
    }
    return w;
}

/// One GPU thread per sorted row k: sums its row_lengths[k] slots col_offset(j) + k, then writes
/// y[row_perm[k]] (RowOrder::original) or y[k] (RowOrder::permuted).
template <typename F, typename ColOffset, typename ValueType>
void spmv_reference(const F& f, ColOffset col_offset, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order)
{
    using IndexType = typename F::index_type;
    check_spmv_dims(f.num_rows, f.num_cols, x.size(), y.size());
    for (std::size_t k = 0; k < static_cast<std::size_t>(f.num_rows); ++k) {
        ValueType sum{0};
        for (IndexType j = 0; j < f.row_lengths[k]; ++j) {
            const auto slot = col_offset(static_cast<std::size_t>(j)) + k;
            sum += f.values[slot] * x[static_cast<std::size_t>(f.col_idxs[slot])];
        }
        auto& out = y[order == RowOrder::permuted ? k : static_cast<std::size_t>(f.row_perm[k])];
        out = beta == ValueType{0} ? alpha * sum : alpha * sum + beta * out;
    }
}

}  // namespace spmv::detail::sorted
