#include "test_matrices.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace spmv::test {

Csr<double, std::int32_t> canonical4()
{
    Csr<double, std::int32_t> a;
    a.num_rows = 4;
    a.num_cols = 4;
    a.row_ptrs = {0, 3, 4, 7, 9};
    a.col_idxs = {0, 2, 3, 1, 0, 2, 3, 1, 3};
    a.values = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    return a;
}

Csr<double, std::int32_t> random_csr(std::int32_t rows, std::int32_t cols, int min_len,
                                     int max_len, std::uint32_t seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> val(-2.0, 2.0);
    Csr<double, std::int32_t> a;
    a.num_rows = rows;
    a.num_cols = cols;
    std::vector<std::int32_t> all(static_cast<std::size_t>(cols));
    std::iota(all.begin(), all.end(), 0);
    for (std::int32_t i = 0; i < rows; ++i) {
        int len = std::uniform_int_distribution<int>(min_len, max_len)(rng);
        len = std::min(len, static_cast<int>(cols));
        std::vector<std::int32_t> pick;
        std::sample(all.begin(), all.end(), std::back_inserter(pick), len, rng);
        std::sort(pick.begin(), pick.end());
        for (auto c : pick) {
            a.col_idxs.push_back(c);
            double v = val(rng);
            a.values.push_back(v == 0.0 ? 1.0 : v);
        }
        a.row_ptrs.push_back(static_cast<std::int32_t>(a.values.size()));
    }
    return a;
}

Csr<double, std::int32_t> one_full_row(std::int32_t n)
{
    Csr<double, std::int32_t> a;
    a.num_rows = a.num_cols = n;
    for (std::int32_t j = 0; j < n; ++j) {
        a.col_idxs.push_back(j);
        a.values.push_back(1.0);
    }
    a.row_ptrs.push_back(n);
    for (std::int32_t i = 1; i < n; ++i) {
        a.col_idxs.push_back(i);
        a.values.push_back(2.0);
        a.row_ptrs.push_back(a.row_ptrs.back() + 1);
    }
    return a;
}

std::vector<NamedMatrix> zoo()
{
    std::vector<NamedMatrix> z;
    z.push_back({"empty 0x0", Csr<double, std::int32_t>{}});
    {
        Csr<double, std::int32_t> one;
        one.num_rows = one.num_cols = 1;
        one.row_ptrs = {0, 1};
        one.col_idxs = {0};
        one.values = {3.5};
        z.push_back({"1x1", one});
    }
    {
        Csr<double, std::int32_t> zero_nnz;
        zero_nnz.num_rows = 5;
        zero_nnz.num_cols = 3;
        zero_nnz.row_ptrs.assign(6, 0);
        z.push_back({"5x3 without entries", zero_nnz});
    }
    z.push_back({"canonical 4x4", canonical4()});
    z.push_back({"irregular 100x100", random_csr(100, 100, 0, 17, 1)});
    z.push_back({"empty rows 77x50", random_csr(77, 50, 0, 2, 2)});
    z.push_back({"wide 40x300", random_csr(40, 300, 1, 40, 3)});
    z.push_back({"tall 300x20", random_csr(300, 20, 0, 6, 4)});
    z.push_back({"constant length 96x96", random_csr(96, 96, 5, 5, 5)});
    {
        // one full row and the diagonal elsewhere: the pJDS worst case (Kreutzer §II.A)
        const std::int32_t n = 70;
        Csr<double, std::int32_t> of;
        of.num_rows = of.num_cols = n;
        for (std::int32_t i = 0; i < n; ++i) {
            if (i == 3) {
                for (std::int32_t j = 0; j < n; ++j) {
                    of.col_idxs.push_back(j);
                    of.values.push_back(1.0 + j);
                }
            } else {
                of.col_idxs.push_back(i);
                of.values.push_back(2.0);
            }
            of.row_ptrs.push_back(static_cast<std::int32_t>(of.values.size()));
        }
        z.push_back({"one full row 70x70", of});
    }
    z.push_back({"long tail 1000x1000", random_csr(1000, 1000, 0, 3, 6)});
    {
        auto a = random_csr(257, 257, 0, 60, 7);  // > a warp, very irregular
        z.push_back({"very irregular 257x257", a});
    }
    return z;
}

std::vector<double> random_vector(std::size_t n, std::uint32_t seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    std::vector<double> v(n);
    for (auto& e : v) {
        e = d(rng);
    }
    if (n > 0) {
        v[0] = 0.75;
    }
    return v;
}

double relative_error(const std::vector<double>& a, const std::vector<double>& b)
{
    double num = 0.0;
    double den = 0.0;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
        num += (a[i] - b[i]) * (a[i] - b[i]);
        den += b[i] * b[i];
    }
    if (a.size() != b.size()) {
        return INFINITY;
    }
    return std::sqrt(num) / std::max(std::sqrt(den), 1e-300);
}

std::vector<std::int32_t> row_ptrs_of(const std::vector<std::int32_t>& lengths)
{
    std::vector<std::int32_t> p{0};
    for (const auto l : lengths) {
        p.push_back(p.back() + l);
    }
    return p;
}

}  // namespace spmv::test
