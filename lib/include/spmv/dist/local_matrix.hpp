#pragma once
/// One rank's part of a distributed matrix: its rows split into a LOCAL block (the columns whose
/// x entries the rank owns) and a NON-LOCAL block (columns owned by other ranks, renumbered
/// compactly as the "halo"), as in Kreutzer et al. §III.A, PETSc's MPIAIJ (diagonal and
/// off-diagonal parts) and Ginkgo's distributed::Matrix (local and non-local matrices).
///
///   y_r = A_local x_r + A_nonlocal halo_r
///
/// x_r holds the rank's own entries of x (in the column partition's local order), halo_r the
/// entries it receives from the others (ExchangePlan), ordered by owning rank, then by global
/// column. Both blocks are plain 32-bit CSR matrices, so each can be built into ANY registered
/// format (spmv::build) and run by any kernel.
///
/// Example: the canonical 4x4 A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9] over 2 ranks by rows
/// (rank 0: rows/cols {0,1}, rank 1: rows/cols {2,3}):
///   rank 0: local    = [1 0; 0 4]          nonlocal = [2 3; 0 0]   halo = global cols {2,3}
///   rank 1: local    = [6 7; 0 9]          nonlocal = [5 0; 0 8]   halo = global cols {0,1}
/// With x = (1,2,3,4): rank 0 computes (1,8) + (2*3+3*4, 0) = (19, 8), rank 1 (18+28, 36) +
/// (5, 16) = (51, 52), i.e. A x = (19, 8, 51, 52).
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/dist/partition.hpp>
#include <spmv/formats/csr.hpp>

namespace spmv::dist {

/// A rank's rows in global numbering: the input of the split, so that a matrix too large for
/// one process (or for 32-bit indices) can be handed over row block by row block.
template <typename ValueType>
struct GlobalRows {
    global_index num_rows = 0;         ///< of the whole matrix
    global_index num_cols = 0;         ///< of the whole matrix
    std::vector<global_index> rows;    ///< global row of each local row, ascending
    std::vector<std::int64_t> row_ptrs{0};
    std::vector<global_index> col_idxs;  ///< global columns, ascending within a row
    std::vector<ValueType> values;
};

/// The rows of `a` that `rows.owner` gives to `rank`.
template <typename ValueType>
GlobalRows<ValueType> extract_rows(const Csr<ValueType, std::int32_t>& a, const Partition& rows,
                                   int rank);

template <typename ValueType>
struct LocalMatrix {
    int rank = 0;
    global_index global_rows = 0;
    global_index global_cols = 0;
    Csr<ValueType, std::int32_t> local;     ///< own rows x own columns (column partition order)
    Csr<ValueType, std::int32_t> nonlocal;  ///< own rows x halo entries
    std::vector<global_index> row_ids;      ///< global row of each local row
    std::vector<global_index> halo_cols;    ///< global column of each halo entry
    std::vector<std::int32_t> halo_owner;   ///< owning rank of each halo entry (ascending)
    std::int32_t num_own_cols = 0;          ///< entries of x this rank holds
};

/// Splits a rank's rows into the local and non-local blocks. Throws InvalidArgument when a row
/// is not owned by `rank` or a column is out of range, and DimensionMismatch when a block would
/// not fit 32-bit indices (with its size).
template <typename ValueType>
LocalMatrix<ValueType> split(const GlobalRows<ValueType>& rows, const Partition& row_part,
                             const Partition& col_part, int rank);

/// y_r = A_local x_r + A_nonlocal halo_r with the CSR reference (the host check of the modes).
template <typename ValueType>
void spmv_reference(const LocalMatrix<ValueType>& m, std::span<const ValueType> x_own,
                    std::span<const ValueType> halo, std::span<ValueType> y);

}  // namespace spmv::dist
