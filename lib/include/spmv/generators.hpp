#pragma once
/// Matrix generators: the structures the papers benchmark on, at any size, reproducible.
///
/// Every generator returns a valid Csr<double, int32_t> (sorted columns, no duplicates) and is
/// a pure function of its arguments: the same parameters and seed give the same matrix, bit for
/// bit, on every platform (own splitmix64 streams, no std::*_distribution). Random structure
/// and values come from one stream per row, so row i does not depend on how many rows follow.
/// Random values are uniform in (-1, 1) and never exactly 0. Bad parameters throw
/// InvalidArgument saying which one and why; sizes whose nonzeros would not fit in 32-bit
/// indices are rejected up front. The same generators build any row range [first, end) with
/// 64-bit global indices, bit for bit the same rows, past those limits (pde1100):
/// spmv/generator_rows.hpp.
///
/// The same generators by name, for the CLI and GUI (`spmvlab generate pde --size 100`):
///   generators()  lists {name, description, parameters with defaults and ranges};
///   generate("pde", {{"size", 100}}, seed)  builds one, checking every parameter.
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <spmv/formats/csr.hpp>
#include <spmv/memory.hpp>

namespace spmv::gen {

/// 7-point finite-difference Laplacian on a k x k x k grid (Barbieri et al.'s pde05..pde100):
/// N = k^3, nnz = 7k^3 - 6k^2 (pde05: 125 / 725, pde100: 1,000,000 / 6,940,000). Diagonal 6,
/// neighbours -1, grid point (x, y, z) is row x + k*y + k^2*z. Symmetric positive definite.
Csr<double, std::int32_t> pde(std::int32_t k);

/// 5-point Laplacian on an nx x ny grid: diagonal 4, neighbours -1, point (x, y) is row x + nx*y.
/// N = nx*ny, nnz = 5*nx*ny - 2*nx - 2*ny. Symmetric positive definite.
Csr<double, std::int32_t> laplace2d(std::int32_t nx, std::int32_t ny);

/// Square matrix whose row lengths follow a discrete power law (scale-free graphs, memplus):
///   P(len = l) = l^-exponent / sum_{m=min_len}^{max_len} m^-exponent,  l = min_len..max_len.
/// Every row holds its diagonal plus len-1 distinct random columns. exponent 0 gives uniform
/// lengths; the default exponent 2 with min_len 1 gives mostly 1-3 entries per row and a heavy
/// tail up to max_len (mean ~4.5 for max_len 1000; see power_law_mean).
/// Requires 1 <= min_len <= max_len <= rows and 0 <= exponent <= 10.
Csr<double, std::int32_t> power_law(std::int32_t rows, std::int32_t min_len, double exponent,
                                    std::int32_t max_len, std::uint64_t seed);

/// Expected row length of power_law(.., min_len, exponent, max_len, ..).
double power_law_mean(std::int32_t min_len, double exponent, std::int32_t max_len);

/// n x n: row 0 is full, every other row holds only its diagonal (nnz = 2n - 1). The worst case
/// of Kreutzer §II.A: ELLPACK stores n*n slots, pJDS (b_r + 1)*n - b_r.
Csr<double, std::int32_t> onefull(std::int32_t n, std::uint64_t seed);

/// Dense 5x5 blocks, like the DLR CFD matrices of Kreutzer Table I (5 unknowns per cell).
/// N = 5*num_block_rows. Block row I holds its diagonal block plus c-1 further blocks, c drawn
/// uniformly from 1..max_blocks_per_row, at distinct block columns within 2*max_blocks_per_row
/// of the diagonal (a local mesh neighbourhood). Row lengths are 5*c: irregular in steps of 5.
/// Requires 1 <= max_blocks_per_row <= num_block_rows.
Csr<double, std::int32_t> blocks5(std::int32_t num_block_rows, std::int32_t max_blocks_per_row,
                                  std::uint64_t seed);

/// n x n band |i - j| <= bandwidth plus long off-diagonals j = i + offset for each offset
/// (HMEp-like: a band and far outlying diagonals; rows near the ends miss some of them). Each
/// off-diagonal entry is kept with probability `fill` (1: all). Offsets must be distinct with
/// bandwidth < |offset| < n.
Csr<double, std::int32_t> banded_offdiag(std::int32_t n, std::int32_t bandwidth,
                                         std::span<const std::int64_t> offsets, std::uint64_t seed,
                                         double fill = 1.0);

/// The offsets generate("banded", ...) uses: k*n/(count+1) for k = 1..count, signs alternating
/// (+, -, +, ...), so the far diagonals sit on both sides.
std::vector<std::int64_t> spread_offsets(std::int32_t n, std::int32_t count);

/// rows x cols, exactly nnz_per_row distinct uniformly random columns in every row.
Csr<double, std::int32_t> random_uniform(std::int32_t rows, std::int32_t cols,
                                         std::int32_t nnz_per_row, std::uint64_t seed);

/// One parameter of a generator, as the CLI spells it (`--size 100`).
struct GeneratorParam {
    std::string_view name;         ///< e.g. "size", "max-len"
    std::string_view description;  ///< one line
    double default_value;
    double min_value;
    double max_value;
    bool integer;  ///< must be a whole number
};

struct GeneratorInfo {
    std::string_view name;         ///< registry name, e.g. "pde"
    std::string_view title;        ///< display name
    std::string_view description;  ///< one line
    std::string_view source;       ///< which paper's matrices it imitates
    std::vector<GeneratorParam> params;
    bool uses_seed;  ///< false for the deterministic stencils
};

/// Parameter values by name; missing ones take their default.
using GeneratorParams = std::map<std::string, double, std::less<>>;

/// All generators: pde, laplace2d, powerlaw, onefull, blocks5, banded, random.
std::span<const GeneratorInfo> generators();

/// Looks a generator up by name; throws InvalidArgument listing the valid names.
const GeneratorInfo& find_generator(std::string_view name);

/// Builds the named generator. Throws InvalidArgument for an unknown name, an unknown
/// parameter (listing the valid ones), a non-integer value for an integer parameter, or a
/// value outside its range; for a size whose whole matrix would not fit 32-bit indices but a
/// row range would (e.g. pde size 1100), the message names the spec, its rows and nonzeros and
/// says to generate it by row ranges (generator_rows.hpp).
Csr<double, std::int32_t> generate(std::string_view name, const GeneratorParams& params = {},
                                   std::uint64_t seed = 1);

/// A generator named in a path-like string, as the CLI and the explorer take it in place of a
/// file: "gen:NAME[:key=value,...]", e.g. "gen:pde:size=150" or
/// "gen:powerlaw:rows=1000000,min-len=4,seed=3". The key "seed" (a whole number in
/// [0, 2^53], default 1) is the random stream; every other key is a generator parameter.
struct Spec {
    std::string name;
    GeneratorParams params;
    std::uint64_t seed = 1;
};

/// True when `text` starts with "gen:".
bool is_spec(std::string_view text) noexcept;

/// Parses a spec. Throws InvalidArgument quoting `text` for a missing "gen:" prefix, an empty
/// name, an item that is not key=value, a key given twice, a value that is not a finite number,
/// or a bad seed. The name and the parameters are checked by generate() / estimate_bytes().
Spec parse_spec(std::string_view text);

/// Bytes the CSR of generate(name, params) would take (row pointers, column indices and double
/// values; the power-law generator's from its expected row length), without building it.
/// Checks the parameters as generate() does.
std::uint64_t estimate_bytes(std::string_view name, const GeneratorParams& params = {});

/// generate(spec.name, spec.params, spec.seed) after require_memory(budget, estimate_bytes(..)):
/// a spec too large for the budget throws MemoryLimitExceeded naming it and its size.
Csr<double, std::int32_t> generate(const Spec& spec, const MemoryBudget& budget = {});

}  // namespace spmv::gen
