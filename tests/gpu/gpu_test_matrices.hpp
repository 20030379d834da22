#pragma once
// Matrices for the [gpu] tests: the host test zoo plus larger ones (more rows than a warp and
// than a COO chunk, empty rows, one long row, irregular lengths, rectangular shapes), and a
// helper that runs a device matrix once on host vectors.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <random>
#include <set>
#include <span>
#include <vector>

#include <catch2/catch.hpp>

#include <spmv/formats/csr.hpp>
#include <spmv/gpu/device_matrix.hpp>
#include <spmv/gpu/memory.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/gpu/verify.hpp>
#include <spmv/registry.hpp>

#include "test_matrices.hpp"

namespace spmv::test {

/// 7-point Laplacian on a k^3 grid (Barbieri's pdeNN matrices: N = k^3, NZ = 7k^3 - 6k^2).
inline Csr<double, std::int32_t> pde7(std::int32_t k)
{
    Csr<double, std::int32_t> a;
    a.num_rows = a.num_cols = k * k * k;
    for (std::int32_t z = 0; z < k; ++z) {
        for (std::int32_t y = 0; y < k; ++y) {
            for (std::int32_t x = 0; x < k; ++x) {
                const std::int32_t i = (z * k + y) * k + x;
                const auto add = [&](std::int32_t j, double v) {
                    a.col_idxs.push_back(j);
                    a.values.push_back(v);
                };
                if (z > 0) add(i - k * k, -1.0);
                if (y > 0) add(i - k, -1.0);
                if (x > 0) add(i - 1, -1.0);
                add(i, 6.0);
                if (x < k - 1) add(i + 1, -1.0);
                if (y < k - 1) add(i + k, -1.0);
                if (z < k - 1) add(i + k * k, -1.0);
                a.row_ptrs.push_back(static_cast<std::int32_t>(a.values.size()));
            }
        }
    }
    return a;
}

/// Random lengths in [0, 4] and one full row (`long_row`): the pJDS worst case, and a row that
/// spans many COO chunks.
inline Csr<double, std::int32_t> one_long_row(std::int32_t n, std::int32_t long_row,
                                              std::uint32_t seed)
{
    auto a = random_csr(n, n, 0, 4, seed);
    Csr<double, std::int32_t> b;
    b.num_rows = b.num_cols = n;
    for (std::int32_t i = 0; i < n; ++i) {
        if (i == long_row) {
            for (std::int32_t j = 0; j < n; ++j) {
                b.col_idxs.push_back(j);
                b.values.push_back(0.5 + 0.001 * j);
            }
        } else {
            for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
                b.col_idxs.push_back(a.col_idxs[k]);
                b.values.push_back(a.values[k]);
            }
        }
        b.row_ptrs.push_back(static_cast<std::int32_t>(b.values.size()));
    }
    return b;
}

/// `len` distinct random columns in [0, cols), sorted (O(len log len), for any cols).
inline std::vector<std::int32_t> random_columns(std::int64_t len, std::int32_t cols,
                                                std::mt19937& rng)
{
    std::uniform_int_distribution<std::int32_t> col(0, cols - 1);
    std::set<std::int32_t> c;
    len = std::min<std::int64_t>(len, cols);
    while (static_cast<std::int64_t>(c.size()) < len) {
        c.insert(col(rng));
    }
    return {c.begin(), c.end()};
}

/// Heavy-tailed row lengths (len = floor(u^-1.5) - 1 for u uniform in [0.01, 1): mostly short
/// rows, a few of up to 999 entries), like web or circuit matrices.
inline Csr<double, std::int32_t> power_law(std::int32_t rows, std::int32_t cols, std::uint32_t seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0.01, 1.0);
    std::uniform_real_distribution<double> val(0.1, 2.0);
    Csr<double, std::int32_t> a;
    a.num_rows = rows;
    a.num_cols = cols;
    for (std::int32_t i = 0; i < rows; ++i) {
        const auto len = static_cast<std::int64_t>(std::pow(u(rng), -1.5)) - 1;
        for (auto j : random_columns(len, cols, rng)) {
            a.col_idxs.push_back(j);
            a.values.push_back(i % 2 == 0 ? val(rng) : -val(rng));
        }
        a.row_ptrs.push_back(static_cast<std::int32_t>(a.values.size()));
    }
    return a;
}

/// Row lengths uniform in [0, max_len], uniformly random columns: fast for millions of rows.
inline Csr<double, std::int32_t> random_irregular(std::int32_t rows, std::int32_t cols, int max_len,
                                                  std::uint32_t seed)
{
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> len(0, max_len);
    std::uniform_real_distribution<double> val(-2.0, 2.0);
    Csr<double, std::int32_t> a;
    a.num_rows = rows;
    a.num_cols = cols;
    for (std::int32_t i = 0; i < rows; ++i) {
        for (auto j : random_columns(len(rng), cols, rng)) {
            a.col_idxs.push_back(j);
            a.values.push_back(val(rng) + 0.001);
        }
        a.row_ptrs.push_back(static_cast<std::int32_t>(a.values.size()));
    }
    return a;
}

