#pragma once
/// Row ranges of the generators: the rows [first, end) of a gen: matrix with 64-bit global
/// indices, built without the rest of the matrix. This is what every rank of a distributed run
/// generates (spmv::dist::generate_parallel), so that no process ever holds the whole matrix
/// and a matrix past 32-bit indices (pde1100: 1.33e9 rows, 9.3e9 nonzeros) can be built.
///
/// generate_rows(spec, first, end) is, bit for bit, rows [first, end) of generate(spec): both
/// run the same per-row code. That holds for every generator because each row's content is a
/// function of the parameters and its own index only: the stencils (pde, laplace2d) by formula,
/// the random generators from the splitmix64 stream Rng(seed, row) -- blocks5 from
/// Rng(seed, block row), whose five rows take its values in turn, so a range that starts inside
/// a block row replays the rows before it. has_row_range() says which generators have this form
/// (all seven today); one without it would be generated whole on one process.
///
/// The row-range path takes sizes whose whole matrix does not fit 32-bit indices (pde's size up
/// to 10^6, laplace2d's nx * ny up to 2^60, sums of row lengths past 2^31): generate() keeps
/// refusing those with a message naming the size. Row lengths and nonzero counts come without
/// building any row, so that an nnz-balanced partition is cut before the rows are generated:
/// row_lengths() for a range; count_nonzeros(), O(1) by closed form where the row lengths have
/// one (pde, laplace2d, onefull, random, banded with fill 1: nnz_closed_form()), otherwise the
/// sum of the lengths (one random draw or two per row, no allocation).
///
/// Threads: generate_rows, row_lengths and a count_nonzeros that sums lengths cut the range into
/// parts of 2^15 rows and hand them to build_threads() threads (spmv/parallel.hpp); each part
/// writes its rows at its place, the parts' nonzeros counted first. A row depends only on its
/// index, so the result is the same bit for bit on any number of threads; the only memory
/// beside the output is one count per part.
///
/// Example (pde with size 2: 8 rows of 4 entries, a 2x2x2 grid where every point has three
/// neighbours): generate_rows(parse_spec("gen:pde:size=2"), 3, 5) holds rows {3, 4},
/// row_ptrs {0, 4, 8}, columns {1, 2, 3, 7 | 0, 4, 5, 6}, values {-1, -1, 6, -1 | -1, 6, -1, -1}.
#include <cstdint>
#include <vector>

#include <spmv/dist/local_matrix.hpp>
#include <spmv/generators.hpp>

namespace spmv::gen {

using global_index = dist::global_index;

/// Rows and columns of a generator's whole matrix, in 64-bit counts.
struct Shape {
    global_index num_rows = 0;
    global_index num_cols = 0;
};

/// Whether the generator `name` builds row ranges (generate_rows). Throws InvalidArgument for
/// an unknown name.
bool has_row_range(std::string_view name);

/// The shape of spec's matrix. Checks the parameters as generate() does, with the row-range
/// limits (above); throws InvalidArgument naming the bad one.
Shape shape(const Spec& spec);

/// Whether count_nonzeros(spec, ...) is a closed form (O(1)) rather than a sum over the rows.
bool nnz_closed_form(const Spec& spec);

/// The nonzeros of rows [first, end). Throws InvalidArgument unless
/// 0 <= first <= end <= shape(spec).num_rows.
std::int64_t count_nonzeros(const Spec& spec, global_index first, global_index end);

/// The length of each row of [first, end), without building the rows.
std::vector<std::int64_t> row_lengths(const Spec& spec, global_index first, global_index end);

/// Bytes generate_rows(spec, first, end) holds: 8 per row id, 8 per row pointer (one more than
/// rows), 16 per entry (64-bit column and double value).
std::uint64_t rows_bytes(const Spec& spec, global_index first, global_index end);

/// Rows [first, end) of spec's matrix in global numbering (GlobalRows: the rows' ids, 64-bit
/// row pointers from 0, global columns ascending within each row, values; num_rows and
/// num_cols of the whole matrix). Throws InvalidArgument for a bad range or parameter.
dist::GlobalRows<double> generate_rows(const Spec& spec, global_index first, global_index end);

}  // namespace spmv::gen
