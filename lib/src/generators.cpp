#include <spmv/generators.hpp>
#include <spmv/generator_rows.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <charconv>
#include <limits>
#include <optional>
#include <type_traits>
#include <set>
#include <variant>

#include <spmv/error.hpp>
#include <spmv/parallel.hpp>

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

// ---- Every generator as a function of the row index ---------------------------------------
//
// Each generator is a small struct that emits any row range [first, end) into a sink: the
// whole matrix (CsrSink, 32-bit) and a rank's rows (RowsSink, 64-bit global indices) run the
// SAME code, so generate_rows(spec, first, end) is bit for bit the rows [first, end) of
// generate(spec). That works because every row's content is a function of the parameters and
// its own index only: the deterministic stencils by formula, the random ones from the stream
// Rng(seed, row) (blocks5: Rng(seed, block row), whose five rows take its values in turn).
// length(i) / lengths() give the row lengths without building the rows; closed_form structs
// also count the nonzeros before any row in O(1) (nnz_before).

using gidx = std::int64_t;

/// The whole matrix: 32-bit CSR; throws once nnz passes int32 (power_law's total is random).
struct CsrSink {
    Matrix& a;
    void entry(gidx c, double v)
    {
        a.col_idxs.push_back(static_cast<std::int32_t>(c));
        a.values.push_back(v);
    }
    void end_row(gidx /*row*/)
    {
        require_nnz("generator", static_cast<std::int64_t>(a.values.size()));
        a.row_ptrs.push_back(static_cast<std::int32_t>(a.values.size()));
    }
};

/// A row range, or one part of it: global rows and columns, 64-bit row pointers, written into
/// arrays sized from the range's count beforehand (generate_rows checks that the count was
/// right). A part starts `base` entries into the range: its cols and vals point there, and its
/// row pointers count from there.
struct RowsSink {
    gidx* rows;
    std::int64_t* row_ptrs;  ///< the pointer after each of the part's rows
    gidx* cols;
    double* vals;
    std::int64_t cap;  ///< the entries counted for the part
    std::int64_t base = 0;
    std::int64_t at = 0;
    void entry(gidx c, double v)
    {
        if (at < cap) {  // a wrong count is reported after the rows, never written past
            cols[at] = c;
            vals[at] = v;
        }
        ++at;
    }
    void end_row(gidx row)
    {
        *rows++ = row;
        *row_ptrs++ = base + at;
    }
};

/// How many i in [0, b) have digit d (0 <= d < radix) at place value `place` (i / place %
/// radix == d): whole periods of place * radix hold `place` each, the last partial one what
/// reaches past d * place.
gidx count_digit(gidx b, gidx place, gidx radix, gidx d)
{
    const gidx period = place * radix;
    return b / period * place + std::clamp<gidx>(b % period - d * place, 0, place);
}

/// 7-point Laplacian on a k^3 grid (pde).
struct PdeRows {
    gidx k;
    bool closed_form() const { return true; }
    gidx num_rows() const { return k * k * k; }
    gidx num_cols() const { return num_rows(); }
    /// 7 minus the neighbours beyond the grid's faces.
    std::int64_t length(gidx i) const
    {
        const gidx x = i % k, y = i / k % k, z = i / (k * k);
        return 7 - (x == 0) - (x == k - 1) - (y == 0) - (y == k - 1) - (z == 0) - (z == k - 1);
    }
    /// Nonzeros of rows [0, b): 7b less one per row on each face (k = 1: all six faces).
    gidx nnz_before(gidx b) const
    {
        gidx missing = 0;
        for (const gidx place : {gidx{1}, k, k * k}) {
            missing += count_digit(b, place, k, 0) + count_digit(b, place, k, k - 1);
        }
        return 7 * b - missing;
    }
    template <typename Sink>
    void emit(gidx first, gidx end, Sink& s) const
    {
        const gidx plane = k * k;
        for (gidx i = first; i < end; ++i) {
            const gidx x = i % k, y = i / k % k, z = i / plane;
            // Neighbours in increasing column order: z-1, y-1, x-1, self, x+1, y+1, z+1.
            const std::pair<bool, gidx> stencil[7] = {
                {z > 0, i - plane},  {y > 0, i - k},      {x > 0, i - 1},        {true, i},
                {x + 1 < k, i + 1}, {y + 1 < k, i + k}, {z + 1 < k, i + plane}};
            for (const auto& [present, c] : stencil) {
                if (present) {
                    s.entry(c, c == i ? 6.0 : -1.0);
                }
            }
            s.end_row(i);
        }
    }
};

