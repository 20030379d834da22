// Host side of the solvers: status names, the operator plan (permuted basis, Jacobi diagonal)
// shared with the GPU driver, and the host driver solve_host.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include <spmv/error.hpp>
#include <spmv/solvers/cg.hpp>
#include <spmv/solvers/host_backend.hpp>
#include <spmv/solvers/solve.hpp>
#include <spmv/solvers/system.hpp>

namespace spmv::solvers {

std::string_view to_string(Status s)
{
    switch (s) {
        case Status::converged:
            return "converged";
        case Status::max_iterations:
            return "max_iterations";
        case Status::stagnated:
            return "stagnated";
        case Status::breakdown_indefinite:
            return "breakdown_indefinite";
        case Status::breakdown_nan:
            return "breakdown_nan";
        case Status::diverged:
            return "diverged";
    }
    return "unknown";
}

std::string_view to_string(Method m)
{
    switch (m) {
        case Method::cg:
            return "cg";
        case Method::mpir_cg:
            return "mpir-cg";
    }
    return "unknown";
}

std::string_view to_string(MpirOuter o)
{
    switch (o) {
        case MpirOuter::richardson:
            return "richardson";
        case MpirOuter::pcg:
            return "pcg";
    }
    return "unknown";
}

Csr<double, std::int32_t> permute_columns(const Csr<double, std::int32_t>& a,
                                          std::span<const std::int32_t> perm)
{
    validate_permutation(perm, a.num_cols, "permute_columns");
    std::vector<std::int32_t> inverse(perm.size());
    for (std::size_t l = 0; l < perm.size(); ++l) {
        inverse[static_cast<std::size_t>(perm[l])] = static_cast<std::int32_t>(l);
    }
    Csr<double, std::int32_t> b = a;
    std::vector<std::pair<std::int32_t, double>> row;
    for (std::int32_t i = 0; i < b.num_rows; ++i) {
        row.clear();
        for (auto k = b.row_ptrs[i]; k < b.row_ptrs[i + 1]; ++k) {
            row.emplace_back(inverse[static_cast<std::size_t>(b.col_idxs[k])], b.values[k]);
        }
        std::sort(row.begin(), row.end(),
                  [](const auto& l, const auto& r) { return l.first < r.first; });
        auto k = b.row_ptrs[i];
        for (const auto& [c, v] : row) {
            b.col_idxs[k] = c;
            b.values[k] = v;
            ++k;
        }
    }
    return b;
}

OperatorPlan plan_operator(const Csr<double, std::int32_t>& a, std::string_view format,
                           const FormatParams& params)
{
    SPMV_EXPECTS(a.num_rows == a.num_cols, "the solvers need a square matrix, got " +
                                               std::to_string(a.num_rows) + " x " +
                                               std::to_string(a.num_cols));
    const FormatInfo& info = find_format(format);
    OperatorPlan plan;
    plan.format = std::string(info.name);
    plan.params = resolve_params(format, a, params);  // sigma = auto resolved once, here
    AnyMatrix<double> first = info.build_double(a, plan.params);
    const auto p = row_permutation(first);
    bool identity = true;
    for (std::size_t k = 0; k < p.size(); ++k) {
        identity = identity && p[k] == static_cast<std::int32_t>(k);
    }
    if (identity) {  // row order kept (or nothing to sort): the original basis
        plan.matrix = std::move(first);
        return plan;
    }
    plan.perm.assign(p.begin(), p.end());
    plan.source = permute_columns(a, plan.perm);
    plan.matrix = info.build_double(plan.source, plan.params);
    const auto q = row_permutation(plan.matrix);
    if (std::equal(q.begin(), q.end(), plan.perm.begin(), plan.perm.end())) {
        plan.order = RowOrder::permuted;
        return plan;
    }
    // The format's permutation depends on more than the row lengths: use P A P^T as a plain
    // operator (its own internal permutation is undone by RowOrder::original).
    plan.source = permute_symmetric(a, std::span<const std::int32_t>(plan.perm));
    plan.matrix = info.build_double(plan.source, plan.params);
    plan.order = RowOrder::original;
    plan.symmetric_fallback = true;
    return plan;
}

namespace {

/// A format built for the same plan in another precision must sort its rows as the double one
/// did (the basis of every solver vector).
template <typename V>
AnyMatrix<V> same_basis(AnyMatrix<V> m, const OperatorPlan& plan, const char* what)
{
    if (plan.order == RowOrder::permuted) {
        const auto q = row_permutation(m);
        SPMV_ENSURE_LAYOUT(std::equal(q.begin(), q.end(), plan.perm.begin(), plan.perm.end()),
                           std::string(what) + " " + plan.format +
                               " sorted the rows differently from double precision");
    }
    return m;
}

}  // namespace

AnyMatrix<float> build_float_operator(const OperatorPlan& plan, const Csr<double, std::int32_t>& a)
{
    const auto& src = plan.perm.empty() ? a : plan.source;
    return same_basis(find_format(plan.format).build_float(convert_values<float>(src), plan.params),
                      plan, "single-precision");
}

AnyMatrix<double> build_wide_operator(const OperatorPlan& plan, const Csr<double, std::int32_t>& a)
{
    const auto& src = plan.perm.empty() ? a : plan.source;
    return same_basis(find_format(plan.format)
                          .build_double(convert_values<double>(convert_values<float>(src)),
                                        plan.params),
                      plan, "the float-rounded");
}

std::vector<double> jacobi_inverse_diagonal(const Csr<double, std::int32_t>& a,
                                            std::span<const std::int32_t> perm,
                                            std::string& problem)
{
    const auto n = static_cast<std::size_t>(a.num_rows);
    std::vector<double> diag(n, 0.0);
    for (std::int32_t i = 0; i < a.num_rows; ++i) {
        for (auto k = a.row_ptrs[i]; k < a.row_ptrs[i + 1]; ++k) {
            if (a.col_idxs[k] == i) {
                diag[static_cast<std::size_t>(i)] = a.values[k];
            }
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (!(diag[i] > 0.0) || !std::isfinite(diag[i])) {
            problem = "a_ii = " + detail::sci(diag[i]) + " at row " + std::to_string(i) +
                      (std::isfinite(diag[i]) ? ": A is not positive definite (an SPD matrix "
                                                "has a positive diagonal); Jacobi impossible"
                                              : ": NaN or Inf on the diagonal");
            return {};
        }
    }
    std::vector<double> inv(n);
    for (std::size_t k = 0; k < n; ++k) {
        inv[k] = 1.0 / diag[perm.empty() ? k : static_cast<std::size_t>(perm[k])];
    }
    return inv;
}

std::vector<double> to_basis(std::span<const double> v, std::span<const std::int32_t> perm)
{
    if (perm.empty()) {
        return {v.begin(), v.end()};
    }
    SPMV_EXPECTS(perm.size() == v.size(), "permutation and vector sizes differ");
    std::vector<double> out(v.size());
    for (std::size_t k = 0; k < perm.size(); ++k) {
        out[k] = v[static_cast<std::size_t>(perm[k])];
    }
    return out;
}

void from_basis(std::span<const double> v_basis, std::span<const std::int32_t> perm,
                std::span<double> out)
{
    SPMV_EXPECTS(v_basis.size() == out.size(), "vector sizes differ");
    if (perm.empty()) {
        std::copy(v_basis.begin(), v_basis.end(), out.begin());
        return;
    }
    SPMV_EXPECTS(perm.size() == v_basis.size(), "permutation and vector sizes differ");
    for (std::size_t k = 0; k < perm.size(); ++k) {
        out[static_cast<std::size_t>(perm[k])] = v_basis[k];
    }
}

double relative_residual(const Csr<double, std::int32_t>& a, std::span<const double> b,
                         std::span<const double> x)
{
    std::vector<double> r(b.begin(), b.end());
    spmv_reference(a, -1.0, x, 1.0, std::span<double>(r));
    double rr = 0.0;
    double bb = 0.0;
    for (std::size_t i = 0; i < r.size(); ++i) {
        rr += r[i] * r[i];
        bb += b[i] * b[i];
    }
    return bb > 0.0 ? std::sqrt(rr / bb) : std::sqrt(rr);
}

void check_final_residual(SolveResult& res, const Csr<double, std::int32_t>& a,
                          std::span<const double> b, std::span<const double> x, double tol)
{
    const double solver_view = res.final_relative_residual;
    res.final_relative_residual = relative_residual(a, b, x);
    if (res.status == Status::converged && !(res.final_relative_residual <= 2.0 * tol)) {
        res.status =
            std::isfinite(res.final_relative_residual) ? Status::stagnated : Status::breakdown_nan;
        res.message = "the solver's residual " + detail::sci(solver_view) +
                      " met the tolerance but b - A x recomputed in double is " +
                      detail::sci(res.final_relative_residual);
    }
}

namespace {

double ms_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

SolveResult solve_host(const Csr<double, std::int32_t>& a, std::span<const double> b,
                       std::span<double> x, Method method, std::string_view format,
                       const FormatParams& params, const SolveOptions& options)
{
    SPMV_EXPECTS(a.num_rows == a.num_cols, "the solvers need a square matrix");
    check_spmv_dims(a.num_rows, a.num_cols, x.size(), b.size());
    SPMV_EXPECTS(options.tol >= 0.0, "tol must be >= 0");
    SPMV_EXPECTS(options.max_iterations >= 0, "max_iterations must be >= 0");
    const auto t_setup = std::chrono::steady_clock::now();
    OperatorPlan plan = plan_operator(a, format, params);
    SolveResult res;
    std::vector<double> inv_diag;
    if (options.jacobi) {
        std::string problem;
        inv_diag = jacobi_inverse_diagonal(a, plan.perm, problem);
        if (inv_diag.empty()) {
            res.status = problem.find("NaN") != std::string::npos ? Status::breakdown_nan
                                                                  : Status::breakdown_indefinite;
            res.message = problem;
        }
    }
    HostBackend<double> outer(plan.matrix, plan.order);
    const bool as_written = method == Method::mpir_cg && options.mpir_outer == MpirOuter::pcg;
    std::optional<AnyMatrix<float>> matrix_float;
    std::optional<AnyMatrix<double>> matrix_wide;  // inner double sums (InnerOptions)
    std::optional<HostBackend<float>> inner;
    if (res.message.empty()) {
        if (options.jacobi) {
            outer.set_jacobi(inv_diag);
        }
        if (method == Method::mpir_cg) {
            matrix_float.emplace(build_float_operator(plan, a));
            inner.emplace(*matrix_float, plan.order);
            // Cevahir as written (MpirOuter::pcg): the inner CG in float throughout, float SpMV
            // sums and float reductions; the project's refinement keeps its double sums.
            inner->set_float_reductions(as_written);
            if (options.inner.double_sums && !as_written) {
                matrix_wide.emplace(build_wide_operator(plan, a));
                inner->set_double_sums(*matrix_wide);
            }
            if (options.jacobi) {
                inner->set_jacobi(std::vector<float>(inv_diag.begin(), inv_diag.end()));
            }
        }
    }
    const double setup_ms = ms_since(t_setup);

    const auto t_solve = std::chrono::steady_clock::now();
    if (res.message.empty()) {
        auto bb = to_basis(b, plan.perm);
        auto xb = to_basis(x, plan.perm);
        res = method == Method::cg ? cg(outer, bb, xb, options)
                                   : mpir_cg(outer, *inner, bb, xb, options);
        from_basis(xb, plan.perm, x);
    }
    res.total_ms = ms_since(t_solve);
    res.setup_ms = setup_ms;
    res.times = outer.times();
    if (inner) {
        res.times += inner->times();
    }
    res.phase_times = true;  // std::chrono at the phase boundaries, whatever options say
    res.format = plan.format;
    res.permuted_basis = !plan.perm.empty();
    res.inner_double_sums = matrix_wide.has_value();
    res.inner_float_reductions = inner.has_value() && inner->float_reductions();
    res.where = method == Method::mpir_cg ? "host reference (inner CG in float on the host)"
                                          : "host reference";
    check_final_residual(res, a, b, x, options.tol);
    return res;
}

}  // namespace spmv::solvers
