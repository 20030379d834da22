#pragma once
/// Row partitions of a matrix over P ranks (MPI-free: the `dist plan` command, the GUI and the
/// tests compute them in one process; spmv::dist's MPI layer uses the same objects).
///
/// A partition says which rank owns each global row (and, for the vectors, each entry of x and
/// y). Global indices are 64-bit, so a matrix of more than 2^31 rows or nonzeros in total can
/// be described and spread; each rank's own part keeps the 32-bit formats. A contiguous
/// partition (rows, nnz) is its num_ranks + 1 offsets whatever its size (owner_of is a binary
/// search, local_index_of a subtraction): 3 billion rows cost 40 bytes on 4 ranks. Only metis
/// keeps an owner and a local index per row (32-bit: a rank owns at most 2^31 - 1 indices).
///
///   rows  contiguous blocks of (almost) equal row counts: rank r owns [offsets[r], offsets[r+1])
///   nnz   contiguous blocks of (almost) equal nonzero counts (Cevahir et al. §3.3: "we assign
///         nonzeros of the matrix equally to each GPU, so that loads of MxV is balanced")
///   metis a graph partition of the symmetrised pattern that minimises the edge cut, i.e. the
///         halo volume (METIS_PartGraphKway, Debian libmetis-dev); the rows a rank owns are then
///         not contiguous, so the partition holds an owner per row.
///
/// Example (the canonical 4x4 A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], row lengths 3,1,3,2,
/// 9 nonzeros) over 2 ranks:
///   rows: offsets = [0 2 4]   rank 0 rows {0,1} (4 nnz), rank 1 rows {2,3} (5 nnz)
///   nnz:  offsets = [0 2 4]   (the split nearest to 4.5 nonzeros per rank is after row 1)
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <spmv/formats/csr.hpp>

namespace spmv::dist {

using global_index = std::int64_t;

enum class PartitionKind { rows, nnz, metis };
std::string_view to_string(PartitionKind k);
/// "rows", "nnz" or "metis"; throws InvalidArgument for anything else.
PartitionKind parse_partition_kind(std::string_view name);

/// Which rank owns each of `size` global indices.
struct Partition {
    PartitionKind kind = PartitionKind::rows;
    int num_ranks = 1;
    global_index size = 0;
    /// Contiguous kinds (rows, nnz): num_ranks + 1 non-decreasing entries from 0 to size.
    std::vector<global_index> offsets;
    /// General kind (metis): the owning rank of every index, and its position among the
    /// indices its rank owns (in ascending global order). Empty for contiguous kinds.
    std::vector<std::int32_t> owner;
    std::vector<std::int32_t> local;

    bool contiguous() const noexcept { return owner.empty(); }
    /// Owning rank of global index g (binary search for contiguous partitions).
    int owner_of(global_index g) const;
    /// Position of g among its owner's indices.
    std::int64_t local_index_of(global_index g) const;
    /// How many indices rank r owns.
    global_index count(int r) const;
    /// The global indices rank r owns, ascending (count(r) entries of 8 bytes: for a
    /// contiguous partition of billions of indices use offsets and count instead).
    std::vector<global_index> indices_of(int r) const;
    /// The owning rank of every index (`owner` itself for general partitions; `size` entries,
    /// so only for matrices that one process holds).
    std::vector<std::int32_t> owners() const;
};

/// Throws InvalidLayout when a partition's arrays are inconsistent (offsets not monotone or not
/// spanning [0, size), an owner outside [0, num_ranks), local indices not matching owner).
void validate(const Partition& p);

/// Contiguous blocks of ceil/floor(size / ranks) indices (the first size % ranks get one more).
/// More ranks than indices is allowed: the last ranks own nothing.
Partition partition_rows(global_index size, int ranks);

/// Contiguous blocks balancing a weight per index, given as its prefix sums (prefix.size() =
/// size + 1, prefix[0] = 0, non-decreasing; for rows weighted by nonzeros this is row_ptrs).
/// Rank r's block ends at the first row boundary at or after the ideal split r * total / P,
/// or the one before it when that is nearer; a rank never gets fewer than zero rows.
Partition partition_weighted(std::span<const global_index> prefix, int ranks);

/// partition_weighted's rule in two steps, shared with the distributed nnz cut
/// (spmv/dist/nnz_split.hpp, where each rank applies it to its own rows) so that both give the
/// same partition to the row.
///
/// The ideal split r * total / ranks, in long double: no overflow for totals near 2^63.
inline long double ideal_split(std::int64_t total, int r, int ranks)
{
    return static_cast<long double>(total) * r / ranks;
}

/// The row boundary b in [0, n] nearest to `ideal`: the first with prefix(b) >= ideal (n when
/// none is before n), or b - 1 when that one is strictly nearer (a tie keeps b). `prefix(i)`,
/// the weight of the first i rows, must not decrease on [0, n]; it is called O(log n) times.
template <typename Prefix>
global_index nearest_boundary(global_index n, long double ideal, const Prefix& prefix)
{
    global_index lo = 0;
    global_index hi = n;
    while (lo < hi) {  // lower_bound over [0, n]
        const global_index mid = lo + (hi - lo) / 2;
        if (static_cast<long double>(prefix(mid)) < ideal) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo > 0 && ideal - static_cast<long double>(prefix(lo - 1)) <
                      static_cast<long double>(prefix(lo)) - ideal) {
        --lo;  // the boundary before is nearer
    }
    return lo;
}

/// The nnz partition of `num_rows` rows from its splits: entry r - 1 (r in 1..ranks-1) is the
/// row boundary chosen for split r, and rank r starts there, clamped in rank order to
/// [rank r - 1's start, num_rows] so that a rank never gets fewer than zero rows (-1, or any
/// value at or below the previous cut, means "at the previous cut", as when the total is 0).
/// partition_weighted ends in it, and so does the distributed nnz cut (spmv/dist/nnz_split.hpp),
/// whose splits are found by the ranks that hold the rows.
Partition nnz_partition_from_splits(global_index num_rows, int ranks,
                                    std::span<const global_index> splits);

/// Rows balanced by nonzeros (Cevahir §3.3).
template <typename ValueType>
Partition partition_nnz(const Csr<ValueType, std::int32_t>& a, int ranks);

/// Whether this build has METIS (libmetis-dev found when it was configured).
bool has_metis() noexcept;

/// METIS k-way partition of the graph of A + A^T (diagonal dropped) into `ranks` parts, with
/// vertices weighted by their row's nonzeros so that the parts balance the SpMV work.
/// Square matrices only. Throws NotCompiled in a build without METIS; ranks == 1 needs no METIS.
template <typename ValueType>
Partition partition_metis(const Csr<ValueType, std::int32_t>& a, int ranks, int seed = 1);

/// Builds the partition of the rows of `a` named by `kind`.
template <typename ValueType>
Partition make_partition(const Csr<ValueType, std::int32_t>& a, PartitionKind kind, int ranks);

/// The partition of the columns (the entries of x) that goes with a row partition: for a
/// square matrix the same partition (x and y are distributed alike, as a solver needs); for a
/// rectangular one num_cols split into contiguous blocks in proportion to the rows' blocks.
Partition column_partition(const Partition& rows, global_index num_cols);

}  // namespace spmv::dist