/// 5-point Laplacian on an nx x ny grid.
struct Laplace2dRows {
    gidx nx, ny;
    bool closed_form() const { return true; }
    gidx num_rows() const { return nx * ny; }
    gidx num_cols() const { return num_rows(); }
    std::int64_t length(gidx i) const
    {
        const gidx x = i % nx, y = i / nx;
        return 5 - (x == 0) - (x == nx - 1) - (y == 0) - (y == ny - 1);
    }
    gidx nnz_before(gidx b) const
    {
        return 5 * b - count_digit(b, 1, nx, 0) - count_digit(b, 1, nx, nx - 1) -
               count_digit(b, nx, ny, 0) - count_digit(b, nx, ny, ny - 1);
    }
    template <typename Sink>
    void emit(gidx first, gidx end, Sink& s) const
    {
        for (gidx i = first; i < end; ++i) {
            const gidx x = i % nx, y = i / nx;
            const std::pair<bool, gidx> stencil[5] = {{y > 0, i - nx},
                                                      {x > 0, i - 1},
                                                      {true, i},
                                                      {x + 1 < nx, i + 1},
                                                      {y + 1 < ny, i + nx}};
            for (const auto& [present, c] : stencil) {
                if (present) {
                    s.entry(c, c == i ? 4.0 : -1.0);
                }
            }
            s.end_row(i);
        }
    }
};

/// Power-law row lengths: row i's length and columns from Rng(seed, i).
struct PowerLawRows {
    gidx rows, min_len;
    std::uint64_t seed;
    std::vector<double> cdf;  ///< cumulative weights of lengths min_len..max_len
    double total = 0;
    bool closed_form() const { return false; }
    gidx num_rows() const { return rows; }
    gidx num_cols() const { return rows; }
    std::int64_t draw_length(Rng& rng) const
    {
        const double u = rng.unit() * total;
        const auto k = std::min<std::size_t>(
            static_cast<std::size_t>(std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin()),
            cdf.size() - 1);
        return min_len + static_cast<std::int64_t>(k);
    }
    std::int64_t length(gidx i) const
    {
        Rng rng(seed, static_cast<std::uint64_t>(i));
        return draw_length(rng);
    }
    template <typename Sink>
    void emit(gidx first, gidx end, Sink& s) const
    {
        std::vector<std::int32_t> cols;
        for (gidx i = first; i < end; ++i) {
            Rng rng(seed, static_cast<std::uint64_t>(i));
            const std::int64_t len = draw_length(rng);
            // The diagonal plus len-1 distinct others: draw from the rows-1 off-diagonal columns.
            cols = sample_distinct(rng, rows - 1, len - 1);
            for (auto& c : cols) {
                c += c >= i ? 1 : 0;
            }
            cols.insert(std::lower_bound(cols.begin(), cols.end(), i),
                        static_cast<std::int32_t>(i));
            for (auto c : cols) {
                s.entry(c, rng.value());
            }
            s.end_row(i);
        }
    }
};

PowerLawRows make_power_law(gidx rows, gidx min_len, double exponent, gidx max_len,
                            std::uint64_t seed)
{
    PowerLawRows g{rows, min_len, seed, {}, 0};
    g.cdf.resize(static_cast<std::size_t>(max_len - min_len) + 1);
    for (std::size_t k = 0; k < g.cdf.size(); ++k) {
        g.total += std::pow(static_cast<double>(min_len) + static_cast<double>(k), -exponent);
        g.cdf[k] = g.total;
    }
    return g;
}

