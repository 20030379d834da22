#pragma once
/// ELLG (Barbieri, Cardellini, Filippone §2): ELLPACK with a row-length array (as ELLPACK-R)
/// whose leading dimension is padded to a pitch, so that every column of the 2-D arrays starts
/// on a 128-byte boundary ("we choose a pitch for arrays that makes them aligned to the
/// appropriate boundaries in memory (128B is a good choice)"). Both 2-D arrays: a column of
/// values AND a column of indices is a multiple of the pitch, so the stride is a multiple of
/// 128/8 = 16 (double values) and of 128/4 = 32 (int32 indices), i.e. of 32 rows. The kernel
/// (Sspmvm_gpu_unroll_2_krn) knows each row's length up front and unrolls the loop by 2.
///
/// A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9], x = (1,2,3,4), A x = (19, 8, 51, 52)
/// row_lengths = [3 1 3 2], width 3; pitch 128 bytes, double values, int32 indices:
/// stride = 32 (4 rounded up to lcm(128/8, 128/4) = 32 rows: a column is 256 B of values and
/// 128 B of indices), rows 4..31 are the alignment gap (·· = 28 padding slots):
/// col_idxs = [0 1 0 1 ·· | 2 - 2 3 ·· | 3 - 3 - ··]     (- and ·· = padding_index, value 0)
/// values   = [1 4 5 8 ·· | 2 0 6 9 ·· | 3 0 7 0 ··]     96 stored, 87 padding (3 + 3*28)
/// Footprint (double, int32): values 72, indices 36, row_lengths 16 (aux),
/// padding 87*(8+4) = 1044 (short rows + alignment gap): 1168 bytes.
/// float (also 32 rows): 96 stored, 87 padding; 36 + 36 + 16 + 87*8 = 784 bytes.
/// Unrolled by 2, row 0 (length 3): one trip over slots 0 and 32 (1*1 + 2*3), then the odd
/// remainder slot 64 (3*4): 7 + 12 = 19. Row 3 (length 2): one trip, 8*2 + 9*4 = 52.
/// Invariants: as ELLPACK-R (slot (i, j) at j * stride + i, 0 <= row_lengths[i] <= width,
/// width == max row length, real entries first with increasing columns, then padding), plus
/// stride == ellg_stride(num_rows, pitch_bytes, sizeof(ValueType), sizeof(IndexType)) and
/// every slot of the gap rows [num_rows, stride) is padding.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/types.hpp>

namespace spmv {

template <typename ValueType, typename IndexType = std::int32_t>
struct EllG {
    using value_type = ValueType;
    using index_type = IndexType;

    IndexType num_rows = 0;
    IndexType num_cols = 0;
    IndexType width = 0;    ///< max row length (N_nzr^max)
    IndexType stride = 0;   ///< leading dimension: num_rows rounded up to the pitch
    int pitch_bytes = 128;  ///< every column of the 2-D arrays is a multiple of this many bytes
    std::vector<IndexType> col_idxs;
    std::vector<ValueType> values;
    std::vector<IndexType> row_lengths;  ///< rS[] in Barbieri's kernel: entries of each row
};

struct EllGOptions {
    int pitch_bytes = 128;  ///< Barbieri §2: 128-byte alignment
};

/// Rows per alignment unit: the smallest s > 0 with both s * value_size and s * index_size
/// multiples of pitch_bytes, i.e. lcm(pitch / gcd(pitch, value_size), pitch / gcd(pitch,
/// index_size)). For 128 B and int32 indices: 32 rows with float and with double values (a
/// double column alone would need 16, but its index column would then be only 64 B). A pitch
/// no larger than one index (e.g. 4 B) gives 1, i.e. no extra rows. Throws InvalidArgument if
/// pitch_bytes <= 0.
std::int64_t ellg_alignment(int pitch_bytes, std::size_t value_size, std::size_t index_size);

/// num_rows rounded up to a multiple of ellg_alignment(pitch_bytes, value_size, index_size)
/// (e.g. 100 rows, 128 B, int32 indices: 128 for float and for double; 64 B: 112 for both).
std::int64_t ellg_stride(std::int64_t num_rows, int pitch_bytes, std::size_t value_size,
                         std::size_t index_size);

/// Throws InvalidArgument for pitch_bytes <= 0 or a stride beyond 32-bit indices.
template <typename ValueType, typename IndexType>
EllG<ValueType, IndexType> to_ellg(const Csr<ValueType, IndexType>& a, const EllGOptions& = {});

template <typename ValueType, typename IndexType>
Csr<ValueType, IndexType> to_csr(const EllG<ValueType, IndexType>& a);

/// Throws InvalidLayout if an invariant above is broken.
template <typename ValueType, typename IndexType>
void validate(const EllG<ValueType, IndexType>& a);

template <typename ValueType, typename IndexType>
std::int64_t nnz(const EllG<ValueType, IndexType>& a);

/// All stride * width slots are stored; the gap rows [num_rows, stride) count as padding
/// (entries and bytes) next to the short rows' tails; row_lengths (num_rows ints) is aux.
template <typename ValueType, typename IndexType>
Footprint footprint(const EllG<ValueType, IndexType>& a);

/// One thread per real row (threads i >= num_rows return at once in the kernel and are not
/// listed): iterations = useful = row length, stored = width. `iterations` counts entries,
/// not loop trips: the kernel unrolls by 2, doing ceil(len / 2) trips of up to 2 entries.
template <typename ValueType, typename IndexType>
ThreadWork thread_work(const EllG<ValueType, IndexType>& a);

/// Mirrors Sspmvm_gpu_unroll_2_krn: row_size/2 trips reading two slots (p and p + pitch)
/// each, then one more slot if row_size is odd; y = alpha*prod (beta == 0) or
/// beta*y + alpha*prod.
template <typename ValueType, typename IndexType>
void spmv_reference(const EllG<ValueType, IndexType>& a, ValueType alpha,
                    std::span<const ValueType> x, ValueType beta, std::span<ValueType> y,
                    RowOrder order = RowOrder::original);

}  // namespace spmv
