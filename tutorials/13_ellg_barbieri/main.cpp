// Lesson 13: Barbieri's ELLG (Barbieri, Cardellini, Filippone, "Sparse computations on GPGPUs",
// §2 and Tables 2-5). ELLG is ELLPACK-R whose columns start on 128-byte boundaries (the pitch);
// its kernel Sspmvm_gpu_unroll_2_krn knows each row's length up front and unrolls the loop by 2.
// The lesson emulates that kernel on the host, checks it against the reference SpMV, and rebuilds
// the pde05 ... pde100 sweep of Tables 2-5 (MFLOPS = 2 NZ / t): the GPU and xGPU columns from
// the committed H100 records where they exist and from the per-format model elsewhere (labelled
// "model"); the CPU column is measured here and printed on stderr, since it differs per machine.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <spmv/formats/ellg.hpp>
#include <spmv/generators.hpp>
#include <spmv/model/format_model.hpp>
#include <spmv/model/performance.hpp>

#include "lesson.hpp"
#include "records.hpp"

namespace {

using Ellg = spmv::EllG<double, std::int32_t>;

// [section: kernel]
// Sspmvm_gpu_unroll_2_krn (Barbieri §2, kernels/src/ellg.cu), run for every thread i of the
// grid in turn: row_size / 2 trips over the two slots p and p + pitch (both x entries fetched
// before the two multiply-adds), then the odd slot. Counts the loop trips in `trips`.
void ellg_kernel_on_host(const Ellg& a, double alpha, std::span<const double> x, double beta,
                         std::span<double> y, std::int64_t& trips)
{
    const std::size_t pitch = static_cast<std::size_t>(a.stride);
    for (std::int32_t i = 0; i < a.num_rows; ++i) {  // i = threadIdx.x + blockIdx.x * 128
        const std::int32_t row_size = a.row_lengths[static_cast<std::size_t>(i)];
        std::size_t p = static_cast<std::size_t>(i);  // rP += i; cM += i;
        double y_prod = 0.0;
        for (std::int32_t j = 0; j < row_size / 2; ++j, ++trips) {
            const std::int32_t pointers[2] = {a.col_idxs[p], a.col_idxs[p + pitch]};
            const double fetches[2] = {x[static_cast<std::size_t>(pointers[0])],
                                       x[static_cast<std::size_t>(pointers[1])]};
            const double values[2] = {a.values[p], a.values[p + pitch]};
            p += 2 * pitch;
            y_prod += values[0] * fetches[0];
            y_prod += values[1] * fetches[1];
        }
        if (row_size % 2 != 0) {  // odd row size
            y_prod += a.values[p] * x[static_cast<std::size_t>(a.col_idxs[p])];
            ++trips;
        }
        auto& yi = y[static_cast<std::size_t>(i)];
        yi = beta == 0.0 ? alpha * y_prod : beta * yi + alpha * y_prod;
    }
}
// [section: end]

// Seconds per product of the host reference SpMV (CSR, one thread): Barbieri's CPU column
// ran 2000 products in sequence; here at least 3 and 40 ms worth.
double cpu_seconds(const spmv::Csr<double, std::int32_t>& a, std::span<const double> x,
                   std::span<double> y)
{
    using clock = std::chrono::steady_clock;
    int reps = 0;
    const auto start = clock::now();
    std::chrono::duration<double> spent{};
    while (reps < 3 || spent.count() < 0.04) {
        spmv::spmv_reference(a, 1.0, x, 0.0, y);
        ++reps;
        spent = clock::now() - start;
    }
    return spent.count() / reps;
}

std::string this_machine()
{
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);) {
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    }
    return "this machine";
}

std::string label(int k)
{
    return (k < 10 ? "pde0" : "pde") + std::to_string(k);
}

double mflops(std::int64_t nnz, double seconds)
{
    return 2.0 * double(nnz) / seconds / 1e6;
}

}  // namespace

