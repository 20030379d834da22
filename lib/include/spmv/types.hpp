#pragma once
/// Vocabulary shared by every storage format (STYLE.md 5.2).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace spmv {

/// Index sentinel of a padding slot (its value is 0), as in Ginkgo and the cuSPARSE SELL sample.
template <typename IndexType>
inline constexpr IndexType padding_index = IndexType{-1};

/// Unsigned 16-bit column offsets (the GPU variant sell_i16) have no -1: their sentinel is the
/// largest value, so a real offset is at most 0xFFFE.
template <>
inline constexpr std::uint16_t padding_index<std::uint16_t> = 0xFFFF;

/// Which basis a permuted format's result vector is in. Non-permuted formats ignore it.
enum class RowOrder {
    original,  ///< y[i] is row i of A (the format un-permutes)
    permuted,  ///< y[k] is row perm[k] of A (what a Krylov solver in the permuted basis wants)
};

/// Exact memory footprint of a stored matrix, in bytes, broken down by role.
/// value_bytes and index_bytes count the real (structurally nonzero) entries only;
/// everything a format stores for its padding slots lands in padding_bytes.
struct Footprint {
    std::int64_t stored_entries = 0;   ///< value slots, padding included
    std::int64_t padding_entries = 0;  ///< value slots that hold padding
    std::size_t value_bytes = 0;       ///< values of real entries
    std::size_t index_bytes = 0;       ///< column (and row, for COO) indices of real entries
    std::size_t aux_bytes = 0;         ///< row_ptrs, perm, widths, col_start, ...
    std::size_t padding_bytes = 0;     ///< values + indices of padding slots, alignment gaps

    std::size_t total_bytes() const noexcept
    {
        return value_bytes + index_bytes + aux_bytes + padding_bytes;
    }
};

/// What a footprint estimate needs of a matrix: its shape and its row lengths (FormatInfo::
/// estimate; analysis::estimate_footprint fills it from a CSR).
struct RowLengthProfile {
    std::int64_t num_rows = 0;
    std::int64_t num_cols = 0;
    std::int64_t nnz = 0;
    std::span<const std::int32_t> lengths;  ///< one per row
    std::span<const std::int32_t> row_ptrs;  ///< num_rows + 1 (for the "auto" rules)
};

/// How a format's GPU kernel distributes work over threads, in launch order.
/// Thread t runs `iterations[t]` loop trips, of which `useful[t]` touch real nonzeros;
/// `stored[t]` is the number of value slots the format stores for that thread.
/// spmv::analysis groups consecutive threads into warps to get N_iter, N_p, idle slots.
struct ThreadWork {
    std::vector<std::int64_t> iterations;
    std::vector<std::int64_t> useful;
    std::vector<std::int64_t> stored;

    /// One thread per stored entry, each doing one useful iteration (COO, plain JDS).
    static ThreadWork one_per_entry(std::size_t entries)
    {
        ThreadWork w;
        w.iterations.assign(entries, 1);
        w.useful.assign(entries, 1);
        w.stored.assign(entries, 1);
        return w;
    }
};

}  // namespace spmv
