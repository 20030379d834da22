#pragma once
/// The arrays and functions shared by BiELL (biell.hpp) and BiJAD (bijad.hpp). Include those
/// headers, not this one: they name the two formats (BiEll, BiJad), their options and builders,
/// and show the canonical matrix in each layout. Both store warps of W = warp_size sorted rows,
/// split into G bisection groups (docs/formats/biell_bijad.md); they differ only in how row_perm
/// sorts: inside each warp (BiELL) or over all rows (BiJAD). RowSort says which, so that BiEll
/// and BiJad stay distinct types (AnyMatrix alternatives, GPU upload overloads) with one
/// definition: it provides `static constexpr bool globally_sorted` and `const char* name`.
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/types.hpp>

namespace spmv {

namespace detail {

/// BiELL: rows sorted by length inside each warp; row_perm keeps a row in its warp.
struct BiEllRowSort {
    static constexpr bool globally_sorted = false;
    static constexpr const char* name = "biell";
};

/// BiJAD: all rows sorted by length (as JDS); row_perm may move a row to another warp.
struct BiJadRowSort {
    static constexpr bool globally_sorted = true;
    static constexpr const char* name = "bijad";
};

}  // namespace detail

template <typename ValueType, typename IndexType, typename RowSort>
struct BisectionMatrix {
    using value_type = ValueType;
    using index_type = IndexType;

    IndexType num_rows = 0;
    IndexType num_cols = 0;
    IndexType warp_size = 32;              ///< W (the paper's bisection: a power of two)
    std::vector<IndexType> row_perm;       ///< perm[]: row_perm[k] = original row stored k-th
    std::vector<IndexType> group_ptrs{0};  ///< I[]: num_warps * G + 1 group starts
    std::vector<IndexType> col_idxs;       ///< J[]
    std::vector<ValueType> values;         ///< A[]
};

/// Options of to_biell and to_bijad (BiEllOptions, BiJadOptions).
struct BisectionOptions {
    int warp_size = 32;  ///< W >= 1: rows per warp and lanes per group
};

template <typename ValueType, typename IndexType, typename RowSort>
Csr<ValueType, IndexType> to_csr(const BisectionMatrix<ValueType, IndexType, RowSort>& f);

/// Throws InvalidLayout if an invariant of biell.hpp is broken (BiJAD: rows sorted over the
/// whole matrix instead of inside each warp).
template <typename ValueType, typename IndexType, typename RowSort>
void validate(const BisectionMatrix<ValueType, IndexType, RowSort>& f);

template <typename ValueType, typename IndexType, typename RowSort>
std::int64_t nnz(const BisectionMatrix<ValueType, IndexType, RowSort>& f);

/// aux_bytes: row_perm and group_ptrs.
template <typename ValueType, typename IndexType, typename RowSort>
Footprint footprint(const BisectionMatrix<ValueType, IndexType, RowSort>& f);

/// Per-lane iterations of every group: (group_ptrs[i+1] - group_ptrs[i]) / W.
template <typename ValueType, typename IndexType, typename RowSort>
std::vector<IndexType> group_widths(
    const BisectionMatrix<ValueType, IndexType, RowSort>& f);

/// One thread per lane, W lanes per warp (the last warp too): every lane of warp w runs
/// sum_g width_g iterations (padding slots are walked, as in ELLPACK); useful = real entries in
/// the lane's slots; stored = its slots (= iterations). The per-group lane reduction is not
/// counted as iterations.
template <typename ValueType, typename IndexType, typename RowSort>
ThreadWork thread_work(const BisectionMatrix<ValueType, IndexType, RowSort>& f);

/// Mirrors the warp kernel: for each group every lane sums its width_g slots, the W / h_g lanes
/// of each row are added (on the GPU a shuffle reduction over lane offsets h_g, 2 h_g, ...), and
/// lane p keeps the running sum of sorted row p, which it writes once at the end, to
/// y[row_perm[k]] (RowOrder::original) or y[k] (RowOrder::permuted).
template <typename ValueType, typename IndexType, typename RowSort>
void spmv_reference(const BisectionMatrix<ValueType, IndexType, RowSort>& f, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order = RowOrder::original);

}  // namespace spmv
