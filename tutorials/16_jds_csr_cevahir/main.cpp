// Lesson 16: JDS and the JDS "CSR-like" kernel (Cevahir, Nukada, Matsuoka, "Fast conjugate
// gradients with multiple GPUs", Figs. 2-4), both on the jagged diagonals of the rows sorted by
// length. Fig. 2 is serial pseudocode; §4.1's GPU-JDS (a thread per nonzero, diagonals padded to
// 16, y_temp) does not say how it launches: one launch per diagonal is OUR reading. Fig. 3: a
// thread per sorted row walks the diagonals and writes y once. Here: the layouts, Fig. 2 and both
// mappings run on the host and checked, launches and traffic per SpMV, H100 times (Fig. 4).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include <spmv/formats/jds.hpp>
#include <spmv/formats/jds_csr.hpp>
#include <spmv/generators.hpp>
#include <spmv/model/format_model.hpp>

#include "lesson.hpp"
#include "records.hpp"

namespace {

using Csr = spmv::Csr<double, std::int32_t>;

// What one SpMV reads and writes, counted while the emulated kernels run.
struct Traffic {
    int launches = 0;
    std::int64_t slots = 0;     // value + column index pairs (each also gathers one x)
    std::int64_t temp = 0;      // y_temp loads + stores
    std::int64_t row_info = 0;  // perm[] and nz_count[] entries
    std::int64_t y_stores = 0;
    std::int64_t constant = 0;  // jd_ptr reads (constant cache: one broadcast per warp)
    double bytes() const        // double precision: 8-byte values, 4-byte indices
    {
        return (8.0 + 4.0 + 8.0) * double(slots) + 8.0 * double(temp) + 4.0 * double(row_info) +
               8.0 * double(y_stores);
    }
};

// [section: fig2]
// Fig. 2 as printed (serial): for i < max_nz, for j in jagged diagonal i, r = j - jd_ptr[i]:
// y[perm[r]] += values[j] * x[col_ind[j]]. It says nothing of threads or launches.
void fig2_as_printed(const spmv::Jds<double>& a, std::span<const double> x, std::span<double> y)
{
    std::fill(y.begin(), y.end(), 0.0);
    for (std::size_t i = 0; i + 1 < a.jd_ptrs.size(); ++i)
        for (auto j = std::size_t(a.jd_ptrs[i]); j < std::size_t(a.jd_ptrs[i + 1]); ++j) {
            const auto r = j - std::size_t(a.jd_ptrs[i]);
            y[std::size_t(a.row_perm[r])] += a.values[j] * x[std::size_t(a.col_idxs[j])];
        }
}
// [section: end]

// [section: jds]
// Plain JDS on the GPU, OUR READING of §4.1 (kernels/src/jds.cu). The paper: "each thread
// computes one element of the matrix", zeros padded "to achieve coalescing" (diagonals to
// multiples of 16, §3.1), the product of row r written to y_temp[r], y_temp "reordered into y"
// at the end; not how the threads are launched. Ours: one launch per diagonal (Fig. 2's outer
// loop), so each y_temp[r] has one writer per launch and the launches order the additions (the
// 8800 GTS had no float atomics); no padding (to_jds); a last launch scatters to y[perm[r]].
Traffic jds_on_host(const spmv::Jds<double>& a, std::span<const double> x, std::span<double> y)
{
    Traffic t;
    std::vector<double> y_temp(static_cast<std::size_t>(a.num_rows));
    for (std::size_t d = 0; d + 1 < a.jd_ptrs.size(); ++d, ++t.launches) {
        const auto first = static_cast<std::size_t>(a.jd_ptrs[d]);
        const auto len = static_cast<std::size_t>(a.jd_ptrs[d + 1]) - first;
        for (std::size_t r = 0; r < len; ++r, ++t.slots) {  // thread r of launch d
            const double p =
                a.values[first + r] * x[static_cast<std::size_t>(a.col_idxs[first + r])];
            y_temp[r] = d == 0 ? p : y_temp[r] + p;  // diagonal 0 overwrites: no clearing pass
            t.temp += d == 0 ? 1 : 2;
        }
    }
    const auto filled = a.jd_ptrs.size() > 1 ? static_cast<std::size_t>(a.jd_ptrs[1]) : 0;
    for (std::size_t r = 0; r < y_temp.size(); ++r, ++t.row_info, ++t.y_stores) {  // scatter
        y[static_cast<std::size_t>(a.row_perm[r])] = r < filled ? y_temp[r] : 0.0;
        t.temp += r < filled;
    }
    ++t.launches;
    return t;
}
// [section: end]

// [section: jds-csr]
// JDS CSR-like (Cevahir Fig. 3, kernels/src/jds_csr.cu): one launch, thread t walks sorted row t
// over the diagonals, j = jd_ptr[i] + t for i < nz_count[t], and writes y[perm[t]] once.
Traffic jds_csr_on_host(const spmv::JdsCsr<double>& a, std::span<const double> x,
                        std::span<double> y)
{
    Traffic t;
    for (std::size_t row = 0; row < a.nz_count.size(); ++row, t.row_info += 2, ++t.y_stores) {
        double mult = 0;
        for (std::int32_t i = 0; i < a.nz_count[row]; ++i, ++t.slots, ++t.constant) {
            const auto j = static_cast<std::size_t>(a.jd_ptrs[static_cast<std::size_t>(i)]) + row;
            mult += a.values[j] * x[static_cast<std::size_t>(a.col_idxs[j])];
        }
        y[static_cast<std::size_t>(a.row_perm[row])] = mult;
    }
    t.launches = 1;
    return t;
}
// [section: end]

bool close(std::span<const double> y, std::span<const double> ref)
{
    for (std::size_t i = 0; i < y.size(); ++i)
        if (std::abs(y[i] - ref[i]) > 1e-12 * std::max(1.0, std::abs(ref[i]))) return false;
    return true;
}

// An index array, '-' for padding, with a '|' before every offset in `breaks` (the jd_ptrs).
void print(const char* label, const std::vector<std::int32_t>& v,
           const std::vector<std::int32_t>& breaks = {})
{
    std::printf("    %-9s [", label);
    for (std::size_t k = 0; k < v.size(); ++k) {
        if (k > 0 && std::count(breaks.begin(), breaks.end(), std::int32_t(k)) > 0)
            std::printf(" |");
        v[k] < 0 ? std::printf(" -") : std::printf(" %d", v[k]);
    }
    std::printf(" ]\n");
}

}  // namespace

