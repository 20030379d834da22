// Lesson 10: Kreutzer et al. §II.A, Listing 2 and col_start. The pJDS layout of a small matrix
// with its col_start array; the Listing-2 loop run on the host exactly as printed (thread i =
// sorted row i, entry j at val[col_start[j] + i]) and checked against the reference SpMV; then
// what the project's GPU kernels (kernels/src/pjds.cu) add to the listing, with the per-format
// model's numbers for pjds and pjds_split next to ELLPACK-R on three of the recorded matrices;
// then, on a CUDA device, the ladder from Listing 2 to the kernel (spmv/gpu/pjds_ladder.hpp),
// one optimisation per step, each verified and timed.
#include <algorithm>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <spmv/analysis/estimate.hpp>
#include <spmv/formats/pjds.hpp>
#include <spmv/generators.hpp>
#include <spmv/gpu/bench.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/gpu/pjds_ladder.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/gpu/verify.hpp>
#include <spmv/model/format_model.hpp>

#include "lesson.hpp"

namespace {

const char* const model_specs[] = {"gen:blocks5:block-rows=100000,blocks=8", "gen:pde:size=100",
                                   "gen:powerlaw:rows=500000,seed=7"};

// One row of the ladder table per step, then the production pjds and pjds_split variants, for
// one matrix in one precision; every product verified against the CPU reference first.
template <typename V>
bool time_ladder(const spmv::Csr<double, std::int32_t>& a64, double copy_gbs)
{
    const auto a = spmv::convert_values<V>(a64);
    spmv::FormatParams params;
    params.block_rows = 32;
    // [section: ladder]
    const auto p = spmv::to_pjds(a, {.block_rows = 32});
    spmv::gpu::BenchOptions options;  // cold L2, median of >= 50 repetitions, as `bench`
    options.xgpu = false;
    options.copy_bandwidth_gbs = copy_gbs;
    std::vector<spmv::gpu::DeviceMatrix<V>> steps;
    for (const auto& s : spmv::gpu::pjds_ladder_steps()) {
        steps.push_back(spmv::gpu::assemble_pjds_step(p, s.step));  // y in the original order
    }
    steps.push_back(spmv::gpu::prepare<V>("pjds", a, params));
    steps.push_back(spmv::gpu::prepare<V>("pjds_split", a, params));
    // [section: end]
    bool all_verified = true;
    double first_ms = 0.0, previous_ms = 0.0;
    for (const auto& m : steps) {
        const auto v = spmv::gpu::verify(m, a);
        const auto r = spmv::gpu::bench(m, options);
        all_verified = all_verified && v.passed;
        const double ms = r.kernel.median_ms;
        if (first_ms == 0.0) first_ms = previous_ms = ms;
        std::printf("  %-12s %9.1f us %7.0f GB/s %5.1f %% %8.2fx %8.2fx  %s\n", m.variant().c_str(),
                    ms * 1e3, r.effective_gbs, 100.0 * r.fraction_of_copy, first_ms / ms,
                    previous_ms / ms, v.passed ? "verified" : v.message.c_str());
        previous_ms = ms;
    }
    return all_verified;
}

// [section: listing2]
// Kreutzer Listing 2, as printed. On the GPU the outer loop is the thread index: thread i
// owns sorted row i and walks it to rowmax[i]; entry j of that row sits at col_start[j] + i.
void listing2(int N, const std::vector<int>& rowmax, const std::vector<int>& col_start,
              const std::vector<double>& val, const std::vector<int>& col_idx,
              const std::vector<double>& rhs, std::vector<double>& c)
{
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < rowmax[i]; ++j) {
            const int col_offset = col_start[j];
            c[i] += val[col_offset + i] * rhs[col_idx[col_offset + i]];
        }
}
// [section: end]

std::string list(std::span<const int> v, std::size_t block = 0)
{
    std::string s = "[";
    for (std::size_t k = 0; k < v.size(); ++k) {
        s += (k == 0                    ? ""
              : block && k % block == 0 ? " | "
                                        : " ") +
             (v[k] < 0 ? std::string("-") : std::to_string(v[k]));
    }
    return s + "]";
}

}  // namespace