int main()
{
    tutorial::SelfCheck check;

    // [section: pitch]
    const auto canonical = spmv::to_ellg(tutorial::read_sample("canonical4.mtx"));  // DP
    const auto pde05 = spmv::to_ellg(spmv::gen::pde(5));  // 125 rows, rows of 4..7 entries
    const auto fp = spmv::footprint(pde05);
    const auto column_bytes = std::size_t(pde05.stride) * sizeof(double);  // column j starts at
    const auto index_column_bytes = std::size_t(pde05.stride) * sizeof(std::int32_t);  // j * these
    const bool aligned = column_bytes % 128 == 0 && index_column_bytes % 128 == 0;
    // [section: end]
    std::printf("ELLG pitch 128 bytes, double values, int32 indices: stride = rows rounded up to 32\n");
    std::printf("  canonical 4x4: stride %d, width %d, %zu slots (%d gap rows per column)\n",
                canonical.stride, canonical.width, canonical.values.size(),
                canonical.stride - canonical.num_rows);
    std::printf(
        "  pde05: %d rows -> stride %d, width %d: %lld slots, %lld padding\n"
        "         = 6 k^2 = 150 slots of short rows + 3 x 7 = 21 slots of the gap rows\n",
        pde05.num_rows, pde05.stride, pde05.width, static_cast<long long>(fp.stored_entries),
        static_cast<long long>(fp.padding_entries));
    check.expect(canonical.stride == 32 && canonical.values.size() == 96 &&
                     spmv::ellg_stride(4, 128, sizeof(double), sizeof(std::int32_t)) == 32 &&
                     spmv::ellg_stride(4, 128, sizeof(float), sizeof(std::int32_t)) == 32,
                 "canonical 4x4: stride 32 (256 B of doubles, 128 B of indices per column), "
                 "96 slots, as in ellg.hpp");
    check.expect(aligned && fp.padding_entries == 150 + 21 && fp.stored_entries == 128 * 7,
                 "pde05: every column starts on 128 bytes; padding 171 = 150 + 21");

    // Barbieri Table 2 (GTX 285) and Table 3 (C2050), ELLG GPU MFLOPS, for comparison.
    const int sizes[] = {5, 10, 20, 30, 40, 50, 60, 80, 90, 100};
    const int gtx285[] = {55, 481, 3610, 7784, 10380, 12452, 13842, 15250, 15354, 15664};
    const int c2050[] = {28, 187, 2147, 4319, 6394, 8237, 9442, 10396, 10812, 10859};
    const auto large = tutorial::read_h100_records("large");
    const auto fitlarge = tutorial::read_h100_records("fitlarge");
    const auto& gpu = spmv::model::find_profile("H100");
    const auto constants = spmv::model::builtin_constants(gpu);
    const auto dp = spmv::model::Precision::double_precision;

    // [section: latency]
    // T_PCI = 8 (N_cols + N_rows) / B_PCI has no fixed cost, but every copy has one: L = the
    // median over the collection records of xGPU - GPU - T_PCI (small matrices: L is most of it).
    std::vector<double> fixed;
    for (const auto& part : {tutorial::read_h100_records("a"), tutorial::read_h100_records("b")}) {
        for (const auto& r : part.rows) {
            if (r.format != "ellg" || r.precision != "dp" || !r.error.empty()) continue;
            fixed.push_back((r.xgpu_ms - r.median_ms) * 1e-3 -
                            spmv::model::t_pci_seconds(double(r.rows), double(r.cols),
                                                       gpu.pcie_bandwidth_gbs, dp));
        }
    }
    std::nth_element(fixed.begin(), fixed.begin() + std::ptrdiff_t(fixed.size() / 2), fixed.end());
    const double latency = fixed[fixed.size() / 2];
    // [section: end]

    std::printf(
        "\npde sweep in the shape of Barbieri Tables 2-3: ELLG, double precision, MFLOPS\n"
        "record: %s, commit %s, %.10s\n"
        "model: %s profile, xGPU = GPU + T_PCI (%.0f GB/s) + L = %.1f us (%zu collection "
        "records)\n",
        large.device.c_str(), large.commit.c_str(), large.date.c_str(), gpu.name.c_str(),
        gpu.pcie_bandwidth_gbs, latency * 1e6, fixed.size());
    std::printf("  matrix        N        NZ    H100 xGPU   H100 GPU  source   GTX 285  C2050\n");
    bool exact = true, trips_ok = true, sizes_ok = true, transfers_cost = true;
    int measured = 0;
    std::vector<double> gpu_mflops, cpu_mflops;
    std::string versus;  // model next to measurement, for the recorded rows
    for (std::size_t m = 0; m < std::size(sizes); ++m) {
        const int k = sizes[m];
        const auto a = spmv::gen::pde(k);
        const auto ellg = spmv::to_ellg(a);
        const auto nnz = static_cast<std::int64_t>(a.values.size());
        std::vector<double> x(static_cast<std::size_t>(a.num_cols)), y(x.size()), ref(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) x[i] = double(i % 7 + 1);  // exact sums
        std::int64_t trips = 0, want = 0;
        ellg_kernel_on_host(ellg, 1.0, x, 0.0, y, trips);
        cpu_mflops.push_back(mflops(nnz, cpu_seconds(a, x, ref)));
        exact = exact && y == ref;
        for (auto len : ellg.row_lengths) want += (len + 1) / 2;
        trips_ok = trips_ok && trips == want;
        sizes_ok = sizes_ok && a.num_rows == k * k * k && nnz == 7LL * k * k * k - 6LL * k * k;

        // [section: columns]
        const auto name = "gen:pde:size=" + std::to_string(k);
        const auto* rec = large.find(name, "dp", "ellg");
        if (rec == nullptr) rec = fitlarge.find(name, "dp", "ellg");
        const std::string_view variant = "ellg";  // the model: the kernel, then the transfers
        const auto shape = spmv::model::kernel_shapes(a, {}, {&variant, 1}).front();
        const double model_gpu = spmv::model::predict(shape, constants, dp).time_s;
        const double model_xgpu =
            model_gpu + latency +
            spmv::model::t_pci_seconds(a.num_rows, a.num_cols, gpu.pcie_bandwidth_gbs, dp);
        const double t_gpu = rec != nullptr ? rec->median_ms * 1e-3 : model_gpu;
        const double t_xgpu = rec != nullptr ? rec->xgpu_ms * 1e-3 : model_xgpu;
        // [section: end]
        if (rec != nullptr) {
            char line[160];
            std::snprintf(line, sizeof line,
                          "  pde%d: GPU %.1f us measured, %.1f us model; "
                          "xGPU %.1f us measured, %.1f us model\n",
                          k, t_gpu * 1e6, model_gpu * 1e6, t_xgpu * 1e6, model_xgpu * 1e6);
            versus += line;
        }
        measured += rec != nullptr;
        transfers_cost = transfers_cost && t_xgpu > t_gpu;
        gpu_mflops.push_back(mflops(nnz, t_gpu));
        std::printf("  %-7s %8d %9lld %12.0f %10.0f  %-7s %8d %6d\n", label(k).c_str(), a.num_rows,
                    static_cast<long long>(nnz), mflops(nnz, t_xgpu), gpu_mflops.back(),
                    rec != nullptr ? "record" : "model", gtx285[m], c2050[m]);
    }
    std::printf("%s", versus.c_str());
    check.expect(sizes_ok, "N = k^3 and NZ = 7k^3 - 6k^2: the N and NZ columns of Tables 2-5");
    check.expect(exact,
                 "the emulated ELLG kernel gives the reference SpMV, bit for bit, on all 10");
    check.expect(trips_ok, "its loop trips = sum over rows of ceil(len / 2): unrolled by 2");
    check.expect(measured == 2,
                 "H100 records for pde80 (fitlarge) and pde100 (large), model "
                 "for the other 8");
    check.expect(transfers_cost, "xGPU below GPU in every row: x in and y out are paid per SpMV");

    // Tables 4-5: the same sweep with CUSPARSE's CSR. cuSPARSE is not modelled: records only.
    std::printf("\nTables 4-5 (CUSPARSE CSR) where the H100 records have it, DP, MFLOPS\n");
    std::printf(
        "  matrix   ELLG GPU   cuSPARSE CSR GPU   ELLG / CSR  (paper pde100: GTX 285 "
        "4.93, C2050 2.34)\n");
    bool ellg_wins = true;
    for (const auto& [k, records] : {std::pair{80, &fitlarge}, std::pair{100, &large}}) {
        const auto name = "gen:pde:size=" + std::to_string(k);
        const auto* e = records->find(name, "dp", "ellg");
        const auto* c = records->find(name, "dp", "cusparse_csr_alg1");
        const auto nnz = e->nnz;
        std::printf("  %-7s %9.0f %18.0f %12.2f\n", label(k).c_str(),
                    mflops(nnz, e->median_ms * 1e-3), mflops(nnz, c->median_ms * 1e-3),
                    c->median_ms / e->median_ms);
        ellg_wins = ellg_wins && e->median_ms < c->median_ms;
    }
    check.expect(ellg_wins,
                 "as in Tables 2-5, ELLG beats CUSPARSE's CSR on the GPU (pde80, "
                 "pde100)");

    // The CPU column depends on this machine: stderr, so the README can quote stdout exactly.
    std::fflush(stdout);
    std::fprintf(stderr,
                 "\nCPU column, measured on this machine (%s): CSR reference SpMV, one "
                 "thread, DP\n  matrix   CPU MFLOPS   speedup (GPU column / CPU)\n",
                 this_machine().c_str());
    for (std::size_t m = 0; m < std::size(sizes); ++m) {
        std::fprintf(stderr, "  %-7s %11.0f %12.1f\n", label(sizes[m]).c_str(), cpu_mflops[m],
                     gpu_mflops[m] / cpu_mflops[m]);
    }
    std::fflush(stderr);
    check.expect(std::all_of(cpu_mflops.begin(), cpu_mflops.end(), [](double v) { return v > 0; }),
                 "the CPU column was measured for all 10 (stderr)");
    return check.finish();
}