int main()
{
    tutorial::SelfCheck check;

    // [section: layouts]
    const auto canonical = tutorial::read_sample("canonical4.mtx");  // lengths (3, 1, 3, 2)
    const auto jds = spmv::to_jds(canonical);                        // no padding
    const auto jds4 = spmv::to_jds_csr(canonical, {.diag_pad = 4});  // diagonals padded to 4
    const auto jds16 = spmv::to_jds_csr(canonical);                  // Cevahir's 16
    // [section: end]
    std::printf(
        "canonical 4x4, rows sorted longest first: row_perm [0 2 3 1], lengths 3 3 2 1\n"
        "  JDS (Fig. 2): %zu stored\n",
        jds.values.size());
    print("jd_ptrs", jds.jd_ptrs);
    print("col_idxs", jds.col_idxs, jds.jd_ptrs);
    std::printf("  JDS CSR-like, diag_pad 4 (Fig. 3): %zu stored, nz_count [3 3 2 1]\n",
                jds4.values.size());
    print("jd_ptrs", jds4.jd_ptrs);
    print("col_idxs", jds4.col_idxs, jds4.jd_ptrs);
    std::printf("  JDS CSR-like, diag_pad 16: jd_ptrs [0 16 32 48], %zu stored\n",
                jds16.values.size());
    check.expect(jds.jd_ptrs == std::vector<std::int32_t>{0, 4, 7, 9} &&
                     jds4.jd_ptrs == std::vector<std::int32_t>{0, 4, 8, 12} &&
                     jds16.values.size() == 48 && jds16.jd_ptrs.back() == 48,
                 "diagonals of 4, 3, 2 entries: JDS 9 slots, padded to 4: 12, to 16: 48");

    const std::vector<std::pair<std::string, Csr>> matrices = {
        {"canonical4", canonical}, {"powerlaw_2k", tutorial::read_sample("powerlaw_2k.mtx")},
        {"pde30", spmv::gen::pde(30)},
        {"powerlaw_100k", spmv::gen::power_law(100'000, 1, 2.0, 500, 1)}};
    std::printf(
        "\nOne SpMV, double precision (x gathered once per nonzero, no cache); JDS as we read "
        "§4.1,\nslots if padded as §4.1 pads (diagonals to multiples of 16):\n"
        "  %-29s %-46s %s\n  %-13s %7s %7s %5s %8s %8s %12s %9s %8s %9s %8s\n",
        "", "JDS (our reading) ----------------------------", "CSR-like ---------", "matrix",
        "N", "nnz", "diags", "padded", "launches", "y_temp ld+st", "bytes", "launches", "bytes",
        "JDS/CSR");
    bool same = true, counts = true, launches = true, padded = true;
    for (const auto& [name, a] : matrices) {
        const auto n = std::int64_t(a.num_rows), nnz = std::int64_t(a.values.size());
        std::vector<double> x(static_cast<std::size_t>(a.num_cols));
        std::vector<double> ref(static_cast<std::size_t>(n)), y0(ref.size()), y1(ref.size()),
            y2(ref.size());
        for (std::size_t i = 0; i < x.size(); ++i) x[i] = 1.0 + double(i % 10) / 8;
        spmv::spmv_reference(a, 1.0, std::span<const double>(x), 0.0, std::span<double>(ref));
        const auto f1 = spmv::to_jds(a);
        const auto f2 = spmv::to_jds_csr(a);
        const auto t1 = jds_on_host(f1, x, y1);
        const auto t2 = jds_csr_on_host(f2, x, y2);
        fig2_as_printed(f1, x, y0);
        const int diags = static_cast<int>(f1.jd_ptrs.size()) - 1;
        std::int64_t pad16 = 0;  // §4.1: every diagonal padded to a multiple of 16 slots
        for (int d = 0; d < diags; ++d) pad16 += (f1.jd_ptrs[d + 1] - f1.jd_ptrs[d] + 15) & ~15;
        padded = padded && pad16 == std::int64_t(f2.values.size());
        std::printf("  %-13s %7lld %7lld %5d %8lld %8d %12lld %9.0f %8d %9.0f %8.2f\n",
                    name.c_str(), static_cast<long long>(n), static_cast<long long>(nnz), diags,
                    static_cast<long long>(pad16), t1.launches, static_cast<long long>(t1.temp),
                    t1.bytes(), t2.launches, t2.bytes(), t1.bytes() / t2.bytes());
        same = same && close(y0, ref) && close(y1, ref) && close(y2, ref);
        // [section: closed-form]
        // JDS: nnz slots, y_temp stored nnz times and loaded nnz times (nnz - L_0 by the
        // diagonals after the first, L_0 by the scatter), perm[] and y once per row.
        // CSR-like: the same nnz slots (never the diagonal padding), perm[], nz_count[] and y
        // once per row, jd_ptr from constant memory once per slot.
        counts = counts && t1.slots == nnz && t1.temp == 2 * nnz && t1.row_info == n &&
                 t2.slots == nnz && t2.temp == 0 && t2.row_info == 2 * n && t2.constant == nnz &&
                 t1.bytes() - t2.bytes() == 16.0 * double(nnz) - 4.0 * double(n);
        // [section: end]
        const std::string_view variants[] = {"jds", "jds_csr"};
        const auto shapes = spmv::model::kernel_shapes(a, {}, variants);
        launches = launches && t1.launches == diags + 1 && t2.launches == 1 &&
                   shapes[0].launches == t1.launches && shapes[1].launches == t2.launches;
    }
    check.expect(same, "Fig. 2 as printed and both emulated kernels = the reference, all 4");
    check.expect(padded, "§4.1's padding (diagonals to multiples of 16) = to_jds_csr's slots");
    check.expect(counts,
                 "traffic as counted = the closed forms: JDS moves 16 nnz - 4 N bytes "
                 "more (y_temp)");
    check.expect(launches,
                 "launches: our JDS one per diagonal + the scatter, CSR-like one (the "
                 "model's count too)");

    // [section: records]
    // Fig. 4 on today's GPU: mean GF/s over the collection in single precision (the 8800 GTS of
    // the paper had no double precision). GPU-CSR is csr (one thread per row, as in §4).
    const tutorial::BenchRecords parts[] = {tutorial::read_h100_records("a"),
                                            tutorial::read_h100_records("b")};
    // [section: end]
    std::printf(
        "\nCevahir Fig. 4 averages (GeForce 8800 GTS, SP): GPU-CSR 1.32, GPU-JDS 2.38, "
        "proposed 6.09 GF/s\nH100 records (%s, commit %s)\ncollection (parts a and b):\n",
        parts[0].device.c_str(), parts[0].commit.c_str());
    for (const char* precision : {"sp", "dp"}) {
        std::printf("  %s mean GF/s:", precision);
        for (const char* f : {"csr", "jds", "jds_csr", "cusparse_csr_alg1"}) {
            double sum = 0, count = 0;
            for (const auto& part : parts)
                for (const auto& r : part.rows)
                    if (r.format == f && r.precision == precision && r.error.empty())
                        sum += r.gflops, ++count;
            std::printf("  %s %.2f (%.0f)", f, sum / count, count);
        }
        std::vector<double> q;  // jds_csr / jds time per matrix
        for (const auto& part : parts)
            for (const auto& r : part.rows)
                if (r.format == "jds_csr" && r.precision == precision && r.error.empty())
                    if (const auto* j = part.find(r.matrix, precision, "jds"))
                        q.push_back(r.median_ms / j->median_ms);
        std::sort(q.begin(), q.end());
        const auto faster = std::count_if(q.begin(), q.end(), [](double v) { return v < 1; });
        std::printf(
            "\n     CSR-like faster than our JDS on %lld of %zu; time ratio median %.3f, "
            "range %.3f .. %.3f\n",
            static_cast<long long>(faster), q.size(), (q[(q.size() - 1) / 2] + q[q.size() / 2]) / 2,
            q.front(), q.back());
        check.expect(faster == std::int64_t(q.size()),
                     std::string(precision) + ": the CSR-like kernel beats our plain JDS on "
                                              "every collection matrix, as in Fig. 4");
    }
    const auto large = tutorial::read_h100_records("large");
    std::printf("  generated (part large), DP, kernel median in us:   jds    jds_csr        csr\n");
    for (const char* m :
         {"gen:pde:size=100", "gen:powerlaw:rows=1000000", "gen:onefull:n=200000"}) {
        std::printf("    %-44s", m);
        for (const char* f : {"jds", "jds_csr", "csr"})
            std::printf(" %10.1f", large.find(m, "dp", f)->median_ms * 1e3);
        std::printf("\n");
    }
    return check.finish();
}
