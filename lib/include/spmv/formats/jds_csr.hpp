#pragma once
/// JDS "CSR-like" (Cevahir §3.1, Fig. 3): JDS storage (rows sorted by length, jagged diagonals one
/// after another) read by one GPU thread per sorted row: thread t walks the diagonals,
/// j = jd_ptrs[i] + t for i < nz_count[t], so consecutive threads read consecutive addresses
/// and y is written once. For coalescing every diagonal starts at a multiple of diag_pad (16 in
/// the paper): each diagonal is padded with zeros to a multiple of diag_pad entries. jd_ptrs
/// (num_diags + 1 entries, in constant memory on the GPU) index that padded layout.
///
/// A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], row lengths (3,1,3,2), row_perm = [0 2 3 1]
/// diag_pad = 4:  jd_ptrs  = [0 4 8 12]          nz_count = [3 3 2 1]
///                col_idxs = [0 0 1 1 | 2 2 3 - | 3 3 - -]      (- = padding_index, value 0)
///                values   = [1 5 8 4 | 2 6 9 0 | 3 7 0 0]      12 stored, 3 padding
/// diag_pad = 16 (default): diagonals of 4, 3, 2 real entries each take 16 slots:
///                jd_ptrs  = [0 16 32 48]                       48 stored, 39 padding
/// Invariants: row_perm is a permutation; nz_count (entries per sorted row) is non-increasing
/// and nz_count[0] == num_diags; diagonal d holds L_d = #{t : nz_count[t] > d} real entries
/// followed by exactly round_up(L_d, diag_pad) - L_d padding slots (padding_index, value 0);
/// sorted row t holds the entries of original row row_perm[t], columns in range and strictly
/// increasing from one diagonal to the next.
///
/// Thread-work convention for the padding: padding slot r of a diagonal (L_d <= r) belongs to
/// thread r, the thread that would read it if its row were long enough. Padding can reach past
/// the last row, so the launch has max(num_rows, jd_ptrs[1] - jd_ptrs[0]) threads: threads
/// t >= num_rows do no work and only own padding. Sum of stored over threads = stored entries.
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/types.hpp>

namespace spmv {

template <typename ValueType, typename IndexType = std::int32_t>
struct JdsCsr {
    using value_type = ValueType;
    using index_type = IndexType;

    IndexType num_rows = 0;
    IndexType num_cols = 0;
    IndexType diag_pad = 16;            ///< every diagonal is padded to a multiple of this
    std::vector<IndexType> row_perm;    ///< row_perm[k] = original row stored k-th
    std::vector<IndexType> jd_ptrs{0};  ///< num_diags + 1 offsets into the padded layout
    std::vector<IndexType> nz_count;    ///< entries of each sorted row (num_rows)
    std::vector<IndexType> col_idxs;
    std::vector<ValueType> values;
};

struct JdsCsrOptions {
    std::int32_t diag_pad = 16;  ///< Cevahir: "multiple of 16"; 1 gives plain JDS storage
};

template <typename ValueType, typename IndexType>
JdsCsr<ValueType, IndexType> to_jds_csr(const Csr<ValueType, IndexType>& a,
                                        const JdsCsrOptions& = {});

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const JdsCsr<ValueType, IndexType>& a);

/// Throws InvalidLayout if an invariant above is broken.
template <typename ValueType, typename IndexType>
void validate(const JdsCsr<ValueType, IndexType>& a);

template <typename ValueType, typename IndexType>
std::int64_t nnz(const JdsCsr<ValueType, IndexType>& a);

/// stored_entries counts the diagonal padding; aux_bytes = row_perm + jd_ptrs + nz_count.
template <typename ValueType, typename IndexType>
Footprint footprint(const JdsCsr<ValueType, IndexType>& a);

/// One thread per sorted row: iterations = useful = nz_count[t]; stored = nz_count[t] plus the
/// padding slots it owns (convention above).
template <typename ValueType, typename IndexType>
ThreadWork thread_work(const JdsCsr<ValueType, IndexType>& a);

/// Mirrors Cevahir Fig. 3 (code for GPU thread t), with y = alpha A x + beta y; the result goes
/// to y[row_perm[t]] (RowOrder::original) or y[t] (RowOrder::permuted).
template <typename ValueType, typename IndexType>
void spmv_reference(const JdsCsr<ValueType, IndexType>& a, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order = RowOrder::original);

}  // namespace spmv
