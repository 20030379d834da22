#pragma once
/// COO: coordinate format, one (row, column, value) triplet per nonzero (Barbieri §2, Fig. 2;
/// PELLR §2.1: arrays I[], J[], A[]). We keep the triplets sorted by (row, column), which the
/// papers allow ("row by row in any order") and which makes the layout unique.
///
/// A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], x = (1,2,3,4), A x = (19, 8, 51, 52)
/// row_idxs = [0 0 0 1 2 2 2 3 3]
/// col_idxs = [0 2 3 1 0 2 3 1 3]
/// values   = [1 2 3 4 5 6 7 8 9]                            9 stored, 0 padding
/// Footprint (double, int32): values 9*8 = 72, indices 9*(4+4) = 72 (row AND column index of
/// every entry count as index bytes), no auxiliary arrays: 144 bytes.
/// Invariants: the three arrays have the same length; row indices in [0, num_rows), column
/// indices in [0, num_cols); (row, column) pairs strictly increasing (sorted, no duplicates).
/// The reference SpMV mirrors the GPU mapping of an atomic (or segmented-reduction) COO kernel:
/// first y = beta*y, then one (virtual) thread per nonzero adds alpha*value*x[col] to y[row].
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/types.hpp>

namespace spmv {

template <typename ValueType, typename IndexType = std::int32_t>
struct Coo {
    using value_type = ValueType;
    using index_type = IndexType;

    IndexType num_rows = 0;
    IndexType num_cols = 0;
    std::vector<IndexType> row_idxs;
    std::vector<IndexType> col_idxs;
    std::vector<ValueType> values;
};

struct CooOptions {};

template <typename ValueType, typename IndexType>
Coo<ValueType, IndexType> to_coo(const Csr<ValueType, IndexType>& a, const CooOptions& = {});

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const Coo<ValueType, IndexType>& a);

/// Throws InvalidLayout if an invariant above is broken.
template <typename ValueType, typename IndexType>
void validate(const Coo<ValueType, IndexType>& a);

template <typename ValueType, typename IndexType>
std::int64_t nnz(const Coo<ValueType, IndexType>& a);

template <typename ValueType, typename IndexType>
Footprint footprint(const Coo<ValueType, IndexType>& a);

/// One thread per nonzero (iterations = useful = stored = 1 each), in storage order.
template <typename ValueType, typename IndexType>
ThreadWork thread_work(const Coo<ValueType, IndexType>& a);

/// y = alpha * A x + beta * y: scale y by beta (beta == 0 overwrites), then scatter-add
/// alpha * value * x[col] into y[row] entry by entry.
template <typename ValueType, typename IndexType>
void spmv_reference(const Coo<ValueType, IndexType>& a, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order = RowOrder::original);

}  // namespace spmv
