#pragma once
// Small SPD (and deliberately not SPD) systems for the solver tests, built here from triplets so
// that a bug in lib's generators cannot hide a solver bug.
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include <spmv/formats/csr.hpp>

namespace spmv::test {

using CsrD = Csr<double, std::int32_t>;

inline CsrD from_triplets(std::int32_t n, const std::vector<std::int32_t>& r,
                          const std::vector<std::int32_t>& c, const std::vector<double>& v)
{
    return csr_from_triplets<double, std::int32_t>(n, n, r, c, v);
}

/// tridiag(-1, 2, -1), n x n: SPD, eigenvalues 2 - 2 cos(k pi / (n+1)), all distinct.
inline CsrD laplace1d(std::int32_t n)
{
    std::vector<std::int32_t> r, c;
    std::vector<double> v;
    for (std::int32_t i = 0; i < n; ++i) {
        r.push_back(i), c.push_back(i), v.push_back(2.0);
        if (i + 1 < n) {
            r.push_back(i), c.push_back(i + 1), v.push_back(-1.0);
            r.push_back(i + 1), c.push_back(i), v.push_back(-1.0);
        }
    }
    return from_triplets(n, r, c, v);
}

/// 5-point Laplacian on an nx x ny grid (diagonal 4, neighbours -1): SPD, cond ~ 0.8 (nx+1)^2.
inline CsrD laplace2d(std::int32_t nx, std::int32_t ny)
{
    std::vector<std::int32_t> r, c;
    std::vector<double> v;
    for (std::int32_t y = 0; y < ny; ++y) {
        for (std::int32_t x = 0; x < nx; ++x) {
            const std::int32_t i = x + nx * y;
            r.push_back(i), c.push_back(i), v.push_back(4.0);
            auto link = [&](std::int32_t j) { r.push_back(i), c.push_back(j), v.push_back(-1.0); };
            if (x > 0) link(i - 1);
            if (x + 1 < nx) link(i + 1);
            if (y > 0) link(i - nx);
            if (y + 1 < ny) link(i + nx);
        }
    }
    return from_triplets(nx * ny, r, c, v);
}

/// Diagonal matrix.
inline CsrD diagonal(const std::vector<double>& d)
{
    std::vector<std::int32_t> idx(d.size());
    for (std::size_t i = 0; i < d.size(); ++i) idx[i] = static_cast<std::int32_t>(i);
    return from_triplets(static_cast<std::int32_t>(d.size()), idx, idx, d);
}

/// Deterministic pseudo-random numbers in [0, 1) (splitmix64), platform independent.
struct Rng {
    std::uint64_t s;
    double next()
    {
        std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        return static_cast<double>(z >> 11) * 0x1.0p-53;
    }
};

/// Weighted graph Laplacian + I of a random graph whose degrees vary a lot (every 7th vertex
/// is a hub with up to 40 extra edges): SPD and strictly diagonally dominant, with irregular
/// row lengths, so that sorted formats really permute and pad.
inline CsrD irregular_spd(std::int32_t n, std::uint64_t seed)
{
    Rng rng{seed};
    std::vector<std::int32_t> r, c;
    std::vector<double> v;
    std::vector<double> diag(static_cast<std::size_t>(n), 1.0);
    for (std::int32_t i = 0; i < n; ++i) {
        const int edges =
            (i % 7 == 0) ? 5 + static_cast<int>(35 * rng.next()) : static_cast<int>(3 * rng.next());
        for (int e = 0; e < edges; ++e) {
            const auto j = static_cast<std::int32_t>(n * rng.next());
            if (j == i) continue;
            const double w = 0.5 + rng.next();
            r.push_back(i), c.push_back(j), v.push_back(-w);
            r.push_back(j), c.push_back(i), v.push_back(-w);
            diag[static_cast<std::size_t>(i)] += w;
            diag[static_cast<std::size_t>(j)] += w;
        }
    }
    for (std::int32_t i = 0; i < n; ++i) {
        r.push_back(i), c.push_back(i), v.push_back(diag[static_cast<std::size_t>(i)]);
    }
    return from_triplets(n, r, c, v);  // duplicate edges are summed (still symmetric, dominant)
}

/// D A D with D = diag(10^u_i), u_i uniform in [-decades, decades]: SPD if A is, badly scaled.
inline CsrD badly_scaled(const CsrD& a, double decades, std::uint64_t seed)
{
    Rng rng{seed};
    std::vector<double> d(static_cast<std::size_t>(a.num_rows));
    for (auto& di : d) di = std::pow(10.0, decades * (2.0 * rng.next() - 1.0));
    CsrD b = a;
    for (std::int32_t i = 0; i < a.num_rows; ++i) {
        for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
            b.values[k] *=
                d[static_cast<std::size_t>(i)] * d[static_cast<std::size_t>(a.col_idxs[k])];
        }
    }
    return b;
}

inline std::vector<double> multiply(const CsrD& a, const std::vector<double>& x)
{
    std::vector<double> y(static_cast<std::size_t>(a.num_rows));
    spmv_reference(a, 1.0, std::span<const double>(x), 0.0, std::span<double>(y));
    return y;
}

/// x*_i = 1 + 0.5 sin(i): smooth, no zeros, not an eigenvector of anything here.
inline std::vector<double> smooth_solution(std::int32_t n)
{
    std::vector<double> x(static_cast<std::size_t>(n));
    for (std::int32_t i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = 1.0 + 0.5 * std::sin(i);
    return x;
}

inline double rel_diff(const std::vector<double>& a, const std::vector<double>& b)
{
    double d = 0.0, n = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        d += (a[i] - b[i]) * (a[i] - b[i]);
        n += b[i] * b[i];
    }
    return std::sqrt(d / (n > 0.0 ? n : 1.0));
}

}  // namespace spmv::test
