#pragma once
/// Private to lib/src/formats: the layout code shared by ELLPACK-R and ELLG. Both store rows
/// shifted left, column-major with leading dimension `stride`, plus `row_lengths`; they differ
/// only in how `stride` is chosen (ELLR: num_rows; ELLG: num_rows rounded up to the pitch) and
/// in the kernel (ELLG unrolls by 2). F is EllR<V, I> or EllG<V, I>.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <spmv/detail/slots.hpp>
#include <spmv/error.hpp>
#include <spmv/formats/csr.hpp>
#include <spmv/types.hpp>

namespace spmv::detail {

/// Fills f (num_rows, num_cols, width, row_lengths, col_idxs, values) from `a` with the given
/// leading dimension (stride >= num_rows); rows [num_rows, stride) are all padding.
template <typename F, typename ValueType, typename IndexType>
void fill_ellr(F& f, const Csr<ValueType, IndexType>& a, std::int64_t stride, const char* name)
{
    f.num_rows = a.num_rows;
    f.num_cols = a.num_cols;
    f.row_lengths = row_lengths(a);
    f.width = f.row_lengths.empty()
                  ? IndexType{0}
                  : *std::max_element(f.row_lengths.begin(), f.row_lengths.end());
    const auto slots = checked_slots(stride * f.width, sizeof(ValueType) + sizeof(IndexType), name);
    f.stride = static_cast<IndexType>(stride);
    f.col_idxs.assign(static_cast<std::size_t>(slots), padding_index<IndexType>);
    f.values.assign(static_cast<std::size_t>(slots), ValueType{0});
    for (IndexType i = 0; i < a.num_rows; ++i) {
        for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
            const auto slot = std::size_t(k - a.row_ptrs[i]) * std::size_t(f.stride) + i;
            f.col_idxs[slot] = a.col_idxs[k];
            f.values[slot] = a.values[k];
        }
    }
}

/// Reads each row's first row_lengths[i] slots back into CSR.
template <typename F>
Csr<typename F::value_type, typename F::index_type> ellr_to_csr(const F& f)
{
    using IndexType = typename F::index_type;
    Csr<typename F::value_type, IndexType> a;
    a.num_rows = f.num_rows;
    a.num_cols = f.num_cols;
    a.row_ptrs.assign(1, 0);
    for (IndexType i = 0; i < f.num_rows; ++i) {
        for (IndexType j = 0; j < f.row_lengths[static_cast<std::size_t>(i)]; ++j) {
            const auto slot = std::size_t(j) * std::size_t(f.stride) + i;
            a.col_idxs.push_back(f.col_idxs[slot]);
            a.values.push_back(f.values[slot]);
        }
        a.row_ptrs.push_back(static_cast<IndexType>(a.values.size()));
    }
    return a;
}

/// Checks every ELLR invariant; `expected_stride` is the leading dimension the format requires.
template <typename F>
void validate_ellr(const F& f, std::int64_t expected_stride, const std::string& name)
{
    using IndexType = typename F::index_type;
    using ValueType = typename F::value_type;
    SPMV_ENSURE_LAYOUT(f.num_rows >= 0 && f.num_cols >= 0 && f.width >= 0,
                       name + ": negative dimension");
    SPMV_ENSURE_LAYOUT(f.stride == expected_stride,
                       name + ": stride is " + std::to_string(f.stride) + ", expected " +
                           std::to_string(expected_stride));
    const auto slots = std::size_t(f.stride) * std::size_t(f.width);
    SPMV_ENSURE_LAYOUT(f.col_idxs.size() == slots && f.values.size() == slots,
                       name + ": arrays must hold stride * width slots");
    SPMV_ENSURE_LAYOUT(f.row_lengths.size() == static_cast<std::size_t>(f.num_rows),
                       name + ": row_lengths must have num_rows entries");
    IndexType longest = 0;
    for (IndexType i = 0; i < f.stride; ++i) {
        const IndexType len =
            i < f.num_rows ? f.row_lengths[static_cast<std::size_t>(i)] : IndexType{0};
        const auto row = std::to_string(i);
        SPMV_ENSURE_LAYOUT(len >= 0 && len <= f.width,
                           name + ": row_lengths[" + row + "] outside [0, width]");
        longest = std::max(longest, len);
        for (IndexType j = 0; j < f.width; ++j) {
            const auto slot = std::size_t(j) * std::size_t(f.stride) + i;
            const auto c = f.col_idxs[slot];
            if (j >= len) {  // padding (alignment gap rows are all padding)
                SPMV_ENSURE_LAYOUT(c == padding_index<IndexType>,
                                   name + ": entry beyond row_lengths (or in the alignment "
                                          "gap) in row " + row);
                SPMV_ENSURE_LAYOUT(f.values[slot] == ValueType{0},
                                   name + ": padding slot with a nonzero value in row " + row);
                continue;
            }
            SPMV_ENSURE_LAYOUT(c != padding_index<IndexType>,
                               name + ": padding inside row_lengths of row " + row);
            SPMV_ENSURE_LAYOUT(c >= 0 && c < f.num_cols,
                               name + ": column index out of range in row " + row);
            SPMV_ENSURE_LAYOUT(j == 0 || f.col_idxs[slot - std::size_t(f.stride)] < c,
                               name + ": columns not increasing in row " + row);
        }
    }
    SPMV_ENSURE_LAYOUT(longest == f.width, name + ": width must equal the longest row");
}

/// Real entries: value + column index bytes; row_lengths: aux; every other slot (short rows'
/// tails and the alignment gap rows [num_rows, stride)) is padding: its value + index bytes.
template <typename F>
Footprint ellr_footprint(const F& f)
{
    using IndexType = typename F::index_type;
    using ValueType = typename F::value_type;
    Footprint fp;
    const auto real = sum_of_row_lengths(f);
    fp.stored_entries = static_cast<std::int64_t>(f.values.size());
    fp.padding_entries = fp.stored_entries - real;
    fp.value_bytes = std::size_t(real) * sizeof(ValueType);
    fp.index_bytes = std::size_t(real) * sizeof(IndexType);
    fp.aux_bytes = f.row_lengths.size() * sizeof(IndexType);
    fp.padding_bytes = std::size_t(fp.padding_entries) * (sizeof(ValueType) + sizeof(IndexType));
    return fp;
}

/// One thread per row (rows of the alignment gap launch no thread): iterations = useful =
/// row length (the thread stops at rowmax[i]), stored = width.
template <typename F>
ThreadWork ellr_thread_work(const F& f)
{
    ThreadWork w;
    for (auto len : f.row_lengths) {
        w.iterations.push_back(len);
        w.useful.push_back(len);
        w.stored.push_back(f.width);
    }
    return w;
}

}  // namespace spmv::detail