/// Row 0 full, every other row its diagonal; values from Rng(seed, row).
struct OneFullRows {
    gidx n;
    std::uint64_t seed;
    bool closed_form() const { return true; }
    gidx num_rows() const { return n; }
    gidx num_cols() const { return n; }
    std::int64_t length(gidx i) const { return i == 0 ? n : 1; }
    gidx nnz_before(gidx b) const { return b == 0 ? 0 : n + b - 1; }
    template <typename Sink>
    void emit(gidx first, gidx end, Sink& s) const
    {
        for (gidx i = first; i < end; ++i) {
            Rng rng(seed, static_cast<std::uint64_t>(i));
            if (i == 0) {
                for (gidx c = 0; c < n; ++c) {
                    s.entry(c, rng.value());
                }
            } else {
                s.entry(i, rng.value());
            }
            s.end_row(i);
        }
    }
};

/// Dense 5x5 blocks: block row I's block columns and values from Rng(seed, I); its five rows
/// take the values in turn, so a range starting inside a block row skips the rows before.
struct Blocks5Rows {
    static constexpr gidx bs = 5;
    gidx nb, b;
    std::uint64_t seed;
    bool closed_form() const { return false; }
    gidx num_rows() const { return bs * nb; }
    gidx num_cols() const { return num_rows(); }
    gidx window() const { return std::min(nb, 4 * b + 1); }
    std::int64_t length(gidx i) const
    {
        Rng rng(seed, static_cast<std::uint64_t>(i / bs));
        return bs * (1 + rng.below(b));
    }
    /// Block row bi's block columns (ascending, the diagonal block included), drawn from rng.
    void draw_blocks(gidx bi, Rng& rng, std::vector<gidx>& blocks) const
    {
        const std::int64_t count = 1 + rng.below(b);
        const gidx w = window();
        const std::int64_t lo = std::clamp<std::int64_t>(bi - 2 * b, 0, nb - w);
        // count-1 distinct block columns of the window other than the diagonal block.
        const auto picked = sample_distinct(rng, w - 1, count - 1);
        blocks.clear();
        for (auto c : picked) {
            blocks.push_back(c + lo + (c + lo >= bi ? 1 : 0));
        }
        blocks.insert(std::lower_bound(blocks.begin(), blocks.end(), bi), bi);
    }
    template <typename Sink>
    void emit(gidx first, gidx end, Sink& s) const
    {
        std::vector<gidx> blocks;
        for (gidx bi = first / bs; bi * bs < end; ++bi) {
            Rng rng(seed, static_cast<std::uint64_t>(bi));
            draw_blocks(bi, rng, blocks);
            for (gidx r = 0; r < bs; ++r) {
                const gidx i = bs * bi + r;
                const bool keep = i >= first && i < end;
                for (auto bc : blocks) {
                    for (gidx c = 0; c < bs; ++c) {
                        const double v = rng.value();  // drawn for skipped rows too
                        if (keep) {
                            s.entry(bs * bc + c, v);
                        }
                    }
                }
                if (keep) {
                    s.end_row(i);
                }
            }
        }
    }
};

