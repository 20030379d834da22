// Lesson 09: which format for my matrix? The format advisor (spmv/model/advisor.hpp) ranks every
// GPU kernel variant of the project by the per-format model (spmv/model/format_model.hpp):
//   T_v = F_v + max(c_v * critical trips, DRAM bytes / B_GPU, L2 sectors * 32 / B_L2,
//                   tau * warp trips)
// counted from the row lengths and column indices alone (no layout is built). Three matrices
// that want different formats: a 7-point stencil, a power law with a heavy tail, one full row.
// F_v, c_v, B_L2 and tau are fitted on measured H100 records and change when they are
// re-fitted; the checks test what the model and the advisor must get right whatever they are.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <spmv/generators.hpp>
#include <spmv/memory.hpp>
#include <spmv/model/advisor.hpp>
#include <spmv/model/format_model.hpp>

#include "lesson.hpp"

namespace {

using spmv::model::Advice;
using spmv::model::find_modelled_variant;
using spmv::model::Recommendation;

const Recommendation& find(const Advice& advice, std::string_view variant)
{
    return *std::find_if(advice.ranked.begin(), advice.ranked.end(),
                         [&](const Recommendation& r) { return r.variant == variant; });
}

void print(const Recommendation& r, std::size_t reasons)
{
    std::printf("  %4d  %-12s %11.2f us  %s\n", r.rank, r.variant.c_str(),
                r.prediction.time_s * 1e6, r.prediction.bound.c_str());
    for (std::size_t i = 0; i < std::min(reasons, r.reasons.size()); ++i) {
        std::printf("          - %s\n", r.reasons[i].c_str());
    }
}

bool close(double a, double b)
{
    return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b));
}

}  // namespace

