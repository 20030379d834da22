#pragma once
/// ELLPACK (ELL): rows shifted left into a num_rows x width rectangle (width = longest row),
/// stored column-major so that consecutive threads (rows) read consecutive addresses.
/// The kernel computes the padded slots too (Kreutzer §II.A: "ELLPACK contains zero entries").
///
/// A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], row lengths (3,1,3,2), width 3, stride 4
/// col_idxs = [0 1 0 1 | 2 - 2 3 | 3 - 3 -]      (- = padding_index, value 0)
/// values   = [1 4 5 8 | 2 0 6 9 | 3 0 7 0]      12 stored, 3 padding
/// Invariants: slot (row i, column j) lives at j * stride + i; stride >= num_rows;
/// padding only after a row's real entries, with value 0; real column indices in range
/// and increasing within a row.
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/types.hpp>

namespace spmv {

template <typename ValueType, typename IndexType = std::int32_t>
struct Ell {
    using value_type = ValueType;
    using index_type = IndexType;

    IndexType num_rows = 0;
    IndexType num_cols = 0;
    IndexType width = 0;   ///< max row length (N_nzr^max)
    IndexType stride = 0;  ///< leading dimension (= num_rows)
    std::vector<IndexType> col_idxs;
    std::vector<ValueType> values;
};

struct EllOptions {};

template <typename ValueType, typename IndexType>
Ell<ValueType, IndexType> to_ell(const Csr<ValueType, IndexType>& a, const EllOptions& = {});

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const Ell<ValueType, IndexType>& a);

template <typename ValueType, typename IndexType>
void validate(const Ell<ValueType, IndexType>& a);

template <typename ValueType, typename IndexType>
std::int64_t nnz(const Ell<ValueType, IndexType>& a);

template <typename ValueType, typename IndexType>
Footprint footprint(const Ell<ValueType, IndexType>& a);

/// One thread per row; every thread runs `width` iterations (padding is computed).
template <typename ValueType, typename IndexType>
ThreadWork thread_work(const Ell<ValueType, IndexType>& a);

/// Mirrors Kreutzer Listing 1 without the rowmax[] test: every slot is multiplied.
template <typename ValueType, typename IndexType>
void spmv_reference(const Ell<ValueType, IndexType>& a, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order = RowOrder::original);

}  // namespace spmv
