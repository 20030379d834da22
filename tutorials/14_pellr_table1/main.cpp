// Lesson 14: PELLR's Table 1 and Fig. 6 (Wang & Gu §4). Table 1 describes each test matrix by five
// numbers: N, nnz, ave = nnz / N, sigma (the standard deviation of the row lengths) and max - min.
// Fig. 6 plots the performance of PELLR against ELLPACK-R over sigma. Here: the five columns for
// any matrix (sample files and generated ones), the ratio of the two formats' N_iter (eq. 1, the
// warp loop trips: what sorting saves) as the model's Fig. 6, the same N_iter from a SELL-32-sigma
// sweep of the sort window, checks of the printed Table 1, and what the H100 records say.
// PELLR (§3) sorts all N rows by length and stores them as ELLPACK-R: N x max slots, column-major
// (A[i + j N]), rl[] and perm[]. SELL-32-N sorts the same way but pads each slice of 32 rows only
// to its own longest row (32 N_iter slots, like pJDS): the two share N_iter, not the storage.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <spmv/analysis/estimate.hpp>
#include <spmv/analysis/row_stats.hpp>
#include <spmv/analysis/sweep.hpp>
#include <spmv/analysis/warps.hpp>
#include <spmv/formats/ellr.hpp>
#include <spmv/formats/pellr.hpp>
#include <spmv/generators.hpp>

#include "lesson.hpp"
#include "records.hpp"

namespace {

constexpr int warp_size = 32;

struct Row {  // one matrix of the table
    std::string name;
    spmv::analysis::RowLengthStats stats;
    spmv::analysis::WarpAnalysis ellr, pellr;
    std::int64_t sweep_unsorted = 0, sweep_global = 0;  // SELL-32-sigma N_iter at sigma 1, N
    double sigma_by_hand = 0;
    std::int64_t pellr_slots = 0, ellr_slots = 0, sell_slots = 0, pjds_slots = 0;  // stored
};

Row analyse(std::string name, const spmv::Csr<double, std::int32_t>& a)
{
    Row r{std::move(name), spmv::analysis::row_stats(a), {}, {}, 0, 0, 0, 0, 0, 0, 0};
    // [section: sigma]
    // sigma: the population standard deviation of the row lengths (divide by N, not N - 1)
    double sum_sq = 0;
    for (auto len : spmv::row_lengths(a)) sum_sq += (len - r.stats.ave) * (len - r.stats.ave);
    r.sigma_by_hand = std::sqrt(sum_sq / double(a.num_rows));
    // [section: end]
    // [section: n-iter]
    const auto pellr = spmv::to_pellr(a);  // all N rows sorted, stored as ELLPACK-R (N x max)
    r.ellr = spmv::analysis::analyze_warps(spmv::thread_work(spmv::to_ellr(a)), warp_size);
    r.pellr = spmv::analysis::analyze_warps(spmv::thread_work(pellr), warp_size);
    // SELL-32-sigma walks each slice to its longest row: sort window 1 gives ELLR's N_iter, a
    // window of all N rows (one global sort, PELLR's order) gives PELLR's. Only N_iter: SELL
    // pads a slice to its own longest row (32 N_iter slots, like pJDS), PELLR every row to max.
    spmv::FormatParams sell;  // C = 32, warps of 32
    const int windows[] = {1, std::max(1, a.num_rows)};
    const auto sweep = spmv::analysis::sweep(a, "sell", spmv::Param::sort_window, sell, windows);
    r.pellr_slots = spmv::footprint(pellr).stored_entries;
    r.sell_slots = sweep.points.back().stored_slots;
    // [section: end]
    r.ellr_slots = spmv::analysis::estimate_footprint(a, "ellr", sell).stored_entries;
    r.pjds_slots = spmv::analysis::estimate_footprint(a, "pjds", sell).stored_entries;  // b_r 32
    r.sweep_unsorted = sweep.points.front().n_iter;
    r.sweep_global = sweep.points.back().n_iter;
    return r;
}

// Wang & Gu, Table 1, as printed: N, nnz, ave, sigma, max - min.
struct Printed {
    const char* name;
    double n, nnz, ave, sigma, spread;
};
constexpr Printed table1[] = {
    {"rdb2048l", 2048, 12032, 2.9, 0.34, 2},       {"dw2048", 2048, 10114, 4.9, 0.51, 5},
    {"dw8192", 8192, 41746, 5.1, 0.61, 5},         {"qh1484", 1484, 6110, 4.1, 1.60, 11},
    {"mhd4800b", 4800, 27250, 5.7, 2.00, 9},       {"s3dkt3m2", 90449, 1921955, 21.2, 2.39, 38},
    {"s3dkq4m2", 90449, 2455670, 27.1, 2.67, 44},  {"sherman3", 5005, 20033, 4.0, 2.70, 6},
    {"gemat12", 4929, 33044, 6.7, 3.00, 42},       {"lnsp3937", 3937, 25407, 6.5, 3.10, 10},
    {"mhd3200a", 3200, 68026, 21.0, 5.80, 32},     {"utm5940", 5940, 83842, 14.0, 6.30, 29},
    {"bcsstk24", 3562, 159910, 45.0, 11.0, 42},    {"msc23052", 23052, 1154814, 50.1, 11.6, 166},
    {"bcsstk36", 23052, 1143140, 49.6, 12.2, 170}, {"e20r4000", 4241, 131430, 31.0, 15.0, 54},
    {"e40r5000", 17281, 553562, 32.0, 16.0, 54},   {"cavity25", 4562, 131735, 29.0, 17.0, 61},
    {"boneS01", 127224, 6715152, 52.8, 17.64, 69}, {"memplus", 17758, 126150, 7.1, 22.0, 572}};

}  // namespace