/// Band plus far off-diagonals (offsets sorted), each far entry kept with probability fill,
/// from Rng(seed, row).
struct BandedRows {
    gidx n, bandwidth;
    std::vector<gidx> offs;  ///< sorted
    double fill;
    std::uint64_t seed;
    bool closed_form() const { return fill >= 1; }
    gidx num_rows() const { return n; }
    gidx num_cols() const { return n; }
    /// The far entries' keep flags of row i (and the stream, positioned for the values).
    void draw_keep(Rng& rng, std::vector<char>& keep) const
    {
        keep.assign(offs.size(), 1);
        if (fill < 1) {
            for (auto& k : keep) {
                k = rng.unit() < fill ? 1 : 0;
            }
        }
    }
    std::int64_t length(gidx i) const
    {
        Rng rng(seed, static_cast<std::uint64_t>(i));
        std::vector<char> keep;
        draw_keep(rng, keep);
        std::int64_t len = std::min(n - 1, i + bandwidth) - std::max<gidx>(0, i - bandwidth) + 1;
        for (std::size_t k = 0; k < offs.size(); ++k) {
            len += keep[k] && i + offs[k] >= 0 && i + offs[k] < n ? 1 : 0;
        }
        return len;
    }
    /// With fill 1 (no entry dropped) the lengths have a closed form.
    gidx nnz_before(gidx b) const
    {
        // band: sum over i < b of min(n, i + bw + 1) - max(0, i - bw)
        const gidx m = std::clamp<gidx>(n - bandwidth, 0, b);  // rows with i + bw + 1 <= n
        const gidx upper = m * (bandwidth + 1) + m * (m - 1) / 2 + (b - m) * n;
        const gidx t = std::max<gidx>(0, b - bandwidth - 1);
        gidx count = upper - t * (t + 1) / 2;
        for (const auto o : offs) {  // rows i < b with 0 <= i + o < n
            count += o > 0 ? std::clamp<gidx>(n - o, 0, b) : std::max<gidx>(0, b + o);
        }
        return count;
    }
    template <typename Sink>
    void emit(gidx first, gidx end, Sink& s) const
    {
        std::vector<char> keep;
        for (gidx i = first; i < end; ++i) {
            Rng rng(seed, static_cast<std::uint64_t>(i));
            draw_keep(rng, keep);
            // Sorted columns: far diagonals left of the band, the band, far diagonals right of it.
            for (std::size_t k = 0; k < offs.size(); ++k) {
                if (offs[k] < 0 && i + offs[k] >= 0 && keep[k]) {
                    s.entry(i + offs[k], rng.value());
                }
            }
            const auto band_end = std::min<gidx>(n - 1, i + bandwidth);
            for (auto c = std::max<gidx>(0, i - bandwidth); c <= band_end; ++c) {
                s.entry(c, rng.value());
            }
            for (std::size_t k = 0; k < offs.size(); ++k) {
                if (offs[k] > 0 && i + offs[k] < n && keep[k]) {
                    s.entry(i + offs[k], rng.value());
                }
            }
            s.end_row(i);
        }
    }
};

/// Exactly per_row distinct uniform columns in every row, from Rng(seed, row).
struct RandomRows {
    gidx rows, cols, per_row;
    std::uint64_t seed;
    bool closed_form() const { return true; }
    gidx num_rows() const { return rows; }
    gidx num_cols() const { return cols; }
    std::int64_t length(gidx /*i*/) const { return per_row; }
    gidx nnz_before(gidx b) const { return b * per_row; }
    template <typename Sink>
    void emit(gidx first, gidx end, Sink& s) const
    {
        for (gidx i = first; i < end; ++i) {
            Rng rng(seed, static_cast<std::uint64_t>(i));
            const auto picked = sample_distinct(rng, cols, per_row);
            for (auto c : picked) {
                s.entry(c, rng.value());
            }
            s.end_row(i);
        }
    }
};

}  // namespace

namespace {

/// The whole matrix of a row source, in 32-bit CSR.
template <typename Rows>
Matrix whole(const Rows& g, std::int64_t nnz_hint)
{
    auto a = empty(static_cast<std::int32_t>(g.num_rows()), static_cast<std::int32_t>(g.num_cols()),
                   nnz_hint);
    CsrSink sink{a};
    g.emit(0, g.num_rows(), sink);
    return a;
}

// The parameter checks both paths share (the whole-matrix functions add the 32-bit limits).

void check_power_law(std::int64_t rows, std::int64_t min_len, double exponent,
                     std::int64_t max_len)
{
    require(rows >= 1, "power_law: rows must be >= 1, got " + std::to_string(rows));
    require(min_len >= 1 && min_len <= max_len && max_len <= rows,
            "power_law: need 1 <= min_len <= max_len <= rows, got min_len " +
                std::to_string(min_len) + ", max_len " + std::to_string(max_len) + ", rows " +
                std::to_string(rows));
    require(std::isfinite(exponent) && exponent >= 0 && exponent <= 10,
            "power_law: exponent must be in [0, 10], got " + std::to_string(exponent));
}

void check_blocks5(std::int64_t num_block_rows, std::int64_t max_blocks_per_row)
{
    require(num_block_rows >= 1,
            "blocks5: num_block_rows must be >= 1, got " + std::to_string(num_block_rows));
    require(max_blocks_per_row >= 1 && max_blocks_per_row <= num_block_rows,
            "blocks5: need 1 <= max_blocks_per_row <= num_block_rows, got " +
                std::to_string(max_blocks_per_row));
}

BandedRows make_banded(std::int64_t n, std::int64_t bandwidth,
                       std::span<const std::int64_t> offsets, std::uint64_t seed, double fill)
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
    return {n, bandwidth, std::move(offs), fill, seed};
}

