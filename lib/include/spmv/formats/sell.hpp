#pragma once
/// SELL-C-σ (Kreutzer et al., SIAM J. Sci. Comput. 36(5), 2014; beyond the seeds): rows are
/// sorted by length, longest first (stable), inside each window of σ = sort_window consecutive
/// rows (σ = 1: no sorting, row_perm is the identity); the sorted rows are cut into slices of
/// C = slice_height rows, and each slice is an ELLPACK block padded to its own longest row,
/// column-major inside the slice: slot (row r, column j) of slice s is slice_ptrs[s] + j*C + r.
/// The last slice is completed with empty padding rows. Special cases: C = N and σ = 1 is
/// ELLPACK; C = 1 is CSR with the rows reordered; C = b_r and σ = N is pJDS.
///
/// A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], row lengths (3,1,3,2)
/// ELL (width 3, column-major):  col_idxs = [0 1 0 1 | 2 - 2 3 | 3 - 3 -]  12 stored, 3 padding
/// SELL-2-1 (no sort):            slice_ptrs = [0 6 12]                      12 stored, 3 padding
///   col_idxs = [0 1 | 2 - | 3 - || 0 1 | 2 3 | 3 -]   slice_widths = [3 3]
/// SELL-2-4 (sorted, row_perm = [0 2 3 1]):
///   col_idxs = [0 0 | 2 2 | 3 3 || 1 1 | 3 -]  slice_ptrs = [0 6 10]        10 stored, 1 padding
///   values   = [1 5 | 2 6 | 3 7 || 8 4 | 9 0]  slice_widths = [3 2]
/// A x = (19, 8, 51, 52); SELL-2-4 with RowOrder::permuted gives y = (19, 51, 52, 8).
/// Invariants: padding only after a row's real entries (GPU kernels may stop
/// at the first padding_index); slice_ptrs[k+1]-slice_ptrs[k] == slice_height*slice_widths[k];
/// slice_widths[k] is the longest row of slice k; padding rows and padding slots hold -1 and 0;
/// row_perm keeps every row inside its window of σ rows, and the stored lengths are
/// non-increasing inside each window; real columns are in range and increasing along a row.
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/types.hpp>

namespace spmv {

template <typename ValueType, typename IndexType = std::int32_t>
struct SellCSigma {
    using value_type = ValueType;
    using index_type = IndexType;

    IndexType num_rows = 0;
    IndexType num_cols = 0;
    IndexType slice_height = 32;           ///< C: rows per slice
    IndexType sort_window = 1;             ///< σ: rows sorted inside windows of σ rows
    std::vector<IndexType> slice_ptrs{0};  ///< num_slices + 1 slice starts
    std::vector<IndexType> slice_widths;   ///< longest row of each slice
    std::vector<IndexType> row_perm;       ///< row_perm[k] = original row stored k-th
    std::vector<IndexType> col_idxs;
    std::vector<ValueType> values;
};

struct SellCSigmaOptions {
    int slice_height = 32;  ///< C >= 1
    int sort_window = 1;    ///< σ >= 1 (1: no sorting; >= num_rows: sort globally)
};

/// Slots SELL-C-σ stores for these row lengths (C × the slice's longest row, summed over the
/// slices), without building it: the padding any σ costs is known before choosing one.
std::int64_t sell_stored_slots(std::span<const std::int32_t> row_lengths, int slice_height,
                               int sort_window);

/// σ chosen from the row lengths (what `--sigma auto` / FormatParams::sort_window = 0 builds):
/// the smallest σ of 1, C, 2C, 4C, ... (then N, a global sort) whose stored slots are within
/// 2 % of nnz of the fewest any σ reaches (σ = N). Sorting costs locality of x and a
/// permutation, so σ should be no larger than the padding needs (Kreutzer et al. 2014 §3).
template <typename ValueType, typename IndexType>
int choose_sort_window(const Csr<ValueType, IndexType>& a, int slice_height);
/// The same from the row pointers alone (the choice depends on the row lengths only).
int choose_sort_window(std::span<const std::int32_t> row_ptrs, int slice_height);

/// Throws InvalidArgument if C or σ is below 1, NotApplicable past 2^31 - 1 slots. Runs on
/// build_threads() threads (spmv/parallel.hpp); the layout is the same on any number of them.
template <typename ValueType, typename IndexType>
SellCSigma<ValueType, IndexType> to_sell_c_sigma(const Csr<ValueType, IndexType>& a,
                                                 const SellCSigmaOptions& options = {});

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const SellCSigma<ValueType, IndexType>& s);

template <typename ValueType, typename IndexType>
void validate(const SellCSigma<ValueType, IndexType>& s);

template <typename ValueType, typename IndexType>
std::int64_t nnz(const SellCSigma<ValueType, IndexType>& s);

/// aux_bytes: slice_ptrs, slice_widths and row_perm.
template <typename ValueType, typename IndexType>
Footprint footprint(const SellCSigma<ValueType, IndexType>& s);

/// One thread per stored row, padding rows of the last slice included (num_slices * C
/// threads, in stored order); every thread of slice s runs slice_widths[s] iterations (the
/// kernel walks the slice's padding, as Kreutzer's SELL-C-σ kernel does over its chunk length);
/// useful = the row's length; stored = slice_widths[s].
template <typename ValueType, typename IndexType>
ThreadWork thread_work(const SellCSigma<ValueType, IndexType>& s);

/// One (virtual) thread per stored row walking its slice's width; the result goes to
/// y[row_perm[k]] (RowOrder::original) or y[k] (RowOrder::permuted).
template <typename ValueType, typename IndexType>
void spmv_reference(const SellCSigma<ValueType, IndexType>& s, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order = RowOrder::original);

}  // namespace spmv
