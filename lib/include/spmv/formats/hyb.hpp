#pragma once
/// HYB (PELLR §2.3.4, after Bell & Garland): the first K entries of every row in an ELL part of
/// width K (column-major, stride = num_rows, short rows padded), the entries beyond K of the long
/// rows in a COO part (sorted by row, then column).
///
/// Automatic K (HybOptions::width = -1): the largest K such that at least one third of the rows
/// have K or more entries (3 * #{i : len_i >= K} >= num_rows), 0 if no K >= 1 qualifies; this is
/// the "add the K-th column to ELL if at least one third of the rows contain K or more
/// non-zeros" rule of PELLR §2.3.4, i.e. cusp's / cuSPARSE's relative_speed = 3. cusp also
/// forces K = 0 below a breakeven of 4096 rows; we leave that out, since it would turn every
/// teaching-sized matrix into plain COO. (PELLR's other option, K = average row length, is
/// available as an explicit width.) An explicit K larger than the longest row is clamped to it:
/// extra columns would hold nothing but padding.
///
/// A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], x = (1,2,3,4), A x = (19, 8, 51, 52)
/// Row lengths (3,1,3,2): 2 of 4 rows have >= 3 entries (2 >= 4/3), none has 4: automatic K = 3,
/// everything in ELL (the ELL layout, COO part empty). With width K = 2:
/// ell_col_idxs = [0 1 0 1 | 2 - 2 3]      ell_values = [1 4 5 8 | 2 0 6 9]    (- = padding)
/// coo_row_idxs = [0 2]  coo_col_idxs = [3 3]  coo_values = [3 7]     10 stored, 1 padding
/// ELL pass: (7, 8, 23, 52); COO pass adds 3*4 to y0 and 7*4 to y2: (19, 8, 51, 52).
/// Footprint (double, int32), K = 2: values 9*8 = 72; index bytes = column index of each real
/// ELL entry (7*4 = 28) + row AND column index of each COO entry (2*(4+4) = 16) = 44;
/// padding = value + column index of each ELL padding slot (1*12 = 12); no aux: 128 bytes.
/// Invariants: ELL slot (i, j) at j * stride + i, stride == num_rows; each ELL row holds its
/// real entries first (column in range, strictly increasing), then padding (padding_index,
/// value 0); COO arrays of equal length, (row, column) strictly increasing, indices in range;
/// a row has COO entries only if its ELL part is full (K real entries), and its COO columns
/// come after its last ELL column; K == 0 or some row fills its ELL part (K <= longest row).
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/types.hpp>

namespace spmv {

template <typename ValueType, typename IndexType = std::int32_t>
struct Hyb {
    using value_type = ValueType;
    using index_type = IndexType;

    IndexType num_rows = 0;
    IndexType num_cols = 0;
    IndexType ell_width = 0;              ///< K: entries per row kept in the ELL part
    IndexType stride = 0;                 ///< ELL leading dimension (= num_rows)
    std::vector<IndexType> ell_col_idxs;  ///< stride * K, column-major
    std::vector<ValueType> ell_values;
    std::vector<IndexType> coo_row_idxs;  ///< entries beyond K, sorted by (row, column)
    std::vector<IndexType> coo_col_idxs;
    std::vector<ValueType> coo_values;
};

struct HybOptions {
    int width = -1;  ///< K; -1: the one-third rule (see above)
};

/// The one-third rule: largest K with 3 * #{i : lengths[i] >= K} >= lengths.size(); 0 if none.
template <typename IndexType>
IndexType hyb_auto_width(std::span<const IndexType> lengths);

/// Throws InvalidArgument for width < -1.
template <typename ValueType, typename IndexType>
Hyb<ValueType, IndexType> to_hyb(const Csr<ValueType, IndexType>& a, const HybOptions& = {});

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const Hyb<ValueType, IndexType>& a);

/// Throws InvalidLayout if an invariant above is broken.
template <typename ValueType, typename IndexType>
void validate(const Hyb<ValueType, IndexType>& a);

template <typename ValueType, typename IndexType>
std::int64_t nnz(const Hyb<ValueType, IndexType>& a);

/// stored_entries = stride * K + COO entries; padding_entries = ELL padding slots. Index bytes:
/// one column index per real ELL entry, a row and a column index per COO entry.
template <typename ValueType, typename IndexType>
Footprint footprint(const Hyb<ValueType, IndexType>& a);

/// Launch order of the two kernels: the ELL kernel (only when K > 0), one thread per row with
/// iterations = K, useful = min(len, K), stored = K; then the COO kernel, one thread per COO
/// entry (1, 1, 1).
template <typename ValueType, typename IndexType>
ThreadWork thread_work(const Hyb<ValueType, IndexType>& a);

/// ELL pass (every slot multiplied, as the ELL kernel; y = alpha*sum + beta*y, beta == 0
/// overwrites), then COO pass: y[row] += alpha * value * x[col] for each COO entry.
template <typename ValueType, typename IndexType>
void spmv_reference(const Hyb<ValueType, IndexType>& a, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order = RowOrder::original);

}  // namespace spmv
