#pragma once
/// Symmetric reorderings B = P A P^T of a square matrix and what they do to the SpMV: reverse
/// Cuthill-McKee (Boost.Graph), METIS nested dissection, and the metrics that show their effect
/// on bandwidth, on the locality of the reads of x, and on each format's padding.
///
/// Convention (as permute_symmetric in formats/csr.hpp): perm[new] = old, so row and column k
/// of B are row and column perm[k] of A: B(k, l) = A(perm[k], perm[l]).
///
/// Both orderings work on the graph of the symmetrised pattern A + A^T without self loops
/// (symmetrised_graph): vertex i is row/column i, an edge joins i != j when A(i, j) or A(j, i)
/// is stored. A symmetric reordering keeps every row's entries (it moves them), so it changes
/// WHERE the nonzeros lie and which x entries a warp reads together, not the row lengths'
/// multiset. Hence ELLPACK (N x max), ELLPACK-R, ELLG, HYB, JDS and the globally sorted formats
/// (pJDS, PELLR, BiJAD) store exactly as many slots under any ordering; SELL-C-sigma with
/// sigma < N and BiELL pad per group of CONSECUTIVE rows, so their padding changes.
///
/// Worked example, the path 0-1-2-3 given in the order (2, 0, 3, 1), i.e. A is the 4 x 4
/// tridiagonal matrix (stencil 2, -1) permuted with perm = [2 0 3 1]:
///   A = [2 0 -1 -1; 0 2 0 -1; -1 0 2 0; -1 -1 0 2]   bandwidth 3 (entries (0,3), (3,0))
///   RCM finds the path again, e.g. perm = [1 3 0 2]: B = tridiagonal, bandwidth 1.
/// Metrics on the canonical 4x4 A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9]:
///   bandwidth max |i - j| = 3 (entry (0,3)); profile (0-0) + (1-1) + (2-0) + (3-1) = 4;
///   mean |i - j| = (0+2+3 + 0 + 2+0+1 + 2+0) / 9 = 10/9.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/registry.hpp>

namespace spmv::analysis {

/// The orderings compared side by side.
enum class Ordering {
    original,           ///< the identity: the matrix as it was given
    rcm,                ///< reverse Cuthill-McKee (Boost.Graph cuthill_mckee_ordering)
    nested_dissection,  ///< METIS_NodeND
};

/// "none", "rcm", "nd": the CLI spelling.
std::string_view to_string(Ordering o) noexcept;
/// "original", "RCM", "nested dissection (METIS)": the display title.
std::string_view title(Ordering o) noexcept;
/// Parses "none" (or "original"), "rcm", "nd"; throws InvalidArgument naming the valid ones.
Ordering parse_ordering(std::string_view name);

/// The graph of A + A^T without self loops, in CSR adjacency form (what METIS calls xadj and
/// adjncy): the neighbours of vertex v are neighbours[offsets[v] .. offsets[v+1]), sorted and
/// without duplicates. Example, A = [1 1 0; 0 1 0; 0 1 1]: offsets = [0 1 3 4],
/// neighbours = [1 | 0 2 | 1]. Throws InvalidArgument for a matrix that is not square.
struct AdjacencyGraph {
    std::vector<std::int64_t> offsets{0};
    std::vector<std::int32_t> neighbours;

