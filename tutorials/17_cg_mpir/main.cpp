// Lesson 17: mixed-precision CG, two ways. The project's own MPIR-CG refines (x += the float
// inner solution, r = b - A x in double); Cevahir et al. 2009 §2.2 run a preconditioned CG in
// double whose preconditioner z = M^-1 r is a CG of a predetermined number k of iterations in
// float throughout (float SpMV sums, float dot products). k float CG iterations are not a fixed
// linear operator, so the outer CG must be the flexible one of Golub & Ye (Cevahir's ref. [9]):
// beta = z_new.(r_new - r_old) / r_old.z_old; the lesson compares it with plain PCG's beta.
// All on the host, with the same generic solver templates the GPU runs (spmv/solvers/cg.hpp);
// iteration counts are exact, times (with --times) are the host's. Part 3 reads the committed
// GPU records of the same solvers (docs/benchmarks/h200_2026-11-28/solve, NVIDIA H200).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <spmv/generators.hpp>
#include <spmv/solvers/cg.hpp>
#include <spmv/solvers/host_backend.hpp>
#include <spmv/solvers/solve.hpp>

#include "lesson.hpp"
#include "records.hpp"

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

/// The fields the lesson reads from one record of `spmvlab solve --gpu --repeat 3 --json`.
struct SolveRecord {
    std::string matrix, variant, status, mpir_outer, device, commit;
    std::int64_t rows = 0;
    int iterations = 0, outer = 0, inner = 0;  ///< CG's; MPIR-CG's outer steps, float ones
    double median_ms = NAN;                    ///< median of the 3 solves, setup excluded
    double residual = NAN;                     ///< true ||b - A x|| / ||b||, in double
    bool converged = false, float_reductions = false, double_sums = false;
};

/// docs/benchmarks/h200_2026-11-28/solve of the source tree (next to h100_records_dir()).
std::filesystem::path solve_records_dir()
{
    return tutorial::h100_records_dir().parent_path() / "h200_2026-11-28" / "solve";
}

/// Reads solve_records_dir() / (name + ".json"), e.g. "pcg200_pde100". Throws
/// std::runtime_error when the file is missing or is not a solve record.
SolveRecord read_solve_record(const std::string& name)
{
    const auto path = solve_records_dir() / (name + ".json");
    std::ifstream file(path, std::ios::binary);
    if (!file) throw std::runtime_error("cannot read " + path.string());
    std::ostringstream text;
    text << file.rdbuf();
    tutorial::detail::JsonCursor in(text.str());
    const auto boolean = [&in] {
        const bool yes = in.peek() == 't';
        in.skip_value();
        return yes;
    };
    SolveRecord r;
    in.expect('{');
    do {
        const auto key = in.string();
        in.expect(':');
        if (key == "matrix")
            r.matrix = in.string();
        else if (key == "variant")
            r.variant = in.string();
        else if (key == "status")
            r.status = in.string();
        else if (key == "mpir_outer")
            r.mpir_outer = in.string();
        else if (key == "device")
            r.device = in.string();
        else if (key == "rows")
            r.rows = static_cast<std::int64_t>(in.number());
        else if (key == "iterations")
            r.iterations = static_cast<int>(in.number());
        else if (key == "outer_iterations")
            r.outer = static_cast<int>(in.number());
        else if (key == "inner_iterations")
            r.inner = static_cast<int>(in.number());
        else if (key == "median_total_ms")
            r.median_ms = in.number();
        else if (key == "final_relative_residual")
            r.residual = in.number();
        else if (key == "converged")
            r.converged = boolean();
        else if (key == "inner_float_reductions")
            r.float_reductions = boolean();
        else if (key == "inner_double_sums")
            r.double_sums = boolean();
        else if (key == "meta") {  // {"commit": ..., "gpu": {...}, ...}
            in.expect('{');
            do {
                const auto meta_key = in.string();
                in.expect(':');
                if (meta_key == "commit")
                    r.commit = in.string();
                else
                    in.skip_value();
            } while (in.take(','));
            in.expect('}');
        } else
            in.skip_value();
    } while (in.take(','));
    if (r.status.empty() || std::isnan(r.median_ms) || std::isnan(r.residual) || r.rows <= 0)
        throw std::runtime_error(path.string() + ": not a record of spmvlab solve --json");
    return r;
}

