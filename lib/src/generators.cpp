#include <spmv/generators.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <charconv>
#include <limits>
#include <set>

#include <spmv/error.hpp>

namespace spmv::gen {
namespace {

using Matrix = Csr<double, std::int32_t>;
constexpr std::int64_t index_limit = std::numeric_limits<std::int32_t>::max();

/// splitmix64 stream: tiny, fast, and the same on every platform (unlike std::*_distribution).
class Rng {
public:
    Rng(std::uint64_t seed, std::uint64_t stream) : state_(mix(seed) ^ mix(stream + 0x51ed27ULL)) {}

    std::uint64_t next() noexcept { return mix(state_ += 0x9e3779b97f4a7c15ULL); }

    /// Uniform in [0, n) for 1 <= n < 2^32, exactly (Lemire's multiply-shift with rejection).
    std::int64_t below(std::int64_t n) noexcept
    {
        const auto range = static_cast<std::uint64_t>(n);
        std::uint64_t m = (next() >> 32) * range;
        if ((m & 0xffffffffULL) < range) {
            const std::uint64_t threshold = (0x100000000ULL - range) % range;
            while ((m & 0xffffffffULL) < threshold) {
                m = (next() >> 32) * range;
            }
        }
        return static_cast<std::int64_t>(m >> 32);
    }

    /// Uniform in [0, 1).
    double unit() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