int main()
{
    tutorial::SelfCheck check;
    const auto& gpu = spmv::model::find_profile("H100");
    const auto constants = spmv::model::builtin_constants(gpu);
    std::printf(
        "profile %s, double precision, C = 32, b_r = 32, sigma auto; ranked per SpMV\n"
        "constants: %s\n",
        gpu.name.c_str(), constants.source.c_str());

    std::vector<std::pair<std::string, spmv::Csr<double, std::int32_t>>> matrices;
    matrices.emplace_back("pde60", spmv::gen::pde(60));  // 60^3 rows, 4-7 entries each
    matrices.emplace_back("powerlaw_200k", spmv::gen::power_law(200'000, 1, 2.0, 500, 1));
    matrices.emplace_back("onefull_100k", spmv::gen::onefull(100'000, 1));

    for (const auto& [name, a] : matrices) {
        // [section: advise]
        spmv::model::AdvisorOptions options;  // DP, per SpMV, C = b_r = 32, sigma auto
        const auto advice = spmv::model::advise(a, gpu, options);
        const auto& best = advice.best();  // ranked.front(): the least predicted time
        // [section: end]
        const auto lens = spmv::row_lengths(a);
        const auto longest = *std::max_element(lens.begin(), lens.end());
        const double n = a.num_rows, nnz = static_cast<double>(a.col_idxs.size());
        std::printf("\n%s: N = %d, nnz = %.0f, row lengths %d..%d (mean %.2f)\n", name.c_str(),
                    a.num_rows, nnz, *std::min_element(lens.begin(), lens.end()), longest, nnz / n);
        std::printf("  rank  variant           predicted  bound\n");
        const auto candidates = std::count_if(advice.ranked.begin(), advice.ranked.end(),
                                              [](const Recommendation& r) { return r.candidate; });
        for (std::size_t i = 0; i < 5; ++i) print(advice.ranked[i], 2);
        std::printf("  ...\n");
        for (auto i = static_cast<std::size_t>(candidates - 3); i < std::size_t(candidates); ++i) {
            print(advice.ranked[i], 1);
        }
        for (const auto& r : advice.ranked) {
            if (!r.candidate)
                std::printf("  not a candidate: %s: %s\n", r.variant.c_str(), r.why_not.c_str());
        }
        const auto& ell = find(advice, "ell");
        std::printf("  padding: ell %.1f %%, sell %.1f %%, pjds %.1f %%; ell needs %s, csr %s\n",
                    100 * ell.padding_share, 100 * find(advice, "sell").padding_share,
                    100 * find(advice, "pjds").padding_share,
                    spmv::format_bytes(ell.footprint_bytes).c_str(),
                    spmv::format_bytes(find(advice, "csr").footprint_bytes).c_str());
        std::printf("  first choice %s, nearest: %s\n", best.variant.c_str(),
                    best.equivalent.c_str());

        // Checks that hold for any fitted constants.
        bool sorted = true, reasons = true, equation = true;
        for (std::size_t i = 0; i < advice.ranked.size(); ++i) {
            const auto& r = advice.ranked[i];
            const auto& p = r.prediction;
            sorted = sorted && r.rank == (r.candidate ? static_cast<int>(i) + 1 : 0) &&
                     (i == 0 || !r.candidate || advice.ranked[i - 1].spmv_s <= r.spmv_s);
            reasons = reasons && !r.reasons.empty();
            equation =
                equation && close(p.dram_s, p.dram_bytes / (constants.bandwidth_gbs * 1e9)) &&
                close(p.time_s,
                      p.floor_s + spmv::model::overlap_time(
                                      p.latency_s, std::max({p.dram_s, p.l2_s, p.issue_s, p.warp_s}),
                                      constants.overlap_q));
        }
        check.expect(sorted, name + ": ranked by predicted time, candidates 1.." +
                                 std::to_string(candidates) + " before the others");
        check.expect(reasons, name + ": every variant comes with at least one reason");
        check.expect(equation,
                     name + ": T = F + latency (+) max(DRAM, L2, issue, heaviest warp) for each");
        // [section: predict]
        const std::string_view variant = best.variant;  // the model by hand, for one variant
        const auto shape = spmv::model::kernel_shapes(a, best.params, {&variant, 1}).front();
        const auto again = spmv::model::predict(shape, constants, options.precision);
        // [section: end]
        check.expect(
            again.time_s == best.prediction.time_s && again.bound == best.prediction.bound,
            name + ": predict(kernel_shapes(A, " + best.variant + ")) == its recommendation");

        if (name == "pde60") {
            // [section: pde]
            const double k = 60;  // ELL pads the 6k^2 neighbours the boundary rows lack
            const bool ell_pads_boundary = close(ell.padding_share, 6 * k * k / (7 * k * k * k));
            const double coo_extra = find(advice, "coo").prediction.dram_bytes -
                                     find(advice, "csr").prediction.dram_bytes;
            // [section: end]
            check.expect(ell_pads_boundary,
                         "pde60: ELL padding = 6k^2 / 7k^3 = 1.4 % (boundary rows)");
            check.expect(close(coo_extra, 4 * nnz - 4 * (n + 1)),
                         "pde60: COO moves a row index per nonzero instead of CSR's row_ptrs");
            check.expect(best.format != "coo" && best.format != "jds",
                         "pde60: the first choice is not COO or JDS (" + best.variant + ")");
        } else if (name == "powerlaw_200k") {
            check.expect(
                close(ell.padding_share, 1 - nnz / (n * longest)) && ell.padding_share > 0.9,
                "powerlaw_200k: ELL padding = 1 - nnz / (N max_len) > 90 %");
            check.expect(
                ell.rank > find(advice, "csr_merge").rank &&
                    ell.rank > find(advice, "csr_adaptive").rank,
                "powerlaw_200k: ELL ranks below the load-balanced csr_merge, csr_adaptive");
            // [section: iterations]
            options.iterations = 1;  // rank by setup + 1 x SpMV: a row sort must pay at once
            const auto once = spmv::model::advise(a, gpu, options);
            const double sort_s = options.host_ns_per_sort_entry * 1e-9 * n * std::log2(n);
            // [section: end]
            bool totals = true;
            const Recommendation* sorted_best = nullptr;  // the best row-sorted layout
            for (const auto& r : once.ranked) {
                const bool permuted = find_modelled_variant(r.variant)->permuted;
                totals = totals && close(r.total_s, r.setup_s + r.spmv_s) &&
                         (!permuted || r.setup_s >= sort_s);
                if (permuted && r.candidate && !sorted_best) sorted_best = &r;
            }
            const auto& per_spmv = find(advice, sorted_best->variant);
            std::printf(
                "  one SpMV, setup included: %s falls from rank %d to %d, %.2f ms setup "
                "(row sort %.2f ms) + %.2f us;\n  its row sort pays off after %lld SpMVs "
                "(breakeven_iterations, -1: never)\n",
                sorted_best->variant.c_str(), per_spmv.rank, sorted_best->rank,
                sorted_best->setup_s * 1e3, sort_s * 1e3, sorted_best->spmv_s * 1e6,
                static_cast<long long>(per_spmv.breakeven_iterations));
            check.expect(totals && !find_modelled_variant(once.best().variant)->permuted,
                         "powerlaw_200k, 1 SpMV: total = setup + SpMV, a permuted layout's "
                         "setup holds its row sort, the first choice sorts no rows");
        } else {
            check.expect(
                close(ell.padding_share, 1 - (2 * n - 1) / (n * n)) && ell.padding_share > 0.99,
                "onefull_100k: ELL padding = 1 - (2N - 1) / N^2 > 99 %");
            bool below = true;
            for (const char* v : {"csr", "csr_vector", "csr_merge", "csr_adaptive"}) {
                below = below && ell.rank > find(advice, v).rank;
            }
            check.expect(below, "onefull_100k: ELL ranks below every CSR kernel");
            check.expect(close(find(advice, "pjds").padding_share, 1 - (2 * n - 1) / (33 * n - 32)),
                         "onefull_100k: pJDS stores (b_r + 1) N - b_r slots, its worst case");
            // [section: memory-limit]
            options.max_format_bytes = 80e9;  // the H100's 80 GB: what cannot fit drops out
            const auto fits = spmv::model::advise(a, gpu, options);
            // [section: end]
            std::printf("  max_format_bytes = 80 GB: ell is no candidate: %s\n",
                        find(fits, "ell").why_not.c_str());
            check.expect(!find(fits, "ell").candidate && fits.best().variant == best.variant,
                         "onefull_100k: within 80 GB ELL is no candidate; the first choice stays");
        }
    }
    return check.finish();
}
