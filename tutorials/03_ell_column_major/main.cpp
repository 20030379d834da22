// Lesson 03: ELLPACK, column-major.
// Shift every row's entries to the left, pad all rows to the longest one, and store the
// rectangle column by column. Thread i still owns row i, but in loop trip j the 32 threads of
// a warp now read 32 neighbouring slots: the loads coalesce. The price is the padding.
#include <cstdio>
#include <set>
#include <span>
#include <vector>

#include <spmv/analysis/summary.hpp>
#include <spmv/formats/csr.hpp>
#include <spmv/formats/ell.hpp>

#include "lesson.hpp"

namespace {

// [section: ell-kernel]
// Thread i, trip j reads slot j * stride + i. Padding slots hold value 0 and column -1; a GPU
// multiplies them with any valid x entry, the host skips the load.
std::vector<double> ell_spmv(const spmv::Ell<double, std::int32_t>& e, const std::vector<double>& x)
{
    std::vector<double> y(e.num_rows, 0.0);
    for (std::int32_t i = 0; i < e.num_rows; ++i) {  // one thread per row
        for (std::int32_t j = 0; j < e.width; ++j) {  // every thread runs `width` trips
            const std::size_t slot = std::size_t(j) * e.stride + i;
            const auto col = e.col_idxs[slot];
            y[i] += e.values[slot] * (col == spmv::padding_index<std::int32_t> ? 0.0 : x[col]);
        }
    }
    return y;
}
// [section: end]

/// Distinct 128-byte segments of the values array (8-byte doubles) touched by `slots`.
std::size_t segments(const std::vector<std::size_t>& slots)
{
    std::set<std::size_t> s;
    for (auto slot : slots) s.insert(slot * 8 / 128);
    return s.size();
}

}  // namespace

int main()
{
    tutorial::SelfCheck check;

    // [section: build-ell]
    const auto a = tutorial::read_sample("canonical4.mtx");  // [1 0 2 3; 0 4 0 0; 5 0 6 7; 0 8 0 9]
    const auto e = spmv::to_ell(a);                           // width 3 = longest row, stride 4
    // [section: end]
    std::printf("canonical 4x4 compressed left (row i: its columns, - = padding):\n");
    for (std::int32_t i = 0; i < e.num_rows; ++i) {
        std::printf("  row %d:", i);
        for (std::int32_t j = 0; j < e.width; ++j) {
            const auto c = e.col_idxs[std::size_t(j) * e.stride + i];
            c < 0 ? std::printf("  -") : std::printf("  %d", c);
        }
        std::printf("\n");
    }
    std::printf("stored column-major (slot = j * stride + i):\n  col_idxs = [");
    for (std::size_t s = 0; s < e.col_idxs.size(); ++s) {
        std::printf("%s%s", s == 0 ? "" : (s % 4 == 0 ? " | " : " "),
                    e.col_idxs[s] < 0 ? "-" : std::to_string(e.col_idxs[s]).c_str());
    }
    std::printf("]\n");
    const auto y = ell_spmv(e, {1, 2, 3, 4});
    std::printf("  A x = (%g, %g, %g, %g)\n\n", y[0], y[1], y[2], y[3]);
    check.expect(y == std::vector<double>{19, 8, 51, 52}, "ELL kernel gives A x = (19, 8, 51, 52)");

    // [section: addresses]
    // Which value slot does thread i read in trip j? ELL: j * stride + i. CSR: row_ptrs[i] + j.
    const auto p = tutorial::read_sample("pde05.mtx");  // 7-point Laplacian, rows of 4..7 entries
    const auto pe = spmv::to_ell(p);
    for (std::int32_t j = 0; j < 3; ++j) {
        std::vector<std::size_t> ell_slots, csr_slots;
        for (std::int32_t i = 0; i < 32; ++i) {  // the 32 threads of warp 0
            ell_slots.push_back(std::size_t(j) * pe.stride + i);
            csr_slots.push_back(std::size_t(p.row_ptrs[i] + j));
        }
        // [section: end]
        std::printf("pde05, warp 0, trip %d, value slots read by threads 0..7:\n", j);
        std::printf("  ELL:");
        for (int i = 0; i < 8; ++i) std::printf(" %4zu", ell_slots[i]);
        std::printf("  ... -> %zu segments of 128 bytes for the warp\n", segments(ell_slots));
        std::printf("  CSR:");
        for (int i = 0; i < 8; ++i) std::printf(" %4zu", csr_slots[i]);
        std::printf("  ... -> %zu segments of 128 bytes for the warp\n", segments(csr_slots));
        check.expect(segments(ell_slots) <= 3 && segments(ell_slots) < segments(csr_slots),
                     "trip " + std::to_string(j) + ": ELL's warp load spans <= 3 segments, " +
                         "fewer than CSR's");
    }

    // [section: footprint]
    // The price: every row is padded to the longest one. Compare the bytes on two matrices.
    for (const char* name : {"pde05.mtx", "onefull_256.mtx"}) {
        const auto m = tutorial::read_sample(name);
        const auto me = spmv::to_ell(m);
        const auto fc = spmv::footprint(m);   // double values, int32 indices
        const auto fe = spmv::footprint(me);
        // [section: end]
        std::printf("\n%s: N = %d, nnz = %lld, longest row %d\n", name, m.num_rows,
                    static_cast<long long>(spmv::nnz(m)), me.width);
        std::printf("  CSR: %lld entries, %zu bytes\n", static_cast<long long>(spmv::nnz(m)),
                    fc.total_bytes());
        std::printf("  ELL: %lld slots (%lld padding), %zu bytes = %.2f x CSR\n",
                    static_cast<long long>(fe.stored_entries),
                    static_cast<long long>(fe.padding_entries), fe.total_bytes(),
                    double(fe.total_bytes()) / double(fc.total_bytes()));
        std::vector<double> xm(m.num_cols, 1.0), ym(m.num_rows);
        spmv::spmv_reference(m, 1.0, std::span<const double>(xm), 0.0, std::span<double>(ym));
        const std::string n = name;
        check.expect(ell_spmv(me, xm) == ym, n + ": ELL kernel == CSR reference");
        check.expect(fe.stored_entries == std::int64_t(m.num_rows) * me.width &&
                         fe.padding_entries == fe.stored_entries - spmv::nnz(m),
                     n + ": ELL stores N x longest slots, N x longest - nnz of them padding");
        check.expect(fe.total_bytes() == std::size_t(fe.stored_entries) * (8 + 4) &&
                         fe.total_bytes() == spmv::analysis::ell_footprint(m).total_bytes(),
                     n + ": ELL bytes = slots x 12 = analysis::ell_footprint");
        check.expect(fc.total_bytes() == std::size_t(spmv::nnz(m)) * 12 + (m.num_rows + 1) * 4,
                     n + ": CSR bytes = nnz x 12 + (N + 1) x 4");
    }
    return check.finish();
}