/// "9.57 (480)" for CG, "19.51 (5/735)" for MPIR-CG
std::string ms_and_count(const SolveRecord& r)
{
    char text[48];
    if (r.mpir_outer.empty())
        std::snprintf(text, sizeof text, "%.2f (%d)", r.median_ms, r.iterations);
    else
        std::snprintf(text, sizeof text, "%.2f (%d/%d)", r.median_ms, r.outer, r.inner);
    return text;
}

/// time / CG's = (float iterations / CG's iterations) x (time per float iteration / per CG's)
std::string ratio_split(const SolveRecord& r, const SolveRecord& cg)
{
    const double it = static_cast<double>(r.inner) / cg.iterations;
    const double cost = (r.median_ms / r.inner) / (cg.median_ms / cg.iterations);
    char text[48];
    std::snprintf(text, sizeof text, "%.2fx = %.2f x %.2f", r.median_ms / cg.median_ms, it, cost);
    return text;
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

    // 3. The same solvers on a GPU, from the committed records of spmvlab solve --gpu --json.
    // [section: records]
    struct GpuRecords {
        SolveRecord cg, refine;            // cg_<m>.json, rich_<m>.json (defaults)
        std::vector<int> ks;               // the K measured: pcg<K>_<m>.json
        std::vector<SolveRecord> cevahir;  // --outer pcg --inner-maxit K --max-outer 1000
    };
    const std::vector<std::string> names{"nos5",     "494_bus", "662_bus", "gr_30_30",
                                         "bcsstk04", "pde100",  "pde150"};
    std::vector<GpuRecords> gpu;
    for (const auto& m : names) {
        GpuRecords g{read_solve_record("cg_" + m), read_solve_record("rich_" + m), {}, {}};
        for (const int k : {25, 50, 100, 150, 200}) {
            const std::string name = "pcg" + std::to_string(k) + "_" + m;
            if (!std::filesystem::exists(solve_records_dir() / (name + ".json"))) continue;
            g.ks.push_back(k);
            g.cevahir.push_back(read_solve_record(name));
        }
        gpu.push_back(std::move(g));
    }
    // [section: end]
    const SolveRecord& first = gpu.front().cg;
    std::printf(
        "\n3. On a GPU: docs/benchmarks/h200_2026-11-28/solve (%s, commit %s),\n"
        "   b = ones, tol 1e-10; median ms of 3 solves (iterations: CG's; outer/inner)\n",
        first.device.c_str(), first.commit.c_str());
    std::printf("  %-9s %7s  %-12s  %-15s  %-19s  %3s  %-17s  %s\n", "matrix", "N", "CG",
                "refinement", "/ CG = it x cost", "K", "best pcg", "/ CG = it x cost");
    int records = 0, cevahir_records = 0, converged = 0, below_cg = 0;
    bool one_batch = true, cevahir_float = true, refine_double = true, slower_everywhere = true;
    bool refine_beats_only_pde150 = true, accurate = true, more_float_iterations = true;
    double best_min = 1e300, best_max = 0.0, res_min = 1.0, res_max = 0.0;
    for (std::size_t i = 0; i < gpu.size(); ++i) {
        const auto& g = gpu[i];
        const SolveRecord* best = nullptr;
        int best_k = 0;
        for (std::size_t j = 0; j < g.cevahir.size(); ++j) {
            const auto& p = g.cevahir[j];
            if (p.converged && (best == nullptr || p.median_ms < best->median_ms))
                best = &p, best_k = g.ks[j];
        }
        if (best == nullptr) throw std::runtime_error(names[i] + ": no pcg record converged");
        std::printf("  %-9s %7lld  %-12s  %-15s  %-19s  %3d  %-17s  %s\n", names[i].c_str(),
                    static_cast<long long>(g.cg.rows), ms_and_count(g.cg).c_str(),
                    ms_and_count(g.refine).c_str(), ratio_split(g.refine, g.cg).c_str(), best_k,
                    ms_and_count(*best).c_str(), ratio_split(*best, g.cg).c_str());
        const double best_ratio = best->median_ms / g.cg.median_ms;
        best_min = std::min(best_min, best_ratio);
        best_max = std::max(best_max, best_ratio);
        const bool refine_faster = g.refine.median_ms < g.cg.median_ms;
        refine_beats_only_pde150 =
            refine_beats_only_pde150 && refine_faster == (names[i] == "pde150");
        refine_double =
            refine_double && g.refine.mpir_outer == "richardson" && g.refine.double_sums;
        accurate = accurate && g.cg.converged && g.cg.residual <= 1e-10;
        std::vector<const SolveRecord*> all{&g.cg, &g.refine};
        for (const auto& p : g.cevahir) {
            all.push_back(&p);
            ++cevahir_records;
            cevahir_float =
                cevahir_float && p.mpir_outer == "pcg" && p.float_reductions && !p.double_sums;
            slower_everywhere = slower_everywhere && (!p.converged || p.median_ms > g.cg.median_ms);
        }
        for (const auto* r : all) {
            ++records;
            one_batch = one_batch && r->device == first.device && r->commit == first.commit;
            if (r == &g.cg) continue;
            more_float_iterations = more_float_iterations && r->inner > g.cg.iterations;
            if (!r->converged) {  // only the iteration limit may stop a solve
                accurate = accurate && r->status == "max_iterations";
                continue;
            }
            ++converged;
            accurate = accurate && r->residual <= 1e-10;
            below_cg += r->residual < g.cg.residual ? 1 : 0;
            res_min = std::min(res_min, r->residual);
            res_max = std::max(res_max, r->residual);
        }
    }
    std::printf(
        "  (K: the best pcg's inner iterations; it: float iterations / CG's iterations;\n"
        "   cost: ms per float iteration / ms per CG iteration)\n"
        "  Cevahir as written by K, ms (outer/inner; no conv: iteration limit; -: not run):\n");
    const auto put = [](std::string line) {  // without trailing blanks
        line.erase(line.find_last_not_of(' ') + 1);
        std::printf("%s\n", line.c_str());
    };
    char cell[64];
    std::string line = "  matrix   ";
    for (const int k : {25, 50, 100, 150, 200}) {
        std::snprintf(cell, sizeof cell, " %7s %-9s", ("K=" + std::to_string(k)).c_str(), "");
        line += cell;
    }
    put(line);
    for (std::size_t i = 0; i < gpu.size(); ++i) {
        line = "  " + names[i] + std::string(9 - names[i].size(), ' ');
        for (const int k : {25, 50, 100, 150, 200}) {
            const auto at = std::find(gpu[i].ks.begin(), gpu[i].ks.end(), k);
            if (at == gpu[i].ks.end()) {
                std::snprintf(cell, sizeof cell, " %7s %-9s", "-", "");
            } else {
                const auto& p = gpu[i].cevahir[static_cast<std::size_t>(at - gpu[i].ks.begin())];
                const std::string count = std::to_string(p.outer) + "/" + std::to_string(p.inner);
                if (p.converged)
                    std::snprintf(cell, sizeof cell, " %7.2f %-9s", p.median_ms, count.c_str());
                else
                    std::snprintf(cell, sizeof cell, " %7s %-9s", "no conv", count.c_str());
            }
            line += cell;
        }
        put(line);
    }
    const int mpir_records = records - static_cast<int>(gpu.size());
    std::printf(
        "  MPIR-CG records: %d converged of %d, final ||b - A x|| / ||b|| %.2e .. %.2e, "
        "below CG's on %d\n",
        converged, mpir_records, res_min, res_max, below_cg);
    std::printf("  Cevahir as written, best K: %.2f .. %.2fx of CG's time\n", best_min, best_max);
    const std::string n_matrices = std::to_string(gpu.size());
    check.expect(one_batch, "GPU: all " + std::to_string(records) +
                                " records from one batch (one device, one commit)");
    check.expect(cevahir_float, "GPU: every Cevahir record (" + std::to_string(cevahir_records) +
                                    ") ran its inner CG in float throughout");
    check.expect(refine_double, "GPU: every refinement record added its inner SpMV sums in double");
    check.expect(slower_everywhere, "GPU: Cevahir as written is slower than double CG on all " +
                                        n_matrices + " matrices, at every K");
    check.expect(refine_beats_only_pde150,
                 "GPU: the refinement (ours) beats double CG on pde150, and only there");
    check.expect(more_float_iterations,
                 "GPU: every MPIR-CG solve needs more float iterations than CG's double ones");
    check.expect(accurate,
                 "GPU: every solve that converged ends at ||b - A x|| / ||b|| <= 1e-10 "
                 "(CG's too); the " +
                     std::to_string(mpir_records - converged) +
                     " others stopped at the iteration limit");
    return check.finish();
}