    std::int32_t num_vertices() const noexcept
    {
        return static_cast<std::int32_t>(offsets.size() - 1);
    }
    std::int64_t num_edges() const noexcept  ///< undirected edges (each stored twice)
    {
        return static_cast<std::int64_t>(neighbours.size()) / 2;
    }
};
AdjacencyGraph symmetrised_graph(const Csr<double, std::int32_t>& a);

/// True when this build has Boost.Graph (reverse_cuthill_mckee works).
bool has_rcm() noexcept;
/// True when this build has METIS (nested_dissection works).
bool has_nested_dissection() noexcept;
/// True when `o` can be computed in this build (the original order always can).
bool is_available(Ordering o) noexcept;

/// Reverse Cuthill-McKee ordering (perm[new] = old) of the graph of A + A^T: Boost.Graph's
/// cuthill_mckee_ordering, which starts every connected component at a pseudo-peripheral
/// vertex of low degree and numbers the vertices breadth first, neighbours by increasing
/// degree; the order is then reversed (George & Liu: same bandwidth, smaller profile).
/// Components come one after another, an empty row/column is a component of its own.
/// Throws InvalidArgument for a non-square matrix and NotCompiled without Boost.Graph.
std::vector<std::int32_t> reverse_cuthill_mckee(const Csr<double, std::int32_t>& a);

/// Nested dissection ordering (perm[new] = old) of the graph of A + A^T from METIS_NodeND:
/// recursive vertex separators, each separator numbered after the two parts it splits (a
/// fill-reducing order for a sparse Cholesky; for SpMV it clusters the nonzeros in blocks).
/// Throws InvalidArgument for a non-square matrix, NotCompiled without METIS, and Error when
/// METIS reports a failure (with its return code).
std::vector<std::int32_t> nested_dissection(const Csr<double, std::int32_t>& a);

/// The permutation of ordering `o` (the identity for Ordering::original).
std::vector<std::int32_t> ordering_permutation(const Csr<double, std::int32_t>& a, Ordering o);

/// max |i - j| over the stored entries (0 for a matrix without entries).
std::int64_t bandwidth(const Csr<double, std::int32_t>& a);

/// Profile (envelope size, George & Liu): sum over the rows i that hold entries of
/// max(0, i - f_i), f_i = the smallest column stored in row i. For a symmetric pattern this
/// is the number of slots between each row's first entry and the diagonal, what a skyline or
/// envelope storage would hold; a row whose first entry lies right of the diagonal adds 0.
std::int64_t profile(const Csr<double, std::int32_t>& a);

/// Mean |i - j| over the stored entries (0 without entries).
double mean_distance(const Csr<double, std::int32_t>& a);

/// How scattered a warp's reads of x are, in the column-major ELLPACK-R kernel (one thread per
/// row; trip k of a warp: each of its threads reads x[col] of its row's k-th entry, a thread
/// whose row has fewer than k+1 entries is idle). A warp is `warp_size` consecutive rows; x is
/// an array of `value_bytes`-byte values whose start is aligned to a sector, and the memory
/// system serves a trip in `sector_bytes`-byte sectors (32 on NVIDIA GPUs; with 8-byte doubles
/// a sector holds 4 entries of x: x[4s .. 4s+3] lie in sector s).
///
/// sectors_per_trip: the number of distinct sectors of x one trip touches, averaged over all
///   trips of all warps that have at least one active lane (so over sum_warps max row length
///   trips). 1 is the best possible (all lanes in one sector), `warp_size` the worst for
///   8-byte values and 32 lanes with every lane in its own sector.
/// ideal_sectors_per_trip: for comparison, ceil(active lanes * value_bytes / sector_bytes)
///   averaged the same way: the sectors of a perfectly coalesced read of that many CONSECUTIVE
///   entries (a banded matrix with one diagonal per trip comes close). Lanes that read the
///   same entry can do better than this (a dense column: 1 sector for the whole warp).
/// Example, warp_size 4, 8-byte values, 32-byte sectors, rows (cols): r0 (0, 9), r1 (1),
/// r2 (2, 3), r3 (12, 13, 14): trip 0 reads x[0 1 2 12] -> sectors {0, 3} = 2, 4 active
/// lanes -> ideal 1; trip 1 reads x[9 3 13] -> sectors {2, 0, 3} = 3, ideal 1; trip 2 reads
/// x[14] -> 1, ideal 1. Mean 6/3 = 2 sectors per trip, ideal 3/3 = 1.
struct XLocality {
    double sectors_per_trip = 0.0;
    double ideal_sectors_per_trip = 0.0;
    std::int64_t trips = 0;    ///< warp trips with an active lane (the average's denominator)
    std::int64_t sectors = 0;  ///< sectors summed over those trips
};
XLocality x_locality(const Csr<double, std::int32_t>& a, int warp_size = 32,
                     int sector_bytes = 32, int value_bytes = 8);

/// One registered format's stored slots under an ordering, from estimate_footprint
/// (analysis/estimate.hpp: the exact footprint without building the format).
struct FormatPadding {
    std::string name;   ///< registry name, e.g. "sell"
    std::string title;  ///< display name, e.g. "SELL-C-σ"
    std::int64_t stored_entries = 0;
    std::int64_t padding_entries = 0;
    double padding_share = 0.0;  ///< padding / stored, 0 when nothing is stored
    std::string error;           ///< why there is no estimate (then the numbers are 0)
    bool ok() const noexcept { return error.empty(); }
};

/// FormatPadding of every registered format (registry order) for `a` as stored, with `params`.
std::vector<FormatPadding> format_padding(const Csr<double, std::int32_t>& a,
                                          const FormatParams& params);

/// One ordering and its effect, measured on B = P A P^T.
struct OrderingReport {
    Ordering ordering = Ordering::original;
    std::string name;   ///< to_string(ordering): "none", "rcm", "nd"
    std::string title;  ///< title(ordering)
    /// Empty when the ordering was computed; otherwise why not (the spmv::Error's what(),
    /// e.g. NotCompiled "... needs Boost.Graph ...") and every field below is empty / 0.
    std::string error;
    std::vector<std::int32_t> perm;  ///< perm[new] = old
    double seconds = 0.0;            ///< time to compute perm (0 when it was given)

    std::int64_t num_rows = 0;
    std::int64_t nnz = 0;
    std::int64_t bandwidth = 0;
    std::int64_t profile = 0;
    double mean_distance = 0.0;
    int warp_size = 32;  ///< warp of the x-locality numbers (params.warp_size)
    XLocality x;
    std::vector<FormatPadding> padding;

    bool ok() const noexcept { return error.empty(); }
};

/// Measures ordering `o` given by `perm` (validated: a permutation of 0..n-1) on B = P A P^T.
/// `permuted`, when given, receives B. Throws InvalidArgument for a non-square matrix and
/// InvalidLayout for a `perm` that is not a permutation.
OrderingReport report_permutation(const Csr<double, std::int32_t>& a, Ordering o,
                                  std::span<const std::int32_t> perm, const FormatParams& params,
                                  Csr<double, std::int32_t>* permuted = nullptr);

/// The matrix as given, of any shape: an Ordering::original report with the identity perm,
/// measured without copying `a`.
OrderingReport report_as_given(const Csr<double, std::int32_t>& a, const FormatParams& params);

/// Computes ordering `o` (ordering_permutation, timed) and measures it (report_permutation).
/// Throws what those throw.
OrderingReport report_ordering(const Csr<double, std::int32_t>& a, Ordering o,
                               const FormatParams& params,
                               Csr<double, std::int32_t>* permuted = nullptr);

/// original (report_as_given), RCM and nested dissection side by side. An ordering that cannot
/// be computed here (NotCompiled, a non-square matrix) gives a report whose `error` says why
/// instead of throwing; the original order of a non-square matrix is still measured.
std::vector<OrderingReport> compare_orderings(const Csr<double, std::int32_t>& a,
                                              const FormatParams& params);

}  // namespace spmv::analysis
