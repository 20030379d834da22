// Lesson 17: mixed-precision CG, two ways. The project's own MPIR-CG refines (x += the float
// inner solution, r = b - A x in double); Cevahir et al. 2009 §2.2 run a preconditioned CG in
// double whose preconditioner z = M^-1 r is a CG of a predetermined number k of iterations in
// float throughout (float SpMV sums, float dot products). k float CG iterations are not a fixed
// linear operator, so the outer CG must be the flexible one of Golub & Ye (Cevahir's ref. [9]):
// beta = z_new.(r_new - r_old) / r_old.z_old; the lesson compares it with plain PCG's beta.
// All on the host, with the same generic solver templates the GPU runs (spmv/solvers/cg.hpp);
// iteration counts are exact, times (with --times) are the host's.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <spmv/generators.hpp>
#include <spmv/solvers/cg.hpp>
#include <spmv/solvers/host_backend.hpp>
#include <spmv/solvers/solve.hpp>

#include "lesson.hpp"

namespace {

using namespace spmv::solvers;
using Matrix = spmv::Csr<double, std::int32_t>;

double norm(const std::vector<float>& v)
{
    double s = 0.0;
    for (float e : v) s += static_cast<double>(e) * e;
    return std::sqrt(s);
}

/// ||u - v|| / ||v||
double rel_gap(const std::vector<float>& u, const std::vector<float>& v)
{
    std::vector<float> d(u.size());
    for (std::size_t i = 0; i < u.size(); ++i) d[i] = u[i] - v[i];
    return norm(d) / norm(v);
}

double rel_gap(const std::vector<double>& u, const std::vector<double>& v)
{
    double d = 0.0, n = 0.0;
    for (std::size_t i = 0; i < u.size(); ++i) {
        d += (u[i] - v[i]) * (u[i] - v[i]);
        n += v[i] * v[i];
    }
    return std::sqrt(d / n);
}

struct Run {
    SolveResult r;
    std::vector<double> x;
    double ms = 0.0;  ///< wall clock of solve_host, setup included
};

Run solve(const Matrix& a, Method method, const SolveOptions& opt)
{
    Run run;
    const std::vector<double> b(static_cast<std::size_t>(a.num_rows), 1.0);
    run.x.assign(b.size(), 0.0);
    const auto t0 = std::chrono::steady_clock::now();
    run.r = solve_host(a, b, run.x, method, "csr", {}, opt);
    run.ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return run;
}

/// One table row; `plain` (Cevahir rows only): the same solve with plain PCG's beta.
void print(const char* name, const Run& run, bool times, const Run* plain = nullptr)
{
    const auto& r = run.r;
    const bool mpir = !r.inner_iteration_counts.empty();
    std::printf("  %-24s %-10s %6d %6d %10.1e", name, std::string(to_string(r.status)).c_str(),
                mpir ? r.outer_iterations : r.iterations, mpir ? r.inner_iterations : 0,
                r.final_relative_residual);
    if (plain != nullptr) {
        const bool ok = plain->r.status == Status::converged;
        std::printf("   %6d%s", plain->r.outer_iterations, ok ? "" : "*");
    } else {
        std::printf("   %6s", "-");
    }
    if (times) std::printf(" %9.1f", run.ms);
    std::printf("\n");
}

}  // namespace

