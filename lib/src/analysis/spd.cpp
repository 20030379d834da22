#include <algorithm>
#include <cmath>
#include <cstdio>

#include <spmv/analysis/spd.hpp>

namespace spmv::analysis {

namespace {

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

/// a(r, c) of a CSR whose rows hold sorted columns (0 when absent).
double entry(const Csr<double, std::int32_t>& a, std::int32_t r, std::int32_t c)
{
    const auto b = a.col_idxs.begin() + a.row_ptrs[static_cast<std::size_t>(r)];
    const auto e = a.col_idxs.begin() + a.row_ptrs[static_cast<std::size_t>(r) + 1];
    const auto it = std::lower_bound(b, e, c);
    return it != e && *it == c ? a.values[static_cast<std::size_t>(it - a.col_idxs.begin())] : 0.0;
}

}  // namespace

std::string SpdScreen::reason() const
{
    if (!square) {
        return "not square";
    }
    if (!symmetric) {
        return "not symmetric: a(" + std::to_string(row) + ", " + std::to_string(col) + ") = " +
               number(a_rc) + " but a(" + std::to_string(col) + ", " + std::to_string(row) +
               ") = " + number(a_cr);
    }
    if (!positive_diagonal) {
        return "not positive definite: the diagonal entry a(" + std::to_string(diag_row) + ", " +
               std::to_string(diag_row) + ") = " + number(diag_value) + " is not positive";
    }
    return {};
}

SpdScreen screen_spd(const Csr<double, std::int32_t>& a, double tol)
{
    SpdScreen s;
    if (a.num_rows != a.num_cols) {
        s.square = false;
        s.symmetric = false;
        return s;
    }
    for (std::int32_t r = 0; r < a.num_rows; ++r) {
        const auto b = static_cast<std::size_t>(a.row_ptrs[static_cast<std::size_t>(r)]);
        const auto e = static_cast<std::size_t>(a.row_ptrs[static_cast<std::size_t>(r) + 1]);
        bool has_diag = false;
        for (std::size_t k = b; k < e; ++k) {
            const std::int32_t c = a.col_idxs[k];
            const double v = a.values[k];
            if (c == r) {
                has_diag = true;
                if (!(v > 0.0) && s.positive_diagonal) {
                    s.positive_diagonal = false;
                    s.diag_row = r;
                    s.diag_value = v;
                }
                continue;
            }
            if (s.symmetric) {
                const double w = entry(a, c, r);
                if (std::abs(v - w) > tol * std::max(std::abs(v), std::abs(w))) {
                    s.symmetric = false;
                    s.row = r;
                    s.col = c;
                    s.a_rc = v;
                    s.a_cr = w;
                }
            }
        }
        if (!has_diag && s.positive_diagonal) {
            s.positive_diagonal = false;
            s.diag_row = r;
            s.diag_value = 0.0;
        }
    }
    return s;
}

}  // namespace spmv::analysis