void check_random(std::int64_t rows, std::int64_t cols, std::int64_t nnz_per_row)
{
    require(rows >= 1 && cols >= 1, "random: rows and cols must be >= 1, got " +
                                        std::to_string(rows) + " x " + std::to_string(cols));
    require(nnz_per_row >= 0 && nnz_per_row <= cols,
            "random: need 0 <= nnz_per_row <= cols, got " + std::to_string(nnz_per_row));
}

}  // namespace

Matrix pde(std::int32_t k)
{
    require(k >= 1, "pde: grid size k must be >= 1, got " + std::to_string(k));
    const std::int64_t kk = k;
    require_nnz("pde", 7 * kk * kk * kk - 6 * kk * kk);
    return whole(PdeRows{kk}, 7 * kk * kk * kk - 6 * kk * kk);
}

Matrix laplace2d(std::int32_t nx, std::int32_t ny)
{
    require(nx >= 1 && ny >= 1, "laplace2d: nx and ny must be >= 1, got " + std::to_string(nx) +
                                    " x " + std::to_string(ny));
    const std::int64_t n = std::int64_t{nx} * ny;
    require(n <= index_limit, "laplace2d: " + std::to_string(n) + " rows exceed 2147483647");
    const std::int64_t count = 5 * n - 2 * std::int64_t{nx} - 2 * std::int64_t{ny};
    require_nnz("laplace2d", count);
    return whole(Laplace2dRows{nx, ny}, count);
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
    check_power_law(rows, min_len, exponent, max_len);
    const double mean = power_law_mean(min_len, exponent, max_len);
    return whole(make_power_law(rows, min_len, exponent, max_len, seed),
                 std::min<std::int64_t>(index_limit, static_cast<std::int64_t>(mean * rows)));
}

Matrix onefull(std::int32_t n, std::uint64_t seed)
{
    require(n >= 1, "onefull: n must be >= 1, got " + std::to_string(n));
    require_nnz("onefull", 2 * std::int64_t{n} - 1);
    return whole(OneFullRows{n, seed}, 2 * std::int64_t{n} - 1);
}

Matrix blocks5(std::int32_t num_block_rows, std::int32_t max_blocks_per_row, std::uint64_t seed)
{
    constexpr std::int64_t bs = 5;
    check_blocks5(num_block_rows, max_blocks_per_row);
    const std::int64_t n = bs * num_block_rows;
    require(n <= index_limit, "blocks5: " + std::to_string(n) + " rows exceed 2147483647");
    require_nnz("blocks5", bs * bs * std::int64_t{num_block_rows} * max_blocks_per_row);
    const std::int64_t nb = num_block_rows;
    const std::int64_t b = max_blocks_per_row;
    return whole(Blocks5Rows{nb, b, seed}, bs * bs * nb * (b + 1) / 2);
}

