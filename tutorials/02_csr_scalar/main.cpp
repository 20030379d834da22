// Lesson 02: CSR and the "CSR scalar" kernel, one (virtual) GPU thread per row.
// CSR keeps the triplets of lesson 01 sorted by row and replaces the row indices by N+1 row
// pointers. Thread i then owns row i. On a power-law matrix the rows of one warp differ wildly
// in length, and the warp runs as long as its longest row: N_iter counts that cost.
// The exercise is the two functions this program calls, csr_scalar_spmv and warp_iterations
// (exercise.hpp): solution.cpp holds them as the lesson runs them, exercise.cpp as TODOs.
#include <cstdio>
#include <span>
#include <vector>

#include <spmv/analysis/warps.hpp>
#include <spmv/formats/csr.hpp>

#include "exercise.hpp"
#include "lesson.hpp"

namespace {

void print_array(const char* name, const std::vector<std::int32_t>& v)
{
    std::printf("  %s = [", name);
    for (std::size_t i = 0; i < v.size(); ++i) std::printf(i ? " %d" : "%d", v[i]);
    std::printf("]\n");
}

}  // namespace

int main()
{
    tutorial::SelfCheck check;

    // The canonical 4x4 A = [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9] in CSR.
    const auto a = tutorial::read_sample("canonical4.mtx");
    std::printf("canonical 4x4 in CSR (row i = entries row_ptrs[i] .. row_ptrs[i+1]-1):\n");
    print_array("row_ptrs", a.row_ptrs);
    print_array("col_idxs", a.col_idxs);
    std::printf("  values   = [");
    for (std::size_t k = 0; k < a.values.size(); ++k) std::printf(k ? " %g" : "%g", a.values[k]);
    std::printf("]\n");

    const std::vector<double> x = {1, 2, 3, 4};
    const auto y = csr_scalar_spmv(a, x);
    std::printf("  A x = (%g, %g, %g, %g)\n", y[0], y[1], y[2], y[3]);
    check.expect(y == std::vector<double>{19, 8, 51, 52}, "CSR scalar gives A x = (19, 8, 51, 52)");

    // [section: thread-work]
    // What each thread of the kernel does, in launch order: loop trips = its row length.
    const auto work = spmv::thread_work(a);
    // [section: end]
    std::printf("  loop trips per thread: %lld %lld %lld %lld (the row lengths)\n\n",
                static_cast<long long>(work.iterations[0]),
                static_cast<long long>(work.iterations[1]),
                static_cast<long long>(work.iterations[2]),
                static_cast<long long>(work.iterations[3]));

    // A power-law matrix: most rows hold 1-3 entries, a few hold hundreds.
    const auto p = tutorial::read_sample("powerlaw_2k.mtx");
    std::vector<double> xp(p.num_cols);
    for (std::size_t j = 0; j < xp.size(); ++j) xp[j] = 1.0 + static_cast<double>(j % 7);
    std::vector<double> yp(p.num_rows);
    spmv::spmv_reference(p, 1.0, std::span<const double>(xp), 0.0, std::span<double>(yp));
    check.expect(csr_scalar_spmv(p, xp) == yp, "CSR scalar == spmv_reference on powerlaw_2k");

    // [section: warps]
    const auto lengths = spmv::row_lengths(p);
    const std::int64_t n_iter = warp_iterations(lengths, 32);
    const auto warps = spmv::analysis::analyze_warps(spmv::thread_work(p), 32);
    // [section: end]
    std::printf("powerlaw_2k: %d rows, %lld nonzeros, %zu warps of 32 threads\n", p.num_rows,
                static_cast<long long>(spmv::nnz(p)), warps.warps.size());
    std::printf("  warp  rows   longest row  nonzeros  lane slots doing useful work\n");
    for (std::size_t w = 0; w < warps.warps.size(); ++w) {
        const auto& s = warps.warps[w];
        if (w < 6 || s.max_iterations >= 200) {
            std::printf("  %4zu  %4lld-%-4lld %8lld %10lld %12.1f %%\n", w,
                        static_cast<long long>(s.first_thread),
                        static_cast<long long>(s.first_thread + s.threads - 1),
                        static_cast<long long>(s.max_iterations),
                        static_cast<long long>(s.useful), 100.0 * s.useful_fraction);
        }
    }
    std::printf("  (only warps 0-5 and those with a row of 200+ entries shown)\n");
    std::printf("  N_iter = %lld loop trips; a perfect split of %lld nonzeros over 32 lanes: "
                "%lld\n",
                static_cast<long long>(n_iter), static_cast<long long>(spmv::nnz(p)),
                static_cast<long long>((spmv::nnz(p) + 31) / 32));
    std::printf("  useful lane slots: %.1f %%\n", 100.0 * warps.useful_fraction);

    check.expect(work.iterations == std::vector<std::int64_t>{3, 1, 3, 2},
                 "thread_work: thread i loops over row i's 3, 1, 3, 2 entries");
    check.expect(n_iter == warps.n_iter, "warp_iterations == analyze_warps(...).n_iter");
    check.expect(warps.useful == spmv::nnz(p), "the lanes do exactly nnz useful trips");
    check.expect(n_iter * 32 > 4 * spmv::nnz(p),
                 "one thread per row wastes most lane slots on this matrix (< 25 % useful)");
    return check.finish();
}
