#pragma once
/// pJDS, padded jagged diagonals storage (Kreutzer §II.A, Fig. 1, Listing 2): compress every row
/// to the left, sort the rows by length (longest first, row_perm), then pad each block of
/// block_rows (b_r, the warp size) consecutive sorted rows to the longest row of the block.
/// Column j of that padded matrix is stored contiguously from col_start[j]: it holds one slot
/// per row of every block whose longest row is longer than j, so slot (sorted row i, column j)
/// is col_start[j] + i, exactly as the kernel of Listing 2 addresses it. SpMV works in the
/// permuted basis; RowOrder::original scatters the result back through row_perm.
///
/// A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], row lengths (3,1,3,2), row_perm = [0 2 3 1]
/// b_r = 2: blocks {0,2} (longest 3) and {3,1} (longest 2), row_lengths = [3 3 2 1]
///   col_start = [0 4 8 10]                             (column heights 4 4 2)
///   col_idxs  = [0 0 1 1 | 2 2 3 - | 3 3]             (- = padding_index, value 0)
///   values    = [1 5 8 4 | 2 6 9 0 | 3 7]              10 stored, 1 padding
/// b_r = 4 or 32 (default): one block padded to 3 = ELLPACK of the sorted rows:
///   col_start = [0 4 8 12], col_idxs = [0 0 1 1 | 2 2 3 - | 3 3 - -]   12 stored, 3 padding
/// Closed forms (Kreutzer): constant row length and N a multiple of b_r: no padding; one full
/// row and one entry in every other row: (b_r + 1) N - b_r stored entries.
///
/// Rows of the layout (padded_rows): by default num_rows, as in Listing 2 (threads i < N) and in
/// Kreutzer's count above. With PjdsOptions::pad_rows_to_block the layout is rounded up to a
/// multiple of b_r rows (Kreutzer's footnote 2: N padded to the warp size, so a kernel needs no
/// bounds check); the extra rows have length 0, hold only padding (they count as
/// padding_entries / padding_bytes of the footprint) and add round_up(N, b_r) - N slots to
/// every column their block reaches (column 0 at least).
/// Invariants: row_perm is a permutation of 0..num_rows-1; padded_rows is num_rows or
/// round_up(num_rows, b_r); row_lengths (padded_rows entries, 0 for the extra rows) is
/// non-increasing; col_start has width + 1 entries (width = row_lengths[0]; the paper keeps
/// width entries, we add the end so that every column's height is explicit), col_start[0] = 0,
/// column j holds exactly the rows of the blocks whose longest row is longer than j; slots
/// past a row's length hold padding_index and value 0; real columns in range and increasing.
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/types.hpp>

namespace spmv {

template <typename ValueType, typename IndexType = std::int32_t>
struct Pjds {
    using value_type = ValueType;
    using index_type = IndexType;

    IndexType num_rows = 0;
    IndexType num_cols = 0;
    IndexType block_rows = 32;            ///< b_r: rows padded together after sorting
    IndexType padded_rows = 0;            ///< rows of the layout (see above)
    std::vector<IndexType> row_perm;      ///< row_perm[k] = original row stored k-th
    std::vector<IndexType> row_lengths;   ///< rowmax[] of Listing 2, per sorted row
    std::vector<IndexType> col_start{0};  ///< width + 1 column offsets
    std::vector<IndexType> col_idxs;
    std::vector<ValueType> values;
};

struct PjdsOptions {
    std::int32_t block_rows = 32;    ///< b_r (Kreutzer: the warp size)
    bool pad_rows_to_block = false;  ///< round the layout's rows up to a multiple of b_r
};

template <typename ValueType, typename IndexType>
Pjds<ValueType, IndexType> to_pjds(const Csr<ValueType, IndexType>& a, const PjdsOptions& = {});

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const Pjds<ValueType, IndexType>& a);

/// Throws InvalidLayout if an invariant above is broken.
template <typename ValueType, typename IndexType>
void validate(const Pjds<ValueType, IndexType>& a);

template <typename ValueType, typename IndexType>
std::int64_t nnz(const Pjds<ValueType, IndexType>& a);

/// stored_entries = col_start[width]; aux_bytes = row_perm + row_lengths + col_start.
template <typename ValueType, typename IndexType>
Footprint footprint(const Pjds<ValueType, IndexType>& a);

/// One thread per row of the layout (padded_rows threads): iterations = useful = its row
/// length (the kernel loops to rowmax[i]); stored = the longest row of its block.
template <typename ValueType, typename IndexType>
ThreadWork thread_work(const Pjds<ValueType, IndexType>& a);

/// Mirrors Listing 2: thread i sums val[col_start[j] + i] * rhs[col_idx[col_start[j] + i]] for
/// j < rowmax[i]; the result goes to y[row_perm[i]] (original) or y[i] (permuted).
template <typename ValueType, typename IndexType>
void spmv_reference(const Pjds<ValueType, IndexType>& a, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order = RowOrder::original);

}  // namespace spmv