Matrix banded_offdiag(std::int32_t n, std::int32_t bandwidth, std::span<const std::int64_t> offsets,
                      std::uint64_t seed, double fill)
{
    const auto g = make_banded(n, bandwidth, offsets, seed, fill);
    require_nnz("banded",
                std::int64_t{n} * (2 * bandwidth + 1 + static_cast<std::int64_t>(g.offs.size())));
    return whole(g, std::int64_t{n} * (2 * bandwidth + 1));
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
    check_random(rows, cols, nnz_per_row);
    require_nnz("random", std::int64_t{rows} * nnz_per_row);
    return whole(RandomRows{rows, cols, nnz_per_row, seed}, std::int64_t{rows} * nnz_per_row);
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

/// The largest value a parameter may take on the row-range path (generate_rows), where only
/// the 32-bit limits of a whole matrix differ: pde's size (674: 2.1e9 nonzeros in one CSR)
/// goes up to 10^6 (7e18 nonzeros still count in 64 bits). Others keep max_value.
double row_range_max(const GeneratorInfo& info, const GeneratorParam& p)
{
    return info.name == "pde" && p.name == "size" ? 1e6 : p.max_value;
}

/// Parameter values of one generator call: defaults, overridden by the user's, checked (with
/// the row-range limits when `row_range`).
class Values {
public:
    Values(const GeneratorInfo& info, const GeneratorParams& given, bool row_range = false)
        : info_(info), given_(given), row_range_(row_range)
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
        const double max = row_range_ ? row_range_max(info_, p) : p.max_value;
        require(std::isfinite(v) && v >= p.min_value && v <= max,
                what + " is outside [" + std::to_string(p.min_value) + ", " +
                    std::to_string(max) + "]");
        require(!p.integer || v == std::floor(v), what + " must be a whole number");
        return v;
    }

    std::int32_t integer(std::string_view name) const
    {
        return static_cast<std::int32_t>(real(name));
    }

    std::int64_t wide(std::string_view name) const { return static_cast<std::int64_t>(real(name)); }

private:
    const GeneratorInfo& info_;
    const GeneratorParams& given_;
    bool row_range_;
};

}  // namespace

