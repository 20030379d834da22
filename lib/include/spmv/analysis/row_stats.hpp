#pragma once
/// Row-length statistics and histograms: the numbers of PELLR Table 1 (N, nnz, ave, sigma,
/// max - min) and the histograms of Kreutzer Fig. 3 (bin size 1).
///
/// Canonical 4x4 A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], row lengths (3,1,3,2):
///   rows 4, cols 4, nnz 9, ave 9/4 = 2.25,
///   sigma = sqrt(((0.75)^2 + (1.25)^2 + (0.75)^2 + (0.25)^2) / 4) = sqrt(2.75/4) = 0.829156,
///   min 1, max 3, max - min 2, empty rows 0; histogram (bin 1) counts[0..3] = [0 1 1 2].
///
/// sigma is the POPULATION standard deviation (divide by N): the rows of a matrix are the whole
/// population, not a sample. PELLR Table 1 cannot tell the two apart: its smallest matrix has
/// N = 1484 (qh1484), where sqrt(N/(N-1)) = 1.00034, far below the table's 2-3 printed digits
/// (dw2048: sigma 0.51 either way). None of the Table 1 matrices is in our collection, so the
/// printed sigmas cannot be recomputed here; tests check the definition on hand-made lengths.
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/formats/csr.hpp>

namespace spmv::analysis {

/// Summary of the row lengths of a matrix (PELLR Table 1 plus the empty-row count).
struct RowLengthStats {
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    std::int64_t nnz = 0;
    double ave = 0.0;             ///< nnz / rows (0 for a matrix without rows); Kreutzer's N_nzr
    double sigma = 0.0;           ///< population standard deviation of the row lengths
    std::int64_t min = 0;         ///< shortest row (0 for a matrix without rows)
    std::int64_t max = 0;         ///< longest row (ELLPACK width, N_nzr^max)
    std::int64_t spread = 0;      ///< max - min (PELLR's "max-min")
    std::int64_t empty_rows = 0;  ///< rows without entries
};

/// Statistics of a list of row lengths (one entry per row) of a matrix with `num_cols` columns.
/// Throws InvalidArgument for a negative length or a negative num_cols.
RowLengthStats row_stats(std::span<const std::int32_t> lengths, std::int64_t num_cols);

/// Statistics of the rows of `a`.
template <typename ValueType, typename IndexType>
RowLengthStats row_stats(const Csr<ValueType, IndexType>& a);

/// A histogram with integer bin edges: bin b counts the values v with
/// edges[b] <= v < edges[b+1]; every bin has the same width `bin_width`.
struct Histogram {
    std::int64_t bin_width = 1;
    std::vector<std::int64_t> edges;   ///< counts.size() + 1 entries (just {0} when empty)
    std::vector<std::int64_t> counts;  ///< number of values per bin

    friend bool operator==(const Histogram&, const Histogram&) = default;
};

/// Row-length histogram with bin size 1 (Kreutzer Fig. 3): counts[len] is the number of rows
/// of length len, for len = 0 .. max (edges 0 .. max+1). Empty rows are bin 0.
/// A matrix without rows gives no bins.
template <typename ValueType, typename IndexType>
Histogram row_length_histogram(const Csr<ValueType, IndexType>& a);

/// Coarser histogram for a large range of values (e.g. memplus: lengths 1 .. 573): at most
/// `num_bins` bins of one integer width w = ceil((max - min + 1) / num_bins) starting at min,
/// so edges are exact integers; the bin count is ceil((max - min + 1) / w), which can be below
/// num_bins (e.g. 11 values in 4 bins: width 3, edges 0 3 6 9 12). With num_bins >= max-min+1
/// it is the bin-size-1 histogram from min to max. Throws InvalidArgument for num_bins < 1.
template <typename T>
Histogram histogram(std::span<const T> values, int num_bins);

}  // namespace spmv::analysis