    /// Uniform in (-1, 1), never 0: (k - 2^51 + 1/2) / 2^51 for k in [0, 2^52) is exact.
    double value() noexcept
    {
        const auto k = static_cast<double>(next() >> 12);
        return (k - 0x1.0p51 + 0.5) * 0x1.0p-51;
    }

private:
    static std::uint64_t mix(std::uint64_t z) noexcept
    {
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    std::uint64_t state_;
};

void require(bool ok, const std::string& what)
{
    if (!ok) {
        throw InvalidArgument(__FILE__, __LINE__, what);
    }
}

/// Throws unless `count` nonzeros fit in 32-bit indices.
void require_nnz(const char* gen, std::int64_t count)
{
    require(count <= index_limit, std::string(gen) + ": " + std::to_string(count) +
                                      " nonzeros exceed 2147483647, the limit of 32-bit indices");
}

/// `count` distinct values of [0, n), sorted. Rejection sampling while count <= n/2, else the
/// complement is drawn, so the expected cost is O(count log count).
std::vector<std::int32_t> sample_distinct(Rng& rng, std::int64_t n, std::int64_t count)
{
    const bool complement = 2 * count > n;
    const std::int64_t want = complement ? n - count : count;
    std::vector<std::int32_t> pick;
    pick.reserve(static_cast<std::size_t>(want));
    while (static_cast<std::int64_t>(pick.size()) < want) {
        for (auto k = static_cast<std::int64_t>(pick.size()); k < want; ++k) {
            pick.push_back(static_cast<std::int32_t>(rng.below(n)));
        }
        std::sort(pick.begin(), pick.end());
        pick.erase(std::unique(pick.begin(), pick.end()), pick.end());
    }
    if (!complement) {
        return pick;
    }
    std::vector<std::int32_t> rest;
    rest.reserve(static_cast<std::size_t>(count));
    std::size_t p = 0;
    for (std::int64_t c = 0; c < n; ++c) {
        if (p < pick.size() && pick[p] == c) {
            ++p;
        } else {
            rest.push_back(static_cast<std::int32_t>(c));
        }
    }
    return rest;
}

/// Appends sorted `cols` as the next row, with random values; throws once nnz passes int32.
void append_row(Matrix& a, std::span<const std::int32_t> cols, Rng& rng)
{
    for (auto c : cols) {
        a.col_idxs.push_back(c);
        a.values.push_back(rng.value());
    }
    require_nnz("generator", static_cast<std::int64_t>(a.values.size()));
    a.row_ptrs.push_back(static_cast<std::int32_t>(a.values.size()));
}

Matrix empty(std::int32_t rows, std::int32_t cols, std::int64_t nnz_hint)
{
    Matrix a;
    a.num_rows = rows;
    a.num_cols = cols;
    a.row_ptrs.reserve(static_cast<std::size_t>(rows) + 1);
    a.col_idxs.reserve(static_cast<std::size_t>(nnz_hint));
    a.values.reserve(static_cast<std::size_t>(nnz_hint));
    return a;
}

}  // namespace

Matrix pde(std::int32_t k)
{
    require(k >= 1, "pde: grid size k must be >= 1, got " + std::to_string(k));
    const std::int64_t kk = k;
    require_nnz("pde", 7 * kk * kk * kk - 6 * kk * kk);
    const std::int64_t n = kk * kk * kk;
    auto a = empty(static_cast<std::int32_t>(n), static_cast<std::int32_t>(n),
                   7 * kk * kk * kk - 6 * kk * kk);
    const std::int64_t plane = kk * kk;
    for (std::int64_t z = 0; z < kk; ++z) {
        for (std::int64_t y = 0; y < kk; ++y) {
            for (std::int64_t x = 0; x < kk; ++x) {
                const std::int64_t i = x + kk * y + plane * z;
                // Neighbours in increasing column order: z-1, y-1, x-1, self, x+1, y+1, z+1.
                const std::pair<bool, std::int64_t> stencil[7] = {
                    {z > 0, i - plane},  {y > 0, i - kk},      {x > 0, i - 1},         {true, i},
                    {x + 1 < kk, i + 1}, {y + 1 < kk, i + kk}, {z + 1 < kk, i + plane}};
                for (const auto& [present, c] : stencil) {
                    if (present) {
                        a.col_idxs.push_back(static_cast<std::int32_t>(c));
                        a.values.push_back(c == i ? 6.0 : -1.0);
                    }
                }
                a.row_ptrs.push_back(static_cast<std::int32_t>(a.values.size()));
            }
        }
    }
    return a;
}

Matrix laplace2d(std::int32_t nx, std::int32_t ny)
{
    require(nx >= 1 && ny >= 1, "laplace2d: nx and ny must be >= 1, got " + std::to_string(nx) +
                                    " x " + std::to_string(ny));
    const std::int64_t n = std::int64_t{nx} * ny;
    require(n <= index_limit, "laplace2d: " + std::to_string(n) + " rows exceed 2147483647");
    const std::int64_t count = 5 * n - 2 * std::int64_t{nx} - 2 * std::int64_t{ny};
    require_nnz("laplace2d", count);
    auto a = empty(static_cast<std::int32_t>(n), static_cast<std::int32_t>(n), count);
    for (std::int64_t y = 0; y < ny; ++y) {
        for (std::int64_t x = 0; x < nx; ++x) {
            const std::int64_t i = x + nx * y;
            const std::pair<bool, std::int64_t> stencil[5] = {{y > 0, i - nx},
                                                              {x > 0, i - 1},
                                                              {true, i},
                                                              {x + 1 < nx, i + 1},
                                                              {y + 1 < ny, i + nx}};
            for (const auto& [present, c] : stencil) {
                if (present) {
                    a.col_idxs.push_back(static_cast<std::int32_t>(c));
                    a.values.push_back(c == i ? 4.0 : -1.0);
                }
            }
            a.row_ptrs.push_back(static_cast<std::int32_t>(a.values.size()));
        }
    }
    return a;
}

double power_law_mean(std::int32_t min_len, double exponent, std::int32_t max_len)
{
    require(min_len >= 1 && min_len <= max_len, "power_law: need 1 <= min_len <= max_len, got " +
                                                    std::to_string(min_len) + " and " +
                                                    std::to_string(max_len));
    double weight = 0;
    double sum = 0;
    for (std::int64_t l = min_len; l <= max_len; ++l) {
        const double w = std::pow(static_cast<double>(l), -exponent);
        weight += w;
        sum += w * static_cast<double>(l);
    }
    return sum / weight;
}

Matrix power_law(std::int32_t rows, std::int32_t min_len, double exponent, std::int32_t max_len,
                 std::uint64_t seed)
{
    require(rows >= 1, "power_law: rows must be >= 1, got " + std::to_string(rows));
    require(min_len >= 1 && min_len <= max_len && max_len <= rows,
            "power_law: need 1 <= min_len <= max_len <= rows, got min_len " +
                std::to_string(min_len) + ", max_len " + std::to_string(max_len) + ", rows " +
                std::to_string(rows));
    require(std::isfinite(exponent) && exponent >= 0 && exponent <= 10,
            "power_law: exponent must be in [0, 10], got " + std::to_string(exponent));
    // Cumulative weights of lengths min_len..max_len.
    std::vector<double> cdf(static_cast<std::size_t>(max_len - min_len) + 1);
    double total = 0;
    for (std::size_t k = 0; k < cdf.size(); ++k) {
        total += std::pow(static_cast<double>(min_len) + static_cast<double>(k), -exponent);
        cdf[k] = total;
    }
    const double mean = power_law_mean(min_len, exponent, max_len);
    auto a = empty(rows, rows,
                   std::min<std::int64_t>(index_limit, static_cast<std::int64_t>(mean * rows)));
    std::vector<std::int32_t> cols;
    for (std::int32_t i = 0; i < rows; ++i) {
        Rng rng(seed, static_cast<std::uint64_t>(i));
        const double u = rng.unit() * total;
        const auto k = std::min<std::size_t>(
            static_cast<std::size_t>(std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin()),
            cdf.size() - 1);
        const std::int64_t len = min_len + static_cast<std::int64_t>(k);
        // The diagonal plus len-1 distinct others: draw from the rows-1 off-diagonal columns.
        cols = sample_distinct(rng, rows - 1, len - 1);
        for (auto& c : cols) {
            c += c >= i ? 1 : 0;
        }
        cols.insert(std::lower_bound(cols.begin(), cols.end(), i), i);
        append_row(a, cols, rng);
    }
    return a;
}

Matrix onefull(std::int32_t n, std::uint64_t seed)
{
    require(n >= 1, "onefull: n must be >= 1, got " + std::to_string(n));
    require_nnz("onefull", 2 * std::int64_t{n} - 1);
    auto a = empty(n, n, 2 * std::int64_t{n} - 1);
    for (std::int32_t i = 0; i < n; ++i) {
        Rng rng(seed, static_cast<std::uint64_t>(i));
        if (i == 0) {
            for (std::int32_t c = 0; c < n; ++c) {
                a.col_idxs.push_back(c);
                a.values.push_back(rng.value());
            }
        } else {
            a.col_idxs.push_back(i);
            a.values.push_back(rng.value());
        }
        a.row_ptrs.push_back(static_cast<std::int32_t>(a.values.size()));
    }
    return a;
}

Matrix blocks5(std::int32_t num_block_rows, std::int32_t max_blocks_per_row, std::uint64_t seed)
{
    constexpr std::int64_t bs = 5;
    require(num_block_rows >= 1,
            "blocks5: num_block_rows must be >= 1, got " + std::to_string(num_block_rows));
    require(max_blocks_per_row >= 1 && max_blocks_per_row <= num_block_rows,
            "blocks5: need 1 <= max_blocks_per_row <= num_block_rows, got " +
                std::to_string(max_blocks_per_row));
    const std::int64_t n = bs * num_block_rows;
    require(n <= index_limit, "blocks5: " + std::to_string(n) + " rows exceed 2147483647");
    require_nnz("blocks5", bs * bs * std::int64_t{num_block_rows} * max_blocks_per_row);
    const std::int64_t nb = num_block_rows;
    const std::int64_t b = max_blocks_per_row;
    const std::int64_t window = std::min(nb, 4 * b + 1);
    auto a = empty(static_cast<std::int32_t>(n), static_cast<std::int32_t>(n),
                   bs * bs * nb * (b + 1) / 2);
    std::vector<std::int32_t> blocks;
    for (std::int64_t bi = 0; bi < nb; ++bi) {
        Rng rng(seed, static_cast<std::uint64_t>(bi));
        const std::int64_t count = 1 + rng.below(b);
        const std::int64_t lo = std::clamp<std::int64_t>(bi - 2 * b, 0, nb - window);
        // count-1 distinct block columns of the window other than the diagonal block.
        blocks = sample_distinct(rng, window - 1, count - 1);
        for (auto& c : blocks) {
            c = static_cast<std::int32_t>(c + lo + (c + lo >= bi ? 1 : 0));
        }
        blocks.insert(std::lower_bound(blocks.begin(), blocks.end(), bi),
                      static_cast<std::int32_t>(bi));
        for (std::int64_t r = 0; r < bs; ++r) {
            for (auto bc : blocks) {
                for (std::int64_t c = 0; c < bs; ++c) {
                    a.col_idxs.push_back(static_cast<std::int32_t>(bs * bc + c));
                    a.values.push_back(rng.value());
                }
            }
            a.row_ptrs.push_back(static_cast<std::int32_t>(a.values.size()));
        }
    }
    return a;
}

Matrix banded_offdiag(std::int32_t n, std::int32_t bandwidth, std::span<const std::int64_t> offsets,
                      std::uint64_t seed, double fill)
{
    require(n >= 1, "banded: n must be >= 1, got " + std::to_string(n));
    require(bandwidth >= 0 && bandwidth < n,
            "banded: need 0 <= bandwidth < n, got bandwidth " + std::to_string(bandwidth));
    require(fill > 0 && fill <= 1, "banded: fill must be in (0, 1], got " + std::to_string(fill));
    std::vector<std::int64_t> offs(offsets.begin(), offsets.end());
    std::sort(offs.begin(), offs.end());
    for (std::size_t k = 0; k < offs.size(); ++k) {
        const auto o = offs[k];
        require(std::abs(o) > bandwidth && std::abs(o) < n,
                "banded: off-diagonal offset " + std::to_string(o) +
                    " must satisfy bandwidth < |offset| < n (bandwidth " +
                    std::to_string(bandwidth) + ", n " + std::to_string(n) + ")");
        require(k == 0 || offs[k - 1] != o,
                "banded: off-diagonal offset " + std::to_string(o) + " given twice");
    }
    require_nnz("banded",
                std::int64_t{n} * (2 * bandwidth + 1 + static_cast<std::int64_t>(offs.size())));
    auto a = empty(n, n, std::int64_t{n} * (2 * bandwidth + 1));
    std::vector<std::int32_t> cols;
    std::vector<char> keep(offs.size(), 1);
    for (std::int64_t i = 0; i < n; ++i) {
        Rng rng(seed, static_cast<std::uint64_t>(i));
        if (fill < 1) {
            for (auto& k : keep) {
                k = rng.unit() < fill ? 1 : 0;
            }
        }
        // Sorted columns: far diagonals left of the band, the band, far diagonals right of it.
        cols.clear();
        for (std::size_t k = 0; k < offs.size(); ++k) {
            if (offs[k] < 0 && i + offs[k] >= 0 && keep[k]) {
                cols.push_back(static_cast<std::int32_t>(i + offs[k]));
            }
        }
        const auto band_end = std::min<std::int64_t>(n - 1, i + bandwidth);
        for (auto c = std::max<std::int64_t>(0, i - bandwidth); c <= band_end; ++c) {
            cols.push_back(static_cast<std::int32_t>(c));
        }
        for (std::size_t k = 0; k < offs.size(); ++k) {
            if (offs[k] > 0 && i + offs[k] < n && keep[k]) {
                cols.push_back(static_cast<std::int32_t>(i + offs[k]));
            }
        }
        append_row(a, cols, rng);
    }
    return a;
}

std::vector<std::int64_t> spread_offsets(std::int32_t n, std::int32_t count)
{
    require(count >= 0, "banded: the number of off-diagonals must be >= 0");
    std::vector<std::int64_t> offs;
    for (std::int64_t k = 1; k <= count; ++k) {
        const std::int64_t o = k * std::int64_t{n} / (std::int64_t{count} + 1);
        offs.push_back(k % 2 == 1 ? o : -o);
    }
    return offs;
}

Matrix random_uniform(std::int32_t rows, std::int32_t cols, std::int32_t nnz_per_row,
                      std::uint64_t seed)
{
    require(rows >= 1 && cols >= 1, "random: rows and cols must be >= 1, got " +
                                        std::to_string(rows) + " x " + std::to_string(cols));
    require(nnz_per_row >= 0 && nnz_per_row <= cols,
            "random: need 0 <= nnz_per_row <= cols, got " + std::to_string(nnz_per_row));
    require_nnz("random", std::int64_t{rows} * nnz_per_row);
    auto a = empty(rows, cols, std::int64_t{rows} * nnz_per_row);
    for (std::int32_t i = 0; i < rows; ++i) {
        Rng rng(seed, static_cast<std::uint64_t>(i));
        const auto picked = sample_distinct(rng, cols, nnz_per_row);
        append_row(a, picked, rng);
    }
    return a;
}

namespace {

constexpr double int_max = static_cast<double>(index_limit);

const std::vector<GeneratorInfo>& table()
{
    static const std::vector<GeneratorInfo> t = {
        {"pde",
         "7-point Laplacian (pde)",
         "7-point finite-difference Laplacian on a size^3 grid: N = size^3, nnz = 7 size^3 - "
         "6 size^2, SPD",
         "Barbieri et al. §4: pde05 ... pde100",
         {{"size", "grid points per dimension k (pde05: 5, pde100: 100)", 20, 1, 674, true}},
         false},
        {"laplace2d",
         "5-point Laplacian",
         "5-point Laplacian on an nx x ny grid: N = nx ny, at most 5 entries per row, SPD",
         "the classic 2-D model problem",
         {{"nx", "grid points in x", 32, 1, int_max, true},
          {"ny", "grid points in y", 32, 1, int_max, true}},
         false},
        {"powerlaw",
         "power-law row lengths",
         "row lengths l = min-len..max-len with P(l) ~ l^-exponent (heavy tail), diagonal plus "
         "random columns",
         "irregular matrices of PELLR Table 1 (memplus-like)",
         {{"rows", "rows (and columns)", 2000, 1, int_max, true},
          {"min-len", "shortest row", 1, 1, int_max, true},
          {"max-len", "longest possible row (<= rows)", 500, 1, int_max, true},
          {"exponent", "power-law exponent (0: uniform lengths)", 2.0, 0, 10, false}},
         true},
        {"onefull",
         "one full row",
         "row 0 full, every other row only its diagonal: the pJDS worst case (ELLPACK stores n^2)",
         "Kreutzer et al. §II.A",
         {{"n", "rows (and columns)", 256, 1, int_max, true}},
         true},
        {"blocks5",
         "dense 5x5 blocks",
         "5x5 dense blocks, 1..blocks per block row near the diagonal: row lengths in steps of 5",
         "DLR CFD matrices of Kreutzer et al. Table I",
         {{"block-rows", "block rows (N = 5 block-rows)", 200, 1, int_max, true},
          {"blocks", "most blocks in one block row", 8, 1, int_max, true}},
         true},
        {"banded",
         "band plus far off-diagonals",
         "band |i-j| <= bandwidth plus offdiags far diagonals at +-k n/(offdiags+1), each entry "
         "kept with probability fill",
         "HMEp of Kreutzer et al. Table I",
         {{"n", "rows (and columns)", 1000, 1, int_max, true},
          {"bandwidth", "half-width of the band", 2, 0, int_max, true},
          {"offdiags", "far off-diagonals, alternating above and below", 4, 0, 1024, true},
          {"fill", "probability that a far off-diagonal entry is kept", 1.0, 0.001, 1.0, false}},
         true},
        {"random",
         "uniform random",
         "exactly nnz-per-row distinct uniformly random columns in every row",
         "a baseline with constant row length",
         {{"rows", "rows", 1000, 1, int_max, true},
          {"cols", "columns (0: as many as rows)", 0, 0, int_max, true},
          {"nnz-per-row", "entries in every row", 8, 0, int_max, true}},
         true},
    };
    return t;
}

/// Parameter values of one generator call: defaults, overridden by the user's, checked.
class Values {
public:
    Values(const GeneratorInfo& info, const GeneratorParams& given) : info_(info), given_(given)
    {
        for (const auto& [name, value] : given) {
            (void)value;
            const auto it = std::find_if(info.params.begin(), info.params.end(),
                                         [&](const auto& p) { return p.name == name; });
            if (it == info.params.end()) {
                std::string valid;
                for (const auto& p : info.params) {
                    valid += (valid.empty() ? "" : ", ") + std::string(p.name);
                }
                throw InvalidArgument(__FILE__, __LINE__,
                                      "generator " + std::string(info.name) +
                                          " has no parameter '" + name + "' (valid: " + valid +
                                          ")");
            }
        }
    }