namespace {

/// "gen:pde:size=1100": a spec as the user would write it, for messages.
std::string spec_text(std::string_view name, const GeneratorParams& params)
{
    std::string text = "gen:" + std::string(name);
    char sep = ':';
    for (const auto& [key, value] : params) {
        char num[32];
        std::snprintf(num, sizeof num, "%.15g", value);
        text += sep + key + "=" + num;
        sep = ',';
    }
    return text;
}

using RowSource = std::variant<PdeRows, Laplace2dRows, PowerLawRows, OneFullRows, Blocks5Rows,
                               BandedRows, RandomRows>;

/// The named generator's rows as a function of their index, its parameters checked with the
/// row-range limits (row_range_max) and so that its counts stay within 64 bits.
RowSource row_source(std::string_view name, const GeneratorParams& params, std::uint64_t seed)
{
    const auto& info = find_generator(name);
    const Values v(info, params, true);
    constexpr std::int64_t count_limit = std::int64_t{1} << 62;
    if (name == "pde") {
        return PdeRows{v.wide("size")};
    }
    if (name == "laplace2d") {
        const auto nx = v.wide("nx");
        const auto ny = v.wide("ny");
        require(nx <= (count_limit / 4) / ny, "laplace2d: nx * ny = " + std::to_string(nx) +
                                                  " * " + std::to_string(ny) +
                                                  " rows exceed 2^60");
        return Laplace2dRows{nx, ny};
    }
    if (name == "powerlaw") {
        const auto rows = v.wide("rows");
        const auto lo = v.wide("min-len");
        const auto hi = v.wide("max-len");
        const double e = v.real("exponent");
        check_power_law(rows, lo, e, hi);
        return make_power_law(rows, lo, e, hi, seed);
    }
    if (name == "onefull") {
        return OneFullRows{v.wide("n"), seed};
    }
    if (name == "blocks5") {
        const auto nb = v.wide("block-rows");
        const auto b = v.wide("blocks");
        check_blocks5(nb, b);
        require(b <= count_limit / (25 * nb),
                "blocks5: " + std::to_string(nb) + " block rows of up to " + std::to_string(b) +
                    " blocks exceed 2^62 nonzeros");
        return Blocks5Rows{nb, b, seed};
    }
    if (name == "banded") {
        const auto n = v.integer("n");
        const auto offsets = spread_offsets(n, v.integer("offdiags"));
        return make_banded(n, v.wide("bandwidth"), offsets, seed, v.real("fill"));
    }
    if (name == "random") {
        const auto rows = v.wide("rows");
        const auto cols = v.wide("cols");
        check_random(rows, cols == 0 ? rows : cols, v.wide("nnz-per-row"));
        return RandomRows{rows, cols == 0 ? rows : cols, v.wide("nnz-per-row"), seed};
    }
    throw InvalidArgument(__FILE__, __LINE__,
                          "generator " + std::string(name) + " has no row-range form");
}

template <typename Rows>
void check_range(const Rows& g, global_index first, global_index end)
{
    require(first >= 0 && first <= end && end <= g.num_rows(),
            "row range [" + std::to_string(first) + ", " + std::to_string(end) +
                ") is not within the generator's " + std::to_string(g.num_rows()) + " rows");
}

// Threads (build_threads()): a row range is cut into parts of rows_per_part rows, handed out
// to the threads one at a time; every part counts, measures or generates its own rows into its
// own place in the output (its nonzeros before it: the parts' counts summed in order). Every
// row is a function of its index alone, so the rows are the same bit for bit however the
// range is cut and on any number of threads.
constexpr global_index rows_per_part = global_index{1} << 15;

/// fn(part, p0, p1) for the parts [p0, p1) of [first, end), on build_threads() threads.
template <typename Fn>
void for_each_part(global_index first, global_index end, Fn&& fn)
{
    parallel_blocks(first, end, rows_per_part, fn);
}

/// Nonzeros of rows [first, end) of one thread's part (or any range): the closed form, or the
/// lengths summed.
template <typename Rows>
std::int64_t count_part(const Rows& g, global_index first, global_index end)
{
    if constexpr (requires { g.nnz_before(first); }) {
        if (g.closed_form()) {
            return g.nnz_before(end) - g.nnz_before(first);
        }
    }
    std::int64_t sum = 0;
    if constexpr (std::is_same_v<Rows, Blocks5Rows>) {  // one draw per block row
        for (global_index i = first; i < end;) {
            const auto next = std::min(end, (i / Blocks5Rows::bs + 1) * Blocks5Rows::bs);
            sum += g.length(i) * (next - i);
            i = next;
        }
        return sum;
    }
    for (global_index i = first; i < end; ++i) {
        sum += g.length(i);
    }
    return sum;
}

/// The nonzeros before each part of [first, end) (for_each_part's parts), and after the last:
/// the closed form, or the parts' lengths summed on the threads.
template <typename Rows>
std::vector<std::int64_t> part_offsets(const Rows& g, global_index first, global_index end)
{
    check_range(g, first, end);
    const auto parts = block_count(first, end, rows_per_part);
    std::vector<std::int64_t> offsets(parts + 1, 0);
    for_each_part(first, end, [&](std::size_t part, global_index p0, global_index p1) {
        offsets[part + 1] = count_part(g, p0, p1);
    });
    for (std::size_t part = 0; part < parts; ++part) {
        offsets[part + 1] += offsets[part];
    }
    return offsets;
}

/// Nonzeros of rows [first, end); checks the range.
template <typename Rows>
std::int64_t count_in(const Rows& g, global_index first, global_index end)
{
    check_range(g, first, end);
    if constexpr (requires { g.nnz_before(first); }) {
        if (g.closed_form()) {
            return count_part(g, first, end);
        }
    }
    return part_offsets(g, first, end).back();
}

/// Throws InvalidArgument, naming the spec and its size, when the whole matrix of a valid
/// row-range spec would not fit 32-bit indices; returns quietly for anything else (the
/// whole-matrix checks then speak for themselves).
void require_whole_fits(std::string_view name, const GeneratorParams& params)
{
    std::optional<RowSource> src;
    try {
        src = row_source(name, params, 1);
    } catch (const InvalidArgument&) {
        return;
    }
    std::visit(
        [&](const auto& g) {
            const bool rows_fit = g.num_rows() <= index_limit && g.num_cols() <= index_limit;
            std::int64_t entries = -1;
            if constexpr (requires { g.nnz_before(0); }) {
                if (g.closed_form()) {
                    entries = g.nnz_before(g.num_rows());
                }
            }
            if (rows_fit && entries <= index_limit) {
                return;
            }
            throw InvalidArgument(
                __FILE__, __LINE__,
                spec_text(name, params) + " has " + std::to_string(g.num_rows()) + " rows" +
                    (entries >= 0 ? " and " + std::to_string(entries) + " nonzeros" : "") +
                    ": its whole matrix does not fit 32-bit indices (at most 2147483647); "
                    "it can only be generated a row range at a time (spmv::gen::generate_rows; "
                    "spmv::dist::generate_parallel on several ranks)");
        },
        *src);
}

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
    require_whole_fits(name, params);
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
        require_whole_fits(spec.name, spec.params);
        require_memory(budget, estimate_bytes(spec.name, spec.params),
                       "generating " + spec_text(spec.name, spec.params) + " (its CSR)");
    }
    return generate(spec.name, spec.params, spec.seed);
}