int main()
{
    tutorial::SelfCheck check;

    // [section: layout]
    const auto a = tutorial::read_sample("pjds_fig1.mtx");  // 8 x 8, lengths [2 5 1 3 4 1 6 2]
    const auto p = spmv::to_pjds(a, {.block_rows = 4});     // b_r = 4, as in Kreutzer Fig. 1
    const auto& cs = p.col_start;  // column j of the padded matrix: slots cs[j] .. cs[j+1]-1
    // [section: end]
    const int n = p.num_rows, width = static_cast<int>(cs.size()) - 1;
    std::printf("pjds_fig1, b_r = %d: %d rows, %zu nonzeros, %d slots\n", p.block_rows, n,
                a.values.size(), cs.back());
    std::printf("  row_perm  = %s\n  rowmax    = %s\n  col_start = %s\n", list(p.row_perm).c_str(),
                list(p.row_lengths, static_cast<std::size_t>(p.block_rows)).c_str(),
                list(cs).c_str());
    std::printf("  column j  slots   col_idx (- padding)   val\n");
    for (int j = 0; j < width; ++j) {
        const auto at = static_cast<std::size_t>(cs[j]),
                   h = static_cast<std::size_t>(cs[j + 1]) - at;
        std::vector<int> vals(h);
        for (std::size_t k = 0; k < h; ++k) vals[k] = static_cast<int>(p.values[at + k]);
        std::printf("  %8d  %2d..%-2d  %-21s %s\n", j, cs[j], cs[j + 1] - 1,
                    list({p.col_idxs.data() + at, h}).c_str(), list(vals).c_str());
    }

    // Every column's height by hand: the rows of the blocks whose longest row is longer than j.
    bool heights = true;
    for (int j = 0; j < width; ++j) {
        int rows = 0;
        for (int i = 0; i < p.padded_rows; ++i) {
            const auto first = static_cast<std::size_t>(i / p.block_rows * p.block_rows);
            rows += p.row_lengths[first] > j;  // the longest row of i's block
        }
        heights = heights &&
                  cs[static_cast<std::size_t>(j) + 1] - cs[static_cast<std::size_t>(j)] == rows;
    }
    // Slot col_start[j] + i holds entry j of original row row_perm[i], and no slot is used twice.
    std::vector<int> used(static_cast<std::size_t>(cs.back()), 0);
    bool entries = true;
    for (int i = 0; i < n; ++i) {
        const auto row = static_cast<std::size_t>(p.row_perm[static_cast<std::size_t>(i)]);
        for (int j = 0; j < p.row_lengths[static_cast<std::size_t>(i)]; ++j) {
            const auto slot = static_cast<std::size_t>(cs[static_cast<std::size_t>(j)] + i);
            const auto k = static_cast<std::size_t>(a.row_ptrs[row] + j);
            entries = entries && p.col_idxs[slot] == a.col_idxs[k] && p.values[slot] == a.values[k];
            ++used[slot];
        }
    }
    const auto unused = std::count(used.begin(), used.end(), 0);
    check.expect(heights,
                 "column heights col_start[j+1] - col_start[j] == rows of the blocks "
                 "longer than j (8 8 4 4 4 4)");
    check.expect(entries && std::count(used.begin(), used.end(), 1) == 24 && unused == 8,
                 "slot col_start[j] + i == entry j of row row_perm[i]: 24 slots once each, "
                 "the 8 others padding");

    // [section: run]
    std::vector<double> x(8), c(8, 0.0), y(8), y_perm(8);
    for (int k = 0; k < 8; ++k) x[static_cast<std::size_t>(k)] = k + 1;  // x = (1, 2, ..., 8)
    listing2(n, p.row_lengths, cs, p.values, p.col_idxs, x, c);          // c in the permuted basis
    spmv::spmv_reference(a, 1.0, std::span<const double>(x), 0.0, std::span<double>(y));
    spmv::spmv_reference(p, 1.0, std::span<const double>(x), 0.0, std::span<double>(y_perm),
                         spmv::RowOrder::permuted);
    // [section: end]
    std::printf(
        "\nListing 2 with x = (1..8): thread i computes c[i] = y[row_perm[i]]\n"
        "  thread i  row_perm[i]  rowmax[i]  c[i]  y (CSR reference)\n");
    bool same = true;
    for (std::size_t i = 0; i < 8; ++i) {
        const auto row = static_cast<std::size_t>(p.row_perm[i]);
        std::printf("  %8zu  %11zu  %9d  %4.0f  %4.0f\n", i, row, p.row_lengths[i], c[i], y[row]);
        same = same && c[i] == y[row] && c[i] == y_perm[i];
    }
    check.expect(same,
                 "Listing 2 == CSR reference y[row_perm[i]] == spmv_reference(pJDS, "
                 "permuted) for all 8 rows, exactly");

    // The road from the listing to the GPU kernel: the model's counts on recorded matrices.
    const auto& gpu = spmv::model::find_profile("H100");
    const auto constants = spmv::model::builtin_constants(gpu);
    std::printf(
        "\nper-format model, profile %s, double precision, b_r = 32 (no GPU needed)\n"
        "  variant      stored slots  DRAM MB  serial trips  warp trips  predicted"
        "  bound\n",
        gpu.name.c_str());
    for (const char* spec : model_specs) {
        const auto m = spmv::gen::generate(spmv::gen::parse_spec(spec));
        // [section: model]
        const std::string_view variants[] = {"ellr", "pjds", "pjds_split"};
        const auto shapes = spmv::model::kernel_shapes(m, {}, variants);  // b_r = 32
        // [section: end]
        std::printf("%s: N = %d, nnz = %zu, longest row (= col_start offsets) %lld\n", spec,
                    m.num_rows, m.values.size(),
                    static_cast<long long>(shapes[0].critical_trips));  // ELLR: longest row
        bool formula = true;
        std::vector<spmv::model::FormatPrediction> t;
        for (const auto& s : shapes) {
            t.push_back(
                spmv::model::predict(s, constants, spmv::model::Precision::double_precision));
            const auto& r = t.back();
            // T = F + (L^q + M^q)^(1/q), M the largest memory term (q: the card's overlap)
            formula = formula &&
                      r.time_s == r.floor_s + spmv::model::overlap_time(
                                                  r.latency_s,
                                                  std::max({r.dram_s, r.l2_s, r.issue_s, r.warp_s}),
                                                  constants.overlap_q);
            std::printf("  %-11s %13.0f %8.1f %13lld %11lld %8.1f us  %s\n", s.variant.c_str(),
                        s.stored_slots, r.dram_bytes / 1e6,
                        static_cast<long long>(s.critical_trips),
                        static_cast<long long>(s.warp_trips), r.time_s * 1e6, r.bound.c_str());
        }
        const std::string name = std::string(spec).substr(4, std::string(spec).find(':', 4) - 4);
        const double rows = m.num_rows, nnz = static_cast<double>(m.values.size());
        const auto est = spmv::analysis::estimate_footprint(m, "pjds", {});
        check.expect(shapes[0].loaded_slots == nnz && shapes[1].loaded_slots == nnz &&
                         shapes[1].stored_slots == static_cast<double>(est.stored_entries),
                     name +
                         ": ELLR and pJDS load only the nnz slots; pJDS stores what "
                         "estimate_footprint counts");
        check.expect(t[1].dram_bytes - t[0].dram_bytes == 4 * rows,
                     name + ": pJDS moves 4 bytes per row more than ELLR (row_perm)");
        check.expect(shapes[2].critical_trips <= shapes[1].critical_trips && formula,
                     name + ": pjds_split's serial trips <= pjds's; T = F + L (+) M for each");
    }

    // The road measured, one step at a time (spmv/gpu/pjds_ladder.hpp).
    std::printf("\nthe ladder from Listing 2 to the kernel (b_r = 32), one change per step:\n");
    for (const auto& s : spmv::gpu::pjds_ladder_steps()) {
        std::printf("  step %d %-19s %s\n", s.step, s.name, s.change);
    }
    if (!spmv::gpu::is_available()) {
        std::printf("not timed: no CUDA device here; the H100's table is in the README\n");
        return check.finish();
    }
    const auto info = spmv::gpu::device_info();
    const double copy_gbs = spmv::gpu::measure_copy_bandwidth().gbs;
    std::printf("CUDA device %s, copy bandwidth %.0f GB/s; median kernel time, L2 flushed before "
                "each repetition;\n  x1: speedup over step 0, x2: over the row before\n",
                info.name.c_str(), copy_gbs);
    for (const char* spec : model_specs) {
        const auto m = spmv::gen::generate(spmv::gen::parse_spec(spec));
        for (const bool dp : {true, false}) {
            std::printf("%s, %s\n  variant           time     min-bytes  %% copy       x1"
                        "       x2\n",
                        spec, dp ? "double" : "single");
            const bool ok = dp ? time_ladder<double>(m, copy_gbs) : time_ladder<float>(m, copy_gbs);
            check.expect(ok, std::string(spec) + (dp ? " DP" : " SP") +
                                 ": every step of the ladder verified against the CPU reference");
        }
    }
    return check.finish();
}