int main()
{
    tutorial::SelfCheck check;
    namespace gen = spmv::gen;

    std::vector<Row> rows;
    for (const char* file :
         {"canonical4.mtx", "pjds_fig1.mtx", "pellr_fig5.mtx", "pde05.mtx", "empty_rows_40.mtx",
          "banded_1k.mtx", "powerlaw_2k.mtx", "onefull_256.mtx"}) {
        rows.push_back(analyse(std::string(file).substr(0, std::string(file).find('.')),
                               tutorial::read_sample(file)));
    }
    rows.push_back(analyse("random_12x20k", gen::random_uniform(20'000, 20'000, 12, 1)));
    rows.push_back(analyse("pde30", gen::pde(30)));
    rows.push_back(analyse("blocks5_20k", gen::blocks5(4'000, 8, 1)));
    const std::int64_t far[] = {-40'000, 60'000};
    rows.push_back(analyse("banded_100k", gen::banded_offdiag(100'000, 8, far, 1, 0.5)));
    rows.push_back(analyse("powerlaw_100k", gen::power_law(100'000, 1, 2.0, 500, 1)));
    rows.push_back(analyse("powerlaw_l8_20k", gen::power_law(20'000, 8, 1.0, 200, 1)));
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& a, const Row& b) { return a.stats.sigma < b.stats.sigma; });

    std::printf(
        "Table 1's columns and Fig. 6 as the model sees it, warps of %d, sorted by sigma\n"
        "  %-15s %7s %8s %6s %6s %7s %7s %6s %6s\n",
        warp_size, "matrix", "N", "nnz", "ave", "sigma", "max-min", "N_iter", "", "PELLR /");
    std::printf("  %-15s %7s %8s %6s %6s %7s %7s %6s %6s\n", "", "", "", "", "", "", "ELLR",
                "PELLR", "ELLR");
    bool never_worse = true, same_np = true, sweep_ok = true, sigma_ok = true;
    for (const auto& r : rows) {
        const double ratio = double(r.pellr.n_iter) / double(r.ellr.n_iter);
        std::printf("  %-15s %7lld %8lld %6.2f %6.2f %7lld %7lld %6lld %6.3f %s\n", r.name.c_str(),
                    static_cast<long long>(r.stats.rows), static_cast<long long>(r.stats.nnz),
                    r.stats.ave, r.stats.sigma, static_cast<long long>(r.stats.spread),
                    static_cast<long long>(r.ellr.n_iter), static_cast<long long>(r.pellr.n_iter),
                    ratio,
                    std::string(static_cast<std::size_t>(std::lround(10 * ratio)), '#').c_str());
        never_worse = never_worse && r.pellr.n_iter <= r.ellr.n_iter;
        same_np = same_np && r.pellr.n_p == r.ellr.n_p &&
                  r.ellr.n_p == 2 * r.stats.nnz - (r.stats.rows - r.stats.empty_rows);
        sweep_ok =
            sweep_ok && r.sweep_unsorted == r.ellr.n_iter && r.sweep_global == r.pellr.n_iter;
        sigma_ok =
            sigma_ok && std::abs(r.sigma_by_hand - r.stats.sigma) <= 1e-12 * (1 + r.stats.sigma);
    }
    const auto& canonical = *std::find_if(rows.begin(), rows.end(),
                                          [](const Row& r) { return r.name == "canonical4"; });
    check.expect(canonical.stats.nnz == 9 && canonical.stats.ave == 2.25 &&
                     std::abs(canonical.stats.sigma - std::sqrt(2.75 / 4)) < 1e-15 &&
                     canonical.stats.spread == 2,
                 "canonical 4x4: nnz 9, ave 2.25, sigma sqrt(2.75 / 4) = 0.829, max - min 2");
    check.expect(sigma_ok, "sigma by hand (population, / N) == row_stats(A).sigma, every matrix");
    check.expect(
        rows.front().stats.sigma == 0 && rows.front().pellr.n_iter == rows.front().ellr.n_iter,
        "sigma = 0 (12 entries in every row): sorting changes nothing, ratio 1");
    check.expect(never_worse,
                 "PELLR's N_iter <= ELLR's for every matrix (lesson 06: sorted is "
                 "the smallest possible)");
    check.expect(same_np, "N_p (eq. 2) = 2 nnz - non-empty rows, the same for both formats");
    check.expect(sweep_ok, "SELL-32-sigma sweep: N_iter at sigma 1 = ELLR's, at sigma N = PELLR's");

    // The same N_iter, not the same storage: PELLR pads every row to max (§3: A[], J[] and rl[]
    // "same as ELLR format"), SELL-32-N (and pJDS) a slice of 32 rows only to its longest row.
    std::printf("\nStored slots: PELLR = N x max (as ELLR), SELL-32-N = 32 x N_iter (as pJDS)\n"
                "  %-15s %9s %9s %9s %9s\n", "matrix", "PELLR", "ELLR", "SELL-32-N", "pJDS");
    bool pellr_is_ell = true, sell_is_pjds = true;
    std::vector<std::string> same_storage;
    for (const auto& r : rows) {
        std::printf("  %-15s %9lld %9lld %9lld %9lld\n", r.name.c_str(),
                    static_cast<long long>(r.pellr_slots), static_cast<long long>(r.ellr_slots),
                    static_cast<long long>(r.sell_slots), static_cast<long long>(r.pjds_slots));
        pellr_is_ell = pellr_is_ell && r.pellr_slots == r.stats.rows * r.stats.max &&
                       r.pellr_slots == r.ellr_slots;
        sell_is_pjds = sell_is_pjds && r.sell_slots == warp_size * r.pellr.n_iter &&
                       r.pjds_slots <= r.sell_slots;
        if (r.pellr_slots == r.sell_slots) same_storage.push_back(r.name);
    }
    check.expect(pellr_is_ell, "PELLR stores N x max slots, as many as ELLR (Wang & Gu §3)");
    check.expect(sell_is_pjds, "SELL-32-N stores 32 x PELLR's N_iter slots, pJDS (b_r 32) <= that");
    check.expect(same_storage == std::vector<std::string>{"random_12x20k"},
                 "PELLR and SELL-32-N store alike only for random_12x20k (sigma 0, 32 | N)");

    // [section: printed]
    // The printed Table 1 against itself: ave should be nnz / N (the table rounds to two or
    // three digits), and no sigma can exceed (max - min) / 2 (Popoviciu's inequality).
    int ave_agrees = 0, sigma_bounded = 0;
    for (const auto& p : table1) {
        const double digits = std::pow(10.0, std::floor(std::log10(p.ave)) - 1);  // 2 digits
        ave_agrees += std::abs(p.nnz / p.n - p.ave) <= 0.5 * digits + 1e-9;
        sigma_bounded += p.sigma <= p.spread / 2;
    }
    // [section: end]
    std::printf(
        "\nWang & Gu's Table 1 as printed (20 matrices, none in our collection):\n"
        "  ave = nnz / N to two digits for %d, sigma <= (max - min) / 2 for %d\n",
        ave_agrees, sigma_bounded);
    std::printf("  rdb2048l prints ave 2.9, but 12,032 / 2,048 = %.2f\n", 12032.0 / 2048.0);
    check.expect(ave_agrees == 19 && sigma_bounded == 20,
                 "Table 1: ave = nnz / N for 19 of 20 rows (not rdb2048l), sigma bounded for all");

    // [section: records]
    // Today's GPU: PELLR / ELLR kernel time (medians) for every matrix the H100 records hold
    // both for, in one precision.
    auto ratios = [](const tutorial::BenchRecords& part, const char* precision) {
        std::vector<std::pair<std::string, double>> out;
        for (const auto& r : part.rows) {
            if (r.format != "pellr" || r.precision != precision || !r.error.empty()) continue;
            if (const auto* e = part.find(r.matrix, precision, "ellr"))
                out.emplace_back(r.matrix, r.median_ms / e->median_ms);
        }
        return out;
    };
    // [section: end]
    const tutorial::BenchRecords collection[] = {tutorial::read_h100_records("a"),
                                                 tutorial::read_h100_records("b")};
    std::printf("\nH100 records (%s, commit %s)\nPELLR / ELLR kernel time:\n",
                collection[0].device.c_str(), collection[0].commit.c_str());
    for (const char* precision : {"sp", "dp"}) {
        std::vector<double> q;
        for (const auto& part : collection)
            for (const auto& [matrix, ratio] : ratios(part, precision)) q.push_back(ratio);
        std::sort(q.begin(), q.end());
        const auto faster = std::count_if(q.begin(), q.end(), [](double v) { return v < 1; });
        std::printf(
            "  collection, %s: PELLR faster on %lld of %zu; median %.3f, range %.3f .. "
            "%.3f\n",
            precision, static_cast<long long>(faster), q.size(),
            (q[(q.size() - 1) / 2] + q[q.size() / 2]) / 2, q.front(), q.back());
        check.expect(q.size() == 98, std::string("collection, ") + precision +
                                         ": all 98 readable matrices have both times");
    }
    std::printf("  generated (parts large and fitlarge), where both were built:      dp     sp\n");
    for (const auto& part :
         {tutorial::read_h100_records("large"), tutorial::read_h100_records("fitlarge")}) {
        const auto sp = ratios(part, "sp");
        for (const auto& [matrix, dp] : ratios(part, "dp")) {
            const auto s = std::find_if(sp.begin(), sp.end(),
                                        [&](const auto& m) { return m.first == matrix; });
            std::printf("    %-60s %6.3f %6.3f\n", matrix.c_str(), dp, s->second);
        }
    }
    return check.finish();
}