// ---- Row ranges (generator_rows.hpp) --------------------------------------------------------

bool has_row_range(std::string_view name)
{
    (void)find_generator(name);
    return true;  // every generator's rows are functions of their index (see the row sources)
}

Shape shape(const Spec& spec)
{
    return std::visit([](const auto& g) { return Shape{g.num_rows(), g.num_cols()}; },
                      row_source(spec.name, spec.params, spec.seed));
}

bool nnz_closed_form(const Spec& spec)
{
    return std::visit([](const auto& g) { return g.closed_form(); },
                      row_source(spec.name, spec.params, spec.seed));
}

std::int64_t count_nonzeros(const Spec& spec, global_index first, global_index end)
{
    return std::visit([&](const auto& g) { return count_in(g, first, end); },
                      row_source(spec.name, spec.params, spec.seed));
}

std::vector<std::int64_t> row_lengths(const Spec& spec, global_index first, global_index end)
{
    return std::visit(
        [&](const auto& g) {
            check_range(g, first, end);
            std::vector<std::int64_t> len(static_cast<std::size_t>(end - first));
            for_each_part(first, end, [&](std::size_t, global_index p0, global_index p1) {
                for (global_index i = p0; i < p1; ++i) {
                    len[static_cast<std::size_t>(i - first)] = g.length(i);
                }
            });
            return len;
        },
        row_source(spec.name, spec.params, spec.seed));
}

std::uint64_t rows_bytes(const Spec& spec, global_index first, global_index end)
{
    const auto entries = count_nonzeros(spec, first, end);
    return 8 * static_cast<std::uint64_t>(end - first) +
           8 * (static_cast<std::uint64_t>(end - first) + 1) +
           16 * static_cast<std::uint64_t>(entries);
}

dist::GlobalRows<double> generate_rows(const Spec& spec, global_index first, global_index end)
{
    return std::visit(
        [&](const auto& g) {
            const auto offsets = part_offsets(g, first, end);  // checks the range
            const auto entries = offsets.back();
            dist::GlobalRows<double> out;
            out.num_rows = g.num_rows();
            out.num_cols = g.num_cols();
            out.rows.resize(static_cast<std::size_t>(end - first));
            out.row_ptrs.assign(static_cast<std::size_t>(end - first) + 1, 0);
            out.col_idxs.resize(static_cast<std::size_t>(entries));
            out.values.resize(static_cast<std::size_t>(entries));
            // every part into its own rows and entries (for_each_part: the same on any threads)
            for_each_part(first, end, [&](std::size_t part, global_index p0, global_index p1) {
                const auto row = static_cast<std::size_t>(p0 - first);
                const auto base = offsets[part];
                RowsSink sink{out.rows.data() + row, out.row_ptrs.data() + row + 1,
                              out.col_idxs.data() + base, out.values.data() + base,
                              offsets[part + 1] - base, base};
                g.emit(p0, p1, sink);
                if (sink.at != sink.cap) {
                    SPMV_THROW(Error, "generate_rows: rows [" + std::to_string(p0) + ", " +
                                          std::to_string(p1) + ") hold " +
                                          std::to_string(sink.at) + " entries, counted " +
                                          std::to_string(sink.cap));
                }
            });
            return out;
        },
        row_source(spec.name, spec.params, spec.seed));
}

}  // namespace spmv::gen