// Rows of exactly the given lengths; columns consecutive from a random start (mod cols), values
// random in [-1, 1] and never 0. O(nnz), also for long rows and many columns.
inline Csr<double, std::int32_t> with_lengths(const std::vector<std::int32_t>& lengths,
                                              std::int32_t cols, std::uint32_t seed)
{
    std::mt19937 rng(seed);
    std::uniform_int_distribution<std::int32_t> start(0, cols - 1);
    std::uniform_real_distribution<double> val(-1.0, 1.0);
    Csr<double, std::int32_t> a;
    a.num_rows = static_cast<std::int32_t>(lengths.size());
    a.num_cols = cols;
    std::vector<std::int32_t> c;
    for (const auto len : lengths) {
        c.clear();
        const std::int32_t s = start(rng);
        for (std::int32_t j = 0; j < std::min(len, cols); ++j) {
            c.push_back((s + j) % cols);
        }
        std::sort(c.begin(), c.end());
        for (const auto j : c) {
            a.col_idxs.push_back(j);
            a.values.push_back(val(rng) + 1e-3);
        }
        a.row_ptrs.push_back(static_cast<std::int32_t>(a.values.size()));
    }
    return a;
}

/// The zoo plus the larger GPU matrices.
inline std::vector<NamedMatrix> gpu_zoo()
{
    auto z = zoo();
    z.push_back({"irregular 5000x4000 with empty rows", random_csr(5000, 4000, 0, 40, 21)});
    z.push_back({"one long row 3000x3000", one_long_row(3000, 1234, 22)});
    z.push_back({"tall 20000x300", random_csr(20000, 300, 0, 6, 23)});
    z.push_back({"wide 300x20000, rows of 50..700", random_csr(300, 20000, 50, 700, 24)});
    z.push_back({"pde20 7-point Laplacian 8000x8000", pde7(20)});
    z.push_back({"power-law 4000x4000", power_law(4000, 4000, 25)});
    return z;
}

/// The shapes that break a load-balancing kernel's bookkeeping: 1x1 with and without its entry,
/// no rows (0x0, 0x17), tall, wide with long rows, dense, a power law, a 3-D stencil.
inline std::vector<NamedMatrix> degenerate_shapes()
{
    Csr<double, std::int32_t> one;
    one.num_rows = one.num_cols = 1;
    one.row_ptrs = {0, 1};
    one.col_idxs = {0};
    one.values = {-2.5};
    Csr<double, std::int32_t> one_empty;
    one_empty.num_rows = one_empty.num_cols = 1;
    one_empty.row_ptrs = {0, 0};
    Csr<double, std::int32_t> no_rows;  // 0 x 0
    Csr<double, std::int32_t> no_rows_wide;
    no_rows_wide.num_cols = 17;  // 0 x 17
    return {
        {"1x1", one},
        {"1x1 without entry", one_empty},
        {"0x0", no_rows},
        {"0x17", no_rows_wide},
        {"tall 100000x7", random_csr(100000, 7, 0, 7, 12)},
        {"wide 5x200000, rows of 10000..90000", random_csr(5, 200000, 10000, 90000, 13)},
        {"wide 3x5000 dense", random_csr(3, 5000, 5000, 5000, 14)},
        {"power-law 30000x20000", power_law(30000, 20000, 15)},
        {"pde20", pde7(20)},
    };
}

/// Runs y = alpha A x + beta y once on the device with host vectors; returns y.
template <typename V>
std::vector<V> run_once(const gpu::DeviceMatrix<V>& m, V alpha, const std::vector<V>& x, V beta,
                        std::vector<V> y, RowOrder order = RowOrder::original)
{
    auto dx = gpu::DeviceBuffer<V>::from_host(x);
    auto dy = gpu::DeviceBuffer<V>::from_host(y);
    m.spmv(alpha, dx.data(), beta, dy.data(), order);
    gpu::synchronize();
    return dy.to_host();
}

/// Parameter sets for the formats that read parameters (FormatInfo::params): the defaults, then
/// W = 4 and C = 4 (the bisection kernel's other widths, SELL's generic-C kernel), b_r = 4 (the
/// pJDS fallback of pjds_split), pJDS rows rounded up to b_r (pjds_pad, at b_r = 4 and 32), and
/// two HYB widths, pitches, windows and diagonal paddings.
inline std::vector<FormatParams> variant_parameter_sets(const gpu::KernelVariant& v)
{
    std::vector<FormatParams> sets(1);
    if (find_format(v.format).params.empty()) {
        return sets;
    }
    sets.resize(3);
    sets[1].hyb_width = 0;
    sets[1].pitch_bytes = 64;
    sets[1].block_rows = 4;
    sets[1].slice_height = 4;
    sets[1].sort_window = 8;
    sets[1].warp_size = 4;
    sets[1].diag_pad = 4;
    sets[1].pjds_pad = 1;
    sets[2].pjds_pad = 1;
    sets[2].hyb_width = 2;
    sets[2].pitch_bytes = 4;
    sets[2].sort_window = 1 << 20;
    sets[2].diag_pad = 1;
    return sets;
}

/// Every GPU variant x the GPU zoo x its parameter sets in precision V, against the host double
/// CSR reference (gpu::verify), NaN-poisoned y included.
template <typename V>
void check_every_variant()
{
    const auto zoo = gpu_zoo();
    for (const auto& v : gpu::kernel_variants()) {
        for (const auto& m : zoo) {
            const auto a = convert_values<V>(m.a);
            const auto sets = variant_parameter_sets(v);
            for (std::size_t s = 0; s < sets.size(); ++s) {
                INFO("variant " << v.name << ", matrix " << m.name << ", parameter set " << s);
                const auto r = gpu::verify(v, a, sets[s]);
                INFO(r.message);
                CHECK(r.passed);
                CHECK(r.error_beta_zero <= r.tolerance);  // NaN in y never leaks with beta = 0
            }
        }
    }
}

}  // namespace spmv::test
