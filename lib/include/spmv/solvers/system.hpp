#pragma once
/// Setting up the operator of a solve in any storage format, shared by the host and GPU
/// drivers: the permuted basis of sorted formats, the Jacobi diagonal, b in and x out.
///
/// A permuted format (JDS, pJDS, PELLR, BiJAD, SELL-C-sigma with sigma > 1, ...) returns its
/// SpMV result in the permuted basis: y[k] = (A x)[perm[k]] (Kreutzer §II.A). "For most
/// iterative spMVM algorithms such as Krylov subspace methods, permutation of the indices needs
/// to be done only before the start and after the end of the algorithm, while the complete
/// iterative scheme works on the permuted elements" (Kreutzer §II.A). We get there like this:
///   1. build the format from A once, to learn its row permutation perm;
///   2. build it again from A P^T (columns renumbered: (A P^T)(i, l) = A(i, perm[l])). The rows
///      keep their lengths, so the format sorts them into the same perm (checked);
///   3. its SpMV with RowOrder::permuted then computes
///      y[k] = sum_l A(perm[k], perm[l]) x'[l] = (P A P^T x')[k]:
///      the operator P A P^T, which is SPD when A is, so CG runs on it unchanged;
///   4. b' = P b (b'[k] = b[perm[k]]) once before the solve, x = P^T x' (x[perm[k]] = x'[k])
///      once after it.
/// Should a format's permutation depend on more than row lengths (step 2's check fails), the
/// plan falls back to building the format from P A P^T and calling it with RowOrder::original.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <spmv/any_matrix.hpp>
#include <spmv/formats/csr.hpp>
#include <spmv/registry.hpp>
#include <spmv/solvers/solve.hpp>

namespace spmv::solvers {

struct OperatorPlan {
    std::string format;
    FormatParams params;
    /// Basis permutation: solver vector entry k is entry perm[k] of the original vectors.
    /// Empty when the format keeps the row order (the solver works in the original basis).
    std::vector<std::int32_t> perm;
    RowOrder order = RowOrder::original;  ///< RowOrder to pass to the format's SpMV
    /// The CSR the format was built from when perm is not empty (A P^T, or P A P^T in the
    /// fallback); empty otherwise (then the format was built from A itself).
    Csr<double, std::int32_t> source;
    bool symmetric_fallback = false;  ///< built from P A P^T (see the header comment)
    AnyMatrix<double> matrix;         ///< the format, in double
};

/// Builds `format` for a solve with the square matrix `a` (see the header comment).
/// Throws InvalidArgument for an unknown format or a non-square matrix.
OperatorPlan plan_operator(const Csr<double, std::int32_t>& a, std::string_view format,
                           const FormatParams& params = {});

/// The same operator in single precision (MPIR-CG's inner solve), same basis and RowOrder.
AnyMatrix<float> build_float_operator(const OperatorPlan& plan, const Csr<double, std::int32_t>& a);

/// build_float_operator's matrix with its (float-rounded) values held in double, same layout,
/// basis and RowOrder: the host's reference for float SpMV with double sums
/// (HostBackend<float>::set_double_sums, InnerOptions::double_sums).
AnyMatrix<double> build_wide_operator(const OperatorPlan& plan,
                                      const Csr<double, std::int32_t>& a);

/// (A P^T): column l of the result is column perm[l] of A; rows keep their order and lengths.
Csr<double, std::int32_t> permute_columns(const Csr<double, std::int32_t>& a,
                                          std::span<const std::int32_t> perm);

/// 1 / a_ii in the solver's basis (entry k is row perm[k]; identity when perm is empty).
/// A positive definite matrix has a_ii > 0; when some a_ii is missing, <= 0 or not finite,
/// returns an empty vector and describes the first such row in `problem`.
std::vector<double> jacobi_inverse_diagonal(const Csr<double, std::int32_t>& a,
                                            std::span<const std::int32_t> perm,
                                            std::string& problem);

/// v' = P v: out[k] = v[perm[k]] (a copy when perm is empty).
std::vector<double> to_basis(std::span<const double> v, std::span<const std::int32_t> perm);

/// v = P^T v': out[perm[k]] = v'[k] (a copy when perm is empty).
void from_basis(std::span<const double> v_basis, std::span<const std::int32_t> perm,
                std::span<double> out);

/// Sets res.final_relative_residual to ||b - A x|| / ||b|| recomputed in double from the
/// original CSR matrix (independent of the format, the basis and the device). A solve that
/// claimed convergence but misses 2 * tol by this measure becomes `stagnated` (or
/// breakdown_nan), with the two numbers in the message: convergence is never taken on trust.
void check_final_residual(SolveResult& res, const Csr<double, std::int32_t>& a,
                          std::span<const double> b, std::span<const double> x, double tol);

}  // namespace spmv::solvers