    double real(std::string_view name) const
    {
        const auto& p = *std::find_if(info_.params.begin(), info_.params.end(),
                                      [&](const auto& q) { return q.name == name; });
        const auto it = given_.find(name);
        const double v = it == given_.end() ? p.default_value : it->second;
        const std::string what = "generator " + std::string(info_.name) + ": " +
                                 std::string(p.name) + " = " + std::to_string(v);
        require(std::isfinite(v) && v >= p.min_value && v <= p.max_value,
                what + " is outside [" + std::to_string(p.min_value) + ", " +
                    std::to_string(p.max_value) + "]");
        require(!p.integer || v == std::floor(v), what + " must be a whole number");
        return v;
    }

    std::int32_t integer(std::string_view name) const
    {
        return static_cast<std::int32_t>(real(name));
    }

private:
    const GeneratorInfo& info_;
    const GeneratorParams& given_;
};

}  // namespace

std::span<const GeneratorInfo> generators()
{
    return table();
}

const GeneratorInfo& find_generator(std::string_view name)
{
    std::string valid;
    for (const auto& g : table()) {
        if (g.name == name) {
            return g;
        }
        valid += (valid.empty() ? "" : ", ") + std::string(g.name);
    }
    throw InvalidArgument(__FILE__, __LINE__,
                          "unknown generator '" + std::string(name) + "' (valid: " + valid + ")");
}

Matrix generate(std::string_view name, const GeneratorParams& params, std::uint64_t seed)
{
    const auto& info = find_generator(name);
    const Values v(info, params);
    if (name == "pde") {
        return pde(v.integer("size"));
    }
    if (name == "laplace2d") {
        return laplace2d(v.integer("nx"), v.integer("ny"));
    }
    if (name == "powerlaw") {
        return power_law(v.integer("rows"), v.integer("min-len"), v.real("exponent"),
                         v.integer("max-len"), seed);
    }
    if (name == "onefull") {
        return onefull(v.integer("n"), seed);
    }
    if (name == "blocks5") {
        return blocks5(v.integer("block-rows"), v.integer("blocks"), seed);
    }
    if (name == "banded") {
        const auto n = v.integer("n");
        const auto offsets = spread_offsets(n, v.integer("offdiags"));
        return banded_offdiag(n, v.integer("bandwidth"), offsets, seed, v.real("fill"));
    }
    if (name == "random") {
        const auto rows = v.integer("rows");
        const auto cols = v.integer("cols");
        return random_uniform(rows, cols == 0 ? rows : cols, v.integer("nnz-per-row"), seed);
    }
    throw InvalidArgument(__FILE__, __LINE__,
                          "generator " + std::string(name) + " is listed but not built");
}

bool is_spec(std::string_view text) noexcept
{
    return text.substr(0, 4) == "gen:";
}

Spec parse_spec(std::string_view text)
{
    const std::string quoted = "'" + std::string(text.substr(0, 200)) +
                               (text.size() > 200 ? "...'" : "'");
    auto bad = [&](const std::string& why) {
        throw InvalidArgument(__FILE__, __LINE__, "generator spec " + quoted + ": " + why);
    };
    if (!is_spec(text)) {
        bad("does not start with 'gen:' (expected gen:NAME[:key=value,...])");
    }
    const auto rest = text.substr(4);
    const auto colon = rest.find(':');
    Spec spec;
    spec.name = std::string(rest.substr(0, colon));
    if (spec.name.empty()) {
        bad("no generator name (expected gen:NAME[:key=value,...])");
    }
    if (colon == std::string_view::npos) {
        return spec;
    }
    std::set<std::string, std::less<>> seen;
    auto items = rest.substr(colon + 1);
    while (true) {
        const auto comma = items.find(',');
        const auto kv = items.substr(0, comma);
        const auto eq = kv.find('=');
        if (eq == std::string_view::npos || eq == 0) {
            bad("expected key=value, got '" + std::string(kv) + "'");
        }
        const std::string key(kv.substr(0, eq));
        const auto word = kv.substr(eq + 1);
        double value = 0;
        const auto r = std::from_chars(word.data(), word.data() + word.size(), value);
        if (word.empty() || r.ec != std::errc() || r.ptr != word.data() + word.size() ||
            !std::isfinite(value)) {
            bad("'" + std::string(word) + "' is not a number (key " + key + ")");
        }
        if (!seen.insert(key).second) {
            bad("key " + key + " given twice");
        }
        if (key == "seed") {
            if (value < 0 || value > 0x1.0p53 || value != std::floor(value)) {
                bad("seed must be a whole number in [0, 2^53], got " + std::string(word));
            }
            spec.seed = static_cast<std::uint64_t>(value);
        } else {
            spec.params[key] = value;
        }
        if (comma == std::string_view::npos) {
            break;
        }
        items = items.substr(comma + 1);
    }
    return spec;
}

namespace {

/// power_law_mean without its O(max_len) loop: the first 2^20 lengths summed exactly, the rest
/// of the range by the integrals of l^-e and l^(1-e) (within a fraction of a percent).
double mean_length_estimate(std::int64_t min_len, double exponent, std::int64_t max_len)
{
    constexpr std::int64_t exact = std::int64_t{1} << 20;
    double weight = 0;
    double sum = 0;
    const auto last_exact = std::min(max_len, min_len + exact - 1);
    for (std::int64_t l = min_len; l <= last_exact; ++l) {
        const double w = std::pow(static_cast<double>(l), -exponent);
        weight += w;
        sum += w * static_cast<double>(l);
    }
    if (last_exact < max_len) {
        const double a = static_cast<double>(last_exact) + 0.5;
        const double b = static_cast<double>(max_len) + 0.5;
        auto integral = [](double p, double lo, double hi) {  // of x^p over [lo, hi]
            return p == -1.0 ? std::log(hi / lo) : (std::pow(hi, p + 1) - std::pow(lo, p + 1)) / (p + 1);
        };
        weight += integral(-exponent, a, b);
        sum += integral(1.0 - exponent, a, b);
    }
    return sum / weight;
}

}  // namespace

std::uint64_t estimate_bytes(std::string_view name, const GeneratorParams& params)
{
    const auto& info = find_generator(name);
    const Values v(info, params);
    double rows = 0;
    double entries = 0;
    double scratch = 0;  // other temporary arrays of the generator
    if (name == "pde") {
        const double k = v.integer("size");
        rows = k * k * k;
        entries = 7 * k * k * k - 6 * k * k;
    } else if (name == "laplace2d") {
        rows = static_cast<double>(v.integer("nx")) * v.integer("ny");
        entries = 5 * rows;
    } else if (name == "powerlaw") {
        rows = v.integer("rows");
        const std::int64_t lo = v.integer("min-len");
        const std::int64_t hi = v.integer("max-len");
        require(lo <= hi && static_cast<double>(hi) <= rows, "power_law: need 1 <= min_len <= max_len <= rows");
        entries = rows * mean_length_estimate(lo, v.real("exponent"), hi);
        scratch = 8.0 * static_cast<double>(hi - lo + 1) + 8.0 * static_cast<double>(hi);
    } else if (name == "onefull") {
        rows = v.integer("n");
        entries = 2 * rows - 1;
    } else if (name == "blocks5") {
        const double nb = v.integer("block-rows");
        const double b = v.integer("blocks");
        rows = 5 * nb;
        entries = 25 * nb * (b + 1) / 2;  // c uniform in 1..b: mean (b + 1) / 2 blocks a row
    } else if (name == "banded") {
        rows = v.integer("n");
        entries = rows * (2.0 * v.integer("bandwidth") + 1 + v.integer("offdiags") * v.real("fill"));
    } else if (name == "random") {
        rows = v.integer("rows");
        entries = rows * v.integer("nnz-per-row");
        scratch = 4.0 * v.integer("nnz-per-row");
    } else {
        require(false, "generator " + std::string(name) + " has no size estimate");
    }
    const double bytes = 4.0 * (rows + 1) + 12.0 * entries + scratch;
    return bytes >= 0x1.0p63 ? std::numeric_limits<std::uint64_t>::max()
                             : static_cast<std::uint64_t>(bytes);
}

Matrix generate(const Spec& spec, const MemoryBudget& budget)
{
    if (budget.limited()) {
        std::string text = "gen:" + spec.name;
        char sep = ':';
        for (const auto& [key, value] : spec.params) {
            char num[32];
            std::snprintf(num, sizeof num, "%.15g", value);
            text += sep + key + "=" + num;
            sep = ',';
        }
        require_memory(budget, estimate_bytes(spec.name, spec.params),
                       "generating " + text + " (its CSR)");
    }
    return generate(spec.name, spec.params, spec.seed);
}

}  // namespace spmv::gen