int main(int argc, char** argv)
{
    const bool times = argc > 1 && std::string(argv[1]) == "--times";
    tutorial::SelfCheck check;

    // 1. The preconditioner of Cevahir's MPIR-CG: k float CG iterations from z = 0 on A z = r.
    std::printf("M(r) = k float CG iterations on A z = r from z = 0, A = pde(10) (N = 1000):\n");
    std::printf("  %4s  %-26s  %s\n", "k", "|M(u+v) - M(u) - M(v)|/|M|", "|M(3u) - 3 M(u)|/|M|");
    const Matrix small = spmv::gen::pde(10);
    const spmv::AnyMatrix<float> small_f = spmv::convert_values<float>(small);
    HostBackend<float> fbe(small_f);
    std::vector<float> u(1000), v(1000, 1.0f), w(1000), u3(1000);
    for (std::size_t i = 0; i < u.size(); ++i) {
        u[i] = static_cast<float>(std::sin(0.1 * static_cast<double>(i)));
        w[i] = u[i] + v[i];
        u3[i] = 3.0f * u[i];
    }
    double additive_gap_k4 = 0.0, additive_gap_kmax = 0.0, scale_gap_max = 0.0;
    for (const int k : {1, 4, 16, 64, 200}) {
        // [section: not-linear]
        SolveOptions fixed;            // the inner solve of Cevahir's MPIR-CG:
        fixed.max_iterations = k;      //   exactly k iterations
        fixed.tol = 0.0;               //   (no stopping test)
        fixed.start_from_zero = true;  //   from z = 0
        fixed.verify_residual = false;
        auto m = [&](const std::vector<float>& r) {
            std::vector<float> z(r.size());
            cg(fbe, r, z, fixed);
            return z;
        };
        const auto mw = m(w), mu = m(u), mv = m(v), mu3 = m(u3);
        // [section: end]
        std::vector<float> sum(mu.size()), three(mu.size());
        for (std::size_t i = 0; i < mu.size(); ++i) {
            sum[i] = mu[i] + mv[i];
            three[i] = 3.0f * mu[i];
        }
        const double additive = rel_gap(sum, mw), scale = rel_gap(three, mu3);
        std::printf("  %4d  %-26.1e  %.1e\n", k, additive, scale);
        additive_gap_k4 = k == 4 ? additive : additive_gap_k4;
        additive_gap_kmax = additive;
        scale_gap_max = std::max(scale_gap_max, scale);
    }
    check.expect(additive_gap_k4 > 1e-2,
                 "k = 4: M(u + v) differs from M(u) + M(v) by more than 1 %: M is not linear");
    check.expect(scale_gap_max < 1e-6, "M(3u) = 3 M(u) to float rounding: CG is scale invariant");
    check.expect(additive_gap_kmax < 1e-4,
                 "k = 200: M = A^-1 to float accuracy, linear again to 1e-4");

    // 2. CG, the project's refinement, Cevahir's MPIR-CG, on pde(k) with b = ones, tol 1e-10.
    bool all_converged = true, all_agree = true, k1_is_cg = true, few_outer = true;
    bool float_throughout = true;
    int plain_worse = 0, plain_better = 0, plain_failed = 0;
    for (const int size : {20, 40}) {
        const Matrix a = spmv::gen::pde(size);
        std::printf("\npde%d: N = %d, nnz = %zu; b = ones, tol 1e-10\n", size, a.num_rows,
                    a.values.size());
        std::printf("  %-24s %-10s %6s %6s %10s   %6s%s\n", "method", "status", "outer", "inner",
                    "residual", "plain", times ? "   host ms" : "");
        // [section: methods]
        SolveOptions cg_opt;                  // CG in double
        SolveOptions refine;                  // MPIR-CG, the project's refinement (default):
        refine.inner.reduction = 1e-2;        //   each inner CG gains 1e-2, then x += d
        SolveOptions cevahir;                 // MPIR-CG as Cevahir 2.2 writes it:
        cevahir.mpir_outer = MpirOuter::pcg;  //   flexible PCG in double, preconditioned by
        cevahir.inner.max_iterations = 64;    //   k = 64 CG iterations from z = 0, in float
        cevahir.max_outer_iterations = 1000;  //   throughout (k = 1 needs as many as CG)
        SolveOptions plain = cevahir;         // the same with plain PCG's beta, which
        plain.pcg_beta = PcgBeta::plain;      //   assumes a fixed M (for comparison only)
        // [section: end]
        const Run cg_run = solve(a, Method::cg, cg_opt);
        const Run refine_run = solve(a, Method::mpir_cg, refine);
        print("CG (double)", cg_run, times);
        print("refinement, R = 1e-2", refine_run, times);
        std::vector<Run> runs{refine_run};
        for (const int k : {1, 4, 16, 64, 256}) {
            cevahir.inner.max_iterations = k;
            plain.inner.max_iterations = k;
            runs.push_back(solve(a, Method::mpir_cg, cevahir));
            const Run plain_run = solve(a, Method::mpir_cg, plain);
            print(("Cevahir PCG, k = " + std::to_string(k)).c_str(), runs.back(), times,
                  &plain_run);
            float_throughout = float_throughout && runs.back().r.inner_float_reductions &&
                               !runs.back().r.inner_double_sums;
            const int flex_outer = runs.back().r.outer_iterations;
            if (plain_run.r.status != Status::converged) {
                ++plain_failed;
            } else if (plain_run.r.outer_iterations > flex_outer) {
                ++plain_worse;
            } else if (plain_run.r.outer_iterations < flex_outer) {
                ++plain_better;
            }
            if (k == 1) {
                const int outer = runs.back().r.outer_iterations;
                k1_is_cg = k1_is_cg && 4 * outer <= 5 * cg_run.r.iterations &&
                           outer >= cg_run.r.iterations - 2;
            }
            if (k == 256) few_outer = few_outer && runs.back().r.outer_iterations <= 3;
        }
        all_converged = all_converged && cg_run.r.status == Status::converged;
        for (const auto& run : runs) {
            all_converged = all_converged && run.r.status == Status::converged &&
                            run.r.final_relative_residual <= 1e-10;
            all_agree = all_agree && rel_gap(run.x, cg_run.x) < 1e-8;
        }
    }
    std::printf(
        "  (outer: CG's iterations, refinement steps or outer PCG iterations, in double;\n"
        "   inner: float CG iterations in all; plain: outer iterations of the same solve with\n"
        "   plain PCG's beta r_new.z_new / r_old.z_old, * = did not converge)\n");
    std::printf("  plain beta against the flexible one, 10 solves: %d need more outer iterations, "
                "%d fewer, %d did not converge\n",
                plain_worse, plain_better, plain_failed);
    check.expect(all_converged, "every solve converged to ||b - A x|| / ||b|| <= 1e-10");
    check.expect(all_agree, "every mixed-precision x agrees with CG's to 1e-8");
    check.expect(k1_is_cg, "k = 1: z is a multiple of r, the outer PCG is CG (within 25 %)");
    check.expect(few_outer, "k = 256: M close to A^-1, at most 3 outer iterations");
    check.expect(float_throughout,
                 "Cevahir's inner CG ran in float throughout (float sums and reductions)");
    return check.finish();
}
